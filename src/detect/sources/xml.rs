//! A small XML tree (`pom.xml`, `*.csproj`), read with `quick-xml`: element names, trimmed
//! text and children; malformed XML is an error naming the line.

/// An XML element: its local name, trimmed text and child elements.
#[derive(Debug, Default, Clone)]
pub struct Element {
    pub name: String,
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The element at `path` of child names below this one.
    pub fn at(&self, path: &[&str]) -> Option<&Element> {
        path.iter().try_fold(self, |e, name| e.child(name))
    }

    /// The text at `path`, when present and not empty.
    pub fn text_at(&self, path: &[&str]) -> Option<&str> {
        self.at(path).map(|e| e.text.as_str()).filter(|t| !t.is_empty())
    }

    /// Every element below this one named `name`, depth first.
    pub fn descendants<'a>(&'a self, name: &'a str) -> Vec<&'a Element> {
        let mut found = Vec::new();
        let mut stack: Vec<&Element> = self.children.iter().rev().collect();
        while let Some(e) = stack.pop() {
            if e.name == name {
                found.push(e);
            }
            stack.extend(e.children.iter().rev());
        }
        found
    }
}

/// At most this deep (elements inside each other): a tree is dropped, cloned and walked
/// recursively, and 50,000 nested elements (350 KB) would overflow the stack.
pub const MAX_DEPTH: usize = 256;

/// Parse `text` into its root element. Malformed XML is an error naming the line, and so is
/// nesting deeper than [`MAX_DEPTH`].
pub fn parse_xml(text: &str) -> Result<Element, String> {
    use quick_xml::events::Event;

    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let line_at = |pos: u64| text.get(..pos as usize).map_or(0, |t| t.matches('\n').count()) + 1;
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("line {}: {e}", line_at(reader.error_position().max(reader.buffer_position()))))?;
        match event {
            Event::Start(start) => {
                // The document itself is the stack's first entry.
                if stack.len() > MAX_DEPTH {
                    return Err(format!(
                        "line {}: nested deeper than {MAX_DEPTH} levels",
                        line_at(reader.buffer_position())
                    ));
                }
                stack.push(Element { name: start.local_name().as_ref().to_string(), ..Element::default() })
            }
            Event::Empty(empty) => {
                let element = Element { name: empty.local_name().as_ref().to_string(), ..Element::default() };
                if let Some(parent) = stack.last_mut() {
                    parent.children.push(element);
                }
            }
            Event::Text(t) => {
                if let Some(current) = stack.last_mut() {
                    current.text.push_str(t.xml10_content().trim());
                }
            }
            Event::CData(t) => {
                if let Some(current) = stack.last_mut() {
                    current.text.push_str(t.xml10_content().trim());
                }
            }
            Event::End(_) => {
                let done = stack
                    .pop()
                    .ok_or_else(|| format!("line {}: unexpected end tag", line_at(reader.buffer_position())))?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => return Err(format!("line {}: unexpected end tag", line_at(reader.buffer_position()))),
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err("unexpected end of file: an element is not closed".into());
    }
    stack.pop().and_then(|doc| doc.children.into_iter().next()).ok_or_else(|| "no root element".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_tree_and_errors() {
        let root = parse_xml("<?xml version=\"1.0\"?><project><a><b>x</b><b>y</b></a><c/><!-- n --></project>")
            .expect("valid");
        assert_eq!(root.name, "project");
        assert_eq!(root.text_at(&["a", "b"]), Some("x"));
        assert_eq!(root.descendants("b").len(), 2);
        assert!(root.child("c").is_some());
        let err = parse_xml("<project>\n<a>\n</b></project>").expect_err("mismatched");
        assert!(err.contains("line"), "{err}");
        assert!(parse_xml("<project><a>").is_err());
        assert!(parse_xml("").is_err());
    }

    #[test]
    fn nesting_is_bounded_and_refused_without_overflowing_the_stack() {
        let nested = |levels: usize| format!("{}{}", "<a>".repeat(levels), "</a>".repeat(levels));
        assert!(parse_xml(&nested(MAX_DEPTH)).is_ok());
        // The reproducer: 50,000 levels aborted the process (stack overflow).
        for levels in [MAX_DEPTH + 1, 50_000] {
            let err = parse_xml(&nested(levels)).expect_err("too deep");
            assert!(err.contains(&format!("nested deeper than {MAX_DEPTH} levels")), "{err}");
        }
        // Unclosed, and empty elements in between, count the same.
        let err = parse_xml(&"<a><b/>".repeat(60_000)).expect_err("too deep");
        assert!(err.contains("nested deeper"), "{err}");
    }

    proptest::proptest! {
        #[test]
        fn parser_never_panics(text in "\\PC{0,80}", xmlish in "[<>/a-z =\"!?\\[\\]-]{0,60}") {
            let _ = parse_xml(&text);
            let _ = parse_xml(&xmlish);
        }
    }
}
