//! The .NET options pattern (Microsoft.Extensions.Options): a class whose properties the
//! configuration binder fills from one section — `services.Configure<SmtpOptions>(
//! config.GetSection("Smtp"))`, `AddOptions<SmtpOptions>().Bind(config.GetSection("Smtp"))`
//! or `.BindConfiguration("Smtp")`, `config.GetSection("Smtp").Get<SmtpOptions>()`. The
//! environment provider gives each property as `Smtp__Password` (nested sections and classes
//! joined by `__`). A `[Required]` DataAnnotation stops the app only where the binding calls
//! `ValidateDataAnnotations()`; a property with an initializer or a nullable type has a
//! default; one of a boolean, number, `TimeSpan`, enum or collection type is a setting.
//!
//! The class is usually in another file than the binding: this module says what each file
//! defines and binds; the secrets signal joins them over the project.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    FieldKeys, Need, SettingsField, SettingsRoot, SettingsStruct, SettingsTypes,
};

const QUOTES: &[char] = &['"'];

/// At most this many classes are taken from one file.
const MAX_CLASSES: usize = 100;

/// The classes `text` defines (each public settable property as the binder reads it) and the
/// options bindings it makes.
pub fn settings_structs(text: &str) -> SettingsTypes {
    SettingsTypes { structs: classes(text), roots: roots(text), decoders: Vec::new(), root_prefix: None }
}

fn roots(text: &str) -> Vec<SettingsRoot> {
    static BINDING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)
            (?-u:\b)(?P<call>Configure|AddOptions)<[[:space:]]*(?P<ty>[A-Za-z_][[:word:].]*)[[:space:]]*>\(
            | (?-u:\b)Get(?:Required)?Section\([[:space:]]*(?P<section>[^()]*(?:\([^()]*\))?)[[:space:]]*\)[[:space:]]*\.Get<[[:space:]]*(?P<got>[A-Za-z_][[:word:].]*)[[:space:]]*>\(
            ",
        )
        .expect("the options-binding pattern is valid")
    });
    let mut found = Vec::new();
    for c in BINDING.captures_iter(text) {
        let Some(whole) = c.get(0) else { continue };
        let after = &text[whole.end()..];
        let (ty, section, validated) = match (c.name("call"), c.name("ty"), c.name("got")) {
            (Some(call), Some(ty), _) if call.as_str() == "Configure" => {
                let arguments = code::rest_of_call(after, QUOTES);
                let Some(section) = configured_section(arguments) else { continue };
                (ty.as_str(), section, false)
            }
            (Some(_), Some(ty), _) => {
                // The chain up to the statement's end: `.Bind(…)`/`.BindConfiguration(…)`, then
                // `.ValidateDataAnnotations()`.
                let chain = &after[..after.find(';').unwrap_or(after.len())];
                let Some(section) = bound_section(chain) else { continue };
                (ty.as_str(), section, chain.contains(".ValidateDataAnnotations("))
            }
            (_, _, Some(ty)) => {
                let Some(section) = c.name("section").and_then(|s| section_of(s.as_str())) else { continue };
                (ty.as_str(), section, false)
            }
            _ => continue,
        };
        let ty = last_segment(ty);
        let keys = FieldKeys::Options { validated };
        let root = match section {
            Section::Named(prefix) => SettingsRoot::new(prefix, ty, keys),
            Section::Constant(owner, constant) => match file_constant(text, &owner, &constant) {
                Some(prefix) => SettingsRoot::new(prefix, ty, keys),
                None => SettingsRoot { prefix_constant: Some((owner, constant)), ..SettingsRoot::new("", ty, keys) },
            },
        };
        found.push(root);
    }
    found.dedup();
    found
}

/// The section a binding names: `"Smtp:Mail"` (`Smtp__Mail`), `nameof(SmtpOptions)`, or a
/// constant, `SmtpOptions.Section` or `Section` (of a class of this file).
#[derive(Debug, PartialEq, Eq)]
enum Section {
    Named(String),
    Constant(String, String),
}

fn section_of(expression: &str) -> Option<Section> {
    let expression = expression.trim();
    if let Some(literal) = expression.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
        return is_section(literal).then(|| Section::Named(literal.replace(':', "__")));
    }
    if let Some(named) = expression.strip_prefix("nameof(").and_then(|rest| rest.strip_suffix(')')) {
        return Some(Section::Named(last_segment(named.trim()).to_string()));
    }
    if !expression.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') || expression.is_empty() {
        return None;
    }
    let mut parts = expression.rsplit('.');
    let constant = parts.next()?.to_string();
    Some(Section::Constant(parts.next().unwrap_or_default().to_string(), constant))
}

/// Whether a section's name can be a variable's part (letters, digits, `_`, `:`).
fn is_section(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// The section of `Configure<T>(…)`'s `arguments`: the `GetSection(…)` it passes (after an
/// options name, if any), or the root of the configuration itself (`Configure<T>(Configuration)`).
/// A lambda configures in code; other arguments are some library's own overload.
fn configured_section(arguments: &str) -> Option<Section> {
    if arguments.contains("=>") {
        return None;
    }
    if let Some(section) = get_section(arguments) {
        return section_of(section);
    }
    let whole = arguments.trim();
    let is_configuration = whole.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && last_segment(whole).to_ascii_lowercase().contains("config");
    is_configuration.then(|| Section::Named(String::new()))
}

/// The section an `AddOptions<T>()` chain binds: `.BindConfiguration("S")` or
/// `.Bind(config.GetSection("S"))`.
fn bound_section(chain: &str) -> Option<Section> {
    if let Some(at) = chain.find(".BindConfiguration(") {
        let rest = &chain[at + ".BindConfiguration(".len()..];
        return section_of(code::expression(rest, QUOTES));
    }
    let at = chain.find(".Bind(")?;
    section_of(get_section(code::rest_of_call(&chain[at + ".Bind(".len()..], QUOTES))?)
}

/// The argument of the first `GetSection(…)`/`GetRequiredSection(…)` in `text`.
fn get_section(text: &str) -> Option<&str> {
    let at = ["GetSection(", "GetRequiredSection("]
        .iter()
        .filter_map(|call| text.find(call).map(|at| at + call.len()))
        .min()?;
    Some(code::rest_of_call(&text[at..], QUOTES))
}

fn last_segment(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// The value of a string constant this file's class `owner` (or, for no owner, any class of
/// the file) declares.
fn file_constant(text: &str, owner: &str, constant: &str) -> Option<String> {
    classes(text)
        .into_iter()
        .filter(|class| owner.is_empty() || class.name == owner)
        .find_map(|class| class.constants.into_iter().find(|(name, _)| name == constant).map(|(_, value)| value))
}

/// The classes and records of `text` with their public settable properties and string
/// constants, each of the class's own body (not of the classes nested in it).
fn classes(text: &str) -> Vec<SettingsStruct> {
    static CLASS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)(?:class|record|struct)[[:space:]]+([A-Za-z_][[:word:]]*)(?:<[^<>{};]*>)?[^{};=()]*\{")
            .expect("the C# class pattern is valid")
    });
    let mut found = Vec::new();
    for c in CLASS.captures_iter(text).take(MAX_CLASSES) {
        let (Some(whole), Some(name)) = (c.get(0), c.get(1)) else { continue };
        let open = whole.end() - 1;
        let Some(body) = code::block(&text[open..], QUOTES) else { continue };
        let (fields, constants) = members(body, open + 1);
        if !fields.is_empty() || !constants.is_empty() {
            found.push(SettingsStruct { name: name.as_str().to_string(), fields, constants });
        }
    }
    found
}

/// The properties and string constants at the top level of a class `body` (at `offset`).
fn members(body: &str, offset: usize) -> (Vec<SettingsField>, Vec<(String, String)>) {
    static PROPERTY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)
            (?P<attributes>(?:\[[^\]\n]*\][[:space:]]*)*)
            public[[:space:]]+(?:(?:required|virtual|override|new)[[:space:]]+)*
            (?P<ty>[A-Za-z_][[:word:].]*(?:<[^;{}=()]*?>)?(?:\[\])?\??)[[:space:]]+
            (?P<name>[A-Za-z_][[:word:]]*)[[:space:]]*
            \{[[:space:]]*get;[[:space:]]*(?:set|init);[[:space:]]*\}
            (?P<initializer>[[:space:]]*=)?
            ",
        )
        .expect("the C# property pattern is valid")
    });
    static CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"const[[:space:]]+string[[:space:]]+([A-Za-z_][[:word:]]*)[[:space:]]*=[[:space:]]*"([^"]*)""#)
            .expect("the C# constant pattern is valid")
    });
    let depths = depths(body);
    let top = |at: usize| depths.get(at).is_some_and(|d| *d == 0);
    let fields = PROPERTY
        .captures_iter(body)
        .filter_map(|p| {
            let (whole, ty, name) = (p.get(0)?, p.name("ty")?.as_str(), p.name("name")?);
            if !top(whole.start()) {
                return None;
            }
            let attributes = p.name("attributes").map_or("", |a| a.as_str());
            let required = attributes.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == "Required");
            let bare = ty.trim_end_matches('?');
            let need = if required {
                Need::Required
            } else if p.name("initializer").is_some() || ty.ends_with('?') {
                Need::Optional
            } else {
                Need::Unstated
            };
            Some(SettingsField {
                key: name.as_str().to_string(),
                mapped_key: None,
                ty: last_segment(bare).to_string(),
                embedded: false,
                need,
                // Any type but a string is a setting's or another options class (walked by name).
                setting: !bare.eq_ignore_ascii_case("string") && bare != "String",
                at: offset + name.start(),
            })
        })
        .collect();
    let constants = CONSTANT
        .captures_iter(body)
        .filter(|c| c.get(0).is_some_and(|m| top(m.start())))
        .filter_map(|c| Some((c.get(1)?.as_str().to_string(), c.get(2)?.as_str().replace(':', "__"))))
        .collect();
    (fields, constants)
}

/// The brace depth at each byte of `body`, outside string literals.
fn depths(body: &str) -> Vec<u16> {
    let mut depth: u16 = 0;
    let mut quoted = false;
    let mut found = Vec::with_capacity(body.len());
    let mut previous = ' ';
    for (i, c) in body.char_indices() {
        found.resize(i, depth);
        match c {
            '"' if previous != '\\' => quoted = !quoted,
            '{' if !quoted => depth = depth.saturating_add(1),
            '}' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
        // A property's own `{ get; set; }` is at the depth of the property.
        found.push(if c == '{' && !quoted { depth - 1 } else { depth });
        previous = c;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_name_their_section() {
        let text = r#"
builder.Services.Configure<SmtpOptions>(builder.Configuration.GetSection("Mail:Smtp"));
services.Configure<Jwt>("named", config.GetSection(nameof(Jwt)));
services.Configure<Root>(Configuration);
services.Configure<CookieOptions>(o => o.Secure = true);
services.AddOptions<StripeOptions>().BindConfiguration(StripeOptions.Section).ValidateDataAnnotations().ValidateOnStart();
services.AddOptions<Ai.OpenAiOptions>()
    .Bind(config.GetSection("OpenAi"));
var s3 = config.GetRequiredSection("S3").Get<S3Options>();
"#;
        let unvalidated = FieldKeys::Options { validated: false };
        let by_constant = SettingsRoot {
            prefix_constant: Some(("StripeOptions".into(), "Section".into())),
            ..SettingsRoot::new("", "StripeOptions", FieldKeys::Options { validated: true })
        };
        assert_eq!(
            roots(text),
            [
                SettingsRoot::new("Mail__Smtp", "SmtpOptions", unvalidated),
                SettingsRoot::new("Jwt", "Jwt", unvalidated),
                SettingsRoot::new("", "Root", unvalidated),
                by_constant,
                SettingsRoot::new("OpenAi", "OpenAiOptions", unvalidated),
                SettingsRoot::new("S3", "S3Options", unvalidated),
            ]
        );
    }

    #[test]
    fn properties_as_the_binder_fills_them() {
        let text = r#"
namespace App;

public sealed class StripeOptions : IValidatableObject
{
    public const string Section = "Payments:Stripe";

    [Required, MinLength(10)]
    public string ApiKey { get; set; } = null!;
    [Required(ErrorMessage = "x")]
    public required string WebhookSecret { get; init; }
    public string? PublishableKey { get; set; }
    public string Currency { get; set; } = "usd";
    public bool Live { get; set; }
    public TimeSpan Timeout { get; set; }
    public RetryOptions Retry { get; set; } = new();
    public List<string> Hosts { get; set; } = [];
    public string Computed => ApiKey + "x";
    private string Hidden { get; set; }

    public class RetryOptions
    {
        public int Count { get; set; }
    }
}
"#;
        let classes = classes(text);
        let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["StripeOptions", "RetryOptions"]);
        let rows: Vec<(&str, &str, Need, bool)> =
            classes[0].fields.iter().map(|f| (f.key.as_str(), f.ty.as_str(), f.need, f.setting)).collect();
        assert_eq!(
            rows,
            [
                ("ApiKey", "string", Need::Required, false),
                ("WebhookSecret", "string", Need::Required, false),
                ("PublishableKey", "string", Need::Optional, false),
                ("Currency", "string", Need::Optional, false),
                ("Live", "bool", Need::Unstated, true),
                ("Timeout", "TimeSpan", Need::Unstated, true),
                ("Retry", "RetryOptions", Need::Optional, true),
                ("Hosts", "List<string>", Need::Optional, true),
            ]
        );
        assert_eq!(classes[0].constants, [("Section".to_string(), "Payments__Stripe".to_string())]);
        assert!(text[classes[0].fields[0].at..].starts_with("ApiKey"));
        // A constant of the file's own class names the section at once.
        let bound = format!("{text}\nservices.Configure<StripeOptions>(config.GetSection(StripeOptions.Section));");
        assert_eq!(roots(&bound)[0].prefix, "Payments__Stripe");
    }

    #[test]
    fn text_without_classes_or_bindings_says_nothing() {
        let long = format!("services.AddOptions<X>(){}é;", " ".repeat(1999));
        assert!(roots(&long).is_empty());
        assert_eq!(settings_structs("var x = 1;"), SettingsTypes::default());
        assert_eq!(settings_structs("class Broken { public string A { get; set; }"), SettingsTypes::default());
        assert!(roots("services.Configure<X>(config, \"path\");").is_empty());
    }
}
