# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_hanzo_env_global_optspecs
    string join \n api-url= org= repo= json no-input q/quiet v/verbose color= ca-cert= h/help V/version
end

function __fish_hanzo_env_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_hanzo_env_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_hanzo_env_using_subcommand
    set -l cmd (__fish_hanzo_env_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "detect" -d 'Draft .hanzo/environment.toml from what the checkout shows (offline)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "export" -d 'Write the environment as another agent\'s file: Copilot, Cursor, a dev container, AGENTS.md'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "diff" -d 'Compare the local file with the copy saved on the server'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "save" -d 'Show the diff, confirm, and save install/start to the server'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "pull" -d 'Write the server\'s copy (or its pending proposal) into the local file'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "list" -d 'List the org\'s environments'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "show" -d 'Show one environment (default: this checkout\'s repo); exit 3 when the org has none of that name'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "delete" -d 'Delete an environment and every secret set on it; exit 3 when the org has none of that name'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "secret" -d 'Set, list, delete and import secrets (values are never printed)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "login" -d 'Store an API token in the OS keyring'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "logout" -d 'Remove the stored API token'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "auth" -d 'Authentication status'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "run" -d 'Run a command under the file\'s [env], with a clean environment (never the saved secrets)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "env-file" -d 'Write the resolved [env] entries to a mode-0600 env file'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "verify" -d 'Try the environment in a scratch copy: install, start, then the tests'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "serve" -d 'Serve the environment API locally (offline use, CI, tests)'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "completions" -d 'Print shell completions'
complete -c hanzo-env -n "__fish_hanzo_env_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l against -d 'What --check compares with' -r -f -a "file\t'The committed .hanzo/environment.toml'
saved\t'The environment saved on the server'"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l stdout -d 'Print the TOML on stdout instead of writing the file'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l force -d 'Overwrite a file that differs from what detect would write'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l explain -d 'Show every install/start line with the file (and key or line) that justifies it'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l check -d 'Detect again and compare with the recorded environment and the exported agent files instead of writing; exit 1 when anything drifted'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand detect" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l to -d 'Which agent\'s file to write' -r -f -a "copilot\t'GitHub Copilot coding agent: .github/workflows/copilot-setup-steps.yml'
cursor\t'Cursor cloud agents: .cursor/environment.json'
devcontainer\t'Dev containers and Codespaces: .devcontainer/devcontainer.json'
agents-md\t'Codex, Jules and others: the Setup section of AGENTS.md'"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l stdout -d 'Print the file(s) on stdout instead of writing them'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l force -d 'Overwrite a file that differs from what export would write'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand export" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l against -d 'What to compare the local file with' -r -f -a "saved\t'The saved environment'
proposal\t'The server\'s pending proposal'"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l exit-code -d 'Exit 1 when there are differences'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand diff" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -s y -l yes -d 'Do not ask for confirmation'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l dry-run -d 'Show what would be sent, send nothing'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand save" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l proposal -d 'Take the server\'s pending proposal instead of the saved copy'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -s y -l yes -d 'Do not ask before replacing the local file'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand pull" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand list" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand show" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l if-exists -d 'Succeed (exit 0) when the org has no environment of that name; without it that is exit 3'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand delete" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -f -a "set" -d 'Set a secret: hidden prompt on a terminal, else stdin to EOF'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -f -a "list" -d 'List the names of the secrets set on the repo'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -f -a "delete" -d 'Delete a secret'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -f -a "import" -d 'Set many secrets from a dotenv file (or - for stdin)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and not __fish_seen_subcommand_from set list delete import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l from-file -d 'Read the value verbatim from a file (- for stdin)' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l keep-newline -d 'Keep a trailing newline read from stdin'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l create -d 'Set it even when the repo has no environment yet (without it, that is refused)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -s f -l file -d 'The dotenv file to read (- for stdin)' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l create -d 'Import even when the repo has no environment yet (without it, that is refused)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set a secret: hidden prompt on a terminal, else stdin to EOF'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the names of the secrets set on the repo'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a secret'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "import" -d 'Set many secrets from a dotenv file (or - for stdin)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l with-token -d 'Read the token from stdin instead of prompting'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand login" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand logout" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -f -a "status" -d 'Which token is used, from where, against which API and org'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and not __fish_seen_subcommand_from status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Which token is used, from where, against which API and org'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l pass -d 'Pass this variable of the caller\'s environment through (repeatable)' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand run" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l out -d 'Where to write the env file' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l force -d 'Write even inside a git-tracked, not ignored path'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand env-file" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l timeout -d 'Limit for the whole run' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l step-timeout -d 'Limit for each step [default: --timeout]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l test -d 'Run this test command instead of the detected one (repeatable)' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l pass -d 'Pass this variable of the caller\'s environment through (repeatable)' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l keep -d 'Keep the scratch copy afterwards'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l all-tests -d 'Run every detected test command, not only the primary one'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand verify" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l listen -d 'Address to listen on; port 0 picks a free one (printed on stdout)' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l data -d 'Data directory [default: the platform data dir]' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l token-file -d 'File with accepted bearer tokens, one per line [env: HANZO_ENV_SERVE_TOKENS holds them inline]' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l key-file -d 'Master key file (0600, outside the data dir) [default: in the platform config dir]' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l allow-remote -d 'Allow a non-loopback listen address (no TLS here: put it behind a proxy)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand serve" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l api-url -d 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l org -d 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l repo -d 'Repo name inside the org [default: the file\'s `repo`, else the git remote\'s name; never a folder\'s name for a write]' -r
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l color -d 'When to use colour' -r -f -a "auto\t''
always\t''
never\t''"
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l ca-cert -d 'Extra CA certificate (PEM) to trust for the API' -r -F
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l json -d 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -l no-input -d 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -s q -l quiet -d 'Print less (only errors and data)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -s v -l verbose -d 'Print more; repeat for more detail'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -s h -l help -d 'Print help'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand completions" -s V -l version -d 'Print version'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "detect" -d 'Draft .hanzo/environment.toml from what the checkout shows (offline)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "export" -d 'Write the environment as another agent\'s file: Copilot, Cursor, a dev container, AGENTS.md'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "diff" -d 'Compare the local file with the copy saved on the server'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "save" -d 'Show the diff, confirm, and save install/start to the server'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "pull" -d 'Write the server\'s copy (or its pending proposal) into the local file'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "list" -d 'List the org\'s environments'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "show" -d 'Show one environment (default: this checkout\'s repo); exit 3 when the org has none of that name'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "delete" -d 'Delete an environment and every secret set on it; exit 3 when the org has none of that name'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "secret" -d 'Set, list, delete and import secrets (values are never printed)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "login" -d 'Store an API token in the OS keyring'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "logout" -d 'Remove the stored API token'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "auth" -d 'Authentication status'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "run" -d 'Run a command under the file\'s [env], with a clean environment (never the saved secrets)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "env-file" -d 'Write the resolved [env] entries to a mode-0600 env file'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "verify" -d 'Try the environment in a scratch copy: install, start, then the tests'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "serve" -d 'Serve the environment API locally (offline use, CI, tests)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "completions" -d 'Print shell completions'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and not __fish_seen_subcommand_from detect export diff save pull list show delete secret login logout auth run env-file verify serve completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and __fish_seen_subcommand_from secret" -f -a "set" -d 'Set a secret: hidden prompt on a terminal, else stdin to EOF'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and __fish_seen_subcommand_from secret" -f -a "list" -d 'List the names of the secrets set on the repo'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and __fish_seen_subcommand_from secret" -f -a "delete" -d 'Delete a secret'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and __fish_seen_subcommand_from secret" -f -a "import" -d 'Set many secrets from a dotenv file (or - for stdin)'
complete -c hanzo-env -n "__fish_hanzo_env_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Which token is used, from where, against which API and org'
