#!/usr/bin/env python3
"""The α-β model of Open MPI's coll_tuned algorithms (`ncdx model --backend mpi`,
src/model/tune/ompi_alphabeta.cc) against Open MPI itself, on network-namespace hosts whose data
links are shaped by htb to a known rate (scripts/netns-cluster.sh, NCDX_MPI_NET=data). Run as root.

  1. γ: the reduction time per byte — Open MPI's MPI_SUM on floats (MPI_Reduce_local,
     bench/alphabeta_gamma.c built with mpicc), the slowest of 64 KiB, 1 MiB and 4 MiB.
  2. α, β, β_x of one link (model/tune/ompi_alphabeta.h, Link): β = a one-way stream, `ncdx bench
     broadcast` between 2 namespace hosts with basic_linear forced (one MPI send of the buffer);
     β_x = a two-way exchange above Open MPI's eager limit, `ncdx bench sendrecv` between 2 hosts
     (each rank sends to and receives from the other at once, as the exchange steps do); each the
     least-squares slope over the sizes >= 256 KiB (all rendezvous); α = the median 8-byte
     sendrecv time.
  3. The sweep: per (collective, algorithm, ranks) one mpirun job with the algorithm forced
     (OMPI_MCA_coll_tuned_use_dynamic_rules=1, OMPI_MCA_coll_tuned_<coll>_algorithm=ID, the MCA
     parameters `ncdx model --backend mpi --json` prints), each size REPEATS times as its own
     pass (`--sizes s,s,s`), one call per pass after a barrier (`-n 1`), timed as the slowest
     rank (`-a 3`): the latency of one collective, which is what the α-β formulas give (nccl-tests'
     back-to-back loop would measure the pipelined throughput of the tree broadcasts instead).
  4. Predicted vs measured per point; summary over all points and over the β-dominated ones
     (β and β_x terms >= 90 % of the prediction). The load average is recorded per job.

usage: alphabeta_netns.py [--fast] [--ncdx BUILD/src/cli/ncdx] [--rate 50mbit] [--ranks 2,4,8,16]
                          [--repeats 3] [--colls allreduce,...] [--algos ALG|COLL:ALG,...] [--largest N]
                          [--same-sizes] [--yield-when-idle 0|1] [--out FILE.json] [--max-beta-err 0.1]
Exit 77 with "SKIP: reason" when namespaces or mpirun are not available (netns-cluster.sh's)."""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)

# Sizes per collective (nccl-tests' size column): from where α dominates (a few KB on a
# 50 Mbit/s link, where one step is ~0.2 ms of latency against 0.17 ms per KB) to where β does.
FULL = {
    "allreduce": (["recursive_doubling", "ring", "rabenseifner"], [1 << 10, 16 << 10, 128 << 10, 1 << 20]),
    "broadcast": (["basic_linear", "pipeline", "binomial", "scatter_allgather", "scatter_allgather_ring"],
                  [1 << 10, 16 << 10, 128 << 10, 512 << 10]),
    "allgather": (["bruck", "recursive_doubling", "ring", "neighbor"], [4 << 10, 64 << 10, 512 << 10, 2 << 20]),
}
# The test's points: recursive doubling is all exchanges (β_x at 256 KiB), the ring at 4 ranks all
# one-way (β), at 2 ranks an exchange: a model that used one β for both misses one of them 2x.
FAST = {"allreduce": (["recursive_doubling", "ring"], [1 << 10, 256 << 10])}


class Skip(Exception):
    pass


YIELD = "1"  # OMPI_MCA_mpi_yield_when_idle for every job (--yield-when-idle; 1 in every run before 2026-12-07)
# OMPI_MCA_btl_tcp_flags for every job, probes included (--btl-tcp-flags; "" = Open MPI's default,
# "send,put,inplace,need-ack,need-csum,hetero-rdma" in 4.1.4). Without "put", ob1 sends rendezvous
# messages by send/receive only, and a two-way exchange runs at the one-way rate (docs/MODEL.md (c)).
BTL_FLAGS = ""


def netns_run(n, ncdx, args, rate, env_extra=None, timeout=900):
    """One mpirun job on n namespace hosts; returns ncdx's stdout (rank 0's JSON)."""
    env = dict(os.environ, NCDX=ncdx, RATE=rate, NCDX_MPI_NET="data", NCDX_NS_PREFIX=f"nab{os.getpid() % 100000}",
               OMPI_MCA_mpi_yield_when_idle=YIELD)
    if BTL_FLAGS:
        env["OMPI_MCA_btl_tcp_flags"] = BTL_FLAGS
    env.update(env_extra or {})
    cmd = ["bash", os.path.join(SRC, "scripts/netns-cluster.sh"), "run", str(n), "--", *args]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode == 77:
        raise Skip(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "SKIP")
    if p.returncode != 0:
        raise RuntimeError(f"netns job failed (rc {p.returncode}): {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p.stdout


SCALE = True  # --same-sizes turns it off


def cpu_ticks():
    """(busy, total) jiffies of all CPUs from /proc/stat: the delta over a job says whether the
    machine's cores, not the shaped link, were the limit (busy ≈ 1.0 = every core busy)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v) - v[3] - v[4], sum(v)


def scaled(sizes, rate):
    """The sizes, chosen for 50 Mbit/s, scaled to the same link time at `rate` (powers of two,
    at least 1 KiB), so a slower link — what a busy 2-core machine needs — keeps the sweep short.
    With --same-sizes the bytes stay as they are (the eager/rendezvous split at 64 KiB is then the
    same as at 50 Mbit/s; only the link time per byte changes)."""
    f = nominal_beta("50mbit") / nominal_beta(rate) if SCALE else 1.0
    return sorted({max(1024, 2 ** round(math.log2(s * f))) for s in sizes})


def bench_args(coll, sizes, repeats):
    # -n 1 -a 3: one call after a barrier, the slowest rank's time; -w 0: the pass's own untimed
    # first call (bench_run.cc run_pass) opens the TCP connections.
    listed = ",".join(str(s) for s in sizes for _ in range(repeats))
    return ["bench", coll, "--backend", "mpi", "--sizes", listed, "-n", "1", "-w", "0", "-c", "0", "-a", "3",
            "--json", "--no-timestamps"]


def samples(doc):
    """{bytes: [time_us, ...]} from an ncdx.bench/1 document (out-of-place and in-place passes)."""
    out = {}
    for r in doc["results"]:
        for place in ("out_of_place", "in_place"):
            t = r.get(place, {}).get("time_us")
            if t:
                out.setdefault(r["bytes"], []).append(t)
    return out


def measure_gamma(mpirun):
    """γ (us per byte): Open MPI's own MPI_SUM on floats (bench/alphabeta_gamma.c, MPI_Reduce_local),
    the largest of its per-size values; None without mpicc."""
    mpicc = shutil.which("mpicc")
    if not mpicc:
        return None
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "alphabeta_gamma")
        subprocess.run([mpicc, "-O2", os.path.join(HERE, "alphabeta_gamma.c"), "-o", exe], check=True)
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", LC_ALL="C")
        out = subprocess.run([mpirun, "-np", "1", exe], env=env, capture_output=True, text=True, check=True, timeout=120).stdout
    vals = [float(l.split()[2]) for l in out.splitlines() if l.startswith("gamma_ns_per_byte")]
    return max(vals) / 1e3 if vals else None


def slope(med, min_bytes):
    """Least-squares slope (us/B) of {bytes: us} over the sizes >= min_bytes."""
    big = [(b, t) for b, t in med.items() if b >= min_bytes]
    mx = statistics.mean(b for b, _ in big)
    my = statistics.mean(t for _, t in big)
    return sum((b - mx) * (t - my) for b, t in big) / sum((b - mx) ** 2 for b, _ in big)


def fit_link(ncdx, rate, repeats):
    """α (us), β and β_x (us/B) of one shaped link: a one-way stream (2-host broadcast, basic
    linear: one send) and a two-way exchange (2-host sendrecv), each fitted over the rendezvous
    sizes; α from the 8-byte exchange."""
    sizes = [8] + scaled([1 << 10, 64 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20], rate)
    big = min(scaled([256 << 10], rate))
    doc = json.loads(netns_run(2, ncdx, bench_args("sendrecv", sizes, repeats), rate))
    xmed = {b: statistics.median(v) for b, v in samples(doc).items()}
    beta_x = slope(xmed, big)
    alpha = xmed[8] - 8 * beta_x
    one = {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1", "OMPI_MCA_coll_tuned_bcast_algorithm": "1"}
    doc = json.loads(netns_run(2, ncdx, bench_args("broadcast", [s for s in sizes if s >= big], repeats), rate, one))
    omed = {b: statistics.median(v) for b, v in samples(doc).items()}
    beta = slope(omed, big)
    return alpha, beta, beta_x, xmed, omed


def predict(ncdx, coll, alg, n, sizes, link):
    out = subprocess.run([ncdx, "model", "--backend", "mpi", "--np", str(n), "--coll", coll, "--algo", alg,
                          "--alpha-us", repr(link["alpha_us"]), "--beta-ns", repr(link["beta_us"] * 1e3),
                          "--beta-x-ns", repr(link["beta_x_us"] * 1e3),
                          "--gamma-ns", repr(link["gamma_us"] * 1e3), "-b", str(min(sizes)), "-e", str(max(sizes)),
                          "-f", "2", "--json", "--no-timestamps"], capture_output=True, text=True, check=True).stdout
    return {r["bytes"]: r for r in json.loads(out)["rows"]}


def nominal_beta(rate):
    """us per payload byte at htb `rate`: htb counts 1514-byte frames, each carrying 1448 bytes of
    TCP payload (1500 MTU − 20 IP − 32 TCP with timestamps)."""
    units = {"kbit": 1e3, "mbit": 1e6, "gbit": 1e9}
    for u, f in units.items():
        if rate.endswith(u):
            return 8e6 / (float(rate[: -len(u)]) * f) * 1514 / 1448
    raise ValueError(f"rate {rate}: expected kbit, mbit or gbit")


def pct(v, q):
    v = sorted(v)
    if not v:
        return None
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def summary(points, key="err"):
    e = [abs(p[key]) for p in points]
    return {"points": len(e), "median_abs_err": pct(e, 0.5), "p90_abs_err": pct(e, 0.9), "max_abs_err": max(e) if e else None,
            "within_10pct": sum(x <= 0.10 for x in e)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ncdx", default=os.path.join(SRC, "build/src/cli/ncdx"))
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--rate", default="50mbit")
    ap.add_argument("--ranks", default=None, help="comma-separated rank counts (default 2,4,8,16; --fast 2,4)")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--colls", default=None, help="subset of allreduce,broadcast,allgather")
    ap.add_argument("--algos", default=None, help="subset of the algorithms, comma-separated (ALG, or COLL:ALG for one collective's)")
    ap.add_argument("--fast", action="store_true", help="the test's few points: allreduce, 2 and 4 ranks")
    ap.add_argument("--largest", type=int, default=None, help="only the N largest sizes of each collective")
    ap.add_argument("--same-sizes", action="store_true",
                    help="keep the 50 Mbit/s sizes at another --rate instead of scaling them to the same link time")
    ap.add_argument("--yield-when-idle", choices=("0", "1"), default="1",
                    help="OMPI_MCA_mpi_yield_when_idle for the ranks (default 1: they yield when idle)")
    ap.add_argument("--btl-tcp-flags", default="",
                    help="OMPI_MCA_btl_tcp_flags for every job (default: Open MPI's; e.g. send,inplace,need-ack,need-csum,"
                         "hetero-rdma: no RDMA put emulation, exchanges at the one-way rate)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--max-beta-err", type=float, default=None,
                    help="exit 1 when a β-dominated point's |predicted − measured| / measured exceeds this (the test)")
    ap.add_argument("--slower-margin", type=float, default=0.0,
                    help="with --max-beta-err: allow points measured slower than predicted this much more (a busy "
                         "machine only ever slows the ranks down)")
    a = ap.parse_args()
    global YIELD, SCALE, BTL_FLAGS
    YIELD, SCALE, BTL_FLAGS = a.yield_when_idle, not a.same_sizes, a.btl_tcp_flags
    ranks = [int(x) for x in (a.ranks or ("2,4" if a.fast else "2,4,8,16")).split(",")]
    repeats = a.repeats or (2 if a.fast else 3)
    plan = FAST if a.fast else FULL
    if a.colls:
        plan = {c: plan[c] for c in a.colls.split(",")}
    if a.algos:
        keep = a.algos.split(",")
        plan = {c: ([x for x in algs if x in keep or f"{c}:{x}" in keep], sz) for c, (algs, sz) in plan.items()}
    t0 = time.time()
    load0 = os.getloadavg()[0]
    try:
        gamma = measure_gamma(a.mpirun)
        alpha, beta, beta_x, xmed, omed = fit_link(a.ncdx, a.rate, repeats)
    except Skip as s:
        print(s, file=sys.stderr)
        return 77
    link = {"alpha_us": alpha, "beta_us": beta, "beta_x_us": beta_x, "gamma_us": gamma or 0.0}
    gtxt = f"γ {gamma * 1e3:.4f} ns/B" if gamma is not None else "γ not measured (no mpicc): 0"
    print(f"link ({a.rate} htb, load {load0:.1f}): α {alpha:.1f} us, β one-way {beta * 1e3:.2f} ns/B = {8 / beta:.2f} Mbit/s, "
          f"β_x exchange {beta_x * 1e3:.2f} ns/B = {8 / beta_x:.2f} Mbit/s of payload (htb's rate x 1448/1514, TCP "
          f"payload per wire frame: {nominal_beta(a.rate) * 1e3:.2f} ns/B); {gtxt}", flush=True)
    for b in sorted(xmed):
        print(f"  sendrecv  {b:>8} B: {xmed[b]:10.1f} us, fit {(alpha + b * (beta_x if b >= 65536 else beta) - xmed[b]) / xmed[b]:+.1%}")
    for b in sorted(omed):
        print(f"  one-way   {b:>8} B: {omed[b]:10.1f} us, nβ {b * beta:10.1f} us")

    points = []
    for coll, (algs, sizes50) in plan.items():
        for n in ranks:
            for alg in algs:
                sizes = scaled(sizes50, a.rate)[-a.largest:] if a.largest else scaled(sizes50, a.rate)
                pred = predict(a.ncdx, coll, alg, n, sizes, link)
                if not pred:
                    continue
                mca = next(iter(pred.values()))["mca"]
                env = {"OMPI_MCA_" + k: v for k, v in mca.items()}
                load = os.getloadavg()[0]
                c0 = cpu_ticks()
                doc = json.loads(netns_run(n, a.ncdx, bench_args(coll, sizes, repeats), a.rate, env))
                c1 = cpu_ticks()
                busy = (c1[0] - c0[0]) / max(1, c1[1] - c0[1])
                for b, ts in sorted(samples(doc).items()):
                    r = pred.get(b)
                    if r is None:
                        continue
                    m = statistics.median(ts)
                    t = r["time_us"]
                    # The model before the two β (docs/MODEL.md (c)): every byte at the exchange's β.
                    t1 = t + r["beta_bytes"] * (beta_x - beta)
                    p = {"collective": coll, "algorithm": alg, "runs_as": r["runs_as"], "np": n, "bytes": b,
                         "measured_us": m, "samples_us": ts, "predicted_us": t, "err": (t - m) / m,
                         "err_one_beta": (t1 - m) / m,
                         "beta_share": (r["beta_bytes"] * beta + r["beta_x_bytes"] * beta_x) / t if t else 0,
                         "terms": {k: r[k] for k in ("alpha_steps", "beta_bytes", "beta_x_bytes", "gamma_bytes")},
                         "load": load, "load_end": os.getloadavg()[0], "cpu_busy": busy}
                    points.append(p)
                    print(f"{coll:9} {alg:22} np {n:2} {b:>8} B: measured {m:11.1f} predicted {t:11.1f} us "
                          f"{p['err']:+7.1%} (β {p['beta_share']:.0%}, load {load:.1f}, CPU busy {busy:.0%})", flush=True)
    bdom = [p for p in points if p["beta_share"] >= 0.9]
    res = {"schema": "ncdx.bench.alphabeta/1", "rate": a.rate, "ranks": ranks, "repeats": repeats,
           "yield_when_idle": int(YIELD), "same_sizes": not SCALE, "btl_tcp_flags": BTL_FLAGS or None, "argv": sys.argv[1:],
           "link": {"alpha_us": alpha, "beta_ns_per_byte": beta * 1e3, "beta_x_ns_per_byte": beta_x * 1e3,
                    "payload_mbit_s": 8 / beta, "nominal_beta_ns_per_byte": nominal_beta(a.rate) * 1e3,
                    "gamma_ns_per_byte": gamma * 1e3 if gamma is not None else None,
                    "sendrecv_median_us": {str(k): v for k, v in sorted(xmed.items())},
                    "oneway_median_us": {str(k): v for k, v in sorted(omed.items())}},
           "load_start": load0, "load_end": os.getloadavg()[0], "wall_s": round(time.time() - t0, 1),
           "summary": {"all": summary(points), "beta_dominated": summary(bdom),
                       "one_beta_all": summary(points, "err_one_beta"), "one_beta_beta_dominated": summary(bdom, "err_one_beta"),
                       "beta_dominated_by_np": {str(n): summary([p for p in bdom if p["np"] == n]) for n in ranks}},
           "points": points}
    print("all points:", json.dumps(res["summary"]["all"]))
    print("β-dominated (β >= 90 %):", json.dumps(res["summary"]["beta_dominated"]))
    print("one β (the exchange's) for every byte, β-dominated:", json.dumps(res["summary"]["one_beta_beta_dominated"]))
    for n, v in res["summary"]["beta_dominated_by_np"].items():
        print(f"  β-dominated at {n} ranks:", json.dumps(v))
    print(f"load average {load0:.1f} at the start, {res['load_end']:.1f} at the end")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
    if a.max_beta_err is not None:
        if not bdom:
            print("FAIL: no β-dominated point", file=sys.stderr)
            return 1
        lo, hi = -(a.max_beta_err + a.slower_margin), a.max_beta_err
        bad = [p for p in bdom if not lo <= p["err"] <= hi]
        for p in bad:
            print(f"FAIL: {p['collective']} {p['algorithm']} np {p['np']} {p['bytes']} B: predicted {p['err']:+.1%} "
                  f"vs measured, outside [{lo:+.0%}, {hi:+.0%}] (load {p['load']:.1f})", file=sys.stderr)
        if bad:
            return 1
        print(f"ok: every β-dominated point within [{lo:+.0%}, {hi:+.0%}] of the measured time "
              f"({', '.join(format(p['err'], '+.1%') for p in bdom)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
