#!/usr/bin/env python3
"""`ncdx bench --backend nccl` with the cost model's expectation, through the real dlopen path
against the stand-in libcudart/libnccl (tests/measure/fake; env NCDX_CUDART_LIB/NCDX_NCCL_LIB set
by CTest): the expected busbw per row and the verdict must be what `ncdx model --judge` says of
the same --json output, the JSON must match docs/schema/bench.schema.json, the text must keep
nccl-tests' rows and add '#' lines only, and the flags' errors must be usage errors. The timings
are the stand-in's host memcpy, so the verdict itself is not checked against a value: what is
checked is that bench and judge agree and that every number is NCCL's model, not a constant."""
import json
import os
import subprocess
import sys
import tempfile

ncdx, schema_dir, validate = sys.argv[1], sys.argv[2], sys.argv[3]
SPEC = "nodes=1,gpus=2,gpu=H100"
BENCH = ["bench", "allreduce", "--backend", "nccl", "-b", "1M", "-e", "64M", "-f", "4", "-n", "2", "-w", "1", "-c", "0"]


def run(args, expect=0, env=None):
    p = subprocess.run([ncdx] + args, capture_output=True, text=True, timeout=120, env=env)
    if p.returncode != expect:
        sys.exit(f"FAIL: ncdx {' '.join(args)} exited {p.returncode} (want {expect})\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


with tempfile.TemporaryDirectory() as tmp:
    # 1. JSON with --spec: every row has a positive expectation, equal to the judge's.
    p = run(["--json", "--no-timestamps"] + BENCH + ["--spec", SPEC])
    doc = json.loads(p.stdout)
    path = os.path.join(tmp, "bench.json")
    open(path, "w").write(p.stdout)
    v = subprocess.run([sys.executable, validate, os.path.join(schema_dir, "bench.schema.json"), path], capture_output=True, text=True)
    if v.returncode != 0:
        sys.exit(f"FAIL: bench JSON does not match its schema:\n{v.stdout}{v.stderr}")
    exp = doc.get("expected")
    if not exp or exp["spec"] is None or exp["spec_source"] != "--spec" or not (exp["model"] or "").startswith("NCCL 2."):
        sys.exit(f"FAIL: no expected block from --spec: {exp}")
    rows = doc["results"]
    if len(rows) != 4 or any(not isinstance(r["expected_busbw_gbps"], (int, float)) or r["expected_busbw_gbps"] <= 0 for r in rows):
        sys.exit(f"FAIL: want 4 rows with a positive expected busbw: {[r['expected_busbw_gbps'] for r in rows]}")
    # The expectation grows with the size (latency-bound 1 MB to bandwidth-bound 64 MB on NVLink):
    # a constant would not.
    e = [r["expected_busbw_gbps"] for r in rows]
    if not all(a < b for a, b in zip(e, e[1:])):
        sys.exit(f"FAIL: expected busbw not increasing with size: {e}")
    for r in rows:
        want = 100 * r["out_of_place"]["busbw_gbps"] / r["expected_busbw_gbps"]
        if abs(r["pct_of_expected"] - want) > 1e-6 * max(1, want):
            sys.exit(f"FAIL: pct_of_expected {r['pct_of_expected']} != 100 x busbw / expected {want}")
    # The judge's exit code is its verdict's (0 ok, 1 slow, ...); what matters is its JSON.
    j = subprocess.run([ncdx, "--json", "--no-timestamps", "model", "--judge", path, "--spec", SPEC], capture_output=True,
                       text=True, timeout=60)
    if j.returncode not in (0, 1, 2):
        sys.exit(f"FAIL: model --judge exited {j.returncode}: {j.stderr}")
    judged = json.loads(j.stdout)["judgements"][0]
    jrows = {r["bytes"]: r for r in judged["rows"]}
    for r in rows:
        jr = jrows.get(r["bytes"])
        if jr is None or abs((jr["expected_busbw_gbps"] or 0) - r["expected_busbw_gbps"]) > 1e-9 * r["expected_busbw_gbps"]:
            sys.exit(f"FAIL: size {r['bytes']}: bench expects {r['expected_busbw_gbps']}, model --judge {jr}")
    if judged["verdict"] != exp["verdict"]:
        sys.exit(f"FAIL: verdict: bench {exp['verdict']}, model --judge {judged['verdict']}")

    # 2. Text: nccl-tests' rows untouched, the expectation as '#' lines after the footer.
    t = run(BENCH + ["--spec", SPEC]).stdout.splitlines()
    foot = next((i for i, l in enumerate(t) if l.startswith("# Collective test concluded")), None)
    head = next((i for i, l in enumerate(t) if l.startswith("# ncdx expected busbw: NCCL 2.")), None)
    verdict = next((i for i, l in enumerate(t) if l.startswith("# ncdx verdict: ")), None)
    if foot is None or head is None or verdict is None or not foot < head < verdict:
        sys.exit("FAIL: text lacks '# ncdx expected busbw' / '# ncdx verdict' after the footer:\n" + "\n".join(t))
    if any(l and not l.startswith("#") for l in t[foot:]):
        sys.exit("FAIL: a non-comment line after nccl-tests' footer:\n" + "\n".join(t[foot:]))
    table = [l for l in t[head + 2:verdict] if l.startswith("# ") and l[2:].split() and l[2:].split()[0].isdigit()]
    if len(table) != 4:
        sys.exit(f"FAIL: want 4 expectation rows, got {len(table)}:\n" + "\n".join(t[head:verdict + 1]))

    # 3. No spec: inferred from the ranks' GPUs when the name is known; the stand-in's is not,
    # so the verdict must say why there is no expectation (never a number from nowhere).
    d = json.loads(run(["--json", "--no-timestamps"] + BENCH).stdout)
    if d["expected"]["spec"] is None:
        if d["expected"]["verdict"] != "unknown" or any(r["expected_busbw_gbps"] is not None for r in d["results"]):
            sys.exit(f"FAIL: no spec, yet an expectation: {d['expected']}")
        if not d["expected"]["summary"]:
            sys.exit("FAIL: no spec and no reason given")

    # 4. Errors: a bad spec or version is a usage error (64), before anything runs.
    run(BENCH + ["--spec", "nodes=x"], expect=64)
    run(BENCH + ["--nccl", "banana"], expect=64)
print("PASS")
