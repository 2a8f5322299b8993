//! Completions and the man page are generated from the clap definition and committed;
//! this fails when the committed copies are stale. Refresh them with
//! `UPDATE_GENERATED=1 cargo test --test generated`.

mod common;

use std::path::Path;

use clap_complete::Shell;

fn check(path: &Path, fresh: &[u8]) -> Option<String> {
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, fresh).unwrap();
        return None;
    }
    match std::fs::read(path) {
        Ok(committed) if committed == fresh => None,
        Ok(_) => Some(format!("{} is stale", path.display())),
        Err(e) => Some(format!("{} cannot be read: {e}", path.display())),
    }
}

#[test]
fn committed_completions_and_man_page_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    let shells = [
        (Shell::Bash, "hanzo-env.bash"),
        (Shell::Zsh, "_hanzo-env"),
        (Shell::Fish, "hanzo-env.fish"),
        (Shell::PowerShell, "_hanzo-env.ps1"),
        (Shell::Elvish, "hanzo-env.elv"),
    ];
    for (shell, file) in shells {
        stale.extend(check(&root.join("completions").join(file), &hanzo_env::cli::render_completions(shell)));
    }
    let pages = hanzo_env::cli::render_man_pages();
    for (file, page) in &pages {
        stale.extend(check(&root.join("man").join(file), page));
    }
    // A page whose command is gone is stale too.
    for entry in std::fs::read_dir(root.join("man")).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !pages.iter().any(|(name, _)| *name == file) {
            stale.push(format!("man/{file} has no command any more"));
        }
    }
    assert!(stale.is_empty(), "{}\nregenerate with: UPDATE_GENERATED=1 cargo test --test generated", stale.join("\n"));
}

#[test]
fn completions_command_prints_what_is_committed() {
    let home = tempfile::tempdir().unwrap();
    let run = common::run(common::hanzo_env(home.path(), home.path()).args(["completions", "bash"]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.as_bytes(), hanzo_env::cli::render_completions(Shell::Bash));
}
