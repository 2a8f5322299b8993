//! Dev container configurations (`.devcontainer/devcontainer.json`, `.devcontainer.json`,
//! `.devcontainer/<name>/devcontainer.json`): the image, the features with their versions,
//! and the compose files, own service and `runServices` of the compose-based form.
//! The files are JSON with comments and trailing commas (JSONC).

use crate::warning::Warning;
use serde_json::Value;

use crate::detect::repo::Repo;
use crate::detect::sources::compose::{self, ComposeStart};
use crate::detect::sources::shell::join_path;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

#[derive(Debug, Clone, Default)]
pub struct Devcontainer {
    pub path: RelPathBuf,
    pub image: Option<String>,
    /// Feature id (`ghcr.io/devcontainers/features/node:1`) and its `version` option.
    pub features: Vec<(String, Option<String>)>,
    /// `dockerComposeFile`, repo-relative; empty for an image-based container.
    pub compose_files: Vec<RelPathBuf>,
    /// The container's own service in the compose files.
    pub service: Option<String>,
    pub run_services: Option<Vec<String>>,
}

impl Devcontainer {
    /// What the container brings up beside itself: the backing services of its compose files
    /// that `runServices` names (all when it names none), not its own service.
    pub fn start(&self, repo: &Repo) -> Option<ComposeStart> {
        if self.compose_files.is_empty() {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        for file in &self.compose_files {
            for service in compose::services(repo, file).unwrap_or_default() {
                let wanted = self.run_services.as_ref().is_none_or(|list| list.contains(&service.name));
                if wanted
                    && self.service.as_deref() != Some(service.name.as_str())
                    && service.backing().is_some()
                    && !names.contains(&service.name)
                {
                    names.push(service.name);
                }
            }
        }
        ComposeStart::of(repo, self.compose_files.clone(), Some(&names)).filter(|start| !start.services.is_empty())
    }
}

/// Every dev container configuration of the repo, `.devcontainer.json` first.
pub fn read_all(repo: &Repo) -> Vec<Devcontainer> {
    let mut candidates: Vec<&RelPath> = repo
        .named("devcontainer.json")
        .into_iter()
        .filter(|rel| rel.parent() == ".devcontainer" || rel.parent().parent() == ".devcontainer")
        .collect();
    let top_level = rel!(".devcontainer.json");
    if repo.exists(top_level) {
        candidates.insert(0, top_level);
    }
    candidates
        .into_iter()
        .filter(|rel| !repo.read(rel).is_some_and(|text| crate::detect::repo::is_generated(&text)))
        .filter_map(|rel| repo.read_jsonc(rel).map(|config| read(repo, rel, &config)))
        .collect()
}

fn read(repo: &Repo, rel: &RelPath, config: &Value) -> Devcontainer {
    let features = config
        .get("features")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(id, options)| {
            let version = options
                .get("version")
                .and_then(|v| v.as_str().map(str::to_string).or_else(|| v.as_f64().map(|f| f.to_string())));
            (id.clone(), version)
        })
        .collect();
    let files: Vec<&str> = match config.get("dockerComposeFile") {
        Some(Value::String(file)) => vec![file.as_str()],
        Some(Value::Array(files)) => files.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let compose_files = match files.iter().map(|f| join_path(rel.parent(), f)).collect::<Option<Vec<RelPathBuf>>>() {
        Some(files) => files,
        None => {
            repo.warn(Warning::in_file(rel, "dockerComposeFile points outside the repository"));
            Vec::new()
        }
    };
    Devcontainer {
        path: rel.to_owned(),
        image: config.get("image").and_then(Value::as_str).map(str::to_string),
        features,
        compose_files,
        service: config.get("service").and_then(Value::as_str).map(str::to_string),
        run_services: config
            .get("runServices")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(Value::as_str).map(str::to_string).collect()),
    }
}

/// The image path and tag of one of Microsoft's `devcontainers/<name>` images
/// (`mcr.microsoft.com/devcontainers/python:1-3.12-bookworm` → (`python`, `1-3.12-bookworm`)).
pub fn microsoft_image(image: &str) -> Option<(String, String)> {
    let lower = image.to_ascii_lowercase();
    let path = lower
        .strip_prefix("mcr.microsoft.com/devcontainers/")
        .or_else(|| lower.strip_prefix("mcr.microsoft.com/vscode/devcontainers/"))?;
    let (name, tag) = path.split_once(':').unwrap_or((path, ""));
    Some((name.to_string(), tag.to_string()))
}

/// The language version in a devcontainer image tag: `<image version>-<language version>-<os>`,
/// or just the language version; just the image version (`0`, `1`, `2`) pins nothing.
pub fn tag_version(tag: &str) -> Option<String> {
    let numeric: Vec<&str> = tag.split('-').filter(|p| p.starts_with(|c: char| c.is_ascii_digit())).collect();
    match numeric.as_slice() {
        [_, language, ..] => Some(language.to_string()),
        [only] if !matches!(*only, "0" | "1" | "2") => Some(only.to_string()),
        _ => None,
    }
}

/// `ghcr.io/devcontainers/features/node:1` → `node`.
pub fn feature_name(id: &str) -> String {
    let name = id.rsplit('/').next().unwrap_or(id);
    name.split([':', '@']).next().unwrap_or(name).to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::repo_with;

    #[test]
    fn compose_form_and_features() {
        let config = r#"{
            // dev container beside its services
            "dockerComposeFile": ["../docker-compose.yml", "docker-compose.extend.yml"],
            "service": "app",
            "runServices": ["app", "db"],
            "features": {"ghcr.io/devcontainers/features/node:1": {"version": "20"}, "x": {}},
        }"#;
        let (_dir, repo) = repo_with(&[(".devcontainer/devcontainer.json", config)]);
        let found = read_all(&repo);
        assert_eq!(found[0].compose_files, ["docker-compose.yml", ".devcontainer/docker-compose.extend.yml"]);
        assert_eq!(found[0].service.as_deref(), Some("app"));
        assert_eq!(found[0].features[0], ("ghcr.io/devcontainers/features/node:1".into(), Some("20".into())));
        assert_eq!(feature_name(&found[0].features[0].0), "node");
    }

    #[test]
    fn image_tags() {
        assert_eq!(
            microsoft_image("mcr.microsoft.com/devcontainers/python:1-3.12-bookworm"),
            Some(("python".into(), "1-3.12-bookworm".into()))
        );
        assert_eq!(tag_version("1-3.12-bookworm").as_deref(), Some("3.12"));
        assert_eq!(tag_version("3.12").as_deref(), Some("3.12"));
        assert_eq!(tag_version("1"), None);
        assert_eq!(microsoft_image("node:20"), None);
    }

    #[test]
    fn broken_files_are_warnings() {
        let (_dir, repo) = repo_with(&[(".devcontainer/devcontainer.json", "{ broken")]);
        assert!(read_all(&repo).is_empty());
        assert!(
            repo.warnings().iter().any(|w| w.to_string().starts_with(".devcontainer/devcontainer.json: invalid JSON"))
        );
    }
}
