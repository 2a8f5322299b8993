use serde::Serialize;

use crate::cli::GlobalArgs;
use crate::commands::remote::{self, Checkout, Missing};
use crate::diagnostic::Exit;
use crate::ui::{Ui, printable_line};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Names<'a> {
    repo: &'a str,
    secrets: &'a [String],
    /// Names the local file marks required that have no value on the server.
    required_missing: &'a [String],
}

pub fn run(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let checkout = Checkout::open()?;
    let repo = checkout.repo(global, ui)?;
    let env = remote::existing(&remote::connect(global, ui)?, &repo, Missing::Read)?.env;
    // The file's required names count for the repo it describes, not for another `--repo`.
    let required_missing: Vec<String> = checkout
        .local
        .as_ref()
        .filter(|_| checkout.describes(&repo))
        .map(|local| local.required_secrets().filter(|name| !env.secrets.contains(name)).cloned().collect())
        .unwrap_or_default();
    if ui.json() {
        ui.out_json(&Names { repo: &repo, secrets: &env.secrets, required_missing: &required_missing })?;
        return Ok(Exit::Ok);
    }
    if env.secrets.is_empty() {
        ui.info(&format!("no secrets set on {repo}"));
    } else {
        ui.out(&env.secrets.iter().map(|n| format!("{}\n", printable_line(n))).collect::<String>());
    }
    if !required_missing.is_empty() {
        ui.warn(&format!(
            "required by {} but not set on {repo}: {} (set them with `hanzo-env secret set NAME`)",
            checkout.shown(),
            required_missing.join(", ")
        ));
    }
    Ok(Exit::Ok)
}
