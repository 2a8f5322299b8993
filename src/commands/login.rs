//! `hanzo-env login`: check a token against the API and keep it in the token store.

use secrecy::{ExposeSecret, SecretString};

use super::remote;
use crate::api::client::ApiError;
use crate::cli::{GlobalArgs, LoginArgs};
use crate::diagnostic::Exit;
use crate::secret_value;
use crate::token_store::{self, TokenStore};
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &LoginArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let api = remote::api_key(global)?;
    let store = TokenStore::from_env()?;
    let token = if args.with_token {
        remote::refuse_terminal_stdin("pipe the token in, or run `hanzo-env login` for a hidden prompt")?;
        let raw = secret_value::read_value(std::io::stdin().lock(), "stdin")?;
        let text = secret_value::into_text(raw, "stdin")?;
        SecretString::from(text.expose_secret().trim())
    } else {
        ui.password(&format!("API token for {api}"), "pipe the token to `hanzo-env login --with-token`")?
    };
    token_store::check_token(token.expose_secret(), if args.with_token { "stdin" } else { "the prompt" })?;
    let checked = match remote::build_client(global, ui, token.clone())?.list() {
        Ok(_) => true,
        Err(err @ ApiError::Unauthorized { .. }) => {
            return Err(anyhow::Error::new(err).context("the token was not stored"));
        }
        Err(err) => {
            ui.warn(&format!("could not check the token ({err}); storing it anyway"));
            false
        }
    };
    store.set(&api, &token)?;
    if ui.json() {
        ui.out_json(&serde_json::json!({ "api": api, "stored": store.describe(), "checked": checked }))?;
    }
    ui.success(&format!("Token for {api} stored in {}", store.describe()));
    if std::env::var_os("HANZO_API_KEY").is_some_and(|v| !v.is_empty()) {
        ui.warn("HANZO_API_KEY is set in this shell and is used before the stored token");
    }
    Ok(Exit::Ok)
}
