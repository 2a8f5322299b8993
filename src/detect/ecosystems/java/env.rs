//! How JVM code and Spring configuration read the environment: `System.getenv("X")`;
//! HOCON's `${?X}` substitutions in `application.conf` (Ktor, Play, Akka);
//! `${X}` placeholders in Spring configuration files (required: the context does not start
//! without them) and `${X:default}` (optional); `@Value("${…}")` in code; and Spring Boot's
//! relaxed binding, where an environment variable overrides a property by its upper-cased
//! name (`spring.datasource.password` ← `SPRING_DATASOURCE_PASSWORD`): the keys of the
//! configuration files and the fields of `@ConfigurationProperties(prefix = …)` classes
//! give such names, which count only when the project names the variable elsewhere
//! (see [`EnvRead::derived`]).

use crate::rel_path::RelPath;
use std::sync::LazyLock;

use regex::Regex;
use yaml_rust2::Yaml;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};
use crate::detect::repo::Repo;

/// Spring configuration: `application*.yml|yaml|properties` and `bootstrap*` anywhere, and
/// any YAML or properties file among a module's resources (`src/main/resources/shared/
/// account-service.yml` that a Spring Cloud Config server serves) — but not the message
/// bundles of Spring's `MessageSource` (`messages_zh_CN.properties`, `i18n/`), whose values are
/// the words a page shows.
pub fn is_spring_config(dir: &str, name: &str) -> bool {
    let extension = [".yml", ".yaml", ".properties"].iter().any(|e| name.ends_with(e));
    let messages = ["messages", "ValidationMessages"].iter().any(|bundle| name.starts_with(bundle))
        || dir.split('/').any(|part| part.eq_ignore_ascii_case("i18n"));
    extension
        && !messages
        && (name.starts_with("application") || name.starts_with("bootstrap") || is_in_main_resources(dir))
}

/// Whether `rel` belongs to a translated `ResourceBundle` (`shopizer.properties` beside
/// `shopizer_fr.properties`, `labels_pt_BR.properties`): Java names a bundle's translations
/// `<base>_<language>[_<COUNTRY>]`, so a base that comes in a plain and a localized file, or in
/// two localized ones, holds the words a page shows, whatever its folder is called.
pub fn is_translated_bundle(repo: &Repo, rel: &RelPath) -> bool {
    let Some(stem) = rel.file_name().strip_suffix(".properties") else { return false };
    let base = without_locale(stem).unwrap_or(stem);
    let family = repo
        .under(rel.parent())
        .filter(|f| f.dir() == rel.parent())
        .filter_map(|f| f.name().strip_suffix(".properties"))
        .filter(|other| *other == base || without_locale(other) == Some(base))
        .count();
    family >= 2
}

/// `stem` without its locale suffix (`messages_zh_CN` → `messages`), when it has one.
fn without_locale(stem: &str) -> Option<&str> {
    static LOCALE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(.+?)_[a-z]{2}(?:_[A-Z]{2})?$").expect("the locale-suffix pattern is valid"));
    LOCALE.captures(stem).and_then(|c| c.get(1)).map(|m| m.as_str())
}

/// Whether `dir` lies among a JVM module's resources (`src/main/resources` and below).
pub fn is_in_main_resources(dir: &str) -> bool {
    dir.split('/').collect::<Vec<_>>().windows(2).any(|w| w == ["main", "resources"])
}

/// HOCON configuration that Ktor, Play and Akka load: `application.conf` (and its
/// `application.dev.conf`-style siblings), wherever it is.
pub fn is_hocon_config(name: &str) -> bool {
    name.starts_with("application") && name.ends_with(".conf")
}

/// HOCON's substitutions of environment variables: `${?X}` is optional (the key keeps its
/// earlier value without it); `${X}` fails to resolve without it. A path (`${app.name}`)
/// names another key, no variable.
fn hocon_substitutions(text: &str) -> Vec<EnvRead> {
    static SUBSTITUTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\$\{(\?)?[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\}")
            .expect("the HOCON substitution pattern is valid")
    });
    SUBSTITUTION
        .captures_iter(text)
        .filter_map(|c| {
            let name = c.get(2).filter(|name| code::is_upper_snake(name.as_str()))?;
            let need = if c.get(1).is_some() { Need::Optional } else { Need::Required };
            Some(EnvRead::new(name.as_str(), name.start(), need, "HOCON substitution"))
        })
        .collect()
}

pub fn reads(rel: &RelPath, text: &str) -> Vec<EnvRead> {
    reads_built(rel, text, false)
}

/// [`reads`] of a file whose build says MicroProfile Config binds its keys
/// ([`built_with_microprofile`]) when `microprofile`.
pub fn reads_built(rel: &RelPath, text: &str, microprofile_build: bool) -> Vec<EnvRead> {
    if is_hocon_config(rel.file_name()) {
        return hocon_substitutions(text);
    }
    static GETENV: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?-u:\b)System\.getenv\([[:space:]]*\)?[[:space:]]*(?:\.(get|getOrDefault)\()?\(?[[:space:]]*"([A-Za-z_][A-Za-z0-9_]*)""#)
            .expect("the JVM environment-read pattern is valid")
    });
    let mut found: Vec<EnvRead> = GETENV
        .captures_iter(text)
        .filter_map(|c| {
            let name = c.get(2)?;
            let need =
                if c.get(1).is_some_and(|m| m.as_str() == "getOrDefault") { Need::Optional } else { Need::Unstated };
            Some(EnvRead::new(name.as_str(), name.start(), need, "System.getenv"))
        })
        .collect();
    if is_spring_config(rel.parent(), rel.file_name()) {
        let microprofile =
            microprofile_build || is_microprofile_config(rel.file_name(), text.lines().map(str::trim_start));
        found.extend(placeholders(text, if microprofile { "MicroProfile placeholder" } else { "Spring placeholder" }));
        found.extend(property_keys(rel, text, microprofile_build));
    } else {
        found.extend(value_annotations(text));
        found.extend(configuration_properties(text));
    }
    found
}

/// `${NAME}` (required) and `${NAME:default}` (optional) of upper-case names; a
/// placeholder of a property key (`${app.secret}`) names no variable, nor one of a key of
/// another profile than the development one (Quarkus' `%prod.app.key=${APP_KEY}`).
fn placeholders(text: &str, via: &'static str) -> Vec<EnvRead> {
    static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:[^}]*)?\}").expect("the placeholder pattern is valid")
    });
    PLACEHOLDER
        .captures_iter(text)
        .filter_map(|c| {
            let name = c.get(1)?;
            let line = text[..name.start()].rfind('\n').map_or(0, |i| i + 1);
            let key = text[line..].trim_start();
            if key.starts_with('%') && !key.starts_with("%dev.") {
                return None;
            }
            code::is_upper_snake(name.as_str()).then(|| {
                let need = if c.get(2).is_some() { Need::Optional } else { Need::Required };
                EnvRead::new(name.as_str(), name.start(), need, via).typed_setting(binds_names(key))
            })
        })
        .collect()
}

/// Whether the property a placeholder's line sets (`autocomplete-keys: ${X:}`,
/// `app.redacted-keys=${X}`) is a plural `keys` naming other things — Spring binds such a
/// comma-separated value to a list of names (tag keys, header keys to redact) — and not key
/// material, which a credential or cipher word before `keys` marks (`signing-keys`,
/// `jwt-keys`, `api-keys`). A bare `keys` is left to the variable's name.
fn binds_names(line: &str) -> bool {
    const KEY_MATERIAL: &[&str] = &[
        "secret",
        "private",
        "api",
        "access",
        "signing",
        "encryption",
        "decryption",
        "jwt",
        "jwk",
        "hmac",
        "rsa",
        "master",
        "auth",
        "crypto",
        "cipher",
        "previous",
        "rotated",
        "license",
    ];
    let key = line.split([':', '=']).next().unwrap_or_default().trim();
    let segment = key.rsplit('.').next().unwrap_or_default();
    let mut words = Vec::new();
    for part in segment.split(['-', '_']) {
        let mut word = String::new();
        for c in part.chars() {
            if c.is_ascii_uppercase() && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        words.push(word);
    }
    match words.as_slice() {
        [.., qualifier, last] if last == "keys" => !KEY_MATERIAL.contains(&qualifier.as_str()),
        _ => false,
    }
}

/// `@Value("${X}")` / `@Value("${X:default}")` (Spring, Micronaut); a property key
/// (`${app.jwt.secret}`) binds its relaxed name. MicroProfile's (Quarkus')
/// `@ConfigProperty(name = "smtp.password", defaultValue = "…")` binds its key the same way.
fn value_annotations(text: &str) -> Vec<EnvRead> {
    static VALUE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"@Value\([[:space:]]*"\$\{([A-Za-z_][A-Za-z0-9_.\-\[\]]*)(:[^}]*)?\}|@ConfigProperty\([[:space:]]*name[[:space:]]*=[[:space:]]*"([A-Za-z_][A-Za-z0-9_.\-\[\]]*)"([^)]*)\)"#,
        )
        .expect("the @Value pattern is valid")
    });
    VALUE
        .captures_iter(text)
        .filter_map(|c| {
            let key = c.get(1).or(c.get(3))?;
            let defaulted =
                c.get(2).is_some() || c.get(4).is_some_and(|rest| code::has_keyword(rest.as_str(), "defaultValue"));
            let need = if defaulted { Need::Optional } else { Need::Required };
            let (direct, property) = if c.get(3).is_some() {
                ("@ConfigProperty", "@ConfigProperty key")
            } else {
                ("@Value", "@Value property")
            };
            Some(if code::is_upper_snake(key.as_str()) {
                EnvRead::new(key.as_str(), key.start(), need, direct)
            } else {
                EnvRead::derived(relaxed_name(key.as_str()), key.start(), need, property)
            })
        })
        .collect()
}

/// The fields of a `@ConfigurationProperties(prefix = "app.mail")` class (Java fields or
/// Kotlin constructor properties) under the prefix.
fn configuration_properties(text: &str) -> Vec<EnvRead> {
    static ANNOTATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"@ConfigurationProperties\([[:space:]]*(?:(?:prefix|value)[[:space:]]*=[[:space:]]*)?"([A-Za-z0-9_.\-]+)"[[:space:]]*\)"#)
            .expect("the @ConfigurationProperties pattern is valid")
    });
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^[[:space:]]*(?:private|protected|public)[[:space:]]+(?:final[[:space:]]+)?[A-Za-z_][[:word:]<>,.? ]*[[:space:]]+([a-z][[:word:]]*)[[:space:]]*(?:=[^;]*)?;|(?-u:\b)(?:val|var)[[:space:]]+([a-z][[:word:]]*)[[:space:]]*:",
        )
        .expect("the field pattern is valid")
    });
    let mut found = Vec::new();
    for c in ANNOTATION.captures_iter(text) {
        let (Some(whole), Some(prefix)) = (c.get(0), c.get(1)) else { continue };
        // The class body: up to the next annotated class, at most a bounded stretch.
        let body_end = text[whole.end()..].find("@ConfigurationProperties").map_or(text.len(), |i| whole.end() + i);
        let body = &text[whole.end()..body_end.min(whole.end() + 20_000)];
        for field in FIELD.captures_iter(body).filter_map(|f| f.get(1).or(f.get(2))) {
            let key = format!("{}.{}", prefix.as_str(), field.as_str());
            found.push(EnvRead::derived(
                relaxed_name(&key),
                whole.end() + field.start(),
                Need::Unstated,
                "@ConfigurationProperties field",
            ));
        }
    }
    found
}

/// Every property a Spring or MicroProfile configuration file sets, by its relaxed name: an
/// environment variable of that name overrides the value (optional: the file gives one). A
/// key the file leaves to give (empty, a stand-in) is also read as the variable itself, with
/// its value for the secrets signal to judge ([`EnvRead::settings_key`]), outside the files
/// of a production or test profile.
fn property_keys(rel: &RelPath, text: &str, microprofile_build: bool) -> Vec<EnvRead> {
    let mut keys: Vec<(String, usize, Option<String>)> = Vec::new();
    if rel.ends_with(".properties") {
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            if let Some((key, value)) = trimmed.split_once(['=', ':'])
                && !trimmed.starts_with(['#', '!'])
            {
                let at = offset + line.len() - trimmed.len();
                keys.push((key.trim().to_string(), at, Some(value.trim().to_string())));
            }
            offset += line.len();
        }
    } else if let Ok(docs) = crate::detect::yaml::load(text) {
        // Through the bounded loader: a settings file of a checkout may be an alias bomb.
        for doc in &docs {
            flatten(doc, String::new(), &mut keys, text);
        }
    }
    keys.retain(|(key, _, _)| key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')));
    let microprofile =
        microprofile_build || is_microprofile_config(rel.file_name(), keys.iter().map(|(key, _, _)| key.as_str()));
    let to_give = !is_other_profile(rel.file_name());
    let via = if microprofile { "MicroProfile property" } else { "Spring property" };
    let mut found = Vec::new();
    for (key, at, value) in keys {
        // `datasource.password=${datasource.password}`: Maven's resource filtering fills the
        // key from the build's profile, or the environment's variable overrides it: a key
        // still to give, as if the file left it empty.
        let filled_elsewhere = value
            .as_deref()
            .is_some_and(|v| v.strip_prefix("${").and_then(|v| v.strip_suffix('}')) == Some(key.as_str()));
        if let Some(value) = value.filter(|v| to_give && (filled_elsewhere || !v.contains("${"))) {
            let value = if filled_elsewhere { "" } else { value.trim_matches(['"', '\'']) };
            let name = environment_name(&key, microprofile);
            found.push(EnvRead::new(name, at, Need::Optional, via).of_settings_key(key.as_str(), value));
        }
        found.push(EnvRead::derived(relaxed_name(&key), at, Need::Optional, via));
    }
    found
}

/// Whether a configuration file is MicroProfile Config's (Quarkus, SmallRye, Helidon, Open
/// Liberty): `microprofile-config.properties`, or keys of Quarkus or MicroProfile itself.
fn is_microprofile_config<'k>(name: &str, mut keys: impl Iterator<Item = &'k str>) -> bool {
    name == "microprofile-config.properties"
        || keys.any(|key| ["quarkus.", "mp.", "smallrye."].iter().any(|p| key.starts_with(p)))
}

/// Whether the build of the module holding `rel` (its nearest `pom.xml` or Gradle build and
/// those above it) uses MicroProfile Config — SmallRye Config, Quarkus or Helidon — and not
/// Spring Boot: then `application.properties` is MicroProfile's, whose keys an environment
/// variable overrides with every other character as `_` (`dt.ldap.bind-password` →
/// `DT_LDAP_BIND_PASSWORD`), where Spring drops the dash.
pub fn built_with_microprofile(repo: &Repo, rel: &RelPath) -> bool {
    const BUILDS: &[&str] = &["pom.xml", "build.gradle", "build.gradle.kts"];
    const MICROPROFILE: &[&str] = &["smallrye-config", "microprofile-config", "io.quarkus", "io.helidon"];
    let mut microprofile = false;
    let mut dir = rel.parent();
    loop {
        let builds = BUILDS.iter().map(|build| dir.join(RelPath::trusted(build))).filter(|build| repo.exists(build));
        for build in builds.filter_map(|build| repo.read(build)) {
            if build.contains("spring-boot") {
                return false;
            }
            microprofile |= MICROPROFILE.iter().any(|artifact| build.contains(artifact));
        }
        if dir.is_root() {
            return microprofile;
        }
        dir = dir.parent();
    }
}

/// Whether a configuration file is a production or test profile's (`application-prod.yml`,
/// `application-test.properties`): the development run never loads it.
fn is_other_profile(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or_default();
    stem.split(['-', '_']).skip(1).any(|w| {
        ["prod", "production", "staging", "test", "tests", "it", "ci"].iter().any(|p| w.eq_ignore_ascii_case(p))
    })
}

/// The environment variable that overrides a property key: MicroProfile replaces every
/// character but letters and digits with `_` (`smtp-password` → `SMTP_PASSWORD`); Spring's
/// relaxed binding drops dashes (`SMTPPASSWORD`). Neither splits camel case.
fn environment_name(key: &str, microprofile: bool) -> String {
    key.chars()
        .filter(|c| microprofile || *c != '-')
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' })
        .collect()
}

/// The dotted keys of a YAML document's scalar leaves, each with the offset of its last
/// segment in `text` (the first occurrence: enough for a line number).
fn flatten(node: &Yaml, prefix: String, out: &mut Vec<(String, usize, Option<String>)>, text: &str) {
    let Some(hash) = node.as_hash() else { return };
    for (key, value) in hash {
        let Some(key) = key.as_str() else { continue };
        let path = if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") };
        let at = || text.find(&format!("{key}:")).unwrap_or(0);
        match value {
            Yaml::Hash(_) => flatten(value, path, out, text),
            // A string may be left to give; a number or boolean is a setting's value.
            Yaml::String(given) => out.push((path, at(), Some(given.clone()))),
            // `password:` with nothing after it: left to give, like an empty string.
            Yaml::Null => out.push((path, at(), Some(String::new()))),
            Yaml::Integer(_) | Yaml::Real(_) | Yaml::Boolean(_) => out.push((path, at(), None)),
            _ => {}
        }
    }
}

/// The environment variable Spring's relaxed binding reads for a property key, with `_`
/// also between the words of a camel-case or dashed segment (`app.mail.smtpPassword` →
/// `APP_MAIL_SMTP_PASSWORD`): Spring itself drops dashes (`APP_MAIL_SMTPPASSWORD`), so a
/// derived name is compared with the project's names without their underscores.
fn relaxed_name(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 8);
    let mut previous_lower = false;
    for c in key.chars() {
        match c {
            '.' | '-' | '_' | '[' | ']' => {
                if !out.ends_with('_') && !out.is_empty() {
                    out.push('_');
                }
                previous_lower = false;
            }
            c if c.is_ascii_uppercase() && previous_lower => {
                out.push('_');
                out.push(c);
                previous_lower = false;
            }
            c => {
                out.push(c.to_ascii_uppercase());
                previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            }
        }
    }
    out.trim_end_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(rel: &str, text: &str) -> Vec<(String, Need, bool)> {
        reads(RelPath::new(rel).unwrap(), text).into_iter().map(|r| (r.name, r.need, r.derived)).collect()
    }

    #[test]
    fn placeholders_in_spring_configuration() {
        let text = "spring:\n  datasource:\n    password: ${DB_PASSWORD}\n    url: ${JDBC_URL:jdbc:h2:mem:x}\n    username: ${app.user}\n";
        let names = found("src/main/resources/application.yml", text);
        assert!(names.contains(&("DB_PASSWORD".into(), Need::Required, false)), "{names:?}");
        assert!(names.contains(&("JDBC_URL".into(), Need::Optional, false)), "{names:?}");
        assert!(names.contains(&("SPRING_DATASOURCE_PASSWORD".into(), Need::Optional, true)), "{names:?}");
        assert!(!names.iter().any(|(n, _, _)| n == "APP_USER"), "{names:?}");
        let lists = "zipkin:\n  storage:\n    autocomplete-keys: ${AUTOCOMPLETE_KEYS:}\n    signing-keys: ${SIGNING_KEYS}\n    keys: ${APP_KEYS}\napp.redactedKeys=${REDACTED_KEYS:password}\n";
        let typed: Vec<(String, bool)> = reads(RelPath::new("src/main/resources/application.yml").unwrap(), lists)
            .into_iter()
            .filter(|r| !r.derived && r.settings_key.is_none())
            .map(|r| (r.name, r.setting))
            .collect();
        assert_eq!(
            typed,
            [
                ("AUTOCOMPLETE_KEYS".into(), true),
                ("SIGNING_KEYS".into(), false),
                ("APP_KEYS".into(), false),
                ("REDACTED_KEYS".into(), true)
            ]
        );
        assert!(is_spring_config("config/src/main/resources/shared", "account-service.yml"));
        assert!(is_spring_config("", "bootstrap.yml"));
        assert!(!is_spring_config("src/test/resources", "data.yml"));
        assert!(!is_spring_config("src/main/resources", "messages_zh_CN.properties"));
        assert!(!is_spring_config("src/main/resources/i18n", "login.properties"));
    }

    #[test]
    fn hocon_substitutions_in_application_conf() {
        let text = "ktor {\n  deployment { port = 8080, port = ${?PORT} }\n}\njwt {\n  secret = \"dev\"\n  secret = ${?JWT_SECRET}\n  realm = ${app.name}\n}\ndb.password = ${DB_PASSWORD}\n";
        assert_eq!(
            found("src/main/resources/application.conf", text),
            [
                ("PORT".into(), Need::Optional, false),
                ("JWT_SECRET".into(), Need::Optional, false),
                ("DB_PASSWORD".into(), Need::Required, false),
            ]
        );
        assert!(is_hocon_config("application.conf") && is_hocon_config("application.dev.conf"));
        assert!(!is_hocon_config("nginx.conf") && !is_hocon_config("reference.conf"));
    }

    #[test]
    fn values_and_configuration_properties_in_code() {
        let text = r#"
@Value("${STRIPE_SECRET_KEY}") String key;
@Value("${app.jwt.secret:dev}") String jwt;
@ConfigProperty(name = "mailer.api-key") String mailerKey;
@ConfigProperty(name = "mailer.from", defaultValue = "shop@example.com") String from;
String t = System.getenv("API_TOKEN");
String d = System.getenv().getOrDefault("DB_PASS", "x");
@ConfigurationProperties(prefix = "app.mail")
public class MailProperties {
    private String smtpPassword;
    private int port = 25;
}
"#;
        assert_eq!(
            found("src/main/java/App.java", text),
            [
                ("API_TOKEN".into(), Need::Unstated, false),
                ("DB_PASS".into(), Need::Optional, false),
                ("STRIPE_SECRET_KEY".into(), Need::Required, false),
                ("APP_JWT_SECRET".into(), Need::Optional, true),
                ("MAILER_API_KEY".into(), Need::Required, true),
                ("MAILER_FROM".into(), Need::Optional, true),
                ("APP_MAIL_SMTP_PASSWORD".into(), Need::Unstated, true),
                ("APP_MAIL_PORT".into(), Need::Unstated, true),
            ]
        );
    }

    #[test]
    fn properties_files_and_relaxed_names() {
        let names = found("application.properties", "# c\nspring.mail.password=x\nserver.port: 8080\n");
        assert_eq!(
            names,
            [
                ("SPRING_MAIL_PASSWORD".into(), Need::Optional, false),
                ("SPRING_MAIL_PASSWORD".into(), Need::Optional, true),
                ("SERVER_PORT".into(), Need::Optional, false),
                ("SERVER_PORT".into(), Need::Optional, true),
            ]
        );
        assert_eq!(relaxed_name("my-app.someKey[0].x"), "MY_APP_SOME_KEY_0_X");
    }

    /// (name, value) of the keys read as the variable itself, with the value the file gives.
    fn given(rel: &str, text: &str) -> Vec<(String, String)> {
        reads(RelPath::new(rel).unwrap(), text)
            .into_iter()
            .filter_map(|r| Some((r.name, r.settings_key?.value)))
            .collect()
    }

    #[test]
    fn a_yaml_key_left_empty_is_left_to_give() {
        let text = "spring:\n  datasource:\n    druid:\n      slave:\n        password:\n        enabled: false\nshiro:\n  cookie:\n    cipherKey:\n";
        assert_eq!(
            given("src/main/resources/application-druid.yml", text),
            [
                ("SPRING_DATASOURCE_DRUID_SLAVE_PASSWORD".into(), String::new()),
                ("SHIRO_COOKIE_CIPHERKEY".into(), String::new()),
            ]
        );
    }

    #[test]
    fn microprofile_keys_are_overridden_by_their_upper_cased_names() {
        let text = "quarkus.datasource.username=shop\nquarkus.datasource.password=\ndt.mail.smtp-password=<smtp-password>\nmp.jwt.verify.issuer=${JWT_ISSUER}\n%prod.dt.api-key=\n";
        let dir = "src/main/resources";
        assert_eq!(
            given(&format!("{dir}/application.properties"), text),
            [
                ("QUARKUS_DATASOURCE_USERNAME".into(), "shop".into()),
                ("QUARKUS_DATASOURCE_PASSWORD".into(), String::new()),
                ("DT_MAIL_SMTP_PASSWORD".into(), "<smtp-password>".into()),
            ]
        );
        // MicroProfile's own file, without any Quarkus key.
        assert_eq!(
            given(&format!("{dir}/META-INF/microprofile-config.properties"), "app.api-key=\n"),
            [("APP_API_KEY".into(), String::new())]
        );
        // Spring drops a segment's dashes; a YAML number is a setting's value.
        assert_eq!(
            given("src/main/resources/application.yml", "app:\n  api-key: ''\n  retries: 3\n"),
            [("APP_APIKEY".into(), String::new())]
        );
        // A production or test profile's file is no development run's.
        assert!(given("src/main/resources/application-prod.properties", "app.secret=\n").is_empty());
        assert!(given("src/main/resources/application-test.yml", "app:\n  secret: ''\n").is_empty());
    }
}
