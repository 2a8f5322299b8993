//! Zig (`build.zig`, `build.zig.zon` `minimum_zig_version`, `.zigversion`).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{projects, read_existing, source_at, version_file};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::evidence::Evidence;
use crate::rel_path::rel;

pub struct Zig;

/// What Zig declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "zig",
    toolchains: &[Toolchain::new("zig", "Zig")],
    programs: &["zig"],
    manifests: &["build.zig"],
    aliases: &[
        Alias::action("goto-bus-stop/setup-zig", "zig", &["version"]),
        Alias::action("mlugg/setup-zig", "zig", &["version"]),
        Alias::feature("zig", "zig"),
        Alias::nix("zig", "zig"),
        Alias::tool("zig", "zig"),
    ],
    setup_steps: &[SetupStep::new("zig", "mlugg/setup-zig@v2", "version").when_unpinned()],
    test_commands: &[r"zig[[:space:]]+build[[:space:]]+test(?-u:\b)"],
    skipped_dirs: &["zig-cache", ".zig-cache", "zig-out"],
    ..Declaration::new(&Zig)
};

impl Ecosystem for Zig {
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

static MINIMUM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\.minimum_zig_version[[:space:]]*=[[:space:]]*"([^"]+)""#).expect("regex"));

fn detect(repo: &Repo, out: &mut Findings) {
    for build in projects(repo, &["build.zig"]) {
        let dir = build.parent();
        let zon_path = dir.join(rel!("build.zig.zon"));
        let zon = read_existing(repo, &zon_path);
        let minimum = zon.as_deref().and_then(|text| {
            let caps = MINIMUM.captures(text)?;
            Some((caps[1].to_string(), source_at(&zon_path, text, &caps[0])))
        });
        match version_file(repo, dir, rel!(".zigversion")).or(minimum) {
            Some((v, source)) => out.toolchain("zig", Some(v), source),
            None => out.toolchain("zig", None, Evidence::file(build)),
        }
        // Dependencies are fetched by the build; `--fetch` does only that (Zig 0.12+).
        if zon.as_deref().is_some_and(|t| t.contains(".url")) {
            out.step_in(dir, Phase::Install, "zig build --fetch", Evidence::file(&zon_path));
        }
        let script = repo.read(build).unwrap_or_default();
        if script.contains("\"test\"") {
            out.test(in_dir(dir, "zig build test"), source_at(build, &script, "\"test\""));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn zon_minimum_version_and_dependencies() {
        let s = scan(
            &Zig,
            &[
                (
                    "build.zig",
                    "const std = @import(\"std\");\npub fn build(b: *std.Build) void {\n  const t = b.step(\"test\", \"Run tests\");\n}\n",
                ),
                (
                    "build.zig.zon",
                    ".{\n  .name = \"x\",\n  .minimum_zig_version = \"0.13.0\",\n  .dependencies = .{ .clap = .{ .url = \"https://x\", .hash = \"1\" } },\n}\n",
                ),
            ],
        );
        assert_eq!(s.toolchain("zig"), Some((Some("0.13.0"), "build.zig.zon:3")));
        assert_eq!(s.steps(), vec!["zig build --fetch"]);
        assert_eq!(s.tests(), vec!["zig build test"]);
        assert!(s.managers().is_empty());
    }
}
