#!/usr/bin/env bash
# What a reviewer reads and what the sandbox runs, per repository, for two builds of hanzo-env:
# the non-comment lines of install + start in the drafted file, the bytes of each script as it
# runs alone (helpers expanded), and shellcheck -S warning findings in those scripts.
#
#   scripts/plan-lines.sh OLD_BIN NEW_BIN CORPUS_DIR...
#
# Each CORPUS_DIR holds exported checkouts, one folder per repository. Needs jq, shellcheck and
# `cargo build --example expand_plan` (the expansion `save` does, for NEW_BIN's plans).
set -euo pipefail
old=$1 new=$2
shift 2
expand=${EXPAND_PLAN:-target/debug/examples/expand_plan}
[ -x "$expand" ] || { echo "build $expand first: cargo build --locked --example expand_plan" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

lines() { grep -cvE '^[[:space:]]*(#|$)' "$1" || true; }
findings() { shellcheck -s bash -S warning -f gcc "$1" 2>/dev/null | grep -c . || true; }

measure() { # BIN DIR TAG: "lines bytes findings"
  local json="$work/$3.json" total_lines=0 total_bytes=0 total_findings=0 key
  "$1" detect --json "$2" >"$json" 2>/dev/null || { echo "crash - -"; return; }
  for key in install start; do
    jq -r ".$key" "$json" >"$work/$3.$key.plan"
    "$expand" <"$work/$3.$key.plan" >"$work/$3.$key.sh"
    total_lines=$((total_lines + $(lines "$work/$3.$key.plan")))
    total_bytes=$((total_bytes + $(wc -c <"$work/$3.$key.sh")))
    if [ -s "$work/$3.$key.sh" ]; then total_findings=$((total_findings + $(findings "$work/$3.$key.sh"))); fi
  done
  echo "$total_lines $total_bytes $total_findings"
}

printf '%-48s %14s %14s %14s\n' repository "lines old/new" "bytes old/new" "sc old/new"
for corpus in "$@"; do
  for dir in "$corpus"/*/; do
    name=$(basename "$dir")
    read -r ol ob of <<<"$(measure "$old" "$dir" old)"
    read -r nl nb nf <<<"$(measure "$new" "$dir" new)"
    printf '%-48s %14s %14s %14s\n' "$name" "$ol/$nl" "$ob/$nb" "$of/$nf"
  done
done
