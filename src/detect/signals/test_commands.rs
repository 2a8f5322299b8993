//! Test commands from CI (the lines of its jobs that run tests), task files (the best
//! `test` target) and dev shells (a devbox `test` script); the ecosystems add their own
//! defaults and package scripts. Task-file targets that prepare a development environment
//! are noted. Merge ranks them: CI first, then scripts and task files, then defaults.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ships;
use crate::detect::ecosystems::{self, is_test_command, node};
use crate::detect::findings::{Evidence, Findings, Kind, Phase, Step, TestCommand};
use crate::detect::signals::relevance::runs_tests_line;
use crate::detect::sources::devshells::ShellKind;
use crate::detect::sources::shell::{commands, in_dir, join_path, quote, script_path};
use crate::detect::sources::workflows::{Job, RUNNER_VARIABLES, RunLine, SHELL_VARIABLE};
use crate::detect::sources::{Sources, tasks};
use crate::rel_path::{RelPath, RelPathBuf};

/// Target names that run the test suite, best first.
const TEST_TARGETS: &[&str] =
    &["test", "tests", "test-all", "test-unit", "unit-test", "unit-tests", "unittest", "spec"];
/// The install of the tool a CI test command runs (`c8 npm test`) when the job's earlier
/// `lines` put it on PATH with npm's global install (`npm install -g c8`), and that line's
/// evidence: the project's own install does not bring it.
fn global_tool_of(lines: &[RunLine], command: &str) -> Option<(String, Evidence)> {
    let (_, program) = crate::detect::sources::shell::split_prefix(command);
    let program = program.split_whitespace().next()?;
    for line in lines {
        for words in commands(&line.text) {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let Some(global) = node::globally_installed(&words) else { continue };
            for spec in global.iter().filter(|w| !w.starts_with('-') && !w.contains('$')) {
                // `c8@10` and `@scope/tool@1` name the tool by the package's last part.
                let name = spec.strip_prefix('@').map_or(*spec, |rest| rest.split_once('/').map_or(rest, |(_, n)| n));
                let name = name.split('@').next().unwrap_or(name);
                if name == program {
                    let quoted = quote(spec);
                    let step = node::install_globally_when_missing(program, &quoted);
                    return Some((step, line.source.clone()));
                }
            }
        }
    }
    None
}

/// Target names that prepare a development environment.
const SETUP_TARGETS: &[&str] =
    &["setup", "install", "bootstrap", "deps", "dependencies", "init", "dev-setup", "setup-dev", "install-deps"];

pub fn detect(sources: &Sources, out: &mut Findings) {
    for command in sources.agent_commands() {
        if is_test_command(&command.command) {
            out.test(command.command.clone(), command.source.clone());
        }
    }
    for job in &sources.workflows().jobs {
        // A line that also ships (`pytest && twine upload dist/*`) is not one to run.
        // Nor one in a folder an earlier step made (`dotnet new … --output generated`).
        let in_checkout = |dir: &RelPath| dir.is_root() || sources.repo().has_dir(dir);
        let built_first = built_in_another_job(sources, job);
        // Read once per job, each line with its place: what a test line gets is what came
        // before it, a few at most whatever the workflow holds.
        let placed: Vec<(usize, Step)> = job
            .lines
            .iter()
            .enumerate()
            .flat_map(|(i, before)| placed_files(sources, before).into_iter().map(move |step| (i, step)))
            .take(MAX_BEFORE_A_TEST)
            .collect();
        let builds: Vec<(usize, Option<RelPathBuf>, String)> = job
            .lines
            .iter()
            .enumerate()
            .filter(|(_, line)| !line.in_foreign_checkout)
            .map(|(i, line)| {
                let (dir, command) = place(line);
                (i, dir, command)
            })
            .filter(|(_, dir, command)| dir.is_some() && BUILD_SCRIPT.is_match(command))
            .take(MAX_BEFORE_A_TEST)
            .collect();
        for (index, line) in job
            .lines
            .iter()
            .enumerate()
            // A test line missing a value CI gives it is not the test CI runs.
            .filter(|(_, line)| {
                runs_tests_line(line) && !ships(&line.text) && in_checkout(&line.dir) && !line.unresolved
            })
        {
            if let Some(test) = standalone_test(&line.text, &line.loop_variables) {
                // What the command runs, where the repo says: a make target's recipe, a tox
                // environment's commands, the lines of a script named for tests (`bash
                // scripts/test-files.sh` may only grep the docs; `./mvnw` is a tool).
                let mut runs = tasks::make_recipes(sources.tasks(), &line.dir, &test);
                if runs.is_empty() {
                    runs = ecosystems::lines_run_by(sources, &line.dir, &test);
                }
                let program = ecosystems::without_runner(&test);
                if runs.is_empty() && runs_a_test_script(&program) {
                    runs = repo_script(sources, &line.dir, &program)
                        .map(|text| text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
                        .unwrap_or_default();
                }
                // What the step sets goes with the command (`PGUSER=postgres yarn test`), and
                // what the runner sets when the repo's own script reads it.
                let mut test = line.env_words() + &runner_words(sources, line, &test) + &test;
                // On the channel the job sets up (`cargo +nightly test`), which install gets
                // when this test is the primary.
                let mut channel_install = None;
                if let Some((on_channel, install, source)) = ecosystems::on_setup_channel(&job.actions, &test) {
                    channel_install = Some(Step::shell(Phase::Toolchain, install, source.clone()));
                    test = on_channel;
                }
                let command = if line.dir.is_empty() { test } else { format!("cd {} && {test}", line.dir) };
                if let Some(step) = ecosystems::task_runner_when_missing(&command) {
                    out.step(Phase::Toolchain, step, line.source.clone());
                }
                if let Some((step, source)) = global_tool_of(&job.lines[..index], &command) {
                    out.step(Phase::Toolchain, step, source);
                }
                let placed_first = channel_install
                    .into_iter()
                    .chain(placed.iter().filter(|(i, _)| *i < index).map(|(_, step)| step.clone()))
                    .collect();
                // The job's own builds, in the test's folder, as the test runs them: every
                // time, so that an edit is tested built.
                let (test_dir, _) = place(line);
                let built_here =
                    builds.iter().filter(|(i, dir, _)| *i < index && *dir == test_dir).map(|(_, dir, command)| {
                        // On the job's channel, as the test (`cargo +1.87.0 build`).
                        let command = ecosystems::on_setup_channel(&job.actions, command)
                            .map_or_else(|| command.clone(), |(on_channel, _, _)| on_channel);
                        in_dir(dir.as_deref().unwrap_or(RelPath::root()), &command)
                    });
                out.ci_test(TestCommand {
                    command,
                    source: line.source.clone(),
                    runs,
                    partial: job.partial,
                    built_first: built_first.iter().cloned().chain(built_here).collect(),
                    placed_first,
                    primary: false,
                });
            }
        }
    }
    for file in sources.tasks() {
        let best = TEST_TARGETS.iter().find_map(|want| file.targets.iter().find(|t| t.name == *want));
        if let Some(target) = best {
            let recipe = target.recipe.iter().map(|(_, line)| line.clone()).collect();
            let command = file.invoke(&target.name);
            if let Some(step) = ecosystems::task_runner_when_missing(&command) {
                out.step(Phase::Toolchain, step, Evidence::file(&file.path).of(Kind::Task));
            }
            out.test_running(command, file.at(&target.at), recipe);
        }
        for target in file.targets.iter().filter(|t| SETUP_TARGETS.contains(&t.name.as_str())) {
            out.note(format!(
                "`{}` prepares a development environment ({})",
                file.invoke(&target.name),
                file.at(&target.at)
            ));
        }
    }
    for shell in sources.devshells().iter().filter(|s| s.kind == ShellKind::Devbox && s.test_script) {
        let command = match shell.path.parent() {
            dir if dir.is_root() => "devbox run test".to_string(),
            dir => format!("cd {dir} && devbox run test"),
        };
        out.test(command, Evidence::key(&shell.path, "shell.scripts.test").of(Kind::Task));
    }
}

/// The lines another CI job runs to build what `job` tests: `job` downloads an artifact
/// (`actions/download-artifact`, `name: build`) that job uploads, and uses it in place. An
/// artifact the job installs (`pip install dist/*.whl`) is a package of the checkout, which
/// install already installs. The builder's lines that install, test, ship or also run in
/// `job` are left out; a build of more than three lines is not inlined.
fn built_in_another_job(sources: &Sources, job: &Job) -> Vec<String> {
    let jobs = &sources.workflows().jobs;
    for (name, path) in job.downloads() {
        let folder = path.trim_matches('/');
        let installs_it = job.lines.iter().any(|line| {
            ecosystems::is_install_command(&line.text)
                && (if folder.is_empty() {
                    PACKAGE_FILES.iter().any(|p| line.text.contains(p))
                } else {
                    line.text.contains(folder)
                })
        });
        let builders = || jobs.iter().filter(|k| k.source != job.source && k.uploads().iter().any(|(n, _)| *n == name));
        let builder = builders().find(|k| k.source.path == job.source.path).or_else(|| builders().next());
        let Some(builder) = builder.filter(|_| !installs_it) else { continue };
        let own: std::collections::HashSet<&str> = job.lines.iter().map(|l| l.text.as_str()).collect();
        let lines: Vec<String> = builder
            .lines
            .iter()
            .filter(|l| !l.in_foreign_checkout && !ships(&l.text) && !ecosystems::is_install_command(&l.text))
            .filter(|l| !is_test_command(&l.text) && !own.contains(l.text.as_str()))
            .map(|l| in_dir(&l.dir, &l.text))
            .collect();
        if (1..=3).contains(&lines.len()) {
            return lines;
        }
    }
    Vec::new()
}

/// A package script or task-file target named for building (`yarn build`, `pnpm run
/// compile`, `make build`, GitHub's Node starter's `npm run build --if-present`), or a plain
/// build an ecosystem declares (`cargo build --verbose`): what a test job runs before its tests because
/// they use its output (bullmq's child-process tests load `dist/`, goblin's read
/// `target/debug/libgoblin.rlib`).
static BUILD_SCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    let runners = ecosystems::script_runner_alternatives();
    let builds = ecosystems::build_command_alternatives();
    Regex::new(&format!(
        r"^(?:(?:(?:{runners})[[:space:]]+(?:run[[:space:]]+)?|(?:make|just|task)[[:space:]]+)(?:build|compile)(?::[[:word:]-]+)?(?:[[:space:]]+--if-present)?|{builds})$"
    ))
    .expect("the build-script pattern is valid")
});

/// At most this many files made, or builds run, before one CI test line.
const MAX_BEFORE_A_TEST: usize = 16;

/// Where a CI line runs, past a `cd DIR && ` of its own (`None` outside the checkout), and
/// what it runs there.
fn place(line: &RunLine) -> (Option<RelPathBuf>, String) {
    let text = line.text.trim();
    match text.strip_prefix("cd ").and_then(|rest| rest.split_once(" && ")) {
        Some((dir, command)) => (join_path(&line.dir, dir.trim()), command.trim().to_string()),
        None => (Some(line.dir.clone()), text.to_string()),
    }
}

/// What a built package's file name has: a wheel, an sdist, an npm tarball.
const PACKAGE_FILES: &[&str] = &[".whl", ".tar.gz", ".tgz", "dist/"];

/// The install steps for a file a CI line makes from one the repo commits where the
/// checkout has none: `cp .env.example .env`, `mv config.sample.json config.json` (copied:
/// the sample stays), `cp ci/config/* config/`, `jq … ormconfig.sample.json >
/// ormconfig.json`, `envsubst < app.tmpl > app.conf`. A file already there is left alone,
/// the repo's and the developer's alike.
fn placed_files(sources: &Sources, line: &RunLine) -> Vec<Step> {
    let repo = sources.repo();
    if line.in_foreign_checkout || commands(&line.text).len() != 1 {
        return Vec::new();
    }
    let path = |rel: &str| join_path(&line.dir, rel).filter(|p| !p.is_root());
    // A folder the job makes first (`mkdir .cargo`) goes with other steps of a build.
    let in_a_committed_folder = |target: &RelPath| target.parent().is_root() || repo.has_dir(target.parent());
    let words = shell_words::split(&line.text).unwrap_or_default();
    match words.first().map(String::as_str) {
        Some("cp" | "mv") => {
            let args: Vec<&str> = words[1..].iter().map(String::as_str).filter(|w| !w.starts_with('-')).collect();
            let [from, to] = args[..] else { return Vec::new() };
            let files: Vec<RelPathBuf> = match from.strip_suffix("/*") {
                Some(folder) => path(folder)
                    .map(|folder| {
                        repo.under(&folder).filter(|f| f.dir() == folder).map(|f| f.path().to_owned()).collect()
                    })
                    .unwrap_or_default(),
                None => path(from).filter(|p| repo.exists(p)).into_iter().collect(),
            };
            let Some(to) = path(to) else { return Vec::new() };
            let into_folder = files.len() > 1 || repo.has_dir(&to) || words.last().is_some_and(|w| w.ends_with('/'));
            files
                .iter()
                .map(|file| (file, if into_folder { to.join(RelPath::trusted(file.file_name())) } else { to.clone() }))
                .filter(|(_, target)| !repo.exists(target) && in_a_committed_folder(target))
                .map(|(file, target)| format!("[ -e {0} ] || cp {1} {0}", quote(&target), quote(file)))
                .map(|command| Step::shell(Phase::Build, command, line.source.clone()))
                .collect()
        }
        Some("jq" | "yq" | "sed" | "envsubst" | "cat") => {
            let Some((made_by, target)) = line.text.rsplit_once('>') else { return Vec::new() };
            let (made_by, target) = (made_by.trim_end(), target.trim());
            let plain_target = !target.is_empty() && !target.contains(['\'', '"', ' ', '$', '`']);
            let redirect_out = !made_by.ends_with(['>', '2', '&']);
            let reads_committed = shell_words::split(made_by)
                .unwrap_or_default()
                .iter()
                .skip(1)
                .any(|w| path(w.trim_start_matches('<')).is_some_and(|p| repo.exists(&p)));
            let placeable = path(target).is_some_and(|p| !repo.exists(&p) && in_a_committed_folder(&p));
            if !(plain_target && redirect_out && reads_committed && placeable) {
                return Vec::new();
            }
            let warning = format!("echo \"hanzo-env: warning: could not make {target} as CI does\" >&2");
            let command = format!("[ -e {target} ] || {made_by} > {target} || {{ rm -f {target}; {warning}; }}");
            vec![Step::shell(Phase::Build, command, line.source.clone()).in_dir(&line.dir)]
        }
        _ => Vec::new(),
    }
}

/// `NAME=value ` words for the [`RUNNER_VARIABLES`] the repo script `test` starts with
/// reads (`scripts/test`, `sh ./ci/test.sh`) and its step does not set: outside CI the
/// script would run more than CI's test step does.
fn runner_words(sources: &Sources, line: &RunLine, test: &str) -> String {
    let unset = |name: &str| !line.env.iter().any(|(set, _)| set == name);
    let Some(text) = repo_script(sources, &line.dir, test) else {
        // What the ecosystem says its runner behaves by (`CI=true yarn test:app` for vitest).
        let needed = ecosystems::runner_env(sources, &line.dir, test);
        return needed
            .into_iter()
            .filter(|(name, _)| unset(name))
            .map(|(name, value)| format!("{name}={value} "))
            .collect();
    };
    RUNNER_VARIABLES
        .iter()
        .filter(|(name, _)| unset(name) && reads_variable(&text, name))
        .map(|(name, value)| format!("{name}={value} "))
        .collect()
}

/// The text of the repo's script that `command` (run from `dir`) starts with: `scripts/test`,
/// `./ci/test.sh`, `bash scripts/test.sh`.
fn repo_script(sources: &Sources, dir: &str, command: &str) -> Option<std::sync::Arc<str>> {
    let words = commands(command).into_iter().next()?;
    let path = script_path(dir, &words)?;
    let repo = sources.repo();
    repo.exists(&path).then(|| repo.read(&path)).flatten()
}

/// Whether `command` starts with a script (`sh X`, `bash X` or `X`) whose name says it tests.
fn runs_a_test_script(command: &str) -> bool {
    let words = commands(command).into_iter().next().unwrap_or_default();
    script_path("", &words).is_some_and(|path| path.file_name().to_ascii_lowercase().contains("test"))
}

/// Whether shell `text` reads `$name` or `${name…}`.
fn reads_variable(text: &str, name: &str) -> bool {
    text.match_indices('$').any(|(at, _)| {
        let rest = &text[at + 1..];
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        rest.strip_prefix(name).is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// A test line of a script as a command that runs on its own: the shell's control words
/// around it (`if …; then`, `… || failed=1`, `… || true`) removed; `None` when it reads a
/// loop variable of the script, or only runs on Windows.
fn standalone_test(line: &str, loop_variables: &[String]) -> Option<String> {
    let mut command = line.trim();
    for word in ["if ", "elif ", "while ", "then ", "do ", "! "] {
        command = command.strip_prefix(word).unwrap_or(command).trim_start();
    }
    for control in ["; then", "; do"] {
        command = command.strip_suffix(control).unwrap_or(command).trim_end();
    }
    // `cmd || failed=1`: what follows the last `||` only handles the failure.
    while let Some((run, fallback)) = command.rsplit_once("||") {
        if is_test_command(fallback) {
            break;
        }
        command = run.trim_end();
    }
    // `… && cd ..` only returns; a Windows batch or PowerShell script does not run here.
    command = command.strip_suffix("&& cd ..").unwrap_or(command).trim_end();
    let windows_only = command.starts_with("call ")
        || command.split_whitespace().next().is_some_and(|program| {
            let program = program.to_ascii_lowercase();
            [".bat", ".cmd", ".ps1", ".exe"].iter().any(|e| program.ends_with(e))
        });
    if windows_only {
        return None;
    }
    let reads_loop_variable = SHELL_VARIABLE.captures_iter(command).any(|c| {
        let name = c.get(1).or_else(|| c.get(2)).map(|m| m.as_str()).unwrap_or_default();
        loop_variables.iter().any(|v| v == name)
    });
    // A matrix splitting the suite across machines (`--shard=1/4`) ran a quarter of it in
    // its first cell: here the suite runs whole.
    let whole = SHARD.replace_all(command, " ");
    (!command.is_empty() && !reads_loop_variable).then(|| whole.trim().to_string())
}

/// Jest's, Vitest's and Playwright's `--shard=I/N` (or `--shard I/N`).
static SHARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[[:space:]])--shard[=[:space:]][0-9]+/[0-9]+(?:[[:space:]]|$)")
        .expect("the shard pattern is valid")
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::run_signal;

    #[test]
    fn test_lines_lose_their_shell_control() {
        let loops = ["proj".to_string()];
        assert_eq!(standalone_test("if cargo test --all; then", &loops).as_deref(), Some("cargo test --all"));
        assert_eq!(standalone_test("yarn test --shard=1/4 --ci", &loops).as_deref(), Some("yarn test --ci"));
        assert_eq!(standalone_test("cargo test -p a || true", &loops).as_deref(), Some("cargo test -p a"));
        assert_eq!(
            standalone_test("make test || make test-verbose", &loops).as_deref(),
            Some("make test || make test-verbose")
        );
        assert_eq!(standalone_test(r#"dotnet test "$proj" || failed=1"#, &loops), None);
        assert_eq!(standalone_test("call script/test.bat :windows", &loops), None);
        assert_eq!(standalone_test(r".[[:space:]]cripts\test.ps1", &loops), None);
        assert_eq!(standalone_test("cd hex && mix test && cd ..", &loops).as_deref(), Some("cd hex && mix test"));
        assert_eq!(
            standalone_test("go test ./... -count=$COUNT", &loops).as_deref(),
            Some("go test ./... -count=$COUNT")
        );
    }

    #[test]
    fn ci_lines_task_targets_and_devbox_scripts() {
        let workflow = "jobs:\n  e2e:\n    defaults:\n      run:\n        working-directory: backend\n    steps:\n      - run: |\n          go test ./...\n          for p in a b; do\n            go test \"$p\"\n          done\n  downstream:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: org/plugin\n          path: plugin\n      - run: cd plugin && pytest\n      - run: |\n          cd plugin\n          pytest\n  template:\n    steps:\n      - run: dotnet new app --output generated\n      - run: dotnet test\n        working-directory: generated\n";
        // `generated` is made by an earlier step: not a folder of the checkout.
        let s = run_signal(
            detect,
            &[
                (".github/workflows/e2e.yml", workflow),
                ("backend/go.mod", "module example.com/backend\n"),
                ("Makefile", "COMPOSE=docker compose\ninstall:\n\tnpm ci\ntest:\n\tgo test ./...\n"),
                ("api/justfile", "test *ARGS:\n    cargo test {{ARGS}}\n"),
                ("worker/Taskfile.yml", "version: '3'\ntasks:\n  test:\n    cmds:\n      - pytest\n"),
                ("a/b/c/Makefile", "test:\n\ttrue\n"),
                ("web/devbox.json", r#"{"shell": {"scripts": {"test": "npm test"}}}"#),
            ],
        );
        let tests: Vec<_> = s.findings.tests.iter().map(|t| (t.command.as_str(), t.source.as_test_str())).collect();
        assert_eq!(
            tests,
            [
                ("cd backend && go test ./...", ".github/workflows/e2e.yml#jobs.e2e.steps[0]"),
                ("cd plugin && pytest", ".github/workflows/e2e.yml#jobs.downstream.steps[1]"),
                ("make test", "Makefile:4"),
                ("cd api && just test", "api/justfile:1"),
                ("task -d worker test", "worker/Taskfile.yml#tasks.test"),
                ("cd web && devbox run test", "web/devbox.json#shell.scripts.test"),
            ]
        );
        assert!(s.findings.notes.iter().any(|n| n.contains("`make install`")));
    }

    #[test]
    fn the_task_runner_a_test_calls_is_made_present() {
        let workflow =
            "jobs:\n  tests:\n    steps:\n      - run: task py:test\n        env:\n          DB_ENGINE: sqlite\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow), ("Taskfile.yml", "version: '3'\n")]);
        assert_eq!(s.tests(), ["DB_ENGINE=sqlite task py:test"]);
        assert_eq!(s.steps(), [ecosystems::TASK_WHEN_MISSING]);
        let s = run_signal(detect, &[("justfile", "test:\n  cargo test\n")]);
        assert_eq!(s.steps(), [ecosystems::JUST_WHEN_MISSING]);
        let s = run_signal(detect, &[("Makefile", "test:\n\tgo test ./...\n")]);
        assert!(s.steps().is_empty());
    }

    #[test]
    fn a_tool_ci_installs_globally_for_its_test_is_installed_too() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: |\n          npm install\n          npm install -g c8 @vitest/ui@2\n      - run: c8 npm test\n      - run: nyc npm test\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow), ("package.json", "{}")]);
        assert_eq!(s.steps(), ["command -v c8 >/dev/null 2>&1 || npm install -g c8"], "nyc is not installed by CI");
        assert_eq!(global_tool_of(&[], "c8 npm test"), None);
    }

    #[test]
    fn a_ci_test_that_watches_outside_ci_keeps_ci_set() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: yarn test:app\n      - run: yarn test:once\n";
        let package = r#"{"scripts": {"test:app": "vitest", "test:once": "vitest run"}}"#;
        let s = run_signal(detect, &[(".github/workflows/test.yml", workflow), ("package.json", package)]);
        let tests: Vec<&str> = s.findings.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(tests, ["CI=true yarn test:app", "yarn test:once"]);
    }

    #[test]
    fn a_build_the_test_job_runs_first_runs_with_the_test() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: yarn install --frozen-lockfile\n      - run: yarn build\n      - run: yarn lint\n      - run: yarn test\n      - run: cd docs && npm run build:site\n      - run: cd docs && npm test\n      - run: npm run build-storybook\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow), ("docs/package.json", "{}")]);
        let built: Vec<(&str, &[String])> =
            s.findings.tests.iter().map(|t| (t.command.as_str(), t.built_first.as_slice())).collect();
        // Only builds in the test's own folder; a script that only starts with the word is
        // something else (`build-storybook`).
        assert_eq!(
            built,
            [
                ("yarn test", ["yarn build".to_string()].as_slice()),
                ("cd docs && npm test", ["(cd docs && npm run build:site)".to_string()].as_slice()),
            ]
        );
    }

    #[test]
    fn a_plain_cargo_build_and_the_node_starter_s_build_run_before_the_test() {
        let rust = "jobs:\n  test:\n    steps:\n      - run: cargo build --verbose\n      - run: cargo build --release\n      - run: cargo test\n";
        let node = "jobs:\n  test:\n    steps:\n      - run: npm ci\n      - run: npm run build --if-present\n      - run: npm test\n";
        for (workflow, test, built) in
            [(rust, "cargo test", "cargo build --verbose"), (node, "npm test", "npm run build --if-present")]
        {
            let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow)]);
            let found = s.findings.tests.iter().find(|t| t.command == test).expect("CI's test");
            // A release build is a build of its own, not what the tests read.
            assert_eq!(found.built_first, [built.to_string()], "{workflow}");
        }
    }

    #[test]
    fn a_workflow_of_thousands_of_lines_gives_each_test_a_few_things_first() {
        let mut script = String::new();
        for i in 0..3000 {
            script.push_str(&format!(
                "          cp .env.example .env{i}\n          yarn build\n          yarn test --shard-of {i}\n"
            ));
        }
        let workflow = format!("jobs:\n  test:\n    steps:\n      - run: |\n{script}");
        let s = run_signal(detect, &[(".github/workflows/ci.yml", &workflow), (".env.example", "A=1\n")]);
        let last = s.findings.tests.last().expect("tests");
        assert_eq!((last.placed_first.len(), last.built_first.len()), (MAX_BEFORE_A_TEST, MAX_BEFORE_A_TEST));
    }

    #[test]
    fn files_a_test_job_makes_from_committed_ones_are_made_once_and_never_over_a_file() {
        let workflow = "jobs:\n  test:\n    steps:\n      - run: mv .env.example .env\n      - run: cp ci/conf/* config/\n      - run: cp ci/keep.yml config/keep.yml\n      - run: jq 'map(select(.type == \"sqlite\"))' orm.sample.json > orm.json\n      - run: |\n          mkdir .cargo\n          cp ci/vendor.toml .cargo/config.toml\n      - run: cp made-by-ci.txt x.txt\n      - run: jq . orm.sample.json > .cache/orm.json\n      - run: npm test\n      - run: cp .env.example .env.after\n";
        let files = [
            (".github/workflows/ci.yml", workflow),
            (".env.example", "A=1\n"),
            ("ci/conf/database.yml", "x"),
            ("ci/conf/master.key", "x"),
            ("ci/keep.yml", "x"),
            ("ci/vendor.toml", "x"),
            ("config/keep.yml", "mine"),
            ("config/app.rb", "x"),
            ("orm.sample.json", "[]"),
        ];
        let s = run_signal(detect, &files);
        let test = s.findings.tests.iter().find(|t| t.command == "npm test").expect("CI's test");
        let placed: Vec<String> = test.placed_first.iter().map(|step| step.command()).collect();
        // A sample moved into place is copied (it stays); a committed file is never replaced;
        // a folder CI makes first (`.cargo`, `.cache`) belongs to a build, not a config file.
        assert_eq!(
            placed,
            [
                "[ -e .env ] || cp .env.example .env",
                "[ -e config/database.yml ] || cp ci/conf/database.yml config/database.yml",
                "[ -e config/master.key ] || cp ci/conf/master.key config/master.key",
                "[ -e orm.json ] || jq 'map(select(.type == \"sqlite\"))' orm.sample.json > orm.json || { rm -f orm.json; echo \"hanzo-env: warning: could not make orm.json as CI does\" >&2; }",
            ]
        );
        assert_eq!(test.placed_first[0].evidence_text(), ".github/workflows/ci.yml#jobs.test.steps[0]");
        assert!(test.placed_first.iter().all(|step| step.phase == Phase::Build));
    }

    #[test]
    fn a_test_job_using_another_jobs_build_in_place_builds_first() {
        let action = "inputs:\n  download-build:\n    default: \"false\"\nruns:\n  using: composite\n  steps:\n    - run: pnpm install --frozen-lockfile\n      shell: bash\n    - uses: actions/download-artifact@v4\n      if: inputs.download-build == 'true'\n      with:\n        name: build\n        path: build/\n";
        let tests = "jobs:\n  build:\n    steps:\n      - uses: ./.github/actions/setup\n      - run: pnpm run compile\n      - uses: actions/upload-artifact@v4\n        with:\n          name: build\n          path: build/\n  sqlite:\n    needs: build\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          download-build: true\n      - run: pnpm run test:ci\n  plugin:\n    steps:\n      - uses: ./.github/actions/setup\n      - run: cd plugin && pnpm test\n";
        // A wheel the test job installs is a package of the checkout: nothing to build first.
        let wheels = "jobs:\n  wheel:\n    steps:\n      - run: python -m build\n      - uses: actions/upload-artifact@v4\n        with:\n          name: dist\n          path: dist/\n  test:\n    steps:\n      - uses: actions/download-artifact@v4\n        with:\n          name: dist\n          path: dist/\n      - run: pip install dist/*.whl\n      - run: pytest\n";
        let s = run_signal(
            detect,
            &[
                (".github/actions/setup/action.yml", action),
                (".github/workflows/tests.yml", tests),
                (".github/workflows/wheels.yml", wheels),
                ("plugin/package.json", "{}"),
            ],
        );
        let built: Vec<(&str, &[String])> =
            s.findings.tests.iter().map(|t| (t.command.as_str(), t.built_first.as_slice())).collect();
        assert_eq!(
            built,
            [
                ("pnpm run test:ci", ["pnpm run compile".to_string()].as_slice()),
                ("cd plugin && pnpm test", [].as_slice()),
                ("pytest", [].as_slice()),
            ]
        );
    }

    #[test]
    fn ci_env_goes_with_the_test_and_make_targets_bring_their_recipes() {
        let workflow = "env:\n  CARGO_TERM_COLOR: always\njobs:\n  db:\n    services:\n      pg:\n        image: postgres:16\n    env:\n      PGUSER: postgres\n      TOKEN: ${{ secrets.TOKEN }}\n    steps:\n      - run: make requirements check\n      - run: yarn test\n        env:\n          URLS: |\n            a,\n            b\n          FORCE_COLOR: 1\n  lint:\n    env:\n      LINT: 1\n    steps:\n      - run: cargo test\n";
        let makefile = "requirements:\n\tpip install -e .\ncheck:\n\truff check .\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow), ("Makefile", makefile)]);
        let tests: Vec<(&str, &[String])> =
            s.findings.tests.iter().map(|t| (t.command.as_str(), t.runs.as_slice())).collect();
        // The job's env reaches its tests only beside services (how they connect); the step's
        // always, colour settings too (a terminal library's suite asserts them); secrets and
        // expressions never.
        assert_eq!(
            tests[0],
            (
                "PGUSER=postgres make requirements check",
                ["pip install -e .".to_string(), "ruff check .".to_string()].as_slice()
            )
        );
        assert_eq!(tests[1].0, "PGUSER=postgres URLS='a,\nb' FORCE_COLOR=1 yarn test");
        assert_eq!(tests[2].0, "cargo test");
    }

    #[test]
    fn a_test_script_that_reads_the_runners_variables_gets_them() {
        let workflow = "jobs:\n  t:\n    steps:\n      - run: scripts/test\n      - run: sh ./ci/test.sh unit\n        env:\n          CI: 1\n      - run: pytest\n";
        let test = "#!/bin/sh\nif [ -z $GITHUB_ACTIONS ]; then\n  scripts/check\nfi\ncoverage run -m pytest $@\n";
        let run = "#!/bin/sh\n# on GITHUB_ACTIONS and CI alike\n[ -n \"${CI:-}\" ] && echo ci\necho $GITHUB_ACTIONS_X $CIRCLECI\npytest \"$@\"\n";
        let s =
            run_signal(detect, &[(".github/workflows/ci.yml", workflow), ("scripts/test", test), ("ci/test.sh", run)]);
        let tests: Vec<&str> = s.findings.tests.iter().map(|t| t.command.as_str()).collect();
        // Only what the script reads, and never over what the step sets.
        assert_eq!(tests, ["GITHUB_ACTIONS=true scripts/test", "CI=1 sh ./ci/test.sh unit", "pytest"]);
    }

    #[test]
    fn main_test_workflows_come_first() {
        let nightly = "jobs:\n  n:\n    steps:\n      - run: pytest tests/slow\n";
        let main = "jobs:\n  t:\n    steps:\n      - run: pytest\n";
        let s = run_signal(
            detect,
            &[(".github/workflows/a-nightly.yml", nightly), (".github/workflows/z-tests.yml", main)],
        );
        assert_eq!(s.tests(), ["pytest", "pytest tests/slow"]);
    }

    #[test]
    fn matrix_values_and_env_variables_resolve() {
        let workflow = "env:\n  CARGO: cargo\njobs:\n  t:\n    strategy:\n      matrix:\n        tests:\n          - name: unit\n            command: test\n          - name: system\n            command: test:system\n        java: [17, 21]\n        include:\n          - java: 11\n            extra: -Dx=1\n    env:\n      TEST_COMMAND: ${{ matrix.tests.command }}\n    steps:\n      - run: bin/rails $TEST_COMMAND\n      - run: mvn verify ${{ matrix.extra || '' }}\n      - run: $CARGO test --workspace\n";
        let s = run_signal(detect, &[(".github/workflows/test.yml", workflow)]);
        assert_eq!(s.tests(), ["bin/rails test", "mvn verify", "cargo test --workspace"]);
    }

    #[test]
    fn gitlab_and_circleci() {
        let gitlab = "image: python:3.12-slim\nvariables:\n  PYTEST: pytest -q\ntest:\n  script:\n    - pip install -r requirements.txt\n    - $PYTEST\n";
        let circle = "version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/ruby:3.3.1\n    steps:\n      - checkout\n      - run: bundle exec rspec\n      - run:\n          command: bin/rails test\n";
        let s = run_signal(detect, &[(".gitlab-ci.yml", gitlab), (".circleci/config.yml", circle)]);
        assert_eq!(s.tests(), ["pytest -q", "bundle exec rspec", "bin/rails test"]);
    }
}
