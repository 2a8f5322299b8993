# hanzo_pip_each WHY [PIP_OPTION...] -- REQUIREMENT...: pip install the requirements together
# (so pip resolves them as one), else one by one with a warning for each that does not install
# (a VCS URL without network, a pin with no wheel for this Python): the tests that import it
# fail, the others run.
hanzo_pip_each() {
  local why=$1 options=() p
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  python3 -m pip install "${options[@]}" "$@" && return 0
  for p in "$@"; do
    python3 -m pip install "${options[@]}" "$p" || echo "hanzo-env: warning: $p ($why) did not install; tests that import it fail" >&2
  done
}
