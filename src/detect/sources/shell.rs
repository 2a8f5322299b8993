//! Shell lines as detection reads and writes them: quoting (the `shell-words` crate), the
//! commands of a line, repo-relative paths as a command names them, and the one reader of
//! `docker compose … up …` invocations.

use crate::rel_path::{RelPath, RelPathBuf};
/// A word for `sh` and `bash`: bare when it is plainly safe, else single-quoted. `KEY=value`
/// keeps its key bare (`-e POSTGRES_USER=app`), quoting only the value when it needs it.
/// Braces are quoted too: bash expands a bare `{a,b}` (the `shell-words` crate leaves it bare).
pub fn quote(word: &str) -> String {
    // `NAME=value` keeps its name bare; a requirement (`django==4.2`) is one quoted word.
    if let Some((key, value)) = word.split_once('=')
        && !key.is_empty()
        && !value.starts_with('=')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return format!("{key}={}", crate::plan::quote(value));
    }
    crate::plan::quote(word)
}

/// A name a shell can hold a variable under: `NODE_ENV`, not `node-version` or `1X`.
pub fn is_variable_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `command` run in the repo-relative `dir`: as is at the root, else `(cd dir && command)`,
/// so the script's own working directory never changes.
pub fn in_dir(dir: &str, command: &str) -> String {
    if dir.is_empty() || dir == "." { command.to_string() } else { format!("(cd {} && {command})", quote(dir)) }
}

/// The program a command starts with, past a subshell's `(`, `cd DIR && ` and `NAME=value`
/// words: `(cd api && uv run pytest)` starts with `uv`.
pub fn program_of(command: &str) -> Option<&str> {
    let command = command.trim();
    split_prefix(command.strip_prefix('(').unwrap_or(command)).1.split_whitespace().next()
}

/// `command` split where its program starts: a leading `cd DIR && ` and `NAME=value `
/// assignments (values bare or quoted) are the first part.
pub fn split_prefix(command: &str) -> (&str, &str) {
    let mut at = 0;
    loop {
        let rest = &command[at..];
        let word_end = |text: &str| {
            let mut quote = None;
            for (i, c) in text.char_indices() {
                match (quote, c) {
                    (None, '\'' | '"') => quote = Some(c),
                    (Some(q), c) if c == q => quote = None,
                    (None, c) if c.is_whitespace() => return i,
                    _ => {}
                }
            }
            text.len()
        };
        let skip = if let Some(dir) = rest.strip_prefix("cd ") {
            let dir_end = word_end(dir);
            dir[dir_end..].strip_prefix(" && ").map(|_| 3 + dir_end + 4)
        } else {
            let name_end = rest.find('=').unwrap_or(0);
            let name = &rest[..name_end];
            is_variable_name(name).then(|| name_end + 1 + word_end(&rest[name_end + 1..]))
        };
        match skip {
            Some(skip) if skip < rest.len() => {
                at += skip;
                at += command[at..].len() - command[at..].trim_start().len();
            }
            _ => return command.split_at(at),
        }
    }
}

/// A shell line without its trailing comment (`yarn test:app   # the frontend's`): a `#`
/// that starts a word outside quotes.
pub fn without_comment(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if previous.is_whitespace() => return line[..i].trim_end(),
            _ => {}
        }
        previous = c;
    }
    line
}

/// The simple commands of a shell line, split at `&&`, `||`, `;`, `|`, `&` and parentheses
/// outside quotes, each as its words (quotes removed). Redirections end a command's words.
/// Good enough for reading commands, not for running them.
pub fn commands(line: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        if escaped {
            escaped = false;
            current.push(c);
            continue;
        }
        match (quote, c) {
            (_, '\\') if quote != Some('\'') => {
                escaped = true;
                current.push(c);
            }
            (Some(q), c) if c == q => {
                quote = None;
                current.push(c);
            }
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                current.push(c);
            }
            (None, ';' | '|' | '&' | '(' | ')') => segments.push(std::mem::take(&mut current)),
            (None, c) => current.push(c),
        }
    }
    segments.push(current);
    segments
        .iter()
        .map(|segment| {
            let words = shell_words::split(segment).unwrap_or_else(|_| {
                segment.split_whitespace().map(|w| w.trim_matches(['"', '\'']).to_string()).collect()
            });
            words.into_iter().take_while(|w| !w.starts_with('>') && !w.starts_with("2>")).collect::<Vec<_>>()
        })
        .filter(|words: &Vec<String>| !words.is_empty())
        .collect()
}

/// The repo-relative path of the script a command's `words` start with, run from `cwd`:
/// `scripts/test`, `./ci/test.sh`, `bash scripts/test.sh` (a path, not a program on PATH).
pub fn script_path(cwd: &str, words: &[String]) -> Option<RelPathBuf> {
    let script = match words.first().map(String::as_str) {
        Some("sh" | "bash") => words.get(1),
        _ => words.first(),
    };
    script.filter(|s| s.contains('/')).and_then(|s| join_path(cwd, s))
}

/// Join `rel` (as written in a command run from `cwd`, both repo-relative) into a normalised
/// repo-relative path; `None` when it leaves the repo, is absolute or uses a variable.
pub fn join_path(cwd: &str, rel: &str) -> Option<RelPathBuf> {
    if rel.starts_with('~') || rel.contains('$') {
        return None;
    }
    RelPath::root().join_normalized(cwd)?.join_normalized(rel)
}

/// A `docker compose … up …` (or `docker-compose`) invocation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ComposeUp {
    /// `-f` arguments as written.
    pub files: Vec<String>,
    /// `--project-directory` as written.
    pub project_dir: Option<String>,
    /// Services named after `up`; none means every service of the files.
    pub services: Vec<String>,
}

/// Options of `docker compose` (before the subcommand) that take a value.
const GLOBAL_VALUE_OPTIONS: &[&str] =
    &["-p", "--project-name", "--profile", "--env-file", "--ansi", "--parallel", "--progress"];
/// Options of `up` that take a value.
const UP_VALUE_OPTIONS: &[&str] = &[
    "-t",
    "--timeout",
    "--scale",
    "--exit-code-from",
    "--attach",
    "--no-attach",
    "--pull",
    "--wait-timeout",
    "--attach-dependencies-of",
];

impl ComposeUp {
    /// The first `docker compose … up …` among the commands of `line`.
    pub fn parse(line: &str) -> Option<ComposeUp> {
        commands(line).iter().find_map(|words| {
            let start = words.iter().enumerate().find_map(|(i, w)| match w.as_str() {
                "docker-compose" => Some(i + 1),
                "docker" if words.get(i + 1).is_some_and(|w| w == "compose") => Some(i + 2),
                _ => None,
            })?;
            Self::after_compose(&words[start..])
        })
    }

    fn after_compose(words: &[String]) -> Option<ComposeUp> {
        let mut up = ComposeUp::default();
        let mut i = 0;
        // Global options up to the subcommand.
        loop {
            let word = words.get(i)?.as_str();
            if let Some(file) = word.strip_prefix("--file=") {
                up.files.push(file.to_string());
            } else if word == "-f" || word == "--file" {
                up.files.push(words.get(i + 1)?.clone());
                i += 1;
            } else if let Some(dir) = word.strip_prefix("--project-directory=") {
                up.project_dir = Some(dir.to_string());
            } else if word == "--project-directory" {
                up.project_dir = Some(words.get(i + 1)?.clone());
                i += 1;
            } else if GLOBAL_VALUE_OPTIONS.contains(&word) {
                i += 1;
            } else if !word.starts_with('-') {
                break;
            }
            i += 1;
        }
        if words[i] != "up" {
            return None;
        }
        let mut rest = words[i + 1..].iter();
        while let Some(word) = rest.next() {
            if UP_VALUE_OPTIONS.contains(&word.as_str()) {
                rest.next();
            } else if !word.starts_with('-') {
                up.services.push(word.clone());
            }
        }
        Some(up)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_comment_goes() {
        assert_eq!(without_comment("yarn test:app      # All frontend tests"), "yarn test:app");
        assert_eq!(
            without_comment("echo '# not a comment' \"#nor this\" x#y"),
            "echo '# not a comment' \"#nor this\" x#y"
        );
        assert_eq!(without_comment("# all of it"), "");
    }

    #[test]
    fn prefixes_before_the_program() {
        assert_eq!(split_prefix("pytest -q"), ("", "pytest -q"));
        assert_eq!(split_prefix("cd api && uv run pytest"), ("cd api && ", "uv run pytest"));
        assert_eq!(
            split_prefix("PGUSER=postgres URLS='a, b\nc' cd x && yarn test"),
            ("PGUSER=postgres URLS='a, b\nc' cd x && ", "yarn test")
        );
        assert_eq!(split_prefix("X=\"a b\" make test"), ("X=\"a b\" ", "make test"));
        // Not an assignment, or nothing after it: no prefix.
        assert_eq!(split_prefix("make A=1"), ("", "make A=1"));
        assert_eq!(split_prefix("X=1"), ("", "X=1"));
        assert_eq!(split_prefix("cd api"), ("", "cd api"));
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("web"), "web");
        assert_eq!(quote("my app"), "'my app'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("POSTGRES_USER=netbox"), "POSTGRES_USER=netbox");
        assert_eq!(quote("POSTGRES_DB=my db"), "POSTGRES_DB='my db'");
        assert_eq!(quote("{a,b}"), "'{a,b}'");
        assert_eq!(quote("~root"), "'~root'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("K={a,b}"), "K='{a,b}'");
        assert_eq!(quote("django==4.2"), "'django==4.2'");
        assert_eq!(in_dir("", "npm ci"), "npm ci");
        assert_eq!(in_dir("web", "npm ci"), "(cd web && npm ci)");
        assert_eq!(in_dir("my app", "npm ci"), "(cd 'my app' && npm ci)");
    }

    #[test]
    fn commands_of_a_line() {
        assert_eq!(
            commands("cd 'a b' && make test || echo \"x; y\" > log; (ls)"),
            vec![vec!["cd", "a b"], vec!["make", "test"], vec!["echo", "x; y"], vec!["ls"]]
        );
        assert_eq!(commands("echo 'unclosed"), vec![vec!["echo", "unclosed"]]);
    }

    #[test]
    fn compose_up_lines() {
        let up = ComposeUp::parse(
            "cd x && docker compose -f ci/compose.yml --profile db up -d --wait postgres redis && make",
        )
        .unwrap();
        assert_eq!(up.files, ["ci/compose.yml"]);
        assert_eq!(up.services, ["postgres", "redis"]);
        let up = ComposeUp::parse("docker-compose --file=a.yml up -t 30 --build").unwrap();
        assert_eq!(up.files, ["a.yml"]);
        assert!(up.services.is_empty());
        let up = ComposeUp::parse("docker compose --project-directory tests up db 2>&1 > log").unwrap();
        assert_eq!((up.project_dir.as_deref(), up.services.as_slice()), (Some("tests"), &["db".to_string()][..]));
        assert!(ComposeUp::parse("docker compose down").is_none());
        assert!(ComposeUp::parse("docker compose -f a.yml logs up").is_none());
        assert!(ComposeUp::parse("echo docker").is_none());
    }

    #[test]
    fn paths_as_commands_name_them() {
        assert_eq!(
            join_path("tests", "./docker/compose.yml").as_deref().map(RelPath::as_str),
            Some("tests/docker/compose.yml")
        );
        assert_eq!(join_path("a/b", "../c").as_deref().map(RelPath::as_str), Some("a/c"));
        assert_eq!(join_path("", "../x"), None);
        assert_eq!(join_path("", "/etc/x"), None);
        assert_eq!(join_path("", "$DIR/x"), None);
    }

    proptest::proptest! {
        #[test]
        fn readers_never_panic(line in "\\PC{0,80}") {
            let _ = commands(&line);
            let _ = ComposeUp::parse(&line);
            let _ = quote(&line);
        }
    }
}
