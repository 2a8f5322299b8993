# Sourced by the bench scripts: start `hanzo-env serve` on a free loopback port.
#
# start_serve BIN DIR — writes a fresh token to DIR/token, starts the server with its data in
# DIR/data (stdout in DIR/out, log in DIR/err) and sets serve_pid, serve_url and serve_token.
# The caller's EXIT trap stops it: kill "$serve_pid".
start_serve() {
  local bin="$1" dir="$2"
  serve_token="bench-$RANDOM$RANDOM"
  printf '%s\n' "$serve_token" > "$dir/token"
  "$bin" serve --listen 127.0.0.1:0 --data "$dir/data" --token-file "$dir/token" > "$dir/out" 2> "$dir/err" &
  serve_pid=$!
  serve_url=
  for _ in $(seq 100); do
    serve_url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$dir/out" | head -1 || true)
    [ -n "$serve_url" ] && return 0
    sleep 0.1
  done
  echo "serve did not start: $(cat "$dir/err")" >&2
  return 1
}
