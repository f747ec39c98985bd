#!/usr/bin/env python3
"""`srun --mpi=pmix ncdx doctor --cluster` on a real two-node Slurm cluster of namespace hosts
(scripts/slurm-cluster.sh), issue #14.

usage: slurm_case.py NCDX SOURCE_DIR TASKS_PER_NODE [dup]

Checks the report rank 0 printed: valid against docs/schema/cluster.schema.json, launched by
Slurm, 2 nodes named n1 and n2 holding ranks in srun's block order (n1: 0..k-1, n2: k..2k-1),
the network matrix between n1 and n2 on their eth0 addresses with a latency and a bandwidth both
ways, and an exit code of 0 (two identical namespace hosts: nothing may deviate).
With "dup" both nodes get the hostname "dup" (cloned machines): they must stay two nodes, labelled
dup@n1 and dup@n2 by their Slurm names, with host.unique FAILing on both and exit code 2.
Exit 77 (CTest SKIP) with the reason when Slurm or namespaces cannot run here."""
import json
import os
import re
import subprocess
import sys

import jsonschema


def fail(msg, p=None):
    print("FAIL:", msg)
    if p is not None:
        print(f"rc {p.returncode}\nstdout:\n{p.stdout[-3000:]}\nstderr:\n{p.stderr[-3000:]}")
    return 1


def main():
    ncdx, src, per_node = sys.argv[1], sys.argv[2], int(sys.argv[3])
    dup = sys.argv[4:] == ["dup"]
    env = dict(os.environ, NCDX_NS_PREFIX=f"nss{os.getpid() % 100000}", LC_ALL="C")
    if dup:
        env["NCDX_SLURM_HOSTNAMES"] = "dup,dup"
    names = ["dup@n1", "dup@n2"] if dup else ["n1", "n2"]
    cmd = ["bash", os.path.join(src, "scripts/slurm-cluster.sh"), "run", "2", "--",
           "srun", "-N2", f"--ntasks-per-node={per_node}", "--mpi=pmix", "--kill-on-bad-exit=1",
           ncdx, "doctor", "--cluster", "--quick", "--json", "--no-timestamps", "--pair-budget", "4"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=280)
    if p.returncode == 77:
        print(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "SKIP")
        return 77
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        return fail("no single JSON document on stdout (only rank 0 may print)", p)
    jsonschema.validate(doc, json.load(open(os.path.join(src, "docs/schema/cluster.schema.json"))))
    ranks = 2 * per_node
    want_nodes = [(names[0], list(range(per_node))), (names[1], list(range(per_node, ranks)))]
    got_nodes = [(n["host"], n["ranks"]) for n in doc["nodes"]]
    print("launcher:", doc["launcher"], doc.get("launched_by"), "step:", doc.get("slurm_step"), "ranks:", doc["ranks"],
          "nodes:", got_nodes)
    if doc["ranks"] != ranks:
        return fail(f"ranks {doc['ranks']}, expected {ranks}", p)
    if doc.get("launched_by") != "slurm":
        return fail(f"launched_by {doc.get('launched_by')!r}, expected 'slurm' (SLURM_* in the ranks' env)", p)
    if not re.fullmatch(r"\d+\.0", doc.get("slurm_step") or ""):
        return fail(f"slurm_step {doc.get('slurm_step')!r}, expected JOBID.0 (the first step of the job)", p)
    if got_nodes != want_nodes:
        return fail(f"nodes {got_nodes}, expected {want_nodes}", p)
    net = doc["network"]
    if net is None:
        return fail(f"network matrix did not run: {doc.get('network_skipped')}", p)
    print("hosts:", net["hosts"], "ifaces:", net["ifaces"], "addrs:", net["addrs"])
    print("latency_us:", net["latency_us"])
    print("bandwidth_gbps:", net["bandwidth_gbps"])
    if net["hosts"] != names:
        return fail(f"matrix hosts {net['hosts']}", p)
    if net["ifaces"] != ["eth0", "eth0"]:
        return fail(f"interfaces {net['ifaces']}: each namespace host has only lo and eth0", p)
    m = [re.fullmatch(r"198\.18\.\d+\.(\d+)", a) for a in net["addrs"]]
    if not all(m) or [x.group(1) for x in m] != ["1", "2"]:
        return fail(f"addresses {net['addrs']}: expected the hosts' eth0 addresses .1 and .2", p)
    for name in ("latency_us", "bandwidth_gbps"):
        mat = net[name]
        if len(mat) != 2 or any(len(r) != 2 for r in mat):
            return fail(f"{name} is not 2x2: {mat}", p)
        for i, j in ((0, 1), (1, 0)):
            if not isinstance(mat[i][j], (int, float)) or mat[i][j] <= 0:
                return fail(f"{name}[{i}][{j}] = {mat[i][j]}: no measurement", p)
    if net["status"][0][1] != "ok":
        return fail(f"pair status {net['status']}", p)
    dev = [(c["id"], c["deviating"]) for c in doc["consistency"] if c["deviating"]]
    if dup:
        if dev != [("host.unique", names)] or p.returncode != 2 or doc["exit_code"] != 2:
            return fail(f"exit {p.returncode} (report {doc['exit_code']}), deviating {dev}: expected exit 2 and "
                        f"host.unique naming {names} only", p)
        print(f"ok: cloned hostname on two Slurm nodes: {names} named by host.unique, exit 2")
        return 0
    if p.returncode != 0 or doc["exit_code"] != 0:
        return fail(f"exit {p.returncode} (report {doc['exit_code']}) on two identical hosts; "
                    f"outliers {net['outliers']}, deviating {dev}", p)
    print(f"ok: srun --mpi=pmix, {ranks} ranks on n1/n2, matrix measured")
    return 0


if __name__ == "__main__":
    sys.exit(main())
