# hanzo_uv_venv: a project `.venv` over the python3 of every later shell, for the project's
# `uv run --no-sync`, which runs in `.venv` as it is and never fills it. A .pth file puts the
# interpreter's packages (where the install put the locked set) on its path; what uv installs
# later (`uv sync`) stays in `.venv`, never touching the interpreter. A `.venv` already there
# is left as it is.
hanzo_uv_venv() {
  [ ! -e .venv ] || return 0
  local theirs ours
  theirs=$(python3 -c 'import sysconfig; print("\n".join(dict.fromkeys(sysconfig.get_path(k) for k in ("purelib", "platlib"))))') || return 1
  uv venv --quiet --python "$(command -v python3)" .venv || return 1
  ours=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') || return 1
  printf '%s\n' "$theirs" >"$ours/_hanzo_env_interpreter.pth"
}
