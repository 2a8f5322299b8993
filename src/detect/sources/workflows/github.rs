//! GitHub Actions: workflows' jobs, and the local composite actions their steps use.

use super::*;

/// How deep local actions that use local actions are followed.
const MAX_ACTION_NESTING: usize = 8;

impl Reader<'_> {
    pub(super) fn github_workflow(&mut self, rel: &RelPath) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let release = is_release_workflow(rel, doc);
        let partial = is_partial_workflow(rel, Some(doc));
        let workflow_ctx = Context::default().with_env(&doc["env"]);
        let Some(jobs) = doc["jobs"].as_hash() else { return };
        let read = first_entries(self.repo, rel, "jobs", jobs.len(), MAX_JOBS_PER_FILE);
        for (job_name, def) in jobs.iter().take(read) {
            let Some(job_name) = scalar(job_name) else { continue };
            let foreign_dirs = foreign_checkouts(def);
            if foreign_dirs.iter().any(|dir| dir.is_root()) || never_runs(&def["if"], &workflow_ctx) {
                continue;
            }
            let agent_setup = rel.file_name().starts_with("copilot-setup-steps.") && job_name == "copilot-setup-steps";
            let kind = if agent_setup { JobKind::AgentSetup } else { JobKind::Github { release } };
            let evidence = Evidence::job(rel, format!("jobs.{job_name}"));
            let evidence = if agent_setup { evidence.of(Kind::AgentSetup) } else { evidence };
            let ctx = workflow_ctx.with_matrix(&def["strategy"]["matrix"]).with_env(&def["env"]);
            // A job only on macOS or Windows tests a platform's variant of the suite: a Linux
            // job's tests are the ones a Linux sandbox runs as CI does.
            let partial = partial || runs_only_off_linux(&def["runs-on"], &ctx);
            let mut job = Job { partial, ..Job::new(evidence, kind) };
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
            // The job's env reaches its tests beside services: it says how they connect. Its
            // time zone, locale and terminal (and the workflow's) always do: see
            // `is_locale_or_terminal_variable`.
            let declared_services = !job.services.is_empty();
            let job_env = if declared_services {
                literal_env(&def["env"], &ctx)
            } else {
                let mut locale = literal_env(&doc["env"], &workflow_ctx);
                for (name, value) in literal_env(&def["env"], &ctx) {
                    locale.retain(|(set, _)| *set != name);
                    locale.push((name, value));
                }
                locale.retain(|(name, _)| is_locale_or_terminal_variable(name));
                locale
            };
            let default_dir = scalar(&def["defaults"]["run"]["working-directory"])
                .or_else(|| scalar(&doc["defaults"]["run"]["working-directory"]));
            // What earlier steps wrote to `$GITHUB_ENV`: the environment of the steps after them.
            let mut exported: Vec<(String, String)> = Vec::new();
            // What a file `cat` into `$GITHUB_ENV` sets: read by later steps' expressions
            // (`${{ env.OTP_VERSION }}`), but a versions file is no environment of a test.
            let mut versions_files: Vec<(String, String)> = Vec::new();
            for (i, step) in def["steps"].as_vec().into_iter().flatten().enumerate() {
                let source = job.source.sub_key(&format!("steps[{i}]"));
                let step_ctx = ctx.with_pairs(&versions_files).with_pairs(&exported).with_env(&step["env"]);
                if never_runs(&step["if"], &step_ctx) {
                    continue;
                }
                if let Some(uses) = scalar(&step["uses"]) {
                    if let Some(local) = uses.strip_prefix("./") {
                        let inputs = action_inputs(&step["with"], &step_ctx);
                        if let Some(path) = self.local_action(local) {
                            let mut used = vec![path.clone()];
                            self.composite_action_within(&path, &inputs, &step_ctx, &foreign_dirs, &mut job, &mut used);
                            for path in used {
                                if !self.composites_used.contains(&path) {
                                    self.composites_used.push(path);
                                }
                            }
                        }
                    } else {
                        job.actions.push(action_use(&uses, &step["with"], &step_ctx, source.clone()));
                    }
                }
                let script = scalar(&step["run"]).or_else(|| {
                    scalar(&step["uses"])
                        .and_then(|uses| command_action_script(&uses, &step["with"], self.command_actions))
                });
                if let Some(script) = script {
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
                    for line in literal {
                        if let Some((name, value)) = exported_to_later_steps(line.trim()) {
                            exported.retain(|(set, _)| *set != name);
                            exported.push((name, value));
                        }
                        for (name, value) in self.exported_file(line.trim(), &dir) {
                            versions_files.retain(|(set, _)| *set != name);
                            versions_files.push((name, value));
                        }
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
            job.lines.extend(reusable_workflow_commands(def, &ctx, &foreign_dirs, &job.source));
            let mut found = Vec::new();
            strings(def, &mut found);
            job.secrets = found.into_iter().flat_map(secret_references).collect();
            self.jobs.push(job);
        }
    }

    /// A local composite action's steps, added to `job` in the caller's context, with inputs
    /// from the caller's `with:` or the action's defaults.
    pub(super) fn composite_action(
        &self,
        rel: &RelPath,
        given: &HashMap<String, String>,
        caller: &Context,
        foreign_dirs: &[RelPathBuf],
        job: &mut Job,
    ) {
        self.composite_action_within(rel, given, caller, foreign_dirs, job, &mut vec![rel.to_owned()]);
    }

    /// What `cat FILE >> $GITHUB_ENV` (run from `dir`) exports to later steps: the file's
    /// `NAME=value` lines (a `.versions` file of `OTP_VERSION=28.1` that setup actions then
    /// read as `${{ env.OTP_VERSION }}`). Nothing for a file the repository lacks.
    fn exported_file(&self, line: &str, dir: &str) -> Vec<(String, String)> {
        let Some(c) = GITHUB_ENV_FILE.captures(line) else { return Vec::new() };
        let Some(path) = join_path(dir, &c[1]) else { return Vec::new() };
        let Some(text) = self.repo.exists(&path).then(|| self.repo.read(&path)).flatten() else { return Vec::new() };
        crate::detect::sources::env_files::entries(&text)
            .into_iter()
            .filter(|entry| !entry.commented && is_variable_name(&entry.key))
            .map(|entry| (entry.key, entry.value.trim().trim_matches(['"', '\'']).to_string()))
            .collect()
    }

    /// The `action.yml` (or `.yaml`) of a local action's folder (`.github/actions/setup`), as
    /// `uses: ./…` names it from the repository's root.
    fn local_action(&self, local: &str) -> Option<RelPathBuf> {
        // `uses: ./` (an action at the root) is not read.
        let dir = RelPath::new(local.trim_end_matches('/')).ok().filter(|dir| !dir.is_root())?;
        [rel!("action.yml"), rel!("action.yaml")].into_iter().map(|file| dir.join(file)).find(|p| self.repo.exists(p))
    }

    /// [`Self::composite_action`], with the chain of local actions being read (`used`), so
    /// one that uses another (a setup action calling `./.github/actions/node`) is read
    /// through, and one that comes back to itself stops.
    fn composite_action_within(
        &self,
        rel: &RelPath,
        given: &HashMap<String, String>,
        caller: &Context,
        foreign_dirs: &[RelPathBuf],
        job: &mut Job,
        used: &mut Vec<RelPathBuf>,
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
                if let Some(local) = uses.strip_prefix("./") {
                    let inner =
                        self.local_action(local).filter(|p| !used.contains(p) && used.len() < MAX_ACTION_NESTING);
                    if let Some(path) = inner {
                        used.push(path.clone());
                        let inputs = action_inputs(&with, &step_ctx);
                        self.composite_action_within(&path, &inputs, &step_ctx, foreign_dirs, job, used);
                    }
                    continue;
                }
                job.actions.push(action_use(&uses, &with, &step_ctx, source.clone()));
            }
            if let Some(script) = scalar(&step["run"]) {
                let dir = scalar(&step["working-directory"]).unwrap_or_default();
                job.lines.extend(run_lines(&script, &dir, &step_ctx, foreign_dirs, &source));
            }
        }
    }
}

/// `runs-on` names only macOS or Windows runners (`macos-14`, `windows-latest`,
/// `[self-hosted, macOS]`, or a matrix of those); false when it names none, or a Linux one.
fn runs_only_off_linux(runs_on: &Yaml, ctx: &Context) -> bool {
    let runners: Vec<Vec<String>> = match runs_on.as_vec() {
        Some(labels) => vec![labels.iter().filter_map(scalar).flat_map(|l| expand_matrix(&l, ctx)).collect()],
        None => scalar(runs_on)
            .map(|label| expand_matrix(&label, ctx))
            .unwrap_or_default()
            .into_iter()
            .map(|l| vec![l])
            .collect(),
    };
    let off_linux = |labels: &Vec<String>| {
        labels.iter().any(|label| {
            let label = label.to_ascii_lowercase();
            label.starts_with("macos") || label.starts_with("windows")
        })
    };
    !runners.is_empty() && runners.iter().all(off_linux)
}

/// The time zone, locale and terminal CI's runner gives every step: a suite that formats
/// dates or text, or a terminal library's that asserts colour codes (`CLICOLOR_FORCE`,
/// `COLORTERM`), expects CI's, where a sandbox runs in UTC, the C locale and no terminal.
fn is_locale_or_terminal_variable(name: &str) -> bool {
    matches!(
        name,
        "TZ" | "LANG"
            | "LANGUAGE"
            | "CLICOLOR"
            | "CLICOLOR_FORCE"
            | "COLORTERM"
            | "FORCE_COLOR"
            | "NO_COLOR"
            | "TERM"
            | "PY_COLORS"
            | "COLUMNS"
    ) || name.starts_with("LC_")
}

/// The shell line a step of an action that runs one command of a tool runs (see
/// [`CommandActions`]), expressions left for [`run_lines`] to resolve; none for another
/// action, or one that runs the command in `cross`'s containers.
fn command_action_script(uses: &str, with: &Yaml, command_actions: CommandActions) -> Option<String> {
    let action = uses.split_once('@').map_or(uses, |(action, _)| action);
    let (program, inputs) = command_actions(action)?;
    if scalar(&with["use-cross"]).is_some_and(|cross| cross == "true") {
        return None;
    }
    let words: Vec<String> =
        inputs.iter().filter_map(|input| scalar(&with[*input])).map(|w| w.trim().to_string()).collect();
    let words: Vec<String> = words.into_iter().filter(|w| !w.is_empty()).collect();
    (!words.is_empty()).then(|| format!("{program} {}", words.join(" ")))
}

/// The commands a job that calls a reusable workflow of another repository hands it
/// (`uses: org/actions/.github/workflows/node.yml@main` with `command: npm run tests-only`):
/// that workflow runs them in the checkout, so they are the job's lines. Inputs named for a
/// command (`command`, `test-command`, `run`, `script`, `cmd`) only.
fn reusable_workflow_commands(def: &Yaml, ctx: &Context, foreign_dirs: &[RelPathBuf], job: &Evidence) -> Vec<RunLine> {
    let Some(uses) = scalar(&def["uses"]) else { return Vec::new() };
    if uses.starts_with("./") {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for (key, value) in def["with"].as_hash().into_iter().flatten() {
        let (Some(key), Some(value)) = (scalar(key), scalar(value)) else { continue };
        let words: Vec<&str> = key.split(['-', '_']).collect();
        if words.iter().any(|w| matches!(*w, "command" | "commands" | "run" | "script" | "cmd")) {
            lines.extend(run_lines(&value, "", ctx, foreign_dirs, &job.sub_key(&format!("with.{key}"))));
        }
    }
    lines
}
