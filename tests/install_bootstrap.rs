//! The install scripts detect drafts make present what they call: each bootstrap and fallback
//! path runs the generated script with bash against a fake PATH (tools that record their
//! calls), twice — the first run sets the tool up, the second finds it and does nothing.

mod common;

use std::path::{Path, PathBuf};

/// A scratch machine: a bin folder of fake tools first on PATH, then the few system tools the
/// scripts use (and nothing else: no real node, python or package managers).
struct Machine {
    dir: tempfile::TempDir,
}

const SYSTEM_TOOLS: &[&str] =
    &["bash", "sh", "grep", "sed", "ln", "id", "sort", "tr", "cat", "mkdir", "rm", "cp", "head", "env", "chmod"];

impl Machine {
    fn new() -> Machine {
        let machine = Machine { dir: tempfile::tempdir().unwrap() };
        for dir in ["bin", "system", "home", "npm/bin"] {
            std::fs::create_dir_all(machine.path(dir)).unwrap();
        }
        for tool in SYSTEM_TOOLS {
            let found = ["/usr/bin", "/bin"].iter().map(|d| Path::new(d).join(tool)).find(|p| p.exists());
            std::os::unix::fs::symlink(found.expect(tool), machine.path("system").join(tool)).unwrap();
        }
        machine
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// A fake tool: records `NAME ARGS` in the call log, then runs `body` (bash).
    fn tool(&self, dir: &str, name: &str, body: &str) {
        let log = self.path("calls.log");
        let script = format!("#!/bin/bash\necho \"{name} $*\" >> '{}'\n{body}\n", log.display());
        let path = self.path(dir).join(name);
        std::fs::write(&path, script).unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&path, perms).unwrap();
    }

    fn calls(&self) -> String {
        std::fs::read_to_string(self.path("calls.log")).unwrap_or_default()
    }

    fn forget_calls(&self) {
        let _ = std::fs::remove_file(self.path("calls.log"));
    }

    /// Run `script` from `checkout` with this machine's PATH and HOME.
    fn run(&self, script: &str, checkout: &Path) -> common::Run {
        self.run_with_path_before(script, checkout, None)
    }

    /// [`Machine::run`] with `first` as the first folder on PATH.
    fn run_with_path_before(&self, script: &str, checkout: &Path, first: Option<&Path>) -> common::Run {
        let path = format!(
            "{}{}:{}:{}",
            first.map(|f| format!("{}:", f.display())).unwrap_or_default(),
            self.path("npm/bin").display(),
            self.path("bin").display(),
            self.path("system").display()
        );
        let mut cmd = assert_cmd::Command::new(self.path("system").join("bash"));
        cmd.env_clear()
            .env("PATH", path)
            .env("HOME", self.path("home"))
            .current_dir(checkout)
            .args(["-euo", "pipefail", "-c", script]);
        common::run(&mut cmd)
    }
}

/// The install script detect drafts for `fixture`, as it runs: with its helpers' text.
fn drafted_install(fixture: &str) -> String {
    saved_install(fixture, &[])
}

/// The install detect drafts for `fixture` with each `(from, to)` replaced in the plan (a
/// file an older hanzo-env saved), as it runs.
fn saved_install(fixture: &str, replace: &[(&str, &str)]) -> String {
    let home = tempfile::tempdir().unwrap();
    let run = common::run(
        common::hanzo_env(home.path(), home.path()).args(["detect", "--json"]).arg(common::fixture(fixture)),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let detection: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let plan = replace
        .iter()
        .fold(detection["install"].as_str().unwrap().to_string(), |plan, (from, to)| plan.replace(from, to));
    hanzo_env::plan::block::expand(&plan).unwrap()
}

/// The install of `detect --json`'s output, with its helpers' text.
fn runnable_install(json: &str) -> String {
    let detection: serde_json::Value = serde_json::from_str(json).unwrap();
    hanzo_env::plan::block::expand(detection["install"].as_str().unwrap()).unwrap()
}

/// A fake `python3` whose `-m pip install REQ` puts a fake REQ tool in the bin folder, and
/// whose version check answers what the state file says.
fn fake_python(machine: &Machine) {
    let bin = machine.path("bin");
    machine.tool(
        "bin",
        "python3",
        &format!(
            r#"if [ "$1" = -c ]; then
  case "$2" in *print*) cat '{key}' 2>/dev/null || echo 3011 ;; esac
  exit "$(cat '{state}' 2>/dev/null || echo 0)"
fi
if [ "$1 $2 $3" = "-m pip install" ]; then
  for req in "$@"; do case "$req" in uv*|poetry*|tox*) name="${{req%%[<>=!~]*}}"; printf '#!/bin/bash\necho "%s $*" >> "{log}"\n' "$name" > "{bin}/$name"; chmod +x "{bin}/$name";; esac; done
fi"#,
            state = machine.path("python-mismatch").display(),
            key = machine.path("python-key").display(),
            log = machine.path("calls.log").display(),
            bin = bin.display(),
        ),
    );
}

#[test]
fn a_missing_uv_is_installed_with_pip_once() {
    let machine = Machine::new();
    fake_python(&machine);
    let install = drafted_install("detect/uv-workspace");
    let checkout = common::fixture("detect/uv-workspace");
    let first = machine.run(&install, &checkout);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let calls = machine.calls();
    assert!(calls.contains("python3 -m pip install --quiet uv\n"), "{calls}");
    // The locked set goes through pip into the interpreter on PATH, not a private .venv:
    // the dependencies, then the workspace's own packages without theirs; uv is told which
    // interpreter that is, so it never picks or downloads another.
    let python = machine.path("bin").join("python3");
    let export = format!("uv export --frozen --all-packages --no-hashes --quiet --python {}", python.display());
    assert!(calls.contains(&format!("{export} --no-emit-workspace\n")), "{calls}");
    assert!(calls.contains(&format!("{export}\n")), "{calls}");
    assert!(calls.contains("python3 -m pip install -r /dev/stdin"), "{calls}");
    assert!(calls.contains("python3 -m pip install --no-deps -r /dev/stdin"), "{calls}");

    machine.forget_calls();
    let second = machine.run(&install, &checkout);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let calls = machine.calls();
    assert!(!calls.contains("pip install --quiet uv"), "the second run finds uv: {calls}");
    // The locked set goes through pip into the interpreter on PATH, not a private .venv.
    assert!(calls.contains("uv export --frozen --all-packages --no-hashes --quiet"), "{calls}");
    assert!(calls.contains("python3 -m pip install -r /dev/stdin"), "{calls}");
}

#[test]
fn a_tool_whose_pyenv_shim_cannot_run_here_is_installed_with_pip() {
    let machine = Machine::new();
    fake_python(&machine);
    // pyenv's shim of a uv another Python has: on PATH, but `.python-version` names a
    // Python pyenv lacks, so every run of it fails.
    let shim = "echo \"pyenv: version '3.14.0' is not installed (set by $PWD/.python-version)\" >&2\nexit 1";
    machine.tool("system", "uv", shim);
    let install = drafted_install("detect/uv-workspace");
    let checkout = common::fixture("detect/uv-workspace");
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}\n{}\n{install}", run.stderr, machine.calls());
    let calls = machine.calls();
    assert!(calls.contains("python3 -m pip install --quiet uv\n"), "{calls}");
    assert!(calls.contains("uv export --frozen"), "the installed uv exports: {calls}");
}

#[test]
fn poetrys_lock_goes_through_pip_with_the_export_plugin_installed_once() {
    let machine = Machine::new();
    fake_python(&machine);
    // Poetry 2: no `export` command until its plugin is installed (pip makes the fake one).
    let plugin = machine.path("bin").join("poetry-plugin-export");
    machine.tool("bin", "poetry", &format!("[ \"$1\" != export ] || [ -e '{}' ]", plugin.display()));
    let install = drafted_install("detect/poetry");
    let checkout = common::fixture("detect/poetry");
    let first = machine.run(&install, &checkout);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let calls = machine.calls();
    assert!(calls.contains("python3 -m pip install --quiet poetry-plugin-export\n"), "{calls}");
    assert!(!calls.contains("poetry self add"), "pip's plugin reached poetry: {calls}");
    // Poetry installs nothing itself: the default groups (not the optional `docs`) go through
    // pip, then the project without its dependencies.
    assert!(!calls.contains("poetry install"), "{calls}");
    assert!(calls.contains("poetry export --without-hashes --with dev\n"), "{calls}");
    assert!(calls.contains("python3 -m pip install -r /dev/stdin\n"), "{calls}");
    assert!(calls.contains("python3 -m pip install --no-deps -e .\n"), "{calls}");

    machine.forget_calls();
    let second = machine.run(&install, &checkout);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let calls = machine.calls();
    assert!(!calls.contains("poetry-plugin-export"), "the second run finds the plugin: {calls}");
    assert!(calls.contains("poetry export --without-hashes --with dev\n"), "{calls}");
}

#[test]
fn python_is_linked_to_python3_when_the_machine_has_none() {
    let machine = Machine::new();
    fake_python(&machine);
    let install = drafted_install("detect/poetry");
    let checkout = common::fixture("detect/poetry");
    let python = machine.path("bin").join("python");
    assert!(!python.exists());
    let first = machine.run(&install, &checkout);
    assert_eq!(first.code, 0, "{}", first.stderr);
    // Beside python3 (its folder is writable here), as Debian's python-is-python3 does.
    assert_eq!(std::fs::read_link(&python).unwrap(), Path::new("python3"));
    let second = machine.run(&install, &checkout);
    assert_eq!(second.code, 0, "the second run finds python: {}", second.stderr);
}

/// This machine's user is not root (`id -u` says 1000), and pip's user site holds `tox`
/// and `pytest`.
fn user_site_tools(machine: &Machine) {
    machine.tool("bin", "id", r#"if [ "$1" = -u ]; then echo 1000; else exec /usr/bin/id "$@"; fi"#);
    for tool in ["tox", "pytest"] {
        machine.tool("home/.local/bin", tool, "");
    }
    // pip leaves byte code of its scripts beside them: a folder, no tool.
    std::fs::create_dir_all(machine.path("home/.local/bin/__pycache__")).unwrap();
}

#[test]
fn a_non_root_users_tools_are_linked_where_every_shell_looks_once() {
    let machine = Machine::new();
    std::fs::create_dir_all(machine.path("home/.local/bin")).unwrap();
    fake_python(&machine);
    user_site_tools(&machine);
    // The first PATH folder outside HOME (writable here) already has a pytest of its own.
    machine.tool("npm/bin", "pytest", "");
    let install = drafted_install("detect/poetry");
    let checkout = common::fixture("detect/poetry");
    let first = machine.run(&install, &checkout);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let tox = machine.path("npm/bin/tox");
    assert_eq!(std::fs::read_link(&tox).unwrap(), machine.path("home/.local/bin/tox"));
    assert!(std::fs::symlink_metadata(machine.path("npm/bin/pytest")).unwrap().is_file(), "never linked over");
    assert!(!first.stderr.contains("warning: tools in ~/.local/bin"), "{}", first.stderr);
    assert!(!machine.path("npm/bin/__pycache__").exists());
    // Login and interactive shells get the folder on PATH as well.
    let profile = std::fs::read_to_string(machine.path("home/.profile")).unwrap();
    assert!(profile.contains(r#"export PATH="$HOME/.local/bin:$PATH""#), "{profile}");

    let second = machine.run(&install, &checkout);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(std::fs::read_link(&tox).unwrap(), machine.path("home/.local/bin/tox"));
    assert_eq!(std::fs::read_to_string(machine.path("home/.profile")).unwrap(), profile, "one PATH line, not two");
}

#[test]
fn a_system_folder_not_writable_takes_sudo_without_a_password_else_a_warning() {
    let machine = Machine::new();
    std::fs::create_dir_all(machine.path("home/.local/bin")).unwrap();
    fake_python(&machine);
    user_site_tools(&machine);
    let install = drafted_install("detect/poetry");
    let checkout = common::fixture("detect/poetry");
    // A folder that cannot be written (it does not exist) first on PATH, and no sudo.
    let system = machine.path("usr-local-bin");
    let without = machine.run_with_path_before(&install, &checkout, Some(&system));
    assert_eq!(without.code, 0, "a link is a convenience, never a failed install: {}", without.stderr);
    let warnings = without.stderr.matches("hanzo-env: warning: tools in ~/.local/bin are on PATH for login").count();
    assert_eq!(warnings, 1, "{}", without.stderr);

    // With sudo that asks for no password, the links go through it.
    machine.tool("bin", "sudo", "");
    machine.forget_calls();
    let with = machine.run_with_path_before(&install, &checkout, Some(&system));
    assert_eq!(with.code, 0, "{}", with.stderr);
    let calls = machine.calls();
    let home = machine.path("home");
    for tool in ["tox", "pytest"] {
        let link = format!("sudo -n ln -s {}/.local/bin/{tool} {}/\n", home.display(), system.display());
        assert!(calls.contains(&link), "{link}: {calls}");
    }
    assert!(!with.stderr.contains("warning: tools in ~/.local/bin"), "{}", with.stderr);
}

#[test]
fn a_missing_poetry_is_installed_with_pip_once() {
    let machine = Machine::new();
    fake_python(&machine);
    let install = drafted_install("detect/poetry");
    let checkout = common::fixture("detect/poetry");
    assert_eq!(machine.run(&install, &checkout).code, 0);
    assert!(machine.calls().contains("python3 -m pip install --quiet poetry\n"), "{}", machine.calls());
    assert!(machine.calls().contains("poetry export --without-hashes"), "{}", machine.calls());
    machine.forget_calls();
    assert_eq!(machine.run(&install, &checkout).code, 0);
    assert!(!machine.calls().contains("pip install --quiet poetry"), "{}", machine.calls());
}

#[test]
fn a_pinned_python_goes_through_pyenv_or_is_named_in_a_warning() {
    let machine = Machine::new();
    fake_python(&machine);
    std::fs::write(machine.path("python-mismatch"), "1").unwrap();
    let install = drafted_install("detect/polyglot-uv-bun");
    let checkout = common::fixture("detect/polyglot-uv-bun");
    // No version manager: one warning naming the pin, and the install goes on.
    machine.tool("bin", "bun", "");
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("warning: Python 3.12 is pinned but no pyenv/asdf/mise is here").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(machine.calls().contains("uv export --frozen"), "{}", machine.calls());
    // A pyenv that has the pin installed: its newest 3.12 becomes the global python3, so
    // every later shell runs it; nothing is downloaded.
    let installed = machine.path("pyenv-has-3.12");
    let pyenv = format!(
        r#"case "$1" in latest) [ -e '{0}' ] && echo 3.12.1 ;; install) : > '{0}' ;; global) ;; *) exit 1 ;; esac"#,
        installed.display()
    );
    std::fs::write(&installed, "").unwrap();
    machine.tool("bin", "pyenv", &pyenv);
    machine.forget_calls();
    let run = machine.run(&install, &checkout);
    assert!(!run.stderr.contains("warning: Python"), "{}", run.stderr);
    assert!(machine.calls().contains("pyenv global 3.12.1\n"), "{}", machine.calls());
    assert!(!machine.calls().contains("pyenv install"), "{}", machine.calls());
    // Without it: pyenv installs the pin, then makes it global.
    std::fs::remove_file(&installed).unwrap();
    machine.forget_calls();
    let run = machine.run(&install, &checkout);
    assert!(!run.stderr.contains("warning: Python"), "{}", run.stderr);
    let calls = machine.calls();
    assert!(
        calls.contains("pyenv install --skip-existing 3.12\n") && calls.contains("pyenv global 3.12.1\n"),
        "{calls}"
    );
    // In a virtualenv (verify's) the machine's pyenv is left alone: a warning names what runs.
    machine.forget_calls();
    let run = machine.run(&format!("export VIRTUAL_ENV=/tmp/venv\n{install}"), &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("warning: Python 3.12 is pinned; the virtualenv /tmp/venv runs"), "{}", run.stderr);
    assert!(!machine.calls().contains("pyenv"), "{}", machine.calls());
    // A pyenv that cannot download the pin: one warning, and the install goes on.
    machine.tool("bin", "pyenv", "exit 1");
    machine.forget_calls();
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.matches("warning: Python 3.12 is pinned but could not be installed").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(machine.calls().contains("uv export --frozen"), "{}", machine.calls());
    // A Python of the pinned minor: nothing to do.
    std::fs::write(machine.path("python-mismatch"), "0").unwrap();
    machine.forget_calls();
    machine.run(&install, &checkout);
    assert!(!machine.calls().contains("pyenv"), "{}", machine.calls());
}

/// A fake pyenv that lists the versions in its state file (`listing` to begin with), installs
/// 3.11.9 and makes any version global; returns the state file.
fn fake_pyenv(machine: &Machine, listing: &str) -> PathBuf {
    let state = machine.path("pyenv-versions");
    let pyenv = format!(
        r#"case "$1" in versions) cat '{0}' ;; install) echo 3.11.9 > '{0}' ;; latest) cat '{0}' ;; global) ;; *) exit 1 ;; esac"#,
        state.display()
    );
    machine.tool("bin", "pyenv", &pyenv);
    std::fs::write(&state, listing).unwrap();
    state
}

/// With nothing in `^3.11` installed and python3 outside it, pyenv installs 3.11 and makes it global.
fn assert_pyenv_installs_the_floor(machine: &Machine, install: &str, checkout: &Path) {
    machine.forget_calls();
    let run = machine.run(install, checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let calls = machine.calls();
    assert!(
        calls.contains("pyenv install --skip-existing 3.11\n") && calls.contains("pyenv global 3.11.9\n"),
        "{calls}"
    );
}

/// In a virtualenv (verify's), pyenv is left alone: a warning names the range and what runs.
fn assert_a_virtualenv_is_left_alone(machine: &Machine, install: &str, checkout: &Path) {
    machine.forget_calls();
    let run = machine.run(&format!("export VIRTUAL_ENV=/tmp/venv\n{install}"), checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("asks for Python 3.11 or newer (older than 4.0); the virtualenv /tmp/venv runs"),
        "{}",
        run.stderr
    );
    assert!(!machine.calls().contains("pyenv"), "{}", machine.calls());
}

#[test]
fn a_python_range_takes_pyenvs_newest_installed_in_it_else_keeps_python3_in_it() {
    let machine = Machine::new();
    fake_python(&machine);
    // poetry's `python = "^3.11"`: 3.11 or newer, older than 4.0.
    let install = drafted_install("detect/poetry");
    assert!(install.contains("hanzo_python_newest 3.11 4.0"), "{install}");
    let checkout = common::fixture("detect/poetry");
    let listing = fake_pyenv(&machine, "system\n3.10.13\n3.13.0\n3.12.1\n4.0.1\n3.14.0t\n");
    // python3 is 3.11, in the range, but pyenv's newest in it becomes every later shell's.
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("pyenv global 3.13.0\n"), "{}", machine.calls());
    assert!(!run.stderr.contains("warning: "), "{}", run.stderr);
    // None installed in it: python3 (3.11) is kept, and nothing is installed.
    std::fs::write(&listing, "system\n3.10.13\n").unwrap();
    machine.forget_calls();
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!machine.calls().contains("pyenv install"), "{}", machine.calls());
    assert!(!machine.calls().contains("pyenv global"), "{}", machine.calls());
    // Nor is python3 in it (3.9): pyenv installs the floor, then makes it global.
    std::fs::write(machine.path("python-key"), "3009").unwrap();
    assert_pyenv_installs_the_floor(&machine, &install, &checkout);
    // In a virtualenv (verify's), pyenv is left alone: a warning names the range and what runs.
    assert_a_virtualenv_is_left_alone(&machine, &install, &checkout);
}

#[test]
fn a_python_range_keeps_python3_in_it_else_pyenvs_newest_in_it_becomes_global() {
    let machine = Machine::new();
    fake_python(&machine);
    // poetry's `python = "^3.11"`: 3.11 or newer, older than 4.0.
    // A file saved before hanzo_python_newest calls hanzo_python_in, which keeps working.
    let install = saved_install("detect/poetry", &[("hanzo_python_newest", "hanzo_python_in")]);
    assert!(install.contains("hanzo_python_in 3.11 4.0"), "{install}");
    let checkout = common::fixture("detect/poetry");
    let listing = fake_pyenv(&machine, "system\n3.10.13\n3.13.0\n3.12.1\n4.0.1\n3.14.0t\n");
    // python3 is 3.11: in the range, so nothing changes.
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!machine.calls().contains("pyenv"), "{}", machine.calls());
    // python3 is 3.9: pyenv's newest installed in the range becomes every later shell's.
    std::fs::write(machine.path("python-key"), "3009").unwrap();
    machine.forget_calls();
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("pyenv global 3.13.0\n"), "{}", machine.calls());
    assert!(!run.stderr.contains("warning: "), "{}", run.stderr);
    // None installed in it: pyenv installs the floor, then makes it global.
    std::fs::write(&listing, "system\n3.10.13\n").unwrap();
    assert_pyenv_installs_the_floor(&machine, &install, &checkout);
    // In a virtualenv (verify's), or without pyenv: a warning names the range and what runs.
    assert_a_virtualenv_is_left_alone(&machine, &install, &checkout);
    std::fs::remove_file(machine.path("bin/pyenv")).unwrap();
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.matches("and no pyenv is here to install it").count(), 1, "{}", run.stderr);
}

/// Fake node (the version in the state file), npm (`prefix -g`, and `install -g` that puts
/// the package's tool in npm's bin folder) and corepack (`enable` works when told to).
fn fake_node(machine: &Machine, node_version: &str, corepack_works: bool) {
    let npm_bin = machine.path("npm/bin");
    std::fs::write(machine.path("node-version"), node_version).unwrap();
    machine.tool("bin", "node", &format!("cat '{}'", machine.path("node-version").display()));
    machine.tool(
        "bin",
        "npm",
        &format!(
            r#"if [ "$1 $2" = "prefix -g" ]; then echo '{npm}'; exit 0; fi
if [ "$1 $2" = "install -g" ]; then
  for spec in "$@"; do case "$spec" in
    pnpm@*) printf '#!/bin/bash\necho %s\n' "${{spec#pnpm@}}" > '{bin}/pnpm'; chmod +x '{bin}/pnpm';;
    node@*.*.*) echo "v${{spec#node@}}" > '{version}';;
    node@*) echo "v${{spec#node@}}.99.0" > '{version}';;
  esac; done
fi"#,
            npm = machine.path("npm").display(),
            bin = npm_bin.display(),
            version = machine.path("node-version").display(),
        ),
    );
    let enable = if corepack_works {
        format!("printf '#!/bin/bash\\necho 9.12.0\\n' > '{0}/pnpm'; chmod +x '{0}/pnpm'", npm_bin.display())
    } else {
        "echo 'Error: No compatible signature found in package metadata' >&2; exit 1".to_string()
    };
    machine.tool("bin", "corepack", &enable);
}

#[test]
fn pnpm_comes_from_corepack_or_else_from_npm_once() {
    let install = drafted_install("detect/pnpm-workspace");
    let checkout = common::fixture("detect/pnpm-workspace");

    let machine = Machine::new();
    fake_node(&machine, "v20.11.1", true);
    assert_eq!(machine.run(&install, &checkout).code, 0);
    assert!(machine.calls().contains("corepack enable --install-directory"), "{}", machine.calls());
    assert!(!machine.calls().contains("npm install"), "corepack worked: {}", machine.calls());

    // A corepack that cannot verify the release: npm installs the declared pnpm.
    let machine = Machine::new();
    fake_node(&machine, "v20.11.1", false);
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("npm install -g --force pnpm@9.12.0\n"), "{}", machine.calls());
    machine.forget_calls();
    assert_eq!(machine.run(&install, &checkout).code, 0);
    let calls = machine.calls();
    assert!(!calls.contains("corepack") && !calls.contains("npm install"), "pnpm 9.12.0 is there: {calls}");
}

#[test]
fn a_node_too_old_for_the_package_manager_is_replaced_from_the_npm_registry_once() {
    let checkout = tempfile::tempdir().unwrap();
    std::fs::write(
        checkout.path().join("package.json"),
        r#"{"name": "app", "packageManager": "pnpm@11.1.0", "scripts": {"test": "vitest"}}"#,
    )
    .unwrap();
    std::fs::write(checkout.path().join("pnpm-lock.yaml"), "lockfileVersion: '9.0'\n").unwrap();
    let home = tempfile::tempdir().unwrap();
    let run = common::run(common::hanzo_env(home.path(), home.path()).args(["detect", "--json"]).arg(checkout.path()));
    let install = runnable_install(&run.stdout);

    let machine = Machine::new();
    fake_node(&machine, "v20.11.1", true);
    let run = machine.run(&install, checkout.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("npm install -g node@22\n"), "{}", machine.calls());
    assert!(run.stderr.contains("Node 22.13 or later is needed: installing Node 22"), "{}", run.stderr);
    machine.forget_calls();
    machine.run(&install, checkout.path());
    assert!(!machine.calls().contains("node@22"), "Node 22 is there: {}", machine.calls());
}

#[test]
fn a_node_newer_than_ci_tests_is_replaced_by_ci_s_newest_once() {
    let checkout = tempfile::tempdir().unwrap();
    std::fs::write(checkout.path().join("package.json"), r#"{"name": "lib", "scripts": {"test": "mocha"}}"#).unwrap();
    std::fs::write(checkout.path().join("package-lock.json"), "{}\n").unwrap();
    let workflows = checkout.path().join(".github/workflows");
    std::fs::create_dir_all(&workflows).unwrap();
    let ci = "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        node-version: [12, 14, 16]\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ matrix.node-version }}\n      - run: npm test\n";
    std::fs::write(workflows.join("ci.yml"), ci).unwrap();
    let home = tempfile::tempdir().unwrap();
    let run = common::run(common::hanzo_env(home.path(), home.path()).args(["detect", "--json"]).arg(checkout.path()));
    let install = runnable_install(&run.stdout);
    assert!(install.contains("hanzo_node_tested 12 16"), "{install}");

    let machine = Machine::new();
    fake_node(&machine, "v20.11.1", true);
    let run = machine.run(&install, checkout.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    // With the npm that runs on it: the machine's may need a newer Node.
    assert!(machine.calls().contains("npm install -g npm@9 node@16\n"), "{}", machine.calls());
    assert!(
        run.stderr.contains("CI tests Node 12 to 16, and v20.11.1 is newer: installing Node 16 and npm 9"),
        "{}",
        run.stderr
    );
    machine.forget_calls();
    assert_eq!(machine.run(&install, checkout.path()).code, 0);
    assert!(!machine.calls().contains("node@16"), "Node 16 is there: {}", machine.calls());
    // A Node CI tests is kept.
    let machine = Machine::new();
    fake_node(&machine, "v14.21.3", true);
    assert_eq!(machine.run(&install, checkout.path()).code, 0);
    assert!(!machine.calls().contains("npm install -g node@"), "{}", machine.calls());
}

#[test]
fn a_pinned_node_no_manager_installs_is_a_warning_unless_the_one_here_is_an_older_major() {
    let install = drafted_install("detect/version-v-prefix");
    let checkout = common::fixture("detect/version-v-prefix");
    // Node 20.9 for a pin of 20.11.0, and a volta that cannot download: close enough.
    let machine = Machine::new();
    fake_node(&machine, "v20.9.0", true);
    machine.tool("bin", "volta", "exit 1");
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("volta install node@20.11.0\n"), "{}", machine.calls());
    assert_eq!(
        run.stderr
            .matches(
                "warning: Node 20.11.0 is pinned but no nvm, fnm or volta here installed it; going on with v20.9.0"
            )
            .count(),
        1,
        "{}",
        run.stderr
    );
    assert!(!machine.calls().contains("npm install -g node@"), "{}", machine.calls());
    assert!(machine.calls().contains("npm ci"), "the install goes on: {}", machine.calls());

    // Node 18 is an older major: dependencies' engines reject it, so npm brings the pin, once.
    let machine = Machine::new();
    fake_node(&machine, "v18.19.0", true);
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("npm install -g node@20.11.0\n"), "{}", machine.calls());
    assert!(
        run.stderr.contains("v18.19.0 is an older major: installing Node 20.11.0 from the npm registry"),
        "{}",
        run.stderr
    );
    machine.forget_calls();
    assert_eq!(machine.run(&install, &checkout).code, 0);
    assert!(!machine.calls().contains("node@"), "Node 20.11.0 is there: {}", machine.calls());

    // A registry without that release: the newest of its major.
    let machine = Machine::new();
    fake_node(&machine, "v18.19.0", true);
    let npm = machine.path("bin/npm");
    let body = std::fs::read_to_string(&npm).unwrap();
    std::fs::write(
        &npm,
        body.replacen(
            "if [ \"$1 $2\" = \"install -g\" ]",
            "[ \"$3\" = node@20.11.0 ] && exit 1\nif [ \"$1 $2\" = \"install -g\" ]",
            1,
        ),
    )
    .unwrap();
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("npm install -g node@20\n"), "{}", machine.calls());
}

#[test]
fn just_runs_the_tests_and_comes_from_pip_else_npm_once() {
    let install = drafted_install("detect/cargo-ci-variable");
    let checkout = common::fixture("detect/cargo-ci-variable");
    let makes_just = |machine: &Machine| {
        format!(
            "printf '#!/bin/bash\\necho \"just $*\" >> \"{}\"\\n' > '{}'; chmod +x '{}'",
            machine.path("calls.log").display(),
            machine.path("bin/just").display(),
            machine.path("bin/just").display()
        )
    };
    // pip first: PyPI serves just as `rust-just`.
    let machine = Machine::new();
    machine.tool("bin", "cargo", "");
    let pip = makes_just(&machine);
    machine.tool("bin", "python3", &format!(r#"[ "$1 $2 $3 $5" = "-m pip install rust-just" ] && {pip}"#));
    let first = machine.run(&install, &checkout);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(machine.calls().contains("python3 -m pip install --quiet rust-just\n"), "{}", machine.calls());
    machine.forget_calls();
    let second = machine.run(&install, &checkout);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(!machine.calls().contains("rust-just"), "the second run finds just: {}", machine.calls());

    // No Python: npm.
    let machine = Machine::new();
    machine.tool("bin", "cargo", "");
    let npm = makes_just(&machine);
    machine.tool("bin", "npm", &format!(r#"[ "$*" = "install -g rust-just" ] && {npm}"#));
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("npm install -g rust-just\n"), "{}", machine.calls());
    assert!(machine.path("bin/just").exists());

    // Neither: one warning, and the rest of the install goes on.
    let machine = Machine::new();
    machine.tool("bin", "cargo", "");
    let run = machine.run(&install, &checkout);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("hanzo-env: warning: could not install just"), "{}", run.stderr);
    assert!(machine.calls().contains("cargo fetch"), "{}", machine.calls());
}

#[test]
fn ci_test_packages_that_cannot_install_are_named_and_the_rest_go_in() {
    let machine = Machine::new();
    // A package that needs what this machine lacks (a C library, a private index) fails pip.
    machine.tool("bin", "python3", r#"case " $* " in *" responses"*) exit 1;; esac"#);
    let install = drafted_install("detect/ci-pip-test-packages");
    let run = machine.run(&install, &common::fixture("detect/ci-pip-test-packages"));
    assert_eq!(run.code, 0, "one package the machine cannot install fails no install: {}", run.stderr);
    let calls = machine.calls();
    assert!(calls.contains("python3 -m pip install pytest pytest-cov responses>=0.25\n"), "all at once first: {calls}");
    for one in ["pytest", "pytest-cov", "responses>=0.25"] {
        assert!(calls.contains(&format!("python3 -m pip install {one}\n")), "then {one} alone: {calls}");
    }
    assert!(
        run.stderr.contains("hanzo-env: warning: responses>=0.25 (installed by the CI test job) did not install"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("warning: pytest "), "{}", run.stderr);
}

#[test]
fn a_missing_deno_comes_from_npm_once() {
    let install = drafted_install("detect/deno");
    let checkout = common::fixture("detect/deno");
    let machine = Machine::new();
    let deno = machine.path("npm/bin/deno");
    machine.tool(
        "bin",
        "npm",
        &format!(
            r#"case "$*" in "install -g deno"*) printf '#!/bin/bash\necho "deno $*" >> "{log}"\n' > '{deno}'; chmod +x '{deno}';; esac"#,
            log = machine.path("calls.log").display(),
            deno = deno.display()
        ),
    );
    let first = machine.run(&install, &checkout);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let calls = machine.calls();
    assert!(calls.lines().any(|l| l.starts_with("npm install -g deno")), "{calls}");
    assert!(calls.contains("deno install"), "the project's install runs with it: {calls}");
    machine.forget_calls();
    let second = machine.run(&install, &checkout);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(!machine.calls().contains("npm install -g deno"), "the second run finds deno: {}", machine.calls());
}

/// A checkout with a PHP app (whose tests CI runs) and a Node front end beside it.
fn php_app_with_a_node_front_end(test: &str) -> (tempfile::TempDir, String) {
    let checkout = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| common::write(checkout.path(), rel, text);
    write("composer.json", r#"{"name": "acme/app", "require": {"php": ">=8.2"}}"#);
    write("composer.lock", r#"{"packages": []}"#);
    write("package.json", r#"{"name": "front", "scripts": {"build": "vite build"}}"#);
    write("package-lock.json", r#"{"lockfileVersion": 3}"#);
    write(".github/workflows/ci.yml", &format!("jobs:\n  test:\n    steps:\n      - run: {test}\n"));
    let home = tempfile::tempdir().unwrap();
    let run = common::run(common::hanzo_env(home.path(), home.path()).args(["detect", "--json"]).arg(checkout.path()));
    let install = runnable_install(&run.stdout);
    (checkout, install)
}

#[test]
fn another_toolchains_part_of_the_repo_is_skipped_with_a_warning_when_the_toolchain_is_missing() {
    // The tests are PHP's; this machine has composer and no Node.
    let (checkout, install) = php_app_with_a_node_front_end("vendor/bin/phpunit");
    let machine = Machine::new();
    machine.tool("bin", "composer", "true");
    let run = machine.run(&install, checkout.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("composer install"), "{}", machine.calls());
    assert_eq!(
        run.stderr
            .matches(
                "warning: npm is not installed: skipped a step that needs it; install Node for that part of the repo"
            )
            .count(),
        1,
        "{}",
        run.stderr
    );
    // With Node here, its part is installed.
    fake_node(&machine, "v20.11.1", true);
    let run = machine.run(&install, checkout.path());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(machine.calls().contains("npm ci"), "{}", machine.calls());

    // The tests' own toolchain missing fails the install, as it would without the guard.
    let machine = Machine::new();
    fake_node(&machine, "v20.11.1", true);
    let run = machine.run(&install, checkout.path());
    assert_eq!(run.code, 127, "composer is missing: {}", run.stderr);
}

#[test]
fn ci_install_lines_keep_their_options_and_their_place_around_the_checkouts_install() {
    let machine = Machine::new();
    machine.tool("bin", "python3", "");
    let fixture = "detect/ci-install-lines-whole";
    let install = drafted_install(fixture);
    let run = machine.run(&install, &common::fixture(fixture));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pip: Vec<String> = machine
        .calls()
        .lines()
        .filter_map(|l| l.strip_prefix("python3 -m pip install "))
        .filter(|l| !l.starts_with("--upgrade pip") && !l.starts_with("--quiet"))
        .map(str::to_string)
        .collect();
    let at = |wanted: &str| pip.iter().position(|l| l == wanted).unwrap_or_else(|| panic!("no `{wanted}` in {pip:#?}"));
    // CI upgrades a test tool before it installs the checkout, and adds s3fs without its
    // dependencies after: a released copy of the project must not replace the checkout.
    let own = at("-e .[test]");
    assert!(at("--upgrade pytest-timeout") < own, "{pip:#?}");
    assert!(at("--no-deps s3fs") > own, "{pip:#?}");
    assert!(at("--constraint=constraints.txt pytest-asyncio") > own, "{pip:#?}");
    assert!(!pip.iter().any(|l| l.contains("4.6.9")), "the superseded .travis.yml pin stays out: {pip:#?}");
}

#[test]
fn a_nox_test_sessions_installs_go_in_with_their_options() {
    let machine = Machine::new();
    machine.tool("bin", "python3", "");
    let fixture = "detect/nox-session-install";
    let install = drafted_install(fixture);
    let run = machine.run(&install, &common::fixture(fixture));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let calls = machine.calls();
    let at = |wanted: &str| calls.find(wanted).unwrap_or_else(|| panic!("no `{wanted}` in {calls}"));
    // The session's requirements file (the test runner) before the project, the plugin
    // without its dependencies after, as the session orders them.
    assert!(at("python3 -m pip install -r tests/requirements.txt\n") < at("python3 -m pip install -e .\n"), "{calls}");
    assert!(at("python3 -m pip install -e .\n") < at("python3 -m pip install --no-deps pytest-randomly\n"), "{calls}");
    assert!(!calls.contains("ruff"), "the lint session's tools are not the tests': {calls}");
}

#[test]
fn a_tasks_unsynced_uv_run_gets_a_venv_that_sees_the_interpreters_packages() {
    let machine = Machine::new();
    let site = machine.path("interpreter-site");
    // The interpreter the install filled: its `-c` sysconfig query answers its site folder,
    // its version check a Python that satisfies the project.
    machine.tool(
        "bin",
        "python3",
        &format!(
            r#"if [ "$1" = -c ]; then case "$2" in *sysconfig*) echo '{site}' ;; *print*) echo 3012 ;; esac; fi"#,
            site = site.display()
        ),
    );
    // `uv venv` makes a `.venv` whose python answers its own site folder.
    machine.tool(
        "bin",
        "uv",
        r#"if [ "$1" = venv ]; then mkdir -p .venv/bin .venv/site; printf '#!/bin/bash\necho "%s/.venv/site"\n' "$PWD" > .venv/bin/python; chmod +x .venv/bin/python; fi"#,
    );
    let checkout = tempfile::tempdir().unwrap();
    common::copy_tree(&common::fixture("detect/uv-no-sync-task"), checkout.path());
    let install = drafted_install("detect/uv-no-sync-task");

    let first = machine.run(&install, checkout.path());
    assert_eq!(first.code, 0, "{}", first.stderr);
    let python = machine.path("bin").join("python3");
    assert!(machine.calls().contains(&format!("uv venv --quiet --python {} .venv\n", python.display())));
    let pth = std::fs::read_to_string(checkout.path().join(".venv/site/_hanzo_env_interpreter.pth")).unwrap();
    assert_eq!(pth, format!("{}\n", site.display()), "the .venv sees where the install put the locked set");

    machine.forget_calls();
    let second = machine.run(&install, checkout.path());
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(!machine.calls().contains("uv venv"), "a .venv already there is kept: {}", machine.calls());
}
