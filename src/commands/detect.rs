//! `hanzo-env detect [PATH]`: draft `.hanzo/environment.toml` from what the checkout shows.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::cli::{DetectArgs, GlobalArgs};
use crate::detect::{Detection, Repo, WalkOptions, render};
use crate::diagnostic::{Exit, Failure};
use crate::proposal::ProposalError;
use crate::ui::{Ui, printable, printable_line};
use crate::warning::Warning;

pub fn run(global: &GlobalArgs, args: &DetectArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let root = checkout_root(&args.path);
    let detection = detect_checkout(global, ui, &root)?;
    if args.check {
        return super::drift_check::run(global, args.against, ui, &root, &detection);
    }

    if global.json {
        ui.out_json(&detection)?;
        return Ok(Exit::Ok);
    }
    let text = render::toml(&detection);
    if args.stdout {
        ui.out(&text);
        if args.explain {
            eprint_block(ui, &render::explain(&detection));
        }
        show_warnings(ui, &detection);
        return Ok(Exit::Ok);
    }
    if args.explain {
        // Read from the checkout (folder names, commands): shown with control characters escaped.
        ui.out(&printable(&render::explain(&detection)));
        show_warnings(ui, &detection);
        return Ok(Exit::Ok);
    }

    let path = crate::checkout::proposal_path(&root);
    let shown = display_path(&path);
    crate::proposal::check_destination(&path)?;
    match crate::proposal::read_text(&path) {
        Ok(existing) if existing == text => {
            show_warnings(ui, &detection);
            ui.success(&format!("{shown} is up to date"));
            return Ok(Exit::Ok);
        }
        Ok(_) if !args.force => {
            return Err(Failure::new(format!("{shown} exists and differs from what detect would write"))
                .hint(
                    "compare with `hanzo-env detect --stdout`, or replace it with `hanzo-env detect --force` \
                     (your edits there would be lost)",
                )
                .into());
        }
        Ok(_) | Err(ProposalError::Missing { .. }) => {}
        // What stands there is no proposal (a FIFO, a device, a link out of the checkout):
        // --force replaces it (the atomic write replaces a link, never writes through it).
        Err(ProposalError::Refused { .. } | ProposalError::Outside { .. }) if args.force => {}
        Err(e) => return Err(e.into()),
    }
    crate::fsutil::write_atomic(&path, text.as_bytes(), false)?;
    for line in render::summary(&detection) {
        ui.info(&format!("  {}", printable_line(&line)));
    }
    show_warnings(ui, &detection);
    // `save` trusts the file's `repo`: a folder's name must not get there unseen.
    if global.repo.is_none() && crate::checkout::remote_repo_name(&root).is_none() {
        ui.warn(&format!(
            "repo = \"{}\" in {shown} is this folder's name (there is no git remote): check it before \
             `hanzo-env save`, which writes to that repo",
            detection.repo
        ));
    }
    ui.success(&format!("Wrote {shown}: review it, then `hanzo-env save`"));
    Ok(Exit::Ok)
}

/// Detect `root` with a spinner on stderr; `--repo` names the repo.
pub fn detect_checkout(global: &GlobalArgs, ui: &Ui, root: &Path) -> anyhow::Result<Detection> {
    let spinner = ui.spinner(&format!("Looking at {}", printable_line(&root.display().to_string())));
    let started = std::time::Instant::now();
    let walked = Repo::walk(root, &WalkOptions::default());
    let walk_time = started.elapsed();
    let detected = walked.map(|repo| (repo.files().len(), crate::detect::detect_in(&repo)));
    spinner.finish_and_clear();
    let (files, mut detection) =
        detected.with_context(|| format!("detecting the environment of {}", root.display()))?;
    ui.debug(1, &format!("walked {files} files in {walk_time:.0?}, detected in {:.0?}", started.elapsed() - walk_time));
    for (name, took) in &detection.timings {
        ui.debug(2, &format!("detector {name}: {took:.1?}"));
    }
    if let Some(repo) = &global.repo {
        detection.repo = repo.clone();
    }
    if found_nothing(&detection) {
        detection.warnings.push(Warning::general(format!(
            "found nothing to detect in {}: no manifest, lockfile, version file, CI workflow, compose file or \
             task file; the draft is empty (is this the checkout?)",
            root.display()
        )));
    }
    Ok(detection)
}

/// Whether detection found nothing at all to draft from.
fn found_nothing(detection: &Detection) -> bool {
    detection.steps.is_empty()
        && detection.starts.is_empty()
        && detection.tests.is_empty()
        && detection.secrets.is_empty()
        && detection.services.is_empty()
        && detection.toolchains.is_empty()
        && detection.package_managers.is_empty()
}

/// An explicit PATH is the checkout; the default `.` means "the checkout I am in", so a run
/// from a subdirectory finds the root.
pub fn checkout_root(path: &Path) -> PathBuf {
    if path == Path::new(".") { crate::checkout::find_root(path) } else { path.to_path_buf() }
}

pub fn show_warnings(ui: &Ui, detection: &Detection) {
    for warning in &detection.warnings {
        ui.warn(&warning.to_string());
    }
}

fn eprint_block(ui: &Ui, text: &str) {
    for line in text.lines() {
        ui.info(&printable_line(line));
    }
}

/// The path relative to the working directory when it is inside it, control characters
/// escaped (a folder name may hold any).
pub fn display_path(path: &Path) -> String {
    let shown = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    printable_line(&shown.display().to_string()).into_owned()
}
