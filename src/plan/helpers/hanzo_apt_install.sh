# hanzo_apt_install FOR PACKAGE...: apt-get install the Debian/Ubuntu PACKAGEs not installed
# yet, as root or through sudo -n; FOR ends each warning ("for the services"). All at once,
# else one by one: a name another release lacks costs a warning, not the rest. Never fails.
hanzo_apt_install() {
  local for=$1 missing=() p
  shift
  for p in "$@"; do
    dpkg-query -W -f '${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null; then
    echo "hanzo-env: no apt-get here: install ${missing[*]} $for another way" >&2; return 0
  fi
  local apt=(env DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 apt-get -qq -o DPkg::Lock::Timeout=120)
  if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || { echo "hanzo-env: installing ${missing[*]} $for needs root or passwordless sudo" >&2; return 0; }
    apt=(sudo -n "${apt[@]}")
  fi
  if ! "${apt[@]}" update; then echo "hanzo-env: could not install ${missing[*]} $for" >&2; return 0; fi
  "${apt[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null && return 0
  for p in "${missing[@]}"; do
    "${apt[@]}" install -y --no-install-recommends "$p" >/dev/null || echo "hanzo-env: could not install $p $for" >&2
  done
}
