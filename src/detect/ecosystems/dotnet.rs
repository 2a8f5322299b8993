//! .NET (`global.json`, `*.sln`/`*.slnx`, `*.csproj`/`*.fsproj`/`*.vbproj`):
//! one `dotnet restore` per root solution (or per project outside any solution), NuGet.

mod appsettings;
mod helpers;
mod options;

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    Alias, Declaration, Ecosystem, EnvHelper, EnvRead, Need, SettingsTypes, SetupStep, Toolchain,
};
use crate::detect::ecosystems::project::{outermost, pm_path};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_own_path};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::{join_path, quote};
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

pub struct Dotnet;

/// The extensions of its project files, beside which `bin/` and `obj/` are build output.
const PROJECT_FILES: &[&str] = &["csproj", "fsproj", "vbproj"];

/// What Dotnet declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "dotnet",
    toolchains: &[Toolchain::new("dotnet", ".NET")],
    package_managers: &["nuget"],
    programs: &["dotnet"],
    aliases: &[
        Alias::action("actions/setup-dotnet", "dotnet", &["dotnet-version"]),
        Alias::devcontainer_image("dotnet", "dotnet"),
        Alias::feature("dotnet", "dotnet"),
        Alias::nix("dotnet-sdk", "dotnet"),
        Alias::tool("dotnet", "dotnet"),
        Alias::tool("dotnet-core", "dotnet"),
    ],
    setup_steps: &[SetupStep::new("dotnet", "actions/setup-dotnet@v4", "dotnet-version")],
    devcontainer_features: &[("dotnet", "ghcr.io/devcontainers/features/dotnet:2")],
    test_commands: &[r"dotnet[[:space:]]+test(?-u:\b)"],
    install_commands: &[r"dotnet[[:space:]]+tool"],
    source_extensions: &["cs", "fs"],
    install_programs: &["dotnet"],
    versioned_manifests: &["global.json"],
    build_output: &[("bin", PROJECT_FILES), ("obj", PROJECT_FILES)],
    ..Declaration::new(&Dotnet)
};

impl Ecosystem for Dotnet {
    fn is_settings_file(&self, dir: &str, name: &str) -> bool {
        appsettings::is_appsettings(dir, name)
    }
    /// `global.json`, or any solution or project file.
    fn has_manifest(&self, _declared: &Declaration, sources: &Sources) -> bool {
        let repo = sources.repo();
        repo.exists(rel!("global.json"))
            || repo.files().any(|f| [".csproj", ".fsproj", ".sln"].iter().any(|e| f.name().ends_with(e)))
    }
    /// CI's `dotnet test --no-build` leans on its own `dotnet build` step before; install
    /// restores only, so the tests build what they run.
    fn in_installed_environment(&self, command: &str, _package_managers: &[&str]) -> Option<String> {
        let rest = command.strip_prefix("dotnet test")?;
        let words: Vec<&str> = rest.split(' ').collect();
        (rest.starts_with(' ') && words.contains(&"--no-build")).then(|| {
            format!("dotnet test{}", words.into_iter().filter(|w| *w != "--no-build").collect::<Vec<_>>().join(" "))
        })
    }
    /// `Environment.GetEnvironmentVariable("X")`; Aspire's `AddParameter("X", secret: true)`
    /// (`Parameters__X`, which the AppHost asks the developer for); and configuration keys,
    /// which the environment provider binds with `__` for `:` (`Configuration["Stripe:SecretKey"]`
    /// is `Stripe__SecretKey`): `configuration["X"]`, `GetValue<T>("X")` (optional with a
    /// default), `GetConnectionString("Db")` (`ConnectionStrings__Db`), `GetRequired…("X")`
    /// (required), under the prefix of an `AddEnvironmentVariables("APP_")` of the same file.
    /// appsettings or an orchestrator usually give those, so they count only where an env or
    /// compose file of the project names the variable (see [`EnvRead::derived`]).
    /// An `appsettings.json` binds its keys the same way: see [`appsettings`].
    fn env_supplied(&self, text: &str) -> Vec<String> {
        aspire_connection_strings(text)
    }
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        if appsettings::is_appsettings(rel.parent().as_str(), rel.file_name()) {
            return appsettings::reads(text);
        }
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(
                r#"(?x)
                (?-u:\b)GetEnvironmentVariable\([[:space:]]*"(?P<env>[A-Za-z_][A-Za-z0-9_]*)"
                | (?-u:\b)[A-Za-z_.]*[Cc]onfig(?:uration)?\[[[:space:]]*"(?P<index>[A-Za-z_][A-Za-z0-9_:]*)"[[:space:]]*\]
                | \.(?P<call>GetValue|GetRequiredValue|GetConnectionString|GetRequiredConnectionString)
                  (?:<[^>()]{1,60}>)?\([[:space:]]*"(?P<key>[A-Za-z_][A-Za-z0-9_:]*)"
                | (?-u:\b)AddParameter\([[:space:]]*"(?P<parameter>[A-Za-z_][A-Za-z0-9_\-]*)"
                "#,
            )
            .expect("the .NET environment-read pattern is valid")
        });
        // Configuration added with `AddEnvironmentVariables("APP_")` alone reads its keys from
        // `APP_`-prefixed variables; with a bare `AddEnvironmentVariables()` beside it, from both.
        // A file that adds none reads under the prefix the project's startup code sets.
        let prefix = environment_prefix(text).unwrap_or_default();
        let unprefixed = !text.contains("AddEnvironmentVariables(");
        let mut reads: Vec<EnvRead> = READ
            .captures_iter(text)
            .filter_map(|c| {
                let whole = c.get(0)?;
                let after = &text[whole.end()..];
                let rest = code::rest_of_call(after, &['"']);
                // An indexer's match ends at its `]`; a call's at its name.
                let closed =
                    if c.name("index").is_some() { after } else { after[rest.len()..].get(1..).unwrap_or_default() };
                let fallback = if code::followed_by(closed, &["?? throw"]) {
                    Need::Required
                } else if code::followed_by(closed, &["??"]) {
                    Need::Optional
                } else {
                    Need::Unstated
                };
                if let Some(name) = c.name("env") {
                    return Some(EnvRead::new(name.as_str(), name.start(), fallback, "GetEnvironmentVariable"));
                }
                if let Some(key) = c.name("index") {
                    return Some(
                        EnvRead::derived(
                            format!("{prefix}{}", key.as_str().replace(':', "__")),
                            key.start(),
                            fallback,
                            "configuration key",
                        )
                        .without_prefix(unprefixed),
                    );
                }
                if let Some(parameter) = c.name("parameter") {
                    // `AddParameter("pw", value, secret: true)`: the AppHost gives the value itself.
                    if gives_a_value(rest) {
                        return None;
                    }
                    let secret = code::has_keyword(rest, "secret") && rest.contains("true");
                    let name = format!("Parameters__{}", parameter.as_str().replace('-', "_"));
                    return Some(
                        EnvRead::new(name, parameter.start(), Need::Unstated, "Aspire parameter").marked_secret(secret),
                    );
                }
                let (call, key) = (c.name("call")?.as_str(), c.name("key")?);
                let need = if call.starts_with("GetRequired") {
                    Need::Required
                } else if call == "GetValue" && code::has_another_argument(rest) {
                    Need::Optional
                } else {
                    fallback
                };
                let (name, via) = if call.ends_with("ConnectionString") {
                    (format!("{prefix}ConnectionStrings__{}", key.as_str()), "connection string")
                } else {
                    (format!("{prefix}{}", key.as_str().replace(':', "__")), "configuration key")
                };
                Some(EnvRead::derived(name, key.start(), need, via).without_prefix(unprefixed))
            })
            .collect();
        reads.extend(helpers::helper_calls(text));
        reads
    }
    /// Methods that read the variable their `string` parameter names: see [`helpers`].
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        helpers::helpers(text)
    }
    fn env_prefix(&self, text: &str) -> Option<String> {
        environment_prefix(text)
    }
    /// Options classes and the sections they are bound to: see [`options`].
    fn settings_structs(&self, text: &str) -> SettingsTypes {
        options::settings_structs(text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        let named_by_ci: Vec<RelPathBuf> = sources
            .workflows()
            .jobs
            .iter()
            .flat_map(|job| &job.lines)
            .flat_map(|line| {
                line.text
                    .split_whitespace()
                    .filter(|word| word.ends_with(".slnf"))
                    .filter_map(|word| join_path(&line.dir, word.trim_matches(['"', '\''])))
                    .collect::<Vec<_>>()
            })
            .collect();
        detect(sources.repo(), &named_by_ci, out);
    }
}

/// Whether the arguments after an Aspire parameter's name (`rest`) start with a value
/// (`, builder.Configuration["Pw"], secret: true`) rather than a named one (`, secret: true`):
/// then the AppHost sets the parameter from its own code, not from `Parameters__X`.
fn gives_a_value(rest: &str) -> bool {
    let Some(first) = rest.trim_start().strip_prefix(',').map(str::trim_start) else { return false };
    let word = first.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let named = word.len() < first.len() && word.trim_start().starts_with(':') && !word.trim_start().starts_with("::");
    !first.is_empty() && !named
}

/// The prefix of `AddEnvironmentVariables("APP_")` when `text` adds the environment only so
/// (with a bare `AddEnvironmentVariables()` beside it, keys are read unprefixed too).
fn environment_prefix(text: &str) -> Option<String> {
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)AddEnvironmentVariables\([[:space:]]*(?:prefix[[:space:]]*:[[:space:]]*)?"([A-Za-z0-9_]+)"[[:space:]]*\)"#)
            .expect("the environment-prefix pattern is valid")
    });
    if text.contains("AddEnvironmentVariables()") {
        return None;
    }
    Some(PREFIX.captures(text)?.get(1)?.as_str().to_string())
}

static TARGET_FRAMEWORKS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<TargetFrameworks?>([^<]+)</TargetFrameworks?>").expect("regex"));
/// `net8.0`, `net8.0-windows`, `netcoreapp3.1` (not `netstandard2.0` or `net48`).
static MODERN_TFM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^net(?:coreapp)?([0-9]+\.[0-9]+)(?:-|$)").expect("regex"));

const PROJECT_EXTENSIONS: &[&str] = &[".csproj", ".fsproj", ".vbproj"];

/// A solution filter (`.slnf`) of `solution` that CI builds instead of it: the projects
/// that build on CI's machines (eShop's `eShop.Web.slnf` leaves out the MAUI apps, which
/// cannot restore on Linux).
fn ci_filter<'f>(repo: &Repo, solution: &RelPath, named_by_ci: &'f [RelPathBuf]) -> Option<&'f RelPath> {
    named_by_ci.iter().map(|filter| filter.as_rel_path()).find(|filter| {
        let Some(json) = repo.read_jsonc(filter) else { return false };
        let filtered = json.pointer("/solution/path").and_then(Value::as_str).unwrap_or_default().replace('\\', "/");
        join_path(filter.parent(), &filtered).is_some_and(|path| path == solution)
    })
}

fn detect(repo: &Repo, named_by_ci: &[RelPathBuf], out: &mut Findings) {
    let mut solutions: Vec<&RelPath> = repo
        .files()
        .filter(|f| (f.name().ends_with(".sln") || f.name().ends_with(".slnx")) && f.is_project_path())
        .map(|f| f.path())
        .collect();
    // Shallowest first; of several solutions in one folder the shortest name is the main one
    // (`App.sln` over `App.Tests.sln`).
    solutions.sort_by_key(|p| (p.depth(), p.file_name().len(), *p));
    let solutions = outermost(solutions);

    let mut project_files: Vec<&RelPath> = repo
        .files()
        .filter(|f| PROJECT_EXTENSIONS.iter().any(|e| f.name().ends_with(e)) && f.is_project_path())
        .map(|f| f.path())
        .collect();
    if solutions.is_empty() && project_files.is_empty() {
        return;
    }
    project_files.sort_by_key(|p| (p.depth(), *p));
    let loose: Vec<&RelPath> = outermost(project_files.iter().copied())
        .into_iter()
        .filter(|p| !solutions.iter().any(|s| p.parent().is_within(s.parent())))
        .collect();

    let first = solutions.first().or(loose.first()).copied().unwrap_or(RelPath::root());
    let root_dir = first.parent();
    match sdk_version(repo, root_dir).or_else(|| framework_version(repo, &project_files)) {
        Some((v, source)) => out.toolchain("dotnet", Some(v), source),
        None => out.toolchain("dotnet", None, Evidence::file(first)),
    }

    for tools in repo
        .named("dotnet-tools.json")
        .into_iter()
        .filter(|p| p.ends_with(".config/dotnet-tools.json") && is_own_path(p))
    {
        let dir = tools.parent().parent();
        let cmd = if dir.is_root() {
            "dotnet tool restore".to_string()
        } else {
            format!("(cd {} && dotnet tool restore)", quote(dir))
        };
        out.step(Phase::Install, cmd, Evidence::file(tools));
    }
    let solutions: Vec<&RelPath> =
        solutions.iter().map(|solution| ci_filter(repo, solution, named_by_ci).unwrap_or(solution)).collect();
    for target in solutions.iter().chain(&loose) {
        out.package_manager("nuget", None, pm_path(target.parent()), Evidence::file(*target));
        out.step(Phase::Install, format!("dotnet restore {}", quote(target)), Evidence::file(*target));
    }
    for solution in &solutions {
        out.test(format!("dotnet test {}", quote(solution)), Evidence::file(*solution));
    }
    for project in loose.iter().filter(|p| is_test_project(repo, p)) {
        out.test(format!("dotnet test {}", quote(project)), Evidence::file(*project));
    }
    if !solutions.is_empty() {
        out.note(format!(
            "{} .NET project(s) in solution {}",
            project_files.len(),
            solutions.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        ));
    }
}

/// `global.json` `sdk.version`, next to the solution or at the root.
fn sdk_version(repo: &Repo, dir: &RelPath) -> Option<(String, Evidence)> {
    let mut candidates = vec![dir.join(rel!("global.json"))];
    if !dir.is_empty() {
        candidates.push(rel!("global.json").to_owned());
    }
    candidates.into_iter().filter(|p| repo.exists(p)).find_map(|path| {
        let json = repo.read_json(&path)?;
        let version = json.pointer("/sdk/version")?.as_str()?.to_string();
        Some((version, Evidence::key(path, "sdk.version")))
    })
}

/// The newest target framework the projects build for (`net8.0` → 8.0).
fn framework_version(repo: &Repo, projects: &[&RelPath]) -> Option<(String, Evidence)> {
    let props = repo.named("Directory.Build.props");
    let mut best: Option<(String, Evidence)> = None;
    for path in props.iter().chain(projects).copied().take(300) {
        let Some(text) = repo.read_once(path) else { continue };
        for caps in TARGET_FRAMEWORKS.captures_iter(&text) {
            for tfm in caps[1].split(';').map(str::trim) {
                let Some(v) = MODERN_TFM.captures(tfm).map(|c| c[1].to_string()) else { continue };
                if best.as_ref().is_none_or(|(b, _)| version::cmp(&v, b).is_gt()) {
                    best = Some((v, Evidence::key(path, "TargetFramework")));
                }
            }
        }
    }
    best
}

fn is_test_project(repo: &Repo, project: &RelPath) -> bool {
    project.file_name().contains("Test")
        || repo.read(project).is_some_and(|t| {
            ["Microsoft.NET.Test.Sdk", "xunit", "NUnit", "MSTest"].iter().any(|needle| t.contains(needle))
        })
}

/// The connection strings an Aspire AppHost gives the projects it references: one per
/// resource it adds (`builder.AddRedis("cache")`, `postgres.AddDatabase("catalogdb")`), as
/// `ConnectionStrings__<name>`.
fn aspire_connection_strings(text: &str) -> Vec<String> {
    static RESOURCE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\.Add[A-Z][[:word:]]*\([[:space:]]*"([A-Za-z0-9_-]+)""#)
            .expect("the Aspire resource pattern is valid")
    });
    if !text.contains("DistributedApplication.CreateBuilder") {
        return Vec::new();
    }
    RESOURCE
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| format!("ConnectionStrings__{}", m.as_str()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_that_lean_on_ci_s_build_step_build_themselves() {
        let run = |c: &str| Dotnet.in_installed_environment(c, &[]);
        assert_eq!(
            run("dotnet test --no-build --configuration Release").as_deref(),
            Some("dotnet test --configuration Release")
        );
        assert_eq!(run("dotnet test --no-restore App.sln"), None);
        assert_eq!(run("dotnet tests --no-build"), None);
    }

    #[test]
    fn configuration_keys_bind_with_double_underscores() {
        let text = "var k = builder.Configuration[\"Stripe:SecretKey\"] ?? throw new X();\nvar c = config.GetConnectionString(\"Shop\");\nvar t = Environment.GetEnvironmentVariable(\"API_TOKEN\") ?? \"\";\nvar v = cfg.GetValue<int>(\"Http:Timeout\", 30);\nvar p = builder.AddParameter(\"openai-key\", secret: true);\nvar pw = builder.AddParameter(\"db-password\", builder.Configuration[\"Db\"], secret: true);\n";
        let reads: Vec<(String, Need, bool, bool)> = Dotnet
            .env_reads(crate::rel_path::rel!("Program.cs"), text)
            .into_iter()
            .map(|r| (r.name, r.need, r.derived, r.marked_secret))
            .collect();
        assert_eq!(
            reads,
            [
                ("Stripe__SecretKey".into(), Need::Required, true, false),
                ("ConnectionStrings__Shop".into(), Need::Unstated, true, false),
                ("API_TOKEN".into(), Need::Optional, false, false),
                ("Http__Timeout".into(), Need::Optional, true, false),
                ("Parameters__openai_key".into(), Need::Unstated, false, true),
                // The AppHost gives `db-password` its value: only the key it reads is one.
                ("Db".into(), Need::Unstated, true, false),
            ]
        );
    }
    use crate::detect::testing::scan;

    #[test]
    fn the_solution_filter_ci_builds_is_what_install_restores() {
        let workflow = "jobs:\n  validate:\n    steps:\n      - run: dotnet build eShop.Web.slnf\n      - run: dotnet test --solution eShop.Web.slnf --no-build\n";
        let filter = r#"{"solution": {"path": "eShop.slnx", "projects": ["src\\WebApp\\WebApp.csproj"]}}"#;
        let files = [
            ("eShop.slnx", "<Solution />"),
            ("eShop.Web.slnf", filter),
            ("src/WebApp/WebApp.csproj", ""),
            ("src/ClientApp/ClientApp.csproj", "<UseMaui>true</UseMaui>"),
            (".github/workflows/pr.yml", workflow),
        ];
        let s = scan(&Dotnet, &files);
        assert_eq!(s.steps(), ["dotnet restore eShop.Web.slnf"]);
        assert_eq!(s.tests(), ["dotnet test eShop.Web.slnf"]);
        // A filter CI never names leaves the solution as it is.
        let s = scan(&Dotnet, &files[..4]);
        assert_eq!(s.steps(), ["dotnet restore eShop.slnx"]);
    }

    #[test]
    fn solution_at_the_root_is_one_restore() {
        let s = scan(
            &Dotnet,
            &[
                ("App.sln", ""),
                ("App.Tests.sln", ""),
                ("global.json", r#"{"sdk":{"version":"8.0.100","rollForward":"latestFeature"}}"#),
                (
                    "src/App/App.csproj",
                    "<Project><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
                ),
                ("tests/App.Tests/App.Tests.csproj", "<PackageReference Include=\"xunit\" />"),
                (".config/dotnet-tools.json", r#"{"tools":{}}"#),
                ("samples/Demo/Demo.csproj", ""),
            ],
        );
        assert_eq!(s.toolchain("dotnet"), Some((Some("8.0.100"), "global.json#sdk.version")));
        assert_eq!(s.managers(), vec![("nuget", ".")]);
        assert_eq!(s.steps(), vec!["dotnet tool restore", "dotnet restore App.sln"]);
        assert_eq!(s.tests(), vec!["dotnet test App.sln"]);
    }

    #[test]
    fn configuration_keys_under_an_environment_prefix() {
        let text = "builder.Configuration.AddEnvironmentVariables(prefix: \"SHOP_\");\nvar key = builder.Configuration[\"Stripe:SecretKey\"];\nvar db = builder.Configuration.GetConnectionString(\"Db\");\n";
        let names: Vec<String> =
            Dotnet.env_reads(crate::rel_path::rel!("Program.cs"), text).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["SHOP_Stripe__SecretKey", "SHOP_ConnectionStrings__Db"]);
        let both = format!("builder.Configuration.AddEnvironmentVariables();\n{text}");
        let names: Vec<String> =
            Dotnet.env_reads(crate::rel_path::rel!("Program.cs"), &both).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["Stripe__SecretKey", "ConnectionStrings__Db"]);
    }

    #[test]
    fn projects_without_a_solution() {
        let s = scan(
            &Dotnet,
            &[
                ("src/Lib/Lib.fsproj", "<TargetFrameworks>netstandard2.0;net6.0;net9.0</TargetFrameworks>"),
                ("test/Lib.Tests/Lib.Tests.fsproj", "<TargetFramework>net9.0</TargetFramework>"),
            ],
        );
        assert_eq!(s.toolchain("dotnet"), Some((Some("9.0"), "src/Lib/Lib.fsproj#TargetFramework")));
        assert_eq!(
            s.steps(),
            vec!["dotnet restore src/Lib/Lib.fsproj", "dotnet restore test/Lib.Tests/Lib.Tests.fsproj"]
        );
        assert_eq!(s.tests(), vec!["dotnet test test/Lib.Tests/Lib.Tests.fsproj"]);
    }
}
