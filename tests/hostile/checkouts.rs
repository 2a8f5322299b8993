//! What a checkout can hold: YAML bombs, odd files where manifests and ignore files belong,
//! links out of the checkout, deep nesting, control characters in names, unbounded
//! services and jobs, and a git config that names programs.

use super::*;

// --- 1. YAML alias bombs --------------------------------------------------------------------

#[test]
fn yaml_alias_bombs_in_every_yaml_file_detect_reads_are_refused_within_bounds() {
    let workflow_using_action =
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./.github/actions/setup\n";
    let deep = "services:\n  db:\n    image: postgres\nx:\n".to_string() + &"- ".repeat(100_000) + "v\n";
    for (rel, text, extra) in [
        ("docker-compose.yml", alias_bomb(), vec![]),
        ("compose.yaml", deep.clone(), vec![]),
        ("docker-compose.test.yml", alias_bomb(), vec![]),
        (".github/workflows/ci.yml", alias_bomb(), vec![]),
        (".github/actions/setup/action.yml", alias_bomb(), vec![(".github/workflows/ci.yml", workflow_using_action)]),
        (".gitlab-ci.yml", alias_bomb(), vec![]),
        (".circleci/config.yml", deep.clone(), vec![]),
        (".circleci/config.yml", alias_bomb(), vec![]),
        ("pnpm-workspace.yaml", alias_bomb(), vec![("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")]),
        ("Taskfile.yml", alias_bomb(), vec![]),
        ("pubspec.yaml", alias_bomb(), vec![]),
    ] {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "package.json", "{}");
        for (path, content) in extra {
            write(dir.path(), path, content);
        }
        write(dir.path(), rel, &text);
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{rel}: {}", r.stderr);
        let warnings = warnings(&r);
        assert!(
            warnings.iter().any(|w| w.starts_with(&format!("{rel}: not read: "))
                && (w.contains("expand to more than") || w.contains("nested deeper than"))),
            "{rel}: {warnings:?}"
        );
        assert!(took < Duration::from_secs(20), "{rel}: {took:?}");
    }
    // Spring settings are scanned for the variables they name: through the same loader.
    for rel in ["src/main/resources/application.yml", "bootstrap.yaml", "app/src/main/resources/shared/svc.yml"] {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "pom.xml", "<project><artifactId>app</artifactId></project>\n");
        write(dir.path(), rel, &format!("{}spring:\n  datasource:\n    password: ${{DB_PASSWORD}}\n", alias_bomb()));
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{rel}: {}", r.stderr);
        assert!(r.stdout.contains("DB_PASSWORD"), "{rel}: the placeholder is still read: {}", r.stdout);
        assert!(took < Duration::from_secs(20), "{rel}: {took:?}");
    }
}

// --- 2. Ignore files that are not regular files ---------------------------------------------

#[test]
fn ignore_files_that_are_not_regular_files_are_skipped_by_detect_and_verify() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "package.json", r#"{"scripts":{"test":"true"}}"#);
    write(root, ".hanzo/environment.toml", "install = \"true\"\n");
    write(root, "sub/b.js", "");
    write(root, "deep/er/c.js", "");
    write(root, "big/d.js", "");
    std::fs::create_dir_all(root.join(".git/info")).unwrap();
    symlink("/dev/zero", &root.join(".gitignore"));
    symlink("/dev/zero", &root.join(".git/info/exclude"));
    symlink("/dev/zero", &root.join("sub/.ignore"));
    symlink("/dev/urandom", &root.join("sub/.gitignore"));
    mkfifo(&root.join("deep/er/.gitignore"));
    mkfifo(&root.join("deep/.ignore"));
    write(root, "big/.gitignore", &"generated/\n".repeat(30_000));
    let expected = [
        (".gitignore", "character device"),
        (".git/info/exclude", "character device"),
        ("sub/.ignore", "character device"),
        ("sub/.gitignore", "character device"),
        ("deep/er/.gitignore", "FIFO"),
        ("deep/.ignore", "FIFO"),
        ("big/.gitignore", "byte limit"),
    ];
    let (r, took) = timed(&mut capped(home.path(), root, &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "{took:?}");
    let warnings = warnings(&r);
    for (rel, why) in expected {
        assert!(
            warnings.iter().any(|w| w.starts_with(&format!("{rel}: ignore file not read (")) && w.contains(why)),
            "{rel}: {warnings:?}"
        );
    }
    // verify walks the checkout again, for its scratch copy.
    let (r, took) = timed(&mut capped(home.path(), root, &["verify", "--test", "test -f sub/b.js"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(took < Duration::from_secs(30), "{took:?}");
    for (rel, _) in expected {
        assert!(r.stderr.contains(&format!("warning: {rel}: ignore file not read")), "{rel}: {}", r.stderr);
    }
}

#[test]
fn a_global_excludes_file_that_is_not_a_regular_file_is_skipped_and_a_regular_one_applies() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{}");
    write(dir.path(), "src/a.js", "process.env.KEPT_API_TOKEN;");
    write(dir.path(), "vendored/b.js", "process.env.VENDORED_API_TOKEN;");
    // Global excludes apply inside a git repository.
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    // The default place ($HOME/.config/git/ignore), and core.excludesFile of ~/.gitconfig.
    type Make<'a> = &'a dyn Fn(&Path);
    let kinds: [(&str, Make); 4] = [
        ("a FIFO at the default place", &|home| mkfifo(&home.join(".config/git/ignore"))),
        ("a link to /dev/zero at the default place", &|home| symlink("/dev/zero", &home.join(".config/git/ignore"))),
        ("core.excludesFile naming /dev/zero", &|home| {
            write(home, ".gitconfig", "[core]\n\texcludesFile = /dev/zero\n")
        }),
        ("core.excludesFile naming a FIFO", &|home| {
            mkfifo(&home.join("global-ignore"));
            write(home, ".gitconfig", "[core]\n\texcludesFile = ~/global-ignore\n")
        }),
    ];
    for (kind, make) in kinds {
        let home = tempfile::tempdir().unwrap();
        make(home.path());
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
        assert!(took < Duration::from_secs(20), "{kind}: {took:?}");
        assert!(r.stdout.contains("KEPT_API_TOKEN") && r.stdout.contains("VENDORED_API_TOKEN"), "{kind}: {}", r.stdout);
    }
    // A regular one is the user's choice, and honoured.
    let home = tempfile::tempdir().unwrap();
    write(home.path(), ".config/git/ignore", "vendored/\n");
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("KEPT_API_TOKEN") && !r.stdout.contains("VENDORED_API_TOKEN"), "{}", r.stdout);
}

// --- 3. The proposal file -------------------------------------------------------------------

#[test]
fn a_proposal_file_that_is_no_bounded_regular_file_in_the_checkout_is_refused_by_every_command() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "environment.toml", "install = \"make\"\n");
    type Make<'a> = &'a dyn Fn(&Path);
    let kinds: [(&str, Make, &str); 5] = [
        ("a link to /dev/zero", &|p| symlink("/dev/zero", p), "resolves to /dev/zero, outside the checkout"),
        ("a FIFO", &|p| mkfifo(p), "not a regular file but a FIFO"),
        (
            "a link to a FIFO in the checkout",
            &|p| {
                mkfifo(&p.with_file_name("queue"));
                symlink("queue", p)
            },
            "not a regular file but a FIFO",
        ),
        (
            "a link out of the checkout",
            &|p| symlink(outside.path().join("environment.toml").to_str().unwrap(), p),
            "outside the checkout",
        ),
        ("a huge file", &|p| std::fs::write(p, "#".repeat(2 << 20)).unwrap(), "over the 1048576 byte limit"),
    ];
    let env_out = tempfile::tempdir().unwrap();
    let env_file = env_out.path().join("run.env");
    let commands: [&[&str]; 12] = [
        &["run", "--", "true"],
        &["export", "--to", "cursor"],
        &["detect", "--check"],
        &["detect", "--check", "--against", "saved"],
        &["secret", "list"],
        &["env-file", "--out", env_file.to_str().unwrap()],
        &["verify", "--test", "true"],
        &["diff"],
        &["save", "--yes"],
        &["pull", "--yes"],
        &["show"],
        &["detect"],
    ];
    for (kind, make, why) in kinds {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::create_dir_all(dir.path().join(".hanzo")).unwrap();
        make(&dir.path().join(".hanzo/environment.toml"));
        for args in commands {
            let mut cmd = capped(home.path(), dir.path(), args);
            cmd.env("HANZO_BASE_URL", dead_url()).env("HANZO_API_KEY", "t").timeout(Duration::from_secs(30));
            let (r, took) = timed(&mut cmd);
            assert_eq!(r.code, 2, "{kind}, {args:?}: {}", r.stderr);
            assert!(r.stderr.contains("refusing to read") && r.stderr.contains(why), "{kind}, {args:?}: {}", r.stderr);
            assert!(r.stderr.contains("hint:"), "{kind}, {args:?}: {}", r.stderr);
            assert!(took < Duration::from_secs(20), "{kind}, {args:?}: {took:?}");
        }
        // detect --force replaces what stands there (never writing through a link).
        let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect", "--force"]));
        assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
        let written = dir.path().join(".hanzo/environment.toml");
        assert!(std::fs::symlink_metadata(&written).unwrap().is_file(), "{kind}");
        assert_eq!(std::fs::read_to_string(outside.path().join("environment.toml")).unwrap(), "install = \"make\"\n");
    }
}

// --- 13. .hanzo linked out of the checkout --------------------------------------------------

#[test]
fn detect_and_pull_never_write_through_a_hanzo_link_out_of_the_checkout() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", "{}");
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    symlink(elsewhere.path().to_str().unwrap(), &dir.path().join(".hanzo"));
    for args in [&["detect"][..], &["detect", "--force"], &["pull", "--yes"]] {
        let mut cmd = capped(home.path(), dir.path(), args);
        cmd.env("HANZO_BASE_URL", dead_url()).env("HANZO_API_KEY", "t");
        let (r, _) = timed(&mut cmd);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("refusing to write") && r.stderr.contains("outside the checkout"), "{}", r.stderr);
        assert!(std::fs::read_dir(elsewhere.path()).unwrap().next().is_none(), "{args:?} wrote through the link");
    }
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect", "--stdout"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

// --- 14. A manifest that is a FIFO or a device ----------------------------------------------

#[test]
fn a_manifest_that_is_a_fifo_or_a_device_is_named_in_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("package.json"));
    symlink("/dev/zero", &dir.path().join("Cargo.toml"));
    mkfifo(&dir.path().join("api/go.mod"));
    symlink("/dev/null", &dir.path().join("api/pyproject.toml"));
    write(dir.path(), "requirements.txt", "pytest\n");
    let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "{took:?}");
    let warnings = warnings(&r);
    for (rel, kind) in [
        ("package.json", "a FIFO"),
        ("Cargo.toml", "a character device"),
        ("api/go.mod", "a FIFO"),
        ("api/pyproject.toml", "a character device"),
    ] {
        assert!(
            warnings.contains(&format!("{rel}: skipped, it is not a regular file but {kind}")),
            "{rel}: {warnings:?}"
        );
    }
}

// --- R2.1 Links out of the checkout -----------------------------------------------------------

#[test]
fn files_linked_out_of_the_checkout_are_not_read_and_each_is_named() {
    let home = tempfile::tempdir().unwrap();
    let parent = tempfile::tempdir().unwrap();
    let (root, outside) = (parent.path().join("repo"), parent.path().join("outside"));
    let marker = "outside-pw-7f3a9c";
    write(
        &outside,
        "compose.yml",
        &format!("services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: {marker}\n"),
    );
    write(&outside, "names.env", "OUTSIDE_ONLY_API_KEY=\n");
    write(&outside, "code.js", "process.env.OUTSIDE_CODE_TOKEN;\n");
    write(&outside, "requirements.txt", "outside-only-package\n");
    write(&root, "package.json", r#"{"scripts":{"test":"node --test"}}"#);
    write(&root, "lib/real.js", "process.env.INSIDE_LINKED_TOKEN;\n");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    // Relative and absolute targets, a manifest, a compose file, an example env file and code.
    symlink("../outside/compose.yml", &root.join("compose.yaml"));
    symlink(outside.join("names.env").to_str().unwrap(), &root.join(".env.example"));
    symlink(outside.join("code.js").to_str().unwrap(), &root.join("src/config.js"));
    symlink("../../outside/requirements.txt", &root.join("api/requirements.txt"));
    // A link that stays inside is the checkout's own file.
    symlink("../lib/real.js", &root.join("src/linked.js"));

    let (r, took) = timed(&mut capped(home.path(), &root, &["detect", "--json", "."]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(took < Duration::from_secs(20), "{took:?}");
    for leaked in [marker, "OUTSIDE_ONLY_API_KEY", "OUTSIDE_CODE_TOKEN", "outside-only-package"] {
        assert!(!r.stdout.contains(leaked), "{leaked} read through a link: {}", r.stdout);
    }
    assert!(r.stdout.contains("INSIDE_LINKED_TOKEN"), "{}", r.stdout);
    let warnings = warnings(&r);
    for rel in ["compose.yaml", ".env.example", "src/config.js", "api/requirements.txt"] {
        assert!(
            warnings.iter().any(|w| w.starts_with(&format!("{rel}: skipped, it is a symlink to "))
                && w.ends_with("outside the checkout")),
            "{rel}: {warnings:?}"
        );
    }
    // Nothing of it reaches what `save` sends or `export` writes.
    for args in [&["detect", "--stdout"][..], &["export", "--to", "copilot", "--stdout"]] {
        let (r, _) = timed(&mut capped(home.path(), &root, args));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(!r.stdout.contains(marker) && !r.stdout.contains("OUTSIDE_"), "{args:?}: {}", r.stdout);
        assert!(
            args[0] != "detect" || r.stderr.contains("compose.yaml: skipped, it is a symlink to"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

// --- R2.2 Actions expressions in the Copilot workflow ---------------------------------------

#[test]
fn repository_text_never_becomes_an_actions_expression_in_the_copilot_workflow() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "package.json", r#"{"scripts":{"test":"node --test"}}"#);
    write(
        dir.path(),
        "compose.yaml",
        "services:\n  db:\n    image: postgres:16\n    ports: [\"5432:5432\"]\n    environment:\n      POSTGRES_PASSWORD: \"$${{ secrets.DEPLOY_KEY }}\"\n",
    );
    write(
        dir.path(),
        ".hanzo/environment.toml",
        "install = \"echo ${{ github.event.pull_request.title }}\"\nstart = \"node serve.js --title '${{ github.head_ref }}'\"\nsecrets = [\"API_TOKEN\"]\n",
    );
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["export", "--to", "copilot", "--stdout"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let literal = "${{ '${{' }}";
    for quoted in [" secrets.DEPLOY_KEY }}", " github.event.pull_request.title }}", " github.head_ref }}"] {
        assert!(r.stdout.contains(&format!("{literal}{quoted}")), "{quoted}: {}", r.stdout);
    }
    // What is left once the literals are taken out is the one expression export wrote itself.
    let rest = r.stdout.replace(literal, "");
    assert_eq!(rest.matches("${{").count(), 1, "{}", r.stdout);
    assert!(rest.contains("API_TOKEN: \"${{ secrets.API_TOKEN }}\""), "{}", r.stdout);
}

// --- R2.4 Deep nesting in every recursive reader --------------------------------------------

#[test]
fn deeply_nested_manifests_of_every_format_are_survived_and_named() {
    let levels = 50_000;
    let xml = |root: &str| format!("<{root}>{}{}</{root}>", "<a>".repeat(levels), "</a>".repeat(levels));
    let cases: Vec<(&str, String, bool)> = vec![
        ("pom.xml", xml("project"), true),
        ("src/App/App.csproj", xml("Project"), false),
        ("package.json", format!("{{\"x\":{}{}}}", "[".repeat(levels), "]".repeat(levels)), true),
        (".devcontainer/devcontainer.json", format!("{{\"x\":{}{}}}", "[".repeat(levels), "]".repeat(levels)), false),
        ("Cargo.toml", format!("[package]\nname = \"a\"\nx = {}{}\n", "[".repeat(levels), "]".repeat(levels)), true),
        (
            "pyproject.toml",
            format!("[project]\nname = \"a\"\nx = {}{}\n", "[".repeat(levels), "]".repeat(levels)),
            true,
        ),
        (
            "compose.yaml",
            format!("services:\n  db:\n    image: postgres\nx: {}{}\n", "[".repeat(levels), "]".repeat(levels)),
            true,
        ),
    ];
    for (rel, text, named) in cases {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "requirements.txt", "pytest\n");
        write(dir.path(), rel, &text);
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{rel}: {}", r.stderr);
        assert!(took < Duration::from_secs(20), "{rel}: {took:?}");
        let warnings = warnings(&r);
        assert!(!named || warnings.iter().any(|w| w.starts_with(&format!("{rel}: "))), "{rel}: {warnings:?}");
        // Detection carried on past it.
        assert!(r.stdout.contains("pytest"), "{rel}: {}", r.stdout);
    }
}

// --- R2.7 Control characters in folder names ------------------------------------------------

#[test]
fn control_characters_in_folder_names_are_escaped_wherever_a_path_is_shown_or_written() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let odd = "a\u{1b}]0;pwned\u{7}b\u{1b}[2Jc\u{9b}d";
    write(dir.path(), "package.json", r#"{"scripts":{"test":"node --test"}}"#);
    write(dir.path(), &format!("src/{odd}/pay.js"), "process.env.STRIPE_SECRET_KEY;\n");
    write(dir.path(), &format!("{odd}/.env.example"), "SERVICE_API_KEY=\n");
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    for args in [&["detect", "--stdout"][..], &["detect", "--explain"], &["detect", "--stdout", "--explain"]] {
        let (r, _) = timed(&mut capped(home.path(), dir.path(), args));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert_eq!(control_bytes(&r.stdout) + control_bytes(&r.stderr), 0, "{args:?}: {:?}{:?}", r.stdout, r.stderr);
        assert!(r.stdout.contains("STRIPE_SECRET_KEY"), "{args:?}: {}", r.stdout);
    }
    let (r, _) = timed(&mut capped(home.path(), dir.path(), &["detect"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(control_bytes(&r.stderr), 0, "{:?}", r.stderr);
    let written = std::fs::read_to_string(dir.path().join(".hanzo/environment.toml")).unwrap();
    assert_eq!(control_bytes(&written), 0, "{written:?}");
    assert!(written.contains("\\u{1b}]0;pwned\\u{7}b"), "the path is shown, escaped: {written}");
    // Every later command reads what detect wrote.
    for args in [&["run", "--", "true"][..], &["export", "--to", "agents-md", "--stdout"], &["detect", "--check"]] {
        let (r, _) = timed(&mut capped(home.path(), dir.path(), args));
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert_eq!(control_bytes(&r.stdout) + control_bytes(&r.stderr), 0, "{args:?}: {:?}", r.stdout);
    }
}

// --- R2.5 Compose services and CI jobs, bounded per file and per proposal -------------------

fn compose_of(services: usize) -> String {
    let mut text = String::from("services:\n");
    for i in 0..services {
        text.push_str(&format!(
            "  s{i:05}:\n    image: postgres:16\n    ports: [\"{}:5432\"]\n    environment:\n      POSTGRES_PASSWORD: pw{i}\n",
            5432 + i % 1000
        ));
    }
    text
}

fn workflow_of(jobs: usize) -> String {
    let mut text = String::from("on: push\njobs:\n");
    for i in 0..jobs {
        text.push_str(&format!(
            "  j{i:05}:\n    runs-on: ubuntu-latest\n    services:\n      pg:\n        image: postgres:16\n        ports: ['5432:5432']\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test -- --shard={i}\n"
        ));
    }
    text
}

#[test]
fn compose_services_and_ci_jobs_are_bounded_per_file_and_per_proposal() {
    // The issue's reproducers: a 1.9 MB compose file, ten of them, a 1.7 MB workflow; then
    // files under the size limits with more entries than are read.
    let huge = compose_of(19_000);
    let many = compose_of(3_000);
    // The files (path, text) and the warnings expected, each by its start.
    type Case<'a> = (Vec<(String, String)>, Vec<&'a str>);
    let cases: Vec<Case> = vec![
        (vec![("compose.yaml".into(), huge.clone())], vec!["compose.yaml: not read: more than 100000 nodes"]),
        (
            (0..10).map(|i| (format!("svc{i}/compose.yaml"), huge.clone())).collect(),
            vec!["svc0/compose.yaml: not read: more than", "svc9/compose.yaml: not read: more than"],
        ),
        (
            vec![(".github/workflows/ci.yml".into(), workflow_of(8_000))],
            vec![".github/workflows/ci.yml: not read: more than"],
        ),
        (
            (0..10).map(|i| (format!("svc{i}/compose.yaml"), many.clone())).collect(),
            vec![
                "svc0/compose.yaml: 3000 services, more than detection reads from one file: the first 100 read",
                "svc9/compose.yaml: 3000 services",
                "svc0/compose.yaml: 100 backing services, more than one start brings up: the first 32 kept",
            ],
        ),
        (
            (0..6).map(|i| (format!(".github/workflows/ci{i}.yml"), workflow_of(300))).collect(),
            vec![
                ".github/workflows/ci0.yml: 300 jobs, more than detection reads from one file: the first 256 read",
                ".github/workflows/ci4.yml: not read, nor 1 other workflow(s) after it: the 4 before it hold 1024 jobs",
            ],
        ),
    ];
    for (files, expected) in cases {
        let home = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "package.json", r#"{"scripts":{"test":"node --test"}}"#);
        for (rel, text) in &files {
            write(dir.path(), rel, text);
        }
        let (r, took) = timed(&mut capped(home.path(), dir.path(), &["detect", "--json", "."]));
        assert_eq!(r.code, 0, "{}: {}", files[0].0, r.stderr);
        assert!(took < Duration::from_secs(60), "{}: {took:?}", files[0].0);
        let warnings = warnings(&r);
        for want in expected {
            assert!(warnings.iter().any(|w| w.starts_with(want)), "{want}: {warnings:?}");
        }
        let json: Value = serde_json::from_str(&r.stdout).unwrap();
        assert!(json["start"].as_str().unwrap().len() <= 16 << 10, "{}", json["start"]);
    }
}

// --- R2.16 git with the checkout's own config -----------------------------------------------

#[test]
fn git_never_runs_a_program_the_checkouts_config_names() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let marks = tempfile::tempdir().unwrap();
    let ran = marks.path().join("ran-from-git-config");
    let status = std::process::Command::new("git").args(["init", "-q"]).arg(root).status().unwrap();
    assert!(status.success());
    let hook = format!("touch '{}'", ran.display());
    let script = root.join(".git/evil.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{hook}\n")).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    for name in ["post-checkout", "post-index-change", "reference-transaction", "fsmonitor-watchman"] {
        std::fs::copy(&script, root.join(".git/hooks").join(name)).unwrap();
    }
    let config = format!(
        "[core]\n\tfsmonitor = {s}\n\tpager = {s}\n\tsshCommand = {s}\n[diff]\n\texternal = {s}\n",
        s = script.display()
    );
    let mut text = std::fs::read_to_string(root.join(".git/config")).unwrap();
    text.push_str(&config);
    std::fs::write(root.join(".git/config"), text).unwrap();
    write(root, ".gitignore", "run.env\n");
    write(root, ".hanzo/environment.toml", "install = \"true\"\n[env]\nMODE = \"test\"\n");
    write(root, "a.txt", "x\n");
    // Tracked files, so that git has an index to refresh.
    let add = std::process::Command::new("git")
        .args(["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-C"])
        .arg(root)
        .args(["add", "a.txt", ".gitignore"])
        .status()
        .unwrap();
    assert!(add.success());
    assert!(!ran.exists(), "the set-up itself ran it");
    for args in [&["env-file", "--out", "run.env"][..], &["verify", "--test", "true"]] {
        let (r, _) = timed(&mut capped(home.path(), root, args));
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(!ran.exists(), "{args:?} ran a program the checkout's .git/config names");
    }
    // The probe works: git itself runs it when not told otherwise.
    let _ = std::process::Command::new("git").arg("-C").arg(root).args(["status", "--short"]).output().unwrap();
    assert!(ran.exists(), "the fsmonitor probe never ran: the test proves nothing");
    let _ = std::fs::remove_file(&ran);
}
