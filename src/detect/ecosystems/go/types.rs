//! What Go source says of its types, as the settings readers (`os.Getenv` reads,
//! envconfig, viper) ask it: whether a field's type holds a setting, and which struct a
//! variable is.

use regex::Regex;

/// Whether a Go field type holds a setting: a flag, a number, a duration, a list or a map.
pub(super) fn is_setting_type(ty: &str) -> bool {
    let ty = ty.trim_start_matches('*');
    ty == "bool"
        || ty.starts_with("int")
        || ty.starts_with("uint")
        || ty.starts_with("float")
        || ty == "time.Duration"
        || ty.starts_with("map[")
        || ty.starts_with("[]") && ty != "[]byte"
}

/// The struct type of a variable or parameter of the file, without its package: `var cfg
/// Config`, `cfg := Config{}`, `cfg := &conf.Config{}`, `cfg = new(conf.Config)`, `Server =
/// &configOptions{}` (a package's own type may be unexported: the fields are what is read),
/// `func load(config *conf.Config)`.
pub(super) fn variable_type(text: &str, variable: &str) -> Option<String> {
    let pattern = Regex::new(&format!(
        r"(?-u:\b){v}[[:space:]]+\*?(?:[a-z][[:word:]]*\.)?([A-Z][[:word:]]*)[[:space:]]*(?:\n|;|=|,|\)|$)|(?-u:\b){v}[[:space:]]*:?=[[:space:]]*(?:&?(?:[a-z][[:word:]]*\.)?([A-Za-z][[:word:]]*)[[:space:]]*\{{|new\([[:space:]]*(?:[a-z][[:word:]]*\.)?([A-Za-z][[:word:]]*)[[:space:]]*\))",
        v = regex::escape(variable)
    ))
    .ok()?;
    let c = pattern.captures(text)?;
    c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str().to_string())
}
