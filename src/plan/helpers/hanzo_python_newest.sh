# hanzo_python_newest FLOOR [BELOW]: make the newest Python of FLOOR or newer (older than BELOW
# when given; both MAJOR.MINOR) that pyenv has installed the python3 of every later shell, as
# pyenv's global version; the project is tested and supported there. Without one, or in a
# virtualenv, as hanzo_python_in does: python3 when it is one, else the one pyenv installs.
hanzo_python_newest() {
  local low=$((${1%%.*} * 1000 + ${1#*.})) high=999999 key version rest found=""
  [ -z "${2:-}" ] || high=$((${2%%.*} * 1000 + ${2#*.}))
  if [ -z "${VIRTUAL_ENV:-}" ] && command -v pyenv >/dev/null 2>&1; then
    for version in $(pyenv versions --bare 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V); do
      rest=${version#*.}
      key=$((${version%%.*} * 1000 + ${rest%%.*}))
      if [ "$key" -ge "$low" ] && [ "$key" -lt "$high" ]; then found=$version; fi
    done
    if [ -n "$found" ] && pyenv global "$found"; then
      hash -r
      return 0
    fi
  fi
  hanzo_python_in "$@"
}
