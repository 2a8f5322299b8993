#!/usr/bin/env bash
# Benchmark `hanzo-env detect` against `rg --files` on trees of real repositories.
#
# Each LIST is a file naming real repositories, one `owner/name` a line (`#` starts a
# comment; a line `copies N` sets how many copies of each go in, default $COPIES or 8), and
# makes one tree: every repository is copied N times into one folder, the Node and Rust
# copies get the `node_modules/` and `target/` trees an install or a build leaves (ignored
# by the projects' own .gitignore, never walked by detect), and the folder is made a git
# repository (so rg honours the .gitignore files). A budget tuned on one tree composition is
# not yet a property of the program: give it two lists of different repositories
# (scripts/bench-trees/ holds two). Then, for each tree in turn:
#   - runs `hanzo-env detect --json` and `rg --files` in alternated pairs, RUNS pairs, and
#     reports the median wall time of each, the median of the per-pair ratios (target:
#     detect <= 1.0x rg), the median CPU time (user + sys) of each, and the load average
#     before and after: on a busy machine wall times are noisy, CPU time much less, and a
#     pair's two runs see about the same load;
#   - reports detect's peak RSS, the largest of all its runs (target: <= 32 MiB);
#   - checks that detect still finds every project (each copy of a repository gives the same
#     package managers), and with SAVE=DIR keeps detect's JSON for each tree there (to
#     compare two builds: the output must not change).
#
# The checkouts come from $CHECKOUTS (default ~/src), as folder `name` or `owner+name`; one
# missing there is cloned into it with `git clone --depth 1` from GitHub.
#
# Needs: cargo, python3, git, rg (Debian: ripgrep), GNU time at /usr/bin/time (Debian: time).
# Usage: scripts/bench-detect-real.sh [--keep] LIST...
#        scripts/bench-detect-real.sh scripts/bench-trees/first.txt scripts/bench-trees/second.txt
#        CHECKOUTS=~/src RUNS=15 COPIES=8 SAVE=/tmp/out scripts/bench-detect-real.sh LIST...
#        BIN=/tmp/hanzo-env-old ... (time another build of hanzo-env instead of this one)
#        TREES=/tmp/keep ... (build the trees there, or reuse the ones an earlier run left)
#   --keep leaves the trees for another run (with TREES, they are always kept).
set -euo pipefail

cd "$(dirname "$0")/.."
keep=""
if [ "${1:-}" = "--keep" ]; then keep=1; shift; fi
[ "$#" -gt 0 ] || { echo "usage: $0 [--keep] LIST..." >&2; exit 2; }
for tool in rg python3 git; do
    command -v "$tool" >/dev/null || { echo "bench-detect-real: $tool is not installed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench-detect-real: GNU time (/usr/bin/time) is not installed" >&2; exit 2; }
for list in "$@"; do
    [ -f "$list" ] || { echo "bench-detect-real: no list of repositories at $list" >&2; exit 2; }
done

if [ -n "${BIN:-}" ]; then
    bin="$BIN"
else
    cargo build --release --locked --quiet
    bin="$PWD/target/release/hanzo-env"
fi
if [ -n "${TREES:-}" ]; then
    trees="$TREES"
    mkdir -p "$trees"
else
    trees="$(mktemp -d "${TMPDIR:-/tmp}/hanzo-bench-real.XXXXXX")"
    [ -n "$keep" ] || trap 'rm -rf "$trees"' EXIT
fi

status=0
python3 - "$bin" "$trees" "${CHECKOUTS:-$HOME/src}" "${COPIES:-8}" "${RUNS:-15}" "${SAVE:-}" "$@" <<'PY' || status=$?
import json, os, shutil, statistics, subprocess, sys, time

bin, trees, checkouts, default_copies, runs, save = sys.argv[1:7]
lists = sys.argv[7:]
default_copies, runs = int(default_copies), int(runs)


def read_list(path):
    """The repositories (owner, name) a list names, and how many copies of each."""
    repos, copies = [], default_copies
    for number, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("copies "):
            copies = int(line.split()[1])
        elif line.count("/") == 1:
            repos.append(tuple(line.split("/")))
        else:
            sys.exit(f"bench-detect-real: {path}:{number}: `{line}` is neither `owner/name` nor `copies N`")
    return repos, copies


def checkout(owner, name):
    for folder in (name, f"{owner}+{name}"):
        path = os.path.join(checkouts, folder)
        if os.path.isdir(path):
            return path
    path = os.path.join(checkouts, name)
    print(f"cloning {owner}/{name} into {path}", flush=True)
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"https://github.com/{owner}/{name}", path], check=True)
    return path


def filler(base, count, width, name):
    for i in range(count):
        d = os.path.join(base, f"pkg{i // width}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name.format(i)), "w") as f:
            f.write("module.exports = 1;\n")


def build(tree, repos, copies):
    """The tree of `copies` copies of each repository, unless an earlier run left it."""
    if os.path.isdir(os.path.join(tree, ".git")):
        return
    shutil.rmtree(tree, ignore_errors=True)
    for owner, name in repos:
        source = checkout(owner, name)
        for k in range(copies):
            dest = os.path.join(tree, f"{name}-{k}")
            shutil.copytree(source, dest, symlinks=True,
                            ignore=lambda _dir, names: [n for n in names if n in (".git", "node_modules", "target")])
            # What an install or a build leaves beside the sources.
            if os.path.exists(os.path.join(dest, "package.json")):
                filler(os.path.join(dest, "node_modules"), 1500, 25, "f{}.js")
            if os.path.exists(os.path.join(dest, "Cargo.toml")):
                filler(os.path.join(dest, "target", "debug", "deps"), 1500, 100, "lib{}.rlib")
    subprocess.run(["git", "init", "-q", tree], check=True)
    with open(os.path.join(tree, ".gitignore"), "w") as f:
        f.write("node_modules/\ntarget/\n")


RSS_FILE = os.path.join(trees, ".peak-rss")


def timed(cmd):
    """Wall seconds, CPU seconds (user + sys) and peak RSS (KiB) of one run.

    The peak RSS is the one GNU time reports, which every command (rg too, so both pay the
    same millisecond) is started under: Linux carries a parent's high-water mark through fork
    and exec into the child's ru_maxrss, so a command started from this script, which holds
    rg's whole listing, reports the script's own RSS when that is larger (/bin/true: 70 MiB)."""
    start = time.perf_counter()
    child = subprocess.Popen(["/usr/bin/time", "-o", RSS_FILE, "-f", "%M", *cmd],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench-detect-real: {' '.join(cmd)} failed with exit code {code}")
    rss = int(open(RSS_FILE).read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, rss


def load():
    return open("/proc/loadavg").read().split()[0]


def bench(list_path):
    repos, copies = read_list(list_path)
    label = os.path.splitext(os.path.basename(list_path))[0]
    tree = os.path.join(trees, label)
    build(tree, repos, copies)
    files = int(subprocess.run(f"find '{tree}' -type f -not -path '*/.git/*' | wc -l",
                               shell=True, capture_output=True, text=True, check=True).stdout)
    listed = subprocess.run(["rg", "--files", tree], capture_output=True, check=True).stdout.count(b"\n")
    print(f"== {label}: {len(repos)} repositories x {copies} copies, {files} files ({listed} outside ignored folders)")
    detect, rg = [bin, "detect", "--json", tree], ["rg", "--files", tree]
    for _ in range(2):  # warm the page cache for both
        timed(detect), timed(rg)
    load_before = load()
    pairs = []
    for i in range(runs):  # alternate which goes first, so a change of load hits both alike
        if i % 2:
            r = timed(rg); d = timed(detect)
        else:
            d = timed(detect); r = timed(rg)
        pairs.append((d, r))
    d_wall = statistics.median(d[0] for d, _ in pairs)
    r_wall = statistics.median(r[0] for _, r in pairs)
    ratio = statistics.median(d[0] / r[0] for d, r in pairs)
    print(f"detect {d_wall*1000:.0f} ms (min {min(d[0] for d, _ in pairs)*1000:.0f}), "
          f"rg --files {r_wall*1000:.0f} ms (min {min(r[0] for _, r in pairs)*1000:.0f}); "
          f"ratio: median of {runs} pairs {ratio:.2f}, of the medians {d_wall / r_wall:.2f} (target <= 1.0)")
    print(f"CPU time (user + sys), median: detect {statistics.median(d[1] for d, _ in pairs):.2f} s, "
          f"rg --files {statistics.median(r[1] for _, r in pairs):.2f} s")
    print(f"machine load average: {load_before} before the runs, {load()} after")
    rss_mib = max(d[2] for d, _ in pairs) / 1024
    print(f"detect peak RSS {rss_mib:.1f} MiB, the largest of {runs} runs "
          f"(median {statistics.median(d[2] for d, _ in pairs) / 1024:.1f}; target <= 32)")
    # Every project still found: each copy of a repository gives the same package-manager
    # folders (a walk that loses some under load or in a big tree gives fewer in some copies).
    out = subprocess.run(detect, capture_output=True, text=True, check=True).stdout
    if save:
        os.makedirs(save, exist_ok=True)
        with open(os.path.join(save, f"{label}.json"), "w") as f:
            f.write(out)
    found = {}
    for pm in json.loads(out)["package_managers"]:
        copy, _, inner = pm["path"].partition("/")
        found.setdefault(copy, set()).add((inner, pm["name"]))
    uneven, none = [], []
    for _owner, name in repos:
        sets = [frozenset(found.get(f"{name}-{k}", ())) for k in range(copies)]
        if not sets[0]:
            none.append(name)
        uneven += [f"{name}-{k}" for k in range(copies) if sets[k] != max(sets, key=len)]
    print(f"projects found: {sum(len(v) for v in found.values())} package managers in {len(found)} copies; "
          f"copies missing some that other copies of the same repository have: {len(uneven)}"
          + (f" ({', '.join(uneven[:5])}…)" if uneven else "")
          + (f"; repositories where none is found: {', '.join(none)}" if none else ""), flush=True)
    missing = uneven
    return ratio <= 1.0 and rss_mib <= 32 and not missing


results = [bench(path) for path in lists]
sys.exit(0 if all(results) else 1)
PY
exit $status
