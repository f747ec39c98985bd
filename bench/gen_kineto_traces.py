#!/usr/bin/env python3
"""Generates a Kineto-style trace set (one PyTorch-profiler-shaped JSON per rank) for the
`ncdx timeline` benchmark: per step a ProfilerStep annotation, K compute ops each with its
cpu_op, cudaLaunchKernel runtime event, GPU kernel (Kineto's kernel args) and ac2g flow pair,
then record_param_comms + nccl:all_reduce + an ncclDevKernel_AllReduce kernel carrying the
collective args (as PyTorch >= 2.2 writes them). Ranks run in lock-step: each all-reduce kernel
starts when its rank arrives and ends for all when the last rank arrived plus the transfer.
One straggler: rank S computes FACTOR slower from step F on (--straggler -1: none).
--p2p: after the all-reduce, a ring shift: each rank computes a little (slower on the straggler),
then sends to r+1 and receives from r-1 — record_param_comms "send" with "Dst Rank" / "recv" with
"Src Rank" (torch/csrc/profiler/util.h kP2pDst/kP2pSrc) and one ncclDevKernel_SendRecv kernel
each; both ends of a transfer end when the later one posted plus the transfer time.
--slow-link L: the transfers from rank L to L+1 take --link-factor longer from step F on.
Usage: gen_kineto_traces.py OUTDIR [--ranks 8] [--size-mb 1024] [--straggler 5] [--from-frac 0.5]
       [--factor 1.3] [--ops 20] [--seed 1] [--p2p] [--slow-link L] [--link-factor 1.5]
"""
import argparse
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--size-mb", type=float, default=1024)
    ap.add_argument("--straggler", type=int, default=5)
    ap.add_argument("--from-frac", type=float, default=0.5)
    ap.add_argument("--factor", type=float, default=1.3)
    ap.add_argument("--ops", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--p2p", action="store_true")
    ap.add_argument("--slow-link", type=int, default=-1)
    ap.add_argument("--link-factor", type=float, default=1.5)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    per_step_bytes = 235 * (a.ops * 5 + 6)  # measured: ~235 bytes per event
    steps = max(4, int(a.size_mb * 1e6 / a.ranks / per_step_bytes))
    slow_from = int(steps * a.from_frac)
    rng = random.Random(a.seed)
    # Lock-step schedule shared by all ranks: per step, per rank compute time; transfer.
    t = 1_700_000_000_000.0  # µs, Kineto-like absolute
    sched = []
    for s in range(steps):
        comp = []
        for r in range(a.ranks):
            c = 4000.0 * (1 + 0.02 * rng.gauss(0, 1))
            if r == a.straggler and s >= slow_from:
                c *= a.factor
            comp.append(c)
        xfer = 1500.0 * (1 + 0.02 * rng.gauss(0, 1))
        last = t + max(comp)
        done = last + xfer
        p2p = None  # per rank: (send start, send end, recv start, recv end)
        end = done
        if a.p2p:
            post = []
            for r in range(a.ranks):
                c = 800.0 * (1 + 0.02 * rng.gauss(0, 1))
                if r == a.straggler and s >= slow_from:
                    c *= a.factor
                post.append(done + 20 + c)
            p2p = [[0.0, 0.0, 0.0, 0.0] for _ in range(a.ranks)]
            for r in range(a.ranks):
                to = (r + 1) % a.ranks
                d = 600.0 * (1 + 0.02 * rng.gauss(0, 1))
                if r == a.slow_link and s >= slow_from:
                    d *= a.link_factor
                e = max(post[r], post[to]) + d
                p2p[r][0:2] = [post[r], e]
                p2p[to][2:4] = [post[to], e + 1]
            end = max(max(x[1], x[3]) for x in p2p)
        sched.append((t, comp, last, done, p2p, end))
        t = end + 60
    files = []
    for r in range(a.ranks):
        path = os.path.join(a.out, "rank%d.pt.trace.json" % r)
        files.append(path)
        pid, tid = 4000 + r, 4000 + r
        ext = corr = 1
        with open(path, "w") as f:
            f.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045231616, '
                    '"computeMajor": 9, "computeMinor": 0, "numSms": 132}],\n')
            f.write('  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d, "pg_count": 1, "pg_config": '
                    '[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": %d, "ranks": [%s]}], '
                    '"nccl_version": "2.21.5"},\n' % (r, a.ranks, a.ranks, ", ".join(str(i) for i in range(a.ranks))))
            f.write('  "traceEvents": [\n')
            first = True
            buf = []
            for s, (t0, comp, last, done, p2p, end) in enumerate(sched):
                c = comp[r]
                arrive = t0 + c
                ev = ['  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, "tid": %d, "ts": %.3f, "dur": %.3f, '
                      '"args": {"External id": %d, "Record function id": 0, "Ev Idx": %d}}' % (s, pid, tid, t0, end - t0 + 40, ext, ext)]
                ext += 1
                k = c / a.ops
                for i in range(a.ops):
                    ks = t0 + i * k
                    ev.append('  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": %d, "tid": %d, "ts": %.3f, "dur": %.3f, '
                              '"args": {"External id": %d, "Sequence number": %d, "Fwd thread id": 0, "Record function id": 0, '
                              '"Ev Idx": %d}}' % (pid, tid, ks - 15, 12.0, ext, ext, ext))
                    ev.append('  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d, "ts": %.3f, '
                              '"dur": %.3f, "args": {"External id": %d, "cbid": 211, "correlation": %d}}' % (pid, tid, ks - 10, 5.0, ext, corr))
                    ev.append('  {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", '
                              '"pid": 0, "tid": 7, "ts": %.3f, "dur": %.3f, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, '
                              '"stream": 7, "correlation": %d, "registers per thread": 168, "shared memory": 213248, "blocks per SM": 1.0, '
                              '"warps per SM": 12.0, "grid": [132, 1, 1], "block": [384, 1, 1], "est. achieved occupancy %%": 19}}'
                              % (ks, k * 0.97, ext, corr))
                    ev.append('  {"ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %.3f, "cat": "ac2g", "name": "ac2g"}' % (corr, pid, tid, ks - 10))
                    ev.append('  {"ph": "f", "id": %d, "pid": 0, "tid": 7, "ts": %.3f, "cat": "ac2g", "name": "ac2g", "bp": "e"}' % (corr, ks))
                    ext += 1
                    corr += 1
                args = ('"Collective name": "allreduce", "In msg nelems": 16777216, "Out msg nelems": 16777216, "Group size": %d, '
                        '"dtype": "BFloat16", "In split size": "[]", "Out split size": "[]", "Global rank start": 0, "Global rank stride": 1, '
                        '"Process Group Name": "0", "Process Group Description": "default_pg", "Process Group Ranks": "[%s]"'
                        % (a.ranks, ", ".join(str(i) for i in range(a.ranks))))
                ev.append('  {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": %d, "tid": %d, "ts": %.3f, "dur": 8.0, '
                          '"args": {"External id": %d, "Record function id": 0, %s}}' % (pid, tid, arrive - 20, ext, args))
                ev.append('  {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": %d, "tid": %d, "ts": %.3f, "dur": 6.0, '
                          '"args": {"External id": %d, "Record function id": 0}}' % (pid, tid, arrive - 12, ext + 1))
                ev.append('  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernelExC", "pid": %d, "tid": %d, "ts": %.3f, "dur": 4.0, '
                          '"args": {"External id": %d, "cbid": 430, "correlation": %d}}' % (pid, tid, arrive - 8, ext + 1, corr))
                ev.append('  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgs4K)", "pid": 0, '
                          '"tid": 20, "ts": %.3f, "dur": %.3f, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": 20, '
                          '"correlation": %d, "registers per thread": 96, "shared memory": 87568, "grid": [16, 1, 1], "block": [640, 1, 1], %s}}'
                          % (arrive, done - arrive, ext + 1, corr, args))
                ext += 2
                corr += 1
                if p2p:
                    peers = (("send", "Dst Rank", (r + 1) % a.ranks, p2p[r][0], p2p[r][1]),
                             ("recv", "Src Rank", (r - 1) % a.ranks, p2p[r][2] + 1, p2p[r][3]))
                    for name, key, peer, st, en in peers:
                        pargs = ('"Collective name": "%s", "In msg nelems": 4194304, "Out msg nelems": 4194304, "Group size": %d, '
                                 '"dtype": "BFloat16", "Process Group Name": "0", "Process Group Description": "default_pg", "%s": %d'
                                 % (name, a.ranks, key, peer))
                        ev.append('  {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": %d, "tid": %d, "ts": %.3f, '
                                  '"dur": 8.0, "args": {"External id": %d, "Record function id": 0, %s}}' % (pid, tid, st - 20, ext, pargs))
                        ev.append('  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernelExC", "pid": %d, "tid": %d, "ts": %.3f, '
                                  '"dur": 4.0, "args": {"External id": %d, "cbid": 430, "correlation": %d}}' % (pid, tid, st - 8, ext, corr))
                        ev.append('  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_SendRecv(ncclDevKernelArgs4K)", "pid": 0, "tid": 20, '
                                  '"ts": %.3f, "dur": %.3f, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": 20, '
                                  '"correlation": %d, %s}}' % (st, en - st, ext, corr, pargs))
                        ext += 1
                        corr += 1
                chunk = ",\n".join(ev)
                buf.append(chunk if first else ",\n" + chunk)
                first = False
                if len(buf) >= 64:
                    f.write("".join(buf))
                    buf = []
            f.write("".join(buf))
            f.write('\n  ],\n  "traceName": "%s",\n  "displayTimeUnit": "ms",\n  "baseTimeNanoseconds": 1700000000000000000\n}\n' % path)
    print("%d ranks x %d steps, straggler rank %d x%.2f from step %d%s" % (
        a.ranks, steps, a.straggler, a.factor, slow_from,
        ", slow link %d-%d x%.2f" % (a.slow_link, (a.slow_link + 1) % a.ranks, a.link_factor) if a.slow_link >= 0 else ""))


if __name__ == "__main__":
    main()
