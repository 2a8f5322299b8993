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

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::repo::{Repo, file_name, first_entries};
use crate::detect::sources::images::{canonical_service, is_backing_service};
use crate::detect::sources::shell::{commands, is_variable_name, join_path, quote};
use crate::detect::sources::version;
use crate::evidence::{Evidence, Kind};

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
    /// The repo-relative directory it runs in ("" for the root).
    pub dir: String,
    /// Inside a directory where the job checks out another repository, or outside the
    /// checkout (after `cd $RUNNER_TEMP/app`).
    pub in_foreign_checkout: bool,
    /// Variables of `for NAME in …` loops of the script the line belongs to.
    pub loop_variables: Vec<String>,
    /// What the line needs set to run as in CI: its step's `env:` and, when the job runs
    /// service containers, the job's own `env:` (how the tests reach them). Values known
    /// here only: a secret or an unresolved expression is left to the environment.
    pub env: Vec<(String, String)>,
    pub source: Evidence,
}

impl RunLine {
    /// Its [`RunLine::env`] as `NAME=value ` words to put before a command, values quoted.
    pub fn env_words(&self) -> String {
        self.env.iter().map(|(name, value)| format!("{} ", quote(&format!("{name}={value}")))).collect()
    }
}

impl Workflows {
    pub fn read(repo: &Repo) -> Workflows {
        let mut reader = Reader { repo, jobs: Vec::new(), composites_used: Vec::new() };
        let mut workflows: Vec<&str> = repo
            .under(".github/workflows")
            .filter(|f| f.dir() == ".github/workflows" && is_yaml(f.name()))
            .map(|f| f.path())
            .filter(|rel| !repo.read(rel).is_some_and(|text| crate::detect::repo::is_generated(&text)))
            .collect();
        workflows.sort_by_key(|rel| (workflow_rank(repo, rel), *rel));
        let count = workflows.len();
        for (read, rel) in workflows.into_iter().enumerate() {
            if reader.jobs.len() >= MAX_JOBS {
                repo.warn(format!(
                    "{rel}: not read, nor {} other workflow(s) after it: the {read} before it hold {} jobs, more than \
                     detection reads",
                    count - read - 1,
                    reader.jobs.len()
                ));
                break;
            }
            reader.github_workflow(rel);
        }
        for file in repo.under(".github/actions") {
            let (rel, name) = (file.path(), file.name());
            if (name == "action.yml" || name == "action.yaml") && !reader.composites_used.iter().any(|u| u == rel) {
                let mut job = Job::new(Evidence::key(rel, "runs"), JobKind::UnusedAction);
                reader.composite_action(rel, &HashMap::new(), &Context::default(), &[], &mut job);
                reader.jobs.push(job);
            }
        }
        if repo.exists(".gitlab-ci.yml") {
            reader.gitlab(".gitlab-ci.yml");
        }
        if repo.exists(".circleci/config.yml") {
            reader.circleci(".circleci/config.yml");
        }
        // Repos that moved to another CI often leave `.travis.yml` behind, stale: it speaks
        // for the project only when it is the only CI configuration.
        let mut notes = Vec::new();
        if reader.jobs.is_empty() && repo.exists(".travis.yml") {
            reader.travis(".travis.yml");
        } else if let Some(current) = reader.jobs.iter().find(|job| job.kind != JobKind::UnusedAction)
            && repo.exists(".travis.yml")
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
fn workflow_rank(repo: &Repo, rel: &str) -> u8 {
    let name = file_name(rel).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or_default();
    let main = ["test", "tests", "ci", "build", "check", "checks", "main"];
    // End-to-end suites drive a built app from outside (`e2e.yml`, `playwright.yml`):
    // another harness, often in a folder of its own with its own toolchain.
    let end_to_end = ["e2e", "end-to-end", "playwright", "cypress"].iter().any(|w| stem.contains(w));
    if is_partial_workflow(repo, rel) || end_to_end {
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

/// A workflow that runs on a schedule, by hand, or when only some places change (see
/// [`checks_every_change`]), or is named for a schedule.
fn is_partial_workflow(repo: &Repo, rel: &str) -> bool {
    let name = file_name(rel).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or_default();
    let partial = repo.read_yaml(rel).and_then(|docs| docs.first().map(|doc| !checks_every_change(&doc["on"])));
    partial == Some(true) || ["nightly", "schedule", "cron", "weekly", "daily"].iter().any(|w| stem.contains(w))
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
fn is_release_workflow(rel: &str, doc: &Yaml) -> bool {
    const WORDS: &[&str] = &["release", "publish", "deploy", "docs", "pages", "nightly-build", "snapshot"];
    let name = format!("{} {}", file_name(rel), scalar(&doc["name"]).unwrap_or_default()).to_ascii_lowercase();
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

struct Reader<'r> {
    repo: &'r Repo,
    jobs: Vec<Job>,
    composites_used: Vec<String>,
}

impl Reader<'_> {
    fn github_workflow(&mut self, rel: &str) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let release = is_release_workflow(rel, doc);
        let partial = is_partial_workflow(self.repo, rel);
        let workflow_ctx = Context::default().with_env(&doc["env"]);
        let Some(jobs) = doc["jobs"].as_hash() else { return };
        let read = first_entries(self.repo, rel, "jobs", jobs.len(), MAX_JOBS_PER_FILE);
        for (job_name, def) in jobs.iter().take(read) {
            let Some(job_name) = scalar(job_name) else { continue };
            let foreign_dirs = foreign_checkouts(def);
            if foreign_dirs.iter().any(String::is_empty) || never_runs(&def["if"], &workflow_ctx) {
                continue;
            }
            let agent_setup = file_name(rel).starts_with("copilot-setup-steps.") && job_name == "copilot-setup-steps";
            let kind = if agent_setup { JobKind::AgentSetup } else { JobKind::Github { release } };
            let evidence = Evidence::job(rel, format!("jobs.{job_name}"));
            let evidence = if agent_setup { evidence.of(Kind::AgentSetup) } else { evidence };
            let mut job = Job { partial, ..Job::new(evidence, kind) };
            let ctx = workflow_ctx.with_matrix(&def["strategy"]["matrix"]).with_env(&def["env"]);
            for (name, service) in def["services"].as_hash().into_iter().flatten() {
                let Some(name) = scalar(name) else { continue };
                let image = scalar(&service["image"]).or_else(|| scalar(service)).unwrap_or_default();
                job.services.push(JobService {
                    images: expand_matrix(&image, &ctx),
                    source: job.source.sub_key(&format!("services.{name}")),
                    ports: service["ports"]
                        .as_vec()
                        .into_iter()
                        .flatten()
                        .filter_map(scalar)
                        .filter(|p| !p.contains("${{"))
                        .collect(),
                    env: service_env(&service["env"]),
                    name,
                });
            }
            if let Some(image) = scalar(&def["container"]["image"]).or_else(|| scalar(&def["container"])) {
                job.images.push((ctx.resolve(&image), job.source.sub_key("container")));
            }
            // The job's env reaches its tests only beside services: it says how they connect.
            let declared_services = !job.services.is_empty();
            let job_env = if declared_services { literal_env(&def["env"], &ctx) } else { Vec::new() };
            let default_dir = scalar(&def["defaults"]["run"]["working-directory"])
                .or_else(|| scalar(&doc["defaults"]["run"]["working-directory"]));
            // What earlier steps wrote to `$GITHUB_ENV`: the environment of the steps after them.
            let mut exported: Vec<(String, String)> = Vec::new();
            for (i, step) in def["steps"].as_vec().into_iter().flatten().enumerate() {
                let source = job.source.sub_key(&format!("steps[{i}]"));
                let step_ctx = ctx.with_pairs(&exported).with_env(&step["env"]);
                if never_runs(&step["if"], &step_ctx) {
                    continue;
                }
                if let Some(uses) = scalar(&step["uses"]) {
                    if let Some(local) = uses.strip_prefix("./") {
                        let inputs = action_inputs(&step["with"], &step_ctx);
                        for file in ["action.yml", "action.yaml"] {
                            let path = format!("{}/{file}", local.trim_end_matches('/'));
                            if self.repo.exists(&path) {
                                if !self.composites_used.contains(&path) {
                                    self.composites_used.push(path.clone());
                                }
                                self.composite_action(&path, &inputs, &step_ctx, &foreign_dirs, &mut job);
                            }
                        }
                    } else {
                        job.actions.push(action_use(&uses, &step["with"], &step_ctx, source.clone()));
                    }
                }
                if let Some(script) = scalar(&step["run"]) {
                    let dir = scalar(&step["working-directory"]).or_else(|| default_dir.clone()).unwrap_or_default();
                    let mut env = job_env.clone();
                    for (name, value) in exported.iter().cloned().chain(literal_env(&step["env"], &ctx)) {
                        env.retain(|(set, _)| *set != name);
                        env.push((name, value));
                    }
                    let mut lines = run_lines(&script, &dir, &step_ctx, &foreign_dirs, &source);
                    for line in &mut lines {
                        // What the script itself exported before the line comes last.
                        let mut line_env = env.clone();
                        for (name, value) in std::mem::take(&mut line.env) {
                            line_env.retain(|(set, _)| *set != name);
                            line_env.push((name, value));
                        }
                        line.env = line_env;
                    }
                    // A step that runs only in some cells (`if: matrix.target != ''`) exports
                    // only there. Read as written: an expression (a secret) resolves to
                    // nothing here, and `TOKEN=` would blank the sandbox's own value.
                    let conditional = !step["if"].is_badvalue();
                    let literal = script.lines().filter(|line| !conditional && !line.contains("${{"));
                    for (name, value) in literal.filter_map(|line| exported_to_later_steps(line.trim())) {
                        exported.retain(|(set, _)| *set != name);
                        exported.push((name, value));
                    }
                    job.lines.extend(lines);
                }
            }
            let started: Vec<JobService> = job.actions.iter().filter_map(service_started_by).collect();
            job.services.extend(started);
            let run: Vec<JobService> = job.lines.iter().filter_map(service_run_by).collect();
            job.services.extend(run);
            if !declared_services && !job.services.is_empty() {
                // Services a step starts (`docker run -p 5432:5432 postgres`) count too.
                let job_env = literal_env(&def["env"], &ctx);
                for line in &mut job.lines {
                    let own = std::mem::take(&mut line.env);
                    line.env =
                        job_env.iter().filter(|(name, _)| !own.iter().any(|(set, _)| set == name)).cloned().collect();
                    line.env.extend(own);
                }
            }
            let mut found = Vec::new();
            strings(def, &mut found);
            job.secrets = found.into_iter().flat_map(secret_references).collect();
            self.jobs.push(job);
        }
    }

    /// A local composite action's steps, added to `job` in the caller's context, with inputs
    /// from the caller's `with:` or the action's defaults.
    fn composite_action(
        &self,
        rel: &str,
        given: &HashMap<String, String>,
        caller: &Context,
        foreign_dirs: &[String],
        job: &mut Job,
    ) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let mut ctx = caller.clone();
        ctx.inputs.clear();
        for (name, input) in doc["inputs"].as_hash().into_iter().flatten() {
            if let Some(name) = scalar(name)
                && let Some(default) = scalar(&input["default"])
            {
                ctx.inputs.insert(name, default);
            }
        }
        for (name, value) in given {
            ctx.inputs.insert(name.clone(), value.clone());
        }
        for (i, step) in doc["runs"]["steps"].as_vec().into_iter().flatten().enumerate() {
            let source = Evidence::key(rel, format!("runs.steps[{i}]")).of(Kind::Ci);
            let step_ctx = ctx.with_env(&step["env"]);
            if never_runs(&step["if"], &step_ctx) {
                continue;
            }
            if let Some(uses) = scalar(&step["uses"]) {
                // An input that forwards a matrix reference resolves through the caller's matrix.
                let mut with = step["with"].clone();
                if let Yaml::Hash(hash) = &mut with {
                    for value in hash.values_mut() {
                        if let Some(text) = scalar(value) {
                            let forwarded = EXPRESSION.replace_all(&text, |c: &regex::Captures| {
                                match c[1].trim().strip_prefix("inputs.").and_then(|k| step_ctx.inputs.get(k)) {
                                    Some(v) => v.clone(),
                                    None => c[0].to_string(),
                                }
                            });
                            *value = Yaml::String(forwarded.into_owned());
                        }
                    }
                }
                job.actions.push(action_use(&uses, &with, &step_ctx, source.clone()));
            }
            if let Some(script) = scalar(&step["run"]) {
                let dir = scalar(&step["working-directory"]).unwrap_or_default();
                job.lines.extend(run_lines(&script, &dir, &step_ctx, foreign_dirs, &source));
            }
        }
    }

    /// GitLab CI: global and per-job `services:` and `image:`, `script:` lines.
    fn gitlab(&mut self, rel: &str) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let ctx = Context::default().with_env(&doc["variables"]);
        let service_image = |s: &Yaml| scalar(s).or_else(|| scalar(&s["name"]));
        let gitlab_service = |image: String, source: Evidence| JobService {
            name: String::new(),
            images: vec![image],
            source,
            ports: Vec::new(),
            env: Vec::new(),
        };
        let mut global = Job::new(Evidence::file(rel).of(Kind::Ci), JobKind::Other);
        for service in doc["services"].as_vec().into_iter().flatten() {
            if let Some(image) = service_image(service) {
                global.services.push(gitlab_service(ctx.resolve(&image), global.source.sub_key("services")));
            }
        }
        if let Some(image) = scalar(&doc["image"]).or_else(|| scalar(&doc["image"]["name"])) {
            global.images.push((ctx.resolve(&image), global.source.sub_key("image")));
        }
        self.jobs.push(global);
        let entries = doc.as_hash().into_iter().flatten().filter(|(_, def)| !def["script"].is_badvalue());
        let read = first_entries(self.repo, rel, "jobs", entries.clone().count(), MAX_JOBS_PER_FILE);
        for (name, def) in entries.take(read) {
            let Some(name) = scalar(name) else { continue };
            let job_ctx = ctx.with_env(&def["variables"]);
            let mut job = Job::new(Evidence::job(rel, name), JobKind::Other);
            for service in def["services"].as_vec().into_iter().flatten() {
                if let Some(image) = service_image(service) {
                    job.services.push(gitlab_service(job_ctx.resolve(&image), job.source.sub_key("services")));
                }
            }
            if let Some(image) = scalar(&def["image"]).or_else(|| scalar(&def["image"]["name"])) {
                job.images.push((job_ctx.resolve(&image), job.source.sub_key("image")));
            }
            let script: Vec<String> = match &def["script"] {
                Yaml::Array(lines) => lines.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect(),
            };
            let source = job.source.sub_key("script");
            job.lines.extend(run_lines(&script.join("\n"), "", &job_ctx, &[], &source));
            self.jobs.push(job);
        }
    }

    /// CircleCI: `jobs.X.docker` (the first image is the job's own, the rest are services)
    /// and `run` steps.
    fn circleci(&mut self, rel: &str) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let jobs = doc["jobs"].as_hash().into_iter().flatten();
        let read = first_entries(self.repo, rel, "jobs", jobs.clone().count(), MAX_JOBS_PER_FILE);
        for (name, def) in jobs.take(read) {
            let Some(name) = scalar(name) else { continue };
            let mut job = Job::new(Evidence::job(rel, format!("jobs.{name}")), JobKind::Other);
            let ctx = Context::default().with_env(&def["environment"]);
            let images = def["docker"].as_vec().into_iter().flatten().filter_map(|d| scalar(&d["image"]));
            for (i, image) in images.enumerate() {
                if i == 0 {
                    job.images.push((image, job.source.sub_key("docker")));
                } else {
                    job.services.push(JobService {
                        name: String::new(),
                        images: vec![image],
                        source: job.source.sub_key(&format!("docker[{i}]")),
                        ports: Vec::new(),
                        env: Vec::new(),
                    });
                }
            }
            for (i, step) in def["steps"].as_vec().into_iter().flatten().enumerate() {
                let run = &step["run"];
                if let Some(script) = scalar(run).or_else(|| scalar(&run["command"])) {
                    let dir = scalar(&run["working_directory"]).unwrap_or_default();
                    let source = job.source.sub_key(&format!("steps[{i}]"));
                    job.lines.extend(run_lines(&script, &dir, &ctx, &[], &source));
                }
            }
            self.jobs.push(job);
        }
    }

    /// Travis CI: the `services:` it starts on the build machine (and the database versions
    /// `addons:` picks), as the service containers they amount to, and the lines of its
    /// `before_install`, `install`, `before_script` and `script` phases, in that order.
    fn travis(&mut self, rel: &str) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let mut job = Job::new(Evidence::file(rel).of(Kind::Ci), JobKind::Travis);
        let included =
            ["jobs", "matrix"].into_iter().flat_map(|key| doc[key]["include"].as_vec().into_iter().flatten());
        let mut names: Vec<String> = Vec::new();
        for build in std::iter::once(doc).chain(included) {
            let listed = match &build["services"] {
                Yaml::Array(items) => items.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect::<Vec<_>>(),
            };
            // `addons: {mariadb: '10.6'}` installs MariaDB in place of the MySQL service.
            let addons = ["postgresql", "mariadb"].into_iter().filter(|a| !build["addons"][*a].is_badvalue());
            for name in listed.into_iter().chain(addons.map(str::to_string)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        let addon_version = |name: &str| scalar(&doc["addons"][name]).filter(|v| !v.is_empty());
        for name in &names {
            let Some(known) = TRAVIS_SERVICES.iter().find(|t| t.name == name) else { continue };
            let version = known.version_addon.and_then(addon_version);
            job.services.push(JobService {
                name: known.image.to_string(),
                images: vec![version.map_or_else(|| known.image.to_string(), |v| format!("{}:{v}", known.image))],
                source: job.source.sub_key("services"),
                ports: vec![known.port.to_string()],
                env: known.env.iter().map(|(k, v)| (k.to_string(), EnvValue::Literal(v.to_string()))).collect(),
            });
        }
        for phase in ["before_install", "install", "before_script", "script"] {
            let script: Vec<String> = match &doc[phase] {
                Yaml::Array(lines) => lines.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect(),
            };
            // `travis_retry` and `travis_wait N` wrap a command in Travis's own retry and
            // timeout: the command is what runs.
            let script: Vec<String> = script.iter().map(|line| without_travis_wrapper(line).to_string()).collect();
            let source = job.source.sub_key(phase);
            job.lines.extend(run_lines(&script.join("\n"), "", &Context::default(), &[], &source));
        }
        let run: Vec<JobService> = job.lines.iter().filter_map(service_run_by).collect();
        job.services.extend(run);
        self.jobs.push(job);
    }
}

/// A service Travis CI starts on its build machine, and the official image that amounts to.
struct TravisService {
    name: &'static str,
    image: &'static str,
    port: u16,
    /// The `addons:` key that picks its version (`addons: {postgresql: "13"}`).
    version_addon: Option<&'static str>,
    /// What Travis's set-up amounts to in the image's variables: its MySQL and MariaDB have a
    /// `root` without a password, its PostgreSQL trusts local connections as `postgres`.
    env: &'static [(&'static str, &'static str)],
}

/// Travis's service names, from its documentation of databases and services.
const TRAVIS_SERVICES: &[TravisService] = &[
    TravisService {
        name: "postgresql",
        image: "postgres",
        port: 5432,
        version_addon: Some("postgresql"),
        env: &[("POSTGRES_HOST_AUTH_METHOD", "trust")],
    },
    TravisService {
        name: "mysql",
        image: "mysql",
        port: 3306,
        version_addon: None,
        env: &[("MYSQL_ALLOW_EMPTY_PASSWORD", "yes")],
    },
    TravisService {
        name: "mariadb",
        image: "mariadb",
        port: 3306,
        version_addon: Some("mariadb"),
        env: &[("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "yes")],
    },
    TravisService { name: "redis-server", image: "redis", port: 6379, version_addon: None, env: &[] },
    TravisService { name: "redis", image: "redis", port: 6379, version_addon: None, env: &[] },
    TravisService { name: "mongodb", image: "mongo", port: 27017, version_addon: None, env: &[] },
    TravisService { name: "memcached", image: "memcached", port: 11211, version_addon: None, env: &[] },
    TravisService { name: "rabbitmq", image: "rabbitmq", port: 5672, version_addon: None, env: &[] },
    TravisService { name: "elasticsearch", image: "elasticsearch", port: 9200, version_addon: None, env: &[] },
];

fn without_travis_wrapper(line: &str) -> &str {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix("travis_retry ") {
        return rest.trim_start();
    }
    if let Some(rest) = line.strip_prefix("travis_wait ") {
        let rest = rest.trim_start();
        let minutes = rest.split_whitespace().next().filter(|w| w.parse::<u32>().is_ok());
        return minutes.map_or(rest, |m| rest[m.len()..].trim_start());
    }
    line
}

/// Variables the GitHub Actions runner sets for every step. A repo's test script may read
/// them to leave out what CI runs as steps of their own (encode's `scripts/test` runs
/// `scripts/check` and a coverage gate only when `$GITHUB_ACTIONS` is empty).
pub const RUNNER_VARIABLES: &[(&str, &str)] = &[("GITHUB_ACTIONS", "true"), ("CI", "true")];

/// Variables only for how CI prints (colour, width): nothing a test needs.
const DISPLAY_VARIABLES: &[&str] = &["FORCE_COLOR", "PY_COLORS", "NO_COLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS"];

/// The entries of an `env:` map whose values are known here (expressions resolved in `ctx`):
/// no secret, no expression left, no display setting.
fn literal_env(env: &Yaml, ctx: &Context) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (key, value) in env.as_hash().into_iter().flatten() {
        let (Some(key), Some(value)) = (scalar(key), scalar(value)) else { continue };
        let value = ctx.resolve_value(&value);
        // `node-version: lts/*` is the workflow's own setting (`${{ env.node-version }}`):
        // no shell can read a name with a dash.
        if is_variable_name(&key) && !value.contains("${{") && !DISPLAY_VARIABLES.contains(&key.as_str()) {
            found.push((key, value.trim_end_matches('\n').to_string()));
        }
    }
    found
}

/// `echo "NAME=value" >> "$GITHUB_ENV"`: a variable the steps after this one see, when its
/// value is known here (no variable or command in it) and not one for how CI prints.
fn exported_to_later_steps(line: &str) -> Option<(String, String)> {
    let c = GITHUB_ENV_LINE.captures(line)?;
    let (name, value) = (c[1].to_string(), c[2].to_string());
    (!DISPLAY_VARIABLES.contains(&name.as_str())).then_some((name, value))
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

/// Commands that publish a release or an image: a line running one is not a test to rerun.
const SHIPPING: &[(&str, &str)] = &[
    ("twine", "upload"),
    ("npm", "publish"),
    ("yarn", "publish"),
    ("pnpm", "publish"),
    ("cargo", "publish"),
    ("poetry", "publish"),
    ("uv", "publish"),
    ("hatch", "publish"),
    ("flit", "publish"),
    ("gem", "push"),
    ("docker", "push"),
    ("gh", "release"),
    ("mvn", "deploy"),
];

pub fn ships(line: &str) -> bool {
    commands(line).iter().any(|words| {
        let (program, rest) = match words.split_first() {
            Some((program, rest)) => (program.rsplit('/').next().unwrap_or(program), rest),
            None => return false,
        };
        SHIPPING.iter().any(|(tool, sub)| program == *tool && rest.iter().any(|w| w == sub))
    })
}

/// An action that starts a service on the runner, as a service container of `image` would.
struct ServiceAction {
    action: &'static str,
    image: &'static str,
    /// The input naming the version (the image's tag).
    version: &'static str,
    /// The input naming the port on the runner, and the port the service listens on.
    port: (Option<&'static str>, u16),
    /// Inputs that become the image's variables (`database` → `POSTGRES_DB`).
    env: &'static [(&'static str, &'static str)],
    /// Variables the action's set-up amounts to (a root without a password).
    fixed_env: &'static [(&'static str, &'static str)],
}

impl ServiceAction {
    const fn new(
        action: &'static str,
        image: &'static str,
        version: &'static str,
        port: (Option<&'static str>, u16),
    ) -> Self {
        ServiceAction { action, image, version, port, env: &[], fixed_env: &[] }
    }

    const fn env(
        self,
        env: &'static [(&'static str, &'static str)],
        fixed_env: &'static [(&'static str, &'static str)],
    ) -> Self {
        ServiceAction { env, fixed_env, ..self }
    }
}

/// The inputs of each, read from its `action.yml`.
const SERVICE_ACTIONS: &[ServiceAction] = &[
    ServiceAction::new("supercharge/redis-github-action", "redis", "redis-version", (Some("redis-port"), 6379)),
    ServiceAction::new("shogo82148/actions-setup-redis", "redis", "redis-version", (Some("redis-port"), 6379)),
    ServiceAction::new("supercharge/mongodb-github-action", "mongo", "mongodb-version", (Some("mongodb-port"), 27017)),
    ServiceAction::new("ikalnytskyi/action-setup-postgres", "postgres", "postgres-version", (Some("port"), 5432)).env(
        &[("username", "POSTGRES_USER"), ("password", "POSTGRES_PASSWORD"), ("database", "POSTGRES_DB")],
        &[("POSTGRES_USER", "postgres"), ("POSTGRES_PASSWORD", "postgres")],
    ),
    ServiceAction::new("mirromutth/mysql-action", "mysql", "mysql version", (Some("host port"), 3306)).env(
        &[
            ("mysql root password", "MYSQL_ROOT_PASSWORD"),
            ("mysql database", "MYSQL_DATABASE"),
            ("mysql user", "MYSQL_USER"),
            ("mysql password", "MYSQL_PASSWORD"),
        ],
        &[],
    ),
    ServiceAction::new("ankane/setup-postgres", "postgres", "postgres-version", (None, 5432))
        .env(&[("database", "POSTGRES_DB")], &[("POSTGRES_HOST_AUTH_METHOD", "trust")]),
    ServiceAction::new("ankane/setup-mysql", "mysql", "mysql-version", (None, 3306))
        .env(&[("database", "MYSQL_DATABASE")], &[("MYSQL_ALLOW_EMPTY_PASSWORD", "yes")]),
    ServiceAction::new("ankane/setup-mariadb", "mariadb", "mariadb-version", (None, 3306))
        .env(&[("database", "MARIADB_DATABASE")], &[("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "yes")]),
    ServiceAction::new("ankane/setup-mongodb", "mongo", "mongodb-version", (None, 27017)),
    ServiceAction::new("ankane/setup-elasticsearch", "elasticsearch", "elasticsearch-version", (None, 9200)),
    ServiceAction::new("ankane/setup-opensearch", "opensearchproject/opensearch", "opensearch-version", (None, 9200)),
];

/// The service an action starts on the runner (see [`SERVICE_ACTIONS`]), as the service
/// container it amounts to: an image per version (matrix values included), its port, the
/// variables its inputs set.
fn service_started_by(action: &ActionUse) -> Option<JobService> {
    let known = SERVICE_ACTIONS.iter().find(|s| s.action == action.action)?;
    let input = |name: &str| action.inputs.get(name);
    let versions = match input(known.version) {
        Some(Input { matrix: Some(values), .. }) => values.clone(),
        Some(Input { text, .. }) if !text.is_empty() => vec![text.clone()],
        _ => Vec::new(),
    };
    let images = if versions.is_empty() {
        vec![known.image.to_string()]
    } else {
        versions.iter().map(|v| format!("{}:{v}", known.image)).collect()
    };
    let (port_input, listens) = known.port;
    let host = port_input.and_then(input).map(|i| i.text.clone()).filter(|p| p.parse::<u16>().is_ok());
    let mut env: Vec<(String, EnvValue)> =
        known.fixed_env.iter().map(|(k, v)| (k.to_string(), EnvValue::Literal(v.to_string()))).collect();
    for (name, variable) in known.env {
        let Some(value) = input(name).map(|i| i.text.clone()).filter(|v| !v.is_empty()) else { continue };
        env.retain(|(set, _)| set != variable);
        env.push((variable.to_string(), EnvValue::Literal(value)));
    }
    Some(JobService {
        name: known.image.rsplit('/').next().unwrap_or(known.image).to_string(),
        images,
        source: action.source.clone(),
        ports: vec![format!("{}:{listens}", host.unwrap_or_else(|| listens.to_string()))],
        env,
    })
}

/// Options of `docker run` that take a value as the next word.
const DOCKER_RUN_VALUES: &[&str] = &[
    "-p",
    "--publish",
    "-e",
    "--env",
    "--name",
    "-v",
    "--volume",
    "--network",
    "--net",
    "--mount",
    "-w",
    "--workdir",
    "-u",
    "--user",
    "--entrypoint",
    "--restart",
    "--tmpfs",
    "-l",
    "--label",
    "-h",
    "--hostname",
    "-m",
    "--memory",
    "--cpus",
    "--shm-size",
    "--ulimit",
    "--add-host",
    "--platform",
    "--pull",
    "--cap-add",
    "--env-file",
    "--health-cmd",
    "--health-interval",
    "--health-timeout",
    "--health-retries",
    "--log-driver",
];

/// The service container a CI line starts itself (`docker run -d --name db -p 5432:5432 -e
/// POSTGRES_PASSWORD=x postgres:16`), as a `services:` entry would: detached, of a backing
/// service's image. A port an unknown variable gives (`-p $PORT:3306`) is published on the
/// container's own, where a client finds it by default; an `-e` value with a variable left
/// is the environment's.
fn service_run_by(line: &RunLine) -> Option<JobService> {
    let words = shell_words::split(&line.text).ok()?;
    let rest = match words.as_slice() {
        [docker, run, rest @ ..] if docker == "docker" && run == "run" => rest,
        [docker, container, run, rest @ ..] if docker == "docker" && container == "container" && run == "run" => rest,
        _ => return None,
    };
    let (mut detached, mut name, mut ports, mut env, mut image) = (false, None, Vec::new(), Vec::new(), None);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let (option, inline) = match word.split_once('=').filter(|_| word.starts_with("--")) {
            Some((option, value)) => (option, Some(value.to_string())),
            None => (word.as_str(), None),
        };
        if !option.starts_with('-') {
            image = Some(word.clone());
            break;
        }
        if DOCKER_RUN_VALUES.contains(&option) {
            let Some(value) = inline.or_else(|| words.next().cloned()) else { break };
            match option {
                "-p" | "--publish" => {
                    let container = value.rsplit(':').next().unwrap_or(&value).to_string();
                    let known = value.split(':').all(|part| !part.contains('$'));
                    ports.push(if known { value } else { container });
                }
                "-e" | "--env" => match value.split_once('=') {
                    Some((key, v)) if !v.contains('$') => env.push((key.to_string(), EnvValue::Literal(v.to_string()))),
                    Some((key, _)) => env.push((key.to_string(), EnvValue::Unknown)),
                    None => {}
                },
                "--name" => name = Some(value),
                _ => {}
            }
        } else if option == "--detach" || (!option.starts_with("--") && option.contains('d')) {
            // `-d`, and short flags bundled with it (`-dit`).
            detached = true;
        }
    }
    let image = image.filter(|i| detached && !i.contains('$'))?;
    if !is_backing_service(&canonical_service(&image)) {
        return None;
    }
    let name = name.unwrap_or_else(|| canonical_service(&image));
    Some(JobService { name, images: vec![image], source: line.source.clone(), ports, env })
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
fn foreign_checkouts(job: &Yaml) -> Vec<String> {
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
fn run_lines(script: &str, dir: &str, ctx: &Context, foreign_dirs: &[String], source: &Evidence) -> Vec<RunLine> {
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
        let in_foreign_checkout =
            outside || foreign_dirs.iter().any(|f| !f.is_empty() && crate::detect::repo::is_within(&dir, f));
        let exports = exported_by(&resolved);
        lines.push(RunLine {
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
/// the input at its default). Matrix values are one combination read, not every one, env
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
            let (Some(left), Some(right)) = (ctx.value(&c[1]), ctx.value(&c[3])) else { return false };
            // GitHub compares strings ignoring case.
            left.eq_ignore_ascii_case(&right) == (&c[2] == "!=")
        }
        _ => false,
    }
}

/// `inputs.X == 'literal'` (or `!=`, either way round), one comparison alone.
static DEFINITE_COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    let operand = r"(inputs\.[A-Za-z0-9_-]+|'[^']*')";
    Regex::new(&format!(r"^{operand}\s*(==|!=)\s*{operand}$")).expect("the comparison pattern is valid")
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

/// The value of a matrix key's own list that stands for the matrix: the lowest version (the
/// floor a project supports), else the first.
fn picked_value(own: &[String]) -> Option<String> {
    version::lowest(own).or_else(|| own.first().cloned())
}

/// Where an expression is evaluated: the env, matrix and inputs in scope.
#[derive(Debug, Clone, Default)]
pub struct Context {
    env: HashMap<String, String>,
    /// Matrix key → its own list of values, then values only `include:` entries give.
    matrix: HashMap<String, (Vec<String>, Vec<String>)>,
    /// Keys that `include:` entries add to combinations of the main matrix (an entry whose
    /// other keys match one), with those values in order.
    extended: HashMap<String, Vec<String>>,
    inputs: HashMap<String, String>,
}

impl Context {
    /// With `pairs` set as env (values as they are).
    fn with_pairs(&self, pairs: &[(String, String)]) -> Context {
        let mut ctx = self.clone();
        ctx.env.extend(pairs.iter().cloned());
        ctx
    }

    pub fn with_env(&self, env: &Yaml) -> Context {
        let mut ctx = self.clone();
        if let Some(env) = env.as_hash() {
            for (k, v) in env {
                if let Some(k) = scalar(k) {
                    let v = scalar(v).map(|v| self.resolve(&v)).unwrap_or_default();
                    ctx.env.insert(k, v);
                }
            }
        }
        ctx
    }

    fn with_matrix(&self, matrix: &Yaml) -> Context {
        let mut ctx = self.clone();
        let Some(hash) = matrix.as_hash() else { return ctx };
        for (k, v) in hash {
            let Some(k) = scalar(k) else { continue };
            if k == "include" || k == "exclude" {
                continue;
            }
            let values: Vec<Yaml> = v.as_vec().cloned().unwrap_or_default();
            // A list of objects (`tests: [{name: unit, command: test}]`) is read as `tests.command`.
            for (field, value) in values.iter().filter_map(Yaml::as_hash).flatten() {
                if let (Some(field), Some(value)) = (scalar(field), scalar(value)) {
                    ctx.matrix.entry(format!("{k}.{field}")).or_default().0.push(value);
                }
            }
            ctx.matrix.entry(k).or_default().0 = values.iter().filter_map(scalar).collect();
        }
        for entry in matrix["include"].as_vec().into_iter().flatten() {
            let pairs: Vec<(String, String)> =
                entry.as_hash().into_iter().flatten().filter_map(|(k, v)| Some((scalar(k)?, scalar(v)?))).collect();
            // GitHub adds an entry's other keys to the combinations whose values it matches:
            // here, the one combination read (each key's value as `value` picks it).
            let picked = |k: &str| ctx.matrix.get(k).and_then(|(own, _)| picked_value(own));
            let matched: Vec<bool> = pairs.iter().map(|(k, _)| picked(k).is_some()).collect();
            let extends =
                matched.iter().any(|m| *m) && pairs.iter().all(|(k, v)| picked(k).is_none_or(|picked| picked == *v));
            for ((k, v), matched) in pairs.into_iter().zip(matched) {
                if extends && !matched {
                    ctx.extended.entry(k.clone()).or_default().push(v.clone());
                }
                ctx.matrix.entry(k).or_default().1.push(v);
            }
        }
        ctx
    }

    /// Every value a matrix key takes, its own list first.
    fn matrix_values(&self, key: &str) -> Vec<String> {
        self.matrix.get(key).map(|(own, extra)| own.iter().chain(extra).cloned().collect()).unwrap_or_default()
    }

    /// A matrix key's own list when it has one, else what `include:` entries give.
    fn matrix_values_own_first(&self, key: &str) -> Vec<String> {
        match self.matrix.get(key) {
            Some((own, _)) if !own.is_empty() => own.clone(),
            _ => self.matrix_values(key),
        }
    }

    /// The value of one expression (the text inside `${{ }}`), `None` when not knowable.
    fn value(&self, expr: &str) -> Option<String> {
        let expr = expr.trim();
        if let Some((left, right)) = expr.split_once("||") {
            return self.value(left).filter(|v| !v.is_empty()).or_else(|| self.value(right));
        }
        if let Some(literal) = expr.strip_prefix('\'').and_then(|e| e.strip_suffix('\'')) {
            return Some(literal.to_string());
        }
        if let Some(key) = expr.strip_prefix("env.") {
            return self.env.get(key).cloned();
        }
        if let Some(key) = expr.strip_prefix("inputs.") {
            // A forwarded matrix reference (see `action_inputs`) is the caller's matrix value;
            // unknown when the matrix does not say (nor another input: no loops).
            let given = self.inputs.get(key)?;
            let mut unknown = false;
            let resolved = EXPRESSION.replace_all(given, |c: &regex::Captures| {
                let value = Some(&c[1]).filter(|e| !e.trim().starts_with("inputs.")).and_then(|e| self.value(e));
                unknown |= value.is_none();
                value.unwrap_or_default()
            });
            return (!unknown).then(|| resolved.into_owned());
        }
        if let Some(key) = expr.strip_prefix("matrix.") {
            let (own, extra) = self.matrix.get(key)?;
            // A field of a list of objects (`redis: [{tag, version}]`) comes from the first
            // object, as its other fields do: one combination, not each field's floor.
            let picked = if key.contains('.') { own.first().cloned() } else { picked_value(own) };
            if let Some(picked) = picked {
                return Some(picked);
            }
            if let Some(first) = self.extended.get(key).and_then(|values| values.first()) {
                return Some(first.clone());
            }
            // A key only `include:` entries set is absent from the main combinations, unless
            // an entry extends one of them or the whole matrix is a list of includes.
            let include_only = self.matrix.values().all(|(own, _)| own.is_empty());
            return include_only.then(|| extra.first().cloned()).flatten();
        }
        None
    }

    /// `text` with `${{ … }}` expressions resolved (unknown ones dropped) and `$VAR`s that the
    /// env in scope sets substituted, whitespace collapsed.
    /// An `env:` value as the runner sets it: its known expressions replaced, the rest (an
    /// unknown expression, `$VAR`, line breaks) as written.
    fn resolve_value(&self, text: &str) -> String {
        let resolved =
            EXPRESSION.replace_all(text, |c: &regex::Captures| self.value(&c[1]).unwrap_or(c[0].to_string()));
        resolved.into_owned()
    }

    pub fn resolve(&self, text: &str) -> String {
        // An option whose value is an unknown expression (`tox run -e ${{ format(…) }}`) goes
        // with it, rather than take the next word for its value.
        let unknown_options = OPTION_EXPRESSION.replace_all(text, |c: &regex::Captures| {
            // One expression only (not `--shard=${{ a }}/${{ b }}`, a value built of two).
            if !c[2].contains("}}") && self.value(&c[2]).is_none() { c[1].to_string() } else { c[0].to_string() }
        });
        // A quoted argument built around an unknown expression (`"Coverage for ${{ github.sha }}"`)
        // would keep only its fragment: it is emptied, and removed with its option below.
        let unknown_quoted = QUOTED_EXPRESSION.replace_all(&unknown_options, |c: &regex::Captures| {
            let unknown = EXPRESSION.captures_iter(&c[0]).any(|e| self.value(&e[1]).is_none());
            if unknown { "\"\"".to_string() } else { c[0].to_string() }
        });
        let resolved =
            EXPRESSION.replace_all(&unknown_quoted, |c: &regex::Captures| self.value(&c[1]).unwrap_or_default());
        let substituted = SHELL_VARIABLE.replace_all(&resolved, |c: &regex::Captures| {
            let name = c.get(1).or_else(|| c.get(2)).map(|m| m.as_str()).unwrap_or_default();
            self.env.get(name).cloned().unwrap_or_else(|| c[0].to_string())
        });
        // An option whose value was an unknown expression goes with it: `--python ""`.
        let emptied = EMPTY_ARGUMENT.replace_all(&substituted, " ");
        emptied.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

static GITHUB_ENV_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^echo\s+["']?([A-Za-z_][A-Za-z0-9_]*)=([^"'$`\s]*)["']?\s*>>\s*["']?\$\{?GITHUB_ENV\}?["']?$"#)
        .expect("the GITHUB_ENV pattern is valid")
});
static EXPRESSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$\{\{\s*(.*?)\s*\}\}").expect("the expression pattern is valid"));
/// A double-quoted argument, or a single-quoted one without quotes in its expressions, that
/// holds an expression.
static QUOTED_EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""[^"]*\$\{\{[^"]*"|'[^']*\$\{\{[^'}]*\}\}[^']*'"#).expect("the quoted-expression pattern is valid")
});
/// An option and an expression that is its whole value: `-e ${{ matrix.tox }}`,
/// `--python=${{ matrix.py }}` (what comes before the option is the first group).
static OPTION_EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(^|\s)--?[A-Za-z][[:word:]-]*(?:=|\s+)\$\{\{\s*(.*?)\s*\}\}(?:$|\s)")
        .expect("the option-expression pattern is valid")
});
static EMPTY_ARGUMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|\s)(?:--?[A-Za-z][[:word:]-]*(?:=|\s+))?(?:""|'')(?:\s|$)"#)
        .expect("the empty-argument pattern is valid")
});
/// `$NAME`, `${NAME}` and `${NAME:?message}` (or `:-`, `-`, `?` with a word) in a shell line:
/// the name is group 1 or 2.
pub static SHELL_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?][^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
        .expect("the variable pattern is valid")
});
static SECRET_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?-u:\b)secrets(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\])"#)
        .expect("the secret-reference pattern is valid")
});
/// `for NAME in …` in a script: `$NAME` means nothing outside the loop.
static LOOP_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[;&|]\s*|(?-u:\b)do\s+)for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in(?-u:\b)")
        .expect("the loop pattern is valid")
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::ev;

    #[test]
    fn a_job_switched_off_is_not_read() {
        let workflow = "jobs:\n  off:\n    if: false\n    steps:\n      - run: go test ./e2e\n  off2:\n    if: ${{ false }}\n    steps:\n      - run: go test ./x\n  on:\n    if: github.event_name == 'push'\n    steps:\n      - run: go test ./...\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let jobs: Vec<String> = Workflows::read(&repo).jobs.into_iter().map(|j| j.source.to_string()).collect();
        assert_eq!(jobs, [".github/workflows/ci.yml#jobs.on"]);
    }
    use crate::detect::testing::repo_with;

    fn yaml(text: &str) -> Yaml {
        yaml_rust2::YamlLoader::load_from_str(text).unwrap().remove(0)
    }

    #[test]
    fn quoted_arguments_around_unknown_expressions_go_whole() {
        let ctx = Context::default().with_env(&yaml("V: '3.12'"));
        assert_eq!(
            ctx.resolve(r#"bash tests-start.sh "Coverage for ${{ github.sha }}" --x"#),
            "bash tests-start.sh --x"
        );
        assert_eq!(ctx.resolve(r#"pytest -m 'not ${{ github.ref }}' tests"#), "pytest tests");
        assert_eq!(ctx.resolve(r#"tox -e "py${{ env.V }}""#), r#"tox -e "py3.12""#);
        assert_eq!(ctx.resolve(r#"run --label "${{ matrix.none || 'a b' }}""#), r#"run --label "a b""#);
        let ctx = Context::default();
        assert_eq!(ctx.resolve("uv run --python \"${{ steps.py.outputs.v }}\" pytest ''"), "uv run pytest");
        assert_eq!(ctx.resolve("pytest --x=\"${{ github.sha }}\" -q"), "pytest -q");
    }

    #[test]
    fn actions_that_start_a_service_are_service_containers() {
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        pg: ['15', '14']\n    steps:\n      - uses: ikalnytskyi/action-setup-postgres@v6\n        with:\n          postgres-version: ${{ matrix.pg }}\n          password: secret\n          port: 5433\n      - uses: mirromutth/mysql-action@v1.1\n      - uses: actions/setup-node@v4\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let services = Workflows::read(&repo).jobs.remove(0).services;
        assert_eq!(services.len(), 2, "{services:?}");
        let postgres = &services[0];
        assert_eq!(
            (postgres.name.as_str(), postgres.images.as_slice()),
            ("postgres", ["postgres:15", "postgres:14"].map(String::from).as_slice())
        );
        assert_eq!(postgres.ports, ["5433:5432"]);
        let env = |s: &JobService| s.env.iter().map(|(k, v)| format!("{k}={v:?}")).collect::<Vec<_>>();
        // The action's defaults, then what the step gives.
        assert_eq!(env(postgres), ["POSTGRES_USER=Literal(\"postgres\")", "POSTGRES_PASSWORD=Literal(\"secret\")"]);
        assert_eq!(postgres.source, ev(".github/workflows/ci.yml#jobs.t.steps[0]"));
        assert_eq!(
            (services[1].images.as_slice(), services[1].ports.as_slice()),
            (["mysql".to_string()].as_slice(), ["3306:3306".to_string()].as_slice())
        );
    }

    #[test]
    fn travis_services_and_phases_are_a_job_where_travis_is_the_only_ci() {
        let travis = "language: node_js\nservices:\n  - redis-server\n  - xvfb\naddons:\n  postgresql: \"13\"\n\
                      jobs:\n  include:\n    - services: [mysql]\nbefore_script:\n  - psql -c 'create database t;' -U postgres\n\
                      script:\n  - npm run lint\n  - travis_retry npm run test\n  - travis_wait 30 make slow\n";
        let (_dir, repo) = repo_with(&[(".travis.yml", travis)]);
        let job = Workflows::read(&repo).jobs.remove(0);
        let services: Vec<(&str, &str, &str)> =
            job.services.iter().map(|s| (s.name.as_str(), s.images[0].as_str(), s.ports[0].as_str())).collect();
        assert_eq!(
            services,
            [("redis", "redis", "6379"), ("postgres", "postgres:13", "5432"), ("mysql", "mysql", "3306")],
            "xvfb is not a service container"
        );
        assert_eq!(job.services[1].env, [("POSTGRES_HOST_AUTH_METHOD".to_string(), EnvValue::Literal("trust".into()))]);
        let lines: Vec<(&str, &str)> = job.lines.iter().map(|l| (l.text.as_str(), l.source.as_test_str())).collect();
        assert_eq!(
            lines,
            [
                ("psql -c 'create database t;' -U postgres", ".travis.yml#before_script"),
                ("npm run lint", ".travis.yml#script"),
                ("npm run test", ".travis.yml#script"),
                ("make slow", ".travis.yml#script"),
            ]
        );
        // Beside a GitHub workflow, `.travis.yml` is a leftover.
        let (_dir, repo) = repo_with(&[
            (".travis.yml", travis),
            (".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: npm test\n"),
        ]);
        let jobs = Workflows::read(&repo).jobs;
        assert_eq!(jobs.len(), 1);
        assert!(jobs[0].services.is_empty());
    }

    #[test]
    fn services_that_ci_lines_start_with_docker_run_are_service_containers() {
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        name: [old, new]\n        include:\n          - name: old\n            db: mysql\n            db-version: '5.7'\n          - name: new\n            db: mariadb\n            db-version: '10.4'\n    steps:\n      - run: echo CARGO=cross >> $GITHUB_ENV\n        if: matrix.target != ''\n      - run: |\n          echo \"MYSQL_PORT=$(node free-port.js)\" >> \"$GITHUB_ENV\"\n          echo \"MYSQL_DATABASE=node_mysql\" >> \"$GITHUB_ENV\"\n          echo 'FORCE_COLOR=1' >> $GITHUB_ENV\n          echo \"TOKEN=${{ secrets.TOKEN }}\" >> $GITHUB_ENV\n      - run: docker run -d --name mysql -e MYSQL_ALLOW_EMPTY_PASSWORD=yes -e MYSQL_DATABASE=$MYSQL_DATABASE -p $MYSQL_PORT:3306 $DB:$DB_VERSION\n        env:\n          DB: ${{ matrix.db }}\n          DB_VERSION: ${{ matrix.db-version }}\n      - run: docker run --rm -v $PWD:/src postgres:16 pg_dump --version\n      - run: docker run -dit --name=cache -p 6380:6379 redis:7 redis-server --save ''\n      - run: docker run -d -p 8080:80 nginx\n      - run: npm test\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let job = Workflows::read(&repo).jobs.remove(0);
        let services = job.services;
        let found: Vec<(&str, &str, &str)> =
            services.iter().map(|s| (s.name.as_str(), s.images[0].as_str(), s.ports[0].as_str())).collect();
        // The image the include gives the combination read; a port from `$GITHUB_ENV` on the
        // container's own; not a one-off `--rm` run, not a proxy.
        assert_eq!(found, [("mysql", "mysql:5.7", "3306"), ("cache", "redis:7", "6380:6379")]);
        assert_eq!(
            services[0].env,
            [
                ("MYSQL_ALLOW_EMPTY_PASSWORD".to_string(), EnvValue::Literal("yes".into())),
                ("MYSQL_DATABASE".to_string(), EnvValue::Literal("node_mysql".into()))
            ],
            "a value an earlier step wrote to $GITHUB_ENV is known"
        );
        assert_eq!(services[0].source, ev(".github/workflows/ci.yml#jobs.t.steps[2]"));
        // The later steps run with it; a value from a command or an expression (a secret), a
        // display setting and what a conditional step exports stay out.
        let test = job.lines.last().unwrap();
        assert_eq!((test.text.as_str(), test.env_words()), ("npm test", "MYSQL_DATABASE=node_mysql ".to_string()));
        // An include that extends another combination leaves the one read as it is.
        let ctx = Context::default().with_matrix(&yaml(
            "py: ['3.9', 'pypy-3.9']\ninclude:\n  - py: pypy-3.9\n    toxenv: pypy39\n  - py: '3.9'\n    os: linux\n",
        ));
        assert_eq!((ctx.value("matrix.toxenv"), ctx.value("matrix.os")), (None, Some("linux".to_string())));
    }

    #[test]
    fn workflows_that_check_every_change_are_read_first() {
        let filtered = "on:\n  push:\n    paths: ['tests/docker/**']\n  pull_request:\n    paths: ['tests/docker/**']\njobs:\n  t:\n    steps:\n      - run: pytest tests/docker\n";
        let manual = "on: [workflow_dispatch]\njobs:\n  t:\n    steps:\n      - run: pytest -m slow\n";
        // A push filter alone leaves every pull request checked.
        let every =
            "on:\n  push:\n    paths: ['src/**']\n  pull_request:\njobs:\n  t:\n    steps:\n      - run: tox -e py\n";
        let (_dir, repo) = repo_with(&[
            (".github/workflows/docker.yml", filtered),
            (".github/workflows/manual.yml", manual),
            (".github/workflows/tox.yml", every),
        ]);
        let sources: Vec<String> = Workflows::read(&repo).jobs.into_iter().map(|j| j.source.to_string()).collect();
        assert_eq!(
            sources,
            [
                ".github/workflows/tox.yml#jobs.t",
                ".github/workflows/docker.yml#jobs.t",
                ".github/workflows/manual.yml#jobs.t"
            ]
        );
        assert!(checks_every_change(&yaml("push")));
        assert!(checks_every_change(&yaml("[push, pull_request]")));
        assert!(checks_every_change(&yaml("workflow_call:\n  inputs: {}")));
        assert!(checks_every_change(&yaml("pull_request:\n  paths: ['**.py', tox.ini, '!docs/**']")));
        assert!(!checks_every_change(&yaml("pull_request:\n  paths: ['packages/web/**', pnpm-lock.yaml]")));
        assert!(!checks_every_change(&yaml("schedule:\n  - cron: '0 0 * * *'")));
        assert!(!checks_every_change(&yaml("pull_request:\n  paths: ['**/migrations/**', .github/workflows/m.yml]")));
        assert!(checks_every_change(&yaml("pull_request:\n  paths: ['**/*.py', 'src/**']")));
    }

    #[test]
    fn a_script_exports_to_its_later_lines() {
        let workflow = "jobs:\n  t:\n    steps:\n      - run: |\n          psql -c 'SELECT 1'\n          export PGPASSWORD=postgres PGUSER=\"ci\" P=$HOME\n          psql -h localhost -c 'CREATE DATABASE app;'\n        env:\n          PGUSER: root\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let job = Workflows::read(&repo).jobs.remove(0);
        let env: Vec<String> = job.lines.iter().map(RunLine::env_words).collect();
        // The script's own export wins over the step's env; a value from a variable is not known.
        assert_eq!(env, ["PGUSER=root ", "PGUSER=root ", "PGPASSWORD=postgres PGUSER=ci "]);
    }

    #[test]
    fn lines_that_ship_are_not_tests() {
        assert!(ships("python -m build && pytest -q && twine upload dist/*"));
        assert!(ships("npm test && npm publish --access public"));
        assert!(!ships("pytest -q && echo publish"));
        assert!(!ships("npm test"));
    }

    #[test]
    fn secrets_are_read_only_inside_expressions() {
        let script = "echo '${{ secrets.DB_KEY }}' > conf/secrets.json && cp secrets.json x\n${{ secrets['API_TOKEN'] || secrets.OTHER }}";
        assert_eq!(secret_references(script), ["DB_KEY", "API_TOKEN", "OTHER"]);
    }

    #[test]
    fn jobs_with_their_actions_lines_services_and_secrets() {
        let workflow = "name: tests\nenv:\n  CARGO: cargo\njobs:\n  linux:\n    services:\n      db:\n        image: postgres:${{ matrix.pg }}\n        env:\n          POSTGRES_PASSWORD: ${{ secrets.PG_PASSWORD }}\n          POSTGRES_DB: app\n        ports: ['5432:5432', '${{ env.P }}:1']\n    strategy:\n      matrix:\n        php: [8.4, 8.3]\n        pg: [15, 16]\n    defaults:\n      run:\n        working-directory: api\n    steps:\n      - uses: shivammathur/setup-php@v2\n        with:\n          php-version: ${{ matrix.php }}\n      - run: |\n          cd sub\n          $CARGO test \\\n            --workspace\n          for p in a b; do echo $p; done\n        env:\n          K: ${{ secrets.API_KEY }}\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let jobs = Workflows::read(&repo).jobs;
        let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
        assert_eq!(job.source, ev(".github/workflows/ci.yml#jobs.linux"));
        assert_eq!(job.kind, JobKind::Github { release: false });
        assert_eq!(job.services[0].images, ["postgres:15", "postgres:16"]);
        assert_eq!(job.services[0].ports, ["5432:5432"]);
        assert_eq!(job.services[0].env[0], ("POSTGRES_PASSWORD".into(), EnvValue::Secret("PG_PASSWORD".into())));
        assert_eq!(job.actions[0].action, "shivammathur/setup-php");
        assert_eq!(job.actions[0].inputs["php-version"].matrix.as_deref(), Some(&["8.4".into(), "8.3".into()][..]));
        let lines: Vec<_> = job.lines.iter().map(|l| (l.text.as_str(), l.dir.as_str())).collect();
        assert_eq!(lines, [("cargo test --workspace", "api/sub"), ("for p in a b; do echo $p; done", "api/sub")]);
        assert_eq!(job.lines[0].loop_variables, ["p"]);
        assert_eq!(job.secrets, ["PG_PASSWORD", "API_KEY"]);
    }

    #[test]
    fn inputs_forwarding_matrix_objects_resolve_in_the_composite() {
        let action = "inputs:\n  redis-tag:\n    required: false\nruns:\n  using: composite\n  steps:\n    - run: npm test -- --redis-tag=${{ inputs.redis-tag }} --redis-version=${{ inputs.redis-version }} ${{ inputs.os }}\n      shell: bash\n";
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        redis:\n          - tag: rs-7.4.0-v1\n            version: '7.4'\n          - tag: '8.2'\n            version: '8.2'\n    steps:\n      - uses: ./.github/actions/run-tests\n        with:\n          redis-tag: ${{ matrix.redis.tag }}\n          redis-version: ${{ matrix.redis.version }}\n          os: ${{ matrix.os }}\n";
        let (_dir, repo) =
            repo_with(&[(".github/actions/run-tests/action.yml", action), (".github/workflows/ci.yml", workflow)]);
        let jobs = Workflows::read(&repo).jobs;
        // One object's fields together; a reference the matrix cannot answer is dropped.
        assert_eq!(jobs[0].lines[0].text, "npm test -- --redis-tag=rs-7.4.0-v1 --redis-version=7.4");
        // An option whose whole value is unknown goes with it; a value built of two stays.
        let ctx = Context::default();
        assert_eq!(ctx.resolve("tox run -e ${{ format('py{0}', matrix.python) }} -- -x"), "tox run -- -x");
        assert_eq!(ctx.resolve("pytest --python=${{ matrix.py }}"), "pytest");
        assert_eq!(ctx.resolve("pw --shard=${{ matrix.i }}/${{ matrix.n }}"), "pw --shard=/");
    }

    #[test]
    fn steps_an_input_known_here_switches_off_are_not_read() {
        let action = "inputs:\n  build:\n    default: 'false'\nruns:\n  using: composite\n  steps:\n    - run: make build\n      if: inputs.build == 'true'\n      shell: bash\n    - run: make check\n      if: ${{ 'skip' != inputs.build }}\n      shell: bash\n";
        let workflow = "jobs:\n  default:\n    steps:\n      - uses: ./.github/actions/setup\n  built:\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          build: TRUE\n  unknown:\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          build: ${{ needs.changes.outputs.build }}\n      - run: make lint\n        if: env.should_run == 'true'\n";
        let (_dir, repo) =
            repo_with(&[(".github/actions/setup/action.yml", action), (".github/workflows/ci.yml", workflow)]);
        let lines: Vec<Vec<String>> =
            Workflows::read(&repo).jobs.iter().map(|j| j.lines.iter().map(|l| l.text.clone()).collect()).collect();
        // GitHub compares strings ignoring case; what other jobs decide (an output, an env
        // value set from one) may hold, so those steps are read.
        assert_eq!(
            lines,
            [vec!["make check"], vec!["make build", "make check"], vec!["make build", "make check", "make lint"]]
        );
    }

    #[test]
    fn composite_actions_inline_into_their_callers() {
        let action = "inputs:\n  php-version:\n    default: '8.2'\nruns:\n  using: composite\n  steps:\n    - uses: shivammathur/setup-php@v2\n      with:\n        php-version: ${{ inputs.php-version }}\n    - run: vendor/bin/pest\n      shell: bash\n";
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        php: ['8.4', '8.3']\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          php-version: ${{ matrix.php }}\n";
        let (_dir, repo) =
            repo_with(&[(".github/actions/setup/action.yml", action), (".github/workflows/ci.yml", workflow)]);
        let jobs = Workflows::read(&repo).jobs;
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].actions[0].inputs["php-version"].matrix.as_deref(), Some(&["8.4".into(), "8.3".into()][..]));
        assert_eq!(jobs[0].lines[0].source, ev(".github/actions/setup/action.yml#runs.steps[1]"));
        let (_dir, repo) = repo_with(&[(".github/actions/setup/action.yml", action)]);
        let jobs = Workflows::read(&repo).jobs;
        assert_eq!(
            (jobs[0].kind, jobs[0].actions[0].inputs["php-version"].text.as_str()),
            (JobKind::UnusedAction, "8.2")
        );
    }

    #[test]
    fn jobs_testing_another_checkout_are_left_out() {
        let workflow = "jobs:\n  downstream:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: other/app\n      - run: pytest\n  own:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: org/plugin\n          path: plugin\n      - run: |\n          npm test\n          cd plugin\n          pytest\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let jobs = Workflows::read(&repo).jobs;
        let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
        let lines: Vec<_> = job.lines.iter().map(|l| (l.text.as_str(), l.in_foreign_checkout)).collect();
        assert_eq!(lines, [("npm test", false), ("pytest", true)]);
    }

    #[test]
    fn end_to_end_workflows_are_read_after_the_others() {
        let job = |dir: &str| {
            format!(
                "jobs:\n  t:\n    defaults:\n      run:\n        working-directory: {dir}\n    steps:\n      - run: yarn test\n"
            )
        };
        let (_dir, repo) = repo_with(&[
            (".github/workflows/e2e.yml", &job("tests/e2e")),
            (".github/workflows/partial-frontend.yml", &job("frontend")),
        ]);
        let sources: Vec<String> = Workflows::read(&repo).jobs.into_iter().map(|j| j.source.to_string()).collect();
        assert_eq!(sources, [".github/workflows/partial-frontend.yml#jobs.t", ".github/workflows/e2e.yml#jobs.t"]);
    }

    #[test]
    fn lines_after_a_cd_out_of_the_checkout_run_outside_it() {
        let workflow = "jobs:\n  installer:\n    steps:\n      - run: |\n          rails new $RUNNER_TEMP/my_app\n          cd $RUNNER_TEMP/my_app\n          bundle exec rspec spec\n          cd $GITHUB_WORKSPACE/core\n          bundle exec rspec\n";
        let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
        let jobs = Workflows::read(&repo).jobs;
        let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
        let lines: Vec<_> =
            job.lines.iter().map(|l| (l.text.as_str(), l.dir.as_str(), l.in_foreign_checkout)).collect();
        assert_eq!(
            lines,
            [
                ("rails new $RUNNER_TEMP/my_app", "", false),
                ("bundle exec rspec spec", "", true),
                ("bundle exec rspec", "core", false)
            ]
        );
    }

    #[test]
    fn odd_shapes_are_ignored_not_fatal() {
        for workflow in [
            "jobs: [a, b]\n",
            "jobs:\n  a: 3\n",
            "jobs:\n  a:\n    steps: run\n    services: [postgres]\n    strategy: {matrix: [1, 2]}\n",
            "jobs:\n  a:\n    steps:\n      - uses: actions/setup-node@v4\n        with: 20\n      - run: [pytest]\n      - uses: ./missing\n",
            "jobs:\n  a:\n    env: [X]\n    steps:\n      - run: ${{ matrix.x }} ${{ \n",
            "",
            "[unclosed",
        ] {
            let (_dir, repo) = repo_with(&[
                (".github/workflows/x.yml", workflow),
                (".gitlab-ci.yml", "test: [1]\nservices: {a: b}\nimage: {name: 3}\n"),
                (".circleci/config.yml", "jobs:\n  a:\n    docker: postgres\n    steps: [checkout, {run: 3}]\n"),
            ]);
            let _ = Workflows::read(&repo);
        }
    }
}
