//! Command-line flag libraries that read the environment. urfave/cli's flags read the names
//! they list: v3's `Sources:
//! cli.EnvVars("X", "Y")` (or a `cli.NewValueSourceChain(…, cli.EnvVar("X"))`), v2's
//! `EnvVars: []string{"X"}`, v1's `EnvVar: "X,Y"`. The flag's type says what the value is (a
//! `BoolFlag`, `IntFlag`, `DurationFlag` or `StringSliceFlag` holds a setting), its `Value:`
//! gives a default, `Required: true` makes it needed, and its `Usage:` says what it holds: a
//! credential (`oauth2 client secret`) or where one is (`server ssl key path`). peterbourgon/ff
//! reads every flag of a standard flag set under a prefix (see [`ff_reads`]), and kingpin's
//! flags the variable their `.Envar("X")` names (see [`kingpin_reads`]).

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
    found.extend(kingpin_reads(text));
    found
}

/// alecthomas/kingpin: `app.Flag("db-password", "Database password.").Envar("DB_PASSWORD")
/// .Required().String()` reads `DB_PASSWORD` (`.OverrideDefaultFromEnvar("X")` in kingpin v1).
/// `.Required()` makes it needed and `.Default(…)` optional; the method that ends the chain says
/// the type — anything but `String()` (a `Bool()`, `Int()`, `Duration()`, `Enum(…)`, `Strings()`,
/// a `URL()` or `File()`) holds a setting — and the flag's help what it holds. An application
/// with `DefaultEnvars()` (`kingpin.New("relay", …).DefaultEnvars()`) reads every other flag
/// from `<APP>_<FLAG>`, each character but letters, digits and `_` as `_` (`RELAY_DB_PASSWORD`).
fn kingpin_reads(text: &str) -> Vec<EnvRead> {
    static ENVAR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"\.[[:space:]]*(?:Envar|OverrideDefaultFromEnvar)\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\)"#,
        )
        .expect("the kingpin Envar pattern is valid")
    });
    /// How far before `.Envar` its flag's `Flag(…)` call is looked for.
    const LOOKBACK: usize = 400;
    if !text.contains("kingpin") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in ENVAR.captures_iter(text) {
        let (Some(whole), Some(name)) = (c.get(0), c.get(1)) else { continue };
        let mut from = whole.start().saturating_sub(LOOKBACK);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let Some(flag) = KINGPIN_FLAG.captures_iter(&text[from..whole.start()]).last() else { continue };
        let help = flag.get(2).or(flag.get(3)).map_or("", |h| h.as_str());
        let before = &text[from..whole.start()];
        let chain = format!("{}{}", &before[flag.get(0).map_or(0, |f| f.end())..], flag_chain(&text[whole.end()..]));
        found.push(kingpin_flag(name.as_str(), name.start(), help, &chain));
    }
    found.extend(default_envars(text));
    found
}

/// `Flag("name", "help"` or with a raw-string help.
static KINGPIN_FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u:\b)Flag\([[:space:]]*"([^"]*)"[[:space:]]*,[[:space:]]*(?:"([^"]*)"|`([^`]*)`)"#)
        .expect("the kingpin Flag pattern is valid")
});

/// The flags a `DefaultEnvars()` application of `text` reads from `<APP>_<FLAG>` (see
/// [`kingpin_reads`]): those without an `.Envar(…)` or `.NoEnvar()` of their own.
fn default_envars(text: &str) -> Vec<EnvRead> {
    static APP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)kingpin\.New\([[:space:]]*"([^"]+)""#).expect("the kingpin.New pattern is valid")
    });
    let Some(app) = APP.captures(text).and_then(|c| c.get(1)).filter(|_| text.contains(".DefaultEnvars()")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for flag in KINGPIN_FLAG.captures_iter(text) {
        let (Some(whole), Some(name)) = (flag.get(0), flag.get(1)) else { continue };
        let help = flag.get(2).or(flag.get(3)).map_or("", |h| h.as_str());
        let chain = flag_chain(&text[whole.end()..]);
        if chain.contains(".Envar(") || chain.contains(".NoEnvar()") || chain.contains("OverrideDefaultFromEnvar(") {
            continue;
        }
        let variable: String = format!("{}_{}", app.as_str(), name.as_str())
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' })
            .collect();
        found.push(kingpin_flag(&variable, name.start(), help, chain));
    }
    found
}

/// The read of a kingpin flag's variable `name` (at `at`), judged by its `help` and the rest of
/// its method `chain`.
fn kingpin_flag(name: &str, at: usize, help: &str, chain: &str) -> EnvRead {
    static TYPE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\.([A-Z][A-Za-z0-9]*)(?:Var)?\([^()]*\)[[:space:]]*$").expect("the kingpin type pattern is valid")
    });
    let kind = TYPE.captures(chain).and_then(|t| t.get(1)).map_or("String", |t| t.as_str());
    let setting = kind != "String" || describes_a_location(help);
    let need = if chain.contains(".Default(") {
        Need::Optional
    } else if chain.contains(".Required()") {
        Need::Required
    } else {
        Need::Unstated
    };
    EnvRead::new(name, at, need, "kingpin flag")
        .typed_setting(setting)
        .marked_secret(!setting && describes_a_credential(help))
}

/// The rest of a method chain from `after` on: its line, and the next ones while a line ends
/// with `.` or the next starts with one.
fn flag_chain(after: &str) -> &str {
    let mut end = 0;
    let mut lines = after.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        end += line.len();
        let continues =
            line.trim_end().ends_with('.') || lines.peek().is_some_and(|next| next.trim_start().starts_with('.'));
        if !continues {
            break;
        }
    }
    after[..end].trim_end()
}

/// peterbourgon/ff: `ff.Parse(fs, args, ff.WithEnvVarPrefix("APP"))` reads every flag of the
/// standard library's flag set from `APP_<NAME>` (`-`, `.` and `/` as `_`; without a prefix,
/// `ff.WithEnvVars()`, from `<NAME>`): `fs.String("api-key", "", "upstream API key")`,
/// `fs.StringVar(&key, "api-key", …)`. The method says the type; the default and the usage
/// follow the name.
fn ff_reads(text: &str) -> Vec<EnvRead> {
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)ff\.WithEnvVar(?:Prefix\([[:space:]]*"([A-Za-z0-9_]+)"|s\([[:space:]]*\))"#)
            .expect("the ff env option pattern is valid")
    });
    static FLAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)[a-z_][[:word:]]*\.([A-Z][a-z0-9]*)(?:Var)?\([[:space:]]*(?:&[[:word:].]+[[:space:]]*,[[:space:]]*)?"([a-zA-Z0-9][a-zA-Z0-9._/-]*)""#)
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
        Regex::new(r"(?-u:\b)[A-Za-z_][A-Za-z0-9_]*\.([A-Z][A-Za-z0-9]*)Flag[[:space:]]*\{")
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
        Regex::new(r#"(?-u:\b)(?:EnvVars?[[:space:]]*\(|EnvVars[[:space:]]*:[[:space:]]*\[\]string[[:space:]]*\{|EnvVar[[:space:]]*:[[:space:]]*")"#)
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
        Regex::new(r"(?i-u)(?-u:\b)(?:file|path|url|uri|endpoint|address|dir(?:ectory)?)(?-u:\b)")
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
    fn kingpin_flags_read_their_envar() {
        let text = r#"import "github.com/alecthomas/kingpin/v2"

var (
	listen   = kingpin.Flag("web.listen-address", "Address to listen on.").Envar("LISTEN_ADDRESS").Default(":9100").String()
	dsn      = kingpin.Flag("db.dsn", "Database connection string.").Envar("DATA_SOURCE_NAME").Required().String()
	apiKey   = app.Flag("api-key", "The upstream API key.").
			Envar("UPSTREAM_API_KEY").
			String()
	cred     = app.Flag("auth", "Client credential for the exporter.").Envar("EXPORTER_AUTH").String()
	timeout  = kingpin.Flag("timeout", "Scrape timeout.").Envar("SCRAPE_TIMEOUT").Default("5s").Duration()
	tokens   = kingpin.Flag("max-tokens", "Tokens per scrape.").Envar("MAX_TOKENS").Int()
	keyFile  = kingpin.Flag("tls.key", "Path to the TLS key file.").Envar("TLS_KEY_FILE").String()
)
"#;
        assert_eq!(
            found(text),
            [
                ("LISTEN_ADDRESS".into(), Need::Optional, true, false),
                ("DATA_SOURCE_NAME".into(), Need::Required, false, false),
                ("UPSTREAM_API_KEY".into(), Need::Unstated, false, true),
                ("EXPORTER_AUTH".into(), Need::Unstated, false, true),
                ("SCRAPE_TIMEOUT".into(), Need::Optional, true, false),
                ("MAX_TOKENS".into(), Need::Unstated, true, false),
                ("TLS_KEY_FILE".into(), Need::Unstated, true, false),
            ]
        );
    }

    #[test]
    fn kingpin_default_envars_name_every_other_flag_after_the_app() {
        let text = r#"import "github.com/alecthomas/kingpin/v2"

var (
	app      = kingpin.New("relay-server", "A relay.").DefaultEnvars()
	password = app.Flag("db.password", "Database password.").Required().String()
	listen   = app.Flag("listen-address", "Address to listen on.").Default(":8080").String()
	token    = app.Flag("token", "Upstream token.").Envar("UPSTREAM_TOKEN").String()
	debug    = app.Flag("debug", "Log more.").Bool()
	local    = app.Flag("secret", "Never from the environment.").NoEnvar().String()
)
"#;
        assert_eq!(
            found(text),
            [
                ("UPSTREAM_TOKEN".into(), Need::Unstated, false, false),
                ("RELAY_SERVER_DB_PASSWORD".into(), Need::Required, false, true),
                ("RELAY_SERVER_LISTEN_ADDRESS".into(), Need::Optional, true, false),
                ("RELAY_SERVER_DEBUG".into(), Need::Unstated, true, false),
            ]
        );
        // Without `DefaultEnvars()`, only the named envar is read.
        let named = text.replace(".DefaultEnvars()", "");
        assert_eq!(found(&named), [("UPSTREAM_TOKEN".into(), Need::Unstated, false, false)]);
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
