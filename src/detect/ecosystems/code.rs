//! What the ecosystems share about reading code for environment reads: the names a pattern
//! captures, the arguments of a call, the extent of an expression or a bracketed block.
//! Lexical and bounded (no parser): quotes and brackets are followed, comments are not.

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// How far past a read its arguments or its expression are looked for.
const LOOKAHEAD: usize = 2000;

/// Every match of `pattern` in `text`, as a read of the name its first participating group
/// captures (at that group's offset); `need` judges each from the text after the match.
pub fn reads_of(pattern: &Regex, text: &str, via: &'static str, need: impl Fn(&str) -> Need) -> Vec<EnvRead> {
    pattern
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let name = c.iter().skip(1).flatten().next()?;
            Some(EnvRead::new(name.as_str(), name.start(), need(&text[whole.end()..]), via))
        })
        .collect()
}

/// Whether `name` in `dir` is a YAML or TOML configuration file an app may expand
/// shell-style (Go's `os.ExpandEnv`, an entrypoint's `envsubst`): named for configuration
/// (`config.yml`, `settings.toml`, `app.yaml`, `server.defaults.toml`) or in a configuration
/// folder — not a compose file, and not Spring's `application.yml`/`bootstrap.yml`, whose
/// `${X:default}` Spring reads with its own rules.
pub fn is_interpolated_config(dir: &str, name: &str) -> bool {
    const CONFIG_WORDS: &[&str] = &["config", "configuration", "settings", "app", "server", "default", "defaults"];
    let Some((stem, extension)) = name.rsplit_once('.') else { return false };
    if !["yml", "yaml", "toml"].contains(&extension) {
        return false;
    }
    let first = stem.split(['.', '-', '_']).next().unwrap_or_default().to_ascii_lowercase();
    if ["application", "bootstrap", "docker", "compose", "podman"].contains(&first.as_str()) || first.is_empty() {
        return false;
    }
    let in_config_dir = dir.split('/').any(|d| ["config", "configs", "conf"].iter().any(|c| d.eq_ignore_ascii_case(c)));
    in_config_dir || stem.split(['.', '-', '_']).any(|w| CONFIG_WORDS.iter().any(|c| w.eq_ignore_ascii_case(c)))
}

/// The shell-style references of a configuration file that shows it is expanded so — it
/// has at least one `${X:-default}` or `${X:?message}`: each `${X}` is a read, optional with
/// a default (`:-`, `-`), required with `:?`.
pub fn shell_interpolations(text: &str) -> Vec<EnvRead> {
    static REFERENCE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?])?[^}\n]*\}").expect("the interpolation pattern is valid")
    });
    let references: Vec<_> = REFERENCE.captures_iter(text).collect();
    if !references.iter().any(|c| c.get(2).is_some()) {
        return Vec::new();
    }
    references
        .iter()
        .filter_map(|c| {
            let name = c.get(1)?;
            let need = match c.get(2).map(|m| m.as_str().trim_start_matches(':')) {
                Some("?") => Need::Required,
                Some(_) => Need::Optional,
                None => Need::Unstated,
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, "${…} in configuration"))
        })
        .collect()
}

/// The text after `from` up to (not including) the closing bracket that ends the enclosing
/// call or block, following nested brackets and the quotes in `quotes`; at most
/// [`LOOKAHEAD`] bytes. For `os.getenv("X", "d")` matched up to `"X"`, that is `, "d"`.
pub fn rest_of_call<'t>(after: &'t str, quotes: &[char]) -> &'t str {
    &after[..scan(after, quotes, |depth, c| depth == 0 && matches!(c, ')' | ']' | '}'))]
}

/// The expression starting at the beginning of `text`: up to the first `,` or `;` outside
/// brackets and quotes, or the closing bracket of the enclosing block; at most
/// [`LOOKAHEAD`] bytes.
pub fn expression<'t>(text: &'t str, quotes: &[char]) -> &'t str {
    &text[..scan(text, quotes, |depth, c| depth == 0 && matches!(c, ',' | ';' | ')' | ']' | '}'))]
}

/// The inside of the bracketed block whose opening bracket is the first character of
/// `text` (`{ … }` → ` … `), or `None` when it does not close within [`LOOKAHEAD`] × 16
/// bytes (a settings schema can be long).
pub fn block<'t>(text: &'t str, quotes: &[char]) -> Option<&'t str> {
    block_within(text, quotes, LOOKAHEAD * 16)
}

/// [`block`] with another bound: `None` when the block does not close within `limit` bytes.
pub fn block_within<'t>(text: &'t str, quotes: &[char], limit: usize) -> Option<&'t str> {
    let open = text.chars().next().filter(|c| matches!(c, '(' | '[' | '{'))?;
    let inner = &text[open.len_utf8()..];
    let end = scan_bounded(inner, quotes, limit, |depth, c| depth == 0 && matches!(c, ')' | ']' | '}'));
    (end < inner.len()).then(|| &inner[..end])
}

/// The calls `pattern` finds in `text` as reads through project helpers (see
/// [`helper_call_read`]): its named groups are `function`, `name` (the literal's contents)
/// and, when the call has one, `receiver`; `skip(receiver, function)` leaves out the
/// language's own readers (`os.Getenv`), which are found apart.
pub fn helper_call_reads(
    pattern: &regex::Regex,
    text: &str,
    quotes: &[char],
    skip: impl Fn(&str, &str) -> bool,
) -> Vec<EnvRead> {
    pattern
        .captures_iter(text)
        .filter_map(|c| {
            let (function, name, whole) = (c.name("function")?, c.name("name")?, c.get(0)?);
            let receiver = c.name("receiver").map_or("", |r| r.as_str());
            (!skip(receiver, function.as_str()))
                .then(|| helper_call_read(text, function.as_str(), name, whole.end(), quotes))
        })
        .collect()
}

/// The read of a call of `function` whose literal argument `name` ends at `end` in `text`
/// (`env_string("X")`): a read through that project helper, optional when the call passes
/// another argument after the name.
pub fn helper_call_read(text: &str, function: &str, name: regex::Match, end: usize, quotes: &[char]) -> EnvRead {
    let need = if has_another_argument(rest_of_call(&text[end..], quotes)) { Need::Optional } else { Need::Unstated };
    let read = EnvRead::new(name.as_str(), name.start(), need, "an env helper of the project");
    EnvRead { helper: Some(function.to_string()), ..read }
}

/// Whether a call's remaining arguments (see [`rest_of_call`]) pass another one after the
/// name: a positional default (`os.getenv("X", "d")`).
pub fn has_another_argument(rest: &str) -> bool {
    rest.trim_start().strip_prefix(',').is_some_and(|more| !more.trim().is_empty())
}

/// Whether `text` passes the keyword argument or option `key` (`default=`, `default:`,
/// `default =`), outside quotes.
pub fn has_keyword(text: &str, key: &str) -> bool {
    let mut from = 0;
    while let Some(found) = text[from..].find(key) {
        let at = from + found;
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].trim_start();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && (after.starts_with('=') && !after.starts_with("==") || after.starts_with(':'))
        {
            return true;
        }
        from = at + key.len();
    }
    false
}

/// Whether a function's name says it parses a value into a flag or a number: its last word,
/// after at least one other (`parseEnvVarBoolean`, `envToBool`, `env_int`, `getEnvAsNumber`).
/// `Boolean` and `bool` alone test whether a value is set; `print` is no `…Int`.
pub fn names_a_typed_parser(function: &str) -> bool {
    const TYPES: &[&str] = &["bool", "boolean", "int", "integer", "number", "float", "num"];
    let last_word_at = function
        .char_indices()
        .skip(1)
        .filter(|&(i, c)| {
            c.is_ascii_uppercase() && !function[..i].ends_with(|p: char| p.is_ascii_uppercase()) || c == '_'
        })
        .map(|(i, c)| if c == '_' { i + 1 } else { i })
        .last();
    last_word_at.is_some_and(|at| at < function.len() && TYPES.iter().any(|t| function[at..].eq_ignore_ascii_case(t)))
}

/// Whether `name` is written like an environment variable: upper case, digits and `_`,
/// starting with a letter or `_` (`DATABASE_URL`, not `database_url` or `Url`).
pub fn is_upper_snake(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.chars().any(|c| c.is_ascii_uppercase())
}

/// What JavaScript/TypeScript code right after a read says: `?? "d"`, `|| "d"` (optional).
/// A non-null `!` (`process.env.X!`) asserts to the compiler alone: nothing checks it when
/// the code runs, so the app starts without the value and it is not required.
pub fn script_need_after(after: &str) -> Need {
    if followed_by(after, &["??", "||"]) { Need::Optional } else { Need::Unstated }
}

/// Whether the code right after a read (`after`, past its closing bracket) starts with one
/// of `fallbacks` (`??`, `||`, `.unwrap_or`): the read has a default.
pub fn followed_by(after: &str, fallbacks: &[&str]) -> bool {
    let after = after.trim_start();
    fallbacks.iter().any(|f| after.starts_with(f))
}

/// Whether the code right after a read assigns to it (`ENV["X"] = …`, `process.env.X = …`,
/// `os.environ["X"] = …`): the program sets the variable, it does not need it.
pub fn assigns(after: &str) -> bool {
    let after = after.trim_start();
    after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=>") && !after.starts_with("=~")
}

/// Whether offset `at` lies in the block of a `try { … }` of a brace language (JavaScript,
/// Java, C#, PHP), within [`LOOKAHEAD`] × 2 bytes before it: what the code there throws for a
/// missing value is caught, so the program goes on without it. Brackets in strings are
/// taken as written (a template's `${…}` is balanced).
pub fn in_try_block(text: &str, at: usize) -> bool {
    let from = at.saturating_sub(LOOKAHEAD * 2);
    let Some(before) = text.get(from..at) else { return false };
    let mut depth = 0usize;
    for (i, c) in before.char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth > 0 => depth -= 1,
            '{' => {
                let head = before[..i].trim_end();
                if head.ends_with("try") && !head[..head.len() - 3].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The rest of the line that starts at the beginning of `text`.
pub fn rest_of_line(text: &str) -> &str {
    text.split('\n').next().unwrap_or_default()
}

/// `text` with each line comment (from `marker`, `//` or `#`, outside the strings of `quotes`
/// to the end of its line) blanked out byte for byte, so that offsets stay: a comment is prose,
/// and an apostrophe there (`// ClickHouse's limit`) would open a quote the scanners above
/// never see closed.
pub fn without_line_comments(text: &str, marker: &str, quotes: &[char]) -> String {
    without_comments(text, marker, None, quotes)
}

/// [`without_line_comments`], and the comments between the `block` pair too (`/*` and `*/`:
/// `/* You'll get type errors */`), their line breaks kept.
pub fn without_comments(text: &str, marker: &str, block: Option<(&str, &str)>, quotes: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut in_comment = false;
    // Where the block comment being blanked ends.
    let mut block_end: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if let Some(end) = block_end {
            if i < end {
                out.push(if c == '\n' { c } else { ' ' });
                if c != '\n' && c.len_utf8() > 1 {
                    out.extend(std::iter::repeat_n(' ', c.len_utf8() - 1));
                }
                continue;
            }
            block_end = None;
        }
        if in_comment && c != '\n' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            continue;
        }
        in_comment = false;
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            // A line ends a quote the language cannot carry over lines; a backtick's goes on.
            Some(q) if c == '\n' && q != '`' => quote = None,
            Some(_) => {}
            None if quotes.contains(&c) => quote = Some(c),
            None if text[i..].starts_with(marker) => {
                in_comment = true;
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
                continue;
            }
            None if block.is_some_and(|(open, _)| text[i..].starts_with(open)) => {
                let (open, close) = block.unwrap_or_default();
                let after = i + open.len();
                block_end = Some(text[after..].find(close).map_or(text.len(), |at| after + at + close.len()));
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    out
}

/// The offset in `text` where `stop(depth, c)` first holds outside quotes, else the end of
/// the text or of the lookahead.
fn scan(text: &str, quotes: &[char], stop: impl Fn(usize, char) -> bool) -> usize {
    scan_bounded(text, quotes, LOOKAHEAD, stop)
}

fn scan_bounded(text: &str, quotes: &[char], limit: usize, stop: impl Fn(usize, char) -> bool) -> usize {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if i >= limit {
            return i;
        }
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        if stop(depth, c) {
            return i;
        }
        match c {
            c if quotes.contains(&c) => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    text.len()
}

/// A camel-case name in snake case (`envString` → `env_string`, `MustGet` → `must_get`), so
/// a helper's words are read as a snake-case one's.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parser_is_named_for_the_type_it_returns() {
        for typed in ["parseEnvVarBoolean", "envToBool", "env_int", "getEnvAsNumber", "toBOOL", "parse_float"] {
            assert!(names_a_typed_parser(typed), "{typed}");
        }
        for untyped in ["Boolean", "bool", "int", "print", "getSecret", "hint", "fetchToken", "Number"] {
            assert!(!names_a_typed_parser(untyped), "{untyped}");
        }
    }

    const QUOTES: &[char] = &['"', '\''];

    #[test]
    fn call_arguments() {
        assert_eq!(rest_of_call(r#", "d") + x"#, QUOTES), r#", "d""#);
        assert_eq!(rest_of_call(r#", f(")", 2)) rest"#, QUOTES), r#", f(")", 2)"#);
        assert!(has_another_argument(r#", "d""#));
        assert!(!has_another_argument(" "));
        assert!(!has_another_argument(", "));
        assert!(has_keyword(r#", cast=bool, default=None"#, "default"));
        assert!(!has_keyword(r#", cast=bool"#, "default"));
        assert!(!has_keyword(r#", my_default=1"#, "default"));
        assert!(!has_keyword(r#", default == 1"#, "default"));
        assert!(has_keyword("{ default: '' }", "default"));
    }

    #[test]
    fn expressions_and_blocks() {
        assert_eq!(
            expression("z.string().min(1, { message: 'a,b' }),\n  B: z.x()", QUOTES),
            "z.string().min(1, { message: 'a,b' })"
        );
        assert_eq!(expression("str()\n}", QUOTES), "str()\n");
        assert_eq!(block("{ a: { b: 1 }, c: '}' } tail", QUOTES), Some(" a: { b: 1 }, c: '}' "));
        assert_eq!(block("{ never closed", QUOTES), None);
        assert_eq!(block("x", QUOTES), None);
    }

    #[test]
    fn line_comments_are_blanked_where_they_are_no_string() {
        let js = "a: 1, // ClickHouse's\nb: \"http://x\", c: `//`\n";
        let blanked = without_line_comments(js, "//", &['"', '\'', '`']);
        assert_eq!(blanked, "a: 1,                \nb: \"http://x\", c: `//`\n");
        let python = "X=(str, \"#\"),  # don't\nY=1\n";
        assert_eq!(without_line_comments(python, "#", QUOTES), "X=(str, \"#\"),         \nY=1\n");
        let block = "a: 1, /* You'll\n see */ b: 'x/*y'\n";
        let blanked = without_comments(block, "//", Some(("/*", "*/")), &['"', '\'']);
        assert_eq!(blanked, format!("a: 1,{}\n        b: 'x/*y'\n", " ".repeat(10)));
        assert_eq!(blanked.len(), block.len());
    }

    #[test]
    fn assignments() {
        assert!(assigns(" = 'x'"));
        for after in [" == 'x'", " => x", " =~ /x/", ".strip", " ||= 'x'"] {
            assert!(!assigns(after), "{after}");
        }
    }

    #[test]
    fn names_written_like_variables() {
        for name in ["DATABASE_URL", "_X", "A1"] {
            assert!(is_upper_snake(name), "{name}");
        }
        for name in ["database_url", "Url", "_", "1A", ""] {
            assert!(!is_upper_snake(name), "{name}");
        }
    }

    #[test]
    fn any_text_is_safe() {
        for text in ["", "(", "\"", "é(\"", "{{{{", "'\\"] {
            let _ = rest_of_call(text, QUOTES);
            let _ = expression(text, QUOTES);
            let _ = block(text, QUOTES);
        }
    }
}
