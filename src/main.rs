//! Entry point: parse the command line, run the command, map the result to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    hanzo_env::run_from_args(std::env::args_os())
}
