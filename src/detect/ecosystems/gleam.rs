//! Gleam (`gleam.toml`, `manifest.toml`): one `gleam deps download` per project, `gleam test`;
//! the compiler version from the `gleam` constraint of `gleam.toml`, and the runtime its
//! `target` compiles for (Erlang/OTP by default, Node for `javascript`).

use crate::rel_path::RelPath;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvRead, Need, Toolchain};
use crate::detect::ecosystems::project::{pm_path, projects};
use crate::detect::findings::{Findings, Phase};
use crate::rel_path::rel;

use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;

pub struct Gleam;

/// What Gleam declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "gleam",
    toolchains: &[Toolchain::new("gleam", "Gleam")],
    package_managers: &["gleam"],
    programs: &["gleam"],
    manifests: &["gleam.toml"],
    aliases: &[
        Alias::action("erlef/setup-beam", "gleam", &["gleam-version"]),
        Alias::image("gleam", "gleam"),
        Alias::nix("gleam", "gleam"),
        Alias::tool("gleam", "gleam"),
    ],
    test_commands: &[r"gleam[[:space:]]+test(?-u:\b)"],
    source_extensions: &["gleam"],
    ..Declaration::new(&Gleam)
};

impl Ecosystem for Gleam {
    fn env_reads(&self, _rel: &RelPath, text: &str) -> Vec<EnvRead> {
        // The `envoy` package is how Gleam code reads the environment.
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)envoy\.get\([[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#)
                .expect("the Gleam environment-read pattern is valid")
        });
        code::reads_of(&READ, text, "envoy.get", |_| Need::Unstated)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        let repo = sources.repo();
        for manifest in projects(repo, &["gleam.toml"]) {
            let dir = manifest.parent();
            let config = repo.read_toml(manifest);
            let constraint = config.as_ref().and_then(|c| c.get("gleam")?.as_str().map(str::to_string));
            match constraint.as_deref().and_then(version::floor) {
                Some(v) => out.toolchain_floor("gleam", v, Evidence::key(manifest, "gleam")),
                None => out.toolchain("gleam", None, Evidence::file(manifest)),
            }
            // The runtime the code compiles for: Erlang unless the target is JavaScript.
            let target = config.as_ref().and_then(|c| c.get("target")?.as_str().map(str::to_string));
            match target.as_deref() {
                Some("javascript") => out.toolchain("node", None, Evidence::key(manifest, "target")),
                _ => out.toolchain("erlang", None, Evidence::file(manifest)),
            }
            let lock = dir.join(rel!("manifest.toml"));
            let evidence = if repo.exists(&lock) { lock } else { manifest.to_owned() };
            out.package_manager("gleam", None, pm_path(dir), Evidence::file(&evidence));
            out.step_in(dir, Phase::Install, "gleam deps download", Evidence::file(&evidence));
            if repo.under(&dir.join(rel!("test"))).next().is_some() {
                out.test(in_dir(dir, "gleam test"), Evidence::file(dir.join(rel!("test"))));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn gleam_project() {
        let s = scan(
            &Gleam,
            &[
                (
                    "gleam.toml",
                    "name = \"app\"\nversion = \"1.0.0\"\ngleam = \">= 1.4.0\"\n\n[dependencies]\ngleam_stdlib = \">= 0.34.0 and < 2.0.0\"\n",
                ),
                ("manifest.toml", "packages = []\n"),
                ("test/app_test.gleam", "pub fn main() { Nil }\n"),
                ("src/app.gleam", "pub fn main() { Nil }\n"),
            ],
        );
        assert_eq!(s.toolchain("gleam"), Some((Some("1.4.0"), "gleam.toml#gleam")));
        assert!(s.toolchain("erlang").is_some());
        assert_eq!(s.steps(), ["gleam deps download"]);
        assert_eq!(s.tests(), ["gleam test"]);
        assert_eq!(s.managers(), [("gleam", ".")]);
    }

    #[test]
    fn javascript_target_needs_node() {
        let s = scan(&Gleam, &[("web/gleam.toml", "name = \"web\"\ntarget = \"javascript\"\n")]);
        assert_eq!(s.toolchain("gleam"), Some((None, "web/gleam.toml")));
        assert_eq!(s.toolchain("node"), Some((None, "web/gleam.toml#target")));
        assert_eq!(s.steps(), ["(cd web && gleam deps download)"]);
    }
}
