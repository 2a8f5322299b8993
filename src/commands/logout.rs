//! `hanzo-env logout`: remove the stored token for the API.

use super::remote;
use crate::cli::GlobalArgs;
use crate::diagnostic::Exit;
use crate::token_store::TokenStore;
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let api = remote::api_key(global)?;
    let store = TokenStore::from_env()?;
    let removed = store.delete(&api)?;
    if ui.json() {
        ui.out_json(&serde_json::json!({ "api": api, "removed": removed, "store": store.describe() }))?;
    }
    if removed {
        ui.success(&format!("Removed the token for {api} from {}", store.describe()));
    } else {
        ui.info(&format!("no token for {api} in {}", store.describe()));
    }
    if std::env::var_os("HANZO_API_KEY").is_some_and(|v| !v.is_empty()) {
        ui.warn("HANZO_API_KEY is still set in this shell");
    }
    Ok(Exit::Ok)
}
