#!/usr/bin/env python3
"""Accuracy sweep of `ncdx doctor --cluster` (issue #14): labelled trials on namespace hosts
(scripts/netns-cluster.sh, root), each healthy or with one planted fault on a random victim, and
the precision/recall of what ncdx names. Prints a per-kind table and the confusion, and writes
every trial as JSON lines (--out). A benchmark, not a test: ~10–30 s per 8-host trial on 2 cores
(docs/CLUSTER.md "Accuracy sweep" has the wall time of a 200-trial run).

usage: sweep.py NCDX [--trials 200] [--healthy 50] [--nodes 8,16,32] [--seed 1] [--out trials.jsonl]
                [--kinds lossy,delaynode,...] [--lossy-pct 1-10] [--delay-ms 1-5] [--slow-pct 10-50]
                [--trial-timeout 900]

A trial that overruns --trial-timeout is stopped like Ctrl-C (SIGTERM to its process group, so
scripts/netns-cluster.sh removes its hosts), then removed by name (scripts/netns-hosts.sh down), and
recorded as "timeout"; the sweep goes on.
"""
import argparse
import collections
import json
import os
import random
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "netns-cluster.sh")
HOSTS = os.path.join(HERE, "..", "scripts", "netns-hosts.sh")
KINDS = ["slowlink", "slownode", "lossy", "firewall", "envdrift", "mtu", "duphost", "delaylink", "delaynode",
         "linkdown"]


def span(text):
    """"3" or "1-10" -> (lo, hi)."""
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)

# kind -> (fault builder, expected (where, kind, hosts) items)
def plan_fault(kind, n, rng, lossy_pct=(1, 10), delay_ms=(1, 5), slow_pct=(10, 50)):
    h = lambda i: f"h{i}.c"
    v = rng.randint(2, n)  # host 1 runs mpirun: keep it healthy so the launcher is not the victim
    if kind == "slowlink":
        a, b = sorted(rng.sample(range(1, n + 1), 2))
        pct = rng.randint(*slow_pct)
        return [f"slowlink:{a}:{b}:{pct}"], [("net", "slow-link", (h(a), h(b)))], pct
    if kind == "slownode":
        pct = rng.randint(*slow_pct)
        return [f"slownode:{v}:{pct}"], [("net", "slow-node", (h(v),))], pct
    if kind == "lossy":
        pct = rng.randint(*lossy_pct)
        return [f"lossy:{v}:{pct}"], [("net", "lossy-node", (h(v),))], pct
    if kind == "firewall":
        return [f"firewall:{v}"], [("net", "unreachable", (h(v),))], None
    if kind == "linkdown":  # the data link goes down during the victim's first matrix pair
        return [f"linkdown:{v}"], [("net", "unreachable", (h(v),))], None
    if kind == "envdrift":
        return [f"envdrift:{v}:NCCL_IB_HCA=mlx5_{rng.randint(1, 9)}"], [("drift", "env.NCCL_IB_HCA", (h(v),))], None
    if kind == "mtu":
        return [f"mtu:{v}:{rng.choice([1400, 1450, 1480])}"], [("drift", "net.mtu", (h(v),))], None
    if kind == "duphost":
        w = rng.choice([i for i in range(2, n + 1) if i != v])
        return [f"duphost:{v}:{w}"], [("drift", "host.unique", tuple(sorted([h(w), f"h{w}.dup"])))], None
    if kind == "delaylink":  # every round trip of the link MS longer: a slow link by latency
        a, b = sorted(rng.sample(range(1, n + 1), 2))
        ms = rng.randint(*delay_ms)
        return [f"delaylink:{a}:{b}:{ms}"], [("net", "slow-link", (h(a), h(b)))], ms
    if kind == "delaynode":
        ms = rng.randint(*delay_ms)
        return [f"delaynode:{v}:{ms}"], [("net", "slow-node", (h(v),))], ms
    return [], [], None


def compact_pairs(net):
    """Every pair of the matrix as [a, b, status, min Gb/s, median µs, p99 µs, stalls, retrans, segs,
    min µs, detail]: the raw evidence, so a later rule can be checked against the same trials. Min µs,
    the fastest round trip / 2, is null from binaries before 2026-12-07 (no `latency_min_us` matrix);
    detail, why a pair that is not ok failed (its first failed side's words), is absent before
    2026-12-07 13:00 UTC."""
    out, n = [], len(net["hosts"])
    lat_min = net.get("latency_min_us")
    for a in range(n):
        for b in range(a + 1, n):
            st = net["status"][a][b] if net["status"][a][b] != "ok" else net["status"][b][a]
            bw = [x for x in (net["bandwidth_gbps"][a][b], net["bandwidth_gbps"][b][a]) if x is not None]
            out.append([a, b, st, min(bw) if len(bw) == 2 else None, net["latency_us"][a][b],
                        net["latency_p99_us"][a][b], (net.get("stalls") or [[0] * n] * n)[a][b],
                        sum_or_none(net, "retrans", a, b), sum_or_none(net, "segs_out", a, b),
                        lat_min[a][b] if lat_min else None,
                        "" if st == "ok" else (net.get("detail") or [[""] * n] * n)[a][b] or
                        (net.get("detail") or [[""] * n] * n)[b][a]])
    return out


def sum_or_none(net, key, a, b):
    m = net.get(key)
    if not m or m[a][b] is None or m[b][a] is None:
        return None
    return m[a][b] + m[b][a]


def run_harness(cmd, env, prefix, n, timeout):
    """(returncode or None on timeout, stdout, stderr). The harness runs in its own process group:
    on a timeout (or Ctrl-C here) the whole group gets SIGTERM, which netns-cluster.sh traps to
    remove its hosts; whatever is left is removed by name."""
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except (subprocess.TimeoutExpired, KeyboardInterrupt) as e:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
        subprocess.run(["bash", HOSTS, "down", prefix, str(n)], check=False)
        if isinstance(e, KeyboardInterrupt):
            raise
        return None, out, err


def run_trial(ncdx, n, faults, budget, extra_args, timeout=900):
    prefix = f"ncs{os.getpid() % 100000}"
    env = dict(os.environ, NCDX=ncdx, NCDX_NS_PREFIX=prefix)
    cmd = ["bash", SCRIPT, "run", str(n), *faults, "--", "doctor", "--cluster", "--quick", "--json",
           "--pair-budget", str(budget), *extra_args]
    t0 = time.time()
    rc, stdout, stderr = run_harness(cmd, env, prefix, n, timeout)
    wall = time.time() - t0
    if rc == 77:
        sys.exit("SKIP: " + stderr.strip().splitlines()[-1])
    if rc is None:
        return None, wall, f"timeout after {timeout} s: " + stderr[-400:], {}
    try:
        doc = json.loads(stdout)
    except json.JSONDecodeError:
        return None, wall, stderr[-500:], {}
    got, extra = [], {}
    net = doc.get("network")
    if net:
        # An outlier that vanished when re-measured alone (confirmed: false) is information, not a
        # named fault; the record keeps it apart (`unconfirmed`).
        got += [("net", o["kind"], tuple(o["hosts"])) for o in net["outliers"] if o.get("confirmed") is not False]
        extra["unconfirmed"] = [[o["kind"], o["hosts"]] for o in net["outliers"] if o.get("confirmed") is False]
        extra["confirm_pairs"] = len((net.get("confirm") or {}).get("pairs", []))
        extra["confirm_wall_s"] = (net.get("confirm") or {}).get("wall_s")
        # What the pass measured alone, [a, b, role, status, min Gb/s, median µs]: whether a
        # suspect stayed slow against its reference pairs can be read from the record.
        idx = {h: i for i, h in enumerate(net["hosts"])}
        extra["confirm"] = [[idx.get(p["hosts"][0]), idx.get(p["hosts"][1]), p["role"], p["status"],
                             min([x for x in p.get("bandwidth_gbps") or [] if x is not None] or [None],
                                 key=lambda x: (x is None, x)),
                             p.get("latency_us")]
                            for p in (net.get("confirm") or {}).get("pairs", [])]
        extra["pairs"] = compact_pairs(net)
        # The metric that named each outlier (a delay fault should be named by latency_us).
        extra["metrics"] = [[o["kind"], o["hosts"], o["metric"]] for o in net["outliers"]]
    got += [("drift", c["id"], tuple(c["deviating"])) for c in doc["consistency"] if c["deviating"]]
    return sorted(got), wall, "", extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ncdx")
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--healthy", type=int, default=50)
    ap.add_argument("--nodes", default="8")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=4.0)
    ap.add_argument("--out", default="")
    ap.add_argument("--kinds", default="", help="comma list of fault kinds to plant (default: all)")
    ap.add_argument("--extra", default="", help="more ncdx flags, space-separated (e.g. '--confirm-pairs 0')")
    ap.add_argument("--lossy-pct", default="1-10", help="drop rate range of the lossy kind, %% (e.g. 1 or 1-10)")
    ap.add_argument("--slow-pct", default="10-50", help="rate cut range of slowlink/slownode, %% (e.g. 10-12)")
    ap.add_argument("--delay-ms", default="1-5", help="added round-trip range of the delay kinds, ms")
    ap.add_argument("--trial-timeout", type=float, default=900, help="seconds one trial may take")
    a = ap.parse_args()
    lossy_pct, delay_ms, slow_pct = span(a.lossy_pct), span(a.delay_ms), span(a.slow_pct)
    a.extra = a.extra.split()
    rng = random.Random(a.seed)
    sizes = [int(x) for x in a.nodes.split(",")]
    kinds = KINDS
    if a.kinds:
        unknown = set(a.kinds.split(",")) - set(KINDS)
        if unknown:
            sys.exit(f"unknown kind(s) {', '.join(sorted(unknown))}; known: {', '.join(KINDS)}")
        kinds = [k for k in KINDS if k in a.kinds.split(",")]
    labels = ["healthy"] * a.healthy + [kinds[i % len(kinds)] for i in range(a.trials - a.healthy)]
    rng.shuffle(labels)
    stats = collections.defaultdict(lambda: collections.Counter())
    out = open(a.out, "w") if a.out else None
    walls = collections.defaultdict(list)
    for t, kind in enumerate(labels):
        n = rng.choice(sizes)
        faults, want, size = plan_fault(kind, n, rng, lossy_pct, delay_ms, slow_pct) if kind != "healthy" else ([], [], None)
        load = os.getloadavg()[0]
        got, wall, err, extra = run_trial(a.ncdx, n, faults, a.budget, a.extra, a.trial_timeout)
        extra["load1_end"] = round(os.getloadavg()[0], 2)
        walls[n].append(wall)
        s = stats[kind]
        s["trials"] += 1
        if got is None:
            s["no_output"] += 1
            verdict = "no-output"
        else:
            want_s, got_s = set(want), set(got)
            s["tp"] += len(want_s & got_s)
            s["fn"] += len(want_s - got_s)
            s["fp"] += len(got_s - want_s)
            s["exact"] += want_s == got_s
            verdict = "exact" if want_s == got_s else "wrong"
        pct = size if not kind.startswith("delay") else None
        rec = {"trial": t, "nodes": n, "kind": kind, "pct": pct, "faults": faults, "want": want, "got": got,
               "verdict": verdict, "wall_s": round(wall, 2), "load1": round(load, 2), "err": err, **extra}
        if kind.startswith("delay"):
            rec["delay_ms"] = size
        print(json.dumps(rec), flush=True)
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()
    print("\n| kind | trials | exact | precision | recall | false alarms |")
    print("|---|---|---|---|---|---|")
    for kind in ["healthy"] + kinds:
        s = stats[kind]
        if not s["trials"]:
            continue
        prec = s["tp"] / (s["tp"] + s["fp"]) if s["tp"] + s["fp"] else float("nan")
        rec = s["tp"] / (s["tp"] + s["fn"]) if s["tp"] + s["fn"] else float("nan")
        print(f"| {kind} | {s['trials']} | {s['exact']} | {prec:.3f} | {rec:.3f} | {s['fp']} |")
    for n, w in sorted(walls.items()):
        w.sort()
        print(f"nodes {n}: {len(w)} trials, wall median {w[len(w)//2]:.1f} s, max {w[-1]:.1f} s (incl. namespace setup and mpirun)")


if __name__ == "__main__":
    main()
