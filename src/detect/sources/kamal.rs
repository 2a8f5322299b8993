//! Kamal's deploy configuration (`config/deploy.yml`, and `config/deploy.<destination>.yml`
//! for each destination, in the folder of the app it deploys): the names under its top-level
//! `env:`'s `secret:` list are the app container's secrets, filled from `.kamal/secrets` at
//! deploy. (An accessory's own `env.secret`, a database container's password, is the
//! accessory's, not the app's.)
//!
//! Read line by line, not as YAML: the files are ERB templates (`<% if … %>` lines) that a
//! YAML parser would refuse.

use crate::detect::repo::Repo;
use crate::rel_path::RelPathBuf;

/// At most this many names are taken from one file.
const MAX_NAMES: usize = 200;

/// A secret of the app's container, with the file that lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerSecret {
    pub name: String,
    pub file: RelPathBuf,
    pub line: usize,
}

pub fn read_all(repo: &Repo) -> Vec<ContainerSecret> {
    let mut found = Vec::new();
    // At the root of the app Kamal deploys, which may be a folder of a monorepo.
    for file in repo.files().filter(|f| is_deploy_file(f.name()) && f.dir().file_name() == "config") {
        let Some(text) = repo.read(file.path()) else { continue };
        found.extend(container_secrets(&text).into_iter().map(|(name, line)| ContainerSecret {
            name,
            file: file.path().to_owned(),
            line,
        }));
    }
    found
}

fn is_deploy_file(name: &str) -> bool {
    name == "deploy.yml"
        || name.strip_prefix("deploy.").and_then(|rest| rest.strip_suffix(".yml")).is_some_and(|d| !d.is_empty())
}

/// The names (and 1-based lines) under the top-level `env:` block's `secret:` list.
fn container_secrets(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut in_env = false;
    let mut secret_indent: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') || content.starts_with("<%") {
            continue;
        }
        let indent = line.len() - content.len();
        if indent == 0 {
            in_env = content.trim_end() == "env:";
            secret_indent = None;
            continue;
        }
        if !in_env {
            continue;
        }
        match secret_indent {
            Some(list) if indent >= list && content.starts_with('-') => {
                let name = content[1..].split('#').next().unwrap_or_default().trim().trim_matches(['"', '\'']);
                // `- DB_PASSWORD:KAMAL_DB_PASSWORD` gives the container the name before the colon.
                let name = name.split(':').next().unwrap_or_default();
                if crate::names::validate_secret_name(name).is_ok() && found.len() < MAX_NAMES {
                    found.push((name.to_string(), i + 1));
                }
            }
            _ => secret_indent = (content.trim_end() == "secret:").then_some(indent),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_s_env_secret_list() {
        let text = "service: app\n<% if ENV['X'] %>\nenv:\n  clear:\n    PORT: 3000\n  secret:\n    - RAILS_MASTER_KEY\n    # comment\n    - GOOGLE_GEOCODER\n    - DB_PASSWORD:PROD_DB_PASSWORD\n  tags:\n    web: []\naccessories:\n  db:\n    env:\n      secret:\n        - POSTGRES_PASSWORD\n";
        let names: Vec<String> = container_secrets(text).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["RAILS_MASTER_KEY", "GOOGLE_GEOCODER", "DB_PASSWORD"]);
        assert_eq!(container_secrets(text)[0].1, 7);
    }

    #[test]
    fn deploy_files_by_destination() {
        assert!(is_deploy_file("deploy.yml"));
        assert!(is_deploy_file("deploy.staging.yml"));
        assert!(!is_deploy_file("deploy..yml"));
        assert!(!is_deploy_file("deploy.rb"));
    }
}
