#!/usr/bin/env bash
# Load figures for `hanzo-env serve`: 50 concurrent clients on loopback, three runs
# (all reading, all setting secrets, half reading while half set secrets); throughput and
# p50/p99 per kind; any failed request fails the script.
# Usage: scripts/bench-serve.sh [SECONDS_PER_RUN] [CLIENTS]   (from the project root)
set -euo pipefail
seconds="${1:-10}"
clients="${2:-50}"
cargo build --release --locked --bin hanzo-env --example bench_serve
bin=target/release/hanzo-env
bench=target/release/examples/bench_serve
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
mkdir -p "$HOME"
token="bench-$RANDOM$RANDOM"
printf '%s\n' "$token" > "$tmp/token"
"$bin" serve --listen 127.0.0.1:0 --data "$tmp/data" --token-file "$tmp/token" > "$tmp/out" 2> "$tmp/err" &
pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/out" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "serve did not start: $(cat "$tmp/err")"; exit 1; }
echo "machine: $(nproc) cores; server: $bin (request log on, to a file)"
status=0
for writers in 0 "$clients" $((clients / 2)); do
  "$bench" "$url" "$token" "$clients" "$seconds" "$writers" || status=1
done
exit $status
