//! Command-line flag libraries that read the environment. urfave/cli's flags read the names
//! they list: v3's `Sources:
//! cli.EnvVars("X", "Y")` (or a `cli.NewValueSourceChain(…, cli.EnvVar("X"))`), v2's
//! `EnvVars: []string{"X"}`, v1's `EnvVar: "X,Y"`. The flag's type says what the value is (a
//! `BoolFlag`, `IntFlag`, `DurationFlag` or `StringSliceFlag` holds a setting), its `Value:`
//! gives a default, `Required: true` makes it needed, and its `Usage:` says what it holds: a
//! credential (`oauth2 client secret`) or where one is (`server ssl key path`). peterbourgon/ff
//! reads every flag of a standard flag set under a prefix (see [`ff_reads`]).

use std::sync::LazyLock;

use regex::Regex;

use super::env::describes_a_credential;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const QUOTES: &[char] = &['"', '`'];

/// Flag types whose value is a string of the user's: every other type of the library holds a
/// setting (`BoolFlag`, `IntFlag`, `DurationFlag`, `TimestampFlag`, the slices and maps).
const STRING_FLAGS: &[&str] = &["String", "Generic"];

/// The variables the flags of `text` read: urfave/cli's, and peterbourgon/ff's.
pub fn reads(text: &str) -> Vec<EnvRead> {
    let mut found = urfave_reads(text);
    found.extend(ff_reads(text));
    found
}

/// peterbourgon/ff: `ff.Parse(fs, args, ff.WithEnvVarPrefix("APP"))` reads every flag of the
/// standard library's flag set from `APP_<NAME>` (`-`, `.` and `/` as `_`; without a prefix,
/// `ff.WithEnvVars()`, from `<NAME>`): `fs.String("api-key", "", "upstream API key")`,
/// `fs.StringVar(&key, "api-key", …)`. The method says the type; the default and the usage
/// follow the name.
fn ff_reads(text: &str) -> Vec<EnvRead> {
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)ff\.WithEnvVar(?:Prefix\(\s*"([A-Za-z0-9_]+)"|s\(\s*\))"#)
            .expect("the ff env option pattern is valid")
    });
    static FLAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)[a-z_][[:word:]]*\.([A-Z][a-z0-9]*)(?:Var)?\(\s*(?:&[[:word:].]+\s*,\s*)?"([a-zA-Z0-9][a-zA-Z0-9._/-]*)""#)
            .expect("the flag declaration pattern is valid")
    });
    let Some(option) = PREFIX.captures(text) else { return Vec::new() };
    let prefix = option.get(1).map(|p| format!("{}_", p.as_str().to_ascii_uppercase())).unwrap_or_default();
    let mut found = Vec::new();
    for c in FLAG.captures_iter(text) {
        let (Some(whole), Some(kind), Some(flag)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        let kind = kind.as_str();
        if !matches!(kind, "String" | "Bool" | "Int" | "Int64" | "Uint" | "Uint64" | "Float64" | "Duration") {
            continue;
        }
        let rest = code::rest_of_call(&text[whole.end()..], QUOTES);
        let mut args = rest.trim_start().strip_prefix(',').unwrap_or_default().trim_start();
        let default = code::expression(args, QUOTES).trim();
        args = args[default.len()..].trim_start().strip_prefix(',').unwrap_or_default().trim_start();
        let usage = code::expression(args, QUOTES).trim().trim_matches(['"', '`']);
        let name = format!("{prefix}{}", flag.as_str().to_ascii_uppercase().replace(['-', '.', '/'], "_"));
        let setting = kind != "String" || describes_a_location(usage);
        let need = if default.is_empty() || default == "\"\"" { Need::Unstated } else { Need::Optional };
        found.push(
            EnvRead::new(name, flag.start(), need, "ff flag")
                .typed_setting(setting)
                .marked_secret(!setting && describes_a_credential(usage)),
        );
    }
    found
}

/// The variables the urfave/cli flags of `text` read.
fn urfave_reads(text: &str) -> Vec<EnvRead> {
    static FLAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)[A-Za-z_][A-Za-z0-9_]*\.([A-Z][A-Za-z0-9]*)Flag\s*\{")
            .expect("the cli flag pattern is valid")
    });
    if !text.contains("urfave/cli") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in FLAG.captures_iter(text) {
        let (Some(whole), Some(kind)) = (c.get(0), c.get(1)) else { continue };
        let open = whole.end() - 1;
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        let body_at = open + 1;
        let names = env_names(body);
        if names.is_empty() {
            continue;
        }
        let field = |key: &str| field_value(body, key);
        let setting = !STRING_FLAGS.contains(&kind.as_str()) || field("Usage").is_some_and(describes_a_location);
        let marked = !setting && field("Usage").is_some_and(describes_a_credential);
        let need = if field("Required").is_some_and(|v| v == "true") {
            Need::Required
        } else if field("Value").is_some_and(|v| !v.is_empty()) {
            Need::Optional
        } else {
            Need::Unstated
        };
        for (name, at) in names {
            found.push(EnvRead::new(name, body_at + at, need, "cli flag").typed_setting(setting).marked_secret(marked));
        }
    }
    found
}

/// The variables a flag's body lists, each with its offset in `body`.
fn env_names(body: &str) -> Vec<(String, usize)> {
    static SOURCE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)(?:EnvVars?\s*\(|EnvVars\s*:\s*\[\]string\s*\{|EnvVar\s*:\s*")"#)
            .expect("the cli env source pattern is valid")
    });
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").expect("the variable-name pattern is valid"));
    let mut found = Vec::new();
    for source in SOURCE.find_iter(body) {
        let after = &body[source.end()..];
        // v1's `EnvVar: "X,Y"` is one string; the others list string literals.
        let listed = if source.as_str().ends_with('"') {
            after.split('"').next().unwrap_or_default()
        } else {
            code::rest_of_call(after, QUOTES)
        };
        let literal = |i: usize| source.as_str().ends_with('"') || listed[..i].matches('"').count() % 2 == 1;
        for name in NAME.find_iter(listed).filter(|n| literal(n.start()) && code::is_upper_snake(n.as_str())) {
            found.push((name.as_str().to_string(), source.end() + name.start()));
        }
    }
    found
}

/// The value a flag's body gives the field `key` (`Usage: "…"` → its text, `Value: 100` →
/// `100`), at the body's own level.
fn field_value<'b>(body: &'b str, key: &str) -> Option<&'b str> {
    let mut from = 0;
    while let Some(found) = body[from..].find(key) {
        let at = from + found;
        from = at + key.len();
        let starts_line = body[..at].trim_end_matches([' ', '\t']).ends_with(['\n', '{', ',']);
        let Some(rest) = body[from..].trim_start().strip_prefix(':') else { continue };
        if !starts_line {
            continue;
        }
        let value = code::expression(rest.trim_start(), QUOTES).trim();
        return Some(value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value));
    }
    None
}

/// Whether a flag's usage says its value is where something is, not the thing itself
/// (`server ssl key path`, `url used for calling the secret service`).
fn describes_a_location(usage: &str) -> bool {
    static LOCATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(?-u:\b)(?:file|path|url|uri|endpoint|address|dir(?:ectory)?)(?-u:\b)")
            .expect("the location-usage pattern is valid")
    });
    LOCATION.is_match(usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Need, bool, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting, r.marked_secret)).collect()
    }

    #[test]
    fn v3_sources_v2_env_vars_and_v1_env_var() {
        let text = r#"import "github.com/urfave/cli/v3"
var flags = []cli.Flag{
	&cli.StringFlag{
		Sources: cli.NewValueSourceChain(
			cli.File(os.Getenv("APP_AGENT_SECRET_FILE")),
			cli.EnvVar("APP_AGENT_SECRET"),
		),
		Name:  "agent-secret",
		Usage: "server-agent shared password",
	},
	&cli.IntFlag{
		Sources: cli.EnvVars("APP_MAX_WORKERS"),
		Value:   100,
	},
	&cli.StringFlag{
		Sources: cli.EnvVars("APP_SERVER_KEY"),
		Usage:   "server ssl key path",
	},
	&cli.StringFlag{
		EnvVars:  []string{"APP_DATABASE_URL", "DATABASE_URL"},
		Value:    "sqlite://app.db",
	},
	cli.StringFlag{
		EnvVar:   "APP_API_TOKEN,API_TOKEN",
		Required: true,
	},
	&cli.BoolFlag{
		Name: "no-env",
	},
}
"#;
        assert_eq!(
            found(text),
            [
                ("APP_AGENT_SECRET".into(), Need::Unstated, false, true),
                ("APP_MAX_WORKERS".into(), Need::Optional, true, false),
                ("APP_SERVER_KEY".into(), Need::Unstated, true, false),
                ("APP_DATABASE_URL".into(), Need::Optional, false, false),
                ("DATABASE_URL".into(), Need::Optional, false, false),
                ("APP_API_TOKEN".into(), Need::Required, false, false),
                ("API_TOKEN".into(), Need::Required, false, false),
            ]
        );
    }

    #[test]
    fn ff_reads_the_flag_set_under_its_prefix() {
        let text = r#"
fs := flag.NewFlagSet("relay", flag.ContinueOnError)
var (
	listen = fs.String("listen-addr", "localhost:8080", "listen address")
	apiKey = fs.String("upstream.api-key", "", "API key for the upstream")
	debug  = fs.Bool("debug", false, "log debug information")
)
fs.StringVar(&cfg.Secret, "session-secret", "", "session signing secret")
fs.StringVar(&cfg.TLSKey, "tls-key", "", "path to the TLS key file")
ff.Parse(fs, os.Args[1:], ff.WithEnvVarPrefix("relay"))
"#;
        assert_eq!(
            found(text),
            [
                ("RELAY_LISTEN_ADDR".into(), Need::Optional, true, false),
                ("RELAY_UPSTREAM_API_KEY".into(), Need::Unstated, false, true),
                ("RELAY_DEBUG".into(), Need::Optional, true, false),
                ("RELAY_SESSION_SECRET".into(), Need::Unstated, false, true),
                ("RELAY_TLS_KEY".into(), Need::Unstated, true, false),
            ]
        );
        // Without ff's env option the flags are command-line only.
        assert!(reads("var key = flag.String(\"api-key\", \"\", \"API key\")\n").is_empty());
    }

    #[test]
    fn only_where_the_library_is_imported() {
        assert!(reads("x := &flag.StringFlag{EnvVars: []string{\"A_TOKEN\"}}").is_empty());
    }
}
