//! `.github/workflows/copilot-setup-steps.yml`: the job GitHub's Copilot coding agent runs
//! before it starts. One job, named `copilot-setup-steps` (Copilot looks for that name):
//! checkout, a setup action per toolchain at its pinned version, the package managers' own
//! setup, the services as Actions `services:`, the install script, then any long-running
//! start in the background. Runnable by hand and on every change of the file itself.

use super::yaml::{self, Node};
use super::{ExportFile, Exported, Setup, StartKind, Target};
use crate::detect::ecosystems;

pub const PATH: &str = ".github/workflows/copilot-setup-steps.yml";
/// The job name Copilot requires.
pub const JOB: &str = "copilot-setup-steps";
const CHECKOUT: &str = "actions/checkout@v4";
/// Copilot allows at most 59 minutes; an install that needs more than this is stuck.
const TIMEOUT_MINUTES: u64 = 30;

pub fn render(setup: &Setup) -> Exported {
    let mut notes = Vec::new();
    let mut steps = vec![step("Check out the repository", CHECKOUT, vec![])];
    let mut used = Vec::new();
    steps.extend(toolchain_steps(setup, &mut used, &mut notes));
    steps.extend(manager_steps(setup, &used, &mut notes));

    let services = services(setup, &mut notes);
    if !setup.install.trim().is_empty() {
        let mut install = vec![("name".to_string(), Node::str("Install")), ("shell".to_string(), Node::str("bash"))];
        if !setup.secrets.is_empty() {
            let env = setup
                .secrets
                .iter()
                .map(|(name, _)| (name.clone(), Node::Generated(format!("${{{{ secrets.{name} }}}}"))));
            install.push(("env".to_string(), Node::map(env)));
        }
        install.push(("run".to_string(), Node::str(&setup.install)));
        steps.push(Node::Map(install));
    }
    // Services in `services:` are up before the first step: a start that only brings them
    // up again is left out, when every service could be declared there.
    let services_declared = !services.is_empty() && setup.runnable_services().count() == setup.services.len();
    let background: Vec<&str> = setup
        .starts
        .iter()
        .filter(|s| !(services_declared && super::start_kind(&s.command) == StartKind::Services))
        .map(|s| s.command.as_str())
        .collect();
    for (i, command) in background.iter().enumerate() {
        let log =
            if background.len() == 1 { "hanzo-start.log".to_string() } else { format!("hanzo-start-{}.log", i + 1) };
        steps.push(Node::map([
            ("name", Node::str(format!("Start in the background: {}", super::one_line(command)))),
            ("shell", Node::str("bash")),
            (
                "run",
                Node::str(format!("nohup bash -c {} > \"$RUNNER_TEMP/{log}\" 2>&1 &\n", super::shell_quote(command))),
            ),
        ]));
    }

    let mut job = vec![
        ("runs-on".to_string(), Node::str("ubuntu-latest")),
        ("permissions".to_string(), Node::map([("contents", Node::str("read"))])),
        ("timeout-minutes".to_string(), Node::Int(TIMEOUT_MINUTES)),
    ];
    if !services.is_empty() {
        job.push(("services".to_string(), Node::Map(services)));
    }
    job.push(("steps".to_string(), Node::Seq(steps)));

    let on_change = || Node::map([("paths", Node::strs([PATH]))]);
    let mut document = vec![
        ("name".to_string(), Node::str("Copilot Setup Steps")),
        (
            "on".to_string(),
            Node::map([("workflow_dispatch", Node::Null), ("push", on_change()), ("pull_request", on_change())]),
        ),
        ("jobs".to_string(), Node::map([(JOB, Node::Map(job))])),
    ];

    let mut text = format!("# {}\n", super::header(Target::Copilot, setup));
    text.push_str("# Copilot's coding agent runs this job before it starts; the job must keep its name.\n");
    if !setup.secrets.is_empty() {
        let names: Vec<&str> = setup.secrets.iter().map(|(n, _)| n.as_str()).collect();
        text.push_str(&format!("# Secrets, from the repository's `copilot` environment: {}.\n", names.join(", ")));
    }
    text.push('\n');
    // Text from the repository (install lines, service values, versions, step names) must
    // not become an expression Actions evaluates.
    for (key, value) in &mut document {
        *key = literal_for_actions(key);
        value.rewrite_text(&literal_for_actions, true);
    }
    text.push_str(&yaml::document(&document));
    Exported { files: vec![ExportFile { path: PATH.to_string(), contents: text }], notes }
}

/// `text` with every `${{` written as the expression `${{ '${{' }}`, which Actions evaluates
/// to the literal `${{`: the run gets the repository's text as it is, and nothing of it is
/// evaluated (`${{ secrets.DEPLOY_KEY }}` in a compose value, `${{ github.event.… }}` in an
/// install line: the classic script injection).
fn literal_for_actions(text: &str) -> String {
    text.replace("${{", "${{ '${{' }}")
}

fn step(name: &str, uses: &str, with: Vec<(String, Node)>) -> Node {
    let mut entries = vec![("name".to_string(), Node::str(name)), ("uses".to_string(), Node::str(uses))];
    if !with.is_empty() {
        entries.push(("with".to_string(), Node::Map(with)));
    }
    Node::Map(entries)
}

/// A setup action being filled: its inputs, and what it sets up (`node 20`) for its name.
type ActionStep = (&'static ecosystems::ecosystem::SetupStep, Vec<(String, Node)>, Vec<String>);

/// One step per setup action (each ecosystem declares its official one): toolchains that
/// share an action (Erlang and Elixir in setup-beam) go in one step with both inputs. The
/// actions used are added to `used`.
fn toolchain_steps(setup: &Setup, used: &mut Vec<&'static str>, notes: &mut Vec<String>) -> Vec<Node> {
    let mut actions: Vec<ActionStep> = Vec::new();
    for toolchain in &setup.toolchains {
        // A runtime that is its own package manager (bun) is pinned by either.
        let as_manager = setup.package_managers.iter().find(|m| m.name == toolchain.name);
        let version = toolchain.version.as_deref().or_else(|| as_manager.and_then(|m| m.version.as_deref()));
        let Some(action) = ecosystems::setup_step(&toolchain.name) else {
            if !matches!(toolchain.name.as_str(), "cpp" | "kotlin" | "scala" | "clojure") {
                notes.push(format!(
                    "copilot: no setup action known for {}; the runner image's, if any, is used",
                    toolchain.name
                ));
            }
            continue;
        };
        let part = match version {
            Some(v) => format!("{} {v}", toolchain.name),
            None if action.when_unpinned => toolchain.name.clone(),
            None => continue,
        };
        let at = match actions.iter().position(|(a, ..)| a.uses == action.uses) {
            Some(at) => at,
            None => {
                let fixed = action.fixed.iter().map(|(k, v)| (k.to_string(), Node::str(*v))).collect();
                actions.push((action, fixed, Vec::new()));
                actions.len() - 1
            }
        };
        if let Some(v) = version {
            actions[at].1.push((action.version_input.to_string(), Node::str(v)));
        }
        actions[at].2.push(part);
    }
    let mut steps = Vec::new();
    for (action, with, parts) in actions {
        if let Some(required) = action.requires
            && !with.iter().any(|(key, _)| key == required)
        {
            notes.push(format!(
                "copilot: {} is pinned but {} also needs `{required}`: pin it (.tool-versions) and export again",
                parts.join(" and "),
                action.uses
            ));
            continue;
        }
        used.push(action.uses);
        steps.push(step(&format!("Set up {}", parts.join(" and ")), action.uses, with));
    }
    steps
}

/// One step per package manager with a setup action, unless a toolchain step already runs
/// that action (bun is both a runtime and a package manager).
fn manager_steps(setup: &Setup, used: &[&'static str], notes: &mut Vec<String>) -> Vec<Node> {
    let mut steps = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for manager in &setup.package_managers {
        if seen.contains(&manager.name.as_str()) {
            continue;
        }
        seen.push(&manager.name);
        let Some(action) = ecosystems::setup_step(&manager.name).filter(|a| !used.contains(&a.uses)) else {
            continue;
        };
        let (uses, input) = (action.uses, action.version_input);
        // An action that reads `packageManager` itself fails when told a version too.
        let from_package_json = manager.source.is_key("packageManager");
        let reads_field = action.reads_package_manager_field;
        let with = match (&manager.version, from_package_json) {
            (_, true) if reads_field => vec![],
            (Some(v), _) => vec![(input.to_string(), Node::str(v))],
            (None, _) if reads_field => {
                notes.push(format!(
                    "copilot: {} has no pinned version (no `packageManager` in package.json); the install script \
                     sets it up",
                    manager.name
                ));
                continue;
            }
            (None, _) => vec![],
        };
        let name = match &manager.version {
            Some(v) => format!("Set up {} {v}", manager.name),
            None => format!("Set up {}", manager.name),
        };
        steps.push(step(&name, uses, with));
    }
    steps
}

/// `services:` entries: image, env and ports as detection states them.
fn services(setup: &Setup, notes: &mut Vec<String>) -> Vec<(String, Node)> {
    let mut out = Vec::new();
    for service in &setup.services {
        let Some(image) = &service.image else {
            notes.push(format!("copilot: service {} has no image ({}); not declared", service.name, service.source));
            continue;
        };
        let mut entries = vec![("image".to_string(), Node::str(image))];
        if !service.env.is_empty() {
            entries.push(("env".to_string(), Node::map(service.env.iter().map(|(k, v)| (k.clone(), Node::str(v))))));
        }
        if !service.ports.is_empty() {
            entries.push(("ports".to_string(), Node::strs(service.ports.iter().cloned())));
        }
        out.push((service.name.clone(), Node::Map(entries)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::ev;
    use yaml_rust2::{Yaml, YamlLoader};

    fn parsed(setup: &Setup) -> (Yaml, Exported) {
        let exported = render(setup);
        let text = &exported.files[0].contents;
        let yaml = YamlLoader::load_from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}")).remove(0);
        (yaml, exported)
    }

    fn uses(steps: &Yaml) -> Vec<String> {
        steps.as_vec().unwrap().iter().filter_map(|s| s["uses"].as_str().map(str::to_string)).collect()
    }

    #[test]
    fn one_job_with_pinned_setup_services_and_install() {
        let (yaml, exported) = parsed(&super::super::tests::setup());
        assert_eq!(exported.files[0].path, ".github/workflows/copilot-setup-steps.yml");
        let jobs = yaml["jobs"].as_hash().unwrap();
        assert_eq!(jobs.len(), 1);
        let job = &yaml["jobs"]["copilot-setup-steps"];
        assert_eq!(job["permissions"]["contents"].as_str(), Some("read"));
        assert_eq!(job["timeout-minutes"].as_i64(), Some(30));
        assert!(yaml["on"]["workflow_dispatch"].is_null());
        assert_eq!(yaml["on"]["push"]["paths"][0].as_str(), Some(PATH));
        assert_eq!(yaml["on"]["pull_request"]["paths"][0].as_str(), Some(PATH));
        let steps = &job["steps"];
        assert_eq!(
            uses(steps),
            [
                "actions/checkout@v4",
                "actions/setup-node@v4",
                "actions/setup-python@v5",
                "pnpm/action-setup@v4",
                "astral-sh/setup-uv@v6"
            ]
        );
        assert_eq!(steps[1]["with"]["node-version"].as_str(), Some("20"));
        assert_eq!(steps[2]["with"]["python-version"].as_str(), Some("3.12"));
        assert!(steps[3]["with"].is_badvalue(), "the version comes from packageManager");
        let postgres = &job["services"]["postgres"];
        assert_eq!(postgres["image"].as_str(), Some("postgres:16-alpine"));
        assert_eq!(postgres["env"]["POSTGRES_PASSWORD"].as_str(), Some("shop"));
        assert_eq!(postgres["ports"][0].as_str(), Some("5432:5432"));
        assert_eq!(job["services"]["redis"]["ports"][0].as_str(), Some("6379:6379"));
        let install = &steps[5];
        assert_eq!(install["run"].as_str(), Some(super::super::tests::setup().install.as_str()));
        assert_eq!(install["env"]["DATABASE_URL"].as_str(), Some("${{ secrets.DATABASE_URL }}"));
        // The compose start is covered by `services:`; the dev server runs in the background.
        let last = steps.as_vec().unwrap().last().unwrap();
        assert_eq!(last["run"].as_str(), Some("nohup bash -c 'pnpm dev' > \"$RUNNER_TEMP/hanzo-start.log\" 2>&1 &\n"));
        assert_eq!(steps.as_vec().unwrap().len(), 7);
    }

    #[test]
    fn bun_as_runtime_and_package_manager_is_set_up_once() {
        let mut setup = super::super::tests::setup();
        setup.toolchains = vec![crate::detect::Toolchain {
            name: "bun".into(),
            version: crate::detect::sources::version::Pin::parse("1.3.12"),
            source: ev("package.json#packageManager"),
        }];
        setup.package_managers.retain(|m| m.name == "bun" || m.name == "pnpm");
        setup.package_managers.push(crate::detect::PackageManager {
            name: "bun".into(),
            version: None,
            path: "frontend".into(),
            source: ev("frontend/bun.lock"),
        });
        let (yaml, _) = parsed(&setup);
        let steps = &yaml["jobs"]["copilot-setup-steps"]["steps"];
        assert_eq!(uses(steps), ["actions/checkout@v4", "oven-sh/setup-bun@v2", "pnpm/action-setup@v4"]);
        assert_eq!(steps[1]["with"]["bun-version"].as_str(), Some("1.3.12"));
    }

    #[test]
    fn unpinned_and_unknown_toolchains() {
        let mut setup = super::super::tests::setup();
        setup.toolchains = vec![
            crate::detect::Toolchain { name: "node".into(), version: None, source: ev("package.json") },
            crate::detect::Toolchain { name: "bun".into(), version: None, source: ev("bun.lock") },
            crate::detect::Toolchain {
                name: "java".into(),
                version: crate::detect::sources::version::Pin::parse("21"),
                source: ev("pom.xml"),
            },
            crate::detect::Toolchain {
                name: "elixir".into(),
                version: crate::detect::sources::version::Pin::parse("1.17"),
                source: ev("mix.exs"),
            },
            crate::detect::Toolchain {
                name: "erlang".into(),
                version: crate::detect::sources::version::Pin::parse("27"),
                source: ev(".tool-versions"),
            },
            crate::detect::Toolchain {
                name: "nim".into(),
                version: crate::detect::sources::version::Pin::parse("2"),
                source: ev("x.nimble"),
            },
        ];
        let (yaml, exported) = parsed(&setup);
        let steps = &yaml["jobs"][JOB]["steps"];
        let used = uses(steps);
        assert!(!used.contains(&"actions/setup-node@v4".to_string()), "unpinned node: the runner's");
        assert!(used.contains(&"oven-sh/setup-bun@v2".to_string()));
        let java =
            steps.as_vec().unwrap().iter().find(|s| s["uses"].as_str() == Some("actions/setup-java@v4")).unwrap();
        assert_eq!(java["with"]["distribution"].as_str(), Some("temurin"));
        assert_eq!(java["with"]["java-version"].as_str(), Some("21"));
        let beam = steps.as_vec().unwrap().iter().find(|s| s["uses"].as_str() == Some("erlef/setup-beam@v1")).unwrap();
        assert_eq!(beam["with"]["otp-version"].as_str(), Some("27"));
        assert_eq!(beam["with"]["elixir-version"].as_str(), Some("1.17"));
        assert!(exported.notes.iter().any(|n| n.contains("nim")), "{:?}", exported.notes);
    }

    #[test]
    fn an_image_less_service_keeps_the_compose_start() {
        let mut setup = super::super::tests::setup();
        setup.services[1].image = None;
        let (yaml, exported) = parsed(&setup);
        let job = &yaml["jobs"][JOB];
        assert!(job["services"]["redis"].is_badvalue());
        assert!(exported.notes.iter().any(|n| n.contains("redis")));
        let runs: Vec<&str> = job["steps"].as_vec().unwrap().iter().filter_map(|s| s["run"].as_str()).collect();
        assert!(runs.iter().any(|r| r.contains("docker compose up -d db cache")), "{runs:?}");
    }

    #[test]
    fn nothing_to_set_up_is_still_a_valid_job() {
        let setup = Setup::new(&crate::detect::Detection::default(), None).unwrap();
        let (yaml, _) = parsed(&setup);
        assert_eq!(uses(&yaml["jobs"][JOB]["steps"]), ["actions/checkout@v4"]);
        assert!(yaml["jobs"][JOB]["services"].is_badvalue());
    }

    /// Every string of `yaml` (keys too), depth first.
    fn strings(yaml: &Yaml, out: &mut Vec<String>) {
        match yaml {
            Yaml::String(s) => out.push(s.clone()),
            Yaml::Array(items) => items.iter().for_each(|i| strings(i, out)),
            Yaml::Hash(map) => map.iter().for_each(|(k, v)| {
                strings(k, out);
                strings(v, out);
            }),
            _ => {}
        }
    }

    #[test]
    fn no_text_from_the_repository_becomes_an_actions_expression_in_any_field() {
        let expr = |what: &str| format!("${{{{ github.event.{what} }}}}");
        let mut setup = super::super::tests::setup();
        setup.install = format!("echo {}\nmake\n", expr("install"));
        setup.starts[1].command = format!("node serve.js {}", expr("start"));
        setup.package_managers[0].version = Some(expr("manager"));
        let service = &mut setup.services[0];
        service.name = format!("db{}", expr("service"));
        service.image = Some(format!("postgres:{}", expr("image")));
        service.env.insert(expr("key"), format!("$${}", expr("value")));
        service.ports = vec![format!("{}:5432", expr("port"))];
        let (yaml, exported) = parsed(&setup);
        let mut all = Vec::new();
        strings(&yaml, &mut all);
        let literal = "${{ '${{' }}";
        for text in &all {
            let rest = text.replace(literal, "");
            let generated = setup.secrets.iter().any(|(name, _)| text == &format!("${{{{ secrets.{name} }}}}"));
            assert!(generated || !rest.contains("${{"), "evaluated by Actions: {text}\n{}", exported.files[0].contents);
        }
        // A toolchain's version is a checked `Pin`: no expression can be one.
        for what in ["install", "start", "manager", "service", "image", "key", "value", "port"] {
            let quoted = format!("{literal} github.event.{what} }}}}");
            assert!(all.iter().any(|t| t.contains(&quoted)), "{what} is kept, as a literal: {all:?}");
        }
        // The secrets export declares stay expressions.
        let install = job_steps(&yaml).into_iter().find(|s| s["name"].as_str() == Some("Install")).unwrap();
        assert_eq!(install["env"]["DATABASE_URL"].as_str(), Some("${{ secrets.DATABASE_URL }}"));
    }

    fn job_steps(yaml: &Yaml) -> Vec<Yaml> {
        yaml["jobs"][JOB]["steps"].as_vec().unwrap().clone()
    }
}
