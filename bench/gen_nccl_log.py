#!/usr/bin/env python3
"""Generates a realistic merged NCCL_DEBUG=INFO + NCCL_DEBUG_SUBSYS=COLL log of about SIZE bytes
for 64 ranks on 8 hosts (8 GPUs each), NCCL 2.23 formats (no timestamps on INFO/WARN, as 2.14-2.25
print them, NVIDIA/nccl src/debug.cc; the IB completion error in its 2.23 form, src/transport/net_ib.cc @ v2.22.3-1), with exactly ONE injected fault near the end: an IB
completion error status 12 (IBV_WC_RETRY_EXC_ERR) on host gpu-node-06 (ranks 40-47), followed by
PyTorch watchdog timeouts on every other rank. Deterministic for a given --seed.

Line formats: init/transport/ring/tree lines as NVIDIA/nccl prints them (src/init.cc, src/transport/) and the real logs of
data/nccl_info_logs.jsonl; COLL lines as NCCL's enqueue.cc prints them ("%s: opCount %lx sendbuff %p
recvbuff %p count %zu datatype %d op %d root %d comm %p [nranks=%d] stream %p"); PyTorch glog lines
with the torchrun "[rankN]:" prefix (PyTorch ProcessGroupNCCL.cpp).

Usage: gen_nccl_log.py SIZE OUT [--seed N]   (SIZE like 1G, 200M, 5000000)
"""
import argparse
import random
import sys

HOSTS = [f"gpu-node-{i:02d}" for i in range(1, 9)]
NRANKS = 64
FAULT_HOST = 5  # gpu-node-06
NCCL_VERSION = "2.23.4+cuda12.6"


def parse_size(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    s = s.strip().upper().rstrip("B")
    if s and s[-1] in mult:
        return int(float(s[:-1]) * mult[s[-1]])
    return int(s)


class Rank:
    def __init__(self, r, rng):
        self.r = r
        self.host = HOSTS[r // 8]
        self.dev = r % 8
        self.pid = 21000 + r * 13 + rng.randrange(7)
        self.tid_main = self.pid
        self.tid_init = self.pid + 140 + rng.randrange(20)
        self.tid_proxy = self.pid + 200 + rng.randrange(20)
        self.comm = 0x55D5C9A3E000 + r * 0x1A40
        self.stream = 0x55D5CA000000 + r * 0x3F0
        self.buf = 0x7F2A40000000 + r * 0x1000000
        self.ip = f"10.0.{r // 8}.{10 + r % 8}"
        self.op = 0

    def p(self, tid=None):
        return f"{self.host}:{self.pid}:{tid or self.tid_main} [{self.dev}] "


def init_lines(rk, rng):
    p = rk.p()
    pi = rk.p(rk.tid_init)
    r = rk.r
    out = []
    if r == 0:
        out.append(f"{p}NCCL INFO NCCL version {NCCL_VERSION}")
    out += [
        f"{p}NCCL INFO cudaDriverVersion 12040",
        f"{p}NCCL INFO Bootstrap : Using eth0:{rk.ip}<0>",
        f"{p}NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
        f"{p}NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
        f"{p}NCCL INFO NCCL_IB_HCA set to mlx5_0,mlx5_1,mlx5_2,mlx5_3",
        f"{p}NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; OOB eth0:{rk.ip}<0>",
        f"{p}NCCL INFO Using non-device net plugin version 0",
        f"{p}NCCL INFO Using network IB",
        f"{pi}NCCL INFO ncclCommInitRank comm 0x{rk.comm:x} rank {r} nranks {NRANKS} cudaDev {rk.dev} nvmlDev {rk.dev} busId {0x18000 + rk.dev * 0x10000:x} commId 0x5b4e1c2d3f4a5b6c - Init START",
        f"{pi}NCCL INFO Setting affinity for GPU {rk.dev} to ffffffff,00000000,ffffffff",
        f"{pi}NCCL INFO NVLS multicast support is not available on dev {rk.dev}",
    ]
    nxt, prv = (r + 1) % NRANKS, (r - 1) % NRANKS
    for ch in range(8):
        out.append(f"{pi}NCCL INFO Ring {ch:02d} : {prv} -> {r} -> {nxt}")
    trees = " ".join(f"[{c}] {nxt}/-1/-1->{r}->{prv}" for c in range(8))
    out.append(f"{pi}NCCL INFO Trees {trees}")
    out.append(f"{pi}NCCL INFO P2P Chunksize set to 131072")
    if r == 0:
        # 2.23+: " %*d" per rank (width = digits of nranks-1), the line cut to 128 chars with "..."
        order = "".join(f" {i:>2}" for i in range(NRANKS))
        for ch in range(8):
            text = f"Channel {ch:02d}/08 :{order}"
            out.append(f"{pi}NCCL INFO " + (text[:125] + "..." if len(text) > 128 else text))
    for ch in range(8):
        if rk.dev < 7:
            out.append(f"{pi}NCCL INFO Channel {ch:02d}/0 : {r}[{rk.dev}] -> {r + 1}[{rk.dev + 1}] via P2P/CUMEM/read")
        else:
            out.append(f"{pi}NCCL INFO Channel {ch:02d}/0 : {r}[{rk.dev}] -> {nxt}[{nxt % 8}] [send] via NET/IB/{ch % 4}/GDRDMA")
            out.append(f"{pi}NCCL INFO Channel {ch:02d}/0 : {prv}[{prv % 8}] -> {r}[{rk.dev}] [receive] via NET/IB/{ch % 4}/GDRDMA")
    out += [
        f"{pi}NCCL INFO Connected all rings",
        f"{pi}NCCL INFO Connected all trees",
        f"{pi}NCCL INFO threadThresholds 8/8/64 | 512/8/64 | 512 | 512",
        f"{pi}NCCL INFO 8 coll channels, 8 collnet channels, 0 nvls channels, 8 p2p channels, 2 p2p channels per peer",
        f"{pi}NCCL INFO ncclCommInitRank comm 0x{rk.comm:x} rank {r} nranks {NRANKS} cudaDev {rk.dev} nvmlDev {rk.dev} busId {0x18000 + rk.dev * 0x10000:x} commId 0x5b4e1c2d3f4a5b6c - Init COMPLETE",
        f"{pi}NCCL INFO Init timings - ncclCommInitRank: rank {r} nranks {NRANKS} total {1.2 + rng.random():.2f} (kernels 0.21, alloc 0.05, bootstrap 0.35, allgathers 0.04, topo 0.30, graphs 0.02, connections 0.25, rest 0.01)",
    ]
    return out


COLLS = [("AllReduce", 7, 0, 0.6), ("AllGather", 7, 0, 0.15), ("ReduceScatter", 7, 0, 0.15), ("Broadcast", 7, 0, 0.05),
         ("Send", 7, 0, 0.025), ("Recv", 7, 0, 0.025)]


def coll_line(rk, rng):
    x = rng.random()
    acc = 0.0
    for name, dt, op, w in COLLS:
        acc += w
        if x <= acc:
            break
    count = rng.choice((1, 2, 262144, 1048576, 4194304, 16777216, 25165824, 50331648))
    root = rk.r if name == "Broadcast" and rk.r == 0 else (rng.randrange(NRANKS) if name in ("Send", "Recv") else 0)
    line = (f"{rk.p()}NCCL INFO {name}: opCount {rk.op:x} sendbuff 0x{rk.buf:x} recvbuff 0x{rk.buf + 0x400000:x} "
            f"count {count} datatype {dt} op {op} root {root} comm 0x{rk.comm:x} [nranks={NRANKS}] stream 0x{rk.stream:x}")
    rk.op += 1
    return line


def glog_time(t):
    # glog "MDD hh:mm:ss.nnnnnnnnn" (month without leading zero, as c10 prints it)
    h, rem = divmod(t, 3600)
    m, s = divmod(rem, 60)
    return f"809 {int(h) % 24:02d}:{int(m):02d}:{s:012.9f}"


def chatter(rk, rng, t, step):
    kind = rng.randrange(4)
    if kind == 0:
        return f"[rank{rk.r}]:[I{glog_time(t)} ProcessGroupNCCL.cpp:2100] [PG ID 0 PG GUID 0(default_pg) Rank {rk.r}] NCCL_DEBUG: INFO"
    if kind == 1:
        return f"[rank{rk.r}]:step {step} loss {2.5 - step * 1e-5 + rng.random() * 0.01:.4f} lr 3.0e-04 grad_norm {0.8 + rng.random():.3f}"
    if kind == 2:
        return f"[rank{rk.r}]:[W{glog_time(t)} CUDAAllocatorConfig.h:28] Warning: expandable_segments not supported on this platform (function operator())"
    return f"{rk.p(rk.tid_proxy)}NCCL INFO Channel {rng.randrange(8):02d}/1 : {rk.r}[{rk.dev}] -> {(rk.r + 8) % NRANKS}[{rk.dev}] [send] via NET/IB/{rk.dev % 4}/GDRDMA/Shared"


def fault_lines(ranks, rng, t):
    out = []
    victims = [rk for rk in ranks if rk.r // 8 == FAULT_HOST]
    bad = victims[3]
    peer = ranks[(bad.r + 8) % NRANKS]
    pp = bad.p(bad.tid_proxy)
    out.append("")  # NCCL prints a blank line before each WARN
    out.append(f"{pp}transport/net_ib.cc:2263 NCCL WARN NET/IB: Got completion from peer {peer.ip}<45311> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:{bad.ip} remoteGids ::ffff:{peer.ip} hca mlx5_2")
    out.append(f"{pp}NCCL INFO transport/net.cc:1299 -> 6")
    out.append(f"{pp}NCCL INFO proxy.cc:697 -> 6")
    out.append(f"{pp}NCCL INFO proxy.cc:881 -> 6 [Progress Thread]")
    seq = ranks[0].op
    for rk in ranks:
        if rk.r == bad.r:
            continue
        out.append(f"[rank{rk.r}]:[E{glog_time(t + 600 + rk.r * 0.001)} ProcessGroupNCCL.cpp:632] [Rank {rk.r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn=25165824, NumelOut=25165824, Timeout(ms)=600000) ran for 600081 milliseconds before timing out.")
    for rk in ranks:
        if rk.r == bad.r:
            continue
        out.append(f"[rank{rk.r}]:[E{glog_time(t + 600.5 + rk.r * 0.001)} ProcessGroupNCCL.cpp:1664] [PG ID 0 PG GUID 0(default_pg) Rank {rk.r}] Exception (either an error or timeout) detected by watchdog at work: {seq}, last enqueued NCCL work: {seq}, last completed NCCL work: {seq - 1}.")
    out.append(f"[rank{bad.r}]:[E{glog_time(t + 601)} ProcessGroupNCCL.cpp:1568] [PG ID 0 PG GUID 0(default_pg) Rank {bad.r}] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.23.4")
    out.append("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=20260422)
    a = ap.parse_args()
    target = parse_size(a.size)
    rng = random.Random(a.seed)
    ranks = [Rank(r, rng) for r in range(NRANKS)]
    written = 0
    t = 14 * 3600 + 2 * 60 + 11.0
    step = 0
    with open(a.out, "w", encoding="ascii", newline="\n", buffering=1 << 22) as f:
        def emit(lines):
            nonlocal written
            s = "\n".join(lines) + "\n"
            f.write(s)
            written += len(s)

        init = []
        for rk in ranks:
            init += init_lines(rk, rng)
        emit(init)
        tail = fault_lines(ranks, random.Random(a.seed + 1), t)
        tail_bytes = sum(len(x) + 1 for x in tail)
        while written + tail_bytes < target:
            batch = []
            for _ in range(1024):
                rk = ranks[rng.randrange(NRANKS)]
                if rng.random() < 0.02:
                    batch.append(chatter(rk, rng, t, step))
                else:
                    batch.append(coll_line(rk, rng))
                t += 0.0004
            step += 1
            emit(batch)
        emit(fault_lines(ranks, rng, t))
    print(f"{a.out}: {written} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
