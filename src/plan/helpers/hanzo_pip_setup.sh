# hanzo_pip_setup: Python packages go to the interpreter on PATH, so every shell an agent
# opens later sees them: for root the system's site-packages; for another user the user site
# (~/.local, put on PATH for login and interactive shells); in a virtualenv (verify's) that
# one. PEP 668's refusal is for shared machines, not throw-away sandboxes. `python` is linked
# to python3 when missing (what python-is-python3 does).
hanzo_pip_setup() {
  export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_BREAK_SYSTEM_PACKAGES=1 PATH="$HOME/.local/bin:$PATH"
  local rc python3
  if [ "$(id -u)" != 0 ] && [ -z "${VIRTUAL_ENV:-}" ]; then
    for rc in "$HOME/.profile" "$HOME/.bashrc"; do
      # shellcheck disable=SC2016 # written for the later shell to expand
      grep -qs '.local/bin' "$rc" || echo 'export PATH="$HOME/.local/bin:$PATH"' >>"$rc"
    done
  fi
  if ! command -v python >/dev/null 2>&1 && python3=$(command -v python3); then
    if [ -w "${python3%/*}" ]; then ln -s python3 "${python3%/*}/python"
    else mkdir -p "$HOME/.local/bin" && ln -sf "$python3" "$HOME/.local/bin/python"; fi
  fi
}
