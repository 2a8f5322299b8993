//! Scala with sbt (`build.sbt`, `project/build.properties` `sbt.version`,
//! `scalaVersion`); Mill builds are noted.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvRead, Need, Toolchain};
use crate::detect::ecosystems::project::{file_on_disk, pm_path, projects, read_existing, source_at};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

pub struct Scala;

/// What Scala declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "scala",
    toolchains: &[Toolchain::new("scala", "Scala")],
    package_managers: &["sbt"],
    programs: &["sbt", "scala"],
    manifests: &["build.sbt", "build.sc"],
    aliases: &[
        Alias::feature("scala", "scala"),
        Alias::nix("scala", "scala"),
        Alias::tool("scala", "scala"),
        Alias::package_manager_tool("sbt", "sbt"),
    ],
    test_commands: &[r"sbt(?-u:\b)[^;&|]*?(?-u:\b)test(?-u:\b)"],
    source_extensions: &["scala"],
    install_programs: &["sbt"],
    skipped_dirs: &["target"],
    ..Declaration::new(&Scala)
};

impl Ecosystem for Scala {
    /// `sys.env("X")` (throws without it), `System.getenv("X")` and `sys.env.get("X")`
    /// (optional with a `.getOrElse`).
    fn env_reads(&self, _rel: &RelPath, text: &str) -> Vec<EnvRead> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)(?:System\.getenv|sys\.env\.get|(sys\.env))\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)"[[:space:]]*\)"#)
                .expect("the Scala environment-read pattern is valid")
        });
        READ.captures_iter(text)
            .filter_map(|c| {
                let (whole, name) = (c.get(0)?, c.get(2)?);
                let need = if code::followed_by(&text[whole.end()..], &[".getOrElse", ".orElse"]) {
                    Need::Optional
                } else if c.get(1).is_some() {
                    Need::Required
                } else {
                    Need::Unstated
                };
                Some(EnvRead::new(name.as_str(), name.start(), need, "System.getenv"))
            })
            .collect()
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

static SCALA_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"scalaVersion[[:space:]]*:=[[:space:]]*(?:"([^"]+)"|([A-Za-z_][[:word:].]*))"#).expect("regex")
});

fn detect(repo: &Repo, out: &mut Findings) {
    // One build per folder; with both, Mill (a repo moved to it keeps build.sbt for a while).
    for build in projects(repo, &["build.mill", "build.sc", "build.sbt"]) {
        if build.ends_with("build.sbt") {
            sbt(repo, out, build);
        } else {
            mill(repo, out, build);
        }
    }
}

/// Mill has no package-manager name in the schema: the toolchain, the steps and the tests.
fn mill(repo: &Repo, out: &mut Findings, build: &RelPath) {
    let dir = build.parent();
    out.toolchain("scala", None, Evidence::file(build));
    let mill = if file_on_disk(repo, &dir.join(rel!("mill"))) { "./mill" } else { "mill" };
    out.step_in(dir, Phase::Install, format!("{mill} -i __.compile"), Evidence::file(build));
    out.test(in_dir(dir, &format!("{mill} -i __.test")), Evidence::file(build));
}

fn sbt(repo: &Repo, out: &mut Findings, build: &RelPath) {
    let dir = build.parent();
    let text = repo.read(build).unwrap_or_default();
    let props_path = dir.join(rel!("project/build.properties"));
    let sbt_version = read_existing(repo, &props_path).and_then(|t| {
        t.lines().find_map(|l| {
            l.trim().strip_prefix("sbt.version").map(|v| v.trim_start_matches([' ', '=']).trim().to_string())
        })
    });

    match scala_version(repo, dir, build, &text) {
        Some((v, source)) => out.toolchain("scala", Some(v), source),
        None => out.toolchain("scala", None, Evidence::file(build)),
    }
    let legacy = sbt_version.as_deref().is_some_and(|v| v.starts_with("0."));
    out.package_manager(
        "sbt",
        sbt_version,
        pm_path(dir),
        Evidence::file(if repo.exists(&props_path) { &props_path } else { build }),
    );
    // Compiling the tests fetches every dependency and the compiler bridge, like Gradle's
    // testClasses; sbt 0.13 spells the task `test:compile`.
    let compile = if legacy { "sbt -batch test:compile" } else { "sbt -batch Test/compile" };
    out.step_in(dir, Phase::Install, compile, Evidence::file(build));
    out.test(in_dir(dir, "sbt test"), Evidence::file(build));
}

/// `scalaVersion := "3.3.1"`, or a name defined as a string in build.sbt or project/*.scala.
fn scala_version(repo: &Repo, dir: &RelPath, build: &RelPath, text: &str) -> Option<(String, Evidence)> {
    let caps = SCALA_VERSION.captures(text)?;
    if let Some(v) = caps.get(1) {
        return Some((v.as_str().to_string(), source_at(build, text, caps[0].trim())));
    }
    let name = caps.get(2)?.as_str().rsplit('.').next()?;
    let definition = Regex::new(&format!(
        r#"(?-u:\b)(?:val|def|lazy val)[[:space:]]+{}[[:space:]]*(?::[[:space:]]*String[[:space:]]*)?=[[:space:]]*"([^"]+)""#,
        regex::escape(name)
    ))
    .ok()?;
    let project_dir = dir.join(rel!("project"));
    let sources = std::iter::once(build).chain(
        repo.under(&project_dir)
            .filter(|f| f.name().ends_with(".scala") || f.name().ends_with(".sbt"))
            .map(|f| f.path()),
    );
    sources.take(50).find_map(|path| {
        let t = repo.read(path)?;
        let c = definition.captures(&t)?;
        Some((c[1].to_string(), source_at(path, &t, c[0].trim())))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn sbt_build_with_versions() {
        let s = scan(
            &Scala,
            &[
                ("build.sbt", "ThisBuild / scalaVersion := Dependencies.scala3\nlazy val root = project\n"),
                ("project/build.properties", "sbt.version=1.9.9\n"),
                ("project/Dependencies.scala", "object Dependencies {\n  val scala3 = \"3.3.3\"\n}\n"),
                ("modules/core/build.sbt", ""),
            ],
        );
        assert_eq!(s.toolchain("scala"), Some((Some("3.3.3"), "project/Dependencies.scala:2")));
        assert_eq!(s.findings.package_managers[0].version.as_deref(), Some("1.9.9"));
        assert_eq!(s.managers(), vec![("sbt", ".")]);
        assert_eq!(s.steps(), vec!["sbt -batch Test/compile"]);
        assert_eq!(s.tests(), vec!["sbt test"]);

        let old = scan(
            &Scala,
            &[("build.sbt", "scalaVersion := \"2.12.18\""), ("project/build.properties", "sbt.version = 0.13.18")],
        );
        assert_eq!(old.toolchain("scala"), Some((Some("2.12.18"), "build.sbt:1")));
        assert_eq!(old.steps(), vec!["sbt -batch test:compile"]);

        let mill =
            scan(&Scala, &[("build.sbt", ""), ("build.sc", "object core extends ScalaModule"), ("mill", "#!/bin/sh")]);
        assert_eq!(mill.steps(), vec!["./mill -i __.compile"]);
        assert_eq!(mill.tests(), vec!["./mill -i __.test"]);
        assert!(mill.managers().is_empty());
    }
}
