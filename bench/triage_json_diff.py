#!/usr/bin/env python3
"""Byte-compares `ncdx triage --json --no-timestamps` of two binaries on every case of every bank.

  bench/triage_json_diff.py NCDX_A NCDX_B [--only=corpus,holdout]

For a change meant to alter no result (a speed-up): prints each case whose JSON differs and exits 1
if any does. Banks and case files as in bench/triage_false_none.py (same list, same file names).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triage_false_none import banks  # noqa: E402


def run(ncdx, path):
    p = subprocess.run([ncdx, "triage", "--json", "--no-timestamps", path], capture_output=True,
                       env=dict(os.environ, LC_ALL="C"))
    return p.returncode, p.stdout


def main():
    bins = [a for a in sys.argv[1:] if not a.startswith("--only=")]
    only = [o for a in sys.argv[1:] if a.startswith("--only=") for o in a[7:].split(",")]
    if len(bins) != 2:
        sys.exit(__doc__)
    cases = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, f in banks().items():
            if only and not any(o in name for o in only):
                continue
            for line in open(f):
                if not line.strip():
                    continue
                c = json.loads(line)
                path = os.path.join(tmp, "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in c["id"]) + ".log")
                with open(path, "w") as lf:
                    lf.write(c["log"])
                cases += 1
                if run(bins[0], path) != run(bins[1], path):
                    differ += 1
                    print(f"differs: {name} {c['id']}")
    print(f"{cases} cases, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
