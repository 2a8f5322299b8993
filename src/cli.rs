//! The command line, as clap types only. Completions and the man page are generated from it.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXIT_CODES: &str = "\
Exit codes:
  0    ok
  1    differences found (diff --exit-code); drift found (detect --check); a step failed (verify)
  2    usage, bad input or any other local error
  3    error from the server or the network, after retries
  4    authentication needed
  5    conflict: the server copy moved
  130  interrupted";

/// The help heading of the flags only commands that talk to the server use.
const API_OPTIONS: &str = "API options (commands that talk to the server)";

/// Draft, review and save the environment coding agents run your repo in.
#[derive(Debug, Parser)]
#[command(
    name = "hanzo-env",
    version,
    about,
    long_about = "Draft, review and save the environment coding agents run your repo in: \
                  an install script, one background start command, and the repo's secrets.",
    after_help = EXIT_CODES,
    after_long_help = EXIT_CODES,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// The flags every command takes, shown apart from a command's own in `--help`: the API ones
/// (used by the commands that talk to the server), then the rest.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]
    #[arg(long, global = true, value_name = "URL", help_heading = API_OPTIONS)]
    pub api_url: Option<String>,
    /// Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]
    #[arg(long, global = true, value_name = "ORG", help_heading = API_OPTIONS)]
    pub org: Option<String>,
    /// Repo name inside the org [default: the file's `repo`, else the git remote's name; never
    /// a folder's name for a write]
    #[arg(long, global = true, value_name = "NAME", help_heading = API_OPTIONS)]
    pub repo: Option<String>,
    /// Print machine-readable JSON on stdout (every command that changes something says what
    /// it changed; `run` and `completions` refuse it)
    #[arg(long, global = true)]
    pub json: bool,
    /// Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)
    #[arg(long, global = true)]
    pub no_input: bool,
    /// Print less (only errors and data)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more; repeat for more detail
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// When to use colour
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Extra CA certificate (PEM) to trust for the API
    #[arg(long, global = true, value_name = "PATH", help_heading = API_OPTIONS)]
    pub ca_cert: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Draft .hanzo/environment.toml from what the checkout shows (offline)
    #[command(after_help = "The file is a plan: one line per step with its evidence beside it. `hanzo_*` lines call
hanzo-env's stock helpers, named on the script's first line (`# hanzo-env helpers v1: ...`);
save, export and verify send their text with it, pull and diff show it as that one line again.

Examples:
  hanzo-env detect                 write .hanzo/environment.toml, summary on stderr
  hanzo-env detect --stdout        print the TOML instead
  hanzo-env detect --json ../api   machine-readable result for another checkout
  hanzo-env detect --explain       every line with the file that justifies it
  hanzo-env detect --check         exit 1 when the checkout drifted from .hanzo/environment.toml
  hanzo-env detect --check --against saved --json")]
    Detect(DetectArgs),

    /// Write the environment as another agent's file: Copilot, Cursor, a dev container, AGENTS.md
    #[command(after_help = "Files (from .hanzo/environment.toml when it exists, else from detection):
  copilot       .github/workflows/copilot-setup-steps.yml
  cursor        .cursor/environment.json (+ .cursor/install.sh for a multi-line install)
  devcontainer  .devcontainer/devcontainer.json (+ compose.yaml with services, install.sh)
  agents-md     the Setup section of AGENTS.md, between hanzo-env marker comments

A file that differs from what export would write is left alone unless you pass --force
(AGENTS.md: the section between the markers). `hanzo-env detect --check` reports exports
that no longer match.

Examples:
  hanzo-env export --to copilot
  hanzo-env export --to devcontainer --stdout
  hanzo-env export --to agents-md --force ../api")]
    Export(ExportArgs),

    /// Compare the local file with the copy saved on the server
    #[command(after_help = "A paragraph on stderr sums up the difference (steps added, removed and changed, services,
secrets); the diff goes to stdout, through $PAGER when stdout is a terminal and it is long.

Examples:
  hanzo-env diff
  hanzo-env diff --against proposal --exit-code")]
    Diff(DiffArgs),

    /// Show the diff, confirm, and save install/start to the server
    #[command(after_help = "The review opens with one paragraph: steps added, removed and changed in install and
start (a step is a line that is not blank or a comment; an unmodified helpers block counts as
its one line), the services the plan starts, and the secrets declared here but not set, or
set but not declared. Long reviews go through $PAGER (default `less`, LESS=FRX) when stdout
is a terminal and you are asked (not with --yes). The repo is --repo, the file's `repo` or
the git remote's name, never a folder's name. What is sent is the plan with the text of the
helpers its `# hanzo-env helpers v1: ...` line names, so that it runs alone in a bare
sandbox; a line naming an unknown version is refused.

Examples:
  hanzo-env save
  hanzo-env save --yes          no question (scripts, CI)
  hanzo-env save --dry-run      show what would be sent")]
    Save(SaveArgs),

    /// Write the server's copy (or its pending proposal) into the local file
    #[command(after_help = "Only what differs is replaced: the file's header, comments and [env] stay. Secret names
set on the server but not declared in the file are added as optional ones (after the
`# optional:` line), never as required.

Examples:
  hanzo-env pull
  hanzo-env pull --proposal --yes")]
    Pull(PullArgs),

    /// List the org's environments
    #[command(after_help = "Example:
  hanzo-env list --json")]
    List,

    /// Show one environment (default: this checkout's repo); exit 3 when the org has none of that name
    #[command(after_help = "Example:
  hanzo-env show site")]
    Show(ShowArgs),

    /// Delete an environment and every secret set on it; exit 3 when the org has none of that name
    #[command(after_help = "Examples:
  hanzo-env delete site --yes
  hanzo-env delete site --yes --if-exists --json")]
    Delete(DeleteArgs),

    /// Set, list, delete and import secrets (values are never printed)
    #[command(
        subcommand,
        after_help = "The repo is --repo, the file's `repo` or the git remote's name (never a folder's name for a
write), and it must have an environment on the server: `save` one first, or pass --create to
`secret set`/`secret import`. A repo the org does not have is exit 3.

Examples:
  printf %s \"$VALUE\" | hanzo-env secret set DATABASE_URL
  hanzo-env secret list"
    )]
    Secret(SecretCommand),

    /// Store an API token in the OS keyring
    #[command(after_help = "Examples:
  hanzo-env login                                   hidden prompt
  printf %s \"$TOKEN\" | hanzo-env login --with-token")]
    Login(LoginArgs),

    /// Remove the stored API token
    #[command(after_help = "Example:
  hanzo-env logout")]
    Logout,

    /// Authentication status
    #[command(
        subcommand,
        after_help = "Example:
  hanzo-env auth status"
    )]
    Auth(AuthCommand),

    /// Run a command under the file's [env], with a clean environment (never the saved secrets)
    #[command(after_help = "The command gets PATH, HOME, LANG, TERM, the resolved [env] entries of
.hanzo/environment.toml and each --pass variable, nothing else; no value ever goes on a command
line. The secrets saved with `secret set` are never injected: the API never gives a value back,
so give a local value in [env] (e.g. DATABASE_URL = \"${DATABASE_URL}\" or \"?prompt\"). `--` before
the command is optional; it is needed when the command's first word starts with `-`. run talks
to no server. [env] values: \"literal\",
\"${VAR}\" or \"${VAR:-default}\" from your environment ($$ is a literal $, a $ without braces
is kept as is), \"?prompt\" or \"?prompt Question\" (asked without echo; an error without a
terminal). Exit status: the command's (128+N when killed by signal N), 127 command not
found, 126 not executable, 2 when [env] cannot be resolved.

Examples:
  hanzo-env run npm test
  hanzo-env run --pass SSH_AUTH_SOCK -- make integration")]
    Run(RunArgs),

    /// Write the resolved [env] entries to a mode-0600 env file
    #[command(
        after_help = "Lines are NAME='value' (a ' or \\ outside the quotes, as \\' and \\\\), which bash `source` and
dotenv parsers both read back exactly, multi-line values included. The file is created
mode 0600 and replaced atomically. Refused (exit 2) unless --force: a path inside a git
checkout that git does not ignore, and an existing file this command did not write.

Example:
  hanzo-env env-file --out .hanzo/run.env     # then: set -a; . .hanzo/run.env; set +a"
    )]
    EnvFile(EnvFileArgs),

    /// Try the environment in a scratch copy: install, start, then the tests
    #[command(after_help = "Steps, in a scratch copy of the checkout (.gitignore honoured, no .git, node_modules or
target): install (bash -euo pipefail), start in the background, a wait for the ports of
the detected services, then the primary test command (the one a developer runs before
pushing; --all-tests runs every detected one and also brings up the optional services,
whose failing to start is a warning, --test replaces them). Installs stay in the
scratch directory: a virtualenv first on PATH (VIRTUAL_ENV) when install runs Python tools,
and an npm prefix (NPM_CONFIG_PREFIX). Each step runs in its own process group with the run
environment plus CI=true and the location variables that are set (CA bundles such as
SSL_CERT_FILE and NODE_EXTRA_CA_CERTS, toolchain homes such as PYENV_ROOT and RUSTUP_HOME:
paths, never credentials), logs to a file, and is stopped as a whole on --step-timeout or
--timeout. A test that fails while a detected service is not answering is reported as
blocked by it. Exit: 0 every step passed, 1 a step failed, was blocked or timed out, 2
verify could not run, 130 interrupted.

Examples:
  hanzo-env verify
  hanzo-env verify --test 'cargo test --locked'
  hanzo-env verify --all-tests
  hanzo-env verify --keep --timeout 20m --json
  hanzo-env verify ../api")]
    Verify(VerifyArgs),

    /// Serve the environment API locally (offline use, CI, tests)
    #[command(after_help = "Examples:
  hanzo-env serve
  hanzo-env serve --listen 127.0.0.1:0 --data ./envdata --token-file ./token
  HANZO_BASE_URL=http://127.0.0.1:8787 hanzo-env list")]
    Serve(ServeArgs),

    /// Print shell completions
    #[command(after_help = "Examples:
  hanzo-env completions bash > ~/.local/share/bash-completion/completions/hanzo-env
  hanzo-env completions zsh > ~/.zfunc/_hanzo-env")]
    Completions(CompletionsArgs),
}

#[derive(Debug, Clone, Args)]
pub struct DetectArgs {
    /// The checkout to look at
    #[arg(default_value = ".", value_name = "PATH")]
    pub path: PathBuf,
    /// Print the TOML on stdout instead of writing the file
    #[arg(long, conflicts_with = "json")]
    pub stdout: bool,
    /// Overwrite a file that differs from what detect would write
    #[arg(long)]
    pub force: bool,
    /// Show every install/start line with the file (and key or line) that justifies it
    #[arg(long)]
    pub explain: bool,
    /// Detect again and compare with the recorded environment and the exported agent files
    /// instead of writing; exit 1 when anything drifted
    #[arg(long, conflicts_with_all = ["stdout", "force", "explain"])]
    pub check: bool,
    /// What --check compares with
    #[arg(long, value_enum, default_value_t = CheckAgainst::File, requires = "check", value_name = "WHAT")]
    pub against: CheckAgainst,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckAgainst {
    /// The committed .hanzo/environment.toml
    File,
    /// The environment saved on the server
    Saved,
}

#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// Which agent's file to write
    #[arg(long = "to", value_enum, value_name = "TARGET")]
    pub to: ExportTarget,
    /// The checkout to export
    #[arg(default_value = ".", value_name = "PATH")]
    pub path: PathBuf,
    /// Print the file(s) on stdout instead of writing them
    #[arg(long, conflicts_with = "json")]
    pub stdout: bool,
    /// Overwrite a file that differs from what export would write
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportTarget {
    /// GitHub Copilot coding agent: .github/workflows/copilot-setup-steps.yml
    Copilot,
    /// Cursor cloud agents: .cursor/environment.json
    Cursor,
    /// Dev containers and Codespaces: .devcontainer/devcontainer.json
    Devcontainer,
    /// Codex, Jules and others: the Setup section of AGENTS.md
    AgentsMd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Against {
    /// The saved environment
    Saved,
    /// The server's pending proposal
    Proposal,
}

#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// What to compare the local file with
    #[arg(long, value_enum, default_value_t = Against::Saved)]
    pub against: Against,
    /// Exit 1 when there are differences
    #[arg(long)]
    pub exit_code: bool,
}

#[derive(Debug, Clone, Args)]
pub struct SaveArgs {
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Show what would be sent, send nothing
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PullArgs {
    /// Take the server's pending proposal instead of the saved copy
    #[arg(long)]
    pub proposal: bool,
    /// Do not ask before replacing the local file
    #[arg(long, short = 'y')]
    pub yes: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The repo to show [default: this checkout's]
    #[arg(value_name = "REPO")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct DeleteArgs {
    /// The repo whose environment to delete
    #[arg(value_name = "REPO")]
    pub name: String,
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Succeed (exit 0) when the org has no environment of that name; without it that is exit 3
    #[arg(long)]
    pub if_exists: bool,
}

#[derive(Debug, Subcommand)]
pub enum SecretCommand {
    /// Set a secret: hidden prompt on a terminal, else stdin to EOF
    #[command(after_help = "Examples:
  hanzo-env secret set DATABASE_URL
  printf %s \"$VALUE\" | hanzo-env secret set DATABASE_URL
  hanzo-env secret set TLS_KEY --from-file key.pem")]
    Set(SecretSetArgs),
    /// List the names of the secrets set on the repo
    #[command(after_help = "Example:
  hanzo-env secret list --json")]
    List,
    /// Delete a secret
    #[command(after_help = "Example:
  hanzo-env secret delete STRIPE_SECRET_KEY")]
    Delete(SecretDeleteArgs),
    /// Set many secrets from a dotenv file (or - for stdin)
    #[command(after_help = "Examples:
  hanzo-env secret import -f .env
  op inject -i .env.tpl | hanzo-env secret import -f -")]
    Import(SecretImportArgs),
}

#[derive(Debug, Clone, Args)]
pub struct SecretSetArgs {
    /// The secret's name (never its value)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Read the value verbatim from a file (- for stdin)
    #[arg(long, value_name = "PATH")]
    pub from_file: Option<PathBuf>,
    /// Keep a trailing newline read from stdin
    #[arg(long)]
    pub keep_newline: bool,
    /// Set it even when the repo has no environment yet (without it, that is refused)
    #[arg(long)]
    pub create: bool,
}

#[derive(Debug, Clone, Args)]
pub struct SecretDeleteArgs {
    #[arg(value_name = "NAME")]
    pub name: String,
}

#[derive(Debug, Clone, Args)]
pub struct SecretImportArgs {
    /// The dotenv file to read (- for stdin)
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub file: PathBuf,
    /// Import even when the repo has no environment yet (without it, that is refused)
    #[arg(long)]
    pub create: bool,
}

#[derive(Debug, Clone, Args)]
pub struct LoginArgs {
    /// Read the token from stdin instead of prompting
    #[arg(long)]
    pub with_token: bool,
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Which token is used, from where, against which API and org
    #[command(after_help = "Examples:
  hanzo-env auth status
  hanzo-env auth status --json")]
    Status,
}

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Pass this variable of the caller's environment through (repeatable)
    #[arg(long, value_name = "VAR")]
    pub pass: Vec<String>,
    /// The command and its arguments (`--` first is optional)
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "CMD")]
    pub command: Vec<std::ffi::OsString>,
}

#[derive(Debug, Clone, Args)]
pub struct EnvFileArgs {
    /// Where to write the env file
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// Write even inside a git-tracked, not ignored path
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// The checkout to verify
    #[arg(default_value = ".", value_name = "PATH")]
    pub path: PathBuf,
    /// Keep the scratch copy afterwards
    #[arg(long)]
    pub keep: bool,
    /// Limit for the whole run
    #[arg(long, value_parser = humantime::parse_duration, default_value = "30m", value_name = "DURATION")]
    pub timeout: Duration,
    /// Limit for each step [default: --timeout]
    #[arg(long, value_parser = humantime::parse_duration, value_name = "DURATION")]
    pub step_timeout: Option<Duration>,
    /// Run this test command instead of the detected one (repeatable)
    #[arg(long = "test", value_name = "CMD")]
    pub tests: Vec<String>,
    /// Run every detected test command, not only the primary one
    #[arg(long, conflicts_with = "tests")]
    pub all_tests: bool,
    /// Pass this variable of the caller's environment through (repeatable)
    #[arg(long, value_name = "VAR")]
    pub pass: Vec<String>,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free one (printed on stdout)
    #[arg(long, default_value = "127.0.0.1:8787", value_name = "ADDR")]
    pub listen: String,
    /// Data directory [default: the platform data dir]
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// File with accepted bearer tokens, one per line [env: HANZO_ENV_SERVE_TOKENS holds them inline]
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Master key file (0600, outside the data dir) [default: in the platform config dir]
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,
    /// Allow a non-loopback listen address (no TLS here: put it behind a proxy)
    #[arg(long)]
    pub allow_remote: bool,
}

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The man pages, rendered from the clap definition: `hanzo-env.1` (with the exit codes)
/// and one page per subcommand, `hanzo-env-<cmd>.1` and `hanzo-env-<cmd>-<sub>.1`.
pub fn render_man_pages() -> Vec<(String, Vec<u8>)> {
    use clap::CommandFactory;
    let mut root = Cli::command();
    root.build();
    let mut pages = vec![("hanzo-env.1".to_string(), render_root_page(&root))];
    collect_subcommand_pages(&root, "hanzo-env", &mut pages);
    pages
}

fn render_root_page(cmd: &clap::Command) -> Vec<u8> {
    let man = clap_mangen::Man::new(cmd.clone().after_help(None::<&str>).after_long_help(None::<&str>));
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);
    let _ = man.render_description_section(&mut out);
    let _ = man.render_options_section(&mut out);
    let _ = man.render_subcommands_section(&mut out);
    out.extend_from_slice(b".SH \"EXIT STATUS\"\n");
    for line in EXIT_CODES.lines().skip(1) {
        if let Some((code, meaning)) = line.trim().split_once(' ') {
            out.extend_from_slice(format!(".TP\n\\fB{code}\\fR\n{}\n", meaning.trim().replace('-', "\\-")).as_bytes());
        }
    }
    let _ = man.render_version_section(&mut out);
    out
}

fn collect_subcommand_pages(parent: &clap::Command, prefix: &str, pages: &mut Vec<(String, Vec<u8>)>) {
    for sub in parent.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        let name = format!("{prefix}-{}", sub.get_name());
        let page = sub.clone().name(name.clone());
        let mut out = Vec::new();
        let _ = clap_mangen::Man::new(page).render(&mut out);
        pages.push((format!("{name}.1"), out));
        collect_subcommand_pages(sub, &name, pages);
    }
}

/// Completions for `shell`, rendered from the clap definition.
pub fn render_completions(shell: clap_complete::Shell) -> Vec<u8> {
    use clap::CommandFactory;
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hanzo-env", &mut out);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
