//! Settings fields whose value names a constant of the app rather than holding a credential.
//! A default spelled like a constant's name (`LLM_KEY: str = "OPENAI_GPT4O"`,
//! `MODEL_KEY: str = "OPENAI_COMPATIBLE"`) says the field picks an entry of a registry or an
//! enum by its key — random material, which a credential is, never reads as upper-case words.
//! A flat settings class spells the per-use overrides of such a field with a qualifier before
//! its name (`EXTRACTION_LLM_KEY: str | None = None` beside `LLM_KEY`; the code falls back
//! `settings.EXTRACTION_LLM_KEY or settings.LLM_KEY`), so those name the same kind of entry.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::EnvRead;

/// Words of a value that stands in for a credential or names one (`"YOUR_API_KEY"`,
/// `"CHANGE_ME"`, `"SUPER_SECRET"`): the field still wants a credential set.
const STAND_IN_WORDS: &[&str] = &[
    "KEY",
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASS",
    "PWD",
    "PLACEHOLDER",
    "CHANGE",
    "CHANGEME",
    "REPLACE",
    "YOUR",
    "DUMMY",
    "FAKE",
    "EXAMPLE",
    "TODO",
    "FILL",
    "XXX",
];

/// Whether a field's default (as written, maybe with a comment after it) is a quoted
/// constant's name: upper-case words joined by `_`, two or more (`"OPENAI_GPT5_5"`,
/// `"GEMINI_2.5_PRO"`), none of them a credential's or a stand-in's.
pub(super) fn names_a_constant(default: &str) -> bool {
    static CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"^(["'])([A-Z][A-Z0-9.]*(?:_[A-Z0-9.]+)+)["']"#).expect("the constant pattern is valid")
    });
    let Some(value) = CONSTANT.captures(default.trim()).and_then(|c| c.get(2)) else { return false };
    !value.as_str().split('_').any(|word| STAND_IN_WORDS.contains(&word))
}

/// Marks as settings the reads of fields named `<QUALIFIER>_<BASE>` where `<BASE>` is one of
/// `bases`, the names (under `prefix`) of fields whose default names a constant. A base of one
/// word (`KEY`) would take in every credential of the class, so bases have two or more; a
/// field the code declares a secret (`SecretStr`) stays one.
pub(super) fn mark_variants(reads: &mut [EnvRead], prefix: &str, bases: &[String]) {
    let prefix = prefix.to_ascii_uppercase();
    let tails: Vec<String> = bases.iter().filter(|base| base.contains('_')).map(|base| format!("_{base}")).collect();
    for read in reads.iter_mut().filter(|read| !read.marked_secret) {
        let field = read.name.strip_prefix(prefix.as_str()).unwrap_or(&read.name);
        if tails.iter().any(|tail| field.len() > tail.len() && field.ends_with(tail.as_str())) {
            read.setting = true;
        }
    }
}
