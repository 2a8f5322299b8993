//! Calls of a function with a variable's name as its literal first argument
//! (`get_secret("DB_PASSWORD", "kiwi")`, `config.env_secret("X")`): reads when some file of
//! the project defines that function as an env helper ([`super::function_helpers`]); the
//! secrets signal pairs them. Optional when the call passes a default after the name.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::EnvRead;

const QUOTES: &[char] = &['"', '\''];

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?:^|[^[:word:].])(?P<receiver>(?:[A-Za-z_][[:word:]]*\.)*)(?P<function>[a-z_][[:word:]]*)\([[:space:]]*['"](?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]"#,
        )
        .expect("the Python helper-call pattern is valid")
    });
    // The file's own wrappers' calls are read with them (see `wrappers::reads`).
    let own: Vec<String> = super::wrappers::wrappers(text).into_iter().map(|(function, _, _)| function).collect();
    // `os.environ.get("X")`, `os.getenv("X")`: the language's own reads, found apart.
    code::helper_call_reads(&CALL, text, QUOTES, |receiver, function| {
        receiver.ends_with("environ.") || receiver == "os." || own.iter().any(|f| f == function)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::ecosystems::ecosystem::Need;

    #[test]
    fn calls_with_a_literal_name_whatever_the_function() {
        let text = "DATABASES = {\"default\": {\"PASSWORD\": get_secret(\"KIWI_DB_PASSWORD\", \"kiwi\")}}\nKEY = secrets.env_secret('SIGNING_KEY')\nos.environ.get(\"PLAIN_READ\")\nlog(\"not_a_name\")\n";
        let found: Vec<(Option<String>, String, Need)> =
            reads(text).into_iter().map(|r| (r.helper, r.name, r.need)).collect();
        assert_eq!(
            found,
            [
                (Some("get_secret".into()), "KIWI_DB_PASSWORD".into(), Need::Optional),
                (Some("env_secret".into()), "SIGNING_KEY".into(), Need::Unstated),
            ]
        );
    }
}
