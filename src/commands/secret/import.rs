use std::collections::HashMap;
use std::io::Read;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::Context;
use secrecy::ExposeSecret;
use serde::Serialize;
use zeroize::Zeroizing;

use crate::api::client::ApiError;
use crate::cli::{GlobalArgs, SecretImportArgs};
use crate::commands::remote;
use crate::diagnostic::{Diagnostic, Exit, Failure};
use crate::dotenv::{self, Entry};
use crate::names::{MAX_VALUE_BYTES, validate_secret_name};
use crate::ui::{Ui, plural};

/// Requests in flight at once: enough to hide latency, few enough not to trip rate limits.
const CONCURRENCY: usize = 8;
/// A dotenv file larger than this is not a dotenv file.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// `--json`: the names set, which of them replaced a value, and the repo's names now.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Imported<'a> {
    repo: &'a str,
    set: Vec<&'a str>,
    replaced: &'a [&'a str],
    secrets: &'a [String],
    updated_at: Option<&'a str>,
}

pub fn run(global: &GlobalArgs, args: &SecretImportArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let repo = super::repo_for_write(global, ui)?;
    let (text, source) = read_source(args)?;
    let entries = dotenv::parse(&text).with_context(|| format!("could not import {source}"))?;
    drop(text);
    validate(&entries, &source)?;
    let client = remote::connect(global, ui)?;
    let before = super::target_names(&client, &repo, args.create)?;
    let replaced: Vec<&str> =
        entries.iter().map(|e| e.name.as_str()).filter(|name| before.iter().any(|b| b == name)).collect();

    let bar = ui.progress(entries.len() as u64, &format!("setting secrets on {repo}"));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failures: Mutex<Vec<(usize, ApiError)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..CONCURRENCY.min(entries.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= entries.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let entry = &entries[index];
                    if let Err(err) = client.put_secret(&repo, &entry.name, &entry.value) {
                        // Nothing after these can succeed either.
                        if matches!(err.exit(), Exit::Auth | Exit::Local)
                            || matches!(err, ApiError::Forbidden { .. } | ApiError::PlanLimit { .. })
                        {
                            stop.store(true, Ordering::Relaxed);
                        }
                        failures.lock().unwrap_or_else(|p| p.into_inner()).push((index, err));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();

    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    if failures.is_empty() {
        if ui.json() {
            let now = client.get(&repo)?.env;
            ui.out_json(&Imported {
                repo: &repo,
                set: entries.iter().map(|e| e.name.as_str()).collect(),
                replaced: &replaced,
                secrets: &now.secrets,
                updated_at: now.updated_at.as_deref(),
            })?;
        }
        ui.success(&format!("Imported {} on {repo}", plural(entries.len(), "secret")));
        if !replaced.is_empty() {
            ui.info(&format!("  replaced the earlier values of {}", replaced.join(", ")));
        }
        ui.debug(1, &format!("set: {}", entries.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ")));
        return Ok(Exit::Ok);
    }
    failures.sort_by_key(|(index, _)| *index);
    let lines: Vec<String> =
        failures.iter().map(|(i, err)| format!("{} (line {}): {err}", entries[*i].name, entries[*i].line)).collect();
    let (exit, hint) = (failures[0].1.exit(), failures[0].1.hint());
    let mut failure = Failure::new(format!(
        "{} of {} not set on {repo}:\n  {}",
        failures.len(),
        plural(entries.len(), "secret"),
        lines.join("\n  ")
    ))
    .exit(exit);
    if let Some(hint) = hint {
        failure = failure.hint(hint);
    }
    Err(failure.into())
}

/// The whole input, as text that is zeroized when dropped.
fn read_source(args: &SecretImportArgs) -> anyhow::Result<(Zeroizing<String>, String)> {
    let (reader, source): (Box<dyn Read>, String) = if args.file.as_os_str() == "-" {
        remote::refuse_terminal_stdin("pipe the dotenv file in, or pass -f FILE")?;
        (Box::new(std::io::stdin().lock()), "stdin".into())
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|e| Failure::new(format!("could not read {}: {e}", args.file.display())))?;
        (Box::new(file), args.file.display().to_string())
    };
    let mut bytes = Zeroizing::new(Vec::new());
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::new(format!("could not read {source}: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Failure::new(format!("{source} is over 16 MiB: not a dotenv file")).into());
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => Zeroizing::new(text.to_string()),
        Err(e) => {
            let line = bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() + 1;
            return Err(Failure::new(format!("{source} line {line}: not UTF-8 text"))
                .hint("values are text; base64-encode binary data")
                .into());
        }
    };
    Ok((text, source))
}

/// Every rule, for every entry, before the first request: all problems at once.
fn validate(entries: &[Entry], source: &str) -> anyhow::Result<()> {
    let mut problems = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for entry in entries {
        let line = entry.line;
        if let Err(err) = validate_secret_name(&entry.name) {
            problems.push(format!("line {line}: {err}"));
            continue;
        }
        if let Some(first) = seen.insert(&entry.name, line) {
            problems.push(format!("line {line}: {} is already given on line {first}", entry.name));
        }
        let len = entry.value.expose_secret().len();
        if len == 0 {
            problems.push(format!("line {line}: {} has an empty value (a value is 1 byte to 64 KiB)", entry.name));
        } else if len > MAX_VALUE_BYTES {
            problems
                .push(format!("line {line}: the value of {} is {len} bytes; at most {MAX_VALUE_BYTES}", entry.name));
        } else if crate::secret_value::holds_nul(entry.value.expose_secret()) {
            problems.push(format!(
                "line {line}: the value of {} holds a NUL byte, {}",
                entry.name,
                crate::secret_value::NUL_WHY
            ));
        }
    }
    if entries.is_empty() {
        return Err(Failure::new(format!("{source} has no NAME=value lines")).into());
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(Failure::new(format!(
        "{source}: {} problem{}, nothing was sent:\n  {}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" },
        problems.join("\n  ")
    ))
    .hint("fix or remove those lines, then import again")
    .into())
}
