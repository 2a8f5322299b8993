
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'hanzo-env' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'hanzo-env'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'hanzo-env' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('detect', 'detect', [CompletionResultType]::ParameterValue, 'Draft .hanzo/environment.toml from what the checkout shows (offline)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the environment as another agent''s file: Copilot, Cursor, a dev container, AGENTS.md')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the local file with the copy saved on the server')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Show the diff, confirm, and save install/start to the server')
            [CompletionResult]::new('pull', 'pull', [CompletionResultType]::ParameterValue, 'Write the server''s copy (or its pending proposal) into the local file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the org''s environments')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one environment (default: this checkout''s repo); exit 3 when the org has none of that name')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an environment and every secret set on it; exit 3 when the org has none of that name')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Set, list, delete and import secrets (values are never printed)')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store an API token in the OS keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Remove the stored API token')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Authentication status')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run a command under the file''s [env], with a clean environment (never the saved secrets)')
            [CompletionResult]::new('env-file', 'env-file', [CompletionResultType]::ParameterValue, 'Write the resolved [env] entries to a mode-0600 env file')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Try the environment in a scratch copy: install, start, then the tests')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the environment API locally (offline use, CI, tests)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hanzo-env;detect' {
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'What --check compares with')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--stdout', '--stdout', [CompletionResultType]::ParameterName, 'Print the TOML on stdout instead of writing the file')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite a file that differs from what detect would write')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Show every install/start line with the file (and key or line) that justifies it')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Detect again and compare with the recorded environment and the exported agent files instead of writing; exit 1 when anything drifted')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;export' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Which agent''s file to write')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--stdout', '--stdout', [CompletionResultType]::ParameterName, 'Print the file(s) on stdout instead of writing them')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite a file that differs from what export would write')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;diff' {
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'What to compare the local file with')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when there are differences')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;save' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would be sent, send nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;pull' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--proposal', '--proposal', [CompletionResultType]::ParameterName, 'Take the server''s pending proposal instead of the saved copy')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask before replacing the local file')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask before replacing the local file')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;list' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;show' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;delete' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--if-exists', '--if-exists', [CompletionResultType]::ParameterName, 'Succeed (exit 0) when the org has no environment of that name; without it that is exit 3')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;secret' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a secret: hidden prompt on a terminal, else stdin to EOF')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the names of the secrets set on the repo')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a secret')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Set many secrets from a dotenv file (or - for stdin)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hanzo-env;secret;set' {
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read the value verbatim from a file (- for stdin)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--keep-newline', '--keep-newline', [CompletionResultType]::ParameterName, 'Keep a trailing newline read from stdin')
            [CompletionResult]::new('--create', '--create', [CompletionResultType]::ParameterName, 'Set it even when the repo has no environment yet (without it, that is refused)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;secret;list' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;secret;delete' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;secret;import' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The dotenv file to read (- for stdin)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The dotenv file to read (- for stdin)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--create', '--create', [CompletionResultType]::ParameterName, 'Import even when the repo has no environment yet (without it, that is refused)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;secret;help' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a secret: hidden prompt on a terminal, else stdin to EOF')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the names of the secrets set on the repo')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a secret')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Set many secrets from a dotenv file (or - for stdin)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hanzo-env;secret;help;set' {
            break
        }
        'hanzo-env;secret;help;list' {
            break
        }
        'hanzo-env;secret;help;delete' {
            break
        }
        'hanzo-env;secret;help;import' {
            break
        }
        'hanzo-env;secret;help;help' {
            break
        }
        'hanzo-env;login' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--with-token', '--with-token', [CompletionResultType]::ParameterName, 'Read the token from stdin instead of prompting')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;logout' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;auth' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which token is used, from where, against which API and org')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hanzo-env;auth;status' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;auth;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which token is used, from where, against which API and org')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hanzo-env;auth;help;status' {
            break
        }
        'hanzo-env;auth;help;help' {
            break
        }
        'hanzo-env;run' {
            [CompletionResult]::new('--pass', '--pass', [CompletionResultType]::ParameterName, 'Pass this variable of the caller''s environment through (repeatable)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;env-file' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Where to write the env file')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even inside a git-tracked, not ignored path')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;verify' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Limit for the whole run')
            [CompletionResult]::new('--step-timeout', '--step-timeout', [CompletionResultType]::ParameterName, 'Limit for each step [default: --timeout]')
            [CompletionResult]::new('--test', '--test', [CompletionResultType]::ParameterName, 'Run this test command instead of the detected one (repeatable)')
            [CompletionResult]::new('--pass', '--pass', [CompletionResultType]::ParameterName, 'Pass this variable of the caller''s environment through (repeatable)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Keep the scratch copy afterwards')
            [CompletionResult]::new('--all-tests', '--all-tests', [CompletionResultType]::ParameterName, 'Run every detected test command, not only the primary one')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;serve' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address to listen on; port 0 picks a free one (printed on stdout)')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'Data directory [default: the platform data dir]')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'File with accepted bearer tokens, one per line [env: HANZO_ENV_SERVE_TOKENS holds them inline]')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Master key file (0600, outside the data dir) [default: in the platform config dir]')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Allow a non-loopback listen address (no TLS here: put it behind a proxy)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;completions' {
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'API base URL [env: HANZO_BASE_URL] [default: https://api.hanzo.ai]')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Organization id, sent as X-Org-Id [env: HANZO_ORG_ID]')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repo name inside the org [default: the file''s `repo`, else the git remote''s name; never a folder''s name for a write]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'Extra CA certificate (PEM) to trust for the API')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout (every command that changes something says what it changed; `run` and `completions` refuse it)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; a question becomes an error naming the flag that answers it (implied when stdin is not a terminal or CI is set)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less (only errors and data)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more; repeat for more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hanzo-env;help' {
            [CompletionResult]::new('detect', 'detect', [CompletionResultType]::ParameterValue, 'Draft .hanzo/environment.toml from what the checkout shows (offline)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the environment as another agent''s file: Copilot, Cursor, a dev container, AGENTS.md')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare the local file with the copy saved on the server')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Show the diff, confirm, and save install/start to the server')
            [CompletionResult]::new('pull', 'pull', [CompletionResultType]::ParameterValue, 'Write the server''s copy (or its pending proposal) into the local file')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the org''s environments')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one environment (default: this checkout''s repo); exit 3 when the org has none of that name')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an environment and every secret set on it; exit 3 when the org has none of that name')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Set, list, delete and import secrets (values are never printed)')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store an API token in the OS keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Remove the stored API token')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Authentication status')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run a command under the file''s [env], with a clean environment (never the saved secrets)')
            [CompletionResult]::new('env-file', 'env-file', [CompletionResultType]::ParameterValue, 'Write the resolved [env] entries to a mode-0600 env file')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Try the environment in a scratch copy: install, start, then the tests')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the environment API locally (offline use, CI, tests)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hanzo-env;help;detect' {
            break
        }
        'hanzo-env;help;export' {
            break
        }
        'hanzo-env;help;diff' {
            break
        }
        'hanzo-env;help;save' {
            break
        }
        'hanzo-env;help;pull' {
            break
        }
        'hanzo-env;help;list' {
            break
        }
        'hanzo-env;help;show' {
            break
        }
        'hanzo-env;help;delete' {
            break
        }
        'hanzo-env;help;secret' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a secret: hidden prompt on a terminal, else stdin to EOF')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the names of the secrets set on the repo')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a secret')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Set many secrets from a dotenv file (or - for stdin)')
            break
        }
        'hanzo-env;help;secret;set' {
            break
        }
        'hanzo-env;help;secret;list' {
            break
        }
        'hanzo-env;help;secret;delete' {
            break
        }
        'hanzo-env;help;secret;import' {
            break
        }
        'hanzo-env;help;login' {
            break
        }
        'hanzo-env;help;logout' {
            break
        }
        'hanzo-env;help;auth' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Which token is used, from where, against which API and org')
            break
        }
        'hanzo-env;help;auth;status' {
            break
        }
        'hanzo-env;help;run' {
            break
        }
        'hanzo-env;help;env-file' {
            break
        }
        'hanzo-env;help;verify' {
            break
        }
        'hanzo-env;help;serve' {
            break
        }
        'hanzo-env;help;completions' {
            break
        }
        'hanzo-env;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
