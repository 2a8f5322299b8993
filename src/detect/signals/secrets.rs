//! Secret names and the evidence for each: dotenv files (`.env.example`-style ones, and a
//! committed `.env` whose value is missing or a stand-in like `changethis`), the
//! `environment:` of the project's compose services, and the code's environment reads, which
//! each ecosystem finds in its own source and settings files — plain reads and settings
//! schemas alike — with whether the code needs them and what type they give the value. A
//! name is a secret when the app reads it and something says its value is sensitive; a value
//! typed or exemplified as a boolean, number, duration, list or schedule is a setting,
//! whatever its name says. Which names count is [`rules`]' to say; merge folds each name's
//! evidence into required or optional.
//!
//! Evidence, by what it says about a name:
//! - required: a read without a default (`os.environ["X"]`, a
//!   schema field without one, `fetch_env!`); compose refuses to start without it
//!   (`${X:?}`); an example file documents it as required;
//! - optional: a read with a default or an optional schema field, production-only config,
//!   an example that documents it as optional or shows it commented out;
//! - unstated: anything else (`process.env.X`, `KEY=` in an example), and CI's `secrets.X`
//!   for a test job, which counts only for a name the app reads (see [`ci_secrets`]).
//!
//! Code scanning is bounded so that detection stays fast on huge trees: the project's own
//! source and settings files, outside tests, fixtures, scripts and generated code, at most
//! [`MAX_SCANNED_FILES`] of them (configuration first, then shallowest), each read up to
//! [`MAX_SOURCE_BYTES`], on a few threads. Source files are read directly rather than
//! through the repo's cache: they are scanned once and need not stay in memory, and one that
//! cannot be read is not a problem worth a warning.

mod context;
mod files;
mod lines;
mod rules;
mod scope;
mod structs;

#[cfg(test)]
use self::scope::is_scanned_source;
use self::scope::{
    is_a_package_named_like_docs, is_config_dir, is_scanned_dir, is_scanned_file, is_skipped_code_dir, scan_priority,
};

use self::context::{
    is_dotnet_test_project, is_on_demand_command, is_production_settings, is_test_run_env_file, typed_by_its_call,
};
use self::files::{
    ComposeApp, compose_secrets, compose_services, env_file_secrets, evidence_only, evidence_only_env_secrets,
    namespaced_secrets,
};
use self::lines::Lines;
use self::rules::{
    has_credentials, is_committed_credential, is_credential_placeholder, is_placeholder, is_public, is_sandbox_secret,
    is_setting_name, is_setting_value, is_url_setting, public_halves,
};
pub use self::rules::{is_release_credential, looks_like_secret};
use crate::detect::ecosystems;
use crate::detect::ecosystems::ecosystem::{EnvHelper, EnvRead, SettingsRoot};
use crate::detect::findings::{Evidence, Findings, Need, Secret};
use crate::detect::repo::{Repo, is_ci_dir, is_load_test_dir, is_own_dir, is_test_suite_dir};
use crate::detect::signals::relevance;
use crate::detect::sources::Sources;
use crate::detect::sources::env_files::is_examples_dir;
use crate::rel_path::RelPath;
use crate::warning::Warning;
use std::collections::{HashMap, HashSet};
use std::io::Read;

/// First words of the names of test code in any language (Django's `tests.py`, a smoke
/// test's settings, the settings of the `testing` environment: Laravel's
/// `config/testing.php`, Django's `settings/testing.py`), beside each ecosystem's test-runner
/// files ([`ecosystems::is_test_file_word`]: `conftest.py`, `jest.setup.js`).
const TEST_FILE_WORDS: &[&str] = &["tests", "test", "testing", "smoketest"];
/// At most this many source files are scanned.
pub const MAX_SCANNED_FILES: usize = 2000;
/// At most this much of each source file is scanned.
pub const MAX_SOURCE_BYTES: u64 = 256 << 10;
/// A helper that reads this many names or more is a general reader, not one credential's.
const SEVERAL_NAMES: usize = 4;
/// At most this many names are taken from one file: more is generated code, not a list of
/// the project's secrets, and the bound keeps the scan small whatever the files hold.
pub const MAX_NAMES_PER_FILE: usize = 100;

pub fn detect(sources: &Sources, out: &mut Findings) {
    // Which source files to scan depends on their paths alone: chosen (over every file of the
    // tree) while the CI, compose and env files are read.
    let (chosen, (mut evidence, project, services)) = std::thread::scope(|scope| {
        let choosing = scope.spawn(|| chosen_sources(sources.repo()));
        let mut evidence = Gathered::default();
        let services = compose_services(sources);
        let project = ProjectNames::of(sources, &services);
        for file in sources.env_files().iter().filter(|file| evidence_only(file).is_none()) {
            env_file_secrets(file, &project, &mut evidence);
        }
        compose_secrets(&services, &project, &mut evidence);
        // The thread only ranks paths: it cannot panic but on a bug, which it passes on.
        let chosen = choosing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (chosen, (evidence, project, services))
    });
    // A name the code types as a setting (a boolean, a number, a list), or that the project's
    // orchestration sets itself, is none, wherever else it is spelled.
    let code = code_secrets(sources, chosen, &project, &mut evidence, out);
    namespaced_secrets(&services, &code.namespaces, &project, &mut evidence);
    ci_secrets(sources, &mut evidence);
    deploy_secrets(sources, &mut evidence);
    evidence_only_env_secrets(sources, &project, &mut evidence);
    let names: Vec<&str> = evidence.found.iter().map(|s| s.name.as_str()).collect();
    let public: HashSet<String> = public_halves(&names).map(str::to_string).collect();
    out.secrets.extend(evidence.found.into_iter().filter(|s| !public.contains(&s.name) && !code.leaves_out(&s.name)));
}

/// What CI's secret store says: a test job's `secrets.X` is private to CI, which keeps model
/// lists, regions and public client ids there too — not a credential the app needs. It is
/// evidence only for a name the app itself reads as a secret (found by now), and never makes
/// one required: that comes from the app (a schema field without a default, a `fetch`).
fn ci_secrets(sources: &Sources, evidence: &mut Gathered) {
    let read: HashSet<String> = evidence.found.iter().map(|s| s.name.clone()).collect();
    for job in sources.workflows().jobs.iter().filter(|job| relevance::tests_the_project(sources, job)) {
        for name in job.secrets.iter().filter(|name| is_sandbox_secret(name) && read.contains(*name)) {
            evidence.add(name, &job.source, Need::Unstated, "also set for the CI test job");
        }
    }
}

/// What a deploy configuration gives the app's container as secrets (Kamal's `env.secret`):
/// the app runs with each, read by its code or by a library it loads (an error tracker's
/// `HONEYBADGER_API_KEY`). Those named as credentials count; the others only where the app
/// reads them (see [`ProjectNames::marked_by_deploy`]).
fn deploy_secrets(sources: &Sources, evidence: &mut Gathered) {
    for secret in sources.container_secrets().iter().filter(|s| looks_like_secret(&s.name)) {
        let source = Evidence::line(&secret.file, secret.line);
        evidence.add(&secret.name, &source, Need::Unstated, "a secret the deploy config gives the app");
    }
}

/// Evidence in the order it was found, once per name and need.
#[derive(Default)]
struct Gathered {
    found: Vec<Secret>,
    seen: HashSet<(String, Need)>,
}

impl Gathered {
    fn add(&mut self, name: &str, source: &Evidence, need: Need, why: impl Into<String>) {
        if !is_release_credential(name) && self.seen.insert((name.to_string(), need)) {
            self.found.push(Secret { name: name.into(), source: source.clone(), need, why: why.into() });
        }
    }
}

/// What the project's env files and compose files say about names: the values they give
/// (to tell a URL with credentials from one without), the names they spell (for names a
/// framework derives), and the names an example lists without a value.
#[derive(Default)]
struct ProjectNames {
    values: HashMap<String, Vec<String>>,
    /// By [`squashed`] name: the name as the project spells it.
    spelled: HashMap<String, String>,
    /// Every name with .NET's `__` section separator the project spells is in upper case
    /// (`IDENTITY__ADMINPASSWORD`), and there is one.
    sections_in_upper_case: bool,
    /// The names a deploy configuration gives the app's container as secrets (Kamal's
    /// `env.secret`): a read of one is a secret whatever its name (`GOOGLE_GEOCODER`).
    deployed_secrets: HashSet<String>,
}

/// A name compared the way frameworks bind it: upper case, without `_`.
fn squashed(name: &str) -> String {
    name.chars().filter(|c| *c != '_').map(|c| c.to_ascii_uppercase()).collect()
}

impl ProjectNames {
    fn of(sources: &Sources, services: &[ComposeApp]) -> ProjectNames {
        let mut names = ProjectNames::default();
        let give = |names: &mut ProjectNames, key: &str, value: &str| {
            names.values.entry(key.to_string()).or_default().push(value.to_string());
            names.spelled.entry(squashed(key)).or_insert_with(|| key.to_string());
        };
        for file in sources.env_files() {
            // A test run's or CI's env file (`.env.test`, `.env.ci`) gives dummies
            // (`API_KEY=123`): what the test needs, not what the value looks like.
            let dummies = is_test_run_env_file(file.path.file_name()) || file.ci;
            for entry in &file.entries {
                if dummies {
                    names.spelled.entry(squashed(&entry.key)).or_insert_with(|| entry.key.clone());
                } else {
                    give(&mut names, &entry.key, &entry.value);
                }
            }
        }
        for (_, service, _) in services {
            for (key, value) in &service.env_as_written {
                give(&mut names, key, value);
            }
        }
        names.deployed_secrets = sources.container_secrets().iter().map(|s| s.name.clone()).collect();
        let mut sectioned = names.spelled.values().filter(|key| key.contains("__")).peekable();
        names.sections_in_upper_case =
            sectioned.peek().is_some() && sectioned.all(|key| !key.chars().any(|c| c.is_ascii_lowercase()));
        names
    }

    /// `read`, marked a secret when the deploy configuration gives it to the app as one — unless
    /// its name says it is a setting (`R2_ENDPOINT`: a deploy keeps endpoints beside keys).
    fn marked_by_deploy(&self, read: EnvRead) -> EnvRead {
        if read.marked_secret || !self.deployed_secrets.contains(&read.name) || is_setting_name(&read.name) {
            return read;
        }
        EnvRead { marked_secret: true, via: "a read of a secret the deploy config gives the app", ..read }
    }

    /// How the project spells a variable that .NET matches in any letter case (an appsettings
    /// key's `identity__adminPassword`): as an env or compose file writes it, else in upper case
    /// where those write every sectioned name so, else as the settings file does.
    fn as_spelled_in_any_case(&self, name: &str) -> String {
        if let Some(spelled) = self.spelled.get(&squashed(name)).filter(|s| s.eq_ignore_ascii_case(name)) {
            spelled.clone()
        } else if self.sections_in_upper_case {
            name.to_ascii_uppercase()
        } else {
            name.to_string()
        }
    }

    /// Whether an env or compose file gives a value to `name`, or to a name ending in it
    /// (`APP_EVENT_BUS_URL` for `EVENT_BUS_URL` read under a prefix).
    fn gives_a_value_ending_in(&self, name: &str) -> bool {
        self.values.keys().any(|key| key.ends_with(name))
    }

    fn values_of(&self, name: &str) -> Vec<&str> {
        self.values.get(name).map(|v| v.iter().map(String::as_str).collect()).unwrap_or_default()
    }

    /// Whether every value the project gives `name` (past empty ones and stand-ins) is a
    /// setting's — a boolean, number, duration, schedule or list — and there is one.
    fn exemplified_as_setting(&self, name: &str) -> bool {
        let mut given = self.values_of(name).into_iter().filter(|v| !is_placeholder(v)).peekable();
        given.peek().is_some() && given.all(|v| is_setting_value(name, v))
    }

    /// Whether `name` is a URL whose credentials the project gives apart: every example shows
    /// it without any, and a password of the same service is set beside it (`CLICKHOUSE_URL=
    /// http://clickhouse:8123` with `CLICKHOUSE_PASSWORD`): the URL is an address, the password
    /// the secret.
    fn credentials_given_apart(&self, name: &str, values: &[&str]) -> bool {
        let Some((service, rest)) = name.split_once('_') else { return false };
        let url = rest.ends_with("URL") || rest.ends_with("URI");
        let password =
            |key: &str| key.strip_prefix(service).is_some_and(|k| k.starts_with('_')) && key.ends_with("_PASSWORD");
        url && !values.is_empty()
            && values.iter().all(|v| v.contains("://") && !has_credentials(v))
            && self.values.keys().any(|key| password(key))
    }

    /// Whether `name` is a secret here: by its name (or because the code says so), and not a
    /// URL every example shows without credentials; or a URL an example shows with them.
    fn is_secret(&self, name: &str, marked: bool) -> bool {
        let values = self.values_of(name);
        let by_name =
            looks_like_secret(name) || marked && !is_public(name) && crate::names::validate_secret_name(name).is_ok();
        let by_value = values.iter().any(|v| has_credentials(v)) && crate::names::validate_secret_name(name).is_ok();
        let secret = by_name && !is_url_setting(name, &values) && !self.credentials_given_apart(name, &values)
            || by_value && !is_public(name);
        secret && (marked || !self.exemplified_as_setting(name))
    }
}

/// The source files the code scan reads, as sorted positions in the repo's files, and how
/// many there were when that is more than [`MAX_SCANNED_FILES`].
struct Chosen {
    positions: Vec<u32>,
    capped_from: Option<usize>,
}

/// The source files to scan for secrets, bounded (see the module documentation).
fn chosen_sources(repo: &Repo) -> Chosen {
    // Filtering every path of a large tree costs as much as reading the files: split it too.
    // Positions, not paths: a large tree has a hundred thousand source files. Each with its
    // priority, worked out once: a position orders like its path (the files are sorted).
    let mut ranked: Vec<(u8, u16, u32)> = in_chunks(repo.file_count(), |range| {
        let start = range.start;
        // Sorted paths come folder by folder: each folder's verdict is worked out once.
        let mut folder: Option<(&str, bool, bool)> = None;
        let mut found = Vec::new();
        for (i, file) in repo.files_in(range).enumerate() {
            let dir = file.dir();
            // The folder's verdict first: it is worked out once for all its files.
            let (scanned, config) = match folder {
                Some((last, scanned, config)) if last == dir => (scanned, config),
                _ => {
                    let scanned = is_scanned_dir(dir) || is_a_package_named_like_docs(repo, dir);
                    let config = is_config_dir(dir);
                    folder = Some((dir, scanned, config));
                    (scanned, config)
                }
            };
            if scanned && is_scanned_file(dir, file.name()) {
                let (config, depth) = scan_priority(dir, file.name(), config);
                found.push((config, depth, (start + i) as u32));
            }
        }
        found
    });
    let mut capped_from = None;
    if ranked.len() > MAX_SCANNED_FILES {
        capped_from = Some(ranked.len());
        ranked.select_nth_unstable(MAX_SCANNED_FILES);
        ranked.truncate(MAX_SCANNED_FILES);
    }
    // Not collected in place: `ranked`'s buffer holds every candidate of the tree, and the
    // positions live through the whole scan.
    let mut positions: Vec<u32> = ranked.iter().map(|&(_, _, i)| i).collect();
    drop(ranked);
    positions.sort_unstable();
    Chosen { positions, capped_from }
}

/// The secrets the project's code reads in the `chosen` files.
fn code_secrets(
    sources: &Sources,
    chosen: Chosen,
    project: &ProjectNames,
    evidence: &mut Gathered,
    out: &mut Findings,
) -> CodeFacts {
    let repo = sources.repo();
    let Chosen { positions, capped_from } = chosen;
    if let Some(total) = capped_from {
        out.note(format!(
            "secret names read from the first {MAX_SCANNED_FILES} of {total} source files (configuration first)"
        ));
    }
    let scanned: Vec<&RelPath> = positions.iter().map(|&i| repo.file(i as usize)).collect();
    let mut scans: Vec<(&RelPath, FileScan)> = in_chunks(scanned.len(), |range| {
        // One buffer per thread for every file it reads, not one allocation per file.
        let mut bytes = Vec::new();
        // Most files read nothing: only the scans that say something are kept.
        scanned[range]
            .iter()
            .map(|rel| (*rel, scan_file(sources, rel, project, &mut bytes)))
            .filter(|(_, scan)| !scan.is_empty())
            .collect()
    });
    let crowded: Vec<&RelPath> = scans.iter().filter(|(_, scan)| scan.capped).map(|(rel, _)| *rel).collect();
    if let Some(first) = crowded.first() {
        let problem = format!(
            "more than {MAX_NAMES_PER_FILE} secret names read from the environment; only the first \
             {MAX_NAMES_PER_FILE} of each file kept"
        );
        out.warn(match crowded.len() {
            1 => Warning::in_file(*first, problem),
            n => Warning::in_first_of(*first, n - 1, problem),
        });
    }
    // Packages that walk the whole environment key their parsers by the names.
    let walking: HashSet<&RelPath> =
        scans.iter().filter(|(_, scan)| scan.walks_environment).map(|(rel, _)| rel.parent()).collect();
    // One prefix set in one file (`PrefixLookuper("APP_", …)` in `main.go`) is the project's:
    // the reads of files that set none are under it. Several disagree: then no file's applies.
    let prefixes: HashSet<&str> = scans.iter().filter_map(|(_, scan)| scan.prefix.as_deref()).collect();
    let project_prefix = if prefixes.len() == 1 { prefixes.into_iter().next() } else { None };
    let project_prefix = project_prefix.unwrap_or_default().to_string();
    let namespaces: HashSet<String> = scans.iter().filter_map(|(_, scan)| scan.namespace.clone()).collect();
    let supplied: HashSet<String> =
        scans.iter().flat_map(|(_, scan)| &scan.supplied).map(|name| name.to_ascii_uppercase()).collect();
    // The env helpers of the project, wherever defined: calls of them in any file are reads.
    let mut helpers: HashMap<String, EnvHelper> =
        scans.iter().flat_map(|(_, scan)| &scan.helpers).map(|h| (h.function.clone(), h.clone())).collect();
    // A helper named for secrets that the project reads its ports and hosts with too
    // (`ReadSecret("SMTP_HOST")`, a reader of Docker's secret files) says where values come
    // from, not what they are: it marks nothing when it reads several names and most are no
    // credential's. (One made for a credential, `cookie!("APP_DISTRIBUTION")`, still marks.)
    let mut read_with: HashMap<&str, HashSet<&str>> = HashMap::new();
    for (read, _) in scans.iter().flat_map(|(_, scan)| &scan.helper_calls) {
        read_with.entry(read.helper.as_deref().unwrap_or_default()).or_default().insert(read.name.as_str());
    }
    for helper in helpers.values_mut().filter(|h| h.marked_secret) {
        let names = read_with.get(helper.function.as_str());
        let credentials = names.map_or(0, |names| names.iter().filter(|n| looks_like_secret(n)).count());
        if names.is_some_and(|names| names.len() >= SEVERAL_NAMES && credentials * 2 < names.len()) {
            helper.marked_secret = false;
        }
    }
    // The constants naming variables, wherever defined; one defined twice apart names none.
    // (Owned: the scans are taken apart below.)
    let mut constants: HashMap<&str, Option<&str>> = HashMap::new();
    for (constant, value) in scans.iter().flat_map(|(_, scan)| &scan.constants) {
        let entry = constants.entry(constant.as_str()).or_insert(Some(value.as_str()));
        if *entry != Some(value.as_str()) {
            *entry = None;
        }
    }
    let constants: HashMap<String, String> =
        constants.into_iter().filter_map(|(c, v)| Some((c.to_string(), v?.to_string()))).collect();
    // The structs a settings library fills, defined and filled anywhere in the project.
    let mut defined: Vec<(&RelPath, structs::Defined)> = Vec::new();
    let mut roots: Vec<(&RelPath, SettingsRoot)> = Vec::new();
    let mut decoders: Vec<String> = Vec::new();
    let mut given: HashSet<String> = HashSet::new();
    for (rel, scan) in &mut scans {
        defined.extend(std::mem::take(&mut scan.structs).into_iter().map(|d| (*rel, d)));
        roots.extend(std::mem::take(&mut scan.roots).into_iter().map(|root| (*rel, root)));
        decoders.append(&mut scan.decoders);
        given.extend(std::mem::take(&mut scan.given));
    }
    // As the project's prefix: one, or none where files disagree.
    let root_prefixes: HashSet<String> = scans.iter().filter_map(|(_, scan)| scan.root_prefix.clone()).collect();
    let root_prefix = if root_prefixes.len() == 1 { root_prefixes.into_iter().next() } else { None };
    let mut typed_settings = HashSet::new();
    for (rel, scan) in scans {
        let keyed = scan.keyed.into_iter().filter(|_| walking.contains(rel.parent()));
        for secret in scan.secrets.into_iter().chain(keyed) {
            evidence.add(&secret.name, &secret.source, secret.need, secret.why);
        }
        typed_settings.extend(scan.settings);
        let prefixed = scan
            .unprefixed
            .into_iter()
            .filter(|(read, _)| !read.needs_prefix || !project_prefix.is_empty())
            .map(|(read, line)| (EnvRead { name: format!("{project_prefix}{}", read.name), ..read }, line));
        let helped = scan.helper_calls.into_iter().filter_map(|(read, line)| {
            let helper = helpers.get(read.helper.as_deref().unwrap_or_default())?;
            Some((helper.read(read), line))
        });
        let through_constants = scan.constant_reads.into_iter().filter_map(|(read, line)| {
            let name = constants.get(&read.name)?.clone();
            Some((EnvRead { name, by_constant: false, ..read }, line))
        });
        for (read, line) in prefixed.chain(helped).chain(through_constants) {
            if read.setting && !read.marked_secret {
                typed_settings.insert(read.name);
                continue;
            }
            let Some((name, why, keyed)) = accepted(&read, project) else { continue };
            if name.len() <= crate::names::MAX_NAME_LEN && (!keyed || walking.contains(rel.parent())) {
                evidence.add(&name, &read_evidence(rel, &read, line), read.need, why);
            }
        }
    }
    let decoders: HashSet<&str> = decoders.iter().map(String::as_str).collect();
    for (rel, read, line) in
        structs::filled(&roots, &defined, &decoders, &given, (&project_prefix, root_prefix.as_deref()))
    {
        if read.setting && !read.marked_secret {
            typed_settings.insert(read.name);
            continue;
        }
        let Some((name, why, keyed)) = accepted(&read, project) else { continue };
        if name.len() <= crate::names::MAX_NAME_LEN && !keyed {
            evidence.add(&name, &Evidence::line(rel, line), read.need, why);
        }
    }
    CodeFacts { typed_settings, namespaces, supplied }
}

/// What the code says about names beyond the secrets it reads.
struct CodeFacts {
    /// Names the code types as settings (a boolean, a number, a list): none is a secret,
    /// wherever else it is spelled.
    typed_settings: HashSet<String>,
    /// Prefixes a settings library loads every variable under.
    namespaces: HashSet<String>,
    /// Names (upper case: .NET compares them so) the project's orchestration sets itself.
    supplied: HashSet<String>,
}

impl CodeFacts {
    fn leaves_out(&self, name: &str) -> bool {
        self.typed_settings.contains(name) || self.supplied.contains(&name.to_ascii_uppercase())
    }
}

/// What one source file says.
#[derive(Default)]
struct FileScan {
    secrets: Vec<Secret>,
    /// Secrets named by a parser's keys ([`EnvRead::derived`]) the project spells nowhere
    /// else: reads when a file of the same package walks the whole environment.
    keyed: Vec<Secret>,
    /// More than [`MAX_NAMES_PER_FILE`] names: the rest were not taken.
    capped: bool,
    /// Names the code types as settings ([`EnvRead::setting`]): a flat class may type hundreds.
    settings: Vec<String>,
    walks_environment: bool,
    /// The prefix the file's settings library puts before the names it reads
    /// ([`ecosystems::ecosystem::Ecosystem::env_prefix`]).
    prefix: Option<String>,
    /// The prefix the file's settings library loads every variable under
    /// ([`ecosystems::ecosystem::Ecosystem::env_namespace`]).
    namespace: Option<String>,
    /// The structs the file defines, the ones it has a settings library fill, and the types
    /// that parse their own value ([`ecosystems::ecosystem::Ecosystem::settings_structs`]).
    structs: Vec<structs::Defined>,
    roots: Vec<SettingsRoot>,
    decoders: Vec<String>,
    /// The prefix the file's set-up gives other files' roots ([`ecosystems::ecosystem::SettingsTypes::root_prefix`]).
    root_prefix: Option<String>,
    /// Variables the project's orchestration sets ([`ecosystems::ecosystem::Ecosystem::env_supplied`]).
    supplied: Vec<String>,
    /// Variables (upper case) a settings file's key gives a value ([`EnvRead::settings_key`]).
    given: Vec<String>,
    /// Reads under a prefix another file may set ([`EnvRead::unprefixed`]), with their line:
    /// named once the project's prefix is known.
    unprefixed: Vec<(EnvRead, usize)>,
    /// The env helpers the file defines ([`ecosystems::ecosystem::Ecosystem::env_helpers`]).
    helpers: Vec<EnvHelper>,
    /// Calls that are reads if some file defines their function as an env helper
    /// ([`EnvRead::helper`]), with their line.
    helper_calls: Vec<(EnvRead, usize)>,
    /// The constants the file defines as variables' names ([`ecosystems::ecosystem::Ecosystem::name_constants`]).
    constants: Vec<(String, String)>,
    /// Reads through a constant of another file ([`EnvRead::by_constant`]), with their line.
    constant_reads: Vec<(EnvRead, usize)>,
}

impl FileScan {
    /// Whether the file said nothing (every field named: a new one must be judged here too).
    fn is_empty(&self) -> bool {
        let FileScan {
            secrets,
            keyed,
            capped,
            settings,
            walks_environment,
            prefix,
            namespace,
            structs,
            roots,
            decoders,
            root_prefix,
            supplied,
            given,
            unprefixed,
            helpers,
            helper_calls,
            constants,
            constant_reads,
        } = self;
        secrets.is_empty()
            && keyed.is_empty()
            && !capped
            && settings.is_empty()
            && !walks_environment
            && prefix.is_none()
            && namespace.is_none()
            && structs.is_empty()
            && roots.is_empty()
            && decoders.is_empty()
            && root_prefix.is_none()
            && supplied.is_empty()
            && given.is_empty()
            && unprefixed.is_empty()
            && helpers.is_empty()
            && helper_calls.is_empty()
            && constants.is_empty()
            && constant_reads.is_empty()
    }
}

/// `work` over consecutive ranges of `0..len` on a few threads, the first range on this one
/// (each thread that allocates keeps a malloc arena of its own); results in order.
fn in_chunks<R: Send>(len: usize, work: impl Fn(std::ops::Range<usize>) -> Vec<R> + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let chunk = len.div_ceil(threads).max(1);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (chunk..len)
            .step_by(chunk)
            .map(|start| scope.spawn(move || work(start..(start + chunk).min(len))))
            .collect();
        let mut results = work(0..chunk.min(len));
        results.extend(handles.into_iter().flat_map(|h| h.join().unwrap_or_default()));
        results
    })
}

/// The secrets `rel` reads, each with `path:line` and the evidence. In a `scripts/` folder
/// only names a sandbox would set (not `GITHUB_TOKEN`, `NPM_TOKEN`, …) and an env file of the
/// project spells count. At most
/// [`MAX_NAMES_PER_FILE`] names: a file of generated reads must not fill the proposal.
fn scan_file(sources: &Sources, rel: &RelPath, project: &ProjectNames, bytes: &mut Vec<u8>) -> FileScan {
    // Listed as a file, but it may have been swapped for a FIFO since: never block on one.
    let root = sources.repo().root();
    let Ok(file) = crate::fsutil::open_regular_within(&root.join(rel), root) else { return FileScan::default() };
    bytes.clear();
    if file.take(MAX_SOURCE_BYTES).read_to_end(bytes).is_err() || bytes.contains(&0) {
        return FileScan::default();
    }
    let text = String::from_utf8_lossy(bytes);
    let is_yaml = [".yml", ".yaml", ".yml.erb", ".yaml.erb"].iter().any(|e| rel.ends_with(e));
    // A project's scripts: what they read counts, but not what CI and publishing use there.
    let automation = rel.parent().split('/').any(|d| d.eq_ignore_ascii_case("scripts"));
    let on_demand = is_on_demand_command(rel.parent());
    let production = is_production_settings(rel.parent(), rel.file_name());
    let mut scan = FileScan::default();
    let readers: Vec<_> = ecosystems::reading_env_in(rel.parent(), rel.file_name()).collect();
    scan.walks_environment = readers.iter().any(|eco| eco.walks_environment(&text));
    scan.prefix = readers.iter().find_map(|eco| eco.env_prefix(&text));
    scan.namespace = readers.iter().find_map(|eco| eco.env_namespace(&text));
    for eco in &readers {
        let types = eco.settings_structs(&text);
        scan.root_prefix = scan.root_prefix.take().or(types.root_prefix);
        if types.structs.is_empty() && types.roots.is_empty() && types.decoders.is_empty() {
            continue;
        }
        let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
        let line_of = |at: usize| newlines.partition_point(|&n| n < at) + 1;
        scan.structs.extend(types.structs.into_iter().map(|settings| {
            let lines = settings.fields.iter().map(|f| line_of(f.at)).collect();
            structs::Defined { settings, lines }
        }));
        scan.roots.extend(types.roots);
        scan.decoders.extend(types.decoders);
    }
    scan.supplied = readers.iter().flat_map(|eco| eco.env_supplied(&text)).take(MAX_NAMES_PER_FILE).collect();
    scan.helpers = readers.iter().flat_map(|eco| eco.env_helpers(&text)).take(MAX_NAMES_PER_FILE).collect();
    scan.constants = readers.iter().flat_map(|eco| eco.name_constants(&text)).take(MAX_NAMES_PER_FILE * 4).collect();
    let mut lines = Lines::new(&text);
    let mut names = HashSet::new();
    let mut told = HashSet::new();
    for piece in pieces(&text) {
        let mut reads: Vec<EnvRead> = readers
            .iter()
            .flat_map(|eco| eco.env_reads_in(sources, rel, &text[piece.clone()]))
            .filter(|read| read.at <= piece.len())
            .map(|read| EnvRead { at: piece.start + read.at, ..read })
            .collect();
        // In order, so that the lines are counted in one pass.
        reads.sort_by_key(|read| read.at);
        for read in reads {
            // A settings file's key is no call: its value says what it holds.
            let typed = read.settings_key.is_none() && typed_by_its_call(&text, &read);
            // A settings file's stand-in that says a key goes there (`"AzureStorage": "[storagekey]"`),
            // where the key's name has no word of a credential to judge it by
            // (`InstrumentationKey` has: a public one).
            let marked = read.settings_key.as_ref().is_some_and(|key| {
                is_credential_placeholder(&key.value)
                    && !rules::words(&read.name).iter().any(|w| rules::is_credential_word(w))
            });
            let read = EnvRead { setting: read.setting || typed, marked_secret: read.marked_secret || marked, ..read };
            let read = project.marked_by_deploy(read);
            if let Some(key) = read.settings_key.as_ref().filter(|key| !is_still_to_give(&key.value)) {
                if scan.given.len() < MAX_NAMES_PER_FILE * 4 {
                    scan.given.push(read.name.to_ascii_uppercase());
                }
                // A credential's key keeps its variable, optional, even with the file's
                // development value (`password: root`): a deployment sets its own.
                if !(looks_like_secret(&read.name) && is_committed_credential(&read.name, &key.value)) {
                    continue;
                }
            }
            lines.seek(read.at);
            // A settings file's commented-out key (`# db_uri = "postgres://…"`) is one still to give.
            if lines.in_comment() && read.settings_key.is_none() || is_yaml && lines.in_production_section() {
                continue;
            }
            // A script's own credential counts only when an env file of the project asks for it
            // (`PYDANTIC_AI_GATEWAY_API_KEY` in the template beside the translation script);
            // one it alone reads is the script author's (a seeding or load-test token).
            if automation && (!is_sandbox_secret(&read.name) || !project.spelled.contains_key(&squashed(&read.name))) {
                continue;
            }
            if read.by_constant {
                if scan.constant_reads.len() < MAX_NAMES_PER_FILE {
                    scan.constant_reads.push((read, lines.number));
                }
                continue;
            }
            if read.helper.is_some() {
                // A call per setting, most of them no secret (`t_str` for each key): bounded like prefixed reads.
                scan.helper_calls
                    .extend((scan.helper_calls.len() < MAX_NAMES_PER_FILE * 4).then_some((read, lines.number)));
                continue;
            }
            if read.unprefixed {
                // Kept for later only what may be a secret or a typed setting under a prefix (a
                // prefix adds words in front: it does not make `PORT` a credential; a value an
                // env file gives may), bounded like names: go-flags groups make one tag many names.
                let kept = read.derived
                    || read.marked_secret
                    || read.setting
                    || looks_like_secret(&read.name)
                    || project.gives_a_value_ending_in(&read.name);
                if kept && scan.unprefixed.len() < MAX_NAMES_PER_FILE * 4 {
                    scan.unprefixed.push((read, lines.number));
                }
                continue;
            }
            if read.setting && !read.marked_secret {
                if scan.settings.len() < MAX_NAMES_PER_FILE * 4 {
                    scan.settings.push(read.name.clone());
                }
                continue;
            }
            let Some((name, why, keyed)) = accepted(&read, project) else { continue };
            if name.len() > crate::names::MAX_NAME_LEN || !told.insert((name.clone(), read.need, keyed)) {
                continue;
            }
            if !names.contains(&name) {
                if names.len() == MAX_NAMES_PER_FILE {
                    scan.capped = true;
                    return scan;
                }
                names.insert(name.clone());
            }
            let (need, why) = if on_demand && read.need == Need::Required {
                (Need::Optional, format!("{}, in a command run by hand", read.via))
            } else if production && read.need == Need::Required {
                (Need::Optional, format!("{}, production-only config", read.via))
            } else {
                (read.need, why)
            };
            let secret = Secret { name, source: read_evidence(rel, &read, lines.number), need, why };
            if keyed { scan.keyed.push(secret) } else { scan.secrets.push(secret) }
        }
    }
    scan
}

/// Files up to this size are read for settings in one piece: a schema or settings class is
/// seen whole.
const WHOLE_FILE_BYTES: usize = 128 << 10;
/// Larger files (generated code, bundles) in pieces of about this size, so that one of
/// generated reads stops costing once it has given its [`MAX_NAMES_PER_FILE`].
const PIECE_BYTES: usize = 64 << 10;

/// The byte ranges `text` is read in: the whole of a small file; a large one in pieces that
/// end after a `\n` or `;` (minified code has long lines, but semicolons).
fn pieces(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    if text.len() <= WHOLE_FILE_BYTES {
        found.push(0..text.len());
        return found;
    }
    let mut start = 0;
    while start < text.len() {
        let from = (start + PIECE_BYTES).min(text.len());
        let end =
            text.as_bytes()[from..].iter().position(|&b| b == b'\n' || b == b';').map_or(text.len(), |i| from + i + 1);
        found.push(start..end);
        start = end;
    }
    found
}

/// The name a read reports when it is a secret, the evidence in words, and whether it counts
/// only in a package that walks the whole environment ([`FileScan::keyed`]).
fn accepted(read: &EnvRead, project: &ProjectNames) -> Option<(String, String, bool)> {
    if let Some(name) = accepted_name(read, project) {
        Some((name, describe(read), false))
    } else if read.derived && project.is_secret(&read.name, read.marked_secret) {
        Some((read.name.clone(), format!("{}, in a package that reads the whole environment", read.via), true))
    } else {
        None
    }
}

/// The name a read reports, when it is a secret: a derived name only as the project spells
/// it in an env or compose file.
fn accepted_name(read: &EnvRead, project: &ProjectNames) -> Option<String> {
    let name = if read.derived {
        project.spelled.get(&squashed(&read.name))?.clone()
    } else if read.settings_key.is_some() {
        project.as_spelled_in_any_case(&read.name)
    } else {
        read.name.clone()
    };
    let by_words = read.derived && looks_like_secret(&read.name) && !is_public(&name);
    // Upper case loses a key's word boundaries (`adminClientSecret`, `mail.smtpPassword`).
    let as_keyed = read.settings_key.as_ref().is_some_and(|key| {
        let written = key.key.replace(['.', '-'], "_");
        project.is_secret(&read.name, read.marked_secret) || project.is_secret(&written, read.marked_secret)
    });
    (project.is_secret(&name, read.marked_secret) || by_words || as_keyed).then_some(name)
}

/// Whether a settings file's value for a key leaves it to the environment: empty, a stand-in
/// (`YourConnectionString`, `<api-key>`), or carrying a password (a connection string's
/// `Password=…`, a URL's `user:pass@`) a developer replaces with their own. Any other value
/// (a thumbprint, a URL, a path) is one the app runs with — but a credential's committed
/// value is development's, and its variable still counts (see [`is_committed_credential`]).
fn is_still_to_give(value: &str) -> bool {
    is_placeholder(value) || has_credentials(value)
}

/// Where a read is: its settings file's key (`appsettings.json#Stripe.ApiKey`), or its line.
fn read_evidence(rel: &RelPath, read: &EnvRead, line: usize) -> Evidence {
    match &read.settings_key {
        Some(key) => Evidence::key(rel, &key.key),
        None => Evidence::line(rel, line),
    }
}

/// A read's evidence in words: `BaseSettings field, no default`.
fn describe(read: &EnvRead) -> String {
    match read.need {
        Need::Required => format!("{}, no default", read.via),
        Need::Optional => format!("{}, optional", read.via),
        Need::Unstated => read.via.to_string(),
    }
}

#[cfg(test)]
mod tests;
