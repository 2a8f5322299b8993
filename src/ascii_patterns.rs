//! Every pattern in `src/` spells its classes in ASCII: `[[:space:]]`, `[[:word:]]`, `[0-9]`,
//! `(?-u:\b)` and `(?i-u)`, never Perl's `\s`, `\w`, `\d` or a Unicode `(?i)`. The files read are
//! code and config, spaced and named in ASCII; a Unicode class compiles to many more automaton
//! states, and each scanning thread keeps its own lazy-DFA cache per pattern. Spelled in Unicode,
//! the ~300 patterns cost detect 3.3 MiB more peak memory on a tree where every reader runs
//! (and 5 % more time).

use regex::Regex;

use crate::source_code::{production_sources, string_literals};

/// The Unicode classes in the raw string literals (`r"…"`, `r#"…"#`: the patterns) of `code`.
fn unicode_classes(code: &str) -> Vec<String> {
    let class = Regex::new(r"\\\\|\\[sSwWdD]|\(\?i[):]").expect("the class pattern is valid");
    string_literals(code)
        .into_iter()
        .filter(|literal| literal.starts_with('r'))
        .flat_map(|literal| {
            class.find_iter(&literal).map(|c| c.as_str().to_string()).filter(|c| c != r"\\").collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn patterns_spell_their_classes_in_ascii() {
    let mut unicode = Vec::new();
    for (file, code) in production_sources().iter().filter(|(file, _)| !file.ends_with("ascii_patterns.rs")) {
        for class in unicode_classes(code) {
            unicode.push(format!("{}: {class}", file.display()));
        }
    }
    assert!(
        unicode.is_empty(),
        "Unicode classes in patterns (write [[:space:]], [^[:space:]], [[:word:]], [0-9], (?i-u)):\n{}",
        unicode.join("\n")
    );
}

#[test]
fn the_check_sees_a_unicode_class_in_a_pattern_only() {
    let code = "let a = r\"x\\s+y\";\nlet b = r#\"(?i)z\"#;\nlet c = r\"[[:space:]]\\\\s\";\nlet d = \"\\\\s\";\n";
    assert_eq!(unicode_classes(code), [r"\s", "(?i)"]);
}
