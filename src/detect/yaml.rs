//! The one YAML loader detection uses: yaml-rust2's, behind a first pass over the parser's
//! events that refuses documents whose aliases would expand without bound.
//!
//! yaml-rust2 expands an alias by cloning the anchored node, so nine nested anchors of nine
//! aliases each (the "billion laughs") turn 400 bytes into billions of nodes. The first
//! pass weighs every anchored node (its nodes and scalar bytes, aliases inside it counted at
//! their full size) without building anything, and stops at the first limit it crosses; only
//! a document within every limit is loaded. Nesting is bounded too, since the loader recurses.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{ScanError, Yaml, YamlLoader};

/// At most this many aliases in a file.
pub const MAX_ALIASES: u64 = 10_000;
/// At most this many nodes once every alias is expanded: ten times the largest CI file or
/// compose file of a real project, and a bound on the tree one file builds (some 250 bytes
/// a node: a 2 MiB compose file of 19,000 services took 150 MB).
pub const MAX_NODES: u64 = 100_000;
/// At most this many bytes of scalars once every alias is expanded.
pub const MAX_SCALAR_BYTES: u64 = 16 << 20;
/// At most this deep (sequences and mappings inside each other).
pub const MAX_DEPTH: usize = 256;

#[derive(Debug, thiserror::Error)]
pub enum YamlError {
    #[error("invalid YAML: {0}")]
    Invalid(#[from] ScanError),
    #[error("not read: {0}")]
    TooLarge(String),
}

/// Every document in `text`, or why not.
pub fn load(text: &str) -> Result<Vec<Yaml>, YamlError> {
    load_counted(text).map(|(docs, _)| docs)
}

/// [`load`], with the number of nodes the documents hold.
pub fn load_counted(text: &str) -> Result<(Vec<Yaml>, u64), YamlError> {
    let mut lenient = std::borrow::Cow::Borrowed(text);
    for _ in 0..MAX_CLOSINGS_MOVED {
        let error = match check_expansion(&lenient) {
            Ok(nodes) => return Ok((YamlLoader::load_from_str(&lenient)?, nodes)),
            Err(YamlError::Invalid(error)) => error,
            Err(other) => return Err(other),
        };
        match indent_closing(&lenient, &error) {
            Some(moved) => lenient = std::borrow::Cow::Owned(moved),
            None => return Err(YamlError::Invalid(error)),
        }
    }
    Err(YamlError::TooLarge(format!("more than {MAX_CLOSINGS_MOVED} flow collections closed at their key's indent")))
}

/// At most this many closing brackets are indented to read one file.
const MAX_CLOSINGS_MOVED: usize = 64;

/// GitHub Actions, PyYAML and most parsers take a flow collection's closing `]` or `}` at its
/// key's indent (`target: [` … `]` under `target`), which the spec and yaml-rust2 refuse as
/// "invalid indentation": `text` with the refused line's bracket indented as far as the line
/// before it (a comment's too: inside the brackets), which changes no value. `None` when the
/// error is another.
fn indent_closing(text: &str, error: &ScanError) -> Option<String> {
    if error.info() != "invalid indentation" {
        return None;
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = error.marker().line().checked_sub(1)?;
    let line = lines.get(at)?;
    let trimmed = line.trim_start_matches(' ');
    if !trimmed.starts_with([']', '}']) {
        return None;
    }
    let previous = lines[..at].iter().rev().find(|l| !l.trim().is_empty())?;
    let indent = previous.len() - previous.trim_start_matches(' ').len();
    if indent <= line.len() - trimmed.len() {
        return None;
    }
    let mut moved = String::with_capacity(text.len() + indent);
    lines[..at].iter().for_each(|l| moved.push_str(l));
    moved.push_str(&" ".repeat(indent));
    moved.push_str(trimmed);
    lines[at + 1..].iter().for_each(|l| moved.push_str(l));
    Some(moved)
}

/// The size of a node once expanded.
#[derive(Debug, Clone, Copy, Default)]
struct Weight {
    nodes: u64,
    bytes: u64,
}

impl Weight {
    fn add(&mut self, other: Weight) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }
}

/// Walk the events of `text` and refuse it when its expansion crosses a limit; the nodes
/// it expands to.
fn check_expansion(text: &str) -> Result<u64, YamlError> {
    let mut parser = Parser::new_from_str(text);
    // The weight of each anchored node, by the parser's anchor id.
    let mut anchors: HashMap<usize, Weight> = HashMap::new();
    // Open sequences and mappings: their anchor id and their weight so far.
    let mut open: Vec<(usize, Weight)> = Vec::new();
    let mut total = Weight::default();
    let mut aliases: u64 = 0;
    loop {
        let (event, _) = parser.next_token()?;
        let (anchor, weight) = match event {
            Event::StreamEnd => return Ok(total.nodes),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if open.len() >= MAX_DEPTH {
                    return Err(YamlError::TooLarge(format!("nested deeper than {MAX_DEPTH} levels")));
                }
                let weight = Weight { nodes: 1, bytes: 0 };
                total.add(weight);
                open.push((anchor, weight));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match open.pop() {
                // The node is counted in `total` already, as its parts came.
                Some((anchor, weight)) => {
                    record(&mut anchors, anchor, weight);
                    if let Some((_, parent)) = open.last_mut() {
                        parent.add(weight);
                    }
                    continue;
                }
                None => continue,
            },
            Event::Scalar(value, _, anchor, _) => (anchor, Weight { nodes: 1, bytes: value.len() as u64 }),
            Event::Alias(id) => {
                aliases += 1;
                if aliases > MAX_ALIASES {
                    return Err(YamlError::TooLarge(format!("more than {MAX_ALIASES} aliases (an alias bomb?)")));
                }
                (0, anchors.get(&id).copied().unwrap_or(Weight { nodes: 1, bytes: 0 }))
            }
            _ => continue,
        };
        record(&mut anchors, anchor, weight);
        total.add(weight);
        if let Some((_, parent)) = open.last_mut() {
            parent.add(weight);
        }
        if total.nodes > MAX_NODES && aliases == 0 {
            return Err(YamlError::TooLarge(format!("more than {MAX_NODES} nodes, far more than a manifest holds")));
        }
        if total.nodes > MAX_NODES {
            return Err(YamlError::TooLarge(format!(
                "its aliases expand to more than {MAX_NODES} nodes (an alias bomb?)"
            )));
        }
        if total.bytes > MAX_SCALAR_BYTES {
            return Err(YamlError::TooLarge(format!(
                "its aliases expand to more than {} MiB of text (an alias bomb?)",
                MAX_SCALAR_BYTES >> 20
            )));
        }
    }
}

/// Remember the weight of an anchored node (anchor ids start at 1; 0 is "no anchor").
fn record(anchors: &mut HashMap<usize, Weight>, anchor: usize, weight: Weight) {
    if anchor > 0 {
        anchors.insert(anchor, weight);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reproducer of issue 12: nine anchors, each nine aliases of the one before.
    pub(crate) fn alias_bomb() -> String {
        let mut text = String::from("a0: &a0 [x,x,x,x,x,x,x,x,x]\n");
        for i in 1..=8 {
            let p = i - 1;
            text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{p}"); 9].join(",")));
        }
        text.push_str("services:\n  db:\n    image: postgres\n");
        text
    }

    #[test]
    fn a_flow_collection_closed_at_its_keys_indent_loads_as_github_reads_it() {
        let text = "jobs:\n  cross:\n    strategy:\n      matrix:\n        target: [\n          \"arm\",\n          \"x86\",\n          #\"mips\",\n        ]\n        os: { a: 1,\n          b: 2\n        }\n    runs-on: ubuntu-latest\n";
        let docs = load(text).expect("loads");
        let matrix = &docs[0]["jobs"]["cross"]["strategy"]["matrix"];
        assert_eq!(matrix["target"].as_vec().map(Vec::len), Some(2));
        assert_eq!(matrix["os"]["b"].as_i64(), Some(2));
        assert_eq!(docs[0]["jobs"]["cross"]["runs-on"].as_str(), Some("ubuntu-latest"));
        // Another indentation error stays one.
        assert!(matches!(load("a:\n  b: 1\n c: 2\n"), Err(YamlError::Invalid(_))));
    }

    #[test]
    fn an_alias_bomb_is_refused_quickly() {
        let started = std::time::Instant::now();
        let err = load(&alias_bomb()).unwrap_err();
        assert!(matches!(err, YamlError::TooLarge(_)), "{err}");
        assert!(err.to_string().contains("expand to more than"), "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn long_scalars_repeated_by_aliases_are_refused() {
        let text = format!("a: &a '{}'\nb: [{}]\n", "x".repeat(1 << 20), vec!["*a"; 40].join(","));
        let err = load(&text).unwrap_err();
        assert!(err.to_string().contains("MiB of text"), "{err}");
    }

    #[test]
    fn too_many_aliases_and_too_deep_nesting_are_refused() {
        let text = format!("a: &a x\nb: [{}]\n", vec!["*a"; MAX_ALIASES as usize + 1].join(","));
        assert!(load(&text).unwrap_err().to_string().contains("aliases"));
        let deep = "- ".repeat(MAX_DEPTH + 1) + "x\n";
        assert!(load(&deep).unwrap_err().to_string().contains("nested deeper"));
        let flow = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(load(&flow).is_err());
    }

    #[test]
    fn ordinary_anchors_and_aliases_load_as_before() {
        let text = "x-env: &env {A: '1', B: '2'}\nservices:\n  a: {environment: *env}\n  b: {environment: *env}\n";
        let docs = load(text).unwrap();
        assert_eq!(docs, YamlLoader::load_from_str(text).unwrap());
        assert_eq!(docs[0]["services"]["b"]["environment"]["B"].as_str(), Some("2"));
        let many = "---\na: 1\n---\nb: [1, 2]\n";
        assert_eq!(load(many).unwrap().len(), 2);
        assert!(matches!(load("a: [unclosed\n"), Err(YamlError::Invalid(_))));
    }
}
