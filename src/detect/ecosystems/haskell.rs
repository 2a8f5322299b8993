//! Haskell with Stack (`stack.yaml`, resolver → GHC) or Cabal (`cabal.project`,
//! `*.cabal`; `with-compiler`, `tested-with`).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{outermost, pm_path, projects, read_existing};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

pub struct Haskell;

/// What Haskell declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "haskell",
    toolchains: &[Toolchain::new("haskell", "Haskell")],
    package_managers: &["stack", "cabal"],
    programs: &["stack", "cabal", "ghc"],
    manifests: &["stack.yaml", "cabal.project", "package.yaml"],
    aliases: &[
        Alias::action("haskell-actions/setup", "haskell", &["ghc-version"]),
        Alias::action("haskell/actions/setup", "haskell", &["ghc-version"]),
        Alias::image("haskell", "haskell"),
        Alias::feature("haskell", "haskell"),
        Alias::nix("ghc", "haskell"),
        Alias::tool("haskell", "haskell"),
        Alias::tool("ghc", "haskell"),
        Alias::package_manager_tool("stack", "stack"),
        Alias::package_manager_tool("cabal", "cabal"),
    ],
    setup_steps: &[SetupStep::new("haskell", "haskell-actions/setup@v2", "ghc-version")],
    test_commands: &[r"(?:stack|cabal)[[:space:]]+test(?-u:\b)"],
    install_programs: &["cabal", "stack"],
    skipped_dirs: &[".stack-work", "dist-newstyle"],
    ..Declaration::new(&Haskell)
};

impl Ecosystem for Haskell {
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

/// The GHC of each Stackage LTS major.
const LTS_GHC: &[(u32, &str)] = &[
    (24, "9.10"),
    (23, "9.8"),
    (22, "9.6"),
    (21, "9.4"),
    (20, "9.2"),
    (19, "9.0"),
    (18, "8.10"),
    (17, "8.10"),
    (16, "8.8"),
    (15, "8.8"),
    (14, "8.6"),
    (13, "8.6"),
    (12, "8.4"),
];

static RESOLVER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^(?:resolver|snapshot):[[:space:]]*([[:word:].-]+)").expect("regex"));
static WITH_COMPILER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^with-compiler:[[:space:]]*ghc-?([0-9]+(?:\.[0-9]+)*)").expect("regex"));
/// A `tested-with:` field and its indented continuation lines.
static TESTED_WITH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?mi)^[[:space:]]*tested-with:(.*(?:\n[ \t]+[^:\n]*$)*)").expect("regex"));

fn detect(repo: &Repo, out: &mut Findings) {
    let stack = projects(repo, &["stack.yaml"]);
    for manifest in &stack {
        stack_project(repo, out, manifest);
    }
    let mut cabal: Vec<&RelPath> = repo
        .files()
        .filter(|f| (f.name().ends_with(".cabal") || f.name() == "cabal.project") && f.is_project_path())
        .filter(|f| !stack.iter().any(|s| f.dir().is_within(s.parent())))
        .map(|f| f.path())
        .collect();
    // `cabal.project` before a `.cabal` file of the same folder.
    cabal.sort_by_key(|p| (p.depth(), !p.ends_with("cabal.project"), *p));
    for manifest in outermost(cabal) {
        cabal_project(repo, out, manifest);
    }
}

fn stack_project(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let text = repo.read(manifest).unwrap_or_default();
    let ghc = RESOLVER.captures(&text).and_then(|c| resolver_ghc(&c[1]));
    match ghc {
        Some(v) => out.toolchain("haskell", Some(v), Evidence::key(manifest, "resolver")),
        None => out.toolchain("haskell", None, Evidence::file(manifest)),
    }
    out.package_manager("stack", None, pm_path(dir), Evidence::file(manifest));
    // Stack installs the resolver's GHC itself on first build.
    out.step_in(dir, Phase::Install, "stack build --test --only-dependencies", Evidence::file(manifest));
    out.test(in_dir(dir, "stack test"), Evidence::file(manifest));
}

/// `lts-22.7` → 9.6, `ghc-9.4.7` → 9.4.7; nightlies and URLs pin nothing we can name.
fn resolver_ghc(resolver: &str) -> Option<String> {
    if let Some(v) = resolver.strip_prefix("ghc-") {
        return version::first(v);
    }
    let major: u32 = resolver.strip_prefix("lts-")?.split('.').next()?.parse().ok()?;
    LTS_GHC.iter().find(|(lts, _)| *lts == major).map(|(_, ghc)| ghc.to_string())
}

fn cabal_project(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let project = dir.join(rel!("cabal.project"));
    let pinned = read_existing(repo, &project)
        .and_then(|t| WITH_COMPILER.captures(&t).map(|c| (c[1].to_string(), Evidence::key(project, "with-compiler"))));
    // The shallowest package that states `tested-with` (the main one), its newest GHC.
    let tested = || {
        let mut files: Vec<&RelPath> = repo
            .under(dir)
            .filter(|f| f.name().ends_with(".cabal") && f.is_project_path())
            .take(100)
            .map(|f| f.path())
            .collect();
        files.sort_by_key(|f| (f.depth(), *f));
        files.into_iter().find_map(|f| {
            let text = repo.read_once(f)?;
            let field = TESTED_WITH.captures(&text)?[1].to_string();
            let newest = field
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|v| v.contains('.'))
                .max_by(|a, b| version::cmp(a, b))?
                .to_string();
            Some((newest, Evidence::key(f, "tested-with")))
        })
    };
    match pinned.or_else(tested) {
        Some((v, source)) => out.toolchain("haskell", Some(v), source),
        None => out.toolchain("haskell", None, Evidence::file(manifest)),
    }
    out.package_manager("cabal", None, pm_path(dir), Evidence::file(manifest));
    out.step_in(
        dir,
        Phase::Install,
        "cabal update && cabal build --only-dependencies --enable-tests all",
        Evidence::file(manifest),
    );
    out.test(in_dir(dir, "cabal test all"), Evidence::file(manifest));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn stack_resolver_names_ghc() {
        let s = scan(&Haskell, &[("stack.yaml", "resolver: lts-22.7\npackages: [.]\n"), ("app.cabal", "name: app")]);
        assert_eq!(s.toolchain("haskell"), Some((Some("9.6"), "stack.yaml#resolver")));
        assert_eq!(s.managers(), vec![("stack", ".")]);
        assert_eq!(s.steps(), vec!["stack build --test --only-dependencies"]);
        assert_eq!(resolver_ghc("ghc-9.4.7").as_deref(), Some("9.4.7"));
        assert_eq!(resolver_ghc("nightly-2024-01-01"), None);
    }

    #[test]
    fn cabal_tested_with_newest() {
        let s = scan(
            &Haskell,
            &[(
                "lib.cabal",
                "cabal-version: 3.0\nname: lib\ntested-with: GHC == 9.2.8\n           , GHC == 9.6.4\n           , GHC == 9.4.8\nlibrary\n",
            )],
        );
        assert_eq!(s.toolchain("haskell"), Some((Some("9.6.4"), "lib.cabal#tested-with")));
        assert_eq!(s.steps(), vec!["cabal update && cabal build --only-dependencies --enable-tests all"]);
        assert_eq!(s.tests(), vec!["cabal test all"]);

        let s =
            scan(&Haskell, &[("cabal.project", "packages: */*.cabal\nwith-compiler: ghc-9.8.2\n"), ("a/a.cabal", "")]);
        assert_eq!(s.toolchain("haskell"), Some((Some("9.8.2"), "cabal.project#with-compiler")));
        assert_eq!(s.managers(), vec![("cabal", ".")]);
    }
}
