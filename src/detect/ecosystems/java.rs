//! Java and Kotlin builds with Maven (`pom.xml`, `./mvnw`) and Gradle
//! (`build.gradle(.kts)`, `settings.gradle(.kts)`, `./gradlew`). A multi-module build is one
//! install at its root; the Java version is the JDK the build needs, not the bytecode target.

use crate::rel_path::RelPath;
use crate::rel_path::rel;
use crate::warning::Warning;
use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{native_shell_of, pm_path, projects, read_existing, source_at, version_file};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_project_path};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::detect::sources::xml::{Element, parse_xml};
use crate::evidence::Evidence;

mod env;

pub struct Java;

/// What Java declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "java",
    toolchains: &[Toolchain::new("java", "Java"), Toolchain::new("kotlin", "Kotlin")],
    package_managers: &["maven", "gradle"],
    programs: &["mvn", "gradle", "java"],
    manifests: &["pom.xml", "build.gradle", "build.gradle.kts"],
    aliases: &[
        Alias::action_with_files("actions/setup-java", "java", &["java-version"], &["java-version-file"]),
        Alias::image("openjdk", "java"),
        Alias::image("eclipse-temurin", "java"),
        Alias::image("amazoncorretto", "java"),
        Alias::devcontainer_image("java", "java"),
        Alias::feature("java", "java"),
        Alias::feature("kotlin", "kotlin"),
        Alias::nix("jdk", "java"),
        Alias::nix("openjdk", "java"),
        Alias::nix("temurin-bin", "java"),
        Alias::nix("zulu", "java"),
        Alias::nix("kotlin", "kotlin"),
        Alias::tool("java", "java"),
        Alias::tool("kotlin", "kotlin"),
        Alias::package_manager_tool("maven", "maven"),
        Alias::package_manager_tool("gradle", "gradle"),
    ],
    setup_steps: &[
        SetupStep::new("java", "actions/setup-java@v4", "java-version").fixed(&[("distribution", "temurin")])
    ],
    devcontainer_features: &[("java", "ghcr.io/devcontainers/features/java:1")],
    test_commands: &[
        r"(?:\./)?mvnw?(?-u:\b)[^;&|]*?[[:space:]](?:test|verify|integration-test|package|install)(?-u:\b)",
        r"(?:\./)?gradlew?(?-u:\b)[^;&|]*?[[:space:]](?:[[:word:]:\-]*[Tt]est[[:word:]]*|check|build)(?-u:\b)",
    ],
    source_extensions: &["java", "kt", "kts", "groovy"],
    install_programs: &["./gradlew", "./mvnw", "gradle", "mvn"],
    publish_commands: &[("mvn", "deploy")],
    skipped_dirs: &["target", ".gradle"],
    ..Declaration::new(&Java)
};

impl Ecosystem for Java {
    fn is_settings_file(&self, dir: &str, name: &str) -> bool {
        env::is_spring_config(dir, name) || env::is_hocon_config(name)
    }
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        env::reads(rel, text)
    }
    fn env_reads_in(&self, sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        let spring_config = env::is_spring_config(rel.parent(), rel.file_name());
        // A Rails app's `config/application.yml` is no Spring file: a JVM build or the JVM's
        // source layout (`src/main/resources`) makes one.
        if spring_config
            && !env::is_in_main_resources(rel.parent().as_str())
            && JVM_BUILDS.iter().all(|build| sources.repo().named(build).is_empty())
        {
            return Vec::new();
        }
        if spring_config && env::is_translated_bundle(sources.repo(), rel) {
            return Vec::new();
        }
        let microprofile = spring_config && env::built_with_microprofile(sources.repo(), rel);
        env::reads_built(rel, text, microprofile)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

/// Whether `name` is a Gradle build script (`build.gradle`, `settings.gradle.kts`): it signs
/// and publishes artifacts with credentials of its own, never the app's.
pub fn is_gradle_build_script(name: &str) -> bool {
    name.starts_with("build.gradle") || name.starts_with("settings.gradle")
}

/// The files that make a directory a JVM build, Maven's and Gradle's.
const JVM_BUILDS: &[&str] = &["pom.xml", "settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle"];

fn detect(repo: &Repo, out: &mut Findings) {
    // Maven and Gradle builds together: a build inside another JVM build's directory is part
    // of it or an auxiliary one (a Gradle repo's `maven-tests/` consumer check), not a project.
    for build in projects(repo, JVM_BUILDS) {
        let dir = build.parent();
        let has_pom = repo.exists(dir.join(rel!("pom.xml")));
        let has_gradle =
            [rel!("settings.gradle.kts"), rel!("settings.gradle"), rel!("build.gradle.kts"), rel!("build.gradle")]
                .map(|n| dir.join(n))
                .into_iter()
                .find(|path| repo.exists(path));
        // Both in one folder: Maven, unless only Gradle comes with its wrapper.
        let gradle_wins = repo.exists(dir.join(rel!("gradlew"))) && !has_maven_wrapper(repo, dir);
        // Clojure and Scala libraries keep a pom.xml for publishing; their own tool builds them.
        let has_pom = has_pom
            && ![rel!("deps.edn"), rel!("project.clj"), rel!("build.sbt")].iter().any(|n| repo.exists(dir.join(n)));
        match (has_pom, has_gradle) {
            (true, Some(gradle_build)) if gradle_wins => gradle(repo, out, &gradle_build),
            (true, gradle_build) => {
                maven(repo, out, &dir.join(rel!("pom.xml")));
                // Both wrappers: the project keeps both builds working; Maven installs, and
                // Gradle is named for the commands that use it.
                if gradle_build.is_some() && repo.exists(dir.join(rel!("gradlew"))) {
                    let version = gradle_wrapper_version(repo, dir);
                    let source =
                        if version.is_some() { dir.join(GRADLE_WRAPPER_PROPERTIES) } else { dir.join(rel!("gradlew")) };
                    out.package_manager("gradle", version, pm_path(dir), Evidence::file(source));
                }
            }
            (false, Some(gradle_build)) => gradle(repo, out, &gradle_build),
            (false, None) => {}
        }
    }
}

/// The JDK pinned by `.java-version` or `.sdkmanrc` (`java=17.0.9-tem`).
fn java_version_file(repo: &Repo, dir: &RelPath) -> Option<(String, Evidence)> {
    if let Some(found) = version_file(repo, dir, rel!(".java-version")) {
        return Some((normalize_java(&found.0), found.1));
    }
    for path in [dir.join(rel!(".sdkmanrc")), rel!(".sdkmanrc").to_owned()] {
        if let Some(text) = read_existing(repo, &path) {
            let line = text.lines().find_map(|l| l.trim().strip_prefix("java="));
            if let Some(v) = line.and_then(version::first) {
                return Some((normalize_java(&v), Evidence::key(&path, "java")));
            }
        }
    }
    None
}

/// `1.8` → `8` (the old naming); anything else as is.
fn normalize_java(v: &str) -> String {
    match v.strip_prefix("1.") {
        Some(rest) if !rest.is_empty() && !v.starts_with("1.0") => rest.to_string(),
        _ => v.to_string(),
    }
}

fn has_maven_wrapper(repo: &Repo, dir: &RelPath) -> bool {
    repo.exists(dir.join(rel!("mvnw"))) && repo.under(&dir.join(rel!(".mvn/wrapper"))).next().is_some()
}

// ---------------------------------------------------------------------------------- Maven

fn maven(repo: &Repo, out: &mut Findings, pom: &RelPath) {
    let dir = pom.parent();
    let project = repo.read(pom).and_then(|text| {
        parse_xml(&text)
            .map_err(|e| repo.warn(Warning::in_file(pom, format!("invalid XML, {e}; assuming a plain Maven build"))))
            .ok()
    });
    let project = project.unwrap_or_default();

    let wrapper = has_maven_wrapper(repo, dir);
    let wrapper_props = dir.join(rel!(".mvn/wrapper/maven-wrapper.properties"));
    let maven_version = wrapper.then(|| read_existing(repo, &wrapper_props)).flatten().and_then(|text| {
        static DIST: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"apache-maven/([0-9]+(?:\.[0-9]+)*)/").expect("regex"));
        DIST.captures(&text).map(|c| c[1].to_string())
    });

    let java = java_version_file(repo, dir).or_else(|| {
        maven_java_version(&project, pom).or_else(|| {
            // A parent POM that pins nothing: the modules may.
            module_poms(repo, pom)
                .into_iter()
                .take(200)
                .filter_map(|p| {
                    repo.read_once(p).and_then(|t| parse_xml(&t).ok()).and_then(|m| maven_java_version(&m, p))
                })
                .max_by(|a, b| version::cmp(&a.0, &b.0))
        })
    });
    match java {
        Some((version, source)) => out.toolchain("java", Some(version), source),
        None => out.toolchain("java", None, Evidence::file(pom)),
    }
    if let Some(kotlin) = find_plugin(&project, "kotlin-maven-plugin") {
        let props = Properties(&project);
        let version = kotlin.text_at(&["version"]).map(|v| props.resolve(v)).or_else(|| props.get("kotlin.version"));
        out.toolchain("kotlin", version.filter(|v| !v.contains("${")), Evidence::key(pom, "kotlin-maven-plugin"));
    }

    // The frontend-maven-plugin downloads the Node it builds the web app with: a pin.
    if let Some(frontend) = find_plugin(&project, "frontend-maven-plugin") {
        let props = Properties(&project);
        let pinned =
            frontend.descendants("nodeVersion").into_iter().find_map(|v| v.text_at(&[]).map(|t| props.resolve(t)));
        if let Some(v) = pinned.and_then(|v| version::numeric_pin(v.trim().trim_start_matches('v'))) {
            out.toolchain("node", Some(v), Evidence::key(pom, "frontend-maven-plugin.nodeVersion"));
        }
    }
    out.package_manager(
        "maven",
        maven_version.clone(),
        pm_path(dir),
        Evidence::file(if wrapper { wrapper_props } else { pom.into() }),
    );
    // `-ntp` (no transfer progress) needs Maven 3.6.1.
    let quiet = match &maven_version {
        Some(v) if version::cmp(v, "3.6.1").is_lt() => "-B",
        _ => "-B -ntp",
    };
    let mvn = if wrapper { "./mvnw" } else { "mvn" };
    // `install` rather than `dependency:go-offline`: in a reactor, go-offline tries to download
    // the sibling modules and fails; install builds them into ~/.m2 so any module can be tested alone.
    out.step_in(dir, Phase::Install, format!("{mvn} {quiet} install -DskipTests"), Evidence::file(pom));
    out.test(in_dir(dir, &format!("{mvn} {quiet} test")), Evidence::file(pom));
    let modules = module_poms(repo, pom).len();
    if modules > 0 {
        out.note(format!("Maven multi-module build at {} ({modules} modules, one install at the root)", pm_path(dir)));
    }
}

/// The POMs below `pom`'s folder: its modules (and theirs).
fn module_poms<'r>(repo: &'r Repo, pom: &RelPath) -> Vec<&'r RelPath> {
    let dir = pom.parent();
    repo.named("pom.xml").into_iter().filter(|p| *p != pom && p.parent().is_within(dir) && is_project_path(p)).collect()
}

/// The JDK a POM needs: the enforcer's `requireJavaVersion` floor, the toolchains plugin,
/// then the compiler level (`maven.compiler.release`, `java.version`, …), then the Spring Boot
/// parent's baseline. The compiler level is only a target, so the enforcer range wins.
fn maven_java_version(project: &Element, pom: &RelPath) -> Option<(String, Evidence)> {
    let props = Properties(project);
    let floor = |raw: &str| version::floor(&props.resolve(raw)).map(|v| normalize_java(&v));
    if let Some(v) = find_plugin(project, "maven-enforcer-plugin")
        .into_iter()
        .flat_map(|p| p.descendants("requireJavaVersion"))
        .find_map(|rule| rule.text_at(&["version"]).and_then(floor))
    {
        return Some((v, Evidence::key(pom, "maven-enforcer-plugin.requireJavaVersion")));
    }
    if let Some(v) = find_plugin(project, "maven-toolchains-plugin")
        .into_iter()
        .flat_map(|p| p.descendants("jdk"))
        .find_map(|jdk| jdk.text_at(&["version"]).and_then(floor))
    {
        return Some((v, Evidence::key(pom, "maven-toolchains-plugin.jdk")));
    }
    for key in ["maven.compiler.release", "java.version", "maven.compiler.source", "maven.compiler.target"] {
        if let Some(v) = props.get(key).as_deref().and_then(floor) {
            return Some((v, Evidence::key(pom, format!("properties.{key}"))));
        }
    }
    if let Some(config) = find_plugin(project, "maven-compiler-plugin").and_then(|p| p.child("configuration")) {
        for key in ["release", "source"] {
            if let Some(v) = config.text_at(&[key]).and_then(floor) {
                return Some((v, Evidence::key(pom, format!("maven-compiler-plugin.{key}"))));
            }
        }
    }
    let parent = project.child("parent")?;
    if parent.text_at(&["artifactId"]) == Some("spring-boot-starter-parent") {
        let boot = parent.text_at(&["version"])?;
        let java = if version::cmp(boot, "3").is_ge() { "17" } else { "8" };
        return Some((java.into(), Evidence::key(pom, "parent.spring-boot-starter-parent")));
    }
    None
}

/// The plugin with `artifact_id` in `<build><plugins>` or `<build><pluginManagement>`
/// (profiles are left out: they are variations, not the build).
fn find_plugin<'a>(project: &'a Element, artifact_id: &str) -> Option<&'a Element> {
    let build = project.child("build")?;
    let managed = build.at(&["pluginManagement", "plugins"]);
    [build.child("plugins"), managed]
        .into_iter()
        .flatten()
        .flat_map(|plugins| plugins.children_named("plugin"))
        .find(|p| p.text_at(&["artifactId"]) == Some(artifact_id))
}

/// A POM's `<properties>`, with `${…}` references resolved among themselves.
struct Properties<'a>(&'a Element);

impl Properties<'_> {
    fn get(&self, key: &str) -> Option<String> {
        let raw = self.0.at(&["properties", key]).map(|e| e.text.as_str()).filter(|t| !t.is_empty())?;
        Some(self.resolve(raw))
    }

    fn resolve(&self, raw: &str) -> String {
        let mut text = raw.to_string();
        for _ in 0..5 {
            let Some(start) = text.find("${") else { break };
            let Some(len) = text[start..].find('}') else { break };
            let key = &text[start + 2..start + len];
            let Some(value) = self.0.at(&["properties", key]).map(|e| e.text.clone()).filter(|t| !t.is_empty()) else {
                break;
            };
            text.replace_range(start..start + len + 1, &value);
        }
        text
    }
}

// ---------------------------------------------------------------------------------- Gradle

static TOOLCHAIN_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"JavaLanguageVersion[[:space:]]*\.[[:space:]]*of\([[:space:]]*["']?([0-9]+)|jvmToolchain\([[:space:]]*([0-9]+)[[:space:]]*\)|(?m)^[[:space:]]*toolchainVersion[[:space:]]*=[[:space:]]*([0-9]+)"#)
        .expect("regex")
});
static COMPATIBILITY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:source|target)Compatibility[[:space:]]*=[[:space:]]*(?:JavaVersion[[:space:]]*\.[[:space:]]*VERSION_|JavaVersion\.toVersion\([[:space:]]*)?["']?(1[._]8|[0-9]+)|JvmTarget\.JVM_(1_8|[0-9]+)|jvmTarget[[:space:]]*=[[:space:]]*["'](1\.8|[0-9]+)["']"#,
    )
    .expect("regex")
});
/// `java = "17"`, `jdk = "21"`, `javaVersion=17` in a version catalog or gradle.properties.
static JAVA_SETTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?m)^[[:space:]]*(?:java|jdk|jvm)(?:[._-]?[Vv]ersion)?[[:space:]]*=[[:space:]]*["']?([0-9]+)["']?[[:space:]]*$"#).expect("regex")
});
static KOTLIN_PLUGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"kotlin\([[:space:]]*"(?:jvm|android|multiplatform|js)"[[:space:]]*\)|org\.jetbrains\.kotlin\.(?:jvm|android|multiplatform|js)|["']kotlin-android["']|id[[:space:]]*\(?[[:space:]]*["']kotlin["']|apply[[:space:]]+plugin:[[:space:]]*["']kotlin|libs\.plugins\.kotlin"#,
    )
    .expect("regex")
});
static KOTLIN_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:kotlin\([[:space:]]*"[a-z.]+"[[:space:]]*\)|org\.jetbrains\.kotlin\.[a-z.]+["'][[:space:]]*\)?)[[:space:]]*version[[:space:]]*["']([0-9]+\.[0-9]+[[:word:].-]*)["']|(?m)^[[:space:]]*(?:ext\.)?kotlin[_-]?[Vv]ersion[[:space:]]*=[[:space:]]*["']?([0-9]+\.[0-9]+[[:word:].-]*)|(?m)^[[:space:]]*kotlin[[:space:]]*=[[:space:]]*["']([0-9]+\.[0-9]+[[:word:].-]*)["']"#,
    )
    .expect("regex")
});
static ANDROID_PLUGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"com\.android\.(?:application|library|test|dynamic-feature)|libs\.plugins\.android\.(?:application|library)"#,
    )
    .expect("regex")
});
/// A plain JVM module (it has a `testClasses` task): the java/application plugins, Kotlin/JVM,
/// Spring Boot.
static JVM_PLUGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"id[[:space:]]*\(?[[:space:]]*["'](?:java|java-library|application|org\.jetbrains\.kotlin\.jvm|org\.springframework\.boot)["']|apply[[:space:]]*\(?[[:space:]]*plugin[[:space:]]*[:=][[:space:]]*["'](?:java|java-library|application|org\.jetbrains\.kotlin\.jvm)["']|`java-library`|kotlin\([[:space:]]*"jvm"[[:space:]]*\)|libs\.plugins\.kotlin\.jvm|(?m)^[[:space:]]*(?:java|application)[[:space:]]*$"#,
    )
    .expect("regex")
});
/// The Kotlin Multiplatform plugin (by id, not any mention: a BOM lists `-kotlinMultiplatform`
/// artifacts).
static MULTIPLATFORM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"kotlin\([[:space:]]*"multiplatform"[[:space:]]*\)|["']org\.jetbrains\.kotlin\.multiplatform["']|libs\.plugins\.kotlin[.-]?[Mm]ultiplatform"#).expect("regex")
});

const GRADLE_WRAPPER_PROPERTIES: &RelPath = rel!("gradle/wrapper/gradle-wrapper.properties");

/// The Gradle version the wrapper of `dir` downloads.
fn gradle_wrapper_version(repo: &Repo, dir: &RelPath) -> Option<String> {
    static DIST: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"gradle-([0-9]+(?:\.[0-9]+)*)-(?:bin|all)\.zip").expect("regex"));
    let text = read_existing(repo, &dir.join(GRADLE_WRAPPER_PROPERTIES))?;
    DIST.captures(&text).map(|c| c[1].to_string())
}

fn gradle(repo: &Repo, out: &mut Findings, build: &RelPath) {
    let dir = build.parent();
    // Built by the Flutter/React Native app it belongs to.
    if native_shell_of(repo, build).is_some() {
        return;
    }

    let wrapper = repo.exists(dir.join(rel!("gradlew")));
    // Real Gradle projects carry their wrapper; a bare build script in a sub-folder of some
    // other project (a C++ library's `support/build.gradle`) is an extra, not the project.
    if !wrapper && !dir.is_empty() {
        out.note(format!("{build}: a Gradle build without a wrapper in a sub-folder, left out of install"));
        return;
    }
    let wrapper_props = dir.join(GRADLE_WRAPPER_PROPERTIES);
    let gradle_version = gradle_wrapper_version(repo, dir);

    // Every build script of the build (modules, buildSrc, included convention builds) and the
    // places versions are kept.
    let mut scripts: Vec<&RelPath> = repo
        .under(dir)
        .filter(|f| (f.name().ends_with(".gradle") || f.name().ends_with(".gradle.kts")) && f.is_project_path())
        .take(400)
        .map(|f| f.path())
        .collect();
    let settings_files = [dir.join(rel!("gradle.properties")), dir.join(rel!("gradle/libs.versions.toml"))];
    let daemon_jvm = dir.join(rel!("gradle/gradle-daemon-jvm.properties"));
    scripts.sort_by_key(|p| (p.depth(), *p));

    let mut toolchain: Option<(String, Evidence)> = None;
    let mut compatibility: Option<(String, Evidence)> = None;
    let mut kotlin: Option<&RelPath> = None;
    let mut kotlin_version: Option<(String, Evidence)> = None;
    let mut android = false;
    let mut multiplatform = false;
    let mut jvm_modules = false;
    let keep_max = |slot: &mut Option<(String, Evidence)>, version: String, source: Evidence| {
        if slot.as_ref().is_none_or(|(v, _)| version::cmp(&version, v).is_gt()) {
            *slot = Some((version, source));
        }
    };
    for path in scripts.iter().copied().chain([daemon_jvm.as_rel_path()]) {
        let Some(text) = repo.exists(path).then(|| repo.read_once(path)).flatten() else { continue };
        for caps in TOOLCHAIN_OF.captures_iter(&text) {
            // `javaToolchains.launcherFor { … }` picks a JDK for one task (a GraalVM native
            // image, a test matrix), not the one the build runs on.
            let start = caps.get(0).map_or(0, |m| m.start());
            let before = &text[text.floor_char_boundary(start.saturating_sub(160))..start];
            if ["launcherFor", "compilerFor", "javadocToolFor"].iter().any(|t| before.contains(t)) {
                continue;
            }
            if let Some(m) = caps.iter().skip(1).flatten().next() {
                keep_max(&mut toolchain, m.as_str().to_string(), source_at(path, &text, caps[0].trim()));
            }
        }
        for caps in COMPATIBILITY.captures_iter(&text) {
            if let Some(m) = caps.iter().skip(1).flatten().next() {
                let v = normalize_java(&m.as_str().replace('_', "."));
                keep_max(&mut compatibility, v, source_at(path, &text, caps[0].trim()));
            }
        }
        if kotlin.is_none() && KOTLIN_PLUGIN.is_match(&text) {
            kotlin = Some(path);
        }
        if kotlin_version.is_none()
            && let Some(v) = KOTLIN_VERSION.captures(&text).and_then(|c| c.iter().skip(1).flatten().next())
        {
            kotlin_version = Some((v.as_str().to_string(), Evidence::file(path)));
        }
        android |= ANDROID_PLUGIN.is_match(&text);
        multiplatform |= MULTIPLATFORM.is_match(&text);
        jvm_modules |= JVM_PLUGIN.is_match(&text);
    }
    for path in &settings_files {
        let Some(text) = read_existing(repo, path) else { continue };
        if toolchain.is_none()
            && let Some(c) = JAVA_SETTING.captures(&text)
        {
            toolchain = Some((c[1].to_string(), source_at(path, &text, c[0].trim())));
        }
        if kotlin_version.is_none()
            && let Some(v) = KOTLIN_VERSION.captures(&text).and_then(|c| c.iter().skip(1).flatten().next())
        {
            kotlin_version = Some((v.as_str().to_string(), source_at(path, &text, v.as_str())));
        }
    }

    let java = java_version_file(repo, dir).or(toolchain).or(compatibility);
    match java {
        Some((version, source)) => out.toolchain("java", Some(version), source),
        None => out.toolchain("java", None, Evidence::file(build)),
    }
    if let Some(script) = kotlin {
        match kotlin_version {
            Some((version, source)) => out.toolchain("kotlin", Some(version), source),
            None => out.toolchain("kotlin", None, Evidence::file(script)),
        }
    }
    out.package_manager(
        "gradle",
        gradle_version,
        pm_path(dir),
        Evidence::file(if repo.exists(&wrapper_props) { wrapper_props.clone() } else { build.to_owned() }),
    );

    let gradle = if wrapper { "./gradlew" } else { "gradle" };
    // `testClasses` compiles main and test code of JVM modules, fetching everything their tests
    // need; Android modules have `assembleDebug` (release builds may want a signing key), Kotlin
    // Multiplatform ones `assemble`. Gradle runs a named task in every module that has it.
    let task = match (android, jvm_modules, multiplatform) {
        (true, true, _) => "assembleDebug testClasses",
        (true, false, _) => "assembleDebug",
        (false, _, true) => "assemble",
        (false, _, false) => "testClasses",
    };
    let mut install = format!("{gradle} --no-daemon {task}");
    if wrapper && !is_executable(repo, &dir.join(rel!("gradlew"))) {
        install = format!("chmod +x gradlew && {install}");
    }
    out.step_in(dir, Phase::Install, &install, Evidence::file(build));
    out.test(in_dir(dir, &format!("{gradle} test")), Evidence::file(build));
    if android {
        out.note(format!("Android build at {}: needs the Android SDK (ANDROID_HOME)", pm_path(dir)));
    }
}

fn is_executable(repo: &Repo, rel: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(repo.root().join(rel)).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;

    const ENFORCED_POM: &str = r#"<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modules><module>core</module><module>extras</module></modules>
  <properties>
    <maven.compiler.release>8</maven.compiler.release>
    <jdk.floor>17</jdk.floor>
  </properties>
  <build><plugins>
    <plugin><artifactId>maven-enforcer-plugin</artifactId>
      <executions><execution><configuration><rules>
        <requireMavenVersion><version>[3.3.1,)</version></requireMavenVersion>
        <requireJavaVersion><version>[${jdk.floor},22)</version></requireJavaVersion>
      </rules></configuration></execution></executions>
    </plugin>
  </plugins></build>
</project>"#;

    #[test]
    fn maven_reactor_is_one_install_and_the_enforcer_floor_wins_over_the_release_target() {
        let s = scan(
            &Java,
            &[
                ("pom.xml", ENFORCED_POM),
                (
                    "core/pom.xml",
                    "<project><properties><maven.compiler.release>11</maven.compiler.release></properties></project>",
                ),
                ("extras/pom.xml", "<project/>"),
                ("core/src/it/smoke/pom.xml", "<project/>"),
                (".mvn/jvm.config", "-Xmx1g"),
            ],
        );
        assert_eq!(s.toolchain("java"), Some((Some("17"), "pom.xml#maven-enforcer-plugin.requireJavaVersion")));
        assert_eq!(s.managers(), vec![("maven", ".")]);
        assert_eq!(s.steps(), vec!["mvn -B -ntp install -DskipTests"]);
        assert_eq!(s.tests(), vec!["mvn -B -ntp test"]);
        assert!(s.findings.notes.iter().any(|n| n.contains("2 modules")), "{:?}", s.findings.notes);
    }

    #[test]
    fn maven_wrapper_and_compiler_release() {
        let s = scan(
            &Java,
            &[
                ("svc/pom.xml", "<project><properties><java.version>21</java.version></properties></project>"),
                ("svc/mvnw", "#!/bin/sh"),
                (
                    "svc/.mvn/wrapper/maven-wrapper.properties",
                    "distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.6/apache-maven-3.9.6-bin.zip",
                ),
            ],
        );
        assert_eq!(s.toolchain("java"), Some((Some("21"), "svc/pom.xml#properties.java.version")));
        assert_eq!(s.findings.package_managers[0].version.as_deref(), Some("3.9.6"));
        assert_eq!(s.steps(), vec!["(cd svc && ./mvnw -B -ntp install -DskipTests)"]);
    }

    #[test]
    fn the_node_the_frontend_plugin_downloads_is_pinned() {
        let pom = "<project><properties><node.version>v24.18.0</node.version></properties><build><plugins><plugin>\
                   <groupId>com.github.eirslett</groupId><artifactId>frontend-maven-plugin</artifactId>\
                   <configuration><nodeVersion>${node.version}</nodeVersion></configuration></plugin></plugins></build></project>";
        let s = scan(&Java, &[("pom.xml", pom)]);
        assert_eq!(s.toolchain("node"), Some((Some("24.18.0"), "pom.xml#frontend-maven-plugin.nodeVersion")));
    }

    #[test]
    fn malformed_pom_is_a_warning_and_still_a_maven_build() {
        let s = scan(&Java, &[("pom.xml", "<project><build></project>")]);
        assert!(s.warnings.iter().any(|w| w.starts_with("pom.xml: invalid XML")), "{:?}", s.warnings);
        assert_eq!(s.steps(), vec!["mvn -B -ntp install -DskipTests"]);
        assert_eq!(s.toolchain("java"), Some((None, "pom.xml")));
    }

    #[test]
    fn gradle_kotlin_multi_project_with_toolchain() {
        let s = scan(
            &Java,
            &[
                ("settings.gradle.kts", "rootProject.name = \"x\"\ninclude(\"app\", \"lib\")"),
                ("gradlew", "#!/bin/sh"),
                (
                    "gradle/wrapper/gradle-wrapper.properties",
                    "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.7-bin.zip",
                ),
                ("app/build.gradle.kts", "plugins { kotlin(\"jvm\") version \"1.9.23\" }\nkotlin { jvmToolchain(17) }"),
                (
                    "lib/build.gradle.kts",
                    "java {\n  toolchain {\n    languageVersion = JavaLanguageVersion.of(21)\n  }\n}",
                ),
                ("samples/demo/build.gradle", "apply plugin: 'java'"),
            ],
        );
        assert_eq!(s.toolchain("java"), Some((Some("21"), "lib/build.gradle.kts:3")));
        assert_eq!(s.toolchain("kotlin"), Some((Some("1.9.23"), "app/build.gradle.kts")));
        assert_eq!(s.managers(), vec![("gradle", ".")]);
        assert_eq!(s.findings.package_managers[0].version.as_deref(), Some("8.7"));
        assert_eq!(s.steps(), vec!["chmod +x gradlew && ./gradlew --no-daemon testClasses"]);
        assert_eq!(s.tests(), vec!["./gradlew test"]);
    }

    #[test]
    fn gradle_android_subdir_and_flutter_shell() {
        let s = scan(
            &Java,
            &[
                ("android/settings.gradle", "include ':app'"),
                ("android/gradlew", "#!/bin/sh"),
                (
                    "android/app/build.gradle",
                    "apply plugin: 'com.android.application'\nsourceCompatibility = JavaVersion.VERSION_1_8",
                ),
            ],
        );
        assert_eq!(s.steps(), vec!["(cd android && chmod +x gradlew && ./gradlew --no-daemon assembleDebug)"]);
        assert_eq!(s.toolchain("java"), Some((Some("8"), "android/app/build.gradle:2")));

        let flutter = scan(
            &Java,
            &[("pubspec.yaml", "name: app"), ("android/settings.gradle", ""), ("android/app/build.gradle", "")],
        );
        assert!(flutter.steps().is_empty());
        assert!(flutter.findings.toolchains.is_empty());

        // A Gradle backend beside a tooling package.json is a project.
        let backend = scan(&Java, &[("package.json", "{}"), ("backend/build.gradle", ""), ("backend/gradlew", "")]);
        assert_eq!(backend.managers(), vec![("gradle", "backend")]);
    }

    #[test]
    fn one_jvm_build_per_tree() {
        // Both builds with wrappers in one folder: Maven installs; a Maven check inside a Gradle build
        // and a wrapper-less Gradle script in a sub-folder are not projects.
        let both = scan(
            &Java,
            &[
                ("pom.xml", "<project/>"),
                ("mvnw", ""),
                (".mvn/wrapper/maven-wrapper.properties", ""),
                ("build.gradle", ""),
                ("gradlew", ""),
            ],
        );
        // Gradle is named beside Maven: the project keeps both builds working.
        assert_eq!(both.managers(), vec![("maven", "."), ("gradle", ".")]);
        let nested = scan(
            &Java,
            &[
                ("settings.gradle.kts", ""),
                ("gradlew", ""),
                ("maven-tests/pom.xml", "<project/>"),
                (
                    "cli/build.gradle.kts",
                    "kotlin { jvmToolchain(21) }\nnativeImage { javaLauncher.set(javaToolchains.launcherFor {\n  languageVersion.set(JavaLanguageVersion.of(25))\n}) }",
                ),
            ],
        );
        assert_eq!(nested.managers(), vec![("gradle", ".")]);
        assert_eq!(nested.toolchain("java"), Some((Some("21"), "cli/build.gradle.kts:1")));
        let mixed = scan(
            &Java,
            &[
                ("settings.gradle.kts", ""),
                ("gradlew", ""),
                ("app/build.gradle.kts", "plugins {\n  id(\"com.android.application\")\n}"),
                ("core/build.gradle.kts", "plugins {\n  `java-library`\n}"),
            ],
        );
        assert_eq!(mixed.steps(), vec!["chmod +x gradlew && ./gradlew --no-daemon assembleDebug testClasses"]);
        let clojure = scan(&Java, &[("deps.edn", "{}"), ("pom.xml", "<project/>")]);
        assert!(clojure.managers().is_empty());
        let extra = scan(&Java, &[("CMakeLists.txt", ""), ("support/build.gradle", "apply plugin: 'java'")]);
        assert!(extra.steps().is_empty() && extra.findings.toolchains.is_empty());
    }

    #[test]
    fn version_files_pin_the_jdk() {
        let s = scan(
            &Java,
            &[("build.gradle", "sourceCompatibility = '11'"), (".sdkmanrc", "# sdkman\njava=17.0.9-tem\n")],
        );
        assert_eq!(s.toolchain("java"), Some((Some("17.0.9"), ".sdkmanrc#java")));
        let s = scan(&Java, &[("pom.xml", "<project/>"), (".java-version", "1.8\n")]);
        assert_eq!(s.toolchain("java"), Some((Some("8"), ".java-version")));
    }
}
