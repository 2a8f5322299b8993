# hanzo_pm NAME [VERSION [NPM_PACKAGE]]: the package manager NAME (pnpm, yarn) at VERSION (a
# release, or a major) through corepack, else from the npm registry as NPM_PACKAGE (default
# NAME@VERSION). --force: the shims corepack left for a release it could not verify are replaced.
hanzo_pm() {
  local have
  export COREPACK_ENABLE_DOWNLOAD_PROMPT=0
  have=$("$1" --version 2>/dev/null) && case ${2:-} in
    "") return 0 ;;
    *.*) [ "$have" = "$2" ] && return 0 ;;
    *) [[ $have == "$2".* ]] && return 0 ;;
  esac
  { corepack enable --install-directory "$(npm prefix -g)/bin" && "$1" --version; } >/dev/null 2>&1 ||
    npm install -g --force "${3:-$1${2:+@$2}}"
}
