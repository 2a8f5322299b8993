# hanzo_python_in FLOOR [BELOW]: make a Python of FLOOR or newer (older than BELOW when given;
# both MAJOR.MINOR, from requires-python) the python3 of every later shell: the python3 here
# when it is one; else pyenv's newest installed one, made its global version; else the one
# pyenv installs at FLOOR. In a virtualenv (verify's, made with one when the machine has it)
# or where nothing can install one, a warning names the Python that runs.
hanzo_python_in() {
  local low=$((${1%%.*} * 1000 + ${1#*.})) high=999999 key version rest found=""
  [ -z "${2:-}" ] || high=$((${2%%.*} * 1000 + ${2#*.}))
  local want="Python $1 or newer${2:+ (older than $2)}"
  key=$(python3 -c 'import sys; print(sys.version_info[0] * 1000 + sys.version_info[1])' 2>/dev/null) || key=0
  case $key in '' | *[!0-9]*) key=0 ;; esac
  [ "$key" -ge "$low" ] && [ "$key" -lt "$high" ] && return 0
  if [ -n "${VIRTUAL_ENV:-}" ]; then
    echo "hanzo-env: warning: the project asks for $want; the virtualenv $VIRTUAL_ENV runs $(python3 --version 2>&1)" >&2
    return 0
  fi
  if ! command -v pyenv >/dev/null 2>&1; then
    echo "hanzo-env: warning: the project asks for $want, and no pyenv is here to install it; going on with $(python3 --version 2>&1)" >&2
    return 0
  fi
  for version in $(pyenv versions --bare 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V); do
    rest=${version#*.}
    key=$((${version%%.*} * 1000 + ${rest%%.*}))
    if [ "$key" -ge "$low" ] && [ "$key" -lt "$high" ]; then found=$version; fi
  done
  [ -n "$found" ] || { pyenv install --skip-existing "$1" && found=$(pyenv latest "$1" 2>/dev/null); }
  if [ -n "$found" ] && pyenv global "$found"; then hash -r
  else echo "hanzo-env: warning: the project asks for $want, which could not be installed; going on with $(python3 --version 2>&1)" >&2
  fi
}
