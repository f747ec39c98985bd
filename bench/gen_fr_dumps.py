#!/usr/bin/env python3
"""Writes a large, realistic PyTorch Flight Recorder dump set for bench/fr_vs_python.sh (stdlib only).

The job: RANKS ranks (default 64 = 8 nodes x 8 GPUs) training with TP=8 inside a node, PP=2 and
DP=RANKS/16, each rank's ring buffer full (TORCH_NCCL_TRACE_BUFFER_SIZE=ENTRIES, default 20000) with
the last ENTRIES collectives of a Megatron-style step loop: TP all_reduce in forward and backward,
PP send/recv between stages, DP reduce_scatter + all_gather of the gradient buckets, a default_pg
all_reduce per step. Timing is on (duration_ms, "started"). Every entry carries a Python stack of
~FRAMES frames from a few call paths. At the end rank 37 (or the last rank) never enters the DP
reduce_scatter its DP peers wait in: the dumps show a hang the analysis must name.

Byte layouts (FlightRecorder.hpp, torch/csrc/jit/serialization/pickler.cpp):
  torch  - what torch's C++ Pickler writes (the real dump files): PROTO 2, EMPTY_DICT MARK ...
           SETITEMS, EMPTY_LIST MARK ... APPENDS, TUPLE2, strings memoised by value (BINUNICODE +
           BINPUT, BINGET when repeated), every container memoised after it is complete (BINPUT /
           LONG_BINPUT), frame dicts shared between entries (LONG_BINGET), BININT1/2/BININT/LONG1-8.
  python - the same dicts through pickle.dumps (protocol 4: FRAME, MEMOIZE, SHORT_BINUNICODE).
  json   - what dump_json writes: no frames, pg_status numbers as strings, unset times 0.

Usage: gen_fr_dumps.py OUTDIR [--ranks N] [--entries N] [--frames N] [--layout torch|python|json]
                              [--version 2.10|2.4] [--only RANK]
Files are OUTDIR/nccl_trace_rank_<r> (--only: that rank's file alone, as bench/fr_memory.sh
measures one large dump). Output is deterministic.
"""
import argparse
import json
import os
import pickle
import random
import struct

T0 = 1_764_480_000_000_000_000  # ns, 2025-11-30


# ------------------------------------------------------------- torch C++ Pickler byte layout
class TorchPickler:
    """torch::jit::Pickler with tag_aggregates=false, as FlightRecorder::dump() runs it."""

    def __init__(self):
        self.out = bytearray(b"\x80\x02")
        self.strings = {}  # str -> memo index (memoized_strings_map_)
        self.objs = {}     # id(container) -> memo index (memoized_ivalue_map_, shared frames)
        self.next = 0

    def _put(self):
        idx = self.next
        self.next += 1
        self.out += (b"q" + bytes((idx,))) if idx < 256 else (b"r" + struct.pack("<I", idx))
        return idx

    def _get(self, idx):
        self.out += (b"h" + bytes((idx,))) if idx < 256 else (b"j" + struct.pack("<I", idx))

    def value(self, v, top=False):
        out = self.out
        t = type(v)
        if t is str:
            idx = self.strings.get(v)
            if idx is not None:
                self._get(idx)
            else:
                b = v.encode()
                out += b"X" + struct.pack("<I", len(b)) + b
                self.strings[v] = self._put()
        elif t is int:
            if 0 <= v < 256:
                out += b"K" + bytes((v,))
            elif 256 <= v < 65536:
                out += b"M" + struct.pack("<H", v)
            elif -(2**31) <= v < 2**31:
                out += b"J" + struct.pack("<i", v)
            else:
                out += b"\x8a\x08" + struct.pack("<q", v)
        elif t is bool:
            out += b"\x88" if v else b"\x89"
        elif v is None:
            out += b"N"
        elif t is float:
            out += b"G" + struct.pack(">d", v)
        elif t is tuple:
            for x in v:
                self.value(x)
            out += {1: b"\x85", 2: b"\x86", 3: b"\x87"}[len(v)]
            self._put()
        elif t is list:
            out += b"]("
            for x in v:
                self.value(x)
            out += b"e"
            self._put()
        elif t is dict:
            idx = self.objs.get(id(v))
            if idx is not None:
                self._get(idx)
                return
            out += b"}("
            for k, x in v.items():
                self.value(k)
                self.value(x)
            out += b"u"
            if not top:
                self.objs[id(v)] = self._put()
        else:
            raise TypeError(t)

    def dumps(self, v):
        self.value(v, top=True)
        self.out += b"."
        return bytes(self.out)


# ------------------------------------------------------------- the job
def call_paths(depth, rng):
    """A few Python stacks (lists of shared frame dicts), innermost first, as torch symbolizes them."""
    def frame(name, filename, line):
        return {"name": name, "filename": filename, "line": line}

    outer = [
        frame("<module>", "/workspace/Megatron-LM/pretrain_gpt.py", 290),
        frame("pretrain", "/workspace/Megatron-LM/megatron/training/training.py", 386),
        frame("train", "/workspace/Megatron-LM/megatron/training/training.py", 1389),
        frame("train_step", "/workspace/Megatron-LM/megatron/training/training.py", 754),
        frame("forward_backward_pipelining_without_interleaving",
              "/workspace/Megatron-LM/megatron/core/pipeline_parallel/schedules.py", 1687),
    ]
    heads = {
        "tp_fwd": [frame("all_reduce", "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", 2806),
                   frame("wrapper", "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py", 81),
                   frame("_reduce", "/workspace/Megatron-LM/megatron/core/tensor_parallel/mappings.py", 31),
                   frame("forward", "/workspace/Megatron-LM/megatron/core/tensor_parallel/mappings.py", 232),
                   frame("apply", "/usr/lib/python3/dist-packages/torch/autograd/function.py", 575),
                   frame("forward", "/workspace/Megatron-LM/megatron/core/tensor_parallel/layers.py", 1024),
                   frame("_call_impl", "/usr/lib/python3/dist-packages/torch/nn/modules/module.py", 1762)],
        "tp_bwd": [frame("all_reduce", "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", 2806),
                   frame("wrapper", "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py", 81),
                   frame("_reduce", "/workspace/Megatron-LM/megatron/core/tensor_parallel/mappings.py", 31),
                   frame("backward", "/workspace/Megatron-LM/megatron/core/tensor_parallel/mappings.py", 217),
                   frame("apply", "/usr/lib/python3/dist-packages/torch/autograd/function.py", 307),
                   frame("backward", "/usr/lib/python3/dist-packages/torch/_tensor.py", 648)],
        "pp": [frame("_batch_p2p", "/workspace/Megatron-LM/megatron/core/pipeline_parallel/p2p_communication.py", 157),
               frame("_communicate", "/workspace/Megatron-LM/megatron/core/pipeline_parallel/p2p_communication.py", 385),
               frame("send_forward_recv_backward",
                     "/workspace/Megatron-LM/megatron/core/pipeline_parallel/p2p_communication.py", 536)],
        "dp_rs": [frame("reduce_scatter_tensor", "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", 4385),
                  frame("wrapper", "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py", 81),
                  frame("start_grad_sync", "/workspace/Megatron-LM/megatron/core/distributed/param_and_grad_buffer.py", 412),
                  frame("finish_grad_sync", "/workspace/Megatron-LM/megatron/core/distributed/distributed_data_parallel.py", 438)],
        "dp_ag": [frame("all_gather_into_tensor", "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", 3788),
                  frame("wrapper", "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py", 81),
                  frame("start_param_sync", "/workspace/Megatron-LM/megatron/core/distributed/param_and_grad_buffer.py", 335),
                  frame("step", "/workspace/Megatron-LM/megatron/core/optimizer/distrib_optimizer.py", 1934)],
        "world": [frame("all_reduce", "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", 2806),
                  frame("wrapper", "/usr/lib/python3/dist-packages/torch/distributed/c10d_logger.py", 81),
                  frame("reduce_max_stat_across_model_parallel_group",
                        "/workspace/Megatron-LM/megatron/core/optimizer/optimizer.py", 110)],
    }
    # Layers in between (transformer blocks, hooks) pad every stack to about `depth` frames.
    filler = [frame(f"forward_{i}", f"/workspace/Megatron-LM/megatron/core/transformer/layer_{i % 7}.py", 100 + i)
              for i in range(64)]
    paths = {}
    for k, head in heads.items():
        n = max(0, depth - len(head) - len(outer))
        paths[k] = head + rng.sample(filler, n) + outer
    return paths


def schedule(entries_needed):
    """The per-step sequence of (kind, group role, op) every rank enqueues, repeated."""
    step = []
    for mb in range(4):  # micro-batches
        step += [("tp_fwd", "tp", "all_reduce")] * 6
        step += [("pp", "pp", "send"), ("pp", "pp", "recv")]
        step += [("tp_bwd", "tp", "all_reduce")] * 6
        step += [("pp", "pp", "recv"), ("pp", "pp", "send")]
    step += [("dp_rs", "dp", "reduce_scatter")] * 3 + [("world", "world", "all_reduce")]
    step += [("dp_ag", "dp", "_all_gather_base")] * 3
    reps = entries_needed // len(step) + 2
    return step * reps


def build_rank(rank, world, args, paths, ops):
    tp, pp = 8, 2
    dp = world // (tp * pp)
    node, local = divmod(rank, tp)
    stage = (rank // tp) % pp
    dp_idx = rank // (tp * pp)
    # Group names as torch numbers them: "0" is the world; then TP, PP, DP groups.
    tp_group = str(1 + node)
    pp_group = str(1 + world // tp + (dp_idx * tp + local))
    dp_group = str(1 + world // tp + world // pp + (stage * tp + local))
    groups = {"world": ("0", "default_pg", list(range(world))),
              "tp": (tp_group, "TENSOR_MODEL_PARALLEL_GROUP", [node * tp + i for i in range(tp)]),
              "pp": (pp_group, "PIPELINE_MODEL_PARALLEL_GROUP",
                     [dp_idx * tp * pp + s * tp + local for s in range(pp)]),
              "dp": (dp_group, "DATA_PARALLEL_GROUP",
                     [d * tp * pp + stage * tp + local for d in range(dp)])}
    pg_ids = {"world": 0, "tp": 1, "pp": 2, "dp": 3}
    culprit = 37 if world > 37 else world - 1
    n = args.entries
    # The job stops in the last DP reduce_scatter of the schedule.
    stop = len(ops) - 1
    while ops[stop][2] != "reduce_scatter":
        stop -= 1
    first = stop + 1 - n
    seq = {k: 0 for k in groups}
    p2p = {k: 0 for k in groups}
    for kind, role, op in ops[:first]:
        if op in ("send", "recv"):
            p2p[role] += 1
        else:
            seq[role] += 1
    record0 = 900_000 + first
    entries = []
    is_culprit = rank == culprit
    last = stop if not is_culprit else stop - 1
    for i in range(first, last + 1):
        kind, role, op = ops[i]
        name, desc, members = groups[role]
        p2p_op = op in ("send", "recv")
        if p2p_op:
            p2p[role] += 1
            peer = members[(members.index(rank) + (1 if op == "send" else -1)) % len(members)]
            prof = f"nccl:{op} {rank}->{peer}" if op == "send" else f"nccl:{op} {rank}<-{peer}"
            sizes = [[4, 4096, 8192]]
        else:
            seq[role] += 1
            prof = "nccl:" + op
            sizes = {"tp": [[4, 4096, 8192]], "dp": [[268435456]], "world": [[1]]}[role]
        out_sizes = sizes
        if op == "reduce_scatter":
            out_sizes = [[sizes[0][0] // len(members)]]
        elif op == "_all_gather_base":
            out_sizes, sizes = sizes, [[sizes[0][0] // len(members)]]
        dtype = "Float" if role in ("dp", "world") else "BFloat16"
        t = T0 + i * 1_500_000 + rank * 977
        state = "started" if i == stop else "completed"
        e = {}
        e["record_id"] = record0 + (i - first)
        e["pg_id"] = pg_ids[role]
        e["process_group"] = (name, desc)
        e["collective_seq_id"] = seq[role]
        e["p2p_seq_id"] = p2p[role]
        e["op_id"] = seq[role] + p2p[role]
        e["profiling_name"] = prof
        e["time_created_ns"] = t
        if state == "completed":
            e["duration_ms"] = 0.125 + (i % 13) * 0.0625
        e["input_sizes"] = sizes
        e["input_dtypes"] = [dtype] * len(sizes)
        e["output_sizes"] = out_sizes
        e["output_dtypes"] = [dtype] * len(out_sizes)
        e["state"] = state
        e["time_discovered_started_ns"] = t + 400_000
        e["time_discovered_completed_ns"] = t + 1_200_000 if state == "completed" else None
        e["retired"] = state == "completed"
        e["timeout_ms"] = 600_000
        e["is_p2p"] = p2p_op
        if args.version == "2.10":
            e["thread_name"] = "pt_main_thread"
            e["thread_id"] = "140245839386432"
        if args.frames > 0:
            e["frames"] = list(paths[kind])  # a list per entry, the frame dicts shared
        entries.append(e)
    pg_config = {}
    pg_status = {}
    for role in ("world", "tp", "pp", "dp"):
        name, desc, members = groups[role]
        pg_config[name] = {"name": name, "desc": desc, "ranks": str(members)}
        done = seq[role] - (1 if role == "dp" and not is_culprit else 0)
        pg_status[str(pg_ids[role])] = {"last_enqueued_collective": seq[role],
                                        "last_started_collective": seq[role],
                                        "last_completed_collective": done}
    d = {"version": args.version, "pg_config": pg_config}
    if args.version == "2.10":
        d["comm_lib_version"] = "2.27.5"
    d["pg_status"] = pg_status
    d["entries"] = entries
    return d


def to_json_form(d):
    """dump_json: pg_status numbers as strings, unset times 0, no frames."""
    j = dict(d)
    j["pg_status"] = {k: {kk: str(vv) for kk, vv in v.items()} for k, v in d["pg_status"].items()}
    es = []
    for e in d["entries"]:
        e = {k: v for k, v in e.items() if k != "frames"}
        e["process_group"] = list(e["process_group"])
        for k in ("time_discovered_started_ns", "time_discovered_completed_ns"):
            if e[k] is None:
                e[k] = 0
        es.append(e)
    j["entries"] = es
    return j


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--entries", type=int, default=20000)
    ap.add_argument("--frames", type=int, default=24)
    ap.add_argument("--layout", choices=("torch", "python", "json"), default="torch")
    ap.add_argument("--version", choices=("2.10", "2.4"), default="2.10")
    ap.add_argument("--only", type=int, default=None, metavar="RANK")
    args = ap.parse_args()
    if args.ranks % 16:
        ap.error("--ranks must be a multiple of 16 (TP=8 x PP=2)")
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(42)
    paths = call_paths(args.frames, rng)
    ops = schedule(args.entries)
    total = 0
    for rank in range(args.ranks) if args.only is None else [args.only]:
        d = build_rank(rank, args.ranks, args, paths, ops)
        if args.layout == "torch":
            data = TorchPickler().dumps(d)
        elif args.layout == "python":
            data = pickle.dumps(d, protocol=4)
        else:
            data = json.dumps(to_json_form(d)).encode()
        with open(os.path.join(args.outdir, f"nccl_trace_rank_{rank}"), "wb") as f:
            f.write(data)
        total += len(data)
    if args.only is not None:
        print(f"rank {args.only} of {args.ranks} x {args.entries} entries, layout {args.layout}: {total} bytes")
        return
    print(f"{args.ranks} ranks x {args.entries} entries, layout {args.layout}: {total} bytes in {args.outdir}")


if __name__ == "__main__":
    main()
