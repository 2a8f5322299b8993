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
source "$(dirname "$0")/serve-lib.sh"
tmp=$(mktemp -d)
serve_pid=
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
mkdir -p "$HOME"
start_serve "$bin" "$tmp"
echo "machine: $(nproc) cores; server: $bin (request log on, to a file)"
status=0
for writers in 0 "$clients" $((clients / 2)); do
  "$bench" "$serve_url" "$serve_token" "$clients" "$seconds" "$writers" || status=1
done
exit $status
