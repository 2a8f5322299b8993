//! `hanzo-env auth status`: which token is used, from where, against which API and org.
//! The token itself is never shown.

use serde::Serialize;

use super::remote;
use crate::api::client::ApiError;
use crate::cli::{AuthCommand, GlobalArgs};
use crate::error::Exit;
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
    let (store, source) = remote::token_source(global)?;
    let mut status = Status {
        api: remote::api_key(global)?,
        org: remote::org(global),
        store: store.describe(),
        source: source.as_ref().ok().map(|s| s.describe()),
        token_accepted: None,
    };
    if source.is_ok() {
        status.token_accepted = match remote::connect(global, ui)?.list() {
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
    match (source, status.token_accepted) {
        (Err(err), _) => Err(err.into()),
        (Ok(_), Some(false)) => Ok(Exit::Auth),
        _ => Ok(Exit::Ok),
    }
}
