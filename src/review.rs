//! The summary that opens `save`'s review and `diff`: what changes in a few words, before the
//! diff itself. A *step* is a line of install or start that is neither blank nor a comment:
//! the plan a person reviews is one step per line (DESIGN.md §3).

use serde::Serialize;

/// How one script's steps change from the server's copy to the local file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StepChanges {
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
    /// Steps in the local file.
    pub steps: usize,
}

impl StepChanges {
    /// `old` (the server's) → `new` (the local file's). Lines replaced in one place count as
    /// changed, one for one; what is left over is added or removed.
    pub fn between(old: &str, new: &str) -> StepChanges {
        let (old, new) = (steps(old), steps(new));
        let mut counts = StepChanges { steps: new.len(), ..StepChanges::default() };
        let (mut deleted, mut inserted) = (0, 0);
        let settle = |counts: &mut StepChanges, deleted: &mut usize, inserted: &mut usize| {
            let changed = (*deleted).min(*inserted);
            counts.changed += changed;
            counts.removed += *deleted - changed;
            counts.added += *inserted - changed;
            (*deleted, *inserted) = (0, 0);
        };
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            match tag {
                similar::DiffTag::Equal => settle(&mut counts, &mut deleted, &mut inserted),
                similar::DiffTag::Delete => deleted += old_range.len(),
                similar::DiffTag::Insert => inserted += new_range.len(),
                similar::DiffTag::Replace => {
                    deleted += old_range.len();
                    inserted += new_range.len();
                }
            }
        }
        settle(&mut counts, &mut deleted, &mut inserted);
        counts
    }

    pub fn is_unchanged(&self) -> bool {
        self.added + self.removed + self.changed == 0
    }

    /// `2 steps added, 1 changed`, or `unchanged`.
    fn describe(&self) -> String {
        if self.is_unchanged() {
            return "unchanged".into();
        }
        let mut parts = Vec::new();
        for (count, what) in [(self.added, "added"), (self.removed, "removed"), (self.changed, "changed")] {
            if count > 0 {
                parts.push(if parts.is_empty() {
                    format!("{} {what}", crate::ui::plural(count, "step"))
                } else {
                    format!("{count} {what}")
                });
            }
        }
        parts.join(", ")
    }
}

/// The lines of `script` that are steps: not blank, not a comment; trimmed.
pub fn steps(script: &str) -> Vec<&str> {
    script.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect()
}

/// The services a plan starts, in order, once each: the first argument of each
/// `hanzo_service NAME …` step, and every argument of a `hanzo_services NAME:PORT …` step.
pub fn services(script: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for step in steps(script) {
        let code = step.split(" #").next().unwrap_or_default();
        let mut words = code.split_whitespace();
        let names: Vec<&str> = match words.next() {
            Some("hanzo_service") => words.next().into_iter().collect(),
            Some("hanzo_services") => words.collect(),
            _ => continue,
        };
        for word in names {
            let name = word.trim_matches(['"', '\'']).split(':').next().unwrap_or_default().to_string();
            if !name.is_empty() && !found.contains(&name) {
                found.push(name);
            }
        }
    }
    found
}

/// Everything the opening paragraph says, also given whole in `--json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub install: StepChanges,
    pub start: StepChanges,
    /// The services the local plan starts.
    pub services: Vec<String>,
    pub services_added: Vec<String>,
    pub services_removed: Vec<String>,
    /// Declared in the file, not set on the server.
    pub secrets_added: Vec<String>,
    /// Set on the server, not declared in the file.
    pub secrets_removed: Vec<String>,
}

/// The server's side of a comparison.
pub struct ServerCopy<'a> {
    pub install: &'a str,
    pub start: &'a str,
    pub secrets: &'a [String],
}

impl Summary {
    /// The local `install`/`start`/`secrets` against the server's copy.
    pub fn of(server: &ServerCopy<'_>, install: &str, start: &str, secrets: &[String]) -> Summary {
        let old_services = services(&format!("{}\n{}", server.install, server.start));
        let new_services = services(&format!("{install}\n{start}"));
        Summary {
            install: StepChanges::between(server.install, install),
            start: StepChanges::between(server.start, start),
            services_added: new_services.iter().filter(|s| !old_services.contains(s)).cloned().collect(),
            services_removed: old_services.iter().filter(|s| !new_services.contains(s)).cloned().collect(),
            services: new_services,
            secrets_added: secrets.iter().filter(|n| !server.secrets.contains(n)).cloned().collect(),
            secrets_removed: server.secrets.iter().filter(|n| !secrets.contains(n)).cloned().collect(),
        }
    }

    /// One paragraph: `install: 2 steps added, 1 changed (9 steps); start: unchanged (1 step);
    /// services: postgres, redis (redis added); secrets: 1 declared here but not set on site
    /// (STRIPE_KEY).` — `repo` names the server's side.
    pub fn paragraph(&self, repo: &str) -> String {
        let script = |name: &str, changes: &StepChanges| {
            format!("{name}: {} ({})", changes.describe(), crate::ui::plural(changes.steps, "step"))
        };
        let mut parts = vec![script("install", &self.install), script("start", &self.start)];
        if !self.services.is_empty() || !self.services_removed.is_empty() {
            let mut text = format!(
                "services: {}",
                if self.services.is_empty() { "none".to_string() } else { self.services.join(", ") }
            );
            let mut moves = Vec::new();
            if !self.services_added.is_empty() {
                moves.push(format!("{} added", self.services_added.join(", ")));
            }
            if !self.services_removed.is_empty() {
                moves.push(format!("{} removed", self.services_removed.join(", ")));
            }
            if !moves.is_empty() {
                text.push_str(&format!(" ({})", moves.join("; ")));
            }
            parts.push(text);
        }
        let mut secrets = Vec::new();
        if !self.secrets_added.is_empty() {
            secrets.push(format!(
                "{} declared here but not set on {repo} ({})",
                self.secrets_added.len(),
                names(&self.secrets_added)
            ));
        }
        if !self.secrets_removed.is_empty() {
            secrets.push(format!(
                "{} set on {repo} but not declared here ({})",
                self.secrets_removed.len(),
                names(&self.secrets_removed)
            ));
        }
        parts.push(if secrets.is_empty() {
            "secrets: as declared".to_string()
        } else {
            format!("secrets: {}", secrets.join(", "))
        });
        format!("{}.", parts.join("; "))
    }
}

/// At most five names, then how many more.
fn names(list: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text = list.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if list.len() > SHOWN {
        text.push_str(&format!(" and {} more", list.len() - SHOWN));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_the_lines_that_run() {
        assert_eq!(steps("# header\n\nnpm ci   \n  # note\nnpm test # why\n"), ["npm ci", "npm test # why"]);
    }

    #[test]
    fn replaced_lines_count_as_changed_the_rest_as_added_or_removed() {
        let old = "hanzo_node 22  # .nvmrc\nnpm ci\nnpm run build\n";
        let new = "# plan\nhanzo_node 24  # .nvmrc\nnpm ci\nnpx playwright install\nnpm run lint\n";
        let changes = StepChanges::between(old, new);
        assert_eq!(changes, StepChanges { added: 1, removed: 0, changed: 2, steps: 4 });
        assert_eq!(changes.describe(), "1 step added, 2 changed");
        assert_eq!(StepChanges::between("a\n# c\n", "a\n").describe(), "unchanged");
        assert_eq!(StepChanges::between("a\nb\nc\n", "b\n").describe(), "2 steps removed");
    }

    #[test]
    fn services_come_from_the_plan_line() {
        let plan = "hanzo_services postgres:5432 'redis:6379'  # compose.yaml\necho hanzo_services x\n";
        assert_eq!(services(plan), ["postgres", "redis"]);
        let plan = "if hanzo_docker compose; then\n  hanzo_compose up -d db\nelse\n  hanzo_service postgres 5432 shop '' shop  # compose.yaml\n  hanzo_service redis 6379 ''\nfi\n";
        assert_eq!(services(plan), ["postgres", "redis"]);
    }

    #[test]
    fn the_paragraph_says_what_changes() {
        let server_secrets = vec!["OLD_TOKEN".to_string(), "DATABASE_URL".to_string()];
        let server =
            ServerCopy { install: "npm ci\n", start: "hanzo_services postgres:5432\n", secrets: &server_secrets };
        let secrets = vec!["DATABASE_URL".to_string(), "STRIPE_KEY".to_string()];
        let summary = Summary::of(&server, "npm ci\nnpm run build\n", "hanzo_services postgres redis\n", &secrets);
        assert_eq!(
            summary.paragraph("site"),
            "install: 1 step added (2 steps); start: 1 step changed (1 step); services: postgres, redis \
             (redis added); secrets: 1 declared here but not set on site (STRIPE_KEY), 1 set on site but not \
             declared here (OLD_TOKEN)."
        );
        let same = Summary::of(&server, "npm ci\n", "hanzo_services postgres:5432\n", &server_secrets);
        assert_eq!(
            same.paragraph("site"),
            "install: unchanged (1 step); start: unchanged (1 step); services: postgres; secrets: as declared."
        );
    }
}
