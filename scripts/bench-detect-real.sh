#!/usr/bin/env bash
# Benchmark `hanzo-env detect` against `rg --files` on a tree of real repositories.
#
# Give it checkouts of real projects (a dozen of different ecosystems works well, e.g.
# vuejs/core, BurntSushi/ripgrep, gin-gonic/gin, google/gson, laravel/framework,
# netbox-community/netbox, maybe-finance/maybe, hexpm/hexpm, dotnet/eShop,
# documenso/documenso, square/okhttp, harfbuzz/harfbuzz: `git clone --depth 1` each). It
# copies each checkout COPIES times (default 8) into one folder, gives the Node and Rust
# copies the `node_modules/` and `target/` trees an install or a build leaves (ignored by
# the projects' own .gitignore, never walked by detect), makes the folder a git repository
# (so rg honours the .gitignore files), and then, in the same run:
#   - runs `hanzo-env detect --json` and `rg --files` alternately, RUNS times each, and
#     reports the median wall time of each and their ratio (target: detect <= 1.0x rg), the
#     median CPU time (user + sys) of each, and the load average before and after: on a busy
#     machine wall times are noisy, CPU time much less;
#   - measures detect's peak RSS with /usr/bin/time -v (target: <= 32 MiB);
#   - checks that detect still finds every copied project (one package manager per copy of
#     each checkout that has one).
#
# Needs: cargo, python3, rg (Debian: ripgrep), GNU time (Debian: time).
# Usage: scripts/bench-detect-real.sh [--keep] CHECKOUT...
#        COPIES=8 RUNS=15 scripts/bench-detect-real.sh ~/src/*
#        TREE=/tmp/hanzo-bench-real.XXXXXX scripts/bench-detect-real.sh NAME...
#          (again on a tree an earlier --keep run left; the NAMEs are the checkouts' folder names)
#        BIN=/tmp/hanzo-env-old ... (time another build of hanzo-env instead of this one)
set -euo pipefail

cd "$(dirname "$0")/.."
keep=""
if [ "${1:-}" = "--keep" ]; then keep=1; shift; fi
[ "$#" -gt 0 ] || { echo "usage: $0 [--keep] CHECKOUT..." >&2; exit 2; }
for tool in rg python3; do
    command -v "$tool" >/dev/null || { echo "bench-detect-real: $tool is not installed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench-detect-real: GNU time is missing: apt-get install time" >&2; exit 2; }

if [ -n "${BIN:-}" ]; then
    bin="$BIN"
else
    cargo build --release --locked --quiet
    bin="$PWD/target/release/hanzo-env"
fi
if [ -n "${TREE:-}" ]; then
    tree="$TREE"
    [ -d "$tree/.git" ] || { echo "bench-detect-real: $tree is not a tree left by --keep" >&2; exit 2; }
else
    tree="$(mktemp -d "${TMPDIR:-/tmp}/hanzo-bench-real.XXXXXX")"
    [ -n "$keep" ] || trap 'rm -rf "$tree"' EXIT
    python3 - "$tree" "${COPIES:-8}" "$@" <<'PY'
import os, shutil, sys
root, copies, checkouts = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def ignore(_dir, names):
    return [n for n in names if n in (".git", "node_modules", "target")]
def filler(base, count, width, name):
    for i in range(count):
        d = os.path.join(base, f"pkg{i // width}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name.format(i)), "w") as f:
            f.write("module.exports = 1;\n")
for checkout in checkouts:
    name = os.path.basename(os.path.normpath(checkout))
    for k in range(copies):
        dest = os.path.join(root, f"{name}-{k}")
        shutil.copytree(checkout, dest, ignore=ignore, symlinks=True)
        # What an install or a build leaves beside the sources.
        if os.path.exists(os.path.join(dest, "package.json")):
            filler(os.path.join(dest, "node_modules"), 1500, 25, "f{}.js")
        if os.path.exists(os.path.join(dest, "Cargo.toml")):
            filler(os.path.join(dest, "target", "debug", "deps"), 1500, 100, "lib{}.rlib")
PY
    git -C "$tree" init -q
    printf 'node_modules/\ntarget/\n' > "$tree/.gitignore"
fi
total=$(find "$tree" -type f -not -path '*/.git/*' | wc -l)
listed=$(rg --files "$tree" | wc -l)
echo "files in the tree: $total ($listed outside ignored folders)"

rss_kib=$(/usr/bin/time -v "$bin" detect --json "$tree" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}')
status=0
python3 - "$bin" "$tree" "$rss_kib" "${RUNS:-15}" "${COPIES:-8}" "$@" <<'PY' || status=$?
import json, os, statistics, subprocess, sys, time
bin, tree, rss_kib, runs, copies = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
checkouts = sys.argv[6:]
detect = [bin, "detect", "--json", tree]
rg = ["rg", "--files", tree]
def timed(cmd):
    """Wall and CPU (user + sys) seconds of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"bench-detect-real: {' '.join(cmd)} failed with exit code {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime
def load():
    return open("/proc/loadavg").read().split()[0]
for _ in range(2):  # warm the page cache for both
    timed(detect); timed(rg)
load_before = load()
d_runs, r_runs = [], []
for i in range(runs):  # alternate, so load changes hit both alike
    if i % 2:
        r_runs.append(timed(rg)); d_runs.append(timed(detect))
    else:
        d_runs.append(timed(detect)); r_runs.append(timed(rg))
d, r = statistics.median(w for w, _ in d_runs), statistics.median(w for w, _ in r_runs)
print(f"detect {d*1000:.0f} ms (min {min(w for w, _ in d_runs)*1000:.0f}), "
      f"rg --files {r*1000:.0f} ms (min {min(w for w, _ in r_runs)*1000:.0f}), median ratio {d / r:.2f} (target <= 1.0)")
print(f"CPU time (user + sys), median: detect {statistics.median(c for _, c in d_runs):.2f} s, "
      f"rg --files {statistics.median(c for _, c in r_runs):.2f} s")
print(f"machine load average: {load_before} before the runs, {load()} after")
rss_mib = rss_kib / 1024
print(f"detect peak RSS {rss_mib:.1f} MiB (target <= 32)")
# Every copied project still found: each copy of a checkout with a package manager at its
# root gives one at that copy's folder.
found = json.loads(subprocess.run(detect, capture_output=True, text=True, check=True).stdout)
paths = {pm["path"] for pm in found["package_managers"]}
missing = []
for checkout in checkouts:
    name = os.path.basename(os.path.normpath(checkout))
    for k in range(copies):
        copy = f"{name}-{k}"
        if not any(p == copy or p.startswith(copy + "/") for p in paths):
            missing.append(copy)
print(f"projects found: {len(paths)} package-manager folders; copies without any: {len(missing)}"
      + (f" ({', '.join(missing[:5])}…)" if missing else ""))
sys.exit(0 if d / r <= 1.0 and rss_mib <= 32 and not missing else 1)
PY
exit $status
