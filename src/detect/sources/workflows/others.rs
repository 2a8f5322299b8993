//! GitLab CI, CircleCI and Travis CI, read as the same jobs.

use super::*;

impl Reader<'_> {
    /// GitLab CI: global and per-job `services:` and `image:`, `script:` lines.
    pub(super) fn gitlab(&mut self, rel: &RelPath) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let ctx = Context::default().with_env(&doc["variables"]);
        let service_image = |s: &Yaml| scalar(s).or_else(|| scalar(&s["name"]));
        let gitlab_service = |image: String, source: Evidence| JobService {
            name: String::new(),
            images: vec![image],
            source,
            ports: Vec::new(),
            env: Vec::new(),
        };
        let mut global = Job::new(Evidence::file(rel).of(Kind::Ci), JobKind::Other);
        for service in doc["services"].as_vec().into_iter().flatten() {
            if let Some(image) = service_image(service) {
                global.services.push(gitlab_service(ctx.resolve(&image), global.source.sub_key("services")));
            }
        }
        if let Some(image) = scalar(&doc["image"]).or_else(|| scalar(&doc["image"]["name"])) {
            global.images.push((ctx.resolve(&image), global.source.sub_key("image")));
        }
        self.jobs.push(global);
        let entries = doc.as_hash().into_iter().flatten().filter(|(_, def)| !def["script"].is_badvalue());
        let read = first_entries(self.repo, rel, "jobs", entries.clone().count(), MAX_JOBS_PER_FILE);
        for (name, def) in entries.take(read) {
            let Some(name) = scalar(name) else { continue };
            let job_ctx = ctx.with_env(&def["variables"]);
            let mut job = Job::new(Evidence::job(rel, name), JobKind::Other);
            for service in def["services"].as_vec().into_iter().flatten() {
                if let Some(image) = service_image(service) {
                    job.services.push(gitlab_service(job_ctx.resolve(&image), job.source.sub_key("services")));
                }
            }
            if let Some(image) = scalar(&def["image"]).or_else(|| scalar(&def["image"]["name"])) {
                job.images.push((job_ctx.resolve(&image), job.source.sub_key("image")));
            }
            let script: Vec<String> = match &def["script"] {
                Yaml::Array(lines) => lines.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect(),
            };
            let source = job.source.sub_key("script");
            job.lines.extend(run_lines(&script.join("\n"), "", &job_ctx, &[], &source));
            self.jobs.push(job);
        }
    }

    /// CircleCI: `jobs.X.docker` (the first image is the job's own, the rest are services)
    /// and `run` steps.
    pub(super) fn circleci(&mut self, rel: &RelPath) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let jobs = doc["jobs"].as_hash().into_iter().flatten();
        let read = first_entries(self.repo, rel, "jobs", jobs.clone().count(), MAX_JOBS_PER_FILE);
        for (name, def) in jobs.take(read) {
            let Some(name) = scalar(name) else { continue };
            let mut job = Job::new(Evidence::job(rel, format!("jobs.{name}")), JobKind::Other);
            let ctx = Context::default().with_env(&def["environment"]);
            let images = def["docker"].as_vec().into_iter().flatten().filter_map(|d| scalar(&d["image"]));
            for (i, image) in images.enumerate() {
                if i == 0 {
                    job.images.push((image, job.source.sub_key("docker")));
                } else {
                    job.services.push(JobService {
                        name: String::new(),
                        images: vec![image],
                        source: job.source.sub_key(&format!("docker[{i}]")),
                        ports: Vec::new(),
                        env: Vec::new(),
                    });
                }
            }
            for (i, step) in def["steps"].as_vec().into_iter().flatten().enumerate() {
                let run = &step["run"];
                if let Some(script) = scalar(run).or_else(|| scalar(&run["command"])) {
                    let dir = scalar(&run["working_directory"]).unwrap_or_default();
                    let source = job.source.sub_key(&format!("steps[{i}]"));
                    job.lines.extend(run_lines(&script, &dir, &ctx, &[], &source));
                }
            }
            self.jobs.push(job);
        }
    }

    /// Travis CI: the `services:` it starts on the build machine (and the database versions
    /// `addons:` picks), as the service containers they amount to, and the lines of its
    /// `before_install`, `install`, `before_script` and `script` phases, in that order.
    pub(super) fn travis(&mut self, rel: &RelPath) {
        let Some(docs) = self.repo.read_yaml(rel) else { return };
        let Some(doc) = docs.first() else { return };
        let mut job = Job::new(Evidence::file(rel).of(Kind::Ci), JobKind::Travis);
        let included =
            ["jobs", "matrix"].into_iter().flat_map(|key| doc[key]["include"].as_vec().into_iter().flatten());
        let mut names: Vec<String> = Vec::new();
        for build in std::iter::once(doc).chain(included) {
            let listed = match &build["services"] {
                Yaml::Array(items) => items.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect::<Vec<_>>(),
            };
            // `addons: {mariadb: '10.6'}` installs MariaDB in place of the MySQL service.
            let addons = ["postgresql", "mariadb"].into_iter().filter(|a| !build["addons"][*a].is_badvalue());
            for name in listed.into_iter().chain(addons.map(str::to_string)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        let addon_version = |name: &str| scalar(&doc["addons"][name]).filter(|v| !v.is_empty());
        for name in &names {
            let Some(known) = TRAVIS_SERVICES.iter().find(|t| t.name == name) else { continue };
            let version = known.version_addon.and_then(addon_version);
            job.services.push(JobService {
                name: known.image.to_string(),
                images: vec![version.map_or_else(|| known.image.to_string(), |v| format!("{}:{v}", known.image))],
                source: job.source.sub_key("services"),
                ports: vec![known.port.to_string()],
                env: known.env.iter().map(|(k, v)| (k.to_string(), EnvValue::Literal(v.to_string()))).collect(),
            });
        }
        for phase in ["before_install", "install", "before_script", "script"] {
            let script: Vec<String> = match &doc[phase] {
                Yaml::Array(lines) => lines.iter().filter_map(scalar).collect(),
                other => scalar(other).into_iter().collect(),
            };
            // `travis_retry` and `travis_wait N` wrap a command in Travis's own retry and
            // timeout: the command is what runs.
            let script: Vec<String> = script.iter().map(|line| without_travis_wrapper(line).to_string()).collect();
            let source = job.source.sub_key(phase);
            job.lines.extend(run_lines(&script.join("\n"), "", &Context::default(), &[], &source));
        }
        let run: Vec<JobService> = job.lines.iter().filter_map(service_run_by).collect();
        job.services.extend(run);
        self.jobs.push(job);
    }
}

/// A service Travis CI starts on its build machine, and the official image that amounts to.
pub(super) struct TravisService {
    name: &'static str,
    image: &'static str,
    port: u16,
    /// The `addons:` key that picks its version (`addons: {postgresql: "13"}`).
    version_addon: Option<&'static str>,
    /// What Travis's set-up amounts to in the image's variables: its MySQL and MariaDB have a
    /// `root` without a password, its PostgreSQL trusts local connections as `postgres`.
    env: &'static [(&'static str, &'static str)],
}

/// Travis's service names, from its documentation of databases and services.
pub(super) const TRAVIS_SERVICES: &[TravisService] = &[
    TravisService {
        name: "postgresql",
        image: "postgres",
        port: 5432,
        version_addon: Some("postgresql"),
        env: &[("POSTGRES_HOST_AUTH_METHOD", "trust")],
    },
    TravisService {
        name: "mysql",
        image: "mysql",
        port: 3306,
        version_addon: None,
        env: &[("MYSQL_ALLOW_EMPTY_PASSWORD", "yes")],
    },
    TravisService {
        name: "mariadb",
        image: "mariadb",
        port: 3306,
        version_addon: Some("mariadb"),
        env: &[("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "yes")],
    },
    TravisService { name: "redis-server", image: "redis", port: 6379, version_addon: None, env: &[] },
    TravisService { name: "redis", image: "redis", port: 6379, version_addon: None, env: &[] },
    TravisService { name: "mongodb", image: "mongo", port: 27017, version_addon: None, env: &[] },
    TravisService { name: "memcached", image: "memcached", port: 11211, version_addon: None, env: &[] },
    TravisService { name: "rabbitmq", image: "rabbitmq", port: 5672, version_addon: None, env: &[] },
    TravisService { name: "elasticsearch", image: "elasticsearch", port: 9200, version_addon: None, env: &[] },
];

pub(super) fn without_travis_wrapper(line: &str) -> &str {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix("travis_retry ") {
        return rest.trim_start();
    }
    if let Some(rest) = line.strip_prefix("travis_wait ") {
        let rest = rest.trim_start();
        let minutes = rest.split_whitespace().next().filter(|w| w.parse::<u32>().is_ok());
        return minutes.map_or(rest, |m| rest[m.len()..].trim_start());
    }
    line
}
