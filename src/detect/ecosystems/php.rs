//! PHP with Composer (`composer.json`, `composer.lock`), the PHP version it needs
//! and the test runner (composer `test` script, Pest, `php artisan test`, PHPUnit).

use crate::detect::ecosystems::ecosystem::{Alias, Declaration, Ecosystem, EnvRead, SetupStep, Toolchain};
use crate::detect::ecosystems::project::{pm_path, projects, version_file};
use crate::detect::findings::{Findings, Kind, Phase};
use crate::detect::repo::Repo;
use crate::detect::sources::Sources;
use crate::detect::sources::shell::in_dir;
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

mod env;

pub struct Php;

/// What Php declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "php",
    toolchains: &[Toolchain::new("php", "PHP")],
    package_managers: &["composer"],
    programs: &["php", "composer"],
    manifests: &["composer.json"],
    aliases: &[
        Alias::action_with_files("shivammathur/setup-php", "php", &["php-version"], &["php-version-file"]),
        Alias::image("php", "php"),
        Alias::devcontainer_image("php", "php"),
        Alias::feature("php", "php"),
        Alias::nix_compact("php", "php"),
        Alias::tool("php", "php"),
    ],
    setup_steps: &[SetupStep::new("php", "shivammathur/setup-php@v2", "php-version")],
    devcontainer_features: &[("php", "ghcr.io/devcontainers/features/php:1")],
    test_commands: &[
        r"(?:php[[:space:]]+)?artisan[[:space:]]+test(?-u:\b)",
        r"(?:vendor/bin/|\./vendor/bin/)?(?:phpunit|pest|paratest)(?-u:\b)",
        r"composer[[:space:]]+(?:run(?:-script)?[[:space:]]+)?test(?-u:\b)",
    ],
    install_commands: &["composer"],
    source_extensions: &["php"],
    test_runners: &["phpunit", "pest"],
    install_programs: &["composer"],
    versioned_manifests: &["composer.json"],
    ..Declaration::new(&Php)
};

impl Ecosystem for Php {
    /// CI images keep one binary per PHP (`php8.1`, from `php${{ matrix.php }}`); the
    /// sandbox's PHP is `php`.
    fn in_installed_environment(&self, command: &str, _package_managers: &[&str]) -> Option<String> {
        let (program, rest) = command.split_once(' ').unwrap_or((command, ""));
        let version = program.strip_prefix("php")?;
        let versioned = !version.is_empty() && version.chars().all(|c| c.is_ascii_digit() || c == '.');
        versioned.then(|| if rest.is_empty() { "php".to_string() } else { format!("php {rest}") })
    }
    /// Symfony's configuration (`config/packages/*.yaml`) reads the environment through
    /// `%env(…)%` parameters.
    fn is_settings_file(&self, dir: &str, name: &str) -> bool {
        let extension = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
        ["yml", "yaml", "xml"].contains(&extension) && dir.split('/').any(|d| d == "config")
    }
    /// `getenv('X')`, `env('X')` (Laravel), `$_ENV['X']`, Symfony's `%env(X)%`, phpdotenv's
    /// checks and jbtronics/settings-bundle's `envVar:` parameters (see [`env::reads`]).
    fn env_reads(&self, _rel: &RelPath, text: &str) -> Vec<EnvRead> {
        env::reads(text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

fn detect(repo: &Repo, out: &mut Findings) {
    for manifest in projects(repo, &["composer.json"]) {
        composer(repo, out, manifest);
    }
}

fn composer(repo: &Repo, out: &mut Findings, manifest: &RelPath) {
    let dir = manifest.parent();
    let json = repo.read_json(manifest).unwrap_or_default();
    let str_at = |pointer: &str| json.pointer(pointer).and_then(|v| v.as_str());

    let pinned = version_file(repo, dir, rel!(".php-version")).or_else(|| {
        str_at("/config/platform/php").map(|v| (v.to_string(), Evidence::key(manifest, "config.platform.php")))
    });
    let floor = || Some((version::floor(str_at("/require/php")?)?, Evidence::key(manifest, "require.php")));
    match (pinned, floor()) {
        (Some((v, source)), _) => out.toolchain("php", Some(v), source),
        (None, Some((v, source))) => out.toolchain_floor("php", v, source),
        (None, None) => out.toolchain("php", None, Evidence::file(manifest)),
    }

    let lock = dir.join(rel!("composer.lock"));
    let locked = repo.exists(&lock);
    out.package_manager("composer", None, pm_path(dir), Evidence::file(if locked { &lock } else { manifest }));
    // Without a lockfile (a library), resolve as CI does; with one, install exactly it.
    let verb = if locked { "install" } else { "update" };
    let install = format!("composer {verb} --no-interaction --prefer-dist --no-progress");
    out.step_in(dir, Phase::Install, &install, Evidence::file(if locked { &lock } else { manifest }));

    let requires = |package: &str| {
        ["/require", "/require-dev"].iter().any(|k| json.pointer(k).and_then(|r| r.get(package)).is_some())
    };
    let phpunit_config = [rel!("phpunit.xml"), rel!("phpunit.xml.dist"), rel!("phpunit.dist.xml")]
        .map(|n| dir.join(n))
        .into_iter()
        .find(|p| repo.exists(p));
    if json.pointer("/scripts/test").is_some() {
        out.test(in_dir(dir, "composer test"), Evidence::key(manifest, "scripts.test").of(Kind::Task));
    } else if requires("pestphp/pest") {
        out.test(in_dir(dir, "vendor/bin/pest"), Evidence::key(manifest, "require-dev.pestphp/pest"));
    } else if repo.exists(dir.join(rel!("artisan"))) && requires("laravel/framework") {
        out.test(in_dir(dir, "php artisan test"), Evidence::file(dir.join(rel!("artisan"))));
    } else if let Some(config) = phpunit_config {
        out.test(in_dir(dir, "vendor/bin/phpunit"), Evidence::file(config));
    } else if requires("phpunit/phpunit") {
        out.test(in_dir(dir, "vendor/bin/phpunit"), Evidence::key(manifest, "require-dev.phpunit/phpunit"));
    }

    // A Laravel app boots only with a `.env` holding an APP_KEY; its CI makes one from the
    // example. The key is checked, not the file: composer's `post-install-cmd` often copies
    // the example already (koel's does), without a key. Guarded, so a second run keeps it.
    let env_example = dir.join(rel!(".env.example"));
    if requires("laravel/framework") && repo.exists(dir.join(rel!("artisan"))) && repo.exists(&env_example) {
        let setup = "{ [ -f .env ] || cp .env.example .env; } && { grep -q '^APP_KEY=.' .env || php artisan key:generate --no-interaction; }";
        out.step_in(dir, Phase::Build, setup, Evidence::file(&env_example));
    }

    let extensions: Vec<&str> = json
        .get("require")
        .and_then(|r| r.as_object())
        .map(|r| r.keys().filter_map(|k| k.strip_prefix("ext-")).collect())
        .unwrap_or_default();
    if !extensions.is_empty() {
        out.note(format!("PHP extensions required by {manifest}: {}", extensions.join(", ")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_php_binary_named_for_its_version_is_the_sandbox_s_php() {
        assert_eq!(
            Php.in_installed_environment("php8.1 ./vendor/bin/phpunit", &[]).as_deref(),
            Some("php ./vendor/bin/phpunit")
        );
        assert_eq!(Php.in_installed_environment("php vendor/bin/phpunit", &[]), None);
        assert_eq!(Php.in_installed_environment("phpunit", &[]), None);
    }
    use crate::detect::testing::scan;

    #[test]
    fn library_without_lockfile_resolves_with_update() {
        let s = scan(
            &Php,
            &[
                (
                    "composer.json",
                    r#"{"require":{"php":"^8.3","ext-mbstring":"*"},"require-dev":{"phpunit/phpunit":"^11"}}"#,
                ),
                ("phpunit.xml.dist", "<phpunit/>"),
                ("src/Illuminate/Support/composer.json", r#"{"require":{"php":"^8.2"}}"#),
            ],
        );
        assert_eq!(s.toolchain("php"), Some((Some("8.3"), "composer.json#require.php")));
        assert_eq!(s.managers(), vec![("composer", ".")]);
        assert_eq!(s.steps(), vec!["composer update --no-interaction --prefer-dist --no-progress"]);
        assert_eq!(s.tests(), vec!["vendor/bin/phpunit"]);
        assert!(s.findings.notes[0].contains("mbstring"));
    }

    #[test]
    fn app_with_lockfile_and_test_script() {
        let s = scan(
            &Php,
            &[
                (
                    "app/composer.json",
                    r#"{"require":{"php":"^7.4|^8.1","laravel/framework":"^11"},"scripts":{"test":"pest"}}"#,
                ),
                ("app/composer.lock", "{}"),
                ("app/artisan", ""),
                ("app/.env.example", "APP_KEY=\n"),
            ],
        );
        assert_eq!(s.toolchain("php"), Some((Some("8.1"), "app/composer.json#require.php")));
        assert_eq!(
            s.steps(),
            vec![
                "(cd app && composer install --no-interaction --prefer-dist --no-progress)",
                "(cd app && { [ -f .env ] || cp .env.example .env; } && { grep -q '^APP_KEY=.' .env || php artisan key:generate --no-interaction; })"
            ]
        );
        assert_eq!(s.tests(), vec!["(cd app && composer test)"]);
    }

    #[test]
    fn malformed_composer_json_warns() {
        let s = scan(&Php, &[("composer.json", "{\"require\": ")]);
        assert!(s.warnings.iter().any(|w| w.starts_with("composer.json: invalid JSON")), "{:?}", s.warnings);
        assert_eq!(s.toolchain("php"), Some((None, "composer.json")));
    }
}
