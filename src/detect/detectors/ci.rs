//! Detector: CI configuration — GitHub Actions workflows and local composite actions,
//! GitLab CI and CircleCI. From them: background services (`services:` blocks), pinned
//! toolchain versions (`setup-*` actions, CI images), test commands (`run:`/`script:` lines
//! that run tests), `docker compose … up` steps (start candidates, ordered with the others by
//! the compose detector) and the secrets the test jobs read.
//!
//! Decisions:
//! - Toolchain pins count only from jobs that run tests (or have services) in workflows that
//!   do not release or deploy: a lint job's or an asset build's Node is not the project's.
//! - Workflows are read main ones first (`test*`, `ci*`, `build*`, …), scheduled/nightly last,
//!   so the first test command is the one a developer runs.
//! - With no compose file anywhere, the service containers of the first test job become the
//!   start, as `docker run -d --name NAME -p PORT:PORT -e KEY=VALUE IMAGE` (a `secrets.X`
//!   value is passed from the sandbox's `$X`).
//! - A matrix value (`${{ matrix.php }}`) is read as the lowest version of the key's own list
//!   (the floor the project still supports); `include:` entries add edge cases and are used
//!   only when the key has no list of its own. Only pinned versions count (`3.12`, `20.x`,
//!   `1.96.0`); `stable`, `lts/*`, `^1` are not pins.
//! - `${{ env.X }}`, `${{ matrix.X }}`, `${{ inputs.X }}` and `a || 'b'` are resolved where the
//!   file says; other expressions are dropped from commands. `$VAR` is substituted when the
//!   workflow, job or step `env` sets it (`$CARGO test` → `cargo test`).
//! - Secrets (`secrets.X`) count only in jobs that run tests or services, in workflows that
//!   are not about releasing or deploying, minus the tokens CI itself uses (GITHUB_TOKEN,
//!   coverage, registry and signing credentials): a dev sandbox does not publish.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::detectors::compose::{
    add_command_start, join_path, project_compose_files, scalar, shell_word, starts_of, without_starts,
};
use crate::detect::detectors::secrets::is_release_credential;
use crate::detect::detectors::services::{canonical_service, is_backing_service};
use crate::detect::detectors::tasks::is_test_command;
use crate::detect::repo::{file_name, is_within, parent_dir};
use crate::detect::{Findings, Repo, Start};

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
    let mut seen = Seen::default();
    let mut composite_used = Vec::new();
    let first_toolchain = out.toolchains.len();
    let mut workflows: Vec<&str> =
        repo.under(".github/workflows").filter(|rel| parent_dir(rel) == ".github/workflows" && is_yaml(rel)).collect();
    workflows.sort_by_key(|rel| (workflow_rank(rel), *rel));
    for rel in workflows {
        github_workflow(repo, rel, &mut seen, &mut composite_used, out);
    }
    for rel in repo.under(".github/actions") {
        let name = file_name(rel);
        if (name == "action.yml" || name == "action.yaml") && !composite_used.iter().any(|u| u == rel) {
            composite_action(repo, rel, &HashMap::new(), &Context::default(), &mut seen, out);
        }
    }
    // Without a compose file, the services of the main test job are the start.
    if let Some((runs, source)) = seen.service_runs.take()
        && out.starts.is_empty()
        && project_compose_files(repo).is_empty()
    {
        out.start(runs.join(" && "), source);
    }
    if repo.exists(".gitlab-ci.yml") {
        gitlab(repo, ".gitlab-ci.yml", &mut seen, out);
    }
    if repo.exists(".circleci/config.yml") {
        circleci(repo, ".circleci/config.yml", &mut seen, out);
    }
    // CI pins the same toolchain in many jobs: keep the first of each version.
    let mine = out.toolchains.split_off(first_toolchain);
    for toolchain in mine {
        if !out.toolchains[first_toolchain..].iter().any(|t| t.name == toolchain.name && t.version == toolchain.version)
        {
            out.toolchains.push(toolchain);
        }
    }
}

/// The project's main test workflows first (their commands are the ones to run), then the
/// rest, then scheduled and nightly ones.
fn workflow_rank(rel: &str) -> u8 {
    let name = file_name(rel).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or_default();
    if ["nightly", "schedule", "cron", "weekly", "daily"].iter().any(|w| stem.contains(w)) {
        2
    } else if ["test", "ci", "build", "check", "main"]
        .iter()
        .any(|w| stem == *w || stem.starts_with(w) || stem.ends_with(w))
    {
        0
    } else {
        1
    }
}

fn is_yaml(rel: &str) -> bool {
    rel.ends_with(".yml") || rel.ends_with(".yaml")
}

/// What this detector reported already: CI repeats itself across jobs and matrices.
#[derive(Default)]
struct Seen {
    tests: Vec<String>,
    /// One entry per product: several versions of a database are one service to start.
    services: Vec<String>,
    secrets: Vec<String>,
    /// The workflow being read ships releases or deploys: its `docker compose up` brings up
    /// production, not services for tests.
    in_release: bool,
    /// `docker run` commands for the services of the first test job that has some, and where
    /// they come from: the start when the project has no compose file.
    service_runs: Option<(Vec<String>, String)>,
    /// Where the job being read checks out other repositories: tests run there are theirs.
    foreign_dirs: Vec<String>,
}

impl Seen {
    fn test(&mut self, out: &mut Findings, command: String, source: String) {
        if !self.tests.contains(&command) {
            self.tests.push(command.clone());
            out.test(command, source);
        }
    }
    fn service(&mut self, out: &mut Findings, image: &str, source: String) {
        let product = canonical_service(image);
        if is_backing_service(&product) && !self.services.contains(&product) {
            self.services.push(product.clone());
            out.service(&product, Some(image.to_string()), source);
        }
    }
    fn secret(&mut self, out: &mut Findings, name: &str, source: String) {
        if !self.secrets.iter().any(|s| s == name) && is_sandbox_secret(name) {
            self.secrets.push(name.to_string());
            out.secret(name, source);
        }
    }
}

/// Secrets CI uses for itself: the job token, coverage/quality services, package registries,
/// image registries, signing, remote caches and deploy targets.
fn is_sandbox_secret(name: &str) -> bool {
    const CI_ONLY: &[&str] = &[
        "GITHUB",
        "GH",
        "SONARCLOUD",
        "CODACY",
        "CODECLIMATE",
        "CC",
        "NPM",
        "GEM",
        "RUBYGEMS",
        "SIGNING",
        "CARGO",
        "CRATES",
        "MAVEN",
        "GRADLE",
        "DOCKER",
        "DOCKERHUB",
        "GHCR",
        "QUAY",
        "NETLIFY",
        "VERCEL",
        "CACHIX",
        "TURBO",
        "NX",
        "CHROMATIC",
        "PERCY",
        "SNYK",
        "APPLE",
        "HOMEBREW",
        "TAP",
        "CLOUDFLARE",
        "HEROKU",
        "FLY",
        "SURGE",
        "BOT",
        "PAT",
        "ACTIONS",
        "RUNNER",
        "SLACK",
    ];
    let upper = name.to_ascii_uppercase();
    crate::names::validate_secret_name(name).is_ok()
        && !upper.split('_').any(|token| CI_ONLY.contains(&token))
        && !is_release_credential(name)
        && !upper.contains("WEBHOOK")
}

/// Where an expression is evaluated: the env, matrix and inputs in scope.
#[derive(Debug, Clone, Default)]
struct Context {
    env: HashMap<String, String>,
    /// Matrix key → its own list of values, then values only `include:` entries give.
    matrix: HashMap<String, (Vec<String>, Vec<String>)>,
    inputs: HashMap<String, String>,
}

impl Context {
    fn with_env(&self, env: &Yaml) -> Context {
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
            for (k, v) in entry.as_hash().into_iter().flatten() {
                if let (Some(k), Some(v)) = (scalar(k), scalar(v)) {
                    ctx.matrix.entry(k).or_default().1.push(v);
                }
            }
        }
        ctx
    }

    /// Every value a matrix key takes, its own list first.
    fn matrix_values(&self, key: &str) -> Vec<String> {
        self.matrix.get(key).map(|(own, extra)| own.iter().chain(extra).cloned().collect()).unwrap_or_default()
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
            return self.inputs.get(key).cloned();
        }
        if let Some(key) = expr.strip_prefix("matrix.") {
            let (own, extra) = self.matrix.get(key)?;
            if !own.is_empty() {
                return lowest_version(own).or_else(|| own.first().cloned());
            }
            // A key only `include:` entries set is absent from the main combinations, unless
            // the whole matrix is a list of includes.
            let include_only = self.matrix.values().all(|(own, _)| own.is_empty());
            return include_only.then(|| extra.first().cloned()).flatten();
        }
        None
    }

    /// `text` with `${{ … }}` expressions resolved (unknown ones dropped) and `$VAR`s that the
    /// env in scope sets substituted, whitespace collapsed.
    fn resolve(&self, text: &str) -> String {
        // A quoted argument built around an unknown expression (`"Coverage for ${{ github.sha }}"`)
        // would keep only its fragment: it is emptied, and removed with its option below.
        let unknown_quoted = QUOTED_EXPRESSION.replace_all(text, |c: &regex::Captures| {
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

static EXPRESSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$\{\{\s*(.*?)\s*\}\}").expect("the expression pattern is valid"));
/// A double-quoted argument, or a single-quoted one without quotes in its expressions, that
/// holds an expression.
static QUOTED_EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""[^"]*\$\{\{[^"]*"|'[^']*\$\{\{[^'}]*\}\}[^']*'"#).expect("the quoted-expression pattern is valid")
});
static EMPTY_ARGUMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|\s)(?:--?[A-Za-z][\w-]*(?:=|\s+))?(?:""|'')(?:\s|$)"#)
        .expect("the empty-argument pattern is valid")
});
static SHELL_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)").expect("the variable pattern is valid")
});
static SECRET_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\bsecrets(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\])"#)
        .expect("the secret-reference pattern is valid")
});

/// A version pin as CI states it: starts with a digit (or `v` and a digit); `20.x` is fine
/// (and means `20`), ranges and channels are not.
fn pinned(version: &str) -> Option<String> {
    let v = version.trim().trim_matches(['"', '\'']);
    let v = v.strip_suffix(".x").or_else(|| v.strip_suffix(".X")).or_else(|| v.strip_suffix(".*")).unwrap_or(v);
    let digits = v.strip_prefix('v').unwrap_or(v);
    digits.starts_with(|c: char| c.is_ascii_digit()).then(|| v.to_string())
}

/// The lowest pinned version among `values` (numeric comparison by component).
fn lowest_version(values: &[String]) -> Option<String> {
    let key = |v: &str| -> Vec<u64> {
        v.trim_start_matches('v').split(['.', '-', '+']).map_while(|p| p.parse::<u64>().ok()).collect()
    };
    values.iter().filter_map(|v| pinned(v)).min_by(|a, b| key(a).cmp(&key(b)))
}

/// A toolchain version from an action input: a pin, an expression resolving to one, or a
/// version file holding one.
fn input_version(repo: &Repo, ctx: &Context, with: &Yaml, keys: &[&str], file_keys: &[&str]) -> Option<String> {
    for key in keys {
        if let Some(raw) = scalar(&with[*key]) {
            // setup-java and setup-python take several versions, one a line: the last one is
            // the default on PATH.
            let raw = raw.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or_default();
            if let Some(expr) = EXPRESSION.captures(raw).map(|c| c[1].to_string())
                && let Some(key) = expr.trim().strip_prefix("matrix.")
            {
                return lowest_version(&ctx.matrix_values_own_first(key));
            }
            return pinned(&ctx.resolve(raw));
        }
    }
    for key in file_keys {
        if let Some(file) = scalar(&with[*key]).map(|f| ctx.resolve(&f)) {
            let file = join_path("", &file)?;
            if matches!(
                file_name(&file),
                "package.json" | "go.mod" | "pyproject.toml" | "global.json" | "composer.json"
            ) {
                return None; // the ecosystem detectors read those themselves
            }
            // A file another checkout or an earlier step provides is no problem of this repo.
            let text = repo.exists(&file).then(|| repo.read(&file)).flatten()?;
            let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'))?;
            return pinned(first.split_whitespace().last().unwrap_or(first));
        }
    }
    None
}

impl Context {
    /// A matrix key's own list when it has one, else what `include:` entries give.
    fn matrix_values_own_first(&self, key: &str) -> Vec<String> {
        match self.matrix.get(key) {
            Some((own, _)) if !own.is_empty() => own.clone(),
            _ => self.matrix_values(key),
        }
    }
}

/// Toolchains set up by well-known actions: (action, toolchain, version inputs, version-file inputs).
const SETUP_ACTIONS: &[(&str, &str, &[&str], &[&str])] = &[
    ("actions/setup-node", "node", &["node-version"], &["node-version-file"]),
    ("actions/setup-python", "python", &["python-version"], &["python-version-file"]),
    ("astral-sh/setup-uv", "python", &["python-version"], &[]),
    ("pdm-project/setup-pdm", "python", &["python-version"], &["python-version-file"]),
    ("actions/setup-go", "go", &["go-version"], &["go-version-file"]),
    ("actions/setup-java", "java", &["java-version"], &["java-version-file"]),
    ("actions/setup-dotnet", "dotnet", &["dotnet-version"], &[]),
    ("ruby/setup-ruby", "ruby", &["ruby-version"], &[]),
    ("shivammathur/setup-php", "php", &["php-version"], &["php-version-file"]),
    ("dtolnay/rust-toolchain", "rust", &["toolchain"], &[]),
    ("actions-rs/toolchain", "rust", &["toolchain"], &[]),
    ("erlef/setup-beam", "erlang", &["otp-version"], &[]),
    ("erlef/setup-beam", "elixir", &["elixir-version"], &[]),
    ("denoland/setup-deno", "deno", &["deno-version"], &[]),
    ("oven-sh/setup-bun", "bun", &["bun-version"], &["bun-version-file"]),
    ("subosito/flutter-action", "flutter", &["flutter-version"], &[]),
    ("dart-lang/setup-dart", "dart", &["sdk"], &[]),
    ("goto-bus-stop/setup-zig", "zig", &["version"], &[]),
    ("mlugg/setup-zig", "zig", &["version"], &[]),
    ("haskell-actions/setup", "haskell", &["ghc-version"], &[]),
    ("haskell/actions/setup", "haskell", &["ghc-version"], &[]),
    ("swift-actions/setup-swift", "swift", &["swift-version"], &[]),
];

fn setup_action(repo: &Repo, uses: &str, with: &Yaml, ctx: &Context, source: &str, out: &mut Findings) {
    let (action, reference) = uses.split_once('@').unwrap_or((uses, ""));
    let action = action.to_ascii_lowercase();
    for (known, toolchain, keys, file_keys) in SETUP_ACTIONS {
        if action != *known {
            continue;
        }
        let version = input_version(repo, ctx, with, keys, file_keys)
            // dtolnay/rust-toolchain@1.70 names the toolchain in the reference.
            .or_else(|| (*known == "dtolnay/rust-toolchain").then(|| pinned(reference)).flatten());
        if let Some(version) = version {
            out.toolchain(toolchain, Some(version), source.to_string());
        }
    }
}

/// A job whose workspace is another repository (`actions/checkout` with a `repository:` of
/// its own and no `path:`): it runs that project's tests against this one, with that
/// project's toolchains, services and secrets.
fn checks_out_another_project(job: &Yaml) -> bool {
    foreign_checkouts(job).iter().any(String::is_empty)
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

/// The `secrets.X` names a workflow string reads. GitHub substitutes secrets only inside
/// `${{ … }}`, so a script that writes `conf/secrets.json` names no secret.
fn secret_references(text: &str) -> Vec<String> {
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

/// Every string in a YAML tree (for `secrets.X` references).
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

/// Workflows about shipping rather than testing (by file name or `name:`).
fn is_release_workflow(rel: &str, doc: &Yaml) -> bool {
    const WORDS: &[&str] = &["release", "publish", "deploy", "docs", "pages", "nightly-build", "snapshot"];
    let name = format!("{} {}", file_name(rel), scalar(&doc["name"]).unwrap_or_default()).to_ascii_lowercase();
    WORDS.iter().any(|w| name.contains(w))
}

fn github_workflow(repo: &Repo, rel: &str, seen: &mut Seen, composite_used: &mut Vec<String>, out: &mut Findings) {
    let Some(docs) = repo.read_yaml(rel) else { return };
    let Some(doc) = docs.first() else { return };
    let release = is_release_workflow(rel, doc);
    seen.in_release = release;
    let workflow_ctx = Context::default().with_env(&doc["env"]);
    let Some(jobs) = doc["jobs"].as_hash() else { return };
    for (job_name, job) in jobs {
        let Some(job_name) = scalar(job_name) else { continue };
        if checks_out_another_project(job) {
            continue;
        }
        let job_source = format!("{rel}#jobs.{job_name}");
        seen.foreign_dirs = foreign_checkouts(job);
        let ctx = workflow_ctx.with_matrix(&job["strategy"]["matrix"]).with_env(&job["env"]);
        let mut runs_tests = false;
        let toolchains_before = out.toolchains.len();

        let mut runs = Vec::new();
        for (name, service) in job["services"].as_hash().into_iter().flatten() {
            let Some(name) = scalar(name) else { continue };
            let image = scalar(&service["image"]).or_else(|| scalar(service)).unwrap_or_default();
            let images = expand_matrix(&image, &ctx);
            for image in &images {
                seen.service(out, image, format!("{job_source}.services.{name}"));
                runs_tests = true;
            }
            if let Some(image) = images.first().filter(|i| is_backing_service(&canonical_service(i))) {
                runs.push(docker_run(&name, image, service, &ctx));
            }
        }
        if let Some(image) = scalar(&job["container"]["image"]).or_else(|| scalar(&job["container"])) {
            image_toolchain(&ctx.resolve(&image), format!("{job_source}.container"), out);
        }

        let default_dir = scalar(&job["defaults"]["run"]["working-directory"])
            .or_else(|| scalar(&doc["defaults"]["run"]["working-directory"]));
        for (i, step) in job["steps"].as_vec().into_iter().flatten().enumerate() {
            let source = format!("{job_source}.steps[{i}]");
            let step_ctx = ctx.with_env(&step["env"]);
            if let Some(uses) = scalar(&step["uses"]) {
                if let Some(local) = uses.strip_prefix("./") {
                    let inputs = action_inputs(&step["with"], &step_ctx);
                    for file in ["action.yml", "action.yaml"] {
                        let path = format!("{}/{file}", local.trim_end_matches('/'));
                        if repo.exists(&path) {
                            if !composite_used.contains(&path) {
                                composite_used.push(path.clone());
                            }
                            runs_tests |= composite_action(repo, &path, &inputs, &step_ctx, seen, out);
                        }
                    }
                } else {
                    setup_action(repo, &uses, &step["with"], &step_ctx, &source, out);
                }
            }
            if let Some(script) = scalar(&step["run"]) {
                let dir = scalar(&step["working-directory"]).or_else(|| default_dir.clone()).unwrap_or_default();
                runs_tests |= run_script(repo, &script, &dir, &step_ctx, seen, &source, out);
            }
        }

        // Toolchains set up for linting, asset builds or releases are not the project's own.
        if !runs_tests || release {
            out.toolchains.truncate(toolchains_before);
        }
        if runs_tests && !release && !runs.is_empty() && seen.service_runs.is_none() {
            seen.service_runs = Some((runs, format!("{job_source}.services")));
        }
        if runs_tests && !release {
            let mut found = Vec::new();
            strings(job, &mut found);
            for name in found.into_iter().flat_map(secret_references) {
                seen.secret(out, &name, job_source.clone());
            }
        }
    }
    seen.in_release = false;
}

/// `docker run -d --name NAME -p PORT:PORT -e KEY=VALUE IMAGE` for a job's service container:
/// its ports published on the same host ports (what a local config expects), its `env` as
/// written, a `secrets.X` value passed from the sandbox's `$X`, other expressions left out.
fn docker_run(name: &str, image: &str, service: &Yaml, ctx: &Context) -> String {
    let mut command = format!("docker run -d --name {}", shell_word(name));
    for port in service["ports"].as_vec().into_iter().flatten().filter_map(scalar) {
        if port.contains("${{") {
            continue;
        }
        let container = port.rsplit(':').next().unwrap_or(&port);
        let mapping = if port.contains(':') { port.clone() } else { format!("{container}:{container}") };
        command.push_str(&format!(" -p {}", shell_word(&mapping)));
    }
    for (key, value) in service["env"].as_hash().into_iter().flatten() {
        let (Some(key), Some(value)) = (scalar(key), scalar(value)) else { continue };
        let secret = EXPRESSION
            .captures(&value)
            .filter(|c| c[0].len() == value.trim().len())
            .and_then(|c| c[1].trim().strip_prefix("secrets.").map(str::to_string));
        if let Some(secret) = secret {
            command.push_str(&format!(" -e {key}=\"${secret}\""));
        } else if !value.contains("${{") {
            command.push_str(&format!(" -e {}", shell_word(&format!("{key}={value}"))));
        }
    }
    command.push(' ');
    command.push_str(&shell_word(&ctx.resolve(image)));
    command
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
            inputs.insert(k, if v.contains("matrix.") { v } else { ctx.resolve(&v) });
        }
    }
    inputs
}

/// A local composite action: its steps in the caller's context, inputs from the caller's
/// `with:` or the action's defaults. True when it runs tests.
fn composite_action(
    repo: &Repo,
    rel: &str,
    given: &HashMap<String, String>,
    caller: &Context,
    seen: &mut Seen,
    out: &mut Findings,
) -> bool {
    let Some(docs) = repo.read_yaml(rel) else { return false };
    let Some(doc) = docs.first() else { return false };
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
    let mut runs_tests = false;
    for (i, step) in doc["runs"]["steps"].as_vec().into_iter().flatten().enumerate() {
        let source = format!("{rel}#runs.steps[{i}]");
        let step_ctx = ctx.with_env(&step["env"]);
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
            setup_action(repo, &uses, &with, &step_ctx, &source, out);
        }
        if let Some(script) = scalar(&step["run"]) {
            let dir = scalar(&step["working-directory"]).unwrap_or_default();
            runs_tests |= run_script(repo, &script, &dir, &step_ctx, seen, &source, out);
        }
    }
    runs_tests
}

/// Test commands and compose starts in a shell script run from `dir`. True when it runs tests.
fn run_script(
    repo: &Repo,
    script: &str,
    dir: &str,
    ctx: &Context,
    seen: &mut Seen,
    source: &str,
    out: &mut Findings,
) -> bool {
    let mut dir = join_path("", &ctx.resolve(dir)).unwrap_or_default();
    let mut runs_tests = false;
    let mut pending = String::new();
    let loop_variables: Vec<&str> =
        LOOP_VARIABLE.captures_iter(script).filter_map(|c| c.get(1)).map(|m| m.as_str()).collect();
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
        // `cd web` on a line of its own: the lines after it run there.
        if let Some(target) = resolved.strip_prefix("cd ").filter(|t| !t.contains(char::is_whitespace)) {
            dir = join_path(&dir, target.trim_matches(['"', '\''])).unwrap_or(dir);
            continue;
        }
        if is_test_command(&resolved) && seen.foreign_dirs.iter().any(|f| !f.is_empty() && is_within(&dir, f)) {
            continue; // another repository's tests
        }
        if is_test_command(&resolved) {
            runs_tests = true;
            if let Some(test) = standalone_test(&resolved, &loop_variables) {
                let command = if dir.is_empty() { test } else { format!("cd {dir} && {test}") };
                seen.test(out, command, source.to_string());
            }
        }
        if !seen.in_release && add_command_start(repo, out, &dir, &resolved, source.to_string()) {
            runs_tests = true;
        }
    }
    runs_tests
}

/// `for NAME in …` in a script: `$NAME` means nothing outside the loop.
static LOOP_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[;&|]\s*|\bdo\s+)for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b").expect("the loop pattern is valid")
});

/// A test line of a script as a command that runs on its own: the shell's control words
/// around it (`if …; then`, `… || failed=1`, `… || true`) removed; `None` when it reads a
/// loop variable of the script.
fn standalone_test(line: &str, loop_variables: &[&str]) -> Option<String> {
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
        loop_variables.contains(&name)
    });
    (!command.is_empty() && !reads_loop_variable).then(|| command.to_string())
}

/// CI images named after a language (`node:20`, `python:3.12-slim`, `cimg/ruby:3.3`,
/// `golang:1.22`) pin that toolchain.
fn image_toolchain(image: &str, source: String, out: &mut Findings) {
    if let Some((toolchain, Some(version))) = toolchain_of_image(image) {
        out.toolchain(toolchain, Some(version), source);
    }
}

/// The toolchain a language image provides, and the version its tag pins (`python:3.12-slim`
/// → python 3.12; `node:lts` → node, unpinned).
pub fn toolchain_of_image(image: &str) -> Option<(&'static str, Option<String>)> {
    const IMAGES: &[(&str, &str)] = &[
        ("node", "node"),
        ("python", "python"),
        ("golang", "go"),
        ("go", "go"),
        ("rust", "rust"),
        ("ruby", "ruby"),
        ("php", "php"),
        ("elixir", "elixir"),
        ("erlang", "erlang"),
        ("openjdk", "java"),
        ("eclipse-temurin", "java"),
        ("amazoncorretto", "java"),
        ("deno", "deno"),
        ("bun", "bun"),
        ("swift", "swift"),
        ("dart", "dart"),
        ("haskell", "haskell"),
        ("clojure", "clojure"),
    ];
    let repository = canonical_service(image);
    let &(_, toolchain) = IMAGES.iter().find(|(name, _)| *name == repository)?;
    let tag = image.rsplit('/').next().and_then(|last| last.split_once(':')).map(|(_, tag)| tag).unwrap_or_default();
    Some((toolchain, pinned(tag.split('-').next().unwrap_or_default())))
}

/// GitLab CI: global and per-job `services:` and `image:`, `script:` lines.
fn gitlab(repo: &Repo, rel: &str, seen: &mut Seen, out: &mut Findings) {
    let Some(docs) = repo.read_yaml(rel) else { return };
    let Some(doc) = docs.first() else { return };
    let ctx = Context::default().with_env(&doc["variables"]);
    let service_image = |s: &Yaml| scalar(s).or_else(|| scalar(&s["name"]));
    for service in doc["services"].as_vec().into_iter().flatten() {
        if let Some(image) = service_image(service) {
            seen.service(out, &ctx.resolve(&image), format!("{rel}#services"));
        }
    }
    if let Some(image) = scalar(&doc["image"]).or_else(|| scalar(&doc["image"]["name"])) {
        image_toolchain(&ctx.resolve(&image), format!("{rel}#image"), out);
    }
    for (name, job) in doc.as_hash().into_iter().flatten() {
        let Some(name) = scalar(name) else { continue };
        if job["script"].is_badvalue() {
            continue;
        }
        let job_ctx = ctx.with_env(&job["variables"]);
        let source = format!("{rel}#{name}");
        for service in job["services"].as_vec().into_iter().flatten() {
            if let Some(image) = service_image(service) {
                seen.service(out, &job_ctx.resolve(&image), format!("{source}.services"));
            }
        }
        if let Some(image) = scalar(&job["image"]).or_else(|| scalar(&job["image"]["name"])) {
            image_toolchain(&job_ctx.resolve(&image), format!("{source}.image"), out);
        }
        let script: Vec<String> = match &job["script"] {
            Yaml::Array(lines) => lines.iter().filter_map(scalar).collect(),
            other => scalar(other).into_iter().collect(),
        };
        run_script(repo, &script.join("\n"), "", &job_ctx, seen, &format!("{source}.script"), out);
    }
}

/// CircleCI: `jobs.X.docker` (the first image is the job's own, the rest are services) and
/// `run` steps.
fn circleci(repo: &Repo, rel: &str, seen: &mut Seen, out: &mut Findings) {
    let Some(docs) = repo.read_yaml(rel) else { return };
    let Some(doc) = docs.first() else { return };
    for (name, job) in doc["jobs"].as_hash().into_iter().flatten() {
        let Some(name) = scalar(name) else { continue };
        let source = format!("{rel}#jobs.{name}");
        let ctx = Context::default().with_env(&job["environment"]);
        for (i, image) in job["docker"].as_vec().into_iter().flatten().filter_map(|d| scalar(&d["image"])).enumerate() {
            if i == 0 {
                image_toolchain(&image, format!("{source}.docker"), out);
            } else {
                seen.service(out, &image, format!("{source}.docker[{i}]"));
            }
        }
        for (i, step) in job["steps"].as_vec().into_iter().flatten().enumerate() {
            let run = &step["run"];
            if let Some(script) = scalar(run).or_else(|| scalar(&run["command"])) {
                let dir = scalar(&run["working_directory"]).unwrap_or_default();
                run_script(repo, &script, &dir, &ctx, seen, &format!("{source}.steps[{i}]"), out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::detectors::compose::tests::repo_with;

    fn run(files: &[(&str, &str)]) -> Findings {
        let (_dir, repo) = repo_with(files);
        let mut out = Findings::default();
        analyze(&repo, &mut out);
        out
    }

    const TESTS_WORKFLOW: &str = r#"
name: tests
on: [push, pull_request]
env:
  CARGO: cargo
  TARGET_FLAGS:
jobs:
  linux:
    services:
      memcached:
        image: memcached:1.6-alpine
      mysql:
        image: mysql:9.7
      dynamodb:
        image: amazon/dynamodb-local:2.0.0
      proxy: nginx
    strategy:
      matrix:
        php: [8.4, 8.3, 8.5]
        include:
          - php: 8.1
    steps:
      - uses: actions/checkout@v4
      - uses: shivammathur/setup-php@v2
        with:
          php-version: ${{ matrix.php }}
      - run: composer update --prefer-dist
      - name: Execute tests
        run: |
          vendor/bin/phpunit --display-deprecation ${{ matrix.stability == 'x' && '--fail' || '' }} --no-coverage
          $CARGO test --workspace ${{ env.TARGET_FLAGS }}
        env:
          DB_PASSWORD: ${{ secrets.DB_PASSWORD }}
          CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}
          GH: ${{ secrets.GITHUB_TOKEN }}
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version-file: .nvmrc
      - uses: actions/setup-go@v5
        with:
          go-version: "^1"
      - run: npm run lint
        env:
          LINT_TOKEN: ${{ secrets.LINT_TOKEN }}
"#;

    #[test]
    fn github_workflow_services_versions_tests_and_secrets() {
        let out = run(&[(".github/workflows/tests.yml", TESTS_WORKFLOW), (".nvmrc", "v20.11.0\n")]);
        let services: Vec<_> = out.services.iter().map(|s| (s.name.as_str(), s.source.as_str())).collect();
        assert_eq!(
            services,
            [
                ("memcached", ".github/workflows/tests.yml#jobs.linux.services.memcached"),
                ("mysql", ".github/workflows/tests.yml#jobs.linux.services.mysql"),
                ("dynamodb", ".github/workflows/tests.yml#jobs.linux.services.dynamodb"),
            ]
        );
        let toolchains: Vec<_> = out.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        // The lint job runs no tests: its node set-up is not the project's toolchain.
        assert_eq!(toolchains, [("php", Some("8.3"))]);
        let tests: Vec<_> = out.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(tests, ["vendor/bin/phpunit --display-deprecation --no-coverage", "cargo test --workspace"]);
        assert_eq!(out.tests[0].source, ".github/workflows/tests.yml#jobs.linux.steps[3]");
        let secrets: Vec<_> = out.secrets.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(secrets, ["DB_PASSWORD"]);
    }

    #[test]
    fn services_of_the_main_test_job_are_the_start_without_compose() {
        let workflow = "jobs:\n  test:\n    services:\n      postgres:\n        image: postgres:13\n        env:\n          POSTGRES_USER: netbox\n          POSTGRES_PASSWORD: ${{ secrets.PG_PASSWORD }}\n          POSTGRES_DB: ${{ matrix.db }}\n        ports:\n          - 5432:5432\n      redis:\n        image: redis\n        ports: [6379]\n      web:\n        image: nginx\n    steps:\n      - run: python manage.py test\n  other:\n    services:\n      mysql:\n        image: mysql\n    steps:\n      - run: pytest\n";
        let out = run(&[(".github/workflows/ci.yml", workflow)]);
        assert_eq!(out.starts.len(), 1);
        assert_eq!(
            out.starts[0].command,
            "docker run -d --name postgres -p 5432:5432 -e POSTGRES_USER=netbox -e POSTGRES_PASSWORD=\"$PG_PASSWORD\" postgres:13 && docker run -d --name redis -p 6379:6379 redis"
        );
        assert_eq!(out.starts[0].source, ".github/workflows/ci.yml#jobs.test.services");

        let out = run(&[
            (".github/workflows/ci.yml", workflow),
            ("docker/compose.yml", "services:\n  db:\n    image: postgres\n"),
        ]);
        assert!(out.starts.is_empty(), "the compose detector owns the start when there is a compose file");
    }

    #[test]
    fn version_file_and_include_only_keys() {
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        java: [17, 21]\n        include:\n          - java: 11\n            extra: -Dx=1\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .nvmrc\n      - uses: actions/setup-java@v4\n        with:\n          java-version: ${{ matrix.java }}\n      - run: mvn verify ${{ matrix.extra || '' }}\n";
        let out = run(&[(".github/workflows/build.yml", workflow), (".nvmrc", "v20.11.0\n")]);
        let toolchains: Vec<_> = out.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(toolchains, [("node", Some("v20.11.0")), ("java", Some("17"))]);
        assert_eq!(out.tests[0].command, "mvn verify");
        let workflow = "jobs:\n  t:\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          java-version: |\n            ${{ matrix.none }}\n            11\n          java-version-file: .github/.java-version\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: gone/.nvmrc\n      - run: ./gradlew test\n";
        let out = run(&[(".github/workflows/build.yml", workflow)]);
        assert_eq!(out.toolchain_rows(), [("java", Some("11"), ".github/workflows/build.yml#jobs.t.steps[0]")]);
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        py: ['3.11', '3.10', 'pypy3.11']\n    steps:\n      - uses: astral-sh/setup-uv@v6\n        with:\n          python-version: ${{ matrix.py }}\n      - run: uv run pytest\n";
        let out = run(&[(".github/workflows/test.yml", workflow)]);
        assert_eq!(out.toolchain_rows(), [("python", Some("3.10"), ".github/workflows/test.yml#jobs.t.steps[0]")]);
        let ctx = Context::default();
        assert_eq!(ctx.resolve("uv run --python \"${{ steps.py.outputs.v }}\" pytest ''"), "uv run pytest");
        assert_eq!(ctx.resolve("pytest --x=\"${{ github.sha }}\" -q"), "pytest -q");
    }

    #[test]
    fn matrix_of_objects_and_prose_about_secrets() {
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        tests:\n          - name: unit\n            command: test\n          - name: system\n            command: test:system\n    env:\n      TEST_COMMAND: ${{ matrix.tests.command }}\n      KEY: ${{ secrets.API_KEY }}\n    steps:\n      - run: echo 'runs without secrets. Avo is off'\n      - run: bin/rails $TEST_COMMAND\n";
        let out = run(&[(".github/workflows/test.yml", workflow)]);
        assert_eq!(out.tests[0].command, "bin/rails test");
        let secrets: Vec<_> = out.secrets.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(secrets, ["API_KEY"]);
    }

    #[test]
    fn main_test_workflows_come_first() {
        let nightly = "jobs:\n  n:\n    steps:\n      - run: pytest tests/slow\n";
        let main = "jobs:\n  t:\n    steps:\n      - run: pytest\n";
        let out = run(&[(".github/workflows/a-nightly.yml", nightly), (".github/workflows/z-tests.yml", main)]);
        let tests: Vec<_> = out.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(tests, ["pytest", "pytest tests/slow"]);
    }

    #[test]
    fn release_workflows_give_no_secrets_toolchains_or_starts() {
        let workflow = "name: Release\njobs:\n  publish:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n      - run: docker compose -f compose.yml up -d\n      - run: cargo test\n        env:\n          API_KEY: ${{ secrets.API_KEY }}\n";
        let compose = "services:\n  db:\n    image: postgres\n";
        let out = run(&[(".github/workflows/release.yml", workflow), ("compose.yml", compose)]);
        assert!(out.secrets.is_empty());
        assert!(out.toolchains.is_empty());
        assert!(out.starts.is_empty());
        assert_eq!(out.tests.len(), 1);
    }

    #[test]
    fn composite_action_inputs_and_matrix_forwarding() {
        let action = "name: setup\ninputs:\n  php-version:\n    default: '8.2'\nruns:\n  using: composite\n  steps:\n    - uses: shivammathur/setup-php@v2\n      with:\n        php-version: ${{ inputs.php-version }}\n    - run: vendor/bin/pest\n      shell: bash\n";
        let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        php: ['8.4', '8.3']\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          php-version: ${{ matrix.php }}\n";
        let out = run(&[(".github/actions/setup/action.yml", action), (".github/workflows/ci.yml", workflow)]);
        let toolchains: Vec<_> = out.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(toolchains, [("php", Some("8.3"))]);
        assert_eq!(out.tests[0].command, "vendor/bin/pest");
        assert_eq!(out.tests[0].source, ".github/actions/setup/action.yml#runs.steps[1]");

        // Unused by any workflow: read with its own defaults.
        let out = run(&[(".github/actions/setup/action.yml", action)]);
        assert_eq!(out.toolchains[0].version.as_deref(), Some("8.2"));
    }

    #[test]
    fn rust_toolchain_from_include_only_matrix_and_reference() {
        let workflow = "jobs:\n  test:\n    strategy:\n      matrix:\n        include:\n          - rust: 1.74.0\n          - rust: stable\n    steps:\n      - uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: ${{ matrix.rust }}\n      - run: cargo test\n  msrv:\n    steps:\n      - uses: dtolnay/rust-toolchain@1.70\n      - run: cargo test --lib\n";
        let out = run(&[(".github/workflows/ci.yml", workflow)]);
        let versions: Vec<_> = out.toolchains.iter().map(|t| t.version.as_deref()).collect();
        assert_eq!(versions, [Some("1.74.0"), Some("1.70")]);
    }

    #[test]
    fn compose_up_step_is_a_start() {
        let workflow = "jobs:\n  e2e:\n    defaults:\n      run:\n        working-directory: backend\n    steps:\n      - run: docker compose -f docker/ci.yml up -d --wait\n      - run: go test ./...\n";
        let compose = "services:\n  db:\n    image: postgres:16\n  api:\n    build: .\n";
        let out = run(&[(".github/workflows/e2e.yml", workflow), ("backend/docker/ci.yml", compose)]);
        assert_eq!(out.starts[0].command, "docker compose -f backend/docker/ci.yml up -d db");
        assert_eq!(out.tests[0].command, "cd backend && go test ./...");
    }

    #[test]
    fn gitlab_and_circleci() {
        let gitlab = "image: python:3.12-slim\nservices:\n  - postgres:16\nvariables:\n  PYTEST: pytest -q\ntest:\n  services:\n    - name: redis:7\n      alias: cache\n  script:\n    - pip install -r requirements.txt\n    - $PYTEST\n";
        let circle = "version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/ruby:3.3.1\n      - image: cimg/postgres:15.4\n    steps:\n      - checkout\n      - run: bundle exec rspec\n      - run:\n          command: bin/rails test\n";
        let out = run(&[(".gitlab-ci.yml", gitlab), (".circleci/config.yml", circle)]);
        let services: Vec<_> = out.services.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(services, ["postgres", "redis"]);
        let toolchains: Vec<_> = out.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(toolchains, [("python", Some("3.12")), ("ruby", Some("3.3.1"))]);
        let tests: Vec<_> = out.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(tests, ["pytest -q", "bundle exec rspec", "bin/rails test"]);
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
            let gitlab = "test: [1]\nservices: {a: b}\nimage: {name: 3}\n";
            let circle = "jobs:\n  a:\n    docker: postgres\n    steps: [checkout, {run: 3}]\n";
            let out = run(&[
                (".github/workflows/x.yml", workflow),
                (".gitlab-ci.yml", gitlab),
                (".circleci/config.yml", circle),
            ]);
            assert!(out.starts.is_empty(), "{workflow}");
        }
    }

    #[test]
    fn secrets_are_read_only_inside_expressions() {
        let script = "echo '${{ secrets.DB_KEY }}' > conf/secrets.json && cp secrets.json x\n${{ secrets['API_TOKEN'] || secrets.OTHER }}";
        assert_eq!(secret_references(script), ["DB_KEY", "API_TOKEN", "OTHER"]);
    }

    #[test]
    fn quoted_arguments_around_unknown_expressions_go_whole() {
        let ctx = Context::default().with_env(&yaml_rust2::YamlLoader::load_from_str("V: '3.12'").unwrap()[0]);
        assert_eq!(
            ctx.resolve(r#"bash tests-start.sh "Coverage for ${{ github.sha }}" --x"#),
            "bash tests-start.sh --x"
        );
        assert_eq!(ctx.resolve(r#"pytest -m 'not ${{ github.ref }}' tests"#), "pytest tests");
        assert_eq!(ctx.resolve(r#"tox -e "py${{ env.V }}""#), r#"tox -e "py3.12""#);
        assert_eq!(ctx.resolve(r#"run --label "${{ matrix.none || 'a b' }}""#), r#"run --label "a b""#);
    }

    #[test]
    fn test_lines_lose_their_shell_control() {
        let loops = ["proj"];
        assert_eq!(standalone_test("if cargo test --all; then", &loops).as_deref(), Some("cargo test --all"));
        assert_eq!(standalone_test("cargo test -p a || true", &loops).as_deref(), Some("cargo test -p a"));
        assert_eq!(
            standalone_test("make test || make test-verbose", &loops).as_deref(),
            Some("make test || make test-verbose")
        );
        assert_eq!(standalone_test(r#"dotnet test "$proj" || failed=1"#, &loops), None);
        assert_eq!(standalone_test("call script/test.bat :windows", &loops), None);
        assert_eq!(standalone_test(r".\scripts\test.ps1", &loops), None);
        assert_eq!(standalone_test("cd hex && mix test && cd ..", &loops).as_deref(), Some("cd hex && mix test"));
        assert_eq!(
            standalone_test("go test ./... -count=$COUNT", &loops).as_deref(),
            Some("go test ./... -count=$COUNT")
        );
        let script = "for proj in a b; do\n  dotnet test \"$proj\"\ndone";
        let vars: Vec<_> = LOOP_VARIABLE.captures_iter(script).map(|c| c[1].to_string()).collect();
        assert_eq!(vars, ["proj"]);
    }

    #[test]
    fn jobs_testing_another_checked_out_project_are_not_ours() {
        let workflow = "jobs:\n  downstream:\n    services:\n      pg:\n        image: postgres:15\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: other/app\n      - uses: actions/checkout@v4\n        with:\n          path: ours\n      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.9'\n      - run: pytest tests\n        env:\n          K: ${{ secrets.OTHER_TOKEN }}\n  own:\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/checkout@v4\n        with:\n          repository: org/fixtures\n          path: fixtures\n      - run: make test\n";
        let out = run(&[(".github/workflows/ci.yml", workflow)]);
        let tests: Vec<_> = out.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(tests, ["make test"]);
        assert!(out.services.is_empty() && out.secrets.is_empty() && out.toolchains.is_empty());
        let workflow = "jobs:\n  t:\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/checkout@v4\n        with:\n          repository: org/plugin\n          path: plugin\n      - run: |\n          cd web\n          npm test\n          cd ../plugin\n          pytest\n";
        let out = run(&[(".github/workflows/ci.yml", workflow)]);
        let tests: Vec<_> = out.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(tests, ["cd web && npm test"]);
    }

    #[test]
    fn versions() {
        assert_eq!(pinned("20.x").as_deref(), Some("20"));
        assert_eq!(pinned("3.12.x").as_deref(), Some("3.12"));
        assert_eq!(pinned("'3.12'").as_deref(), Some("3.12"));
        assert_eq!(pinned("stable"), None);
        assert_eq!(pinned("lts/*"), None);
        assert_eq!(pinned("^1"), None);
        let values = ["8.4", "8.10", "8.3", "nightly"].map(String::from);
        assert_eq!(lowest_version(&values).as_deref(), Some("8.3"));
    }
}
