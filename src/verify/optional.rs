//! The services the primary test does not use (`verify --all-tests`): brought up beside
//! `start`, in the background, by a step of their own. One that cannot start (no Docker and
//! no distribution package, a port taken) makes a warning naming it and its evidence, not a
//! red run: the primary test never needed it.

use std::time::{Duration, Instant};

use super::log::StepLog;
use super::process::Group;
use super::{COMMAND_FLAGS, OptionalStart, Runner, Status, VerifyError};
use crate::envfile::child::exit_code;

/// The step's name in the report.
const STEP: &str = "optional services";

impl Runner<'_> {
    /// Start the optional services in the background.
    pub(super) fn optional_start(
        &mut self,
        optional: &OptionalStart,
    ) -> Result<(Group, StepLog, Instant), VerifyError> {
        self.progress.started(STEP, &optional.script);
        let (script, log) = self.prepare(STEP, &optional.script)?;
        let began = Instant::now();
        let (group, output) = self.spawn(STEP, COMMAND_FLAGS, &script, &log)?;
        Ok((group, output, began))
    }

    /// Stop the optional start's group and record how it fared: a failure is `warned`, with
    /// a warning naming the services.
    pub(super) fn finish_optional(
        &mut self,
        optional: &OptionalStart,
        mut group: Group,
        output: StepLog,
        began: Instant,
    ) {
        let exited = group.try_wait();
        group.stop(self.options.grace);
        let (status, exit) = match exited {
            None => (Status::Running, None),
            Some(s) if s.success() => (Status::Passed, Some(0)),
            Some(s) => (Status::Warned, Some(exit_code(s))),
        };
        let log = self.logs.join(format!("{}.log", STEP.replace(' ', "-")));
        if status == Status::Warned {
            output.settle(Duration::from_millis(200));
            let text = output.render(self.env);
            self.warnings.push(warning(&optional.services, &log, &text));
        }
        let report = self.report(STEP, &optional.script, status, began.elapsed(), exit, log, &output);
        self.progress.finished(&report);
        self.steps.push(report);
    }
}

/// The warning for optional services that did not come up: which, from where, and the last
/// line their start printed (sensitive values masked).
fn warning(services: &[String], log: &std::path::Path, text: &[u8]) -> String {
    // The last line the services' start printed, not our trap's.
    let trap = format!("{}line ", super::TRAP_MARKER);
    let (tail, _) = super::log::last_lines(text, 3, &trap);
    let said = match tail.iter().rev().map(|l| l.trim()).find(|l| !l.is_empty() && !l.starts_with(&trap)) {
        Some(last) => format!(" (it said: {})", crate::ui::printable_line(last)),
        None => String::new(),
    };
    format!(
        "optional services not brought up: {}; the primary test does not use them, so the run goes on{said}; log: {}",
        services.join(", "),
        log.display()
    )
}
