//! The background start: start candidates folded so each product starts once, and the
//! services they bring up, with Docker or from distribution packages.

use super::*;
use crate::warning::Warning;

pub(super) fn merge_starts(mut starts: Vec<Start>) -> Vec<Start> {
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
pub(super) fn add_compose_start(kept: &mut Vec<Start>, start: Start, new: ComposeStart) {
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
/// ([`packaged_services`]), once per product (per port for products that run several servers), and
/// installed in one step. Starts that say nothing of their services are joined as they are.
pub(super) struct ServicesStart {
    pub(super) script: String,
    pub(super) step: Option<Step>,
    /// How Docker brings the services up, for the note.
    docker: Option<DockerUp>,
    pub(super) native: Vec<NativeStart>,
    /// Products started only by Docker.
    docker_only: Vec<String>,
    pub(super) warnings: Vec<Warning>,
}

/// `start` followed by the commands that prepare its services, each allowed to fail (a second
/// start finds the role already made) with a warning.
pub(super) fn with_seeds(start: &str, seeds: &[(String, Evidence)]) -> String {
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
pub(super) fn definition(service: &Service) -> Definition<'_> {
    Definition {
        product: &service.name,
        image: service.image.as_deref(),
        ports: &service.ports,
        env: &service.env,
        source: &service.source,
    }
}

impl ServicesStart {
    pub(super) fn of(starts: &[Start], defined: &[Service]) -> ServicesStart {
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
            let Some(product) = packaged_services::native(&service.name) else {
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
                Some(most) if ports >= most => plan.warnings.push(Warning::at(
                    &start.source,
                    format!(
                        "without Docker, one {} server answers {most} port{} at most: port {} needs Docker",
                        product.package,
                        if most == 1 { "" } else { "s" },
                        start.port
                    ),
                )),
                _ => plan.native.push(start),
            }
        }
        // CI's own definition of a server started here (its test command carries CI's user
        // and database): its account is added to the same server.
        for service in defined.iter().filter(|s| s.source.kind == Kind::Ci) {
            let Some(product) = packaged_services::native(&service.name).filter(|p| p.accounts) else { continue };
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

    /// The script as it runs on its own: the packages its services need where Docker cannot
    /// run them (what install adds for `start`), then the start and its preparation.
    pub(super) fn script_with_packages(&self, seeds: &[(String, Evidence)]) -> String {
        let start = with_seeds(&self.script, seeds);
        match &self.step {
            Some(step) if !start.is_empty() => format!("{}\n{start}", install_script(std::slice::from_ref(step))),
            _ => start,
        }
    }

    /// `services` with the package each is started from without Docker.
    pub(super) fn mark(&self, mut services: Vec<Service>) -> Vec<Service> {
        for service in &mut services {
            service.package =
                self.native.iter().find(|n| n.service == service.name).map(|n| n.product.package.to_string());
        }
        services
    }

    /// The services of the note, each with the way `start` brings it up.
    pub(super) fn note(&self, services: &[Service]) -> String {
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
