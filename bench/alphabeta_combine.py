#!/usr/bin/env python3
"""Median over repeated runs of bench/alphabeta_netns.py (its --out JSON files): per point (collective,
algorithm, ranks, bytes) the median error of the runs, then per rank count the error distribution
of all points, the β-dominated ones (β share >= 90 % in every run) and those at each series' two
largest sizes, beside the same for the one-β model (err_one_beta), and a per-algorithm table of
the two largest sizes. On a busy machine, repeated runs and their median are what docs/MODEL.md
(c) reports.

usage: alphabeta_combine.py RUN.json [RUN.json ...]"""
import json
import statistics
import sys
from collections import defaultdict


def dist(points, key):
    e = sorted(abs(p[key]) for p in points)
    if not e:
        return "-"
    p90 = e[min(len(e) - 1, round((len(e) - 1) * 0.9))]
    return f"{len(e)}: {statistics.median(e):.1%} / {p90:.1%} / {sum(x <= 0.10 for x in e)}"


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    runs = [json.load(open(f)) for f in sys.argv[1:]]
    by_key = defaultdict(list)
    for run in runs:
        for p in run["points"]:
            by_key[(p["collective"], p["algorithm"], p["np"], p["bytes"])].append(p)
    points = [{"key": k, "err": statistics.median(p["err"] for p in ps),
               "err_one_beta": statistics.median(p["err_one_beta"] for p in ps),
               "beta_share": min(p["beta_share"] for p in ps), "loads": [p["load"] for p in ps]}
              for k, ps in by_key.items() if len(ps) == len(runs)]
    sizes = defaultdict(list)
    for p in points:
        sizes[p["key"][:3]].append(p["key"][3])
    largest = {s + (b,) for s, bs in sizes.items() for b in sorted(bs)[-2:]}
    print(f"{len(runs)} runs; per rank count: points: median |error| / p90 / within 10 %")
    print("| ranks | all | β-dominated | β-dominated, 2 largest sizes | one β, β-dominated | one β, 2 largest | load |")
    print("|---|---|---|---|---|---|---|")
    for n in sorted({p["key"][2] for p in points}):
        sel = [p for p in points if p["key"][2] == n]
        bdom = [p for p in sel if p["beta_share"] >= 0.9]
        big = [p for p in bdom if p["key"] in largest]
        loads = [x for p in sel for x in p["loads"]]
        print(f"| {n} | {dist(sel, 'err')} | {dist(bdom, 'err')} | {dist(big, 'err')} | {dist(bdom, 'err_one_beta')} | "
              f"{dist(big, 'err_one_beta')} | {min(loads):.1f}–{max(loads):.1f} |")
    ranks = sorted({p["key"][2] for p in points})
    print("\n| collective | algorithm | " + " | ".join(str(n) for n in ranks) + " |")
    print("|---|---|" + "---|" * len(ranks))
    for c, a in dict.fromkeys(p["key"][:2] for p in points):
        cells = []
        for n in ranks:
            s = sorted((p for p in points if p["key"][:3] == (c, a, n) and p["key"] in largest), key=lambda p: p["key"][3])
            cells.append(", ".join(f"{p['err']:+.0%}" for p in s))
        print(f"| {c} | {a} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
