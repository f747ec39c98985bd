#!/usr/bin/env python3
"""One `summary` in every command's JSON (issue #13 §4): runs each JSON-producing command that
judges on bundled inputs and checks that `summary` has exactly the six keys, that each count is the
number of items of that outcome in the document itself (checks, rows, findings… counted here from
the JSON, independently of ncdx's own tally), that `status` is their worst and that the exit code
is the one `status` maps to. Also: every schema's `summary` is the same block.

usage: summary_check.py NCDX SOURCE_DIR FAKE_NVML_LIB
Commands that judge nothing (bench, tune, env recommend/debug, template, doctor --plan) carry no
summary; `doctor --cluster` needs MPI and is covered by tests/unit/report/summary_json_test.cc."""
import glob
import json
import os
import subprocess
import sys
import tempfile

NCDX, SRC, FAKE_NVML = sys.argv[1], sys.argv[2], sys.argv[3]
DATA = os.path.join(SRC, "tests", "data")
KEYS = {"status", "pass", "info", "warn", "fail", "skip"}
# SKIP < PASS < INFO < WARN < FAIL (core/outcome.h): nothing but SKIPs is PASS.
ORDER = ["SKIP", "PASS", "INFO", "WARN", "FAIL"]
EXIT = {"PASS": 0, "INFO": 0, "WARN": 1, "FAIL": 2}
SEVERITY = {"info": "INFO", "warn": "WARN", "error": "FAIL", "critical": "FAIL"}
failures = []


def fail(what):
    failures.append(what)
    print("FAIL " + what)


# What each document judged, as a list of outcome names read from the document.
def doctor_items(j):
    return [c["status"] for c in j["checks"]] + [m["status"] for m in j["measurements"]]


def triage_items(j):
    v = j["verdict"]
    verdict = "PASS" if v["class"] == "none" else SEVERITY[v["severity"]]
    return [verdict] + [SEVERITY[f["severity"]] for f in j["findings"]]


def topo_items(j):
    warnings = j["pick"]["warnings"] if j["pick"] else []
    return [SEVERITY[f["severity"]] for f in j["findings"]] + ["WARN"] * len(warnings)


def timeline_items(j):
    return [s["status"] for s in j["stragglers"]] + [s["status"] for s in j["slowdowns"]]


ITEMS = {
    "ncdx.doctor/1": doctor_items,
    "ncdx.triage/1": triage_items,
    "ncdx.audit/1": lambda j: [r["status"] for r in j["rows"]],
    "ncdx.env/1": lambda j: [r["status"] for r in j["rows"]],
    "ncdx.compat/1": lambda j: [c["status"] for c in j["checks"]],
    "ncdx.topo/1": topo_items,
    "ncdx.timeline/1": timeline_items,
    "ncdx.model/1": lambda j: [x["status"] for x in j.get("judgements", [])],
}


def check_summary(name, s, items):
    if not isinstance(s, dict) or set(s) != KEYS:
        fail(f"{name}: summary keys {sorted(s) if isinstance(s, dict) else s!r}, expected {sorted(KEYS)}")
        return False
    for o in ORDER:
        n = items.count(o) if items is not None else s[o.lower()]
        if s[o.lower()] != n:
            fail(f"{name}: summary.{o.lower()} = {s[o.lower()]}, the document has {n} {o} item(s)")
    worst = "PASS"
    for o in ORDER:
        if s[o.lower()] and ORDER.index(o) > ORDER.index(worst):
            worst = o
    if s["status"] != worst:
        fail(f"{name}: summary.status {s['status']}, worst counted outcome {worst}")
    return True


def run(name, args, cwd=SRC, env=None, expect_items=True):
    e = dict(os.environ, LC_ALL="C", NO_COLOR="1")
    e.pop("COLUMNS", None)
    e.update(env or {})
    p = subprocess.run([NCDX, "--no-timestamps", "--json"] + args, cwd=cwd, env=e, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        fail(f"{name}: exit {p.returncode}, no JSON on stdout; stderr: {p.stderr[-400:]}")
        return None
    if "summary" not in j:
        fail(f"{name}: no summary in {j.get('schema')}")
        return None
    items = ITEMS[j["schema"]](j) if expect_items else None
    if check_summary(name, j["summary"], items):
        if EXIT[j["summary"]["status"]] != p.returncode:
            fail(f"{name}: exit {p.returncode}, summary.status {j['summary']['status']} means {EXIT[j['summary']['status']]}")
        else:
            print(f"ok   {name}: {j['summary']}")
    return j


machines = os.path.join(DATA, "machines")
for m in ["dgx-h100", "a100-pcie-acs", "pcie-4gpu", "broken", "nodriver"]:
    run(f"doctor {m}", ["doctor", "--root", m], cwd=machines,
        env={"NCDX_NVML_LIB": FAKE_NVML, "NCDX_FAKE_NVML_JSON": os.path.join(machines, m, "nvml.json")})

tri = os.path.join(DATA, "triage")
for s in sorted(os.listdir(os.path.join(tri, "scenarios"))):
    run(f"triage {s}", ["triage", os.path.join("scenarios", s)], cwd=tri)
run("triage nothing found", ["triage", os.path.join("bad", "binary.bin")], cwd=tri)
run("triage --example", ["triage", "--example"], cwd=tri)

aud = ["audit", "--no-process-env", "--verl-version", "0.7.1"]
run("audit playbook", aud + ["--", "trainer.dist_backend=nccl", "model.tensor_parallel_size=8",
                             "+actor_rollout_ref.nccl_timeout=1200", "actor_rollout_ref.rollout.name=vllm"])
run("audit qwen3-8b script", aud + ["--nodes", "1", "--gpus-per-node", "8", "--gpu-mem-gib", "80",
                                    "--script", "tests/data/audit/run_qwen3-8b.sh"])

envd = os.path.join(DATA, "env")
run("env lint 2.24", ["env", "lint", "--env-file", "playbook.env", "--nccl-version", "2.24.3", "--torch-version", "2.6.0"], cwd=envd)
run("env lint 2.18", ["env", "lint", "--env-file", "playbook.env", "--nccl-version", "2.18.3", "--torch-version", "2.1.2"], cwd=envd)

comp = os.path.join(DATA, "compat")
run("compat h100-torch26", ["compat", "--root", os.path.join(comp, "h100-torch26")])
run("compat old-nccl-venv", ["compat", "--root", os.path.join(comp, "h100-old-nccl-venv"), "--python-prefix", "/opt/venv"])

topo = os.path.join(DATA, "topo")
for f in sorted(glob.glob(os.path.join(topo, "smi", "*.txt"))):
    if "malformed" in f or "truncated" in f or "nvlink-missing" in f:
        continue  # bad input: exit 65, no document
    run(f"topo {os.path.basename(f)}", ["topo", "--smi", f])
run("topo pick 8 of a100 (pick warnings)", ["topo", "--smi", "smi/mlengineering-a100-nv12.txt", "--pick", "8"], cwd=topo)
run("topo pick 2 of 4090", ["topo", "--smi", "smi/gogpuallocator17-8x4090-sys.txt", "--pick", "2"], cwd=topo)
run("topo xml p5 pick", ["topo", "--xml", "xml/aws-ofi-nccl_p5.48xl-topo.xml", "--pick", "8"], cwd=topo)

mod = os.path.join(DATA, "model")
run("model predictions (nothing judged)", ["model", "--spec", "nodes=2,gpus=8,gpu=H100,nic=8x400G-IB"])
run("model judge slow", ["model", "--judge", "judge/moc-h100-roce-sendrecv-4gpu.txt", "--spec",
                         "nodes=2,gpus=4,gpu=H100,nic=1x400G-RoCE", "--coll", "sendrecv"], cwd=mod)
run("model judge wrong", ["model", "--judge", "judge/synthetic-wrong.txt"], cwd=mod)
run("model judge ok", ["model", "--judge", "judge/dstack-lambda-b200-2node.txt", "--spec", "nodes=2,gpus=8,gpu=B200,nic=8x400G-IB"], cwd=mod)

# Timeline: step-time logs of 4 ranks, rank 2 twice as slow from step 20 (a lasting slowdown).
with tempfile.TemporaryDirectory() as tmp:
    for r in range(4):
        with open(os.path.join(tmp, f"rank{r}.log"), "w") as f:
            for step in range(1, 41):
                t = 2.0 * (2.0 if r == 2 and step >= 20 else 1.0) * (1 + 0.01 * ((step * 7 + r) % 5))
                f.write(f"[rank{r}] step:{step} - timing_s/step:{t:.3f}\n")
    j = run("timeline fail-slow step logs", ["timeline"] + sorted(glob.glob(os.path.join(tmp, "*.log"))))
    if j is not None and not j["slowdowns"]:
        fail("timeline fail-slow step logs: no slowdown found (the case no longer tests a WARN)")
for f in sorted(glob.glob(os.path.join(SRC, "..", "shared", "data", "ray_timeline", "*.json.gz"))):
    run(f"timeline {os.path.basename(f)}", ["timeline", f])

# `report` reads saved results: an input that carries today's summary keeps it (what its producer
# judged, e.g. doctor's skipped measurements, which the report does not list as items); older saved
# results (tests/data/report: other summary shapes, or none) are counted from their items. The
# top-level summary is the sum of the inputs'.
fresh = os.path.join(tempfile.mkdtemp(prefix="ncdx-summary-"), "doctor.json")
with open(fresh, "w") as out:
    subprocess.run([NCDX, "doctor", "--quick", "--json", "--no-timestamps"], cwd=SRC, stdout=out,
                   stderr=subprocess.DEVNULL, timeout=120)
j = run("report", ["report", "tests/data/report/doctor-broken.json", "tests/data/report/triage-example.json",
                   "tests/data/report/env-lint.json", fresh], expect_items=False)
if j is not None:
    for i in j["inputs"]:
        check_summary(f"report input {i['path']}", i["summary"], None)
    own = json.load(open(fresh))["summary"]
    got = next(i["summary"] for i in j["inputs"] if i["path"] == fresh)
    if got != own:
        fail(f"report: the summary of {fresh} is {got}, the document's own is {own}")
    for k in KEYS - {"status"}:
        if j["summary"][k] != sum(i["summary"][k] for i in j["inputs"]):
            fail(f"report: summary.{k} is not the sum of the inputs'")

# The schemas: one summary block, the same in every file that has one.
blocks = {}
for p in sorted(glob.glob(os.path.join(SRC, "docs", "schema", "*.schema.json"))):
    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "summary" and isinstance(v, dict) and v.get("type") == "object":
                    blocks[f"{os.path.basename(p)}:{path}"] = json.dumps(v, sort_keys=True)
                walk(v, path + "/" + k)
        elif isinstance(node, list):
            for n, v in enumerate(node):
                walk(v, f"{path}/{n}")
    walk(json.load(open(p)), "")
for name in ["doctor", "cluster", "triage", "audit", "env", "compat", "topo", "timeline", "model", "report"]:
    if not any(k.startswith(name + ".schema.json:") for k in blocks):
        fail(f"docs/schema/{name}.schema.json has no summary object")
if len(set(blocks.values())) != 1:
    first = next(iter(blocks.values()))
    for k, v in blocks.items():
        if v != first:
            fail(f"{k}: summary schema differs from the others")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
