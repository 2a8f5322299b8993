//! Merge the findings of every ecosystem and signal into one deterministic [`Detection`].
//! The only place that ranks and folds.
//!
//! Rules (all stable: the same tree always gives the same bytes):
//! - install steps: deduplicated by command (first wins), ordered by [`Phase`], then by the
//!   order the units ran in (see [`crate::detect::detect_in`]), then by finding order;
//! - start: candidates ordered by their [`StartOrigin`], each product started once: a
//!   compose start drops the services whose product an earlier start of other files brings
//!   up, is left out when an earlier one of the same files covers it, replaces earlier ones
//!   of the same files it covers, and is left out when an earlier one names all its
//!   services; `docker run` service containers only when nothing else starts anything;
//!   joined with ` && `;
//! - toolchains: ordered by [`Kind`]; a version the toolchain's ecosystem says pins
//!   nothing is dropped; one entry per (name, version); for each name a pinned version
//!   comes before an unpinned one, otherwise the strongest origin wins;
//! - package managers: one per (name, path), the first one seen, with a version filled in
//!   from a later duplicate when the first had none;
//! - services: ordered by [`Kind`]; one per name, the first one seen, with an image filled
//!   in the same way;
//! - secrets: checked with [`crate::names::validate_secret_name`], one per name, required when
//!   any evidence says so (that evidence is the one shown), else optional (explicit evidence
//!   for that shown before a plain read); the required ones first, each group sorted;
//! - tests: deduplicated by command and ordered by [`test_rank`] of their source.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::detect::ecosystems;
#[cfg(doc)]
use crate::detect::findings::StartOrigin;
use crate::detect::findings::{
    Evidence, Findings, Kind, Need, PackageManager, Phase, Secret, Service, Start, Step, TestCommand, Toolchain,
};
use crate::detect::repo::Repo;
use crate::detect::sources::compose::ComposeStart;
use crate::detect::sources::products::{self, Definition, DockerUp, NativeStart};
use crate::detect::sources::shell;
use crate::plan::{Action, Guard};

/// The result of `detect`, as `--json` prints it (keys and meanings are a contract).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Detection {
    pub repo: String,
    pub install: String,
    pub start: String,
    /// Every secret name: the required ones, then the optional ones, each sorted.
    pub secrets: Vec<String>,
    /// The same names, in the same order, with whether the project needs each and why.
    pub secret_details: Vec<SecretDetail>,
    pub note: String,
    pub toolchains: Vec<Toolchain>,
    pub package_managers: Vec<PackageManager>,
    pub services: Vec<Service>,
    pub tests: Vec<TestCommand>,
    pub warnings: Vec<String>,
    /// The install steps behind `install`, with their evidence (for rendering and `--explain`).
    #[serde(skip)]
    pub steps: Vec<Step>,
    /// The start commands behind `start`, with their evidence.
    #[serde(skip)]
    pub starts: Vec<Start>,
    /// The services `start` runs from their distribution packages where Docker cannot.
    #[serde(skip)]
    pub native_starts: Vec<NativeStart>,
    /// How long each detector took (`-vv`).
    #[serde(skip)]
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

pub fn merge(repo: &Repo, findings: Findings) -> Detection {
    let Findings {
        toolchains,
        package_managers,
        services,
        tests,
        secrets,
        steps,
        starts,
        seeds,
        notes,
        warnings: found,
    } = findings;
    let mut warnings = repo.warnings();
    warnings.extend(found);

    let starts = merge_starts(starts);
    let services_start = ServicesStart::of(&starts, &services);
    warnings.extend(services_start.warnings.iter().cloned());
    let mut steps = steps;
    steps.extend(services_start.step.clone());
    warnings.extend(agent_setup_disagreements(&toolchains, &package_managers));
    let package_managers = merge_package_managers(package_managers);
    let mut tests = merge_tests(tests, &package_managers);
    // The files the primary's CI job makes before its tests are made once, by install.
    if let Some(primary) = tests.first_mut() {
        steps.append(&mut primary.placed_first);
    }
    let mut steps = merge_steps(steps);
    if let Some(primary) = tests.first() {
        skip_other_toolchains_when_missing(&mut steps, &primary.command);
    }
    let (secret_details, rejected) = merge_secrets(secrets);
    warnings.extend(rejected);
    let mut seen_warnings = HashSet::new();
    warnings.retain(|w| seen_warnings.insert(w.clone()));

    let mut detection = Detection {
        repo: crate::checkout::default_repo_name(repo.root()),
        install: install_script(&steps),
        start: with_seeds(&services_start.script, &seeds),
        secrets: secret_details.iter().map(|s| s.name.clone()).collect(),
        secret_details,
        note: String::new(),
        toolchains: merge_toolchains(toolchains),
        package_managers,
        services: services_start.mark(merge_services(services)),
        tests,
        warnings,
        steps,
        starts,
        native_starts: services_start.native.clone(),
        timings: Vec::new(),
    };
    detection.note = note(&detection, &notes, &services_start);
    for (key, script) in [("install", &detection.install), ("start", &detection.start)] {
        // What `save` sends: the plan with its helpers' text.
        let sent = crate::plan::block::expand(script).map_or(script.len(), |s| s.len());
        if sent > crate::names::MAX_SCRIPT_BYTES {
            detection.warnings.push(format!(
                "{key} is {sent} bytes with its helpers, over the {} bytes the server accepts: trim it before `hanzo-env save`",
                crate::names::MAX_SCRIPT_BYTES
            ));
        }
    }
    detection
}

impl Detection {
    /// The services the drafted `start` brings up (its compose services and containers), by
    /// product: a service CI defines in another job (a variant's database) is not among them.
    pub fn started_services(&self) -> Vec<&str> {
        let compose =
            self.starts.iter().flat_map(|s| s.compose.iter().flat_map(|c| &c.services)).map(|s| s.product.as_str());
        let containers = self.starts.iter().flat_map(|s| &s.containers).map(|s| s.name.as_str());
        dedup_by_key(compose.chain(containers).collect(), |name| *name)
    }
}

fn dedup_by_key<T, K: std::hash::Hash + Eq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut seen = HashSet::new();
    items.into_iter().filter(|item| seen.insert(key(item))).collect()
}

fn merge_starts(mut starts: Vec<Start>) -> Vec<Start> {
    // CI's service containers (`docker run`) only when nothing else starts anything.
    starts.sort_by_key(|s| (s.compose.is_none() && !s.containers.is_empty(), s.origin));
    let mut kept: Vec<Start> = Vec::new();
    for start in starts {
        match &start.compose {
            None if kept.is_empty() => kept.push(start),
            None => {}
            Some(compose) => {
                let compose = compose.clone();
                add_compose_start(&mut kept, start, compose);
            }
        }
    }
    // A start whose services an earlier one names already (from other files) adds nothing.
    let mut merged: Vec<Start> = Vec::new();
    for start in kept {
        let names = start.compose.as_ref().map(ComposeStart::names);
        let covered = names.as_ref().is_some_and(|names| {
            merged.iter().filter_map(|k| k.compose.as_ref()).any(|k| {
                let earlier = k.names();
                names.iter().all(|n| earlier.contains(n))
            })
        });
        if !covered {
            merged.push(start);
        }
    }
    merged
}

/// Add a compose start, keeping every product started once: services whose product an
/// earlier start of other files brings up are dropped (two postgres containers would fight
/// over the port), a start an earlier one of the same files covers is left out, and earlier
/// ones of the same files it covers are replaced.
fn add_compose_start(kept: &mut Vec<Start>, start: Start, new: ComposeStart) {
    let started: Vec<&str> = kept
        .iter()
        .filter_map(|k| k.compose.as_ref())
        .filter(|old| old.files != new.files)
        .flat_map(|old| old.services.iter().map(|s| s.product.as_str()))
        .collect();
    let fresh: Vec<String> = new
        .services
        .iter()
        .filter(|s| !started.contains(&s.product.as_str()))
        .map(|s| s.service.name.clone())
        .collect();
    if fresh.is_empty() {
        return;
    }
    let start = if fresh.len() == new.services.len() {
        start
    } else {
        let reduced = new.only(&fresh);
        Start { command: reduced.command(), compose: Some(reduced), ..start }
    };
    let Some(new) = start.compose.as_ref() else { return };
    let covers = |wide: &ComposeStart, narrow: &ComposeStart| {
        let names = wide.names();
        wide.files == narrow.files && narrow.names().iter().all(|n| names.contains(n))
    };
    if kept.iter().filter_map(|k| k.compose.as_ref()).any(|old| covers(old, new)) {
        return;
    }
    kept.retain(|k| !k.compose.as_ref().is_some_and(|old| covers(new, old)));
    kept.push(start);
}

/// `start` and the install step that lets it run where Docker cannot: every service the
/// folded starts bring up is started from its distribution package when one provides it
/// ([`products`]), once per product (per port for products that run several servers), and
/// installed in one step. Starts that say nothing of their services are joined as they are.
struct ServicesStart {
    script: String,
    step: Option<Step>,
    /// How Docker brings the services up, for the note.
    docker: Option<DockerUp>,
    native: Vec<NativeStart>,
    /// Products started only by Docker.
    docker_only: Vec<String>,
    warnings: Vec<String>,
}

/// `start` followed by the commands that prepare its services, each allowed to fail (a second
/// start finds the role already made) with a warning.
fn with_seeds(start: &str, seeds: &[(String, Evidence)]) -> String {
    if start.is_empty() || seeds.is_empty() {
        return start.to_string();
    }
    let mut script = start.to_string();
    for (seed, source) in seeds {
        let command = format!("{seed} || echo 'hanzo-env: warning: preparing the services as CI does failed' >&2");
        script.push('\n');
        script.push_str(&crate::plan::render::evidenced(&command, &source.to_string()));
    }
    script
}

/// A service as the product tables read its definition.
fn definition(service: &Service) -> Definition<'_> {
    Definition {
        product: &service.name,
        image: service.image.as_deref(),
        ports: &service.ports,
        env: &service.env,
        source: &service.source,
    }
}

impl ServicesStart {
    fn of(starts: &[Start], defined: &[Service]) -> ServicesStart {
        let commands: Vec<String> = starts.iter().map(|s| s.command.clone()).collect();
        let mut plan = ServicesStart {
            script: commands.join(" && "),
            step: None,
            docker: None,
            native: Vec::new(),
            docker_only: Vec::new(),
            warnings: Vec::new(),
        };
        if starts.is_empty() || starts.iter().any(|s| s.compose.is_none() && s.containers.is_empty()) {
            return plan;
        }
        for service in starts.iter().flat_map(|start| match &start.compose {
            Some(compose) => compose.services.iter().map(|s| Service::started(s, Kind::ComposeFile)).collect(),
            None => start.containers.clone(),
        }) {
            let Some(product) = products::native(&service.name) else {
                if !plan.docker_only.contains(&service.name) {
                    plan.docker_only.push(service.name);
                }
                continue;
            };
            let start = product.start(&definition(&service), &mut plan.warnings);
            let same_product = plan.native.iter().filter(|n| std::ptr::eq(n.product, product));
            let (ports, started) =
                same_product.fold((0, false), |(ports, started), n| (ports + 1, started || n.port == start.port));
            match product.ports_per_machine {
                _ if started => {}
                Some(most) if ports >= most => plan.warnings.push(format!(
                    "{}: without Docker, one {} server answers {most} port{} at most: port {} needs Docker",
                    start.source,
                    product.package,
                    if most == 1 { "" } else { "s" },
                    start.port
                )),
                _ => plan.native.push(start),
            }
        }
        // CI's own definition of a server started here (its test command carries CI's user
        // and database): its account is added to the same server.
        for service in defined.iter().filter(|s| s.source.kind == Kind::Ci) {
            let Some(product) = products::native(&service.name).filter(|p| p.accounts) else { continue };
            let start = product.start(&definition(service), &mut plan.warnings);
            let same_server = plan.native.iter().any(|n| std::ptr::eq(n.product, product) && n.port == start.port);
            if same_server && !plan.native.iter().any(|n| n.args == start.args) {
                plan.native.push(start);
            }
        }
        let docker = if starts.iter().any(|s| s.compose.is_some()) {
            DockerUp::Compose(commands)
        } else {
            DockerUp::Run(commands)
        };
        if !plan.native.is_empty() {
            let usable = if matches!(docker, DockerUp::Compose(_)) { "compose" } else { "run" };
            let mut args = vec![usable.to_string()];
            args.extend(dedup_by_key(plan.native.iter().map(|n| n.product.package.to_string()).collect(), |p| {
                p.clone()
            }));
            let sources = dedup_by_key(plan.native.iter().map(|n| n.source.clone()).collect(), |s| s.clone());
            let step = Step::helper(Phase::System, "hanzo_service_packages", args, Evidence::default());
            plan.step = Some(step.citing(sources));
        }
        if !plan.native.is_empty() || matches!(docker, DockerUp::Compose(_)) {
            let docker_only: Vec<&str> = plan.docker_only.iter().map(String::as_str).collect();
            let calls: Vec<_> = plan.native.iter().map(NativeStart::call).collect();
            plan.script = crate::plan::render::services(&docker, &calls, &docker_only);
        }
        plan.docker = Some(docker);
        plan
    }

    /// `services` with the package each is started from without Docker.
    fn mark(&self, mut services: Vec<Service>) -> Vec<Service> {
        for service in &mut services {
            service.package =
                self.native.iter().find(|n| n.service == service.name).map(|n| n.product.package.to_string());
        }
        services
    }

    /// The services of the note, each with the way `start` brings it up.
    fn note(&self, services: &[Service]) -> String {
        let path = match &self.docker {
            Some(DockerUp::Compose(_)) => "docker compose, else docker-compose",
            Some(DockerUp::Run(_)) => "docker run",
            None => "",
        };
        let mut items: Vec<String> = Vec::new();
        let mut native_names: Vec<&str> = Vec::new();
        let mut packages: Vec<&str> = Vec::new();
        for start in &self.native {
            if !native_names.contains(&start.service.as_str()) {
                native_names.push(&start.service);
            }
            if !packages.contains(&start.product.package) {
                packages.push(start.product.package);
            }
        }
        if !native_names.is_empty() {
            let noun = if packages.len() == 1 { "package" } else { "packages" };
            items.push(format!(
                "{} ({path}, else the Debian/Ubuntu {noun} {})",
                native_names.join(", "),
                packages.join(", ")
            ));
        }
        if !self.docker_only.is_empty() {
            items.push(format!("{} (Docker only: no distribution package)", self.docker_only.join(", ")));
        }
        for service in services {
            let mentioned = native_names.contains(&service.name.as_str()) || self.docker_only.contains(&service.name);
            if !mentioned {
                items.push(service.name.clone());
            }
        }
        format!("services: {}", items.join(", "))
    }
}

fn merge_steps(steps: Vec<Step>) -> Vec<Step> {
    let mut steps = dedup_by_key(steps, Step::command);
    // Stable: within a phase, detector order (the order findings arrived in) is kept.
    steps.sort_by_key(|s| s.phase);
    steps
}

/// In a polyglot repo, the steps of ecosystems other than the primary test's run only where
/// their toolchain is: a sandbox without PHP still gets the Node project whose tests the
/// agent runs (bullmq's PHP, Elixir and .NET ports beside it), and says what it skipped. The
/// primary's own ecosystem, and steps of no known toolchain, fail as they would.
fn skip_other_toolchains_when_missing(steps: &mut [Step], primary_test: &str) {
    let Some(primary) = ecosystems::owner_of_test(primary_test) else { return };
    for step in steps.iter_mut() {
        let Action::Shell(command) = &step.action else { continue };
        if command.trim().contains('\n') {
            continue;
        }
        let Some(program) = shell::program_of(command) else { continue };
        let Some(owner) = ecosystems::owner_of_program(program).filter(|eco| eco.id() != primary.id()) else {
            continue;
        };
        let toolchain = owner.toolchains().first().map_or(owner.id(), |t| t.display);
        step.guard = Some(Guard { program: program.to_string(), toolchain: toolchain.to_string() });
    }
}

/// The install script a person reviews (see [`crate::plan::render::install`]).
pub fn install_script(steps: &[Step]) -> String {
    crate::plan::render::install(steps)
}

/// A comment must stay one line of plain text, whatever a file name holds: line breaks
/// become spaces, other control characters (ESC, BEL: a TOML comment may not hold them, a
/// terminal obeys them) are shown escaped (`\u{1b}`).
pub fn one_line(text: &str) -> String {
    crate::plan::render::comment_text(text)
}

/// At most this many secret names in a proposal: far more than an app reads, and a bound on
/// what a checkout of generated code can put in the file.
pub const MAX_SECRET_NAMES: usize = 500;

/// One secret name of the detection: whether the project needs it set, and the evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretDetail {
    pub name: String,
    /// Some evidence says the project cannot run its tests without it.
    pub required: bool,
    /// Where the deciding evidence is (`path:line` or `path#key` in JSON).
    pub source: Evidence,
    /// The deciding evidence in words (`BaseSettings field, no default`).
    pub why: String,
}

fn merge_secrets(secrets: Vec<Secret>) -> (Vec<SecretDetail>, Vec<String>) {
    // Which evidence speaks for a name: a requirement, then an explicit option, then a plain read.
    let rank = |need: Need| match need {
        Need::Required => 0,
        Need::Optional => 1,
        Need::Unstated => 2,
    };
    let mut rejected = Vec::new();
    let mut chosen: Vec<Secret> = Vec::new();
    // Where each name is in `chosen`: a checkout of generated code reads thousands.
    let mut index: HashMap<String, usize> = HashMap::new();
    for secret in secrets {
        match crate::names::validate_secret_name(&secret.name) {
            Ok(()) => {}
            // Reserved names are the sandbox's own variables: simply not secrets.
            Err(crate::names::NameError::Reserved(_)) => continue,
            Err(e) => {
                if !index.contains_key(&secret.name) {
                    rejected.push(format!("{}: {e}; left out of secrets", secret.source));
                    // Remembered (never shown) so that the name is reported once.
                    index.insert(secret.name.clone(), chosen.len());
                    chosen.push(Secret { need: Need::Unstated, ..secret });
                }
                continue;
            }
        }
        match index.get(&secret.name).map(|&i| &mut chosen[i]) {
            Some(existing) if rank(secret.need) < rank(existing.need) => *existing = secret,
            Some(_) => {}
            None => {
                index.insert(secret.name.clone(), chosen.len());
                chosen.push(secret);
            }
        }
    }
    let mut kept: Vec<SecretDetail> = chosen
        .into_iter()
        .filter(|s| crate::names::validate_secret_name(&s.name).is_ok())
        .map(|s| SecretDetail { required: s.need == Need::Required, name: s.name, source: s.source, why: s.why })
        .collect();
    if kept.len() > MAX_SECRET_NAMES {
        // The first found stay: dotenv files and CI come before the code scan.
        rejected.push(format!(
            "{} secret names found, more than a proposal holds: the first {MAX_SECRET_NAMES} kept, \
             the rest (from {} on) left out",
            kept.len(),
            kept[MAX_SECRET_NAMES].source
        ));
        kept.truncate(MAX_SECRET_NAMES);
    }
    kept.sort_by(|a, b| (!a.required, &a.name).cmp(&(!b.required, &b.name)));
    (kept, rejected)
}

fn merge_toolchains(mut toolchains: Vec<Toolchain>) -> Vec<Toolchain> {
    // A manifest's floor orders the names like any manifest (the project's language first);
    // within a name it comes after every exact pin.
    let name_rank = |t: &Toolchain| if t.source.kind == Kind::ManifestFloor { Kind::Manifest } else { t.source.kind };
    toolchains.sort_by_key(name_rank);
    for t in &mut toolchains {
        if t.version.as_deref().is_some_and(|v| !ecosystems::pins(&t.name, v)) {
            t.version = None;
        }
    }
    let mut names: Vec<String> = Vec::new();
    for t in &toolchains {
        if !names.contains(&t.name) {
            names.push(t.name.clone());
        }
    }
    toolchains.sort_by_key(|t| t.source.kind);
    let toolchains = dedup_by_key(toolchains, |t| (t.name.clone(), t.version.clone()));
    let mut merged = Vec::with_capacity(toolchains.len());
    for name in &names {
        let (pinned, unpinned): (Vec<&Toolchain>, Vec<&Toolchain>) =
            toolchains.iter().filter(|t| t.name == *name).partition(|t| t.version.is_some());
        merged.extend(pinned.into_iter().chain(unpinned.into_iter().take(1)).cloned());
    }
    // An unpinned entry says nothing a pinned one of the same name does not.
    let pinned_names: HashSet<String> = merged.iter().filter(|t| t.version.is_some()).map(|t| t.name.clone()).collect();
    merged.retain(|t| t.version.is_some() || !pinned_names.contains(&t.name));
    merged
}

/// Where the agent setup the owners wrote disagrees with the manifests: a toolchain pinned
/// to another version, a package manager other than the lockfile's. Both stay listed (the
/// agent setup first): which is right is for the reviewer to say.
fn agent_setup_disagreements(toolchains: &[Toolchain], managers: &[PackageManager]) -> Vec<String> {
    let mut found = Vec::new();
    for agent in toolchains.iter().filter(|t| t.source.kind == Kind::AgentSetup) {
        let Some(pin) = &agent.version else { continue };
        let other = toolchains.iter().find(|t| {
            t.name == agent.name
                && matches!(t.source.kind, Kind::VersionManager | Kind::Manifest)
                && t.version.as_ref().is_some_and(|v| !v.starts_with(pin.as_str()) && !pin.starts_with(v.as_str()))
        });
        if let Some(other) = other {
            found.push(format!(
                "{} sets up {} {pin}, but {} pins {}",
                agent.source,
                ecosystems::display_name(&agent.name),
                other.source,
                other.version.as_deref().unwrap_or_default()
            ));
        }
    }
    for agent in managers.iter().filter(|m| m.source.kind == Kind::AgentSetup) {
        let Some(owner) = ecosystems::owner_of_package_manager(&agent.name) else { continue };
        let same_place = |m: &&PackageManager| m.path == agent.path && m.source.kind == Kind::Manifest;
        let ours: Vec<&PackageManager> = managers.iter().filter(same_place).collect();
        let rival = ours.iter().find(|m| owner.package_managers().contains(&m.name.as_str()) && m.name != agent.name);
        if let Some(rival) = rival
            && !ours.iter().any(|m| m.name == agent.name)
        {
            found.push(format!("{} runs {}, but {} says {}", agent.source, agent.name, rival.source, rival.name));
        }
    }
    found
}

fn merge_package_managers(mut pms: Vec<PackageManager>) -> Vec<PackageManager> {
    pms.sort_by_key(|p| p.source.kind);
    let mut merged: Vec<PackageManager> = Vec::new();
    for pm in pms {
        match merged.iter_mut().find(|m| m.name == pm.name && m.path == pm.path) {
            Some(existing) => {
                if existing.version.is_none() {
                    existing.version = pm.version;
                }
            }
            None => merged.push(pm),
        }
    }
    merged
}

fn merge_services(mut services: Vec<Service>) -> Vec<Service> {
    services.sort_by_key(|s| s.source.kind);
    let mut merged: Vec<Service> = Vec::new();
    for service in services {
        match merged.iter_mut().find(|m| m.name == service.name) {
            Some(existing) => {
                if existing.image.is_none() {
                    existing.image = service.image;
                }
            }
            None => merged.push(service),
        }
    }
    merged
}

fn merge_tests(mut tests: Vec<TestCommand>, managers: &[PackageManager]) -> Vec<TestCommand> {
    let names: Vec<&str> = managers.iter().map(|m| m.name.as_str()).collect();
    for test in &mut tests {
        test.command = ecosystems::in_installed_environment(&test.command, &names);
    }
    // In rank order; the repo's own project before a subproject's (`cd elixir && mix test`
    // beside the root's `yarn test`), then CI's plain test job before its variants; a
    // command found twice keeps its best source.
    // A root that another language manages besides Node is that language's app, and its
    // package.json the browser front end's (a Rails or Laravel app's assets): of the same
    // standing, the app's tests come before the front end's (`bin/rspec` before `yarn test:js`).
    let ecosystem_of = |program: &str| ecosystems::owner_of_package_manager(program).map(|e| e.id());
    let app_beside_node =
        managers.iter().any(|m| m.path == "." && ecosystem_of(&m.name).is_some_and(|id| id != "node" && id != "cpp"))
            && managers.iter().any(|m| m.path == "." && ecosystem_of(&m.name) == Some("node"));
    let front_end = |t: &TestCommand| {
        let program = shell::split_prefix(&t.command).1.split_whitespace().next().unwrap_or_default();
        app_beside_node && (program == "npx" || ecosystem_of(program) == Some("node"))
    };
    tests.sort_by_key(|t| {
        (test_rank(&t.source), t.partial, t.command.starts_with("cd "), !in_plain_test_job(&t.source), front_end(t))
    });
    // `(cd elixir && mix test)` (an ecosystem's default) is CI's `cd elixir && mix test`.
    let mut tests = dedup_by_key(tests, |t| {
        let command = t.command.trim();
        let unwrapped = command.strip_prefix("(cd ").and_then(|c| c.strip_suffix(')')).map(|c| format!("cd {c}"));
        unwrapped.unwrap_or_else(|| command.to_string())
    });
    // One command CI runs in several jobs that differ in what they set (koel's workflows per
    // database: `DB_CONNECTION=mysql-ci … composer test` beside `composer test`): the run
    // that sets least comes first, the configuration the repo ships with and no service to
    // bring up.
    for i in 0..tests.len() {
        let variant = |t: &TestCommand| (test_rank(&t.source), without_assignments(&t.command));
        let key = variant(&tests[i]);
        let fewest = (i..tests.len())
            .filter(|&j| variant(&tests[j]) == key)
            .min_by_key(|&j| (assignments(&tests[j].command), j))
            .unwrap_or(i);
        let least = tests.remove(fewest);
        tests.insert(i, least);
    }
    // The primary: the first that runs the suite as a developer would before pushing; the
    // others keep their places.
    if let Some(best) = (0..tests.len()).min_by_key(|&i| (reasons_not_primary(&tests[i], managers), i)) {
        let mut primary = tests.remove(best);
        primary.primary = true;
        tests.insert(0, primary);
    }
    // What CI builds for the test (in its job or another) runs first: ranked above by what
    // the test runs.
    for test in tests.iter_mut().filter(|t| !t.built_first.is_empty()) {
        test.command = format!("{} && {}", test.built_first.join(" && "), test.command);
    }
    tests
}

/// The `NAME=value` words before a command's program (after a leading `cd DIR && `).
fn assignments(command: &str) -> usize {
    let (prefix, _) = shell::split_prefix(command);
    shell::commands(prefix).last().map_or(0, |words| words.iter().filter(|w| w.contains('=')).count())
}

/// The command without its `NAME=value` words: `cd DIR && ` and the program on.
fn without_assignments(command: &str) -> String {
    let (prefix, program) = shell::split_prefix(command);
    let dir = prefix.strip_prefix("cd ").and_then(|rest| rest.split_once(" && ")).map(|(dir, _)| dir);
    match dir {
        Some(dir) => format!("cd {dir} && {program}"),
        None => program.to_string(),
    }
}

/// Environments, sessions and scripts that are not the test suite.
const NOT_THE_SUITE: &[&str] = &[
    "docs",
    "doc",
    "docset",
    "doctests",
    "changelog",
    "lint",
    "linting",
    "mypy",
    "typing",
    "types",
    "type",
    "typecheck",
    "pyright",
    "style",
    "format",
    "fmt",
    "pre-commit",
    "precommit",
    "coverage",
    "cov",
    "bench",
    "benchmark",
    "smoke",
    "integration",
    "benchmarks",
    "perf",
    "e2e",
    "dts",
    "release",
    "build",
    "pkg",
    "package",
    "readme",
    "spelling",
    "audit",
    "security",
    "color",
    "system",
];

/// Options whose value names a build configuration or profile, not what runs.
const BUILD_CONFIGURATION_OPTIONS: &[&str] = &["--configuration", "-c", "--profile"];

/// How many reasons keep `test` from being the test command a developer runs before
/// pushing: it runs something else than the suite (docs, lint, type checks, end-to-end or
/// benchmarks; coverage alone, not the suite with coverage), needs an interpreter of its own
/// (`-e pypy311`, `--python 3.10`), tests a built package (`--installpkg dist/…`,
/// `--notest`), runs through a tool the project does not install (`pipx`, `uvx`, `uv` in a
/// pip project) or in a container (`docker run …`), or fans out over interpreters (`tox -p
/// all`), itself or in the recipe of its target.
fn reasons_not_primary(test: &TestCommand, managers: &[PackageManager]) -> usize {
    let command = test.command.as_str();
    let words: Vec<&str> = command.split_whitespace().collect();
    // Words that name nothing the run does: what it sets before its program
    // (`WAGTAIL_CHECK_TEMPLATE_NUMBER_FORMAT=1` configures the run) and a selection that
    // leaves something out (pytest's `-m "not e2e"`).
    let mut starts_a_command = true;
    let mut in_exclusion: Option<char> = None;
    let left_aside: Vec<bool> = words
        .iter()
        .map(|word| {
            if let Some(quote) = in_exclusion {
                in_exclusion = (!word.ends_with(quote)).then_some(quote);
                return true;
            }
            if let Some(quote) = ['"', '\''].into_iter().find(|q| word.len() > 1 && word.starts_with(*q))
                && word[1..].eq_ignore_ascii_case("not")
            {
                in_exclusion = Some(quote);
                return true;
            }
            let assignment =
                starts_a_command && word.split_once('=').is_some_and(|(name, _)| shell::is_variable_name(name));
            starts_a_command = assignment || matches!(*word, "&&" | "||" | ";");
            assignment
        })
        .collect();
    // The names a command runs: its words but options (`--no-coverage` is the suite), split
    // at punctuation (`scripts/test-integration.sh` names integration).
    let names: Vec<String> = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !left_aside[*i])
        // Nor a build configuration's name (`dotnet test --configuration Release`).
        .filter(|(i, w)| !(w.starts_with('-') || *i > 0 && BUILD_CONFIGURATION_OPTIONS.contains(&words[i - 1])))
        .map(|(_, w)| w)
        .flat_map(|w| w.trim_matches(['"', '\'']).split([',', '-', ':', '_', '=', '/', '.']))
        .map(str::to_ascii_lowercase)
        .collect();
    // A test-runner script names the suite too (`coverage run runtests.py`).
    let names_the_suite =
        names.iter().any(|n| ["test", "tests", "pytest", "unit", "spec", "runtests"].contains(&n.as_str()));
    // A target whose recipe runs no tests (`make check` running linters) is other work too.
    let recipe_tests = test.runs.is_empty()
        || test.runs.iter().any(|line| {
            let line = line.trim_start_matches(['@', '-', '+']);
            ecosystems::is_test_command(line) || line.to_ascii_lowercase().contains("make")
        });
    let other_work = !recipe_tests
        || names.iter().any(|n| match n.as_str() {
            "coverage" | "cov" => !names_the_suite,
            n => NOT_THE_SUITE.contains(&n),
        });
    let interpreter = words.windows(2).any(|w| {
        let value = w[1].trim_start_matches('-');
        (["-e", "--env", "--python", "-p"].contains(&w[0]) && value.starts_with(|c: char| c.is_ascii_digit()))
            || (w[0] == "-e" && (value.starts_with("py3") || value.starts_with("py2")))
    }) || names.iter().any(|n| n.starts_with("pypy"))
        // A cross build (`cargo test --target i686-unknown-linux-gnu`) needs a target of its own.
        || words.windows(2).any(|w| w[0] == "--target" && w[1].matches('-').count() >= 2)
        || words.iter().any(|w| w.strip_prefix("--target=").is_some_and(|t| t.matches('-').count() >= 2));
    let package = ["--installpkg", "--notest", "--install-only", "--no-install", "dist/"]
        .iter()
        .any(|flag| command.contains(flag));
    let has = |pm: &str| managers.iter().any(|m| m.name == pm);
    let elsewhere = |line: &str| match shell::split_prefix(line).1.split_whitespace().next() {
        Some("pipx" | "uvx" | "docker" | "docker-compose" | "podman") => true,
        Some(tool @ ("uv" | "poetry" | "pdm" | "hatch")) => !has(tool),
        _ => false,
    };
    let foreign_tool = elsewhere(command) || test.runs.iter().any(|line| elsewhere(line));
    let fans_out = ecosystems::fans_out(command) || test.runs.iter().any(|line| ecosystems::fans_out(line));
    [other_work, interpreter, package, foreign_tool, fans_out].iter().filter(|r| **r).count()
}

/// Whether a CI test command runs in a job named for the test suite alone (`test`,
/// `unit-tests`, `pytest`), not for a variant of it (`valkey-test`, `test-windows`,
/// `integration`): where CI has both, the plain one is the check every change must pass.
fn in_plain_test_job(source: &Evidence) -> bool {
    let Some(job) = source.job_id().filter(|_| source.kind == Kind::Ci) else { return false };
    let job = job.strip_prefix("jobs.").unwrap_or(job).to_ascii_lowercase();
    job.split(['-', '_', ' '])
        .all(|word| matches!(word, "test" | "tests" | "testing" | "unit" | "unittest" | "unittests" | "pytest" | "ci"))
}

/// How much a test command's source says about what the project really runs:
/// 0 — the agent setup the owners wrote (AGENTS.md, Cursor's environment, Copilot's steps);
/// 1 — CI configuration (the commands the project's own checks run);
/// 2 — the project's scripts and task files (package.json/composer.json/devbox `scripts`,
///     Makefile, justfile, Taskfile);
/// 3 — everything else: an ecosystem's default (`cargo test` from Cargo.toml, `tox -e py`
///     from tox.ini, …), which a target the project named `test` outranks.
pub fn test_rank(source: &Evidence) -> u8 {
    match source.kind {
        Kind::AgentSetup => 0,
        Kind::Ci => 1,
        Kind::Task => 2,
        _ => 3,
    }
}

/// The `note`: toolchains with versions and where from, package managers, the detectors'
/// own facts (workspaces, …), services and test commands.
fn note(d: &Detection, notes: &[String], services_start: &ServicesStart) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !d.toolchains.is_empty() {
        let items: Vec<String> = d
            .toolchains
            .iter()
            .map(|t| match &t.version {
                Some(v) => format!("{} {v} ({})", ecosystems::display_name(&t.name), t.source),
                None => format!("{} ({})", ecosystems::display_name(&t.name), t.source),
            })
            .collect();
        parts.push(items.join(", "));
    }
    if !d.package_managers.is_empty() {
        let items: Vec<String> = d
            .package_managers
            .iter()
            .map(|p| {
                let mut s = p.name.clone();
                if let Some(v) = &p.version {
                    s.push_str(&format!(" {v}"));
                }
                if p.path != "." {
                    s.push_str(&format!(" in {}", p.path));
                }
                s
            })
            .collect();
        parts.push(items.join(", "));
    }
    let mut seen = HashSet::new();
    parts.extend(notes.iter().filter(|n| seen.insert(n.as_str())).cloned());
    if !d.services.is_empty() {
        parts.push(services_start.note(&d.services));
    }
    if !d.tests.is_empty() {
        // The best few: the full list, with evidence, is in `tests`.
        const SHOWN: usize = 3;
        let commands: Vec<&str> = d.tests.iter().take(SHOWN).map(|t| t.command.as_str()).collect();
        let more = d.tests.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        parts.push(format!("tests: {}{more}", commands.join(", ")));
    }
    one_line(&parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::findings::Phase;
    use crate::evidence::ev;

    fn repo() -> Repo {
        Repo::from_files(std::path::Path::new("/nonexistent/site"), vec![], vec![], 1 << 20)
    }

    #[test]
    fn steps_are_deduplicated_and_ordered_by_phase_then_detector() {
        let mut f = Findings::default();
        f.step(Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-lock.yaml"));
        f.step(Phase::Toolchain, "corepack enable", ev("package.json#packageManager"));
        f.step(Phase::Install, "uv sync --frozen", ev("uv.lock"));
        f.step(Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-workspace.yaml"));
        let d = merge(&repo(), f);
        assert_eq!(
            d.install,
            "set -euo pipefail\ncorepack enable  # package.json#packageManager\n\
             pnpm install --frozen-lockfile  # pnpm-lock.yaml\nuv sync --frozen  # uv.lock\n"
        );
    }

    #[test]
    fn secrets_are_checked_and_sorted() {
        let mut f = Findings::default();
        for name in ["STRIPE_KEY", "DATABASE_URL", "PATH", "HANZO_TOKEN", "bad-name", "DATABASE_URL", "bad-name"] {
            f.secret(name, ev(".env.example"), Need::Unstated, "listed in .env.example");
        }
        let d = merge(&repo(), f);
        assert_eq!(d.secrets, ["DATABASE_URL", "STRIPE_KEY"]);
        assert_eq!(d.warnings.iter().filter(|w| w.contains("bad-name")).count(), 1, "{:?}", d.warnings);
        assert!(!d.warnings.iter().any(|w| w.contains("PATH")));
    }

    #[test]
    fn required_evidence_wins_and_required_names_come_first() {
        let mut f = Findings::default();
        f.secret("SMTP_PASSWORD", ev("src/mail.ts:3"), Need::Unstated, "process.env");
        f.secret("SMTP_PASSWORD", ev("src/env.ts:9"), Need::Optional, "t3-env schema, optional");
        f.secret("ZED_TOKEN", ev("src/zed.ts:1"), Need::Unstated, "process.env");
        f.secret("API_KEY", ev(".env.example:1"), Need::Unstated, "listed in .env.example");
        f.secret("API_KEY", ev("src/env.ts:4"), Need::Required, "t3-env schema, no default");
        f.secret("API_KEY", ev(".github/workflows/ci.yml#jobs.test"), Need::Required, "set for the CI test job");
        let d = merge(&repo(), f);
        assert_eq!(d.secrets, ["API_KEY", "SMTP_PASSWORD", "ZED_TOKEN"]);
        let rows: Vec<(&str, bool, &str, &str)> = d
            .secret_details
            .iter()
            .map(|s| (s.name.as_str(), s.required, s.source.as_test_str(), s.why.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("API_KEY", true, "src/env.ts:4", "t3-env schema, no default"),
                ("SMTP_PASSWORD", false, "src/env.ts:9", "t3-env schema, optional"),
                ("ZED_TOKEN", false, "src/zed.ts:1", "process.env"),
            ]
        );
    }

    fn starts(files: &[(&str, &str)]) -> Vec<(String, String)> {
        let d = crate::detect::testing::detection(files);
        d.starts.iter().map(|s| (s.command.clone(), s.source.to_string())).collect()
    }

    const APP_AND_DB: &str = "services:\n  app:\n    build: .\n    depends_on: [db]\n  db:\n    image: postgres:${PG:-16}\n  cache:\n    image: bitnami/redis:7\n  proxy:\n    image: nginx\n";

    #[test]
    fn secret_names_are_capped_with_a_warning() {
        let mut f = Findings::default();
        for i in 0..MAX_SECRET_NAMES + 7 {
            f.secret(format!("K{i:04}_TOKEN"), ev(&format!("src/m{i}.js:1")), Need::Unstated, "process.env");
        }
        let d = merge(&repo(), f);
        assert_eq!(d.secrets.len(), MAX_SECRET_NAMES);
        assert_eq!(d.secrets.last().map(String::as_str), Some("K0499_TOKEN"), "the first found are kept");
        assert!(
            d.warnings.iter().any(|w| w.starts_with("507 secret names found") && w.contains("from src/m500.js:1 on")),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn starts_of_every_source_are_ordered_and_each_product_started_once() {
        let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: docker compose -f ci/compose.yml up -d\n      - run: pytest\n";
        let found = starts(&[
            (
                "ci/compose.yml",
                "services:\n  db:\n    image: postgres\n  search:\n    image: opensearchproject/opensearch\n",
            ),
            (".github/workflows/test.yml", workflow),
            ("Makefile", "up:\n\tdocker compose -f docker/dev.yml up -d\n"),
            ("docker/dev.yml", "services:\n  cache:\n    image: redis\n  db:\n    image: postgres\n"),
            (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
            (".devcontainer/compose.yml", "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n"),
        ]);
        let found: Vec<(&str, &str)> = found.iter().map(|(c, s)| (c.as_str(), s.as_str())).collect();
        // What CI's test job brings up comes first: the dev container's postgres is its.
        assert_eq!(
            found,
            [
                ("docker compose -f ci/compose.yml up -d db search", ".github/workflows/test.yml#jobs.t.steps[0]"),
                ("docker compose -f docker/dev.yml up -d cache", "Makefile:2"),
            ]
        );
    }

    #[test]
    fn each_product_is_started_once_and_wider_starts_replace_narrower_ones() {
        let found = starts(&[
            ("cypress/docker-compose.yml", "services:\n  db:\n    image: postgres:15\n"),
            ("docker-compose.yml", "services:\n  db:\n    image: postgres:16\n"),
            ("e2e/compose.yml", "services:\n  pg:\n    image: postgres\n  cache:\n    image: redis\n"),
            (
                "Makefile",
                "db:\n\tdocker compose -f e2e/compose.yml up -d cache\nall:\n\tdocker compose -f e2e/compose.yml up -d cache pg\n",
            ),
        ]);
        let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["docker compose up -d db", "docker compose -f e2e/compose.yml up -d cache"]);
    }

    #[test]
    fn root_file_with_override_nested_files_and_skipped_ones() {
        let found = starts(&[
            ("compose.yaml", "services:\n  db:\n    image: mysql:8\n"),
            ("compose.override.yaml", "services:\n  mail:\n    image: axllent/mailpit\n"),
        ]);
        assert_eq!(found, [("docker compose up -d db mail".to_string(), "compose.yaml".to_string())]);
        let d = crate::detect::testing::detection(&[
            ("backend/dev/docker-compose.yml", APP_AND_DB),
            ("examples/demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
            ("Demo/compose.yaml", "services:\n  m:\n    image: mongo\n"),
            ("deploy/docker-compose.prod.yml", "services:\n  m:\n    image: mysql\n"),
            ("compose.deploy.yml", "services:\n  m:\n    image: mysql\n"),
            ("docker/variants/docker-compose.mariadb.yml", "services:\n  m:\n    image: mariadb\n"),
            ("docker/variants/docker-compose.postgres.yml", "services:\n  p:\n    image: postgres\n"),
        ]);
        assert_eq!(
            crate::plan::render::docker_commands(&d.start).unwrap(),
            ["docker compose -f backend/dev/docker-compose.yml up -d db cache"]
        );
        let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(services, ["postgres", "redis"]);
        assert!(d.note.contains("docker/variants/docker-compose.mariadb.yml"), "{}", d.note);
        assert!(d.note.contains("deploy/docker-compose.prod.yml"), "{}", d.note);
    }

    #[test]
    fn ci_service_containers_only_without_any_compose_start() {
        let workflow =
            "jobs:\n  t:\n    services:\n      pg:\n        image: postgres\n    steps:\n      - run: go test ./...\n";
        let found = starts(&[
            (".github/workflows/test.yml", workflow),
            (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
            (".devcontainer/compose.yml", "services:\n  db:\n    image: postgres\n"),
        ]);
        let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["docker compose -f .devcontainer/compose.yml up -d db"]);
        let found = starts(&[(".github/workflows/test.yml", workflow)]);
        let commands: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["docker run -d --name pg postgres"]);
    }

    #[test]
    fn ci_tests_compose_file_comes_before_the_dev_containers_and_names_its_services() {
        let devcontainer = r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#;
        let dev = "services:\n  app:\n    build: .\n  broker:\n    image: redis:7\n  tika:\n    image: apache/tika\n";
        let ci = "services:\n  tika:\n    image: apache/tika\n  mail:\n    image: docker.io/greenmail/standalone:2.1\n    ports: ['3143:3143']\n";
        let workflow = "jobs:\n  test:\n    steps:\n      - run: docker compose --file docker/ci-test.yml up --detach\n      - run: pytest\n";
        let d = crate::detect::testing::detection(&[
            (".devcontainer/devcontainer.json", devcontainer),
            (".devcontainer/compose.yml", dev),
            ("docker/ci-test.yml", ci),
            (".github/workflows/ci.yml", workflow),
            ("pyproject.toml", "[project]\nname = 'x'\n"),
        ]);
        let commands: Vec<&str> = d.starts.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(
            commands,
            [
                "docker compose -f docker/ci-test.yml up -d tika mail",
                "docker compose -f .devcontainer/compose.yml up -d broker"
            ]
        );
        let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
        assert!(services.contains(&"greenmail") && services.contains(&"redis"), "{services:?}");
    }

    #[test]
    fn a_ci_job_against_an_alternative_compose_file_is_a_variant_of_the_roots() {
        let root = "services:\n  db:\n    image: postgres:16\n    ports: ['5432:5432']\n";
        let other = "services:\n  cockroachdb:\n    image: cockroachdb/cockroach:v23.2.0\n";
        let workflow = "jobs:\n  test:\n    steps:\n      - run: npm test\n  test-cockroach:\n    steps:\n      - run: docker compose -f docker-compose.cockroach.yaml up -d\n      - run: npm test\n";
        let files = [
            ("docker-compose.yaml", root),
            ("docker-compose.cockroach.yaml", other),
            ("docker-compose.citus.yaml", root),
            (".github/workflows/ci.yml", workflow),
            ("package.json", r#"{"scripts": {"test": "vitest run"}}"#),
        ];
        let d = crate::detect::testing::detection(&files);
        let commands: Vec<&str> = d.starts.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(commands, ["docker compose up -d db"]);
        assert!(!d.services.iter().any(|s| s.name == "cockroachdb"));
        // Without a root file to start, what CI brings up is the start.
        let d = crate::detect::testing::detection(&files[1..]);
        let commands: Vec<&str> = d.starts.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(commands, ["docker compose -f docker-compose.cockroach.yaml up -d cockroachdb"]);
    }

    #[test]
    fn a_ci_services_account_joins_the_server_the_compose_file_starts() {
        let compose = "services:\n  db:\n    image: postgres:14\n    ports: ['5432:5432']\n    environment:\n      POSTGRES_USER: user\n      POSTGRES_PASSWORD: pass\n      POSTGRES_DB: data\n  cache:\n    image: redis:7\n";
        let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres:16\n        env:\n          POSTGRES_USER: postgres\n          POSTGRES_PASSWORD: postgres\n          POSTGRES_DB: ci\n        ports: ['5432:5432']\n      other:\n        image: postgres:16\n        ports: ['6543:5432']\n      redis:\n        image: redis:7\n        options: --requirepass x\n    env:\n      PGUSER: postgres\n    steps:\n      - run: npm test\n";
        let d = crate::detect::testing::detection(&[("compose.yaml", compose), (".github/workflows/ci.yml", workflow)]);
        let calls: Vec<String> = d.native_starts.iter().map(|n| n.call().command()).collect();
        // The test command carries CI's PGUSER: CI's role and database join the compose
        // file's server; a server on another port, or a product without accounts, does not.
        assert_eq!(
            calls,
            [
                "hanzo_service postgres 5432 user pass data",
                "hanzo_service redis 6379 ''",
                "hanzo_service postgres 5432 postgres postgres ci"
            ]
        );
    }

    #[test]
    fn the_start_brings_up_the_first_test_jobs_services_and_says_which() {
        let workflow = "jobs:\n  mysql:\n    services:\n      mariadb:\n        image: mariadb\n        ports: ['3306:3306']\n    steps:\n      - run: DB=mysql tox\n  postgres:\n    services:\n      postgres:\n        image: postgres:16\n        ports: ['5432:5432']\n    steps:\n      - run: DB=postgresql tox\n";
        let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow), ("tox.ini", "[tox]\n")]);
        let services: Vec<&str> = d.services.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(services, ["mariadb", "postgres"]);
        // verify waits only for what the drafted start brings up.
        assert_eq!(d.started_services(), ["mariadb"]);
        assert!(!d.start.contains("hanzo_postgres "), "{}", d.start);
    }

    #[test]
    fn ci_steps_that_prepare_a_service_follow_the_start() {
        let workflow = "jobs:\n  t:\n    services:\n      pg:\n        image: postgres:16\n        env:\n          POSTGRES_PASSWORD: postgres\n        ports: ['5432:5432']\n    env:\n      PGUSER: postgres\n    steps:\n      - run: psql -c \"CREATE ROLE app LOGIN\"\n      - run: npm run test:init\n      - run: npm test\n      - run: psql -c 'DROP ROLE app'\n  lint:\n    steps:\n      - run: psql --version\n";
        let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow), ("package.json", "{}")]);
        let seeds: Vec<&str> = d.start.lines().skip_while(|l| !l.starts_with("PGUSER=")).collect();
        // Before the job's first test, with the job's env; not after it, not in a job
        // without services; allowed to fail on a second start (the role exists).
        assert_eq!(
            seeds,
            [
                "PGUSER=postgres psql -c \"CREATE ROLE app LOGIN\" || echo 'hanzo-env: warning: preparing the services as CI does failed' >&2  # .github/workflows/ci.yml#jobs.t.steps[0]",
                "PGUSER=postgres npm run test:init || echo 'hanzo-env: warning: preparing the services as CI does failed' >&2  # .github/workflows/ci.yml#jobs.t.steps[1]",
            ],
            "{}",
            d.start
        );
        let without_services = crate::detect::testing::detection(&[("package.json", "{}")]);
        assert_eq!(without_services.start, "");
    }

    const SERVICES: &str = "services:\n  app:\n    build: .\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: \"it's\"\n    ports: ['5433:5432']\n  cache:\n    image: redis:7\n  mongo:\n    image: mongo:7\n  test-db:\n    image: postgres:16\n    ports: ['5434:5432']\n  mysql:\n    image: mysql:8\n  mysql-replica:\n    image: mysql:8\n    ports: ['3307:3306']\n  mariadb:\n    image: mariadb:11\n    ports: ['3308:3306']\n";

    #[test]
    fn services_start_with_docker_else_from_their_packages_each_installed_and_started_once() {
        let d = crate::detect::testing::detection(&[("compose.yaml", SERVICES)]);
        assert_eq!(
            crate::plan::render::docker_commands(&d.start).unwrap(),
            ["docker compose up -d db cache mongo test-db mysql mysql-replica mariadb"]
        );
        let calls: Vec<String> = d.native_starts.iter().map(|n| n.call().command()).collect();
        assert_eq!(
            calls,
            [
                r"hanzo_service postgres 5433 app 'it'\''s' app",
                "hanzo_service redis 6379 ''",
                "hanzo_service postgres 5434 postgres '' postgres",
                "hanzo_service mysql 3306 '' '' '' ''",
                "hanzo_service mysql 3307 '' '' '' ''",
            ],
            "a second postgres on its own port; one MariaDB server answering two"
        );
        assert!(
            d.warnings.contains(
                &"compose.yaml#services.mariadb: without Docker, one mariadb-server server answers 2 ports at most: \
                  port 3308 needs Docker"
                    .to_string()
            ),
            "{:?}",
            d.warnings
        );
        for call in &calls {
            assert!(d.start.contains(&format!("\n  {call}  # compose.yaml#services.")), "{}", d.start);
        }
        assert!(d.start.contains("\n  hanzo_service mongodb\n  hanzo_services_started\nfi"), "{}", d.start);
        assert!(d.start.starts_with(
            "# hanzo-env helpers v1: hanzo_docker hanzo_compose hanzo_service hanzo_postgres hanzo_mysql hanzo_redis\n"
        ), "each helper named once: {}", d.start);
        let services: Vec<&Step> = d.steps.iter().filter(|s| s.phase == Phase::System).collect();
        assert_eq!(services.len(), 1);
        assert_eq!(services[0].command(), "hanzo_service_packages compose postgresql redis-server mariadb-server");
        assert_eq!(
            services[0].evidence_text(),
            "compose.yaml#services.db, compose.yaml#services.cache, compose.yaml#services.test-db, \
             compose.yaml#services.mysql, compose.yaml#services.mysql-replica"
        );
        let packages: Vec<(&str, Option<&str>)> =
            d.services.iter().map(|s| (s.name.as_str(), s.package.as_deref())).collect();
        assert_eq!(
            packages,
            [
                ("postgres", Some("postgresql")),
                ("redis", Some("redis-server")),
                ("mongodb", None),
                ("mysql", Some("mariadb-server")),
                ("mariadb", None)
            ]
        );
        assert!(
            d.note.contains(
                "services: postgres, redis, mysql (docker compose, else docker-compose, else the Debian/Ubuntu packages \
                 postgresql, redis-server, mariadb-server), mongodb (Docker only: no distribution package)"
            ),
            "{}",
            d.note
        );
    }

    #[test]
    fn ci_service_containers_start_with_docker_run_else_from_their_packages() {
        let workflow = "jobs:\n  t:\n    services:\n      db:\n        image: mysql:8.0\n        env:\n          MYSQL_USER: app\n          MYSQL_PASSWORD: \"p@ss w'rd\"\n          MYSQL_DATABASE: app_test\n          MYSQL_ROOT_PASSWORD: ${{ secrets.ROOT }}\n        ports: ['33306:3306']\n    steps:\n      - run: go test ./...\n";
        let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow)]);
        assert!(
            d.start.starts_with(
                "# hanzo-env helpers v1: hanzo_docker hanzo_service hanzo_mysql\n\
                 # services: docker run, else the distribution's packages\n"
            ),
            "{}",
            d.start
        );
        assert!(
            d.start.ends_with(&format!(
                "if hanzo_docker run; then\n  docker run -d --name db -p 33306:3306 -e MYSQL_USER=app -e MYSQL_PASSWORD='p@ss w'\\''rd' -e MYSQL_DATABASE=app_test -e MYSQL_ROOT_PASSWORD=\"$ROOT\" mysql:8.0\nelse\n  {}  # .github/workflows/ci.yml#jobs.t.services.db\nfi",
                r"hanzo_service mysql 33306 app_test app 'p@ss w'\''rd' ''"
            )),
            "{}",
            d.start
        );
        assert!(d.install.contains("\nhanzo_service_packages run mariadb-server  # "), "{}", d.install);
        assert!(
            d.note.contains("services: mysql (docker run, else the Debian/Ubuntu package mariadb-server)"),
            "{}",
            d.note
        );
    }

    #[test]
    fn services_no_distribution_packages_stay_with_docker() {
        let workflow = "jobs:\n  t:\n    services:\n      kafka:\n        image: apache/kafka\n    steps:\n      - run: go test ./...\n";
        let d = crate::detect::testing::detection(&[(".github/workflows/ci.yml", workflow)]);
        assert_eq!(d.start, "docker run -d --name kafka apache/kafka");
        assert_eq!(d.install, "");
        let d = crate::detect::testing::detection(&[("compose.yaml", "services:\n  m:\n    image: mongo:7\n")]);
        assert_eq!(
            d.start,
            "# hanzo-env helpers v1: hanzo_compose\n# services: docker compose, else docker-compose\nhanzo_compose up -d m"
        );
        assert_eq!(d.install, "");
        assert!(d.note.contains("services: mongodb (Docker only: no distribution package)"), "{}", d.note);
    }

    #[test]
    fn tests_rank_ci_then_scripts_then_defaults() {
        let mut f = Findings::default();
        f.test("cargo test", ev("Cargo.toml"));
        f.test("make test", ev("Makefile:4"));
        f.test("cargo test --workspace", ev(".github/workflows/ci.yml#jobs.test"));
        f.test("pnpm test", ev("package.json#scripts.test"));
        let d = merge(&repo(), f);
        let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(commands, ["cargo test --workspace", "make test", "pnpm test", "cargo test"]);
    }

    #[test]
    fn the_primary_is_ci_plain_test_job_before_its_variants() {
        let mut f = Findings::default();
        f.package_manager("hatch", None, ".", ev("pyproject.toml"));
        f.test("make test", ev("Makefile:7"));
        f.test("VALKEY_PORT=6379 hatch run test:cov", ev(".github/workflows/valkey.yml#jobs.valkey-test.steps[3]"));
        f.test("hatch run test:cov", ev(".github/workflows/workflow.yml#jobs.test.steps[4]"));
        f.test("pytest -m windows", ev(".github/workflows/workflow.yml#jobs.test-windows.steps[2]"));
        let d = merge(&repo(), f);
        let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(
            commands,
            ["hatch run test:cov", "VALKEY_PORT=6379 hatch run test:cov", "pytest -m windows", "make test"],
            "the plain job comes first, the others keep their order"
        );
        // A command CI runs in a variant job and in the plain one keeps the plain one's source.
        let mut f = Findings::default();
        f.test("pytest -n auto", ev(".github/workflows/deploy.yml#jobs.deploy.steps[3]"));
        f.test("pytest -n auto", ev(".github/workflows/test.yml#jobs.test.steps[4]"));
        let d = merge(&repo(), f);
        let tests: Vec<(&str, &str)> = d.tests.iter().map(|t| (t.command.as_str(), t.source.as_test_str())).collect();
        assert_eq!(tests, [("pytest -n auto", ".github/workflows/test.yml#jobs.test.steps[4]")]);
        assert!(d.tests[0].primary);
        // Not CI: a task named `test` does not jump its rank.
        assert!(!in_plain_test_job(&ev("Taskfile.yml#test")));
        assert!(in_plain_test_job(&ev(".gitlab-ci.yml#unit-tests.script")));
    }

    #[test]
    fn an_app_s_tests_come_before_its_front_end_s() {
        let mut f = Findings::default();
        f.package_manager("yarn", None, ".", ev("yarn.lock"));
        f.package_manager("bundler", None, ".", ev("Gemfile.lock"));
        f.test("yarn test:js", ev(".github/workflows/test-js.yml#jobs.test.steps[2]"));
        f.test("RAILS_ENV=test bin/rspec", ev(".github/workflows/test-ruby.yml#jobs.test.steps[6]"));
        let d = merge(&repo(), f);
        let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(commands, ["RAILS_ENV=test bin/rspec", "yarn test:js"]);
        // A Node project with a Makefile is still a Node project.
        let mut f = Findings::default();
        f.package_manager("npm", None, ".", ev("package-lock.json"));
        f.package_manager("make", None, ".", ev("Makefile"));
        f.test("npm test", ev(".github/workflows/ci.yml#jobs.test.steps[2]"));
        f.test("make check", ev(".github/workflows/ci.yml#jobs.test.steps[3]"));
        let d = merge(&repo(), f);
        assert_eq!(d.tests[0].command, "npm test");
    }

    #[test]
    fn of_one_command_in_several_jobs_the_run_that_sets_least_comes_first() {
        let mut f = Findings::default();
        f.test(
            "DB_CONNECTION=mysql DB_HOST=127.0.0.1 composer test",
            ev(".github/workflows/mariadb.yml#jobs.test.steps[4]"),
        );
        f.test("DB_CONNECTION=pgsql DB_PORT=5432 composer test", ev(".github/workflows/pgsql.yml#jobs.test.steps[4]"));
        f.test("pnpm test", ev(".github/workflows/frontend.yml#jobs.test.steps[3]"));
        f.test("COMPOSER_PROCESS_TIMEOUT=600 composer test", ev(".github/workflows/sqlite.yml#jobs.test.steps[4]"));
        f.test("composer test", ev("composer.json#scripts.test"));
        let d = merge(&repo(), f);
        let commands: Vec<&str> = d.tests.iter().map(|t| t.command.as_str()).collect();
        assert_eq!(
            commands,
            [
                "COMPOSER_PROCESS_TIMEOUT=600 composer test",
                "DB_CONNECTION=mysql DB_HOST=127.0.0.1 composer test",
                "DB_CONNECTION=pgsql DB_PORT=5432 composer test",
                "pnpm test",
                "composer test",
            ],
            "CI's variants of one command by what they set; another rank's stays in its place"
        );
    }

    #[test]
    fn the_primary_test_is_the_suite_a_developer_runs() {
        let mut f = Findings::default();
        f.package_manager("uv", None, ".", ev("uv.lock"));
        for (command, source) in [
            ("uv run --only-group tox tox run -e docset", ".github/workflows/docs.yml#jobs.docset"),
            ("uv run tox run --installpkg dist/*.whl -e -tests", ".github/workflows/ci.yml#jobs.tests"),
            ("uv run tox run -e pypy311", ".github/workflows/ci.yml#jobs.tests"),
            ("uvx --with tox-uv tox -e py", ".github/workflows/ci.yml#jobs.tests"),
            ("pnpm run test-e2e", "package.json#scripts.test-e2e"),
            ("tox", "tox.ini"),
            ("uv run pytest", "pyproject.toml#tool.pytest"),
        ] {
            f.test(command, ev(source));
        }
        let d = merge(&repo(), f);
        let commands: Vec<(&str, bool)> = d.tests.iter().map(|t| (t.command.as_str(), t.primary)).collect();
        // Install filled the interpreter: `uv run pytest` runs there as `python3 -m pytest`.
        assert_eq!(commands[0], ("python3 -m pytest", true), "{commands:?}");
        assert!(commands[1..].iter().all(|(_, primary)| !primary));
        assert_eq!(
            commands[1].0, "python3 -m tox run --installpkg dist/*.whl -e -tests",
            "CI's plain `tests` job first"
        );
        assert_eq!(commands[4].0, "uv run --only-group tox tox run -e docset", "then the others in their order");
        let reasons = |command: &str, runs: &[&str]| {
            let test = TestCommand {
                command: command.to_string(),
                runs: runs.iter().map(|r| r.to_string()).collect(),
                ..Default::default()
            };
            reasons_not_primary(&test, &d.package_managers)
        };
        assert_eq!(reasons("uv run tox run -e py", &[]), 0);
        assert_eq!(reasons("tox run", &[]), 1);
        assert_eq!(reasons("cargo test --workspace", &[]), 0);
        // Coverage alone is other work; the suite with coverage is the suite.
        assert_eq!(reasons("make coverage", &[]), 1);
        assert_eq!(reasons("RUN_SLOW=1 hatch run test:cov --durations=5", &[]), 1, "hatch is not installed here");
        assert_eq!(reasons("npm run test:coverage", &[]), 0);
        assert_eq!(reasons("coverage run runtests.py", &[]), 0, "the suite, with coverage");
        assert_eq!(reasons("python -m coverage run tests/run_tests.py", &[]), 0);
        assert_eq!(reasons("coverage run -m mypy.stubtest", &[]), 1, "coverage alone");
        // A target whose recipe runs in a container or through a tool the project lacks.
        assert_eq!(reasons("make test", &["docker build -t t .", "docker run t pytest"]), 1, "in a container");
        assert_eq!(reasons("make test", &["uv pip install -e .", "pytest tests/"]), 0, "uv is installed here");
        assert_eq!(reasons("make test", &["poetry install", "pytest tests/"]), 1);
        assert_eq!(reasons("make requirements check", &["pip install -e .", "ruff check ."]), 1, "no tests");
        assert_eq!(reasons("make test", &["@python -m unittest -v"]), 0);
        // A subset: smoke or integration runs beside the suite; a script named for its part.
        assert_eq!(reasons("yarn test:smoke", &[]), 1);
        assert_eq!(reasons("./scripts/test-integration.sh", &["python -m pytest -m integration"]), 1);
        assert_eq!(reasons("./scripts/test-postgres.sh", &["python -m pytest"]), 0);
        assert_eq!(reasons("cargo test --target i686-unknown-linux-gnu", &[]), 1, "a cross build");
        // What the run sets, and what it leaves out, name nothing it does.
        assert_eq!(reasons("CHECK_NUMBER_FORMAT=1 python3 runtests.py", &[]), 0);
        assert_eq!(reasons("python3 -m pytest -m \"not e2e\" -n logical", &[]), 0);
        assert_eq!(reasons("python3 -m pytest -m \"e2e\"", &[]), 1);
        assert_eq!(reasons("make test FORMAT=1 && make format", &[]), 1);
    }

    #[test]
    fn the_primarys_ci_job_places_its_files_by_install_and_builds_before_its_test() {
        let placed = |command: &str, source: &str| Step::shell(Phase::Build, command, ev(source));
        let mut f = Findings::default();
        f.ci_test(TestCommand {
            command: "pnpm run test:ci".into(),
            source: ev(".github/workflows/tests.yml#jobs.sqlite.steps[3]"),
            built_first: vec!["pnpm run compile".into()],
            placed_first: vec![placed("[ -e orm.json ] || cp orm.sqlite.json orm.json", "ci.yml#jobs.sqlite.steps[2]")],
            ..TestCommand::default()
        });
        f.ci_test(TestCommand {
            command: "pnpm run test:e2e".into(),
            source: ev(".github/workflows/tests.yml#jobs.e2e.steps[3]"),
            placed_first: vec![placed("[ -e orm.json ] || cp orm.pg.json orm.json", "ci.yml#jobs.e2e.steps[2]")],
            ..TestCommand::default()
        });
        let d = merge(&repo(), f);
        assert_eq!(d.tests[0].command, "pnpm run compile && pnpm run test:ci");
        let steps: Vec<(String, String)> = d.steps.iter().map(|s| (s.command(), s.evidence_text())).collect();
        assert_eq!(
            steps,
            [("[ -e orm.json ] || cp orm.sqlite.json orm.json".to_string(), "ci.yml#jobs.sqlite.steps[2]".to_string())]
        );
        assert!(d.install.contains("cp orm.sqlite.json orm.json"), "{}", d.install);
        assert!(!d.install.contains("orm.pg.json"), "{}", d.install);
    }

    #[test]
    fn a_workflow_that_tests_a_variant_comes_after_those_that_test_every_change() {
        let mut f = Findings::default();
        f.ci_test(TestCommand {
            command: "python3 -m pytest -n 0 --reuse-db".into(),
            source: ev(".github/workflows/migrations.yml#jobs.build.steps[7]"),
            partial: true,
            ..TestCommand::default()
        });
        f.ci_test(TestCommand {
            command: "python3 -m pytest -n logical".into(),
            source: ev(".github/workflows/tests.yml#jobs.unit-tests.steps[4]"),
            ..TestCommand::default()
        });
        let d = merge(&repo(), f);
        assert_eq!(d.tests[0].command, "python3 -m pytest -n logical");
        assert!(d.tests[0].primary);
    }

    #[test]
    fn pinned_toolchains_win_and_duplicates_fold() {
        let mut f = Findings::default();
        f.toolchain("node", None, ev("package.json"));
        f.toolchain("node", Some("20".into()), ev(".nvmrc"));
        f.toolchain("node", Some("20".into()), ev(".tool-versions"));
        f.toolchain("python", None, ev("pyproject.toml"));
        f.package_manager("pnpm", None, ".", ev("pnpm-lock.yaml"));
        f.package_manager("pnpm", Some("9.1.0".into()), ".", ev("package.json#packageManager"));
        f.service("postgres", None, ev("ci.yml"));
        f.service("postgres", Some("postgres:16".into()), ev("compose.yaml"));
        let d = merge(&repo(), f);
        let tc: Vec<(&str, Option<&str>)> =
            d.toolchains.iter().map(|t| (t.name.as_str(), t.version.as_deref())).collect();
        assert_eq!(tc, [("node", Some("20")), ("python", None)]);
        assert_eq!(d.package_managers.len(), 1);
        assert_eq!(d.package_managers[0].version.as_deref(), Some("9.1.0"));
        assert_eq!(d.services[0].image.as_deref(), Some("postgres:16"));
        assert!(d.note.starts_with("Node 20 (.nvmrc), Python (pyproject.toml); pnpm 9.1.0"), "{}", d.note);
    }

    #[test]
    fn an_install_over_the_server_limit_is_a_warning() {
        let mut f = Findings::default();
        for i in 0..2000 {
            f.step(
                Phase::Install,
                format!("(cd services/s{i} && go mod download)"),
                ev(&format!("services/s{i}/go.mod")),
            );
        }
        let d = merge(&repo(), f);
        assert!(d.install.len() > crate::names::MAX_SCRIPT_BYTES);
        assert!(d.warnings.iter().any(|w| w.starts_with("install is ") && w.contains("16384")), "{:?}", d.warnings);
    }

    #[test]
    fn nothing_found_is_an_empty_install() {
        let d = merge(&repo(), Findings::default());
        assert_eq!(d.install, "");
        assert_eq!(d.start, "");
        assert_eq!(d.repo, "site");
    }
}
