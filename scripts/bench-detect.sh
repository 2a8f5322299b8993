#!/usr/bin/env bash
# Benchmark `hanzo-env detect` against `rg --files` on a synthetic monorepo.
#
# Builds (once per run, in a temp dir) a tree of >= 150,000 files: many nested projects of
# several ecosystems (Node workspaces, Python uv/pip, Rust, Go, Java) plus large
# node_modules/ and target/ trees that detect must skip. Then, in the same run:
#   - wall time of `hanzo-env detect --json` vs `rg --files` (hyperfine),
#   - peak RSS of `hanzo-env detect --json` (/usr/bin/time -v).
# Targets: detect <= 1.5x the rg --files wall time, peak RSS <= 64 MiB.
#
# Needs: cargo, python3, hyperfine (Debian: hyperfine), rg (Debian: ripgrep) and GNU time
# (Debian: time — `apt-get install time` if /usr/bin/time is missing).
# Usage: scripts/bench-detect.sh [--keep]    (--keep leaves the tree for inspection)
set -euo pipefail

cd "$(dirname "$0")/.."
for tool in hyperfine rg python3; do
    command -v "$tool" >/dev/null || { echo "bench-detect: $tool is not installed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench-detect: GNU time is missing: apt-get install time" >&2; exit 2; }

cargo build --release --quiet
bin="$PWD/target/release/hanzo-env"
tree="$(mktemp -d "${TMPDIR:-/tmp}/hanzo-bench.XXXXXX")"
[ "${1:-}" = "--keep" ] || trap 'rm -rf "$tree"' EXIT

python3 - "$tree" <<'PY'
import os, sys
root = sys.argv[1]
count = 0
def w(rel, text=""):
    global count
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    count += 1

w(".gitignore", "node_modules/\n*.log\n")
w("package.json", '{"private":true,"packageManager":"pnpm@9.12.0","workspaces":["packages/*"],"scripts":{"test":"vitest"}}')
w("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
w("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n")
w(".nvmrc", "20\n")
# Node workspace members with sources.
for i in range(120):
    p = f"packages/pkg{i}"
    w(f"{p}/package.json", f'{{"name":"pkg{i}","scripts":{{"test":"vitest"}}}}')
    for j in range(150):
        w(f"{p}/src/mod{j // 30}/file{j}.ts", f"export const v{j} = {j};\n")
# Python services (uv and pip), Rust crates, Go modules, Java modules.
for i in range(40):
    p = f"services/py{i}"
    w(f"{p}/pyproject.toml", f'[project]\nname = "py{i}"\nrequires-python = ">=3.11"\n[tool.pytest.ini_options]\n')
    if i % 2:
        w(f"{p}/uv.lock", "version = 1\n")
    else:
        w(f"{p}/requirements.txt", "pytest\n")
    for j in range(300):
        w(f"{p}/src/pkg{j // 50}/m{j}.py", f"X = {j}\n")
for i in range(40):
    p = f"crates/c{i}"
    w(f"{p}/Cargo.toml", f'[package]\nname = "c{i}"\nversion = "0.1.0"\n')
    w(f"{p}/Cargo.lock", "version = 3\n")
    for j in range(300):
        w(f"{p}/src/m{j // 60}/f{j}.rs", "pub fn f() {}\n")
    for j in range(400):  # build output: never walked by detect
        w(f"{p}/target/debug/deps/lib{j}.rlib", "")
for i in range(30):
    p = f"go/svc{i}"
    w(f"{p}/go.mod", f"module example.com/svc{i}\n\ngo 1.22.0\n")
    w(f"{p}/go.sum", "")
    for j in range(300):
        w(f"{p}/internal/p{j // 50}/f{j}.go", "package p\n")
for i in range(20):
    p = f"java/m{i}"
    w(f"{p}/pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n")
    for j in range(300):
        w(f"{p}/src/main/java/com/acme/p{j // 50}/C{j}.java", "class C {}\n")
# Dependency trees: ignored by .gitignore for rg, skipped by name for detect (also where not ignored).
for i in range(70000):
    w(f"node_modules/dep{i // 20}/lib/f{i}.js", "module.exports = 1;\n")
    if i % 20 == 0:
        w(f"node_modules/dep{i // 20}/package.json", '{"name":"dep"}')
for i in range(8000):
    w(f"web/node_modules/d{i // 40}/f{i}.js", "")
print(f"synthetic tree: {count} files in {root}", file=sys.stderr)
PY
git -C "$tree" init -q  # rg honours .gitignore only inside a git repository

total=$(find "$tree" -type f | wc -l)
echo "files in the tree: $total"
[ "$total" -ge 150000 ] || { echo "bench-detect: tree too small" >&2; exit 1; }

hyperfine --warmup 2 --runs 10 --export-json "$tree.hyperfine.json" \
    --command-name "hanzo-env detect --json" "$bin detect --json '$tree' >/dev/null" \
    --command-name "rg --files" "rg --files '$tree' >/dev/null"

rss_kib=$(/usr/bin/time -v "$bin" detect --json "$tree" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}')
status=0
python3 - "$tree.hyperfine.json" "$rss_kib" <<'PY' || status=$?
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
detect, rg = runs["hanzo-env detect --json"], runs["rg --files"]
rss_mib = int(sys.argv[2]) / 1024
ratio = detect / rg
print(f"detect {detect*1000:.0f} ms, rg --files {rg*1000:.0f} ms, ratio {ratio:.2f} (target <= 1.5)")
print(f"detect peak RSS {rss_mib:.1f} MiB (target <= 64)")
sys.exit(0 if ratio <= 1.5 and rss_mib <= 64 else 1)
PY
rm -f "$tree.hyperfine.json"
exit $status
