//! `hanzo-env export --to TARGET [PATH]`: write the environment as another agent's file.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use super::detect::{checkout_root, detect_checkout, display_path, show_warnings};
use crate::cli::{ExportArgs, ExportTarget, GlobalArgs};
use crate::diagnostic::{Exit, Failure};
use crate::export::{self, ExportFile, Origin, Setup, Target};
use crate::fsutil::Refusal;
use crate::proposal::{Proposal, ProposalError};
use crate::ui::Ui;

pub fn run(global: &GlobalArgs, args: &ExportArgs, ui: &Ui) -> anyhow::Result<Exit> {
    let target = match args.to {
        ExportTarget::Copilot => Target::Copilot,
        ExportTarget::Cursor => Target::Cursor,
        ExportTarget::Devcontainer => Target::Devcontainer,
        ExportTarget::AgentsMd => Target::AgentsMd,
    };
    let root = checkout_root(&args.path);
    let detection = detect_checkout(global, ui, &root)?;
    let reviewed = reviewed_file(&root)?;
    let setup = Setup::new(&detection, reviewed.as_ref())?;
    let agents_md = match target {
        Target::AgentsMd => read_text(&root.join(export::agents_md::PATH))?,
        _ => None,
    };
    let exported = export::render(target, &setup, agents_md.as_deref())?;

    if global.json {
        #[derive(Serialize)]
        struct Json<'a> {
            target: &'static str,
            from: &'static str,
            files: Vec<FileJson<'a>>,
            notes: &'a [String],
        }
        #[derive(Serialize)]
        struct FileJson<'a> {
            path: &'a str,
            contents: &'a str,
        }
        let files = exported.files.iter().map(|f| FileJson { path: &f.path, contents: &f.contents }).collect();
        let from = match setup.origin {
            Origin::Reviewed => "file",
            Origin::Detected => "detection",
        };
        ui.out_json(&Json { target: target.name(), from, files, notes: &exported.notes })?;
        return Ok(Exit::Ok);
    }
    if args.stdout {
        let several = exported.files.len() > 1;
        for (i, file) in exported.files.iter().enumerate() {
            if several {
                ui.out(&format!("{}==> {} <==\n", if i > 0 { "\n" } else { "" }, file.path));
            }
            ui.out(&file.contents);
        }
        show_notes(ui, &setup, &exported.notes);
        return Ok(Exit::Ok);
    }

    // Check every file before writing any, so a refusal leaves the checkout as it was.
    let mut to_write: Vec<(PathBuf, &ExportFile)> = Vec::new();
    for file in &exported.files {
        let path = root.join(&file.path);
        let shown = display_path(&path);
        ensure_inside(&root, &path, &shown)?;
        match crate::fsutil::read_regular(&path, MAX_EXISTING_BYTES) {
            Ok(existing) if existing == file.contents.as_bytes() => {
                ui.success(&format!("{shown} is up to date"));
                continue;
            }
            // AGENTS.md without markers gets the section appended: nothing of it is replaced.
            Ok(existing)
                if !args.force && (target != Target::AgentsMd || has_section(&String::from_utf8_lossy(&existing))) =>
            {
                let what = if target == Target::AgentsMd { "its setup section differs" } else { "differs" };
                return Err(Failure::new(format!("{shown} exists and {what} from what export would write"))
                    .hint(format!(
                        "compare with `hanzo-env export --to {0} --stdout`, or replace it with `hanzo-env export --to \
                         {0} --force` (your edits there would be lost)",
                        target.name()
                    ))
                    .into());
            }
            Ok(_) | Err(Refusal::Missing) => {}
            // No file of ours stands there (a FIFO, a device, something huge): --force replaces
            // it (the atomic write replaces a link, never writes through it).
            Err(Refusal::NotRegular(_) | Refusal::TooLarge { .. }) if args.force => {}
            Err(refusal) => return Err(refused(&shown, refusal)),
        }
        to_write.push((path, file));
    }
    for (path, file) in &to_write {
        crate::fsutil::write_atomic(path, file.contents.as_bytes(), false)?;
        ui.success(&format!("Wrote {}", display_path(path)));
    }
    show_notes(ui, &setup, &exported.notes);
    show_warnings(ui, &detection);
    Ok(Exit::Ok)
}

/// The reviewed `.hanzo/environment.toml`, when the checkout has one.
fn reviewed_file(root: &Path) -> anyhow::Result<Option<Proposal>> {
    match Proposal::load(&crate::checkout::proposal_path(root)) {
        Ok(p) => Ok(Some(p)),
        Err(ProposalError::Missing { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The largest existing file read before it is replaced: export writes a few KiB, AGENTS.md
/// is prose.
const MAX_EXISTING_BYTES: u64 = 1 << 20;

fn read_text(path: &Path) -> anyhow::Result<Option<String>> {
    match crate::fsutil::read_regular(path, MAX_EXISTING_BYTES) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            Failure::new(format!("{} is not UTF-8 text", display_path(path)))
                .hint("export edits AGENTS.md in place: convert it to UTF-8 first")
                .into()
        }),
        Err(Refusal::Missing) => Ok(None),
        Err(refusal) => Err(refused(&display_path(path), refusal)),
    }
}

/// A file of the checkout that is not read (see [`crate::fsutil::read_regular`]).
fn refused(shown: &str, refusal: Refusal) -> anyhow::Error {
    Failure::new(format!("refusing to read {shown}: {refusal}"))
        .hint("remove it (export writes a small text file there), or replace it with --force")
        .into()
}

fn has_section(text: &str) -> bool {
    matches!(export::agents_md::find_section(text), Ok(Some(_)))
}

/// Refuse a write that a symbolic link would carry out of the checkout, or onto a link.
fn ensure_inside(root: &Path, path: &Path, shown: &str) -> anyhow::Result<()> {
    let real_root = std::fs::canonicalize(root).with_context(|| format!("reading {}", root.display()))?;
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Failure::new(format!("{shown} is a symbolic link"))
            .hint("export replaces files, not links: remove the link (or make it a file), then export again")
            .into());
    }
    // The nearest folder on the way that exists decides where the file would land.
    let mut dir = path.parent();
    while let Some(d) = dir {
        if std::fs::symlink_metadata(d).is_ok() {
            let real = std::fs::canonicalize(d).with_context(|| format!("reading {}", d.display()))?;
            if !real.starts_with(&real_root) {
                return Err(Failure::new(format!(
                    "{shown} would be written outside the checkout: {} leads to {}",
                    display_path(d),
                    real.display()
                ))
                .hint("a symbolic link on the way leaves the checkout; replace it with a folder, then export again")
                .into());
            }
            return Ok(());
        }
        dir = d.parent();
    }
    Ok(())
}

fn show_notes(ui: &Ui, setup: &Setup, notes: &[String]) {
    if setup.origin == Origin::Detected {
        ui.info(
            "note: no .hanzo/environment.toml: exported what detect found (`hanzo-env detect` drafts a file to review)",
        );
    }
    for note in notes {
        ui.info(&format!("note: {note}"));
    }
}
