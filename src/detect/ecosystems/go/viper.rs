//! spf13/viper: a key (`lastfm.apikey`) is read from the environment when the app binds it
//! (`BindEnv("key")`, or `BindEnv("key", "X", …)` for the names given) or, after
//! `AutomaticEnv()`, whenever viper looks it up: a `Get…("key")`, and every key it knows when
//! it fills a struct (`viper.Unmarshal(&cfg)`: those of `SetDefault`, of the config file, of
//! the struct's fields). The variable is the key upper-cased under `SetEnvPrefix("nd")` and
//! `_` (`ND_LASTFM_APIKEY`), with the key's characters swapped as the
//! `SetEnvKeyReplacer(strings.NewReplacer(".", "_"))` says — without a replacer a nested key
//! keeps its dot and no shell can set it. A key given a default is optional, and a default,
//! or a typed getter (`GetBool`, `GetDuration`), that is a flag, number, duration or list
//! makes it a setting. Keys may also be constants of a named string type whose methods hand
//! them to viper (`const ServiceSecret Key = "service.secret"`, `func (k Key) GetString()
//! string { return viper.GetString(string(k)) }`): see [`typed_keys`].

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, FieldKeys, Need, SettingsRoot};

const QUOTES: &[char] = &['"', '`'];

/// How a file sets viper up: the receivers it calls viper through, its prefix and replacer.
struct Setup {
    /// `viper.` and the variables of `viper.New()` (`v := viper.New()`, `v *viper.Viper`).
    receivers: Regex,
    /// `SetEnvPrefix`'s, upper case with its `_`; empty for none.
    prefix: String,
    /// The replacer's pairs: (old, new).
    replacements: Vec<(String, String)>,
    automatic: bool,
}

impl Setup {
    fn of(text: &str) -> Option<Setup> {
        static INSTANCE: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(
                r"(?-u:\b)([A-Za-z_][[:word:]]*)[[:space:]]*(?::?=[[:space:]]*viper\.New\(\)|\*viper\.Viper(?-u:\b))",
            )
            .expect("the viper instance pattern is valid")
        });
        static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"\.SetEnvPrefix\([[:space:]]*(?:"([^"]*)"|([A-Za-z_][[:word:]]*))[[:space:]]*\)"#)
                .expect("the SetEnvPrefix pattern is valid")
        });
        static REPLACER: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"strings\.NewReplacer\(").expect("the replacer pattern is valid"));
        static LITERAL: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r#""([^"\\]*)""#).expect("the string literal pattern is valid"));
        if !text.contains("viper") || !text.contains("BindEnv(") && !text.contains("AutomaticEnv()") {
            return None;
        }
        let mut names: Vec<String> = vec!["viper".to_string()];
        names.extend(INSTANCE.captures_iter(text).filter_map(|c| c.get(1)).map(|m| regex::escape(m.as_str())));
        names.sort();
        names.dedup();
        let receivers = Regex::new(&format!(r"^(?:{})\.$", names.join("|"))).ok()?;
        // A literal, or a string constant of the file (`SetEnvPrefix(configEnvPrefix)`).
        let prefix = PREFIX
            .captures(text)
            .and_then(|c| match (c.get(1), c.get(2)) {
                (Some(literal), _) => Some(literal.as_str().to_string()),
                (None, Some(constant)) => super::envconfig::string_constant(text, constant.as_str()),
                (None, None) => None,
            })
            .map(|p| p.to_ascii_uppercase())
            .filter(|p| !p.is_empty())
            .map(|p| format!("{p}_"))
            .unwrap_or_default();
        // The replacer is often made apart from the call (`r := strings.NewReplacer(".", "_")`).
        let mut replacements = Vec::new();
        if text.contains("SetEnvKeyReplacer(") {
            for call in REPLACER.find_iter(text) {
                let arguments = code::rest_of_call(&text[call.end()..], QUOTES);
                let literals: Vec<&str> =
                    LITERAL.captures_iter(arguments).filter_map(|c| c.get(1)).map(|m| m.as_str()).collect();
                replacements
                    .extend(literals.as_chunks::<2>().0.iter().map(|[old, new]| (old.to_string(), new.to_string())));
            }
        }
        Some(Setup { receivers, prefix, replacements, automatic: text.contains("AutomaticEnv()") })
    }

    /// The variable viper reads for `key`.
    fn variable(&self, key: &str) -> String {
        let mut key = key.to_string();
        for (old, new) in self.replacements.iter().filter(|(old, _)| !old.is_empty()) {
            key = key.replace(old.as_str(), new);
        }
        format!("{}{}", self.prefix, key.to_ascii_uppercase())
    }

    /// Whether nested keys (`lastfm.apikey`) reach the environment as names a shell can set:
    /// the dot becomes `_` or `__` (`SFTPGO_DATA_PROVIDER__PASSWORD`).
    fn nests(&self) -> bool {
        self.section_joiner().is_some()
    }

    /// What the replacer puts between a nested key's sections (`_` or `__`), if it makes names.
    fn section_joiner(&self) -> Option<&str> {
        self.replacements
            .iter()
            .find(|(old, new)| old == "." && !new.is_empty() && new.chars().all(|c| c == '_'))
            .map(|(_, new)| new.as_str())
    }

    /// Whether the receiver ends right before `at` (`viper.` or `v.`).
    fn called_at(&self, text: &str, at: usize) -> bool {
        let start = text[..at].rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).map_or(0, |i| i + 1);
        self.receivers.is_match(&text[start..at])
    }
}

/// The variables `text` has viper read (see the module documentation).
pub fn reads(text: &str) -> Vec<EnvRead> {
    static BIND: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)BindEnv\([[:space:]]*"([^"]+)"[[:space:]]*([,)])"#).expect("the BindEnv pattern is valid")
    });
    static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#""([A-Za-z_][A-Za-z0-9_]*)""#).expect("valid"));
    static LOOKUP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)(Get[A-Za-z0-9]*|SetDefault)\([[:space:]]*"([A-Za-z0-9_.\-]+)"[[:space:]]*([,)])"#)
            .expect("the viper lookup pattern is valid")
    });
    let Some(setup) = Setup::of(text) else { return Vec::new() };
    let mut found = Vec::new();
    for c in BIND.captures_iter(text) {
        let (Some(whole), Some(key), Some(close)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        if !setup.called_at(text, whole.start()) {
            continue;
        }
        if close.as_str() == ")" {
            found.push(EnvRead::new(setup.variable(key.as_str()), key.start(), Need::Unstated, "viper BindEnv"));
            continue;
        }
        let rest = code::rest_of_call(&text[close.end()..], QUOTES);
        for name in NAME.captures_iter(rest).filter_map(|n| n.get(1)) {
            found.push(EnvRead::new(name.as_str(), close.end() + name.start(), Need::Unstated, "viper BindEnv"));
        }
    }
    found.extend(binding_table(text));
    if !setup.automatic {
        return found;
    }
    found.extend(typed_keys(text, &setup));
    for c in LOOKUP.captures_iter(text) {
        let (Some(whole), Some(call), Some(key), Some(close)) = (c.get(0), c.get(1), c.get(2), c.get(3)) else {
            continue;
        };
        if !setup.called_at(text, whole.start()) || key.as_str().contains('.') && !setup.nests() {
            continue;
        }
        let name = setup.variable(key.as_str());
        if !code::is_upper_snake(&name) {
            continue;
        }
        let read = if call.as_str() == "SetDefault" {
            let value = code::expression(text[close.end()..].trim_start(), QUOTES);
            EnvRead::new(name, key.start(), Need::Optional, "viper default").typed_setting(is_setting_value(value))
        } else {
            EnvRead::new(name, key.start(), Need::Unstated, "viper key").typed_setting(is_setting_getter(call.as_str()))
        };
        found.push(read);
    }
    found
}

/// A table of bindings the file passes to `BindEnv` in a loop (`var bindings = []binding{
/// {"server.api_key", "APP_SERVER_API_KEY"}, …}` and `viper.BindEnv(b.key, b.env)`): each
/// entry's second string is a variable viper reads.
fn binding_table(text: &str) -> Vec<EnvRead> {
    static BIND_FROM_VALUES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)BindEnv\([[:space:]]*[A-Za-z_][[:word:]]*\.[A-Za-z_][[:word:]]*[[:space:]]*,")
            .expect("the BindEnv-from-values pattern is valid")
    });
    static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\{[[:space:]]*"[A-Za-z0-9_.\-]+"[[:space:]]*,[[:space:]]*"([A-Z][A-Z0-9_]*)"[[:space:]]*\}"#)
            .expect("the binding entry pattern is valid")
    });
    if !BIND_FROM_VALUES.is_match(text) {
        return Vec::new();
    }
    ENTRY
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|name| EnvRead::new(name.as_str(), name.start(), Need::Unstated, "viper BindEnv table"))
        .collect()
}

/// What a method of a key type does with its key: the viper call it passes `string(k)` to.
struct KeyMethod {
    name: String,
    viper_call: String,
}

/// The keys declared as constants of a string type whose methods pass `string(k)` to viper
/// (Vikunja's `type Key string`, `ServiceSecret Key = "service.secret"`, `func (k Key)
/// setDefault(i interface{}) { viper.SetDefault(string(k), i) }`), under the file's prefix and
/// replacer. A key the file gives a default through such a method (`DatabasePassword.setDefault("")`)
/// is optional, a setting when that default or the getter it is read with (`GetBool`) is one.
fn typed_keys(text: &str, setup: &Setup) -> Vec<EnvRead> {
    static TYPE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^type[[:space:]]+([A-Za-z_][[:word:]]*)[[:space:]]+string[[:space:]]*$")
            .expect("the key type pattern is valid")
    });
    static USE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)([A-Za-z_][[:word:]]*)\.([A-Za-z_][[:word:]]*)\(")
            .expect("the method call pattern is valid")
    });
    let mut found = Vec::new();
    for ty in TYPE.captures_iter(text).filter_map(|c| c.get(1)) {
        let methods = key_methods(text, setup, ty.as_str());
        if methods.is_empty() {
            continue;
        }
        let Ok(constant) = Regex::new(&format!(
            r#"(?m)^[ \t]*(?:const[[:space:]]+)?([A-Za-z_][[:word:]]*)[[:space:]]+{}[[:space:]]*=[[:space:]]*["`]([A-Za-z0-9_.\-]+)["`]"#,
            regex::escape(ty.as_str())
        )) else {
            continue;
        };
        let mut keys: Vec<(String, EnvRead)> = constant
            .captures_iter(text)
            .filter_map(|c| {
                let (ident, key) = (c.get(1)?, c.get(2)?);
                if key.as_str().contains('.') && !setup.nests() {
                    return None;
                }
                let name = setup.variable(key.as_str());
                code::is_upper_snake(&name).then(|| {
                    (ident.as_str().to_string(), EnvRead::new(name, key.start(), Need::Unstated, "viper key constant"))
                })
            })
            .collect();
        for c in USE.captures_iter(text) {
            let (Some(ident), Some(method), Some(whole)) = (c.get(1), c.get(2), c.get(0)) else { continue };
            let Some(method) = methods.iter().find(|m| m.name == method.as_str()) else { continue };
            let Some((_, read)) = keys.iter_mut().find(|(k, _)| k == ident.as_str()) else { continue };
            let updated = if method.viper_call == "SetDefault" {
                let value = code::rest_of_call(&text[whole.end()..], QUOTES);
                EnvRead { need: Need::Optional, via: "viper key constant with a default", ..read.clone() }
                    .typed_setting(is_setting_value(value))
            } else {
                read.clone().typed_setting(is_setting_getter(&method.viper_call))
            };
            *read = updated;
        }
        found.extend(keys.into_iter().map(|(_, read)| read));
    }
    found
}

/// The methods of `ty` that pass their receiver, as a string, to a viper getter or
/// `SetDefault` (`func (k Key) GetBool() bool { return viper.GetBool(string(k)) }`).
fn key_methods(text: &str, setup: &Setup, ty: &str) -> Vec<KeyMethod> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)(Get[A-Za-z0-9]*|SetDefault)\([[:space:]]*string\([[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*\)")
            .expect("the viper key call pattern is valid")
    });
    let Ok(method) = Regex::new(&format!(
        r"(?m)^func[[:space:]]*\([[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]+\*?{}[[:space:]]*\)[[:space:]]*([A-Za-z_][[:word:]]*)[[:space:]]*\(",
        regex::escape(ty)
    )) else {
        return Vec::new();
    };
    method
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, receiver, name) = (c.get(0)?, c.get(1)?, c.get(2)?);
            // The body runs to the next top-level `}`.
            let rest = &text[whole.end()..];
            let body = &rest[..rest.find("\n}").unwrap_or(rest.len())];
            let call = CALL.captures_iter(body).find(|call| {
                call.get(2).is_some_and(|k| k.as_str() == receiver.as_str())
                    && call.get(0).is_some_and(|m| setup.called_at(body, m.start()))
            })?;
            Some(KeyMethod { name: name.as_str().to_string(), viper_call: call.get(1)?.as_str().to_string() })
        })
        .collect()
}

/// The structs `text` has viper fill from every key it knows (`viper.Unmarshal(&cfg)`), under
/// the file's prefix: only where `AutomaticEnv()` lets the environment give each key, and a
/// nested struct's keys only where the replacer makes them names.
pub fn roots(text: &str) -> Vec<SettingsRoot> {
    static UNMARSHAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)Unmarshal(?:Exact)?\([[:space:]]*&?([A-Za-z_][[:word:]]*)[[:space:]]*[,)]")
            .expect("the viper Unmarshal pattern is valid")
    });
    let Some(setup) = Setup::of(text) else { return roots_set_up_elsewhere(text, &UNMARSHAL) };
    if !(setup.automatic && setup.nests()) {
        return Vec::new();
    }
    let double = setup.section_joiner() == Some("__");
    let mut found: Vec<SettingsRoot> = UNMARSHAL
        .captures_iter(text)
        .filter(|c| c.get(0).is_some_and(|whole| setup.called_at(text, whole.start())))
        .filter_map(|c| super::types::variable_type(text, c.get(1)?.as_str()))
        .map(|ty| SettingsRoot::new(setup.prefix.trim_end_matches('_'), ty, FieldKeys::Mapstructure { double }))
        .collect();
    found.dedup();
    found
}

/// `viper.Unmarshal(conf)` in a file that leaves setting viper up to another (see
/// [`SettingsRoot::unprefixed`]): the global viper only, whose set-up any file may do.
fn roots_set_up_elsewhere(text: &str, unmarshal: &Regex) -> Vec<SettingsRoot> {
    // A file that names viper's prefix sets viper up itself, however partly.
    if !text.contains("viper.Unmarshal") || text.contains("SetEnvPrefix(") {
        return Vec::new();
    }
    let mut found: Vec<SettingsRoot> = unmarshal
        .captures_iter(text)
        .filter(|c| c.get(0).is_some_and(|whole| text[..whole.start()].ends_with("viper.")))
        .filter_map(|c| super::types::variable_type_in(text, c.get(1)?.as_str()))
        .map(|(package, ty)| SettingsRoot {
            module: package,
            unprefixed: true,
            ..SettingsRoot::new("", ty, FieldKeys::Mapstructure { double: false })
        })
        .collect();
    found.dedup();
    found
}

/// The prefix a file that sets the global viper up to read nested keys from the environment
/// gives every name (`EVCC_` of `viper.SetEnvPrefix("evcc")`, `AutomaticEnv()` and a `.`→`_`
/// replacer), for the structs other files unmarshal (see [`SettingsRoot::unprefixed`]).
pub fn global_prefix(text: &str) -> Option<String> {
    let setup = Setup::of(text)?;
    // Not a `viper.New()` instance's set-up.
    let global = text.contains("viper.SetEnvPrefix(") && text.contains("viper.AutomaticEnv()");
    (global && setup.automatic && setup.section_joiner() == Some("_") && !setup.prefix.is_empty())
        .then_some(setup.prefix)
}

/// Whether a `Get…` call returns a setting: a flag, a number, a duration, a list, a map.
fn is_setting_getter(call: &str) -> bool {
    let ty = call.trim_start_matches("Get");
    ["Bool", "Int", "Uint", "Float", "Duration", "Time", "SizeInBytes"].iter().any(|t| ty.starts_with(t))
        || ty.ends_with("Slice")
        || ty.starts_with("StringMap")
}

/// Whether a default is a setting's: `true`, `4533`, `5*time.Second`, a list or map literal.
fn is_setting_value(value: &str) -> bool {
    let value = value.trim();
    matches!(value, "true" | "false")
        || value.starts_with(|c: char| c.is_ascii_digit() || c == '-') && !value.starts_with("--")
        || value.contains("time.")
        || value.starts_with("[]")
        || value.starts_with("map[")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(String, Need, bool)> {
        reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect()
    }

    #[test]
    fn bindings_getters_and_defaults_under_the_prefix() {
        let text = r#"
viper.SetEnvPrefix("app")
viper.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
viper.AutomaticEnv()
viper.BindEnv("db.password", "DB_PASSWORD", "DATABASE_PASSWORD")
viper.BindEnv("token")
key := viper.GetString("stripe.secret_key")
viper.SetDefault("lastfm.apikey", "")
viper.SetDefault("port", 4533)
viper.SetDefault("session.timeout", 5*time.Second)
debug := viper.GetBool("debug")
name := c.GetString("user")
"#;
        assert_eq!(
            rows(text),
            [
                ("DB_PASSWORD".into(), Need::Unstated, false),
                ("DATABASE_PASSWORD".into(), Need::Unstated, false),
                ("APP_TOKEN".into(), Need::Unstated, false),
                ("APP_STRIPE_SECRET_KEY".into(), Need::Unstated, false),
                ("APP_LASTFM_APIKEY".into(), Need::Optional, false),
                ("APP_PORT".into(), Need::Optional, true),
                ("APP_SESSION_TIMEOUT".into(), Need::Optional, true),
                ("APP_DEBUG".into(), Need::Unstated, true),
            ]
        );
    }

    #[test]
    fn the_replacer_says_which_keys_are_names() {
        // Only `-` is swapped: a dotted key keeps its dot, which no shell sets.
        let text = "v := viper.New()\nv.SetEnvPrefix(\"memos\")\nv.SetEnvKeyReplacer(strings.NewReplacer(\"-\", \"_\"))\nv.AutomaticEnv()\nv.GetString(\"instance-secret\")\nv.GetString(\"smtp.password\")\n";
        assert_eq!(rows(text), [("MEMOS_INSTANCE_SECRET".into(), Need::Unstated, false)]);
        // Made apart from the call.
        let text = "r := strings.NewReplacer(\".\", \"_\")\nviper.SetEnvKeyReplacer(r)\nviper.SetEnvPrefix(\"ND\")\nviper.AutomaticEnv()\nviper.SetDefault(\"lastfm.secret\", \"\")\n";
        assert_eq!(rows(text), [("ND_LASTFM_SECRET".into(), Need::Optional, false)]);
        // No prefix: the key alone.
        let text = "viper.AutomaticEnv()\nviper.GetString(\"jwt_secret\")\n";
        assert_eq!(rows(text), [("JWT_SECRET".into(), Need::Unstated, false)]);
        // No AutomaticEnv: a getter reads the config alone.
        assert_eq!(rows("viper.BindEnv(\"x\", \"X_TOKEN\")\nviper.GetString(\"api_key\")\n").len(), 1);
        let table = "var bindings = []configBinding{\n\t{\"server.api_key\", \"APP_SERVER_API_KEY\"},\n\t{\"blob.s3.secret_access_key\", \"S3_SECRET_ACCESS_KEY\"},\n}\n\
            func load() {\n\tfor _, binding := range bindings {\n\t\tviper.BindEnv(binding.key, binding.env)\n\t}\n}\n";
        let names: Vec<String> = reads(table).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["APP_SERVER_API_KEY", "S3_SECRET_ACCESS_KEY"]);
        let unbound = "var pairs = [][2]string{{\"a.b\", \"A_TOKEN\"}}\nviper.BindEnv(\"a.b\")\n";
        assert!(!reads(unbound).iter().any(|r| r.name == "A_TOKEN"));
    }

    #[test]
    fn a_prefix_constant_and_a_double_underscore_replacer() {
        // sftpgo's set-up: the prefix a constant of a `const (…)` block, nested keys joined by `__`.
        let text = "const (\n\tconfigEnvPrefix = \"sftpgo\"\n)\n\nfunc Init() {\n\tviper.SetEnvPrefix(configEnvPrefix)\n\treplacer := strings.NewReplacer(\".\", \"__\")\n\tviper.SetEnvKeyReplacer(replacer)\n\tviper.AutomaticEnv()\n}\n\nfunc defaults() {\n\tviper.SetDefault(\"data_provider.password\", globalConf.ProviderConf.Password)\n\tviper.SetDefault(\"httpd.max_upload_file_size\", 0)\n}\n";
        assert_eq!(
            rows(text),
            [
                ("SFTPGO_DATA_PROVIDER__PASSWORD".into(), Need::Optional, false),
                ("SFTPGO_HTTPD__MAX_UPLOAD_FILE_SIZE".into(), Need::Optional, true),
            ]
        );
        // A prefix constant the file does not define leaves the key alone.
        assert_eq!(rows(&text.replace("configEnvPrefix = ", "other = "))[0].0, "DATA_PROVIDER__PASSWORD");
    }

    #[test]
    fn constants_of_a_key_type_viper_reads() {
        let text = "type Key string\n\nconst (\n\tServiceSecret Key = `service.secret`\n\tServicePort   Key = \"service.port\"\n\tQueueTokens   Key = `queue.tokens`\n\tLocalName     Key = `local.name`\n)\n\nfunc (k Key) GetString() string {\n\treturn viper.GetString(string(k))\n}\n\nfunc (k Key) GetInt() int {\n\treturn viper.GetInt(string(k))\n}\n\nfunc (k Key) setDefault(i interface{}) {\n\tviper.SetDefault(string(k), i)\n}\n\nfunc Init() {\n\tServiceSecret.setDefault(\"\")\n\tServicePort.setDefault(3456)\n\tviper.SetEnvPrefix(\"app\")\n\tviper.SetEnvKeyReplacer(strings.NewReplacer(\".\", \"_\"))\n\tviper.AutomaticEnv()\n}\n\nfunc n() int { return QueueTokens.GetInt() }\n";
        assert_eq!(
            rows(text),
            [
                ("APP_SERVICE_SECRET".into(), Need::Optional, false),
                ("APP_SERVICE_PORT".into(), Need::Optional, true),
                ("APP_QUEUE_TOKENS".into(), Need::Unstated, true),
                ("APP_LOCAL_NAME".into(), Need::Unstated, false),
            ]
        );
        // A string type no method hands to viper declares no keys.
        assert_eq!(rows(&text.replace("string(k)", "k.String()")), []);
    }

    #[test]
    fn the_struct_unmarshal_fills() {
        let text = "var cfg Config\nviper.SetEnvPrefix(\"app\")\nviper.SetEnvKeyReplacer(strings.NewReplacer(\".\", \"_\"))\nviper.AutomaticEnv()\nif err := viper.Unmarshal(&cfg); err != nil {}\n";
        assert_eq!(roots(text), [SettingsRoot::new("APP", "Config", FieldKeys::Mapstructure { double: false })]);
        // Without the replacer a nested key is no name; without AutomaticEnv none is read.
        assert_eq!(roots(&text.replace("viper.SetEnvKeyReplacer", "// ")), []);
        assert_eq!(roots(&text.replace("viper.AutomaticEnv()", "")), []);
    }

    #[test]
    fn a_struct_unmarshalled_where_another_file_set_viper_up_waits_for_its_prefix() {
        let setup = "func initConfig() {\n\tviper.SetEnvPrefix(\"meterd\")\n\tviper.SetEnvKeyReplacer(strings.NewReplacer(\".\", \"_\"))\n\tviper.AutomaticEnv()\n}\n";
        assert_eq!(global_prefix(setup).as_deref(), Some("METERD_"));
        assert_eq!(global_prefix(&setup.replace("viper.AutomaticEnv()", "")), None);
        assert_eq!(global_prefix(&setup.replace("viper.Set", "v.Set")), None, "an instance's set-up is its own");
        let unmarshal = "func load(conf *config.All) error {\n\treturn viper.UnmarshalExact(conf)\n}\n";
        let root = SettingsRoot {
            module: Some("config".into()),
            unprefixed: true,
            ..SettingsRoot::new("", "All", FieldKeys::Mapstructure { double: false })
        };
        assert_eq!(roots(unmarshal), [root]);
        assert_eq!(roots(&unmarshal.replace("viper.", "v.")), [], "an instance is set up where it is made");
    }
}
