//! `verify`: try an environment in a scratch copy of the checkout (DESIGN.md §7).
//!
//! Steps, in order: `install` (`bash -euo pipefail`), `start` in the background, a bounded
//! wait for the ports of known services, then each test command (`bash -eo pipefail`).
//! Every step runs from the copy's root in its own process group with the [`ChildEnv`] (and
//! stdin from /dev/null), writes stdout and stderr through a pipe into its own bounded log
//! ([`log`]), and is stopped as a whole group when it times out. A failed `install` skips
//! everything after it; a failed test does not stop the others. `start` is stopped (its whole
//! group) at the end. What a step left running outside its group is stopped too ([`reap`]):
//! after `install`, and at the end of the run. Logs are private (0600 in a 0700 directory)
//! and hold no sensitive value.

pub mod copy;
mod diagnosis;
pub mod log;
mod optional;
mod ports;
pub mod process;
mod python;
pub mod reap;
pub mod sandbox;

use std::ffi::OsString;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::envfile::ChildEnv;
use crate::envfile::child::{exit_code, signals};
use diagnosis::{blame_services, mentions_network_trouble, missing_command_hint, untrusted_certificate_hint};
use log::StepLog;
use ports::describe_services;
pub use ports::{default_port, service_port, wait_for_port};
use process::{Group, POLL};

/// How long to wait for the services' ports at most (and never past the step timeout).
pub const SERVICE_WAIT: Duration = Duration::from_secs(60);
/// How long `start` gets to fail fast before the next step begins.
const START_SETTLE: Duration = Duration::from_millis(500);
/// How long, once the services answer, `start` may go on setting them up (roles, databases,
/// CI's preparation lines) before the tests run anyway: a start that also runs a server of
/// its own never ends.
const SETUP_GRACE: Duration = Duration::from_secs(30);
/// Lines of a failing step's log shown in the report.
pub const TAIL_LINES: usize = 15;
/// The marker our ERR trap prints before the failing line.
const TRAP_MARKER: &str = "hanzo-env: ";
/// How long a finished step's output may take to drain from its pipe.
const DRAIN: Duration = Duration::from_millis(500);

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub install: String,
    pub start: String,
    pub tests: Vec<String>,
    /// Services `start` should bring up, with the local port to wait for.
    pub services: Vec<(String, u16)>,
    /// What brings up the services the primary test does not use (`--all-tests`).
    pub optional: Option<OptionalStart>,
}

/// A start of services the primary test does not use, run beside `start`: when it fails,
/// the run goes on with a warning naming them, not a failed step.
#[derive(Debug, Clone, Default)]
pub struct OptionalStart {
    pub script: String,
    /// Each service as `name (evidence)`.
    pub services: Vec<String>,
}

impl Plan {
    pub fn is_empty(&self) -> bool {
        self.install.trim().is_empty() && self.start.trim().is_empty() && self.tests.is_empty()
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    /// The limit for each step.
    pub step_timeout: Duration,
    /// The limit for the whole run (the copy included).
    pub timeout: Duration,
    /// How long a stopped group gets between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// Keep the whole scratch directory.
    pub keep: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    Timeout,
    Skipped,
    Interrupted,
    /// `start` was still running when the tests ended (then stopped): a pass.
    Running,
    /// A test failed while a service `start` should bring up was not answering: the failure
    /// says nothing about the test.
    Blocked,
    /// Services the primary test does not use failed to start: a warning, not a failure.
    Warned,
}

impl Status {
    pub fn ok(self) -> bool {
        matches!(self, Status::Passed | Status::Running | Status::Warned)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Timeout => "timeout",
            Status::Skipped => "skipped",
            Status::Interrupted => "interrupted",
            Status::Running => "running",
            Status::Blocked => "blocked",
            Status::Warned => "warned",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    pub step: String,
    pub command: String,
    pub status: Status,
    #[serde(rename = "duration_ms", serialize_with = "as_millis")]
    pub duration: Duration,
    /// The exit code (128 + signal when killed); `None` when it did not run or still runs.
    pub exit_code: Option<i32>,
    pub log: Option<PathBuf>,
    /// For a failed step: where it failed, as our ERR trap saw it (`line 3: npm ci (exit 1)`).
    pub failed_line: Option<String>,
    /// For a failed step: the last lines of its log, sensitive values masked.
    pub tail: Vec<String>,
    /// For a failed step, what probably went wrong and how to fix it, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// For a blocked test: the services that were not answering.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocked_by: Vec<String>,
}

fn as_millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What is left of the scratch directory after the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kept {
    /// `--keep`: the copy and the logs.
    All,
    /// A step failed: the logs (the copy is removed).
    Logs,
    /// Everything passed: nothing.
    None,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ok: bool,
    pub scratch: PathBuf,
    pub kept: Kept,
    pub files_copied: u64,
    pub steps: Vec<StepReport>,
    /// The signal that interrupted the run, if any.
    pub interrupted_by: Option<i32>,
    /// Processes the steps left running, which verify stopped.
    pub stopped: Vec<reap::Leftover>,
    /// Problems that did not stop the run (an ignore file of the checkout not read).
    pub warnings: Vec<String>,
}

/// Told about each step as it starts and ends (spinners, plain lines).
pub trait Progress {
    fn started(&mut self, step: &str, command: &str);
    fn finished(&mut self, report: &StepReport);
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("could not create a scratch directory: {0}")]
    Scratch(#[source] std::io::Error),
    #[error(transparent)]
    Copy(#[from] copy::CopyError),
    #[error("could not prepare step {step} in {}: {source}", path.display())]
    Prepare { step: String, path: PathBuf, source: std::io::Error },
}

impl crate::diagnostic::Diagnostic for VerifyError {
    fn hint(&self) -> Option<String> {
        Some("check free space and permissions in the temporary directory (TMPDIR)".into())
    }
}

/// Copy `root` to a scratch directory and run `plan` there.
pub fn verify(
    root: &Path,
    plan: &Plan,
    env: &ChildEnv,
    options: &Options,
    progress: &mut dyn Progress,
) -> Result<Report, VerifyError> {
    let began = Instant::now();
    // Orphans of the steps become ours, so that none outlives the run.
    reap::become_subreaper();
    let scratch = tempfile::Builder::new().prefix("hanzo-verify-").tempdir().map_err(VerifyError::Scratch)?;
    // Under the checkout's own folder name, as a sandbox clones it: a suite may find its files
    // by a path that holds the project's name (`/cosmiconfig/node_modules/`).
    let name = root.canonicalize().ok().and_then(|r| r.file_name().map(|n| n.to_os_string()));
    let checkout = scratch.path().join("repo").join(name.unwrap_or_else(|| "checkout".into()));
    let copy_parent = scratch.path().join("repo");
    let logs = scratch.path().join("logs");
    let scripts = scratch.path().join("steps");
    let setup_error = |path: &Path, source| VerifyError::Prepare { step: "setup".into(), path: path.into(), source };
    std::fs::set_permissions(scratch.path(), std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .map_err(|e| setup_error(scratch.path(), e))?;
    for dir in [&logs, &scripts, &copy_parent] {
        std::fs::DirBuilder::new().mode(0o700).create(dir).map_err(|e| setup_error(dir, e))?;
    }
    let mut copied = copy::copy_checkout(root, &checkout)?;
    let has_history = match copy::clone_git_history(root, &checkout, || sandbox::git(env)) {
        Ok(tracked_but_ignored) => {
            copied.files += tracked_but_ignored.unwrap_or(0);
            tracked_but_ignored.is_some()
        }
        Err(why) => {
            copied.warnings.push(format!(
                "the copy has no git history ({why}): a step that reads it (a version from tags, \
                 check-manifest) sees none, unlike a sandbox's checkout"
            ));
            false
        }
    };
    let environment = scratch.path().join("env");
    let sandbox = sandbox::prepare(&environment, &plan.install, env, root, has_history)
        .map_err(|e| setup_error(&environment, e))?;
    let mut runner = Runner {
        checkout,
        logs,
        scripts,
        env,
        options,
        progress,
        deadline: began + options.timeout,
        steps: Vec::new(),
        start_command: plan.start.clone(),
        sandbox_vars: sandbox.vars,
        kept_logs: Vec::new(),
        stopped: Vec::new(),
        warnings: Vec::new(),
    };
    let ran = runner.run(plan);
    runner.stop_leftovers("start or a test");
    ran?;
    let mut steps = runner.steps;
    let interrupted_by = signals::received();
    let ok = interrupted_by.is_none() && steps.iter().all(|s| s.status.ok());
    // A warned step's log is what its warning points at.
    let logs_kept = !ok || steps.iter().any(|s| s.status == Status::Warned);
    if options.keep || logs_kept {
        for (path, log) in &runner.kept_logs {
            write_log(path, log, env).map_err(|e| setup_error(path, e))?;
        }
    }
    let scratch_path = scratch.path().to_path_buf();
    let kept = if options.keep {
        let _ = scratch.keep();
        Kept::All
    } else if logs_kept {
        let _ = std::fs::remove_dir_all(&copy_parent);
        let _ = std::fs::remove_dir_all(&environment);
        let _ = scratch.keep();
        Kept::Logs
    } else {
        drop(scratch);
        // The logs went with the scratch directory: point at none.
        for step in &mut steps {
            step.log = None;
        }
        Kept::None
    };
    Ok(Report {
        ok,
        scratch: scratch_path,
        kept,
        files_copied: copied.files,
        steps,
        interrupted_by,
        stopped: runner.stopped,
        warnings: copied.warnings.into_iter().chain(sandbox.warnings).chain(runner.warnings).collect(),
    })
}

/// The log as kept (masked) in a file only its owner can read.
fn write_log(path: &Path, log: &StepLog, env: &ChildEnv) -> std::io::Result<()> {
    log.settle(DRAIN);
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    std::io::Write::write_all(&mut file, &log.render(env))
}

struct Runner<'a> {
    checkout: PathBuf,
    logs: PathBuf,
    scripts: PathBuf,
    env: &'a ChildEnv,
    options: &'a Options,
    progress: &'a mut dyn Progress,
    /// The end of the whole run.
    deadline: Instant,
    steps: Vec<StepReport>,
    start_command: String,
    /// Set for every step over the run environment: the scratch installs ([`sandbox`]).
    sandbox_vars: Vec<(String, OsString)>,
    /// Each step's log and where it goes when logs are kept.
    kept_logs: Vec<(PathBuf, StepLog)>,
    stopped: Vec<reap::Leftover>,
    /// What went wrong without failing the run (optional services not brought up).
    warnings: Vec<String>,
}

/// Shell flags per kind of step.
const INSTALL_FLAGS: &[&str] = &["-euo", "pipefail"];
const COMMAND_FLAGS: &[&str] = &["-eo", "pipefail"];

impl Runner<'_> {
    fn run(&mut self, plan: &Plan) -> Result<(), VerifyError> {
        let tests: Vec<(String, &str)> = plan
            .tests
            .iter()
            .enumerate()
            .map(|(i, t)| {
                (if plan.tests.len() == 1 { "test".to_string() } else { format!("test {}", i + 1) }, t.as_str())
            })
            .collect();
        let has_start = !plan.start.trim().is_empty();
        let waits_for_services = has_start && !plan.services.is_empty();

        if !plan.install.trim().is_empty() {
            let report = self.foreground("install", &plan.install, INSTALL_FLAGS)?;
            let failed = !report.status.ok();
            self.record(report);
            // Nothing else runs yet: whatever is left is install's.
            self.stop_leftovers("install");
            if failed {
                if has_start {
                    self.skip("start", &plan.start);
                }
                if waits_for_services {
                    self.skip("services", &describe_services(&plan.services));
                }
                for (name, command) in &tests {
                    self.skip(name, command);
                }
                return Ok(());
            }
        }
        let mut start = None;
        if has_start {
            if self.stopping() {
                self.skip("start", &plan.start);
            } else {
                start = Some(self.background("start", &plan.start)?);
            }
        }
        let optional = match plan.optional.as_ref().filter(|o| !o.script.trim().is_empty()) {
            Some(optional) if !self.stopping() => Some((optional, self.optional_start(optional)?)),
            _ => None,
        };
        if waits_for_services {
            let start_failed = self.steps.last().is_some_and(|s| s.step == "start" && !s.status.ok());
            if self.stopping() || start_failed {
                self.skip("services", &describe_services(&plan.services));
            } else {
                let report = self.wait_for_services(&plan.services, start.as_mut().map(|(group, _, _)| group));
                self.record(report);
            }
        }
        for (name, command) in &tests {
            if self.stopping() {
                self.skip(name, command);
            } else {
                let mut report = self.foreground(name, command, COMMAND_FLAGS)?;
                if waits_for_services && report.status == Status::Failed {
                    blame_services(&mut report, &plan.services);
                }
                self.record(report);
            }
        }
        if let Some((group, output, began)) = start {
            self.finish_start(group, output, began);
        }
        if let Some((optional, (group, output, began))) = optional {
            self.finish_optional(optional, group, output, began);
        }
        Ok(())
    }

    /// Stop what the steps left running outside their groups, and remember it.
    fn stop_leftovers(&mut self, after: &str) {
        let stopped = reap::stop_descendants(self.options.grace, after, &|command| self.describe(command));
        self.remember_stopped(stopped);
    }

    /// A process found twice (in its step's group, then outside it once it left) is one, named
    /// as last seen: when first found it may not have exec'd its command yet.
    fn remember_stopped(&mut self, stopped: Vec<reap::Leftover>) {
        for leftover in stopped {
            match self.stopped.iter_mut().find(|known| known.pid == leftover.pid) {
                Some(known) => known.command = leftover.command,
                None => self.stopped.push(leftover),
            }
        }
    }

    /// A command line as it may be shown: masked and cut short.
    fn describe(&self, command: &str) -> String {
        let masked = self.env.mask(command);
        if masked.chars().count() > 120 { masked.chars().take(119).collect::<String>() + "…" } else { masked }
    }

    /// Whether the run must stop: the total timeout passed or a signal came.
    fn stopping(&self) -> bool {
        Instant::now() >= self.deadline || signals::received().is_some()
    }

    fn record(&mut self, report: StepReport) {
        self.progress.finished(&report);
        self.steps.push(report);
    }

    fn skip(&mut self, name: &str, command: &str) {
        self.record(StepReport {
            step: name.to_string(),
            command: command.to_string(),
            status: Status::Skipped,
            duration: Duration::ZERO,
            exit_code: None,
            log: None,
            failed_line: None,
            tail: Vec::new(),
            hint: None,
            blocked_by: Vec::new(),
        });
    }

    /// Write the step's script (our ERR trap first); where its log goes.
    fn prepare(&self, name: &str, command: &str) -> Result<(PathBuf, PathBuf), VerifyError> {
        let slug = name.replace(' ', "-");
        let script = self.scripts.join(format!("{slug}.sh"));
        let log = self.logs.join(format!("{slug}.log"));
        let prepare_error = |path: &Path, source| VerifyError::Prepare { step: name.into(), path: path.into(), source };
        // The trap prints the failing line as written (BASH_COMMAND is not expanded, so no
        // value of the environment can appear). It shares the script's first line so that
        // line numbers, ours and bash's own, are the user's.
        let text = format!(
            "trap 'hanzo_status=$?; printf \"{TRAP_MARKER}line %s: %s (exit %s)\\n\" \"$LINENO\" \"$BASH_COMMAND\" \"$hanzo_status\" >&2' ERR; {command}\n"
        );
        std::fs::write(&script, text).map_err(|e| prepare_error(&script, e))?;
        Ok((script, log))
    }

    /// Start the step, its stdout and stderr going through one pipe into a new log.
    fn spawn(
        &mut self,
        name: &str,
        flags: &[&str],
        script: &Path,
        log: &Path,
    ) -> Result<(Group, StepLog), VerifyError> {
        let prepare_error = |source| VerifyError::Prepare { step: name.into(), path: script.into(), source };
        let (reader, writer) = std::io::pipe().map_err(prepare_error)?;
        let stderr = writer.try_clone().map_err(prepare_error)?;
        let mut cmd = Command::new("bash");
        cmd.args(flags).arg(script).current_dir(&self.checkout);
        self.env.apply(&mut cmd);
        cmd.envs(self.sandbox_vars.iter().map(|(name, value)| (name, value)));
        cmd.stdin(Stdio::null()).stdout(writer).stderr(stderr).process_group(0);
        let child = cmd.spawn().map_err(prepare_error);
        // Our copies of the pipe's writing end go now: the log ends when the step's do.
        drop(cmd);
        let child = child?;
        let output = StepLog::pump(reader, self.env.longest_masked());
        self.kept_logs.push((log.to_path_buf(), output.clone()));
        Ok((Group::new(child), output))
    }

    /// Run a step to its end, its timeout, or an interruption.
    fn foreground(&mut self, name: &str, command: &str, flags: &[&str]) -> Result<StepReport, VerifyError> {
        self.progress.started(name, command);
        let (script, log) = self.prepare(name, command)?;
        let began = Instant::now();
        let step_deadline = (began + self.options.step_timeout).min(self.deadline);
        let (mut group, output) = self.spawn(name, flags, &script, &log)?;
        let status = loop {
            if let Some(status) = group.try_wait() {
                // Whatever the step left running in its group goes with it, named.
                let left = reap::left_in_group(group.pgid(), name, &|command| self.describe(command));
                group.stop(self.options.grace);
                self.remember_stopped(left);
                break if status.success() { Status::Passed } else { Status::Failed };
            }
            if signals::received().is_some() {
                group.stop(self.options.grace);
                break Status::Interrupted;
            }
            if Instant::now() >= step_deadline {
                group.stop(self.options.grace);
                output.append_line(&format!("{TRAP_MARKER}stopped after {}: timeout", short_duration(began.elapsed())));
                break Status::Timeout;
            }
            std::thread::sleep(POLL);
        };
        let exit = group.try_wait().map(exit_code);
        Ok(self.report(name, command, status, began.elapsed(), exit, log, &output))
    }

    /// Start a step in the background and give it a moment to fail fast.
    fn background(&mut self, name: &str, command: &str) -> Result<(Group, StepLog, Instant), VerifyError> {
        self.progress.started(name, command);
        let (script, log) = self.prepare(name, command)?;
        let began = Instant::now();
        let (mut group, output) = self.spawn(name, COMMAND_FLAGS, &script, &log)?;
        let settle = began + START_SETTLE;
        while Instant::now() < settle && group.try_wait().is_none() {
            std::thread::sleep(POLL);
        }
        if let Some(status) = group.try_wait()
            && !status.success()
        {
            group.stop(self.options.grace);
            let exit = Some(exit_code(status));
            let report = self.report(name, command, Status::Failed, began.elapsed(), exit, log, &output);
            self.record(report);
            // The group is already stopped; finish_start sees a recorded failure.
            return Ok((group, output, began));
        }
        Ok((group, output, began))
    }

    /// Stop `start`'s group and record how it fared.
    fn finish_start(&mut self, mut group: Group, output: StepLog, began: Instant) {
        let already_recorded = self.steps.iter().any(|s| s.step == "start");
        let exited = group.try_wait();
        group.stop(self.options.grace);
        if already_recorded {
            return;
        }
        let command = self.start_command.clone();
        let (status, exit) = match exited {
            None => (Status::Running, None),
            Some(s) if s.success() => (Status::Passed, Some(0)),
            Some(s) => (Status::Failed, Some(exit_code(s))),
        };
        let log = self.logs.join("start.log");
        let report = self.report("start", &command, status, began.elapsed(), exit, log, &output);
        // Keep the table in run order: start goes before the steps that ran after it.
        self.progress.finished(&report);
        let at = self
            .steps
            .iter()
            .position(|s| s.step == "services" || s.step.starts_with("test"))
            .unwrap_or(self.steps.len());
        self.steps.insert(at, report);
    }

    /// Wait for the services' ports, then for `start` to finish setting them up: a server
    /// answers before the script that started it has made its accounts and databases.
    fn wait_for_services(&mut self, services: &[(String, u16)], start: Option<&mut Group>) -> StepReport {
        let command = describe_services(services);
        self.progress.started("services", &command);
        let log = self.logs.join("services.log");
        let output = StepLog::new(0);
        output.finish();
        self.kept_logs.push((log.clone(), output.clone()));
        let began = Instant::now();
        let deadline = (began + SERVICE_WAIT.min(self.options.step_timeout)).min(self.deadline);
        let mut status = Status::Passed;
        for (name, port) in services {
            let ready = wait_for_port(*port, deadline);
            let line = match ready {
                Ok(waited) => format!("{name}: 127.0.0.1:{port} open after {}", short_duration(waited)),
                Err(waited) => {
                    status = Status::Failed;
                    format!("{name}: 127.0.0.1:{port} still closed after {}", short_duration(waited))
                }
            };
            output.append_line(&line);
        }
        if let Some(start) = start.filter(|_| status == Status::Passed) {
            let open = Instant::now();
            let deadline = (open + SETUP_GRACE.min(self.options.step_timeout)).min(self.deadline);
            while start.try_wait().is_none() && Instant::now() < deadline && !self.stopping() {
                std::thread::sleep(POLL);
            }
            let waited = short_duration(open.elapsed());
            output.append_line(&match start.try_wait() {
                Some(_) => format!("start: done setting up {waited} later"),
                None => format!("start: still running {waited} later (a server of its own, presumably); tests go on"),
            });
        }
        self.report("services", &command, status, began.elapsed(), None, log, &output)
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        name: &str,
        command: &str,
        status: Status,
        duration: Duration,
        exit_code: Option<i32>,
        log: PathBuf,
        output: &StepLog,
    ) -> StepReport {
        let (failed_line, tail) = if status.ok() {
            (None, Vec::new())
        } else {
            output.settle(DRAIN);
            let trap_line = format!("{TRAP_MARKER}line ");
            let text = output.render(self.env);
            let (mut tail, failed) = log::last_lines(&text, TAIL_LINES, &trap_line);
            // The network error a long stack trace or retry loop pushed out of the tail is
            // usually the root cause: kept first, with a line saying lines were left out.
            if let Some(cause) = log::first_line(&text, mentions_network_trouble)
                && !tail.contains(&cause)
            {
                tail.splice(0..0, [cause, "…".to_string()]);
            }
            (failed.map(|line| line[TRAP_MARKER.len()..].to_string()), tail)
        };
        StepReport {
            step: name.to_string(),
            command: command.to_string(),
            status,
            duration,
            exit_code,
            log: Some(log),
            // make reports a recipe's 127 as its own exit 2, with `Error 127`.
            hint: if exit_code == Some(127) || tail.iter().any(|l| l.contains("] Error 127")) {
                Some(missing_command_hint(&tail))
            } else {
                untrusted_certificate_hint(&tail)
            },
            failed_line,
            tail,
            blocked_by: Vec::new(),
        }
    }
}

/// `1.2s`, `2m03s`, `1h02m`.
pub fn short_duration(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 60 {
        format!("{:.1}s", d.as_secs_f64())
    } else if secs < 3600 {
        format!("{}m{:02}s", secs / 60, secs % 60)
    } else {
        format!("{}h{:02}m", secs / 3600, (secs % 3600) / 60)
    }
}

#[cfg(test)]
mod tests;
