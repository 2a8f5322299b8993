# hanzo_postgres PORT USER PASSWORD DATABASE: a PostgreSQL cluster on PORT from the
# distribution's package, with the role and database; no password: loopback is trusted.
hanzo_postgres() {
  hanzo_needs postgres pg_ctlcluster postgresql || return 1
  local c u=${2//\'/\'\'} p=${3//\'/\'\'} d=${4//\'/\'\'}
  c=$(pg_lsclusters -h | awk -v p="$1" '$3 == p { print $1, $2; exit }')
  if [ -z "$c" ]; then
    hanzo_answers "$1" && return 0
    c="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -n 1) hanzo$1"
    # shellcheck disable=SC2086 # "VERSION NAME": two words
    hanzo_root pg_createcluster --locale C.UTF-8 -p "$1" $c >/dev/null || return 1
  fi
  # shellcheck disable=SC2086
  hanzo_root pg_ctlcluster $c status >/dev/null 2>&1 || hanzo_root pg_ctlcluster $c start || return 1
  printf '%s\n' "SELECT format('CREATE ROLE %I', '$u') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$u')\\gexec" \
    "SELECT format('ALTER ROLE %I LOGIN SUPERUSER PASSWORD %L', '$u', NULLIF('$p', ''))\\gexec" \
    "SELECT format('CREATE DATABASE %I OWNER %I', '$d', '$u') WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$d')\\gexec" |
    hanzo_as postgres psql -X -q -v ON_ERROR_STOP=1 -p "$1" -d postgres >/dev/null || return 1
  if [ -z "$3" ]; then
    { hanzo_root sed -i -E 's/^(host\s.*\s)(scram-sha-256|md5)$/\1trust/' "$(hanzo_as postgres psql -X -qAt -p "$1" -c 'SHOW hba_file')" &&
      hanzo_as postgres psql -X -qAt -p "$1" -c 'SELECT pg_reload_conf()' >/dev/null; } || return 1
  fi
  hanzo_wait postgres "$1"
}
