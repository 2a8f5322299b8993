//! Which CI jobs speak for the project: a GitHub Actions job counts when it runs the tests or
//! brings up services for them, in a workflow that does not ship releases. A lint job's Node,
//! an asset build's toolchain or a deploy job's credentials are not the project's own.

use crate::detect::ecosystems::is_test_command;
use crate::detect::sources::Sources;
use crate::detect::sources::compose::{ComposeStart, DEFAULT_FILES};
use crate::detect::sources::workflows::{Job, JobKind, RunLine};

/// A GitHub job that tests the project (see the module documentation). Jobs of other CI
/// systems and unused composite actions are not scoped this way: see [`counts`].
pub fn tests_the_project(sources: &Sources, job: &Job) -> bool {
    match job.kind {
        JobKind::Github { release } => !release && runs_tests(sources, job),
        JobKind::Travis => runs_tests(sources, job),
        // What the owners set up for agents is what the project needs, tests or not.
        JobKind::AgentSetup => true,
        JobKind::UnusedAction | JobKind::Other => false,
    }
}

/// Whether a job's toolchains count: a GitHub job that tests the project, or any job of
/// GitLab CI, CircleCI, Travis CI or an unused composite action.
pub fn counts(sources: &Sources, job: &Job) -> bool {
    match job.kind {
        JobKind::Github { .. } => tests_the_project(sources, job),
        JobKind::AgentSetup | JobKind::UnusedAction | JobKind::Travis | JobKind::Other => true,
    }
}

/// Whether the job runs tests: it has service containers, or a line runs tests (outside
/// another repository's checkout), or a line brings up the project's compose services
/// (outside release workflows).
fn runs_tests(sources: &Sources, job: &Job) -> bool {
    !job.services.is_empty()
        || job.lines.iter().any(|line| runs_tests_line(line) || compose_start(sources, job, line).is_some())
}

/// A line that runs the project's tests.
pub fn runs_tests_line(line: &RunLine) -> bool {
    is_test_command(&line.text) && !line.in_foreign_checkout
}

/// The compose services a job line brings up, unless the job ships releases (its `docker
/// compose up` is production), the line tests another repository, or it brings up one of a
/// folder of alternative compose files while the root's default file is started (a job
/// against another database: `docker-compose.cockroach.yaml` beside `docker-compose.yaml`).
pub fn compose_start(sources: &Sources, job: &Job, line: &RunLine) -> Option<ComposeStart> {
    let release = matches!(job.kind, JobKind::Github { release: true });
    let foreign_test = line.in_foreign_checkout && is_test_command(&line.text);
    if release || foreign_test {
        return None;
    }
    let start = ComposeStart::of_line(sources.repo(), &line.dir, &line.text)?;
    let compose = sources.compose();
    let root_started =
        compose.starts.iter().any(|s| s.files.first().is_some_and(|f| DEFAULT_FILES.contains(&f.as_str())));
    let an_alternative = start.files.iter().all(|f| compose.alternatives.contains(f));
    (!(root_started && an_alternative)).then_some(start)
}
