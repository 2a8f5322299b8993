//! Dotenv files that state what the project needs: `.env.example`-style files anywhere in the
//! project's own folders, and a committed `.env`/`.env.test` outside test folders. Keys,
//! values and line numbers; which keys are secrets is the secrets signal's to say.

use crate::detect::repo::{Repo, file_name, is_own_path, parent_dir};

#[derive(Debug, Clone)]
pub struct EnvFile {
    pub path: String,
    /// An example (`.env.example`, `env.sample`): it lists what to set rather than values.
    pub example: bool,
    pub entries: Vec<EnvEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvEntry {
    pub key: String,
    /// As written, quotes and all.
    pub value: String,
    pub line: usize,
}

/// Dotenv files: `.env` and `.env.*` (a committed `.env`, `.env.test` or `.env.example`; a
/// gitignored one is never walked), and example files under other names (`example.env`,
/// `env.sample`, `sample.env`, `env.template`).
pub fn is_env_file(name: &str) -> bool {
    if name == ".env" || name.starts_with(".env.") {
        return true;
    }
    // Cheap refusal first: this runs for every file of the tree.
    if !name.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"env")) {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split('.').collect();
    let has_env = parts
        .iter()
        .enumerate()
        .any(|(i, p)| *p == "env" && (i == 0 || i + 1 == parts.len() || i == 1 && parts[0].is_empty()));
    has_env && is_example(name)
}

/// An env file that lists what to set (`.env.example`, `env.sample`) rather than values.
pub fn is_example(name: &str) -> bool {
    const MARKERS: &[&str] = &["example", "sample", "template", "tmpl", "tpl", "dist", "defaults", "default"];
    name.to_ascii_lowercase().split('.').any(|p| MARKERS.contains(&p))
}

/// Directories of tests: a committed env file there configures a test app with its values,
/// so the names in it are nothing the sandbox must supply.
const TEST_DIRS: &[&str] = &["test", "tests", "__tests__", "spec", "specs", "e2e", "integration", "testing"];

/// Whether an env file states what the project needs: example-style anywhere, a committed
/// `.env`/`.env.test` only outside test directories (a monorepo's test apps).
pub fn is_project_env_file(rel: &str) -> bool {
    // The name first: this runs for every file of the tree.
    if !is_env_file(file_name(rel)) || !is_own_path(rel) {
        return false;
    }
    let in_tests = parent_dir(rel).split('/').any(|d| TEST_DIRS.iter().any(|t| d.eq_ignore_ascii_case(t)));
    !in_tests || is_example(file_name(rel))
}

/// The keys of a dotenv-style text, with their values and line numbers (`export` allowed,
/// comments and lines without `=` skipped).
pub fn entries(text: &str) -> Vec<EnvEntry> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((key, value)) = line.split_once('=') else { continue };
        let key = key.trim();
        if line.starts_with('#') || key.is_empty() || key.contains(char::is_whitespace) {
            continue;
        }
        found.push(EnvEntry { key: key.to_string(), value: value.to_string(), line: i + 1 });
    }
    found
}

/// The project's env files, by path.
pub fn read_all(repo: &Repo) -> Vec<EnvFile> {
    repo.files()
        .filter(|rel| is_project_env_file(rel))
        .filter_map(|rel| {
            let text = repo.read(rel)?;
            Some(EnvFile { path: rel.to_string(), example: is_example(file_name(rel)), entries: entries(&text) })
        })
        .collect()
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
            ".env",
            ".env.test",
            ".env.local",
        ] {
            assert!(is_env_file(name), "{name}");
        }
        for name in ["environment.ts", ".envrc", "example.txt", "env.ts", "env.go", "dotenv.js"] {
            assert!(!is_env_file(name), "{name}");
        }
    }

    #[test]
    fn test_apps_env_files_are_not_the_projects() {
        for rel in [".env.example", "backend/.env", "packages/kit/.env.example", "packages/kit/test/.env.example"] {
            assert!(is_project_env_file(rel), "{rel}");
        }
        for rel in ["packages/kit/test/apps/basics/.env", "tests/.env.test", "e2e/app/.env", "examples/.env.example"] {
            assert!(!is_project_env_file(rel), "{rel}");
        }
    }

    #[test]
    fn keys_values_and_lines() {
        let text = "# comment\nexport API_SECRET=\nPORT=3000\nnot a line\n =x\n";
        let keys: Vec<_> = entries(text).into_iter().map(|e| (e.key, e.value, e.line)).collect();
        assert_eq!(keys, [("API_SECRET".into(), "".into(), 2), ("PORT".into(), "3000".into(), 3)]);
    }

    #[test]
    fn names_survive_any_text() {
        for rel in ["src/é.env", "日本語/.env.example", "é"] {
            let _ = is_project_env_file(rel);
        }
    }
}
