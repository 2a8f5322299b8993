//! Tests: deduplicated and ranked; the first is the primary, the one a developer runs.

use super::*;

/// `main` names the repository's main ecosystems (the most source files): of CI's test
/// jobs, theirs come first (a Python backend's `pytest` before its JS front end's `pnpm test`).
pub(super) fn merge_tests(mut tests: Vec<TestCommand>, managers: &[PackageManager], main: &[&str]) -> Vec<TestCommand> {
    let names: Vec<&str> = managers.iter().map(|m| m.name.as_str()).collect();
    for test in &mut tests {
        test.command = ecosystems::in_installed_environment(&test.command, &names);
    }
    // In rank order; the repo's own project before a subproject's (`cd elixir && mix test`
    // beside the root's `yarn test`), then CI's plain test job before its variants; a
    // command found twice keeps its best source.
    // A root that another language manages besides Node is that language's app, and its
    // package.json the browser front end's (a Rails or Laravel app's assets): of the same
    // standing, the app's tests come before the front end's (`bin/rspec` before `yarn test:js`).
    let ecosystem_of = |program: &str| ecosystems::owner_of_package_manager(program).map(|e| e.id);
    let app_beside_node =
        managers.iter().any(|m| m.path == "." && ecosystem_of(&m.name).is_some_and(|id| id != "node" && id != "cpp"))
            && managers.iter().any(|m| m.path == "." && ecosystem_of(&m.name) == Some("node"));
    let front_end = |t: &TestCommand| {
        let program = shell::split_prefix(&t.command).1.split_whitespace().next().unwrap_or_default();
        app_beside_node && (program == "npx" || ecosystem_of(program) == Some("node"))
    };
    let of_other_ecosystem = |t: &TestCommand| {
        !main.is_empty() && ecosystems::owner_of_test(&t.command).is_some_and(|eco| !main.contains(&eco.id))
    };
    let other_ecosystem = |t: &TestCommand| t.source.kind == Kind::Ci && of_other_ecosystem(t);
    // Of CI's commands of the same standing, the main ecosystem's test command before a
    // script (a JS library's `npm test` before its Go port's `bash ./test.sh`, or before
    // `node ./scripts/test-node-range.js`, which checks the engines field).
    let ci_not_of_main =
        |t: &TestCommand| t.source.kind == Kind::Ci && !ecosystems::runs_the_tests_of(&t.command, main);
    tests.sort_by_key(|t| {
        (
            test_rank(&t.source),
            t.partial,
            other_ecosystem(t),
            t.command.starts_with("cd "),
            !in_plain_test_job(&t.source),
            front_end(t),
            ci_not_of_main(t),
        )
    });
    // `(cd elixir && mix test)` (an ecosystem's default) is CI's `cd elixir && mix test`.
    let mut tests = dedup_by_key(tests, |t| {
        let command = t.command.trim();
        let unwrapped = command.strip_prefix("(cd ").and_then(|c| c.strip_suffix(')')).map(|c| format!("cd {c}"));
        unwrapped.unwrap_or_else(|| command.to_string())
    });
    // One command CI runs in several jobs that differ in what they set (koel's workflows per
    // database: `DB_CONNECTION=mysql-ci … composer test` beside `composer test`): the run
    // that sets least comes first, the configuration the repo ships with and no service to
    // bring up.
    for i in 0..tests.len() {
        let variant = |t: &TestCommand| (test_rank(&t.source), without_assignments(&t.command));
        let key = variant(&tests[i]);
        let fewest = (i..tests.len())
            .filter(|&j| variant(&tests[j]) == key)
            .min_by_key(|&j| (assignments(&tests[j].command), j))
            .unwrap_or(i);
        let least = tests.remove(fewest);
        tests.insert(i, least);
    }
    // The primary: the first that runs the suite as a developer would before pushing, and of
    // the main ecosystem (CI's `tox` for a Django package fans out over its envlist: tox.ini's
    // own env is the suite, not the JS job's `npm test`) unless the owners' agent setup says
    // otherwise (they list the backend's tests first). The others keep their places.
    let another_ecosystems = |t: &TestCommand| t.source.kind != Kind::AgentSetup && of_other_ecosystem(t);
    // CI that tests an ecosystem only in parts it names one by one in a job (rayon's `cargo
    // test --package rayon`, then `--package rayon-core`; its demo crate needs nightly) says the
    // whole does not run as one: that ecosystem's default run of the whole is no better than
    // CI's first part. (One part, a matrix's first cell over the members, says nothing.)
    let owner = |t: &TestCommand| ecosystems::owner_of_test(&t.command).map(|eco| eco.id);
    let tested_in_parts_only = |id: &str| {
        let ci: Vec<&TestCommand> =
            tests.iter().filter(|t| t.source.kind == Kind::Ci && owner(t) == Some(id)).collect();
        let enumerated = ci.iter().enumerate().any(|(i, a)| {
            ci[i + 1..].iter().any(|b| a.source.path == b.source.path && a.source.job_id() == b.source.job_id())
        });
        enumerated && ci.iter().all(|t| ecosystems::runs_a_part(&t.command))
    };
    let whole_that_ci_splits =
        |t: &TestCommand| test_rank(&t.source) == 3 && owner(t).is_some_and(tested_in_parts_only);
    let primary_key = |i: usize| {
        let reasons = reasons_not_primary(&tests[i], managers) + usize::from(whole_that_ci_splits(&tests[i]));
        (reasons, another_ecosystems(&tests[i]), i)
    };
    if let Some(best) = (0..tests.len()).min_by_key(|&i| primary_key(i)) {
        let mut primary = tests.remove(best);
        primary.primary = true;
        tests.insert(0, primary);
    }
    // What CI builds for the test (in its job or another) runs first: ranked above by what
    // the test runs.
    for test in tests.iter_mut().filter(|t| !t.built_first.is_empty()) {
        test.command = format!("{} && {}", test.built_first.join(" && "), test.command);
    }
    tests
}

/// The `NAME=value` words before a command's program (after a leading `cd DIR && `).
pub(super) fn assignments(command: &str) -> usize {
    let (prefix, _) = shell::split_prefix(command);
    shell::commands(prefix).last().map_or(0, |words| words.iter().filter(|w| w.contains('=')).count())
}

/// The command without its `NAME=value` words: `cd DIR && ` and the program on.
pub(super) fn without_assignments(command: &str) -> String {
    let (prefix, program) = shell::split_prefix(command);
    let dir = prefix.strip_prefix("cd ").and_then(|rest| rest.split_once(" && ")).map(|(dir, _)| dir);
    match dir {
        Some(dir) => format!("cd {dir} && {program}"),
        None => program.to_string(),
    }
}

/// Environments, sessions and scripts that are not the test suite.
pub(super) const NOT_THE_SUITE: &[&str] = &[
    "docs",
    "doc",
    "docset",
    "doctests",
    "changelog",
    "lint",
    "linting",
    "mypy",
    "typing",
    "types",
    "type",
    "typecheck",
    "pyright",
    "style",
    "format",
    "fmt",
    "pre-commit",
    "precommit",
    "coverage",
    "cov",
    "bench",
    "benchmark",
    "smoke",
    "integration",
    "benchmarks",
    "perf",
    "e2e",
    // The suite in a browser (`npm run test:browser`, `npx playwright test`): a job that
    // installs one first; the plain run needs none.
    "browser",
    "browsers",
    "playwright",
    "cypress",
    "selenium",
    "dts",
    "release",
    "build",
    // Housekeeping (`make test-c-clean` removes the tests' build output).
    "clean",
    "distclean",
    // The suite of a built source distribution or wheel (`make test-sdist`), like `--installpkg`.
    "sdist",
    "wheel",
    "pkg",
    "package",
    "readme",
    "spelling",
    "audit",
    "security",
    "color",
    "system",
    // Tests that need the internet (`pytest -m online`): a part a closed sandbox cannot run.
    "online",
];

/// Options whose value names tests to leave out (Django's `--exclude-tag`, pytest's
/// `--ignore`).
const EXCLUDING_OPTIONS: &[&str] =
    &["--exclude", "--exclude-tag", "--ignore", "--ignore-glob", "--deselect", "--skip", "--exclude-dir"];

/// Options whose value names a build configuration or profile, not what runs.
pub(super) const BUILD_CONFIGURATION_OPTIONS: &[&str] = &["--configuration", "-c", "--profile"];

/// How many reasons keep `test` from being the test command a developer runs before
/// pushing: it runs something else than the suite (docs, lint, type checks, end-to-end or
/// benchmarks; coverage alone, not the suite with coverage), needs an interpreter of its own
/// (`-e pypy311`, `--python 3.10`), tests a built package (`--installpkg dist/…`,
/// `--notest`), runs through a tool the project does not install (`pipx`, `uvx`, `uv` in a
/// pip project) or in a container (`docker run …`), or fans out over interpreters (`tox -p
/// all`), or activates an environment the install does not make (`. venv/bin/activate`),
/// itself or in the recipe of its target.
pub(super) fn reasons_not_primary(test: &TestCommand, managers: &[PackageManager]) -> usize {
    let command = test.command.as_str();
    let words: Vec<&str> = command.split_whitespace().collect();
    // Words that name nothing the run does: what it sets before its program
    // (`WAGTAIL_CHECK_TEMPLATE_NUMBER_FORMAT=1` configures the run) and a selection that
    // leaves something out (pytest's `-m "not e2e"`).
    let mut starts_a_command = true;
    let mut in_exclusion: Option<char> = None;
    let left_aside: Vec<bool> = words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            if let Some(quote) = in_exclusion {
                in_exclusion = (!word.ends_with(quote)).then_some(quote);
                return true;
            }
            if let Some(quote) = ['"', '\''].into_iter().find(|q| word.len() > 1 && word.starts_with(*q))
                && word[1..].eq_ignore_ascii_case("not")
            {
                in_exclusion = Some(quote);
                return true;
            }
            // `--exclude playwright`: what follows is left out of the run.
            if let Some(previous) = i.checked_sub(1).map(|p| words[p])
                && EXCLUDING_OPTIONS.contains(&previous)
            {
                return true;
            }
            let assignment =
                starts_a_command && word.split_once('=').is_some_and(|(name, _)| shell::is_variable_name(name));
            starts_a_command = assignment || matches!(*word, "&&" | "||" | ";");
            assignment
        })
        .collect();
    // The names a command runs: its words but options (`--no-coverage` is the suite), split
    // at punctuation (`scripts/test-integration.sh` names integration).
    let names: Vec<String> = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !left_aside[*i])
        // Nor a build configuration's name (`dotnet test --configuration Release`).
        .filter(|(i, w)| !(w.starts_with('-') || *i > 0 && BUILD_CONFIGURATION_OPTIONS.contains(&words[i - 1])))
        .map(|(_, w)| w)
        .flat_map(|w| w.trim_matches(['"', '\'']).split([',', '-', ':', '_', '=', '/', '.']))
        .map(str::to_ascii_lowercase)
        .collect();
    // A test-runner script names the suite too (`coverage run runtests.py`).
    let names_the_suite = names
        .iter()
        .any(|n| ["test", "tests", "unit", "spec", "runtests"].contains(&n.as_str()) || ecosystems::is_suite_word(n));
    // A target whose recipe runs no tests (`make check` running linters) is other work too.
    let recipe_tests = test.runs.is_empty()
        || test.runs.iter().any(|line| {
            let line = line.trim_start_matches(['@', '-', '+']);
            ecosystems::is_test_command(line) || line.to_ascii_lowercase().contains("make")
        });
    // `cargo test --no-run` (also `--no-run` of other runners) builds the tests, runs none.
    let builds_only = words.contains(&"--no-run");
    let other_work = !recipe_tests
        || builds_only
        || in_job_for_other_work(&test.source)
        || words.iter().any(|w| selects_one_test(w))
        || ecosystems::runs_a_part(command)
        || names.iter().any(|n| match n.as_str() {
            "coverage" | "cov" => !names_the_suite,
            // `microbenchmarks.py`, `run_benchmarks`: a benchmark under any name; a
            // browser cloud's run (`test:browserstack`) a browser's.
            // (`cd benches && cargo test --benches`: a `benches` folder too.)
            n => {
                NOT_THE_SUITE.contains(&n) || n.contains("benchmark") || n == "benches" || n.starts_with("browser")
            }
        })
        // `cargo test --benches`/`--bench x` runs the benchmarks as tests.
        || words.iter().any(|w| matches!(*w, "--benches" | "--bench") || w.starts_with("--bench="));
    let interpreter = words.windows(2).any(|w| {
        let value = w[1].trim_start_matches('-');
        (["-e", "--env", "--python", "-p"].contains(&w[0]) && value.starts_with(|c: char| c.is_ascii_digit()))
            || (w[0] == "-e" && (value.starts_with("py3") || value.starts_with("py2")))
    }) || names.iter().any(|n| n.starts_with("pypy"))
        // A cross build (`cargo test --target i686-unknown-linux-gnu`) needs a target of its own;
        // a matrix's first cell is often the sandbox's own triple, which needs nothing.
        || words.windows(2).any(|w| w[0] == "--target" && is_cross_target(w[1]))
        || words.iter().any(|w| w.strip_prefix("--target=").is_some_and(is_cross_target));
    let package = ["--installpkg", "--notest", "--install-only", "--no-install", "dist/"]
        .iter()
        .any(|flag| command.contains(flag));
    let has = |pm: &str| managers.iter().any(|m| m.name == pm);
    let elsewhere = |line: &str| match shell::split_prefix(line).1.split_whitespace().next() {
        // `unshare --net` takes CI's network away, with privileges a sandbox may not give.
        Some("pipx" | "uvx" | "docker" | "docker-compose" | "podman" | "unshare") => true,
        Some(tool) if ecosystems::is_environment_runner(tool) => !has(tool),
        _ => false,
    };
    // A JavaScript runtime's compatibility run (`npm run test:bun`) where the project installs
    // with another package manager: its job sets that runtime up, the draft does not.
    let other_runtime = names.iter().any(|n| ecosystems::is_other_runtime(n) && !has(n));
    let foreign_tool = elsewhere(command) || test.runs.iter().any(|line| elsewhere(line)) || other_runtime;
    let fans_out = ecosystems::fans_out(command) || test.runs.iter().any(|line| ecosystems::fans_out(line));
    let installed: Vec<&str> = managers.iter().map(|m| m.name.as_str()).collect();
    let unmade_environment = std::iter::once(command)
        .chain(test.runs.iter().map(String::as_str))
        .any(|line| ecosystems::activates_an_unmade_environment(line, &installed));
    [other_work, interpreter, package, foreign_tool, fans_out, unmade_environment].iter().filter(|r| **r).count()
}

/// Whether `triple` names a target other than the sandbox's own (x86_64 Linux with glibc).
fn is_cross_target(triple: &str) -> bool {
    triple.matches('-').count() >= 2 && triple != "x86_64-unknown-linux-gnu"
}

/// Whether a command's word picks one test out of the suite: pytest's `tests/test_a.py::test_b`,
/// unittest's `tests.test_meta.TestVersion.test_version` (module, case class, method) — a
/// check of that test (a version-bump job's), not the suite.
fn selects_one_test(word: &str) -> bool {
    let word = word.trim_matches(['"', '\'']);
    let dotted: Vec<&str> = word.split('.').collect();
    word.contains("::test")
        || !word.contains('/')
            && dotted.len() >= 3
            && dotted[dotted.len() - 2].starts_with(|c: char| c.is_ascii_uppercase())
            && dotted[dotted.len() - 1].starts_with("test")
}

/// Words of a workflow's file name or a job's id that say it checks something else than the
/// suite: a `docs.yml` workflow's `pytest tests/console` smoke-tests the built docs. (Not
/// `build` or `integration`: a `build` job is often the one that runs the suite.)
const OTHER_WORK_JOBS: &[&str] = &[
    "docs",
    "doc",
    "documentation",
    "pages",
    "lint",
    "linting",
    "release",
    "publish",
    "smoke",
    "e2e",
    "bench",
    "benchmark",
    "benchmarks",
    "perf",
    "codeql",
    "spelling",
    "changelog",
    "readme",
    "typing",
    "mypy",
];

/// Whether a CI test command runs in a job named for other work (see [`OTHER_WORK_JOBS`]), or
/// in a workflow so named unless its job is named for the suite (a `lint.yml` workflow's
/// `unit` job runs the unit tests).
fn in_job_for_other_work(source: &Evidence) -> bool {
    let Some(job) = source.job_id().filter(|_| source.kind == Kind::Ci) else { return false };
    let workflow = source.path.file_name().split('.').next().unwrap_or_default();
    let job = job.strip_prefix("jobs.").unwrap_or(job);
    let names_other_work = |name: &str| {
        name.split(['-', '_', ' ', '.']).any(|w| OTHER_WORK_JOBS.contains(&w.to_ascii_lowercase().as_str()))
    };
    names_other_work(job) || names_other_work(workflow) && !in_plain_test_job(source)
}

/// Whether a CI test command runs in a job named for the test suite alone (`test`,
/// `unit-tests`, `pytest`), not for a variant of it (`valkey-test`, `test-windows`,
/// `integration`): where CI has both, the plain one is the check every change must pass.
pub(super) fn in_plain_test_job(source: &Evidence) -> bool {
    let Some(job) = source.job_id().filter(|_| source.kind == Kind::Ci) else { return false };
    let job = job.strip_prefix("jobs.").unwrap_or(job).to_ascii_lowercase();
    job.split(['-', '_', ' ']).all(|word| {
        matches!(word, "test" | "tests" | "testing" | "unit" | "unittest" | "unittests" | "ci")
            || ecosystems::is_suite_word(word)
    })
}

/// How much a test command's source says about what the project really runs:
/// 0 — the agent setup the owners wrote (AGENTS.md, Cursor's environment, Copilot's steps);
/// 1 — CI configuration (the commands the project's own checks run);
/// 2 — the project's scripts and task files (package.json/composer.json/devbox `scripts`,
///     Makefile, justfile, Taskfile);
/// 3 — everything else: an ecosystem's default (`cargo test` from Cargo.toml, `tox -e py`
///     from tox.ini, …), which a target the project named `test` outranks.
pub fn test_rank(source: &Evidence) -> u8 {
    match source.kind {
        Kind::AgentSetup => 0,
        Kind::Ci => 1,
        Kind::Task => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_suite_in_a_browser_is_not_the_primary() {
        let browser = "jobs:\n  browser:\n    steps:\n      - run: npx playwright install --with-deps chromium\n      - run: npm run test:browser -- --project chromium\n";
        let cloud = "jobs:\n  browserstack:\n    steps:\n      - run: npm run test:browserstack\n";
        let node = "jobs:\n  build:\n    steps:\n      - run: npm ci\n      - run: npm test\n";
        let files = [
            (".github/workflows/browser.yml", browser),
            (".github/workflows/browserstack.yml", cloud),
            (".github/workflows/node.yml", node),
            (
                "package.json",
                r#"{"scripts": {"test": "vitest run", "test:browser": "vitest run --browser", "test:browserstack": "browserstack-node-sdk playwright test"}}"#,
            ),
        ];
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "npm test");
    }

    #[test]
    fn another_runtimes_compatibility_run_is_not_the_primary() {
        let bun = "jobs:\n  bun-test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: moonrepo/setup-toolchain@v0\n      - run: npm ci\n      - run: npm run test:bun\n";
        let node = "jobs:\n  nodejs-test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci\n      - run: npm run test:node\n";
        let files = [
            (".github/workflows/bun.yml", bun),
            (".github/workflows/node.yml", node),
            ("package.json", r#"{"scripts": {"test:node": "node --test", "test:bun": "node run.js \"bun test\""}}"#),
            ("package-lock.json", "{}"),
        ];
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "npm run test:node");
    }

    #[test]
    fn cleaning_and_packaging_targets_are_not_the_primary() {
        let workflow = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          make test-c-clean\n          make test-sdist\n          make test-c\n";
        let makefile = "test-c:\n\t$(MAKE) -C tests\n\ntest-c-clean:\n\t$(MAKE) -C tests clean\n\ntest-sdist:\n\tpython3 setup.py sdist\n\tcd dist && python3 -m pytest\n";
        let files = [(".github/workflows/ci.yml", workflow), ("Makefile", makefile), ("lib.c", "int x;\n")];
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "make test-c");
    }

    #[test]
    fn of_cis_test_jobs_the_main_ecosystems_comes_first() {
        let frontend = "jobs:\n  test:\n    steps:\n      - run: pnpm test\n";
        let backend = "jobs:\n  test:\n    defaults:\n      run:\n        working-directory: api\n    steps:\n      - run: pytest\n";
        let mut files = vec![
            (".github/workflows/frontend.yml", frontend),
            (".github/workflows/backend.yml", backend),
            ("package.json", r#"{"scripts": {"test": "vitest run"}}"#),
            ("api/pyproject.toml", "[project]\nname = 'api'\n"),
            ("web/main.ts", "export {};\n"),
            ("api/app.py", "\n"),
            ("api/models.py", "\n"),
        ];
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "cd api && python3 -m pytest", "Python has the most source");
        // With more TypeScript than Python, the front end's job is the main one.
        files.extend([("web/a.ts", "\n"), ("web/b.ts", "\n")]);
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "pnpm test");
    }

    #[test]
    fn a_python_packages_own_tox_env_is_primary_before_its_js_jobs_test() {
        // CI's first job tests the package's few JS files; its Python jobs run a bare `tox`, which
        // fans out over the whole envlist. The suite is tox.ini's env, not the JS job's.
        let workflow = "jobs:\n  vitest:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci\n      - run: npm test\n  \
                        sqlite:\n    runs-on: ubuntu-latest\n    steps:\n      - run: python -m pip install tox\n      - run: tox\n";
        let mut files = vec![
            (".github/workflows/test.yml", workflow),
            ("package.json", r#"{"scripts": {"test": "vitest"}}"#),
            ("package-lock.json", "{}"),
            ("pyproject.toml", "[project]\nname = 'toolbar'\n"),
            ("tox.ini", "[tox]\nenvlist = py{310,311}-dj{42,52}\n\n[testenv]\ncommands = pytest\n"),
            ("toolbar/static/toolbar.js", "export {};\n"),
        ];
        let python = ["toolbar/__init__.py", "toolbar/panels.py", "toolbar/views.py"];
        files.extend(python.iter().map(|p| (*p, "\n")));
        let d = crate::detect::testing::detection(&files);
        let primary = d.tests.iter().find(|t| t.primary).expect("a primary test");
        assert!(primary.command.contains("tox -e"), "the package's own tox env, not `npm test`: {:?}", d.tests);
        // With more JS than Python, the JS job's test is the suite again.
        let js = ["web/a.js", "web/b.js", "web/c.js", "web/d.js"];
        files.extend(js.iter().map(|p| (*p, "\n")));
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests.iter().find(|t| t.primary).map(|t| t.command.as_str()), Some("CI=true npm test"));
    }

    #[test]
    fn a_workspace_ci_tests_only_by_package_gets_cis_first_package_as_primary() {
        let ci = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo build --verbose\n      - run: cargo test --verbose --package pool\n      - run: cargo test --verbose --package pool-core\n";
        let files = [
            (
                "Cargo.toml",
                "[workspace]\nmembers = ['pool-core', 'pool-demo']\n\n[package]\nname = 'pool'\nversion = '1.0.0'\n",
            ),
            ("src/lib.rs", "\n"),
            ("pool-core/Cargo.toml", "[package]\nname = 'pool-core'\nversion = '1.0.0'\n"),
            ("pool-core/src/lib.rs", "\n"),
            (".github/workflows/ci.yml", ci),
        ];
        let d = crate::detect::testing::detection(&files);
        // With the job's build before it, as CI runs it.
        assert_eq!(d.tests[0].command, "cargo build --verbose && cargo test --verbose --package pool", "{:?}", d.tests);
        // CI that runs the whole somewhere keeps the whole first.
        let whole = ci.replace("--package pool-core", "--workspace");
        let files = [files[0], files[1], files[2], files[3], (".github/workflows/ci.yml", whole.as_str())];
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "cargo build --verbose && cargo test --verbose --workspace", "{:?}", d.tests);
    }

    #[test]
    fn of_cis_jobs_the_main_ecosystems_runner_comes_before_a_ports_script() {
        // A JS library with a Go port in golang/: the port's workflow ends with a shell script,
        // the library's with `npm test`. Same standing (CI, jobs named `build`): the suite is the
        // one the main ecosystem's runner owns, whichever workflow file sorts first.
        let go = "jobs:\n  build:\n    steps:\n      - uses: actions/setup-go@v6\n      - run: go test ./...\n        \
                  working-directory: ./golang\n      - run: bash ./test-dummy.sh\n";
        let node = "jobs:\n  build:\n    steps:\n      - run: npm ci\n      - run: npm test\n";
        let mut files = vec![
            (".github/workflows/golang.yml", go),
            (".github/workflows/node.js.yml", node),
            ("package.json", r#"{"scripts": {"test": "node test/index.js"}}"#),
            ("package-lock.json", "{}"),
            ("golang/go.mod", "module example.com/flatted\n\ngo 1.22\n"),
            ("golang/flatted.go", "package flatted\n"),
            ("index.js", "\n"),
            ("esm.js", "\n"),
        ];
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "npm test", "{:?}", d.tests);
        // A job that runs a script with Node checks something of its own.
        let range = "jobs:\n  test-node-range:\n    steps:\n      - run: node ./scripts/test-node-range.js\n  \
                     test-matrix:\n    steps:\n      - run: npm test\n";
        let js = [
            ("package.json", files[2].1),
            ("package-lock.json", "{}"),
            ("index.js", "\n"),
            (".github/workflows/pr.yml", range),
        ];
        let d = crate::detect::testing::detection(&js);
        assert_eq!(d.tests[0].command, "npm test", "{:?}", d.tests);
        // With more Go than JS the port is the project, and its workflow's script comes first.
        files.extend([("golang/a.go", "package flatted\n"), ("golang/b.go", "package flatted\n")]);
        let d = crate::detect::testing::detection(&files);
        assert_eq!(d.tests[0].command, "bash ./test-dummy.sh", "{:?}", d.tests);
    }
}
