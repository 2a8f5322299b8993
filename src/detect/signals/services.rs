//! The services the tests run against: the backing services (databases, brokers, caches —
//! not the app's own `build:` services, proxies or admin UIs) of the dev container's compose
//! files, the project's compose files, CI service containers, and the compose services CI
//! jobs and task recipes bring up. Merge keeps one per product, ranked by origin.

use crate::detect::findings::{Findings, Kind, Service};
use crate::detect::signals::relevance;
use crate::detect::sources::Sources;
use crate::detect::sources::compose::ComposeStart;
use crate::detect::sources::images::backing_product;
use crate::detect::sources::tasks::docker_run_services;
use crate::detect::sources::workflows::{JobKind, JobService};

pub fn detect(sources: &Sources, out: &mut Findings) {
    for start in sources.devcontainers().iter().filter_map(|config| config.start(sources.repo())) {
        report(&start, Kind::DevContainer, out);
    }
    for start in &sources.compose().starts {
        report(start, Kind::ComposeFile, out);
    }
    for job in &sources.workflows().jobs {
        let origin = if job.kind == JobKind::AgentSetup { Kind::AgentSetup } else { Kind::Ci };
        // Per job: merge keeps one per product, but which services the primary test's job
        // brings up is read from each job's own.
        let mut products: Vec<String> = Vec::new();
        for service in &job.services {
            ci_service(service, origin, &mut products, out);
        }
        for line in &job.lines {
            if let Some(start) = relevance::compose_start(sources, job, line) {
                report(&start, Kind::Ci, out);
            }
        }
    }
    for file in sources.tasks() {
        for target in &file.targets {
            for (_, command) in &target.recipe {
                let dir = file.path.parent();
                if let Some(start) = ComposeStart::of_line(sources.repo(), dir, command).filter(|s| s.named) {
                    report(&start, Kind::Task, out);
                }
            }
        }
    }
    // Containers task targets and package scripts run (`docker run -d -p 6379:6379 redis`).
    let mut products: Vec<String> = Vec::new();
    for service in docker_run_services(sources.repo(), sources.tasks()) {
        ci_service(&service, Kind::Task, &mut products, out);
    }
}

fn report(start: &ComposeStart, origin: Kind, out: &mut Findings) {
    for started in &start.services {
        out.add_service(Service::started(started, origin));
    }
}

/// A CI service container, once per product of `products` (one job's, or the task files'):
/// each image of it (one per matrix value) that is a backing service.
fn ci_service(service: &JobService, origin: Kind, products: &mut Vec<String>, out: &mut Findings) {
    for image in &service.images {
        let Some(product) = backing_product(image, &service.name).filter(|p| !products.contains(p)) else {
            continue;
        };
        products.push(product.clone());
        out.add_service(Service::ci_container(service, image, product, origin));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::run_signal;

    const APP_AND_DB: &str = "services:\n  app:\n    build: .\n    depends_on: [db]\n  db:\n    image: postgres:${PG:-16}\n  cache:\n    image: bitnami/redis:7\n  proxy:\n    image: nginx\n";

    #[test]
    fn backing_services_of_every_source() {
        let workflow = "jobs:\n  t:\n    services:\n      memcached:\n        image: memcached:1.6-alpine\n        ports: [11211]\n        env:\n          A: b\n          P: ${{ secrets.P }}\n      mysql:\n        image: mysql:${{ matrix.v }}\n    strategy:\n      matrix:\n        v: ['8.0', '9.0']\n    steps:\n      - run: docker compose -f ci/compose.yml up -d search\n";
        let s = run_signal(
            detect,
            &[
                ("docker-compose.yml", APP_AND_DB),
                (".github/workflows/ci.yml", workflow),
                ("ci/compose.yml", "services:\n  search:\n    image: opensearchproject/opensearch\n"),
                ("examples/compose.yml", "services:\n  m:\n    image: mongo\n"),
            ],
        );
        let services: Vec<_> = s.findings.services.iter().map(|s| (s.name.as_str(), s.source.as_test_str())).collect();
        assert_eq!(
            services,
            [
                ("postgres", "docker-compose.yml#services.db"),
                ("redis", "docker-compose.yml#services.cache"),
                ("opensearch", "ci/compose.yml#services.search"),
                ("memcached", ".github/workflows/ci.yml#jobs.t.services.memcached"),
                ("mysql", ".github/workflows/ci.yml#jobs.t.services.mysql"),
                ("opensearch", "ci/compose.yml#services.search"),
            ]
        );
        let memcached = &s.findings.services[3];
        assert_eq!(memcached.ports, ["11211:11211"]);
        assert_eq!(memcached.env.iter().collect::<Vec<_>>(), [(&"A".to_string(), &"b".to_string())]);
        assert_eq!(s.findings.services[4].image.as_deref(), Some("mysql:8.0"));
    }

    #[test]
    fn service_containers_task_targets_and_package_scripts_run() {
        let makefile = "test:\n\tgo test ./...\n\nredis:\n\t@docker run -d --rm --name cache -p 6379:6379 redis:7 && echo up\n\ntools:\n\tdocker run --rm -v $(PWD):/src golangci/golangci-lint lint\n";
        let package = r#"{"scripts": {"db:start": "docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=pw postgres:16", "db:stop": "docker rm -f db"}}"#;
        let s = run_signal(detect, &[("Makefile", makefile), ("package.json", package)]);
        let services: Vec<_> = s
            .findings
            .services
            .iter()
            .map(|s| (s.name.as_str(), s.image.as_deref(), s.ports.clone(), s.source.as_test_str(), s.source.kind))
            .collect();
        assert_eq!(
            services,
            [
                ("redis", Some("redis:7"), vec!["6379:6379".to_string()], "Makefile:5", Kind::Task),
                (
                    "postgres",
                    Some("postgres:16"),
                    vec!["5432:5432".to_string()],
                    "package.json#scripts.db:start",
                    Kind::Task
                ),
            ]
        );
        assert_eq!(s.findings.services[1].env["POSTGRES_PASSWORD"], "pw");
    }

    #[test]
    fn the_dev_container_own_service_is_not_a_backing_service() {
        let config =
            r#"{"dockerComposeFile": ["../docker-compose.yml"], "service": "db", "runServices": ["db", "cache"]}"#;
        let s = run_signal(detect, &[(".devcontainer/devcontainer.json", config), ("docker-compose.yml", APP_AND_DB)]);
        assert_eq!(s.findings.services[0].source.to_string(), "docker-compose.yml#services.cache");
        assert_eq!(s.findings.services[0].source.kind, Kind::DevContainer);
    }
}
