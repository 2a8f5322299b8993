//! `hanzo-env detect --check [--against file|saved]`: has the checkout drifted from its
//! recorded environment and its exported agent files? Exit 1 when it has.

use std::path::Path;

use serde::Serialize;

use super::remote::{self, Checkout};
use crate::cli::{CheckAgainst, GlobalArgs};
use crate::detect::Detection;
use crate::diagnostic::Exit;
use crate::drift::{self, Baseline, Drift, Severity};
use crate::export::Setup;
use crate::proposal::{Proposal, ProposalError};
use crate::ui::Ui;

const FILE: &str = ".hanzo/environment.toml";

pub fn run(
    global: &GlobalArgs,
    against: CheckAgainst,
    ui: &Ui,
    root: &Path,
    detection: &Detection,
) -> anyhow::Result<Exit> {
    let file = crate::checkout::proposal_path(root);
    let local = match Proposal::load(&file) {
        Ok(p) => Some(p),
        Err(ProposalError::Missing { .. }) => None,
        Err(e) => return Err(e.into()),
    };
    let (baseline, label) = match against {
        CheckAgainst::File => {
            let Some(p) = &local else {
                return Err(ProposalError::Missing { path: file }.into());
            };
            let text = crate::proposal::read_text(&file)?;
            let baseline = Baseline {
                install: crate::plan::block::collapse(&p.install),
                start: crate::plan::block::collapse(&p.start),
                secrets: p.secrets.clone(),
                file: Some((FILE.to_string(), text)),
            };
            (baseline, FILE.to_string())
        }
        CheckAgainst::Saved => {
            let checkout = Checkout { root: root.to_path_buf(), file: file.clone(), local: local.clone() };
            let repo = checkout.repo(global, ui)?;
            let env = remote::connect(global, ui)?.get(&repo)?.env;
            let baseline = Baseline {
                install: crate::plan::block::collapse(&env.install),
                start: crate::plan::block::collapse(&env.start),
                secrets: env.secrets,
                file: None,
            };
            (baseline, format!("the saved environment of {repo}"))
        }
    };

    let mut drifts = drift::compare(detection, &baseline);
    drifts.extend(drift::compare_exports(root, &Setup::new(detection, local.as_ref())?));
    let drifted = drifts.iter().any(|d| d.severity == Severity::Drift);

    if ui.json() {
        #[derive(Serialize)]
        struct Report<'a> {
            drifted: bool,
            against: &'static str,
            drifts: &'a [Drift],
        }
        let against = match against {
            CheckAgainst::File => "file",
            CheckAgainst::Saved => "saved",
        };
        ui.out_json(&Report { drifted, against, drifts: &drifts })?;
    } else {
        let github = std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true");
        for d in &drifts {
            ui.out(&format!("{}\n", if github { d.annotation() } else { d.line() }));
        }
        if drifted {
            let count = drifts.iter().filter(|d| d.severity == Severity::Drift).count();
            ui.info(&format!(
                "{count} {} from {label}: review `hanzo-env detect --stdout`, update the file (or `hanzo-env detect \
                 --force`), then export again",
                if count == 1 { "drift" } else { "drifts" }
            ));
        } else {
            ui.success(&format!("No drift: the checkout matches {label}"));
        }
    }
    Ok(if drifted { Exit::Differences } else { Exit::Ok })
}
