//! How Go code reads the environment: `os.Getenv`/`os.LookupEnv`; the struct tags of the
//! env libraries (caarlos0/env, sethvargo/go-envconfig and cleanenv `env:"X"`, under the prefix of a
//! `PrefixLookuper` of the same file; kelseyhightower's `envconfig:"x"` — the structs
//! `envconfig.Process("app", &c)` fills are [`super::envconfig`]'s), with the field's type
//! (a `bool`, number, duration or list is a setting); viper's keys (in `super::viper`);
//! urfave/cli's flags (read beside these, in `cli_flags`); parsers that walk `os.Environ()`
//! and switch on the names (`case "DATABASE_URL":`); and
//! Go templates that render configuration (`{{ .Env.X }}`, gomplate's `getenv "X"`, sprig's
//! `env "X"`).

use super::types::is_setting_type;
use crate::rel_path::RelPath;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const QUOTES: &[char] = &['"', '`'];

pub fn reads(rel: &RelPath, text: &str) -> Vec<EnvRead> {
    if !rel.ends_with(".go") {
        let mut found = template_reads(text);
        found.extend(code::shell_interpolations(text));
        return found;
    }
    static GETENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)os\.(?:Getenv|LookupEnv)\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#)
            .expect("the Go environment-read pattern is valid")
    });
    let mut found = code::reads_of(&GETENV, text, "os.Getenv", |_| Need::Unstated);
    found.extend(constant_reads(text));
    found.extend(tag_reads(text));
    found.extend(super::viper::reads(text));
    found.extend(keyed_reads(text));
    found
}

/// `os.Getenv(InitialAdminPassword)` where the file declares the name as a string constant
/// (`const InitialAdminPassword = "APP_ADMIN_PASSWORD"`): the constant's value is read.
fn constant_reads(text: &str) -> Vec<EnvRead> {
    static BY_CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)os\.(?:Getenv|LookupEnv)\([[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*\)")
            .expect("the Go constant environment-read pattern is valid")
    });
    BY_CONSTANT
        .captures_iter(text)
        .filter_map(|c| {
            let constant = c.get(1)?;
            let name = super::envconfig::string_constant(text, constant.as_str())?;
            code::is_upper_snake(&name)
                .then(|| EnvRead::new(&name, constant.start(), Need::Unstated, "os.Getenv of a constant"))
        })
        .collect()
}

/// `env:"DATABASE_URL,required"` (caarlos0/env: `required`/`notEmpty`, `envDefault:"…"`),
/// `env:"DATABASE_URL, default=…"` (sethvargo/go-envconfig), `envconfig:"database_url"
/// required:"true" default:"…"` (kelseyhightower/envconfig, when written as a variable name).
fn tag_reads(text: &str) -> Vec<EnvRead> {
    static TAG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"`([^`\n]*(?-u:\b)(?:env|envconfig):[^`\n]*)`").expect("the struct-tag pattern is valid")
    });
    static PAIR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:^|[[:space:]])([A-Za-z_][A-Za-z0-9_-]*):"([^"]*)""#).expect("the tag-pair pattern is valid")
    });
    // go-envconfig's `PrefixLookuper("APP_", …)` (caarlos0/env's `Options{Prefix: "APP_"}`)
    // puts its prefix before every `env:` name; set in another file, the project's applies.
    let lookup_prefix = prefix(text).unwrap_or_default();
    let mut found = Vec::new();
    for tag in TAG.captures_iter(text).filter_map(|c| c.get(1)) {
        let setting = is_setting_type(field_type(text, tag.start()));
        let pairs: Vec<(&str, &str, usize)> = PAIR
            .captures_iter(tag.as_str())
            .filter_map(|p| Some((p.get(1)?.as_str(), p.get(2)?.as_str(), tag.start() + p.get(2)?.start())))
            .collect();
        let value = |key: &str| pairs.iter().find(|(k, _, _)| *k == key).map(|(_, v, _)| *v);
        for &(key, spec, at) in &pairs {
            let (name, options, via, unprefixed) = match key {
                "env" => {
                    let mut parts = spec.split(',').map(str::trim);
                    let name = parts.next().unwrap_or_default();
                    let name = if name.is_empty() { String::new() } else { format!("{lookup_prefix}{name}") };
                    (name, parts.collect::<Vec<_>>(), "env struct tag", lookup_prefix.is_empty())
                }
                // A lower-case key names a field under its struct's prefix
                // (`envconfig:"secrets"` is `GOTRUE_HOOK_…_SECRETS`): only a name the
                // author spelled as a variable is one.
                "envconfig" => (spec.trim().to_string(), Vec::new(), "envconfig struct tag", false),
                _ => continue,
            };
            if !code::is_upper_snake(&name) {
                continue;
            }
            // ilyakaznacheev/cleanenv: `env-required:"true"`, `env-default:"…"`.
            let required = options.iter().any(|o| matches!(*o, "required" | "notEmpty"))
                || value("required").is_some_and(|v| v == "true")
                || value("env-required").is_some_and(|v| v == "true");
            let defaulted = options.iter().any(|o| o.starts_with("default="))
                || value("envDefault").is_some()
                || value("env-default").is_some()
                || value("default").is_some();
            let need = if defaulted {
                Need::Optional
            } else if required {
                Need::Required
            } else {
                Need::Unstated
            };
            // go-flags documents each option: `description:"OAuth client secret"` says what
            // `CSEC` holds, as an env template's comment would.
            let marked = !setting && value("description").is_some_and(describes_a_credential);
            for namespace in flag_namespaces(text, tag.start()) {
                let name = format!("{namespace}{name}");
                found.push(
                    EnvRead::new(name, at, need, via)
                        .typed_setting(setting)
                        .marked_secret(marked)
                        .without_prefix(unprefixed),
                );
            }
        }
    }
    found
}

/// Whether an option's description says it holds a credential (`OAuth client secret`, `SMTP
/// password`, `API key`) rather than where one is or what it is called (`path to the private
/// key file`, `private key ID`).
pub(super) fn describes_a_credential(description: &str) -> bool {
    static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(?:secret|password|passphrase|api[ _-]?key|private[ _-]key|access[ _-]token|auth(?:entication)?[ _-]token|credentials?)(?-u:\b)")
            .expect("the credential-description pattern is valid")
    });
    static LOCATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i-u)(?-u:\b)(?:file|path|url|uri|endpoint|location|dir(?:ectory)?|id|identifier|name)(?-u:\b)")
            .expect("the location-description pattern is valid")
    });
    CREDENTIAL.is_match(description) && !LOCATION.is_match(description)
}

/// At most this many namespaced names are made of one `env:` tag.
const MAX_NAMESPACES: usize = 32;

/// The prefixes jessevdk/go-flags puts before the `env:` name of the field at `at`: the
/// `env-namespace:"X"` of every group around it, joined with `_` (`Auth struct { Github
/// AuthGroup `env-namespace:"GITHUB"` } `env-namespace:"AUTH"`` makes `CSEC` read
/// `AUTH_GITHUB_CSEC`). A named group type used in several places gives each its name. Only
/// the `""` prefix in a file without namespaces.
fn flag_namespaces(text: &str, at: usize) -> Vec<String> {
    static NAMESPACE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"`[^`\n]*(?-u:\b)env-namespace:"([A-Za-z0-9_]+)"[^`\n]*`"#)
            .expect("the env-namespace pattern is valid")
    });
    static STRUCT_TYPE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)type[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]+struct[[:space:]]*\{")
            .expect("the struct type pattern is valid")
    });
    if !text.contains("env-namespace:") {
        return vec![String::new()];
    }
    // Inline groups (`struct { … } `env-namespace:"X"``): their bodies; named ones: the type.
    let mut inline: Vec<(usize, usize, &str)> = Vec::new();
    let mut named: Vec<(&str, usize, &str)> = Vec::new();
    for c in NAMESPACE.captures_iter(text) {
        let (Some(tag), Some(namespace)) = (c.get(0), c.get(1)) else { continue };
        let before = text[..tag.start()].trim_end();
        if before.ends_with('}') {
            if let Some(open) = matching_open(before) {
                inline.push((open, before.len(), namespace.as_str()));
            }
        } else {
            let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
            if let Some(ty) = line.split_whitespace().nth(1) {
                named.push((ty.trim_start_matches('*'), tag.start(), namespace.as_str()));
            }
        }
    }
    let types: Vec<(&str, usize, usize)> = STRUCT_TYPE
        .captures_iter(text)
        .filter_map(|c| {
            let open = c.get(0)?.end() - 1;
            let body = code::block(&text[open..], QUOTES)?;
            Some((c.get(1)?.as_str(), open, open + body.len() + 1))
        })
        .collect();
    let mut found = Vec::new();
    namespaces_at(at, &inline, &named, &types, 0, &mut found);
    found.sort();
    found.dedup();
    found
}

/// The namespaces of the position `at` (see [`flag_namespaces`]), into `found`.
fn namespaces_at(
    at: usize,
    inline: &[(usize, usize, &str)],
    named: &[(&str, usize, &str)],
    types: &[(&str, usize, usize)],
    depth: usize,
    found: &mut Vec<String>,
) {
    let mut around: Vec<&(usize, usize, &str)> = inline.iter().filter(|(o, c, _)| *o < at && at < *c).collect();
    around.sort_by_key(|(open, _, _)| *open);
    let chain: String = around.iter().map(|(_, _, ns)| format!("{ns}_")).collect();
    let owner = types.iter().filter(|(_, o, c)| *o < at && at < *c).max_by_key(|(_, open, _)| *open);
    let uses: Vec<&(&str, usize, &str)> =
        owner.map(|(ty, _, _)| named.iter().filter(|(t, _, _)| t == ty).collect()).unwrap_or_default();
    if uses.is_empty() || depth >= 4 {
        found.push(chain);
        return;
    }
    for (_, used_at, namespace) in uses {
        let mut outer = Vec::new();
        namespaces_at(*used_at, inline, named, types, depth + 1, &mut outer);
        for prefix in outer {
            if found.len() < MAX_NAMESPACES {
                found.push(format!("{prefix}{namespace}_{chain}"));
            }
        }
    }
}

/// Where the `{` that the `}` ending `text` closes is.
fn matching_open(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate().rev() {
        match b {
            b'}' => depth += 1,
            b'{' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The prefix the env libraries of `text` put before every `env:` tag's name: go-envconfig's
/// `PrefixLookuper("APP_", …)`, caarlos0/env's `env.Options{Prefix: "APP_"}`.
pub fn prefix(text: &str) -> Option<String> {
    static LOOKUP_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)PrefixLookuper\([[:space:]]*"([A-Za-z0-9_]+)"|(?-u:\b)Options[[:space:]]*\{[^}]*(?-u:\b)Prefix:[[:space:]]*"([A-Za-z0-9_]+)""#)
            .expect("the env-prefix pattern is valid")
    });
    let c = LOOKUP_PREFIX.captures(text)?;
    Some(c.get(1).or(c.get(2))?.as_str().to_string())
}

/// The prefix koanf's env provider loads every variable under (`env.Provider("APP_", ".",
/// …)`, `env.ProviderWithValue("APP_", …)`, v2's `env.Provider(".", env.Opt{Prefix: "APP_"})`).
pub fn namespace(text: &str) -> Option<String> {
    static PROVIDER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)env\.Provider(?:WithValue)?\([[:space:]]*(?:"([A-Za-z0-9_]+)"|"[^"]*"[[:space:]]*,[[:space:]]*env\.Opt[[:space:]]*\{[^}]*(?-u:\b)Prefix:[[:space:]]*"([A-Za-z0-9_]+)")"#)
            .expect("the koanf env provider pattern is valid")
    });
    let c = PROVIDER.captures(text)?;
    Some(c.get(1).or(c.get(2))?.as_str().to_string())
}

/// The type of the struct field whose tag starts at `tag` (`Port int `, `TTL time.Duration `).
fn field_type(text: &str, tag: usize) -> &str {
    let line_start = text[..tag].rfind('\n').map_or(0, |i| i + 1);
    let mut words = text[line_start..tag.saturating_sub(1)].split_whitespace();
    words.next();
    words.next().unwrap_or_default()
}

/// Configuration parsers keyed by the variables' names: `case "DATABASE_URL":` labels and
/// `"DATABASE_URL": {…}` keys of an options table. In a file that walks `os.Environ()` they
/// are reads; elsewhere they are [`EnvRead::derived`]: reads where the package walks the
/// environment in another file (see `Ecosystem::walks_environment`) or the project names
/// the variable too.
fn keyed_reads(text: &str) -> Vec<EnvRead> {
    static CASE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^[[:space:]]*case[[:space:]]+((?:"[A-Z][A-Z0-9_]*"[[:space:]]*,[[:space:]]*)*"[A-Z][A-Z0-9_]*")[[:space:]]*:"#).expect("valid")
    });
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^[[:space:]]*"([A-Z][A-Z0-9_]*)"[[:space:]]*:[[:space:]]*[{&[:word:]"]"#)
            .expect("the map key pattern is valid")
    });
    static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#""([A-Z][A-Z0-9_]*)""#).expect("valid"));
    let walks_environment = text.contains("os.Environ()");
    let read = |name: &str, at: usize| {
        if walks_environment {
            EnvRead::new(name, at, Need::Unstated, "os.Environ() parser")
        } else {
            EnvRead::derived(name, at, Need::Unstated, "configuration parser key")
        }
    };
    let mut found = Vec::new();
    for labels in CASE.captures_iter(text).filter_map(|c| c.get(1)) {
        for name in NAME.captures_iter(labels.as_str()).filter_map(|n| n.get(1)) {
            found.push(read(name.as_str(), labels.start() + name.start()));
        }
    }
    for key in KEY.captures_iter(text).filter_map(|c| c.get(1)) {
        found.push(read(key.as_str(), key.start()));
    }
    found
}

/// `{{ .Env.X }}` (optional under `default`), gomplate's `{{ getenv "X" }}` (optional with
/// a second argument), `{{ env.Getenv "X" }}` and sprig's `{{ env "X" }}`.
fn template_reads(text: &str) -> Vec<EnvRead> {
    static TEMPLATE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"\{\{-?[[:space:]]*(default[[:space:]]+)?[^}]*?(?:\.Env\.([A-Za-z_][A-Za-z0-9_]*)|(?:getenv|env\.Getenv|env)[[:space:]]+"([A-Za-z_][A-Za-z0-9_]*)"([[:space:]]+")?)[^}]*\}\}"#,
        )
        .expect("the Go template pattern is valid")
    });
    TEMPLATE
        .captures_iter(text)
        .filter_map(|c| {
            let name = c.get(2).or(c.get(3))?;
            let whole = c.get(0)?.as_str();
            let need = if c.get(1).is_some() || c.get(4).is_some() || whole.contains("| default") {
                Need::Optional
            } else {
                Need::Unstated
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, "Go template"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(rel: &str, text: &str) -> Vec<(String, Need)> {
        reads(RelPath::new(rel).unwrap(), text).into_iter().map(|r| (r.name, r.need)).collect()
    }

    #[test]
    fn getenv_of_a_string_constant_reads_its_value() {
        let text = "package models\n\n// The admin's first password, from the environment.\nconst AdminPassword = \"APP_ADMIN_PASSWORD\"\n\nconst (\n\tseedToken string = \"APP_SEED_TOKEN\"\n)\n\nfunc seed() {\n\tif p := os.Getenv(AdminPassword); p != \"\" {\n\t}\n\t_, ok := os.LookupEnv(seedToken)\n\t_ = os.Getenv(name)\n}\n";
        assert_eq!(
            found("models/models.go", text),
            [("APP_ADMIN_PASSWORD".into(), Need::Unstated), ("APP_SEED_TOKEN".into(), Need::Unstated)],
            "a parameter (`name`) names no constant of the file"
        );
    }

    #[test]
    fn struct_tags_of_the_env_libraries() {
        let text = r#"
type Config struct {
    DatabaseURL string `env:"DATABASE_URL,required"`
    Token       string `env:"API_TOKEN,notEmpty" json:"token"`
    Port        int    `env:"PORT" envDefault:"8080"`
    Secret      string `env:"JWT_SECRET, default=dev"`
    Key         string `envconfig:"STRIPE_KEY" required:"true"`
    Nested      string `envconfig:"secrets"`
    Pass        string `envconfig:"SMTP_PASS" default:"x"`
    Skipped     string `env:"-"`
    Name        string `json:"name"`
    Mailer      string `yaml:"mailer" env:"MAILER_TOKEN" env-required:"true"`
    Region      string `env:"S3_SECRET_REGION" env-default:"eu-west-1"`
}
"#;
        assert_eq!(
            found("config.go", text),
            [
                ("DATABASE_URL".into(), Need::Required),
                ("API_TOKEN".into(), Need::Required),
                ("PORT".into(), Need::Optional),
                ("JWT_SECRET".into(), Need::Optional),
                ("STRIPE_KEY".into(), Need::Required),
                ("SMTP_PASS".into(), Need::Optional),
                ("MAILER_TOKEN".into(), Need::Required),
                ("S3_SECRET_REGION".into(), Need::Optional),
            ]
        );
    }

    #[test]
    fn go_envconfig_prefix_lookuper_and_typed_fields() {
        let text = r#"
type Config struct {
	DatabaseURL string        `env:"DATABASE_URL, required"`
	KeyTTL      time.Duration `env:"KEY_TTL, default=5m"`
	ReleaseKeys bool          `env:"RELEASE_SAME_DAY_KEYS"`
}
func Load(ctx context.Context) (*Config, error) {
	l := envconfig.PrefixLookuper("APP_", envconfig.OsLookuper())
	return envconfig.ProcessWith(ctx, &envconfig.Config{Target: &c, Lookuper: l})
}
"#;
        let reads = reads(crate::rel_path::rel!("config.go"), text);
        let rows: Vec<(&str, bool)> = reads.iter().map(|r| (r.name.as_str(), r.setting)).collect();
        assert_eq!(rows, [("APP_DATABASE_URL", false), ("APP_KEY_TTL", true), ("APP_RELEASE_SAME_DAY_KEYS", true)]);
    }

    #[test]
    fn parsers_keyed_by_the_names() {
        let text = "for _, kv := range os.Environ() {\n\tswitch key {\n\tcase \"DATABASE_URL\", \"DB_URL\":\n\tcase \"LOG_LEVEL\":\n\t}\n}\n";
        let parsed = reads(crate::rel_path::rel!("parser.go"), text);
        let names: Vec<(&str, bool)> = parsed.iter().map(|r| (r.name.as_str(), r.derived)).collect();
        assert_eq!(names, [("DATABASE_URL", false), ("DB_URL", false), ("LOG_LEVEL", false)]);
        // Elsewhere the keys of an options table only count where the project names them.
        let text = "options: map[string]*configValue{\n\t\"ADMIN_PASSWORD\": {\n\t\tsecret: true,\n\t},\n}\nswitch s {\ncase \"METRICS_PASSWORD\":\n}\n";
        let parsed = reads(crate::rel_path::rel!("options.go"), text);
        let names: Vec<(&str, bool)> = parsed.iter().map(|r| (r.name.as_str(), r.derived)).collect();
        assert_eq!(names, [("METRICS_PASSWORD", true), ("ADMIN_PASSWORD", true)]);
    }

    #[test]
    fn go_templates_in_configuration() {
        let text = "db: {{ .Env.DATABASE_URL }}\nkey: {{ default .Env.API_KEY \"dev\" }}\nx: {{ getenv \"SMTP_PASSWORD\" }}\ny: {{ .Env.TOKEN | default \"t\" }}\nz: {{ env \"REDIS_PASSWORD\" }}\n";
        assert_eq!(
            found("config.yaml.tmpl", text),
            [
                ("DATABASE_URL".into(), Need::Unstated),
                ("API_KEY".into(), Need::Optional),
                ("SMTP_PASSWORD".into(), Need::Unstated),
                ("TOKEN".into(), Need::Optional),
                ("REDIS_PASSWORD".into(), Need::Unstated),
            ]
        );
    }

    #[test]
    fn configuration_expanded_shell_style() {
        let text = "database:\n  url: ${DATABASE_URL:?set the database}\n  password: ${DB_PASSWORD:-postgres}\nsmtp:\n  password: ${SMTP_PASSWORD}\n  host: ${SMTP_HOST-localhost}\n";
        assert_eq!(
            found("config/app.yml", text),
            [
                ("DATABASE_URL".into(), Need::Required),
                ("DB_PASSWORD".into(), Need::Optional),
                ("SMTP_PASSWORD".into(), Need::Unstated),
                ("SMTP_HOST".into(), Need::Optional),
            ]
        );
        // Without one `${X:-…}`/`${X:?…}`, a `${X}` may be anything's placeholder.
        assert_eq!(found("config/app.yml", "password: ${SMTP_PASSWORD}\n"), []);
        for (dir, name) in [("", "config.toml"), ("config", "production.yml"), ("", "server.defaults.yaml")] {
            assert!(code::is_interpolated_config(dir, name), "{dir}/{name}");
        }
        for (dir, name) in [
            ("", "docker-compose.yml"),
            ("src/main/resources", "application.yml"),
            ("", "mkdocs.yml"),
            ("config", "x.json"),
        ] {
            assert!(!code::is_interpolated_config(dir, name), "{dir}/{name}");
        }
    }

    #[test]
    fn go_flags_groups_put_their_env_namespaces_first() {
        let text = "type Opts struct {\n\tSecret string `long:\"secret\" env:\"SECRET\" required:\"true\"`\n\tSMTP SMTPGroup `group:\"smtp\" env-namespace:\"SMTP\"`\n\tAuth struct {\n\t\tGithub AuthGroup `group:\"github\" env-namespace:\"GITHUB\"`\n\t\tGoogle AuthGroup `group:\"google\" env-namespace:\"GOOGLE\"`\n\t\tTTL struct {\n\t\t\tJWT time.Duration `long:\"jwt\" env:\"JWT\" default:\"5m\"`\n\t\t} `group:\"ttl\" env-namespace:\"TTL\"`\n\t} `group:\"auth\" env-namespace:\"AUTH\"`\n}\n\ntype SMTPGroup struct {\n\tPassword string `long:\"password\" env:\"PASSWORD\"`\n}\n\ntype AuthGroup struct {\n\tCSEC string `long:\"csec\" env:\"CSEC\"`\n}\n";
        let names: Vec<String> = found("app/cmd/server.go", text).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["SECRET", "AUTH_TTL_JWT", "SMTP_PASSWORD", "AUTH_GITHUB_CSEC", "AUTH_GOOGLE_CSEC"]);
        assert!(describes_a_credential("OAuth client secret"));
        assert!(describes_a_credential("admin basic auth password"));
        assert!(!describes_a_credential("path to the private key file"));
        assert!(!describes_a_credential("OAuth client ID"));
        assert!(!describes_a_credential("Private key ID"));
    }

    #[test]
    fn the_namespace_koanf_loads() {
        assert_eq!(namespace(r#"ko.Load(env.Provider("APP_", ".", strings.ToLower), nil)"#).as_deref(), Some("APP_"));
        assert_eq!(namespace(r#"env.ProviderWithValue("SVC_", ".", cb)"#).as_deref(), Some("SVC_"));
        assert_eq!(namespace(r#"env.Provider(".", env.Opt{Prefix: "V2_", TransformFunc: f})"#).as_deref(), Some("V2_"));
        assert_eq!(namespace(r#"os.Getenv("APP_KEY")"#), None);
    }

    #[test]
    fn the_prefix_a_lookuper_or_options_set() {
        assert_eq!(prefix("l := envconfig.PrefixLookuper(\"APP_\", envconfig.OsLookuper())").as_deref(), Some("APP_"));
        assert_eq!(prefix("env.ParseWithOptions(&c, env.Options{Prefix: \"SVC_\"})").as_deref(), Some("SVC_"));
        assert_eq!(prefix("envconfig.Process(ctx, &c)"), None);
        // Without a prefix in the file, the tags' names wait for the project's.
        let tags = "type C struct {\n\tDB string `env:\"DATABASE_URL\"`\n}\n";
        assert!(reads(crate::rel_path::rel!("config.go"), tags).iter().all(|r| r.unprefixed));
        let prefixed = format!("{tags}var l = envconfig.PrefixLookuper(\"APP_\", nil)\n");
        let read = &reads(crate::rel_path::rel!("config.go"), &prefixed)[0];
        assert_eq!((read.name.as_str(), read.unprefixed), ("APP_DATABASE_URL", false));
    }
}
