//! Detector: task runners — Makefile, justfile, Taskfile.yml — and package.json scripts.
//!
//! A `test` target becomes a test command (`make test`, `just test`, `task test`); recipes
//! and scripts that run `docker compose … up` become start candidates; setup/install
//! targets are noted. Also the shared test-command recogniser used for CI steps.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::detectors::compose::{add_command_start, is_incidental_path, scalar, starts_of, without_starts};
use crate::detect::repo::{file_name, parent_dir};
use crate::detect::{Findings, Repo, Start};

/// A shell line that runs a project's tests, in any of the ecosystems detection covers.
static TEST_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?:^|[\s;&|(])(?:
            (?:npm|pnpm|yarn|bun|nr|ni)\b[^;&|]*?\s(?:run\s+)?test(?:[:\-_][\w:\-]*)?(?:\s|$)
          | (?:npm|pnpm)\s+t(?:\s|$)
          | (?:npx\s+|pnpm\s+exec\s+|yarn\s+|bunx\s+)?(?:vitest|jest|mocha|ava|playwright\s+test|cypress\s+run)\b
          | bun\s+test\b
          | deno\s+test\b
          | cargo\s+(?:\+\S+\s+)?(?:test|nextest)\b
          | go\s+test\b | gotestsum\b
          | (?:make|gmake)\b[^;&|]*?\s(?:test|tests|check|test-[\w\-]+|unit|unittest)(?:\s|$)
          | just\s+(?:\S+\s+)*?test[\w\-]*\b
          | task\s+test[\w:\-]*\b
          | (?:\./)?mvnw?\b[^;&|]*?\s(?:test|verify|integration-test|package|install)\b
          | (?:\./)?gradlew?\b[^;&|]*?\s(?:[\w:\-]*[Tt]est\w*|check|build)\b
          | (?:npx\s+)?(?:turbo|nx)\b[^;&|]*?\stest\b
          | (?:php\s+)?artisan\s+test\b
          | (?:python3?\s+-m\s+|uv\s+run\s+|poetry\s+run\s+|pdm\s+run\s+|pipenv\s+run\s+|hatch\s+run\s+)?pytest\b
          | (?:\S*/)?manage\.py\s+test\b
          | (?:\S*/)?(?:run[-_])?tests?(?:[-_][\w\-]*)?\.sh\b
          | (?:\./)?(?:scripts?|bin)/(?:run[-_])?tests?(?:[-_][\w\-]*)?(?:\.\w+)?(?:\s|$)
          | python3?\s+-m\s+unittest\b
          | (?:tox|nox)(?:\s|$)
          | hatch\s+(?:run\s+)?test\b
          | (?:bundle\s+exec\s+)?(?:rspec|rake\s+(?:test|spec)|rails\s+test|bin/rails\s+test|bin/rspec)\b
          | bundle\s+exec\s+rake\s*$
          | mix\s+test\b
          | (?:vendor/bin/|\./vendor/bin/)?(?:phpunit|pest|paratest)\b
          | composer\s+(?:run(?:-script)?\s+)?test\b
          | dotnet\s+test\b
          | swift\s+test\b
          | (?:dart|flutter)\s+test\b
          | zig\s+build\s+test\b
          | ctest\b
          | (?:stack|cabal)\s+test\b
          | sbt\b[^;&|]*?\btest\b
          | lein\s+test\b
          | clojure\s+-[MX]:test\b | clj\s+-[MX]:test\b
        )",
    )
    .expect("the test-command pattern is valid")
});

/// A command that installs packages: `uv pip install pytest-cov` mentions a test tool but runs no tests.
static INSTALL_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        ^\s*(?:sudo\s+)?(?:
            (?:uv\s+)?pip3?|python3?\s+-m\s+pip|uv|npm|pnpm|yarn|bun|gem|cargo|go|apt|apt-get|brew
          | composer|poetry|pipx|pdm|dotnet\s+tool|mix\s+archive
        )\s+(?:install|uninstall|add|remove|require|i|get)\b",
    )
    .expect("the install-command pattern is valid")
});

const SKIP_TEST_FLAGS: &[&str] = &["-DskipTests", "-DskipTests=true", "-Dmaven.test.skip", "-Dmaven.test.skip=true"];

/// True when `line` runs tests (`pnpm run test-unit`, `cargo test --workspace`, `make test`,
/// `vendor/bin/phpunit`, `mvn -B verify`, `bundle exec rspec`, …).
pub fn is_test_command(line: &str) -> bool {
    let line = line.trim();
    // `mvn verify -DskipTests`, `gradle build -x test`: builds that leave the tests out.
    let skips_tests = line.split_whitespace().any(|w| SKIP_TEST_FLAGS.contains(&w))
        || line.contains(" -x test")
        || line.contains("--exclude-task test");
    !line.starts_with('#')
        && !line.starts_with("echo ")
        && !skips_tests
        && split_commands(line).any(|part| !INSTALL_COMMAND.is_match(part) && TEST_COMMAND.is_match(part))
}

/// The commands of a shell line joined by `&&`, `||` or `;`.
fn split_commands(line: &str) -> impl Iterator<Item = &str> {
    line.split("&&").flat_map(|part| part.split("||")).flat_map(|part| part.split(';'))
}

/// Target names that run the test suite, best first.
const TEST_TARGETS: &[&str] =
    &["test", "tests", "test-all", "test-unit", "unit-test", "unit-tests", "unittest", "spec"];
/// Target names that prepare a development environment.
const SETUP_TARGETS: &[&str] =
    &["setup", "install", "bootstrap", "deps", "dependencies", "init", "dev-setup", "setup-dev", "install-deps"];

/// Task files deeper than this (root = 0) are helpers of sub-components, not entry points.
const MAX_DEPTH: usize = 2;

/// Everything but the start candidates, which the compose detector puts in order with those
/// of the other sources (detectors run independently of each other).
pub fn detect(repo: &Repo, out: &mut Findings) {
    without_starts(repo, out, analyze);
}

/// The start candidates of this detector, for the compose detector.
pub fn starts(repo: &Repo) -> Vec<Start> {
    starts_of(repo, analyze)
}

fn analyze(repo: &Repo, out: &mut Findings) {
    let names = ["Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", ".justfile"].into_iter().chain([
        "Taskfile.yml",
        "Taskfile.yaml",
        "taskfile.yml",
        "taskfile.yaml",
    ]);
    let mut files: Vec<&str> = names.flat_map(|name| repo.named(name)).collect();
    files.sort_unstable();
    for rel in files {
        if rel.matches('/').count() > MAX_DEPTH || is_incidental_path(rel) {
            continue;
        }
        match file_name(rel) {
            "Makefile" | "makefile" | "GNUmakefile" => {
                if let Some(text) = repo.read(rel) {
                    report_targets(repo, rel, "make", &make_targets(&text), out);
                }
            }
            "justfile" | "Justfile" | ".justfile" => {
                if let Some(text) = repo.read(rel) {
                    report_targets(repo, rel, "just", &just_recipes(&text), out);
                }
            }
            "Taskfile.yml" | "Taskfile.yaml" | "taskfile.yml" | "taskfile.yaml" => {
                if let Some(docs) = repo.read_yaml(rel) {
                    let targets = docs.first().map(taskfile_tasks).unwrap_or_default();
                    report_targets(repo, rel, "task", &targets, out);
                }
            }
            _ => {}
        }
    }
    for rel in repo.named("package.json") {
        if !is_incidental_path(rel) {
            package_scripts(repo, rel, out);
        }
    }
}

/// A target (or recipe, or task) and the shell lines it runs, each with where it is in its
/// file (`:12` or `#tasks.test`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    name: String,
    at: String,
    recipe: Vec<(String, String)>,
}

fn report_targets(repo: &Repo, rel: &str, tool: &str, targets: &[Target], out: &mut Findings) {
    let dir = parent_dir(rel);
    let invoke = |target: &str| match (tool, dir) {
        (_, "") => format!("{tool} {target}"),
        ("make", dir) => format!("make -C {dir} {target}"),
        ("task", dir) => format!("task -d {dir} {target}"),
        (_, dir) => format!("cd {dir} && {tool} {target}"),
    };
    let best_test = TEST_TARGETS.iter().find_map(|want| targets.iter().find(|t| t.name == *want));
    if let Some(target) = best_test {
        out.test(invoke(&target.name), format!("{rel}{}", target.at));
    }
    for target in targets.iter().filter(|t| SETUP_TARGETS.contains(&t.name.as_str())) {
        out.note(format!("`{}` prepares a development environment ({rel}{})", invoke(&target.name), target.at));
    }
    for target in targets {
        for (at, command) in &target.recipe {
            add_command_start(repo, out, dir, command, format!("{rel}{at}"));
        }
    }
}

static MAKE_RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([A-Za-z0-9_][A-Za-z0-9_.\-/ ]*?)\s*::?(?:[^=]|$)").expect("the make-rule pattern is valid")
});
static MAKE_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::=|::=|\?=|\+=|=)\s*(.*)$")
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
                target.recipe.push((format!(":{line_no}"), command.to_string()));
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
            for name in rule[1].split_whitespace().filter(|n| !n.starts_with('.')) {
                targets.push(Target { name: name.to_string(), at: format!(":{line_no}"), recipe: Vec::new() });
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
    Regex::new(r"^@?([A-Za-z_][A-Za-z0-9_\-]*)(?:\s+[^:=]*)?:(?:[^=]|$)").expect("the just-recipe pattern is valid")
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
                target.recipe.push((format!(":{line_no}"), line.trim().trim_start_matches(['@', '-']).to_string()));
            }
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        in_recipe = false;
        if let Some(recipe) = JUST_RECIPE.captures(&line) {
            in_recipe = true;
            targets.push(Target { name: recipe[1].to_string(), at: format!(":{line_no}"), recipe: Vec::new() });
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
        let at = format!("#tasks.{name}");
        let recipe = commands
            .iter()
            .filter_map(|c| scalar(c).or_else(|| scalar(&c["cmd"])))
            .map(|c| (at.clone(), c))
            .collect::<Vec<_>>();
        targets.push(Target { name, at, recipe });
    }
    targets
}

/// `package.json` scripts that bring services up with `docker compose`.
fn package_scripts(repo: &Repo, rel: &str, out: &mut Findings) {
    let Some(manifest) = repo.read_json(rel) else { return };
    let Some(scripts) = manifest.get("scripts").and_then(|s| s.as_object()) else { return };
    let dir = parent_dir(rel);
    for (name, script) in scripts {
        if let Some(script) = script.as_str() {
            add_command_start(repo, out, dir, script, format!("{rel}#scripts.{name}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::detectors::compose::tests::repo_with;

    #[test]
    fn recognises_test_commands() {
        for line in [
            "pnpm test",
            "pnpm run test-unit",
            "npm run test:ci",
            "yarn test --coverage",
            "pnpm -r --filter ./packages test",
            "npx vitest run",
            "cargo test --workspace",
            "cargo +nightly test",
            "go test -race ./...",
            "make test",
            "make -C backend test",
            "vendor/bin/phpunit --no-coverage",
            "./mvnw -B verify",
            "mvn clean test --projects gson",
            "./gradlew check",
            "./gradlew :app:testDebugUnitTest",
            "uv run pytest -q",
            "python -m pytest tests",
            "python manage.py test",
            "python netbox/manage.py test netbox/ --parallel",
            "coverage run -m pytest tests/",
            "uv run bash scripts/tests-start.sh",
            "./run_tests.sh",
            "bundle exec rspec",
            "bin/rails test",
            "mix test --cover",
            "dotnet test",
            "swift test",
            "flutter test",
            "zig build test",
            "ctest --output-on-failure",
            "stack test",
            "sbt +test",
            "lein test",
            "clojure -M:test",
            "cd api && go test ./...",
            "tox -e py312",
            "deno test -A",
            "./gradlew build --scan",
            "mvn -B install",
            "npx turbo run test --filter=web",
            "php artisan test --parallel",
            "bundle exec rake",
            "scripts/test",
            "./script/test --fast",
            "bin/test-unit",
        ] {
            assert!(is_test_command(line), "{line}");
        }
        for line in [
            "pnpm install",
            "cargo build --workspace",
            "echo go test",
            "# make test",
            "npm run lint",
            "mvn -B package -DskipTests",
            "mvn dependency:go-offline",
            "bundle exec rake db:migrate",
            "./gradlew assemble",
            "mvn clean verify -Dmaven.test.skip --projects x",
            "./gradlew build -x test",
            "go vet ./...",
            "pnpm run check",
            "make build",
            "latest-version",
            "scripts/testdata.sh",
            "./contest.sh",
            "uv pip install pytest-cov",
            "python -m pip install pytest pytest-xdist",
            "npm install --save-dev jest",
            "uv pip uninstall pytest-speed",
            "yarn remove jest",
        ] {
            assert!(!is_test_command(line), "{line}");
        }
    }

    #[test]
    fn make_targets_and_recipes() {
        let text = "COMPOSE := docker compose -f docker/dev.yml\n.PHONY: test\n\ntest: deps\n\t@go test ./... \\\n\t  -race\nup:\n\t$(COMPOSE) up -d\nx = 1 # a:b\nsetup install:\n\tgo mod download\n";
        let targets = make_targets(text);
        let names: Vec<_> = targets.iter().map(|t| (t.name.as_str(), t.at.as_str())).collect();
        assert_eq!(names, [("test", ":4"), ("up", ":7"), ("setup", ":10"), ("install", ":10")]);
        assert_eq!(targets[0].recipe, [(":5".to_string(), "go test ./...  -race".to_string())]);
        assert_eq!(targets[1].recipe, [(":8".to_string(), "docker compose -f docker/dev.yml up -d".to_string())]);
    }

    #[test]
    fn makefile_gives_test_setup_and_start() {
        let (_dir, repo) = repo_with(&[
            (
                "Makefile",
                "COMPOSE=docker compose -f docker/dev.yml\ninstall:\n\tnpm ci\ntest:\n\tgo test ./...\nservices:\n\t$(COMPOSE) up -d --wait\n",
            ),
            ("docker/dev.yml", "services:\n  db:\n    image: postgres:16\n  web:\n    build: ..\n"),
            ("api/justfile", "set shell := [\"bash\"]\n\n# run the tests\ntest *ARGS:\n    cargo test {{ARGS}}\n"),
            ("worker/Taskfile.yml", "version: '3'\ntasks:\n  test:\n    cmds:\n      - pytest\n"),
            ("a/b/c/Makefile", "test:\n\ttrue\n"),
        ]);
        let mut out = Findings::default();
        analyze(&repo, &mut out);
        let tests: Vec<_> = out.tests.iter().map(|t| (t.command.as_str(), t.source.as_str())).collect();
        assert_eq!(
            tests,
            [
                ("make test", "Makefile:4"),
                ("cd api && just test", "api/justfile:4"),
                ("task -d worker test", "worker/Taskfile.yml#tasks.test")
            ]
        );
        assert_eq!(out.starts.len(), 1);
        assert_eq!(out.starts[0].command, "docker compose -f docker/dev.yml up -d db");
        assert_eq!(out.starts[0].source, "Makefile:7");
        assert!(out.notes.iter().any(|n| n.contains("`make install`")));
    }

    #[test]
    fn package_scripts_that_start_compose() {
        let (_dir, repo) = repo_with(&[
            (
                "web/package.json",
                r#"{"scripts": {"db:up": "docker compose -f ../infra/compose.yml up -d", "dev": "vite"}}"#,
            ),
            ("infra/compose.yml", "services:\n  redis:\n    image: redis:7\n"),
        ]);
        let mut out = Findings::default();
        analyze(&repo, &mut out);
        assert_eq!(out.starts.len(), 1);
        assert_eq!(out.starts[0].command, "docker compose -f infra/compose.yml up -d redis");
        assert_eq!(out.starts[0].source, "web/package.json#scripts.db:up");
    }
}
