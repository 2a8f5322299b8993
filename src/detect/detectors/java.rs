//! Detector: Java and Kotlin builds with Maven (`pom.xml`, `./mvnw`) and Gradle
//! (`build.gradle(.kts)`, `settings.gradle(.kts)`, `./gradlew`). A multi-module build is one
//! install at its root; the Java version is the JDK the build needs, not the bytecode target.

use std::sync::LazyLock;

use regex::Regex;

use super::eco::{
    Element, cmp_versions, constraint_floor, first_version, in_dir, is_sample, is_within, join, native_shell_of,
    parse_xml, pm_path, projects, read_existing, source_at, version_file,
};
use crate::detect::repo::parent_dir;
use crate::detect::{Findings, Phase, Repo};

pub fn detect(repo: &Repo, out: &mut Findings) {
    // Maven and Gradle builds together: a build inside another JVM build's directory is part
    // of it or an auxiliary one (a Gradle repo's `maven-tests/` consumer check), not a project.
    for build in
        projects(repo, &["pom.xml", "settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle"])
    {
        let dir = parent_dir(build);
        let has_pom = repo.exists(&join(dir, "pom.xml"));
        let has_gradle = ["settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle"]
            .iter()
            .find(|n| repo.exists(&join(dir, n)))
            .map(|n| join(dir, n));
        // Both in one folder: Maven, unless only Gradle comes with its wrapper.
        let gradle_wins = repo.exists(&join(dir, "gradlew")) && !has_maven_wrapper(repo, dir);
        match (has_pom, has_gradle) {
            (true, Some(gradle_build)) if gradle_wins => gradle(repo, out, &gradle_build),
            (true, _) => maven(repo, out, &join(dir, "pom.xml")),
            (false, Some(gradle_build)) => gradle(repo, out, &gradle_build),
            (false, None) => {}
        }
    }
}

/// The JDK pinned by `.java-version` or `.sdkmanrc` (`java=17.0.9-tem`).
fn java_version_file(repo: &Repo, dir: &str) -> Option<(String, String)> {
    if let Some(found) = version_file(repo, dir, ".java-version") {
        return Some((normalize_java(&found.0), found.1));
    }
    for path in [join(dir, ".sdkmanrc"), ".sdkmanrc".to_string()] {
        if let Some(text) = read_existing(repo, &path) {
            let line = text.lines().find_map(|l| l.trim().strip_prefix("java="));
            if let Some(v) = line.and_then(first_version) {
                return Some((normalize_java(&v), format!("{path}#java")));
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

fn has_maven_wrapper(repo: &Repo, dir: &str) -> bool {
    repo.exists(&join(dir, "mvnw")) && repo.under(&join(dir, ".mvn/wrapper")).next().is_some()
}

// ---------------------------------------------------------------------------------- Maven

fn maven(repo: &Repo, out: &mut Findings, pom: &str) {
    let dir = parent_dir(pom);
    let project = repo.read(pom).and_then(|text| {
        parse_xml(&text).map_err(|e| repo.warn(format!("{pom}: invalid XML, {e}; assuming a plain Maven build"))).ok()
    });
    let project = project.unwrap_or_default();

    let wrapper = has_maven_wrapper(repo, dir);
    let wrapper_props = join(dir, ".mvn/wrapper/maven-wrapper.properties");
    let maven_version = wrapper.then(|| repo.read(&wrapper_props)).flatten().and_then(|text| {
        static DIST: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"apache-maven/(\d+(?:\.\d+)*)/").expect("regex"));
        DIST.captures(&text).map(|c| c[1].to_string())
    });

    let java = java_version_file(repo, dir).or_else(|| {
        maven_java_version(&project, pom).or_else(|| {
            // A parent POM that pins nothing: the modules may.
            repo.named("pom.xml")
                .into_iter()
                .filter(|p| *p != pom && is_within(parent_dir(p), dir) && !is_sample(p))
                .take(200)
                .filter_map(|p| repo.read(p).and_then(|t| parse_xml(&t).ok()).and_then(|m| maven_java_version(&m, p)))
                .max_by(|a, b| cmp_versions(&a.0, &b.0))
        })
    });
    match java {
        Some((version, source)) => out.toolchain("java", Some(version), source),
        None => out.toolchain("java", None, pom),
    }
    if let Some(kotlin) = find_plugin(&project, "kotlin-maven-plugin") {
        let props = Properties(&project);
        let version = kotlin.text_at(&["version"]).map(|v| props.resolve(v)).or_else(|| props.get("kotlin.version"));
        out.toolchain("kotlin", version.filter(|v| !v.contains("${")), format!("{pom}#kotlin-maven-plugin"));
    }

    out.package_manager("maven", maven_version.clone(), pm_path(dir), if wrapper { wrapper_props } else { pom.into() });
    // `-ntp` (no transfer progress) needs Maven 3.6.1.
    let quiet = match &maven_version {
        Some(v) if cmp_versions(v, "3.6.1").is_lt() => "-B",
        _ => "-B -ntp",
    };
    let mvn = if wrapper { "./mvnw" } else { "mvn" };
    // `install` rather than `dependency:go-offline`: in a reactor, go-offline tries to download
    // the sibling modules and fails; install builds them into ~/.m2 so any module can be tested alone.
    out.step(Phase::Install, in_dir(dir, &format!("{mvn} {quiet} install -DskipTests")), pom);
    out.test(in_dir(dir, &format!("{mvn} {quiet} test")), pom);
    let modules = repo
        .named("pom.xml")
        .into_iter()
        .filter(|p| *p != pom && is_within(parent_dir(p), dir) && !is_sample(p))
        .count();
    if modules > 0 {
        out.note(format!("Maven multi-module build at {} ({modules} modules, one install at the root)", pm_path(dir)));
    }
}

/// The JDK a POM needs: the enforcer's `requireJavaVersion` floor, the toolchains plugin,
/// then the compiler level (`maven.compiler.release`, `java.version`, …), then the Spring Boot
/// parent's baseline. The compiler level is only a target, so the enforcer range wins.
fn maven_java_version(project: &Element, pom: &str) -> Option<(String, String)> {
    let props = Properties(project);
    let floor = |raw: &str| constraint_floor(&props.resolve(raw)).map(|v| normalize_java(&v));
    if let Some(v) = find_plugin(project, "maven-enforcer-plugin")
        .into_iter()
        .flat_map(|p| p.descendants("requireJavaVersion"))
        .find_map(|rule| rule.text_at(&["version"]).and_then(floor))
    {
        return Some((v, format!("{pom}#maven-enforcer-plugin.requireJavaVersion")));
    }
    if let Some(v) = find_plugin(project, "maven-toolchains-plugin")
        .into_iter()
        .flat_map(|p| p.descendants("jdk"))
        .find_map(|jdk| jdk.text_at(&["version"]).and_then(floor))
    {
        return Some((v, format!("{pom}#maven-toolchains-plugin.jdk")));
    }
    for key in ["maven.compiler.release", "java.version", "maven.compiler.source", "maven.compiler.target"] {
        if let Some(v) = props.get(key).as_deref().and_then(floor) {
            return Some((v, format!("{pom}#properties.{key}")));
        }
    }
    if let Some(config) = find_plugin(project, "maven-compiler-plugin").and_then(|p| p.child("configuration")) {
        for key in ["release", "source"] {
            if let Some(v) = config.text_at(&[key]).and_then(floor) {
                return Some((v, format!("{pom}#maven-compiler-plugin.{key}")));
            }
        }
    }
    let parent = project.child("parent")?;
    if parent.text_at(&["artifactId"]) == Some("spring-boot-starter-parent") {
        let boot = parent.text_at(&["version"])?;
        let java = if cmp_versions(boot, "3").is_ge() { "17" } else { "8" };
        return Some((java.into(), format!("{pom}#parent.spring-boot-starter-parent")));
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
    Regex::new(r#"JavaLanguageVersion\s*\.\s*of\(\s*["']?(\d+)|jvmToolchain\(\s*(\d+)\s*\)|(?m)^\s*toolchainVersion\s*=\s*(\d+)"#)
        .expect("regex")
});
static COMPATIBILITY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:source|target)Compatibility\s*=\s*(?:JavaVersion\s*\.\s*VERSION_|JavaVersion\.toVersion\(\s*)?["']?(1[._]8|\d+)|JvmTarget\.JVM_(1_8|\d+)|jvmTarget\s*=\s*["'](1\.8|\d+)["']"#,
    )
    .expect("regex")
});
/// `java = "17"`, `jdk = "21"`, `javaVersion=17` in a version catalog or gradle.properties.
static JAVA_SETTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?m)^\s*(?:java|jdk|jvm)(?:[._-]?[Vv]ersion)?\s*=\s*["']?(\d+)["']?\s*$"#).expect("regex")
});
static KOTLIN_PLUGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"kotlin\(\s*"(?:jvm|android|multiplatform|js)"\s*\)|org\.jetbrains\.kotlin\.(?:jvm|android|multiplatform|js)|["']kotlin-android["']|id\s*\(?\s*["']kotlin["']|apply\s+plugin:\s*["']kotlin|libs\.plugins\.kotlin"#,
    )
    .expect("regex")
});
static KOTLIN_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:kotlin\(\s*"[a-z.]+"\s*\)|org\.jetbrains\.kotlin\.[a-z.]+["']\s*\)?)\s*version\s*["'](\d+\.\d+[\w.-]*)["']|(?m)^\s*(?:ext\.)?kotlin[_-]?[Vv]ersion\s*=\s*["']?(\d+\.\d+[\w.-]*)|(?m)^\s*kotlin\s*=\s*["'](\d+\.\d+[\w.-]*)["']"#,
    )
    .expect("regex")
});
static ANDROID_PLUGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"com\.android\.(?:application|library|test|dynamic-feature)|libs\.plugins\.android\.(?:application|library)"#,
    )
    .expect("regex")
});
static MULTIPLATFORM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"kotlin\(\s*"multiplatform"\s*\)|kotlin\.multiplatform|kotlinMultiplatform"#).expect("regex")
});

fn gradle(repo: &Repo, out: &mut Findings, build: &str) {
    let dir = parent_dir(build);
    // Built by the Flutter/React Native app it belongs to.
    if native_shell_of(repo, build).is_some() {
        return;
    }

    let wrapper = repo.exists(&join(dir, "gradlew"));
    // Real Gradle projects carry their wrapper; a bare build script in a sub-folder of some
    // other project (a C++ library's `support/build.gradle`) is an extra, not the project.
    if !wrapper && !dir.is_empty() {
        out.note(format!("{build}: a Gradle build without a wrapper in a sub-folder, left out of install"));
        return;
    }
    let wrapper_props = join(dir, "gradle/wrapper/gradle-wrapper.properties");
    let gradle_version = read_existing(repo, &wrapper_props).and_then(|text| {
        static DIST: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"gradle-(\d+(?:\.\d+)*)-(?:bin|all)\.zip").expect("regex"));
        DIST.captures(&text).map(|c| c[1].to_string())
    });

    // Every build script of the build (modules, buildSrc, included convention builds) and the
    // places versions are kept.
    let mut scripts: Vec<&str> = repo
        .under(dir)
        .filter(|p| {
            let name = crate::detect::repo::file_name(p);
            (name.ends_with(".gradle") || name.ends_with(".gradle.kts")) && !is_sample(p)
        })
        .take(400)
        .collect();
    let settings_files = [join(dir, "gradle.properties"), join(dir, "gradle/libs.versions.toml")];
    let daemon_jvm = join(dir, "gradle/gradle-daemon-jvm.properties");
    scripts.sort_by_key(|p| (p.matches('/').count(), *p));

    let mut toolchain: Option<(String, String)> = None;
    let mut compatibility: Option<(String, String)> = None;
    let mut kotlin: Option<String> = None;
    let mut kotlin_version: Option<(String, String)> = None;
    let mut android = false;
    let mut multiplatform = false;
    let keep_max = |slot: &mut Option<(String, String)>, version: String, source: String| {
        if slot.as_ref().is_none_or(|(v, _)| cmp_versions(&version, v).is_gt()) {
            *slot = Some((version, source));
        }
    };
    for path in scripts.iter().copied().chain([daemon_jvm.as_str()]) {
        let Some(text) = read_existing(repo, path) else { continue };
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
            kotlin = Some(path.to_string());
        }
        if kotlin_version.is_none()
            && let Some(v) = KOTLIN_VERSION.captures(&text).and_then(|c| c.iter().skip(1).flatten().next())
        {
            kotlin_version = Some((v.as_str().to_string(), path.to_string()));
        }
        android |= ANDROID_PLUGIN.is_match(&text);
        multiplatform |= MULTIPLATFORM.is_match(&text);
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
        None => out.toolchain("java", None, build),
    }
    if let Some(script) = kotlin {
        match kotlin_version {
            Some((version, source)) => out.toolchain("kotlin", Some(version), source),
            None => out.toolchain("kotlin", None, script),
        }
    }
    out.package_manager(
        "gradle",
        gradle_version,
        pm_path(dir),
        if repo.exists(&wrapper_props) { wrapper_props.clone() } else { build.to_string() },
    );

    let gradle = if wrapper { "./gradlew" } else { "gradle" };
    // `testClasses` compiles main and test code, fetching everything the tests need; Android
    // and Kotlin Multiplatform modules have no such task, `assemble` is their equivalent.
    let task = if android || multiplatform { "assemble" } else { "testClasses" };
    let mut install = format!("{gradle} --no-daemon {task}");
    if wrapper && !is_executable(repo, &join(dir, "gradlew")) {
        install = format!("chmod +x gradlew && {install}");
    }
    out.step(Phase::Install, in_dir(dir, &install), build);
    out.test(in_dir(dir, &format!("{gradle} test")), build);
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
    use super::super::eco::testing::scan;
    use super::*;

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
            detect,
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
            detect,
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
    fn malformed_pom_is_a_warning_and_still_a_maven_build() {
        let s = scan(detect, &[("pom.xml", "<project><build></project>")]);
        assert!(s.warnings.iter().any(|w| w.starts_with("pom.xml: invalid XML")), "{:?}", s.warnings);
        assert_eq!(s.steps(), vec!["mvn -B -ntp install -DskipTests"]);
        assert_eq!(s.toolchain("java"), Some((None, "pom.xml")));
    }

    #[test]
    fn gradle_kotlin_multi_project_with_toolchain() {
        let s = scan(
            detect,
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
            detect,
            &[
                ("android/settings.gradle", "include ':app'"),
                ("android/gradlew", "#!/bin/sh"),
                (
                    "android/app/build.gradle",
                    "apply plugin: 'com.android.application'\nsourceCompatibility = JavaVersion.VERSION_1_8",
                ),
            ],
        );
        assert_eq!(s.steps(), vec!["(cd android && chmod +x gradlew && ./gradlew --no-daemon assemble)"]);
        assert_eq!(s.toolchain("java"), Some((Some("8"), "android/app/build.gradle:2")));

        let flutter = scan(
            detect,
            &[("pubspec.yaml", "name: app"), ("android/settings.gradle", ""), ("android/app/build.gradle", "")],
        );
        assert!(flutter.steps().is_empty());
        assert!(flutter.findings.toolchains.is_empty());

        // A Gradle backend beside a tooling package.json is a project.
        let backend = scan(detect, &[("package.json", "{}"), ("backend/build.gradle", ""), ("backend/gradlew", "")]);
        assert_eq!(backend.managers(), vec![("gradle", "backend")]);
    }

    #[test]
    fn one_jvm_build_per_tree() {
        // Both builds with wrappers in one folder: Maven; a Maven check inside a Gradle build
        // and a wrapper-less Gradle script in a sub-folder are not projects.
        let both = scan(
            detect,
            &[
                ("pom.xml", "<project/>"),
                ("mvnw", ""),
                (".mvn/wrapper/maven-wrapper.properties", ""),
                ("build.gradle", ""),
                ("gradlew", ""),
            ],
        );
        assert_eq!(both.managers(), vec![("maven", ".")]);
        let nested = scan(
            detect,
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
        let extra = scan(detect, &[("CMakeLists.txt", ""), ("support/build.gradle", "apply plugin: 'java'")]);
        assert!(extra.steps().is_empty() && extra.findings.toolchains.is_empty());
    }

    #[test]
    fn version_files_pin_the_jdk() {
        let s = scan(
            detect,
            &[("build.gradle", "sourceCompatibility = '11'"), (".sdkmanrc", "# sdkman\njava=17.0.9-tem\n")],
        );
        assert_eq!(s.toolchain("java"), Some((Some("17.0.9"), ".sdkmanrc#java")));
        let s = scan(detect, &[("pom.xml", "<project/>"), (".java-version", "1.8\n")]);
        assert_eq!(s.toolchain("java"), Some((Some("8"), ".java-version")));
    }
}
