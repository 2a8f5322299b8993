# hanzo_as USER CMD...: run CMD as USER, from / (which every user may enter).
hanzo_as() {
  (cd / && if [ "$(id -u)" = 0 ]; then runuser -u "$1" -- "${@:2}"; else sudo -n -u "$1" -- "${@:2}"; fi)
}
