# hanzo_link_user_tools: for a user other than root, what pip put in ~/.local/bin is on PATH
# only for shells that read ~/.profile or ~/.bashrc, and an agent's `bash -c` reads neither.
# Each tool is linked into the first PATH folder outside HOME when it is writable or sudo
# needs no password, never over a command already there; else one warning says which shells
# see them. Skipped in a virtualenv.
hanzo_link_user_tools() {
  [ "$(id -u)" != 0 ] && [ -z "${VIRTUAL_ENV:-}" ] && [ -d "$HOME/.local/bin" ] || return 0
  local shared="" dir tool link=() folders
  IFS=: read -ra folders <<<"$PATH"
  for dir in "${folders[@]}"; do case $dir in "$HOME"/* | "" | .*) ;; *) shared=$dir; break ;; esac; done
  if [ -n "$shared" ] && [ -w "$shared" ]; then link=(ln -s)
  elif [ -n "$shared" ] && sudo -n true 2>/dev/null; then link=(sudo -n ln -s); fi
  for tool in "$HOME"/.local/bin/*; do
    if ! { [ -f "$tool" ] && [ -x "$tool" ] && [ ! -e "$shared/${tool##*/}" ]; }; then continue; fi
    if [ ${#link[@]} = 0 ]; then
      echo "hanzo-env: warning: tools in ~/.local/bin are on PATH for login and interactive shells only; for bash -c, put ~/.local/bin on its PATH" >&2
      break
    fi
    "${link[@]}" "$tool" "$shared/" || echo "hanzo-env: warning: could not link ${tool##*/} into $shared" >&2
  done
}
