//! environs' prefixed reads: inside `with env.prefixed("MYAPP_"):` every read of the reader
//! is of the prefixed variable (`env.str("HOST")` reads `MYAPP_HOST`), and blocks nest
//! (`with env.prefixed("MYAPP_"): … with env.prefixed("DB_"):` reads `MYAPP_DB_…`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::EnvRead;

/// Puts the prefixes of the `with …prefixed("P"):` blocks around each read before its name.
pub(super) fn apply(text: &str, reads: &mut [EnvRead]) {
    let blocks = prefixed_blocks(text);
    if blocks.is_empty() {
        return;
    }
    for read in reads {
        // Innermost first: the outer prefix ends up in front.
        for (range, prefix) in blocks.iter().rev() {
            if range.contains(&read.at) {
                read.name = format!("{prefix}{}", read.name);
            }
        }
    }
}

/// Each `with <reader>.prefixed("P"):` block: the byte range of its body and its prefix, in
/// the order they start.
fn prefixed_blocks(text: &str) -> Vec<(Range<usize>, String)> {
    static WITH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?m)^([ \t]*)with[[:space:]]+[A-Za-z_][[:word:]]*\.prefixed\([[:space:]]*['"]([A-Za-z0-9_]*)['"][[:space:]]*\)[[:space:]]*:[ \t]*(?:#[^\n]*)?\n"#)
            .expect("the environs prefixed pattern is valid")
    });
    let mut blocks = Vec::new();
    for c in WITH.captures_iter(text) {
        let (Some(whole), Some(indent), Some(prefix)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        let indent = indent.as_str().len();
        let mut end = whole.end();
        for line in text[whole.end()..].split_inclusive('\n') {
            let content = line.trim_start();
            if !content.trim().is_empty() && !content.starts_with('#') && line.len() - content.len() <= indent {
                break;
            }
            end += line.len();
        }
        blocks.push((whole.end()..end, prefix.as_str().to_string()));
    }
    blocks
}
