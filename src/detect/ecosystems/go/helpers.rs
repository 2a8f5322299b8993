//! A project's own env helpers: functions that read the variable a string parameter names
//! (`func envString(key string) string { viper.MustBindEnv(key); return viper.GetString(key) }`,
//! `func getEnv(key, fallback string) string { if v, ok := os.LookupEnv(key); ok { … } }`),
//! directly or through another such function of the file, and the calls of any function with a
//! variable's name as a literal argument (`envString("WATCHTOWER_HTTP_API_TOKEN")`), which the
//! secrets signal pairs with them (see [`EnvRead::helper`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead};

const QUOTES: &[char] = &['"', '`'];

/// What reads the variable its argument names: the os package, and viper's binds, which
/// without `SetEnvPrefix` bind the key upper-cased — an upper-case key is the variable.
const READERS: &[&str] = &["os.Getenv", "os.LookupEnv", "syscall.Getenv"];
const VIPER_BINDS: &[&str] = &["viper.BindEnv", "viper.MustBindEnv"];

/// The functions (and methods) `text` defines whose string parameter goes to a reader as it
/// is, or to another such function.
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static FUNC: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^func[[:space:]]+(?:\([^)]*\)[[:space:]]*)?([A-Za-z_][[:word:]]*)[[:space:]]*\(([^)]*)\)[[:space:]]*([^{\n]*)\{")
            .expect("the Go func pattern is valid")
    });
    if !text.contains("Getenv(") && !text.contains("LookupEnv(") && !text.contains("BindEnv(") {
        return Vec::new();
    }
    let mut direct: Vec<&str> = READERS.to_vec();
    if !text.contains("SetEnvPrefix(") {
        direct.extend(VIPER_BINDS);
    }
    // (function, string parameter, body, what it returns) of each candidate.
    let functions: Vec<(&str, &str, &str, &str)> = FUNC
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, function, parameters, returned) = (c.get(0)?, c.get(1)?, c.get(2)?, c.get(3)?);
            let body = code::block(&text[whole.end() - 1..], QUOTES)?;
            Some(
                string_parameters(parameters.as_str())
                    .into_iter()
                    .map(move |parameter| (function.as_str(), parameter, body, returned.as_str())),
            )
        })
        .flatten()
        .collect();
    let passes = |body: &str, call: &str, parameter: &str| {
        body.match_indices(&format!("{call}({parameter}"))
            .any(|(at, m)| body[at + m.len()..].trim_start().starts_with([',', ')']))
    };
    let mut readers: Vec<(&str, &str)> = Vec::new();
    loop {
        let before = readers.len();
        for &(function, parameter, body, returned) in &functions {
            if readers.iter().any(|(f, _)| *f == function) {
                continue;
            }
            let calls =
                |reader: &str| passes(body, reader, parameter) || passes(body, &format!(".{reader}"), parameter);
            if direct.iter().any(|call| passes(body, call, parameter)) || readers.iter().any(|(r, _)| calls(r)) {
                readers.push((function, returned));
            }
        }
        if readers.len() == before {
            break;
        }
    }
    readers
        .into_iter()
        .map(|(function, returned)| {
            // `envString` is marked by its words as `env_string` would be.
            let helper = EnvHelper::named(&code::snake_case(function), false);
            EnvHelper {
                function: function.to_string(),
                setting: helper.setting || returns_a_setting(returned),
                ..helper
            }
        })
        .collect()
}

/// The names of the `string` parameters of a Go parameter list (`key, fallback string, n int`).
fn string_parameters(parameters: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    for parameter in parameters.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match parameter.split_once(char::is_whitespace) {
            Some((name, kind)) => {
                pending.push(name);
                if kind.trim() == "string" {
                    found.append(&mut pending);
                }
                pending.clear();
            }
            None => pending.push(parameter),
        }
    }
    found
}

/// Whether a helper hands back a flag, a number or a duration (`func envBool(key string)
/// bool`): what it reads is a setting whatever the variable's name.
fn returns_a_setting(returned: &str) -> bool {
    let first = returned.trim().trim_start_matches('(').split([',', ')', ' ']).next().unwrap_or_default();
    first == "bool"
        || first == "time.Duration"
        || ["int", "uint", "float"].iter().any(|number| first.starts_with(number))
}

/// Calls of any function with a variable's name as a literal argument (`envString("X")`,
/// `config.GetEnv("X", "d")`): reads if the project defines the function as a helper.
/// Optional with another argument. Calls of the os package and viper are their own readers'.
pub fn helper_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[^[:word:].])(?:(?P<receiver>[A-Za-z_][[:word:]]*)\.)?(?P<function>[A-Za-z_][[:word:]]*)\([[:space:]]*(?:[^()";{}=]|"[^"\n]*")*?"(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)""#)
            .expect("the Go call pattern is valid")
    });
    code::helper_call_reads(&CALL, text, QUOTES, |package, _| matches!(package, "os" | "syscall" | "viper"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::ecosystems::ecosystem::Need;

    #[test]
    fn helpers_that_bind_or_read_the_variable() {
        let text = "func envString(key string) string {\n\tviper.MustBindEnv(key)\n\treturn viper.GetString(key)\n}\n\nfunc envBool(key string) bool {\n\tviper.MustBindEnv(key)\n\treturn viper.GetBool(key)\n}\n\nfunc getEnv(key, fallback string) string {\n\tif v, ok := os.LookupEnv(key); ok {\n\t\treturn v\n\t}\n\treturn fallback\n}\n\nfunc mustSecret(name string) string {\n\treturn getEnv(name, \"\")\n}\n\nfunc shout(word string) string { return strings.ToUpper(word) }\n";
        let found: Vec<(String, bool, bool)> =
            helpers(text).into_iter().map(|h| (h.function, h.setting, h.marked_secret)).collect();
        assert_eq!(
            found,
            [
                ("envString".into(), false, false),
                ("envBool".into(), true, false),
                ("getEnv".into(), false, false),
                ("mustSecret".into(), false, true),
            ]
        );
        // Under `SetEnvPrefix` a bound key is not the variable's name.
        let prefixed = format!("{text}\nfunc init() {{ viper.SetEnvPrefix(\"app\") }}\n");
        let names: Vec<String> = helpers(&prefixed).into_iter().map(|h| h.function).collect();
        assert_eq!(names, ["getEnv", "mustSecret"]);
    }

    #[test]
    fn calls_with_a_variables_name() {
        let text = "flags.StringP(\"token\", \"\", envString(\"APP_API_TOKEN\"), \"the token\")\nport := config.GetEnv(\"APP_PORT\", \"8080\")\nx := os.Getenv(\"DIRECT_KEY\")\nviper.SetDefault(\"APP_LEVEL\", \"info\")\n";
        let found: Vec<(String, String, Need)> =
            helper_calls(text).into_iter().map(|r| (r.helper.unwrap_or_default(), r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                ("envString".into(), "APP_API_TOKEN".into(), Need::Unstated),
                ("GetEnv".into(), "APP_PORT".into(), Need::Optional),
            ]
        );
        assert_eq!(string_parameters("key, fallback string, n int"), ["key", "fallback"]);
        assert_eq!(string_parameters("n int, key string"), ["key"]);
    }
}
