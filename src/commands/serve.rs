//! `hanzo-env serve`: resolve the defaults, start the server, tell the operator how to use it.

use std::sync::Arc;

use crate::cli::{GlobalArgs, ServeArgs};
use crate::diagnostic::Exit;
use crate::serve::routes::LogKind;
use crate::serve::{Config, KeyOrigin, Started, TokenOrigin};
use crate::ui::Ui;

pub fn run(_global: &GlobalArgs, args: &ServeArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let config_dir = dirs::config_dir().map(|dir| dir.join("hanzo-env"));
    let data_dir = match &args.data {
        Some(dir) => dir.clone(),
        None => dirs::data_dir().map(|dir| dir.join("hanzo-env").join("serve")).ok_or_else(|| {
            crate::diagnostic::Failure::new("no platform data dir to keep the server's data in").hint("pass --data DIR")
        })?,
    };
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty()).map(zeroize::Zeroizing::new);
    let config = Config {
        listen: args.listen.clone(),
        allow_remote: args.allow_remote,
        data_dir,
        config_dir,
        token_file: args.token_file.clone(),
        tokens_env: env("HANZO_ENV_SERVE_TOKENS"),
        key_file: args.key_file.clone(),
        key_env: env("HANZO_ENV_SERVE_KEY"),
        limits: crate::serve::Limits::default(),
    };
    // The log is conversation: stderr; -q hides the request lines, never the errors.
    let quiet = ui.quiet();
    let log: crate::serve::routes::LogSink = Arc::new(move |kind: LogKind, line: &str| {
        if kind == LogKind::Error || !quiet {
            // One write per line: lines of concurrent requests never interleave.
            let mut text = String::with_capacity(line.len() + 1);
            text.push_str(line);
            text.push('\n');
            let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), text.as_bytes());
        }
    });
    crate::serve::run(config, log, |started| announce(ui, started), crate::serve::shutdown_signal())?;
    ui.info("hanzo-env serve: stopped");
    Ok(Exit::Ok)
}

fn announce(ui: &Ui, started: &Started) {
    if ui.json() {
        let _ = ui.out_json(&serde_json::json!({"url": started.url, "data": started.data_dir}));
    } else {
        ui.out(&format!("hanzo-env serve listening on {}\n", started.url));
    }
    if started.remote {
        ui.warn(&format!(
            "listening on {} beyond loopback, over plain HTTP: tokens cross the network in the clear; put a TLS proxy in front",
            started.address
        ));
    }
    if started.short_tokens > 0 {
        ui.warn(&format!(
            "{} accepted token(s) shorter than {} characters: easy to guess; use long random tokens (a server \
             beyond loopback refuses them)",
            started.short_tokens,
            crate::serve::auth::MIN_TOKEN_CHARS
        ));
    }
    ui.info(&format!("data: {}", started.data_dir.display()));
    match &started.key {
        KeyOrigin::File(path) => ui.info(&format!("master key: {}", path.display())),
        KeyOrigin::Env => ui.info("master key: HANZO_ENV_SERVE_KEY"),
        KeyOrigin::Generated(path) => ui.info(&format!(
            "master key: generated in {} (0600; back it up: values cannot be opened without it)",
            path.display()
        )),
        KeyOrigin::Existing(path) => ui.info(&format!("master key: {}", path.display())),
    }
    let token_hint = |path: &std::path::Path| {
        format!("export HANZO_BASE_URL={} HANZO_API_KEY=\"$(cat '{}')\"", started.url, path.display())
    };
    match &started.tokens {
        TokenOrigin::File(path) => ui.info(&format!("tokens: {}\nuse: {}", path.display(), token_hint(path))),
        TokenOrigin::Env => ui.info(&format!(
            "tokens: HANZO_ENV_SERVE_TOKENS\nuse: export HANZO_BASE_URL={} HANZO_API_KEY=<one of those tokens>",
            started.url
        )),
        TokenOrigin::Generated(path) => {
            ui.info(&format!("token: generated in {} (0600)\nuse: {}", path.display(), token_hint(path)))
        }
        TokenOrigin::Existing(path) => ui.info(&format!("token: {}\nuse: {}", path.display(), token_hint(path))),
    }
    if let TokenOrigin::File(path) | TokenOrigin::Existing(path) = &started.tokens
        && readable_by_others(path)
    {
        ui.warn(&format!(
            "the token file {} can be read by other users of this machine, who could then change and delete \
             secrets (chmod 600 it)",
            path.display()
        ));
    }
    ui.info("Ctrl-C to stop");
}

fn readable_by_others(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
