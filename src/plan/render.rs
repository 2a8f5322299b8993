//! The one renderer: a plan's steps (and its services) as the shell a person reviews. Every
//! value is a quoted argument of a stock helper; every line carries its evidence; the helpers
//! the script calls are named on its first line (see [`super::block`]).

use super::{Evidence, Step, block, providing};

/// A comment must stay one line whatever a file name holds, and carry no control character a
/// terminal would act on: line breaks become spaces, other controls are shown escaped.
pub fn comment_text(text: &str) -> String {
    crate::text::printable_line(&text.replace(['\n', '\r', '\t'], " ")).into_owned()
}

/// The helpers `steps` call, top-level names in the registry's order.
fn helpers_of(steps: &[Step]) -> Vec<&'static str> {
    let mut used: Vec<&'static str> = Vec::new();
    for step in steps {
        let called = step.action.helper().and_then(providing).map(|h| h.name);
        let guard = step.guard.as_ref().map(|_| "hanzo_have");
        for name in called.into_iter().chain(guard) {
            if !used.contains(&name) {
                used.push(name);
            }
        }
    }
    super::HELPERS.iter().map(|h| h.name).filter(|n| used.contains(n)).collect()
}

/// The step as it runs: its command, inside its guard when it has one.
fn guarded(step: &Step) -> String {
    let command = step.command();
    let Some(guard) = &step.guard else { return command };
    let test = format!("hanzo_have {} {}", super::quote(&guard.program), super::quote(&guard.toolchain));
    if command.contains('\n') || command.contains('#') {
        let body: Vec<String> = command.lines().map(|l| format!("  {l}")).collect();
        format!("if {test}; then\n{}\nfi", body.join("\n"))
    } else {
        format!("if {test}; then {command}; fi")
    }
}

/// `command  # evidence` when a comment can follow it on its line.
fn with_evidence(command: &str, source: &str) -> Option<String> {
    if command.contains('\n') || command.ends_with('\\') {
        return None;
    }
    Some(if source.is_empty() { command.to_string() } else { format!("{command}  # {}", comment_text(source)) })
}

/// `command` with its evidence: beside it when it is one line, else on a comment line above.
pub fn evidenced(command: &str, source: &str) -> String {
    with_evidence(command, source).unwrap_or_else(|| format!("# {}\n{command}", comment_text(source)))
}

/// `line` without the evidence comment [`install`] writes after a command (`  # …`, outside
/// any quotes): the command a reader compares.
pub fn without_evidence(line: &str) -> &str {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            ' ' if !single && !double && line[i..].starts_with("  # ") => return line[..i].trim_end(),
            _ => {}
        }
    }
    line
}

/// The install script a person reviews: the helpers line, `set -euo pipefail`, then one line
/// per step with its evidence beside it (a step of several lines has it above, once for
/// consecutive steps of the same evidence). A single one-line step of plain shell is the
/// install as it is: its exit status is already the script's, and the file shows its evidence
/// beside it. Empty when there is nothing to do.
pub fn install(steps: &[Step]) -> String {
    match steps {
        [] => return String::new(),
        [only] if only.guard.is_none() && only.action.helper().is_none() && !only.command().contains('\n') => {
            return only.command();
        }
        _ => {}
    }
    let mut script = String::new();
    let helpers = helpers_of(steps);
    if !helpers.is_empty() {
        script.push_str(&block::line(&helpers));
        script.push('\n');
    }
    script.push_str("set -euo pipefail\n");
    let mut last_source: Option<&[Evidence]> = None;
    for step in steps {
        let command = guarded(step);
        if let Some(line) = with_evidence(&command, &step.evidence_text()) {
            script.push_str(&line);
            script.push('\n');
            last_source = None;
            continue;
        }
        if last_source != Some(step.source.as_slice()) && !step.source.is_empty() {
            script.push_str(&format!("# {}\n", comment_text(&step.evidence_text())));
            last_source = Some(&step.source);
        }
        script.push_str(command.trim_end());
        script.push('\n');
    }
    script
}

/// How Docker brings the services up: `docker compose … up -d …` lines (which fall back to
/// `docker-compose`) or `docker run -d …` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DockerUp {
    Compose(Vec<String>),
    Run(Vec<String>),
}

/// One service `start` runs from its distribution package where Docker cannot:
/// `hanzo_service PRODUCT ARG…` (the product's helper is `hanzo_PRODUCT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceCall {
    /// The helper's product (`postgres` for `hanzo_postgres`).
    pub product: &'static str,
    pub args: Vec<String>,
    pub source: Evidence,
}

impl ServiceCall {
    /// `hanzo_service postgres 5432 app '' app`, every value quoted.
    pub fn command(&self) -> String {
        let mut line = format!("hanzo_service {}", self.product);
        for arg in &self.args {
            line.push(' ');
            line.push_str(&super::quote(arg));
        }
        line
    }
}

/// The first comment of a services start: what brings the services up.
pub const SERVICES_HEADER: &str = "# services: ";

/// The services start: Docker when it can bring them up (`docker compose`, else
/// `docker-compose`; or `docker run`), else each of `native` from its package;
/// `docker_only` names the products no package provides (not started without Docker: the
/// script then fails, saying so).
pub fn services(docker: &DockerUp, native: &[ServiceCall], docker_only: &[&str]) -> String {
    let mut helpers: Vec<&'static str> = Vec::new();
    let (how, commands, usable) = match docker {
        DockerUp::Compose(lines) => {
            helpers.push("hanzo_compose");
            let lines = lines
                .iter()
                .map(|l| {
                    l.strip_prefix("docker compose ").map_or_else(|| l.clone(), |rest| format!("hanzo_compose {rest}"))
                })
                .collect::<Vec<_>>();
            ("docker compose, else docker-compose", lines, "compose")
        }
        DockerUp::Run(lines) => ("docker run", lines.clone(), "run"),
    };
    let body = commands.join(" &&\n  ");
    if native.is_empty() {
        let header = format!("{SERVICES_HEADER}{how}\n");
        return format!("{}{header}{}", helpers_line(&helpers), commands.join(" &&\n"));
    }
    helpers.push("hanzo_docker");
    helpers.push("hanzo_service");
    for call in native {
        let helper = format!("hanzo_{}", call.product);
        if let Some(h) = providing(&helper) {
            helpers.push(h.name);
        }
    }
    let mut script = helpers_line(&helpers);
    script.push_str(&format!("{SERVICES_HEADER}{how}, else the distribution's packages\n"));
    script.push_str(&format!("if hanzo_docker {usable}; then\n  {body}\nelse\n"));
    for call in native {
        let line = call.command();
        script.push_str(&format!("  {}\n", with_evidence(&line, &call.source.to_string()).unwrap_or(line)));
    }
    for product in docker_only {
        script.push_str(&format!("  hanzo_service {}\n", super::quote(product)));
    }
    if native.len() + docker_only.len() > 1 {
        script.push_str("  hanzo_services_started\n");
    }
    script.push_str("fi");
    script
}

fn helpers_line(helpers: &[&'static str]) -> String {
    let ordered: Vec<&str> = super::HELPERS.iter().map(|h| h.name).filter(|n| helpers.contains(n)).collect();
    if ordered.is_empty() { String::new() } else { format!("{}\n", block::line(&ordered)) }
}

/// The Docker commands of a services start [`services`] wrote, one each (`docker compose …
/// up -d …`, `docker run -d …`), from the plan's own layout; `None` for any other start.
pub fn docker_commands(start: &str) -> Option<Vec<String>> {
    let mut lines = start.lines().skip_while(|l| !l.starts_with(SERVICES_HEADER)).skip(1).peekable();
    lines.peek()?;
    let in_branch = lines.peek().is_some_and(|l| l.starts_with("if hanzo_docker "));
    if in_branch {
        lines.next();
    }
    let commands = lines
        .map(str::trim)
        .take_while(|l| !matches!(l.split_whitespace().next(), Some("else" | "fi")))
        .map(|l| l.trim_end_matches("&&").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.strip_prefix("hanzo_compose ").map_or_else(|| l.to_string(), |rest| format!("docker compose {rest}"))
        })
        .collect();
    Some(commands)
}

/// Whether `start` is a services start [`services`] wrote (a reviewed copy included).
pub fn is_services_script(start: &str) -> bool {
    start.lines().any(|l| l.starts_with(SERVICES_HEADER))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::ev;
    use crate::plan::{Guard, Phase};
    use crate::rel_path::rel;

    #[test]
    fn one_line_per_step_with_its_evidence() {
        let steps = vec![
            Step::helper(Phase::Toolchain, "hanzo_node", vec!["22".into()], ev(".nvmrc")),
            Step::helper(
                Phase::Toolchain,
                "hanzo_pm",
                vec!["pnpm".into(), "9.12.0".into()],
                ev("package.json#packageManager"),
            ),
            Step::shell(Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-lock.yaml")),
            Step {
                guard: Some(Guard { program: "composer".into(), toolchain: "PHP".into() }),
                ..Step::shell(Phase::Install, "composer install", ev("composer.lock"))
            },
        ];
        assert_eq!(
            install(&steps),
            "# hanzo-env helpers v1: hanzo_node hanzo_pm hanzo_have\nset -euo pipefail\nhanzo_node 22  # .nvmrc\n\
             hanzo_pm pnpm 9.12.0  # package.json#packageManager\npnpm install --frozen-lockfile  # pnpm-lock.yaml\n\
             if hanzo_have composer PHP; then composer install; fi  # composer.lock\n"
        );
    }

    #[test]
    fn a_lone_plain_step_is_the_install_and_blocks_keep_their_evidence_above() {
        assert_eq!(install(&[Step::shell(Phase::Install, "npm ci", ev("package-lock.json"))]), "npm ci");
        let steps = vec![
            Step::shell(Phase::Install, "a \\\n  b", ev("x")),
            Step::shell(Phase::Install, "for i in 1; do\n  c\ndone", ev("x")),
        ];
        assert_eq!(install(&steps), "set -euo pipefail\n# x\na \\\n  b\nfor i in 1; do\n  c\ndone\n");
    }

    #[test]
    fn evidence_cannot_break_or_drive_the_terminal() {
        let steps = vec![
            Step::shell(Phase::Install, "npm ci", ev("we\nird\u{1b}]0;title\u{7}/package-lock.json")),
            Step::shell(Phase::Install, "make", ev("Makefile")),
        ];
        let script = install(&steps);
        assert!(!script.chars().any(|c| c.is_control() && c != '\n'), "{script:?}");
        assert_eq!(script.lines().count(), 3, "{script}");
    }

    #[test]
    fn evidence_comes_off_a_line_but_never_out_of_quotes() {
        assert_eq!(without_evidence("pnpm install  # pnpm-lock.yaml"), "pnpm install");
        assert_eq!(without_evidence("echo 'a  # b'  # x"), "echo 'a  # b'");
        assert_eq!(without_evidence("echo \"a  # b\""), "echo \"a  # b\"");
        assert_eq!(without_evidence("make"), "make");
    }

    #[test]
    fn services_fall_back_to_the_packages_and_name_their_helpers() {
        let native = vec![
            ServiceCall {
                product: "postgres",
                args: vec!["5432".into(), "app".into(), "it's".into(), "app".into()],
                source: Evidence::key(rel!("compose.yaml"), "services.db"),
            },
            ServiceCall {
                product: "redis",
                args: vec!["6379".into(), String::new()],
                source: Evidence::key(rel!("compose.yaml"), "services.cache"),
            },
        ];
        let docker = DockerUp::Compose(vec!["docker compose up -d db cache".into()]);
        let start = services(&docker, &native, &["mongodb"]);
        assert_eq!(
            start,
            "# hanzo-env helpers v1: hanzo_docker hanzo_compose hanzo_service hanzo_postgres hanzo_redis\n\
             # services: docker compose, else docker-compose, else the distribution's packages\n\
             if hanzo_docker compose; then\n  hanzo_compose up -d db cache\nelse\n\
             \x20 hanzo_service postgres 5432 app 'it'\\''s' app  # compose.yaml#services.db\n\
             \x20 hanzo_service redis 6379 ''  # compose.yaml#services.cache\n  hanzo_service mongodb\n\
             \x20 hanzo_services_started\nfi"
        );
        assert_eq!(docker_commands(&start).unwrap(), ["docker compose up -d db cache"]);
        assert!(is_services_script(&start));
    }
}
