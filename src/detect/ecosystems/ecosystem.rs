//! What an ecosystem declares and does. Every fact about a language, its build tools and its
//! package managers lives in that ecosystem's file behind this trait: the toolchains and
//! package managers it owns, its manifests, the names other tools use for its toolchains
//! (setup actions, images, dev container features, Nix packages, version-manager tools),
//! the shell commands that run its tests or install its packages, how its code reads the
//! environment, and `detect`, which reads its manifests and reports findings.

use crate::detect::findings::Findings;
use crate::detect::sources::Sources;

/// A toolchain an ecosystem owns: its id in findings (`node`) and its name in prose (`Node`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Toolchain {
    pub id: &'static str,
    pub display: &'static str,
    /// How many dotted parts a version needs to pin anything (`2` for Python: every Python is
    /// 3, so `3` or `3.x` pins nothing).
    pub pin_parts: usize,
}

impl Toolchain {
    pub const fn new(id: &'static str, display: &'static str) -> Toolchain {
        Toolchain { id, display, pin_parts: 1 }
    }

    /// A version pins this toolchain only with at least `parts` dotted parts.
    pub const fn pinned_with(self, parts: usize) -> Toolchain {
        Toolchain { pin_parts: parts, ..self }
    }
}

/// A name another tool uses for one of an ecosystem's toolchains or package managers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alias {
    pub kind: AliasKind,
    /// The name as that tool spells it (lower case): an action (`actions/setup-node`), an
    /// image repository (`node`, `eclipse-temurin`), a feature (`node`), a Nix attribute
    /// name without its version (`nodejs`), a version-manager tool (`nodejs`).
    pub name: &'static str,
    /// The toolchain (or, for [`AliasKind::PackageManagerTool`], the package manager) it names.
    pub target: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AliasKind {
    /// A CI setup action: the inputs that hold a version, the inputs that name a version file,
    /// and whether the action's `@reference` is the version (`dtolnay/rust-toolchain@1.70`).
    SetupAction { version_inputs: &'static [&'static str], file_inputs: &'static [&'static str], reference: bool },
    /// A container image whose tag is the toolchain's version (`python:3.12-slim`).
    Image,
    /// One of Microsoft's `mcr.microsoft.com/devcontainers/<name>` images.
    DevcontainerImage,
    /// A dev container feature (`ghcr.io/devcontainers/features/<name>`).
    Feature,
    /// A Nix attribute; `compact` when its version digits run together (`python312` → 3.12).
    Nix { compact: bool },
    /// An asdf/mise tool that installs the toolchain.
    Tool,
    /// An asdf/mise tool that installs one of the ecosystem's package managers.
    PackageManagerTool,
}

impl Alias {
    pub const fn action(name: &'static str, target: &'static str, version_inputs: &'static [&'static str]) -> Alias {
        Alias { kind: AliasKind::SetupAction { version_inputs, file_inputs: &[], reference: false }, name, target }
    }
    /// A setup action that also reads a version file from the inputs `file_inputs`.
    pub const fn action_with_files(
        name: &'static str,
        target: &'static str,
        version_inputs: &'static [&'static str],
        file_inputs: &'static [&'static str],
    ) -> Alias {
        Alias { kind: AliasKind::SetupAction { version_inputs, file_inputs, reference: false }, name, target }
    }
    /// A setup action whose `@reference` names the version when no input does.
    pub const fn action_with_reference(
        name: &'static str,
        target: &'static str,
        version_inputs: &'static [&'static str],
    ) -> Alias {
        Alias { kind: AliasKind::SetupAction { version_inputs, file_inputs: &[], reference: true }, name, target }
    }
    pub const fn image(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::Image, name, target }
    }
    pub const fn devcontainer_image(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::DevcontainerImage, name, target }
    }
    pub const fn feature(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::Feature, name, target }
    }
    pub const fn nix(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::Nix { compact: false }, name, target }
    }
    pub const fn nix_compact(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::Nix { compact: true }, name, target }
    }
    pub const fn tool(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::Tool, name, target }
    }
    pub const fn package_manager_tool(name: &'static str, target: &'static str) -> Alias {
        Alias { kind: AliasKind::PackageManagerTool, name, target }
    }
}

/// One language ecosystem. Everything but `id` and `detect` has an empty default, so an
/// ecosystem declares only what it has.
pub trait Ecosystem: Sync {
    /// A short unique id (`node`, `python`), also the name in `-vv` timings.
    fn id(&self) -> &'static str;

    /// The toolchains it owns (the first is its main one).
    fn toolchains(&self) -> &'static [Toolchain];

    /// The package managers it owns, by their finding names (`npm`, `pnpm`).
    fn package_managers(&self) -> &'static [&'static str] {
        &[]
    }

    /// File names whose presence anywhere makes a toolchain of this ecosystem the project's
    /// own, rather than a tool of a dev shell or dev container (`package.json`).
    fn manifests(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the repo has a manifest of this ecosystem (default: any of [`Self::manifests`]).
    fn has_manifest(&self, sources: &Sources) -> bool {
        self.manifests().iter().any(|name| !sources.repo().named(name).is_empty())
    }

    /// Names other tools use for its toolchains and package managers.
    fn aliases(&self) -> &'static [Alias] {
        const ALIASES: &[Alias] = &[];
        ALIASES
    }

    /// Regular-expression alternatives, each matching a shell command that runs its tests
    /// (`cargo\s+test\b`). Matched at the start of a command of a line.
    fn test_commands(&self) -> &'static [&'static str] {
        &[]
    }

    /// Alternatives matching a command that installs its packages (`pnpm\s+(?:add|install)`):
    /// such a command runs no tests even when it names a test tool.
    fn install_commands(&self) -> &'static [&'static str] {
        &[]
    }

    /// Extensions (without the dot) of its source files, scanned for environment reads.
    fn source_extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether `rel` is a configuration file of this ecosystem that reads the environment
    /// (`config/database.yml` with ERB for Rails, `application.yml` for Spring).
    fn is_settings_file(&self, _rel: &str) -> bool {
        false
    }

    /// The environment variables `text` (the file `rel`, one of its sources or settings
    /// files) reads, with the byte offset of each name.
    fn env_reads(&self, _rel: &str, _text: &str) -> Vec<(String, usize)> {
        Vec::new()
    }

    /// Read the repo's manifests and report what they say.
    fn detect(&self, sources: &Sources, out: &mut Findings);
}
