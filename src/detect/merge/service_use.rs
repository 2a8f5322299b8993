//! Which services the primary test uses: the ones its CI job brings up (its `services:`,
//! the compose services its lines start). The others are optional: listed, and started by
//! `verify --all-tests` only. A unit-test job beside an integration job against seven
//! databases needs none of them; an e2e job's mail server is not `cargo test`'s.

use super::*;

/// The products the primary test uses, or `None` when nothing links services to it (it is
/// not a CI job's test, or no CI job brings up any service): then every service is its.
///
/// Its job's own services when it has some; else every service but those another CI job
/// brings up (a job that starts none says nothing of a compose file no job starts).
pub(super) fn primary_products(
    primary: Option<&TestCommand>,
    starts: &[Start],
    services: &[Service],
) -> Option<Vec<String>> {
    let job = primary.map(|t| &t.source).filter(|s| s.kind == Kind::Ci && s.job_id().is_some())?;
    let mut used: Vec<String> = Vec::new();
    let mut elsewhere: Vec<String> = Vec::new();
    let ci_starts = starts.iter().filter(|s| s.origin == StartOrigin::Ci && s.source.job_id().is_some());
    let from_starts = ci_starts.flat_map(|s| products(s).into_iter().map(move |p| (p, &s.source)));
    let declared = services
        .iter()
        .filter(|s| s.source.kind == Kind::Ci && s.source.job_id().is_some())
        .map(|s| (s.name.clone(), &s.source));
    for (product, source) in from_starts.chain(declared) {
        let list = if in_job(source, job) { &mut used } else { &mut elsewhere };
        if !list.contains(&product) {
            list.push(product);
        }
    }
    if !used.is_empty() {
        return Some(used);
    }
    if elsewhere.is_empty() {
        // No job brings up a service. A compose file in a test suite's folder that no job or
        // script names is still some tests' fixture (a manual TLS test's redis), not the
        // primary's: CI runs the primary without it.
        let (fixture_starts, other_starts): (Vec<&Start>, Vec<&Start>) =
            starts.iter().partition(|s| is_test_fixture(s));
        let others: Vec<String> = other_starts.into_iter().flat_map(products).collect();
        let fixtures: Vec<String> =
            fixture_starts.into_iter().flat_map(products).filter(|p| !others.contains(p)).collect();
        if fixtures.is_empty() {
            return None;
        }
        elsewhere = fixtures;
    }
    let all = starts.iter().flat_map(products).chain(services.iter().map(|s| s.name.clone()));
    Some(dedup_by_key(all.filter(|p| !elsewhere.contains(p)).collect(), Clone::clone))
}

/// A start of one of the project's compose files that lies in a test suite's folder
/// (`test/manual-test-radius-tls/compose.yaml`), which nothing else starts.
fn is_test_fixture(start: &Start) -> bool {
    start.origin == StartOrigin::ComposeFile
        && start.compose.as_ref().is_some_and(|compose| {
            !compose.files.is_empty()
                && compose
                    .files
                    .iter()
                    .all(|file| file.parent().components().any(crate::detect::repo::is_test_suite_dir))
        })
}

/// Whether `evidence` is a place in the CI job of `job` (same file, same job).
pub(super) fn in_job(evidence: &Evidence, job: &Evidence) -> bool {
    evidence.job_id().is_some() && evidence.path == job.path && evidence.job_id() == job.job_id()
}

/// The products a start brings up: its compose services' and its containers'.
fn products(start: &Start) -> Vec<String> {
    let compose = start.compose.iter().flat_map(|c| &c.services).map(|s| s.product.clone());
    compose.chain(start.containers.iter().map(|s| s.name.clone())).collect()
}

/// The start candidates with the primary test's job's first, so that of one origin its
/// start is the one merge keeps (CI's service containers: one job's only).
pub(super) fn primary_job_first(mut starts: Vec<Start>, primary: Option<&TestCommand>) -> Vec<Start> {
    if let Some(job) = primary.map(|t| &t.source).filter(|s| s.kind == Kind::Ci && s.job_id().is_some()) {
        starts.sort_by_key(|s| !in_job(&s.source, job));
    }
    starts
}

/// The folded starts split into what the primary uses and the rest, a start cut in two
/// where it brings up both (`docker compose up -d db` and `… up -d mail sso`). A start that
/// says nothing of its services (a script) stays the primary's.
pub(super) fn split_starts(starts: Vec<Start>, used: Option<&[String]>) -> (Vec<Start>, Vec<Start>) {
    let Some(used) = used else { return (starts, Vec::new()) };
    let uses = |product: &str| used.iter().any(|u| u == product);
    let (mut primary, mut optional) = (Vec::new(), Vec::new());
    for start in starts {
        if let Some(compose) = &start.compose {
            let (mine, others): (Vec<_>, Vec<_>) = compose.services.iter().partition(|s| uses(&s.product));
            let names = |list: &[&crate::detect::sources::compose::StartedService]| {
                list.iter().map(|s| s.service.name.clone()).collect::<Vec<_>>()
            };
            let part = |names: Vec<String>| {
                let reduced = compose.only(&names);
                Start { command: reduced.command(), compose: Some(reduced), ..start.clone() }
            };
            match (mine.is_empty(), others.is_empty()) {
                (_, true) => primary.push(start),
                (true, false) => optional.push(start),
                (false, false) => {
                    primary.push(part(names(&mine)));
                    optional.push(part(names(&others)));
                }
            }
        } else if !start.containers.is_empty() {
            let pairs = start.containers.iter().cloned().zip(start.runs.iter().cloned());
            let (mine, others): (Vec<_>, Vec<_>) = pairs.partition(|(s, _)| uses(&s.name));
            for (list, side) in [(mine, &mut primary), (others, &mut optional)] {
                if list.is_empty() {
                    continue;
                }
                let (containers, runs): (Vec<Service>, Vec<String>) = list.into_iter().unzip();
                side.push(Start { command: runs.join(" && "), containers, runs, ..start.clone() });
            }
        } else {
            primary.push(start);
        }
    }
    (primary, optional)
}

/// The service containers of other CI jobs that folding left out (one job's containers
/// start at most), for the products no kept start brings up: what `verify --all-tests`
/// starts beside the optional part of the kept ones.
pub(super) fn other_jobs_containers(candidates: &[Start], kept: &[Start]) -> Vec<Start> {
    let mut started: Vec<String> = kept.iter().flat_map(products).collect();
    let mut more = Vec::new();
    for start in candidates.iter().filter(|s| s.compose.is_none() && !s.containers.is_empty() && !kept.contains(s)) {
        let pairs = start.containers.iter().cloned().zip(start.runs.iter().cloned());
        let fresh: Vec<(Service, String)> = pairs.filter(|(s, _)| !started.contains(&s.name)).collect();
        if fresh.is_empty() {
            continue;
        }
        started.extend(fresh.iter().map(|(s, _)| s.name.clone()));
        let (containers, runs): (Vec<Service>, Vec<String>) = fresh.into_iter().unzip();
        more.push(Start { command: runs.join(" && "), containers, runs, ..start.clone() });
    }
    more
}

/// The services split the same way: the primary's, then the optional ones.
pub(super) fn split_services(services: Vec<Service>, used: Option<&[String]>) -> (Vec<Service>, Vec<Service>) {
    match used {
        None => (services, Vec::new()),
        Some(used) => services.into_iter().partition(|s| used.contains(&s.name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rel_path::{RelPath, rel};

    fn ci(path: &RelPath, job: &str, within: &str) -> Evidence {
        Evidence::job(path, job).sub_key(within)
    }

    fn service(name: &str, source: Evidence) -> Service {
        Service { name: name.into(), image: None, source, ports: Vec::new(), env: Default::default(), package: None }
    }

    fn test_of(source: Evidence) -> TestCommand {
        TestCommand { command: "pytest".into(), source, ..TestCommand::default() }
    }

    #[test]
    fn a_compose_file_in_a_test_folder_is_not_the_primary_s_when_no_job_names_it() {
        let primary = test_of(ci(rel!("w/ci.yml"), "jobs.unit", "steps[3]"));
        let start = |file: &str| {
            let (_dir, repo) =
                crate::detect::testing::repo_with(&[(file, "services:\n  redis:\n    image: redis:7\n")]);
            let compose = ComposeStart::of(&repo, vec![RelPath::new(file).unwrap().to_owned()], None).unwrap();
            Start {
                command: compose.command(),
                source: Evidence::file(RelPath::new(file).unwrap()).of(Kind::ComposeFile),
                origin: StartOrigin::ComposeFile,
                compose: Some(compose),
                containers: Vec::new(),
                runs: Vec::new(),
            }
        };
        assert_eq!(primary_products(Some(&primary), &[start("test/manual-tls/compose.yaml")], &[]), Some(vec![]));
        assert_eq!(primary_products(Some(&primary), &[start("compose.yaml")], &[]), None, "the project's own");
        let both = [start("compose.yaml"), start("cypress/compose.yaml")];
        assert_eq!(primary_products(Some(&primary), &both, &[]), None, "the project's own compose file starts it too");
    }

    #[test]
    fn the_primary_jobs_own_services_are_the_ones_it_uses() {
        let services = [
            service("mysql", ci(rel!("w/tests.yml"), "jobs.tests", "services.mysql")),
            service("redis", ci(rel!("w/tests.yml"), "jobs.tests", "services.redis")),
            service("postgres", ci(rel!("w/databases.yml"), "jobs.pgsql", "services.postgres")),
            service("mailpit", Evidence::key(rel!("compose.yml"), "services.mail").of(Kind::ComposeFile)),
        ];
        let primary = test_of(ci(rel!("w/tests.yml"), "jobs.tests", "steps[3]"));
        assert_eq!(primary_products(Some(&primary), &[], &services), Some(vec!["mysql".into(), "redis".into()]));
        // A job that brings up nothing: what another job brings up is that job's.
        let unit = test_of(ci(rel!("w/unit.yml"), "jobs.unit", "steps[1]"));
        assert_eq!(primary_products(Some(&unit), &[], &services), Some(vec!["mailpit".into()]));
        // No CI job behind the test: nothing links, so every service is the primary's.
        let make = test_of(Evidence::line(rel!("Makefile"), 3).of(Kind::Task));
        assert_eq!(primary_products(Some(&make), &[], &services), None);
        assert_eq!(primary_products(Some(&unit), &[], &services[3..]), None);
    }

    #[test]
    fn container_starts_split_by_product() {
        let containers = vec![
            service("postgres", ci(rel!("w/ci.yml"), "jobs.t", "services.pg")),
            service("redis", ci(rel!("w/ci.yml"), "jobs.t", "services.cache")),
        ];
        let start = Start {
            command: "docker run pg && docker run cache".into(),
            source: ci(rel!("w/ci.yml"), "jobs.t", "services"),
            origin: StartOrigin::Ci,
            compose: None,
            containers,
            runs: vec!["docker run pg".into(), "docker run cache".into()],
        };
        let (primary, optional) = split_starts(vec![start], Some(&["redis".to_string()]));
        assert_eq!(primary.iter().map(|s| s.command.as_str()).collect::<Vec<_>>(), ["docker run cache"]);
        assert_eq!(optional.iter().map(|s| s.command.as_str()).collect::<Vec<_>>(), ["docker run pg"]);
        assert_eq!(optional[0].containers[0].name, "postgres");
    }
}
