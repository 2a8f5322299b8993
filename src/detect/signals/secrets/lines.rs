//! Where in a source file a read lies: its line, whether that line is a comment, and
//! whether it sits under a YAML file's production section.

/// Where in a file a read lies, found by moving on from the previous read (reads come in
/// order), so that a file costs one pass however many reads it holds — a count of the lines
/// before each read took minutes on a file of thousands of reads.
pub struct Lines<'a> {
    text: &'a str,
    at: usize,
    /// The line of `at`, from 1, and where it starts.
    pub number: usize,
    start: usize,
    /// The last complete top-level `key:` line before the line of `at` (YAML).
    top_level: Option<&'a str>,
    /// Where the first `:` of the line of `at` is, if it has one.
    colon: Option<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        Lines { text, at: 0, number: 1, start: 0, top_level: None, colon: first_colon(text, 0) }
    }

    pub fn seek(&mut self, at: usize) {
        if at < self.at {
            // Reads come in order; one that does not starts over.
            *self = Lines::new(self.text);
        }
        for (i, _) in self.text[self.at..at].match_indices('\n') {
            let end = self.at + i;
            let line = &self.text[self.start..end];
            if is_top_level_key(line) {
                self.top_level = Some(line);
            }
            self.number += 1;
            self.start = end + 1;
            self.colon = first_colon(self.text, self.start);
        }
        self.at = at;
    }

    /// Whether the read is on a comment line (`//`, `#`, `*`, `--`): documentation that shows
    /// an environment read (a linter's rule docs) is no read of the project's.
    pub fn in_comment(&self) -> bool {
        let line = self.text[self.start..self.at].trim_start();
        ["//", "#", "*", "/*", "--", "<!--"].iter().any(|c| line.starts_with(c))
            && !line.starts_with("#{")
            && !line.starts_with("#[")
    }

    /// Whether the read lies under a top-level `production:`/`staging:` key of a YAML file
    /// (Rails' `secrets.yml`, `database.yml`): values only a deployment provides.
    pub fn in_production_section(&self) -> bool {
        let current = &self.text[self.start..self.at];
        let key_line = current.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && self.colon.is_some_and(|colon| colon < self.at);
        let top_level = if key_line { Some(current) } else { self.top_level };
        top_level.is_some_and(|l| matches!(l.split(':').next().unwrap_or_default().trim(), "production" | "staging"))
    }
}

/// The first `:` of the line starting at `start`.
fn first_colon(text: &str, start: usize) -> Option<usize> {
    let line = text[start..].split('\n').next().unwrap_or_default();
    line.find(':').map(|i| start + i)
}

fn is_top_level_key(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') && line.contains(':')
}
