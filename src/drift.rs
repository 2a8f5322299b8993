//! `detect --check`: has the checkout drifted from its recorded environment? A fresh
//! [`Detection`] is compared, by meaning and not by text, with the committed
//! `.hanzo/environment.toml` (or the server's saved copy), and every exported agent file in
//! the checkout with what `export` would write now.
//!
//! "By meaning": comment lines, blank lines, runs of blanks and `set -euo pipefail` are
//! ignored; a line that differs only in its version numbers is a moved pin; the services a
//! start brings up are compared as a set; a secret the code reads that the record lacks is
//! drift, one the record lists that nothing reads any more is only information.

use std::path::Path;

use serde::Serialize;

use crate::detect::Detection;
use crate::detect::ecosystems::is_install_program;
use crate::evidence::Evidence;
use crate::export::{self, Setup, StartKind, Target};

/// The recorded environment a detection is checked against.
#[derive(Debug, Clone)]
pub struct Baseline {
    pub install: String,
    pub start: String,
    pub secrets: Vec<String>,
    /// The file it was read from (repo-relative) and its text, for line numbers; `None`
    /// for the server's copy.
    pub file: Option<(String, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    PinMoved,
    ServiceAdded,
    ServiceRemoved,
    PackageManagerAdded,
    WorkspaceAdded,
    InstallLine,
    StartLine,
    SecretMissing,
    SecretUnused,
    ExportStale,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The record no longer matches the checkout: `--check` fails.
    Drift,
    /// Worth knowing, not a failure.
    Info,
}

/// One difference, with the evidence behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Drift {
    pub kind: Kind,
    pub severity: Severity,
    pub message: String,
    /// The places that justify it (`path#key` or `path:line` in JSON).
    pub evidence: Vec<Evidence>,
    /// Where an annotation should point: a repo-relative file and, when known, a line.
    pub file: Option<String>,
    pub line: Option<usize>,
}

impl Drift {
    fn new(kind: Kind, severity: Severity, message: String, evidence: Vec<Evidence>) -> Drift {
        let file = evidence.first().map(|e| e.path.to_string());
        let line = evidence.first().and_then(Evidence::line_number);
        Drift { kind, severity, message, evidence, file, line }
    }

    fn at(mut self, file: Option<(String, Option<usize>)>) -> Drift {
        if let Some((file, line)) = file {
            self.file = Some(file);
            self.line = line;
        }
        self
    }

    /// One line for a terminal: the message and its evidence.
    pub fn line(&self) -> String {
        let label = match self.severity {
            Severity::Drift => "drift",
            Severity::Info => "info",
        };
        if self.evidence.is_empty() {
            format!("{label}: {}", self.message)
        } else {
            format!("{label}: {} ({})", self.message, cited(&self.evidence))
        }
    }

    /// A GitHub Actions workflow command: `::error` for drift, `::warning` for information.
    pub fn annotation(&self) -> String {
        let command = match self.severity {
            Severity::Drift => "error",
            Severity::Info => "warning",
        };
        let mut properties = Vec::new();
        if let Some(file) = &self.file {
            properties.push(format!("file={}", escape_property(file)));
            if let Some(line) = self.line {
                properties.push(format!("line={line}"));
            }
        }
        properties.push("title=hanzo-env detect --check".to_string());
        let mut message = self.message.clone();
        if !self.evidence.is_empty() {
            message.push_str(&format!(" ({})", cited(&self.evidence)));
        }
        format!("::{command} {}::{}", properties.join(","), escape_data(&message))
    }
}

/// Workflow-command escaping (the runner's `escapeData` and `escapeProperty`).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn cited(evidence: &[Evidence]) -> String {
    evidence.iter().map(Evidence::to_string).collect::<Vec<_>>().join(", ")
}

/// Compare a fresh detection with the recorded environment.
pub fn compare(detection: &Detection, baseline: &Baseline) -> Vec<Drift> {
    let mut drifts = Vec::new();
    compare_install(detection, baseline, &mut drifts);
    compare_start(detection, baseline, &mut drifts);
    compare_secrets(detection, baseline, &mut drifts);
    drifts
}

/// A script's lines as they matter: no comments, no blank lines, no strict-mode line, and
/// runs of blanks made one.
pub fn meaningful_lines(script: &str) -> Vec<String> {
    script
        .lines()
        .map(|l| crate::plan::render::without_evidence(l).split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !is_strict_mode(l))
        .collect()
}

fn is_strict_mode(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    matches!(words.as_slice(), ["set", flags] | ["set", flags, "pipefail"] if flags.starts_with('-') && flags[1..].chars().all(|c| "euxo".contains(c)))
        || line == "set -o pipefail"
}

/// The line with every version number (`20`, `1.1.30`) replaced by `#`.
fn version_mask(line: &str) -> String {
    static NUMBER: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"[0-9]+(?:\.[0-9]+)*").expect("valid regex"));
    NUMBER.replace_all(line, "#").into_owned()
}

/// A detected install step as drift compares it: its lines as the file holds them, and from
/// the plan (not its text) the tool it runs and the folder it runs in.
struct Detected {
    lines: Vec<String>,
    source: Vec<Evidence>,
    tool: Option<String>,
    dir: Option<String>,
}

impl Detected {
    fn of(step: &crate::plan::Step) -> Detected {
        let tool = match &step.action {
            crate::plan::Action::Shell(text) => text.lines().find_map(|l| tool_of(l).0).map(str::to_string),
            crate::plan::Action::Helper { .. } => None,
        };
        Detected {
            lines: meaningful_lines(&step.command()),
            source: step.source.clone(),
            tool,
            dir: (!step.dir.is_empty()).then(|| step.dir.clone()),
        }
    }
}

/// The tool a line of a reviewed install runs, and the directory it runs in: `(cd api && uv
/// sync)` → (`uv`, `api`).
fn tool_of(line: &str) -> (Option<&str>, Option<&str>) {
    let inner = line.trim_start_matches('(').trim_end_matches(')').trim();
    let (dir, rest) = match inner.strip_prefix("cd ").and_then(|r| r.split_once("&&")) {
        Some((dir, rest)) => (Some(dir.trim()), rest.trim()),
        None => (None, inner),
    };
    // `command -v bun >/dev/null 2>&1 || npm install -g bun@1` makes bun present, as does
    // `uv --version >/dev/null 2>&1 || python3 -m pip install uv`.
    let checked = rest.strip_prefix("command -v ").and_then(|r| r.split_whitespace().next()).or_else(|| {
        rest.split_once(" --version >/dev/null 2>&1 ||").map(|(tool, _)| tool).filter(|t| !t.contains(' '))
    });
    if let Some(tool) = checked {
        return (is_install_program(tool).then_some(tool), dir);
    }
    let rest = rest.rsplit("||").next().unwrap_or(rest).trim();
    let mut words = rest.split_whitespace().skip_while(|w| w.contains('=') && !w.starts_with('-'));
    let tool = words.next().map(|w| w.rsplit('/').next().filter(|_| !w.starts_with("./")).unwrap_or(w));
    let tool = tool.filter(|t| is_install_program(t) || t.starts_with("python"));
    (tool, dir)
}

/// Removes and returns the first item of `items` equal to `item`.
fn take<T: PartialEq>(items: &mut Vec<T>, item: &T) -> bool {
    match items.iter().position(|i| i == item) {
        Some(i) => {
            items.remove(i);
            true
        }
        None => false,
    }
}

/// Install compared step by step: a detected step (one evidence, one or several lines) is
/// in the record when all its lines are; one whose lines differ only in version numbers is
/// a moved pin; the steps of a new package manager are one drift.
fn compare_install(detection: &Detection, baseline: &Baseline, drifts: &mut Vec<Drift>) {
    let steps: Vec<Detected> = if detection.steps.is_empty() {
        let lines = meaningful_lines(&detection.install);
        vec![Detected { lines, source: Vec::new(), tool: None, dir: None }]
    } else {
        detection.steps.iter().map(Detected::of).collect()
    };
    let recorded = meaningful_lines(&baseline.install);
    let mut remaining = recorded.clone();
    let mut missing: Vec<Detected> = Vec::new();
    for step in steps.into_iter().filter(|step| !step.lines.is_empty()) {
        let mut trial = remaining.clone();
        if step.lines.iter().all(|line| take(&mut trial, line)) {
            remaining = trial;
        } else {
            missing.push(step);
        }
    }
    // A step whose lines differ from recorded ones only in their version numbers: a moved pin.
    missing.retain(|Detected { lines, source, .. }| {
        let mut trial = remaining.clone();
        let mut pairs: Vec<(String, &String)> = Vec::new();
        for line in lines {
            let mask = version_mask(line);
            let Some(i) = trial.iter().position(|r| version_mask(r) == mask) else { return true };
            pairs.push((trial.remove(i), line));
        }
        remaining = trial;
        if let Some((old, new)) = pairs.into_iter().find(|(old, new)| old != *new) {
            drifts.push(
                Drift::new(
                    Kind::PinMoved,
                    Severity::Drift,
                    format!("toolchain pin moved: `{old}` → `{new}`"),
                    source.clone(),
                )
                .at(baseline_location(baseline, &old)),
            );
        }
        false
    });
    let recorded_tools: Vec<&str> = recorded.iter().filter_map(|l| tool_of(l).0).collect();
    let mut new_tools: Vec<&str> = Vec::new();
    for Detected { lines, source, tool, dir } in &missing {
        let main = lines.iter().find(|l| tool_of(l).0.is_some()).unwrap_or(&lines[0]);
        let more = match lines.len() - 1 {
            0 => String::new(),
            1 => " and 1 more line".to_string(),
            n => format!(" and {n} more lines"),
        };
        let (kind, message) = match (tool.as_deref(), dir.as_deref()) {
            // The other steps of a package manager reported as new belong to that drift.
            (Some(tool), _) if new_tools.contains(&tool) => continue,
            (Some(tool), _) if !recorded_tools.contains(&tool) => {
                new_tools.push(tool);
                (Kind::PackageManagerAdded, format!("new package manager `{tool}`: install lacks `{main}`{more}"))
            }
            (Some(_), Some(dir)) => {
                (Kind::WorkspaceAdded, format!("new workspace in `{dir}`: install lacks `{main}`{more}"))
            }
            _ => (Kind::InstallLine, format!("install would gain `{main}`{more}")),
        };
        drifts.push(Drift::new(kind, Severity::Drift, message, source.clone()));
    }
    for line in &remaining {
        // A package manager line nothing produces any more is stale; a hand-written line
        // (`cp .env.example .env`) is the reviewer's and only worth a note.
        let severity = if tool_of(line).0.is_some() { Severity::Drift } else { Severity::Info };
        let message = match severity {
            Severity::Drift => format!("install has `{line}`, which nothing in the checkout calls for any more"),
            Severity::Info => format!("install has `{line}`, which detection does not produce (kept as reviewed)"),
        };
        drifts.push(Drift::new(Kind::InstallLine, severity, message, vec![]).at(baseline_location(baseline, line)));
    }
}

/// `docker compose … up -d db cache` → (the command without its service names, the names).
fn start_shape(command: &str) -> (String, Vec<String>) {
    if export::start_kind(command) != StartKind::Services {
        return (command.split_whitespace().collect::<Vec<_>>().join(" "), vec![]);
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    if let Some(up) = words.iter().position(|w| *w == "up") {
        let (head, tail) = words.split_at(up + 1);
        let flags: Vec<&str> = tail.iter().copied().filter(|w| w.starts_with('-')).collect();
        let services = tail.iter().filter(|w| !w.starts_with('-')).map(|w| w.to_string()).collect();
        return ([head, &flags].concat().join(" "), services);
    }
    // `docker run … --name NAME IMAGE`: the service is the container's name.
    let name = words.windows(2).find(|w| w[0] == "--name").map(|w| w[1].to_string());
    (words.join(" "), name.into_iter().collect())
}

/// Start compared command by command: the detection's from its typed starts, the record's
/// from the file a person reviewed.
fn compare_start(detection: &Detection, baseline: &Baseline, drifts: &mut Vec<Drift>) {
    let expected: Vec<(String, Vec<String>, Vec<Evidence>)> = detection
        .starts
        .iter()
        .flat_map(|start| {
            start.commands().into_iter().map(|command| {
                let (shape, services) = start_shape(command.trim());
                (shape, services, vec![start.source.clone()])
            })
        })
        .collect();
    let recorded: Vec<(String, Vec<String>)> =
        export::start_commands(&baseline.start).iter().map(|c| start_shape(c)).collect();

    let recorded_services: Vec<&String> = recorded.iter().flat_map(|(_, s)| s).collect();
    let expected_services: Vec<&String> = expected.iter().flat_map(|(_, s, _)| s).collect();
    for (_, services, sources) in &expected {
        for service in services.iter().filter(|s| !recorded_services.contains(s)) {
            drifts.push(Drift::new(
                Kind::ServiceAdded,
                Severity::Drift,
                format!("service `{service}` added: start does not bring it up"),
                sources.clone(),
            ));
        }
    }
    for service in recorded_services.iter().filter(|s| !expected_services.contains(s)) {
        drifts.push(
            Drift::new(
                Kind::ServiceRemoved,
                Severity::Drift,
                format!("service `{service}` removed: start brings it up, but nothing in the checkout defines it"),
                vec![],
            )
            .at(baseline_location(baseline, service)),
        );
    }
    let mut unmatched: Vec<&String> = recorded.iter().map(|(shape, _)| shape).collect();
    for (shape, _, sources) in &expected {
        if !take(&mut unmatched, &shape) {
            drifts.push(Drift::new(
                Kind::StartLine,
                Severity::Drift,
                format!("start would gain `{shape}`"),
                sources.clone(),
            ));
        }
    }
    for shape in unmatched {
        drifts.push(
            Drift::new(
                Kind::StartLine,
                Severity::Drift,
                format!("start has `{shape}`, which detection no longer finds"),
                vec![],
            )
            .at(baseline_location(baseline, shape)),
        );
    }
}

fn compare_secrets(detection: &Detection, baseline: &Baseline, drifts: &mut Vec<Drift>) {
    for secret in detection.secret_details.iter().filter(|s| !baseline.secrets.contains(&s.name)) {
        drifts.push(Drift::new(
            Kind::SecretMissing,
            Severity::Drift,
            format!("the code reads secret `{}`, which the environment does not list", secret.name),
            vec![secret.source.clone()],
        ));
    }
    for name in baseline.secrets.iter().filter(|n| !detection.secrets.contains(n)) {
        drifts.push(
            Drift::new(
                Kind::SecretUnused,
                Severity::Info,
                format!("secret `{name}` is listed, but nothing in the checkout reads it any more"),
                vec![],
            )
            .at(baseline_location(baseline, &format!("\"{name}\""))),
        );
    }
}

/// The baseline file and the first line holding `needle`, when the baseline is a file.
fn baseline_location(baseline: &Baseline, needle: &str) -> Option<(String, Option<usize>)> {
    let (path, text) = baseline.file.as_ref()?;
    let squeezed = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = text.lines().position(|l| squeezed(l).contains(needle)).map(|i| i + 1);
    Some((path.clone(), line))
}

/// Every exported agent file in the checkout against what `export` would write now. Files
/// without `export`'s header were written by hand and are not checked; `AGENTS.md` is
/// checked between its markers only.
pub fn compare_exports(root: &Path, setup: &Setup) -> Vec<Drift> {
    let mut drifts = Vec::new();
    for target in Target::ALL {
        let primary = target.primary_path();
        let Some(text) = checkout_text(&root.join(primary)) else { continue };
        let stale = |detail: String, file: &str| {
            Drift::new(
                Kind::ExportStale,
                Severity::Drift,
                format!("{file} {detail}; run `hanzo-env export --to {} --force`", target.name()),
                vec![],
            )
            .at(Some((file.to_string(), None)))
        };
        if target == Target::AgentsMd {
            match export::agents_md::find_section(&text) {
                Ok(Some((start, end))) => {
                    let now = export::agents_md::section(setup);
                    if meaningful_lines(&text[start..end]) != meaningful_lines(&now) {
                        let line = text[..start].lines().count() + 1;
                        drifts.push(
                            stale("setup section differs from what export would write now".into(), primary)
                                .at(Some((primary.to_string(), Some(line)))),
                        );
                    }
                }
                Ok(None) => {}
                Err(e) => drifts.push(stale(format!("cannot be checked: {e}"), primary)),
            }
            continue;
        }
        if !text.contains(export::GENERATED_BY) {
            continue;
        }
        // Rendering a target other than AGENTS.md cannot fail.
        let Ok(exported) = export::render(target, setup, None) else { continue };
        for file in &exported.files {
            match checkout_text(&root.join(&file.path)) {
                Some(current) => {
                    if let Some(detail) = differs(&file.path, &current, &file.contents) {
                        drifts.push(stale(detail, &file.path));
                    }
                }
                None => drifts.push(stale("is missing".into(), &file.path)),
            }
        }
    }
    drifts
}

/// The largest exported file read back: export writes a few KiB.
const MAX_EXPORTED_BYTES: u64 = 1 << 20;

/// The text of an exported file as the checkout has it: only a regular file of bounded size
/// (a checkout may hold a FIFO or a link to `/dev/zero` there); `None` when there is no such.
fn checkout_text(path: &Path) -> Option<String> {
    crate::fsutil::read_regular(path, MAX_EXPORTED_BYTES).ok().map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// How `current` differs in meaning from what export writes now, or `None`.
fn differs(path: &str, current: &str, fresh: &str) -> Option<String> {
    let parsed = |text: &str| -> Option<serde_json::Value> {
        if path.ends_with(".json") {
            jsonc_parser::parse_to_serde_value(text, &Default::default()).ok()
        } else if path.ends_with(".yml") || path.ends_with(".yaml") {
            crate::detect::yaml::load(text).ok()?.first().map(yaml_to_json)
        } else {
            Some(serde_json::Value::from(meaningful_lines(text)))
        }
    };
    match (parsed(current), parsed(fresh)) {
        (Some(a), Some(b)) if a == b => None,
        (Some(a), Some(b)) => {
            let at = first_difference(&a, &b, String::new()).unwrap_or_default();
            Some(if at.is_empty() {
                "differs from what export would write now".into()
            } else {
                format!("differs from what export would write now at `{at}`")
            })
        }
        (None, _) => Some("cannot be parsed".into()),
        (Some(_), None) => None,
    }
}

fn yaml_to_json(yaml: &yaml_rust2::Yaml) -> serde_json::Value {
    use serde_json::Value;
    use yaml_rust2::Yaml;
    match yaml {
        Yaml::Real(r) => Value::String(r.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(yaml_to_json).collect()),
        Yaml::Hash(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) | Yaml::Real(s) => s.clone(),
                        Yaml::Integer(i) => i.to_string(),
                        Yaml::Boolean(b) => b.to_string(),
                        _ => String::from("?"),
                    };
                    (key, yaml_to_json(v))
                })
                .collect(),
        ),
        _ => Value::Null,
    }
}

/// The path (`jobs.x.steps[2].with`) of the first place two values differ.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in y {
                let path = if at.is_empty() { key.clone() } else { format!("{at}.{key}") };
                match x.get(key) {
                    Some(other) => {
                        if let Some(found) = first_difference(other, value, path) {
                            return Some(found);
                        }
                    }
                    None => return Some(path),
                }
            }
            x.keys().find(|k| !y.contains_key(*k)).map(|k| if at.is_empty() { k.clone() } else { format!("{at}.{k}") })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if let Some(found) = first_difference(p, q, format!("{at}[{i}]")) {
                    return Some(found);
                }
            }
            (x.len() != y.len()).then(|| format!("{at}[{}]", x.len().min(y.len())))
        }
        (x, y) if x == y => None,
        _ => Some(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::{Findings, Phase, Repo};
    use crate::evidence::ev;
    use crate::rel_path::rel;

    fn detection(f: Findings) -> Detection {
        let repo = Repo::from_files(Path::new("/x/site"), vec![], vec![], 1 << 20);
        crate::detect::merge::merge(&repo, f)
    }

    fn base() -> Findings {
        let mut f = Findings::default();
        f.step(
            Phase::Toolchain,
            "command -v bun >/dev/null 2>&1 || npm install -g bun@1.1.30",
            ev("web/package.json#packageManager"),
        );
        f.step(Phase::Install, "(cd web && bun install --frozen-lockfile)", ev("web/bun.lock"));
        f.start(crate::detect::Start {
            command: "docker compose up -d db cache".into(),
            source: ev("compose.yaml"),
            origin: crate::detect::findings::StartOrigin::RootCompose,
            compose: None,
            containers: Vec::new(),
            runs: Vec::new(),
        });
        f.secret(
            "DATABASE_URL",
            ev(".env.example:1"),
            crate::detect::findings::Need::Unstated,
            "listed in .env.example",
        );
        f
    }

    fn recorded(install: &str, start: &str, secrets: &[&str]) -> Baseline {
        let text = format!("install = \"\"\"\n{install}\"\"\"\nstart = \"{start}\"\nsecrets = {secrets:?}\n");
        Baseline {
            install: install.into(),
            start: start.into(),
            secrets: secrets.iter().map(|s| s.to_string()).collect(),
            file: Some((".hanzo/environment.toml".into(), text)),
        }
    }

    fn kinds(drifts: &[Drift]) -> Vec<(Kind, Severity)> {
        drifts.iter().map(|d| (d.kind, d.severity)).collect()
    }

    const INSTALL: &str = "set -euo pipefail\n# web/package.json#packageManager\ncommand -v bun >/dev/null 2>&1 || npm install -g bun@1.1.30\n# web/bun.lock\n(cd web  && bun install --frozen-lockfile)\n";

    #[test]
    fn same_meaning_is_no_drift() {
        let d = detection(base());
        // Other comments, blank lines, spacing and no strict mode: the same environment.
        let install = "# reviewed by ana\ncommand -v bun >/dev/null 2>&1 || npm install -g bun@1.1.30\n\n(cd web && bun install --frozen-lockfile)\n";
        assert_eq!(compare(&d, &recorded(install, "docker compose up -d db cache", &["DATABASE_URL"])), vec![]);
        assert_eq!(compare(&d, &recorded(INSTALL, "docker compose up -d cache db", &["DATABASE_URL"])), vec![]);
    }

    #[test]
    fn a_moved_pin_names_both_lines_and_the_evidence() {
        let d = detection(base());
        let drifts = compare(
            &d,
            &recorded(&INSTALL.replace("1.1.30", "1.1.20"), "docker compose up -d db cache", &["DATABASE_URL"]),
        );
        assert_eq!(kinds(&drifts), [(Kind::PinMoved, Severity::Drift)]);
        assert_eq!(
            drifts[0].line(),
            "drift: toolchain pin moved: `command -v bun >/dev/null 2>&1 || npm install -g bun@1.1.20` → \
             `command -v bun >/dev/null 2>&1 || npm install -g bun@1.1.30` (web/package.json#packageManager)"
        );
        assert_eq!((drifts[0].file.as_deref(), drifts[0].line), (Some(".hanzo/environment.toml"), Some(4)));
    }

    #[test]
    fn services_added_and_removed() {
        let d = detection(base());
        let drifts = compare(&d, &recorded(INSTALL, "docker compose up -d db", &["DATABASE_URL"]));
        assert_eq!(kinds(&drifts), [(Kind::ServiceAdded, Severity::Drift)]);
        assert_eq!(drifts[0].line(), "drift: service `cache` added: start does not bring it up (compose.yaml)");
        let drifts = compare(&d, &recorded(INSTALL, "docker compose up -d db cache mail", &["DATABASE_URL"]));
        assert_eq!(kinds(&drifts), [(Kind::ServiceRemoved, Severity::Drift)]);
    }

    #[test]
    fn a_missing_step_of_several_lines_is_one_drift_even_when_some_of_its_lines_are_recorded() {
        let mut f = base();
        f.step(Phase::System, "if ! docker info; then\n  apt-get install -y redis-server\nfi", ev("compose.yaml"));
        let d = detection(f);
        let drifts = compare(&d, &recorded(INSTALL, "docker compose up -d db cache", &["DATABASE_URL"]));
        assert_eq!(kinds(&drifts), [(Kind::InstallLine, Severity::Drift)]);
        assert_eq!(
            drifts[0].line(),
            "drift: install would gain `if ! docker info; then` and 2 more lines (compose.yaml)"
        );
        // Some of its lines recorded do not make the step present; they are kept as reviewed.
        let partly = format!("{INSTALL}if ! docker info; then\nfi\n");
        let drifts = compare(&d, &recorded(&partly, "docker compose up -d db cache", &["DATABASE_URL"]));
        let drifts: Vec<&Drift> = drifts.iter().filter(|d| d.severity == Severity::Drift).collect();
        assert_eq!(drifts.len(), 1, "{drifts:?}");
        assert_eq!(
            drifts[0].line(),
            "drift: install would gain `if ! docker info; then` and 2 more lines (compose.yaml)"
        );
    }

    #[test]
    fn a_services_script_is_compared_by_its_docker_commands() {
        let files = [("compose.yaml", "services:\n  db:\n    image: postgres\n  cache:\n    image: redis\n")];
        let d = crate::detect::testing::detection(&files);
        assert!(crate::plan::render::is_services_script(&d.start), "{}", d.start);
        let drifts = compare(&d, &recorded(&d.install, "docker compose up -d db cache", &[]));
        assert_eq!(drifts, vec![]);
        let drifts = compare(&d, &recorded(&d.install, "docker compose up -d db", &[]));
        assert_eq!(drifts[0].line(), "drift: service `cache` added: start does not bring it up (compose.yaml)");
        let edited = d.start.replace("up -d db cache", "up -d db");
        let drifts = compare(&d, &recorded(&d.install, &edited, &[]));
        assert_eq!(kinds(&drifts), [(Kind::ServiceAdded, Severity::Drift)]);
    }

    #[test]
    fn new_package_manager_and_workspace() {
        let mut f = base();
        f.step_in("api", Phase::Install, "uv sync --frozen", ev("api/uv.lock"));
        f.step_in("admin", Phase::Install, "bun install --frozen-lockfile", ev("admin/bun.lock"));
        let drifts = compare(&detection(f), &recorded(INSTALL, "docker compose up -d db cache", &["DATABASE_URL"]));
        assert_eq!(
            kinds(&drifts),
            [(Kind::PackageManagerAdded, Severity::Drift), (Kind::WorkspaceAdded, Severity::Drift)]
        );
        assert_eq!(
            drifts[0].line(),
            "drift: new package manager `uv`: install lacks `(cd api && uv sync --frozen)` (api/uv.lock)"
        );
        assert_eq!(drifts[1].file.as_deref(), Some("admin/bun.lock"));
    }

    #[test]
    fn secrets_missing_are_drift_and_unused_are_info() {
        let mut f = base();
        f.secret("STRIPE_KEY", ev("src/pay.ts:3"), crate::detect::findings::Need::Unstated, "process.env");
        let drifts =
            compare(&detection(f), &recorded(INSTALL, "docker compose up -d db cache", &["DATABASE_URL", "OLD_TOKEN"]));
        assert_eq!(kinds(&drifts), [(Kind::SecretMissing, Severity::Drift), (Kind::SecretUnused, Severity::Info)]);
        assert_eq!((drifts[0].file.as_deref(), drifts[0].line), (Some("src/pay.ts"), Some(3)));
        assert_eq!(
            drifts[1].annotation(),
            "::warning file=.hanzo/environment.toml,line=9,title=hanzo-env detect --check::secret `OLD_TOKEN` is listed, but nothing in the checkout reads it any more"
        );
    }

    #[test]
    fn other_lines_and_hand_written_ones() {
        let d = detection(base());
        let install = format!("{INSTALL}cp .env.example .env\nyarn install\n");
        let drifts =
            compare(&d, &recorded(&install, "docker compose up -d db cache && make worker", &["DATABASE_URL"]));
        assert_eq!(
            kinds(&drifts),
            [
                (Kind::InstallLine, Severity::Info),
                (Kind::InstallLine, Severity::Drift),
                (Kind::StartLine, Severity::Drift)
            ]
        );
        assert!(drifts[2].message.contains("`make worker`"), "{}", drifts[2].message);
    }

    #[test]
    fn annotations_escape_what_the_runner_would_read() {
        let d = Drift::new(
            Kind::InstallLine,
            Severity::Drift,
            "50% done\nnext".into(),
            vec![Evidence::line(rel!("a:b,c/file.txt"), 7)],
        );
        assert_eq!(
            d.annotation(),
            "::error file=a%3Ab%2Cc/file.txt,line=7,title=hanzo-env detect --check::50%25 done%0Anext (a:b,c/file.txt:7)"
        );
    }

    #[test]
    fn tools_of_lines() {
        assert_eq!(tool_of("(cd api && uv sync --frozen)"), (Some("uv"), Some("api")));
        assert_eq!(tool_of("command -v bun >/dev/null 2>&1 || npm install -g bun@1"), (Some("bun"), None));
        assert_eq!(tool_of("command -v uv >/dev/null 2>&1 || python3 -m pip install uv"), (Some("uv"), None));
        assert_eq!(tool_of("uv --version >/dev/null 2>&1 || python3 -m pip install uv"), (Some("uv"), None));
        assert_eq!(tool_of("CI=1 pnpm install"), (Some("pnpm"), None));
        assert_eq!(tool_of(".venv/bin/python -m pip install -r r.txt"), (Some("python"), None));
        assert_eq!(tool_of("./gradlew build"), (Some("./gradlew"), None));
        assert_eq!(tool_of("cp .env.example .env"), (None, None));
    }

    #[test]
    fn structured_files_differ_by_meaning() {
        assert_eq!(differs("a.json", "// c\n{\"a\": [1, 2]}", "{\"a\":[1,2]}"), None);
        assert_eq!(differs("a.yml", "# c\na:   x\n", "a: \"x\"\n"), None);
        assert_eq!(
            differs("a.yml", "a:\n  b: [1, 3]\n", "a:\n  b: [1, 2]\n").as_deref(),
            Some("differs from what export would write now at `a.b[1]`")
        );
        assert_eq!(differs("x.sh", "#!/bin/sh\nset -euo pipefail\nnpm ci\n", "# other header\nnpm ci\n"), None);
        assert_eq!(differs("a.json", "{", "{}").as_deref(), Some("cannot be parsed"));
    }
}
