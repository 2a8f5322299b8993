#!/usr/bin/env bash
# Time `hanzo-env secret import` of N names (default 100) against `hanzo-env serve` on loopback.
# Usage: scripts/bench-import.sh [PATH_TO_hanzo-env] [N]     target: 100 names in <= 2 s
set -euo pipefail
bin="${1:-target/release/hanzo-env}"
count="${2:-100}"
[ -x "$bin" ] || { echo "no binary at $bin (cargo build --release, or pass its path)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
source "$(dirname "$0")/serve-lib.sh"
tmp=$(mktemp -d)
serve_pid=
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
export HOME="$tmp/home"; mkdir -p "$HOME"; unset CI
start_serve "$bin" "$tmp"
export HANZO_BASE_URL="$serve_url" HANZO_API_KEY="$serve_token"
for i in $(seq -w 1 "$count"); do printf 'export BENCH_%s="value-%s-%s"\n' "$i" "$i" "$RANDOM$RANDOM"; done > "$tmp/bulk.env"
start=$(date +%s%N)
"$bin" secret import --repo bench -f "$tmp/bulk.env" 2> "$tmp/import.err" || { cat "$tmp/import.err" >&2; exit 1; }
end=$(date +%s%N)
listed=$("$bin" secret list --repo bench | wc -l)
[ "$listed" -eq "$count" ] || { echo "expected $count names on the server, found $listed" >&2; exit 1; }
ms=$(( (end - start) / 1000000 ))
echo "secret import of $count names against serve on loopback: ${ms} ms (target <= 2000 ms for 100)"
[ "$count" -ne 100 ] || [ "$ms" -le 2000 ] || { echo "over the 2 s target" >&2; exit 1; }
