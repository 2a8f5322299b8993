//! configparser with an interpolation that falls back to the environment: a subclass of
//! `configparser.BasicInterpolation` (or any `…Interpolation`) whose `before_get` reads
//! `os.getenv(option)` makes every option of an INI file settable as the variable of the
//! option's name (CTFd's `config.ini`: `SECRET_KEY =` left empty, filled from `SECRET_KEY`).
//! The options the code asks such a parser for — `ini["server"]["SECRET_KEY"]`,
//! `ini["server"].get("SECRET_KEY")`, `ini.get("server", "SECRET_KEY")` — are the reads.
//! Optional: the INI file may give the value.

use std::sync::LazyLock;

use regex::Regex;

use super::{classes, is_identifier};
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// How the reads are named in the evidence.
const VIA: &str = "configparser option the environment may fill";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    if !text.contains("Interpolation") || !text.contains("before_get") {
        return Vec::new();
    }
    let interpolations: Vec<&str> = classes(text)
        .into_iter()
        .filter(|class| class.bases.iter().any(|b| b.ends_with("Interpolation")))
        .filter(|class| falls_back_to_environment(&text[class.body.clone()]))
        .map(|class| class.name)
        .collect();
    let mut found = Vec::new();
    for interpolation in interpolations {
        for parser in parsers(text, interpolation) {
            found.extend(options_read(text, &parser));
        }
    }
    found
}

/// Whether a class body's `before_get(self, parser, section, option, …)` reads the variable
/// its `option` parameter names.
fn falls_back_to_environment(body: &str) -> bool {
    static BEFORE_GET: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"def[[:space:]]+before_get[[:space:]]*\(([^)]*)\)").expect("the before_get pattern is valid")
    });
    let Some(parameters) = BEFORE_GET.captures(body).and_then(|c| c.get(1)) else { return false };
    let Some(option) = parameters.as_str().split(',').nth(3).map(|p| p.split(':').next().unwrap_or_default().trim())
    else {
        return false;
    };
    if !is_identifier(option) {
        return false;
    }
    let method = &body[parameters.end()..];
    ["getenv(", "environ.get(", "environ["].iter().any(|call| {
        method.match_indices(&format!("{call}{option}")).any(|(at, m)| {
            method[at + m.len()..].trim_start().starts_with([',', ')', ']'])
                && method[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
        })
    })
}

/// The names the file binds a parser using `interpolation` to:
/// `config_ini = configparser.ConfigParser(interpolation=EnvInterpolation())`.
fn parsers(text: &str, interpolation: &str) -> Vec<String> {
    let Ok(binding) = Regex::new(&format!(
        r"(?m)^[[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*=[[:space:]]*(?:configparser\.)?(?:Raw|Safe)?ConfigParser\([^)]*?interpolation[[:space:]]*=[[:space:]]*{}\(",
        regex::escape(interpolation)
    )) else {
        return Vec::new();
    };
    binding.captures_iter(text).filter_map(|c| c.get(1)).map(|p| p.as_str().to_string()).collect()
}

/// The options the file reads from `parser`: by subscript, `get`/`getboolean`/… on a
/// section, or `parser.get(section, option)`. A boolean or number getter reads a setting.
fn options_read(text: &str, parser: &str) -> Vec<EnvRead> {
    let parser = regex::escape(parser);
    let Ok(option) = Regex::new(&format!(
        r#"(?:^|[^[:word:].]){parser}(?:\[[[:space:]]*['"][^'"\n]+['"][[:space:]]*\](?:\[|\.(get|getboolean|getint|getfloat)\()|\.(get|getboolean|getint|getfloat)\([[:space:]]*['"][^'"\n]+['"][[:space:]]*,)[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#
    )) else {
        return Vec::new();
    };
    option
        .captures_iter(text)
        .filter_map(|c| {
            let name = c.get(3)?;
            let getter = c.get(1).or(c.get(2)).map_or("get", |g| g.as_str());
            Some(EnvRead::new(name.as_str(), name.start(), Need::Optional, VIA).typed_setting(getter != "get"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTERPOLATION: &str = "import configparser, os\n\nclass EnvInterpolation(configparser.BasicInterpolation):\n    def before_get(self, parser, section, option, value, defaults):\n        value = super().before_get(parser, section, option, value, defaults)\n        envvar = os.getenv(option)\n        if value == \"\" and envvar:\n            return envvar\n        return value\n\n";

    fn names(text: &str) -> Vec<(String, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.setting)).collect()
    }

    #[test]
    fn options_of_a_parser_that_falls_back_to_the_environment() {
        let text = format!(
            "{INTERPOLATION}config_ini = configparser.ConfigParser(interpolation=EnvInterpolation())\nconfig_ini.read(path)\n\nclass Config:\n    SECRET_KEY = config_ini[\"server\"][\"SECRET_KEY\"]\n    MAIL_PASSWORD = config_ini['email'].get('MAIL_PASSWORD')\n    TLS = config_ini[\"email\"].getboolean(\"MAIL_TLS\", fallback=False)\n    TOKEN = config_ini.get(\"management\", \"PRESET_ADMIN_TOKEN\")\n"
        );
        assert_eq!(
            names(&text),
            [
                ("SECRET_KEY".into(), false),
                ("MAIL_PASSWORD".into(), false),
                ("MAIL_TLS".into(), true),
                ("PRESET_ADMIN_TOKEN".into(), false)
            ]
        );
    }

    #[test]
    fn a_plain_parser_or_an_interpolation_of_values_reads_nothing() {
        // The standard interpolation: options are read from the file only.
        let plain = "import configparser\nini = configparser.ConfigParser()\nKEY = ini['server']['SECRET_KEY']\n";
        assert!(reads(plain).is_empty());
        // An interpolation that expands `$VAR` in values names no variable by the option.
        let values = "class Expand(configparser.BasicInterpolation):\n    def before_get(self, parser, section, option, value, defaults):\n        return os.path.expandvars(value)\n\nini = configparser.ConfigParser(interpolation=Expand())\nKEY = ini['server']['SECRET_KEY']\n";
        assert!(reads(values).is_empty());
        // Another parser of the same file keeps to its file.
        let other = format!("{INTERPOLATION}ini = ConfigParser()\nKEY = ini['server']['SECRET_KEY']\n");
        assert!(reads(&other).is_empty());
    }
}
