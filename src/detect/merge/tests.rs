use super::*;
use crate::detect::findings::Phase;
use crate::evidence::ev;

fn repo() -> Repo {
    Repo::from_files(std::path::Path::new("/nonexistent/site"), vec![], vec![], 1 << 20)
}

#[test]
fn steps_are_deduplicated_and_ordered_by_phase_then_detector() {
    let mut f = Findings::default();
    f.step(Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-lock.yaml"));
    f.step(Phase::Toolchain, "corepack enable", ev("package.json#packageManager"));
    f.step(Phase::Install, "uv sync --frozen", ev("uv.lock"));
    f.step(Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-workspace.yaml"));
    let d = merge(&repo(), f);
    assert_eq!(
        d.install,
        "set -euo pipefail\ncorepack enable  # package.json#packageManager\n\
         pnpm install --frozen-lockfile  # pnpm-lock.yaml\nuv sync --frozen  # uv.lock\n"
    );
}

#[test]
fn secrets_are_checked_and_sorted() {
    let mut f = Findings::default();
    for name in ["STRIPE_KEY", "DATABASE_URL", "PATH", "HANZO_TOKEN", "bad-name", "DATABASE_URL", "bad-name"] {
        f.secret(name, ev(".env.example"), Need::Unstated, "listed in .env.example");
    }
    let d = merge(&repo(), f);
    assert_eq!(d.secrets, ["DATABASE_URL", "STRIPE_KEY"]);
    assert_eq!(d.warnings.iter().filter(|w| w.to_string().contains("bad-name")).count(), 1, "{:?}", d.warnings);
    assert!(!d.warnings.iter().any(|w| w.to_string().contains("PATH")));
}

#[test]
fn required_evidence_wins_and_required_names_come_first() {
    let mut f = Findings::default();
    f.secret("SMTP_PASSWORD", ev("src/mail.ts:3"), Need::Unstated, "process.env");
    f.secret("SMTP_PASSWORD", ev("src/env.ts:9"), Need::Optional, "t3-env schema, optional");
    f.secret("ZED_TOKEN", ev("src/zed.ts:1"), Need::Unstated, "process.env");
    f.secret("API_KEY", ev(".env.example:1"), Need::Unstated, "listed in .env.example");
    f.secret("API_KEY", ev("src/env.ts:4"), Need::Required, "t3-env schema, no default");
    f.secret("API_KEY", ev(".github/workflows/ci.yml#jobs.test"), Need::Required, "set for the CI test job");
    let d = merge(&repo(), f);
    assert_eq!(d.secrets, ["API_KEY", "SMTP_PASSWORD", "ZED_TOKEN"]);
    let rows: Vec<(&str, bool, &str, &str)> = d
        .secret_details
        .iter()
        .map(|s| (s.name.as_str(), s.required, s.source.as_test_str(), s.why.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            ("API_KEY", true, "src/env.ts:4", "t3-env schema, no default"),
            ("SMTP_PASSWORD", false, "src/env.ts:9", "t3-env schema, optional"),
            ("ZED_TOKEN", false, "src/zed.ts:1", "process.env"),
        ]
    );
}

fn starts(files: &[(&str, &str)]) -> Vec<(String, String)> {
    let d = crate::detect::testing::detection(files);
    d.starts.iter().map(|s| (s.command.clone(), s.source.to_string())).collect()
}

const APP_AND_DB: &str = "services:\n  app:\n    build: .\n    depends_on: [db]\n  db:\n    image: postgres:${PG:-16}\n  cache:\n    image: bitnami/redis:7\n  proxy:\n    image: nginx\n";

#[test]
fn secret_names_are_capped_with_a_warning() {
    let mut f = Findings::default();
    for i in 0..MAX_SECRET_NAMES + 7 {
        f.secret(format!("K{i:04}_TOKEN"), ev(&format!("src/m{i}.js:1")), Need::Unstated, "process.env");
    }
    let d = merge(&repo(), f);
    assert_eq!(d.secrets.len(), MAX_SECRET_NAMES);
    assert_eq!(d.secrets.last().map(String::as_str), Some("K0499_TOKEN"), "the first found are kept");
    assert!(
        d.warnings
            .iter()
            .any(|w| w.to_string().starts_with("507 secret names found")
                && w.to_string().contains("from src/m500.js:1 on")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn starts_of_every_source_are_ordered_and_each_product_started_once() {
    let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: docker compose -f ci/compose.yml up -d\n      - run: pytest\n";
    let found = starts(&[
        (
            "ci/compose.yml",
            "services:\n  db:\n    image: postgres\n  search:\n    image: opensearchproject/opensearch\n",
        ),
        (".github/workflows/test.yml", workflow),
        ("Makefile", "up:\n\tdocker compose -f docker/dev.yml up -d\n"),
        ("docker/dev.yml", "services:\n  cache:\n    image: redis\n  db:\n    image: postgres\n"),
        (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
        (".devcontainer/compose.yml", "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n"),
    ]);
    let found: Vec<(&str, &str)> = found.iter().map(|(c, s)| (c.as_str(), s.as_str())).collect();
    // What CI's test job brings up comes first: the dev container's postgres is its. The
    // Makefile's cache is not the job's: optional.
    assert_eq!(
        found,
        [("docker compose -f ci/compose.yml up -d db search", ".github/workflows/test.yml#jobs.t.steps[0]")]
    );
}

#[test]
fn each_product_is_started_once_and_wider_starts_replace_narrower_ones() {
    let found = starts(&[
        ("cypress/docker-compose.yml", "services:\n  db:\n    image: postgres:15\n"),
        ("docker-compose.yml", "services:\n  db:\n    image: postgres:16\n"),
        ("e2e/compose.yml", "services:\n  pg:\n    image: postgres\n  cache:\n    image: redis\n"),
        (
            "Makefile",
            "db:\n\tdocker compose -f e2e/compose.yml up -d cache\nall:\n\tdocker compose -f e2e/compose.yml up -d cache pg\n",
        ),
    ]);
    let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(commands, ["docker compose up -d db", "docker compose -f e2e/compose.yml up -d cache"]);
}

#[test]
fn root_file_with_override_nested_files_and_skipped_ones() {
    let found = starts(&[
        ("compose.yaml", "services:\n  db:\n    image: mysql:8\n"),
        ("compose.override.yaml", "services:\n  mail:\n    image: axllent/mailpit\n"),
    ]);
    assert_eq!(found, [("docker compose up -d db mail".to_string(), "compose.yaml".to_string())]);
    let d = crate::detect::testing::detection(&[
        ("backend/dev/docker-compose.yml", APP_AND_DB),
        ("examples/demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
        ("Demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
        ("deploy/docker-compose.prod.yml", "services:\n  m:\n    image: mysql\n"),
        ("compose.deploy.yml", "services:\n  m:\n    image: mysql\n"),
        ("docker/variants/docker-compose.mariadb.yml", "services:\n  m:\n    image: mariadb\n"),
        ("docker/variants/docker-compose.postgres.yml", "services:\n  p:\n    image: postgres\n"),
    ]);
    assert_eq!(
        crate::plan::render::docker_commands(&d.start).unwrap(),
        ["docker compose -f backend/dev/docker-compose.yml up -d db cache"]
    );
    let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(services, ["postgres", "redis"]);
    assert!(d.note.contains("docker/variants/docker-compose.mariadb.yml"), "{}", d.note);
    assert!(d.note.contains("deploy/docker-compose.prod.yml"), "{}", d.note);
}

#[test]
fn ci_service_containers_only_without_any_compose_start() {
    let workflow =
        "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: go test ./...\n";
    let found = starts(&[
        (".github/workflows/test.yml", workflow),
        (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
        (".devcontainer/compose.yml", "services:\n  db:\n    image: postgres\n"),
    ]);
    let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(commands, ["docker compose -f .devcontainer/compose.yml up -d db"]);
    let found = starts(&[(".github/workflows/test.yml", workflow)]);
    let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(commands, ["docker run -d --name pg postgres"]);
}

#[test]
fn ci_tests_compose_file_comes_before_the_dev_containers_and_names_its_services() {
    let devcontainer = r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#;
    let dev = "services:\n  app:\n    build: .\n  broker:\n    image: redis:7\n  tika:\n    image: apache/tika\n";
    let ci = "services:\n  tika:\n    image: apache/tika\n  mail:\n    image: docker.io/greenmail/standalone:2.1\n    ports: ['3143:3143']\n";
    let workflow = "jobs:\n  test:\n    steps:\n      - run: docker compose --file docker/ci-test.yml up --detach\n      - run: pytest\n";
    let d = crate::detect::testing::detection(&[
        (".devcontainer/devcontainer.json", devcontainer),
        (".devcontainer/compose.yml", dev),
        ("docker/ci-test.yml", ci),
        (".github/workflows/ci.yml", workflow),
        ("pyproject.toml", "[project]\nname = 'x'\n"),
    ]);
    let commands: Vec<&str> = d.starts.iter().map(|s| s.command.as_str()).collect();
    assert_eq!(commands, ["docker compose -f docker/ci-test.yml up -d tika mail"]);
    let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
    assert!(services.contains(&"greenmail") && !services.contains(&"redis"), "{services:?}");
    // The dev container's broker is not the test job's: optional, started on request.
    let optional: Vec<&str> = d.optional_services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(optional, ["redis"]);
    assert!(
        d.optional_start.contains("hanzo_compose -f .devcontainer/compose.yml up -d broker"),
        "{}",
        d.optional_start
    );
}

#[test]
fn a_ci_job_against_an_alternative_compose_file_is_a_variant_of_the_roots() {
    let root = "services:\n  db:\n    image: postgres:16\n    ports: ['5432:5432']\n";
    let other = "services:\n  cockroachdb:\n    image: cockroachdb/cockroach:v23.2.0\n";
    let workflow = "jobs:\n  test:\n    steps:\n      - run: npm test\n  test-cockroach:\n    steps:\n      - run: docker compose -f docker-compose.cockroach.yaml up -d\n      - run: npm test\n";
    let files = [
        ("docker-compose.yaml", root),
        ("docker-compose.cockroach.yaml", other),
        ("docker-compose.citus.yaml", root),
        (".github/workflows/ci.yml", workflow),
        ("package.json", r#"{"scripts": {"test": "vitest run"}}"#),
    ];
    let d = crate::detect::testing::detection(&files);
    let commands: Vec<&str> = d.starts.iter().map(|s| s.command.as_str()).collect();
    assert_eq!(commands, ["docker compose up -d db"]);
    assert!(!d.services.iter().any(|s| s.name == "cockroachdb"));
    // Without a root file to start, the variant job brings up its database, which the
    // plain job's `npm test` does not use: optional.
    let d = crate::detect::testing::detection(&files[1..]);
    assert_eq!(d.start, "");
    let optional: Vec<&str> = d.optional_services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(optional, ["cockroachdb"]);
    assert!(d.optional_start.contains("up -d cockroachdb"), "{}", d.optional_start);
}

#[test]
fn a_ci_services_account_joins_the_server_the_compose_file_starts() {
    let compose = "services:\n  db:\n    image: postgres:14\n    ports: ['5432:5432']\n    environment:\n      POSTGRES_USER: user\n      POSTGRES_PASSWORD: pass\n      POSTGRES_DB: data\n  cache:\n    image: redis:7\n";
    let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres:16\n        env:\n          POSTGRES_USER: postgres\n          POSTGRES_PASSWORD: postgres\n          POSTGRES_DB: ci\n        ports: ['5432:5432']\n      other:\n        image: postgres:16\n        ports: ['6543:5432']\n      redis:\n        image: redis:7\n        options: --requirepass x\n    env:\n      PGUSER: postgres\n    steps:\n      - run: npm test\n";
    let d = crate::detect::testing::detection(&[("compose.yaml", compose), (".github/workflows/ci.yml", workflow)]);
    let calls: Vec<String> = d.native_starts.iter().map(|n| n.call().command()).collect();
    // The test command carries CI's PGUSER: CI's role and database join the compose
    // file's server; a server on another port, or a product without accounts, does not.
    assert_eq!(
        calls,
        [
            "hanzo_service postgres 5432 user pass data",
            "hanzo_service redis 6379 ''",
            "hanzo_service postgres 5432 postgres postgres ci"
        ]
    );
}

#[test]
fn the_start_brings_up_the_first_test_jobs_services_and_says_which() {
    let workflow = "jobs:\n  mysql:\n    services:\n      mariadb:\n        image: mariadb\n        ports: ['3306:3306']\n    steps:\n      - run: DB=mysql tox\n  postgres:\n    services:\n      postgres:\n        image: postgres:16\n        ports: ['5432:5432']\n    steps:\n      - run: DB=postgresql tox\n";
    let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow), ("tox.ini", "[tox]\n")]);
    let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(services, ["mariadb"]);
    let optional: Vec<&str> = d.optional_services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(optional, ["postgres"]);
    // verify waits only for what the drafted start brings up.
    assert_eq!(d.started_services(), ["mariadb"]);
    assert!(!d.start.contains("hanzo_postgres "), "{}", d.start);
}

#[test]
fn the_primary_tests_job_picks_its_own_service_containers() {
    // The primary test's job is not the first with service containers: its own start.
    let workflow = "jobs:
  integration:
    services:
      pg:
        image: postgres:16
        ports: ['5432:5432']
    steps:
      - run: go test -tags integration ./...
  test:
    services:
      cache:
        image: redis:7
        ports: ['6379:6379']
    steps:
      - run: go test ./...
";
    let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow), ("go.mod", "module x\n")]);
    assert_eq!(d.tests[0].command, "go test ./...");
    assert_eq!(d.started_services(), ["redis"]);
    let optional: Vec<&str> = d.optional_services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(optional, ["postgres"]);
    assert!(d.optional_start.contains("docker run -d --name pg -p 5432:5432 postgres:16"), "{}", d.optional_start);
}

#[test]
fn ci_steps_that_prepare_a_service_follow_the_start() {
    let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres:16\n        env:\n          POSTGRES_PASSWORD: postgres\n        ports: ['5432:5432']\n    env:\n      PGUSER: postgres\n    steps:\n      - run: psql -c \"CREATE ROLE app LOGIN\"\n      - run: npm run test:init\n      - run: npm test\n      - run: psql -c 'DROP ROLE app'\n  lint:\n    steps:\n      - run: psql --version\n";
    let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow), ("package.json", "{}")]);
    let seeds: Vec<&str> = d.start.lines().skip_while(|l| !l.starts_with("PGUSER=")).collect();
    // Before the job's first test, with the job's env; not after it, not in a job
    // without services; allowed to fail on a second start (the role exists).
    assert_eq!(
        seeds,
        [
            "PGUSER=postgres psql -c \"CREATE ROLE app LOGIN\" || echo 'hanzo-env: warning: preparing the services as CI does failed' >&2  # .github/workflows/ci.yml#jobs.t.steps[0]",
            "PGUSER=postgres npm run test:init || echo 'hanzo-env: warning: preparing the services as CI does failed' >&2  # .github/workflows/ci.yml#jobs.t.steps[1]",
        ],
        "{}",
        d.start
    );
    let without_services = crate::detect::testing::detection(&[("package.json", "{}")]);
    assert_eq!(without_services.start, "");
}

const SERVICES: &str = "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: \"it's\"\n    ports: ['5433:5432']\n  cache:\n    image: redis:7\n  mongo:\n    image: mongo:7\n  test-db:\n    image: postgres:16\n    ports: ['5434:5432']\n  mysql:\n    image: mysql:8\n  mysql-replica:\n    image: mysql:8\n    ports: ['3307:3306']\n  mariadb:\n    image: mariadb:11\n    ports: ['3308:3306']\n";

#[test]
fn services_start_with_docker_else_from_their_packages_each_installed_and_started_once() {
    let d = crate::detect::testing::detection(&[("compose.yaml", SERVICES)]);
    assert_eq!(
        crate::plan::render::docker_commands(&d.start).unwrap(),
        ["docker compose up -d db cache mongo test-db mysql mysql-replica mariadb"]
    );
    let calls: Vec<String> = d.native_starts.iter().map(|n| n.call().command()).collect();
    assert_eq!(
        calls,
        [
            r"hanzo_service postgres 5433 app 'it'\''s' app",
            "hanzo_service redis 6379 ''",
            "hanzo_service postgres 5434 postgres '' postgres",
            "hanzo_service mysql 3306 '' '' '' ''",
            "hanzo_service mysql 3307 '' '' '' ''",
        ],
        "a second postgres on its own port; one MariaDB server answering two"
    );
    assert!(
        d.warnings.iter().map(ToString::to_string).any(|w| w
            == "compose.yaml#services.mariadb: without Docker, one mariadb-server server answers 2 ports at most: \
              port 3308 needs Docker"),
        "{:?}",
        d.warnings
    );
    for call in &calls {
        assert!(d.start.contains(&format!("\n  {call}  # compose.yaml#services.")), "{}", d.start);
    }
    assert!(d.start.contains("\n  hanzo_service mongodb\n  hanzo_services_started\nfi"), "{}", d.start);
    assert!(
        d.start.starts_with(
            "# hanzo-env helpers v1: hanzo_docker hanzo_compose hanzo_service hanzo_postgres hanzo_mysql hanzo_redis\n"
        ),
        "each helper named once: {}",
        d.start
    );
    let services: Vec<&Step> = d.steps.iter().filter(|s| s.phase == Phase::System).collect();
    assert_eq!(services.len(), 1);
    assert_eq!(services[0].command(), "hanzo_service_packages compose postgresql redis-server mariadb-server");
    assert_eq!(
        services[0].evidence_text(),
        "compose.yaml#services.db, compose.yaml#services.cache, compose.yaml#services.test-db, \
         compose.yaml#services.mysql, compose.yaml#services.mysql-replica"
    );
    let packages: Vec<(&str, Option<&str>)> =
        d.services.iter().map(|s| (s.name.as_str(), s.package.as_deref())).collect();
    assert_eq!(
        packages,
        [
            ("postgres", Some("postgresql")),
            ("redis", Some("redis-server")),
            ("mongodb", None),
            ("mysql", Some("mariadb-server")),
            ("mariadb", None)
        ]
    );
    assert!(
        d.note.contains(
            "services: postgres, redis, mysql (docker compose, else docker-compose, else the Debian/Ubuntu packages \
             postgresql, redis-server, mariadb-server), mongodb (Docker only: no distribution package)"
        ),
        "{}",
        d.note
    );
}

#[test]
fn ci_service_containers_start_with_docker_run_else_from_their_packages() {
    let workflow = "jobs:\n  t:\n    services:\n      db:\n        image: mysql:8.0\n        env:\n          MYSQL_USER: app\n          MYSQL_PASSWORD: \"p@ss w'rd\"\n          MYSQL_DATABASE: app_test\n          MYSQL_ROOT_PASSWORD: ${{ secrets.ROOT }}\n        ports: ['33306:3306']\n    steps:\n      - run: go test ./...\n";
    let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow)]);
    assert!(
        d.start.starts_with(
            "# hanzo-env helpers v1: hanzo_docker hanzo_service hanzo_mysql\n\
             # services: docker run, else the distribution's packages\n"
        ),
        "{}",
        d.start
    );
    assert!(
        d.start.ends_with(&format!(
            "if hanzo_docker run; then\n  docker run -d --name db -p 33306:3306 -e MYSQL_USER=app -e MYSQL_PASSWORD='p@ss w'\\''rd' -e MYSQL_DATABASE=app_test -e MYSQL_ROOT_PASSWORD=\"$ROOT\" mysql:8.0\nelse\n  {}  # .github/workflows/ci.yml#jobs.t.services.db\nfi",
            r"hanzo_service mysql 33306 app_test app 'p@ss w'\''rd' ''"
        )),
        "{}",
        d.start
    );
    assert!(d.install.contains("\nhanzo_service_packages run mariadb-server  # "), "{}", d.install);
    assert!(
        d.note.contains("services: mysql (docker run, else the Debian/Ubuntu package mariadb-server)"),
        "{}",
        d.note
    );
}

#[test]
fn services_no_distribution_packages_stay_with_docker() {
    let workflow = "jobs:\n  t:\n    services:\n      kafka:\n        image: apache/kafka\n    steps:\n      - run: go test ./...\n";
    let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow)]);
    assert_eq!(d.start, "docker run -d --name kafka apache/kafka");
    assert_eq!(d.install, "");
    let d = crate::detect::testing::detection(&[("compose.yaml", "services:\n  m:\n    image: mongo:7\n")]);
    assert_eq!(
        d.start,
        "# hanzo-env helpers v1: hanzo_compose\n# services: docker compose, else docker-compose\nhanzo_compose up -d m"
    );
    assert_eq!(d.install, "");
    assert!(d.note.contains("services: mongodb (Docker only: no distribution package)"), "{}", d.note);
}

#[test]
fn tests_rank_ci_then_scripts_then_defaults() {
    let mut f = Findings::default();
    f.test("cargo test", ev("Cargo.toml"));
    f.test("make test", ev("Makefile:4"));
    f.test("cargo test --workspace", ev(".github/workflows/ci.yml#jobs.test"));
    f.test("pnpm test", ev("package.json#scripts.test"));
    let d = merge(&repo(), f);
    let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
    assert_eq!(commands, ["cargo test --workspace", "make test", "pnpm test", "cargo test"]);
}

#[test]
fn the_primary_is_ci_plain_test_job_before_its_variants() {
    let mut f = Findings::default();
    f.package_manager("hatch", None, ".", ev("pyproject.toml"));
    f.test("make test", ev("Makefile:7"));
    f.test("VALKEY_PORT=6379 hatch run test:cov", ev(".github/workflows/valkey.yml#jobs.valkey-test.steps[3]"));
    f.test("hatch run test:cov", ev(".github/workflows/workflow.yml#jobs.test.steps[4]"));
    f.test("pytest -m windows", ev(".github/workflows/workflow.yml#jobs.test-windows.steps[2]"));
    let d = merge(&repo(), f);
    let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
    assert_eq!(
        commands,
        ["hatch run test:cov", "VALKEY_PORT=6379 hatch run test:cov", "pytest -m windows", "make test"],
        "the plain job comes first, the others keep their order"
    );
    // A command CI runs in a variant job and in the plain one keeps the plain one's source.
    let mut f = Findings::default();
    f.test("pytest -n auto", ev(".github/workflows/deploy.yml#jobs.deploy.steps[3]"));
    f.test("pytest -n auto", ev(".github/workflows/test.yml#jobs.test.steps[4]"));
    let d = merge(&repo(), f);
    let tests: Vec<(&str, &str)> = d.tests.iter().map(|t| (t.command.as_str(), t.source.as_test_str())).collect();
    assert_eq!(tests, [("pytest -n auto", ".github/workflows/test.yml#jobs.test.steps[4]")]);
    assert!(d.tests[0].primary);
    // Not CI: a task named `test` does not jump its rank.
    assert!(!in_plain_test_job(&ev("Taskfile.yml#test")));
    assert!(in_plain_test_job(&ev(".gitlab-ci.yml#unit-tests.script")));
}

#[test]
fn a_test_in_a_workflow_for_other_work_is_not_primary() {
    // A docs workflow smoke-tests the built docs with pytest; the suite is tox's.
    let mut f = Findings::default();
    f.package_manager("pip", None, ".", ev("pyproject.toml"));
    f.test("python3 -m pytest tests/console -v", ev(".github/workflows/docs.yml#jobs.console.steps[4]"));
    f.test("python3 -m pytest", ev("pytest.ini"));
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "python3 -m pytest");
    // A `lint.yml` workflow's `unit` job runs the suite.
    let mut f = Findings::default();
    f.package_manager("pnpm", None, ".", ev("pnpm-lock.yaml"));
    f.test("pnpm run test:unit:run", ev(".github/workflows/lint.yml#jobs.unit.steps[4]"));
    f.test("pnpm test", ev("package.json#scripts.test"));
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "pnpm run test:unit:run");
}

#[test]
fn a_test_of_one_target_or_member_is_not_primary() {
    // proptest: CI's one line without a `cd` runs one integration-test target.
    let mut f = Findings::default();
    f.package_manager("cargo", None, ".", ev("Cargo.toml"));
    f.test(
        "cargo test --verbose --test attr_macro --features attr-macro",
        ev(".github/workflows/rust.yml#jobs.build.steps[5]"),
    );
    f.test("cd proptest && cargo test --verbose", ev(".github/workflows/rust.yml#jobs.build.steps[3]"));
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "cd proptest && cargo test --verbose");
    // ciborium: one cell of a matrix over the workspace's members.
    let mut f = Findings::default();
    f.package_manager("cargo", None, ".", ev("Cargo.toml"));
    f.test(
        "cargo test --manifest-path=ciborium-ll/Cargo.toml --release",
        ev(".github/workflows/test.yml#jobs.test.steps[2]"),
    );
    f.test("cargo test --workspace", ev("Cargo.toml"));
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "cargo test --workspace");
}

#[test]
fn an_app_s_tests_come_before_its_front_end_s() {
    let mut f = Findings::default();
    f.package_manager("yarn", None, ".", ev("yarn.lock"));
    f.package_manager("bundler", None, ".", ev("Gemfile.lock"));
    f.test("yarn test:js", ev(".github/workflows/test-js.yml#jobs.test.steps[2]"));
    f.test("RAILS_ENV=test bin/rspec", ev(".github/workflows/test-ruby.yml#jobs.test.steps[6]"));
    let d = merge(&repo(), f);
    let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
    assert_eq!(commands, ["RAILS_ENV=test bin/rspec", "yarn test:js"]);
    // A Node project with a Makefile is still a Node project.
    let mut f = Findings::default();
    f.package_manager("npm", None, ".", ev("package-lock.json"));
    f.package_manager("make", None, ".", ev("Makefile"));
    f.test("npm test", ev(".github/workflows/ci.yml#jobs.test.steps[2]"));
    f.test("make check", ev(".github/workflows/ci.yml#jobs.test.steps[3]"));
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "npm test");
}

#[test]
fn of_one_command_in_several_jobs_the_run_that_sets_least_comes_first() {
    let mut f = Findings::default();
    f.test(
        "DB_CONNECTION=mysql DB_HOST=127.0.0.1 composer test",
        ev(".github/workflows/mariadb.yml#jobs.test.steps[4]"),
    );
    f.test("DB_CONNECTION=pgsql DB_PORT=5432 composer test", ev(".github/workflows/pgsql.yml#jobs.test.steps[4]"));
    f.test("pnpm test", ev(".github/workflows/frontend.yml#jobs.test.steps[3]"));
    f.test("COMPOSER_PROCESS_TIMEOUT=600 composer test", ev(".github/workflows/sqlite.yml#jobs.test.steps[4]"));
    f.test("composer test", ev("composer.json#scripts.test"));
    let d = merge(&repo(), f);
    let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
    assert_eq!(
        commands,
        [
            "COMPOSER_PROCESS_TIMEOUT=600 composer test",
            "DB_CONNECTION=mysql DB_HOST=127.0.0.1 composer test",
            "DB_CONNECTION=pgsql DB_PORT=5432 composer test",
            "pnpm test",
            "composer test",
        ],
        "CI's variants of one command by what they set; another rank's stays in its place"
    );
}

#[test]
fn the_primary_test_is_the_suite_a_developer_runs() {
    let mut f = Findings::default();
    f.package_manager("uv", None, ".", ev("uv.lock"));
    for (command, source) in [
        ("uv run --only-group tox tox run -e docset", ".github/workflows/docs.yml#jobs.docset"),
        ("uv run tox run --installpkg dist/*.whl -e -tests", ".github/workflows/ci.yml#jobs.tests"),
        ("uv run tox run -e pypy311", ".github/workflows/ci.yml#jobs.tests"),
        ("uvx --with tox-uv tox -e py", ".github/workflows/ci.yml#jobs.tests"),
        ("pnpm run test-e2e", "package.json#scripts.test-e2e"),
        ("tox", "tox.ini"),
        ("uv run pytest", "pyproject.toml#tool.pytest"),
    ] {
        f.test(command, ev(source));
    }
    let d = merge(&repo(), f);
    let commands: Vec<(&str, bool)> = d.tests.iter().map(|t| (t.command.as_str(), t.primary)).collect();
    // Install filled the interpreter: `uv run pytest` runs there as `python3 -m pytest`.
    assert_eq!(commands[0], ("python3 -m pytest", true), "{commands:?}");
    assert!(commands[1..].iter().all(|(_, primary)| !primary));
    // tox builds the package itself where CI installs another job's artifact.
    assert_eq!(commands[1].0, "python3 -m tox run -e -tests", "CI's plain `tests` job first");
    assert_eq!(commands[4].0, "uv run --only-group tox tox run -e docset", "then the others in their order");
    let reasons = |command: &str, runs: &[&str]| {
        let test = TestCommand {
            command: command.to_string(),
            runs: runs.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        };
        reasons_not_primary(&test, &d.package_managers)
    };
    assert_eq!(reasons("uv run tox run -e py", &[]), 0);
    assert_eq!(reasons("tox run", &[]), 1);
    assert_eq!(reasons("cargo test --workspace", &[]), 0);
    // Coverage alone is other work; the suite with coverage is the suite.
    assert_eq!(reasons("make coverage", &[]), 1);
    assert_eq!(reasons("RUN_SLOW=1 hatch run test:cov --durations=5", &[]), 1, "hatch is not installed here");
    assert_eq!(reasons("npm run test:coverage", &[]), 0);
    assert_eq!(reasons("coverage run runtests.py", &[]), 0, "the suite, with coverage");
    assert_eq!(reasons("python -m coverage run tests/run_tests.py", &[]), 0);
    assert_eq!(reasons("coverage run -m mypy.stubtest", &[]), 1, "coverage alone");
    // Tests of the internet are a part a closed sandbox cannot run; `unshare --net` needs privileges.
    assert_eq!(reasons("./runtests.sh --cov=./vcr -m online", &[]), 1);
    assert_eq!(reasons("./runtests.sh --cov=./vcr", &[]), 0);
    assert_eq!(reasons("unshare --map-root-user --net -- sh -c './runtests.sh -m \"not online\"'", &[]), 1);
    // A target whose recipe runs in a container or through a tool the project lacks.
    assert_eq!(reasons("make test", &["docker build -t t .", "docker run t pytest"]), 1, "in a container");
    assert_eq!(reasons("make test", &["uv pip install -e .", "pytest tests/"]), 0, "uv is installed here");
    assert_eq!(reasons("make test", &["poetry install", "pytest tests/"]), 1);
    assert_eq!(reasons("make requirements check", &["pip install -e .", "ruff check ."]), 1, "no tests");
    assert_eq!(reasons("make test", &["@python -m unittest -v"]), 0);
    // A recipe in an environment a target of its own makes (`make build311`), not the install.
    assert_eq!(reasons("make test", &["rm -f .coverage", ". venv/bin/activate; pytest"]), 1, "venv: its own");
    assert_eq!(reasons("make test", &["source ./.venv/bin/activate && pytest"]), 0, "uv makes .venv");
    assert_eq!(reasons("make test", &["source env/bin/activate && pytest"]), 1);
    // Or runs that environment's interpreter by its path; a system interpreter is no environment.
    assert_eq!(reasons("/tmp/debug-venv/bin/python -m mypkg.tests", &[]), 1);
    assert_eq!(reasons(".venv/bin/python -m pytest", &[]), 0, "uv makes .venv");
    assert_eq!(reasons("/usr/bin/python3 -m pytest", &[]), 0);
    // A subset: smoke or integration runs beside the suite; a script named for its part.
    assert_eq!(reasons("yarn test:smoke", &[]), 1);
    // A benchmark under any name, with pytest-benchmark's options (`--benchmark-disable` runs the suite).
    assert_eq!(reasons("./cachegrind.py pytest -n0 --benchmark-autosave microbenchmarks.py", &[]), 1);
    assert_eq!(reasons("python3 -m pytest --benchmark-disable", &[]), 0);
    assert_eq!(reasons("./scripts/test-integration.sh", &["python -m pytest -m integration"]), 1);
    assert_eq!(reasons("./scripts/test-postgres.sh", &["python -m pytest"]), 0);
    assert_eq!(reasons("cargo test --target i686-unknown-linux-gnu", &[]), 1, "a cross build");
    assert_eq!(reasons("cargo test --workspace --no-run", &[]), 1, "builds the tests, runs none");
    // One test picked out of the suite (a version-bump check), not a module or the suite.
    assert_eq!(reasons("python3 -m unittest tests.test_meta.TestVersion.test__version__IsValid", &[]), 1);
    assert_eq!(reasons("python3 -m pytest tests/test_api.py::test_login", &[]), 1);
    assert_eq!(reasons("python3 -m unittest discover tests", &[]), 0);
    assert_eq!(reasons("python3 manage.py test myapp.tests", &[]), 0);
    assert_eq!(reasons("python3 -m pytest tests/test_api.py", &[]), 0);
    // What the run sets, and what it leaves out, name nothing it does.
    assert_eq!(reasons("CHECK_NUMBER_FORMAT=1 python3 runtests.py", &[]), 0);
    assert_eq!(reasons("python3 -m pytest -m \"not e2e\" -n logical", &[]), 0);
    assert_eq!(reasons("python3 -m pytest -m \"e2e\"", &[]), 1);
    assert_eq!(reasons("python3 manage.py test src --exclude playwright", &[]), 0);
    assert_eq!(reasons("python3 -m pytest --ignore tests/e2e", &[]), 0);
    assert_eq!(reasons("npm run test:browser", &[]), 1, "the suite in a browser");
    assert_eq!(reasons("bun test --timeout 10000", &[]), 1, "Bun, which the install does not set up");
    assert_eq!(reasons("make test FORMAT=1 && make format", &[]), 1);
}

#[test]
fn the_primarys_ci_job_places_its_files_by_install_and_builds_before_its_test() {
    let placed = |command: &str, source: &str| Step::shell(Phase::Build, command, ev(source));
    let mut f = Findings::default();
    f.ci_test(TestCommand {
        command: "pnpm run test:ci".into(),
        source: ev(".github/workflows/tests.yml#jobs.sqlite.steps[3]"),
        built_first: vec!["pnpm run compile".into()],
        placed_first: vec![placed("[ -e orm.json ] || cp orm.sqlite.json orm.json", "ci.yml#jobs.sqlite.steps[2]")],
        ..TestCommand::default()
    });
    f.ci_test(TestCommand {
        command: "pnpm run test:e2e".into(),
        source: ev(".github/workflows/tests.yml#jobs.e2e.steps[3]"),
        placed_first: vec![placed("[ -e orm.json ] || cp orm.pg.json orm.json", "ci.yml#jobs.e2e.steps[2]")],
        ..TestCommand::default()
    });
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "pnpm run compile && pnpm run test:ci");
    let steps: Vec<(String, String)> = d.steps.iter().map(|s| (s.command(), s.evidence_text())).collect();
    assert_eq!(
        steps,
        [("[ -e orm.json ] || cp orm.sqlite.json orm.json".to_string(), "ci.yml#jobs.sqlite.steps[2]".to_string())]
    );
    assert!(d.install.contains("cp orm.sqlite.json orm.json"), "{}", d.install);
    assert!(!d.install.contains("orm.pg.json"), "{}", d.install);
}

#[test]
fn a_workflow_that_tests_a_variant_comes_after_those_that_test_every_change() {
    let mut f = Findings::default();
    f.ci_test(TestCommand {
        command: "python3 -m pytest -n 0 --reuse-db".into(),
        source: ev(".github/workflows/migrations.yml#jobs.build.steps[7]"),
        partial: true,
        ..TestCommand::default()
    });
    f.ci_test(TestCommand {
        command: "python3 -m pytest -n logical".into(),
        source: ev(".github/workflows/tests.yml#jobs.unit-tests.steps[4]"),
        ..TestCommand::default()
    });
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "python3 -m pytest -n logical");
    assert!(d.tests[0].primary);
}

#[test]
fn pinned_toolchains_win_and_duplicates_fold() {
    let mut f = Findings::default();
    f.toolchain("node", None, ev("package.json"));
    f.toolchain("node", Some("20".into()), ev(".nvmrc"));
    f.toolchain("node", Some("20".into()), ev(".tool-versions"));
    f.toolchain("python", None, ev("pyproject.toml"));
    f.package_manager("pnpm", None, ".", ev("pnpm-lock.yaml"));
    f.package_manager("pnpm", Some("9.1.0".into()), ".", ev("package.json#packageManager"));
    f.service("postgres", None, ev("ci.yml"));
    f.service("postgres", Some("postgres:16".into()), ev("compose.yaml"));
    let d = merge(&repo(), f);
    let tc: Vec<(&str, Option<&str>)> = d.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
    assert_eq!(tc, [("node", Some("20")), ("python", None)]);
    assert_eq!(d.package_managers.len(), 1);
    assert_eq!(d.package_managers[0].version.as_deref(), Some("9.1.0"));
    assert_eq!(d.services[0].image.as_deref(), Some("postgres:16"));
    assert!(d.note.starts_with("Node 20 (.nvmrc), Python (pyproject.toml); pnpm 9.1.0"), "{}", d.note);
}

#[test]
fn an_install_over_the_server_limit_is_a_warning() {
    let mut f = Findings::default();
    for i in 0..2000 {
        f.step(Phase::Install, format!("(cd services/s{i} && go mod download)"), ev(&format!("services/s{i}/go.mod")));
    }
    let d = merge(&repo(), f);
    assert!(d.install.len() > crate::names::MAX_SCRIPT_BYTES);
    assert!(
        d.warnings.iter().any(|w| w.to_string().starts_with("install is ") && w.to_string().contains("16384")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn nothing_found_is_an_empty_install() {
    let d = merge(&repo(), Findings::default());
    assert_eq!(d.install, "");
    assert_eq!(d.start, "");
    assert_eq!(d.repo, "site");
}

#[test]
fn the_primary_jobs_services_count_when_an_earlier_job_declares_the_same_and_the_override_is_read() {
    // Two jobs with one postgres container each (and a compose file with one more): the test
    // job's is its own, not the lint job's.
    let service = "    services:\n      postgres:\n        image: postgres:14\n";
    let workflow = format!(
        "jobs:\n  lint:\n{service}    steps:\n      - run: mix format --check-formatted\n  test:\n{service}    steps:\n      - run: mix test\n"
    );
    let d = crate::detect::testing::detection(&[
        ("mix.exs", "defmodule X.MixProject do\nend\n"),
        ("docker-compose.yaml", "services:\n  db:\n    image: postgres:14\n"),
        (".github/workflows/ci.yml", workflow.as_str()),
    ]);
    let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(services, ["postgres"], "optional: {:?} tests {:?} all {:?}", d.optional_services, d.tests, d.services);
    assert!(d.optional_services.is_empty());

    // `docker compose up -d db mail` reads compose.override.yml beside compose.yml.
    let workflow = "jobs:\n  test:\n    steps:\n      - run: docker compose up -d db mail\n      - run: pytest\n";
    let d = crate::detect::testing::detection(&[
        ("compose.yml", "services:\n  db:\n    image: postgres:16\n"),
        ("compose.override.yml", "services:\n  mail:\n    image: axllent/mailpit\n"),
        (".github/workflows/ci.yml", workflow),
        ("pyproject.toml", "[project]\nname = 'x'\n"),
    ]);
    let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(services, ["postgres", "mailpit"], "optional: {:?}", d.optional_services);
}

#[test]
fn benchmarks_run_as_tests_are_not_the_primary_and_the_sandboxs_own_target_is_no_cross_build() {
    // rand: a benches workflow's `cargo test --benches` beside test.yml's matrix over
    // targets, whose first cell is the sandbox's own triple.
    let mut f = Findings::default();
    f.package_manager("cargo", None, ".", ev("Cargo.toml"));
    f.test("cd benches && cargo test --benches", ev(".github/workflows/benches.yml#jobs.benches.steps[3]"));
    f.test("cargo test --target x86_64-unknown-linux-gnu", ev(".github/workflows/test.yml#jobs.test.steps[4]"));
    f.test("cargo test --target i686-unknown-linux-gnu", ev(".github/workflows/test.yml#jobs.cross.steps[4]"));
    let d = merge(&repo(), f);
    assert_eq!(d.tests[0].command, "cargo test --target x86_64-unknown-linux-gnu", "{:?}", d.tests);
}
