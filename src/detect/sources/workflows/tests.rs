use super::*;
use crate::evidence::ev;

#[test]
fn a_job_switched_off_is_not_read() {
    let workflow = "jobs:\n  off:\n    if: false\n    steps:\n      - run: go test ./e2e\n  off2:\n    if: ${{ false }}\n    steps:\n      - run: go test ./x\n  on:\n    if: github.event_name == 'push'\n    steps:\n      - run: go test ./...\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let jobs: Vec<String> = Workflows::read(&repo).jobs.into_iter().map(|j| j.source.to_string()).collect();
    assert_eq!(jobs, [".github/workflows/ci.yml#jobs.on"]);
}
use crate::detect::testing::repo_with;

fn yaml(text: &str) -> Yaml {
    yaml_rust2::YamlLoader::load_from_str(text).unwrap().remove(0)
}

#[test]
fn quoted_arguments_around_unknown_expressions_go_whole() {
    let ctx = Context::default().with_env(&yaml("V: '3.12'"));
    assert_eq!(ctx.resolve(r#"bash tests-start.sh "Coverage for ${{ github.sha }}" --x"#), "bash tests-start.sh --x");
    assert_eq!(ctx.resolve(r#"pytest -m 'not ${{ github.ref }}' tests"#), "pytest tests");
    assert_eq!(ctx.resolve(r#"tox -e "py${{ env.V }}""#), r#"tox -e "py3.12""#);
    assert_eq!(ctx.resolve(r#"run --label "${{ matrix.none || 'a b' }}""#), r#"run --label "a b""#);
    let ctx = Context::default();
    assert_eq!(ctx.resolve("uv run --python \"${{ steps.py.outputs.v }}\" pytest ''"), "uv run pytest");
    assert_eq!(ctx.resolve("pytest --x=\"${{ github.sha }}\" -q"), "pytest -q");
}

#[test]
fn actions_that_start_a_service_are_service_containers() {
    let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        pg: ['15', '14']\n    steps:\n      - uses: ikalnytskyi/action-setup-postgres@v6\n        with:\n          postgres-version: ${{ matrix.pg }}\n          password: secret\n          port: 5433\n      - uses: mirromutth/mysql-action@v1.1\n      - uses: actions/setup-node@v4\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let services = Workflows::read(&repo).jobs.remove(0).services;
    assert_eq!(services.len(), 2, "{services:?}");
    let postgres = &services[0];
    assert_eq!(
        (postgres.name.as_str(), postgres.images.as_slice()),
        ("postgres", ["postgres:15", "postgres:14"].map(String::from).as_slice())
    );
    assert_eq!(postgres.ports, ["5433:5432"]);
    let env = |s: &JobService| s.env.iter().map(|(k, v)| format!("{k}={v:?}")).collect::<Vec<_>>();
    // The action's defaults, then what the step gives.
    assert_eq!(env(postgres), ["POSTGRES_USER=Literal(\"postgres\")", "POSTGRES_PASSWORD=Literal(\"secret\")"]);
    assert_eq!(postgres.source, ev(".github/workflows/ci.yml#jobs.t.steps[0]"));
    assert_eq!(
        (services[1].images.as_slice(), services[1].ports.as_slice()),
        (["mysql".to_string()].as_slice(), ["3306:3306".to_string()].as_slice())
    );
}

#[test]
fn travis_services_and_phases_are_a_job_where_travis_is_the_only_ci() {
    let travis = "language: node_js\nservices:\n  - redis-server\n  - xvfb\naddons:\n  postgresql: \"13\"\n\
                  jobs:\n  include:\n    - services: [mysql]\nbefore_script:\n  - psql -c 'create database t;' -U postgres\n\
                  script:\n  - npm run lint\n  - travis_retry npm run test\n  - travis_wait 30 make slow\n";
    let (_dir, repo) = repo_with(&[(".travis.yml", travis)]);
    let job = Workflows::read(&repo).jobs.remove(0);
    let services: Vec<(&str, &str, &str)> =
        job.services.iter().map(|s| (s.name.as_str(), s.images[0].as_str(), s.ports[0].as_str())).collect();
    assert_eq!(
        services,
        [("redis", "redis", "6379"), ("postgres", "postgres:13", "5432"), ("mysql", "mysql", "3306")],
        "xvfb is not a service container"
    );
    assert_eq!(job.services[1].env, [("POSTGRES_HOST_AUTH_METHOD".to_string(), EnvValue::Literal("trust".into()))]);
    let lines: Vec<(&str, &str)> = job.lines.iter().map(|l| (l.text.as_str(), l.source.as_test_str())).collect();
    assert_eq!(
        lines,
        [
            ("psql -c 'create database t;' -U postgres", ".travis.yml#before_script"),
            ("npm run lint", ".travis.yml#script"),
            ("npm run test", ".travis.yml#script"),
            ("make slow", ".travis.yml#script"),
        ]
    );
    // Beside a GitHub workflow, `.travis.yml` is a leftover.
    let (_dir, repo) = repo_with(&[
        (".travis.yml", travis),
        (".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: npm test\n"),
    ]);
    let jobs = Workflows::read(&repo).jobs;
    assert_eq!(jobs.len(), 1);
    assert!(jobs[0].services.is_empty());
}

#[test]
fn services_that_ci_lines_start_with_docker_run_are_service_containers() {
    let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        name: [old, new]\n        include:\n          - name: old\n            db: mysql\n            db-version: '5.7'\n          - name: new\n            db: mariadb\n            db-version: '10.4'\n    steps:\n      - run: echo CARGO=cross >> $GITHUB_ENV\n        if: matrix.target != ''\n      - run: |\n          echo \"MYSQL_PORT=$(node free-port.js)\" >> \"$GITHUB_ENV\"\n          echo \"MYSQL_DATABASE=node_mysql\" >> \"$GITHUB_ENV\"\n          echo 'FORCE_COLOR=1' >> $GITHUB_ENV\n          echo \"TOKEN=${{ secrets.TOKEN }}\" >> $GITHUB_ENV\n      - run: docker run -d --name mysql -e MYSQL_ALLOW_EMPTY_PASSWORD=yes -e MYSQL_DATABASE=$MYSQL_DATABASE -p $MYSQL_PORT:3306 $DB:$DB_VERSION\n        env:\n          DB: ${{ matrix.db }}\n          DB_VERSION: ${{ matrix.db-version }}\n      - run: docker run --rm -v $PWD:/src postgres:16 pg_dump --version\n      - run: docker run -dit --name=cache -p 6380:6379 redis:7 redis-server --save ''\n      - run: docker run -d -p 8080:80 nginx\n      - run: npm test\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let job = Workflows::read(&repo).jobs.remove(0);
    let services = job.services;
    let found: Vec<(&str, &str, &str)> =
        services.iter().map(|s| (s.name.as_str(), s.images[0].as_str(), s.ports[0].as_str())).collect();
    // The image the include gives the combination read; a port from `$GITHUB_ENV` on the
    // container's own; not a one-off `--rm` run, not a proxy.
    assert_eq!(found, [("mysql", "mysql:5.7", "3306"), ("cache", "redis:7", "6380:6379")]);
    assert_eq!(
        services[0].env,
        [
            ("MYSQL_ALLOW_EMPTY_PASSWORD".to_string(), EnvValue::Literal("yes".into())),
            ("MYSQL_DATABASE".to_string(), EnvValue::Literal("node_mysql".into()))
        ],
        "a value an earlier step wrote to $GITHUB_ENV is known"
    );
    assert_eq!(services[0].source, ev(".github/workflows/ci.yml#jobs.t.steps[2]"));
    // The later steps run with it; a value from a command or an expression (a secret), a
    // display setting and what a conditional step exports stay out.
    let test = job.lines.last().unwrap();
    assert_eq!(
        (test.text.as_str(), test.env_words()),
        ("npm test", "MYSQL_DATABASE=node_mysql FORCE_COLOR=1 ".to_string())
    );
    // An include that extends another combination leaves the one read as it is.
    let ctx = Context::default().with_matrix(&yaml(
        "py: ['3.9', 'pypy-3.9']\ninclude:\n  - py: pypy-3.9\n    toxenv: pypy39\n  - py: '3.9'\n    os: linux\n",
    ));
    assert_eq!((ctx.value("matrix.toxenv"), ctx.value("matrix.os")), (None, Some("linux".to_string())));
}

#[test]
fn a_line_of_an_include_only_matrix_runs_in_one_cell() {
    let ctx = Context::default().with_matrix(&yaml(
        "include:\n  - {python-version: '3.14', toxenv: pre-commit}\n  - {python-version: '3.11'}\n  - {python-version: '3.13', toxenv: py, timezone: Pacific/Auckland}\n",
    ));
    // The first cell that sets every key the line names, not one cell's timezone and
    // another's environment.
    assert_eq!(
        ctx.resolve("TZ=${{ matrix.timezone || 'UTC' }} tox -e ${{ matrix.toxenv || 'py' }}"),
        "TZ=Pacific/Auckland tox -e py"
    );
    assert_eq!(ctx.resolve("tox -e ${{ matrix.toxenv }}"), "tox -e pre-commit");
    // A key no cell sets with the others: each key's first value, as before.
    assert_eq!(ctx.resolve("run ${{ matrix.toxenv }} ${{ matrix.os || 'linux' }}"), "run pre-commit linux");
}

#[test]
fn a_matrix_value_is_the_lowest_version_as_written() {
    // A wildcard a step pastes into a requirement stays one: `click==8.0.*`, not `click==8.0`.
    let ctx = Context::default().with_matrix(&yaml("click: ['8.1.*', '8.0.*']\nnode: [20.x, 18.x]\nos: [linux, mac]"));
    assert_eq!(
        ctx.resolve("uv run --with \"click==${{ matrix.click }}\" pytest"),
        "uv run --with \"click==8.0.*\" pytest"
    );
    assert_eq!((ctx.value("matrix.node"), ctx.value("matrix.os")), (Some("18.x".into()), Some("linux".into())));
    // A list of runners stands for its Linux one, and an include for another runner adds nothing.
    let ctx = Context::default()
        .with_matrix(&yaml("os: [macos-latest, ubuntu-latest]\ninclude:\n  - os: macos-latest\n    workers: 3\n"));
    assert_eq!((ctx.value("matrix.os"), ctx.value("matrix.workers")), (Some("ubuntu-latest".into()), None));
}

#[test]
fn workflows_that_check_every_change_are_read_first() {
    let filtered = "on:\n  push:\n    paths: ['tests/docker/**']\n  pull_request:\n    paths: ['tests/docker/**']\njobs:\n  t:\n    steps:\n      - run: pytest tests/docker\n";
    let manual = "on: [workflow_dispatch]\njobs:\n  t:\n    steps:\n      - run: pytest -m slow\n";
    // A push filter alone leaves every pull request checked.
    let every =
        "on:\n  push:\n    paths: ['src/**']\n  pull_request:\njobs:\n  t:\n    steps:\n      - run: tox -e py\n";
    let (_dir, repo) = repo_with(&[
        (".github/workflows/docker.yml", filtered),
        (".github/workflows/manual.yml", manual),
        (".github/workflows/tox.yml", every),
    ]);
    let sources: Vec<String> = Workflows::read(&repo).jobs.into_iter().map(|j| j.source.to_string()).collect();
    assert_eq!(
        sources,
        [
            ".github/workflows/tox.yml#jobs.t",
            ".github/workflows/docker.yml#jobs.t",
            ".github/workflows/manual.yml#jobs.t"
        ]
    );
    assert!(checks_every_change(&yaml("push")));
    assert!(checks_every_change(&yaml("[push, pull_request]")));
    assert!(checks_every_change(&yaml("workflow_call:\n  inputs: {}")));
    assert!(checks_every_change(&yaml("pull_request:\n  paths: ['**.py', tox.ini, '!docs/**']")));
    assert!(!checks_every_change(&yaml("pull_request:\n  paths: ['packages/web/**', pnpm-lock.yaml]")));
    assert!(!checks_every_change(&yaml("schedule:\n  - cron: '0 0 * * *'")));
    assert!(!checks_every_change(&yaml("pull_request:\n  paths: ['**/migrations/**', .github/workflows/m.yml]")));
    assert!(checks_every_change(&yaml("pull_request:\n  paths: ['**/*.py', 'src/**']")));
}

#[test]
fn a_script_exports_to_its_later_lines() {
    let workflow = "jobs:\n  t:\n    steps:\n      - run: |\n          psql -c 'SELECT 1'\n          export PGPASSWORD=postgres PGUSER=\"ci\" P=$HOME\n          psql -h localhost -c 'CREATE DATABASE app;'\n        env:\n          PGUSER: root\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let job = Workflows::read(&repo).jobs.remove(0);
    let env: Vec<String> = job.lines.iter().map(RunLine::env_words).collect();
    // The script's own export wins over the step's env; a value from a variable is not known.
    assert_eq!(env, ["PGUSER=root ", "PGUSER=root ", "PGPASSWORD=postgres PGUSER=ci "]);
}

#[test]
fn secrets_are_read_only_inside_expressions() {
    let script = "echo '${{ secrets.DB_KEY }}' > conf/secrets.json && cp secrets.json x\n${{ secrets['API_TOKEN'] || secrets.OTHER }}";
    assert_eq!(secret_references(script), ["DB_KEY", "API_TOKEN", "OTHER"]);
}

#[test]
fn jobs_with_their_actions_lines_services_and_secrets() {
    let workflow = "name: tests\nenv:\n  CARGO: cargo\njobs:\n  linux:\n    services:\n      db:\n        image: postgres:${{ matrix.pg }}\n        env:\n          POSTGRES_PASSWORD: ${{ secrets.PG_PASSWORD }}\n          POSTGRES_DB: app\n        ports: ['5432:5432', '${{ env.P }}:1']\n    strategy:\n      matrix:\n        php: [8.4, 8.3]\n        pg: [15, 16]\n    defaults:\n      run:\n        working-directory: api\n    steps:\n      - uses: shivammathur/setup-php@v2\n        with:\n          php-version: ${{ matrix.php }}\n      - run: |\n          cd sub\n          $CARGO test \\\n            --workspace\n          for p in a b; do echo $p; done\n        env:\n          K: ${{ secrets.API_KEY }}\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let jobs = Workflows::read(&repo).jobs;
    let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
    assert_eq!(job.source, ev(".github/workflows/ci.yml#jobs.linux"));
    assert_eq!(job.kind, JobKind::Github { release: false });
    assert_eq!(job.services[0].images, ["postgres:15", "postgres:16"]);
    assert_eq!(job.services[0].ports, ["5432:5432"]);
    assert_eq!(job.services[0].env[0], ("POSTGRES_PASSWORD".into(), EnvValue::Secret("PG_PASSWORD".into())));
    assert_eq!(job.actions[0].action, "shivammathur/setup-php");
    assert_eq!(job.actions[0].inputs["php-version"].matrix.as_deref(), Some(&["8.4".into(), "8.3".into()][..]));
    let lines: Vec<_> = job.lines.iter().map(|l| (l.text.as_str(), l.dir.as_str())).collect();
    assert_eq!(lines, [("cargo test --workspace", "api/sub"), ("for p in a b; do echo $p; done", "api/sub")]);
    assert_eq!(job.lines[0].loop_variables, ["p"]);
    assert_eq!(job.secrets, ["PG_PASSWORD", "API_KEY"]);
}

#[test]
fn inputs_forwarding_matrix_objects_resolve_in_the_composite() {
    let action = "inputs:\n  redis-tag:\n    required: false\nruns:\n  using: composite\n  steps:\n    - run: npm test -- --redis-tag=${{ inputs.redis-tag }} --redis-version=${{ inputs.redis-version }} ${{ inputs.os }}\n      shell: bash\n";
    let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        redis:\n          - tag: rs-7.4.0-v1\n            version: '7.4'\n          - tag: '8.2'\n            version: '8.2'\n    steps:\n      - uses: ./.github/actions/run-tests\n        with:\n          redis-tag: ${{ matrix.redis.tag }}\n          redis-version: ${{ matrix.redis.version }}\n          os: ${{ matrix.os }}\n";
    let (_dir, repo) =
        repo_with(&[(".github/actions/run-tests/action.yml", action), (".github/workflows/ci.yml", workflow)]);
    let jobs = Workflows::read(&repo).jobs;
    // One object's fields together; a reference the matrix cannot answer is dropped.
    assert_eq!(jobs[0].lines[0].text, "npm test -- --redis-tag=rs-7.4.0-v1 --redis-version=7.4");
    // An option whose whole value is unknown goes with it; a value built of two stays.
    let ctx = Context::default();
    assert_eq!(ctx.resolve("tox run -e ${{ format('py{0}', matrix.python) }} -- -x"), "tox run -- -x");
    assert_eq!(ctx.resolve("pytest --python=${{ matrix.py }}"), "pytest");
    assert_eq!(ctx.resolve("pw --shard=${{ matrix.i }}/${{ matrix.n }}"), "pw --shard=/");
}

#[test]
fn steps_an_input_known_here_switches_off_are_not_read() {
    let action = "inputs:\n  build:\n    default: 'false'\nruns:\n  using: composite\n  steps:\n    - run: make build\n      if: inputs.build == 'true'\n      shell: bash\n    - run: make check\n      if: ${{ 'skip' != inputs.build }}\n      shell: bash\n";
    let workflow = "jobs:\n  default:\n    steps:\n      - uses: ./.github/actions/setup\n  built:\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          build: TRUE\n  unknown:\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          build: ${{ needs.changes.outputs.build }}\n      - run: make lint\n        if: env.should_run == 'true'\n";
    let (_dir, repo) =
        repo_with(&[(".github/actions/setup/action.yml", action), (".github/workflows/ci.yml", workflow)]);
    let lines: Vec<Vec<String>> =
        Workflows::read(&repo).jobs.iter().map(|j| j.lines.iter().map(|l| l.text.clone()).collect()).collect();
    // GitHub compares strings ignoring case; what other jobs decide (an output, an env
    // value set from one) may hold, so those steps are read.
    assert_eq!(
        lines,
        [vec!["make check"], vec!["make build", "make check"], vec!["make build", "make check", "make lint"]]
    );
}

#[test]
fn steps_for_a_matrix_value_no_combination_gives_are_not_read() {
    let workflow = "jobs:\n  ci:\n    strategy:\n      matrix:\n        rust: [1.87.0, 1.80.0]\n        include:\n          - rust: Beta\n            target: i686\n    steps:\n      - run: cargo build --all-features\n        if: ${{ matrix.rust == 'nightly' }}\n      - run: cargo fmt --check\n        if: matrix.rust == 'beta'\n      - run: cargo test\n        if: matrix.rust != '1.80.0'\n      - run: cargo doc\n        if: matrix.os == 'ubuntu-latest'\n      - run: cargo test --features pcre2\n        if: matrix.target == ''\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let lines: Vec<String> = Workflows::read(&repo).jobs[0].lines.iter().map(|l| l.text.clone()).collect();
    // `!=` holds in some combination; a key the matrix lacks, or a combination without
    // `target` (`''`), is not known never to be the value.
    assert_eq!(lines, ["cargo fmt --check", "cargo test", "cargo doc", "cargo test --features pcre2"]);
}

#[test]
fn composite_actions_inline_into_their_callers() {
    let action = "inputs:\n  php-version:\n    default: '8.2'\nruns:\n  using: composite\n  steps:\n    - uses: shivammathur/setup-php@v2\n      with:\n        php-version: ${{ inputs.php-version }}\n    - run: vendor/bin/pest\n      shell: bash\n";
    let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        php: ['8.4', '8.3']\n    steps:\n      - uses: ./.github/actions/setup\n        with:\n          php-version: ${{ matrix.php }}\n";
    let (_dir, repo) =
        repo_with(&[(".github/actions/setup/action.yml", action), (".github/workflows/ci.yml", workflow)]);
    let jobs = Workflows::read(&repo).jobs;
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].actions[0].inputs["php-version"].matrix.as_deref(), Some(&["8.4".into(), "8.3".into()][..]));
    assert_eq!(jobs[0].lines[0].source, ev(".github/actions/setup/action.yml#runs.steps[1]"));
    let (_dir, repo) = repo_with(&[(".github/actions/setup/action.yml", action)]);
    let jobs = Workflows::read(&repo).jobs;
    assert_eq!((jobs[0].kind, jobs[0].actions[0].inputs["php-version"].text.as_str()), (JobKind::UnusedAction, "8.2"));
}

#[test]
fn a_local_action_that_uses_another_is_read_through_with_its_defaults() {
    let outer = "inputs:\n  node:\n    default: '24'\nruns:\n  using: composite\n  steps:\n    - uses: ./.github/actions/node\n      with:\n        version: ${{ inputs.node }}\n    - uses: ./.github/actions/setup\n";
    let inner = "inputs:\n  version:\n    default: '18'\nruns:\n  using: composite\n  steps:\n    - uses: actions/setup-node@v4\n      with:\n        node-version: ${{ inputs.version }}\n    - run: npm ci\n      shell: bash\n";
    let workflow = "jobs:\n  t:\n    steps:\n      - uses: ./.github/actions/setup\n      - run: npm test\n";
    let (_dir, repo) = repo_with(&[
        (".github/actions/setup/action.yml", outer),
        (".github/actions/node/action.yaml", inner),
        (".github/workflows/ci.yml", workflow),
    ]);
    let jobs = Workflows::read(&repo).jobs;
    // Both actions were used, so neither is read again as an unused one; the one that uses
    // itself again stops there.
    let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
    let node: Vec<_> =
        job.actions.iter().map(|a| (a.action.as_str(), a.inputs["node-version"].text.as_str())).collect();
    assert_eq!(node, [("actions/setup-node", "24")]);
    let lines: Vec<_> = job.lines.iter().map(|l| (l.text.as_str(), l.source.to_string())).collect();
    assert_eq!(
        lines,
        [
            ("npm ci", ".github/actions/node/action.yaml#runs.steps[1]".to_string()),
            ("npm test", ".github/workflows/ci.yml#jobs.t.steps[1]".to_string())
        ]
    );
}

#[test]
fn a_file_cat_into_github_env_sets_the_versions_later_steps_read() {
    let workflow = "jobs:\n  t:\n    steps:\n      - run: cat .github/versions.env >> \"$GITHUB_ENV\"\n      - uses: erlef/setup-beam@v1\n        with:\n          elixir-version: ${{ env.elixir }}\n          otp-version: ${{ env.OTP_VERSION }}\n      - run: cat gone.env >> $GITHUB_ENV\n      - run: mix test\n";
    let versions = "# what CI builds with\nelixir=1.20.1\nexport OTP_VERSION=\"28.1\"\n# NODE=22\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow), (".github/versions.env", versions)]);
    let jobs = Workflows::read(&repo).jobs;
    let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
    let input = |key: &str| job.actions[0].inputs[key].text.clone();
    assert_eq!((input("elixir-version"), input("otp-version")), ("1.20.1".to_string(), "28.1".to_string()));
    // Versions for the setup steps, not an environment every later command carries.
    let lines: Vec<&str> = job.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(lines.last(), Some(&"mix test"));
    assert!(job.lines.iter().all(|l| l.env.is_empty()), "{:?}", job.lines);
}

#[test]
fn jobs_only_on_macos_or_windows_are_variants_of_the_suite() {
    let workflow = "jobs:\n  mac:\n    runs-on: macos-14\n    steps:\n      - run: make test\n  win:\n    runs-on: [self-hosted, Windows]\n    steps:\n      - run: make test\n  each:\n    strategy:\n      matrix:\n        os: [macos-latest, ubuntu-latest]\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: make test\n  apple:\n    strategy:\n      matrix:\n        os: [macos-13, windows-2022]\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: make test\n  linux:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: make test\n  unsaid:\n    steps:\n      - run: make test\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let partial: Vec<(String, bool)> =
        Workflows::read(&repo).jobs.iter().map(|j| (j.source.to_string(), j.partial)).collect();
    let job = |name: &str, partial: bool| (format!(".github/workflows/ci.yml#jobs.{name}"), partial);
    assert_eq!(
        partial,
        [
            job("mac", true),
            job("win", true),
            job("each", false),
            job("apple", true),
            job("linux", false),
            job("unsaid", false)
        ]
    );
}

#[test]
fn lines_missing_a_value_ci_gives_them_are_marked() {
    let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        cmd: [\"make check\", \"make docs\"]\n    steps:\n      - run: |\n          ${{ matrix.cmd }}\n          ./scripts/ci.sh ${{ needs.plan.outputs.suite }}\n          tox run -e ${{ steps.envs.outputs.list }}\n          pytest -m \"not ${{ inputs.marker }}\"\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let jobs = Workflows::read(&repo).jobs;
    let lines: Vec<(&str, bool)> = jobs[0].lines.iter().map(|l| (l.text.as_str(), l.unresolved)).collect();
    // The matrix's first cell is a value; an option or a quoted argument an unknown value
    // makes goes as a whole (the line runs without it); a bare unknown word is missing.
    assert_eq!(lines, [("make check", false), ("./scripts/ci.sh", true), ("tox run", false), ("pytest", false)]);
}

#[test]
fn jobs_testing_another_checkout_are_left_out() {
    let workflow = "jobs:\n  downstream:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: other/app\n      - run: pytest\n  own:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: org/plugin\n          path: plugin\n      - run: |\n          npm test\n          cd plugin\n          pytest\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let jobs = Workflows::read(&repo).jobs;
    let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
    let lines: Vec<_> = job.lines.iter().map(|l| (l.text.as_str(), l.in_foreign_checkout)).collect();
    assert_eq!(lines, [("npm test", false), ("pytest", true)]);
}

#[test]
fn end_to_end_workflows_are_read_after_the_others() {
    let job = |dir: &str| {
        format!(
            "jobs:\n  t:\n    defaults:\n      run:\n        working-directory: {dir}\n    steps:\n      - run: yarn test\n"
        )
    };
    let (_dir, repo) = repo_with(&[
        (".github/workflows/e2e.yml", &job("tests/e2e")),
        (".github/workflows/partial-frontend.yml", &job("frontend")),
    ]);
    let sources: Vec<String> = Workflows::read(&repo).jobs.into_iter().map(|j| j.source.to_string()).collect();
    assert_eq!(sources, [".github/workflows/partial-frontend.yml#jobs.t", ".github/workflows/e2e.yml#jobs.t"]);
}

#[test]
fn lines_after_a_cd_out_of_the_checkout_run_outside_it() {
    let workflow = "jobs:\n  installer:\n    steps:\n      - run: |\n          rails new $RUNNER_TEMP/my_app\n          cd $RUNNER_TEMP/my_app\n          bundle exec rspec spec\n          cd $GITHUB_WORKSPACE/core\n          bundle exec rspec\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let jobs = Workflows::read(&repo).jobs;
    let [job] = jobs.as_slice() else { panic!("{jobs:?}") };
    let lines: Vec<_> = job.lines.iter().map(|l| (l.text.as_str(), l.dir.as_str(), l.in_foreign_checkout)).collect();
    assert_eq!(
        lines,
        [
            ("rails new $RUNNER_TEMP/my_app", "", false),
            ("bundle exec rspec spec", "", true),
            ("bundle exec rspec", "core", false)
        ]
    );
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
        let (_dir, repo) = repo_with(&[
            (".github/workflows/x.yml", workflow),
            (".gitlab-ci.yml", "test: [1]\nservices: {a: b}\nimage: {name: 3}\n"),
            (".circleci/config.yml", "jobs:\n  a:\n    docker: postgres\n    steps: [checkout, {run: 3}]\n"),
        ]);
        let _ = Workflows::read(&repo);
    }
}

#[test]
fn actions_that_run_a_tool_s_command_are_its_lines() {
    let workflow = "jobs:\n  t:\n    strategy:\n      matrix:\n        features: ['--all-features']\n    steps:\n      - uses: actions-rs/cargo@v1\n        env:\n          NAVI_PATH: /tmp/cheats\n        with:\n          command: test\n          args: ${{ matrix.features }}\n      - uses: actions-rs/cargo@v1\n        with:\n          use-cross: true\n          command: build\n      - uses: borales/actions-yarn@v4\n        with:\n          cmd: test\n      - run: ./tests/run\n";
    let (_dir, repo) = repo_with(&[(".github/workflows/ci.yml", workflow)]);
    let job = Workflows::read_with(&repo, crate::detect::ecosystems::command_action).jobs.remove(0);
    let lines: Vec<(&str, String)> = job.lines.iter().map(|l| (l.text.as_str(), l.source.to_string())).collect();
    assert_eq!(
        lines,
        [
            ("cargo test --all-features", ".github/workflows/ci.yml#jobs.t.steps[0]".to_string()),
            ("yarn test", ".github/workflows/ci.yml#jobs.t.steps[2]".to_string()),
            ("./tests/run", ".github/workflows/ci.yml#jobs.t.steps[3]".to_string()),
        ]
    );
    assert_eq!(job.lines[0].env, [("NAVI_PATH".to_string(), "/tmp/cheats".to_string())]);
}
