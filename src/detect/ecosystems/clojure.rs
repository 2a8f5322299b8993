//! Clojure with Leiningen (`project.clj`) or the Clojure CLI (`deps.edn`, its
//! `:test` alias); babashka `bb.edn` tasks are noted.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, Toolchain};
use crate::detect::ecosystems::project::{pm_path, projects, read_existing, source_at};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;

pub struct Clojure;

/// What Clojure declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "clojure",
    toolchains: &[Toolchain::new("clojure", "Clojure")],
    package_managers: &["lein", "clojure-cli"],
    programs: &["clojure", "clj", "lein"],
    manifests: &["deps.edn", "project.clj"],
    aliases: &[
        Alias::image("clojure", "clojure"),
        Alias::feature("clojure", "clojure"),
        Alias::nix("clojure", "clojure"),
        Alias::tool("clojure", "clojure"),
        Alias::package_manager_tool("lein", "lein"),
        Alias::package_manager_tool("leiningen", "lein"),
    ],
    test_commands: &[
        r"lein[[:space:]]+test(?-u:\b)",
        r"clojure[[:space:]]+-[MX]:test(?-u:\b)",
        r"clj[[:space:]]+-[MX]:test(?-u:\b)",
    ],
    install_programs: &["clojure", "lein"],
    ..Declaration::new(&Clojure)
};

impl Ecosystem for Clojure {
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

static LEIN_CLOJURE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\[[[:space:]]*org\.clojure/clojure[[:space:]]+"([^"]+)""#).expect("regex"));
static DEPS_CLOJURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"org\.clojure/clojure[[:space:]]*\{[[:space:]]*:mvn/version[[:space:]]+"([^"]+)""#).expect("regex")
});
static MIN_LEIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#":min-lein-version[[:space:]]+"([^"]+)""#).expect("regex"));

fn detect(repo: &Repo, out: &mut Findings) {
    // With both in one folder, project.clj is the build (deps.edn is then usually for tooling).
    for manifest in projects(repo, &["project.clj", "deps.edn"]) {
        let text = repo.read(manifest).unwrap_or_default();
        if manifest.ends_with("project.clj") {
            lein(out, manifest, &text);
        } else {
            cli(out, manifest, &text);
        }
    }
    for bb in projects(repo, &["bb.edn"]) {
        let text = read_existing(repo, bb).unwrap_or_default();
        let tasks = if text.contains(":tasks") { " (bb tasks: `bb tasks` lists them)" } else { "" };
        out.note(format!("babashka config {bb}{tasks}"));
    }
}

fn clojure_toolchain(out: &mut Findings, manifest: &RelPath, text: &str, pattern: &Regex) {
    match pattern.captures(text) {
        Some(c) => out.toolchain("clojure", Some(c[1].to_string()), source_at(manifest, text, &c[0])),
        None => out.toolchain("clojure", None, Evidence::file(manifest)),
    }
}

fn lein(out: &mut Findings, manifest: &RelPath, text: &str) {
    let dir = manifest.parent();
    clojure_toolchain(out, manifest, text, &LEIN_CLOJURE);
    let min = MIN_LEIN.captures(text).map(|c| c[1].to_string());
    out.package_manager("lein", min, pm_path(dir), Evidence::file(manifest));
    out.step_in(dir, Phase::Install, "lein deps", Evidence::file(manifest));
    out.test(in_dir(dir, "lein test"), Evidence::file(manifest));
}

fn cli(out: &mut Findings, manifest: &RelPath, text: &str) {
    let dir = manifest.parent();
    clojure_toolchain(out, manifest, text, &DEPS_CLOJURE);
    out.package_manager("clojure-cli", None, pm_path(dir), Evidence::file(manifest));
    let test_alias = alias_body(text, "test");
    // `-P` only downloads; naming the test alias fetches its extra deps too.
    let prepare = if test_alias.is_some() { "clojure -P -M:test" } else { "clojure -P" };
    out.step_in(dir, Phase::Install, prepare, Evidence::file(manifest));
    if let Some(body) = test_alias {
        let run = if body.contains(":exec-fn") && !body.contains(":main-opts") {
            "clojure -X:test"
        } else {
            "clojure -M:test"
        };
        out.test(in_dir(dir, run), source_at(manifest, text, ":test"));
    }
}

/// The `{…}` map of alias `:name` in a deps.edn (balanced braces, strings skipped).
fn alias_body<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let aliases = text.find(":aliases")?;
    let key = format!(":{name}");
    let rest = &text[aliases..];
    let at = rest
        .match_indices(&key)
        .find(|(i, _)| rest[i + key.len()..].starts_with(|c: char| c.is_whitespace() || c == '{'))?
        .0;
    let open = at + rest[at..].find('{')?;
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in rest[open..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(&rest[open..open + i + 1]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    proptest::proptest! {
        #[test]
        fn alias_lookup_never_panics(text in "[:{}\"\\\\a-z \n]{0,60}") {
            let _ = alias_body(&format!(":aliases {text}"), "test");
            let _ = alias_body(&format!(":aliases {{:test {{{text}"), "test");
        }
    }

    #[test]
    fn lein_project() {
        let s = scan(
            &Clojure,
            &[(
                "project.clj",
                "(defproject app \"0.1.0\"\n  :min-lein-version \"2.9.0\"\n  :dependencies [[org.clojure/clojure \"1.11.1\"]])\n",
            )],
        );
        assert_eq!(s.toolchain("clojure"), Some((Some("1.11.1"), "project.clj:3")));
        assert_eq!(s.managers(), vec![("lein", ".")]);
        assert_eq!(s.steps(), vec!["lein deps"]);
        assert_eq!(s.tests(), vec!["lein test"]);
    }

    #[test]
    fn deps_edn_with_test_alias() {
        let s = scan(
            &Clojure,
            &[
                (
                    "deps.edn",
                    "{:deps {org.clojure/clojure {:mvn/version \"1.12.0\"}}\n :aliases\n {:test-data {:extra-paths [\"x\"]}\n  :test {:extra-deps {io.github.cognitect-labs/test-runner {:git/tag \"v0.5.1\" :git/sha \"dfb30dd\"}}\n         :main-opts [\"-m\" \"cognitect.test-runner\"]\n         :exec-fn cognitect.test-runner.api/test}}}\n",
                ),
                ("bb.edn", "{:tasks {test (shell \"clojure -M:test\")}}"),
            ],
        );
        assert_eq!(s.toolchain("clojure"), Some((Some("1.12.0"), "deps.edn:1")));
        assert_eq!(s.steps(), vec!["clojure -P -M:test"]);
        assert_eq!(s.tests(), vec!["clojure -M:test"]);
        assert!(s.findings.notes[0].starts_with("babashka"));

        let x = scan(&Clojure, &[("deps.edn", "{:aliases {:test {:exec-fn my.runner/run}}}")]);
        assert_eq!(x.tests(), vec!["clojure -X:test"]);
        let none = scan(&Clojure, &[("deps.edn", "{:deps {}}")]);
        assert_eq!(none.steps(), vec!["clojure -P"]);
        assert!(none.tests().is_empty());
    }
}
