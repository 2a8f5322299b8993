use super::*;
use crate::detect::testing::scan;

#[test]
fn ci_jobs_testing_through_a_script_install_what_it_needs() {
    let workflow = "jobs:\n  postgres:\n    steps:\n      - run: pip install -r requirements/extras/postgres.txt\n      - run: ./scripts/test-postgres.sh\n  docs:\n    steps:\n      - run: pip install -r requirements/docs.txt\n      - run: ./scripts/build-docs.sh\n";
    let s = scan(
        &Python,
        &[
            ("setup.py", ""),
            ("requirements/extras/postgres.txt", "asyncpg\n"),
            ("requirements/docs.txt", "sphinx\n"),
            ("scripts/test-postgres.sh", "#!/bin/bash\npython -m pytest -s $@\n"),
            ("scripts/build-docs.sh", "#!/bin/bash\nsphinx-build docs out\n"),
            (".github/workflows/ci.yml", workflow),
        ],
    );
    let steps = s.steps();
    assert!(steps.contains(&"python3 -m pip install -r requirements/extras/postgres.txt"), "{steps:?}");
    assert!(!steps.iter().any(|c| c.contains("docs.txt")), "a job that runs no tests: {steps:?}");
}

#[test]
fn what_ci_test_jobs_and_tox_install_goes_in_once_as_pip_arguments() {
    let workflow = "jobs:\n  test:\n    steps:\n      - run: pip install -r requirements.txt -r tests/requirements.txt\n      - run: pip install pytest-cov -e .[redis]\n      - run: pytest --cov\n  lint:\n    steps:\n      - run: pip install ruff && ruff check .\n";
    let tox = "[testenv]\ndeps =\n    --requirement=test_requirements.txt\n    mock\ncommands = pytest\n";
    let s = scan(
        &Python,
        &[
            ("requirements.txt", "attrs\n"),
            ("tests/requirements.txt", "pytest\n"),
            ("test_requirements.txt", "whatever\n"),
            ("setup.py", ""),
            ("tox.ini", tox),
            (".github/workflows/ci.yml", workflow),
        ],
    );
    let installs: Vec<&str> =
        s.steps().into_iter().filter(|c| c.contains("pip install") || c.starts_with("hanzo_pip_each")).collect();
    assert_eq!(
        installs[..4],
        [
            "python3 -m pip install -r requirements.txt",
            "python3 -m pip install -r test_requirements.txt",
            "python3 -m pip install -r tests/requirements.txt",
            "hanzo_pip_each 'installed by the CI test job' -- pytest-cov",
        ],
        "what CI installs before (or with) the checkout goes in before the project: {installs:?}"
    );
    assert_eq!(installs[4], "python3 -m pip install -e '.[redis]'", "{installs:?}");
    // tox's deps at once, else one by one (a VCS dep without network); the requirements
    // file the project's install took is not taken again.
    assert!(installs.contains(&"hanzo_pip_each 'a dep of the tox test environment' -- mock"), "{installs:?}");
    assert!(!installs.iter().any(|c| c.contains("ruff")), "a lint job's tools: {installs:?}");
    assert!(!installs.contains(&"python3 -m pip install pytest"), "tests/requirements.txt names it: {installs:?}");
    // What a job installs after its tests ran is for a later step (plugins that would
    // change what the tests see).
    let later = "jobs:\n  test:\n    steps:\n      - run: pip install pytest-xdist && pytest -n auto\n      - run: pip install datasette-init\n      - run: tests/load-plugins.sh\n";
    let s = scan(&Python, &[("setup.py", ""), (".github/workflows/ci.yml", later)]);
    let steps = s.steps();
    assert!(steps.contains(&"hanzo_pip_each 'installed by the CI test job' -- pytest-xdist"), "{steps:?}");
    assert!(!steps.iter().any(|c| c.contains("datasette-init")), "{steps:?}");

    // Jobs testing variants each pin their own Django: the first job's goes in, once.
    let variants = "jobs:\n  sqlite:\n    steps:\n      - run: pip install 'Django>=5.2,<5.3' pytest\n      - run: pytest\n  postgres:\n    steps:\n      - run: pip install \"django>=6.1,<6.2\" psycopg2\n      - run: pytest\n";
    let s = scan(&Python, &[("setup.py", ""), (".github/workflows/ci.yml", variants)]);
    let steps = s.steps();
    let ci_step = steps.iter().find(|c| c.contains("installed by the CI test job")).expect("CI's packages");
    assert_eq!(*ci_step, "hanzo_pip_each 'installed by the CI test job' -- 'Django>=5.2,<5.3' pytest psycopg2");

    // uv's and poetry's projects go to the interpreter too, and CI's additions with them;
    // hatch keeps its own environment, which pip's would not reach.
    let ci = ".github/workflows/ci.yml";
    let workflow = "jobs:\n  test:\n    steps:\n      - run: pip install pytest-timeout -r requirements/tests.txt\n      - run: pytest\n";
    let files = [
        ("pyproject.toml", "[project]\nname = 'x'\n"),
        ("uv.lock", ""),
        ("requirements/tests.txt", "x\n"),
        (ci, workflow),
    ];
    let uv = scan(&Python, &files);
    assert!(
        uv.steps().contains(&"hanzo_pip_each 'installed by the CI test job' -- pytest-timeout"),
        "{:?}",
        uv.steps()
    );
    // uv's install takes no requirements file, so the one CI names is not taken for done.
    assert!(uv.steps().contains(&"python3 -m pip install -r requirements/tests.txt"), "{:?}", uv.steps());
    let hatch = scan(&Python, &[("pyproject.toml", "[project]\nname = 'x'\n[tool.hatch.envs.test]\n"), (ci, workflow)]);
    assert!(!hatch.steps().iter().any(|c| c.contains("pytest-timeout")), "{:?}", hatch.steps());
}

#[test]
fn a_missing_tool_is_installed_at_the_version_the_project_states_or_its_lock_was_written_by() {
    let pyproject = |text: &str| text.parse::<toml::Table>().unwrap();
    let lock_1 = "# This file is automatically @generated by Poetry 1.8.4 and should not be changed by hand.\n";
    let stated = pyproject("[tool.poetry]\nrequires-poetry = '>=2.1'\n");
    assert_eq!(Tool::Poetry.requirement(Some(&stated), Some(lock_1)).as_deref(), Some("poetry>=2.1"));
    let unstated = pyproject("[project]\nname = 'x'\n");
    assert_eq!(Tool::Poetry.requirement(Some(&unstated), Some(lock_1)).as_deref(), Some("poetry<2"));
    assert_eq!(Tool::Poetry.requirement(Some(&unstated), Some("[[package]]\n")).as_deref(), Some("poetry"));
    let uv = pyproject("[tool.uv]\nrequired-version = '>=0.5'\n");
    assert_eq!(Tool::Uv.requirement(Some(&uv), None).as_deref(), Some("uv>=0.5"));
    assert_eq!(Tool::Pip.requirement(Some(&uv), None), None);
    assert_eq!(Tool::Pdm.requirement(None, None).as_deref(), Some("pdm[locked]"));
    // A poetry project without a lock is read without looking for one.
    let s = scan(&Python, &[("pyproject.toml", "[tool.poetry]\nname = 'x'\n")]);
    assert!(
        s.steps()
            .contains(&"poetry --version >/dev/null 2>&1 || { python3 -m pip install --quiet poetry && hash -r; }")
    );
    assert_eq!(s.warnings, Vec::<String>::new());
}

#[test]
fn nox_runs_the_session_of_the_tests() {
    let noxfile = "import nox\n\n@nox.session(python=['3.10', '3.14'])\n@nox.parametrize('x', [1, 2])\ndef tests(session, x):\n    session.run('pytest')\n\n@nox.session\ndef docs(session):\n    pass\n";
    assert_eq!(nox_test_session(noxfile), Some("tests"));
    assert_eq!(nox_test_session("@nox.session\ndef lint(session):\n    pass\ndef test(x):\n    pass\n"), None);
    let s = scan(&Python, &[("setup.py", ""), ("noxfile.py", noxfile)]);
    assert!(s.tests().contains(&"nox -s tests --no-error-on-missing-interpreters"), "{:?}", s.tests());
}

#[test]
fn runners_are_bootstrapped_into_the_interpreter_the_tests_use() {
    let bootstrap = |runner: &str| {
        format!("{runner} --version >/dev/null 2>&1 || {{ python3 -m pip install {runner} && hash -r; }}")
    };
    let project = "[project]\nname = 'x'\n";
    let uv = scan(&Python, &[("pyproject.toml", project), ("uv.lock", ""), ("noxfile.py", "import nox\n")]);
    assert!(uv.steps().contains(&bootstrap("nox").as_str()), "{:?}", uv.steps());
    let poetry = scan(&Python, &[("pyproject.toml", project), ("poetry.lock", ""), ("tox.ini", "[tox]\n")]);
    assert!(poetry.steps().contains(&bootstrap("tox").as_str()), "{:?}", poetry.steps());
    // pdm keeps its own environment: a runner installed into the interpreter is not its.
    let pdm = scan(&Python, &[("pyproject.toml", project), ("pdm.lock", ""), ("noxfile.py", "")]);
    assert!(!pdm.steps().contains(&bootstrap("nox").as_str()), "{:?}", pdm.steps());
}

#[test]
fn setuptools_test_extras_outside_pyproject() {
    let extras = |files: &[(&str, &str)]| {
        let (_dir, repo) = crate::detect::testing::repo_with(files);
        setuptools_test_extras(&repo, RelPath::root())
    };
    let setup_py = "tests_require = ['pytest']\nextras_require = {\"tests\": tests_require, 'docs': ['sphinx']}\nsetup(name='x', extras_require=extras_require)\n";
    assert_eq!(extras(&[("setup.py", setup_py)]), ["tests"]);
    assert_eq!(extras(&[("setup.py", "setup(extras_require=dict(testing=['pytest'], docs=['x']))")]), ["testing"]);
    let setup_cfg =
        "[options.extras_require]\ndocs = sphinx\ntest =\n    pytest\n    dev = not-a-key\n[flake8]\ndev = x\n";
    assert_eq!(extras(&[("setup.py", "setup()"), ("setup.cfg", setup_cfg)]), ["test"]);
    assert!(extras(&[("setup.py", "setup(name='tests')")]).is_empty());
}

#[test]
fn a_release_workflow_that_runs_the_tests_is_read_unless_its_line_ships() {
    let build_release = "name: build\njobs:\n  tests:\n    steps:\n      - run: pip install tox\n      - run: tox -e py\n  release:\n    steps:\n      - run: pip install keyring\n      - run: pytest && twine upload dist/*\n";
    let s = scan(&Python, &[("setup.py", ""), (".github/workflows/build-release.yml", build_release)]);
    let steps = s.steps();
    assert!(steps.iter().any(|c| c.starts_with("hanzo_pip_each 'installed by the CI test job' -- tox")), "{steps:?}");
    assert!(!steps.iter().any(|c| c.contains("keyring")), "{steps:?}");
}

#[test]
fn test_requirements_named_before_the_word() {
    for name in ["test_requirements.txt", "dev-requirements.txt", "tests-requirements.txt", "testing_requirements.txt"]
    {
        assert!(is_test_requirements(name), "{name}");
    }
    for name in ["docs-requirements.txt", "requirements.txt", "latest_requirements.txt", "test.txt"] {
        assert!(!is_test_requirements(name), "{name}");
    }
    let s = scan(
        &Python,
        &[("setup.py", ""), ("test_requirements.txt", "pytest\n"), ("docs-requirements.txt", "sphinx\n")],
    );
    let installs: Vec<&str> = s.steps().into_iter().filter(|c| c.contains("pip install -")).collect();
    assert_eq!(installs, ["python3 -m pip install -r test_requirements.txt", "python3 -m pip install -e ."]);
}

#[test]
fn tox_runs_its_matrix_once_for_the_python_here_when_pytest_is_not_the_runner() {
    let tox = "[tox]\nenvlist = py{39,310}-{unit,nose}\n[testenv]\ndeps =\n    nose: nose\ncommands =\n    unit: python -m unittest\n";
    let s = scan(&Python, &[("setup.py", ""), ("tox.ini", tox)]);
    // The first matrix variant whose factor the deps name, as for its deps.
    assert_eq!(s.tests(), ["tox -e py-nose"]);
    let with_pytest = scan(&Python, &[("setup.py", ""), ("tox.ini", tox), ("conftest.py", "")]);
    assert_eq!(with_pytest.tests(), ["python3 -m pytest", "tox"], "pytest in the interpreter is the quicker check");
}

#[test]
fn pytest_runs_the_folders_tox_s_test_environment_gives_it() {
    let tox =
        "[tox]\nenv_list = py{3.12,3.13}\n[testenv]\ncommands =\n    coverage run -m pytest tests/unit/ -s {posargs}\n";
    let s = scan(&Python, &[("setup.py", ""), ("tox.ini", tox), ("conftest.py", "")]);
    assert_eq!(s.tests(), ["python3 -m pytest tests/unit/ -s", "tox"]);
    // With no arguments for tox to pass on, `{posargs}` is its default: the folder to run.
    let tox = "[tox]\n[testenv]\ncommands =\n    pytest --cov=pkg --cov-report=xml {posargs: tests}\n";
    let s =
        scan(&Python, &[("setup.py", ""), ("tox.ini", tox), ("pytest.ini", "[pytest]\naddopts = --doctest-modules\n")]);
    assert_eq!(s.tests()[0], "python3 -m pytest --cov=pkg --cov-report=xml tests");
    // tox's older `[]` is `{posargs}` too, when it stands alone.
    let tox = "[tox]\n[testenv]\ncommands =\n    pytest tests []\n";
    let s = scan(&Python, &[("setup.py", ""), ("tox.ini", tox), ("conftest.py", "")]);
    assert_eq!(s.tests()[0], "python3 -m pytest tests");
    // Only a folder to run is worth taking over; tox's own placeholders stay tox's.
    for commands in ["pytest {posargs}", "pytest -x", "pytest --basetemp={envtmpdir} tests"] {
        let tox = format!("[tox]\n[testenv]\ncommands = {commands}\n");
        let s = scan(&Python, &[("setup.py", ""), ("tox.ini", &tox), ("conftest.py", "")]);
        assert_eq!(s.tests()[0], "python3 -m pytest", "{commands}");
    }
}

#[test]
fn a_shell_script_that_wraps_pytest_is_the_project_s_runner() {
    let script = "#!/bin/bash\nREQUESTS_CA_BUNDLE=`python3 -m pytest_httpbin.certs` exec pytest \"$@\"\n";
    let s = scan(&Python, &[("setup.py", ""), ("runtests.sh", script), ("conftest.py", "")]);
    assert_eq!(s.tests(), ["bash runtests.sh", "python3 -m pytest"]);
    // A script of that name that runs something else is not the suite's runner.
    let other = scan(
        &Python,
        &[("setup.py", ""), ("runtests.sh", "#!/bin/sh\n# pytest wrapper\nmake check\n"), ("conftest.py", "")],
    );
    assert_eq!(other.tests(), ["python3 -m pytest"]);
}

#[test]
fn an_invoke_test_task_is_the_project_s_way_to_run_its_suite() {
    let tasks =
        "from invoke import task\n\n@task\ndef test(c, capture=\"no\", pty=True):\n    c.run(\"pytest\", pty=pty)\n";
    let s = scan(&Python, &[("setup.py", ""), ("tasks.py", tasks), ("conftest.py", "")]);
    assert_eq!(s.tests(), ["inv test", "python3 -m pytest"]);
    assert!(
        s.steps().contains(&"inv --version >/dev/null 2>&1 || { python3 -m pip install invoke && hash -r; }"),
        "{:?}",
        s.steps()
    );
    // Tasks without a `test` one, or a `tasks.py` that is not invoke's, run no suite.
    for other in ["from invoke import task\n\n@task\ndef build(c):\n    pass\n", "@task\ndef test(c):\n    pass\n"] {
        let s = scan(&Python, &[("setup.py", ""), ("tasks.py", other), ("conftest.py", "")]);
        assert_eq!(s.tests(), ["python3 -m pytest"], "{other}");
    }
}

#[test]
fn scm_versioned_projects_install_their_requirements_first() {
    let pyproject = "[build-system]\nrequires = ['setuptools>=64', 'setuptools_scm>=8']\n[project]\nname = 'Plug_Gy'\ndependencies = ['attrs>=23']\n[project.optional-dependencies]\ntesting = ['pytest>=8', 'plug-gy[extra]']\nextra = ['rich']\ndocs = ['sphinx']\n";
    let s = scan(&Python, &[("pyproject.toml", pyproject)]);
    let installs: Vec<&str> =
        s.steps().into_iter().filter(|c| c.contains("pip install") || c.starts_with("hanzo_pip_each")).collect();
    // The project would be 0.0.0 (no .git) and pytest needs a real pluggy: its
    // requirements (the self-reference followed) first, then the project on its own.
    assert_eq!(
        installs,
        [
            "python3 -m pip install 'attrs>=23' 'pytest>=8' rich",
            "{ [ -e .git ] || export SETUPTOOLS_SCM_PRETEND_VERSION=0.0.0; python3 -m pip install --no-deps -e .; }",
        ]
    );
    // Dynamic dependencies are known only to the build: pip resolves them as usual.
    let dynamic = pyproject.replace("[project]\n", "[project]\ndynamic = ['dependencies']\n");
    let s = scan(&Python, &[("pyproject.toml", &dynamic)]);
    assert!(s.steps().iter().any(|c| c.contains("python3 -m pip install -e '.[testing]'")), "{:?}", s.steps());
}

#[test]
fn uv_path_sources_outside_the_checkout_are_warned_about() {
    let pyproject = "[project]\nname = 'app'\n[tool.uv.sources]\nplugins = { path = '../plugins', editable = true }\nlocal = { path = 'libs/local' }\nweb = { git = 'https://example.com/web' }\n";
    let s = scan(&Python, &[("pyproject.toml", pyproject), ("uv.lock", "version = 1\n")]);
    let warnings: Vec<String> = s.findings.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .starts_with("pyproject.toml: tool.uv.sources.plugins is the path `../plugins`, outside the checkout")
    );
    assert!(warnings[0].ends_with("or vendor it into the repository)"));
    // Without a lock uv resolves every extra and group at once and stops on the missing path:
    // pip installs the project and the extras asked for, and ignores uv's sources.
    let optional = pyproject.replace(
        "name = 'app'\n",
        "name = 'app'\ndependencies = ['httpx']\n[project.optional-dependencies]\ntest = ['pytest']\n[dependency-groups]\ninternal = ['plugins']\n",
    );
    let s = scan(&Python, &[("pyproject.toml", &optional)]);
    assert!(!s.steps().iter().any(|c| c.contains("uv export")), "{:?}", s.steps());
    assert!(s.steps().contains(&"python3 -m pip install -e '.[test]'"), "{:?}", s.steps());
    let warnings: Vec<String> = s.findings.warnings.iter().map(ToString::to_string).collect();
    assert!(warnings[0].ends_with("so the draft installs with pip, which leaves it out"), "{warnings:?}");
}

#[test]
fn uv_and_poetry_runs_go_to_the_interpreter() {
    let with = |command: &str, managers: &[&str]| in_the_interpreter(command, managers);
    assert_eq!(with("uv run pytest -x", &["uv"]).as_deref(), Some("python3 -m pytest -x"));
    assert_eq!(
        with("uv run --frozen coverage run -m pytest", &["uv"]).as_deref(),
        Some("python3 -m coverage run -m pytest")
    );
    assert_eq!(with("poetry run python -m unittest", &["poetry"]).as_deref(), Some("python3 -m unittest"));
    assert_eq!(with("uv run bash scripts/test.sh", &["uv"]).as_deref(), Some("bash scripts/test.sh"));
    // Another environment than the one installed, or a project that does not use uv.
    assert_eq!(with("uv run --only-group tox tox run -e py", &["uv"]), None);
    // The groups and extras the export installed (see `Requested`).
    assert_eq!(
        with("uv run --locked --group test --extra=yaml --all-extras pytest --cov", &["uv"]).as_deref(),
        Some("python3 -m pytest --cov")
    );
    assert_eq!(with("uv run --group", &["uv"]), None);
    assert_eq!(with("uv run --with x pytest", &["uv"]), None);
    assert_eq!(with("uv run pytest", &["pip"]), None);
    assert_eq!(with("pdm run pytest", &["pdm"]), None);
    // A bare runner goes through the interpreter that install filled, found on any PATH.
    assert_eq!(with("pytest tests --cov", &["pip"]).as_deref(), Some("python3 -m pytest tests --cov"));
    assert_eq!(with("py.test -x", &["poetry"]).as_deref(), Some("python3 -m pytest -x"));
    assert_eq!(with("tox -e py", &["uv", "npm"]).as_deref(), Some("python3 -m tox -e py"));
    // CI's artifact of another job is not in a checkout: tox builds the package itself.
    let built_elsewhere = [
        "tox run -e py --installpkg `find dist/*.tar.gz`",
        "tox run --installpkg dist/*.whl -e py",
        "tox run --installpkg=dist/x.whl -e py",
        "python -m tox run --installpkg $(ls dist/*.whl | head -1) -e py",
    ];
    for command in built_elsewhere {
        let local = with(command, &["pip"]);
        assert!(matches!(local.as_deref(), Some("python3 -m tox run -e py")), "{command} -> {local:?}");
    }
    assert_eq!(with("coverage run -m pytest", &["pip"]).as_deref(), Some("python3 -m coverage run -m pytest"));
    assert_eq!(with("pytest", &["pipenv"]), None, "pipenv's environment is its own");
    assert_eq!(with("pytest", &["npm"]), None);
    assert_eq!(with("pytest-watch", &["pip"]), None);
    assert_eq!(with("python -m pytest", &["pip"]).as_deref(), Some("python3 -m pytest"));
    assert_eq!(with("python2 -m pytest", &["pip"]), None);
    // Django's runner, also by the path CI's `which` gives.
    assert_eq!(
        with("`which django-admin` test tests --settings=tests.settings", &["pip"]).as_deref(),
        Some("python3 -m django test tests --settings=tests.settings")
    );
    assert_eq!(with("$(which django-admin.py) test", &["pip"]).as_deref(), Some("python3 -m django test"));
    assert_eq!(
        with("coverage run `which django-admin` test", &["pip"]).as_deref(),
        Some("python3 -m coverage run `which django-admin` test"),
        "coverage runs a file: its path stays"
    );
    assert!(crate::detect::ecosystems::is_test_command("coverage run `which django-admin.py` test tests"));
    assert!(crate::detect::ecosystems::is_test_command("django-admin test --settings=tests.settings"));
    assert!(!crate::detect::ecosystems::is_test_command("django-admin testserver"));
    assert_eq!(
        crate::detect::ecosystems::in_installed_environment("cd api && X='a b' uv run pytest", &["uv"]),
        "cd api && X='a b' python3 -m pytest"
    );
}

#[test]
fn uv_exports_the_extras_the_repos_uv_commands_ask_for_that_each_project_declares() {
    let workflow =
        "jobs:\n  t:\n    steps:\n      - run: uv run --extra yaml --extra=msgpack --group test --group lint pytest\n";
    let app = "[project]\nname = 'app'\n[project.optional-dependencies]\nyaml = ['pyyaml']\n[dependency-groups]\ntest = ['pytest']\nlint = ['ruff']\n";
    let tool = "[project]\nname = 'tool'\n";
    let s = scan(
        &Python,
        &[
            (".github/workflows/ci.yml", workflow),
            ("pyproject.toml", app),
            ("uv.lock", ""),
            ("tool/pyproject.toml", tool),
            ("tool/uv.lock", ""),
        ],
    );
    let exports: Vec<&str> = s.steps().into_iter().filter(|c| c.contains("--no-emit-workspace")).collect();
    assert_eq!(exports.len(), 2, "{exports:?}");
    // The test group once (it is exported anyway), then the group and extra it declares.
    assert!(
        exports[0].starts_with("uv export --frozen --group test --group lint --extra yaml --no-hashes"),
        "{}",
        exports[0]
    );
    assert!(exports[1].contains("uv export --frozen --no-hashes"), "an extra it lacks is not asked: {}", exports[1]);
    let all = "jobs:\n  t:\n    steps:\n      - run: uv sync --all-extras --extra yaml\n      - run: make test\n";
    let s = scan(&Python, &[(".github/workflows/ci.yml", all), ("pyproject.toml", app), ("uv.lock", "")]);
    assert!(
        s.steps().iter().any(|c| c.starts_with("uv export --frozen --group test --all-extras --no-hashes")),
        "{:?}",
        s.steps()
    );
}

#[test]
fn uv_exports_the_extras_tox_installs_for_the_tests() {
    // PyHamcrest: `extras = {env:TOX_AP_TEST_EXTRAS:tests}`, the variable unset here.
    let app = "[project]\nname = 'app'\n[project.optional-dependencies]\ntests = ['pytest']\ndocs = ['sphinx']\n";
    let tox =
        "[tox]\nenvlist = py312\n[testenv]\nextras = {env:TOX_AP_TEST_EXTRAS:tests}\ncommands = python -m pytest\n";
    let s = scan(&Python, &[("pyproject.toml", app), ("uv.lock", ""), ("tox.ini", tox)]);
    let exports: Vec<&str> = s.steps().into_iter().filter(|c| c.contains("--no-emit-workspace")).collect();
    assert_eq!(exports.len(), 1, "{:?}", s.steps());
    assert!(exports[0].starts_with("uv export --frozen --extra tests --no-hashes"), "{}", exports[0]);
}

#[test]
fn only_the_jobs_that_run_tests_ask_uv_for_groups() {
    // The docs build and a screenshot job ask for their own group; the test job for none.
    let ci = "jobs:\n  t:\n    steps:\n      - run: uv run pytest\n  shots:\n    steps:\n      - run: uv sync --no-default-groups --group docs\n      - run: uv run rich-codex\n";
    let docs = "jobs:\n  build:\n    steps:\n      - run: uv sync --group docs\n      - run: uv run mkdocs build\n";
    let app =
        "[project]\nname = 'app'\n[dependency-groups]\ndocs = [{include-group = 'dev'}, 'mkdocs']\ndev = ['pytest']\n";
    let s = scan(
        &Python,
        &[
            (".github/workflows/ci.yml", ci),
            (".github/workflows/build-docs.yml", docs),
            ("pyproject.toml", app),
            ("uv.lock", ""),
        ],
    );
    let export = s.steps().into_iter().find(|c| c.contains("--no-emit-workspace")).unwrap_or_default();
    assert!(export.starts_with("uv export --frozen --no-hashes"), "{export}");
}

#[test]
fn poetry_exports_the_extras_and_groups_the_repos_poetry_install_asks_for() {
    let workflow = "jobs:\n  t:\n    steps:\n      - run: poetry install -E redis --extras 'msgpack yaml' --with docs,typing\n      - run: poetry run pytest\n";
    let pyproject = "[tool.poetry]\nname = 'x'\n[tool.poetry.dependencies]\npython = '^3.9'\n[tool.poetry.extras]\nredis = ['redis']\nyaml = ['pyyaml']\n[tool.poetry.group.docs]\noptional = true\n[tool.poetry.group.test.dependencies]\npytest = '*'\n";
    let s =
        scan(&Python, &[(".github/workflows/ci.yml", workflow), ("pyproject.toml", pyproject), ("poetry.lock", "")]);
    let export = s.steps().into_iter().find(|c| c.contains("poetry export --without-hashes")).unwrap_or_default();
    // The default group, the optional group asked for, and the declared extras asked for:
    // `typing` and `msgpack` are not the project's.
    assert!(
        export.contains("poetry export --without-hashes --with test,docs --extras redis --extras yaml |"),
        "{export}"
    );
    let all = "jobs:\n  t:\n    steps:\n      - run: poetry install --all-extras\n      - run: poetry run pytest\n";
    let s = scan(&Python, &[(".github/workflows/ci.yml", all), ("pyproject.toml", pyproject), ("poetry.lock", "")]);
    assert!(s.steps().iter().any(|c| c.contains("--with test --all-extras |")), "{:?}", s.steps());
}

#[test]
fn test_runner_scripts_run_the_suite() {
    use crate::detect::ecosystems::is_test_command;
    for line in [
        "python runtests.py --mysql-user=root -s -v2",
        "python3 ./runtests.py",
        "python -Wall tests/runtests.py --settings=test_sqlite",
        "python -W error::DeprecationWarning -X dev runtests.py --fast",
        "python3.12 -u run_tests.py",
        "./tests/runtests.py --verbosity 2",
        "coverage run --source=app runtests.py",
        "coverage run --parallel-mode --source wagtail runtests.py",
        "python -m coverage run runtests.py",
        "cd tests && python runtests.py",
        "PYTHONPATH=. python run-tests.py",
    ] {
        assert!(is_test_command(line), "{line}");
    }
    for line in ["python setup.py build_ext -i", "flake8 runtests.py", "python runtests_helper.py", "cat runtests.py"] {
        assert!(!is_test_command(line), "{line}");
    }
    // Without CI, the script is offered before what the configuration implies.
    let setup = "from setuptools import setup\nsetup(name='lib')\n";
    let s = scan(&Python, &[("setup.py", setup), ("runtests.py", "import unittest\n"), ("tests/conftest.py", "")]);
    assert_eq!(s.tests(), ["python3 runtests.py", "python3 -m pytest"]);
    let s = scan(&Python, &[("setup.py", setup), ("tests/runtests.py", ""), ("tests/test_a.py", "")]);
    assert_eq!(s.tests(), ["python3 tests/runtests.py"]);
    let pdm = "[project]\nname = 'lib'\n[tool.pdm]\n";
    let s = scan(&Python, &[("api/pyproject.toml", pdm), ("api/run_tests.py", "")]);
    assert_eq!(s.tests(), ["(cd api && pdm run python run_tests.py)"]);
    let s = scan(&Python, &[("setup.py", setup), ("scripts/runtests.py", "")]);
    assert_eq!(s.tests(), Vec::<&str>::new());
}

#[test]
fn a_hatch_matrix_variant_is_the_python_on_path() {
    let on_path = r#"+py="$(python3 -c 'import sys; print(*sys.version_info[:2], sep=".")')""#;
    assert_eq!(
        in_the_interpreter("hatch run +py=3.8 test:default --color=yes", &["hatch"]),
        Some(format!("hatch run {on_path} test:default --color=yes"))
    );
    // Options after the script are the script's own; no variant picked, nothing to change.
    assert_eq!(on_the_python_on_path("hatch run test:default +py=3.8"), None);
    assert_eq!(on_the_python_on_path("hatch run test:cov"), None);
    use crate::detect::ecosystems::is_test_command;
    assert!(is_test_command("hatch run +py=3.12 test:default --color=yes"));
    assert!(is_test_command("hatch run +py=3.12 -version=2 all:test"));
    assert!(!is_test_command("hatch run test:python -m pip list"));
}

#[test]
fn dependency_groups_with_includes() {
    let pyproject: toml::Table = "[dependency-groups]\ntest = ['pytest>=8', {include-group = 'coverage'}]\ncoverage = ['coverage[toml]']\ndocs = ['sphinx']\ndev = [{include-group = 'test'}, 'ruff']\n".parse().unwrap();
    let mut found = dependency_groups(Some(&pyproject));
    found.sort();
    // The test group says what the tests need; dev (docs, linters) stays out beside it.
    assert_eq!(found, ["coverage[toml]", "pytest>=8"]);
    let only_dev: toml::Table = "[dependency-groups]\ndev = ['pytest>=8', 'ruff']\n".parse().unwrap();
    assert_eq!(dependency_groups(Some(&only_dev)), ["pytest>=8", "ruff"]);
    assert!(is_scm_version_plugin("setuptools_scm[toml]>=8"));
    assert!(is_scm_version_plugin("hatch-vcs"));
    assert!(!is_scm_version_plugin("setuptools>=61"));
}

#[test]
fn python_pins() {
    assert_eq!(pinned_python("==3.12.*").as_deref(), Some("3.12"));
    assert_eq!(pinned_python("~=3.11.4").as_deref(), Some("3.11"));
    assert_eq!(pinned_python("~3.10").as_deref(), Some("3.10"));
    assert_eq!(pinned_python(">=3.12, <3.13").as_deref(), Some("3.12"));
    for floor in [">=3.11", "^3.11", ">=3.9,<4", "~=3.11"] {
        assert_eq!(pinned_python(floor), None, "{floor}");
    }
}

#[test]
fn python_ranges_are_a_floor_and_the_first_minor_kept_out() {
    let arguments = |range: &str| PythonRange::parse(range).map(|r| r.arguments());
    let cases: &[(&str, &[&str])] = &[
        (">=3.9", &["3.9"]),
        (">=3.9, <3.13", &["3.9", "3.13"]),
        (">=3.8.1,<4.0", &["3.8", "4.0"]),
        (">3.8", &["3.8"]),
        (">=3.10,<=3.12", &["3.10", "3.13"]),
        (">=3.10,<3.12.4", &["3.10", "3.13"]),
        ("==3.12.*", &["3.12", "3.13"]),
        ("~=3.11.4", &["3.11", "3.12"]),
        ("~=3.11", &["3.11", "4.0"]),
        ("^3.9", &["3.9", "4.0"]),
        ("~3.10", &["3.10", "3.11"]),
        (">=3.9,!=3.9.1", &["3.9"]),
        (">=3.9, >=3.11", &["3.11"]),
    ];
    for (range, expected) in cases {
        assert_eq!(arguments(range), Some(expected.iter().map(|s| s.to_string()).collect()), "{range}");
    }
    // No floor, nothing in between, alternatives, or no version at all: no range.
    for range in ["<3.13", ">=3.13,<3.12", ">=3.12,<3.12", "^3.9 || ^4.0", ">=3.9|>=4", "*", "", ">=latest"] {
        assert_eq!(PythonRange::parse(range), None, "{range}");
    }
}

#[test]
fn without_a_version_file_or_range_the_pythons_ci_tests_on_bound_the_choice() {
    let tests = "jobs:\n  test:\n    strategy:\n      matrix:\n        python-version: ['3.13', '3.12', '3.14']\n    steps:\n      - uses: actions/setup-python@v6\n        with:\n          python-version: ${{ matrix.python-version }}\n      - run: python manage.py test\n  docs:\n    steps:\n      - uses: actions/setup-python@v6\n        with:\n          python-version: '3.13'\n";
    let files = [("requirements.txt", "django\n"), ("manage.py", ""), (".github/workflows/ci.yml", tests)];
    let d = crate::detect::testing::detection(&files);
    // The oldest CI tests on is the floor; the newest, plus one, the bound.
    assert!(
        d.install.contains("hanzo_python_newest 3.12 3.15  # .github/workflows/ci.yml#jobs.test.steps[0]"),
        "{}",
        d.install
    );
    // A range in pyproject.toml says more than CI does of the floor; CI still bounds it.
    let pyproject = "[project]\nname = 'x'\nrequires-python = '>=3.10'\n";
    let d = crate::detect::testing::detection(&[files[1], files[2], ("pyproject.toml", pyproject)]);
    assert!(
        d.install.contains("hanzo_python_newest 3.10 3.15  # pyproject.toml#project.requires-python"),
        "{}",
        d.install
    );
    // A tighter range keeps its own bound.
    let pyproject = "[project]\nname = 'x'\nrequires-python = '>=3.10,<3.14'\n";
    let d = crate::detect::testing::detection(&[files[1], files[2], ("pyproject.toml", pyproject)]);
    assert!(
        d.install.contains("hanzo_python_newest 3.10 3.14  # pyproject.toml#project.requires-python"),
        "{}",
        d.install
    );
    // A setup CI does not name a minor of (`3.x`) may be any newer one: no bound.
    let any = tests.replace("python-version: '3.13'", "python-version: '3.x'");
    let d = crate::detect::testing::detection(&[files[0], files[1], (".github/workflows/ci.yml", &any)]);
    assert!(
        d.install.contains("hanzo_python_newest 3.12  # .github/workflows/ci.yml#jobs.test.steps[0]"),
        "{}",
        d.install
    );
    // CI testing only older Pythons than the range's floor bounds nothing.
    let old = tests.replace("['3.13', '3.12', '3.14']", "['3.8', '3.9']").replace("'3.13'", "'3.9'");
    let pyproject = "[project]\nname = 'x'\nrequires-python = '>=3.10'\n";
    let d = crate::detect::testing::detection(&[
        files[1],
        (".github/workflows/ci.yml", &old),
        ("pyproject.toml", pyproject),
    ]);
    assert!(d.install.contains("hanzo_python_newest 3.10  # pyproject.toml#project.requires-python"), "{}", d.install);
}

#[test]
fn without_ci_that_says_the_classifiers_bound_the_choice() {
    // Azure Pipelines tests 3.7 to 3.11, and the classifiers stop there: 3.13 cannot run the
    // project's pinned dependencies.
    let pyproject = "[project]\nname = 'x'\nrequires-python = '>=3.7'\nclassifiers = [\n  'Programming Language :: Python :: 3',\n  'Programming Language :: Python :: 3.7',\n  'Programming Language :: Python :: 3.11',\n  'Programming Language :: Python :: Implementation :: CPython',\n]\n";
    let d = crate::detect::testing::detection(&[("pyproject.toml", pyproject), ("tests/test_x.py", "")]);
    assert!(
        d.install.contains("hanzo_python_newest 3.7 3.12  # pyproject.toml#project.requires-python"),
        "{}",
        d.install
    );
    // CI's matrix says more than the classifiers do.
    let tests = "jobs:\n  test:\n    strategy:\n      matrix:\n        python-version: ['3.12', '3.13']\n    steps:\n      - uses: actions/setup-python@v6\n        with:\n          python-version: ${{ matrix.python-version }}\n      - run: pytest\n";
    let d = crate::detect::testing::detection(&[("pyproject.toml", pyproject), (".github/workflows/ci.yml", tests)]);
    assert!(
        d.install.contains("hanzo_python_newest 3.7 3.14  # pyproject.toml#project.requires-python"),
        "{}",
        d.install
    );
    // A matrix of objects whose PyPy cell is another Python: the CPython cells still bound it.
    let tests = "jobs:\n  test:\n    strategy:\n      matrix:\n        include:\n          - {python: '3.12', tox: py312}\n          - {python: '3.9', tox: py39}\n          - {python: 'pypy-3.10', tox: pypy310}\n    steps:\n      - uses: actions/setup-python@v6\n        with:\n          python-version: ${{ matrix.python }}\n      - run: pytest\n";
    let d = crate::detect::testing::detection(&[("pyproject.toml", pyproject), (".github/workflows/ci.yml", tests)]);
    assert!(
        d.install.contains("hanzo_python_newest 3.7 3.13  # pyproject.toml#project.requires-python"),
        "{}",
        d.install
    );
    // A `3.x` may be any newer one: CI sets no ceiling, and the classifiers say.
    let tests = tests.replace("'pypy-3.10'", "'3.x'");
    let d = crate::detect::testing::detection(&[("pyproject.toml", pyproject), (".github/workflows/ci.yml", &tests)]);
    assert!(d.install.contains("hanzo_python_newest 3.7 3.12  # pyproject.toml"), "{}", d.install);
}

#[test]
fn ci_s_make_target_installs_the_project_as_ci_does() {
    // CI runs `make install-dev` then `make check`; the Makefile's `install-dev` installs the
    // checkout with the `dev` extra setup.py declares, and `check` runs the tests through its
    // prerequisite `test`. uv settings without a lock do not make uv the way in.
    let workflow = "jobs:\n  test:\n    steps:\n      - run: |\n          python -m pip install --upgrade pip\n          make install-dev\n      - run: make check\n";
    let makefile = "ifdef UV\n    PIP := uv pip\nelse\n    PIP := pip\nendif\n\ninstall:\n\t$(PIP) install -e .\n\ninstall-dev:\n\t$(PIP) install -e \".[dev]\"\n\nstyle:\n\tpre-commit run --all-files\n\ntest:\n\tpython -m unittest\n\ncheck: style test\n";
    let pyproject =
        "[project]\nname = 'lib'\ndynamic = ['optional-dependencies']\n[tool.uv.sources]\nlibc = { path = './libc' }\n";
    let setup = "from setuptools import setup\nsetup(extras_require={'dev': ['duckdb', 'pytz']})\n";
    let files = [
        ("pyproject.toml", pyproject),
        ("setup.py", setup),
        ("Makefile", makefile),
        (".github/workflows/ci.yml", workflow),
    ];
    let s = scan(&Python, &files);
    assert!(!s.steps().iter().any(|c| c.contains("uv export")), "{:?}", s.steps());
    assert!(s.steps().contains(&"python3 -m pip install -e '.[dev]'"), "{:?}", s.steps());
    // Without CI's install line, `[tool.uv]` still makes uv the way in.
    let s = scan(&Python, &files[..3]);
    assert!(s.steps().iter().any(|c| c.contains("uv export")), "{:?}", s.steps());
}

#[test]
fn django_storages_reads_no_default_keys_where_the_settings_give_them() {
    // A serializer imports the S3 backend; the settings package (`conf/`, which manage.py
    // names through a helper, with an `includes/` module) gives the keys under names of its own.
    let manage = "from shop.setup import setup_env\nsetup_env()\n";
    let base = "AWS_S3_ACCESS_KEY_ID = config(\"S3_ACCESS_KEY_ID\", default=None)\nAWS_S3_SECRET_ACCESS_KEY = config(\"S3_SECRET_ACCESS_KEY\", default=None)\n";
    let serializer = "from storages.backends.s3 import S3Storage\n\nclass Doc(Serializer):\n    pass\n";
    let mut files = vec![
        ("manage.py", manage),
        ("shop/conf/dev.py", "from .includes.base import *\n"),
        ("shop/api/serializers.py", serializer),
        ("pyproject.toml", "[project]\nname = 'shop'\n"),
    ];
    let secrets = |files: &[(&str, &str)]| crate::detect::testing::detection(files).secrets;
    assert!(secrets(&files).contains(&"AWS_SECRET_ACCESS_KEY".to_string()), "no settings give the keys");
    files.push(("shop/conf/includes/base.py", base));
    assert!(!secrets(&files).contains(&"AWS_SECRET_ACCESS_KEY".to_string()), "{:?}", secrets(&files));
}

#[test]
fn a_setup_cfg_of_linter_settings_is_no_python_project() {
    let flake8 = scan(&Python, &[("setup.cfg", "[flake8]\nmax-line-length = 110\n"), ("Cargo.toml", "[package]\n")]);
    assert!(!flake8.steps().iter().any(|c| c.contains("pip install")), "{:?}", flake8.steps());
    let package = scan(&Python, &[("setup.cfg", "[metadata]\nname = shop\n\n[options]\npackages = find:\n")]);
    assert!(package.steps().iter().any(|c| c.contains("pip install -e .")), "{:?}", package.steps());
}

#[test]
fn a_venv_over_the_interpreter_only_where_a_task_runs_uv_unsynced() {
    let pyproject = "[project]\nname = 'cal'\nrequires-python = '>=3.10'\n";
    let venv = |makefile: &str| {
        let s = scan(&Python, &[("pyproject.toml", pyproject), ("uv.lock", "version = 1\n"), ("Makefile", makefile)]);
        s.steps().iter().any(|c| c.starts_with("hanzo_uv_venv"))
    };
    assert!(venv("UV_RUN = uv run --no-sync\n\ntest:\n\t$(UV_RUN) pytest\n"));
    assert!(venv("test:\n\tuv run --frozen --no-sync pytest -q\n"));
    // A synced run fills `.venv` itself; `--no-sync-x` is another option.
    assert!(!venv("test:\n\tuv run pytest\n"));
    assert!(!venv("test:\n\tuv run --no-sync-x pytest\n"));
}

#[test]
fn a_uv_projects_export_takes_the_extras_its_nox_test_session_installs() {
    let pyproject = "[project]\nname = 'dd'\nrequires-python = '>=3.9'\n[project.optional-dependencies]\ncli = ['click']\ntest = ['pytest']\ndocs = ['sphinx']\n";
    let noxfile = "import nox\n\n@nox.session\ndef flake8(session):\n    session.install('.[docs]')\n\n@nox.session(python=['3.9', '3.13'])\ndef pytest(session):\n    session.install('.[cli,test]')\n    session.run('pytest', 'tests')\n";
    let s = scan(&Python, &[("pyproject.toml", pyproject), ("uv.lock", "version = 1\n"), ("noxfile.py", noxfile)]);
    let export = s.steps().into_iter().find(|c| c.starts_with("uv export")).expect("an export");
    assert!(export.contains("--extra cli --extra test"), "{export}");
    assert!(!export.contains("docs"), "a lint session's extras are not the suite's: {export}");
}
