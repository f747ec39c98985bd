#!/usr/bin/env python3
"""Merge the JSON lines of one or more accuracy sweeps (bench/cluster_sweep.py --out, e.g. chunks
run with different --seed) into the per-kind table, the confusion of planted kind against what
ncdx named, the wall time and the load: the numbers docs/CLUSTER.md "Accuracy sweep" reports.

usage: cluster_sweep_report.py TRIALS.jsonl [...]

Per kind: trials, exact (named exactly the planted fault, nothing else), precision and recall of
the named outliers (tp / (tp + fp), tp / (tp + fn) over (where, kind, hosts) items), false alarms
(named items that were not planted), outliers the confirmation pass did not confirm (information,
not counted as named) and trials without a report. Confusion: one row per planted
kind, one column per named item kind ("right" = the planted item itself; a wrong host of the
right kind counts under its kind), plus "missed" (the planted item not named) and "no report".
"""
import collections
import json
import sys


def load(paths):
    for p in paths:
        with open(p) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def item(x):
    return (x[0], x[1], tuple(x[2]))


def main(paths):
    recs = list(load(paths))
    if not recs:
        sys.exit("no trials")
    stats = collections.defaultdict(collections.Counter)
    confusion = collections.defaultdict(collections.Counter)
    walls, loads, cols = collections.defaultdict(list), [], set()
    for r in recs:
        kind = r["kind"]
        s = stats[kind]
        s["trials"] += 1
        walls[(r["nodes"], kind)].append(r["wall_s"])
        loads += [r["load1"]] + ([r["load1_end"]] if r.get("load1_end") is not None else [])
        if r["verdict"] == "no-output":
            s["no_output"] += 1
            confusion[kind]["no report"] += 1
            continue
        want, got = {item(x) for x in r["want"]}, {item(x) for x in r["got"]}
        s["tp"] += len(want & got)
        s["fn"] += len(want - got)
        s["fp"] += len(got - want)
        s["exact"] += want == got
        s["false_trials"] += bool(got - want)
        s["unconfirmed"] += len(r.get("unconfirmed") or [])
        if want - got:
            confusion[kind]["missed"] += len(want - got)
        if want & got:
            confusion[kind]["right"] += len(want & got)
        for g in got - want:
            col = g[1] if g[0] == "net" else "drift:" + g[1]
            cols.add(col)
            confusion[kind][col] += 1
    kinds = ["healthy"] + sorted(k for k in stats if k != "healthy")
    n = len(recs)
    print(f"{n} trials from {len(paths)} file(s); load average (1 min) over trial starts/ends: "
          f"min {min(loads):.2f}, median {sorted(loads)[len(loads) // 2]:.2f}, max {max(loads):.2f}\n")
    print("| kind | trials | exact | precision | recall | false alarms (items / trials) | not confirmed (info) | no report |")
    print("|---|---|---|---|---|---|---|---|")
    tot = collections.Counter()
    for kind in kinds:
        s = stats[kind]
        tot.update(s)
        prec = f"{s['tp'] / (s['tp'] + s['fp']):.3f}" if s["tp"] + s["fp"] else "–"
        rec = f"{s['tp'] / (s['tp'] + s['fn']):.3f}" if s["tp"] + s["fn"] else "–"
        print(f"| {kind} | {s['trials']} | {s['exact']} | {prec} | {rec} | {s['fp']} / {s['false_trials']} |"
              f" {s['unconfirmed']} | {s['no_output']} |")
    print(f"| all | {tot['trials']} | {tot['exact']} | {tot['tp'] / max(1, tot['tp'] + tot['fp']):.3f} |"
          f" {tot['tp'] / max(1, tot['tp'] + tot['fn']):.3f} | {tot['fp']} / {tot['false_trials']} | {tot['unconfirmed']} | {tot['no_output']} |")
    cols = ["right", "missed", *sorted(cols), "no report"]
    print("\nconfusion (rows: planted; columns: named items)\n")
    print("| planted | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(str(confusion[kind][c] or "") for c in cols) + " |")
    print("\nwall per trial (s, incl. namespaces and mpirun)\n")
    for (nodes, kind), w in sorted(walls.items()):
        w.sort()
        print(f"nodes {nodes} {kind}: {len(w)} trials, median {w[len(w) // 2]:.1f}, max {w[-1]:.1f}")
    allw = sorted(r["wall_s"] for r in recs)
    print(f"all: sum {sum(allw) / 60:.1f} min, median {allw[len(allw) // 2]:.1f} s, max {allw[-1]:.1f} s")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
