//! `.devcontainer/devcontainer.json` (dev containers, Codespaces): a base image, one official
//! feature per toolchain at its pinned version, the install as `postCreateCommand`, and the
//! secret names as recommended `secrets`. With services, the compose form: a
//! `.devcontainer/compose.yaml` whose `dev` container is the workspace and whose services
//! share its network, so the code reaches them on `localhost` as it does in CI, with their
//! ports forwarded. The JSON carries one `//` header line (devcontainer.json is JSONC).

use std::collections::BTreeMap;

use serde::Serialize;

use super::yaml::{self, Node};
use super::{ExportFile, Exported, Setup, Target};

pub const PATH: &str = ".devcontainer/devcontainer.json";
pub const COMPOSE_FILE: &str = ".devcontainer/compose.yaml";
pub const INSTALL_SCRIPT: &str = ".devcontainer/install.sh";
/// Debian with the dev-container conventions (a non-root user, common tools); the features
/// add the toolchains.
pub const BASE_IMAGE: &str = "mcr.microsoft.com/devcontainers/base:bookworm";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DevContainer {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    docker_compose_file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    service: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    run_services: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    workspace_folder: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    features: BTreeMap<String, BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    forward_ports: Vec<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    post_create_command: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    secrets: BTreeMap<String, SecretDoc>,
}

#[derive(Serialize)]
struct SecretDoc {
    description: String,
}

pub fn render(setup: &Setup) -> Exported {
    let mut notes = Vec::new();
    let mut files = Vec::new();

    let mut features = BTreeMap::new();
    for toolchain in &setup.toolchains {
        match crate::detect::ecosystems::devcontainer_feature(&toolchain.name) {
            Some(id) => {
                let options = toolchain.version.iter().map(|v| ("version".to_string(), v.to_string())).collect();
                features.entry(id.to_string()).or_insert(options);
            }
            None if !matches!(toolchain.name.as_str(), "cpp" | "kotlin" | "scala" | "clojure") => notes.push(format!(
                "devcontainer: no official dev-container feature for {}; the install script must set it up",
                toolchain.name
            )),
            None => {}
        }
    }

    let services: Vec<&crate::detect::Service> = setup.runnable_services().collect();
    // The compose file runs the services beside the workspace: the install's fallback that
    // adds them from the distribution's packages where Docker is missing has nothing to do.
    let sidecars;
    let setup = if services.is_empty() {
        setup
    } else {
        sidecars = setup.without_helper("hanzo_service_packages");
        &sidecars
    };
    let install = setup.install.trim();
    let post_create_command = if install.is_empty() {
        None
    } else if install.contains('\n') {
        files.push(ExportFile {
            path: INSTALL_SCRIPT.into(),
            contents: super::install_script_file(Target::Devcontainer, setup),
        });
        Some(format!("bash {INSTALL_SCRIPT}"))
    } else {
        Some(install.to_string())
    };

    let secrets = setup
        .secrets
        .iter()
        .map(|(name, source)| {
            let description = match source {
                Some(source) => format!("Read by {}", super::one_line(source)),
                None => "Listed in .hanzo/environment.toml".to_string(),
            };
            (name.clone(), SecretDoc { description })
        })
        .collect();

    for service in setup.services.iter().filter(|s| s.image.is_none()) {
        notes.push(format!(
            "devcontainer: service {} has no image ({}); not in the compose file",
            service.name, service.source
        ));
    }
    let mut forward_ports: Vec<u16> = Vec::new();
    for port in services.iter().flat_map(|s| &s.ports).filter_map(|p| super::container_port(p)) {
        if !forward_ports.contains(&port) {
            forward_ports.push(port);
        }
    }

    let mut config = DevContainer {
        name: setup.repo.clone(),
        image: None,
        docker_compose_file: None,
        service: None,
        run_services: Vec::new(),
        workspace_folder: None,
        features,
        forward_ports,
        post_create_command,
        secrets,
    };
    if services.is_empty() {
        config.image = Some(BASE_IMAGE.to_string());
    } else {
        let workspace = workspace_service(setup);
        files.push(ExportFile { path: COMPOSE_FILE.into(), contents: compose_file(setup, &workspace, &services) });
        config.docker_compose_file = Some("compose.yaml".into());
        config.run_services =
            std::iter::once(workspace.clone()).chain(services.iter().map(|s| s.name.clone())).collect();
        config.service = Some(workspace);
        config.workspace_folder = Some("/workspaces/${localWorkspaceFolderBasename}".into());
    }
    // Serializing strings, numbers and maps of them cannot fail.
    let json = serde_json::to_string_pretty(&config).unwrap_or_default();
    files.insert(
        0,
        ExportFile {
            path: PATH.into(),
            contents: format!("// {}\n{json}\n", super::header(Target::Devcontainer, setup)),
        },
    );
    Exported { files, notes }
}

/// The workspace container's service name: `dev`, unless a detected service took it.
fn workspace_service(setup: &Setup) -> String {
    if setup.services.iter().any(|s| s.name == "dev") { "workspace".into() } else { "dev".into() }
}

fn compose_file(setup: &Setup, workspace: &str, services: &[&crate::detect::Service]) -> String {
    let mut entries = vec![(
        workspace.to_string(),
        Node::map([
            ("image", Node::str(BASE_IMAGE)),
            ("command", Node::str("sleep infinity")),
            // The checkout's parent, so the workspace sits at /workspaces/<folder name>.
            ("volumes", Node::strs(["../..:/workspaces:cached"])),
        ]),
    )];
    for service in services {
        let mut fields = vec![
            ("image".to_string(), Node::str(service.image.clone().unwrap_or_default())),
            ("restart".to_string(), Node::str("unless-stopped")),
            // On the workspace's network: `localhost:<port>` reaches it, as in CI.
            ("network_mode".to_string(), Node::str(format!("service:{workspace}"))),
        ];
        if !service.env.is_empty() {
            fields.push((
                "environment".to_string(),
                Node::map(service.env.iter().map(|(k, v)| (k.clone(), Node::str(v)))),
            ));
        }
        let mut service_node = Node::Map(fields);
        // Compose fills `$VAR` and `${VAR}` from the developer's host environment when the
        // container starts: a value detection read (from CI, where it was literal) is kept
        // literal, every `$` written `$$`.
        service_node.rewrite_text(&|text| text.replace('$', "$$"), false);
        entries.push((service.name.clone(), service_node));
    }
    format!(
        "# {}\n\n{}",
        super::header(Target::Devcontainer, setup),
        yaml::document(&[("services".to_string(), Node::Map(entries))])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::ev;

    fn json(file: &ExportFile) -> serde_json::Value {
        jsonc_parser::parse_to_serde_value(&file.contents, &Default::default()).unwrap()
    }

    #[test]
    fn services_give_the_compose_form() {
        let exported = render(&super::super::tests::setup());
        let paths: Vec<&str> = exported.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, [PATH, INSTALL_SCRIPT, COMPOSE_FILE]);
        let config = json(&exported.files[0]);
        assert_eq!(config["dockerComposeFile"], "compose.yaml");
        assert_eq!(config["service"], "dev");
        assert_eq!(config["runServices"], serde_json::json!(["dev", "postgres", "redis"]));
        assert_eq!(config["forwardPorts"], serde_json::json!([5432, 6379]));
        assert_eq!(config["features"]["ghcr.io/devcontainers/features/node:1"]["version"], "20");
        assert_eq!(config["features"]["ghcr.io/devcontainers/features/python:1"]["version"], "3.12");
        assert_eq!(config["postCreateCommand"], "bash .devcontainer/install.sh");
        assert_eq!(config["secrets"]["STRIPE_SECRET_KEY"]["description"], "Read by web/src/pay.ts:1");
        assert!(config.get("image").is_none());

        let compose = yaml_rust2::YamlLoader::load_from_str(&exported.files[2].contents).unwrap().remove(0);
        assert_eq!(compose["services"]["dev"]["image"].as_str(), Some(BASE_IMAGE));
        let postgres = &compose["services"]["postgres"];
        assert_eq!(postgres["image"].as_str(), Some("postgres:16-alpine"));
        assert_eq!(postgres["network_mode"].as_str(), Some("service:dev"));
        assert_eq!(postgres["environment"]["POSTGRES_USER"].as_str(), Some("shop"));
        assert!(postgres["ports"].is_badvalue(), "a service on another's network publishes no ports");
    }

    #[test]
    fn services_beside_the_workspace_are_not_installed_from_packages_too() {
        let compose = "services:\n  db:\n    image: postgres:16\n";
        let files = [
            ("compose.yaml", compose),
            ("package.json", r#"{"engines": {"node": "20"}}"#),
            ("package-lock.json", "{}"),
        ];
        let detection = crate::detect::testing::detection(&files);
        assert!(detection.install.contains("\nhanzo_service_packages compose postgresql"), "{}", detection.install);
        let exported = render(&Setup::new(&detection, None).unwrap());
        let install = &exported.files.iter().find(|f| f.path == INSTALL_SCRIPT).expect("install.sh").contents;
        assert!(!install.lines().any(|l| l.starts_with("hanzo_service_packages ")), "{install}");
        assert!(install.contains("\nnpm ci  # package-lock.json\n"), "{install}");
    }

    #[test]
    fn without_services_an_image_and_unpinned_features() {
        let mut setup = super::super::tests::setup();
        setup.services.clear();
        setup.install = "npm ci".into();
        setup.toolchains[0].version = None;
        setup.toolchains.push(crate::detect::Toolchain {
            name: "bun".into(),
            version: crate::detect::sources::version::Pin::parse("1.1"),
            source: ev("x"),
        });
        let exported = render(&setup);
        assert_eq!(exported.files.len(), 1);
        let config = json(&exported.files[0]);
        assert_eq!(config["image"], BASE_IMAGE);
        assert_eq!(config["features"]["ghcr.io/devcontainers/features/node:1"], serde_json::json!({}));
        assert_eq!(config["postCreateCommand"], "npm ci");
        assert!(config.get("forwardPorts").is_none() && config.get("dockerComposeFile").is_none());
        assert!(exported.notes.iter().any(|n| n.contains("bun")), "{:?}", exported.notes);
    }

    #[test]
    fn every_dollar_of_a_service_value_is_literal_in_the_compose_file() {
        let mut setup = super::super::tests::setup();
        let service = &mut setup.services[0];
        service.env.insert("POSTGRES_PASSWORD".into(), "pa$word${AWS_SECRET_ACCESS_KEY}$$x".into());
        service.env.insert("PGDATA".into(), "$HOME/data".into());
        service.image = Some("postgres:${TAG:-16}".into());
        let exported = render(&setup);
        let compose = &exported.files.iter().find(|f| f.path == COMPOSE_FILE).unwrap().contents;
        let yaml = yaml_rust2::YamlLoader::load_from_str(compose).unwrap().remove(0);
        let db = &yaml["services"][setup.services[0].name.as_str()];
        // What compose reads back after its own interpolation (`$$` is one `$`) is the value.
        let interpolated = |s: &str| s.replace("$$", "$");
        assert_eq!(db["environment"]["POSTGRES_PASSWORD"].as_str(), Some("pa$$word$${AWS_SECRET_ACCESS_KEY}$$$$x"));
        assert_eq!(interpolated(db["environment"]["PGDATA"].as_str().unwrap()), "$HOME/data");
        assert_eq!(interpolated(db["image"].as_str().unwrap()), "postgres:${TAG:-16}");
        // No `$` that compose would read as the start of a variable: only pairs.
        for line in compose.lines() {
            assert!(!line.replace("$$", "").contains('$'), "{line}");
        }
    }
}
