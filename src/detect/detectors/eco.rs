//! Helpers shared by the ecosystem detectors (java … clojure): which manifests are real
//! projects to install, how to run a command in a project's directory, version constraints,
//! and a small XML tree for `pom.xml`/`*.csproj`.

use std::cmp::Ordering;

use crate::detect::Repo;
use crate::detect::repo::{is_sample_path, parent_dir};

pub use super::{in_dir, pm_path, shell_quote};
pub use crate::detect::repo::{is_within, join};

/// Besides [`is_sample_path`]'s sample directories: demos, doc snippets, bundled and test
/// resources (archetype and template trees) and vendored third-party code hold manifests that
/// are not projects either.
const NOT_PROJECT_DIRS: &[&str] = &[
    "demo",
    "demos",
    "snippets",
    "resources",
    "test-resources",
    "test_resources",
    "third_party",
    "third-party",
    "thirdparty",
    "3rdparty",
    "external",
    "extern",
];

/// Whether the manifest at `rel` is not a project to install: a sample, fixture, docs or
/// vendored directory (any case: `Examples/`), or a Maven-style `src/test`/`src/it` tree.
pub fn is_sample(rel: &str) -> bool {
    let dirs: Vec<String> = parent_dir(rel).split('/').filter(|c| !c.is_empty()).map(str::to_ascii_lowercase).collect();
    is_sample_path(&rel.to_ascii_lowercase())
        || dirs.iter().any(|d| NOT_PROJECT_DIRS.contains(&d.as_str()))
        || dirs.windows(2).any(|w| w[0] == "src" && (w[1] == "test" || w[1] == "it"))
}

/// Platform folders of cross-platform app frameworks.
const PLATFORM_DIRS: &[&str] = &["android", "ios", "macos", "linux", "windows", "web"];

/// The app folder when `rel` lies in a Flutter or React Native platform folder (`android/`,
/// `ios/`, `linux/`, … beside a pubspec.yaml or package.json): that app's toolchain builds
/// those, they are not projects of their own.
pub fn native_shell_of<'a>(repo: &Repo, rel: &'a str) -> Option<&'a str> {
    let mut dir = parent_dir(rel);
    while !dir.is_empty() {
        let app = parent_dir(dir);
        let name = crate::detect::repo::file_name(dir);
        if PLATFORM_DIRS.contains(&name)
            && (repo.exists(&join(app, "pubspec.yaml")) || repo.exists(&join(app, "package.json")))
        {
            return Some(app);
        }
        dir = app;
    }
    None
}

/// The manifests called any of `names` that are projects of their own: not samples, and not
/// inside the directory of another one (a nested manifest is a module of the outer build).
/// Shallowest first; within one directory the first of `names` wins.
pub fn projects<'r>(repo: &'r Repo, names: &[&str]) -> Vec<&'r str> {
    let mut found: Vec<(usize, &str, usize, &str)> = Vec::new();
    for (rank, name) in names.iter().enumerate() {
        for path in repo.named(name) {
            if !is_sample(path) {
                found.push((path.matches('/').count(), parent_dir(path), rank, path));
            }
        }
    }
    found.sort();
    outermost(found.into_iter().map(|(_, _, _, path)| path))
}

/// Keep, from manifests sorted shallowest first, those not inside an earlier one's directory.
pub fn outermost<'r>(sorted: impl IntoIterator<Item = &'r str>) -> Vec<&'r str> {
    let mut kept: Vec<&str> = Vec::new();
    for path in sorted {
        if !kept.iter().any(|k| is_within(parent_dir(path), parent_dir(k))) {
            kept.push(path);
        }
    }
    kept
}

/// `path:N` for the first line of `text` containing `needle`, else `path`.
pub fn source_at(path: &str, text: &str, needle: &str) -> String {
    match text.lines().position(|l| l.contains(needle)) {
        Some(i) => format!("{path}:{}", i + 1),
        None => path.to_string(),
    }
}

/// The first dotted number in `s` (`temurin-17.0.2` → `17.0.2`, `ruby-3.2.2p53` → `3.2.2`).
pub fn first_version(s: &str) -> Option<String> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let rest = &s[start..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let v = rest[..end].trim_end_matches('.');
    (!v.is_empty()).then(|| v.to_string())
}

/// Numeric components of a version, for comparing (`1.10` > `1.9`).
pub fn version_key(v: &str) -> Vec<u64> {
    v.split('.').map_while(|p| p.parse().ok()).collect()
}

pub fn cmp_versions(a: &str, b: &str) -> Ordering {
    version_key(a).cmp(&version_key(b))
}

/// The lowest version a constraint accepts: `^8.3` → 8.3, `~> 1.15` → 1.15,
/// `>=3.0.0 <4.0.0` → 3.0.0, `8.2.*` → 8.2, `[17,22)` → 17. With alternatives
/// (`^7.4 || ^8.0`) the newest alternative's floor: it is the one a fresh setup can get.
pub fn constraint_floor(constraint: &str) -> Option<String> {
    constraint
        .split('|')
        .filter(|alt| !alt.trim().is_empty())
        .filter_map(alternative_floor)
        .max_by(|a, b| cmp_versions(a, b))
}

fn alternative_floor(alt: &str) -> Option<String> {
    let alt = alt.trim();
    // Maven/NuGet ranges: `[17,22)`, `(1.8,]`, `[3.3.1,)`; an empty lower bound has no floor.
    if let Some(range) = alt.strip_prefix(['[', '(']) {
        let lower = range.split(',').next().unwrap_or_default();
        return first_version(lower);
    }
    let mut rest = alt;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let op = rest[..at].trim_end();
        let excluded = op.ends_with('<') || op.ends_with("<=") || op.ends_with("!=");
        let version = first_version(&rest[at..])?;
        if !excluded {
            return Some(version);
        }
        rest = &rest[at + version.len()..];
    }
    None
}

/// The text of `rel` when the walk found it (no warning when it is simply absent).
pub fn read_existing(repo: &Repo, rel: &str) -> Option<std::sync::Arc<str>> {
    repo.exists(rel).then(|| repo.read(rel)).flatten()
}

/// Whether `rel` is a file on disk, also in directories the walk skips (`bin/rails`).
pub fn file_on_disk(repo: &Repo, rel: &str) -> bool {
    repo.exists(rel) || repo.root().join(rel).is_file()
}

/// A version file's first version (`.java-version`, `.ruby-version`, …) looked for in the
/// project's directory, then at the root: `(version, source)`.
pub fn version_file(repo: &Repo, dir: &str, name: &str) -> Option<(String, String)> {
    let mut candidates = vec![join(dir, name)];
    if !dir.is_empty() {
        candidates.push(name.to_string());
    }
    candidates.into_iter().find_map(|path| {
        let text = read_existing(repo, &path)?;
        let line = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'))?;
        Some((first_version(line)?, path))
    })
}

/// An XML element: its local name, trimmed text and child elements.
#[derive(Debug, Default, Clone)]
pub struct Element {
    pub name: String,
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The element at `path` of child names below this one.
    pub fn at(&self, path: &[&str]) -> Option<&Element> {
        path.iter().try_fold(self, |e, name| e.child(name))
    }

    /// The text at `path`, when present and not empty.
    pub fn text_at(&self, path: &[&str]) -> Option<&str> {
        self.at(path).map(|e| e.text.as_str()).filter(|t| !t.is_empty())
    }

    /// Every element below this one named `name`, depth first.
    pub fn descendants<'a>(&'a self, name: &'a str) -> Vec<&'a Element> {
        let mut found = Vec::new();
        let mut stack: Vec<&Element> = self.children.iter().rev().collect();
        while let Some(e) = stack.pop() {
            if e.name == name {
                found.push(e);
            }
            stack.extend(e.children.iter().rev());
        }
        found
    }
}

/// Parse `text` into its root element. Malformed XML is an error naming the line.
pub fn parse_xml(text: &str) -> Result<Element, String> {
    use quick_xml::events::Event;

    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let line_at = |pos: u64| text.get(..pos as usize).map_or(0, |t| t.matches('\n').count()) + 1;
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("line {}: {e}", line_at(reader.error_position().max(reader.buffer_position()))))?;
        match event {
            Event::Start(start) => {
                stack.push(Element { name: start.local_name().as_ref().to_string(), ..Element::default() })
            }
            Event::Empty(empty) => {
                let element = Element { name: empty.local_name().as_ref().to_string(), ..Element::default() };
                if let Some(parent) = stack.last_mut() {
                    parent.children.push(element);
                }
            }
            Event::Text(t) => {
                if let Some(current) = stack.last_mut() {
                    current.text.push_str(t.xml10_content().trim());
                }
            }
            Event::CData(t) => {
                if let Some(current) = stack.last_mut() {
                    current.text.push_str(t.xml10_content().trim());
                }
            }
            Event::End(_) => {
                let done = stack
                    .pop()
                    .ok_or_else(|| format!("line {}: unexpected end tag", line_at(reader.buffer_position())))?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => return Err(format!("line {}: unexpected end tag", line_at(reader.buffer_position()))),
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err("unexpected end of file: an element is not closed".into());
    }
    stack.pop().and_then(|doc| doc.children.into_iter().next()).ok_or_else(|| "no root element".to_string())
}

#[cfg(test)]
pub mod testing {
    //! Build a real [`Repo`] over a temporary directory and run one detector on it.

    use crate::detect::{Findings, Repo, WalkOptions};

    pub struct Scan {
        pub findings: Findings,
        pub warnings: Vec<String>,
        _dir: tempfile::TempDir,
    }

    impl Scan {
        pub fn steps(&self) -> Vec<&str> {
            self.findings.steps.iter().map(|s| s.command.as_str()).collect()
        }
        pub fn tests(&self) -> Vec<&str> {
            self.findings.tests.iter().map(|t| t.command.as_str()).collect()
        }
        pub fn toolchain(&self, name: &str) -> Option<(Option<&str>, &str)> {
            self.findings.toolchains.iter().find(|t| t.name == name).map(|t| (t.version.as_deref(), t.source.as_str()))
        }
        pub fn managers(&self) -> Vec<(&str, &str)> {
            self.findings.package_managers.iter().map(|p| (p.name.as_str(), p.path.as_str())).collect()
        }
        pub fn toolchain_names(&self) -> Vec<&str> {
            self.findings.toolchains.iter().map(|t| t.name.as_str()).collect()
        }
    }

    pub fn scan(detector: fn(&Repo, &mut Findings), files: &[(&str, &str)]) -> Scan {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(&full, text).expect("write");
        }
        let repo = Repo::walk(dir.path(), &WalkOptions::default()).expect("walk");
        let mut findings = Findings::default();
        detector(&repo, &mut findings);
        Scan { findings, warnings: repo.warnings(), _dir: dir }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraint_floors() {
        assert_eq!(constraint_floor("^8.3").as_deref(), Some("8.3"));
        assert_eq!(constraint_floor("~> 1.15").as_deref(), Some("1.15"));
        assert_eq!(constraint_floor(">=3.0.0 <4.0.0").as_deref(), Some("3.0.0"));
        assert_eq!(constraint_floor("<4.0.0 >=3.2.0").as_deref(), Some("3.2.0"));
        assert_eq!(constraint_floor("8.2.*").as_deref(), Some("8.2"));
        assert_eq!(constraint_floor("[17,22)").as_deref(), Some("17"));
        assert_eq!(constraint_floor("(,11]"), None);
        assert_eq!(constraint_floor("^7.4 || ^8.0").as_deref(), Some("8.0"));
        assert_eq!(constraint_floor("^7.4|^8.0").as_deref(), Some("8.0"));
        assert_eq!(constraint_floor("*"), None);
    }

    #[test]
    fn samples_and_nesting() {
        assert!(is_sample("tests/fixtures/app/pom.xml"));
        assert!(is_sample("module/src/it/simple/pom.xml"));
        assert!(is_sample("examples/hello/Cargo.toml"));
        assert!(!is_sample("pom.xml"));
        assert!(!is_sample("android/build.gradle"));
        assert_eq!(outermost(["pom.xml", "gson/pom.xml"]), vec!["pom.xml"]);
        assert_eq!(outermost(["a/pom.xml", "ab/pom.xml", "a/b/pom.xml"]), vec!["a/pom.xml", "ab/pom.xml"]);
        assert!(is_within("x", ""));
        assert!(!is_within("ab", "a"));
    }

    #[test]
    fn shell_forms() {
        assert_eq!(in_dir("", "mvn test"), "mvn test");
        assert_eq!(in_dir("android", "./gradlew test"), "(cd android && ./gradlew test)");
        assert_eq!(in_dir("my app", "x"), "(cd 'my app' && x)");
        assert_eq!(first_version("temurin-17.0.2").as_deref(), Some("17.0.2"));
        assert_eq!(first_version("ruby-3.2.2p53").as_deref(), Some("3.2.2"));
    }

    #[test]
    fn xml_tree_and_errors() {
        let root = parse_xml("<?xml version=\"1.0\"?><project><a><b>x</b><b>y</b></a><c/><!-- n --></project>")
            .expect("valid");
        assert_eq!(root.name, "project");
        assert_eq!(root.text_at(&["a", "b"]), Some("x"));
        assert_eq!(root.descendants("b").len(), 2);
        assert!(root.child("c").is_some());
        let err = parse_xml("<project>\n<a>\n</b></project>").expect_err("mismatched");
        assert!(err.contains("line"), "{err}");
        assert!(parse_xml("<project><a>").is_err());
        assert!(parse_xml("").is_err());
    }
}
