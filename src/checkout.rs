//! The checkout a command works on: its root and its repo name.

use std::path::{Path, PathBuf};

/// The nearest ancestor of `start` (itself included) holding `.git` or `.hanzo`, else `start`.
pub fn find_root(start: &Path) -> PathBuf {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    for dir in start.ancestors() {
        if dir.join(".git").exists() || dir.join(".hanzo").is_dir() {
            return dir.to_path_buf();
        }
    }
    start
}

/// `git`, with the settings through which a repository's own `.git/config` runs programs
/// turned off: a checkout received as an archive or a shared folder can carry
/// `core.fsmonitor = <command>` (run by `rev-parse`, `status`, `check-ignore` …) or hooks.
/// Command-line `-c` settings win over every config file. The system config is not read;
/// the user's own (global) config only with `user_config` (`env-file` honours its
/// `core.excludesFile`). With `only_env`, git gets just those variables. Every git this
/// tool runs is built here.
pub fn git(user_config: bool, only_env: Option<&[(&str, &std::ffi::OsStr)]>) -> std::process::Command {
    let mut cmd = std::process::Command::new("git");
    for setting in NEUTRAL_GIT_SETTINGS {
        cmd.arg("-c").arg(setting);
    }
    if let Some(vars) = only_env {
        cmd.env_clear().envs(vars.iter().copied());
    }
    cmd.env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_TERMINAL_PROMPT", "0");
    if !user_config {
        cmd.env("GIT_CONFIG_GLOBAL", "/dev/null");
    }
    cmd
}

/// Settings a repository's config could point at a program, set to run none.
const NEUTRAL_GIT_SETTINGS: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "diff.external=",
    "protocol.ext.allow=never",
];

/// Where the proposal file lives in a checkout.
pub fn proposal_path(root: &Path) -> PathBuf {
    root.join(".hanzo").join("environment.toml")
}

/// The repo name for a checkout: the `origin` remote's repo name, else the folder name.
pub fn default_repo_name(root: &Path) -> String {
    remote_repo_name(root)
        .unwrap_or_else(|| root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "repo".into()))
}

/// The last path segment of the `origin` URL (or the first remote's) in `.git/config`.
pub fn remote_repo_name(root: &Path) -> Option<String> {
    let config = std::fs::read_to_string(git_dir(root)?.join("config")).ok()?;
    let mut first: Option<String> = None;
    let mut section = String::new();
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        let Some(url) = line.strip_prefix("url").map(str::trim_start).and_then(|r| r.strip_prefix('=')) else {
            continue;
        };
        if !section.starts_with("[remote ") {
            continue;
        }
        let name = repo_name_from_url(url.trim())?;
        if section == "[remote \"origin\"]" {
            return Some(name);
        }
        first.get_or_insert(name);
    }
    first
}

/// `.git` is a directory, or a file `gitdir: …` in worktrees and submodules.
fn git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    let path = root.join(target);
    // A worktree's gitdir holds `commondir` pointing at the shared config.
    match std::fs::read_to_string(path.join("commondir")) {
        Ok(common) => Some(path.join(common.trim())),
        Err(_) => Some(path),
    }
}

/// `git@github.com:acme/site.git`, `https://host/acme/site` → `site`.
pub fn repo_name_from_url(url: &str) -> Option<String> {
    let tail = url.trim_end_matches('/').rsplit(['/', ':']).next()?;
    let name = tail.strip_suffix(".git").unwrap_or(tail);
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_urls() {
        assert_eq!(repo_name_from_url("git@github.com:acme/site.git").as_deref(), Some("site"));
        assert_eq!(repo_name_from_url("https://github.com/acme/site/").as_deref(), Some("site"));
        assert_eq!(repo_name_from_url("/srv/git/api.git").as_deref(), Some("api"));
    }

    #[test]
    fn origin_wins_over_other_remotes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(
            dir.path().join(".git/config"),
            "[remote \"upstream\"]\n\turl = https://x/y/up.git\n[remote \"origin\"]\n\turl = git@h:me/mine.git\n",
        )
        .unwrap();
        assert_eq!(default_repo_name(dir.path()), "mine");
    }
}
