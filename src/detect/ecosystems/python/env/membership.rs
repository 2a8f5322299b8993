//! Presence checks: `if "ANTHROPIC_API_KEY" in os.environ:` (also `not in`, `environ`) — the app
//! looks for the variable and takes a path of its own when it is set, so it reads it, and
//! starts without it.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static MEMBERSHIP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"['"](?P<name>[A-Za-z_][A-Za-z0-9_]*)['"][[:space:]]+(?:not[[:space:]]+)?in[[:space:]]+(?:os\.)?environ(?:[^[:word:].]|$)"#,
        )
        .expect("the Python presence-check pattern is valid")
    });
    if !text.contains("environ") {
        return Vec::new();
    }
    MEMBERSHIP
        .captures_iter(text)
        .filter_map(|c| c.name("name"))
        .map(|name| EnvRead::new(name.as_str(), name.start(), Need::Optional, "in os.environ"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_presence_check_is_an_optional_read() {
        let text = "import os\nif \"GEMINI_API_KEY\" in os.environ:\n    pass\nif 'MISTRAL_API_KEY' not in environ:\n    pass\nx = \"a\" in os.environ.copy()\ny = 'IN_A_LIST' in names\n";
        let found: Vec<(String, Need)> = reads(text).into_iter().map(|r| (r.name, r.need)).collect();
        assert_eq!(found, [("GEMINI_API_KEY".into(), Need::Optional), ("MISTRAL_API_KEY".into(), Need::Optional)]);
    }
}
