//! Render a [`Detection`] as the proposal file (DESIGN.md §3), as an explanation of every
//! install/start line, and as a short summary.

use crate::detect::Detection;
use crate::detect::merge::{SecretDetail, one_line};
use crate::proposal::{OPTIONAL_MARKER, toml_string};

/// `.hanzo/environment.toml` as detect writes it: the evidence sits in the install script's
/// comments, after `start`, and beside each secret. `[env]` is left out: detection never
/// knows a value worth writing there.
pub fn toml(d: &Detection) -> String {
    let mut out = String::new();
    out.push_str("# Drafted by `hanzo-env detect`: review it, then `hanzo-env save`.\n");
    out.push_str(&format!("repo = {}\n", toml_string(&d.repo)));
    out.push_str(&format!("install = {}", toml_string(&d.install)));
    if let [only] = d.steps.as_slice()
        && !d.install.contains('\n')
    {
        out.push_str(&format!("  # {}", one_line(&only.evidence_text())));
    }
    out.push('\n');
    out.push_str(&format!("start = {}", toml_string(&d.start)));
    if !d.starts.is_empty() {
        let sources: Vec<String> = d.starts.iter().map(|s| one_line(&s.source.to_string())).collect();
        out.push_str(&format!("  # {}", sources.join(", ")));
    }
    out.push('\n');
    if d.secret_details.is_empty() {
        out.push_str("secrets = []\n");
    } else {
        // The required names, then the optional ones under a marker line that `proposal`
        // reads back: one array, so every name is still declared.
        out.push_str("secrets = [\n");
        let mut marked = false;
        for secret in &d.secret_details {
            if !secret.required && !marked {
                out.push_str(&format!("  {OPTIONAL_MARKER}\n"));
                marked = true;
            }
            out.push_str(&format!(
                "  {},  # {} ({})\n",
                toml_string(&secret.name),
                one_line(&secret.source.to_string()),
                one_line(&secret.why)
            ));
        }
        out.push_str("]\n");
    }
    out.push_str(&format!("note = {}\n", toml_string(&d.note)));
    out
}

/// Every install and start line with the file (and key or line) that justifies it.
pub fn explain(d: &Detection) -> String {
    let mut out = String::new();
    out.push_str("install:\n");
    if d.steps.is_empty() {
        out.push_str("  (nothing to install)\n");
    }
    for step in &d.steps {
        for line in step.command().lines() {
            out.push_str(&format!("  {line}\n"));
        }
        out.push_str(&format!("      ← {}\n", one_line(&step.evidence_text())));
    }
    out.push_str("start:\n");
    if d.starts.is_empty() {
        out.push_str("  (nothing to start)\n");
    }
    for start in &d.starts {
        out.push_str(&format!("  {}\n      ← {}\n", start.command, one_line(&start.source.to_string())));
    }
    for native in &d.native_starts {
        out.push_str(&format!(
            "  without Docker, from the {} package: {}\n      ← {}\n",
            native.product.package,
            native.call().command(),
            one_line(&native.source.to_string())
        ));
    }
    if !d.secret_details.is_empty() {
        out.push_str("secrets:\n");
        for secret in &d.secret_details {
            let need = if secret.required { "required" } else { "optional" };
            out.push_str(&format!(
                "  {} ({need})\n      ← {}: {}\n",
                secret.name,
                one_line(&secret.source.to_string()),
                one_line(&secret.why)
            ));
        }
    }
    if !d.tests.is_empty() {
        out.push_str("tests:\n");
        for test in &d.tests {
            out.push_str(&format!("  {}\n      ← {}\n", test.command, one_line(&test.source.to_string())));
        }
    }
    out
}

/// A few lines for stderr after writing the file: what was found, and why, briefly.
pub fn summary(d: &Detection) -> Vec<String> {
    let mut lines = Vec::new();
    for t in &d.toolchains {
        let version = t.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
        lines.push(format!("toolchain  {}{version}  ({})", t.name, t.source));
    }
    for p in &d.package_managers {
        let version = p.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
        let place = if p.path == "." { String::new() } else { format!(" in {}", p.path) };
        lines.push(format!("packages   {}{version}{place}  ({})", p.name, p.source));
    }
    for s in &d.services {
        lines.push(format!("service    {}  ({})", s.name, s.source));
    }
    for s in &d.optional_services {
        lines.push(format!("service    {} (optional)  ({})", s.name, s.source));
    }
    if !d.secret_details.is_empty() {
        let (required, optional): (Vec<&SecretDetail>, Vec<&SecretDetail>) =
            d.secret_details.iter().partition(|s| s.required);
        let names = |list: &[&SecretDetail]| list.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ");
        let mut line = format!("secrets    {} required", required.len());
        if !required.is_empty() {
            line.push_str(&format!(" ({})", names(&required)));
        }
        line.push_str(&format!(", {} optional", optional.len()));
        if !optional.is_empty() {
            line.push_str(&format!(" ({})", names(&optional)));
        }
        lines.push(line);
    }
    if let Some(test) = d.tests.first() {
        lines.push(format!("tests      {}  ({})", test.command, test.source));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::findings::{Findings, Need, Phase, Start, StartOrigin};
    use crate::detect::repo::Repo;
    use crate::evidence::ev;

    fn start(command: &str, source: &str) -> Start {
        Start {
            command: command.into(),
            source: ev(source),
            origin: StartOrigin::Task,
            compose: None,
            containers: Vec::new(),
            runs: Vec::new(),
        }
    }
    use crate::proposal::Proposal;

    fn detection(f: Findings) -> Detection {
        let repo = Repo::from_files(std::path::Path::new("/x/site"), vec![], vec![], 1 << 20);
        crate::detect::merge::merge(&repo, f)
    }

    #[test]
    fn rendered_file_parses_and_keeps_every_value() {
        let mut f = Findings::default();
        f.step(Phase::Toolchain, "corepack enable", ev("package.json#packageManager"));
        f.step(Phase::Install, "pnpm install --frozen-lockfile", ev("pnpm-lock.yaml"));
        f.start(start("docker compose -f docker/compose.yaml up -d postgres", "docker/compose.yaml#services"));
        f.secret("DATABASE_URL", ev(".env.example:3"), Need::Required, "documented as required in .env.example");
        f.secret("STRIPE_SECRET_KEY", ev("src/pay.ts:10"), Need::Unstated, "process.env");
        f.secret("AWS_SECRET_ACCESS_KEY", ev("src/s3.ts:2"), Need::Optional, "process.env, optional");
        f.note("pnpm workspace of 4 packages");
        let d = detection(f);
        let text = toml(&d);
        let parsed = Proposal::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(parsed.repo.as_deref(), Some("site"));
        assert_eq!(parsed.install, d.install);
        assert!(parsed.install.starts_with("set -euo pipefail\ncorepack enable  # package.json#packageManager\n"));
        assert_eq!(parsed.start, d.start);
        assert_eq!(parsed.secrets, ["DATABASE_URL", "AWS_SECRET_ACCESS_KEY", "STRIPE_SECRET_KEY"]);
        assert_eq!(parsed.optional_secrets, ["AWS_SECRET_ACCESS_KEY", "STRIPE_SECRET_KEY"]);
        let expected = "secrets = [\n  \"DATABASE_URL\",  # .env.example:3 (documented as required in .env.example)\n  # optional:\n  \"AWS_SECRET_ACCESS_KEY\",";
        assert!(text.contains(expected), "{text}");
        assert_eq!(parsed.note, d.note);
        assert!(parsed.env.is_empty());
    }

    #[test]
    fn odd_sources_cannot_break_the_file() {
        let mut f = Findings::default();
        f.step(Phase::Install, "npm ci", ev("we\nird'''\"/package-lock.json"));
        f.start(start("make up", "Make\nfile"));
        f.secret("TOKEN", ev("a\nb"), Need::Required, "c\nd");
        f.secret("KEY", ev("x"), Need::Optional, "y\n]\nz");
        let d = detection(f);
        let parsed = Proposal::parse(&toml(&d)).unwrap();
        assert_eq!(parsed.install, d.install);
        assert_eq!(parsed.secrets, ["TOKEN", "KEY"]);
        assert_eq!(parsed.optional_secrets, ["KEY"]);
    }

    #[test]
    fn the_summary_counts_required_and_optional_secrets() {
        let mut f = Findings::default();
        f.secret("DATABASE_URL", ev("app/config.py:3"), Need::Required, "BaseSettings field, no default");
        f.secret("SMTP_PASSWORD", ev("app/config.py:9"), Need::Optional, "BaseSettings field, optional");
        f.secret("SENTRY_DSN", ev("app/config.py:12"), Need::Unstated, "os.getenv");
        let lines = summary(&detection(f));
        let expected = "secrets    1 required (DATABASE_URL), 2 optional (SENTRY_DSN, SMTP_PASSWORD)";
        assert!(lines.contains(&expected.to_string()), "{lines:?}");
    }

    #[test]
    fn explain_names_the_evidence_of_every_line() {
        let mut f = Findings::default();
        f.step(Phase::Install, "uv sync --frozen", ev("uv.lock"));
        f.start(start("docker compose up -d redis", "compose.yaml#services.redis"));
        let text = explain(&detection(f));
        assert!(text.contains("  uv sync --frozen\n      ← uv.lock\n"), "{text}");
        assert!(text.contains("  docker compose up -d redis\n      ← compose.yaml#services.redis\n"), "{text}");
    }
}
