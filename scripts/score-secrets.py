#!/usr/bin/env python3
"""Score the secret names of `hanzo-env detect --json` against a truth file written by reading
each repository (its settings code, env templates, docs, compose files).

Truth file: {"repos": {"OWNER+NAME": {"must": [...], "ok": [...], "required": [...],
"must_not": [...], "why": "..."}}} (a top-level object of repos works too). Per repository:

- must: the credentials the app reads that a developer would set (recall counts these);
- ok: names that are neither wrong nor needed (a client id beside its secret, a production-only
  credential, a connection string that holds a password only in some set-ups): neutral;
- required: the names the app needs to start or its tests to run;
- must_not: names that are not secrets here (listed for the reader; any reported name outside
  must and ok counts against precision anyway).

recall = |must & reported| / |must| (1.0 when must is empty); precision = |reported & (must | ok)|
/ |reported| (1.0 when nothing is reported). `req` is the number of names the output marks
required, `req!` how many of them the truth does not call required. Totals are summed over the
repositories (micro averages). Standard library only.

usage: score-secrets.py --bin target/release/hanzo-env --corpus DIR --truth FILE [--repos A,B] [-v]
       [--json OUT]
"""

import argparse
import json
import os
import subprocess
import sys


def load_truth(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    repos = data.get("repos", data)
    return {k: v for k, v in repos.items() if not k.startswith("_")}


def detect(binary, path):
    """(secrets, required names) reported for `path`, or None when detect failed."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    run = subprocess.run([binary, "detect", "--json", path], capture_output=True, text=True, env=env, timeout=600)
    if run.returncode != 0:
        sys.stderr.write(f"{path}: detect exited {run.returncode}: {run.stderr.strip()[:300]}\n")
        return None
    out = json.loads(run.stdout)
    secrets = [s for s in out.get("secrets", []) if isinstance(s, str)]
    required = [d["name"] for d in out.get("secret_details", []) if d.get("required")]
    return secrets, required


def score(truth, secrets, required):
    reported = set(secrets)
    must, ok = set(truth.get("must", [])), set(truth.get("ok", []))
    found = must & reported
    good = reported & (must | ok)
    return {
        "must": len(must),
        "found": len(found),
        "reported": len(reported),
        "good": len(good),
        "recall": len(found) / len(must) if must else 1.0,
        "precision": len(good) / len(reported) if reported else 1.0,
        "required": len(required),
        "required_wrong": len(set(required) - set(truth.get("required", []))),
        "missed": sorted(must - reported),
        "false": sorted(reported - must - ok),
        "required_names": sorted(required),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--repos", help="comma-separated OWNER+NAME keys (default: every repo in the truth)")
    ap.add_argument("-v", action="store_true", help="list misses, false names and required names")
    ap.add_argument("--json", help="write the per-repo results to this file")
    args = ap.parse_args()

    truth = load_truth(args.truth)
    keys = args.repos.split(",") if args.repos else sorted(truth)
    results, totals = {}, dict(must=0, found=0, reported=0, good=0, required=0, required_wrong=0)
    print(f"{'repo':48} {'recall':>7} {'prec':>6} {'found':>9} {'good':>9} {'req':>4} {'req!':>4}")
    for key in keys:
        path = os.path.join(args.corpus, key)
        if key not in truth or not os.path.isdir(path):
            print(f"{key:48} skipped (no truth or no tree)")
            continue
        got = detect(args.bin, path)
        if got is None:
            got = ([], [])
        r = score(truth[key], *got)
        results[key] = r
        for k in totals:
            totals[k] += r[k]
        print(f"{key:48} {r['recall']:7.2f} {r['precision']:6.2f} {r['found']:>4}/{r['must']:<4} "
              f"{r['good']:>4}/{r['reported']:<4} {r['required']:4} {r['required_wrong']:4}")
        if args.v:
            if r["missed"]:
                print(f"    missed:   {' '.join(r['missed'])}")
            if r["false"]:
                print(f"    false:    {' '.join(r['false'])}")
            if r["required_names"]:
                print(f"    required: {' '.join(r['required_names'])}")
    recall = totals["found"] / totals["must"] if totals["must"] else 1.0
    precision = totals["good"] / totals["reported"] if totals["reported"] else 1.0
    print(f"{'total':48} {recall:7.3f} {precision:6.3f} {totals['found']:>4}/{totals['must']:<4} "
          f"{totals['good']:>4}/{totals['reported']:<4} {totals['required']:4} {totals['required_wrong']:4}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"results": results, "recall": recall, "precision": precision, **totals}, f, indent=1)


if __name__ == "__main__":
    main()
