//! Dotenv files that state what the project needs: `.env.example`-style files and a committed
//! `.env`/`.env.test` in the project's own folders outside the folders of test suites (load
//! tests included), and the env files CI runs with (`.env.ci`, `ci.env`, `.github/…/*.env`),
//! marked as such. Keys, values and line numbers; which keys are secrets is the secrets
//! signal's to say.

use crate::detect::repo::{Repo, is_ci_dir, is_own_dir, is_test_suite_dir};
pub use crate::detect::repo::{is_env_file, is_env_template, is_example};
use crate::rel_path::{RelPath, RelPathBuf};

#[derive(Debug, Clone)]
pub struct EnvFile {
    pub path: RelPathBuf,
    /// An example (`.env.example`, `env.sample`): it lists what to set rather than values.
    pub example: bool,
    /// One CI runs with ([`is_ci_env_file`]): it sets up the CI run, so it backs what the app
    /// reads and names nothing of its own.
    pub ci: bool,
    pub entries: Vec<EnvEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvEntry {
    pub key: String,
    /// As written, quotes and all (without a trailing ` # comment`).
    pub value: String,
    pub line: usize,
    /// The comment that documents it: the comment lines right above it and a trailing
    /// ` # comment` on its own line, joined with spaces (`OPTIONAL: the SMTP password`).
    pub doc: String,
    /// Commented out (`# SMTP_PASSWORD=`): shown as an option to set, not set.
    pub commented: bool,
}

/// Whether an env file is one CI runs with: named for CI (`.env.ci`, `ci.env`,
/// `.env.ci.example`) or any `.env`/`*.env` file in CI's folders (`.github/`, `.circleci/`,
/// `.gitlab/`, `.buildkite/`, `.ci/`).
pub fn is_ci_env_file(dir: &str, name: &str) -> bool {
    let dotenv = is_env_file(name) || name.len() > 4 && name.ends_with(".env");
    dotenv
        && (name.split('.').any(|part| part.eq_ignore_ascii_case("ci"))
            || !dir.is_empty() && dir.split('/').any(is_ci_dir))
}

/// Whether an env file states what the project needs, or what CI runs it with: one outside
/// the folders of test suites (see [`is_test_suite_dir`]: an env file there, example or not,
/// configures the suite — the users a browser test logs in as, the load a k6 script sends)
/// and of example configurations.
pub fn is_project_env_file(dir: &str, name: &str) -> bool {
    // The name first: this runs for every file of the tree.
    if !(is_env_file(name) || is_ci_env_file(dir, name)) || !is_own_dir(dir) || is_examples_dir(dir) {
        return false;
    }
    !dir.split('/').any(is_test_suite_dir)
}

/// Whether a folder of `dir` is named for examples with more words than that
/// (`example_configs/`, `config-examples/`, `sample-apps/`): what it holds shows how to set up
/// other things — lldap's `example_configs/bookstack.env.example` configures BookStack to use
/// lldap — not what this project needs. (Folders named just `examples` are not the project's
/// own at all, see [`is_own_dir`].)
pub fn is_examples_dir(dir: &str) -> bool {
    dir.split('/').any(|part| {
        part.split(['_', '-', '.'])
            .any(|word| ["example", "examples", "sample", "samples"].iter().any(|e| word.eq_ignore_ascii_case(e)))
    })
}

/// The keys of a dotenv-style text, with their values, line numbers and documentation
/// (`export` allowed, lines without `=` skipped). A commented-out assignment
/// (`# SMTP_PASSWORD=`) is an entry marked `commented`; other comment lines document the
/// entry below them.
pub fn entries(text: &str) -> Vec<EnvEntry> {
    let mut found = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let (commented, line) = match line.strip_prefix('#') {
            Some(comment) => (true, comment.trim()),
            None => (false, line),
        };
        let assignment = line.strip_prefix("export ").unwrap_or(line).split_once('=').filter(|(key, _)| {
            let key = key.trim();
            !key.is_empty() && !key.contains(char::is_whitespace) && (!commented || is_variable_name(key))
        });
        let Some((key, value)) = assignment else {
            if commented && !line.is_empty() {
                doc.push(line.trim_start_matches('#').trim());
            } else {
                doc.clear();
            }
            continue;
        };
        let (value, trailing) = split_trailing_comment(value);
        // The comment above is the entry's, commented out or not; either way it documents
        // nothing below the entry.
        let mut note = std::mem::take(&mut doc);
        note.extend(trailing);
        found.push(EnvEntry {
            key: key.trim().to_string(),
            value: value.to_string(),
            line: i + 1,
            doc: note.join(" "),
            commented,
        });
    }
    found
}

/// Whether a commented-out key is written like a variable (`SMTP_PASSWORD`), not prose.
fn is_variable_name(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.chars().any(|c| c.is_ascii_lowercase())
}

/// `value # comment` → (`value`, `comment`); a `#` inside quotes or without a space before
/// it is part of the value.
fn split_trailing_comment(value: &str) -> (&str, Option<&str>) {
    let trimmed = value.trim_start();
    if trimmed.starts_with(['"', '\'']) {
        let quote = trimmed.as_bytes()[0] as char;
        if let Some(end) = trimmed[1..].find(quote) {
            let (quoted, rest) = trimmed.split_at(end + 2);
            let comment = rest.trim().strip_prefix('#').map(str::trim);
            return (quoted, comment);
        }
        return (value, None);
    }
    match value.find(" #") {
        Some(at) => (&value[..at], Some(value[at + 2..].trim())),
        None => (value, None),
    }
}

/// The project's env files, by path.
pub fn read_all(repo: &Repo) -> Vec<EnvFile> {
    repo.files()
        .filter(|f| is_project_env_file(f.dir(), f.name()) || is_launch_settings(f.dir(), f.name()))
        .filter_map(|f| {
            let rel = f.path();
            if f.name() == LAUNCH_SETTINGS {
                return launch_settings(repo, rel);
            }
            let text = repo.read(rel)?;
            let (example, ci) = (is_example(f.name()), is_ci_env_file(f.dir(), f.name()));
            Some(EnvFile { path: rel.to_owned(), example, ci, entries: entries(&text) })
        })
        .collect()
}

const LAUNCH_SETTINGS: &str = "launchSettings.json";

/// ASP.NET's `Properties/launchSettings.json`, of the project's own (not a test project's):
/// the `environmentVariables` of its profiles are what `dotnet run` sets for development —
/// a committed `.env` by another name.
fn is_launch_settings(dir: &RelPath, name: &str) -> bool {
    name == LAUNCH_SETTINGS
        && dir.file_name().eq_ignore_ascii_case("Properties")
        && is_own_dir(dir)
        && !is_examples_dir(dir)
        && !dir.components().any(|d| is_test_suite_dir(d) || d.ends_with(".Tests") || d.ends_with(".Test"))
}

/// The variables a `launchSettings.json` sets, each once (profiles repeat them), with the
/// line that first sets it; values as JSON writes them (a string's with its quotes).
fn launch_settings(repo: &Repo, rel: &RelPath) -> Option<EnvFile> {
    let json = repo.read_jsonc(rel)?;
    let text = repo.read(rel)?;
    let mut found: Vec<EnvEntry> = Vec::new();
    let profiles = json.get("profiles").and_then(|p| p.as_object());
    for profile in profiles.into_iter().flat_map(|p| p.values()) {
        let variables = profile.get("environmentVariables").and_then(|v| v.as_object());
        for (key, value) in variables.into_iter().flatten() {
            if found.iter().any(|e| e.key == *key) {
                continue;
            }
            let quoted = format!("\"{key}\"");
            let line = text.find(&quoted).map_or(1, |at| text[..at].matches('\n').count() + 1);
            found.push(EnvEntry {
                key: key.clone(),
                value: value.to_string(),
                line,
                doc: String::new(),
                commented: false,
            });
        }
    }
    Some(EnvFile { path: rel.to_owned(), example: false, ci: false, entries: found })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_file_names() {
        for name in [
            ".env.example",
            ".env.sample",
            ".env.template",
            ".env.dist",
            ".env.defaults",
            ".env.local.example",
            "example.env",
            "env.sample",
            "sample.env",
            "gotify-server.env.example",
            "docker.env.sample",
            ".env",
            ".env.test",
            ".env.local",
            ".env-template",
            "env_sample",
        ] {
            assert!(is_env_file(name), "{name}");
        }
        assert!(is_env_template(".env-template"));
        for name in [
            "environment.ts",
            ".envrc",
            "example.txt",
            "env.ts",
            "env.go",
            "dotenv.js",
            "env.example.js",
            "env_config.py",
        ] {
            assert!(!is_env_file(name), "{name}");
        }
    }

    #[test]
    fn test_suites_env_files_are_not_the_projects() {
        for rel in
            [".env.example", "backend/.env", "packages/kit/.env.example", ".env.development.template", "sampler/.env"]
        {
            assert!(
                is_project_env_file(RelPath::new(rel).unwrap().parent(), RelPath::new(rel).unwrap().file_name()),
                "{rel}"
            );
        }
        for rel in [
            "packages/kit/test/apps/basics/.env",
            "packages/kit/test/.env.example",
            "tests/.env.test",
            "e2e/app/.env",
            "e2e/.env.template",
            "playwright/.env.template",
            "examples/.env.example",
            // Configurations of other apps that use this one (lldap's example_configs/).
            "example_configs/bookstack.env.example",
            "docs/config-examples/.env",
            "sample-apps/api/.env.example",
            // Load tests' settings (the users k6 or locust sign in as).
            "load-tests/.env.example",
            "k6/.env",
            "tools/locust/.env.sample",
            "stress/.env.template",
        ] {
            assert!(
                !is_project_env_file(RelPath::new(rel).unwrap().parent(), RelPath::new(rel).unwrap().file_name()),
                "{rel}"
            );
        }
    }

    #[test]
    fn the_env_files_ci_runs_with() {
        for rel in [
            ".env.ci",
            "ci.env",
            "backend/.env.ci.example",
            ".github/workflows/test.env",
            ".gitlab/.env",
            ".ci/app.env",
        ] {
            let rel = RelPath::new(rel).unwrap();
            let (dir, name) = (rel.parent(), rel.file_name());
            assert!(is_project_env_file(dir, name) && is_ci_env_file(dir, name), "{rel}");
        }
        for rel in [".env", ".env.example", "backend/.env.circle", "ci/.envrc", ".github/env.ts", "civic.env.example"] {
            let rel = RelPath::new(rel).unwrap();
            assert!(!is_ci_env_file(rel.parent(), rel.file_name()), "{rel}");
        }
    }

    #[test]
    fn keys_values_and_lines() {
        let text = "# comment\nexport API_SECRET=\nPORT=3000\nnot a line\n =x\n";
        let keys: Vec<_> = entries(text).into_iter().map(|e| (e.key, e.value, e.line)).collect();
        assert_eq!(keys, [("API_SECRET".into(), "".into(), 2), ("PORT".into(), "3000".into(), 3)]);
    }

    #[test]
    fn documentation_and_commented_out_entries() {
        let text = "# [[SMTP]]\n# OPTIONAL: the password\n# of the server.\nSMTP_PASSWORD=\n\n# stale\n\nAPI_KEY=\"a # b\" # REQUIRED\nURL=http://x/#frag\n# Old token.\n# OLD_TOKEN=abc\n# See the docs: set DEBUG=1 to log\nNEXT=1\n";
        let rows: Vec<_> = entries(text).into_iter().map(|e| (e.key, e.value, e.doc, e.commented)).collect();
        assert_eq!(
            rows,
            [
                ("SMTP_PASSWORD".into(), "".into(), "[[SMTP]] OPTIONAL: the password of the server.".into(), false),
                ("API_KEY".into(), "\"a # b\"".into(), "REQUIRED".into(), false),
                ("URL".into(), "http://x/#frag".into(), "".into(), false),
                ("OLD_TOKEN".into(), "abc".into(), "Old token.".into(), true),
                ("NEXT".into(), "1".into(), "See the docs: set DEBUG=1 to log".into(), false),
            ]
        );
    }

    #[test]
    fn names_survive_any_text() {
        for rel in ["src/é.env", "日本語/.env.example", "é"] {
            let _ = is_project_env_file(RelPath::new(rel).unwrap().parent(), RelPath::new(rel).unwrap().file_name());
        }
    }
}
