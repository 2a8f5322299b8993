# hanzo_python VERSION: make the pinned Python (3.12) the one on PATH when pyenv, asdf or mise
# can install it; else (or when it cannot download) a warning names the Python that runs: an
# agent with a close version beats none.
hanzo_python() {
  local major=${1%%.*} minor=${1#*.}
  minor=${minor%%.*}
  [ "$minor" != "$1" ] || minor=0
  python3 -c "import sys; sys.exit(sys.version_info[:2] != ($major, $minor))" 2>/dev/null && return 0
  local failed="hanzo-env: warning: Python $1 is pinned but could not be installed; going on with"
  if command -v pyenv >/dev/null 2>&1; then pyenv install --skip-existing "$1" || echo "$failed $(python3 --version 2>&1)" >&2
  elif command -v asdf >/dev/null 2>&1; then asdf install python "$1" || echo "$failed $(python3 --version 2>&1)" >&2
  elif command -v mise >/dev/null 2>&1; then mise install "python@$1" || echo "$failed $(python3 --version 2>&1)" >&2
  else echo "hanzo-env: warning: Python $1 is pinned but no pyenv/asdf/mise is here to install it; going on with $(python3 --version 2>&1)" >&2
  fi
}
