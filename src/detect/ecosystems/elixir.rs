//! Elixir with Mix (`mix.exs`, `mix.lock`); umbrella apps are one project; Phoenix
//! and Ecto are noted, and Ecto's database adapter names the service the tests need.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    Alias, Declaration, Ecosystem, EnvHelper, EnvRead, Need, SetupStep, Toolchain,
};
use crate::detect::ecosystems::project::{pm_path, projects, source_at};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_project_path};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

mod dotenvy;
mod env;
mod release;
mod skogsra;
mod vapor;

pub struct Elixir;

/// What Elixir declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "elixir",
    toolchains: &[Toolchain::new("elixir", "Elixir"), Toolchain::new("erlang", "Erlang")],
    package_managers: &["mix"],
    programs: &["mix", "elixir"],
    manifests: &["mix.exs", "rebar.config"],
    aliases: &[
        Alias::action("erlef/setup-beam", "erlang", &["otp-version"]),
        Alias::action("erlef/setup-beam", "elixir", &["elixir-version"]),
        Alias::image("elixir", "elixir"),
        Alias::image("erlang", "erlang"),
        Alias::feature("elixir", "elixir"),
        Alias::feature("erlang", "erlang"),
        Alias::nix("elixir", "elixir"),
        Alias::nix("erlang", "erlang"),
        Alias::tool("elixir", "elixir"),
        Alias::tool("erlang", "erlang"),
    ],
    setup_steps: &[
        SetupStep::new("erlang", "erlef/setup-beam@v1", "otp-version").requires("otp-version"),
        SetupStep::new("elixir", "erlef/setup-beam@v1", "elixir-version").requires("otp-version"),
    ],
    test_commands: &[r"mix[[:space:]]+test(?-u:\b)"],
    install_commands: &[r"mix[[:space:]]+archive"],
    source_extensions: &["ex", "exs"],
    install_programs: &["mix"],
    skipped_dirs: &["_build", "deps"],
    ..Declaration::new(&Elixir)
};

impl Ecosystem for Elixir {
    /// `System.fetch_env!("X")` (required), `System.get_env("X")` (with a default or an
    /// `||` fallback: optional; `|| raise`: required), and the same calls through a helper
    /// module (`Util.fetch_env!("X", all: "postgres")`). Reads in a production-only block
    /// of a config file (`if config_env() == :prod do`, a `:prod ->` branch) or in
    /// `config/prod.exs` or `config/releases.exs` are optional, and so are those under an
    /// `if` that tests another variable; the examples of a `@doc` heredoc are no reads.
    /// Dotenvy's `env!("X", :type)` reads the same way (see [`dotenvy`]), and so do Vapor's
    /// `%Env{bindings: […]}` (see [`vapor`]), and Skogsra's `app_env` declarations (see
    /// [`skogsra`]). A release's boot files read `${NAME}` (see [`release`]).
    /// Calls with a variable's name of a function some file may define as an env helper
    /// (`App.Config.secret!("X")`, see [`env`]) are kept for the secrets signal to pair.
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        if release::is_boot_file(rel.file_name()) {
            return release::reads(text);
        }
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(
                r#"(?-u:\b)(?:[A-Z][[:word:]]*\.)+(get_env|fetch_env!?)\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#,
            )
            .expect("the Elixir environment-read pattern is valid")
        });
        let production = production_blocks(rel, text);
        let on_call = function_bodies(text);
        let docs = doc_heredocs(text);
        let switched = switched_blocks(text);
        let mut found: Vec<EnvRead> = READ
            .captures_iter(text)
            .filter_map(|c| {
                let (call, name, whole) = (c.get(1)?, c.get(2)?, c.get(0)?);
                if docs.iter().any(|d| d.contains(&name.start())) {
                    return None;
                }
                let after = &text[whole.end()..];
                let rest = code::rest_of_call(after, &['"']);
                let fallback = after[rest.len()..].trim_start_matches(')').trim_start();
                let in_production = production.iter().any(|r| r.contains(&name.start()));
                let switched = switched.iter().any(|r| r.contains(&name.start()));
                // A function's read fails when it is called, not when the app boots.
                let on_call = on_call.iter().any(|r| r.contains(&name.start()));
                let need = if in_production || switched || code::has_another_argument(rest) {
                    Need::Optional
                } else if let Some(alternative) = fallback.strip_prefix("||") {
                    match (alternative.trim_start().starts_with("raise"), on_call) {
                        (true, false) => Need::Required,
                        (true, true) => Need::Unstated,
                        (false, _) => Need::Optional,
                    }
                } else if call.as_str() == "fetch_env!" && !on_call {
                    Need::Required
                } else {
                    Need::Unstated
                };
                let via = if in_production {
                    "production-only config"
                } else if switched {
                    "read when another variable is set"
                } else if call.as_str() == "fetch_env!" {
                    "System.fetch_env!"
                } else {
                    "System.get_env"
                };
                Some(EnvRead::new(name.as_str(), name.start(), need, via))
            })
            .collect();
        let in_production = |at: usize| production.iter().any(|r| r.contains(&at));
        let in_docs = |at: usize| docs.iter().any(|d| d.contains(&at));
        let dotenvy: Vec<EnvRead> = dotenvy::reads(text)
            .into_iter()
            .filter(|read| !in_docs(read.at))
            .map(|read| {
                if in_production(read.at) {
                    EnvRead { need: Need::Optional, via: "production-only config", ..read }
                } else if switched.iter().any(|r| r.contains(&read.at)) {
                    EnvRead { need: Need::Optional, via: "read when another variable is set", ..read }
                } else {
                    read
                }
            })
            .collect();
        // Dotenvy's `env!("X")` is no helper of the project's own.
        let helper_calls: Vec<EnvRead> = env::helper_calls(text)
            .into_iter()
            .filter(|read| !in_docs(read.at) && !dotenvy.iter().any(|d| d.at == read.at))
            .map(|read| {
                let need = if in_production(read.at) { Need::Optional } else { read.need };
                EnvRead { need, ..read }
            })
            .collect();
        // `{:system, "DATABASE_URL"}` (with a default: `{:system, "PORT", "4000"}`): read when
        // the app starts by the library given it (Phoenix's endpoint, Ecto's repo, Confex); and
        // the call put off as module, function and arguments, `{System, :get_env, ["X"]}`
        // (Ueberauth's providers call it when they first need the value). Confex's typed
        // tuple (`{:system, :string, "DB_PASSWORD"}`) reads the same; a number, boolean, atom
        // or list type makes a setting.
        static SYSTEM_TUPLE: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"\{[[:space:]]*(?::system[[:space:]]*,[[:space:]]*(?::([[:word:]]+)[[:space:]]*,[[:space:]]*)?|System[[:space:]]*,[[:space:]]*:get_env[[:space:]]*,[[:space:]]*\[[[:space:]]*)"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*(,)?"#)
                .expect("the Elixir {:system, …} pattern is valid")
        });
        const SETTING_TYPES: &[&str] = &["integer", "float", "boolean", "atom", "module", "list", "charlist"];
        let tuples = SYSTEM_TUPLE.captures_iter(text).filter_map(|c| {
            let name = c.get(2)?;
            if in_docs(name.start()) || c.get(1).is_some_and(|kind| SETTING_TYPES.contains(&kind.as_str())) {
                return None;
            }
            let (need, via) = if in_production(name.start()) {
                (Need::Optional, "production-only config")
            } else if c.get(3).is_some() {
                (Need::Optional, "{:system, …} with a default")
            } else {
                (Need::Unstated, "{:system, …}")
            };
            Some(EnvRead::new(name.as_str(), name.start(), need, via))
        });
        found.extend(tuples.collect::<Vec<_>>());
        found.extend(dotenvy);
        found.extend(helper_calls);
        found.extend(vapor::reads(text).into_iter().filter(|read| !in_docs(read.at)));
        found.extend(skogsra::reads(text));
        found
    }
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        env::helpers(text)
    }
    /// A release's boot files (`vm.args`, see [`release`]) read `${NAME}` when it boots.
    fn is_settings_file(&self, _dir: &str, name: &str) -> bool {
        release::is_boot_file(name)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

/// `elixir: "~> 1.15"` or `elixir: @elixir_requirement` (a module attribute).
static ELIXIR_REQ: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"elixir:[[:space:]]*(?:"([^"]+)"|@([[:word:]]+))"#).expect("regex"));

fn detect(repo: &Repo, out: &mut Findings) {
    let manifests = projects(repo, &["mix.exs"]);
    if let Some(first) = manifests.first() {
        // Hex and rebar are fetched by mix itself; `--force` keeps it from asking.
        out.step(Phase::Toolchain, "mix local.hex --force && mix local.rebar --force", Evidence::file(*first));
    }
    for manifest in manifests {
        mix(repo, out, manifest);
    }
}

fn mix(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let text = repo.read(manifest).unwrap_or_default();
    // An umbrella's apps declare the deps and usually the Elixir version: read them too.
    let mut sources: Vec<(&RelPath, std::sync::Arc<str>)> = vec![(manifest, text.clone())];
    if text.contains("apps_path") {
        let apps: Vec<&RelPath> = repo
            .named("mix.exs")
            .into_iter()
            .filter(|p| *p != manifest && p.parent().is_within(dir) && is_project_path(p))
            .collect();
        out.note(format!("Elixir umbrella at {} ({} apps)", pm_path(dir), apps.len()));
        sources.extend(apps.iter().filter_map(|p| repo.read(p).map(|t| (*p, t))));
    }
    let version = sources.iter().find_map(|(path, text)| {
        let c = ELIXIR_REQ.captures(text)?;
        if let Some(literal) = c.get(1) {
            return Some((version::floor(literal.as_str())?, source_at(*path, text, &c[0])));
        }
        let attribute = format!("@{} \"", c.get(2)?.as_str());
        let line = text.lines().find(|l| l.trim_start().starts_with(&attribute))?;
        Some((version::floor(line.trim().trim_start_matches(&attribute))?, source_at(*path, text, &attribute)))
    });
    match version {
        Some((v, source)) => out.toolchain_floor("elixir", v, source),
        None => out.toolchain("elixir", None, Evidence::file(manifest)),
    }
    out.toolchain("erlang", None, Evidence::file(manifest));

    let lock = dir.join(rel!("mix.lock"));
    let evidence = if repo.exists(&lock) { lock.clone() } else { manifest.to_owned() };
    out.package_manager("mix", None, pm_path(dir), Evidence::file(&evidence));
    out.step_in(dir, Phase::Install, "mix deps.get", Evidence::file(&evidence));
    out.test(in_dir(dir, "mix test"), Evidence::file(manifest));

    let dep = |name: &str| {
        let needle = format!("{{:{name},");
        sources.iter().find(|(_, t)| t.contains(&needle)).map(|(p, t)| source_at(*p, t, &needle))
    };
    if let Some(source) = dep("phoenix") {
        out.note(format!("Phoenix app ({})", source.path));
    }
    if dep("ecto_sql").is_some() {
        for (adapter, service) in [("postgrex", "postgres"), ("myxql", "mysql"), ("tds", "mssql")] {
            if let Some(source) = dep(adapter) {
                out.service(service, None, source);
            }
        }
    }
}

/// The byte ranges of `text` only a production deployment reads: all of `config/prod.exs`
/// and `config/releases.exs`,
/// and in other config files the blocks under `if config_env() == :prod do` (also with an
/// `and` condition, or `config_env() in [:prod]`; or `Mix.env()`) up to the `end` at the same
/// indentation, and the `:prod ->` branches of a `case config_env() do`.
fn production_blocks(rel: &str, text: &str) -> Vec<std::ops::Range<usize>> {
    static PROD_IF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^([ \t]*)if[[:space:]]+(?:config_env\(\)|Mix\.env\(\))[[:space:]]*(?:===?[[:space:]]*:prod|in[[:space:]]+\[([^\]\n]*)\]|in[[:space:]]+~w[\(\[]([^\)\]\n]*)[\)\]]a)((?:[[:space:]]+(?:and|&&)[[:space:]]+[^\n]*?)?)[[:space:]]+do[[:space:]]*$",
        )
        .expect("the production-block pattern is valid")
    });
    // `config/releases.exs` runs when a release boots (Mix's runtime configuration of releases
    // before `runtime.exs`): a deployment's, never development's or the tests'.
    // So is Phoenix's `config/prod.secret.exs`, which `prod.exs` imports.
    let whole_file = ["config/prod.exs", "config/prod.secret.exs", "config/releases.exs"];
    if whole_file.iter().any(|file| rel == *file || rel.ends_with(&format!("/{file}"))) {
        return std::iter::once(0..text.len()).collect();
    }
    // `in [:prod, :staging]`: deployments only, no development or test environment.
    let deployments = |list: &str| {
        let mut atoms =
            list.split([',', ' ', '\t']).map(|a| a.trim().trim_start_matches(':')).filter(|a| !a.is_empty());
        atoms.clone().next().is_some() && atoms.all(|a| matches!(a, "prod" | "production" | "staging"))
    };
    let mut found: Vec<std::ops::Range<usize>> = PROD_IF
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, indent) = (c.get(0)?, c.get(1)?.as_str());
            if c.get(2).or(c.get(3)).is_some_and(|list| !deployments(list.as_str())) {
                return None;
            }
            // `and` narrows the block to production; an `or` after it widens it again.
            let condition = c.get(4).map_or("", |m| m.as_str());
            if condition.contains(" or ") || condition.contains("||") {
                return None;
            }
            Some(whole.start()..block_end(text, whole.end(), indent))
        })
        .collect();
    found.extend(production_case_branches(text));
    found
}

/// The byte ranges of the blocks under an `if` that tests another variable
/// (`if System.get_env("SQS_QUEUE_URL") do … System.fetch_env!("SQS_SECRET") … end`): what
/// they read is needed only when that one is set.
fn switched_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    static SWITCH_IF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]*)if[[:space:]]+[^\n]*?(?:System\.get_env|System\.fetch_env)\([[:space:]]*\x22[^\n]*[[:space:]]+do[[:space:]]*$")
            .expect("the switched-block pattern is valid")
    });
    SWITCH_IF
        .captures_iter(text)
        .filter_map(|c| {
            let (whole, indent) = (c.get(0)?, c.get(1)?.as_str());
            Some(whole.end()..block_end(text, whole.end(), indent))
        })
        .collect()
}

/// The bodies of the functions a module defines (`def`, `defp`, one-line `, do:` ones too),
/// but not the ones a supervisor runs as the app boots (`start`, `start_link`, `init`): what
/// they read is needed when they are called.
fn function_bodies(text: &str) -> Vec<std::ops::Range<usize>> {
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^([ \t]*)defp?[[:space:]]+([[:word:]?!]+)[^\n]*$").expect("the function pattern is valid")
    });
    DEF.captures_iter(text)
        .filter_map(|c| {
            let (whole, indent, name) = (c.get(0)?, c.get(1)?.as_str(), c.get(2)?.as_str());
            if matches!(name, "start" | "start_link" | "init") {
                return None;
            }
            let line = whole.as_str().trim_end();
            Some(if line.ends_with(" do") {
                whole.start()..block_end(text, whole.end(), indent)
            } else {
                whole.range()
            })
        })
        .collect()
}

/// Where the block opened before `from` ends: after the `end` at `indent`, or the text's end.
fn block_end(text: &str, from: usize, indent: &str) -> usize {
    let closing = format!("\n{indent}end");
    text[from..]
        .match_indices(&closing)
        .map(|(i, _)| from + i + closing.len())
        .find(|&e| text[e..].starts_with(['\n', '\r', ' ']) || e == text.len())
        .unwrap_or(text.len())
}

/// The `:prod ->` branches of each `case config_env() do` (or `Mix.env()`): a one-line branch,
/// or the lines under it, up to the next line indented no deeper than the branch.
fn production_case_branches(text: &str) -> Vec<std::ops::Range<usize>> {
    static CASE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"case[[:space:]]+(?:config_env\(\)|Mix\.env\(\))[[:space:]]+do[[:space:]]*\n")
            .expect("the case pattern is valid")
    });
    let indent_of = |line: &str| line.len() - line.trim_start().len();
    let mut found = Vec::new();
    for case in CASE.find_iter(text) {
        let mut at = case.end();
        let mut branch: Option<(usize, usize)> = None;
        let mut case_indent: Option<usize> = None;
        for line in text[case.end()..].split_inclusive('\n') {
            let trimmed = line.trim();
            let indent = indent_of(line);
            if !trimmed.is_empty() {
                if let Some((start, depth)) = branch
                    && indent <= depth
                {
                    found.push(start..at);
                    branch = None;
                }
                let depth = *case_indent.get_or_insert(indent);
                if indent < depth || trimmed == "end" && indent <= depth {
                    break;
                }
                if indent == depth && trimmed.starts_with(":prod") && trimmed[5..].trim_start().starts_with("->") {
                    branch = Some((at, indent));
                }
            }
            at += line.len();
        }
        if let Some((start, _)) = branch {
            found.push(start..at);
        }
    }
    found
}

/// The byte ranges of the documentation heredocs of `text` (`@doc """ … """`, `@moduledoc`,
/// `@typedoc`): their examples (`System.fetch_env!("AWS_ACCESS_KEY_ID")`) are not reads.
fn doc_heredocs(text: &str) -> Vec<std::ops::Range<usize>> {
    static DOC: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"@(?:module|type)?doc[[:space:]]+(?:~[sS])?""""#).expect("the Elixir doc pattern is valid")
    });
    DOC.find_iter(text)
        .map(|open| {
            let end = text[open.end()..].find(r#"""""#).map_or(text.len(), |i| open.end() + i + 3);
            open.start()..end
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;
    use crate::evidence::ev;

    #[test]
    fn phoenix_app_with_postgres() {
        let s = scan(
            &Elixir,
            &[
                (
                    "mix.exs",
                    "defmodule App.MixProject do\n  def project do\n    [app: :app, elixir: \"~> 1.15\"]\n  end\n  defp deps do\n    [\n      {:phoenix, \"~> 1.7\"},\n      {:ecto_sql, \"~> 3.10\"},\n      {:postgrex, \">= 0.0.0\"}\n    ]\n  end\nend\n",
                ),
                ("mix.lock", "%{}"),
                ("deps/phoenix/mix.exs", "ignored"),
            ],
        );
        assert_eq!(s.toolchain("elixir"), Some((Some("1.15"), "mix.exs:3")));
        assert!(s.toolchain("erlang").is_some());
        assert_eq!(s.steps(), vec!["mix local.hex --force && mix local.rebar --force", "mix deps.get"]);
        assert_eq!(s.tests(), vec!["mix test"]);
        assert_eq!(s.findings.services.len(), 1);
        assert_eq!(s.findings.services[0].source, ev("mix.exs:9"));
        assert!(s.findings.notes.iter().any(|n| n.starts_with("Phoenix")));
    }

    #[test]
    fn environment_reads_and_what_they_need() {
        let text = "config :a, pass: Util.fetch_env!(\"DATABASE_PASS\", all: \"postgres\"),\n  url: System.get_env(\"DATABASE_URL\") || raise(\"missing\"),\n  key: System.fetch_env!(\"STRIPE_KEY\"),\n  token: System.get_env(\"API_TOKEN\")\n\nif config_env() == :prod do\n  config :a, base: System.fetch_env!(\"SECRET_KEY_BASE\")\nend\nconfig :a, later: System.fetch_env!(\"LATER_TOKEN\")\n";
        let reads: Vec<(String, Need)> = Elixir
            .env_reads(crate::rel_path::rel!("config/runtime.exs"), text)
            .into_iter()
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(
            reads,
            [
                ("DATABASE_PASS".into(), Need::Optional),
                ("DATABASE_URL".into(), Need::Required),
                ("STRIPE_KEY".into(), Need::Required),
                ("API_TOKEN".into(), Need::Unstated),
                ("SECRET_KEY_BASE".into(), Need::Optional),
                ("LATER_TOKEN".into(), Need::Required),
            ]
        );
        // In a function, a read fails when the function runs; `start` runs as the app boots.
        let module = "defmodule App.Client do\n  @key System.fetch_env!(\"BUILD_KEY\")\n  defp api_key do\n    System.get_env(\"OPENAI_API_KEY\") ||\n      raise \"OPENAI_API_KEY is not set\"\n  end\n\n  def token, do: System.fetch_env!(\"SLACK_TOKEN\")\n  def region, do: System.get_env(\"S3_SECRET\") || \"x\"\n\n  def start(_type, _args) do\n    System.fetch_env!(\"BOOT_SECRET\")\n  end\nend\n";
        let needs: Vec<(String, Need)> = Elixir
            .env_reads(crate::rel_path::rel!("lib/app/client.ex"), module)
            .into_iter()
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(
            needs,
            [
                ("BUILD_KEY".into(), Need::Required),
                ("OPENAI_API_KEY".into(), Need::Unstated),
                ("SLACK_TOKEN".into(), Need::Unstated),
                ("S3_SECRET".into(), Need::Optional),
                ("BOOT_SECRET".into(), Need::Required),
            ]
        );
        assert!(
            Elixir
                .env_reads(crate::rel_path::rel!("config/prod.exs"), "System.fetch_env!(\"X_KEY\")")
                .iter()
                .all(|r| r.need == Need::Optional)
        );
        let tuples = "config :app, App.Repo,\n  url: {:system, \"DATABASE_URL\"},\n  port: {:system, \"DB_PORT\", \"5432\"}\n\
            config :ueberauth, Google, client_secret: {System, :get_env, [\"GOOGLE_CLIENT_SECRET\"]}\n";
        let found: Vec<(String, Need)> = Elixir
            .env_reads(crate::rel_path::rel!("config/dev.exs"), tuples)
            .into_iter()
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(
            found,
            [
                ("DATABASE_URL".into(), Need::Unstated),
                ("DB_PORT".into(), Need::Optional),
                ("GOOGLE_CLIENT_SECRET".into(), Need::Unstated)
            ]
        );
        assert!(
            Elixir
                .env_reads(crate::rel_path::rel!("config/prod.secret.exs"), tuples)
                .iter()
                .all(|r| r.need == Need::Optional),
            "imported by prod.exs"
        );
        let raised = "secret = System.get_env(\"SECRET_KEY_BASE\") || raise \"missing\"\n";
        assert!(
            Elixir
                .env_reads(crate::rel_path::rel!("config/releases.exs"), raised)
                .iter()
                .all(|r| r.need == Need::Optional),
            "a release's boot configuration"
        );
    }

    #[test]
    fn version_from_a_module_attribute() {
        let s = scan(
            &Elixir,
            &[("mix.exs", "  @elixir_requirement \"~> 1.15\"\n  def project, do: [elixir: @elixir_requirement]\n")],
        );
        assert_eq!(s.toolchain("elixir"), Some((Some("1.15"), "mix.exs:1")));
    }

    #[test]
    fn umbrella_is_one_project() {
        let s = scan(
            &Elixir,
            &[
                ("mix.exs", "[apps_path: \"apps\"]"),
                ("apps/web/mix.exs", "[elixir: \"~> 1.14\", deps: [{:phoenix, \"~> 1.7\"}]]"),
                ("apps/core/mix.exs", "[]"),
            ],
        );
        assert_eq!(s.managers(), vec![("mix", ".")]);
        assert_eq!(s.steps().len(), 2);
        assert!(s.findings.notes.iter().any(|n| n.contains("umbrella") && n.contains("2 apps")));
        assert!(s.findings.notes.iter().any(|n| n.starts_with("Phoenix")));
        assert_eq!(s.toolchain("elixir"), Some((Some("1.14"), "apps/web/mix.exs:1")));
    }

    #[test]
    fn a_strictly_equal_production_test_is_a_production_block() {
        let text = "if config_env() === :prod do\n  url = System.get_env(\"DATABASE_URL\") || raise \"missing\"\nend\n";
        let reads: Vec<(String, Need)> = Elixir
            .env_reads(crate::rel_path::rel!("config/runtime.exs"), text)
            .into_iter()
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(reads, [("DATABASE_URL".into(), Need::Optional)]);
    }

    #[test]
    fn production_only_and_switched_blocks() {
        let text = "if config_env() == :prod and not hosted do\n  a = System.fetch_env!(\"A_KEY\")\nend\nif config_env() == :prod or hosted do\n  b = System.fetch_env!(\"B_KEY\")\nend\nif config_env() in [:prod, :staging] do\n  c = System.fetch_env!(\"C_KEY\")\nend\nif config_env() in [:dev, :prod] do\n  d = System.fetch_env!(\"D_KEY\")\nend\nkey =\n  case config_env() do\n    :prod -> System.fetch_env!(\"E_KEY\")\n    :test ->\n      System.fetch_env!(\"F_KEY\")\n  end\nq =\n  if System.get_env(\"QUEUE_URL\") do\n    System.fetch_env!(\"G_KEY\")\n  end\nh = System.fetch_env!(\"H_KEY\")\n";
        let reads: Vec<(String, Need)> = Elixir
            .env_reads(crate::rel_path::rel!("config/runtime.exs"), text)
            .into_iter()
            .filter(|r| r.name.ends_with("_KEY"))
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(
            reads,
            [
                ("A_KEY".into(), Need::Optional),
                ("B_KEY".into(), Need::Required),
                ("C_KEY".into(), Need::Optional),
                ("D_KEY".into(), Need::Required),
                ("E_KEY".into(), Need::Optional),
                ("F_KEY".into(), Need::Required),
                ("G_KEY".into(), Need::Optional),
                ("H_KEY".into(), Need::Required),
            ]
        );
    }

    #[test]
    fn doc_examples_are_no_reads() {
        let text = "  @doc \"\"\"\n      System.fetch_env!(\"AWS_SECRET_ACCESS_KEY\")\n  \"\"\"\n  def f, do: System.get_env(\"REAL_TOKEN\")\n";
        let names: Vec<String> =
            Elixir.env_reads(crate::rel_path::rel!("lib/a.ex"), text).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["REAL_TOKEN"]);
    }
}
