//! The registry is the one place that names package managers and test runners: a string
//! literal anywhere else in `src/` (outside test code and comments) that names one is
//! knowledge leaking out of [`super::ALL`], and this test fails on it.

use std::path::{Path, PathBuf};

use super::ALL;
use crate::source_code::{production_code, production_sources, string_literals};

/// Files that still name an ecosystem's tool, each with why. Keep it short.
const ALLOWED: &[(&str, &str)] =
    &[("src/cli.rs", "help text: examples a person reads (`hanzo-env run npm test`); man pages are generated from it")];

/// Names that are also ordinary words or shared tools, so a literal holding them says nothing
/// about one ecosystem: `make` (the shared task runner beside `just` and `task`), `go` and
/// `mix` (English words in messages), `pub` (Rust's keyword in generated text), `stack`.
const ORDINARY_WORDS: &[&str] = &["make", "go", "mix", "pub", "stack"];

/// Every package manager and test runner the registry declares.
fn registry_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = ALL
        .iter()
        .flat_map(|eco| eco.package_managers.iter().chain(eco.test_runners).chain(eco.fan_out_test_runners))
        .copied()
        .filter(|name| !ORDINARY_WORDS.contains(name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether `literal` names `name` as a word of its own (`pnpm install`, `pnpm/action-setup`).
fn names(literal: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    literal.match_indices(name).any(|(at, _)| {
        let before = literal[..at].chars().next_back();
        let after = literal[at + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[test]
fn no_package_manager_or_test_runner_is_named_outside_the_registry() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let home = src.join("detect").join("ecosystems");
    let names = registry_names();
    assert!(names.contains(&"pnpm") && names.contains(&"pytest"), "the registry declares the names: {names:?}");
    let mut leaks = Vec::new();
    for (file, code) in production_sources() {
        let rel = file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        if file.starts_with(&home) || ALLOWED.iter().any(|(path, _)| *path == rel) {
            continue;
        }
        for literal in string_literals(&code) {
            for name in names.iter().filter(|name| self::names(&literal, name)) {
                leaks.push(format!("{rel}: `{name}` in {literal}"));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "ecosystem names outside src/detect/ecosystems/ (move the fact into the registry, or allow the file with a \
         reason):\n{}",
        leaks.join("\n")
    );
    for (path, reason) in ALLOWED {
        assert!(src.parent().is_some_and(|root| root.join(path).exists()), "the allowed {path} exists");
        assert!(!reason.is_empty(), "{path} is allowed for a reason");
    }
}

#[test]
fn finds_names_as_words_in_literals_outside_test_code() {
    assert!(names("\"pnpm install\"", "pnpm") && names("\"pnpm/action-setup@v4\"", "pnpm"));
    assert!(!names("\"pnpm-lock.yaml\"", "pnpm") && !names("\"uvloop\"", "uv"));
    let text = "const Q: char = '\"';\nconst A: &str = \"uv sync\";\n// \"pnpm\" in a comment\n#[cfg(test)]\nmod tests {\n    fn f() {\n        \"yarn\";\n    }\n}\n#[cfg(test)]\nmod more;\n";
    let (code, tests) = production_code(Path::new("src/a.rs"), text);
    assert_eq!(string_literals(&code), ["\"uv sync\""]);
    assert_eq!(tests, [PathBuf::from("src/a/more.rs")]);
}
