#!/usr/bin/env python3
"""`ncdx tune --backend nccl` against the stand-in libnccl (tests/tune/tests.cmake says why).

Checks: the JSON (docs/schema/tune.schema.json) and the communicator shape; NCCL's default kept in
every bucket (the stand-in measures every configuration the same); the trial budget; a CSV with no
rule and no env file; and in the stand-in's env log one communicator per launch, every pair and
channel count forced as NCCL_ALGO/NCCL_PROTO/NCCL_{MIN,MAX}_NCHANNELS, the default with none of
them, and the validation's runs with the plugin loadable and NCDX_TUNER_FILE on the CSVs written.
"""
import json
import os
import subprocess
import sys
import tempfile

ncdx, plugin, schema_dir, validate = sys.argv[1:5]
tmp = tempfile.mkdtemp(prefix="ncdx_tune_nccl_")
log = os.path.join(tmp, "env.log")
csv = os.path.join(tmp, "tuner.conf")
envf = os.path.join(tmp, "tune.env")
env = dict(os.environ, FAKE_NCCL_ENV_LOG=log, NCCL_ALGO="Tree")  # the caller's NCCL_ALGO must not leak
REPEATS = 3
SIZES = [4096 << i for i in range(8)]  # 4 KiB - 512 KiB: screening is 62 of the exhaustive 456 trials
cmd = [ncdx, "tune", "--backend", "nccl", "--collectives", "allreduce,allgather", "-b", "4K", "-e", "512K", "-f", "2",
       "-n", "20", "-w", "2", "--repeats", str(REPEATS), "--channels", "4", "--plugin", plugin, "--tuner-file", csv,
       "--env-file", envf, "--json", "--no-timestamps"]
p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=280)
if p.returncode != 0:
    sys.exit(f"FAIL: exit {p.returncode}\n{p.stderr[-3000:]}")
doc = os.path.join(tmp, "tune.json")
open(doc, "w").write(p.stdout)
subprocess.run([sys.executable, validate, os.path.join(schema_dir, "tune.schema.json"), doc], check=True)
d = json.loads(p.stdout)
assert d["backend"] == "nccl" and d["library"].startswith("NCCL 2.30.7"), d["library"]
assert d["nnodes"] == 1 and d["nranks"] == 2 and d["np"] == 0, d
assert d["unavailable"] == [], d["unavailable"]
assert d["env_path"] is None and d["env"] is None, d["env_note"]

# NCCL's default everywhere: the stand-in's times do not depend on any variable.
for c in d["collectives"]:
    for b in c["buckets"]:
        assert b["choice"] == "default" and not b["changed"], (c["collective"], b)
        assert b["exhaustive_best"] != "", b
    assert c["trial_share"] <= 0.25, (c["collective"], c["trials"], c["exhaustive_trials"])
    assert [b["bytes"] for b in c["buckets"]] == SIZES, c["buckets"]
rules = [l for l in open(csv).read().splitlines() if l and not l.startswith("#")]
assert rules == [], rules
assert not os.path.exists(envf)

# The stand-in's log: one line per communicator (one per launch: -g 2 is one ncclCommInitAll).
lines = open(log).read().splitlines()
def kv(line):
    return dict(x.split("=", 1) for x in line.split())
rows = [kv(l) for l in lines]
launches = d["probe_launches"] + sum(c["launches"] + c["exhaustive_launches"] for c in d["collectives"])
launches += REPEATS * 3 * len(d["collectives"])  # validation: default, tuned, exhaustive
assert len(rows) == launches, (len(rows), launches)
forced = {(r.get("NCCL_ALGO"), r.get("NCCL_PROTO"), r.get("NCCL_MIN_NCHANNELS")) for r in rows if "NCCL_ALGO" in r}
# allreduce at 2.30.7 on one node of 2 ranks: Tree, Ring x LL, LL128, Simple; CollNet*, NVLS Simple.
pairs = {("Tree", "LL"), ("Tree", "LL128"), ("Tree", "Simple"), ("Ring", "LL"), ("Ring", "LL128"), ("Ring", "Simple"),
         ("CollNetDirect", "Simple"), ("CollNetChain", "Simple"), ("NVLS", "Simple")}
for a, pr in pairs:
    for ch in (None, "4"):  # the exhaustive search runs every pair at every channel count
        assert (a, pr, ch) in forced, (a, pr, ch, sorted(forced, key=str))
for r in rows:
    assert r.get("NCCL_MIN_NCHANNELS") == r.get("NCCL_MAX_NCHANNELS"), r
    if "NCCL_ALGO" in r:
        assert "NCCL_TUNER_PLUGIN" not in r and r["plugin"] == "none", r
defaults = [r for r in rows if set(r) == {"plugin"} and r["plugin"] == "none"]
assert len(defaults) >= 1 + REPEATS * len(d["collectives"]), len(defaults)
tuned = [r for r in rows if "NCCL_TUNER_PLUGIN" in r]
assert len(tuned) == REPEATS * 2 * len(d["collectives"]), len(tuned)
for r in tuned:
    assert r["plugin"] == "loaded" and r["NCCL_TUNER_PLUGIN"] == plugin, r
    assert r["NCDX_TUNER_FILE"] in (csv, csv + ".exhaustive"), r
print(f"ok: {len(rows)} launches, every bucket kept NCCL's default, "
      + ", ".join(f"{c['collective']} {c['trials']}/{c['exhaustive_trials']} trials" for c in d["collectives"]))
