//! Start candidates: the compose services a developer brings up before the tests, from the
//! root's default compose file, the dev container, CI test jobs, task recipes and the
//! project's other compose files (package scripts are the Node ecosystem's). Each is typed
//! with its origin and what it brings up; merge orders them and starts each product once.
//!
//! Decisions:
//! - Deployment compose files are never started, and of a folder of alternative compose
//!   files only the one a script names.
//! - With no compose file that starts backing services (a deployment file, alternatives no
//!   script names, or images of no known product start none) and no compose start in CI, the
//!   service containers of each CI job that tests the project are a start candidate, as
//!   `docker run -d --name NAME -p PORT:PORT -e KEY=VALUE IMAGE` (a `secrets.X` value is
//!   passed from the sandbox's `$X`).

use crate::detect::ecosystems;
use crate::detect::findings::{Evidence, Findings, Kind, Service, Start, StartOrigin};
use crate::detect::signals::relevance;
use crate::detect::sources::Sources;
use crate::detect::sources::agent_files::Purpose;
use crate::detect::sources::compose::{ComposeStart, DEFAULT_FILES};
use crate::detect::sources::images::backing_product;
use crate::detect::sources::packaged_services;
use crate::detect::sources::shell::quote;
use crate::detect::sources::tasks::docker_run_services;
use crate::detect::sources::workflows::{EnvValue, JobService};
use crate::rel_path::RelPathBuf;

/// The lines of CI test jobs with service containers that prepare the services before the
/// job's first test — a service's client (`psql -c "CREATE ROLE scram_test …"`) or a script
/// named for it (`npm run test:init`) — with the job's env for the services
/// (`PGUSER=postgres psql …`).
fn seeds(sources: &Sources, out: &mut Findings) {
    for job in sources.workflows().jobs.iter().filter(|j| !j.services.is_empty()) {
        for line in job.lines.iter().take_while(|l| !relevance::runs_tests_line(l)) {
            let program = line.text.split_whitespace().next().unwrap_or_default();
            if line.in_foreign_checkout
                || !(packaged_services::is_client(program) || ecosystems::prepares_tests(&line.text))
            {
                continue;
            }
            let env = line.env_words();
            let seed = if line.dir.is_empty() {
                format!("{env}{}", line.text)
            } else {
                format!("(cd {} && {env}{})", quote(&line.dir), line.text)
            };
            if !out.seeds.iter().any(|(known, _)| *known == seed) {
                out.seeds.push((seed, line.source.clone()));
            }
        }
    }
}

pub fn detect(sources: &Sources, out: &mut Findings) {
    seeds(sources, out);
    for command in sources.agent_commands().iter().filter(|c| c.purpose != Purpose::Install) {
        if let Some(start) = ComposeStart::of_line(sources.repo(), "", &command.command) {
            add(out, start, command.source.clone(), StartOrigin::AgentSetup);
        }
    }
    let compose = sources.compose();
    for start in &compose.starts {
        let file = &start.files[0];
        let origin =
            if DEFAULT_FILES.contains(&file.as_str()) { StartOrigin::RootCompose } else { StartOrigin::ComposeFile };
        add(out, start.clone(), Evidence::file(file).of(Kind::ComposeFile), origin);
    }
    for config in sources.devcontainers() {
        if let Some(start) = config.start(sources.repo()) {
            add(
                out,
                start,
                Evidence::key(&config.path, "dockerComposeFile").of(Kind::DevContainer),
                StartOrigin::DevContainer,
            );
        }
    }
    let mut ci_compose = false;
    for job in &sources.workflows().jobs {
        for line in &job.lines {
            if let Some(start) = relevance::compose_start(sources, job, line) {
                ci_compose = true;
                add(out, start, line.source.clone(), StartOrigin::Ci);
            }
        }
    }
    if !ci_compose && compose.starts.is_empty() {
        // One candidate per test job, in reading order: merge keeps the primary test's job's
        // (else the first), and lists the others' services as optional.
        for job in sources.workflows().jobs.iter().filter(|job| relevance::tests_the_project(sources, job)) {
            let runs: Vec<(String, Service)> = job.services.iter().filter_map(|s| docker_run(s, Kind::Ci)).collect();
            containers_start(out, runs, job.source.sub_key("services"), StartOrigin::Ci);
        }
        // Containers a task target or package script runs (merge keeps CI's before them).
        let tasks = docker_run_services(sources.repo(), sources.tasks());
        let runs: Vec<(String, Service)> = tasks.iter().filter_map(|s| docker_run(s, Kind::Task)).collect();
        if let Some(source) = tasks.first().map(|s| s.source.clone()) {
            containers_start(out, runs, source, StartOrigin::Task);
        }
    }
    for file in sources.tasks() {
        for target in &file.targets {
            for (at, command) in &target.recipe {
                if let Some(start) = ComposeStart::of_line(sources.repo(), file.path.parent(), command) {
                    add(out, start, file.at(at), StartOrigin::Task);
                }
            }
        }
    }
    if !compose.production.is_empty() {
        out.note(format!("not started (deployment compose files): {}", few(&compose.production)));
    }
    if !compose.alternatives.is_empty() {
        out.note(format!(
            "not started unless a script names them (alternative compose files): {}",
            few(&compose.alternatives)
        ));
    }
}

/// A start of service containers, one `docker run` each.
fn containers_start(out: &mut Findings, runs: Vec<(String, Service)>, source: Evidence, origin: StartOrigin) {
    if runs.is_empty() {
        return;
    }
    let (commands, containers): (Vec<String>, Vec<Service>) = runs.into_iter().unzip();
    out.start(Start { command: commands.join(" && "), source, origin, compose: None, containers, runs: commands });
}

fn add(out: &mut Findings, start: ComposeStart, source: Evidence, origin: StartOrigin) {
    out.start(Start {
        command: start.command(),
        source,
        origin,
        compose: Some(start),
        containers: Vec::new(),
        runs: Vec::new(),
    });
}

/// `docker run -d --name NAME -p PORT:PORT -e KEY=VALUE IMAGE` for a job's service container
/// when its (first) image is a backing service: its ports published on the same host ports
/// (what a local config expects), its `env` as written, a `secrets.X` value passed from the
/// sandbox's `$X`, other expressions left out. With the service it brings up.
fn docker_run(service: &JobService, kind: Kind) -> Option<(String, Service)> {
    let image = service.images.first()?;
    let product = backing_product(image, &service.name)?;
    let mut command = format!("docker run -d --name {}", quote(&service.name));
    for port in service.published_ports() {
        command.push_str(&format!(" -p {}", quote(&port)));
    }
    for (key, value) in &service.env {
        match value {
            EnvValue::Secret(secret) => command.push_str(&format!(" -e {key}=\"${secret}\"")),
            EnvValue::Literal(value) => command.push_str(&format!(" -e {}", quote(&format!("{key}={value}")))),
            EnvValue::Unknown => {}
        }
    }
    command.push(' ');
    command.push_str(&quote(image));
    Some((command, Service::ci_container(service, image, product, kind)))
}

/// The first three of `items`, and how many more.
fn few(items: &[RelPathBuf]) -> String {
    match items {
        [a, b, c, rest @ ..] if !rest.is_empty() => format!("{a}, {b}, {c} (and {} more)", rest.len()),
        _ => items.iter().map(|item| item.as_str()).collect::<Vec<_>>().join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::run_signal;

    const APP_AND_DB: &str =
        "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n  cache:\n    image: bitnami/redis:7\n";

    #[test]
    fn every_source_gives_a_typed_candidate() {
        let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: docker compose -f ci/compose.yml up -d\n      - run: pytest\n";
        let s = run_signal(
            detect,
            &[
                ("docker-compose.yml", APP_AND_DB),
                (
                    "ci/compose.yml",
                    "services:\n  db:\n    image: postgres\n  search:\n    image: opensearchproject/opensearch\n",
                ),
                (".github/workflows/test.yml", workflow),
                ("Makefile", "up:\n\tdocker compose -f docker/dev.yml up -d\n"),
                ("docker/dev.yml", "services:\n  cache:\n    image: redis\n"),
                ("deploy/docker-compose.prod.yml", "services:\n  m:\n    image: mysql\n"),
                (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
                (".devcontainer/compose.yml", "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n"),
            ],
        );
        let starts: Vec<_> =
            s.findings.starts.iter().map(|s| (s.command.as_str(), s.source.as_test_str(), s.origin)).collect();
        assert_eq!(
            starts,
            [
                ("docker compose up -d db cache", "docker-compose.yml", StartOrigin::RootCompose),
                ("docker compose -f ci/compose.yml up -d db search", "ci/compose.yml", StartOrigin::ComposeFile),
                (
                    "docker compose -f .devcontainer/compose.yml up -d db",
                    ".devcontainer/devcontainer.json#dockerComposeFile",
                    StartOrigin::DevContainer
                ),
                (
                    "docker compose -f ci/compose.yml up -d db search",
                    ".github/workflows/test.yml#jobs.t.steps[0]",
                    StartOrigin::Ci
                ),
                ("docker compose -f docker/dev.yml up -d cache", "Makefile:2", StartOrigin::Task),
            ]
        );
        assert!(s.findings.notes.iter().any(|n| n.contains("deploy/docker-compose.prod.yml")));
    }

    #[test]
    fn a_task_targets_service_container_is_a_start_without_any_compose() {
        let makefile = "services:\n\t@docker run -d --name cache -p 6379:6379 redis:7\n";
        let s = run_signal(detect, &[("Makefile", makefile)]);
        let starts: Vec<_> =
            s.findings.starts.iter().map(|s| (s.command.as_str(), s.origin, s.source.as_test_str())).collect();
        assert_eq!(starts, [("docker run -d --name cache -p 6379:6379 redis:7", StartOrigin::Task, "Makefile:2")]);
        assert_eq!(s.findings.starts[0].containers[0].source.kind, Kind::Task);
        // Beside a compose file, the compose file's start is the one.
        let s = run_signal(detect, &[("Makefile", makefile), ("compose.yaml", APP_AND_DB)]);
        assert!(s.findings.starts.iter().all(|s| s.compose.is_some()), "{:?}", s.findings.starts);
    }

    #[test]
    fn service_containers_of_the_first_test_job_without_any_compose() {
        let workflow = "jobs:\n  test:\n    services:\n      postgres:\n        image: postgres:13\n        env:\n          POSTGRES_USER: netbox\n          POSTGRES_PASSWORD: ${{ secrets.PG_PASSWORD }}\n          POSTGRES_DB: ${{ matrix.db }}\n        ports:\n          - 5432:5432\n      redis:\n        image: redis\n        ports: [6379]\n      web:\n        image: nginx\n    steps:\n      - run: python manage.py test\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow)]);
        let starts: Vec<_> = s.findings.starts.iter().map(|s| (s.command.as_str(), s.source.as_test_str())).collect();
        assert_eq!(
            starts,
            [(
                "docker run -d --name postgres -p 5432:5432 -e POSTGRES_USER=netbox -e POSTGRES_PASSWORD=\"$PG_PASSWORD\" postgres:13 && docker run -d --name redis -p 6379:6379 redis",
                ".github/workflows/ci.yml#jobs.test.services"
            )]
        );
        let s = run_signal(
            detect,
            &[(".github/workflows/ci.yml", workflow), ("docker/compose.yml", "services:\n  db:\n    image: mysql\n")],
        );
        assert!(s.findings.starts.iter().all(|s| s.compose.is_some()), "a compose file anywhere: no docker run");
    }
}
