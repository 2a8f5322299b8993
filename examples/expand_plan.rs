//! Reads a plan (install or start as `.hanzo/environment.toml` holds it) on stdin and prints
//! it as it runs alone: each helpers line replaced by its block. For scripts that measure the
//! drafts (`scripts/plan-lines.sh`); `save`, `export` and `verify` do the same.

use std::io::Read;

fn main() -> std::process::ExitCode {
    let mut plan = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut plan) {
        eprintln!("expand_plan: cannot read stdin: {e}");
        return std::process::ExitCode::from(2);
    }
    match hanzo_env::plan::block::expand(&plan) {
        Ok(script) => {
            print!("{script}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("expand_plan: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
