# hanzo_have PROGRAM TOOLCHAIN: PROGRAM is installed; else one warning that the steps of
# TOOLCHAIN's part of the repo are skipped (a polyglot repo's other parts need not stop the
# install of the part under test).
hanzo_have() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "hanzo-env: warning: $1 is not installed: skipped a step that needs it; install $2 for that part of the repo" >&2
  return 1
}
