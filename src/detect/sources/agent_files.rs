//! What the owners wrote for coding agents: Cursor's `.cursor/environment.json` (`install`,
//! `start`, `terminals`) and the shell commands of the setup sections of `AGENTS.md`.
//! (Copilot's setup steps are a workflow: see [`super::workflows`].) Files `hanzo-env export`
//! wrote are echoes of an earlier detection and are left out.

use crate::evidence::{Evidence, Kind};
use serde_json::Value;

use crate::detect::repo::{AGENTS_MD_END, AGENTS_MD_START, Repo, is_generated};
use crate::detect::sources::shell::{commands, is_variable_name, join_path, quote, without_comment};
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

/// One command an agent file runs, with its evidence (`path#key` or `path:line`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentCommand {
    pub command: String,
    pub source: Evidence,
    pub purpose: Purpose,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Install,
    Start,
    /// A command of a setup section (AGENTS.md): install, start or tests alike.
    Any,
}

pub const CURSOR_ENVIRONMENT: &RelPath = rel!(".cursor/environment.json");
pub const AGENTS_MD: &RelPath = rel!("AGENTS.md");

/// The commands of the hand-written agent files at the repository's root.
pub fn read_all(repo: &Repo) -> Vec<AgentCommand> {
    let mut found = Vec::new();
    let hand_written = |rel: &RelPath| repo.exists(rel) && !repo.read(rel).is_some_and(|text| is_generated(&text));
    if hand_written(CURSOR_ENVIRONMENT)
        && let Some(config) = repo.read_jsonc(CURSOR_ENVIRONMENT)
    {
        for (key, purpose) in [("install", Purpose::Install), ("start", Purpose::Start)] {
            if let Some(command) = config.get(key).and_then(Value::as_str).filter(|c| !c.trim().is_empty()) {
                let source = Evidence::key(CURSOR_ENVIRONMENT, key).of(Kind::AgentSetup);
                found.push(AgentCommand { command: command.trim().to_string(), source, purpose });
            }
        }
        for (i, terminal) in config.get("terminals").and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let Some(command) = terminal.get("command").and_then(Value::as_str) {
                let source = Evidence::key(CURSOR_ENVIRONMENT, format!("terminals[{i}]")).of(Kind::AgentSetup);
                found.push(AgentCommand { command: command.trim().to_string(), source, purpose: Purpose::Start });
            }
        }
    }
    if hand_written(AGENTS_MD)
        && let Some(text) = repo.read(AGENTS_MD)
    {
        let runnable = setup_commands(&text).into_iter().filter(|c| names_only_existing_paths(repo, c));
        found.extend(runnable.map(|c| AgentCommand {
            command: in_block_dir(&c),
            source: Evidence::line(AGENTS_MD, c.line).of(Kind::AgentSetup),
            purpose: Purpose::Any,
        }));
    }
    found
}

/// A command of a code block, and the folder an earlier `cd` of the block moved to
/// (repo-relative; `None` when the block left the checkout or used a variable).
struct BlockCommand {
    line: usize,
    dir: Option<RelPathBuf>,
    command: String,
}

fn in_block_dir(c: &BlockCommand) -> String {
    match &c.dir {
        Some(dir) if !dir.is_root() => format!("cd {} && {}", quote(dir), c.command),
        _ => c.command.clone(),
    }
}

/// Folders the walk never enters or that a build makes: a path under one is not checked.
const MADE_BY_INSTALL_OR_BUILD: &[&str] =
    &["node_modules", "vendor", "target", ".venv", "venv", "dist", "build", "out", "bin", "obj"];

/// File extensions that make a word a path even without a `/`.
const SOURCE_EXTENSIONS: &[&str] = &["py", "ts", "tsx", "js", "jsx", "mjs", "cjs", "sh", "rb", "go", "php", "rs"];

/// Whether every path the command names exists in the checkout: prose's placeholders
/// (`yarn test path/to/test.spec.ts`) and commands meant for another folder (`python
/// manage.py test` where `manage.py` lives in `app/`) do not run as written.
fn names_only_existing_paths(repo: &Repo, c: &BlockCommand) -> bool {
    let Some(dir) = &c.dir else { return true };
    commands(&c.command).iter().all(|words| {
        let words = words.iter().skip_while(|w| w.split_once('=').is_some_and(|(name, _)| is_variable_name(name)));
        words.filter(|w| is_path_like(w)).all(|word| {
            let word = word.split("::").next().unwrap_or(word).trim_end_matches('/');
            match join_path(dir, word) {
                Some(path) => {
                    let top = path.components().next().unwrap_or_default();
                    MADE_BY_INSTALL_OR_BUILD.contains(&top) || repo.exists(&path) || repo.has_dir(&path)
                }
                None => true,
            }
        })
    })
}

/// A relative path as written in a command: a `/` or a source file's extension, and no
/// option, variable, URL, glob, package spec (`@scope/pkg`) or Go pattern (`./...`).
fn is_path_like(word: &str) -> bool {
    let plain = !word.starts_with(['-', '$', '~', '/', '@', '<', '{'])
        && !word.contains("://")
        && !word.contains("...")
        && !word.contains(['*', '?', '[', '{', '=', '$', '`']);
    let extension = word.rsplit_once('.').map(|(_, e)| e.split("::").next().unwrap_or(e));
    plain && (word.contains('/') || extension.is_some_and(|e| SOURCE_EXTENSIONS.contains(&e)))
}

/// Headings whose sections tell an agent how to set up, build or test.
const SETUP_HEADINGS: &[&str] = &["setup", "set up", "install", "development", "getting started", "build", "test"];

/// The shell lines of the fenced code blocks (```sh, ```bash, ```shell, ```console or bare)
/// under a setup-like heading, with their line numbers; `$ ` prompts removed, comments and
/// output of `console` blocks left out. The section `hanzo-env export` keeps between its
/// markers is an echo of an earlier detection and is skipped.
fn setup_commands(text: &str) -> Vec<BlockCommand> {
    let mut found = Vec::new();
    let mut in_setup = false;
    let mut in_export = false;
    let mut fence: Option<(String, bool)> = None;
    let mut dir: Option<RelPathBuf> = Some(RelPathBuf::root());
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed == AGENTS_MD_START || trimmed == AGENTS_MD_END {
            in_export = trimmed == AGENTS_MD_START;
            fence = None;
            continue;
        }
        if in_export {
            continue;
        }
        if let Some((marker, shell)) = &fence {
            if trimmed.starts_with(marker.as_str()) {
                fence = None;
            } else if *shell && in_setup {
                let command = without_comment(trimmed.strip_prefix("$ ").unwrap_or(trimmed));
                let prompted = trimmed.starts_with("$ ");
                // A `~~~` block's unprompted lines are output, not commands.
                if command.is_empty() || command.starts_with('#') || !prompted && marker.contains('~') {
                    continue;
                }
                // `cd app` on a line of its own moves the block's later lines.
                match command.strip_prefix("cd ").map(|target| commands(target).concat()).as_deref() {
                    Some([target]) => dir = dir.as_deref().and_then(|d| join_path(d, target)),
                    _ => found.push(BlockCommand { line: i + 1, dir: dir.clone(), command: command.to_string() }),
                }
            }
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim().to_ascii_lowercase();
            in_setup = SETUP_HEADINGS.iter().any(|h| heading.contains(h));
            continue;
        }
        for marker in ["```", "~~~"] {
            if let Some(info) = trimmed.strip_prefix(marker) {
                dir = Some(RelPathBuf::root());
                let language = info.split_whitespace().next().unwrap_or("");
                let shell = matches!(language, "" | "sh" | "bash" | "shell" | "console" | "zsh");
                fence = Some((marker.to_string(), shell));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::repo_with;

    #[test]
    fn cursor_and_agents_md_commands() {
        let agents = "# Project\n\nSome prose.\n\n## Setup\n\n```bash\n# dependencies\npnpm install\n$ cp .env.example .env\n```\n\n## Testing\n\n```sh\npnpm test\n```\n\n```ts\nconst x = 1;\n```\n\n## Style\n\n```sh\npnpm lint\n```\n";
        let cursor = r#"{"install": "pnpm install", "start": "docker compose up -d", "terminals": [{"name": "dev", "command": "pnpm dev"}]}"#;
        let (_dir, repo) = repo_with(&[(AGENTS_MD, agents), (CURSOR_ENVIRONMENT, cursor)]);
        let found: Vec<(String, String)> =
            read_all(&repo).into_iter().map(|c| (c.command, c.source.to_string())).collect();
        let found: Vec<(&str, &str)> = found.iter().map(|(c, s)| (c.as_str(), s.as_str())).collect();
        assert_eq!(
            found,
            [
                ("pnpm install", ".cursor/environment.json#install"),
                ("docker compose up -d", ".cursor/environment.json#start"),
                ("pnpm dev", ".cursor/environment.json#terminals[0]"),
                ("pnpm install", "AGENTS.md:9"),
                ("cp .env.example .env", "AGENTS.md:10"),
                ("pnpm test", "AGENTS.md:16"),
            ]
        );
    }

    #[test]
    fn placeholders_comments_and_a_block_s_cd() {
        let agents = "## Setup\n\n```sh\ncd app/\npython manage.py migrate\n```\n\n## Testing\n\n```sh\nyarn test path/to/test.spec.ts\npython manage.py test\nyarn test:app   # the frontend\ngo test ./...\npytest tests/test_x.py::test_y\n```\n";
        let (_dir, repo) = repo_with(&[(AGENTS_MD, agents), ("app/manage.py", ""), ("tests/test_x.py", "")]);
        let found: Vec<String> = read_all(&repo).into_iter().map(|c| c.command).collect();
        assert_eq!(
            found,
            ["cd app && python manage.py migrate", "yarn test:app", "go test ./...", "pytest tests/test_x.py::test_y"]
        );
    }

    #[test]
    fn the_exported_section_of_agents_md_is_no_evidence() {
        let agents = "# Project\n\n<!-- hanzo-env:setup:start -->\n## Setup\n\n```sh\nnpm ci\n```\n<!-- hanzo-env:setup:end -->\n\n## Testing\n\n```sh\nnpm run test:unit\n```\n";
        let (_dir, repo) = repo_with(&[(AGENTS_MD, agents)]);
        let found: Vec<String> = read_all(&repo).into_iter().map(|c| c.command).collect();
        assert_eq!(found, ["npm run test:unit"]);
    }

    #[test]
    fn files_export_wrote_are_no_evidence() {
        let cursor = "// Generated by `hanzo-env export --to cursor` from detection.\n{\"install\": \"npm ci\"}";
        let (_dir, repo) = repo_with(&[(CURSOR_ENVIRONMENT, cursor)]);
        assert!(read_all(&repo).is_empty());
    }
}
