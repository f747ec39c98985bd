#!/usr/bin/env python3
"""`ncdx model` validation (a) against NCCL's own tuning code (docs/MODEL.md, Validation (a)).

For every synthetic cluster of the sweep: run `ncdx model --spec ... --json --explain`, take the
graphs ncdx derived (per algorithm: channels, bwIntra/bwInter, path types, pattern) and its
communicator channel count, hand exactly those to the oracle (driver.cc: NCCL's
ncclTopoTuneModel + ncclTopoGetAlgoTime compiled from the NCCL tree), and compare
  - every bandwidth cell of NCCL's table (coll x algo x proto) within --tol (relative),
  - every latency cell whose bandwidth is non-zero in either table,
  - the algorithm+protocol picked at each size.
So the search estimate (graph_estimate.cc) is held fixed and only the tuning logic is tested.

  compare.py --ncdx build/src/cli/ncdx --oracle /tmp/ncclo/v2.27.7/nccl_tuning_oracle \
             --nccl 2.27.7 --out bench/results/nccl_tuning_oracle_2.27.7_2026-12-07.jsonl
"""
import argparse
import collections
import json
import os
import random
import subprocess
import tempfile
import sys

COLLS = {"broadcast": "Broadcast", "reduce": "Reduce", "allgather": "AllGather",
         "reducescatter": "ReduceScatter", "allreduce": "AllReduce"}
# NCCL's algorithm indices (src/include/nccl_common.h) and the graph each algorithm reads
# (init.cc: graphs[] = tree, ring, collnet direct, collnet chain, nvls, nvls (tree), tree (PAT)).
ALGOS = ["Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"]
GRAPH_OF = {0: "Tree", 1: "Ring", 2: "CollNetDirect", 3: "CollNetChain", 4: "NVLS", 5: "NVLS", 6: "Tree"}


def sweep():
    """nodes x gpus/node x (A100 sm80, H100 sm90 with and without NVLS, B200 sm100) plus CPU/NIC-path and
    PCIe-only variants, so each branch of the tuning code sees inputs."""
    cases = []
    for nodes in (1, 2, 4, 8, 16, 64):
        for gpus in (1, 2, 4, 8):
            nic = lambda rate: f",nic={gpus}x{rate}G-IB" if nodes > 1 else ""
            cases.append(f"nodes={nodes},gpus={gpus},gpu=A100{nic(200)}")
            cases.append(f"nodes={nodes},gpus={gpus},gpu=H100{nic(400)}")
            cases.append(f"nodes={nodes},gpus={gpus},gpu=B200{nic(400)}")
            if gpus == 8:
                cases.append(f"nodes={nodes},gpus={gpus},gpu=H100,nvls=no{nic(400)}")
                cases.append(f"nodes={nodes},gpus={gpus},gpu=H100,cpu=amd{nic(400)}")
                cases.append(f"nodes={nodes},gpus={gpus},gpu=A100,cpu=amd{nic(200)}")
                cases.append(f"nodes={nodes},gpus={gpus},gpu=L40S{nic(200)}")
                if nodes > 1:
                    cases.append(f"nodes={nodes},gpus={gpus},gpu=H100,nicpath=SYS,nic=2x400G-IB")
                    cases.append(f"nodes={nodes},gpus={gpus},gpu=H100,nic=1x100G-RoCE")
                    cases.append(f"nodes={nodes},gpus={gpus},gpu=A100,nicpath=PHB,nic=4x200G-IB")
    return cases


def collnet_sweep():
    """CollNet (SHARP) clusters, appended after sweep() so its case ids stay: more than one node
    (one node turns CollNet off, init.cc), GPUs per node 1-8 with one NIC per GPU, fewer NICs than
    GPUs (fewer CollNet heads than local ranks: CollNetDirect/NVLS AllGather/ReduceScatter off),
    NVSwitch or not (CollNetDirect needs one), NVLS on and off, A100/H100/B200, AMD CPUs, RoCE."""
    cases = []
    for nodes in (2, 4, 8, 16, 64):
        for gpus in (1, 2, 4, 8):
            for gpu, rate in (("A100", 200), ("H100", 400), ("B200", 400)):
                cases.append(f"nodes={nodes},gpus={gpus},gpu={gpu},nic={gpus}x{rate}G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=H100,nvls=no,nic=8x400G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=H100,nic=4x400G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=H100,nvls=no,nic=2x400G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=B200,nic=4x400G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=A100,nic=4x200G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=H100,cpu=amd,nic=8x400G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=A100,nvswitch=no,nic=8x200G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=L40S,nic=2x200G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=8,gpu=H100,nic=1x100G-RoCE,collnet=yes")
        cases.append(f"nodes={nodes},gpus=4,gpu=H100,nicpath=SYS,nic=2x400G-IB,collnet=yes")
    # 16 GPUs per node: beyond NCCL_MAX_DIRECT_ARITY+1 local ranks (CollNetDirect from 2.23,
    # CollNetChain from 2.28 leave the pick, enqueue.cc).
    for nodes in (2, 8):
        cases.append(f"nodes={nodes},gpus=16,gpu=H100,nvls=no,nic=16x400G-IB,collnet=yes")
        cases.append(f"nodes={nodes},gpus=16,gpu=A100,nic=16x200G-IB,collnet=yes")
    return cases


PATHS_INTRA = ["NVL", "NVL", "NVB", "PIX", "PXB", "PHB", "SYS"]
PATHS_INTER = ["PIX", "PXB", "PXB", "PXN", "PHB", "SYS"]
SPEEDS = [96.0, 80.0, 60.0, 48.0, 45.0, 40.0, 30.0, 24.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 1.2, 0.24]
# NCCL_ALGO / NCCL_PROTO values both sides are given (the oracle through the environment, parsed by
# tuning.cc's own parseList; ncdx through --algo/--proto). The per-function syntax exists from 2.24.
ENV_CHOICES = [("", ""), ("", ""), ("", ""), ("RING", ""), ("TREE,RING", ""), ("^NVLS", ""), ("", "Simple"),
               ("", "^LL128"), ("RING", "LL,LL128"), ("", "LL128")]


def fuzz(n, seed):
    """Random graph inputs, given to ncdx as NCCL's own `Pattern ...` log lines (--nccl-log), so
    that the tuning code sees inputs the search estimate never produces: bwIntra != bwInter, the
    TREE pattern, PCIe/SYS paths, several channel counts; NVLS on sm90+ only."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        nodes = rng.choice([1, 2, 3, 4, 8, 32])
        gpus = rng.choice([2, 4, 8])
        sm = rng.choice([70, 80, 90, 100])
        cpu = rng.choice(["intel", "intel", "amd", "arm"])
        multi = nodes > 1
        nch = rng.choice([1, 2, 4, 8, 12, 16])
        ti = rng.choice(PATHS_INTRA)
        te = rng.choice(PATHS_INTER) if multi else "LOC"
        bi = rng.choice(SPEEDS)
        be = rng.choice(SPEEDS) if multi else bi
        lines = [f"h:1:1 [0] NCCL INFO Pattern 4, crossNic 0, nChannels {nch}, bw {bi:.6f}/{be:.6f}, type {ti}/{te}, sameChannels 1",
                 f"h:1:1 [0] NCCL INFO Pattern {rng.choice([1, 2, 3])}, crossNic 0, nChannels {nch}, "
                 f"bw {rng.choice(SPEEDS):.6f}/{be:.6f}, type {ti}/{te}, sameChannels 1"]
        nvls = sm >= 90 and gpus > 2 and rng.random() < 0.6
        if nvls:
            vi, ve = rng.choice(SPEEDS[:8]), rng.choice(SPEEDS[:8])
            lines.append(f"h:1:1 [0] NCCL INFO Pattern 5, crossNic 0, nChannels {rng.choice([1, 2, 4, gpus])}, "
                         f"bw {vi:.6f}/{ve:.6f}, type NVL/{te}, sameChannels 0")
        spec = f"nodes={nodes},gpus={gpus},sm={sm},cpu={cpu},nvlink={'NV18' if nvls else 'none'}," \
               f"nvswitch={'yes' if nvls else 'no'}" + (f",nic={gpus}x400G-IB" if multi else "")
        algo, proto = rng.choice(ENV_CHOICES)
        out.append((spec, "\n".join(lines) + "\n", algo, proto))
    return out


COLLNET_ENV = ENV_CHOICES + [("COLLNETDIRECT,COLLNETCHAIN", ""), ("^COLLNETDIRECT", ""), ("COLLNETCHAIN,RING", "")]


def collnet_fuzz(n, seed, version):
    """Random multi-node CollNet cases, appended after fuzz() (its cases stay as they were): the
    graphs as NCCL's `Pattern` lines -- ring, tree, the CollNet chain graph (pattern 3, the ring's
    channels) and from 2.22 the CollNetDirect graph (pattern 6, 1..GPUs channels); before 2.22 NCCL
    searches one CollNet graph for both algorithms. NVLS on some sm90+ cases; NCCL_ALGO naming
    CollNet too."""
    rng = random.Random(seed * 1000003 + 17)
    out = []
    for _ in range(n):
        nodes = rng.choice([2, 3, 4, 8, 32])
        gpus = rng.choice([1, 2, 4, 8])
        sm = rng.choice([80, 90, 100])
        cpu = rng.choice(["intel", "intel", "amd", "arm"])
        nch = rng.choice([1, 2, 4, 8, 12, 16])
        ti = rng.choice(PATHS_INTRA) if gpus > 1 else "LOC"
        te = rng.choice(PATHS_INTER)
        bi, be = rng.choice(SPEEDS), rng.choice(SPEEDS)
        ci, ce = rng.choice(SPEEDS), rng.choice(SPEEDS)
        lines = [f"h:1:1 [0] NCCL INFO Pattern 4, crossNic 0, nChannels {nch}, bw {bi:.6f}/{be:.6f}, type {ti}/{te}, sameChannels 1",
                 f"h:1:1 [0] NCCL INFO Pattern {rng.choice([1, 2, 3])}, crossNic 0, nChannels {nch}, "
                 f"bw {rng.choice(SPEEDS):.6f}/{be:.6f}, type {ti}/{te}, sameChannels 1",
                 f"h:1:1 [0] NCCL INFO Pattern 3, crossNic 0, nChannels {nch}, bw {ci:.6f}/{ce:.6f}, type {ti}/{te}, sameChannels 1"]
        if version >= (2, 22, 0):
            dch = rng.choice(sorted({1, max(1, gpus // 2), gpus}))
            lines.append(f"h:1:1 [0] NCCL INFO Pattern 6, crossNic 0, nChannels {dch}, "
                         f"bw {rng.choice(SPEEDS):.6f}/{rng.choice(SPEEDS):.6f}, type {ti}/{te}, sameChannels 1")
        nvs = gpus > 1 and (sm >= 90 or rng.random() < 0.5)
        nvls = sm >= 90 and gpus > 2 and nvs and rng.random() < 0.6
        if nvls:
            vi, ve = rng.choice(SPEEDS[:8]), rng.choice(SPEEDS[:8])
            lines.append(f"h:1:1 [0] NCCL INFO Pattern 5, crossNic 0, nChannels {rng.choice([1, 2, 4, gpus])}, "
                         f"bw {vi:.6f}/{ve:.6f}, type NVL/{te}, sameChannels 0")
        spec = f"nodes={nodes},gpus={gpus},sm={sm},cpu={cpu},nvlink={'NV18' if nvs else 'none'}," \
               f"nvswitch={'yes' if nvs else 'no'},nic={gpus}x400G-IB,collnet=yes"
        algo, proto = rng.choice(COLLNET_ENV)
        out.append((spec, "\n".join(lines) + "\n", algo, proto))
    return out


def run_ncdx(ncdx, spec, version, minb, maxb, extra=()):
    out = subprocess.run([ncdx, "model", "--spec", spec, "--nccl", version, "-b", str(minb), "-e", str(maxb),
                          "--json", "--explain", *extra], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"ncdx failed on {spec}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def oracle_line(cid, m):
    spec = dict(kv.split("=", 1) for kv in m["spec"].split(","))
    nodes = int(spec.get("nodes", 1))
    g = {gr["algo"]: gr for gr in m["graphs"]}
    items = [f"case={cid}", f"nodes={nodes}", f"ranks={m['nranks']}", f"cc={spec['sm']}",
             f"cpu={spec.get('cpu', 'intel')}", f"nvs={1 if spec.get('nvswitch') == 'yes' else 0}",
             f"channels={m['comm_channels']}", f"collnet={1 if spec.get('collnet') == 'yes' else 0}"]
    sizes = sorted({p["bytes"] for p in m["predictions"]})
    items.append("sizes=" + ",".join(map(str, sizes)))
    for a, name in GRAPH_OF.items():
        if name not in g:
            continue
        gr = g[name]
        # sameChannels: ncdx assumes 1 except for NVLS (graph_estimate.cc); latencyInter 0 (no
        # net plugin reports one) -- neither is in ncdx's JSON, both as ncdx's model uses them.
        same = 0 if name == "NVLS" else 1
        items.append(f"g.{a}={gr['nchannels']},{gr['bw_intra_gbps']!r},{gr['bw_inter_gbps']!r},"
                     f"{gr['type_intra']},{gr['type_inter']},{gr['pattern']},{same},0")
        if "heads" in gr:
            items.append(f"h.{a}={gr['heads']}")
    return " ".join(items)


def close(a, b, tol):
    if a == b:
        return True
    if a is None or b is None:   # NaN (JSON null) on one side only
        return False
    return abs(a - b) <= tol * max(abs(a), abs(b))


def compare(cid, spec, m, o, tol):
    ncdx_tab = {}
    for p in m["predictions"]:
        coll = COLLS.get(p["collective"])
        if coll is None or coll in {k[0] for k in ncdx_tab}:
            continue
        for c in p.get("cost", []):
            ncdx_tab[(coll, c["algo"], c["proto"])] = (c["lat_us"], c["bw_gbps"])
    rec = {"case": cid, "spec": m["spec"], "nranks": m["nranks"], "comm_channels": m["comm_channels"],
           "graphs": m["graphs"], "bw_cells": 0, "bw_agree": 0, "lat_cells": 0, "lat_agree": 0,
           "picks": 0, "pick_agree": 0, "mismatches": []}
    def check(what, key, nccl, mine):
        rec[what + "_cells"] += 1
        if close(nccl, mine, tol):
            rec[what + "_agree"] += 1
        else:
            rec["mismatches"].append({"what": what, "coll": key[0], "algo": key[1], "proto": key[2],
                                      "nccl": nccl, "ncdx": mine})

    for cell in o["table"]:
        key = (cell["coll"], cell["algo"], cell["proto"])
        nlat, nbw = ncdx_tab.get(key, (0.0, 0.0))
        check("bw", key, cell["bw_gbps"], nbw)
        if any(x is None or x > 0 for x in (cell["bw_gbps"], nbw)):   # non-zero (or NaN) on either side
            check("lat", key, cell["lat_us"], nlat)
    picks = {(p["coll"], p["bytes"]): p for p in o["picks"]}
    for p in m["predictions"]:
        coll = COLLS.get(p["collective"])
        if coll is None:
            continue
        q = picks[(coll, p["bytes"])]
        mine = (p.get("algo") or "none", p.get("proto") or "none") if p.get("nccl_time_us") is not None else ("none", "none")
        rec["picks"] += 1
        if mine == (q["algo"], q["proto"]):
            rec["pick_agree"] += 1
        else:
            rec["mismatches"].append({"what": "pick", "coll": coll, "bytes": p["bytes"],
                                      "nccl": f"{q['algo']}/{q['proto']}", "ncdx": "/".join(mine),
                                      "nccl_time_us": q["time_us"], "ncdx_time_us": p.get("nccl_time_us")})
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ncdx", required=True)
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--nccl", required=True, help="version given to ncdx --nccl (the oracle's tag)")
    ap.add_argument("--tag", default="", help="NCCL tag the oracle was built from (recorded)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--tol", type=float, default=0.01)
    ap.add_argument("-b", default="8")
    ap.add_argument("-e", default="1G")
    ap.add_argument("--fuzz", type=int, default=0, help="random graph cases instead of the cluster sweep")
    ap.add_argument("--collnet", action="store_true",
                    help="CollNet cases after the others: collnet_sweep(), or --fuzz/2 collnet_fuzz() cases")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    version_code = tuple(int(x) for x in args.nccl.split("."))
    if args.fuzz:
        cases = fuzz(args.fuzz, args.seed)
        if args.collnet:
            cases += collnet_fuzz(args.fuzz // 2, args.seed, version_code)
    else:
        cases = [(spec, None, "", "") for spec in sweep()]
        if args.collnet:
            cases += [(spec, None, "", "") for spec in collnet_sweep()]
    specs, models, lines, envs = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (spec, log, algo, proto) in enumerate(cases):
            if version_code < (2, 24, 0) and (algo.startswith("^") or proto.startswith("^")):
                algo, proto = "", ""   # the '^' syntax is 2.24+ (parseList @v2.24.3-1)
            extra = []
            if log:
                path = os.path.join(tmp, f"c{i}.log")
                with open(path, "w") as f:
                    f.write(log)
                extra += ["--nccl-log", path]
            if algo:
                extra += ["--algo", algo]
            if proto:
                extra += ["--proto", proto]
            m = run_ncdx(args.ncdx, spec, args.nccl, args.b, args.e, extra)
            specs.append(spec + (f" NCCL_ALGO={algo}" if algo else "") + (f" NCCL_PROTO={proto}" if proto else ""))
            models.append(m)
            lines.append(oracle_line(f"c{i}", m))
            envs.append((algo, proto))
    oracle = {}
    for env in sorted(set(envs)):
        e = {k: v for k, v in os.environ.items() if k not in ("NCCL_ALGO", "NCCL_PROTO")}
        if env[0]:
            e["NCCL_ALGO"] = env[0]
        if env[1]:
            e["NCCL_PROTO"] = env[1]
        batch = [ln for ln, en in zip(lines, envs) if en == env]
        res = subprocess.run([args.oracle], input="\n".join(batch) + "\n", capture_output=True, text=True, env=e)
        if res.returncode != 0:
            raise SystemExit(f"oracle failed: {res.stderr.strip()}")
        for line in res.stdout.splitlines():
            d = json.loads(line)
            oracle[d["case"]] = d

    tot = collections.Counter()
    collnet_tot = collections.Counter()   # the collnet=yes cases alone (also in tot)
    groups = collections.Counter()
    with open(args.out, "w") as f:
        for i, (spec, m) in enumerate(zip(specs, models)):
            if m["nranks"] <= 1:
                continue  # one rank: NCCL returns before tuning (tuning.cc nRanks <= 1)
            rec = compare(f"c{i}", spec, m, oracle[f"c{i}"], args.tol)
            rec["nccl_tag"] = args.tag
            rec["oracle_input"] = lines[i]
            rec["env"] = {"NCCL_ALGO": envs[i][0], "NCCL_PROTO": envs[i][1]}
            for t in (tot, collnet_tot) if "collnet=yes" in m["spec"] else (tot,):
                for k in ("bw_cells", "bw_agree", "lat_cells", "lat_agree", "picks", "pick_agree"):
                    t[k] += rec[k]
                t["cases"] += 1
                t["cases_all_agree"] += not rec["mismatches"]
            for mm in rec["mismatches"]:
                groups[(mm["what"], mm["coll"], mm.get("algo", ""), mm.get("proto", ""))] += 1
            f.write(json.dumps(rec, sort_keys=True) + "\n")
        summary = {"summary": True, "nccl_tag": args.tag, "ncdx_nccl": args.nccl, "tol": args.tol,
                   "input": (f"fuzz {args.fuzz} seed {args.seed}" if args.fuzz else "sweep") + (" +collnet" if args.collnet else ""),
                   **tot, "collnet": collnet_tot,
                   "bw_agree_pct": 100.0 * tot["bw_agree"] / max(1, tot["bw_cells"]),
                   "lat_agree_pct": 100.0 * tot["lat_agree"] / max(1, tot["lat_cells"]),
                   "pick_agree_pct": 100.0 * tot["pick_agree"] / max(1, tot["picks"]),
                   "mismatch_groups": [{"what": k[0], "coll": k[1], "algo": k[2], "proto": k[3], "count": v}
                                       for k, v in groups.most_common()]}
        f.write(json.dumps(summary, sort_keys=True) + "\n")
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
