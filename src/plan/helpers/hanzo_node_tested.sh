# hanzo_node_tested FLOOR NEWEST: Node FLOOR (18.12) or later, as hanzo_node '>=FLOOR', and of
# major NEWEST (the newest CI tests the project on) or older: a newer one is replaced by
# NEWEST's newest release through nvm, fnm or volta, else from the npm registry, as the suite
# may break on what a later Node changed (its globals, stricter checks). From the registry it
# comes with an npm that runs on it (this machine's may not: npm 11 needs Node 20).
hanzo_npm_for_node() { # MAJOR: the newest npm major whose engines take Node MAJOR's last release
  case $1 in
    18) echo 10 ;;
    14 | 16 | 19) echo 9 ;;
    12 | 17) echo 8 ;;
    10 | 11 | 13 | 15) echo 7 ;;
    *) echo 6 ;;
  esac
}
hanzo_node_tested() {
  local have
  hanzo_node_at_least "$1"
  have=$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/')
  [ "$have" -gt "$2" ] 2>/dev/null || return 0
  hanzo_node_from_manager "$2"
  have=$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/')
  [ "$have" -gt "$2" ] 2>/dev/null || return 0
  echo "hanzo-env: CI tests Node $1 to $2, and $(node --version) is newer: installing Node $2 and npm $(hanzo_npm_for_node "$2") from the npm registry" >&2
  { npm install -g "npm@$(hanzo_npm_for_node "$2")" "node@$2" && hash -r; } ||
    echo "hanzo-env: warning: Node $2 could not be installed from the npm registry; going on with $(node --version 2>&1)" >&2
}
