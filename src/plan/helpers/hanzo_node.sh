# hanzo_node VERSION: make the pinned Node (22, 20.11.0) the one on PATH through nvm, fnm or
# volta when one is here. Without one (or when it cannot download), a Node of the same or a
# newer major goes on with a warning (a close version beats no agent); one of an older major
# is fetched from the npm registry (node@VERSION, else the newest node@MAJOR), as
# dependencies' engines reject it.
# hanzo_node '>=VERSION': Node VERSION (18.12) or later; an older one is replaced by the
# newest of VERSION's major from the npm registry.
hanzo_node_fits() { # exact|at-least VERSION
  local have
  have=$(node --version 2>/dev/null) || return 1
  have=${have#v}
  case $1 in
    exact) [ "$have" = "$2" ] || [[ $2 != *.* && $have == "$2".* ]] ;;
    *) printf '%s\n' "$2" "$have" | sort -V -C ;;
  esac
}
hanzo_node_from_manager() { # VERSION: nvm, fnm or volta; a manager that cannot download is no manager
  if [ -s "${NVM_DIR:-$HOME/.nvm}/nvm.sh" ]; then
    # shellcheck disable=SC1091
    { . "${NVM_DIR:-$HOME/.nvm}/nvm.sh" && nvm install "$1"; } || true
  elif command -v fnm >/dev/null 2>&1; then { fnm install "$1" && eval "$(fnm env)" && fnm use "$1"; } || true
  elif command -v volta >/dev/null 2>&1; then volta install "node@$1" || true
  fi
}
hanzo_node() {
  [[ $1 != '>='* ]] || { hanzo_node_at_least "${1#>=}"; return; }
  local major=${1%%.*}
  hanzo_node_fits exact "$1" && return 0
  hanzo_node_from_manager "$1"
  hanzo_node_fits exact "$1" && return 0
  if [ "$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/')" -lt "$major" ] 2>/dev/null; then
    echo "hanzo-env: Node $1 is pinned and $(node --version) is an older major: installing Node $1 from the npm registry" >&2
    { npm install -g "node@$1" || { [ "$major" != "$1" ] && npm install -g "node@$major"; }; } && hash -r ||
      echo "hanzo-env: warning: Node $1 could not be installed from the npm registry; going on with $(node --version 2>&1)" >&2
  else
    echo "hanzo-env: warning: Node $1 is pinned but no nvm, fnm or volta here installed it; going on with $(node --version 2>&1)" >&2
  fi
}
hanzo_node_at_least() {
  local major=${1%%.*}
  hanzo_node_fits at-least "$1" && return 0
  hanzo_node_from_manager "$major"
  hanzo_node_fits at-least "$1" && return 0
  echo "hanzo-env: Node $1 or later is needed: installing Node $major from the npm registry" >&2
  npm install -g "node@$major" && hash -r
}
