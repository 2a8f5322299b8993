//! The file's own env helpers: functions whose first parameter names the variable they read
//! (`def envsecret(s, default=None): return os.getenv(s, default)`), directly or through
//! another such function, and the calls to them with a literal name.

use super::*;

/// Functions of the file that read the variable their first parameter names
/// (`def envsecret(s, default=None): return os.getenv(s, default)`): calls to them with a
/// literal are reads too — optional with a second argument, required when the function
/// indexes `os.environ` or its name says so (`require_env`, `must_get`).
pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    let mut found = Vec::new();
    for (wrapper, required, scalar) in wrappers(text) {
        let Ok(call) = Regex::new(&format!(
            r#"(?:^|[^[:word:].]){}\([[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#,
            regex::escape(&wrapper)
        )) else {
            continue;
        };
        let reads = code::reads_of(&call, text, "env helper", |after| {
            if passes_default(arguments(after)) {
                Need::Optional
            } else if required {
                Need::Required
            } else {
                Need::Unstated
            }
        });
        // `envsecret("TRELLO_APP_KEY")`: the project says the value is a credential.
        let marked = EnvHelper::named(&wrapper, required).marked_secret;
        // `env_bool("X")`: the helper's name says what it makes of the value.
        let scalar = scalar || code::names_a_typed_parser(&wrapper);
        let reads = reads.into_iter().map(|read| {
            let setting = scalar || default_is_setting(arguments(&text[read.at..][read.name.len() + 1..]));
            read.typed_setting(setting).marked_secret(marked && !setting)
        });
        found.extend(reads);
    }
    found
}

/// The functions of the file that read the variable their first parameter names, as env
/// helpers of the project: other files call them too (`get_secret("DB_PASSWORD", "x")`
/// from the settings, with the function in `utils/secrets.py`; see [`helper_calls`]). Its
/// name marks nothing there: a project's `get_secret` reads its database host as well.
pub fn function_helpers(text: &str) -> Vec<EnvHelper> {
    wrappers(text)
        .into_iter()
        .map(|(function, required, scalar)| EnvHelper {
            setting: scalar || EnvHelper::named(&function, required).setting,
            marked_secret: false,
            ..EnvHelper::named(&function, required)
        })
        .collect()
}

/// The functions of `text` whose first parameter goes to `os.environ`/`os.getenv`, or to
/// another such function of the file (`set_from_env(name)` → `_set_from_env(name, globals())`
/// → `os.environ.get(name)`): each with whether it requires the variable (it indexes
/// `os.environ`, or its name says so) and whether it parses a flag or a number.
pub(super) fn wrappers(text: &str) -> Vec<(String, bool, bool)> {
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^([ \t]*)def[[:space:]]+([A-Za-z_][[:word:]]*)[[:space:]]*\([[:space:]]*([A-Za-z_][[:word:]]*)",
        )
        .expect("the def pattern is valid")
    });
    // Each function with its first parameter and body.
    let mut defs: Vec<(&str, &str, &str)> = Vec::new();
    for c in DEF.captures_iter(text) {
        let (Some(whole), Some(indent), Some(function), Some(parameter)) = (c.get(0), c.get(1), c.get(2), c.get(3))
        else {
            continue;
        };
        let mut lines = text[whole.end()..].split_inclusive('\n');
        let mut body_end = whole.end() + lines.next().map_or(0, str::len);
        for line in lines {
            let content = line.trim();
            if !content.is_empty() && !content.starts_with('#') && line.len() - line.trim_start().len() <= indent.len()
            {
                break;
            }
            body_end += line.len();
        }
        defs.push((function.as_str(), parameter.as_str(), &text[whole.end()..body_end]));
    }
    let mut wrappers: Vec<(String, bool, bool)> = Vec::new();
    // Functions that call one found before are found in the next pass; a chain is short.
    for _pass in 0..3 {
        let before = wrappers.len();
        for &(function, parameter, body) in &defs {
            if wrappers.iter().any(|(w, _, _)| w == function) {
                continue;
            }
            let read_by = |call: &str, whole_word: bool| {
                body.match_indices(&format!("{call}{parameter}")).any(|(at, m)| {
                    let starts_a_word =
                        !whole_word || !body[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.');
                    starts_a_word && body[at + m.len()..].trim_start().starts_with([',', ')', ']'])
                })
            };
            let indexes = read_by("os.environ[", false) || read_by("environ[", false);
            let by_os = ["os.getenv(", "os.environ.get(", "environ.get(", "getenv("].iter().any(|c| read_by(c, false));
            let by_wrapper = wrappers.iter().find(|(w, _, _)| read_by(&format!("{w}("), true)).map(|(_, r, _)| *r);
            if !(indexes || by_os || by_wrapper.is_some()) {
                continue;
            }
            let lower = function.to_ascii_lowercase();
            // `get_bool_from_env("AWS_QUERYSTRING_AUTH")`, `envint("X")`: a flag or a number is no secret.
            let scalar = lower.split('_').any(|part| SCALAR_TYPES.contains(&part))
                || SCALAR_TYPES.iter().any(|t| lower.strip_prefix("env").is_some_and(|rest| rest == *t));
            let required = indexes || by_wrapper == Some(true) || lower.contains("require") || lower.contains("must");
            wrappers.push((function.to_string(), required, scalar));
        }
        if wrappers.len() == before {
            break;
        }
    }
    wrappers
}
