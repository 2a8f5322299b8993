# hanzo_redis PORT PASSWORD: redis-server on PORT, without persistence; the password goes
# in through its config on stdin, never as an argument.
hanzo_redis() {
  hanzo_needs redis redis-server redis-server || return 1
  hanzo_answers "$1" && return 0
  local p=${2//\\/\\\\}; p=${p//\"/\\\"}
  { printf 'port %s\nbind 127.0.0.1%s\ndaemonize yes\nsave ""\nappendonly no\ndir /tmp\npidfile /tmp/hanzo-env-redis-%s.pid\nlogfile /tmp/hanzo-env-redis-%s.log\n' "$1" "$(hanzo_v6 && echo ' ::1')" "$1" "$1"
    [ -z "$2" ] || printf 'requirepass "%s"\n' "$p"; } | redis-server - >/dev/null || return 1
  hanzo_wait redis "$1"
}
