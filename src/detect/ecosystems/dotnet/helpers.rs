//! A project's own env helpers in C#: methods that read the variable a `string` parameter
//! names (`static string MustGet(string name) => Environment.GetEnvironmentVariable(name) ??
//! throw …`), directly or through another such method of the file, and the calls of any method
//! with a variable's name as its literal first argument (`MustGet("AUTH_SECRET")`), which the
//! secrets signal pairs with them (see [`EnvRead::helper`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead};

const QUOTES: &[char] = &['"'];
const READER: &str = "Environment.GetEnvironmentVariable";
/// Return types of a helper that parses a setting: what it reads is no credential.
const SETTING_TYPES: &[&str] = &["bool", "int", "long", "double", "float", "decimal", "TimeSpan", "Uri"];

/// The methods `text` defines whose string parameter goes to `GetEnvironmentVariable` as it
/// is, or to another such method: required when the method throws without a value (`?? throw`)
/// or its name says it must have one (`MustGet`, `GetRequired`).
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static METHOD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^[ \t]*(?:(?:public|private|protected|internal|static|async)[[:space:]]+)+(?P<returned>[A-Za-z_][[:word:]<>?\[\],.]*)[[:space:]]+(?P<method>[A-Za-z_][[:word:]]*)[[:space:]]*\([[:space:]]*string\??[[:space:]]+(?P<parameter>[A-Za-z_][[:word:]]*)[^)]*\)[[:space:]]*(?P<open>\{|=>)",
        )
        .expect("the C# method pattern is valid")
    });
    if !text.contains(READER) {
        return Vec::new();
    }
    // (method, parameter, body, returned) of each candidate: a block, or an expression body.
    let methods: Vec<(&str, &str, &str, &str)> = METHOD
        .captures_iter(text)
        .filter_map(|c| {
            let (open, method, parameter, returned) =
                (c.name("open")?, c.name("method")?, c.name("parameter")?, c.name("returned")?);
            let body = if open.as_str() == "{" {
                code::block(&text[open.start()..], QUOTES)?
            } else {
                let rest = &text[open.end()..];
                &rest[..rest.find(';').unwrap_or(rest.len())]
            };
            Some((method.as_str(), parameter.as_str(), body, returned.as_str()))
        })
        .collect();
    let passes = |body: &str, call: &str, parameter: &str| {
        body.match_indices(&format!("{call}({parameter}")).any(|(at, m)| {
            let starts_a_word = !body[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            starts_a_word && body[at + m.len()..].trim_start().starts_with([',', ')'])
        })
    };
    let mut found: Vec<(&str, bool, &str)> = Vec::new();
    loop {
        let before = found.len();
        for &(method, parameter, body, returned) in &methods {
            if found.iter().any(|(f, _, _)| *f == method) {
                continue;
            }
            let through = found.iter().find(|(helper, _, _)| passes(body, helper, parameter)).map(|(_, r, _)| *r);
            if passes(body, READER, parameter) || through.is_some() {
                let required = through == Some(true) || body.contains("?? throw");
                found.push((method, required, returned));
            }
        }
        if found.len() == before {
            break;
        }
    }
    found
        .into_iter()
        .map(|(method, throws, returned)| {
            // `MustGet` is marked by its words as `must_get` would be.
            let helper = EnvHelper::named(&code::snake_case(method), throws);
            let required = throws || helper.required || method.starts_with("Must") || method.contains("Required");
            EnvHelper {
                function: method.to_string(),
                required,
                setting: helper.setting || SETTING_TYPES.contains(&returned.trim_end_matches('?')),
                ..helper
            }
        })
        .collect()
}

/// Calls of any method with a variable's name as its literal first argument (`Get("SMTP_HOST")`,
/// `EnvSettings.MustGet("X")`): reads if the project defines the method as a helper.
/// `Environment`'s own reader is found apart.
pub fn helper_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[^[:word:].])(?:(?P<receiver>[A-Za-z_][[:word:]]*)\.)?(?P<function>[A-Za-z_][[:word:]]*)\([[:space:]]*"(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)""#)
            .expect("the C# call pattern is valid")
    });
    code::helper_call_reads(&CALL, text, QUOTES, |receiver, function| {
        receiver == "Environment" || function == "GetEnvironmentVariable"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_that_read_the_variable_their_parameter_names() {
        let text = r#"public class EnvSettings
{
    public static EnvSettings Load() => new EnvSettings
    {
        AuthSecret = Encoding.ASCII.GetBytes(MustGet("AUTH_SECRET")),
        SmtpPassword = Get("SMTP_PASSWORD"),
        Port = GetInt("APP_PORT"),
    };

    private static string Get(string name)
    {
        return Environment.GetEnvironmentVariable(name) ?? "";
    }

    private static int GetInt(string name)
    {
        var value = Get(name);
        return int.Parse(value);
    }

    private static string MustGet(string name) =>
        Environment.GetEnvironmentVariable(name) ?? throw new Exception($"Missing {name}");

    private static string Other(string name) => Environment.GetEnvironmentVariable("X_" + name);
}
"#;
        let rows: Vec<(String, bool, bool)> =
            helpers(text).into_iter().map(|h| (h.function, h.required, h.setting)).collect();
        assert_eq!(
            rows,
            [("Get".into(), false, false), ("GetInt".into(), false, true), ("MustGet".into(), true, false)]
        );
        let calls: Vec<(Option<String>, String)> = helper_calls(text).into_iter().map(|r| (r.helper, r.name)).collect();
        assert_eq!(
            calls,
            [
                (Some("MustGet".into()), "AUTH_SECRET".into()),
                (Some("Get".into()), "SMTP_PASSWORD".into()),
                (Some("GetInt".into()), "APP_PORT".into()),
            ]
        );
        // A file that never reads the environment defines no helper.
        assert_eq!(helpers(&text.replace("Environment.GetEnvironmentVariable", "Lookup")), []);
    }
}
