//! The environment as a typed plan: what `install` does, step by step, before one renderer
//! writes it as shell. A step is an action — a stock helper called with its arguments, or a
//! line of shell from the repository kept verbatim — with the evidence that justifies it.
//!
//! The stock helpers (`hanzo_node`, `hanzo_postgres`, …) are shell files of this repository
//! (`src/plan/helpers/`), each a function taking every value as a quoted argument. The file a
//! person reviews shows one short line per step and names the helpers it calls on one marker
//! line; what `save` sends and `export` writes carries the helpers' text in one marked,
//! versioned block (see [`block`]).

pub mod block;
pub mod render;

pub use crate::evidence::Evidence;

/// `word` as one shell word: bare when it is plainly safe, else single-quoted. The one
/// quoting of values the renderer writes.
pub fn quote(word: &str) -> String {
    let bare = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "_-./:@%+,".contains(c));
    if bare { word.to_string() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

/// Where a step goes in the install script: all toolchain steps first, then system
/// packages, then dependency installs, then builds, and last what makes the tools installed
/// visible to every shell an agent opens later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Toolchain,
    System,
    Install,
    Build,
    Expose,
}

/// What a step does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A function of a stock helper (see [`providing`]) with its arguments, each quoted when
    /// rendered.
    Helper { name: &'static str, args: Vec<String> },
    /// Shell from the repository (a CI line, a task recipe) or a command line detection
    /// composed (`pnpm install --frozen-lockfile`), written as it is.
    Shell(String),
}

impl Action {
    /// The action as one shell command (a few lines for a verbatim block).
    pub fn command(&self) -> String {
        match self {
            Action::Helper { name, args } => {
                let mut line = name.to_string();
                for arg in args {
                    line.push(' ');
                    line.push_str(&quote(arg));
                }
                line
            }
            Action::Shell(text) => text.trim().to_string(),
        }
    }

    /// The stock helper it calls, if it is one.
    pub fn helper(&self) -> Option<&'static str> {
        match self {
            Action::Helper { name, .. } => Some(name),
            Action::Shell(_) => None,
        }
    }
}

/// Run a step only where its program is: a polyglot repository's other parts (a PHP port
/// beside the Node project under test) must not stop the install of the part under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub program: String,
    /// The toolchain that brings it (`PHP`), named in the warning.
    pub toolchain: String,
}

/// One step of the install script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub phase: Phase,
    pub action: Action,
    pub guard: Option<Guard>,
    /// The folder it runs in, repo-relative; empty for the root.
    pub dir: String,
    /// The evidence: usually one place; the services' packages cite every service they
    /// serve; none for a step nothing in the repository asks for.
    pub source: Vec<Evidence>,
}

impl Step {
    pub fn shell(phase: Phase, command: impl Into<String>, source: Evidence) -> Step {
        Step { phase, action: Action::Shell(command.into()), guard: None, dir: String::new(), source: cited(source) }
    }

    pub fn helper(phase: Phase, name: &'static str, args: Vec<String>, source: Evidence) -> Step {
        debug_assert!(providing(name).is_some(), "{name} is not a stock helper's function");
        Step { phase, action: Action::Helper { name, args }, guard: None, dir: String::new(), source: cited(source) }
    }

    /// The step citing every one of `sources`.
    pub fn citing(self, sources: Vec<Evidence>) -> Step {
        Step { source: sources, ..self }
    }

    /// Its evidence as a person reads it (`package.json#scripts.test, Makefile:3`).
    pub fn evidence_text(&self) -> String {
        self.source.iter().map(Evidence::to_string).collect::<Vec<_>>().join(", ")
    }

    /// The step run in the folder `dir` (repo-relative; `.` or empty is the root).
    pub fn in_dir(self, dir: &str) -> Step {
        Step { dir: if dir == "." { String::new() } else { dir.to_string() }, ..self }
    }

    /// The step's command, in its folder, without its guard: what a person would type.
    pub fn command(&self) -> String {
        let command = self.action.command();
        if self.dir.is_empty() { command } else { format!("(cd {} && {command})", quote(&self.dir)) }
    }
}

fn cited(source: Evidence) -> Vec<Evidence> {
    if source.is_empty() { Vec::new() } else { vec![source] }
}

/// A stock helper: the shell file that defines it (one function, or a few that belong
/// together), and the helpers its functions call.
#[derive(Debug)]
pub struct Helper {
    pub name: &'static str,
    pub text: &'static str,
    pub needs: &'static [&'static str],
}

macro_rules! helper {
    ($name:literal $(, $need:literal)*) => {
        Helper { name: $name, text: include_str!(concat!("helpers/", $name, ".sh")), needs: &[$($need),*] }
    };
}

/// Every stock helper, in the order a block defines them (a helper before the ones that call
/// it, for a reader; bash resolves calls when they run).
pub const HELPERS: &[Helper] = &[
    helper!("hanzo_root"),
    helper!("hanzo_as"),
    helper!("hanzo_answers"),
    helper!("hanzo_wait", "hanzo_answers"),
    helper!("hanzo_needs"),
    helper!("hanzo_v6"),
    helper!("hanzo_apt_install"),
    helper!("hanzo_docker"),
    helper!("hanzo_compose"),
    helper!("hanzo_service_packages", "hanzo_docker", "hanzo_apt_install"),
    helper!("hanzo_service"),
    helper!("hanzo_postgres", "hanzo_needs", "hanzo_answers", "hanzo_root", "hanzo_as", "hanzo_wait"),
    helper!("hanzo_mysql", "hanzo_needs", "hanzo_answers", "hanzo_root", "hanzo_wait"),
    helper!("hanzo_redis", "hanzo_needs", "hanzo_answers", "hanzo_v6", "hanzo_wait"),
    helper!("hanzo_memcached", "hanzo_needs", "hanzo_answers", "hanzo_v6", "hanzo_wait"),
    helper!("hanzo_rabbitmq", "hanzo_needs", "hanzo_answers", "hanzo_root", "hanzo_wait"),
    helper!("hanzo_node"),
    helper!("hanzo_node_tested", "hanzo_node"),
    helper!("hanzo_pm"),
    helper!("hanzo_python"),
    helper!("hanzo_python_in"),
    helper!("hanzo_python_newest", "hanzo_python_in"),
    helper!("hanzo_pip_setup"),
    helper!("hanzo_pip_each"),
    helper!("hanzo_uv_venv"),
    helper!("hanzo_link_user_tools"),
    helper!("hanzo_have"),
];

/// The helper named `name`.
pub fn helper(name: &str) -> Option<&'static Helper> {
    HELPERS.iter().find(|h| h.name == name)
}

/// The helper whose file defines the function `function` (`hanzo_services_started` is
/// `hanzo_service`'s).
pub fn providing(function: &str) -> Option<&'static Helper> {
    HELPERS.iter().find(|h| defines(h.text, function))
}

fn defines(text: &str, function: &str) -> bool {
    text.lines().any(|line| line.strip_prefix(function).is_some_and(|rest| rest.starts_with("() ")))
}

/// `names` with every helper they call, in [`HELPERS`] order.
pub fn with_needs(names: &[&str]) -> Vec<&'static Helper> {
    let mut wanted: Vec<&str> = names.to_vec();
    let mut i = 0;
    while i < wanted.len() {
        if let Some(h) = helper(wanted[i]) {
            for need in h.needs {
                if !wanted.contains(need) {
                    wanted.push(need);
                }
            }
        }
        i += 1;
    }
    HELPERS.iter().filter(|h| wanted.contains(&h.name)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::ev;

    #[test]
    fn every_helper_file_defines_its_function_and_names_only_known_helpers() {
        let calls = regex::Regex::new(r"\bhanzo_[a-z0-9_]+").unwrap();
        for h in HELPERS {
            assert!(defines(h.text, h.name), "{} does not define {0}()", h.name);
            for need in h.needs {
                assert!(helper(need).is_some(), "{} needs unknown {need}", h.name);
            }
            // Every hanzo_ function it calls is its own or a declared helper's.
            for called in calls.find_iter(h.text).map(|m| m.as_str()) {
                let own = defines(h.text, called)
                    || h.needs.iter().any(|need| helper(need).is_some_and(|need| defines(need.text, called)));
                let variable = h.text.contains(&format!("{called}=")) || h.text.contains(&format!("${{{called}"));
                let dynamic = called == "hanzo_" || h.name == "hanzo_service";
                assert!(
                    own || variable || dynamic || h.needs.contains(&called) || called.starts_with("hanzo_env"),
                    "{} calls {called} without declaring it",
                    h.name
                );
            }
        }
    }

    /// Run `script` after the text of `helpers`; (exit status, stderr).
    fn bash_with(helpers: &[&str], script: &str) -> (i32, String) {
        let text: String = with_needs(helpers).iter().map(|h| h.text).collect::<Vec<_>>().join("\n");
        let out = std::process::Command::new("bash").args(["-c", &format!("{text}\n{script}")]).output().unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
    }

    #[test]
    fn a_service_that_fails_fails_its_call_and_the_start_the_next_still_runs() {
        let stubs = "hanzo_redis() { echo \"redis $*\" >&2; }\nhanzo_postgres() { return 3; }\n";
        let (code, _) = bash_with(&["hanzo_service"], &format!("{stubs}hanzo_service postgres 5432"));
        assert_eq!(code, 1, "a lone service's failure is the start's");
        let script = format!(
            "{stubs}hanzo_service postgres 5432\nhanzo_service mongodb\nhanzo_service redis 6379 ''\nhanzo_services_started"
        );
        let (code, stderr) = bash_with(&["hanzo_service"], &script);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("mongodb is not started (no distribution package provides it)"), "{stderr}");
        assert!(stderr.contains("redis 6379 \n"), "the next service still starts: {stderr}");
        let (code, stderr) =
            bash_with(&["hanzo_service"], &format!("{stubs}hanzo_service redis 6379 ''\nhanzo_services_started"));
        assert_eq!(code, 0, "{stderr}");
    }

    #[test]
    fn needs_are_closed_and_ordered() {
        let names: Vec<&str> = with_needs(&["hanzo_postgres"]).iter().map(|h| h.name).collect();
        assert_eq!(names, ["hanzo_root", "hanzo_as", "hanzo_answers", "hanzo_wait", "hanzo_needs", "hanzo_postgres"]);
    }

    #[test]
    fn a_helper_call_quotes_every_argument() {
        let step =
            Step::helper(Phase::System, "hanzo_postgres", vec!["5432".into(), "it's $x".into()], ev("compose.yaml"));
        assert_eq!(step.command(), r"hanzo_postgres 5432 'it'\''s $x'");
    }
}
