//! A dotenv parser for `secret import`: `NAME=value` lines with `export` prefixes, comments,
//! single quotes (literal), double quotes (escapes), and quoted values spanning lines.
//!
//! Values are never part of an error: errors name the line and what was wrong with it.
//! Values are taken literally: `${VAR}` is not expanded (a secret is what the file says).

use secrecy::SecretString;
use zeroize::Zeroizing;

/// One `NAME=value` entry and the line it starts on (1-based).
pub struct Entry {
    pub name: String,
    pub value: SecretString,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DotenvError {
    #[error("line {line}: expected NAME=value")]
    NoEquals { line: usize },
    #[error("line {line}: there is no name before `=`")]
    NoName { line: usize },
    #[error("line {line}: the {quote} quote opened here is never closed")]
    Unterminated { line: usize, quote: &'static str },
    #[error("line {line}: unexpected text after the closing quote")]
    AfterQuote { line: usize },
}

impl DotenvError {
    pub fn line(&self) -> usize {
        match self {
            DotenvError::NoEquals { line }
            | DotenvError::NoName { line }
            | DotenvError::Unterminated { line, .. }
            | DotenvError::AfterQuote { line } => *line,
        }
    }
}

impl crate::diagnostic::Diagnostic for DotenvError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            DotenvError::NoEquals { .. } | DotenvError::NoName { .. } => {
                "each line is NAME=value, `export NAME=value`, a # comment or blank".into()
            }
            DotenvError::Unterminated { .. } => "close the quote; a quoted value may span lines".into(),
            DotenvError::AfterQuote { .. } => "only spaces or a # comment may follow a quoted value".into(),
        })
    }
}

/// Parse a whole file. On error nothing is returned (the batch is all or nothing).
pub fn parse(text: &str) -> Result<Vec<Entry>, DotenvError> {
    Parser { chars: Zeroizing::new(text.chars().collect()), pos: 0, line: 1 }.entries()
}

struct Parser {
    chars: Zeroizing<Vec<char>>,
    pos: usize,
    line: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    /// Skip to the end of the line, newline included.
    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn at_line_end(&self) -> bool {
        matches!(self.peek(), None | Some('\n'))
            || (self.peek() == Some('\r') && self.chars.get(self.pos + 1) == Some(&'\n'))
    }

    fn entries(&mut self) -> Result<Vec<Entry>, DotenvError> {
        let mut entries = Vec::new();
        loop {
            self.skip_blanks();
            match self.peek() {
                None => return Ok(entries),
                Some('#') => self.skip_line(),
                Some('\n' | '\r') => {
                    self.bump();
                }
                Some(_) => entries.push(self.entry()?),
            }
        }
    }

    fn entry(&mut self) -> Result<Entry, DotenvError> {
        let line = self.line;
        let mut key = self.word();
        if key == "export" && matches!(self.peek(), Some(' ' | '\t')) {
            self.skip_blanks();
            key = self.word();
        }
        self.skip_blanks();
        if self.peek() != Some('=') {
            return Err(DotenvError::NoEquals { line });
        }
        self.bump();
        if key.is_empty() {
            return Err(DotenvError::NoName { line });
        }
        self.skip_blanks();
        let value = match self.peek() {
            Some('\'') => self.quoted('\'', line)?,
            Some('"') => self.quoted('"', line)?,
            _ => self.unquoted(),
        };
        Ok(Entry { name: key, value: SecretString::from(value.as_str()), line })
    }

    /// A name: everything up to blanks, `=` or the end of the line.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if matches!(c, ' ' | '\t' | '=' | '\n' | '\r') {
                break;
            }
            word.push(c);
            self.bump();
        }
        word
    }

    /// Unquoted: up to the end of the line or a ` #` comment, trailing blanks dropped.
    fn unquoted(&mut self) -> Zeroizing<String> {
        let mut value = Zeroizing::new(String::new());
        while !self.at_line_end() {
            let Some(c) = self.peek() else { break };
            if c == '#' && value.ends_with([' ', '\t']) {
                break;
            }
            value.push(c);
            self.bump();
        }
        let kept = value.trim_end_matches([' ', '\t']).len();
        value.truncate(kept);
        self.skip_line();
        value
    }

    /// Quoted: `'…'` is literal; `"…"` knows \n \r \t \\ \" \$ and keeps other backslashes.
    fn quoted(&mut self, quote: char, line: usize) -> Result<Zeroizing<String>, DotenvError> {
        let name = if quote == '"' { "double" } else { "single" };
        self.bump();
        let mut value = Zeroizing::new(String::new());
        loop {
            let Some(c) = self.bump() else {
                return Err(DotenvError::Unterminated { line, quote: name });
            };
            match c {
                c if c == quote => break,
                '\\' if quote == '"' => match self.bump() {
                    Some('n') => value.push('\n'),
                    Some('r') => value.push('\r'),
                    Some('t') => value.push('\t'),
                    Some(c @ ('\\' | '"' | '$' | '\'')) => value.push(c),
                    Some(other) => {
                        value.push('\\');
                        value.push(other);
                    }
                    None => return Err(DotenvError::Unterminated { line, quote: name }),
                },
                c => value.push(c),
            }
        }
        // After the closing quote: blanks, then a comment or the end of the line.
        self.skip_blanks();
        if self.peek() == Some('#') || self.at_line_end() {
            self.skip_line();
            Ok(value)
        } else {
            Err(DotenvError::AfterQuote { line: self.line })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;

    fn pairs(text: &str) -> Vec<(String, String, usize)> {
        parse(text).unwrap().into_iter().map(|e| (e.name, e.value.expose_secret().to_string(), e.line)).collect()
    }

    #[test]
    fn the_usual_forms() {
        let text = "# comment\n\nA=1\nexport B = two words  # trailing comment\nC='single $HOME \\n'\n\
                    D=\"dq \\n \\\"x\\\" \\$y \\q\"\nE=\nF=a#b\r\nG=\"multi\nline\" # c\nH=last";
        assert_eq!(
            pairs(text),
            vec![
                ("A".into(), "1".into(), 3),
                ("B".into(), "two words".into(), 4),
                ("C".into(), "single $HOME \\n".into(), 5),
                ("D".into(), "dq \n \"x\" $y \\q".into(), 6),
                ("E".into(), "".into(), 7),
                ("F".into(), "a#b".into(), 8),
                ("G".into(), "multi\nline".into(), 9),
                ("H".into(), "last".into(), 11),
            ]
        );
    }

    #[test]
    fn export_alone_is_a_name() {
        assert_eq!(pairs("export=1\n"), vec![("export".into(), "1".into(), 1)]);
    }

    #[test]
    fn errors_name_the_line_never_the_value() {
        let cases = [
            ("A=1\nsk_live_SECRETVALUE\n", DotenvError::NoEquals { line: 2 }),
            ("A=1\n=sk_live_SECRETVALUE\n", DotenvError::NoName { line: 2 }),
            ("A=1\nB=\"sk_live_SECRETVALUE\nmore\n", DotenvError::Unterminated { line: 2, quote: "double" }),
            ("B='sk_live_SECRETVALUE", DotenvError::Unterminated { line: 1, quote: "single" }),
            ("B='x'sk_live_SECRETVALUE\n", DotenvError::AfterQuote { line: 1 }),
        ];
        for (text, expected) in cases {
            let err = parse(text).err().unwrap();
            assert_eq!(err, expected, "{text:?}");
            assert!(!err.to_string().contains("SECRETVALUE"));
        }
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "\\PC*") {
            let _ = parse(&text);
        }

        #[test]
        fn double_quoted_values_round_trip(value in "[ -~\n\t]{0,40}") {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"").replace('$', "\\$");
            let parsed = pairs(&format!("K=\"{escaped}\"\n"));
            proptest::prop_assert_eq!(parsed, vec![("K".to_string(), value, 1)]);
        }
    }
}
