//! A small, deterministic YAML writer for the files `export` produces (a GitHub workflow, a
//! compose file). Block style throughout, two-space indentation, sequences indented under
//! their key, scripts as literal blocks. A string is written plain only when every YAML
//! reader, 1.1 or 1.2, reads it back as that same string; otherwise it is double-quoted.

/// A YAML value: the shapes a workflow or a compose file needs, nothing more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Str(String),
    Int(u64),
    /// An empty value (`workflow_dispatch:`).
    Null,
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>),
    /// Text `export` composed itself (a GitHub Actions `${{ secrets.NAME }}`): written like
    /// [`Node::Str`], but never rewritten by [`Node::rewrite_text`].
    Generated(String),
}

impl Node {
    pub fn str(text: impl Into<String>) -> Node {
        Node::Str(text.into())
    }

    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Node)>) -> Node {
        Node::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    pub fn strs<S: Into<String>>(items: impl IntoIterator<Item = S>) -> Node {
        Node::Seq(items.into_iter().map(|s| Node::Str(s.into())).collect())
    }

    /// Pass every string below this node through `rewrite` (and every mapping key, with
    /// `keys`), except [`Node::Generated`] ones: what the reader of the file would evaluate in
    /// text that came from the repository (`${{ … }}` for Actions, `$VAR` for compose) is
    /// neutralised in one place, whatever field it sits in.
    pub fn rewrite_text(&mut self, rewrite: &dyn Fn(&str) -> String, keys: bool) {
        match self {
            Node::Str(s) => *s = rewrite(s),
            Node::Seq(items) => items.iter_mut().for_each(|item| item.rewrite_text(rewrite, keys)),
            Node::Map(entries) => {
                for (key, value) in entries {
                    if keys {
                        *key = rewrite(key);
                    }
                    value.rewrite_text(rewrite, keys);
                }
            }
            Node::Int(_) | Node::Null | Node::Generated(_) => {}
        }
    }
}

/// The document for a top-level mapping, with a blank line between its entries.
pub fn document(root: &[(String, Node)]) -> String {
    let mut out = String::new();
    for (i, (key, value)) in root.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        entry(&mut out, 0, key, value);
    }
    out
}

fn entry(out: &mut String, indent: usize, key: &str, value: &Node) {
    out.push_str(&" ".repeat(indent));
    out.push_str(&scalar(key));
    out.push(':');
    value_after_key(out, indent, value);
}

/// What follows `key:` (or `- `): a scalar on the same line, a collection on the next ones.
fn value_after_key(out: &mut String, indent: usize, value: &Node) {
    match value {
        Node::Null => out.push('\n'),
        Node::Int(n) => out.push_str(&format!(" {n}\n")),
        Node::Str(s) | Node::Generated(s) => match block_literal(s, indent + 2) {
            Some(block) => {
                out.push(' ');
                out.push_str(&block);
            }
            None => {
                out.push(' ');
                out.push_str(&scalar(s));
                out.push('\n');
            }
        },
        Node::Seq(items) if items.is_empty() => out.push_str(" []\n"),
        Node::Map(entries) if entries.is_empty() => out.push_str(" {}\n"),
        Node::Seq(items) => {
            out.push('\n');
            for item in items {
                sequence_item(out, indent + 2, item);
            }
        }
        Node::Map(entries) => {
            out.push('\n');
            for (k, v) in entries {
                entry(out, indent + 2, k, v);
            }
        }
    }
}

fn sequence_item(out: &mut String, indent: usize, item: &Node) {
    out.push_str(&" ".repeat(indent));
    out.push('-');
    match item {
        // The first entry shares the dash's line; the rest align with it.
        Node::Map(entries) if !entries.is_empty() => {
            for (i, (k, v)) in entries.iter().enumerate() {
                if i == 0 {
                    out.push(' ');
                    out.push_str(&scalar(k));
                    out.push(':');
                    value_after_key(out, indent + 2, v);
                } else {
                    entry(out, indent + 2, k, v);
                }
            }
        }
        other => value_after_key(out, indent, other),
    }
}

/// `s` as a plain scalar when that is unambiguous, else double-quoted.
pub fn scalar(s: &str) -> String {
    if is_plain_safe(s) { s.to_string() } else { double_quoted(s) }
}

/// Plain only for simple words that no YAML version reads as a number, a boolean or null,
/// and that hold nothing YAML gives a meaning to (`: `, ` #`, a leading indicator).
fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    if !(first.is_ascii_alphabetic() || first == '_' || first == '/') {
        return false;
    }
    if s.ends_with(' ') || s.contains("  ") {
        return false;
    }
    if !s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '@' | '+' | '=' | ' ')) {
        return false;
    }
    // YAML 1.1 booleans and nulls, in any letter case.
    const RESERVED: &[&str] = &["y", "n", "yes", "no", "true", "false", "on", "off", "null"];
    !RESERVED.contains(&s.to_ascii_lowercase().as_str())
}

fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => {
                let code = c as u32;
                if code <= 0xFF {
                    out.push_str(&format!("\\x{code:02X}"));
                } else {
                    out.push_str(&format!("\\u{code:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters YAML does not allow as they are in a scalar, or that readers treat as breaks.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// A literal block (`|`) for a multi-line string, with its lines at `indent`; `None` when
/// a literal block cannot hold it exactly (control characters, carriage returns, no text).
fn block_literal(s: &str, indent: usize) -> Option<String> {
    if !s.contains('\n') || s.trim_matches('\n').is_empty() {
        return None;
    }
    if s.chars().any(|c| c != '\n' && c != '\t' && needs_escape(c)) {
        return None;
    }
    let body = s.trim_end_matches('\n');
    let trailing = s.len() - body.len();
    let chomp = match trailing {
        0 => "-",
        1 => "",
        _ => "+",
    };
    // Without an indentation indicator, a first line that starts with a blank would set
    // the block's indentation deeper than ours.
    let first_text = body.lines().find(|l| !l.is_empty()).unwrap_or_default();
    let indicator = if first_text.starts_with([' ', '\t']) { "2" } else { "" };
    let mut out = format!("|{indicator}{chomp}\n");
    let pad = " ".repeat(indent);
    for line in body.split('\n') {
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
        out.push('\n');
    }
    // Kept trailing newlines beyond the first are empty lines of the block.
    for _ in 1..trailing {
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaml_rust2::{Yaml, YamlLoader};

    fn parse_one(text: &str) -> Yaml {
        let mut docs = YamlLoader::load_from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(docs.len(), 1, "{text}");
        docs.remove(0)
    }

    fn round_trip(value: &str) -> Option<String> {
        let text = document(&[("key".into(), Node::str(value))]);
        parse_one(&text)["key"].as_str().map(str::to_string)
    }

    #[test]
    fn words_that_readers_take_for_other_types_are_quoted() {
        for s in ["20", "3.10", "1e3", "0x1F", "yes", "No", "on", "OFF", "y", "null", "~", "true", "", " x", "x ", "-x"]
        {
            assert!(scalar(s).starts_with('"'), "{s:?} → {}", scalar(s));
            assert_eq!(round_trip(s).as_deref(), Some(s));
        }
        for s in ["5432:5432", "postgres:16", "a: b", "a #b", "${{ x }}", "*x", "&x", "!x", "%x", "@x", "`x`", "[x]"] {
            assert!(scalar(s).starts_with('"'), "{s:?} → {}", scalar(s));
            assert_eq!(round_trip(s).as_deref(), Some(s));
        }
        for s in ["ubuntu-latest", "actions/checkout@v4", "contents", "read", "Set up Node", "sleep infinity"] {
            assert_eq!(scalar(s), s);
        }
    }

    #[test]
    fn scripts_are_literal_blocks_that_read_back_exactly() {
        for s in [
            "set -euo pipefail\n# comment\n  indented\npnpm install\n",
            " starts with a blank\nx",
            "no trailing newline\nx",
            "two trailing\n\n",
            "empty\n\nline inside\n",
            "\nleading newline\n",
            "tab\there\nx\n",
        ] {
            let text = document(&[("run".into(), Node::str(s))]);
            assert!(text.starts_with("run: |"), "{text}");
            assert_eq!(parse_one(&text)["run"].as_str(), Some(s), "{text}");
        }
        let text = document(&[("run".into(), Node::str("cr\r\nlf\n"))]);
        assert!(text.starts_with("run: \""), "{text}");
    }

    #[test]
    fn nested_collections_read_back() {
        let doc = vec![
            ("on".to_string(), Node::map([("workflow_dispatch", Node::Null)])),
            (
                "jobs".to_string(),
                Node::map([(
                    "j",
                    Node::map([
                        ("timeout-minutes", Node::Int(30)),
                        (
                            "steps",
                            Node::Seq(vec![
                                Node::map([("uses", Node::str("a@v1")), ("with", Node::map([("v", Node::str("20"))]))]),
                                Node::map([("run", Node::str("a\nb\n"))]),
                            ]),
                        ),
                        ("empty", Node::Seq(vec![])),
                        ("ports", Node::strs(["5432:5432"])),
                    ]),
                )]),
            ),
        ];
        let text = document(&doc);
        let yaml = parse_one(&text);
        assert!(yaml["on"]["workflow_dispatch"].is_null(), "{text}");
        let job = &yaml["jobs"]["j"];
        assert_eq!(job["timeout-minutes"].as_i64(), Some(30));
        assert_eq!(job["steps"][0]["with"]["v"].as_str(), Some("20"));
        assert_eq!(job["steps"][1]["run"].as_str(), Some("a\nb\n"));
        assert_eq!(job["ports"][0].as_str(), Some("5432:5432"));
        assert!(text.contains("\n    steps:\n      - uses: a@v1\n        with:\n          v: \"20\"\n"), "{text}");
    }

    proptest::proptest! {
        #[test]
        fn any_string_reads_back(s in "(\\PC|[\"'\\\\\n\r\t :#\\-\\[\\]{}|>&*!%@`])*") {
            proptest::prop_assert_eq!(round_trip(&s), Some(s.clone()));
            let in_seq = document(&[("k".into(), Node::strs([s.clone()]))]);
            let parsed = parse_one(&in_seq);
            proptest::prop_assert_eq!(parsed["k"][0].as_str(), Some(s.as_str()));
        }
    }
}
