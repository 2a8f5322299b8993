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
    variable_type_in(text, variable).map(|(_, ty)| ty)
}

/// [`variable_type`] and the package it names the type in (`globalconfig` of
/// `*globalconfig.All`), if any.
pub(super) fn variable_type_in(text: &str, variable: &str) -> Option<(Option<String>, String)> {
    let pattern = Regex::new(&format!(
        r"(?-u:\b){v}[[:space:]]+\*?(?:([a-z][[:word:]]*)\.)?([A-Z][[:word:]]*)[[:space:]]*(?:\n|;|=|,|\)|$)|(?-u:\b){v}[[:space:]]*:?=[[:space:]]*(?:&?(?:([a-z][[:word:]]*)\.)?([A-Za-z][[:word:]]*)[[:space:]]*\{{|new\([[:space:]]*(?:([a-z][[:word:]]*)\.)?([A-Za-z][[:word:]]*)[[:space:]]*\))",
        v = regex::escape(variable)
    ))
    .ok()?;
    let c = pattern.captures(text)?;
    let (package, ty) = [(1, 2), (3, 4), (5, 6)].into_iter().find_map(|(p, t)| Some((c.get(p), c.get(t)?)))?;
    Some((package.map(|p| p.as_str().to_string()), ty.as_str().to_string()))
}
