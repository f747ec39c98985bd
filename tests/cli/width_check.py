#!/usr/bin/env python3
"""Terminal output that fits (issue #13 §3): runs the table-printing commands at several $COLUMNS
and fails on any line wider than the terminal. The exceptions are lines meant to be pasted (an
`export` line, a binding's `taskset`/`numactl` field): those are never wrapped. 80 and 200 are
the widths issue #13 names; under ~64 columns a table's wrapped columns reach their floors (16, 24
for the last) and lines may pass the width rather than become one word each.

usage: width_check.py NCDX SOURCE_DIR FAKE_NVML_LIB"""
import os
import re
import subprocess
import sys

NCDX, SRC, FAKE_NVML = sys.argv[1], sys.argv[2], sys.argv[3]
DATA = os.path.join(SRC, "tests", "data")
PASTE = re.compile(r"^(export |rank \d+: | +(taskset|numactl|NIC) )")
failures = []

machines = os.path.join(DATA, "machines")
nvml = {"NCDX_NVML_LIB": FAKE_NVML, "NCDX_FAKE_NVML_JSON": os.path.join(machines, "broken", "nvml.json")}
CASES = [
    ("doctor", ["doctor", "--root", "broken"], machines, nvml),
    ("triage", ["triage", "scenarios/ib-host-culprit"], os.path.join(DATA, "triage"), {}),
    ("audit", ["audit", "--no-process-env", "--verl-version", "0.7.1", "--nodes", "4", "--gpus-per-node", "8",
               "--gpu-mem-gib", "96", "--fabric", "ib", "--script", "tests/data/audit/qwen2-70b_grpo_32_h20_fsdp_vllm.sh"], SRC, {}),
    ("env lint", ["env", "lint", "--env-file", "playbook.env", "--nccl-version", "2.24.3", "--torch-version", "2.6.0"],
     os.path.join(DATA, "env"), {}),
    ("compat", ["compat", "--root", "h100-old-nccl-venv", "--python-prefix", "/opt/venv"], os.path.join(DATA, "compat"), {}),
    ("topo smi", ["topo", "--smi", "smi/slurmv4-aihub0007-h100-12nic.txt", "--pick", "4"], os.path.join(DATA, "topo"), {}),
    ("topo xml", ["topo", "--xml", "xml/aws-ofi-nccl_p5.48xl-topo.xml", "--pick", "8"], os.path.join(DATA, "topo"), {}),
]


def run(args, cwd, env, columns):
    e = dict(os.environ, LC_ALL="C", NO_COLOR="1")
    e.pop("COLUMNS", None)
    if columns:
        e["COLUMNS"] = str(columns)
    e.update(env)
    return subprocess.run([NCDX, "--no-timestamps", "--no-color"] + args, cwd=cwd, env=e, capture_output=True,
                          text=True).stdout


for name, args, cwd, env in CASES:
    if not run(args, cwd, env, 0).strip():
        failures.append(f"{name}: no output")
        continue
    for cols in (80, 120, 200):
        out = run(args, cwd, env, cols)
        wide = [l for l in out.splitlines() if len(l) > cols and not PASTE.match(l)]
        for l in wide[:5]:
            failures.append(f"{name} at {cols} columns: {len(l)} wide: {l[:100]}")
        print(f"ok   {name} at {cols}: {len(out.splitlines())} lines" if not wide else f"FAIL {name} at {cols}")

for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures else 0)
