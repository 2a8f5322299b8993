//! kelseyhightower/envconfig (and viper's `Unmarshal`, which names the same fields by their
//! mapstructure tags, see [`super::viper`]): `envconfig.Process("app", &config)` reads every exported field of
//! `config`'s struct as `APP_` and the field's key — its name in upper case, split into words
//! with `split_words` (`TurnExternalSecret` is `TURN_EXTERNAL_SECRET`), or the
//! `envconfig:"key"` of its tag; required with `required:"true"`, optional with a `default`.
//! A field whose type is another struct reads that struct's fields under `APP_KEY_` (an
//! embedded one's under `APP_`), and the struct is often in another package
//! (`config := new(conf.GlobalConfiguration)`): this module only says what each file defines
//! and fills; the secrets signal joins them over the project.

use std::sync::LazyLock;

use regex::Regex;

use super::types::{is_setting_type, variable_type};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    FieldKeys, Need, SettingsField, SettingsRoot, SettingsStruct, SettingsTypes,
};

const QUOTES: &[char] = &['"', '`'];

/// At most this many structs are taken from one file.
const MAX_STRUCTS: usize = 200;

/// The structs `text` defines (each exported field as envconfig reads it) and the
/// `envconfig.Process` calls it makes: any struct may be the one another package's call fills.
pub fn settings_structs(text: &str) -> SettingsTypes {
    SettingsTypes { structs: structs(text), roots: roots(text), decoders: decoders(text), root_prefix: None }
}

/// The types with a method envconfig parses a value with (`func (r *Rate) Decode(value
/// string) error`, `UnmarshalText`, `Set`): each is one variable.
fn decoders(text: &str) -> Vec<String> {
    static METHOD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^func[[:space:]]*\([[:space:]]*[[:word:]]*[[:space:]]*\*?([A-Z][[:word:]]*)[[:space:]]*\)[[:space:]]*(?:Decode|UnmarshalText|UnmarshalBinary|Set)\(")
            .expect("the decoder method pattern is valid")
    });
    METHOD.captures_iter(text).filter_map(|c| c.get(1)).map(|m| m.as_str().to_string()).collect()
}

fn roots(text: &str) -> Vec<SettingsRoot> {
    static PROCESS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)envconfig\.(?:Must)?Process[A-Za-z]*\([[:space:]]*(?:"([A-Za-z0-9_]*)"|([A-Za-z_][[:word:]]*))[[:space:]]*,[[:space:]]*&?([A-Za-z_][[:word:]]*)"#)
            .expect("the envconfig.Process pattern is valid")
    });
    PROCESS
        .captures_iter(text)
        .filter_map(|c| {
            let prefix = match (c.get(1), c.get(2)) {
                (Some(literal), _) => literal.as_str().to_string(),
                (None, Some(constant)) => string_constant(text, constant.as_str())?,
                _ => return None,
            };
            let ty = variable_type(text, c.get(3)?.as_str())?;
            Some(SettingsRoot::new(prefix.to_ascii_uppercase(), ty, FieldKeys::Envconfig))
        })
        .collect()
}

fn structs(text: &str) -> Vec<SettingsStruct> {
    static STRUCT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^type[[:space:]]+([A-Za-z][[:word:]]*)[[:space:]]+struct[[:space:]]*\{")
            .expect("the Go struct pattern is valid")
    });
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[[:space:]]*([A-Z][[:word:]]*)[[:space:]]+([^[:space:]]+)[[:space:]]*(?:`([^`]*)`)?")
            .expect("the struct-field pattern is valid")
    });
    static EMBEDDED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^[[:space:]]*\*?(?:[a-z][[:word:]]*\.)?([A-Z][[:word:]]*)[[:space:]]*(?:`[^`]*`)?[[:space:]]*(?://.*)?$",
        )
        .expect("the embedded-field pattern is valid")
    });
    static PAIR: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"([A-Za-z_][A-Za-z0-9_]*):"([^"]*)""#).expect("the tag-pair pattern is valid"));
    let mut found = Vec::new();
    for c in STRUCT.captures_iter(text).take(MAX_STRUCTS) {
        let (Some(whole), Some(name)) = (c.get(0), c.get(1)) else { continue };
        let open = whole.end() - 1;
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        let mut fields = Vec::new();
        let mut offset = open + 1;
        for line in body.split_inclusive('\n') {
            let at = offset;
            offset += line.len();
            let line = line.trim_end();
            if let Some(embedded) = EMBEDDED.captures(line).and_then(|e| e.get(1)) {
                let ty = embedded.as_str().to_string();
                fields.push(SettingsField {
                    key: String::new(),
                    mapped_key: Some(String::new()),
                    ty,
                    embedded: true,
                    need: Need::Unstated,
                    setting: false,
                    at: at + embedded.start(),
                });
                continue;
            }
            let Some(field) = FIELD.captures(line) else { continue };
            let (Some(field_name), Some(field_ty)) = (field.get(1), field.get(2)) else { continue };
            let tags: Vec<(&str, &str)> = field
                .get(3)
                .map(|t| {
                    PAIR.captures_iter(t.as_str())
                        .filter_map(|p| Some((p.get(1)?.as_str(), p.get(2)?.as_str())))
                        .collect()
                })
                .unwrap_or_default();
            let tag = |key: &str| tags.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
            if tag("ignored") == Some("true") || tag("envconfig") == Some("-") || field_ty.as_str().starts_with("func")
            {
                continue;
            }
            // viper's Unmarshal names fields by mapstructure: `mapstructure:"api_key,omitempty"`,
            // `mapstructure:",squash"` (its fields keep the prefix), `mapstructure:"-"` (none).
            let mapstructure = tag("mapstructure").unwrap_or_default();
            let mapped_key = match mapstructure.split(',').next().unwrap_or_default() {
                "-" => None,
                _ if mapstructure.split(',').any(|o| o == "squash") => Some(String::new()),
                "" => Some(field_name.as_str().to_string()),
                named => Some(named.to_string()),
            };
            let named = tag("envconfig").filter(|key| !key.is_empty());
            let key = match named {
                Some(key) => key.to_ascii_uppercase(),
                _ if tag("split_words") == Some("true") => split_words(field_name.as_str()),
                _ => field_name.as_str().to_ascii_uppercase(),
            };
            // envconfig also reads a tag's name alone: written as a variable (`DATABASE_URL`,
            // required as such by the env reader), the prefixed name is the other way to give
            // it, and not required.
            let bare = named.is_some_and(code::is_upper_snake);
            let need = if tag("default").is_some() {
                Need::Optional
            } else if tag("required") == Some("true") && !bare {
                Need::Required
            } else {
                Need::Unstated
            };
            let ty = field_ty.as_str();
            fields.push(SettingsField {
                key,
                mapped_key,
                ty: ty.trim_start_matches('*').rsplit('.').next().unwrap_or(ty).to_string(),
                embedded: false,
                need,
                setting: is_setting_type(ty),
                at: at + field_name.start(),
            });
        }
        found.push(SettingsStruct { name: name.as_str().to_string(), fields, constants: Vec::new() });
    }
    found
}

/// The value of a string variable or constant of the file: `prefix = "screego"`,
/// `const envPrefix string = "APP"`.
pub(super) fn string_constant(text: &str, name: &str) -> Option<String> {
    let pattern =
        Regex::new(&format!(r#"(?m)^[[:space:]]*(?:(?:var|const)[[:space:]]+)?{}[[:space:]]+(?:string[[:space:]]+)?:?=[[:space:]]*"([^"]*)""#, regex::escape(name)))
            .ok()?;
    pattern.captures(text).and_then(|c| c.get(1)).map(|m| m.as_str().to_string())
}

/// A Go field name as envconfig's `split_words` spells it: words at case changes, an acronym
/// kept whole (`TLSCertFile` is `TLS_CERT_FILE`, `ExternalIP` `EXTERNAL_IP`).
fn split_words(field: &str) -> String {
    let chars: Vec<char> = field.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1);
        let boundary = c.is_uppercase()
            && previous.is_some_and(|p| p.is_lowercase() || p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()));
        if boundary {
            out.push('_');
        }
        out.extend(c.to_uppercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_as_envconfig_reads_them() {
        let text = r#"
var prefix = "screego"

type Config struct {
	TLSKeyFile         string   `split_words:"true"`
	Secret             []byte   `split_words:"true"`
	ServerTLS          bool     `split_words:"true"`
	TurnExternalSecret string   `split_words:"true"`
	TurnAddress        string   `default:":3478" required:"true" split_words:"true"`
	AdminPass          string   `envconfig:"admin_password" required:"true"`
	CheckOrigin        func(string) bool `ignored:"true"`
	Mail               *mail.Settings `envconfig:"SMTP"`
	Common
	internal           string
}

func Get() Config {
	config := Config{}
	err := envconfig.Process(prefix, &config)
}
"#;
        let SettingsTypes { structs, roots, .. } = settings_structs(text);
        assert_eq!(roots, [SettingsRoot::new("SCREEGO", "Config", FieldKeys::Envconfig)]);
        let rows: Vec<(&str, &str, bool, Need, bool)> =
            structs[0].fields.iter().map(|f| (f.key.as_str(), f.ty.as_str(), f.embedded, f.need, f.setting)).collect();
        assert_eq!(
            rows,
            [
                ("TLS_KEY_FILE", "string", false, Need::Unstated, false),
                ("SECRET", "[]byte", false, Need::Unstated, false),
                ("SERVER_TLS", "bool", false, Need::Unstated, true),
                ("TURN_EXTERNAL_SECRET", "string", false, Need::Unstated, false),
                ("TURN_ADDRESS", "string", false, Need::Optional, false),
                ("ADMIN_PASSWORD", "string", false, Need::Required, false),
                ("SMTP", "Settings", false, Need::Unstated, false),
                ("", "Common", true, Need::Unstated, false),
            ]
        );
    }

    #[test]
    fn a_struct_of_another_package_through_a_parameter() {
        let text = "func loadGlobal(config *conf.GlobalConfiguration) error {\n\tif err := envconfig.Process(\"gotrue\", config); err != nil {\n\t\treturn err\n\t}\n}\n";
        assert_eq!(roots(text), [SettingsRoot::new("GOTRUE", "GlobalConfiguration", FieldKeys::Envconfig)]);
        let rate =
            "type Rate struct {\n\tEvents float64\n}\n\nfunc (r *Rate) Decode(value string) error {\n\treturn nil\n}\n";
        assert_eq!(decoders(rate), ["Rate"]);
        let made = "config := new(conf.GlobalConfiguration)\nenvconfig.MustProcess(\"app\", config)\n";
        assert_eq!(roots(made), [SettingsRoot::new("APP", "GlobalConfiguration", FieldKeys::Envconfig)]);
    }
}
