//! The registry of ecosystems ([`ALL`], one line each) and the questions the signals and
//! merge ask of them all: which toolchain a setup action, image, feature, Nix package or
//! version-manager tool names; whether a shell line runs tests; how a toolchain is called in
//! prose; which ecosystem reads which source file's environment reads.
//!
//! Adding an ecosystem is one file (its [`Declaration`] and the [`Ecosystem`] behaviour it
//! points to) and one line in [`ALL`].

pub mod ci_setup;
pub mod clojure;
pub mod code;
pub mod cpp;
pub mod dart;
pub mod deno;
pub mod dotnet;
pub mod ecosystem;
pub mod elixir;
pub mod gleam;
pub mod go;
pub mod haskell;
pub mod java;
#[cfg(test)]
mod names_stay_home;
pub mod node;
pub mod php;
pub mod project;
pub mod python;
pub mod ruby;
pub mod rust;
pub mod scala;
pub mod swift;
pub mod zig;

use std::sync::LazyLock;

use regex::Regex;

use self::ecosystem::{Alias, AliasKind, Declaration, Ecosystem, SetupStep, Toolchain};
use crate::detect::findings::Evidence;
use crate::detect::sources::pins::ToolPin;
use crate::detect::sources::workflows::ActionUse;
use crate::detect::sources::{self, Sources, shell};
use crate::rel_path::RelPath;

/// Every ecosystem, in the order their findings are merged.
pub static ALL: &[&Declaration] = &[
    &node::DECLARATION,
    &deno::DECLARATION,
    &python::DECLARATION,
    &rust::DECLARATION,
    &go::DECLARATION,
    &java::DECLARATION,
    &ruby::DECLARATION,
    &php::DECLARATION,
    &elixir::DECLARATION,
    &gleam::DECLARATION,
    &dotnet::DECLARATION,
    &swift::DECLARATION,
    &dart::DECLARATION,
    &zig::DECLARATION,
    &cpp::DECLARATION,
    &haskell::DECLARATION,
    &scala::DECLARATION,
    &clojure::DECLARATION,
];

/// The declaration of toolchain `id` and the ecosystem that owns it.
pub fn toolchain(id: &str) -> Option<(&'static Declaration, &'static Toolchain)> {
    ALL.iter().find_map(|eco| eco.toolchains.iter().find(|t| t.id == id).map(|t| (*eco, t)))
}

/// How a toolchain is called in prose (`Node`, `.NET`); the id for an unknown one.
pub fn display_name(id: &str) -> &str {
    toolchain(id).map_or(id, |(_, t)| t.display)
}

/// Whether `version` pins toolchain `id` (Python needs a minor: `3` and `3.x` pin nothing).
pub fn pins(id: &str, version: &str) -> bool {
    let parts = toolchain(id).map_or(1, |(_, t)| t.pin_parts);
    let dotted = version.trim_end_matches(['x', 'X', '*']).trim_end_matches('.');
    dotted.split('.').filter(|p| !p.is_empty()).count() >= parts
}

/// Every alias of `kind`'s sort (compared without its data) named `name`, in registry order.
pub fn aliases<'n>(kind: fn(&AliasKind) -> bool, name: &'n str) -> impl Iterator<Item = &'static Alias> + 'n {
    ALL.iter().flat_map(|eco| eco.aliases.iter()).filter(move |a| kind(&a.kind) && a.name == name)
}

/// The toolchain an alias of `kind` named `name` stands for.
pub fn toolchain_named(kind: fn(&AliasKind) -> bool, name: &str) -> Option<&'static str> {
    aliases(kind, name).next().map(|a| a.target)
}

/// The version manager's pin of `toolchain` (`.tool-versions`' `nodejs 22`, mise's
/// `deno = "2.4"`) for the folder `dir` itself.
pub fn folder_pin<'p>(pins: &'p [ToolPin], dir: &str, toolchain: &str) -> Option<&'p ToolPin> {
    pins.iter().find(|pin| pin.dir == dir && toolchain_named(is_tool, &pin.tool) == Some(toolchain))
}

pub fn is_action(kind: &AliasKind) -> bool {
    matches!(kind, AliasKind::SetupAction { .. })
}
pub fn is_image(kind: &AliasKind) -> bool {
    *kind == AliasKind::Image
}
pub fn is_devcontainer_image(kind: &AliasKind) -> bool {
    *kind == AliasKind::DevcontainerImage
}
pub fn is_feature(kind: &AliasKind) -> bool {
    *kind == AliasKind::Feature
}
pub fn is_nix(kind: &AliasKind) -> bool {
    matches!(kind, AliasKind::Nix { .. })
}
pub fn is_tool(kind: &AliasKind) -> bool {
    *kind == AliasKind::Tool
}
pub fn is_package_manager_tool(kind: &AliasKind) -> bool {
    *kind == AliasKind::PackageManagerTool
}

/// The ecosystem that owns package manager `name` (`pnpm` → Node).
pub fn owner_of_package_manager(name: &str) -> Option<&'static Declaration> {
    ALL.iter().copied().find(|eco| eco.package_managers.contains(&name))
}

/// The ecosystem whose toolchain `program` belongs to (see [`Ecosystem::programs`]).
pub fn owner_of_program(program: &str) -> Option<&'static Declaration> {
    ALL.iter().copied().find(|eco| eco.programs.contains(&program))
}

/// Whether `program`'s install line names the package manager or toolchain a project uses
/// (see [`Declaration::install_programs`]).
pub fn is_install_program(program: &str) -> bool {
    ALL.iter().any(|eco| eco.install_programs.contains(&program))
}

/// Whether `name` is a package manager that runs commands in an environment of its own
/// (see [`Declaration::environment_runners`]).
pub fn is_environment_runner(name: &str) -> bool {
    ALL.iter().any(|eco| eco.environment_runners.contains(&name))
}

/// Whether `name` is a runtime some ecosystem's code also runs on (see
/// [`Declaration::other_runtimes`]).
pub fn is_other_runtime(name: &str) -> bool {
    ALL.iter().any(|eco| eco.other_runtimes.contains(&name))
}

/// The program and inputs of an action that runs one command of an ecosystem's tools (see
/// [`Declaration::command_actions`]).
pub fn command_action(action: &str) -> Option<(&'static str, &'static [&'static str])> {
    ALL.iter()
        .flat_map(|eco| eco.command_actions)
        .find(|(known, _, _)| known.eq_ignore_ascii_case(action))
        .map(|(_, program, inputs)| (*program, *inputs))
}

/// Whether `line` activates or runs from an environment (`. venv/bin/activate`,
/// `/tmp/debug-venv/bin/python -m …`) that an install with the package managers `managers`
/// does not make in the project (uv makes `.venv`; a Makefile's `venv` comes from a target of
/// its own).
pub fn activates_an_unmade_environment(line: &str, managers: &[&str]) -> bool {
    let unmade = |eco: &Declaration, folder: &str| {
        let folder = folder.trim_end_matches('/').trim_start_matches("./");
        !eco.project_environments.iter().any(|(pm, made)| *made == folder && managers.contains(pm))
    };
    crate::detect::sources::shell::commands(line).iter().any(|words| {
        let words: Vec<&str> = words.iter().map(|w| w.trim_matches(['"', '\''])).collect();
        let program = words.iter().find(|w| !w.contains('=')).copied().unwrap_or_default();
        ALL.iter().any(|eco| {
            let Some(activate) = eco.activate_script else { return false };
            let activated = match words.as_slice() {
                [".", script, ..] | ["source", script, ..] => script.strip_suffix(activate),
                _ => None,
            };
            // The environment's own programs sit beside its activate script, in a folder named
            // for an environment (`venv`, `.venv`, `debug-venv`; not `/usr`).
            let bin = activate.rsplit_once('/').map_or("", |(dir, _)| dir);
            let run_from = program.rsplit_once('/').and_then(|(dir, _)| dir.strip_suffix(bin)).filter(|folder| {
                let name = folder.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
                !bin.is_empty() && name.to_ascii_lowercase().contains("env")
            });
            activated.or(run_from).is_some_and(|folder| unmade(eco, folder))
        })
    })
}

/// Whether a job or script named with `word` runs the whole suite (see
/// [`Declaration::suite_words`]).
pub fn is_suite_word(word: &str) -> bool {
    ALL.iter().any(|eco| eco.suite_words.contains(&word))
}

/// Whether test `command` runs a part of its ecosystem's suite (see
/// [`Declaration::part_options`]).
pub fn runs_a_part(command: &str) -> bool {
    let Some(eco) = owner_of_test(command) else { return false };
    let words: Vec<&str> = command.split_whitespace().collect();
    let by_option = words.iter().any(|word| {
        let option = word.split_once('=').map_or(*word, |(option, _)| option);
        eco.part_options.contains(&option)
    });
    // The runner's own arguments, after the first `--` (up to the end of the command).
    let runner_arguments = words
        .iter()
        .position(|w| *w == "--")
        .map(|at| &words[at + 1..])
        .map(|rest| &rest[..rest.iter().position(|w| matches!(*w, "&&" | "||" | ";" | "|")).unwrap_or(rest.len())])
        .unwrap_or_default();
    let by_filter = !eco.filter_runner_options.is_empty()
        && runner_arguments.iter().enumerate().any(|(i, word)| {
            let value_of_option = i > 0 && eco.filter_runner_options.contains(&runner_arguments[i - 1]);
            !word.starts_with('-') && !value_of_option
        });
    by_option || by_filter
}

/// Whether `program subcommand` publishes a release (see [`Declaration::publish_commands`]).
pub fn publishes(program: &str, subcommand: &str) -> bool {
    ALL.iter().flat_map(|eco| eco.publish_commands).any(|(p, s)| *p == program && *s == subcommand)
}

/// The package managers that run a manifest's script by name, as regular-expression
/// alternatives (`npm|pnpm|yarn|bun`; see [`Declaration::script_runners`]).
pub fn script_runner_alternatives() -> String {
    ALL.iter().flat_map(|eco| eco.script_runners.iter().copied()).collect::<Vec<_>>().join("|")
}

/// The whole plain builds ecosystems declare, as regular-expression alternatives (see
/// [`Declaration::build_commands`]).
pub fn build_command_alternatives() -> String {
    ALL.iter().flat_map(|eco| eco.build_commands.iter().copied()).collect::<Vec<_>>().join("|")
}

/// Commands of no one ecosystem that publish a release or an image; each ecosystem declares
/// its own ([`publishes`]). A line running one is not a test to rerun.
const SHIPPING: &[(&str, &str)] = &[("docker", "push"), ("gh", "release")];

/// Whether `line` publishes a release or an image (`npm publish`, `docker push`).
pub fn ships(line: &str) -> bool {
    shell::commands(line).iter().any(|words| {
        let (program, rest) = match words.split_first() {
            Some((program, rest)) => (program.rsplit('/').next().unwrap_or(program), rest),
            None => return false,
        };
        SHIPPING.iter().any(|(tool, sub)| program == *tool && rest.iter().any(|w| w == sub))
            || rest.iter().any(|w| publishes(program, w))
    })
}

/// Whether the file `name` is a manifest that carries a toolchain version among other keys
/// (see [`Declaration::versioned_manifests`]).
pub fn is_versioned_manifest(name: &str) -> bool {
    ALL.iter().any(|eco| eco.versioned_manifests.contains(&name))
}

/// Each ecosystem's test commands as one pattern, in [`ALL`]'s order.
static TEST_COMMAND_OF: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    ALL.iter()
        .map(|eco| {
            let patterns = eco.test_commands.join("|");
            let pattern =
                if patterns.is_empty() { "$^".to_string() } else { format!(r"(?:^|[[:space:];&|(])(?:{patterns})") };
            Regex::new(&pattern).expect("the test-command patterns are valid")
        })
        .collect()
});

/// The ecosystem a test command belongs to: its program's (`yarn test`, `python3 -m
/// pytest`), else the one whose test runner it names (`vendor/bin/pest`, `bin/rspec`).
pub fn owner_of_test(command: &str) -> Option<&'static Declaration> {
    shell::program_of(command).and_then(owner_of_program).or_else(|| {
        let (_, rest) = shell::split_prefix(command.trim().trim_start_matches('('));
        ALL.iter().zip(TEST_COMMAND_OF.iter()).find(|(_, pattern)| pattern.is_match(rest)).map(|(eco, _)| *eco)
    })
}

/// `command` on the release channel its CI job's setup action names (`cargo +nightly test`
/// where the job sets up `dtolnay/rust-toolchain@nightly`), with the install line that gets
/// that toolchain; `None` when the job names no channel or the command already picks one.
pub fn on_setup_channel<'a>(actions: &'a [ActionUse], command: &str) -> Option<(String, String, &'a Evidence)> {
    let owner = owner_of_test(command)?;
    let channels = owner.channels.as_ref()?;
    let (prefix, rest) = shell::split_prefix(command);
    let after = rest.strip_prefix(channels.program)?.strip_prefix(' ')?;
    if after.starts_with(channels.prefix) {
        return None;
    }
    let is_channel = |text: &str| {
        channels.names.iter().any(|name| {
            text.strip_prefix(name).is_some_and(|date| {
                date.is_empty() || date.starts_with('-') && date.chars().all(|c| c.is_ascii_digit() || c == '-')
            })
        })
    };
    let channel = actions.iter().find_map(|action| {
        aliases(is_action, &action.action)
            .filter(|alias| owner.toolchains.iter().any(|t| t.id == alias.target))
            .find_map(|alias| {
                let AliasKind::SetupAction { version_inputs, reference, .. } = alias.kind else { return None };
                let input = version_inputs.iter().find_map(|key| action.inputs.get(*key));
                let named = match input.map(|input| (input, &input.matrix)) {
                    Some((input, None)) => Some(input.text.trim()).filter(|text| is_channel(text)).map(str::to_string),
                    Some((_, Some(values))) if channels.release_matrix => newest_release(values),
                    Some(_) => None,
                    None => reference
                        .then_some(action.reference.as_str())
                        .filter(|text| is_channel(text))
                        .map(str::to_string),
                };
                named.map(|channel| (channel, &action.source))
            })
    })?;
    let (channel, source) = channel;
    let command = format!("{prefix}{} {}{channel} {after}", channels.program, channels.prefix);
    Some((command, channels.install.replace("{channel}", &channel), source))
}

/// The newest of a matrix that lists releases only (`1.87.0`, `1.80`): a channel name
/// (`stable`) or any other word among them leaves the default toolchain. A value CI fills
/// from elsewhere (`$MSRV`) is no release of its own.
fn newest_release(values: &[String]) -> Option<String> {
    let is_release = |v: &str| {
        let parts: Vec<&str> = v.split('.').collect();
        (2..=3).contains(&parts.len()) && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let named: Vec<&str> = values.iter().map(|v| v.trim()).filter(|v| !v.starts_with('$')).collect();
    if !named.iter().all(|v| is_release(v)) {
        return None;
    }
    named.into_iter().max_by(|a, b| sources::version::cmp(a, b)).map(str::to_string)
}

/// Whether `command` runs the test command of one of the ecosystems `ids` (`npm test`,
/// `cargo test`, `python3 -m pytest`), not merely a program of theirs (`node ./scripts/x.js`).
pub fn runs_the_tests_of(command: &str, ids: &[&str]) -> bool {
    let (_, rest) = shell::split_prefix(command.trim().trim_start_matches('('));
    ALL.iter().zip(TEST_COMMAND_OF.iter()).any(|(eco, pattern)| ids.contains(&eco.id) && pattern.is_match(rest))
}

/// The official Actions step that sets up a toolchain or package manager.
pub fn setup_step(target: &str) -> Option<&'static SetupStep> {
    ALL.iter().flat_map(|eco| eco.setup_steps).find(|s| s.target == target)
}

/// The official setup step whose action is `action` (`pnpm/action-setup`, no reference).
pub fn setup_step_of_action(action: &str) -> Option<&'static SetupStep> {
    ALL.iter().flat_map(|eco| eco.setup_steps).find(|s| s.uses.split('@').next() == Some(action))
}

/// The official dev-container feature that installs a toolchain.
pub fn devcontainer_feature(toolchain: &str) -> Option<&'static str> {
    ALL.iter().flat_map(|eco| eco.devcontainer_features).find(|(t, _)| *t == toolchain).map(|(_, id)| *id)
}

/// Whether the repo has a manifest of the ecosystem owning `toolchain`: dev shells and dev
/// containers often carry tools (a Node for editor extensions, a Python for scripts) that
/// are not the project's toolchains.
pub fn has_manifest_for(sources: &Sources, toolchain_id: &str) -> bool {
    toolchain(toolchain_id).is_some_and(|(eco, _)| eco.has_manifest(sources))
}

/// Test runners of no one ecosystem: task files and test scripts.
const SHARED_TEST_COMMANDS: &[&str] = &[
    // A target named for tests, first or last word (`test-unit`, `unit-tests`, `tests_all`).
    r#"(?:make|gmake)(?-u:\b)[^;&|]*?[[:space:]]["']?(?:check|unit|(?:[[:alnum:]]+[-_])?(?:tests?|unittests?)(?:[-_.][[:word:]\-.]+)?)["']?(?:[[:space:]]|$)"#,
    r"just[[:space:]]+(?:[^[:space:]]+[[:space:]]+)*?test[[:word:]\-]*(?-u:\b)",
    // go-task, a namespaced task too (`task py:test`, from an included Taskfile).
    r"task[[:space:]]+(?:[[:word:]\-]+:)*test[[:word:]:\-]*(?-u:\b)",
    // `test.sh`, `run_tests.sh`, `runtests.sh`, `test-unit.sh`, `ci_test.sh`: a script named for tests.
    r"(?:[^[:space:]]*/)?(?:[[:alnum:]]+[-_]|run)?tests?(?:[-_][[:word:]\-]*)?\.sh(?-u:\b)",
    r"(?:\./)?(?:scripts?|bin)/(?:run[-_])?tests?(?:[-_][[:word:]\-]*)?(?:\.[[:word:]]+)?(?:[[:space:]]|$)",
];
/// System package managers.
const SHARED_INSTALL_COMMANDS: &[&str] = &[r"apt|apt-get|brew"];

/// `just` where it is missing: a single binary that PyPI (`rust-just`, listed among just's
/// own install routes) and npm both serve, so either registry will do.
/// Without either, one warning: the tests need it, the rest of the install does not.
pub const JUST_WHEN_MISSING: &str = "command -v just >/dev/null 2>&1 || PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet rust-just || npm install -g rust-just || echo \"hanzo-env: warning: could not install just (pip or npm: rust-just), which runs the tests\" >&2";

/// go-task where it is missing: its project publishes it on npm (`@go-task/cli`).
pub const TASK_WHEN_MISSING: &str = "command -v task >/dev/null 2>&1 || npm install -g @go-task/cli || echo \"hanzo-env: warning: could not install task (npm: @go-task/cli), which runs the tests\" >&2";

/// The step that makes present the task runner a test command calls (`just test`,
/// `X=1 task py:test`), when it is one no package manager of the project brings.
pub fn task_runner_when_missing(command: &str) -> Option<&'static str> {
    let (_, program) = shell::split_prefix(command);
    match program.split_whitespace().next()? {
        "just" => Some(JUST_WHEN_MISSING),
        "task" => Some(TASK_WHEN_MISSING),
        _ => None,
    }
}

/// Build flags that leave the tests out of a build that would run them.
const SKIP_TEST_FLAGS: &[&str] = &["-DskipTests", "-DskipTests=true", "-Dmaven.test.skip", "-Dmaven.test.skip=true"];

/// A command that runs tests, in any ecosystem.
static TEST_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    let alternatives: Vec<&str> = ALL
        .iter()
        .flat_map(|eco| eco.test_commands.iter().copied())
        .chain(SHARED_TEST_COMMANDS.iter().copied())
        .collect();
    Regex::new(&format!(r"(?:^|[[:space:];&|(])(?:{})", alternatives.join("|")))
        .expect("the test-command patterns are valid")
});
/// A command that installs packages: `uv pip install pytest-cov` names a test tool but runs none.
static INSTALL_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    let tools: Vec<&str> = ALL
        .iter()
        .flat_map(|eco| eco.install_commands.iter().copied())
        .chain(SHARED_INSTALL_COMMANDS.iter().copied())
        .collect();
    Regex::new(&format!(
        r"^[[:space:]]*(?:sudo[[:space:]]+)?(?:{})[[:space:]]+(?:install|uninstall|add|remove|require|i|get)(?-u:\b)",
        tools.join("|")
    ))
    .expect("the install-command patterns are valid")
});

/// A script, target or task named for preparing what the tests need, not for running them
/// (`npm run test:init`, `make test-setup`, `yarn db:migrate`): CI runs it once the services
/// are up and before the tests.
static PREPARES_TESTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:^|[[:space:];&|(])(?:npm|pnpm|yarn|bun|make|just|task)[[:space:]](?:[^;&|]*?[[:space:]])?(?:run[[:space:]]+)?(?:test|tests|db)[:\-_](?:(?:init|setup|prepare|seed|migrate|create|reset)(?:db|database)?|schema|db)(?:[[:space:]:\-_]|$)",
    )
    .expect("the preparation pattern is valid")
});

/// Whether `line` runs a script or target that prepares what the tests need (see
/// [`PREPARES_TESTS`]).
pub fn prepares_tests(line: &str) -> bool {
    PREPARES_TESTS.is_match(line.trim())
}

/// True when `line` runs tests (`pnpm run test-unit`, `cargo test --workspace`, `make test`,
/// `vendor/bin/phpunit`, `mvn -B verify`, `bundle exec rspec`, …), not a preparation of them
/// (`npm run test:init`).
pub fn is_test_command(line: &str) -> bool {
    let line = line.trim();
    if prepares_tests(line) {
        return false;
    }
    // `mvn verify -DskipTests`, `gradle build -x test`: builds that leave the tests out.
    let skips_tests = line.split_whitespace().any(|w| SKIP_TEST_FLAGS.contains(&w))
        || line.contains(" -x test")
        || line.contains("--exclude-task test");
    !line.starts_with('#')
        && !line.starts_with("echo ")
        && !skips_tests
        && line.split("&&").flat_map(|part| part.split("||")).flat_map(|part| part.split(';')).any(|part| {
            !INSTALL_COMMAND.is_match(part)
                && !INSTALL_COMMAND.is_match(after_a_runner(part))
                && TEST_COMMAND.is_match(without_inline_code(part))
        })
}

/// `part` up to the inline program an interpreter runs (`python -c "import pytest"`, `node
/// -e '…'`): CI's check that a runner imports names the runner and runs no test. A shell's
/// `-c` (`bash -c 'pytest'`) runs its command, so it stays.
fn without_inline_code(part: &str) -> &str {
    const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh"];
    let words: Vec<&str> = part.split_whitespace().collect();
    let Some(at) = words.iter().position(|w| matches!(*w, "-c" | "-e" | "--eval")) else { return part };
    let program = at.checked_sub(1).map(|i| words[i].rsplit('/').next().unwrap_or(words[i]));
    if program.is_none_or(|program| SHELLS.contains(&program)) {
        return part;
    }
    let offset = words[at].as_ptr() as usize - part.as_ptr() as usize;
    &part[..offset]
}

/// What a tool's runner runs (`pixi run -e test pip install pytest-mpl`, `uv run --with x
/// pip install y`, `conda run -n env …`): the words after `run`/`exec` and its options.
fn after_a_runner(part: &str) -> &str {
    /// Runner options that take a value as the next word.
    const WITH_VALUE: &[&str] =
        &["-e", "--environment", "--env", "-n", "--name", "-p", "--package", "--with", "--group", "--extra"];
    let offset = |word: &str| word.as_ptr() as usize - part.as_ptr() as usize;
    let mut words = part.split_whitespace();
    if words.nth(1).is_none_or(|runner| !matches!(runner, "run" | "exec")) {
        return part;
    }
    while let Some(word) = words.next() {
        if !word.starts_with('-') {
            return &part[offset(word)..];
        }
        if WITH_VALUE.contains(&word) {
            words.next();
        }
    }
    ""
}

/// Whether `line` installs packages (`pnpm install`, `pip install -e .`, `apt-get install`).
pub fn is_install_command(line: &str) -> bool {
    INSTALL_COMMAND.is_match(line)
}

/// `command` as it runs in the environment the install leaves on PATH (see
/// [`Ecosystem::in_installed_environment`]).
pub fn in_installed_environment(command: &str, package_managers: &[&str]) -> String {
    let (prefix, program) = shell::split_prefix(command);
    match ALL.iter().find_map(|eco| eco.behaviour.in_installed_environment(program, package_managers)) {
        Some(program) => format!("{prefix}{program}"),
        None => command.to_string(),
    }
}

/// `command` without the package manager's runner it goes through (`uv run bash
/// scripts/test.sh` is `bash scripts/test.sh`), to find what it runs.
pub fn without_runner(command: &str) -> String {
    let managers: Vec<&str> = ALL.iter().flat_map(|eco| eco.package_managers.iter().copied()).collect();
    in_installed_environment(command, &managers)
}

/// Whether `command` runs a fan-out test runner (`tox`, `nox`) without selecting the
/// environment of the interpreter on PATH (`tox -e py`).
pub fn fans_out(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    ALL.iter().any(|eco| {
        let runs = words.iter().any(|w| eco.fan_out_test_runners.contains(w));
        // `-e py` or a matrix environment of the current interpreter (`-e py-unit`).
        let current_env = |env: &str| env.split('-').any(|factor| eco.current_environment.contains(&factor));
        let current = words.windows(2).any(|w| ["-e", "--env"].contains(&w[0]) && w[1].split(',').all(current_env));
        runs && !current
    })
}

/// The lines runner `command` runs from `dir` as the ecosystem configuring it declares them
/// (see [`Ecosystem::lines_run_by`]).
pub fn lines_run_by(sources: &Sources, dir: &RelPath, command: &str) -> Vec<String> {
    ALL.iter()
        .map(|eco| eco.behaviour.lines_run_by(sources, dir, command))
        .find(|lines| !lines.is_empty())
        .unwrap_or_default()
}

/// What CI's runner sets that a CI test line behaves by (see [`Ecosystem::runner_env`]).
pub fn runner_env(sources: &Sources, dir: &RelPath, command: &str) -> Vec<(&'static str, &'static str)> {
    ALL.iter().flat_map(|eco| eco.behaviour.runner_env(sources, dir, command)).collect()
}

/// Extension → the ecosystems (indexes in [`ALL`]) whose sources have it, as their
/// declarations say (asked for every file of the tree).
static BY_EXTENSION: LazyLock<std::collections::HashMap<&'static str, Vec<usize>>> = LazyLock::new(|| {
    let mut map: std::collections::HashMap<&'static str, Vec<usize>> = std::collections::HashMap::new();
    for (i, eco) in ALL.iter().enumerate() {
        for extension in eco.source_extensions {
            map.entry(extension).or_default().push(i);
        }
    }
    map
});

/// The repository's main ecosystems: those with the most source files of the project's own
/// (a file counts for every ecosystem whose sources have its extension, so Node and Deno tie
/// on TypeScript); none when it has no source file an ecosystem declares.
pub fn main_ecosystems(repo: &crate::detect::repo::Repo) -> Vec<&'static str> {
    let mut counts = vec![0usize; ALL.len()];
    let mut own: Option<(&str, bool)> = None;
    for file in repo.files() {
        let dir = file.dir();
        let is_own = match own {
            Some((known, answer)) if known == dir => answer,
            _ => {
                let answer = crate::detect::repo::is_own_dir(dir);
                own = Some((dir, answer));
                answer
            }
        };
        let Some((_, extension)) = file.name().rsplit_once('.').filter(|_| is_own) else { continue };
        for &i in BY_EXTENSION.get(extension).into_iter().flatten() {
            counts[i] += 1;
        }
    }
    let most = counts.iter().copied().max().unwrap_or(0);
    ALL.iter().zip(&counts).filter(|(_, n)| most > 0 && **n == most).map(|(eco, _)| eco.id).collect()
}

/// Whether `word` (the first word of a file's name, any letter case) names a test runner's
/// configuration or test-setup file of some ecosystem (`jest.setup.js`, `conftest.py`).
pub fn is_test_file_word(word: &str) -> bool {
    ALL.iter().flat_map(|eco| eco.test_file_words).any(|w| word.eq_ignore_ascii_case(w))
}

/// The ecosystems whose source or settings files `rel` is.
pub fn reading_env_in<'a>(dir: &'a str, name: &'a str) -> impl Iterator<Item = &'static dyn Ecosystem> + 'a {
    let extension = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    let by_source = BY_EXTENSION.get(extension);
    ALL.iter()
        .enumerate()
        .filter(move |(i, eco)| {
            by_source.is_some_and(|found| found.contains(i)) || eco.behaviour.is_settings_file(dir, name)
        })
        .map(|(_, eco)| eco.behaviour)
}

/// Whether some ecosystem reads `name` in `dir` as a settings file (an `appsettings.json`, a
/// Spring `application.yml`) rather than as source code.
pub fn is_settings_file(dir: &str, name: &str) -> bool {
    ALL.iter().any(|eco| eco.behaviour.is_settings_file(dir, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interpreters_inline_check_runs_no_test() {
        assert!(!is_test_command(r#"uv run python -c "import pytest""#));
        assert!(!is_test_command("node -e 'require(\"jest\")'"));
        assert!(is_test_command("bash -c 'python -m pytest tests'"));
        assert!(is_test_command(r#"python -c "import x" && python -m pytest"#));
    }

    #[test]
    fn the_main_ecosystem_has_the_most_own_source_files() {
        let repo = |files: &[&str]| {
            let files = files.iter().map(|f| f.to_string()).collect();
            crate::detect::repo::Repo::from_files(std::path::Path::new("/x"), files, Vec::new(), 1 << 20)
        };
        let python = ["api/a.py", "api/b.py", "web/main.ts", "examples/x/index.js", "docs/y/z.js"];
        assert_eq!(main_ecosystems(&repo(&python)), ["python"]);
        // A TypeScript file is Node's and Deno's.
        let typescript = ["a.ts", "b.tsx", "c.py"];
        assert_eq!(main_ecosystems(&repo(&typescript)), ["node", "deno"]);
        assert!(main_ecosystems(&repo(&["README.md"])).is_empty());
    }

    #[test]
    fn a_test_target_a_member_or_a_name_filter_runs_a_part() {
        assert!(runs_a_part("cargo test --test attr_macro"));
        assert!(runs_a_part("RUST_LOG=trace cargo test --features x -- whitebox_ --test-threads=1"));
        assert!(runs_a_part("cargo nextest run -- --test-threads 1 sled_"));
        assert!(!runs_a_part("cargo test --all-features -- --test-threads 1"));
        assert!(!runs_a_part("cargo test -- --skip slow --nocapture"));
        assert!(!runs_a_part("cargo test -- --nocapture && cargo fmt"));
        assert!(!runs_a_part("cargo test --workspace"));
    }

    #[test]
    fn ids_are_unique_and_every_alias_names_a_declared_toolchain() {
        let mut ids: Vec<&str> = ALL.iter().map(|e| e.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "ecosystem ids are unique");
        let mut toolchains: Vec<&str> = ALL.iter().flat_map(|e| e.toolchains.iter().map(|t| t.id)).collect();
        toolchains.sort_unstable();
        let before = toolchains.len();
        toolchains.dedup();
        assert_eq!(toolchains.len(), before, "each toolchain has one owner");
        for eco in ALL {
            for alias in eco.aliases {
                if alias.kind == AliasKind::PackageManagerTool {
                    assert!(
                        eco.package_managers.contains(&alias.target),
                        "{}: the tool `{}` names `{}`, which is not one of its package managers",
                        eco.id,
                        alias.name,
                        alias.target
                    );
                } else {
                    assert!(
                        eco.toolchains.iter().any(|t| t.id == alias.target),
                        "{}: the alias `{}` names `{}`, which is not one of its toolchains",
                        eco.id,
                        alias.name,
                        alias.target
                    );
                }
            }
        }
    }

    /// What an export writes, detection reads back: every setup step's action is an alias of
    /// the same ecosystem, and it sets up one of the ecosystem's toolchains or managers.
    #[test]
    fn every_setup_step_and_feature_is_the_ecosystems_own() {
        for eco in ALL {
            for step in eco.setup_steps {
                let owned =
                    eco.toolchains.iter().any(|t| t.id == step.target) || eco.package_managers.contains(&step.target);
                assert!(owned, "{}: {} sets up `{}`, which it does not own", eco.id, step.uses, step.target);
                let action = step.uses.split('@').next().unwrap_or_default();
                let readable = eco.aliases.iter().any(|a| is_action(&a.kind) && a.name == action)
                    || eco.package_managers.contains(&step.target);
                assert!(readable, "{}: detection does not read {action}", eco.id);
            }
            for (toolchain, id) in eco.devcontainer_features {
                assert!(eco.toolchains.iter().any(|t| t.id == *toolchain), "{}: {id}", eco.id);
                let name = id.rsplit('/').next().and_then(|n| n.split(':').next()).unwrap_or_default();
                assert!(eco.aliases.iter().any(|a| is_feature(&a.kind) && a.name == name), "{}: {id}", eco.id);
            }
        }
        assert_eq!(setup_step("python").map(|s| s.uses), Some("actions/setup-python@v5"));
        assert_eq!(devcontainer_feature("go"), Some("ghcr.io/devcontainers/features/go:1"));
        assert!(setup_step("cobol").is_none());
    }

    #[test]
    fn lines_that_ship_are_not_tests() {
        assert!(ships("python -m build && pytest -q && twine upload dist/*"));
        assert!(ships("npm test && npm publish --access public"));
        assert!(!ships("pytest -q && echo publish"));
        assert!(!ships("npm test"));
        assert!(ships("cargo publish --locked") && ships("docker push img") && !ships("cargo test"));
    }

    #[test]
    fn pins_need_the_parts_a_toolchain_asks_for() {
        for v in ["3", "3.x", "3.*"] {
            assert!(!pins("python", v), "{v}");
        }
        assert!(pins("python", "3.12"));
        assert!(pins("node", "24"));
        assert_eq!(display_name("dotnet"), ".NET");
        assert_eq!(display_name("unknown"), "unknown");
    }

    #[test]
    fn fan_out_runners_unless_they_name_the_current_interpreter() {
        assert!(fans_out("python3 -m tox"));
        assert!(fans_out("tox -e py39-unit"));
        assert!(!fans_out("tox -e py"));
        assert!(!fans_out("python3 -m tox -e py-unit,py3-nose"));
        assert!(!fans_out("python3 -m pytest"));
    }

    #[test]
    fn commands_without_the_runner_they_go_through() {
        assert_eq!(without_runner("uv run bash scripts/test.sh"), "bash scripts/test.sh");
        assert_eq!(without_runner("poetry run pytest -q"), "python3 -m pytest -q");
        assert_eq!(without_runner("./scripts/test"), "./scripts/test");
    }

    #[test]
    fn a_test_command_belongs_to_its_programs_or_its_runners_ecosystem() {
        let owner = |command: &str| owner_of_test(command).map(|eco| eco.id);
        assert_eq!(owner("yarn test"), Some("node"));
        assert_eq!(owner("PYTHONMALLOC=debug python3 -m pytest -v test"), Some("python"));
        assert_eq!(owner("(cd api && uv run pytest)"), Some("python"));
        assert_eq!(owner("vendor/bin/pest"), Some("php"));
        assert_eq!(owner("cd backend && mix test"), Some("elixir"));
        assert_eq!(owner("make test"), None);
    }

    #[test]
    fn recognises_test_commands() {
        for line in [
            "pnpm test",
            "pnpm run test-unit",
            "npm run test:ci",
            "npm run tests-only",
            "npm run testonly",
            "yarn testall",
            "yarn test --coverage",
            "pnpm -r --filter ./packages test",
            "npm --prefix web run test",
            "npm run --silent test -- --ci",
            "yarn workspace api test:unit",
            "npx vitest run",
            "cargo test --workspace",
            "cargo +nightly test",
            "cargo --locked nextest run --workspace --all-features",
            "go test -race ./...",
            "make test",
            "make -C backend test",
            "make -- \"test.ci\"",
            "make unit-tests",
            "make -j2 test_all",
            "make py-unittest",
            "npm run ci:backend:test",
            "task py:test",
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
            "./tools/ci/ci_test.sh",
            "bundle exec rspec",
            "bin/rails test",
            "mix test --cover",
            "gleam test",
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
            "cd tests/ && py.test --cov jmespath",
            "python -mpytest --no-cov",
            "python -m unittest discover",
            "zope-testrunner --test-path=src",
            "stestr run --slowest",
            "./script/test --fast",
            "bin/test-unit",
            "uv run --with pytest-mpl pytest",
            "hatch run +py=3.8 test:with-coverage",
            "python -m simplejson.tests._cibw_runner .",
            ".venv/bin/python -m mypkg.tests",
        ] {
            assert!(is_test_command(line), "{line}");
        }
        for line in [
            "pnpm install",
            "cargo build --workspace",
            "echo go test",
            "# make test",
            "npm run lint",
            "yarn run eslint src test --format=compact",
            "npm run lint -- test",
            "mvn -B package -DskipTests",
            "mvn dependency:go-offline",
            "bundle exec rake db:migrate",
            "./gradlew assemble",
            "mvn clean verify -Dmaven.test.skip --projects x",
            "./gradlew build -x test",
            "go vet ./...",
            "pnpm run check",
            "make build",
            "make contest",
            "make attest-release",
            "make testdata",
            "npm run testdata",
            "latest-version",
            "scripts/testdata.sh",
            "python -m testfixtures_gen",
            "python -m mypkg.testing_tools",
            "./contest.sh",
            "uv pip install pytest-cov",
            "python -m pip install pytest pytest-xdist",
            "npm install --save-dev jest",
            "uv pip uninstall pytest-speed",
            "yarn remove jest",
            // Preparations of the tests, run before them.
            "npm run test:init",
            "make test-setup",
            "yarn db:migrate",
            "pnpm run test:db:reset",
            "yarn test:setupdb",
            "pixi run -e test-py312 pip install pytest-mpl",
            "uv run --with coverage pip install pytest-xdist",
        ] {
            assert!(!is_test_command(line), "{line}");
        }
        assert!(prepares_tests("npm run test:init") && prepares_tests("cd api && yarn db:seed"));
        assert!(!prepares_tests("npm run test:initial") && !prepares_tests("npm run dbsetup"));
    }
}
