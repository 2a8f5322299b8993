//! What the owners wrote for coding agents: Cursor's `.cursor/environment.json` (`install`,
//! `start`, `terminals`) and the shell commands of the setup sections of `AGENTS.md`.
//! (Copilot's setup steps are a workflow: see [`super::workflows`].) Files `hanzo-env export`
//! wrote are echoes of an earlier detection and are left out.

use serde_json::Value;

use crate::detect::repo::{AGENTS_MD_END, AGENTS_MD_START, Repo, is_generated};

/// One command an agent file runs, with its evidence (`path#key` or `path:line`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentCommand {
    pub command: String,
    pub source: String,
    pub purpose: Purpose,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Install,
    Start,
    /// A command of a setup section (AGENTS.md): install, start or tests alike.
    Any,
}

pub const CURSOR_ENVIRONMENT: &str = ".cursor/environment.json";
pub const AGENTS_MD: &str = "AGENTS.md";

/// The commands of the hand-written agent files at the repository's root.
pub fn read_all(repo: &Repo) -> Vec<AgentCommand> {
    let mut found = Vec::new();
    let hand_written = |rel: &str| repo.exists(rel) && !repo.read(rel).is_some_and(|text| is_generated(&text));
    if hand_written(CURSOR_ENVIRONMENT)
        && let Some(config) = repo.read_jsonc(CURSOR_ENVIRONMENT)
    {
        for (key, purpose) in [("install", Purpose::Install), ("start", Purpose::Start)] {
            if let Some(command) = config.get(key).and_then(Value::as_str).filter(|c| !c.trim().is_empty()) {
                let source = format!("{CURSOR_ENVIRONMENT}#{key}");
                found.push(AgentCommand { command: command.trim().to_string(), source, purpose });
            }
        }
        for (i, terminal) in config.get("terminals").and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let Some(command) = terminal.get("command").and_then(Value::as_str) {
                let source = format!("{CURSOR_ENVIRONMENT}#terminals[{i}]");
                found.push(AgentCommand { command: command.trim().to_string(), source, purpose: Purpose::Start });
            }
        }
    }
    if hand_written(AGENTS_MD)
        && let Some(text) = repo.read(AGENTS_MD)
    {
        found.extend(setup_commands(&text).into_iter().map(|(line, command)| AgentCommand {
            command,
            source: format!("{AGENTS_MD}:{line}"),
            purpose: Purpose::Any,
        }));
    }
    found
}

/// Headings whose sections tell an agent how to set up, build or test.
const SETUP_HEADINGS: &[&str] = &["setup", "set up", "install", "development", "getting started", "build", "test"];

/// The shell lines of the fenced code blocks (```sh, ```bash, ```shell, ```console or bare)
/// under a setup-like heading, with their line numbers; `$ ` prompts removed, comments and
/// output of `console` blocks left out. The section `hanzo-env export` keeps between its
/// markers is an echo of an earlier detection and is skipped.
fn setup_commands(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_setup = false;
    let mut in_export = false;
    let mut fence: Option<(String, bool)> = None;
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
                let command = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
                let prompted = trimmed.starts_with("$ ");
                if !command.is_empty() && !command.starts_with('#') && (prompted || !marker.contains('~')) {
                    found.push((i + 1, command.to_string()));
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
        let found: Vec<(String, String)> = read_all(&repo).into_iter().map(|c| (c.command, c.source)).collect();
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
