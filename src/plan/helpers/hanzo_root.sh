# hanzo_root CMD...: run CMD as root, or through passwordless sudo.
hanzo_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif sudo -n true 2>/dev/null; then sudo -n "$@"
  else echo "hanzo-env: $1 needs root or passwordless sudo" >&2; return 1
  fi
}
