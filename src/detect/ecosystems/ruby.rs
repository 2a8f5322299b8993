//! Ruby with Bundler (`Gemfile`, `Gemfile.lock`, `.ruby-version`), Rails apps and
//! their database, and the test runner (RSpec, `bin/rails test`, rake).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{
    Alias, Declaration, Ecosystem, EnvHelper, EnvRead, Need, SetupStep, Toolchain,
};
use crate::detect::ecosystems::project::{
    file_on_disk, native_shell_of, pm_path, read_existing, source_at, version_file,
};
use crate::detect::findings::{Findings, Phase};
use crate::detect::repo::{Repo, is_project_path, too_deep_for_a_project};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::{in_dir, quote};
use crate::detect::sources::version;
use crate::evidence::Evidence;
use crate::rel_path::RelPath;
use crate::rel_path::rel;

mod helpers;
mod konfig;
mod settings;

pub struct Ruby;

/// What Ruby declares (see [`Declaration`]).
pub static DECLARATION: Declaration = Declaration {
    id: "ruby",
    toolchains: &[Toolchain::new("ruby", "Ruby")],
    package_managers: &["bundler"],
    programs: &["ruby", "bundle", "gem", "rake"],
    manifests: &["Gemfile"],
    aliases: &[
        Alias::action("ruby/setup-ruby", "ruby", &["ruby-version"]),
        Alias::image("ruby", "ruby"),
        Alias::devcontainer_image("ruby", "ruby"),
        Alias::feature("ruby", "ruby"),
        Alias::nix("ruby", "ruby"),
        Alias::tool("ruby", "ruby"),
    ],
    setup_steps: &[SetupStep::new("ruby", "ruby/setup-ruby@v1", "ruby-version")],
    devcontainer_features: &[("ruby", "ghcr.io/devcontainers/features/ruby:1")],
    test_commands: &[
        r"(?:bundle[[:space:]]+exec[[:space:]]+)?(?:rspec|rake[[:space:]]+(?:test|spec)|rails[[:space:]]+test|bin/rails[[:space:]]+test|bin/rspec)(?-u:\b)",
        r"bundle[[:space:]]+exec[[:space:]]+rake[[:space:]]*$",
    ],
    install_commands: &["gem"],
    source_extensions: &["rb"],
    test_runners: &["rspec"],
    install_programs: &["bundle"],
    publish_commands: &[("gem", "push")],
    skipped_dirs: &[".bundle"],
    ..Declaration::new(&Ruby)
};

impl Ecosystem for Ruby {
    /// YAML and ERB configuration in a `config` folder (Rails' `database.yml` with
    /// `<%= ENV["…"] %>`).
    fn is_settings_file(&self, dir: &str, name: &str) -> bool {
        let extension = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
        ["yml", "yaml", "erb"].contains(&extension) && dir.split('/').any(|d| d.eq_ignore_ascii_case("config"))
    }
    /// `ENV.fetch("X")` (raises without it; optional with a default or a block), `ENV["X"]`
    /// (optional with an `||` fallback), `Rails.application.credentials`, which needs the
    /// master key that decrypts them (`RAILS_MASTER_KEY`), and a Rails app's production
    /// environment, which reads `SECRET_KEY_BASE`; and the settings libraries that form the
    /// names themselves (anyway_config, figaro: see [`settings`]; Konfig: see [`konfig`]).
    fn env_reads(&self, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        static READ: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)ENV(?:\[|(\.fetch)\(?)[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#)
                .expect("the Ruby environment-read pattern is valid")
        });
        let tested = tested_in_conditions(text);
        let mut reads: Vec<EnvRead> = READ
            .captures_iter(text)
            .filter_map(|c| {
                let (whole, name) = (c.get(0)?, c.get(2)?);
                let after = &text[whole.end()..];
                let rest = code::rest_of_call(after, &['"', '\'']);
                let closed = after[rest.len()..].get(1..).unwrap_or_default();
                if code::assigns(closed) {
                    return None;
                }
                let mut via = if c.get(1).is_some() { "ENV.fetch" } else { "ENV[…]" };
                let need = if c.get(1).is_some() {
                    // `ENV.fetch "X"` without parentheses takes its arguments to the end of the line.
                    let rest = if after.trim_start().starts_with(',') { code::rest_of_line(after) } else { rest };
                    if code::has_another_argument(rest)
                        || code::followed_by(closed, &["{", "do"])
                        || tested.contains(name.as_str())
                    {
                        Need::Optional
                    } else if in_method(text, whole.start()) {
                        // Raises when the method runs (a job, a client call), not when the app boots.
                        Need::Unstated
                    } else if under_condition(text, whole.start()) {
                        via = "ENV.fetch under a condition";
                        Need::Optional
                    } else {
                        Need::Required
                    }
                } else if code::followed_by(closed, &["||", "or ", ".presence ||"]) {
                    Need::Optional
                } else {
                    Need::Unstated
                };
                Some(EnvRead::new(name.as_str(), name.start(), need, via))
            })
            .collect();
        // A name only tested (`if ENV.key?('X')`) is still one the app reads: optional.
        let mut only_tested: Vec<(usize, &str)> = tested
            .iter()
            .filter(|name| !reads.iter().any(|r| r.name == **name))
            .filter_map(|name| {
                Some((text.find(&format!("'{name}'")).or_else(|| text.find(&format!("\"{name}\"")))?, *name))
            })
            .collect();
        only_tested.sort_unstable();
        reads.extend(only_tested.into_iter().map(|(at, name)| EnvRead::new(name, at + 1, Need::Optional, "ENV.key?")));
        reads.extend(settings::reads(text));
        reads.extend(konfig::reads(text));
        reads.extend(helpers::calls(text));
        if let Some(at) = text.find("Rails.application.credentials") {
            reads.push(EnvRead::new(MASTER_KEY, at, Need::Unstated, CREDENTIALS));
        }
        // A Rails app in production signs its cookies and sessions with the key base it reads
        // from `SECRET_KEY_BASE` (before its encrypted credentials); tests make up their own.
        if rel.ends_with("config/environments/production.rb") && text.contains("Rails.application.configure") {
            let at = text.find("Rails.application.configure").unwrap_or_default();
            reads.push(EnvRead::new("SECRET_KEY_BASE", at, Need::Optional, RAILS_PRODUCTION));
        }
        reads
    }
    /// The master key decrypts the credentials the checkout commits: with none (an engine's
    /// library code, an app that keeps them out of git) it opens nothing — unless CI hands
    /// the app's production environment a master key of its secrets (the credentials live
    /// where the deployment keeps them).
    fn env_reads_in(&self, sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
        let mut reads = self.env_reads(rel, text);
        if reads.iter().any(|read| read.via == CREDENTIALS) && !has_encrypted_credentials(sources.repo()) {
            reads.retain(|read| read.via != CREDENTIALS);
        }
        if let Some(production) = reads.iter().find(|read| read.via == RAILS_PRODUCTION).map(|read| read.at)
            && sources.workflows().jobs.iter().any(|job| job.secrets.iter().any(|s| s == MASTER_KEY))
        {
            reads.push(EnvRead::new(MASTER_KEY, production, Need::Unstated, CI_MASTER_KEY));
        }
        reads
    }
    /// The project's own methods over `ENV` (see [`helpers`]).
    fn env_helpers(&self, text: &str) -> Vec<EnvHelper> {
        helpers::helpers(text)
    }
    fn detect(&self, sources: &Sources, out: &mut Findings) {
        detect(sources.repo(), out);
    }
}

const CREDENTIALS: &str = "Rails.application.credentials";
const MASTER_KEY: &str = "RAILS_MASTER_KEY";
/// How a Rails app reads the master key CI gives it from its secrets.
const CI_MASTER_KEY: &str = "Rails' master key, which CI passes from its secrets";

/// Whether the checkout commits Rails' encrypted credentials (`config/credentials.yml.enc`,
/// one per environment under `config/credentials/`, or Rails 5.1's `secrets.yml.enc`). By
/// name, not by a pass over every file: this is asked for each file that uses credentials.
fn has_encrypted_credentials(repo: &Repo) -> bool {
    const PER_ENVIRONMENT: &[&str] = &["development.yml.enc", "production.yml.enc", "test.yml.enc", "staging.yml.enc"];
    !repo.named("credentials.yml.enc").is_empty()
        || !repo.named("secrets.yml.enc").is_empty()
        || PER_ENVIRONMENT
            .iter()
            .any(|name| repo.named(name).iter().any(|path| path.parent().ends_with("config/credentials")))
}

/// The variables `text` tests in a condition (`if ENV['X'].present?`, `unless
/// ENV["X"].to_s.empty?`, `… if ENV.key?('X')`): an `ENV.fetch` of one is reached only when
/// it is set.
fn tested_in_conditions(text: &str) -> std::collections::HashSet<&str> {
    static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)(?:^|[[:space:]])(?:if|unless|elsif)[[:space:]][^\n]*")
            .expect("the Ruby condition pattern is valid")
    });
    static TESTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"ENV(?:\[|\.(?:has_)?key\?\(|\.include\?\()[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"]"#)
            .expect("the Ruby tested-variable pattern is valid")
    });
    CONDITION
        .find_iter(text)
        .flat_map(|condition| TESTED.captures_iter(condition.as_str()).filter_map(|c| c.get(1)).map(|m| m.as_str()))
        .collect()
}

/// How a Rails app's production environment reads `SECRET_KEY_BASE`: from the environment
/// first, before any encrypted credentials the app keeps, so it is always one a deployment
/// may set.
const RAILS_PRODUCTION: &str = "Rails in production";

static GEMFILE_RUBY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?m)^[[:space:]]*ruby[[:space:]]*\(?[[:space:]]*["']([^"']+)["']"#).expect("regex"));
static REQUIRED_RUBY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"required_ruby_version[[:space:]]*=[[:space:]]*\[?[[:space:]]*["']([^"']+)["']"#).expect("regex")
});
static RAILS_GEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?m)^[[:space:]]*gem[[:space:]]*\(?[[:space:]]*["'](?:rails|railties)["']"#).expect("regex")
});
static ADAPTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?m)^[[:space:]]*adapter:[[:space:]]*["']?([A-Za-z0-9_]+)"#).expect("regex"));

fn detect(repo: &Repo, out: &mut Findings) {
    // Bundler takes the Gemfile nearest the working directory: one in a subfolder is a bundle
    // of its own (sinatra's rack-protection/ and sinatra-contrib/), not part of the root's.
    let mut gemfiles: Vec<&RelPath> = ["Gemfile", "gems.rb"]
        .iter()
        .flat_map(|name| repo.named(name))
        .filter(|path| is_project_path(path) && !too_deep_for_a_project(path.parent()))
        .collect();
    gemfiles.sort_by_key(|path| (path.depth(), *path));
    // An app's `ios/Gemfile` (fastlane, CocoaPods) is release tooling of its native shell.
    for gemfile in gemfiles.into_iter().filter(|g| native_shell_of(repo, g).is_none()) {
        bundle(repo, out, gemfile);
    }
}

fn bundle(repo: &Repo, out: &mut Findings, gemfile: &RelPath) {
    let dir = gemfile.parent();
    let text = repo.read(gemfile).unwrap_or_default();
    let lock_path = dir.join(if gemfile.ends_with("gems.rb") { rel!("gems.locked") } else { rel!("Gemfile.lock") });
    let lock = read_existing(repo, &lock_path);

    // (version, source, whether the version is only a constraint's floor)
    let version = version_file(repo, dir, rel!(".ruby-version"))
        .map(|(v, source)| (v, source, false))
        .or_else(|| {
            let caps = GEMFILE_RUBY.captures(&text)?;
            let exact = caps[1].trim().starts_with(|c: char| c.is_ascii_digit());
            Some((version::floor(&caps[1])?, source_at(gemfile, &text, caps[0].trim()), !exact))
        })
        .or_else(|| {
            let lock = lock.as_deref()?;
            let line = section(lock, "RUBY VERSION").into_iter().next()?;
            Some((version::first(line)?, Evidence::key(&lock_path, "RUBY VERSION"), false))
        })
        .or_else(|| {
            // A gem: the oldest Ruby its gemspec supports.
            let gemspec = repo.under(dir).find(|f| f.dir() == dir && f.name().ends_with(".gemspec"))?.path();
            let text = repo.read(gemspec)?;
            let caps = REQUIRED_RUBY.captures(&text)?;
            Some((version::floor(&caps[1])?, source_at(gemspec, &text, caps[0].trim()), true))
        });
    match version {
        Some((v, source, true)) => out.toolchain_floor("ruby", v, source),
        Some((v, source, false)) => out.toolchain("ruby", Some(v), source),
        None => out.toolchain("ruby", None, Evidence::file(gemfile)),
    }
    let bundler = lock.as_deref().and_then(|l| section(l, "BUNDLED WITH").into_iter().next().and_then(version::first));
    out.package_manager(
        "bundler",
        bundler,
        pm_path(dir),
        Evidence::file(if lock.is_some() { lock_path.as_rel_path() } else { gemfile }),
    );
    // Plain `bundle install`: it keeps the lockfile's versions, and unlike frozen/deployment
    // mode it can add the Linux platform to a lockfile written on a Mac.
    out.step_in(
        dir,
        Phase::Install,
        "bundle install",
        Evidence::file(if lock.is_some() { lock_path.as_rel_path() } else { gemfile }),
    );

    let gems = format!("{text}\n{}", lock.as_deref().unwrap_or_default());
    let rails = RAILS_GEM.is_match(&text) || lock.as_deref().is_some_and(|l| l.contains("\n    rails ("));
    let has_dir = |name: &RelPath| repo.under(&dir.join(name)).next().is_some();
    if has_dir(rel!("spec")) && gems.contains("rspec") {
        out.test(in_dir(dir, "bundle exec rspec"), Evidence::file(dir.join(rel!("spec"))));
    } else if rails && file_on_disk(repo, &dir.join(rel!("bin/rails"))) && has_dir(rel!("test")) {
        out.test(in_dir(dir, "bin/rails test"), Evidence::file(dir.join(rel!("bin/rails"))));
    } else if let Some(rakefile) = [rel!("Rakefile"), rel!("rakefile"), rel!("Rakefile.rb")]
        .map(|n| dir.join(n))
        .into_iter()
        .find(|p| repo.exists(p))
    {
        let rake = read_existing(repo, &rakefile).unwrap_or_default();
        let test_task = rake.contains("TestTask") || rake.contains("task :test") || rake.contains("task test:");
        let cmd = if test_task { "bundle exec rake test" } else { "bundle exec rake" };
        out.test(in_dir(dir, cmd), Evidence::file(rakefile));
    }

    if rails {
        out.note(format!("Rails app at {}", pm_path(dir)));
        database(repo, out, dir);
    }
}

/// The services a Rails app's `config/database.yml` adapters need. Apps that keep only a
/// `database.yml.sample` (`.example`, `example.database.yml`, …) get it copied into place,
/// as their CI does.
fn database(repo: &Repo, out: &mut Findings, dir: &RelPath) {
    let config = dir.join(rel!("config/database.yml"));
    let path = if repo.exists(&config) {
        config
    } else {
        let samples = [
            rel!("config/database.yml.sample"),
            rel!("config/database.yml.example"),
            rel!("config/database.yml.dist"),
            rel!("config/database.yml.template"),
            rel!("config/example.database.yml"),
            rel!("config/sample.database.yml"),
        ];
        let Some(sample) = samples.map(|name| dir.join(name)).into_iter().find(|p| repo.exists(p)) else {
            return;
        };
        let (from, to) = (quote(&sample), quote(&config));
        out.step(Phase::Build, format!("[ -f {to} ] || cp {from} {to}"), Evidence::file(&sample));
        sample
    };
    let Some(text) = read_existing(repo, &path) else { return };
    let mut seen = Vec::new();
    for caps in ADAPTER.captures_iter(&text) {
        let service = match &caps[1] {
            "postgresql" | "postgis" => "postgres",
            "mysql2" | "trilogy" | "mysql" => "mysql",
            _ => continue,
        };
        if !seen.contains(&service) {
            seen.push(service);
            out.service(service, None, source_at(&path, &text, caps[0].trim()));
        }
    }
}

/// The indented lines of a Gemfile.lock section (`RUBY VERSION`, `BUNDLED WITH`).
fn section<'a>(lock: &'a str, header: &str) -> Vec<&'a str> {
    lock.lines()
        .skip_while(|l| l.trim_end() != header)
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

/// Whether the byte at `at` runs only in the set-ups a block's condition takes (`if
/// Rails.application.config.features[:oidc]`, `unless`, `elsif`, `else`, `case`/`when`):
/// the app starts without what it reads. `Rails.env` conditions are not such: production is
/// the app as it is deployed.
fn under_condition(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut within = indent(&text[start..]);
    for line in text[..start].lines().rev() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || indent(line) >= within {
            continue;
        }
        let word = trimmed.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or_default();
        if matches!(word, "if" | "unless" | "elsif" | "else" | "case" | "when") {
            return !trimmed.contains("Rails.env");
        }
        if matches!(word, "def" | "class" | "module") {
            return false;
        }
        within = indent(line);
    }
    false
}

/// Whether the byte at `at` is inside a method's body: the nearest enclosing line that is
/// indented less (an `if`, a block, a `def`) is, walking out, a `def` before a `class` or
/// `module` or the file's top level.
fn in_method(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = |line: &str| line.len() - line.trim_start().len();
    let own = &text[start..];
    if own.trim_start().starts_with("def ") {
        return true; // `def token = ENV.fetch("X")`
    }
    let mut within = indent(own);
    for line in text[..start].lines().rev() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || indent(line) >= within {
            continue;
        }
        if trimmed.starts_with("def ") {
            return true;
        }
        if trimmed.starts_with("class ") || trimmed.starts_with("module ") {
            return false;
        }
        within = indent(line);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::scan;
    use crate::evidence::ev;

    const LOCK: &str = "GEM\n  remote: https://rubygems.org/\n  specs:\n    rails (7.1.3)\n    rspec-rails (6.1.0)\n\nRUBY VERSION\n   ruby 3.2.2p53\n\nBUNDLED WITH\n   2.5.3\n";

    #[test]
    fn encrypted_credentials_are_found_by_name_in_any_project() {
        let repo = |files: &[&str]| {
            let files = files.iter().map(|f| f.to_string()).collect();
            Repo::from_files(std::path::Path::new("/x"), files, Vec::new(), 1 << 20)
        };
        assert!(has_encrypted_credentials(&repo(&["config/credentials.yml.enc"])));
        assert!(has_encrypted_credentials(&repo(&["web/config/credentials/production.yml.enc"])));
        assert!(has_encrypted_credentials(&repo(&["config/secrets.yml.enc"])));
        assert!(!has_encrypted_credentials(&repo(&["config/credentials.yml.enc.sample", "lib/x.rb"])));
        assert!(!has_encrypted_credentials(&repo(&["spec/fixtures/production.yml.enc"])));
    }

    #[test]
    fn a_rails_apps_production_environment_reads_its_key_base() {
        let production = "require \"active_support/core_ext/integer/time\"\n\nRails.application.configure do\n  config.eager_load = true\nend\n";
        let reads = Ruby.env_reads(crate::rel_path::rel!("config/environments/production.rb"), production);
        let rows: Vec<(&str, Need)> = reads.iter().map(|r| (r.name.as_str(), r.need)).collect();
        assert_eq!(rows, [("SECRET_KEY_BASE", Need::Optional)]);
        // An engine's dummy app or any other file says nothing of the kind.
        assert!(Ruby.env_reads(crate::rel_path::rel!("config/environments/test.rb"), production).is_empty());
        assert!(Ruby.env_reads(crate::rel_path::rel!("config/environments/production.rb"), "# empty\n").is_empty());
    }

    #[test]
    fn the_master_key_ci_passes_from_its_secrets_is_the_apps() {
        // Rails' own template names the variable in a comment.
        let production = "Rails.application.configure do\n  # Ensures that a master key has been made available in ENV[\"RAILS_MASTER_KEY\"]\n  config.eager_load = true\nend\n";
        let workflow = "jobs:\n  test:\n    env:\n      RAILS_MASTER_KEY: ${{ secrets.RAILS_MASTER_KEY }}\n    steps:\n      - run: bin/rails test\n";
        let mut files = vec![
            ("Gemfile", "source \"https://rubygems.org\"\ngem \"rails\"\n"),
            ("config/environments/production.rb", production),
        ];
        let names = |files: &[(&str, &str)]| -> Vec<String> { crate::detect::testing::detection(files).secrets };
        assert!(
            !names(&files).contains(&MASTER_KEY.to_string()),
            "no credentials and no word of a key: {:?}",
            names(&files)
        );
        files.push((".github/workflows/ci.yml", workflow));
        assert!(names(&files).contains(&MASTER_KEY.to_string()), "{:?}", names(&files));
    }

    #[test]
    fn a_fetch_in_a_methods_body_or_under_a_feature_requires_nothing_at_boot() {
        let job = "class VerifyJob < ApplicationJob\n  TOKEN = ENV.fetch(\"CLASS_TOKEN\")\n\n  def perform\n    if ready?\n      call(key: ENV.fetch(\"FASTLY_API_KEY\"))\n    end\n  end\n\n  def token = ENV.fetch(\"ENDLESS_TOKEN\")\nend\n";
        let initializer = "Stripe.api_key = ENV.fetch(\"STRIPE_SECRET_KEY\")\nif Rails.env.production?\n  Sentry.init { |c| c.dsn = ENV.fetch(\"SENTRY_DSN\") }\nend\nif Rails.application.config.features[:oidc]\n  config.omniauth :openid_connect, {\n    client_options: {\n      secret: ENV.fetch(\"OIDC_CLIENT_SECRET\"),\n    }\n  }\nend\n";
        let needs = |rel: &str, text: &str| -> Vec<(String, Need)> {
            Ruby.env_reads(RelPath::new(rel).unwrap(), text).into_iter().map(|r| (r.name, r.need)).collect()
        };
        assert_eq!(
            needs("app/jobs/verify_job.rb", job),
            [
                ("CLASS_TOKEN".to_string(), Need::Required),
                ("FASTLY_API_KEY".to_string(), Need::Unstated),
                ("ENDLESS_TOKEN".to_string(), Need::Unstated)
            ]
        );
        assert_eq!(
            needs("config/initializers/keys.rb", initializer),
            [
                ("STRIPE_SECRET_KEY".to_string(), Need::Required),
                ("SENTRY_DSN".to_string(), Need::Required),
                // Under a feature's condition: only the set-ups that turn it on need it.
                ("OIDC_CLIENT_SECRET".to_string(), Need::Optional),
            ]
        );
    }

    #[test]
    fn a_variable_only_tested_is_an_optional_read() {
        let text =
            "if !ENV.key?('RAILS_MASTER_KEY')\n  generate_key\nend\nwarn 'x' unless ENV.has_key?(\"SMTP_PASSWORD\")\n";
        let reads: Vec<(String, Need, &str)> = Ruby
            .env_reads(crate::rel_path::rel!("config/initializers/credentials.rb"), text)
            .into_iter()
            .map(|r| (r.name, r.need, r.via))
            .collect();
        assert_eq!(
            reads,
            [
                ("RAILS_MASTER_KEY".to_string(), Need::Optional, "ENV.key?"),
                ("SMTP_PASSWORD".to_string(), Need::Optional, "ENV.key?")
            ]
        );
    }

    #[test]
    fn a_fetch_of_a_variable_tested_first_is_optional() {
        let text = "if !ENV['SIDEKIQ_PASSWORD'].to_s.empty?\n  check(ENV.fetch('SIDEKIQ_PASSWORD'))\nend\nuse(ENV.fetch('HOOK_SECRET')) if ENV.key?('HOOK_SECRET')\nkey = ENV.fetch('MASTER_KEY')\n";
        let needs: Vec<(String, Need)> = Ruby
            .env_reads(crate::rel_path::rel!("config/initializers/sidekiq.rb"), text)
            .into_iter()
            .filter(|r| r.via == "ENV.fetch")
            .map(|r| (r.name, r.need))
            .collect();
        assert_eq!(
            needs,
            [
                ("SIDEKIQ_PASSWORD".to_string(), Need::Optional),
                ("HOOK_SECRET".to_string(), Need::Optional),
                ("MASTER_KEY".to_string(), Need::Required)
            ]
        );
    }

    #[test]
    fn rails_app_with_rspec_and_postgres() {
        let s = scan(
            &Ruby,
            &[
                ("Gemfile", "source 'https://rubygems.org'\nruby '~> 3.2.0'\ngem 'rails', '~> 7.1'\ngem 'pg'\n"),
                ("Gemfile.lock", LOCK),
                ("bin/rails", "#!/usr/bin/env ruby"),
                ("spec/models/user_spec.rb", ""),
                (
                    "config/database.yml",
                    "default: &default\n  adapter: postgresql\n  pool: <%= ENV.fetch(\"RAILS_MAX_THREADS\") { 5 } %>\n",
                ),
                ("spec/fixtures/files/Gemfile", "gem 'x'"),
            ],
        );
        assert_eq!(s.toolchain("ruby"), Some((Some("3.2.0"), "Gemfile:2")));
        assert_eq!(s.findings.package_managers[0].version.as_deref(), Some("2.5.3"));
        assert_eq!(s.steps(), vec!["bundle install"]);
        assert_eq!(s.tests(), vec!["bundle exec rspec"]);
        assert_eq!(s.findings.services[0].name, "postgres");
        assert_eq!(s.findings.services[0].source, ev("config/database.yml:2"));
    }

    #[test]
    fn ruby_version_file_minitest_rails_and_nested_gem() {
        let s = scan(
            &Ruby,
            &[
                ("web/Gemfile", "gem \"rails\"\n"),
                ("web/.ruby-version", "ruby-3.3.0\n"),
                ("web/bin/rails", ""),
                ("web/test/test_helper.rb", ""),
                ("web/config/database.yml", "test:\n  adapter: sqlite3\n"),
                ("gem/Gemfile", "gemspec\n"),
                ("gem/Rakefile", "Rake::TestTask.new(:test)\n"),
            ],
        );
        assert_eq!(s.steps(), vec!["(cd gem && bundle install)", "(cd web && bundle install)"]);
        assert_eq!(s.tests(), vec!["(cd gem && bundle exec rake test)", "(cd web && bin/rails test)"]);
        assert_eq!(s.findings.toolchains[1].version.as_deref(), Some("3.3.0"));
        assert!(s.findings.services.is_empty());
        // A Gemfile inside another's folder is a bundle of its own: bundler takes the nearest.
        let s = scan(
            &Ruby,
            &[
                ("Gemfile", "gemspec\n"),
                ("Rakefile", "task :test\n"),
                ("contrib/Gemfile", "gemspec\ngem 'rspec'\n"),
                ("contrib/spec/helper_spec.rb", ""),
                ("examples/app/Gemfile", "gem 'sinatra'\n"),
            ],
        );
        assert_eq!(s.steps(), vec!["bundle install", "(cd contrib && bundle install)"]);
        assert_eq!(s.tests(), vec!["bundle exec rake test", "(cd contrib && bundle exec rspec)"]);
    }

    #[test]
    fn database_yml_sample_is_copied_into_place() {
        let s = scan(
            &Ruby,
            &[("Gemfile", "gem \"rails\"\n"), ("config/database.yml.sample", "test:\n  adapter: postgresql\n")],
        );
        assert_eq!(
            s.steps(),
            vec!["bundle install", "[ -f config/database.yml ] || cp config/database.yml.sample config/database.yml"]
        );
        assert_eq!(s.findings.services[0].source, ev("config/database.yml.sample:2"));

        let s = scan(&Ruby, &[("Gemfile", "gem 'rails'\n"), ("config/example.database.yml", "adapter: postgresql\n")]);
        assert_eq!(s.steps()[1], "[ -f config/database.yml ] || cp config/example.database.yml config/database.yml");
    }

    #[test]
    fn gem_ruby_from_its_gemspec() {
        let s = scan(
            &Ruby,
            &[
                ("Gemfile", "gemspec\n"),
                ("lib/x.rb", ""),
                ("x.gemspec", "Gem::Specification.new do |gem|\n  gem.required_ruby_version = \">= 3.2.0\"\nend\n"),
            ],
        );
        assert_eq!(s.toolchain("ruby"), Some((Some("3.2.0"), "x.gemspec:2")));
    }

    #[test]
    fn ruby_from_the_lockfile() {
        let s = scan(&Ruby, &[("Gemfile", "gem 'rake'"), ("Gemfile.lock", LOCK)]);
        assert_eq!(s.toolchain("ruby"), Some((Some("3.2.2"), "Gemfile.lock#RUBY VERSION")));
    }
}
