#!/usr/bin/env python3
"""The Python side of bench/fr_vs_python.sh: what torchfrtrace runs to load a dump directory.

PyTorch's analyzer (torch/distributed/flight_recorder/components/loader.py, read_dir/read_dump)
disables the garbage collector, walks the directory, and for each `<prefix><rank>` file calls
pickle.load and keeps entries, version and pg_config per rank; builder.py then turns each group's
`ranks` string into a member list. This script does the same with the stdlib only (no torch), so
it times exactly the loading work, and prints totals so the work cannot be skipped.
Usage: fr_load_python.py DIR [--json]     (--json: the dump_json files, json.load instead)
"""
import gc
import json
import os
import pickle
import sys


def read_dump(prefix, path, use_json):
    rank = int(os.path.basename(path)[len(prefix):])
    with open(path, "rb") as f:
        dump = json.load(f) if use_json else pickle.load(f)
    return {"host_name": f"host_rank{rank}", "rank": rank, "entries": dump.get("entries", []),
            "version": dump["version"], "pg_config": dump["pg_config"], "pg_status": dump.get("pg_status", {})}


def main():
    folder = sys.argv[1]
    use_json = "--json" in sys.argv[2:]
    prefix = "nccl_trace_rank_"
    gc.disable()  # as read_dir does
    details = {}
    for root, _, files in os.walk(folder):
        for f in files:
            if f.startswith(prefix) and f[len(prefix):].isdigit():
                details[f] = read_dump(prefix, os.path.join(root, f), use_json)
    # builder.build_groups_memberships: one membership list per group from the ranks string.
    groups = {}
    for d in details.values():
        for name, cfg in d["pg_config"].items():
            groups.setdefault(name, (cfg["desc"], json.loads(cfg["ranks"])))
    entries = {d["rank"]: d["entries"] for d in details.values()}
    n = sum(len(e) for e in entries.values())
    frames = sum(len(x.get("frames", ())) for x in entries[min(entries)][-1:]) if entries else 0
    print(f"{len(details)} dumps, {n} entries, {len(groups)} groups, newest entry of the first rank has {frames} frames")


if __name__ == "__main__":
    main()
