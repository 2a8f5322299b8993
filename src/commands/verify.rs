//! `hanzo-env verify`: install, start and test in a scratch copy; a report per step.
//!
//! Exit codes: 0 when every step passed, 1 when a step failed or timed out (the check ran
//! and found a problem, like `diff --exit-code`), 2 when verify itself could not run (bad
//! `[env]`, no proposal file, nothing to run), 130 when interrupted.

use std::collections::HashMap;
use std::time::Duration;

use crate::checkout::proposal_path;
use crate::cli::{GlobalArgs, VerifyArgs};
use crate::diagnostic::{Exit, Failure};
use crate::envfile::ChildEnv;
use crate::envfile::child::{LOCATION_VARS, NETWORK_VARS, TOOLCHAIN_VARS, signals};
use crate::proposal::Proposal;
use crate::ui::{Ui, printable_line};
use anyhow::Context;

use crate::verify::{self, Kept, OptionalStart, Options, Plan, Progress, Report, Status, StepReport, short_duration};

/// Between SIGTERM and SIGKILL when a step's process group is stopped.
const GRACE: Duration = Duration::from_secs(5);

pub fn run(_global: &GlobalArgs, args: &VerifyArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let root = super::detect::checkout_root(&args.path);
    let proposal = Proposal::load(&proposal_path(&root))?;
    let resolved = super::run::resolve_env(ui, &proposal.env)?;
    let host = |name: &str| std::env::var_os(name);
    let locations = LOCATION_VARS.iter().filter(|name| host(name).is_some()).map(|name| name.to_string());
    let pass: Vec<String> = args.pass.iter().cloned().chain(locations).collect();
    let (env, warnings) = ChildEnv::build(resolved, &pass, &host)?;
    // Tools that could wait for input or watch files run once and plainly under CI.
    let env = env.with_fixed("CI", "true");
    for warning in warnings {
        ui.warn(&warning);
    }
    let unresolved: Vec<&str> =
        proposal.required_secrets().map(String::as_str).filter(|name| !env.has_value(name)).collect();
    if let Some(first) = unresolved.first() {
        ui.warn(&format!(
            "required secrets resolve to nothing, so the steps run without them: {}; give each a value in [env] \
             (e.g. {first} = \"${{{first}}}\") or pass it from your environment with --pass {first}",
            unresolved.join(", ")
        ));
    }
    let plan = plan(&root, &proposal, args, ui)?;
    if plan.is_empty() {
        return Err(Failure::new("nothing to verify: install and start are empty and no test command was found")
            .hint("fill in .hanzo/environment.toml (`hanzo-env detect`), or pass --test CMD")
            .into());
    }
    let options = Options { step_timeout: step_timeout(args), timeout: args.timeout, grace: GRACE, keep: args.keep };
    signals::install();
    let mut progress = Spinners { ui, active: HashMap::new() };
    let report = verify::verify(&root, &plan, &env, &options, &mut progress)?;
    progress.clear();
    for warning in &report.warnings {
        ui.warn(warning);
    }
    for leftover in &report.stopped {
        ui.warn(&format!(
            "{} left a process running: `{}` (pid {}); verify stopped it",
            leftover.after, leftover.command, leftover.pid
        ));
    }
    if ui.json() {
        ui.out_json(&report)?;
    } else {
        ui.out(&render_table(&report, ui));
        let withheld = withheld_vars(&report, &env);
        if !withheld.is_empty() {
            ui.info(&format!(
                "{} set in your environment but not passed to the steps: {}; if a step needs one, add --pass NAME",
                ui.bold("note:"),
                withheld.join(" ")
            ));
        }
        match report.kept {
            Kept::All => ui.info(&format!("scratch copy kept: {}", report.scratch.display())),
            Kept::Logs => ui.info(&format!("logs kept in {}", report.scratch.join("logs").display())),
            Kept::None => {}
        }
    }
    Ok(if report.interrupted_by.is_some() {
        Exit::Interrupted
    } else if report.ok {
        Exit::Ok
    } else {
        Exit::Differences
    })
}

/// The variables of the caller's environment the steps did not get that may explain a failure:
/// the network ones when a step met a network or TLS error, the toolchain ones when a command
/// was not found (exit 127); nothing after a pass, a plain failure or Ctrl-C.
fn withheld_vars(report: &Report, env: &ChildEnv) -> Vec<&'static str> {
    let not_found = report.interrupted_by.is_none()
        && report.steps.iter().any(|step| !step.status.ok() && step.exit_code == Some(NOT_FOUND));
    let mut relevant: Vec<&'static str> = Vec::new();
    if !report.ok && report.shows_network_trouble() {
        relevant.extend(NETWORK_VARS);
    }
    if !report.ok && not_found {
        relevant.extend(TOOLCHAIN_VARS);
    }
    relevant.retain(|name| !env.has(name) && std::env::var_os(name).is_some());
    relevant
}

/// The shells' exit code for "command not found".
const NOT_FOUND: i32 = 127;

/// The steps: the file's install and start, the `--test` commands or the detected ones, and
/// the ports of the detected services.
fn plan(root: &std::path::Path, proposal: &Proposal, args: &VerifyArgs, ui: &Ui) -> anyhow::Result<Plan> {
    let detection = match crate::detect::detect(root, &crate::detect::WalkOptions::default()) {
        Ok(detection) => Some(detection),
        Err(err) => {
            ui.warn(&format!("detection failed, so no detected tests or services: {err}"));
            None
        }
    };
    let mut tests: Vec<String> = args.tests.clone();
    if tests.is_empty()
        && let Some(detection) = &detection
    {
        // The primary test is the one a developer runs before pushing; the others on request.
        let primary = detection.tests.iter().find(|t| t.primary).or(detection.tests.first());
        let chosen: Vec<&crate::detect::TestCommand> =
            if args.all_tests { detection.tests.iter().collect() } else { primary.into_iter().collect() };
        for test in chosen {
            if !tests.contains(&test.command) {
                tests.push(test.command.clone());
            }
        }
        if tests.is_empty() {
            ui.warn("no test command detected; pass --test CMD to run one");
        } else if !args.all_tests && detection.tests.len() > 1 {
            ui.info(&format!(
                "running the primary test ({}); --all-tests runs all {} detected",
                tests[0],
                detection.tests.len()
            ));
        }
    }
    let mut services: Vec<(String, u16)> = Vec::new();
    // With the drafted start made only of service starts, what it brings up is all that is
    // waited for; an edited start, or one that runs scripts, may bring up any detected service.
    let drafted = detection.as_ref().filter(|d| {
        d.start.trim() == proposal.start.trim()
            && d.starts.iter().all(|s| s.compose.is_some() || !s.containers.is_empty())
    });
    let brought_up = drafted.map(|d| d.started_services());
    for service in detection.iter().flat_map(|d| &d.services) {
        if brought_up.as_ref().is_some_and(|names| !names.contains(&service.name.as_str())) {
            ui.debug(1, &format!("service {} is not one the drafted start brings up; not waited for", service.name));
            continue;
        }
        match verify::service_port(&service.name, &service.ports) {
            Some(port) if !services.iter().any(|(_, p)| *p == port) => services.push((service.name.clone(), port)),
            Some(_) => {}
            None => ui.debug(1, &format!("no known port for service {}; not waited for", service.name)),
        }
    }
    // With every test run, the services the primary does not use come up too, beside the
    // drafted start (an edited start is the user's own choice of services).
    let optional = detection
        .as_ref()
        .filter(|d| args.all_tests && args.tests.is_empty() && d.start.trim() == proposal.start.trim())
        .filter(|d| !d.optional_start.trim().is_empty())
        .map(|d| -> anyhow::Result<OptionalStart> {
            let services = d.optional_services.iter().map(|s| format!("{} ({})", s.name, s.source)).collect();
            let script = crate::plan::block::expand(&d.optional_start).context("in the optional services' start")?;
            Ok(OptionalStart { script, services })
        })
        .transpose()?;
    // What runs is the plan with its helpers' text, as `save` sends it.
    let (install, start) = crate::plan::block::runnable(&proposal.install, &proposal.start)?;
    Ok(Plan { install, start, tests, services, optional })
}

/// One spinner per running step on a terminal, a plain line per event otherwise.
struct Spinners<'a> {
    ui: &'a Ui,
    active: HashMap<String, indicatif::ProgressBar>,
}

impl Spinners<'_> {
    fn clear(&mut self) {
        for (_, bar) in self.active.drain() {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Spinners<'_> {
    fn started(&mut self, step: &str, command: &str) {
        let first_line = summary_line(command);
        let message = format!("{step}: {}", truncate(&first_line, 60));
        // A background `start` keeps running; its spinner gives way to the next step.
        if let Some(bar) = self.active.remove("start") {
            bar.finish_with_message("start: running in the background");
        }
        let bar = self.ui.spinner(&message);
        if bar.is_hidden() {
            self.ui.info(&format!("▸ {message}"));
        }
        self.active.insert(step.to_string(), bar);
    }

    fn finished(&mut self, report: &StepReport) {
        if let Some(bar) = self.active.remove(&report.step) {
            bar.finish_and_clear();
        }
        if report.status == Status::Skipped {
            self.ui.info(&self.ui.dim(&format!("- {} skipped", report.step)));
            return;
        }
        let mark = match report.status {
            Status::Warned => "!".to_string(),
            status if status.ok() => self.ui.green("✓"),
            _ => self.ui.red("✗"),
        };
        self.ui.info(&format!(
            "{mark} {} {} ({})",
            report.step,
            report.status.as_str(),
            short_duration(report.duration)
        ));
    }
}

/// The line that says what a script does: the first one that is not blank, a comment, a
/// `set` of shell options or the stock helpers' text.
fn summary_line(script: &str) -> String {
    let plan = crate::plan::block::collapse(script);
    let mut lines = plan.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.clone().next().unwrap_or_default();
    let found = lines.find(|l| !l.starts_with('#') && !l.starts_with("set -") && !l.starts_with("set +"));
    found.unwrap_or(first).to_string()
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max { text.to_string() } else { text.chars().take(max - 1).collect::<String>() + "…" }
}

/// The report as a table, then for each failed step its failing line and last lines.
fn render_table(report: &Report, ui: &Ui) -> String {
    let header = ["STEP", "STATUS", "TIME", "LOG"];
    let rows: Vec<[String; 4]> = report
        .steps
        .iter()
        .map(|s| {
            [
                s.step.clone(),
                s.status.as_str().to_string(),
                if s.status == Status::Skipped { "-".into() } else { short_duration(s.duration) },
                s.log.as_ref().map(|l| l.display().to_string()).unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: [&str; 4]| {
        let padded: Vec<String> =
            cells.iter().zip(widths).map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count()))).collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    out.push_str(&ui.bold(line(header).trim_end()));
    out.push('\n');
    for (row, step) in rows.iter().zip(&report.steps) {
        let text = line([&row[0], &row[1], &row[2], &row[3]]);
        out.push_str(&match step.status {
            Status::Passed | Status::Running | Status::Warned => text,
            Status::Skipped => ui.dim(text.trim_end()) + "\n",
            _ => ui.red(text.trim_end()) + "\n",
        });
    }
    for step in report
        .steps
        .iter()
        .filter(|s| matches!(s.status, Status::Failed | Status::Timeout | Status::Interrupted | Status::Blocked))
    {
        out.push('\n');
        let exit = step.exit_code.map(|c| format!(", exit {c}")).unwrap_or_default();
        let command = step.command.trim();
        let command = if command.contains('\n') {
            String::new()
        } else {
            format!(": {}", printable_line(&truncate(command, 80)))
        };
        out.push_str(&format!("{} {}{exit}{command}\n", step.step, step.status.as_str()));
        // What the steps printed is shown escaped: it comes from the checkout's scripts.
        if let Some(failed) = &step.failed_line {
            out.push_str(&format!("  failed at {}\n", printable_line(failed)));
        }
        for tail in &step.tail {
            out.push_str(&format!("  │ {}\n", printable_line(tail)));
        }
        if let Some(hint) = &step.hint {
            out.push_str(&format!("  {} {}\n", ui.bold("hint:"), printable_line(hint)));
        }
    }
    let passed = report.steps.iter().filter(|s| s.status.ok()).count();
    out.push_str(&format!(
        "\n{} {passed}/{} steps passed\n",
        if report.ok { ui.green("✓") } else { ui.red("✗") },
        report.steps.len()
    ));
    out
}

/// A step may take the whole run unless told otherwise: `--timeout 40m` is a promise of 40
/// minutes to a test suite that needs 20.
fn step_timeout(args: &VerifyArgs) -> Duration {
    args.step_timeout.unwrap_or(args.timeout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_may_take_the_whole_run_unless_limited() {
        use clap::Parser as _;
        let limit = |args: &[&str]| match crate::cli::Cli::try_parse_from(args).unwrap().command {
            crate::cli::Command::Verify(verify) => step_timeout(&verify),
            _ => unreachable!("parsed as verify"),
        };
        assert_eq!(limit(&["hanzo-env", "verify"]), Duration::from_secs(30 * 60));
        assert_eq!(limit(&["hanzo-env", "verify", "--timeout", "40m"]), Duration::from_secs(40 * 60));
        assert_eq!(
            limit(&["hanzo-env", "verify", "--timeout", "40m", "--step-timeout", "5m"]),
            Duration::from_secs(300)
        );
    }

    #[test]
    fn a_script_is_summarised_by_its_first_real_line() {
        assert_eq!(summary_line("set -euo pipefail\n# pnpm-lock.yaml\n\npnpm install\nmore"), "pnpm install");
        assert_eq!(summary_line("cargo test"), "cargo test");
        assert_eq!(summary_line("# only a comment"), "# only a comment");
        // The stock helpers' text says nothing of what the script does.
        let plan = "# hanzo-env helpers v1: hanzo_python\nset -euo pipefail\nhanzo_python 3.12  # .python-version\n";
        let runnable = crate::plan::block::expand(plan).unwrap();
        assert!(runnable.contains("hanzo_python() {"), "{runnable}");
        assert_eq!(summary_line(&runnable), "hanzo_python 3.12  # .python-version");
        assert_eq!(summary_line(""), "");
    }
}
