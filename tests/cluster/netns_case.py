#!/usr/bin/env python3
"""One namespace-cluster case: runs `ncdx doctor --cluster` under mpirun on N namespace hosts
(scripts/netns-cluster.sh) with the given faults, validates the JSON against
docs/schema/cluster.schema.json and checks that exactly the expected culprits are named.

usage: netns_case.py NCDX SOURCE_DIR N EXPECT [FAULT ...]
EXPECT: "healthy" (no network outlier, no consistency deviation), or ';'- or '+'-joined items
        "net:KIND:h1.c,h2.c" (the network outliers, exactly; one the confirmation pass did not
        confirm is information and does not count) and "drift:CHECK_ID:h3.c" (a consistency
        result naming exactly these hosts; no other consistency check may name anyone); an item
        "transport:T" also requires network.transport == T and a transport_note.
FAULT: as scripts/netns-cluster.sh takes them; "ncdx:ARG" passes ARG to ncdx instead.
Exit 77 (CTest SKIP) with the reason when the harness cannot run here."""
import json
import os
import subprocess
import sys

import jsonschema


def main():
    ncdx, src, n, expect = sys.argv[1:5]
    faults = [f for f in sys.argv[5:] if not f.startswith("ncdx:")]
    extra = [f[len("ncdx:"):] for f in sys.argv[5:] if f.startswith("ncdx:")]
    env = dict(os.environ, NCDX=ncdx, NCDX_NS_PREFIX=f"nct{os.getpid() % 100000}")
    cmd = ["bash", os.path.join(src, "scripts/netns-cluster.sh"), "run", n, *faults, "--",
           "doctor", "--cluster", "--quick", "--json", "--no-timestamps", "--pair-budget", "4", *extra]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    if p.returncode == 77:
        print(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "SKIP")
        return 77
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        print(f"no JSON from ncdx (rc {p.returncode})\nstdout:\n{p.stdout[-3000:]}\nstderr:\n{p.stderr[-3000:]}")
        return 1
    schema = json.load(open(os.path.join(src, "docs/schema/cluster.schema.json")))
    jsonschema.validate(doc, schema)
    net = doc["network"]
    if net is None:
        print("network matrix did not run:", doc.get("network_skipped"))
        return 1
    # An outlier that vanished when re-measured alone (confirmed: false) is information, not a
    # finding (docs/CLUSTER.md "Confirmation"; bench/cluster_sweep.py counts it the same way).
    got_net = sorted((o["kind"], tuple(o["hosts"])) for o in net["outliers"] if o.get("confirmed") is not False)
    got_drift = sorted((c["id"], tuple(c["deviating"])) for c in doc["consistency"] if c["deviating"])
    want_net, want_drift, want_transport = [], [], None
    items = expect.replace("+", ";").split(";")  # '+' joins items where CMake lists take ';'

    for item in [i for i in items if i.startswith("transport:")]:
        want_transport = item.split(":", 1)[1]
    items = [i for i in items if not i.startswith("transport:") and i != "healthy"]
    if items:
        for item in items:
            what, kind, hosts = item.split(":")
            (want_net if what == "net" else want_drift).append((kind, tuple(hosts.split(","))))
    want_net.sort()
    want_drift.sort()
    print("hosts:", net["hosts"], "ifaces:", net["ifaces"])
    print("latency_us:", [[round(v) if v is not None else None for v in r] for r in net["latency_us"]])
    print("bandwidth_gbps:", [[round(v, 3) if v is not None else None for v in r] for r in net["bandwidth_gbps"]])
    for o in net["outliers"]:
        print("outlier:", o["kind"], o["hosts"], o["evidence"])
    for c in doc["consistency"]:
        if c["deviating"]:
            print("drift:", c["id"], c["deviating"], c["evidence"])
    ok = got_net == want_net and got_drift == want_drift
    if want_transport is not None:
        print("transport:", net["transport"], "note:", net["transport_note"])
        ok = ok and net["transport"] == want_transport and net["transport_note"] != ""
    if not ok:
        print(f"FAIL: expected net {want_net} drift {want_drift}\n      got      net {got_net} drift {got_drift}")
        print("stderr:", p.stderr[-2000:])
        return 1
    print("ok: named exactly", want_net + want_drift if want_net or want_drift else "healthy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
