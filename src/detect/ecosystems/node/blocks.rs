//! Which code of a JavaScript/TypeScript file runs only on demand: a function's body (`() =>
//! Provider({ … })`, `function f() { … }`, a method) or a block behind a condition (`if (x)
//! { … }`). A non-null `process.env.X!` there is the author's word that the value is set when
//! that code runs — an OAuth provider built once it is enabled — not that the app needs it to
//! start; TypeScript's `!` checks nothing at run time.

use std::ops::Range;

/// The outermost spans of `text` that run on demand, in order. `strings` are the byte ranges
/// of string text (sorted), whose brackets are no code.
pub fn on_demand_spans(text: &str, strings: &[Range<usize>]) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    // Open brackets, each with whether it opens code that runs on demand.
    let mut open: Vec<bool> = Vec::new();
    let mut started = 0;
    let mut next_string = 0;
    let mut i = 0;
    while i < bytes.len() {
        if let Some(string) = strings.get(next_string)
            && string.start <= i
        {
            next_string += 1;
            i = i.max(string.end);
            continue;
        }
        match bytes[i] {
            b'{' | b'(' | b'[' => {
                let inside = open.last().copied().unwrap_or(false);
                let here = bytes[i] != b'[' && opens_on_demand(&text[..i]);
                if here && !inside {
                    started = i;
                }
                open.push(inside || here);
            }
            b'}' | b')' | b']' => {
                let closed = open.pop().unwrap_or(false);
                if closed && !open.last().copied().unwrap_or(false) {
                    spans.push(started..i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    if open.iter().any(|on_demand| *on_demand) {
        spans.push(started..bytes.len());
    }
    spans
}

/// Whether a bracket after `before` opens code that runs on demand: a body after `=>` or after
/// a parameter list or condition (`) {`), or a call made in an arrow's body (`=> Provider(`).
fn opens_on_demand(before: &str) -> bool {
    let before = before.trim_end();
    let callee = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    let callee = callee.trim_end();
    before.ends_with("=>") || before.ends_with(')') || callee.len() < before.len() && callee.ends_with("=>")
}

/// Whether `at` lies in one of `spans` (sorted, as [`on_demand_spans`] gives them).
pub fn is_within(spans: &[Range<usize>], at: usize) -> bool {
    let after = spans.partition_point(|span| span.start <= at);
    after > 0 && spans[after - 1].contains(&at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_demand(text: &str, needle: &str) -> bool {
        let at = text.find(needle).expect("the needle is in the text");
        is_within(&on_demand_spans(text, &[]), at)
    }

    #[test]
    fn function_bodies_and_conditional_blocks() {
        let text = "const a = { k: X1 };\nconst p = { build: () =>\n  Provider({ secret: X2 }) };\nfunction f(x) { return X3; }\nif (on) { use(X4); }\nconst b = wrap([X5]);\nclass C { m() { X6 } }\nconst c = (X7);\n";
        for (needle, expected) in
            [("X1", false), ("X2", true), ("X3", true), ("X4", true), ("X5", false), ("X6", true), ("X7", false)]
        {
            assert_eq!(on_demand(text, needle), expected, "{needle}");
        }
    }

    #[test]
    fn brackets_in_strings_are_text() {
        let text = "const s = \"() => {\";\nconst a = { k: X1 };\n";
        let start = text.find('"').unwrap() + 1;
        let end = start + text[start..].find('"').unwrap();
        let string = start..end;
        let spans = on_demand_spans(text, std::slice::from_ref(&string));
        assert!(!is_within(&spans, text.find("X1").unwrap()));
    }
}
