//! The one owner of the terminal: stdout is data, stderr is conversation; colour, prompts
//! and progress are decided here and nowhere else.

use std::io::{IsTerminal, Write};

use console::Style;
use secrecy::SecretString;

use crate::cli::{ColorChoice, GlobalArgs};
use crate::diagnostic::Failure;
use crate::report::Report;

#[derive(Clone)]
pub struct Ui {
    color: bool,
    quiet: bool,
    verbose: u8,
    json: bool,
    /// Whether a question may be asked at all.
    interactive: bool,
    stderr_is_tty: bool,
}

impl Ui {
    pub fn new(global: &GlobalArgs) -> Ui {
        let stderr_is_tty = std::io::stderr().is_terminal();
        let color = match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => stderr_is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        };
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
        let interactive = !global.no_input && !ci && std::io::stdin().is_terminal() && stderr_is_tty;
        console::set_colors_enabled(color);
        console::set_colors_enabled_stderr(color);
        Ui { color, quiet: global.quiet, verbose: global.verbose, json: global.json, interactive, stderr_is_tty }
    }

    /// A `Ui` that never prompts, never colours and prints everything (tests).
    pub fn plain() -> Ui {
        Ui { color: false, quiet: false, verbose: 0, json: false, interactive: false, stderr_is_tty: false }
    }

    pub fn json(&self) -> bool {
        self.json
    }
    pub fn quiet(&self) -> bool {
        self.quiet
    }
    pub fn verbose(&self) -> u8 {
        self.verbose
    }
    pub fn color(&self) -> bool {
        self.color
    }
    pub fn interactive(&self) -> bool {
        self.interactive
    }

    /// Data on stdout, exactly as given.
    pub fn out(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }

    /// A JSON document on stdout, pretty-printed, newline-terminated.
    pub fn out_json<T: serde::Serialize>(&self, value: &T) -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(value)?;
        text.push('\n');
        self.out(&text);
        Ok(())
    }

    /// Conversation on stderr, hidden by `-q`.
    pub fn info(&self, line: &str) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }

    /// `✓ …` in green on stderr, hidden by `-q`.
    pub fn success(&self, line: &str) {
        self.info(&format!("{} {line}", self.paint(Style::new().green(), "✓")));
    }

    /// `warning: …` on stderr, shown even with `-q`. Warnings quote file names and servers:
    /// their control characters are shown escaped.
    pub fn warn(&self, line: &str) {
        eprintln!("{} {}", self.paint(Style::new().yellow().bold(), "warning:"), printable(line));
    }

    /// Detail shown from `-v` (level 1), `-vv` (2), …
    pub fn debug(&self, level: u8, line: &str) {
        if self.verbose >= level {
            eprintln!("{} {line}", self.paint(Style::new().dim(), "debug:"));
        }
    }

    /// The final error report: `error: …`, its causes, and `hint: …`. Errors quote servers
    /// and files: their control characters are shown escaped.
    pub fn error(&self, report: &Report) {
        let mut messages = report.messages.iter();
        if let Some(first) = messages.next() {
            eprintln!("{} {}", self.paint(Style::new().red().bold(), "error:"), printable(first));
        }
        for cause in messages {
            eprintln!("  {} {}", self.paint(Style::new().dim(), "caused by:"), printable(cause));
        }
        if let Some(hint) = &report.hint {
            eprintln!("{} {}", self.paint(Style::new().cyan().bold(), "hint:"), printable(hint));
        }
    }

    pub fn paint(&self, style: Style, text: &str) -> String {
        if self.color { style.force_styling(true).apply_to(text).to_string() } else { text.to_string() }
    }
    pub fn bold(&self, text: &str) -> String {
        self.paint(Style::new().bold(), text)
    }
    pub fn green(&self, text: &str) -> String {
        self.paint(Style::new().green(), text)
    }
    pub fn red(&self, text: &str) -> String {
        self.paint(Style::new().red(), text)
    }
    pub fn dim(&self, text: &str) -> String {
        self.paint(Style::new().dim(), text)
    }

    /// Ask a yes/no question; without a terminal, an error naming `flag`, which answers it.
    pub fn confirm(&self, question: &str, flag: &str) -> anyhow::Result<bool> {
        if !self.interactive {
            return Err(Failure::new(format!("cannot ask \"{question}\" without a terminal"))
                .hint(format!("pass {flag} to answer it"))
                .into());
        }
        Ok(dialoguer::Confirm::new().with_prompt(question).default(false).interact()?)
    }

    /// Ask for a value without echo; without a terminal, an error naming `flag`. An empty
    /// Enter is said to be empty and asked again; after [`EMPTY_ANSWERS`] of them, an error
    /// (never a silent re-ask: what is typed next may be meant for the shell).
    pub fn password(&self, prompt: &str, flag: &str) -> anyhow::Result<SecretString> {
        if !self.interactive {
            return Err(Failure::new(format!("cannot prompt for {prompt} without a terminal"))
                .hint(flag.to_string())
                .into());
        }
        for _ in 0..EMPTY_ANSWERS {
            let value = dialoguer::Password::new().with_prompt(prompt).allow_empty_password(true).interact()?;
            if !value.is_empty() {
                return Ok(SecretString::from(value));
            }
            self.warn("nothing was typed (an empty value is not a value): type it and press Enter, or Ctrl-C to stop");
        }
        Err(Failure::new(format!("no value typed for {prompt}")).hint(flag.to_string()).into())
    }

    /// `text` through the user's pager (`$PAGER`, else `less` with `LESS=FRX` unless `LESS`
    /// is set, as git does) when stdout is a terminal and `text` is longer than the screen.
    /// `false` when it was not paged: the caller prints it as usual.
    pub fn page(&self, text: &str) -> bool {
        if self.json || !std::io::stdout().is_terminal() {
            return false;
        }
        let rows = console::Term::stdout().size_checked().map(|(rows, _)| rows as usize);
        if rows.is_some_and(|rows| text.lines().count() < rows.saturating_sub(1)) {
            return false;
        }
        let pager = std::env::var("PAGER").unwrap_or_else(|_| "less".into());
        if pager.trim().is_empty() || pager.trim() == "cat" {
            return false;
        }
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c").arg(&pager).stdin(std::process::Stdio::piped());
        if std::env::var_os("LESS").is_none() {
            cmd.env("LESS", "FRX");
        }
        let Ok(mut child) = cmd.spawn() else { return false };
        if let Some(mut stdin) = child.stdin.take() {
            // A pager quit early closes the pipe: the rest is not wanted.
            let _ = stdin.write_all(text.as_bytes());
        }
        // 127: the shell did not find the pager; the text is printed instead.
        child.wait().is_ok_and(|status| status.code() != Some(127))
    }

    /// A progress bar on stderr, hidden when stderr is not a terminal or with `-q`.
    pub fn progress(&self, len: u64, message: &str) -> indicatif::ProgressBar {
        if !self.stderr_is_tty || self.quiet {
            return indicatif::ProgressBar::hidden();
        }
        let bar = indicatif::ProgressBar::new(len);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len}") {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(message.to_string());
        bar
    }

    /// A spinner on stderr, hidden when stderr is not a terminal or with `-q`.
    pub fn spinner(&self, message: &str) -> indicatif::ProgressBar {
        if !self.stderr_is_tty || self.quiet {
            return indicatif::ProgressBar::hidden();
        }
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(message.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        bar
    }
}

/// How many empty answers the hidden prompt takes before it gives up.
pub const EMPTY_ANSWERS: usize = 3;

/// `1 byte`, `2 bytes`, `0 secrets`: a count with its noun (plural by adding `s`).
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

pub use crate::text::{printable, printable_line};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(plural(1, "byte"), "1 byte");
        assert_eq!(plural(0, "secret"), "0 secrets");
        assert_eq!(plural(2, "step"), "2 steps");
    }
}
