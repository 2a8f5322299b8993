//! Resolving `[env]` (DESIGN.md §7): a pure function over the entries, a host-environment
//! lookup and a [`Prompter`], so that every rule is testable without a process or a terminal.
//!
//! Forms of a value:
//! - `"?prompt"` or `"?prompt Question text"`: asked once, without echo. Only a value that is
//!   exactly `?prompt` or starts with `?prompt ` is a prompt; anything else is text.
//! - text, in which `${VAR}` is replaced by the caller's `VAR` (an error when unset),
//!   `${VAR:-default}` by `VAR` when it is set and not empty, else by `default` (taken as is,
//!   up to the first `}`), and `$$` by a single `$`.
//! - A `$` followed by anything else (`$NAME`, `$1`, a lone `$`) is kept as is: values such
//!   as passwords often hold a `$`, and only the braced form interpolates.
//!
//! Every entry is checked before any question is asked, and every problem is reported at
//! once; a failure resolves nothing. Errors name entries and variables, never a value.

use std::ffi::OsString;
use std::fmt;

use secrecy::SecretString;
use zeroize::Zeroizing;

use crate::names::{MAX_VALUE_BYTES, NameError, validate_secret_name};

/// One resolved `[env]` entry.
pub struct Resolved {
    pub name: String,
    pub value: SecretString,
    /// The value came from a prompt or the caller's environment (so it may be a secret and
    /// is masked wherever output is shown), rather than from the file alone.
    pub sensitive: bool,
}

impl fmt::Debug for Resolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resolved").field("name", &self.name).field("sensitive", &self.sensitive).finish_non_exhaustive()
    }
}

/// Asks for `?prompt` values.
pub trait Prompter {
    /// Whether a question can be asked at all (a terminal, and no `--no-input`).
    fn can_prompt(&self) -> bool;
    /// Ask `question` for `entry` without echo.
    fn ask(&mut self, entry: &str, question: &str) -> anyhow::Result<SecretString>;
}

/// What was wrong with one entry. Holds names and syntax only, never a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    BadName(NameError),
    Unset { var: String },
    NotUnicode { var: String },
    BadReference { offset: usize, why: &'static str },
    NoPrompt,
    PromptFailed { reason: String },
    TooLarge { bytes: usize },
    Nul,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::BadName(e) => write!(f, "{e}"),
            Problem::Unset { var } => write!(f, "${{{var}}} is not set in your environment"),
            Problem::NotUnicode { var } => write!(f, "${{{var}}} is not valid UTF-8"),
            Problem::BadReference { offset, why } => write!(f, "at character {}: {why}", offset + 1),
            Problem::NoPrompt => f.write_str("?prompt needs a terminal to ask (no terminal, or --no-input)"),
            Problem::PromptFailed { reason } => write!(f, "the prompt failed: {reason}"),
            Problem::TooLarge { bytes } => write!(f, "the value is {bytes} bytes; at most {MAX_VALUE_BYTES}"),
            Problem::Nul => f.write_str("the value contains a NUL character, which no environment can hold"),
        }
    }
}

/// Every `[env]` entry that could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ResolveError {
    pub problems: Vec<(String, Problem)>,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [(entry, problem)] => write!(f, "[env] {entry}: {problem}"),
            problems => {
                write!(f, "{} [env] entries cannot be resolved:", problems.len())?;
                for (entry, problem) in problems {
                    write!(f, "\n  {entry}: {problem}")?;
                }
                Ok(())
            }
        }
    }
}

impl crate::diagnostic::Diagnostic for ResolveError {
    fn hint(&self) -> Option<String> {
        let first = self.problems.first().map(|(_, p)| p);
        Some(match first {
            Some(Problem::Unset { var }) | Some(Problem::NotUnicode { var }) => {
                format!("export {var} before running, or write ${{{var}:-default}} in .hanzo/environment.toml")
            }
            Some(Problem::NoPrompt) => {
                "run it on a terminal without --no-input, or replace \"?prompt\" with \"${VAR}\" and export VAR".into()
            }
            Some(Problem::BadReference { .. }) => {
                "write ${VAR} or ${VAR:-default} to interpolate, and $$ for a literal $".into()
            }
            Some(Problem::BadName(e)) => crate::diagnostic::Diagnostic::hint(e)?,
            _ => "fix the entries in the [env] table of .hanzo/environment.toml".into(),
        })
    }
}

/// A parsed value, before anything is looked up or asked.
#[derive(Debug, PartialEq, Eq)]
enum Template<'a> {
    Prompt { question: Option<&'a str> },
    Text(Vec<Piece<'a>>),
}

#[derive(Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Var { name: &'a str, default: Option<&'a str> },
}

const PROMPT: &str = "?prompt";

fn parse(value: &str) -> Result<Template<'_>, Problem> {
    if value == PROMPT {
        return Ok(Template::Prompt { question: None });
    }
    if let Some(rest) = value.strip_prefix(PROMPT)
        && rest.starts_with([' ', '\t'])
    {
        let question = rest.trim();
        return Ok(Template::Prompt { question: (!question.is_empty()).then_some(question) });
    }
    let mut pieces = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    let bytes = value.as_bytes();
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'$') => {
                // `$$`: keep the first `$` as text, drop the second.
                pieces.push(Piece::Text(&value[text_start..=i]));
                i += 2;
                text_start = i;
            }
            Some(b'{') => {
                pieces.push(Piece::Text(&value[text_start..i]));
                let (piece, end) = parse_reference(value, i)?;
                pieces.push(piece);
                i = end;
                text_start = i;
            }
            _ => i += 1,
        }
    }
    pieces.push(Piece::Text(&value[text_start..]));
    pieces.retain(|p| !matches!(p, Piece::Text("")));
    Ok(Template::Text(pieces))
}

/// Parse `${NAME}` or `${NAME:-default}` starting at `start` (the `$`); return the piece and
/// the byte offset just after the closing `}`.
fn parse_reference(value: &str, start: usize) -> Result<(Piece<'_>, usize), Problem> {
    let body_start = start + 2;
    let Some(close) = value[body_start..].find('}').map(|c| body_start + c) else {
        return Err(Problem::BadReference { offset: start, why: "`${` without a closing `}`" });
    };
    let body = &value[body_start..close];
    let (name, default) = match body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        None => (body, None),
        Some(at) => match body[at..].strip_prefix(":-") {
            Some(default) => (&body[..at], Some(default)),
            None => {
                return Err(Problem::BadReference {
                    offset: start,
                    why: "only ${VAR} and ${VAR:-default} are understood",
                });
            }
        },
    };
    let valid_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    if !valid_name {
        return Err(Problem::BadReference {
            offset: start,
            why: "a variable name starts with a letter or _ and holds only letters, digits and _",
        });
    }
    Ok((Piece::Var { name, default }, close + 1))
}

/// Resolve every entry, or report every problem. `host` looks a variable up in the caller's
/// environment; questions go to `prompter`, only once every entry is known to be valid.
pub fn resolve(
    entries: &[(String, String)],
    host: &dyn Fn(&str) -> Option<OsString>,
    prompter: &mut dyn Prompter,
) -> Result<Vec<Resolved>, ResolveError> {
    let mut problems: Vec<(String, Problem)> = Vec::new();
    // Texts are built first; prompts are asked only when nothing else failed.
    let mut pending: Vec<Pending<'_>> = Vec::new();
    for (name, raw) in entries {
        if let Err(e) = validate_secret_name(name) {
            problems.push((name.clone(), Problem::BadName(e)));
            continue;
        }
        match parse(raw) {
            Err(problem) => problems.push((name.clone(), problem)),
            Ok(Template::Prompt { question }) => {
                if prompter.can_prompt() {
                    pending.push(Pending { name, text: None, question, sensitive: true });
                } else {
                    problems.push((name.clone(), Problem::NoPrompt));
                }
            }
            Ok(Template::Text(pieces)) => match interpolate(&pieces, host) {
                Ok((value, from_host)) => match check_value(&value) {
                    Ok(()) => pending.push(Pending { name, text: Some(value), question: None, sensitive: from_host }),
                    Err(problem) => problems.push((name.clone(), problem)),
                },
                Err(problem) => problems.push((name.clone(), problem)),
            },
        }
    }
    if !problems.is_empty() {
        return Err(ResolveError { problems });
    }
    let mut resolved = Vec::with_capacity(pending.len());
    for Pending { name, text, question, sensitive } in pending {
        let value = match text {
            Some(text) => SecretString::from(text.as_str()),
            None => {
                let question = prompt_text(name, question);
                let answer = prompter.ask(name, &question).map_err(|e| ResolveError {
                    problems: vec![(name.to_string(), Problem::PromptFailed { reason: e.to_string() })],
                })?;
                let checked = check_value(secrecy::ExposeSecret::expose_secret(&answer));
                if let Err(problem) = checked {
                    return Err(ResolveError { problems: vec![(name.to_string(), problem)] });
                }
                answer
            }
        };
        resolved.push(Resolved { name: name.to_string(), value, sensitive });
    }
    Ok(resolved)
}

/// The prompt for entry `name`: the checkout's question (`?prompt Some text`) after the
/// entry's name, on one line with its control characters escaped and at most
/// [`MAX_QUESTION_CHARS`] long, so that a checkout can neither clear the screen, retitle
/// the window nor draw a prompt that passes for another program's.
fn prompt_text(name: &str, question: Option<&str>) -> String {
    match question {
        Some(text) => {
            let escaped = crate::text::printable_line(text);
            let mut shown: String = escaped.chars().take(MAX_QUESTION_CHARS).collect();
            if shown.len() < escaped.len() {
                shown.push('…');
            }
            format!("{name} (for [env]): {shown}")
        }
        None => format!("{name} (for [env])"),
    }
}

/// The longest question a prompt shows, in characters.
const MAX_QUESTION_CHARS: usize = 120;

/// An entry that passed every check: its text, or the question that will ask for it.
struct Pending<'a> {
    name: &'a str,
    text: Option<Zeroizing<String>>,
    question: Option<&'a str>,
    sensitive: bool,
}

/// The text of `pieces`, and whether any of it came from the host environment.
fn interpolate(
    pieces: &[Piece<'_>],
    host: &dyn Fn(&str) -> Option<OsString>,
) -> Result<(Zeroizing<String>, bool), Problem> {
    let mut out = Zeroizing::new(String::new());
    let mut from_host = false;
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Var { name, default } => {
                let found = host(name).map(|v| v.into_string().map(Zeroizing::new));
                match (found, default) {
                    (Some(Err(_)), _) => return Err(Problem::NotUnicode { var: name.to_string() }),
                    (Some(Ok(v)), Some(default)) if v.is_empty() => out.push_str(default),
                    (Some(Ok(v)), _) => {
                        out.push_str(&v);
                        from_host = true;
                    }
                    (None, Some(default)) => out.push_str(default),
                    (None, None) => return Err(Problem::Unset { var: name.to_string() }),
                }
            }
        }
    }
    Ok((out, from_host))
}

fn check_value(value: &str) -> Result<(), Problem> {
    if value.len() > MAX_VALUE_BYTES {
        return Err(Problem::TooLarge { bytes: value.len() });
    }
    if value.contains('\0') {
        return Err(Problem::Nul);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;
    use secrecy::ExposeSecret;

    use super::*;

    /// Answers prompts from a list and records the questions.
    struct Scripted {
        terminal: bool,
        answers: Vec<&'static str>,
        asked: Vec<(String, String)>,
    }

    impl Prompter for Scripted {
        fn can_prompt(&self) -> bool {
            self.terminal
        }
        fn ask(&mut self, entry: &str, question: &str) -> anyhow::Result<SecretString> {
            self.asked.push((entry.to_string(), question.to_string()));
            if self.answers.is_empty() {
                anyhow::bail!("no answer");
            }
            Ok(SecretString::from(self.answers.remove(0)))
        }
    }

    fn no_terminal() -> Scripted {
        Scripted { terminal: false, answers: vec![], asked: vec![] }
    }

    fn host_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| map.get(name).map(OsString::from)
    }

    fn entries(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn resolve_one(value: &str, vars: &[(&str, &str)]) -> Result<String, ResolveError> {
        let resolved = resolve(&entries(&[("X", value)]), &host_of(vars), &mut no_terminal())?;
        Ok(resolved[0].value.expose_secret().to_string())
    }

    #[test]
    fn literals_pass_as_is() {
        for value in ["test", "", "pa$word", "$", "a $ b", "$1", "$NAME", "?promptly", "x?prompt", "{}", "}"] {
            assert_eq!(resolve_one(value, &[("NAME", "no")]).unwrap(), value, "{value:?}");
        }
    }

    #[test]
    fn interpolation() {
        let vars = [("HOST", "db.local"), ("EMPTY", ""), ("PORT", "5432")];
        let cases = [
            ("${HOST}", "db.local"),
            ("postgres://${HOST}:${PORT}/app", "postgres://db.local:5432/app"),
            ("${HOST}${PORT}", "db.local5432"),
            ("$$", "$"),
            ("$$$$", "$$"),
            ("$${HOST}", "${HOST}"),
            ("$$$${HOST}", "$${HOST}"),
            ("$$$$${HOST}", "$$db.local"),
            ("cost: $$5", "cost: $5"),
            ("${MISSING:-fallback}", "fallback"),
            ("${EMPTY:-fallback}", "fallback"),
            ("${HOST:-fallback}", "db.local"),
            ("${MISSING:-}", ""),
            ("${MISSING:-a $ b {x}", "a $ b {x"),
            ("${MISSING:-${HOST}}", "${HOST}"),
            ("${EMPTY}", ""),
            ("é${HOST}ü", "édb.localü"),
        ];
        for (value, want) in cases {
            assert_eq!(resolve_one(value, &vars).unwrap(), want, "{value:?}");
        }
    }

    #[test]
    fn host_values_are_marked_sensitive_and_literals_are_not() {
        let resolved = resolve(
            &entries(&[("A", "lit"), ("B", "${H}"), ("C", "${U:-d}")]),
            &host_of(&[("H", "v")]),
            &mut no_terminal(),
        )
        .unwrap();
        let flags: Vec<bool> = resolved.iter().map(|r| r.sensitive).collect();
        assert_eq!(flags, [false, true, false]);
    }

    #[test]
    fn unset_variables_name_the_entry_and_the_variable() {
        let err =
            resolve(&entries(&[("DB", "postgres://${DB_HOST}/x"), ("OK", "fine")]), &host_of(&[]), &mut no_terminal())
                .unwrap_err();
        assert_eq!(err.problems, vec![("DB".to_string(), Problem::Unset { var: "DB_HOST".into() })]);
        let text = err.to_string();
        assert!(text.contains("DB") && text.contains("DB_HOST"), "{text}");
    }

    #[test]
    fn every_problem_is_reported_and_nothing_is_asked() {
        let mut prompter = Scripted { terminal: true, answers: vec!["x"], asked: vec![] };
        let err = resolve(
            &entries(&[("A", "${NOPE}"), ("B", "?prompt"), ("C", "${bad-name}"), ("1X", "v"), ("D", "${X")]),
            &host_of(&[]),
            &mut prompter,
        )
        .unwrap_err();
        let names: Vec<&str> = err.problems.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["A", "C", "1X", "D"]);
        assert!(prompter.asked.is_empty(), "no question before every entry is valid");
        assert!(err.to_string().starts_with("4 [env] entries cannot be resolved:"), "{err}");
    }

    #[test]
    fn bad_references() {
        for value in ["${", "${X", "${}", "${1A}", "${A-b}", "${A:=b}", "${A B}", "x ${A"] {
            let err = resolve_one(value, &[("A", "1")]).unwrap_err();
            assert!(matches!(err.problems[0].1, Problem::BadReference { .. }), "{value:?}: {err}");
        }
    }

    #[test]
    fn prompts_are_asked_once_with_their_question() {
        let mut prompter = Scripted { terminal: true, answers: vec!["one", "two"], asked: vec![] };
        let resolved = resolve(
            &entries(&[("T", "?prompt"), ("L", "x"), ("Q", "?prompt  Your API token ")]),
            &host_of(&[]),
            &mut prompter,
        )
        .unwrap();
        assert_eq!(
            prompter.asked,
            [
                ("T".to_string(), "T (for [env])".to_string()),
                ("Q".to_string(), "Q (for [env]): Your API token".to_string())
            ]
        );
        let values: Vec<&str> = resolved.iter().map(|r| r.value.expose_secret()).collect();
        assert_eq!(values, ["one", "x", "two"]);
        assert!(resolved[0].sensitive && !resolved[1].sensitive && resolved[2].sensitive);
    }

    #[test]
    fn a_question_from_the_checkout_is_escaped_bounded_and_names_its_entry() {
        let forged = "\x1b[2J\x1b]0;sudo\x07[sudo] password for root:\r\n\u{202e}x";
        let long = "Token ".repeat(100);
        let mut prompter = Scripted { terminal: true, answers: vec!["one", "two"], asked: vec![] };
        let line = format!("?prompt {forged}");
        let long_line = format!("?prompt {long}");
        resolve(&entries(&[("GH", line.as_str()), ("L", long_line.as_str())]), &host_of(&[]), &mut prompter).unwrap();
        let (entry, question) = &prompter.asked[0];
        assert_eq!(entry, "GH");
        assert!(question.starts_with("GH (for [env]): "), "{question}");
        assert!(!question.chars().any(|c| c.is_control() || c == '\u{202e}'), "{question:?}");
        assert!(question.contains("\\u{1b}[2J") && question.contains("[sudo] password for root:"), "{question}");
        let (_, long_question) = &prompter.asked[1];
        assert!(long_question.chars().count() <= "L (for [env]): ".len() + MAX_QUESTION_CHARS + 1, "{long_question}");
        assert!(long_question.ends_with('…'), "{long_question}");
    }

    #[test]
    fn prompts_without_a_terminal_name_every_entry() {
        let err = resolve(&entries(&[("A", "?prompt"), ("B", "?prompt Token?")]), &host_of(&[]), &mut no_terminal())
            .unwrap_err();
        assert_eq!(err.problems, vec![("A".into(), Problem::NoPrompt), ("B".into(), Problem::NoPrompt)]);
    }

    #[test]
    fn a_failed_prompt_names_the_entry() {
        let mut prompter = Scripted { terminal: true, answers: vec![], asked: vec![] };
        let err = resolve(&entries(&[("TOKEN", "?prompt")]), &host_of(&[]), &mut prompter).unwrap_err();
        assert!(matches!(&err.problems[0], (n, Problem::PromptFailed { .. }) if n == "TOKEN"));
    }

    #[test]
    fn names_follow_the_secret_rules() {
        for name in ["PATH", "HANZO_TOKEN", "1A", "A-B", ""] {
            let err = resolve(&entries(&[(name, "v")]), &host_of(&[]), &mut no_terminal()).unwrap_err();
            assert!(matches!(err.problems[0].1, Problem::BadName(_)), "{name:?}");
        }
    }

    #[test]
    fn oversized_and_nul_values_are_refused_without_showing_them() {
        let big = "s".repeat(MAX_VALUE_BYTES + 1);
        let err = resolve_one("${BIG}", &[("BIG", &big)]).unwrap_err();
        assert_eq!(err.problems[0].1, Problem::TooLarge { bytes: MAX_VALUE_BYTES + 1 });
        assert!(!err.to_string().contains("sss"));
        assert_eq!(resolve_one(&"s".repeat(MAX_VALUE_BYTES), &[]).unwrap().len(), MAX_VALUE_BYTES);
        let err = resolve_one("a\0b", &[]).unwrap_err();
        assert_eq!(err.problems[0].1, Problem::Nul);
    }

    #[test]
    fn errors_never_hold_a_value() {
        let secret = "hunter2-SECRET";
        let err = resolve(
            &entries(&[("A", "hunter2-SECRET${NOPE}"), ("B", "${S}${NOPE2}"), ("C", "hunter2-SECRET${S")]),
            &host_of(&[("S", secret)]),
            &mut no_terminal(),
        )
        .unwrap_err();
        let shown = format!("{err} {err:?} {:?}", crate::diagnostic::Diagnostic::hint(&err));
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn resolved_debug_hides_the_value() {
        let resolved = resolve(&entries(&[("A", "hunter2")]), &host_of(&[]), &mut no_terminal()).unwrap();
        assert!(!format!("{resolved:?}").contains("hunter2"));
    }

    proptest! {
        #[test]
        fn no_input_makes_the_resolver_panic(
            name in "\\PC{0,12}",
            value in "(\\$|\\{|\\}|:-|\\?prompt| |[a-zA-Z_0-9]|\\PC){0,40}",
            host_value in "\\PC{0,8}",
            terminal in any::<bool>(),
        ) {
            let host = move |var: &str| var.len().is_multiple_of(2).then(|| OsString::from(host_value.clone()));
            let mut prompter = Scripted { terminal, answers: vec!["answer"], asked: vec![] };
            let _ = resolve(&[(name, value)], &host, &mut prompter);
        }

        #[test]
        fn text_without_dollars_is_unchanged(value in "[^$\\x00]{0,60}") {
            prop_assume!(value != PROMPT && !value.starts_with("?prompt ") && !value.starts_with("?prompt\t"));
            prop_assert_eq!(resolve_one(&value, &[]).unwrap(), value);
        }
    }
}
