//! `hanzo-env auth status`: which token is used, from where, against which API and org.
//! The token itself is never shown.

use serde::Serialize;

use super::remote;
use crate::api::client::ApiError;
use crate::cli::{AuthCommand, GlobalArgs};
use crate::diagnostic::Exit;
use crate::ui::Ui;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    api: String,
    org: Option<String>,
    store: String,
    source: Option<String>,
    /// `None` when there is no token or the API could not be reached.
    token_accepted: Option<bool>,
}

pub fn run(global: &GlobalArgs, command: AuthCommand, ui: &Ui) -> anyhow::Result<Exit> {
    match command {
        AuthCommand::Status => status(global, ui),
    }
}

fn status(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let (store, resolved) = remote::resolve(global)?;
    let mut status = Status {
        api: remote::api_key(global)?,
        org: remote::org(global),
        store: store.describe(),
        source: resolved.as_ref().ok().map(|(_, source)| source.describe()),
        token_accepted: None,
    };
    let resolved = resolved.map(|(token, _)| token);
    if let Ok(token) = &resolved {
        status.token_accepted = match remote::build_client(global, ui, token.clone())?.list() {
            Ok(_) => Some(true),
            Err(ApiError::Unauthorized { .. }) => Some(false),
            Err(err) => {
                ui.warn(&format!("could not check the token: {err}"));
                None
            }
        };
    }
    if ui.json() {
        ui.out_json(&status)?;
    } else {
        let accepted = match status.token_accepted {
            Some(true) => "yes",
            Some(false) => "no (sign in again: `hanzo-env login`)",
            None => "unknown",
        };
        ui.out(&format!(
            "api       {}\norg       {}\ntoken     {}\nstore     {}\naccepted  {accepted}\n",
            status.api,
            status.org.as_deref().unwrap_or("- (the token's default org)"),
            status.source.as_deref().unwrap_or("none"),
            status.store,
        ));
    }
    match (resolved, status.token_accepted) {
        (Err(err), _) => Err(err.into()),
        (Ok(_), Some(false)) => Ok(Exit::Auth),
        _ => Ok(Exit::Ok),
    }
}
