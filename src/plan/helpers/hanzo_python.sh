# hanzo_python VERSION: make Python VERSION (3.12) the python3 of every later shell: pyenv's
# newest installed VERSION, else the one pyenv installs, made its global version; else asdf or
# mise installs it. In a virtualenv (verify's, made with VERSION when the machine has it) or
# where nothing can install it, a warning names the Python that runs: a close one beats none.
hanzo_python() {
  local major=${1%%.*} minor=${1#*.} found=""
  minor=${minor%%.*}
  [ "$minor" != "$1" ] || minor=0
  python3 -c "import sys; sys.exit(sys.version_info[:2] != ($major, $minor))" 2>/dev/null && return 0
  local failed="hanzo-env: warning: Python $1 is pinned but could not be installed; going on with"
  if [ -n "${VIRTUAL_ENV:-}" ]; then
    echo "hanzo-env: warning: Python $1 is pinned; the virtualenv $VIRTUAL_ENV runs $(python3 --version 2>&1)" >&2
  elif command -v pyenv >/dev/null 2>&1; then
    found=$(pyenv latest "$1" 2>/dev/null) || { pyenv install --skip-existing "$1" && found=$(pyenv latest "$1" 2>/dev/null); }
    if [ -n "$found" ] && pyenv global "$found"; then hash -r
    else echo "$failed $(python3 --version 2>&1)" >&2
    fi
  elif command -v asdf >/dev/null 2>&1; then asdf install python "$1" || echo "$failed $(python3 --version 2>&1)" >&2
  elif command -v mise >/dev/null 2>&1; then mise install "python@$1" || echo "$failed $(python3 --version 2>&1)" >&2
  else echo "hanzo-env: warning: Python $1 is pinned but no pyenv/asdf/mise is here to install it; going on with $(python3 --version 2>&1)" >&2
  fi
}
