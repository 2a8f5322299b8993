//! Task files — Makefile, justfile, Taskfile.yml — read as targets with the shell lines of
//! their recipes. Task files deeper than [`MAX_DEPTH`] are helpers of sub-components, not
//! entry points.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::repo::{Repo, is_own_path};
use crate::detect::sources::shell::{commands, join_path};
use crate::detect::sources::workflows::{JobService, docker_run_service, scalar};
use crate::evidence::{Anchor, Evidence, Kind};
use crate::rel_path::{RelPath, RelPathBuf};

/// Task files deeper than this (root = 0) are helpers of sub-components, not entry points.
pub const MAX_DEPTH: usize = 2;

/// A task file and its targets.
#[derive(Debug, Clone)]
pub struct TaskFile {
    pub path: RelPathBuf,
    /// The program that runs its targets: `make`, `just` or `task`.
    pub tool: &'static str,
    pub targets: Vec<Target>,
}

impl TaskFile {
    /// Evidence for the place `at` of this file.
    pub fn at(&self, at: &Anchor) -> Evidence {
        Evidence { anchor: at.clone(), kind: Kind::Task, ..Evidence::file(&self.path) }
    }

    /// The command that runs `target` from the repo root (`make -C api test`, `task -d worker test`).
    pub fn invoke(&self, target: &str) -> String {
        match (self.tool, self.path.parent()) {
            (tool, dir) if dir.is_root() => format!("{tool} {target}"),
            ("make", dir) => format!("make -C {dir} {target}"),
            ("task", dir) => format!("task -d {dir} {target}"),
            (tool, dir) => format!("cd {dir} && {tool} {target}"),
        }
    }
}

/// A target (or recipe, or task) and the shell lines it runs, each with where it is in its
/// file (line 12, or the key `tasks.test`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub at: Anchor,
    pub recipe: Vec<(Anchor, String)>,
    /// The targets it needs first (a Makefile rule's prerequisites).
    pub prerequisites: Vec<String>,
}

/// The project's task files, by path.
pub fn read_all(repo: &Repo) -> Vec<TaskFile> {
    let names = ["Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", ".justfile"].into_iter().chain([
        "Taskfile.yml",
        "Taskfile.yaml",
        "taskfile.yml",
        "taskfile.yaml",
    ]);
    let mut files: Vec<&RelPath> = names.flat_map(|name| repo.named(name)).collect();
    files.sort_unstable();
    let mut found = Vec::new();
    for rel in files {
        if rel.depth() > MAX_DEPTH || !is_own_path(rel) {
            continue;
        }
        let (tool, targets) = match rel.file_name() {
            "Makefile" | "makefile" | "GNUmakefile" => ("make", repo.read(rel).map(|t| make_targets(&t))),
            "justfile" | "Justfile" | ".justfile" => ("just", repo.read(rel).map(|t| just_recipes(&t))),
            _ => ("task", repo.read_yaml(rel).map(|docs| docs.first().map(taskfile_tasks).unwrap_or_default())),
        };
        if let Some(targets) = targets {
            found.push(TaskFile { path: rel.to_owned(), tool, targets });
        }
    }
    found
}

/// The recipe lines of the Makefile targets `command` runs with `make` from `dir` (`make
/// install-dev`, `make -C api test`): what CI's line does, where the repo says.
pub fn make_recipes(tasks: &[TaskFile], dir: &str, command: &str) -> Vec<String> {
    make_lines(tasks, dir, command, 0)
}

/// [`make_recipes`] with, before each target's recipe, those of its prerequisites, as make
/// runs them (`check: style test` runs `test`'s recipe), a few levels down.
pub fn make_runs(tasks: &[TaskFile], dir: &str, command: &str) -> Vec<String> {
    make_lines(tasks, dir, command, 3)
}

fn make_lines(tasks: &[TaskFile], dir: &str, command: &str, prerequisite_depth: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for words in commands(command).into_iter().filter(|w| w.first().is_some_and(|p| p == "make")) {
        let mut make_dir = RelPath::root().join_normalized(dir).unwrap_or_default();
        let mut targets = Vec::new();
        let mut args = words[1..].iter();
        while let Some(arg) = args.next() {
            if arg == "-C" {
                make_dir = args.next().and_then(|d| join_path(&make_dir, d)).unwrap_or_default();
            } else if !arg.starts_with('-') && !arg.contains('=') {
                targets.push(arg.as_str());
            }
        }
        let Some(file) = tasks.iter().find(|f| f.tool == "make" && f.path.parent() == make_dir) else { continue };
        let mut seen = Vec::new();
        for target in targets {
            target_lines(file, target, prerequisite_depth, &mut seen, &mut lines);
        }
    }
    lines
}

/// The lines `target` of `file` runs: its prerequisites' first (down to `depth` levels), then
/// its recipe; each target once.
fn target_lines<'f>(file: &'f TaskFile, target: &str, depth: usize, seen: &mut Vec<&'f str>, lines: &mut Vec<String>) {
    let Some(found) = file.targets.iter().find(|t| t.name == target && !seen.contains(&t.name.as_str())) else {
        return;
    };
    seen.push(&found.name);
    if depth > 0 {
        for prerequisite in &found.prerequisites {
            target_lines(file, prerequisite, depth - 1, seen, lines);
        }
    }
    lines.extend(found.recipe.iter().map(|(_, line)| line.clone()));
}

static MAKE_RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([A-Za-z0-9_][A-Za-z0-9_.\-/ ]*?)[[:space:]]*::?(?:[^=]|$)").expect("the make-rule pattern is valid")
});
static MAKE_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[ ]*(?:export[[:space:]]+|override[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(?::=|::=|\?=|\+=|=)[[:space:]]*(.*)$")
        .expect("the make-variable pattern is valid")
});
static MAKE_REFERENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]").expect("the make-reference pattern is valid"));

/// The rules of a Makefile with their recipes; `$(VAR)` references to simple variables of the
/// same file are substituted, continuation lines joined, `@`/`-`/`+` prefixes dropped.
fn make_targets(text: &str) -> Vec<Target> {
    let mut variables: HashMap<String, String> = HashMap::new();
    let mut targets: Vec<Target> = Vec::new();
    let mut in_recipe = false;
    let lines = logical_lines(text);
    for (line_no, line) in &lines {
        if let Some(command) = line.strip_prefix('\t') {
            if in_recipe && let Some(target) = targets.last_mut() {
                let command = command.trim().trim_start_matches(['@', '-', '+']).trim();
                target.recipe.push((Anchor::Line(*line_no), command.to_string()));
            }
            continue;
        }
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        in_recipe = false;
        if let Some(var) = MAKE_VARIABLE.captures(line) {
            variables.insert(var[1].to_string(), var[2].trim().to_string());
        } else if let Some(rule) = MAKE_RULE.captures(line) {
            in_recipe = true;
            // `test: build lint | order-only ; inline recipe`: the named targets it needs.
            let rest = line[rule.get(1).map_or(0, |m| m.end())..].trim_start().trim_start_matches(':');
            let rest = rest.split([';', '|', '#']).next().unwrap_or_default();
            let prerequisites: Vec<String> =
                rest.split_whitespace().filter(|n| !n.contains(['$', '%', '/', '='])).map(str::to_string).collect();
            for name in rule[1].split_whitespace().filter(|n| !n.starts_with('.')) {
                targets.push(Target {
                    name: name.to_string(),
                    at: Anchor::Line(*line_no),
                    recipe: Vec::new(),
                    prerequisites: prerequisites.clone(),
                });
            }
            if rule[1].split_whitespace().all(|n| n.starts_with('.')) {
                in_recipe = false;
            }
        }
    }
    for target in &mut targets {
        for (_, command) in &mut target.recipe {
            *command = MAKE_REFERENCE
                .replace_all(command, |c: &regex::Captures| {
                    variables.get(&c[1]).cloned().unwrap_or_else(|| c[0].to_string())
                })
                .into_owned();
        }
    }
    targets
}

/// Lines with `\` continuations joined, each with the number of its first physical line.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let (start, mut line) = match pending.take() {
            Some((start, mut acc)) => {
                acc.push(' ');
                acc.push_str(raw.trim());
                (start, acc)
            }
            None => (i + 1, raw.to_string()),
        };
        if line.ends_with('\\') {
            line.pop();
            pending = Some((start, line));
        } else {
            out.push((start, line));
        }
    }
    out.extend(pending);
    out
}

static JUST_RECIPE: LazyLock<Regex> = LazyLock::new(|| {
    // A name, its parameters (`version=""`, `*args="-x tests"`, `+FILES`, `$VAR`), one colon
    // (`:=` assigns a variable).
    Regex::new(
        r#"^@?([A-Za-z_][A-Za-z0-9_\-]*)(?:[[:space:]]+[*+$]?[A-Za-z_][A-Za-z0-9_\-]*(?:=(?:"[^"]*"|'[^']*'|[^[:space:]:'"]+))?)*[[:space:]]*:(?:[^=]|$)"#,
    )
    .expect("the just-recipe pattern is valid")
});

/// The recipes of a justfile and their bodies (indented lines).
fn just_recipes(text: &str) -> Vec<Target> {
    let mut targets: Vec<Target> = Vec::new();
    let mut in_recipe = false;
    for (line_no, line) in logical_lines(text) {
        if line.starts_with([' ', '\t']) {
            if in_recipe
                && let Some(target) = targets.last_mut()
                && !line.trim().is_empty()
            {
                target.recipe.push((Anchor::Line(line_no), line.trim().trim_start_matches(['@', '-']).to_string()));
            }
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        in_recipe = false;
        if let Some(recipe) = JUST_RECIPE.captures(&line) {
            in_recipe = true;
            targets.push(Target {
                name: recipe[1].to_string(),
                at: Anchor::Line(line_no),
                recipe: Vec::new(),
                prerequisites: Vec::new(),
            });
        }
    }
    targets
}

/// The tasks of a Taskfile (`tasks: {name: {cmds: [...]}}`, or a bare list of commands).
fn taskfile_tasks(doc: &Yaml) -> Vec<Target> {
    let Some(tasks) = doc["tasks"].as_hash() else { return Vec::new() };
    let mut targets = Vec::new();
    for (name, task) in tasks {
        let Some(name) = scalar(name) else { continue };
        let commands = match task {
            Yaml::Array(list) => list.clone(),
            _ => task["cmds"].as_vec().cloned().unwrap_or_default(),
        };
        let at = Anchor::Key(format!("tasks.{name}"));
        let recipe = commands
            .iter()
            .filter_map(|c| scalar(c).or_else(|| scalar(&c["cmd"])))
            .map(|c| (at.clone(), c))
            .collect::<Vec<_>>();
        targets.push(Target { name, at, recipe, prerequisites: Vec::new() });
    }
    targets
}

/// The service containers task recipes and package scripts start (`docker run -d -p
/// 6379:6379 redis` in a Makefile target, `"db": "docker run -d … postgres:16"`), each with
/// the place it is written, of kind Task.
pub fn docker_run_services(repo: &Repo, tasks: &[TaskFile]) -> Vec<JobService> {
    let mut found = Vec::new();
    for file in tasks {
        for target in &file.targets {
            for (at, command) in &target.recipe {
                // Make's `@` (silent), `-` (errors ignored) and `+` prefixes are not the command's.
                for words in commands(command.trim_start_matches(['@', '-', '+'])) {
                    found.extend(docker_run_service(&words, &file.at(at)));
                }
            }
        }
    }
    for dir in repo.project_dirs("package.json") {
        let manifest = dir.join(crate::rel_path::rel!("package.json"));
        let Some(json) = repo.read_json(&manifest) else { continue };
        let Some(scripts) = json.get("scripts").and_then(|s| s.as_object()) else { continue };
        for (name, body) in scripts {
            let Some(body) = body.as_str() else { continue };
            let source = Evidence::key(&manifest, format!("scripts.{name}")).of(Kind::Task);
            for words in commands(body) {
                found.extend(docker_run_service(&words, &source));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rel_path::rel;

    #[test]
    fn make_targets_and_recipes() {
        let text = "COMPOSE := docker compose -f docker/dev.yml\n.PHONY: test\n\ntest: deps\n\t@go test ./... \\\n\t  -race\nup:\n\t$(COMPOSE) up -d\nx = 1 # a:b\nsetup install:\n\tgo mod download\n";
        let targets = make_targets(text);
        let names: Vec<_> = targets.iter().map(|t| (t.name.as_str(), t.at.clone())).collect();
        let line = Anchor::Line;
        assert_eq!(names, [("test", line(4)), ("up", line(7)), ("setup", line(10)), ("install", line(10))]);
        assert_eq!(targets[0].recipe, [(line(5), "go test ./...  -race".to_string())]);
        assert_eq!(targets[1].recipe, [(line(8), "docker compose -f docker/dev.yml up -d".to_string())]);
        assert_eq!(targets[0].prerequisites, ["deps"]);
    }

    #[test]
    fn make_runs_a_target_s_prerequisites_first() {
        let text = "ifdef UV
    PIP := uv pip
else
    PIP := pip
endif
lint:
	ruff check .
test: | build
	python -m unittest
check: lint test $(EXTRA)
install-dev:
	$(PIP) install -e .[dev]
";
        let file = TaskFile { path: rel!("Makefile").to_owned(), tool: "make", targets: make_targets(text) };
        let files = [file];
        assert_eq!(make_runs(&files, "", "make check"), ["ruff check .", "python -m unittest"]);
        assert!(make_recipes(&files, "", "make check").is_empty(), "a rule without a recipe runs none of its own");
        // A conditional's indented assignment is a variable (the last one read wins).
        assert_eq!(make_recipes(&files, "", "make install-dev"), ["pip install -e .[dev]"]);
    }

    #[test]
    fn justfile_and_taskfile() {
        let recipes =
            just_recipes("set shell := [\"bash\"]\n\n# run the tests\ntest *ARGS:\n    cargo test {{ARGS}}\n");
        assert_eq!(recipes[0].name, "test");
        assert_eq!(recipes[0].recipe, [(Anchor::Line(5), "cargo test {{ARGS}}".to_string())]);
        let text = "python := \"\"\nsync version=\"\":\n    uv sync\ntest *args=\"-x --ff tests\" $CI='1': sync\n    uv run pytest {{args}}\n";
        let names: Vec<String> = just_recipes(text).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["sync", "test"], "parameters with defaults; a variable is no recipe");
        let doc = yaml_rust2::YamlLoader::load_from_str(
            "version: '3'\ntasks:\n  test:\n    cmds:\n      - pytest\n  up: [docker compose up]\n",
        )
        .unwrap();
        let tasks = taskfile_tasks(&doc[0]);
        assert_eq!((tasks[0].name.as_str(), &tasks[0].at), ("test", &Anchor::Key("tasks.test".into())));
        assert_eq!(tasks[1].recipe[0].1, "docker compose up");
    }
}
