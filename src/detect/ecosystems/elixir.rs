//! Elixir with Mix (`mix.exs`, `mix.lock`); umbrella apps are one project; Phoenix
//! and Ecto are noted, and Ecto's database adapter names the service the tests need.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Ecosystem, Toolchain};
use crate::detect::ecosystems::project::{captured_names, pm_path, projects, source_at};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_project_path, is_within, join, parent_dir};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;

pub struct Elixir;

impl Ecosystem for Elixir {
    fn id(&self) -> &'static str {
        "elixir"
    }
    fn toolchains(&self) -> &'static [Toolchain] {
        const TOOLCHAINS: &[Toolchain] = &[Toolchain::new("elixir", "Elixir"), Toolchain::new("erlang", "Erlang")];
        TOOLCHAINS
    }
    fn package_managers(&self) -> &'static [&'static str] {
        &["mix"]
    }
    fn manifests(&self) -> &'static [&'static str] {
        &["mix.exs", "rebar.config"]
    }
    fn aliases(&self) -> &'static [Alias] {
        const ALIASES: &[Alias] = &[
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
        ];
        ALIASES
    }
    fn test_commands(&self) -> &'static [&'static str] {
        &[r"mix\s+test\b"]
    }
    fn install_commands(&self) -> &'static [&'static str] {
        &[r"mix\s+archive"]
    }
    fn source_extensions(&self) -> &'static [&'static str] {
        &["ex", "exs"]
    }
    fn env_reads(&self, _rel: &str, text: &str) -> Vec<(String, usize)> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"\bSystem\.(?:get_env|fetch_env!?)\(\s*"([A-Za-z_][A-Za-z0-9_]*)""#)
                .expect("the Elixir environment-read pattern is valid")
        });
        captured_names(&READ, text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

/// `elixir: "~> 1.15"` or `elixir: @elixir_requirement` (a module attribute).
static ELIXIR_REQ: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"elixir:\s*(?:"([^"]+)"|@(\w+))"#).expect("regex"));

fn detect(repo: &Repo, out: &mut Findings) {
    let manifests = projects(repo, &["mix.exs"]);
    if let Some(first) = manifests.first() {
        // Hex and rebar are fetched by mix itself; `--force` keeps it from asking.
        out.step(Phase::Toolchain, "mix local.hex --force && mix local.rebar --force", *first);
    }
    for manifest in manifests {
        mix(repo, out, manifest);
    }
}

fn mix(repo: &Repo, out: &mut Findings, manifest: &str) {
    let dir = parent_dir(manifest);
    let text = repo.read(manifest).unwrap_or_default();
    // An umbrella's apps declare the deps and usually the Elixir version: read them too.
    let mut sources: Vec<(String, std::sync::Arc<str>)> = vec![(manifest.to_string(), text.clone())];
    if text.contains("apps_path") {
        let apps: Vec<&str> = repo
            .named("mix.exs")
            .into_iter()
            .filter(|p| *p != manifest && is_within(parent_dir(p), dir) && is_project_path(p))
            .collect();
        out.note(format!("Elixir umbrella at {} ({} apps)", pm_path(dir), apps.len()));
        sources.extend(apps.iter().filter_map(|p| repo.read(p).map(|t| (p.to_string(), t))));
    }
    let version = sources.iter().find_map(|(path, text)| {
        let c = ELIXIR_REQ.captures(text)?;
        if let Some(literal) = c.get(1) {
            return Some((version::floor(literal.as_str())?, source_at(path, text, &c[0])));
        }
        let attribute = format!("@{} \"", c.get(2)?.as_str());
        let line = text.lines().find(|l| l.trim_start().starts_with(&attribute))?;
        Some((version::floor(line.trim().trim_start_matches(&attribute))?, source_at(path, text, &attribute)))
    });
    match version {
        Some((v, source)) => out.toolchain("elixir", Some(v), source),
        None => out.toolchain("elixir", None, manifest),
    }
    out.toolchain("erlang", None, manifest);

    let lock = join(dir, "mix.lock");
    let evidence = if repo.exists(&lock) { lock.clone() } else { manifest.to_string() };
    out.package_manager("mix", None, pm_path(dir), evidence.as_str());
    out.step(Phase::Install, in_dir(dir, "mix deps.get"), evidence.as_str());
    out.test(in_dir(dir, "mix test"), manifest);

    let dep = |name: &str| {
        let needle = format!("{{:{name},");
        sources.iter().find(|(_, t)| t.contains(&needle)).map(|(p, t)| source_at(p, t, &needle))
    };
    if let Some(source) = dep("phoenix") {
        out.note(format!("Phoenix app ({})", source.split(':').next().unwrap_or(&source)));
    }
    if dep("ecto_sql").is_some() {
        for (adapter, service) in [("postgrex", "postgres"), ("myxql", "mysql"), ("tds", "mssql")] {
            if let Some(source) = dep(adapter) {
                out.service(service, None, source);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

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
        assert_eq!(s.findings.services[0].source, "mix.exs:9");
        assert!(s.findings.notes.iter().any(|n| n.starts_with("Phoenix")));
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
}
