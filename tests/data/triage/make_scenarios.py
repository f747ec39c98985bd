#!/usr/bin/env python3
"""Generates the synthetic multi-rank triage scenarios under scenarios/<name>/.

Deterministic (no randomness, fixed timestamps). Line formats follow the real ones printed by
NVIDIA/nccl src/debug.cc and seen in shared/data/nccl_info_logs.jsonl and the corpus:
NCCL INFO/WARN prefixes `host:pid:tid [dev] ...` (2.26+ WARN lines carry `[%F %T] `), PyTorch glog
`[rankN]:[E<MMDD hh:mm:ss.us> ProcessGroupNCCL.cpp:<line>] ...`, torchrun `[rankN]:` prefixes.
Each scenario's expected verdict is in expected.txt (class and culprit), checked by the tests.
Run: python3 make_scenarios.py  (rewrites scenarios/)
"""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "scenarios")


def nccl_info(host, pid, dev, msg, ts=None):
    pre = f"[{ts}] " if ts else ""
    return f"{pre}{host}:{pid}:{pid + 7} [{dev}] NCCL INFO {msg}"


def nccl_warn(host, pid, dev, src, msg, ts="2026-03-03 10:15:02"):
    return f"\n[{ts}] {host}:{pid}:{pid + 9} [{dev}] {src} NCCL WARN {msg}"


def init_lines(host, pid, dev, rank, nranks, version="2.21.5", cuda="12.4", network="IB"):
    out = [
        nccl_info(host, pid, dev, f"Bootstrap : Using eth0:10.0.0.{rank // 2 + 1}<0>"),
        nccl_info(host, pid, dev, f"cudaDriverVersion 12040"),
        f"NCCL version {version}+cuda{cuda}" if rank == 0 else nccl_info(host, pid, dev, f"NCCL version {version}+cuda{cuda}"),
    ]
    if network == "IB":
        out.append(nccl_info(host, pid, dev, "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.0.1<0>"))
        out.append(nccl_info(host, pid, dev, "Using network IB"))
    busid = f"{0x18 + dev * 0x10:x}000"
    out.append(nccl_info(host, pid, dev, f"ncclCommInitRank comm 0x55d5c9a3e{rank:02d} rank {rank} nranks {nranks} cudaDev {dev} nvmlDev {dev} busId {busid} commId 0x5b4e1f00aa77 - Init START"))
    peer = (rank + 1) % nranks
    if network == "IB" and rank // 2 != peer // 2:
        out.append(nccl_info(host, pid, dev, f"Channel 00/0 : {rank}[{dev}] -> {peer}[{peer % 2}] [send] via NET/IB/0/GDRDMA"))
    else:
        out.append(nccl_info(host, pid, dev, f"Channel 00/0 : {rank}[{dev}] -> {peer}[{peer % 2}] via P2P/CUMEM/read"))
    out.append(nccl_info(host, pid, dev, f"ncclCommInitRank comm 0x55d5c9a3e{rank:02d} rank {rank} nranks {nranks} cudaDev {dev} nvmlDev {dev} busId {busid} commId 0x5b4e1f00aa77 - Init COMPLETE"))
    return out


def coll(host, pid, dev, op, n):
    return nccl_info(host, pid, dev, f"AllReduce: opCount {op:x} sendbuff 0x7f3c1a000000 recvbuff 0x7f3c1a000000 count {n} datatype 7 op 0 root 0 comm 0x55d5c9a3e0 [nranks=8] stream 0x55d5c9b000")


def watchdog(rank, seq, op="ALLREDUCE", numel=4194304, timeout=600000, ran=600071, ts="0303 10:25:02.411244289"):
    return (f"[rank{rank}]:[E{ts} ProcessGroupNCCL.cpp:632] [Rank {rank}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, Timeout(ms)={timeout}) ran for {ran} milliseconds before timing out.")


def pg_status(rank, seq, completed):
    return (f"[rank{rank}]:[E0303 10:25:02.411300000 ProcessGroupNCCL.cpp:1664] [PG ID 0 PG GUID 0(default_pg) Rank {rank}] "
            f"Timeout at NCCL work: {seq}, last enqueued NCCL work: {seq}, last completed NCCL work: {completed}.")


def hosts_for(nranks):
    return [(r, f"node{r // 2}", 4000 + r, r % 2) for r in range(nranks)]


def write(name, files, expected):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    for fname, lines in files.items():
        with open(os.path.join(d, fname), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(d, "expected.txt"), "w") as f:
        f.write(expected + "\n")


def ib_host_culprit():
    files = {}
    for r, host, pid, dev in hosts_for(8):
        lines = init_lines(host, pid, dev, r, 8)
        lines += [coll(host, pid, dev, op, 4194304) for op in range(1, 40)]
        if host == "node3":
            lines.append(nccl_warn(host, pid, dev, "transport/net_ib.cc:1696",
                                   "NET/IB : Got completion from peer 10.0.0.2<53920> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.4 remoteGids ::ffff:10.0.0.2 hca mlx5_0",
                                   ts="2026-03-03 10:15:02"))
            lines.append(nccl_info(host, pid, dev, "transport/net.cc:1215 -> 6"))
        else:
            lines.append(watchdog(r, 1234))
        files[f"rank{r}.log"] = lines
    write("ib-host-culprit", files, "class=network-ib host=node3")


def oom_killed_rank():
    files = {}
    for r, host, pid, dev in hosts_for(8):
        lines = init_lines(host, pid, dev, r, 8)
        lines += [coll(host, pid, dev, op, 1048576) for op in range(1, 20)]
        if r == 5:
            lines += [
                f"[rank5]: Traceback (most recent call last):",
                f"[rank5]:   File \"/workspace/train.py\", line 211, in <module>",
                f"[rank5]:     loss.backward()",
                f"[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.03 GiB memory in use.",
            ]
        else:
            lines.append(watchdog(r, 20, numel=1048576))
        files[f"rank{r}.log"] = lines
    write("oom-killed-rank", files, "class=oom rank=5")


def missing_collective():
    files = {}
    for r, host, pid, dev in hosts_for(4):
        lines = init_lines(host, pid, dev, r, 4, network="P2P")
        last = 57 if r == 2 else 58
        lines += [coll(host, pid, dev, op, 8192) for op in range(1, last + 1)]
        if r != 2:
            lines.append(watchdog(r, 58, numel=8192))
            lines.append(pg_status(r, 58, 57))
        files[f"rank{r}.log"] = lines
    write("missing-collective", files, "class=timeout-hang rank=2")


def version_skew():
    files = {}
    for r, host, pid, dev in hosts_for(4):
        version = "2.18.3" if host == "node1" else "2.21.5"
        lines = init_lines(host, pid, dev, r, 4, version=version)
        lines.append(f"[rank{r}]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version {version}")
        lines.append(f"[rank{r}]: ncclInternalError: Internal check failed.")
        files[f"rank{r}.log"] = lines
    write("version-skew", files, "class=version-mismatch host=node1")


def socket_fallback():
    files = {}
    for r, host, pid, dev in hosts_for(4):
        lines = [
            nccl_info(host, pid, dev, "NCCL_IB_DISABLE set by environment to 1."),
            nccl_info(host, pid, dev, f"NET/Socket : Using [0]ib0:192.168.10.{r // 2 + 1}<0> [1]eth0:10.0.0.{r // 2 + 1}<0>"),
            nccl_info(host, pid, dev, "Using network Socket"),
            nccl_info(host, pid, dev, f"NCCL version 2.21.5+cuda12.4"),
            nccl_info(host, pid, dev, f"ncclCommInitRank comm 0x55d5c9a3e{r:02d} rank {r} nranks 4 cudaDev {dev} nvmlDev {dev} busId 18000 commId 0x77 - Init COMPLETE"),
            nccl_info(host, pid, dev, f"Channel 00/0 : {r}[{dev}] -> {(r + 1) % 4}[{(r + 1) % 2}] [send] via NET/Socket/0"),
        ]
        files[f"rank{r}.log"] = lines
    write("socket-fallback-ib", files, "class=network-ib")


def shm_container():
    files = {}
    for r, host, pid, dev in hosts_for(2):
        host = "7f3a9c2d1b0e"
        lines = init_lines(host, pid, dev, r, 2, network="P2P")
        if r == 1:
            lines += [
                nccl_warn(host, pid, dev, "misc/shmutils.cc:88", "Error: failed to extend /dev/shm/nccl-WU88OE to 9637892 bytes, error: No space left on device (28)"),
                nccl_warn(host, pid, dev, "misc/shmutils.cc:132", "Error while creating shared memory segment /dev/shm/nccl-WU88OE (size 9637888), error: No space left on device (28)"),
                nccl_info(host, pid, dev, "transport/shm.cc:551 -> 2"),
            ]
        lines.append(f"[rank{r}]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5")
        files[f"rank{r}.log"] = lines
    write("shm-container", files, "class=shm-ipc")


if __name__ == "__main__":
    shutil.rmtree(OUT, ignore_errors=True)
    for fn in (ib_host_culprit, oom_killed_rank, missing_collective, version_skew, socket_fallback, shm_container):
        fn()
# The files under compressed/ (gzip and zstd copies of two scenario logs) and bad/ (a gzip cut
# after 300 bytes, 4 KiB of seeded random bytes) were made once by hand:
#   gzip -c scenarios/oom-killed-rank/rank5.log > compressed/rank5.log.gz
#   zstd -c scenarios/oom-killed-rank/rank2.log > compressed/rank2.log.zst
#   gzip -c scenarios/ib-host-culprit/rank6.log | head -c 300 > bad/truncated.log.gz
