//! What Swift code reads from the environment: Vapor's `Environment.get("X")` (`Self.get("X")`
//! in an `extension Environment`) and `Environment.process.X`, and Foundation's
//! `ProcessInfo.processInfo.environment["X"]`, and the project's env helpers — functions
//! whose `String` parameter is the name they read (`static func env(_ key: String) -> String
//! { … environment[key] … fatalError(…) }`), called with a literal anywhere in the project
//! (`Constants.env("BOT_TOKEN")`, `try requireEnvVar("GH_CLIENT_ID")`). Where a helper is
//! defined and where it is called are often different files: the secrets signal pairs them
//! (see [`EnvRead::helper`]).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead, Need};

const QUOTES: &[char] = &['"'];

/// The direct reads of `text`, and its calls of functions that may be env helpers.
pub fn reads(text: &str) -> Vec<EnvRead> {
    static READ: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u:\b)(?:ProcessInfo\.processInfo\.environment\[[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\]|(Environment|Self)\.get\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\)|Environment\.process\.([A-Z_][A-Z0-9_]*)(?-u:\b))"#,
        )
        .expect("the Swift environment-read pattern is valid")
    });
    // Inside `extension Environment { … }`, `Self.get("X")` is Vapor's read too.
    let extends_environment = text.contains("extension Environment");
    let mut found: Vec<EnvRead> = READ
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            if c.get(2).is_some_and(|owner| owner.as_str() == "Self") && !extends_environment {
                return None;
            }
            let name = c.get(1).or(c.get(3)).or(c.get(4))?;
            let after = &text[whole.end()..];
            // `?? "default"` is optional; `guard let x = Environment.get("X") else { throw … }`
            // and a force unwrap (`Environment.get("X")!`) stop without it — but a static
            // property's initializer runs when it is first used, not at start.
            let stops = code::followed_by(after, &["else"])
                || code::followed_by(after, &["!"]) && !code::followed_by(after, &["!="]);
            let need = if code::followed_by(after, &["??"]) {
                Need::Optional
            } else if stops && !initializes_a_static(text, whole.start()) {
                Need::Required
            } else {
                Need::Unstated
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, "Swift environment read"))
        })
        .collect();
    found.extend(helper_calls(text));
    found
}

/// Whether the code at `at` is on the line of a static or lazy stored property (`static let
/// token = …`, `lazy var key = …`): Swift runs its initializer when it is first used.
fn initializes_a_static(text: &str, at: usize) -> bool {
    static LAZY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[[:space:]]*(?:@[[:word:]]+[[:space:]]+)*(?:(?:public|private|fileprivate|internal|package|open|nonisolated)(?:\(set\))?[[:space:]]+)*(?:(?:static|class)[[:space:]]+(?:(?:public|private|fileprivate|internal|package)[[:space:]]+)*(?:let|var)|lazy[[:space:]]+var)[[:space:]]")
            .expect("the Swift static property pattern is valid")
    });
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    LAZY.is_match(&text[line_start..at])
}

/// The functions `text` defines whose `String` parameter goes as it is to
/// `Environment.get` or `ProcessInfo.processInfo.environment[…]`. One that stops without the
/// value (`fatalError`, `preconditionFailure`, `throw`) is required.
pub fn helpers(text: &str) -> Vec<EnvHelper> {
    static FUNC: LazyLock<Regex> = LazyLock::new(|| {
        // `func env(_ key: String)`, `func requireEnvVar(_ key: String) throws -> String`,
        // `func value(for key: String)`: the parameter's name is the last word before `:`.
        Regex::new(r"(?-u:\b)func[[:space:]]+([a-zA-Z_][[:word:]]*)[[:space:]]*\([[:space:]]*(?:[a-zA-Z_][[:word:]]*[[:space:]]+)?([a-zA-Z_][[:word:]]*)[[:space:]]*:[[:space:]]*String[[:space:]]*\)")
            .expect("the Swift func pattern is valid")
    });
    let mut found: Vec<EnvHelper> = Vec::new();
    for c in FUNC.captures_iter(text) {
        let (Some(whole), Some(function), Some(parameter)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        let after = &text[whole.end()..];
        let Some(open) = after.find('{') else { continue };
        let Some(body) = code::block(&after[open..], QUOTES) else { continue };
        let parameter = parameter.as_str();
        let reads_it = body.contains(&format!("environment[{parameter}]"))
            || body.contains(&format!("Environment.get({parameter})"));
        if !reads_it || found.iter().any(|h| h.function == function.as_str()) {
            continue;
        }
        let stops = ["fatalError(", "preconditionFailure(", "throw "].iter().any(|s| body.contains(s));
        found.push(EnvHelper::named(function.as_str(), stops));
    }
    found
}

/// Calls of any function with a variable's name as its literal first argument
/// (`env("BOT_TOKEN")`, `Constants.env("X")`, `requireEnvVar("X")`): reads if the project
/// defines the function as a helper. Optional with a `??` fallback.
fn helper_calls(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[^[:word:].])(?:[A-Z][[:word:]]*\.)*([a-z_][[:word:]]*)\([[:space:]]*(?:[a-z_][[:word:]]*:[[:space:]]*)?"([A-Z][A-Z0-9]*_[A-Z0-9_]*)"[[:space:]]*\)"#,
        )
        .expect("the Swift call pattern is valid")
    });
    static FUNC_BODY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)func[[:space:]]+[^{}]*\{").expect("the Swift func body pattern is valid")
    });
    // Where functions' bodies are: a call there runs when the function does, not at start.
    let bodies: Vec<std::ops::Range<usize>> = FUNC_BODY
        .find_iter(text)
        .filter_map(|m| {
            let open = m.end() - 1;
            code::block(&text[open..], QUOTES).map(|body| open..open + body.len() + 2)
        })
        .collect();
    CALL.captures_iter(text)
        .filter_map(|c| {
            let (function, name, whole) = (c.get(1)?, c.get(2)?, c.get(0)?);
            // Vapor's own `Environment.get("X")` is a direct read, found above.
            if whole.as_str().contains("Environment.get(") {
                return None;
            }
            let need = if code::followed_by(&text[whole.end()..], &["??"]) { Need::Optional } else { Need::Unstated };
            let read = EnvRead::new(name.as_str(), name.start(), need, "an env helper of the project");
            let on_demand =
                bodies.iter().any(|body| body.contains(&name.start())) || initializes_a_static(text, whole.start());
            Some(EnvRead { helper: Some(function.as_str().to_string()), on_demand, ..read })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_that_read_the_name_they_are_given() {
        let text = r#"
enum Constants {
    static func env(_ key: String) -> String {
        if let value = ProcessInfo.processInfo.environment[key] { return value } else { fatalError("set \(key)") }
    }
}
package func requireEnvVar(_ key: String) throws -> String {
    if let value = ProcessInfo.processInfo.environment[key] { return value } else { throw NoEnvVarError(key: key) }
}
func optionalValue(for key: String) -> String? { Environment.get(key) }
func greet(_ name: String) -> String { "hello \(name)" }
"#;
        let found: Vec<(String, bool)> = helpers(text).into_iter().map(|h| (h.function, h.required)).collect();
        assert_eq!(
            found,
            [("env".to_string(), true), ("requireEnvVar".to_string(), true), ("optionalValue".to_string(), false)]
        );
    }

    #[test]
    fn a_call_in_a_function_body_or_a_static_initializer_runs_on_demand() {
        let text = "enum C {\n    static let token = env(\"BOT_TOKEN\")\n}\nlet key = env(\"APP_KEY\")\nstruct O {\n    func secret() throws -> String { try requireEnvVar(\"OAUTH_SECRET\") }\n}\n";
        let found: Vec<(String, bool)> = reads(text).into_iter().map(|r| (r.name, r.on_demand)).collect();
        assert_eq!(
            found,
            [("BOT_TOKEN".to_string(), true), ("APP_KEY".to_string(), false), ("OAUTH_SECRET".to_string(), true)]
        );
    }

    #[test]
    fn reads_of_an_environment_extension_and_force_unwraps() {
        let text = "extension Environment {\n    static public let apnsKey = Self.get(\"APNS_PRIVATE_KEY\")!.base64Decoded()!\n}\nfunc configure() {\n    let key = Environment.get(\"MAILER_KEY\")!\n    let id = Environment.get(\"KEY_ID\") != nil\n    let token = Environment.process.API_TOKEN ?? \"\"\n}\n";
        let direct = |text: &str| -> Vec<(String, Need)> {
            reads(text).into_iter().filter(|r| r.helper.is_none()).map(|r| (r.name, r.need)).collect()
        };
        assert_eq!(
            direct(text),
            [
                ("APNS_PRIVATE_KEY".to_string(), Need::Unstated),
                ("MAILER_KEY".to_string(), Need::Required),
                ("KEY_ID".to_string(), Need::Unstated),
                ("API_TOKEN".to_string(), Need::Optional),
            ]
        );
        // Elsewhere `Self.get` is any type's.
        assert_eq!(direct("struct S {\n    let x = Self.get(\"APNS_PRIVATE_KEY\")\n}\n"), []);
    }

    #[test]
    fn calls_with_a_literal_name_are_candidate_reads() {
        let text = r#"
static let botToken = env("BOT_TOKEN")
static let apiKey = Constants.env("SO_API_KEY")
let id = try requireEnvVar("GH_CLIENT_ID")
let region = value(for: "AWS_REGION") ?? "us-east-1"
let home = Environment.get("HOME_URL") ?? "/"
print("NOT_A_CALL")
"#;
        let found: Vec<(Option<String>, String, Need)> =
            reads(text).into_iter().map(|r| (r.helper, r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                (None, "HOME_URL".to_string(), Need::Optional),
                (Some("env".to_string()), "BOT_TOKEN".to_string(), Need::Unstated),
                (Some("env".to_string()), "SO_API_KEY".to_string(), Need::Unstated),
                (Some("requireEnvVar".to_string()), "GH_CLIENT_ID".to_string(), Need::Unstated),
                (Some("value".to_string()), "AWS_REGION".to_string(), Need::Optional),
                (Some("print".to_string()), "NOT_A_CALL".to_string(), Need::Unstated),
            ]
        );
    }
}
