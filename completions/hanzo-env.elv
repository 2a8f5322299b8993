
use builtin;
use str;

set edit:completion:arg-completer[hanzo-env] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'hanzo-env'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'hanzo-env'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand detect 'Draft .hanzo/environment.toml from what the checkout shows (offline)'
            cand export 'Write the environment as another agent''s file: Copilot, Cursor, a dev container, AGENTS.md'
            cand diff 'Compare the local file with the copy saved on the server'
            cand save 'Show the diff, confirm, and save install/start to the server'
            cand pull 'Write the server''s copy (or its pending proposal) into the local file'
            cand list 'List the org''s environments'
            cand show 'Show one environment (default: this checkout''s repo); exit 3 when the org has none of that name'
            cand delete 'Delete an environment and every secret set on it; exit 3 when the org has none of that name'
            cand secret 'Set, list, delete and import secrets (values are never printed)'
            cand login 'Store an API token in the OS keyring'
            cand logout 'Remove the stored API token'
            cand auth 'Authentication status'
            cand run 'Run a command under the file''s [env], with a clean environment (never the saved secrets)'
            cand env-file 'Write the resolved [env] entries to a mode-0600 env file'
            cand verify 'Try the environment in a scratch copy: install, start, then the tests'
            cand serve 'Serve the environment API locally (offline use, CI, tests)'
            cand completions 'Print shell completions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hanzo-env;detect'= {
            cand --against 'What --check compares with'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --stdout 'Print the TOML on stdout instead of writing the file'
            cand --force 'Overwrite a file that differs from what detect would write'
            cand --explain 'Show every install/start line with the file (and key or line) that justifies it'
            cand --check 'Detect again and compare with the recorded environment and the exported agent files instead of writing; exit 1 when anything drifted'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;export'= {
            cand --to 'Which agent''s file to write'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --stdout 'Print the file(s) on stdout instead of writing them'
            cand --force 'Overwrite a file that differs from what export would write'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;diff'= {
            cand --against 'What to compare the local file with'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --exit-code 'Exit 1 when there are differences'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;save'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --dry-run 'Show what would be sent, send nothing'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;pull'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --proposal 'Take the server''s pending proposal instead of the saved copy'
            cand -y 'Do not ask before replacing the local file'
            cand --yes 'Do not ask before replacing the local file'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;list'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;show'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;delete'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --if-exists 'Succeed (exit 0) when the org has no environment of that name; without it that is exit 3'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;secret'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand set 'Set a secret: hidden prompt on a terminal, else stdin to EOF'
            cand list 'List the names of the secrets set on the repo'
            cand delete 'Delete a secret'
            cand import 'Set many secrets from a dotenv file (or - for stdin)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hanzo-env;secret;set'= {
            cand --from-file 'Read the value verbatim from a file (- for stdin)'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --keep-newline 'Keep a trailing newline read from stdin'
            cand --create 'Set it even when the repo has no environment yet (without it, that is refused)'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;secret;list'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;secret;delete'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;secret;import'= {
            cand -f 'The dotenv file to read (- for stdin)'
            cand --file 'The dotenv file to read (- for stdin)'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --create 'Import even when the repo has no environment yet (without it, that is refused)'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;secret;help'= {
            cand set 'Set a secret: hidden prompt on a terminal, else stdin to EOF'
            cand list 'List the names of the secrets set on the repo'
            cand delete 'Delete a secret'
            cand import 'Set many secrets from a dotenv file (or - for stdin)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hanzo-env;secret;help;set'= {
        }
        &'hanzo-env;secret;help;list'= {
        }
        &'hanzo-env;secret;help;delete'= {
        }
        &'hanzo-env;secret;help;import'= {
        }
        &'hanzo-env;secret;help;help'= {
        }
        &'hanzo-env;login'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --with-token 'Read the token from stdin instead of prompting'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;logout'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;auth'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'Which token is used, from where, against which API and org'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hanzo-env;auth;status'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;auth;help'= {
            cand status 'Which token is used, from where, against which API and org'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hanzo-env;auth;help;status'= {
        }
        &'hanzo-env;auth;help;help'= {
        }
        &'hanzo-env;run'= {
            cand --pass 'Pass this variable of the caller''s environment through (repeatable)'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;env-file'= {
            cand --out 'Where to write the env file'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --force 'Write even inside a git-tracked, not ignored path'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;verify'= {
            cand --timeout 'Limit for the whole run'
            cand --step-timeout 'Limit for each step [default: --timeout]'
            cand --test 'Run this test command instead of the detected one (repeatable)'
            cand --pass 'Pass this variable of the caller''s environment through (repeatable)'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --keep 'Keep the scratch copy afterwards'
            cand --all-tests 'Run every detected test command, not only the primary one'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;serve'= {
            cand --listen 'Address to listen on; port 0 picks a free one (printed on stdout)'
            cand --data 'Data directory [default: the platform data dir]'
            cand --token-file 'File with accepted bearer tokens, one per line [env: HANZO_ENV_SERVE_TOKENS holds them inline]'
            cand --key-file 'Master key file (0600, outside the data dir) [default: in the platform config dir]'
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --allow-remote 'Allow a non-loopback listen address (no TLS here: put it behind a proxy)'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;completions'= {
            cand --api-url 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]'
            cand --org 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]'
            cand --repo 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]'
            cand --color 'When to use colour'
            cand --ca-cert 'Extra CA certificate (PEM) to trust for the API'
            cand --json 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
            cand --no-input 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
            cand -q 'Print less (only errors and data)'
            cand --quiet 'Print less (only errors and data)'
            cand -v 'Print more; repeat for more detail'
            cand --verbose 'Print more; repeat for more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hanzo-env;help'= {
            cand detect 'Draft .hanzo/environment.toml from what the checkout shows (offline)'
            cand export 'Write the environment as another agent''s file: Copilot, Cursor, a dev container, AGENTS.md'
            cand diff 'Compare the local file with the copy saved on the server'
            cand save 'Show the diff, confirm, and save install/start to the server'
            cand pull 'Write the server''s copy (or its pending proposal) into the local file'
            cand list 'List the org''s environments'
            cand show 'Show one environment (default: this checkout''s repo); exit 3 when the org has none of that name'
            cand delete 'Delete an environment and every secret set on it; exit 3 when the org has none of that name'
            cand secret 'Set, list, delete and import secrets (values are never printed)'
            cand login 'Store an API token in the OS keyring'
            cand logout 'Remove the stored API token'
            cand auth 'Authentication status'
            cand run 'Run a command under the file''s [env], with a clean environment (never the saved secrets)'
            cand env-file 'Write the resolved [env] entries to a mode-0600 env file'
            cand verify 'Try the environment in a scratch copy: install, start, then the tests'
            cand serve 'Serve the environment API locally (offline use, CI, tests)'
            cand completions 'Print shell completions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hanzo-env;help;detect'= {
        }
        &'hanzo-env;help;export'= {
        }
        &'hanzo-env;help;diff'= {
        }
        &'hanzo-env;help;save'= {
        }
        &'hanzo-env;help;pull'= {
        }
        &'hanzo-env;help;list'= {
        }
        &'hanzo-env;help;show'= {
        }
        &'hanzo-env;help;delete'= {
        }
        &'hanzo-env;help;secret'= {
            cand set 'Set a secret: hidden prompt on a terminal, else stdin to EOF'
            cand list 'List the names of the secrets set on the repo'
            cand delete 'Delete a secret'
            cand import 'Set many secrets from a dotenv file (or - for stdin)'
        }
        &'hanzo-env;help;secret;set'= {
        }
        &'hanzo-env;help;secret;list'= {
        }
        &'hanzo-env;help;secret;delete'= {
        }
        &'hanzo-env;help;secret;import'= {
        }
        &'hanzo-env;help;login'= {
        }
        &'hanzo-env;help;logout'= {
        }
        &'hanzo-env;help;auth'= {
            cand status 'Which token is used, from where, against which API and org'
        }
        &'hanzo-env;help;auth;status'= {
        }
        &'hanzo-env;help;run'= {
        }
        &'hanzo-env;help;env-file'= {
        }
        &'hanzo-env;help;verify'= {
        }
        &'hanzo-env;help;serve'= {
        }
        &'hanzo-env;help;completions'= {
        }
        &'hanzo-env;help;help'= {
        }
    ]
    $completions[$command]
}
