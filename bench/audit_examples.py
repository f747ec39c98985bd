"""`ncdx audit` over a directory of real verl run scripts (the official examples/ and recipe/ of a
release, e.g. `git archive v0.7.0 examples recipe` of github.com/volcengine/verl): exit codes, and
every WARN/FAIL row by rule with the script and the value, so a reviewer can label each one true or
false. ncdx is told only what a user would pass: the release and a cluster of N x 8 GPUs.

Usage: python3 bench/audit_examples.py NCDX DIR VERSION [--nodes N] [--rows rows.tsv]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ncdx")
    ap.add_argument("dir")
    ap.add_argument("version")
    ap.add_argument("--nodes", default="", help="the cluster (N x 8 GPUs); default: none given, as a user auditing a script")
    ap.add_argument("--rows", default="", help="write every WARN/FAIL row here (script, rule, status, parameter, value)")
    a = ap.parse_args()
    scripts = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.dir) for f in fs if f.endswith(".sh"))
    codes = collections.Counter()
    by_rule = collections.Counter()
    rows = []
    errors = []
    t0 = time.time()
    for s in scripts:
        cluster = ["--nodes", a.nodes, "--gpus-per-node", "8"] if a.nodes else []
        p = subprocess.run([a.ncdx, "--json", "audit", "--no-process-env", "--verl-version", a.version, *cluster, s],
                           capture_output=True, text=True)
        codes[p.returncode] += 1
        if p.returncode not in (0, 1, 2):
            errors.append((os.path.relpath(s, a.dir), p.returncode, p.stderr.strip().splitlines()[-1:] or [""]))
            continue
        try:
            doc = json.loads(p.stdout)
        except json.JSONDecodeError:  # refused with a reason (an entry point ncdx does not audit)
            errors.append((os.path.relpath(s, a.dir), p.returncode, p.stderr.strip().splitlines()[-1:] or [""]))
            continue
        for r in doc["rows"]:
            if r["status"] in ("WARN", "FAIL"):
                by_rule[(r["rule"], r["status"])] += 1
                rows.append((os.path.relpath(s, a.dir), r["rule"], r["status"], r["parameter"], str(r.get("value"))))
    wall = time.time() - t0
    print(f"{len(scripts)} scripts, verl {a.version}, {wall:.1f} s: " +
          ", ".join(f"exit {c}: {n}" for c, n in sorted(codes.items())))
    for (rule, st), n in by_rule.most_common():
        print(f"  {n:4} {st} {rule}")
    for rel, rc, msg in errors:
        print(f"  exit {rc} {rel}: {msg[0][:160]}")
    if a.rows:
        with open(a.rows, "w") as f:
            for r in rows:
                f.write("\t".join(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
