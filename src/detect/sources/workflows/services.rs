//! Services a job starts without a `services:` entry: setup actions that start one on the
//! runner, and `docker run` lines of backing-service images.

use super::*;

/// An action that starts a service on the runner, as a service container of `image` would.
pub(super) struct ServiceAction {
    action: &'static str,
    image: &'static str,
    /// The input naming the version (the image's tag).
    version: &'static str,
    /// The input naming the port on the runner, and the port the service listens on.
    port: (Option<&'static str>, u16),
    /// Inputs that become the image's variables (`database` → `POSTGRES_DB`).
    env: &'static [(&'static str, &'static str)],
    /// Variables the action's set-up amounts to (a root without a password).
    fixed_env: &'static [(&'static str, &'static str)],
}

impl ServiceAction {
    const fn new(
        action: &'static str,
        image: &'static str,
        version: &'static str,
        port: (Option<&'static str>, u16),
    ) -> Self {
        ServiceAction { action, image, version, port, env: &[], fixed_env: &[] }
    }

    const fn env(
        self,
        env: &'static [(&'static str, &'static str)],
        fixed_env: &'static [(&'static str, &'static str)],
    ) -> Self {
        ServiceAction { env, fixed_env, ..self }
    }
}

/// The inputs of each, read from its `action.yml`.
pub(super) const SERVICE_ACTIONS: &[ServiceAction] = &[
    ServiceAction::new("supercharge/redis-github-action", "redis", "redis-version", (Some("redis-port"), 6379)),
    ServiceAction::new("shogo82148/actions-setup-redis", "redis", "redis-version", (Some("redis-port"), 6379)),
    ServiceAction::new("supercharge/mongodb-github-action", "mongo", "mongodb-version", (Some("mongodb-port"), 27017)),
    ServiceAction::new("ikalnytskyi/action-setup-postgres", "postgres", "postgres-version", (Some("port"), 5432)).env(
        &[("username", "POSTGRES_USER"), ("password", "POSTGRES_PASSWORD"), ("database", "POSTGRES_DB")],
        &[("POSTGRES_USER", "postgres"), ("POSTGRES_PASSWORD", "postgres")],
    ),
    ServiceAction::new("mirromutth/mysql-action", "mysql", "mysql version", (Some("host port"), 3306)).env(
        &[
            ("mysql root password", "MYSQL_ROOT_PASSWORD"),
            ("mysql database", "MYSQL_DATABASE"),
            ("mysql user", "MYSQL_USER"),
            ("mysql password", "MYSQL_PASSWORD"),
        ],
        &[],
    ),
    ServiceAction::new("ankane/setup-postgres", "postgres", "postgres-version", (None, 5432))
        .env(&[("database", "POSTGRES_DB")], &[("POSTGRES_HOST_AUTH_METHOD", "trust")]),
    ServiceAction::new("ankane/setup-mysql", "mysql", "mysql-version", (None, 3306))
        .env(&[("database", "MYSQL_DATABASE")], &[("MYSQL_ALLOW_EMPTY_PASSWORD", "yes")]),
    ServiceAction::new("ankane/setup-mariadb", "mariadb", "mariadb-version", (None, 3306))
        .env(&[("database", "MARIADB_DATABASE")], &[("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "yes")]),
    ServiceAction::new("ankane/setup-mongodb", "mongo", "mongodb-version", (None, 27017)),
    ServiceAction::new("ankane/setup-elasticsearch", "elasticsearch", "elasticsearch-version", (None, 9200)),
    ServiceAction::new("ankane/setup-opensearch", "opensearchproject/opensearch", "opensearch-version", (None, 9200)),
];

/// The service an action starts on the runner (see [`SERVICE_ACTIONS`]), as the service
/// container it amounts to: an image per version (matrix values included), its port, the
/// variables its inputs set.
pub(super) fn service_started_by(action: &ActionUse) -> Option<JobService> {
    let known = SERVICE_ACTIONS.iter().find(|s| s.action == action.action)?;
    let input = |name: &str| action.inputs.get(name);
    let versions = match input(known.version) {
        Some(Input { matrix: Some(values), .. }) => values.clone(),
        Some(Input { text, .. }) if !text.is_empty() => vec![text.clone()],
        _ => Vec::new(),
    };
    let images = if versions.is_empty() {
        vec![known.image.to_string()]
    } else {
        versions.iter().map(|v| format!("{}:{v}", known.image)).collect()
    };
    let (port_input, listens) = known.port;
    let host = port_input.and_then(input).map(|i| i.text.clone()).filter(|p| p.parse::<u16>().is_ok());
    let mut env: Vec<(String, EnvValue)> =
        known.fixed_env.iter().map(|(k, v)| (k.to_string(), EnvValue::Literal(v.to_string()))).collect();
    for (name, variable) in known.env {
        let Some(value) = input(name).map(|i| i.text.clone()).filter(|v| !v.is_empty()) else { continue };
        env.retain(|(set, _)| set != variable);
        env.push((variable.to_string(), EnvValue::Literal(value)));
    }
    Some(JobService {
        name: known.image.rsplit('/').next().unwrap_or(known.image).to_string(),
        images,
        source: action.source.clone(),
        ports: vec![format!("{}:{listens}", host.unwrap_or_else(|| listens.to_string()))],
        env,
    })
}

/// Options of `docker run` that take a value as the next word.
pub(super) const DOCKER_RUN_VALUES: &[&str] = &[
    "-p",
    "--publish",
    "-e",
    "--env",
    "--name",
    "-v",
    "--volume",
    "--network",
    "--net",
    "--mount",
    "-w",
    "--workdir",
    "-u",
    "--user",
    "--entrypoint",
    "--restart",
    "--tmpfs",
    "-l",
    "--label",
    "-h",
    "--hostname",
    "-m",
    "--memory",
    "--cpus",
    "--shm-size",
    "--ulimit",
    "--add-host",
    "--platform",
    "--pull",
    "--cap-add",
    "--env-file",
    "--health-cmd",
    "--health-interval",
    "--health-timeout",
    "--health-retries",
    "--log-driver",
];

/// The service container a CI line starts itself (`docker run -d --name db -p 5432:5432 -e
/// POSTGRES_PASSWORD=x postgres:16`), as a `services:` entry would: detached, of a backing
/// service's image. A port an unknown variable gives (`-p $PORT:3306`) is published on the
/// container's own, where a client finds it by default; an `-e` value with a variable left
/// is the environment's.
pub(super) fn service_run_by(line: &RunLine) -> Option<JobService> {
    let words = shell_words::split(&line.text).ok()?;
    docker_run_service(&words, &line.source)
}

/// The service container a command (as its words) starts: see [`service_run_by`]. Task
/// recipes (`docker run -d -p 6379:6379 redis` in a Makefile target) are read with it too.
pub fn docker_run_service(words: &[String], source: &Evidence) -> Option<JobService> {
    let rest = match words {
        [docker, run, rest @ ..] if docker == "docker" && run == "run" => rest,
        [docker, container, run, rest @ ..] if docker == "docker" && container == "container" && run == "run" => rest,
        _ => return None,
    };
    let (mut detached, mut name, mut ports, mut env, mut image) = (false, None, Vec::new(), Vec::new(), None);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let (option, inline) = match word.split_once('=').filter(|_| word.starts_with("--")) {
            Some((option, value)) => (option, Some(value.to_string())),
            None => (word.as_str(), None),
        };
        if !option.starts_with('-') {
            image = Some(word.clone());
            break;
        }
        if DOCKER_RUN_VALUES.contains(&option) {
            let Some(value) = inline.or_else(|| words.next().cloned()) else { break };
            match option {
                "-p" | "--publish" => {
                    let container = value.rsplit(':').next().unwrap_or(&value).to_string();
                    let known = value.split(':').all(|part| !part.contains('$'));
                    ports.push(if known { value } else { container });
                }
                "-e" | "--env" => match value.split_once('=') {
                    Some((key, v)) if !v.contains('$') => env.push((key.to_string(), EnvValue::Literal(v.to_string()))),
                    Some((key, _)) => env.push((key.to_string(), EnvValue::Unknown)),
                    None => {}
                },
                "--name" => name = Some(value),
                _ => {}
            }
        } else if option == "--detach" || (!option.starts_with("--") && option.contains('d')) {
            // `-d`, and short flags bundled with it (`-dit`).
            detached = true;
        }
    }
    let image = image.filter(|i| detached && !i.contains('$'))?;
    if !is_backing_service(&canonical_service(&image)) {
        return None;
    }
    let name = name.unwrap_or_else(|| canonical_service(&image));
    Some(JobService { name, images: vec![image], source: source.clone(), ports, env })
}
