//! CI configuration read as jobs: GitHub Actions workflows (and the local composite actions
//! their steps use), GitLab CI, CircleCI and, where it is the only one, Travis CI. Each [`Job`] lists what the signals need, with
//! expressions resolved where the file says: the actions it uses and their inputs, the shell
//! lines it runs (with the directory each runs in), its service containers, the images it
//! runs in and the `secrets.X` it reads. Nothing here knows an ecosystem: which action sets
//! up which toolchain, or which line runs tests, is for the signals to ask.
//!
//! Decisions:
//! - Workflows are read main ones first (`test*`, `ci*`, `build*`, …), scheduled/nightly ones
//!   and those that check only some changes (`paths:` filters, manual runs) last, so the first
//!   test command is the one a developer runs.
//! - A job whose workspace is another repository (`actions/checkout` with a `repository:` and
//!   no `path:`) tests that project, not this one: it is left out.
//! - A matrix value (`${{ matrix.php }}`) is kept as the key's own list of values (a signal
//!   takes the floor); `include:` entries count only for keys without a list of their own.
//! - `${{ env.X }}`, `${{ matrix.X }}`, `${{ inputs.X }}` and `a || 'b'` are resolved; other
//!   expressions are dropped from commands, with a quoted argument or option built around
//!   one. `$VAR` is substituted when the workflow, job or step `env` sets it.

use crate::warning::Warning;
use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::repo::{Repo, first_entries};
use crate::detect::sources::images::{canonical_service, is_backing_service};
use crate::detect::sources::shell::{is_variable_name, join_path, quote};
use crate::detect::sources::version;
use crate::evidence::{Evidence, Kind};
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

mod expressions;
mod github;
mod others;
mod services;
#[cfg(test)]
mod tests;

pub use self::expressions::{Context, SHELL_VARIABLE};
pub use self::services::docker_run_service;
use self::{expressions::*, services::*};

/// Every CI job of the repository, in reading order (see the module documentation).
#[derive(Debug, Default)]
pub struct Workflows {
    pub jobs: Vec<Job>,
    /// What reading them left out on purpose, for the reader of the draft.
    pub notes: Vec<String>,
}

/// What kind of configuration a job comes from, which decides how much it speaks for the
/// project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// A GitHub Actions job; `release` when its workflow ships rather than tests (by file
    /// name or `name:`).
    Github { release: bool },
    /// GitHub Copilot's agent setup: the `copilot-setup-steps` job of
    /// `.github/workflows/copilot-setup-steps.yml`, written by the owners for agents.
    AgentSetup,
    /// A local composite action no workflow uses, read with its own defaults.
    UnusedAction,
    /// Travis CI, whose services run on the build machine and answer on localhost, as
    /// GitHub's service containers publish their ports.
    Travis,
    /// GitLab CI or CircleCI (and GitLab's global `image`/`services`).
    Other,
}

#[derive(Debug, Clone)]
pub struct Job {
    /// `path#jobs.name` (GitLab: `path#name`; the file for GitLab's globals and Travis).
    pub source: Evidence,
    pub kind: JobKind,
    /// The images the job's own commands run in (`container:`, GitLab `image:`, CircleCI's
    /// first `docker:` image), resolved, with their evidence.
    pub images: Vec<(String, Evidence)>,
    pub services: Vec<JobService>,
    /// Actions the job uses (composite actions' own steps inlined), in step order.
    pub actions: Vec<ActionUse>,
    /// Shell lines the job runs, in order, `cd` lines already applied to the ones after them.
    pub lines: Vec<RunLine>,
    /// `secrets.X` names anywhere in the job's own definition, in order of appearance.
    pub secrets: Vec<String>,
    /// Its workflow runs on a schedule, by hand, or when only some places change: what it
    /// tests is a variant of the suite (latest dependencies, migrations), not every change.
    pub partial: bool,
}

/// A service container of a job.
#[derive(Debug, Clone)]
pub struct JobService {
    pub name: String,
    /// The image, once per matrix value when its tag uses one.
    pub images: Vec<String>,
    pub source: Evidence,
    /// `ports:` as written, without the ones an expression gives.
    pub ports: Vec<String>,
    pub env: Vec<(String, EnvValue)>,
}

impl JobService {
    /// Its ports as `HOST:CONTAINER` (`5432` is published on the same port).
    pub fn published_ports(&self) -> Vec<String> {
        self.ports.iter().map(|p| if p.contains(':') { p.clone() } else { format!("{p}:{p}") }).collect()
    }
}

/// A value of a service container's `env`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvValue {
    Literal(String),
    /// `${{ secrets.X }}`: a secret of the repository.
    Secret(String),
    /// Any other expression: not knowable here.
    Unknown,
}

/// A `uses:` step that is not a local composite action.
#[derive(Debug, Clone)]
pub struct ActionUse {
    /// `owner/name` (lower-cased), without the `@reference`.
    pub action: String,
    /// What follows `@` (`v4`, `1.70`, `master`).
    pub reference: String,
    pub inputs: HashMap<String, Input>,
    pub source: Evidence,
}

/// One `with:` input of an action, resolved in its step's context.
#[derive(Debug, Clone, Default)]
pub struct Input {
    /// The resolved text of its last line (several versions, one a line: the last one is the
    /// default on PATH).
    pub text: String,
    /// When the input is one matrix key: the key's values (its own list first).
    pub matrix: Option<Vec<String>>,
}

/// A shell line of a job.
#[derive(Debug, Clone)]
pub struct RunLine {
    /// Resolved, continuation lines joined, whitespace collapsed.
    pub text: String,
    /// The directory it runs in ("" for the root).
    pub dir: RelPathBuf,
    /// Inside a directory where the job checks out another repository, or outside the
    /// checkout (after `cd $RUNNER_TEMP/app`).
    pub in_foreign_checkout: bool,
    /// Variables of `for NAME in …` loops of the script the line belongs to.
    pub loop_variables: Vec<String>,
    /// What the line needs set to run as in CI: its step's `env:`, the time zone and locale
    /// of the job and workflow, and, when the job runs service containers, the job's own
    /// `env:` (how the tests reach them). Values known
    /// here only: a secret or an unresolved expression is left to the environment.
    pub env: Vec<(String, String)>,
    pub source: Evidence,
    /// An expression of it has no value here (`${{ needs.plan.outputs.suite }}`): run as
    /// resolved, it would lack a word CI gives it (a script then prints its usage).
    pub unresolved: bool,
}

impl RunLine {
    /// Its [`RunLine::env`] as `NAME=value ` words to put before a command, values quoted.
    pub fn env_words(&self) -> String {
        self.env.iter().map(|(name, value)| format!("{} ", quote(&format!("{name}={value}")))).collect()
    }
}

impl Workflows {
    /// The jobs of the repo's CI, with no action read as a command line.
    #[cfg(test)]
    pub fn read(repo: &Repo) -> Workflows {
        Workflows::read_with(repo, |_| None)
    }

    /// The jobs of the repo's CI; `command_actions` says which actions run one command of a
    /// tool (the ecosystems' knowledge, handed down: see [`CommandActions`]).
    pub fn read_with(repo: &Repo, command_actions: CommandActions) -> Workflows {
        let mut reader = Reader { repo, jobs: Vec::new(), composites_used: Vec::new(), command_actions };
        let mut workflows: Vec<&RelPath> = repo
            .under(rel!(".github/workflows"))
            .filter(|f| f.dir() == ".github/workflows" && is_yaml(f.name()))
            .map(|f| f.path())
            .filter(|rel| !repo.read(rel).is_some_and(|text| crate::detect::repo::is_generated(&text)))
            .collect();
        // Each rank once: it parses the workflow, which a large tree does not keep.
        workflows.sort_by_cached_key(|rel| (workflow_rank(repo, rel), *rel));
        let count = workflows.len();
        for (read, rel) in workflows.into_iter().enumerate() {
            if reader.jobs.len() >= MAX_JOBS {
                repo.warn(Warning::in_file(
                    rel,
                    format!(
                        "not read, nor {} other workflow(s) after it: the {read} before it hold {} jobs, more than \
                         detection reads",
                        count - read - 1,
                        reader.jobs.len()
                    ),
                ));
                break;
            }
            reader.github_workflow(rel);
        }
        for file in repo.under(rel!(".github/actions")) {
            let (rel, name) = (file.path(), file.name());
            if (name == "action.yml" || name == "action.yaml") && !reader.composites_used.iter().any(|u| u == rel) {
                let mut job = Job::new(Evidence::key(rel, "runs"), JobKind::UnusedAction);
                reader.composite_action(rel, &HashMap::new(), &Context::default(), &[], &mut job);
                reader.jobs.push(job);
            }
        }
        if repo.exists(rel!(".gitlab-ci.yml")) {
            reader.gitlab(rel!(".gitlab-ci.yml"));
        }
        if repo.exists(rel!(".circleci/config.yml")) {
            reader.circleci(rel!(".circleci/config.yml"));
        }
        // Repos that moved to another CI often leave `.travis.yml` behind, stale: it speaks
        // for the project only when it is the only CI configuration.
        let mut notes = Vec::new();
        if reader.jobs.is_empty() && repo.exists(rel!(".travis.yml")) {
            reader.travis(rel!(".travis.yml"));
        } else if let Some(current) = reader.jobs.iter().find(|job| job.kind != JobKind::UnusedAction)
            && repo.exists(rel!(".travis.yml"))
        {
            // Its pins (a 2019 `pytest==4.6.9`) crash on today's interpreters.
            let file = &current.source.path;
            notes.push(format!("`.travis.yml` is left out: `{file}` is the current CI and supersedes it"));
        }
        Workflows { jobs: reader.jobs, notes }
    }
}

impl Job {
    /// The artifacts it downloads (`actions/download-artifact` with a `name:`), each with
    /// the folder it lands in (the checkout's root when no `path:`).
    pub fn downloads(&self) -> Vec<(&str, &str)> {
        self.artifacts("actions/download-artifact")
    }

    /// The artifacts it uploads (`actions/upload-artifact`), each with the path it uploads.
    pub fn uploads(&self) -> Vec<(&str, &str)> {
        self.artifacts("actions/upload-artifact")
    }

    fn artifacts(&self, action: &str) -> Vec<(&str, &str)> {
        fn input<'a>(action: &'a ActionUse, key: &str) -> &'a str {
            action.inputs.get(key).map(|i| i.text.as_str()).unwrap_or_default()
        }
        self.actions
            .iter()
            .filter(|a| a.action == action)
            .map(|a| (input(a, "name"), input(a, "path")))
            .filter(|(name, _)| !name.is_empty() && !name.contains("${{"))
            .collect()
    }

    fn new(source: Evidence, kind: JobKind) -> Job {
        Job {
            source,
            kind,
            images: Vec::new(),
            services: Vec::new(),
            actions: Vec::new(),
            lines: Vec::new(),
            secrets: Vec::new(),
            partial: false,
        }
    }
}

/// The project's main test workflows first (their commands are the ones to run), then the
/// rest, then scheduled and nightly ones and those that check only some changes.
fn workflow_rank(repo: &Repo, rel: &RelPath) -> u8 {
    let name = rel.file_name().to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or_default();
    let main = ["test", "tests", "ci", "build", "check", "checks", "main"];
    // End-to-end suites drive a built app from outside (`e2e.yml`, `playwright.yml`):
    // another harness, often in a folder of its own with its own toolchain.
    let end_to_end = ["e2e", "end-to-end", "playwright", "cypress"].iter().any(|w| stem.contains(w));
    let docs = repo.read_yaml(rel);
    if is_partial_workflow(rel, docs.as_ref().and_then(|docs| docs.first())) || end_to_end {
        3
    } else if main.contains(&stem) {
        // `test.yml` before `test-coverage.yml`: the variant runs the same suite another way.
        0
    } else if main.iter().any(|w| stem.starts_with(w) || stem.ends_with(w)) {
        1
    } else {
        2
    }
}

/// Whether the workflow `rel` (its first document `doc`) runs on a schedule, by hand, or when
/// only some places change (see [`checks_every_change`]), or is named for a schedule.
fn is_partial_workflow(rel: &RelPath, doc: Option<&Yaml>) -> bool {
    let name = rel.file_name().to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or_default();
    doc.is_some_and(|doc| !checks_every_change(&doc["on"]))
        || ["nightly", "schedule", "cron", "weekly", "daily"].iter().any(|w| stem.contains(w))
}

/// Whether a workflow with these `on:` triggers checks every change: it runs on a push, a
/// pull request or a merge queue unless only named folders or files change, or is called
/// by another workflow (which decides). One whose `paths:` all name places (a
/// `docker-integration.yml` limited to `tests/docker/**`), or that runs by hand or on a
/// schedule, checks a part; `paths: ['**.py', …]` is about every source file.
fn checks_every_change(on: &Yaml) -> bool {
    const EVERY_CHANGE: &[&str] = &["push", "pull_request", "pull_request_target", "merge_group", "workflow_call"];
    // A place: a literal first folder (`tests/docker/**`, `package.json`) or a literal
    // folder at any depth (`**/migrations/**`); `**.py` and `**/*.py` are every source file.
    let names_a_place = |pattern: &str| {
        let segments: Vec<&str> = pattern.split('/').collect();
        let literal = |segment: &&str| !segment.is_empty() && !segment.contains(['*', '?', '[']);
        segments.first().is_some_and(literal) || segments[..segments.len() - 1].iter().any(literal)
    };
    let only_named_places = |paths: &Yaml| {
        let patterns: Vec<String> = paths.as_vec().into_iter().flatten().filter_map(scalar).collect();
        let included = patterns.iter().filter(|p| !p.starts_with('!'));
        !patterns.is_empty() && included.clone().all(|p| names_a_place(p))
    };
    match on {
        Yaml::String(event) => EVERY_CHANGE.contains(&event.as_str()),
        Yaml::Array(events) => events.iter().filter_map(scalar).any(|e| EVERY_CHANGE.contains(&e.as_str())),
        Yaml::Hash(events) => events.iter().any(|(event, filters)| {
            scalar(event).is_some_and(|e| EVERY_CHANGE.contains(&e.as_str())) && !only_named_places(&filters["paths"])
        }),
        // No triggers read: nothing says it is partial.
        _ => true,
    }
}

fn is_yaml(rel: &str) -> bool {
    rel.ends_with(".yml") || rel.ends_with(".yaml")
}

/// Workflows about shipping rather than testing (by file name or `name:`).
fn is_release_workflow(rel: &RelPath, doc: &Yaml) -> bool {
    const WORDS: &[&str] = &["release", "publish", "deploy", "docs", "pages", "nightly-build", "snapshot"];
    let name = format!("{} {}", rel.file_name(), scalar(&doc["name"]).unwrap_or_default()).to_ascii_lowercase();
    WORDS.iter().any(|w| name.contains(w))
}

/// A YAML scalar as text (`3.10` stays `3.10`; `true` becomes `true`).
pub fn scalar(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// At most this many jobs of one CI file are read (see [`first_entries`]): far more than a
/// project's CI has, and a bound on the work a file of generated jobs makes.
pub const MAX_JOBS_PER_FILE: usize = 256;
/// Workflows are read, most relevant first, until they hold this many jobs.
pub const MAX_JOBS: usize = 1024;

/// Reads the CI files into jobs; each CI's reader is in its own file (`github`, `others`).
struct Reader<'r> {
    repo: &'r Repo,
    jobs: Vec<Job>,
    composites_used: Vec<RelPathBuf>,
    command_actions: CommandActions,
}

/// The program and the inputs that follow it of an action that runs one command of a tool
/// (`actions-rs/cargo` with `command: test`): none for any other action.
pub type CommandActions = fn(&str) -> Option<(&'static str, &'static [&'static str])>;

/// Variables the GitHub Actions runner sets for every step. A repo's test script may read
/// them to leave out what CI runs as steps of their own (encode's `scripts/test` runs
/// `scripts/check` and a coverage gate only when `$GITHUB_ACTIONS` is empty).
pub const RUNNER_VARIABLES: &[(&str, &str)] = &[("GITHUB_ACTIONS", "true"), ("CI", "true")];

/// The entries of an `env:` map whose values are known here (expressions resolved in `ctx`):
/// no secret, no expression left. How CI prints (colour, width) is kept: a terminal library's
/// suite asserts it (colored's colour codes need `CLICOLOR_FORCE`).
fn literal_env(env: &Yaml, ctx: &Context) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (key, value) in env.as_hash().into_iter().flatten() {
        let (Some(key), Some(value)) = (scalar(key), scalar(value)) else { continue };
        let value = ctx.resolve_value(&value);
        // `node-version: lts/*` is the workflow's own setting (`${{ env.node-version }}`):
        // no shell can read a name with a dash.
        if is_variable_name(&key) && !value.contains("${{") {
            found.push((key, value.trim_end_matches('\n').to_string()));
        }
    }
    found
}

/// `echo "NAME=value" >> "$GITHUB_ENV"`: a variable the steps after this one see, when its
/// value is known here (no variable or command in it).
fn exported_to_later_steps(line: &str) -> Option<(String, String)> {
    let c = GITHUB_ENV_LINE.captures(line)?;
    Some((c[1].to_string(), c[2].to_string()))
}

/// A service container's `env`: literals, `secrets.X` references, unknown expressions.
fn service_env(env: &Yaml) -> Vec<(String, EnvValue)> {
    let mut found = Vec::new();
    for (key, value) in env.as_hash().into_iter().flatten() {
        let (Some(key), Some(value)) = (scalar(key), scalar(value)) else { continue };
        let secret = EXPRESSION
            .captures(&value)
            .filter(|c| c[0].len() == value.trim().len())
            .and_then(|c| c[1].trim().strip_prefix("secrets.").map(str::to_string));
        let value = match secret {
            Some(secret) => EnvValue::Secret(secret),
            None if value.contains("${{") => EnvValue::Unknown,
            None => EnvValue::Literal(value),
        };
        found.push((key, value));
    }
    found
}

fn action_use(uses: &str, with: &Yaml, ctx: &Context, source: Evidence) -> ActionUse {
    let (action, reference) = uses.split_once('@').unwrap_or((uses, ""));
    let mut inputs = HashMap::new();
    for (key, value) in with.as_hash().into_iter().flatten() {
        let (Some(key), Some(raw)) = (scalar(key), scalar(value)) else { continue };
        let last = raw.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or_default();
        let matrix = EXPRESSION
            .captures(last)
            .and_then(|c| c[1].trim().strip_prefix("matrix.").map(|key| ctx.matrix_values_own_first(key)));
        let text = if matrix.is_some() { String::new() } else { ctx.resolve(last) };
        inputs.insert(key, Input { text, matrix });
    }
    ActionUse { action: action.to_ascii_lowercase(), reference: reference.to_string(), inputs, source }
}

/// The directories (`""` for the workspace root) where a job checks out another repository.
fn foreign_checkouts(job: &Yaml) -> Vec<RelPathBuf> {
    job["steps"]
        .as_vec()
        .into_iter()
        .flatten()
        .filter(|step| {
            let checkout =
                scalar(&step["uses"]).is_some_and(|u| u.to_ascii_lowercase().starts_with("actions/checkout@"));
            let repository = scalar(&step["with"]["repository"]).unwrap_or_default();
            checkout && !repository.is_empty() && !repository.contains("github.repository")
        })
        .filter_map(|step| join_path("", &scalar(&step["with"]["path"]).unwrap_or_default()))
        .collect()
}

/// The lines of a script run from `dir`: continuations joined, resolved, `cd DIR` lines and
/// literal `export`s applied to the lines after them.
fn run_lines(script: &str, dir: &str, ctx: &Context, foreign_dirs: &[RelPathBuf], source: &Evidence) -> Vec<RunLine> {
    let mut dir = join_path("", &ctx.resolve(dir)).unwrap_or_default();
    let loop_variables: Vec<String> =
        LOOP_VARIABLE.captures_iter(script).filter_map(|c| c.get(1)).map(|m| m.as_str().to_string()).collect();
    let mut lines = Vec::new();
    let mut pending = String::new();
    let mut exported: Vec<(String, String)> = Vec::new();
    let mut outside = false;
    for raw in script.lines() {
        let line = raw.trim();
        if let Some(continued) = line.strip_suffix('\\') {
            pending.push_str(continued);
            pending.push(' ');
            continue;
        }
        let line = std::mem::take(&mut pending) + line;
        let resolved = ctx.resolve(&line);
        if resolved.is_empty() {
            continue;
        }
        // `cd web` on a line of its own: the lines after it run there; after `cd
        // $RUNNER_TEMP/app` (an app the job generates) or `cd /tmp/x`, outside the checkout.
        if let Some(target) = resolved.strip_prefix("cd ").filter(|t| !t.contains(char::is_whitespace)) {
            let target = target.trim_matches(['"', '\'']);
            let in_workspace = ["$GITHUB_WORKSPACE", "${GITHUB_WORKSPACE}"]
                .iter()
                .find_map(|root| target.strip_prefix(root))
                .map(|rest| rest.trim_start_matches('/'));
            match in_workspace {
                Some(rest) => {
                    dir = join_path("", rest).unwrap_or_default();
                    outside = false;
                }
                None if target == "-" => {}
                None => match join_path(&dir, target) {
                    Some(joined) => dir = joined,
                    None => outside = true,
                },
            }
            continue;
        }
        let in_foreign_checkout = outside || foreign_dirs.iter().any(|f| !f.is_root() && dir.is_within(f));
        let exports = exported_by(&resolved);
        lines.push(RunLine {
            unresolved: ctx.leaves_unknown(&line),
            text: resolved,
            dir: dir.clone(),
            in_foreign_checkout,
            loop_variables: loop_variables.clone(),
            env: exported.clone(),
            source: source.clone(),
        });
        for (name, value) in exports {
            exported.retain(|(set, _)| *set != name);
            exported.push((name, value));
        }
    }
    lines
}

/// `export PGPASSWORD=postgres`: what a script line sets for the lines after it, when the
/// values are literals.
fn exported_by(line: &str) -> Vec<(String, String)> {
    let Some(rest) = line.strip_prefix("export ") else { return Vec::new() };
    let words = shell_words::split(rest).unwrap_or_default();
    words
        .iter()
        .filter_map(|word| word.split_once('='))
        .filter(|(name, value)| is_variable_name(name) && !value.contains(['$', '`']))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

/// Whether a job or step with this `if:` never runs: `false`, or a comparison of an input
/// known here (`inputs.download-build == 'true'` in a composite action whose caller leaves
/// the input at its default), or a matrix key equal to a value no combination gives. Env
/// values may come from other jobs' outputs, and anything else may hold: they run.
fn never_runs(condition: &Yaml, ctx: &Context) -> bool {
    match condition {
        Yaml::Boolean(value) => !value,
        Yaml::String(text) => {
            let text = text.trim();
            let inner = text.strip_prefix("${{").and_then(|t| t.strip_suffix("}}")).unwrap_or(text).trim();
            if inner == "false" {
                return true;
            }
            let Some(c) = DEFINITE_COMPARISON.captures(inner) else { return false };
            // A step for one matrix value that no combination has (`matrix.rust == 'nightly'`
            // beside `rust: [1.87.0, 1.80.0]`); its values are many, so `!=` is left alone.
            if &c[2] == "==" {
                let (key, literal) = match (c[1].strip_prefix("matrix."), c[3].strip_prefix("matrix.")) {
                    (Some(key), None) => (key, &c[3]),
                    (None, Some(key)) => (key, &c[1]),
                    _ => ("", ""),
                };
                if let Some(literal) = literal.strip_prefix('\'').and_then(|l| l.strip_suffix('\'')) {
                    return ctx.matrix_never_is(key, literal);
                }
            }
            if c[1].starts_with("matrix.") || c[3].starts_with("matrix.") {
                return false;
            }
            let (Some(left), Some(right)) = (ctx.value(&c[1]), ctx.value(&c[3])) else { return false };
            // GitHub compares strings ignoring case.
            left.eq_ignore_ascii_case(&right) == (&c[2] == "!=")
        }
        _ => false,
    }
}

/// `inputs.X == 'literal'` (or `!=`, either way round, or `matrix.X == 'literal'`), one
/// comparison alone.
static DEFINITE_COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    let operand = r"((?:inputs|matrix)\.[A-Za-z0-9_-]+|'[^']*')";
    Regex::new(&format!(r"^{operand}[[:space:]]*(==|!=)[[:space:]]*{operand}$"))
        .expect("the comparison pattern is valid")
});

/// The `secrets.X` names a workflow string reads. GitHub substitutes secrets only inside
/// `${{ … }}`, so a script that writes `conf/secrets.json` names no secret.
pub fn secret_references(text: &str) -> Vec<String> {
    EXPRESSION
        .captures_iter(text)
        .flat_map(|expr| {
            SECRET_REFERENCE
                .captures_iter(&expr[1])
                .filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str().to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every string in a YAML tree.
fn strings<'a>(node: &'a Yaml, found: &mut Vec<&'a str>) {
    match node {
        Yaml::String(s) => found.push(s),
        Yaml::Array(items) => items.iter().for_each(|i| strings(i, found)),
        Yaml::Hash(hash) => hash.iter().for_each(|(k, v)| {
            strings(k, found);
            strings(v, found);
        }),
        _ => {}
    }
}

/// An image whose tag may use matrix values, once per value.
fn expand_matrix(image: &str, ctx: &Context) -> Vec<String> {
    if let Some(c) = EXPRESSION.captures(image)
        && let Some(key) = c[1].trim().strip_prefix("matrix.")
    {
        let values = ctx.matrix_values(key);
        if !values.is_empty() {
            return values.iter().map(|v| image.replacen(&c[0], v, 1)).collect();
        }
    }
    vec![ctx.resolve(image)]
}

/// The `with:` inputs of a step, resolved in the caller's context.
fn action_inputs(with: &Yaml, ctx: &Context) -> HashMap<String, String> {
    let mut inputs = HashMap::new();
    for (k, v) in with.as_hash().into_iter().flatten() {
        if let (Some(k), Some(v)) = (scalar(k), scalar(v)) {
            // Keep a bare matrix reference as is: the composite resolves it with the matrix.
            // So is an expression not knowable here (`needs.x.outputs.y`): unknown, not empty.
            let unknown = EXPRESSION.captures_iter(&v).any(|c| ctx.value(&c[1]).is_none());
            inputs.insert(k, if v.contains("matrix.") || unknown { v } else { ctx.resolve(&v) });
        }
    }
    inputs
}

/// The value of a matrix key's own list that stands for the matrix: the one with the lowest
/// version (the floor a project supports), else a Linux runner's, else the first. The value as written: a step's
/// `pip install "click==${{ matrix.click }}"` needs CI's `8.0.*`, not the pin `8.0` read from it
/// (toolchain readers take the pin from the value themselves).
fn picked_value(own: &[String]) -> Option<String> {
    // A list of runners (`os: [macos-latest, ubuntu-latest]`): the Linux one, as a sandbox is.
    let linux = own.iter().find(|value| value.starts_with("ubuntu") || value.contains("linux"));
    let Some(lowest) = version::lowest(own) else { return linux.or(own.first()).cloned() };
    own.iter().find(|value| version::pin(value).as_deref() == Some(lowest.as_str())).cloned()
}
