//! What detection reads, parsed once per run and shared by the ecosystems and the signals:
//! CI workflows as jobs, compose files, dev containers, task files, version-manager pins,
//! dev shells, env files and deploy configurations' secrets — plus the one shell reader, the one version reader, image
//! names and XML. Nothing here names an ecosystem or reports a finding.
//!
//! Each model is built on first use (by whichever thread asks first; the others wait for it),
//! so a run that needs no CI model never reads a workflow.

pub mod agent_files;
pub mod compose;
pub mod devcontainer;
pub mod devshells;
pub mod env_files;
pub mod images;
pub mod kamal;
pub mod packaged_services;
pub mod pins;
pub mod shell;
pub mod tasks;
pub mod version;
pub mod workflows;
pub mod xml;

use std::sync::OnceLock;

use crate::detect::repo::Repo;

/// The parsed sources of one checkout.
pub struct Sources<'r> {
    repo: &'r Repo,
    workflows: OnceLock<workflows::Workflows>,
    compose: OnceLock<compose::ProjectCompose>,
    devcontainers: OnceLock<Vec<devcontainer::Devcontainer>>,
    tasks: OnceLock<Vec<tasks::TaskFile>>,
    pins: OnceLock<Vec<pins::ToolPin>>,
    devshells: OnceLock<Vec<devshells::DevShell>>,
    env_files: OnceLock<Vec<env_files::EnvFile>>,
    agent_commands: OnceLock<Vec<agent_files::AgentCommand>>,
    container_secrets: OnceLock<Vec<kamal::ContainerSecret>>,
    command_actions: workflows::CommandActions,
}

impl<'r> Sources<'r> {
    /// The sources of `repo`; `command_actions` are the ecosystems' actions that run one
    /// command of a tool (see [`workflows::CommandActions`]).
    pub fn new(repo: &'r Repo, command_actions: workflows::CommandActions) -> Sources<'r> {
        Sources {
            repo,
            command_actions,
            workflows: OnceLock::new(),
            compose: OnceLock::new(),
            devcontainers: OnceLock::new(),
            tasks: OnceLock::new(),
            pins: OnceLock::new(),
            devshells: OnceLock::new(),
            env_files: OnceLock::new(),
            agent_commands: OnceLock::new(),
            container_secrets: OnceLock::new(),
        }
    }

    pub fn repo(&self) -> &'r Repo {
        self.repo
    }

    /// Every CI job (GitHub Actions, GitLab CI, CircleCI).
    pub fn workflows(&self) -> &workflows::Workflows {
        self.workflows.get_or_init(|| workflows::Workflows::read_with(self.repo, self.command_actions))
    }

    /// The project's own compose files (not the dev container's, not samples'), by purpose.
    pub fn compose(&self) -> &compose::ProjectCompose {
        self.compose.get_or_init(|| compose::ProjectCompose::read(self.repo))
    }

    pub fn devcontainers(&self) -> &[devcontainer::Devcontainer] {
        self.devcontainers.get_or_init(|| devcontainer::read_all(self.repo))
    }

    pub fn tasks(&self) -> &[tasks::TaskFile] {
        self.tasks.get_or_init(|| tasks::read_all(self.repo))
    }

    pub fn pins(&self) -> &[pins::ToolPin] {
        self.pins.get_or_init(|| pins::read_all(self.repo))
    }

    pub fn devshells(&self) -> &[devshells::DevShell] {
        self.devshells.get_or_init(|| devshells::read_all(self.repo))
    }

    pub fn env_files(&self) -> &[env_files::EnvFile] {
        self.env_files.get_or_init(|| env_files::read_all(self.repo))
    }

    /// The secrets a deploy configuration gives the app's container (Kamal's `env.secret`).
    pub fn container_secrets(&self) -> &[kamal::ContainerSecret] {
        self.container_secrets.get_or_init(|| kamal::read_all(self.repo))
    }

    /// The commands of hand-written Cursor and AGENTS.md setups.
    pub fn agent_commands(&self) -> &[agent_files::AgentCommand] {
        self.agent_commands.get_or_init(|| agent_files::read_all(self.repo))
    }
}
