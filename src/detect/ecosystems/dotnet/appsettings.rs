//! ASP.NET Core's `appsettings.json` (and `appsettings.Development.json`, which `dotnet run`
//! layers over it): every key is also read from the environment, its sections joined by `__`
//! (`GlobalSettings:Mail:SmtpPassword` is `GlobalSettings__Mail__SmtpPassword`). A key the
//! file leaves to be given is a variable the developer sets; one it gives a value needs
//! nothing, so each read carries the value for the secrets signal to judge (see
//! [`EnvRead::settings_key`]).
//!
//! Not read: the files of other environments (`appsettings.Production.json`,
//! `appsettings.Docker.json`: a deployment gives what they hold), and a Blazor app's
//! `wwwroot/appsettings.json`, which the browser downloads — nothing in it is a secret.

use serde_json::Value;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The settings files of development: the base file and the Development environment's.
const DEVELOPMENT_FILES: &[&str] = &["appsettings.json", "appsettings.Development.json"];

/// At most this many keys are taken from one file: a settings file holds tens.
const MAX_KEYS: usize = 400;

/// Whether `name` in `dir` is a settings file the app reads in development (see the module
/// documentation).
pub fn is_appsettings(dir: &str, name: &str) -> bool {
    DEVELOPMENT_FILES.iter().any(|f| name.eq_ignore_ascii_case(f))
        && !dir.split('/').any(|part| part.eq_ignore_ascii_case("wwwroot"))
}

/// The variables an appsettings file's keys are read from: one per key whose value is a
/// string (or `null`), named as the environment provider binds it, with the value. Numbers
/// and booleans are settings; arrays bind by index, never a credential's name.
pub fn reads(text: &str) -> Vec<EnvRead> {
    // Visual Studio saves JSON with a byte-order mark, which the parser refuses.
    let json_text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Ok(Some(json)) = jsonc_parser::parse_to_serde_value(json_text, &Default::default()) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    leaves(&json, &mut Vec::new(), 0, text, &mut found);
    found
}

/// The string leaves under `node` (at `path`, whose last segment lies at `from` in `text`).
fn leaves<'j>(node: &'j Value, path: &mut Vec<&'j str>, from: usize, text: &str, out: &mut Vec<EnvRead>) {
    let Some(object) = node.as_object() else { return };
    for (key, value) in object {
        if out.len() >= MAX_KEYS {
            return;
        }
        // A variable's name holds letters, digits and `_` only (`Logging:LogLevel:Microsoft.AspNetCore`
        // cannot be set from a shell).
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let at = key_offset(text, key, from);
        path.push(key);
        match value {
            Value::Object(_) => leaves(value, path, at, text, out),
            Value::String(_) | Value::Null => {
                let given = value.as_str().unwrap_or_default();
                let read = EnvRead::new(path.join("__"), at, Need::Optional, "appsettings key")
                    .of_settings_key(path.join("."), given)
                    // Under the prefix of the project's `AddEnvironmentVariables("APP_")`.
                    .without_prefix(true);
                out.push(read);
            }
            _ => {}
        }
        path.pop();
    }
}

/// Where the key `"key":` lies in `text`, looking from `from` past commented lines (`//`,
/// `/* … */` lines of a JSONC file); `from` when it cannot be found.
fn key_offset(text: &str, key: &str, from: usize) -> usize {
    let quoted = format!("\"{key}\"");
    let mut start = from;
    while let Some(found) = text.get(start..).and_then(|rest| rest.find(&quoted)) {
        let at = start + found;
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = text[line_start..at].trim_start();
        let after = text[at + quoted.len()..].trim_start();
        if after.starts_with(':') && !["//", "/*", "*"].iter().any(|c| before.starts_with(c)) {
            return at;
        }
        start = at + quoted.len();
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, String, String)> {
        reads(text)
            .into_iter()
            .map(|r| {
                let key = r.settings_key.unwrap();
                (r.name, key.key, key.value)
            })
            .collect()
    }

    #[test]
    fn keys_bind_with_double_underscores_and_keep_their_values() {
        let text = r#"{
  // "Stripe": { "ApiKey": "commented" },
  "ConnectionStrings": { "Shop": "Host=db;Password=" },
  "Stripe": { "ApiKey": "", "Retries": 3, "Live": false },
  "GlobalSettings": { "Mail": { "SmtpPassword": null } },
  "Logging": { "LogLevel": { "Microsoft.AspNetCore": "Warning" } },
  "Hosts": ["a"],
}"#;
        // In the order serde_json keeps an object's keys (sorted); the scan sorts reads by offset.
        assert_eq!(
            found(text),
            [
                ("ConnectionStrings__Shop".into(), "ConnectionStrings.Shop".into(), "Host=db;Password=".into()),
                ("GlobalSettings__Mail__SmtpPassword".into(), "GlobalSettings.Mail.SmtpPassword".into(), String::new()),
                ("Stripe__ApiKey".into(), "Stripe.ApiKey".into(), String::new()),
            ]
        );
        let reads = reads(text);
        let api_key = reads.iter().find(|r| r.name == "Stripe__ApiKey").unwrap();
        assert!(api_key.unprefixed && !api_key.derived);
        assert_eq!(api_key.need, Need::Optional);
        // The offset of the key itself, not of its commented-out twin.
        assert!(text[api_key.at..].starts_with("\"ApiKey\": \"\""));
    }

    #[test]
    fn development_files_outside_the_browser_s_folder() {
        assert!(is_appsettings("src/Api", "appsettings.json"));
        assert!(is_appsettings("src/Api", "appsettings.Development.json"));
        assert!(!is_appsettings("src/Api", "appsettings.Production.json"));
        assert!(!is_appsettings("src/Api", "appsettings.Docker.json"));
        assert!(!is_appsettings("src/Admin/wwwroot", "appsettings.json"));
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_json() {
        let text = "\u{feff}{\n  \"Identity\": { \"AdminPassword\": \"\" }\n}";
        let reads = reads(text);
        assert_eq!(reads.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["Identity__AdminPassword"]);
        assert!(text[reads[0].at..].starts_with("\"AdminPassword\""));
    }

    #[test]
    fn a_file_that_is_no_json_reads_nothing() {
        assert!(reads("{ not json").is_empty());
        assert!(reads("[1, 2]").is_empty());
    }
}
