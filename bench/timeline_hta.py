#!/usr/bin/env python3
"""HolisticTraceAnalysis (PyPI holistictraceanalysis) as the peer of `ncdx timeline`: loads the
Kineto traces of DIR and prints, per rank, HTA's temporal breakdown (idle/compute/non-compute %
of the kernel span, get_temporal_breakdown) and comm/compute overlap (get_comm_comp_overlap),
plus its load+analysis wall time and peak RSS, as one JSON object on stdout.
Usage: timeline_hta.py DIR   (run with the venv of scripts/hta-venv.sh)
"""
import json
import resource
import sys
import time
import warnings

warnings.filterwarnings("ignore")
import logging  # noqa: E402

logging.disable(logging.WARNING)

from hta.trace_analysis import TraceAnalysis  # noqa: E402

t0 = time.time()
ta = TraceAnalysis(trace_dir=sys.argv[1])
t1 = time.time()
tb = ta.get_temporal_breakdown(visualize=False)
ov = ta.get_comm_comp_overlap(visualize=False)
t2 = time.time()
ranks = {}
for _, row in tb.iterrows():
    ranks[int(row["rank"])] = {
        "idle_pct": float(row["idle_time_pctg"]),
        "compute_pct": float(row["compute_time_pctg"]),
        "non_compute_pct": float(row["non_compute_time_pctg"]),
        "kernel_time_us": float(row["kernel_time(us)"]),
    }
for _, row in ov.iterrows():
    ranks.setdefault(int(row["rank"]), {})["overlap_pct"] = float(row["comp_comm_overlap_pctg"])
print(json.dumps({"ranks": ranks, "load_s": t1 - t0, "analyse_s": t2 - t1,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}, sort_keys=True))
