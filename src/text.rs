//! Text from a checkout or a server, made safe to show or to write into a comment: control
//! characters shown escaped. A leaf: the terminal (`ui`) and the domain (`detect`, the
//! files `export` writes) share it.

use std::borrow::Cow;

/// `text` made safe for a terminal, lines and tabs kept: every other control character (ESC,
/// BEL, CR, backspace, the C1 controls such as CSI) and every bidirectional override is shown
/// escaped (`\u{1b}`), so that text from a server or a checkout can neither retitle or clear
/// the terminal nor move the cursor to forge what is shown. `--json` needs none of this: JSON
/// escapes control characters itself.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// [`printable`] for text that must stay on one line (a name, a table cell): newlines and
/// tabs are escaped too.
pub fn printable_line(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() || is_bidi_control(c)) && !keep(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The Unicode formatting characters that reorder text on display (Trojan Source).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(printable("plain text, é ✓"), "plain text, é ✓");
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
        assert_eq!(printable("\x1b]0;pwned\x07site\x1b[2J"), "\\u{1b}]0;pwned\\u{7}site\\u{1b}[2J");
        assert_eq!(printable("a\r\nb\tc\u{9b}31m"), "a\\r\nb\tc\\u{9b}31m");
        assert_eq!(printable_line("row\nforged\tcell"), "row\\nforged\\tcell");
        assert_eq!(printable_line("abc\u{202E}fed"), "abc\\u{202e}fed");
    }
}
