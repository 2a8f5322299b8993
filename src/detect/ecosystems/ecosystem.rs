//! What an ecosystem declares and does. Every fact about a language, its build tools and its
//! package managers lives in that ecosystem's file: its [`Declaration`] (a row of the
//! registry's table: the toolchains and package managers it owns, its manifests, the names
//! other tools use for its toolchains — setup actions, images, dev container features, Nix
//! packages, version-manager tools — and the shell commands that run its tests or install its
//! packages) and its [`Ecosystem`] behaviour: how its code reads the environment, and
//! `detect`, which reads its manifests and reports findings.

use crate::detect::findings::Findings;
pub use crate::detect::findings::Need;
use crate::detect::sources::Sources;
use crate::rel_path::RelPath;

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

/// How a file written for another tool sets up one of the ecosystem's toolchains or package
/// managers: a GitHub Actions step (`hanzo-env export --to copilot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetupStep {
    /// The toolchain or package manager it sets up.
    pub target: &'static str,
    /// The action and its major (the newest the pinned actionlint knows the inputs of).
    pub uses: &'static str,
    /// The input its version goes in.
    pub version_input: &'static str,
    /// Inputs it always needs.
    pub fixed: &'static [(&'static str, &'static str)],
    /// An input of the same action it cannot run without (setup-beam needs `otp-version`).
    pub requires: Option<&'static str>,
    /// Set up even without a pinned version: the tool is not on the runner image and the
    /// action's default version is a sensible one.
    pub when_unpinned: bool,
    /// The action reads the version from the manifest's `packageManager` itself and fails when
    /// told one too; without any pin it cannot run (pnpm/action-setup).
    pub reads_package_manager_field: bool,
}

impl SetupStep {
    pub const fn new(target: &'static str, uses: &'static str, version_input: &'static str) -> SetupStep {
        SetupStep {
            target,
            uses,
            version_input,
            fixed: &[],
            requires: None,
            when_unpinned: false,
            reads_package_manager_field: false,
        }
    }
    pub const fn fixed(self, fixed: &'static [(&'static str, &'static str)]) -> SetupStep {
        SetupStep { fixed, ..self }
    }
    pub const fn requires(self, input: &'static str) -> SetupStep {
        SetupStep { requires: Some(input), ..self }
    }
    pub const fn when_unpinned(self) -> SetupStep {
        SetupStep { when_unpinned: true, ..self }
    }
    pub const fn reads_package_manager_field(self) -> SetupStep {
        SetupStep { reads_package_manager_field: true, ..self }
    }
}

/// What an ecosystem declares: the constants of its row in the registry
/// ([`super::ALL`]), read as a table. Every field but `id`, `toolchains` and `behaviour` is
/// empty unless the ecosystem has something to declare.
pub struct Declaration {
    /// A short unique id (`node`, `python`), also the name in `-vv` timings.
    pub id: &'static str,
    /// The toolchains it owns (the first is its main one).
    pub toolchains: &'static [Toolchain],
    /// The package managers it owns, by their finding names (`npm`, `pnpm`).
    pub package_managers: &'static [&'static str],
    /// The programs of its toolchain that its install steps and tests start with
    /// (`composer`, `mix`, `dotnet`): a step that starts with one needs the toolchain.
    pub programs: &'static [&'static str],
    /// File names whose presence anywhere makes a toolchain of this ecosystem the project's
    /// own, rather than a tool of a dev shell or dev container (`package.json`).
    pub manifests: &'static [&'static str],
    /// Names other tools use for its toolchains and package managers.
    pub aliases: &'static [Alias],
    /// The official Actions steps that set its toolchains and package managers up.
    pub setup_steps: &'static [SetupStep],
    /// Toolchain → the official dev-container feature that installs it (its `version`
    /// option takes the pin).
    pub devcontainer_features: &'static [(&'static str, &'static str)],
    /// Regular-expression alternatives, each matching a shell command that runs its tests
    /// (`cargo[[:space:]]+test(?-u:\b)`: classes in ASCII, see `ascii_patterns`). Matched at
    /// the start of a command of a line.
    pub test_commands: &'static [&'static str],
    /// The test runners it owns, by the name their command and jobs go by (`pytest`, `jest`).
    pub test_runners: &'static [&'static str],
    /// Words a job or script is named by when it runs the whole suite (`pytest`), beside the
    /// plain `test`.
    pub suite_words: &'static [&'static str],
    /// Options of its test commands that run a part of the suite: one test target, one member
    /// of a workspace (`cargo test --test attr_macro`, `--manifest-path=ll/Cargo.toml`).
    pub part_options: &'static [&'static str],
    /// Options of the runner its test commands hand arguments to after `--` that take a value
    /// (`--test-threads 1`): any other word there is a test-name filter, which runs a part
    /// (`cargo test -- whitebox_`). Empty when the runner takes no filters so.
    pub filter_runner_options: &'static [&'static str],
    /// The programs whose install line says the project uses one of its package managers or
    /// toolchains (`pnpm`, `./gradlew`): drift's tool of an install step.
    pub install_programs: &'static [&'static str],
    /// Package managers that run a command in an environment they make (`uv run pytest`): a
    /// test through one the project does not use runs somewhere else than the install.
    pub environment_runners: &'static [&'static str],
    /// Other runtimes the ecosystem's code may run on, each tested by a job that sets it up
    /// (`npm run test:bun`): such a run is not the project's suite where it installs otherwise.
    pub other_runtimes: &'static [&'static str],
    /// GitHub Actions that run one command of its tools, built from their inputs: the action
    /// (`owner/name`, lower case), the program, and the inputs that follow the program in order
    /// (`actions-rs/cargo` with `command: test`, `args: --all-features` runs `cargo test --all-features`).
    pub command_actions: &'static [(&'static str, &'static str, &'static [&'static str])],
    /// The script, inside an environment's folder, that a shell sources to activate it
    /// (`bin/activate` of a virtualenv).
    pub activate_script: Option<&'static str>,
    /// Package managers whose install makes that environment in the project, and its folder
    /// (`uv`: `.venv`): a recipe that activates any other (`. venv/bin/activate`) needs the
    /// step of its own that made it, which the install does not run.
    pub project_environments: &'static [(&'static str, &'static str)],
    /// Package managers that run a manifest's script by its name (`pnpm build`, `npm run
    /// build`).
    pub script_runners: &'static [&'static str],
    /// Program and subcommand that publish a release (`cargo publish`): not a test to rerun.
    pub publish_commands: &'static [(&'static str, &'static str)],
    /// Manifests that carry a toolchain version among their other keys (`package.json`'s
    /// `engines`), read by the ecosystem itself, never as a version file.
    pub versioned_manifests: &'static [&'static str],
    /// Test runners that run the suite once per interpreter or environment they configure
    /// (`tox`, `nox`): in a sandbox with one interpreter they fail on the others, unless the
    /// command selects one of [`Self::current_environment`].
    pub fan_out_test_runners: &'static [&'static str],
    /// The environment names a fan-out runner uses for "the interpreter on PATH" (`py`).
    pub current_environment: &'static [&'static str],
    /// Alternatives matching a command that installs its packages (`pnpm[[:space:]]+(?:add|install)`):
    /// such a command runs no tests even when it names a test tool.
    pub install_commands: &'static [&'static str],
    /// Patterns of a whole plain build of the project in its tool's default profile (`cargo
    /// build --verbose`): what a CI test job runs before its tests because they read its
    /// output.
    pub build_commands: &'static [&'static str],
    /// Extensions (without the dot) of its source files, scanned for environment reads.
    pub source_extensions: &'static [&'static str],
    /// First words of the names of its test runners' configuration and test-setup files
    /// (`jest.setup.js`, `conftest.py`), in any letter case: code there is the tests', so its
    /// environment reads are no secrets the app needs.
    pub test_file_words: &'static [&'static str],
    /// Folders its tools fill with dependencies, caches and build output (`node_modules`,
    /// `.tox`): the walk never descends into them, wherever they are.
    pub skipped_dirs: &'static [&'static str],
    /// Folders its builds fill, named as others name their code (`bin`): the walk skips one
    /// only beside a project file of the extensions given.
    pub build_output: &'static [crate::detect::repo::BuildOutput],
    /// The release channels a setup action may name instead of a version, and how a command
    /// runs on one (see [`Channels`]).
    pub channels: Option<Channels>,
    /// What it does: reads manifests, source files and commands.
    pub behaviour: &'static dyn Ecosystem,
}

/// A toolchain's release channels (Rust's `nightly`, `beta`): a CI job whose setup action names
/// one (`dtolnay/rust-toolchain@nightly`) runs its tests on it, where a feature of that
/// channel (`#![feature]`) may be on; the default toolchain cannot build them.
pub struct Channels {
    /// The channels' names; a dated one (`nightly-2025-01-01`) counts as its channel.
    pub names: &'static [&'static str],
    /// The program that takes a channel and the word that names one: `cargo` and `+`
    /// (`cargo +nightly test`).
    pub program: &'static str,
    pub prefix: &'static str,
    /// The install line that gets a channel's toolchain, `{channel}` standing for its name.
    pub install: &'static str,
    /// Whether a matrix of releases alone (`[1.87.0, $MSRV]`, no `stable`) names the newest
    /// of them as the job's channel: such a CI pins its "stable" at a release so that a new
    /// toolchain's lints cannot break it, and the tests pass on that release.
    pub release_matrix: bool,
}

impl Declaration {
    /// A declaration of nothing but `behaviour`, to fill the fields an ecosystem leaves out.
    pub const fn new(behaviour: &'static dyn Ecosystem) -> Declaration {
        Declaration {
            id: "",
            toolchains: &[],
            package_managers: &[],
            programs: &[],
            manifests: &[],
            aliases: &[],
            setup_steps: &[],
            devcontainer_features: &[],
            test_commands: &[],
            test_runners: &[],
            suite_words: &[],
            part_options: &[],
            filter_runner_options: &[],
            install_programs: &[],
            environment_runners: &[],
            other_runtimes: &[],
            command_actions: &[],
            activate_script: None,
            project_environments: &[],
            script_runners: &[],
            publish_commands: &[],
            versioned_manifests: &[],
            fan_out_test_runners: &[],
            current_environment: &[],
            install_commands: &[],
            build_commands: &[],
            source_extensions: &[],
            test_file_words: &[],
            skipped_dirs: &[],
            build_output: &[],
            channels: None,
            behaviour,
        }
    }

    /// Whether the repo has a manifest of this ecosystem (see [`Ecosystem::has_manifest`]).
    pub fn has_manifest(&self, sources: &Sources) -> bool {
        self.behaviour.has_manifest(self, sources)
    }
}

/// What one language ecosystem does; what it declares is its [`Declaration`]. Everything but
/// `detect` has an empty default, so an ecosystem implements only what it does.
pub trait Ecosystem: Sync {
    /// Whether the repo has a manifest of this ecosystem (default: any of `declared.manifests`).
    fn has_manifest(&self, declared: &Declaration, sources: &Sources) -> bool {
        declared.manifests.iter().any(|name| !sources.repo().named(name).is_empty())
    }

    /// The lines a runner command runs when it runs one of this ecosystem's configured
    /// environments (`tox -e lint` runs its `commands`), so a smoke check or a linter run
    /// through the test runner is told from the suite; empty when it cannot tell.
    fn lines_run_by(&self, _sources: &Sources, _dir: &RelPath, _command: &str) -> Vec<String> {
        Vec::new()
    }

    /// What CI's runner sets that `command` (a CI test line run from `dir`) behaves by, for
    /// the sandbox to set too: a test runner that watches for changes unless `CI` is set.
    fn runner_env(&self, _sources: &Sources, _dir: &RelPath, _command: &str) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// `command` (a test command from CI or a task file) as it runs in the environment this
    /// ecosystem's install leaves on PATH, given the package managers found; `None` when it
    /// runs there as it is.
    fn in_installed_environment(&self, _command: &str, _package_managers: &[&str]) -> Option<String> {
        None
    }

    /// Whether the file `name` in folder `dir` is a configuration file of this ecosystem that
    /// reads the environment (`config/database.yml` with ERB for Rails, `application.yml`
    /// for Spring).
    fn is_settings_file(&self, _dir: &str, _name: &str) -> bool {
        false
    }

    /// The environment variables `text` (the file `rel`, one of its sources or settings
    /// files) reads: plain reads (`os.getenv("X")`) and the names settings schemas bind
    /// (a pydantic `BaseSettings` field, a clap `env = "X"`, a t3-env `server` entry), each
    /// with whether the code needs it. Reads in the file's own tests are left out.
    fn env_reads(&self, _rel: &RelPath, _text: &str) -> Vec<EnvRead> {
        Vec::new()
    }

    /// [`Ecosystem::env_reads`] where the project around the file changes what it reads: the
    /// build that loads a settings file says which library binds its keys to which names.
    fn env_reads_in(&self, _sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        self.env_reads(rel, text)
    }

    /// The prefix `text` makes its settings library put before every name it reads
    /// (`PrefixLookuper("APP_", …)`, `AddEnvironmentVariables("APP_")`): the project's, for the
    /// reads of other files that set none (see [`EnvRead::unprefixed`]).
    fn env_prefix(&self, _text: &str) -> Option<String> {
        None
    }

    /// The prefix under which `text`'s settings library loads every variable there is
    /// (koanf's `env.Provider("APP_", …)`, figment's `Env::prefixed("APP_")`, the config
    /// crate's `Environment::with_prefix("app")`): any variable so named configures the app,
    /// whichever file spells it.
    fn env_namespace(&self, _text: &str) -> Option<String> {
        None
    }

    /// The variables the project's own orchestration in `text` sets for the services it starts
    /// (an Aspire AppHost's `AddPostgres("pg").AddDatabase("catalogdb")` gives each project it
    /// references `ConnectionStrings__catalogdb`): supplied, not for a developer to set.
    fn env_supplied(&self, _text: &str) -> Vec<String> {
        Vec::new()
    }

    /// The structs `text` defines that a settings library may fill from the environment field
    /// by field, and the places it has the library fill one (kelseyhightower/envconfig's
    /// `envconfig.Process("app", &cfg)`). The struct is often in another file or package,
    /// and a field of another struct's type reads that struct's fields under a longer prefix:
    /// the secrets signal puts them together (see [`SettingsStruct`]).
    fn settings_structs(&self, _text: &str) -> SettingsTypes {
        SettingsTypes::default()
    }

    /// The functions `text` defines that read the variable their first parameter names (a
    /// config module's `def secret!(env), do: System.get_env(env)`): calls to them with a
    /// literal, in any file of the project, are reads (see [`EnvRead::helper`]).
    fn env_helpers(&self, _text: &str) -> Vec<EnvHelper> {
        Vec::new()
    }

    /// The string constants `text` defines whose values are variables' names (a Python
    /// module's `PLUS_ENV_VAR = "PLUS_API_KEY"`): reads through them in other files of the
    /// project are reads of the values (see [`EnvRead::by_constant`]).
    fn name_constants(&self, _text: &str) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Whether `text` reads the environment as a whole (Go's `os.Environ()`): then the names a
    /// configuration parser of the same package is keyed by (its [`EnvRead::derived`]
    /// reads) are reads, wherever else the project spells them.
    fn walks_environment(&self, _text: &str) -> bool {
        false
    }

    /// Read the repo's manifests and report what they say.
    fn detect(&self, sources: &Sources, out: &mut Findings);
}

/// A struct a settings library fills from the environment, one variable a field: `PREFIX_KEY`,
/// or, for a field whose type is another such struct, that struct's fields under
/// `PREFIX_KEY_` (an embedded one's under `PREFIX_`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsStruct {
    pub name: String,
    pub fields: Vec<SettingsField>,
    /// The string constants it declares, by name (a .NET options class's `const string
    /// Section = "Smtp"`, which the binding names it by): a [`SettingsRoot::prefix_constant`].
    pub constants: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsField {
    /// The field's part of the variable's name as envconfig names it (`SECRET`,
    /// `TLS_CERT_FILE`).
    pub key: String,
    /// The same as mapstructure (viper's `Unmarshal`) names it, as written (the variable is it
    /// upper-cased, but its words are judged as written: `PasswordEncryptionKey`): its
    /// `mapstructure:"x"` tag, else the field's name; empty for a squashed (embedded) field,
    /// `None` for one mapstructure leaves out.
    pub mapped_key: Option<String>,
    /// The name of the field's type, without package or pointer (`OAuthProviderConfiguration`).
    pub ty: String,
    /// Embedded: its struct's fields keep the prefix.
    pub embedded: bool,
    pub need: Need,
    /// The type is a setting's (a boolean, number, duration, list).
    pub setting: bool,
    /// The byte offset of the field in the file's text.
    pub at: usize,
}

/// What a file says of the structs a settings library fills (see
/// [`Ecosystem::settings_structs`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsTypes {
    pub structs: Vec<SettingsStruct>,
    pub roots: Vec<SettingsRoot>,
    /// Types that parse their own value (Go's `Decode`, `UnmarshalText`, `Set`): one
    /// variable, however many fields they hold.
    pub decoders: Vec<String>,
    /// The prefix this file's set-up of the library gives the structs other files have it
    /// fill (see [`SettingsRoot::unprefixed`]).
    pub root_prefix: Option<String>,
}

/// Where the project has a settings library fill a struct: the prefix (`APP`, joined with
/// `_`; empty for none) and the struct's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsRoot {
    pub prefix: String,
    pub ty: String,
    pub keys: FieldKeys,
    /// The prefix is the value of this string constant of this struct, wherever it is
    /// defined (`GetSection(SmtpOptions.Section)`), not [`Self::prefix`].
    pub prefix_constant: Option<(String, String)>,
    /// The module the file imports the struct from (Rust's `use app::config::core::Env`
    /// gives `core`, Go's `*globalconfig.All` `globalconfig`): of several structs of that
    /// name, the one its file or folder names.
    pub module: Option<String>,
    /// The library is set up in another file (cobra's `cmd/root.go` calls viper's
    /// `SetEnvPrefix` and `AutomaticEnv`, another file `viper.Unmarshal`): the struct is read
    /// under the prefix that file gives ([`SettingsTypes::root_prefix`]), and not at all
    /// without one.
    pub unprefixed: bool,
}

impl SettingsRoot {
    pub fn new(prefix: impl Into<String>, ty: impl Into<String>, keys: FieldKeys) -> SettingsRoot {
        SettingsRoot {
            prefix: prefix.into(),
            ty: ty.into(),
            keys,
            prefix_constant: None,
            module: None,
            unprefixed: false,
        }
    }
}

/// Which library fills a [`SettingsRoot`], so which of a field's keys it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKeys {
    /// kelseyhightower/envconfig ([`SettingsField::key`]).
    Envconfig,
    /// viper's `Unmarshal` through mapstructure ([`SettingsField::mapped_key`]); a nested
    /// struct's keys joined by `__` where the replacer swaps `.` for it (`double`), else `_`.
    Mapstructure { double: bool },
    /// .NET's options binding (`services.Configure<T>(config.GetSection("Smtp"))`): each
    /// property as `Smtp__Property`, sections joined by `__`; `validated` when the binding
    /// validates the class's DataAnnotations, so a `[Required]` property stops the app.
    Options { validated: bool },
    /// serde through envy: each field (or its `rename`) upper-cased, right after the prefix.
    Serde,
}

/// One environment variable a source or settings file reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvRead {
    pub name: String,
    /// The byte offset of the read (of the name, where the text spells it) in the text.
    pub at: usize,
    pub need: Need,
    /// How the code reads it, for the evidence (`os.environ[…]`, `BaseSettings field`).
    pub via: &'static str,
    /// A name derived from a settings key by a framework's binding rules (Spring's relaxed
    /// binding: `app.mail.password` binds `APP_MAIL_PASSWORD`), not spelled in the code: it
    /// counts only when an env file or compose file of the project names the variable too.
    pub derived: bool,
    /// The code itself declares the value a secret (a pydantic `SecretStr` field, an Aspire
    /// `AddParameter(…, secret: true)`, starlette's `cast=Secret`), whatever its name says.
    pub marked_secret: bool,
    /// The code types the value as a setting — a boolean, number, duration, list or enum
    /// (`z.coerce.number()`, envalid's `bool()`, a pydantic `int` field, a Go `time.Duration`
    /// field) — so it holds no credential, whatever its name says.
    pub setting: bool,
    /// Read through a library that puts a prefix before every name, which this file does not
    /// set but another file of the project may (go-envconfig's `PrefixLookuper("APP_", …)` in
    /// `main.go`, the struct tags in `config.go`): the name is the variable's once the
    /// project's prefix ([`Ecosystem::env_prefix`]) is put before it.
    pub unprefixed: bool,
    /// An unprefixed read that names a variable only under the project's prefix (a Rust
    /// server's `server.toml` key, which the config crate overrides as `APP_KEY` under
    /// `Environment::with_prefix("app")`): nothing while the project sets no prefix.
    pub needs_prefix: bool,
    /// A call of a function with a variable's name as its literal first argument
    /// (`Livebook.Config.secret!("LIVEBOOK_SECRET_KEY_BASE")`): the function's name, and a read
    /// only when a file of the project defines it as an env helper ([`Ecosystem::env_helpers`]).
    pub helper: Option<String>,
    /// The key of a settings file that the environment overrides (ASP.NET's `appsettings.json`
    /// key `Stripe.ApiKey`, settable as `Stripe__ApiKey`), and the value the file gives it: the
    /// evidence is `path#key`, and the read counts only while that value is still to be given
    /// (empty or a stand-in) or carries a password — a real value needs nothing set.
    pub settings_key: Option<SettingsKey>,
    /// The read runs when some function is called, not when the app boots (a helper call in a
    /// function's body): a helper that stops without the value does not make it required.
    pub on_demand: bool,
    /// The read names the variable by a constant the file does not define (`os.getenv(PLUS_ENV_VAR)`
    /// after `from app.const import PLUS_ENV_VAR`): `name` is the constant's, and the read is of
    /// the value a file of the project gives it ([`Ecosystem::name_constants`]).
    pub by_constant: bool,
}

/// A settings file's key that the environment overrides, and the value the file gives it (see
/// [`EnvRead::settings_key`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsKey {
    /// The key as the file nests it, dotted (`GlobalSettings.Mail.SmtpPassword`).
    pub key: String,
    /// The value the file gives (a string's contents, `""` for `null`).
    pub value: String,
}

/// A function of the project that reads the variable its first parameter names (see
/// [`Ecosystem::env_helpers`]), and what it says of the values it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvHelper {
    pub function: String,
    /// It fails without the variable (`System.fetch_env!(env)`).
    pub required: bool,
    /// Its name says it reads a credential (`secret!`, `password!`, `cookie!`).
    pub marked_secret: bool,
    /// Its name says it parses a setting (`boolean!`, `port!`, `log_level!`).
    pub setting: bool,
}

impl EnvHelper {
    /// A helper named `function`, marked by the words of its name (`secret_key!`, `parse_bool`,
    /// glued to `env` or `get`: `envsecret`, `getbool`) before any `from`.
    pub fn named(function: &str, required: bool) -> EnvHelper {
        const SECRET_WORDS: &[&str] =
            &["secret", "secrets", "password", "passwd", "token", "key", "cookie", "credential", "credentials"];
        const SETTING_WORDS: &[&str] = &[
            "bool", "boolean", "int", "integer", "float", "number", "port", "ip", "dir", "path", "level", "duration",
            "timeout", "list", "atom",
        ];
        let lower = function.trim_end_matches(['!', '?']).to_ascii_lowercase();
        // Words from `from` on say where the value comes from (`get_var_from_path_or_env`),
        // not what it is.
        let mut words: Vec<&str> = lower.split('_').take_while(|w| *w != "from").collect();
        if let Some(glued) = ["env", "get"].iter().find_map(|verb| lower.strip_prefix(verb)) {
            words.push(glued);
        }
        let setting = words.iter().any(|w| SETTING_WORDS.contains(w));
        EnvHelper {
            function: function.to_string(),
            required,
            marked_secret: !setting && words.iter().any(|w| SECRET_WORDS.contains(w)),
            setting,
        }
    }

    /// A call of this helper (`read`, with its need as the call site says: a default or an
    /// `||` fallback makes it optional) as the read it is.
    pub fn read(&self, read: EnvRead) -> EnvRead {
        let need =
            if read.need == Need::Unstated && self.required && !read.on_demand { Need::Required } else { read.need };
        EnvRead { need, helper: None, ..read }.marked_secret(self.marked_secret).typed_setting(self.setting)
    }
}

impl EnvRead {
    pub fn new(name: impl Into<String>, at: usize, need: Need, via: &'static str) -> EnvRead {
        EnvRead {
            name: name.into(),
            at,
            need,
            via,
            derived: false,
            marked_secret: false,
            setting: false,
            unprefixed: false,
            needs_prefix: false,
            helper: None,
            settings_key: None,
            on_demand: false,
            by_constant: false,
        }
    }

    /// A read of the variable the constant `constant` of another file names (see
    /// [`EnvRead::by_constant`]).
    pub fn of_constant(constant: impl Into<String>, at: usize, need: Need, via: &'static str) -> EnvRead {
        EnvRead { by_constant: true, ..EnvRead::new(constant, at, need, via) }
    }

    /// The same read, under a prefix another file may set (see [`EnvRead::unprefixed`]).
    pub fn without_prefix(self, unprefixed: bool) -> EnvRead {
        EnvRead { unprefixed: self.unprefixed || unprefixed, ..self }
    }

    /// The same read, named only under the project's prefix (see [`EnvRead::needs_prefix`]).
    pub fn under_project_prefix(self) -> EnvRead {
        EnvRead { unprefixed: true, needs_prefix: true, ..self }
    }

    /// A name the framework derives from a settings key (see [`EnvRead::derived`]).
    pub fn derived(name: impl Into<String>, at: usize, need: Need, via: &'static str) -> EnvRead {
        EnvRead { derived: true, ..EnvRead::new(name, at, need, via) }
    }

    /// The same read, declared a secret by the code (see [`EnvRead::marked_secret`]).
    pub fn marked_secret(self, marked: bool) -> EnvRead {
        EnvRead { marked_secret: self.marked_secret || marked, ..self }
    }

    /// The same read, of a settings file's `key` given `value` there (see
    /// [`EnvRead::settings_key`]).
    pub fn of_settings_key(self, key: impl Into<String>, value: impl Into<String>) -> EnvRead {
        EnvRead { settings_key: Some(SettingsKey { key: key.into(), value: value.into() }), ..self }
    }

    /// The same read, its value typed as a setting by the code (see [`EnvRead::setting`]).
    pub fn typed_setting(self, setting: bool) -> EnvRead {
        EnvRead { setting: self.setting || setting, ..self }
    }
}
