//! Docker Compose files: which files are the project's own and which of those are for
//! deployments or alternatives, their services (image, `build:`, published ports,
//! environment), and what a `docker compose … up …` line run from a directory brings up.

use crate::warning::Warning;
use std::collections::BTreeMap;

use yaml_rust2::Yaml;

use crate::detect::repo::{Repo, first_entries};
use crate::detect::sources::images::backing_product;
use crate::detect::sources::shell::{ComposeUp, join_path, quote};
use crate::detect::sources::workflows::scalar;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

/// The files `docker compose` reads by default, in its order of preference.
pub const DEFAULT_FILES: &[&str] = &["compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"];
pub const OVERRIDE_FILES: &[&str] =
    &["compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml", "docker-compose.override.yml"];

/// `compose.yaml`, `docker-compose.yml`, `docker-compose.test.yml`, `ci.compose.yaml`,
/// `compose.dev.yml`, …
pub fn is_compose_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let Some(stem) = name.strip_suffix(".yml").or_else(|| name.strip_suffix(".yaml")) else {
        return false;
    };
    stem == "compose"
        || stem == "docker-compose"
        || stem.starts_with("docker-compose.")
        || stem.starts_with("docker-compose-")
        || stem.starts_with("compose.")
        || stem.ends_with(".compose")
}

/// Compose files meant for deployments: their services are managed elsewhere.
pub fn is_production_file(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.split(['.', '-', '_'])
        .any(|part| matches!(part, "prod" | "production" | "deploy" | "deployment" | "staging" | "release"))
}

/// The compose files of the project itself: its own paths (see [`is_own_path`]), not the
/// dev container's (its compose file is read through its configuration). Besides the names
/// compose knows, a YAML file in a `docker` folder that is one by its content (see
/// [`is_compose_by_content`]).
pub fn project_files(repo: &Repo) -> Vec<&RelPath> {
    repo.files()
        .filter(|f| {
            let name = f.name();
            // `contains` first: this runs for every file of the tree.
            let named = name.contains("ompose") && is_compose_file(name);
            let in_docker_dir = || f.dir().components().any(|d| d.eq_ignore_ascii_case("docker"));
            let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
            (named || yaml && in_docker_dir() && is_compose_by_content(repo, f.path()))
                && f.is_own()
                && !f.dir().is_within(rel!(".devcontainer"))
        })
        .map(|f| f.path())
        .collect()
}

/// Whether `rel` is a compose file by what it holds: a top-level `services:` whose entries
/// name an image or a build (JHipster keeps `app.yml`, `postgresql.yml` in `src/main/docker/`
/// and starts them with `docker compose -f`).
fn is_compose_by_content(repo: &Repo, rel: &RelPath) -> bool {
    let Some(text) = repo.read(rel) else { return false };
    let mut lines = text.lines().map(str::trim_end);
    lines.any(|line| line == "services:")
        && lines.any(|line| {
            let entry = line.trim_start();
            line.len() > entry.len() && (entry.starts_with("image:") || entry.starts_with("build:"))
        })
}

/// The root's default compose file, when there is one.
pub fn root_default(repo: &Repo) -> Option<&'static RelPath> {
    DEFAULT_FILES.iter().filter_map(|f| RelPath::new(f).ok()).find(|f| repo.exists(f))
}

/// The root's override file, when there is one.
pub fn root_override(repo: &Repo) -> Option<&'static RelPath> {
    OVERRIDE_FILES.iter().filter_map(|f| RelPath::new(f).ok()).find(|f| repo.exists(f))
}

/// One service of a compose file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComposeService {
    pub name: String,
    pub image: Option<String>,
    /// Built from the repo (`build:`): the app itself, not a service to start for it.
    pub build: bool,
    /// Published ports as `HOST:CONTAINER`.
    pub ports: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// `environment:` as written, before interpolation (`${SECRET_KEY:?not set}`).
    pub env_as_written: BTreeMap<String, String>,
}

impl ComposeService {
    /// The canonical product when this is a backing service the tests need.
    pub fn backing(&self) -> Option<String> {
        if self.build {
            return None;
        }
        backing_product(self.image.as_deref()?, &self.name)
    }

    /// In a compose file for tests (`tests/docker-compose.yml`, `compose.test.yaml`), an
    /// image hanzo-env does not know (`ruimarinho/bitcoin-core`) is still a service the
    /// tests run against: kept, named for its image, to be started with Docker only. Not
    /// the app (`build:`), a tool beside a product, or a general-purpose image.
    pub fn docker_only_in(&self, file: &str) -> Option<String> {
        let for_tests =
            file.to_ascii_lowercase().split(['/', '.', '-', '_']).any(|part| part == "test" || part == "tests");
        let image = self.image.as_deref().filter(|_| for_tests && !self.build)?;
        let product = crate::detect::sources::images::canonical_service(image);
        let general = GENERAL_PURPOSE_IMAGES.contains(&product.as_str())
            || product.split('-').any(crate::detect::sources::images::is_tool_around_a_product);
        (!general && !product.is_empty()).then_some(product)
    }
}

/// Images that run anything (a shell, a language, a web server, a proxy, a browser grid):
/// no service of their own.
const GENERAL_PURPOSE_IMAGES: &[&str] = &[
    "alpine",
    "busybox",
    "ubuntu",
    "debian",
    "centos",
    "fedora",
    "amazonlinux",
    "node",
    "python",
    "golang",
    "ruby",
    "php",
    "openjdk",
    "eclipse-temurin",
    "rust",
    "nginx",
    "httpd",
    "caddy",
    "traefik",
    "haproxy",
    "envoy",
    "adminer",
    "pgadmin4",
    "phpmyadmin",
    "portainer",
    "curl",
    "docker",
    "dind",
];

/// At most this many backing services in one start, whatever its files hold: a project's
/// tests need a few.
pub const MAX_STARTED_SERVICES: usize = 32;

/// At most this many services of one compose file are read (see [`first_entries`]): a
/// development setup has a handful.
pub const MAX_SERVICES_PER_FILE: usize = 100;

/// The services of a compose file (the first [`MAX_SERVICES_PER_FILE`]), or `None` (with a
/// warning) when it cannot be read.
pub fn services(repo: &Repo, rel: &RelPath) -> Option<Vec<ComposeService>> {
    let docs = repo.read_yaml(rel)?;
    let services = docs.first().map(|d| &d["services"]).and_then(Yaml::as_hash)?;
    let read = first_entries(repo, rel, "services", services.len(), MAX_SERVICES_PER_FILE);
    // Compose fills `image: ${DB_IMAGE}` from the `.env` of its project folder (the file's
    // own); `env_file:` is the container's environment, not interpolation. Only images and
    // ports are filled from it: its other values may be secrets, which a draft never holds.
    let dotenv =
        Some(RelPath::trusted(rel).parent().join(rel!(".env"))).filter(|p| repo.exists(p)).and_then(|p| repo.read(&p));
    let set: BTreeMap<String, String> =
        crate::detect::sources::env_files::entries(dotenv.as_deref().unwrap_or_default())
            .into_iter()
            .filter(|e| !e.commented)
            .map(|e| (e.key, unquoted(&e.value)))
            .collect();
    let mut out = Vec::new();
    for (name, def) in services.iter().take(read) {
        let Some(name) = scalar(name) else { continue };
        // `<<: *anchor` merge keys are not expanded by the YAML reader: look through them.
        let field = |key: &str| {
            let own = &def[key];
            if own.is_badvalue() { &def["<<"][key] } else { own }
        };
        let image = scalar(field("image")).map(|i| interpolate(&i, &set)).filter(|i| !i.is_empty());
        let build = !field("build").is_badvalue() && !field("build").is_null();
        let written = environment(field("environment"));
        out.push(ComposeService {
            name,
            image,
            build,
            ports: ports(field("ports"), &set),
            env: written.iter().map(|(k, v)| (k.clone(), interpolate_defaults(v))).collect(),
            env_as_written: written,
        });
    }
    Some(out)
}

/// `ports:` as `HOST:CONTAINER` (short syntax with or without a host address, or the long
/// syntax); ports only the container sees are left out.
fn ports(value: &Yaml, set: &BTreeMap<String, String>) -> Vec<String> {
    let mut found = Vec::new();
    for port in value.as_vec().into_iter().flatten() {
        let mapping = match scalar(port) {
            Some(short) => {
                let short = interpolate(&short, set);
                let short = short.split('/').next().unwrap_or_default().to_string();
                let parts: Vec<&str> = short.rsplitn(3, ':').collect();
                match parts.as_slice() {
                    [container, host, ..] => format!("{host}:{container}"),
                    _ => continue,
                }
            }
            None => match (scalar(&port["published"]), scalar(&port["target"])) {
                (Some(host), Some(container)) => format!("{}:{container}", interpolate(&host, set)),
                _ => continue,
            },
        };
        let numeric = mapping.split(':').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        if numeric && !found.contains(&mapping) {
            found.push(mapping);
        }
    }
    found
}

/// A dotenv value without its surrounding quotes (`"mariadb:10"` → `mariadb:10`).
fn unquoted(value: &str) -> String {
    let value = value.trim();
    let quoted = value.len() >= 2
        && (value.starts_with('"') && value.ends_with('"') || value.starts_with('\'') && value.ends_with('\''));
    if quoted { value[1..value.len() - 1].to_string() } else { value.to_string() }
}

/// `environment:` as a map (`KEY: value` or `- KEY=value`), values as written; keys
/// without a value left out.
fn environment(value: &Yaml) -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    if let Some(hash) = value.as_hash() {
        for (k, v) in hash {
            if let (Some(k), Some(v)) = (scalar(k), scalar(v)) {
                env.insert(k, v);
            }
        }
    }
    for item in value.as_vec().into_iter().flatten().filter_map(scalar) {
        if let Some((k, v)) = item.split_once('=') {
            env.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    env
}

/// `${TAG:-16}` → `16`, `${TAG-16}` → `16`, `${TAG}` → `` (what compose substitutes when unset);
/// `$$` → `$` (compose's escape).
pub fn interpolate_defaults(text: &str) -> String {
    interpolate(text, &BTreeMap::new())
}

/// [`interpolate_defaults`] with the variables `set` (from the `.env` compose reads): a set
/// `${TAG}` is its value, `${TAG:-16}` too unless it is empty, `${TAG-16}` even then.
pub fn interpolate(text: &str, set: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        if rest[start..].starts_with("$$") {
            out.push('$');
            rest = &rest[start + 2..];
            continue;
        }
        if !rest[start..].starts_with("${") {
            // `$NAME` is `${NAME}`: compose fills in an unset one with nothing.
            let name_len = rest[start + 1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len() - start - 1);
            let is_name = rest[start + 1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            if !is_name {
                out.push('$');
            } else if let Some(value) = set.get(&rest[start + 1..start + 1 + name_len]) {
                out.push_str(value);
            }
            rest = &rest[start + 1 + if is_name { name_len } else { 0 }..];
            continue;
        }
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let inner = &after[..end];
        let name_len = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
        let (name, operator) = inner.split_at(name_len);
        // `${X:+alt}` is not a value of X: left to the defaults' reading below.
        let value = set.get(name).filter(|v| {
            !(operator.trim_start_matches(':').starts_with('+') || v.is_empty() && operator.starts_with(":-"))
        });
        match value {
            Some(value) => out.push_str(value),
            None => {
                if let Some((_, default)) = inner.split_once(":-").or_else(|| inner.split_once('-')) {
                    out.push_str(default);
                }
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The start command for `files` (repo-relative) and the services to bring up. `-f` is
/// omitted for the root's default file, which compose picks (with its override) by itself.
pub fn up_command(files: &[RelPathBuf], services: &[String]) -> String {
    let mut command = String::from("docker compose");
    let default_only = files.len() == 1 && DEFAULT_FILES.contains(&files[0].as_str());
    if !default_only {
        for file in files {
            command.push_str(" -f ");
            command.push_str(&quote(file));
        }
    }
    command.push_str(" up -d");
    for service in services {
        command.push(' ');
        command.push_str(&quote(service));
    }
    command
}

/// What a compose start brings up: its files and the backing services it names, each with
/// its product and definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComposeStart {
    pub files: Vec<RelPathBuf>,
    pub services: Vec<StartedService>,
    /// The command line named its services (rather than bringing up all of its files').
    pub named: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedService {
    pub file: RelPathBuf,
    pub product: String,
    pub service: ComposeService,
}

impl ComposeStart {
    /// The backing services of `files` named in `wanted` (all of them when `wanted` is None),
    /// each once; `None` when a file cannot be read.
    pub fn of(repo: &Repo, files: Vec<RelPathBuf>, wanted: Option<&[String]>) -> Option<ComposeStart> {
        let mut services: Vec<StartedService> = Vec::new();
        let mut left_out = 0;
        for file in &files {
            for service in self::services(repo, file)? {
                let named = wanted.is_none_or(|w| w.contains(&service.name));
                if named
                    && let Some(product) = service.backing().or_else(|| service.docker_only_in(file))
                    && !services.iter().any(|s| s.service.name == service.name)
                {
                    if services.len() == MAX_STARTED_SERVICES {
                        left_out += 1;
                        continue;
                    }
                    services.push(StartedService { file: file.clone(), product, service });
                }
            }
        }
        if left_out > 0 {
            repo.warn(Warning::in_files(
                &files,
                format!(
                    "{} backing services, more than one start brings up: the first {MAX_STARTED_SERVICES} kept",
                    MAX_STARTED_SERVICES + left_out
                ),
            ));
        }
        Some(ComposeStart { files, services, named: wanted.is_some() })
    }

    /// The start for a `docker compose … up …` line run from `cwd` (repo-relative), restricted
    /// to the backing services of the files it names (or the default file of `cwd`); `None`
    /// when it names none or a file the repo lacks.
    pub fn of_line(repo: &Repo, cwd: &str, line: &str) -> Option<ComposeStart> {
        let up = ComposeUp::parse(line)?;
        let base = match &up.project_dir {
            Some(dir) => join_path(cwd, dir)?,
            None => RelPath::root().join_normalized(cwd)?,
        };
        let in_base = |names: &[&str]| names.iter().filter_map(|f| join_path(&base, f)).find(|f| repo.exists(f));
        // Without `-f`, compose reads the folder's default file and its override.
        let (files, over): (Vec<RelPathBuf>, Option<RelPathBuf>) = if up.files.is_empty() {
            (vec![in_base(DEFAULT_FILES)?], in_base(OVERRIDE_FILES))
        } else {
            (up.files.iter().map(|f| join_path(cwd, f)).collect::<Option<Vec<_>>>()?, None)
        };
        if files.iter().any(|f| !repo.exists(f)) {
            return None;
        }
        let wanted = (!up.services.is_empty()).then_some(up.services.as_slice());
        let start = ComposeStart::of(repo, files, wanted)?.with_override(repo, over.as_deref(), wanted);
        (!start.services.is_empty()).then_some(start)
    }

    /// The services of the override file compose reads beside the default one (`over`),
    /// added after this start's own, those of a name it already has left out.
    fn with_override(mut self, repo: &Repo, over: Option<&RelPath>, wanted: Option<&[String]>) -> ComposeStart {
        if let Some(extra) = over.and_then(|over| ComposeStart::of(repo, vec![over.to_owned()], wanted)) {
            let known = self.names();
            self.services.extend(extra.services.into_iter().filter(|s| !known.contains(&s.service.name)));
        }
        self
    }

    pub fn names(&self) -> Vec<String> {
        self.services.iter().map(|s| s.service.name.clone()).collect()
    }

    pub fn command(&self) -> String {
        up_command(&self.files, &self.names())
    }

    /// The same files with only the named services.
    pub fn only(&self, names: &[String]) -> ComposeStart {
        let services = self.services.iter().filter(|s| names.contains(&s.service.name)).cloned().collect();
        ComposeStart { files: self.files.clone(), services, named: true }
    }
}

/// The project's compose files sorted by what they are for.
#[derive(Debug, Clone, Default)]
pub struct ProjectCompose {
    /// Every compose file of the project.
    pub files: Vec<RelPathBuf>,
    /// What each file that is started brings up, the root's default file first (with its
    /// override), then the shallowest: files without backing services are left out.
    pub starts: Vec<ComposeStart>,
    /// Files for deployments (`docker-compose.prod.yml`): their services are managed elsewhere.
    pub production: Vec<RelPathBuf>,
    /// Files in a folder of alternatives (`docker-compose.postgres.yml` beside
    /// `docker-compose.mariadb.yml`), and files compose does not know by their name, started
    /// only when a script names them.
    pub alternatives: Vec<RelPathBuf>,
}

impl ProjectCompose {
    pub fn read(repo: &Repo) -> ProjectCompose {
        let default = root_default(repo);
        let over = root_override(repo);
        let mut files = project_files(repo);
        let alternatives = alternative_files(&files);
        files.sort_by_key(|rel| (default != Some(*rel), rel.depth(), *rel));
        let mut found =
            ProjectCompose { files: files.iter().map(|f| (*f).to_owned()).collect(), ..ProjectCompose::default() };
        for rel in files {
            if over == Some(rel) && default.is_some() {
                continue; // read together with the default file
            }
            if is_production_file(rel.file_name()) {
                found.production.push(rel.to_owned());
                continue;
            }
            // A compose file known by its content only (JHipster's `src/main/docker/app.yml`)
            // is started with `-f` by the scripts that name it.
            if alternatives.contains(&rel) || !is_compose_file(rel.file_name()) {
                found.alternatives.push(rel.to_owned());
                continue;
            }
            let Some(start) = ComposeStart::of(repo, vec![rel.to_owned()], None) else { continue };
            let start = start.with_override(repo, over.filter(|_| default == Some(rel)), None);
            if !start.services.is_empty() {
                found.starts.push(start);
            }
        }
        found
    }
}

/// The compose files among `files` that lie in a folder of alternatives: several compose
/// files beside each other (`docker-compose.postgres.yml`, `docker-compose.mariadb.yml`)
/// where this one is not the folder's default.
fn alternative_files<'a>(files: &[&'a RelPath]) -> Vec<&'a RelPath> {
    let mut per_dir: BTreeMap<&RelPath, usize> = BTreeMap::new();
    for rel in
        files.iter().filter(|rel| !OVERRIDE_FILES.contains(&rel.file_name()) && !is_production_file(rel.file_name()))
    {
        *per_dir.entry(rel.parent()).or_default() += 1;
    }
    files
        .iter()
        .copied()
        .filter(|rel| {
            per_dir.get(rel.parent()).is_some_and(|n| *n > 1)
                && !DEFAULT_FILES.contains(&rel.file_name())
                && !OVERRIDE_FILES.contains(&rel.file_name())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::repo_with;

    const APP_AND_DB: &str = "services:\n  app:\n    build: .\n    depends_on: [db]\n  db:\n    image: postgres:${PG:-16}\n    environment:\n      POSTGRES_PASSWORD: ${DB_PASSWORD:-secret}\n      POSTGRES_DB: app\n    ports:\n      - \"127.0.0.1:5433:5432\"\n  cache:\n    image: bitnami/redis:7\n    environment:\n      - ALLOW_EMPTY_PASSWORD=yes\n    ports: [6379, {target: 6380, published: 16380}]\n  proxy:\n    image: nginx\n";

    #[test]
    fn yaml_files_of_a_docker_folder_are_compose_files_by_their_content() {
        let (_dir, repo) = repo_with(&[
            ("src/main/docker/app.yml", APP_AND_DB),
            ("src/main/docker/grafana/dashboards.yml", "apiVersion: 1\nproviders:\n  - name: x\n"),
            ("src/main/docker/notes.yml", "services:\n  - a list, not compose's\n"),
            ("config/app.yml", APP_AND_DB),
        ]);
        assert_eq!(project_files(&repo), [crate::rel_path::rel!("src/main/docker/app.yml")]);
    }

    #[test]
    fn recognises_compose_file_names() {
        for name in
            ["compose.yaml", "docker-compose.yml", "docker-compose.test.yml", "ci.compose.yaml", "compose.dev.yml"]
        {
            assert!(is_compose_file(name), "{name}");
        }
        for name in ["compose.json", "docker.yml", "composer.yml", "composer.json", "decompose.txt"] {
            assert!(!is_compose_file(name), "{name}");
        }
    }

    #[test]
    fn services_with_ports_and_environment() {
        let (_dir, repo) = repo_with(&[("docker-compose.yml", APP_AND_DB)]);
        let services = services(&repo, crate::rel_path::rel!("docker-compose.yml")).unwrap();
        let db = &services[1];
        assert_eq!((db.image.as_deref(), db.backing().as_deref()), (Some("postgres:16"), Some("postgres")));
        assert_eq!(db.ports, ["5433:5432"]);
        assert_eq!(db.env["POSTGRES_PASSWORD"], "secret");
        assert_eq!(services[2].ports, ["16380:6380"]);
        assert_eq!(services[2].env["ALLOW_EMPTY_PASSWORD"], "yes");
        assert!(services[0].backing().is_none() && services[3].backing().is_none());
    }

    #[test]
    fn starts_from_lines_resolve_files_from_the_working_directory() {
        let (_dir, repo) = repo_with(&[("tests/docker/compose.yml", APP_AND_DB), ("compose.yaml", APP_AND_DB)]);
        let start = ComposeStart::of_line(&repo, "tests", "docker compose -f ./docker/compose.yml up app db").unwrap();
        assert_eq!(start.command(), "docker compose -f tests/docker/compose.yml up -d db");
        let start = ComposeStart::of_line(&repo, "", "docker-compose up -d").unwrap();
        assert_eq!(start.command(), "docker compose up -d db cache");
        assert!(ComposeStart::of_line(&repo, "", "docker compose -f missing.yml up").is_none());
        assert!(ComposeStart::of_line(&repo, "", "docker compose -f ../x.yml up").is_none());
    }

    #[test]
    fn a_line_without_files_reads_the_override_beside_the_default_file() {
        let over = "services:\n  mail:\n    image: axllent/mailpit\n  db:\n    image: mysql:8\n";
        let (_dir, repo) = repo_with(&[("compose.yml", APP_AND_DB), ("compose.override.yml", over)]);
        let start = ComposeStart::of_line(&repo, "", "docker compose up -d db mail").unwrap();
        let products: Vec<&str> = start.services.iter().map(|s| s.product.as_str()).collect();
        assert_eq!(products, ["postgres", "mailpit"], "the default file's db wins over the override's");
        assert_eq!(start.command(), "docker compose up -d db mail");
        // Named files are all compose reads.
        let start = ComposeStart::of_line(&repo, "", "docker compose -f compose.yml up -d db mail").unwrap();
        assert_eq!(start.names(), ["db"]);
    }

    #[test]
    fn images_and_ports_are_filled_from_the_env_file_compose_reads() {
        let compose = "services:\n  db:\n    image: ${DB_IMAGE}\n    env_file: .env.test\n    environment:\n      MARIADB_ROOT_PASSWORD: ${DB_PASSWORD:-root}\n    ports:\n      - \"${DB_PORT:-3306}:3306\"\n  cache:\n    image: redis:${REDIS_TAG:-7}\n";
        let dotenv = "DB_IMAGE=\"mariadb:10.11\"\nDB_PORT=13306\nDB_PASSWORD=hunter2-not-for-drafts\n# REDIS_TAG=6\n";
        let (_dir, repo) = repo_with(&[
            ("tests/compose.yml", compose),
            ("tests/.env", dotenv),
            ("tests/.env.test", "DB_IMAGE=postgres:16\n"),
        ]);
        let services = services(&repo, crate::rel_path::rel!("tests/compose.yml")).unwrap();
        assert_eq!(services[0].image.as_deref(), Some("mariadb:10.11"));
        assert_eq!(services[0].backing().as_deref(), Some("mariadb"));
        assert_eq!(services[0].ports, ["13306:3306"]);
        // The environment keeps compose's defaults: an env file's values may be secrets.
        assert_eq!(services[0].env["MARIADB_ROOT_PASSWORD"], "root");
        assert_eq!(services[1].image.as_deref(), Some("redis:7"), "a commented line sets nothing");
        // Without the `.env`, the image is unknown: no service.
        let (_dir, repo) = repo_with(&[("tests/compose.yml", compose)]);
        assert_eq!(services_of(&repo).as_slice(), [None, Some("redis:7".to_string())]);
    }

    fn services_of(repo: &Repo) -> Vec<Option<String>> {
        services(repo, crate::rel_path::rel!("tests/compose.yml")).unwrap().into_iter().map(|s| s.image).collect()
    }

    #[test]
    fn an_unknown_image_in_a_compose_file_for_tests_is_a_docker_only_service() {
        let compose = "services:\n  bitcoind:\n    image: ruimarinho/bitcoin-core:24\n  db:\n    image: postgres:16\n  runner:\n    image: python:3.12\n  ui:\n    image: acme/ledger-ui\n  app:\n    build: .\n    image: acme/wallet\n";
        let (_dir, repo) = repo_with(&[("tests/docker-compose.yml", compose), ("docker-compose.yml", compose)]);
        let products = |file: &str| -> Vec<String> {
            ComposeStart::of(&repo, vec![RelPathBuf::new(file).unwrap()], None)
                .unwrap()
                .services
                .into_iter()
                .map(|s| s.product)
                .collect()
        };
        assert_eq!(products("tests/docker-compose.yml"), ["bitcoin-core", "postgres"]);
        // The project's own compose file: only the services hanzo-env knows, as before.
        assert_eq!(products("docker-compose.yml"), ["postgres"]);
    }

    #[test]
    fn interpolates_set_variables() {
        let set: BTreeMap<String, String> = [("A", "1"), ("E", "")].map(|(k, v)| (k.to_string(), v.to_string())).into();
        assert_eq!(interpolate("x${A}y$A ${A:-9} ${A-9} ${B:-9} ${E:-9}|${E-9}|", &set), "x1y1 1 1 9 9||");
        assert_eq!(interpolate("${A:?set it}", &set), "1");
    }

    #[test]
    fn interpolates_defaults() {
        assert_eq!(interpolate_defaults("postgres:${PG_VERSION:-16}-alpine"), "postgres:16-alpine");
        assert_eq!(interpolate_defaults("${REGISTRY}redis"), "redis");
        assert_eq!(interpolate_defaults("x:${A-1}"), "x:1");
        assert_eq!(interpolate_defaults("broken ${"), "broken ${");
        assert_eq!(interpolate_defaults("pa$$word $x"), "pa$word ");
        assert_eq!(interpolate_defaults("$DB_NAME-$1 cost $"), "-$1 cost $");
    }

    #[test]
    fn odd_compose_shapes_are_ignored() {
        for text in [
            "services: [db]\n",
            "services:\n  db: 3\n",
            "services:\n  db:\n    image: [x]\n    ports: 3\n",
            "- a\n",
            "",
        ] {
            let (_dir, repo) = repo_with(&[("compose.yaml", text)]);
            let _ = services(&repo, crate::rel_path::rel!("compose.yaml"));
        }
    }
}
