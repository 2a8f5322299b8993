# hanzo_memcached PORT: memcached on PORT.
hanzo_memcached() {
  hanzo_needs memcached memcached memcached || return 1
  hanzo_answers "$1" && return 0
  local user=()
  [ "$(id -u)" != 0 ] || user=(-u nobody)
  memcached -d -U 0 -p "$1" -l "127.0.0.1$(hanzo_v6 && echo ',[::1]')" -P /tmp/hanzo-env-memcached-"$1".pid "${user[@]}" || return 1
  hanzo_wait memcached "$1"
}
