#!/usr/bin/env python3
"""Same output check for two `ncdx timeline` binaries (a reader change must not change a byte):
runs both on the real traces (tests/data/timeline, tests/timeline/bad, ../shared/data/ray_timeline)
and on truncated and edited variants of a few of them — cuts at and around the 1 MiB refill edge of
the pull reader and one-byte edits inside kernel/launch args and at the edge — and compares stdout,
stderr and exit code of `timeline INPUT --json --no-timestamps --jobs 1`.
Usage: bench/timeline_same_output.py BEFORE AFTER [EXTRA_TRACE...]   (exit 1 on any difference)
"""
import gzip
import os
import random
import subprocess
import sys
import tempfile

EDGE = 1 << 20  # JsonPull's read buffer (json_pull.cc kChunk)


def run(binary, path):
    p = subprocess.run([binary, "timeline", path, "--json", "--no-timestamps", "--jobs", "1"],
                       capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def real_inputs(root):
    out = []
    for base in ("tests/data/timeline", "tests/timeline/bad", os.path.join(root, "../shared/data/ray_timeline")):
        if not os.path.isdir(base):
            continue
        out.append(base)
        for d, _, files in os.walk(base):
            out.append(d)
            out += [os.path.join(d, f) for f in sorted(files) if f.endswith((".json", ".gz", ".zst", ".jsonl"))]
    return sorted(set(out))


def variants(data, rng):
    """(name, bytes): cuts around the buffer edge and near the end, edits in args and at the edge."""
    out = []
    n = len(data)
    for k in (-17, -3, -1, 0, 1, 2, 5, 64):
        if 0 < EDGE + k < n:
            out.append(("cut%+d" % k, data[:EDGE + k]))
    for frac in (0.3, 0.77):
        out.append(("cut%.2f" % frac, data[:int(n * frac)]))
    # Edits inside the args of kernels and launches (read for "correlation" only), and elsewhere.
    marks = [i for i in range(0, n - 40, max(1, n // 4000)) if data.startswith(b'"args"', i)] or list(range(0, n, n // 40 + 1))
    edits = [b",", b" ", b"\\", b"\"", b"x", b"}", b"]", b"{", b"1e5", b"-", b":", b"\n", b"7", b"\t", b" "]
    for j in range(24):
        at = rng.choice(marks) + rng.randrange(8, 120)
        if at >= n:
            continue
        e = rng.choice(edits)
        kind = rng.randrange(3)
        if kind == 0:
            v = data[:at] + e + data[at + 1:]
        elif kind == 1:
            v = data[:at] + e + data[at:]
        else:
            v = data[:at] + data[at + 1:]
        out.append(("edit%d" % j, v))
    if n > EDGE + 64:
        for k in (-2, 0, 1):
            out.append(("edge-edit%+d" % k, data[:EDGE + k] + b"x" + data[EDGE + k + 1:]))
    return out


def main():
    before, after = sys.argv[1], sys.argv[2]
    root = os.getcwd()
    rng = random.Random(2026)
    inputs = real_inputs(root)
    seeds = sys.argv[3:]
    diffs = errors = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for s in seeds:
            raw = open(s, "rb").read()
            if s.endswith(".gz"):
                raw = gzip.decompress(raw)
            for name, v in variants(raw, rng):
                path = os.path.join(tmp, "%s.%s.json" % (os.path.basename(s).split(".")[0], name))
                with open(path, "wb") as f:
                    f.write(v)
                inputs.append(path)
        for path in inputs:
            a, b = run(before, path), run(after, path)
            total += 1
            errors += a[0] != 0
            if a != b:
                diffs += 1
                print("DIFF %s: rc %d/%d\n  before: %s\n  after:  %s" % (path, a[0], b[0], a[2][:300], b[2][:300]))
    print("%d inputs, %d with an error exit, %d differ" % (total, errors, diffs))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
