//! C and C++ builds with CMake, Meson or Make (plain or autotools). A Makefile is
//! C only when it compiles C sources that exist; Makefile targets are the tasks detector's.
//! A C build inside a Rust/Python/Go/Zig/node-gyp project is built by that project's tool.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, Toolchain};
use crate::detect::ecosystems::project::{native_shell_of, pm_path, projects, read_existing, source_at};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_project_path};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::{in_dir, quote};
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::rel;
use crate::rel_path::{RelPath, RelPathBuf};

pub struct Cpp;

/// What Cpp declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "cpp",
    toolchains: &[Toolchain::new("cpp", "C/C++")],
    package_managers: &["cmake", "meson", "make"],
    manifests: &["CMakeLists.txt", "meson.build"],
    aliases: &[
        Alias::devcontainer_image("cpp", "cpp"),
        Alias::package_manager_tool("cmake", "cmake"),
        Alias::package_manager_tool("meson", "meson"),
    ],
    test_commands: &[r"ctest(?-u:\b)"],
    ..Declaration::new(&Cpp)
};

impl Ecosystem for Cpp {
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

const C_EXTENSIONS: &[&str] = &[".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx"];
/// Manifests of tools that build the C code below them themselves (build.rs, setuptools,
/// scikit-build, cgo, node-gyp, zig build, SwiftPM, elixir_make/rebar NIFs).
const DRIVERS: &[&RelPath] = &[
    rel!("Cargo.toml"),
    rel!("pyproject.toml"),
    rel!("setup.py"),
    rel!("go.mod"),
    rel!("binding.gyp"),
    rel!("build.zig"),
    rel!("Package.swift"),
    rel!("mix.exs"),
    rel!("rebar.config"),
];

static CMAKE_MINIMUM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)cmake_minimum_required[[:space:]]*\([[:space:]]*VERSION[[:space:]]+([0-9]+(?:\.[0-9]+)*)")
        .expect("regex")
});
static CMAKE_TESTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i-u)(?-u:\b)enable_testing[[:space:]]*\(|(?-u:\b)add_test[[:space:]]*\(|include[[:space:]]*\([[:space:]]*CTest(?-u:\b)|gtest_discover_tests",
    )
    .expect("regex")
});
static CXX_STANDARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"CMAKE_CXX_STANDARD[[:space:]]+([0-9]+)|cxx_std_([0-9]+)|cpp_std[[:space:]]*=[[:space:]]*(?:c|gnu)\+\+([0-9]+)").expect("regex")
});
static MESON_VERSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"meson_version[[:space:]]*:[[:space:]]*'([^']+)'"#).expect("regex"));
/// A Makefile that compiles C or C++.
static MAKE_COMPILES_C: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\$[({]CC[)}]|\$[({]CXX[)}]|(?-u:\b)CFLAGS(?-u:\b)|(?-u:\b)CXXFLAGS(?-u:\b)|(?-u:\b)gcc(?-u:\b)|(?-u:\b)g\+\+|(?-u:\b)clang(\+\+)?(?-u:\b)|%\.o(?-u:\b)|\.o[[:space:]]*:")
        .expect("regex")
});

fn detect(repo: &Repo, out: &mut Findings) {
    let not_shell = |p: &&RelPath| native_shell_of(repo, p).is_none();
    // A folder with both: Meson, which projects add as the successor of their CMake build.
    let meson: Vec<&RelPath> = projects(repo, &["meson.build"]).into_iter().filter(not_shell).collect();
    let cmake: Vec<&RelPath> = projects(repo, &["CMakeLists.txt"])
        .into_iter()
        .filter(not_shell)
        .filter(|c| !meson.iter().any(|m| m.parent() == c.parent()))
        .collect();
    let generated: Vec<&RelPath> = cmake.iter().chain(&meson).map(|p| p.parent()).collect();
    let make: Vec<&RelPath> =
        projects(repo, &["configure.ac", "configure.in", "configure", "GNUmakefile", "Makefile", "makefile"])
            .into_iter()
            .filter(|m| !generated.iter().any(|g| m.parent().is_within(g)))
            .collect();

    for list in &cmake {
        cmake_build(repo, out, list);
    }
    for build in &meson {
        meson_build(repo, out, build);
    }
    for makefile in &make {
        make_build(repo, out, makefile);
    }
}

fn has_c_sources(repo: &Repo, dir: &RelPath) -> bool {
    repo.under(dir).any(|f| C_EXTENSIONS.iter().any(|e| f.name().ends_with(e)) && f.is_project_path())
}

/// The manifest of the tool that builds the C code in `dir`, if one does.
fn driver(repo: &Repo, dir: &RelPath) -> Option<RelPathBuf> {
    let mut at = dir;
    loop {
        if let Some(found) = DRIVERS.iter().map(|d| at.join(d)).find(|p| repo.exists(p)) {
            return Some(found);
        }
        if at.is_root() {
            return None;
        }
        at = at.parent();
    }
}

/// Whether this build is ours to run: `Run`, `Driven` when another ecosystem's tool builds
/// the C code (the toolchain and build tool are still needed), `Skip` when it builds no C at
/// all under such a tool (SwiftPM's alternative CMake build of Swift code).
#[derive(PartialEq)]
enum Role {
    Run,
    Driven,
    Skip,
}

/// Report the toolchain and say who builds the code.
fn toolchain(repo: &Repo, out: &mut Findings, manifest: &RelPath) -> Role {
    let dir = manifest.parent();
    let sources = has_c_sources(repo, dir);
    if sources {
        out.toolchain("cpp", None, Evidence::file(manifest));
    }
    match driver(repo, dir) {
        Some(by) if sources => {
            out.note(format!("C/C++ build {manifest} is compiled by {by}"));
            Role::Driven
        }
        Some(_) => Role::Skip,
        None => Role::Run,
    }
}

fn standard_note(out: &mut Findings, manifest: &RelPath, text: &str) {
    if let Some(std) =
        CXX_STANDARD.captures(text).and_then(|c| c.iter().skip(1).flatten().next().map(|m| m.as_str().to_string()))
    {
        out.note(format!("C++{std} ({manifest})"));
    }
}

fn cmake_build(repo: &Repo, out: &mut Findings, list: &RelPath) {
    let dir = list.parent();
    let text = repo.read(list).unwrap_or_default();
    let minimum = CMAKE_MINIMUM.captures(&text).map(|c| c[1].to_string());
    let role = toolchain(repo, out, list);
    if role == Role::Skip {
        return;
    }
    out.package_manager("cmake", minimum, pm_path(dir), Evidence::file(list));
    standard_note(out, list, &text);
    for manager in [rel!("vcpkg.json"), rel!("conanfile.txt"), rel!("conanfile.py")] {
        if repo.exists(dir.join(manager)) {
            out.note(format!("C/C++ dependencies declared in {}", dir.join(manager)));
        }
    }
    if role == Role::Driven {
        return;
    }
    let source = quote(pm_path(dir));
    let build = quote(&dir.join(rel!("build")));
    out.step(
        Phase::Build,
        format!("cmake -S {source} -B {build} && cmake --build {build} --parallel"),
        Evidence::file(list),
    );
    let tested = repo
        .named("CMakeLists.txt")
        .into_iter()
        .filter(|p| p.parent().is_within(dir) && is_project_path(p))
        .take(300)
        .find_map(|p| {
            let t = repo.read_once(p)?;
            let m = CMAKE_TESTS.find(&t)?;
            Some(source_at(p, &t, m.as_str()))
        });
    if let Some(source) = tested {
        out.test(format!("ctest --test-dir {build} --output-on-failure"), source);
    }
}

fn meson_build(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let text = repo.read(manifest).unwrap_or_default();
    let minimum = MESON_VERSION.captures(&text).and_then(|c| version::floor(&c[1]));
    let role = toolchain(repo, out, manifest);
    if role == Role::Skip {
        return;
    }
    out.package_manager("meson", minimum, pm_path(dir), Evidence::file(manifest));
    standard_note(out, manifest, &text);
    if role == Role::Driven {
        return;
    }
    // `meson setup` refuses a directory it configured already: only the first run sets up.
    out.step_in(
        dir,
        Phase::Build,
        "(test -d build || meson setup build) && meson compile -C build",
        Evidence::file(manifest),
    );
    out.test(in_dir(dir, "meson test -C build"), Evidence::file(manifest));
}

fn make_build(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let exists = |name: &RelPath| repo.exists(dir.join(name));
    let autotools = exists(rel!("configure.ac")) || exists(rel!("configure.in"));
    let makefile = [rel!("GNUmakefile"), rel!("Makefile"), rel!("makefile")]
        .map(|n| dir.join(n))
        .into_iter()
        .find(|p| repo.exists(p));
    let compiles_c =
        makefile.as_deref().and_then(|m| read_existing(repo, m)).is_some_and(|t| MAKE_COMPILES_C.is_match(&t));
    // Under another ecosystem's manifest a Makefile is that project's task runner.
    if !(autotools || compiles_c || exists(rel!("configure")))
        || !has_c_sources(repo, dir)
        || driver(repo, dir).is_some()
    {
        return;
    }
    let evidence = makefile.as_deref().unwrap_or(manifest);
    if toolchain(repo, out, evidence) != Role::Run {
        return;
    }
    out.package_manager("make", None, pm_path(dir), Evidence::file(evidence));
    let cmd = if exists(rel!("configure")) {
        "./configure && make"
    } else if autotools {
        "autoreconf -fi && ./configure && make"
    } else {
        "make"
    };
    out.step_in(dir, Phase::Build, cmd, Evidence::file(manifest));
    // Automake's test target; a hand-written Makefile's targets are the tasks detector's.
    let automake = dir.join(rel!("Makefile.am"));
    if let Some(text) = read_existing(repo, &automake).filter(|t| t.contains("TESTS")) {
        out.test(in_dir(dir, "make check"), source_at(&automake, &text, "TESTS"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    #[test]
    fn cmake_with_ctest_and_vendored_subprojects() {
        let s = scan(
            &Cpp,
            &[
                (
                    "CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.20...3.28)\nproject(x CXX)\nset(CMAKE_CXX_STANDARD 20)\nadd_subdirectory(tests)\n",
                ),
                ("tests/CMakeLists.txt", "enable_testing()\nadd_test(NAME t COMMAND t)\n"),
                ("src/main.cpp", "int main(){}"),
                ("third_party/zlib/CMakeLists.txt", ""),
                ("Makefile", "all:\n\tcmake --build build\n"),
            ],
        );
        assert_eq!(s.toolchain("cpp"), Some((None, "CMakeLists.txt")));
        assert_eq!(s.findings.package_managers[0].version.as_deref(), Some("3.20"));
        assert_eq!(s.managers(), vec![("cmake", ".")]);
        assert_eq!(s.steps(), vec!["cmake -S . -B build && cmake --build build --parallel"]);
        assert_eq!(s.tests(), vec!["ctest --test-dir build --output-on-failure"]);
        assert!(s.findings.notes.iter().any(|n| n.starts_with("C++20")));
    }

    #[test]
    fn meson_wins_over_cmake_in_one_folder() {
        let s = scan(&Cpp, &[("CMakeLists.txt", ""), ("meson.build", "project('x', 'c')"), ("x.c", "")]);
        assert_eq!(s.managers(), vec![("meson", ".")]);
    }

    #[test]
    fn meson_in_a_subdirectory() {
        let s = scan(&Cpp, &[("lib/meson.build", "project('x', 'c', meson_version: '>=0.63.0')"), ("lib/x.c", "")]);
        assert_eq!(s.findings.package_managers[0].version.as_deref(), Some("0.63.0"));
        assert_eq!(s.steps(), vec!["(cd lib && (test -d build || meson setup build) && meson compile -C build)"]);
        assert_eq!(s.tests(), vec!["(cd lib && meson test -C build)"]);
    }

    #[test]
    fn a_makefile_is_c_only_when_it_compiles_c_sources() {
        let c = scan(&Cpp, &[("Makefile", "CFLAGS=-O2\nprog: prog.o\n\t$(CC) -o $@ $^\n"), ("prog.c", "")]);
        assert_eq!(c.managers(), vec![("make", ".")]);
        assert_eq!(c.steps(), vec!["make"]);

        let go = scan(&Cpp, &[("Makefile", "test:\n\tgo test ./...\n"), ("main.go", "")]);
        assert!(go.findings.toolchains.is_empty() && go.steps().is_empty());

        let docs = scan(&Cpp, &[("Makefile", "CFLAGS=-O2\n"), ("README.md", "")]);
        assert!(docs.findings.toolchains.is_empty());

        let cgo = scan(&Cpp, &[("Makefile", "build:\n\tgcc -c x.c\n"), ("x.c", ""), ("go.mod", "module x")]);
        assert!(cgo.findings.toolchains.is_empty() && cgo.findings.notes.is_empty());

        let auto = scan(&Cpp, &[("configure.ac", "AC_INIT"), ("Makefile.am", "TESTS = t1\n"), ("src/a.c", "")]);
        assert_eq!(auto.steps(), vec!["autoreconf -fi && ./configure && make"]);
        assert_eq!(auto.tests(), vec!["make check"]);

        let flutter = scan(&Cpp, &[("pubspec.yaml", ""), ("linux/CMakeLists.txt", ""), ("linux/main.cc", "")]);
        assert!(flutter.findings.toolchains.is_empty() && flutter.steps().is_empty());
    }

    #[test]
    fn c_inside_a_python_or_rust_project_is_built_by_it() {
        let s = scan(
            &Cpp,
            &[("pyproject.toml", "[build-system]"), ("CMakeLists.txt", "project(ext)"), ("src/ext.cpp", "")],
        );
        assert_eq!(s.toolchain("cpp"), Some((None, "CMakeLists.txt")));
        assert!(s.steps().is_empty());
        assert!(s.findings.notes.iter().any(|n| n.contains("compiled by pyproject.toml")));

        let swift = scan(
            &Cpp,
            &[("Package.swift", ""), ("CMakeLists.txt", "project(x LANGUAGES Swift)"), ("Sources/x.swift", "")],
        );
        assert!(swift.findings.toolchains.is_empty() && swift.managers().is_empty() && swift.steps().is_empty());
    }
}
