#!/usr/bin/env python3
"""Generates the Flight Recorder test fixtures under tests/data/fr/.

Every dump has the structure PyTorch writes (../shared/data/flight_recorder/SCHEMA.md and
pytorch/pytorch torch/csrc/distributed/c10d/FlightRecorder.hpp): one file per rank named <prefix><rank>, a top-level dict with
version, pg_config, pg_status and entries. Two writers are used:
  * torch_pickle(): the byte layout of torch's C++ Pickler (abi.md §6.1: PROTO 2, EMPTY_DICT MARK
    ... SETITEMS with the top-level dict not memoised, BINUNICODE + BINPUT strings reused through
    BINGET, BININT1/BININT2/BININT/LONG1-8-bytes ints, TUPLE2, shared frame dicts memoised);
  * Python's pickle.dumps at protocols 0-5 (a dump re-saved by a user script).
The JSON form follows dump_json: pg_status numbers as strings, unset times 0, no frames.
Run from anywhere: python3 tests/data/fr/make_fixtures.py. Output is deterministic.
"""
import ast
import json
import os
import pickle
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1724779239936775119  # time_created_ns of the tutorial example
PWNED = "/tmp/ncdx_fr_pwned"  # what the malicious pickles would create if they were executed


# ---------------------------------------------------------------- torch C++ Pickler byte layout
class TorchPickler:
    def __init__(self):
        self.out = bytearray(b"\x80\x02")
        self.memo = {}  # key -> memo index
        self.next = 0

    def _put(self, key):
        idx = self.next
        self.next += 1
        self.memo[key] = idx
        self.out += b"q" + bytes([idx]) if idx < 256 else b"r" + struct.pack("<I", idx)

    def _get(self, idx):
        self.out += b"h" + bytes([idx]) if idx < 256 else b"j" + struct.pack("<I", idx)

    def value(self, v, top=False):
        if v is None:
            self.out += b"N"
        elif v is True or v is False:
            self.out += b"\x88" if v else b"\x89"
        elif isinstance(v, int):
            if 0 <= v <= 255:
                self.out += b"K" + bytes([v])
            elif 256 <= v <= 65535:
                self.out += b"M" + struct.pack("<H", v)
            elif -(2**31) <= v < 2**31:
                self.out += b"J" + struct.pack("<i", v)
            else:
                self.out += b"\x8a\x08" + struct.pack("<q", v)
        elif isinstance(v, float):
            self.out += b"G" + struct.pack(">d", v)
        elif isinstance(v, str):
            key = ("s", v)
            if key in self.memo:
                self._get(self.memo[key])
            else:
                b = v.encode("utf-8")
                self.out += b"X" + struct.pack("<I", len(b)) + b
                self._put(key)
        elif isinstance(v, tuple):
            for x in v:
                self.value(x)
            self.out += {1: b"\x85", 2: b"\x86", 3: b"\x87"}[len(v)]
        elif isinstance(v, list):
            self.out += b"]("
            for x in v:
                self.value(x)
            self.out += b"e"
        elif isinstance(v, dict):
            key = ("d", id(v))
            if key in self.memo:
                self._get(self.memo[key])
                return
            self.out += b"}("
            for k, x in v.items():
                self.value(k)
                self.value(x)
            self.out += b"u"
            if not top and "filename" in v:
                self._put(key)  # frame dicts are shared between entries
        else:
            raise TypeError(type(v))

    def dumps(self, v):
        self.value(v, top=True)
        self.out += b"."
        return bytes(self.out)


def torch_pickle(obj):
    return TorchPickler().dumps(obj)


# ---------------------------------------------------------------- FR-shaped dumps
FRAMES = {
    "train": {"name": "train_step", "filename": "/workspace/train.py", "line": 212},
    "loop": {"name": "main", "filename": "/workspace/train.py", "line": 301},
    "ar": {"name": "all_reduce", "filename": "torch/distributed/distributed_c10d.py", "line": 2707},
    "wrap": {"name": "wrapper", "filename": "torch/distributed/c10d_logger.py", "line": 81},
    "ag": {"name": "all_gather_into_tensor", "filename": "torch/distributed/distributed_c10d.py", "line": 3712},
}


def frames_for(op):
    head = FRAMES["ag"] if "gather" in op else FRAMES["ar"]
    return [head, FRAMES["wrap"], FRAMES["train"], FRAMES["loop"]]


def entry(version, record_id, pg, seq, op, sizes, dtype, state, t, pg_id=0, out_sizes=None,
          frames=True, timing=True, p2p_seq=0):
    e = {}
    if frames:
        e["frames"] = frames_for(op)
    e["record_id"] = record_id
    e["pg_id"] = pg_id
    e["process_group"] = pg
    if version == "2.10":
        e["thread_name"] = "pt_main_thread"
        e["thread_id"] = "140245839386432"
    e["collective_seq_id"] = seq
    e["p2p_seq_id"] = p2p_seq
    e["op_id"] = seq
    e["profiling_name"] = "nccl:" + op
    e["time_created_ns"] = t
    if timing and state == "completed":
        e["duration_ms"] = 0.25 + (seq % 7) * 0.125
    e["input_sizes"] = sizes
    e["input_dtypes"] = [dtype] * len(sizes)
    e["output_sizes"] = out_sizes if out_sizes is not None else sizes
    e["output_dtypes"] = [dtype] * len(e["output_sizes"])
    e["state"] = state
    e["time_discovered_started_ns"] = t + 900_000 if state in ("started", "completed") and timing else None
    e["time_discovered_completed_ns"] = t + 5_000_000 if state == "completed" else None
    e["retired"] = state == "completed"
    e["timeout_ms"] = 600000
    e["is_p2p"] = False
    return e


def dump(version, pg_config, pg_status, entries, comm_lib="2.21.5"):
    d = {"version": version, "pg_config": pg_config}
    if version == "2.10":
        d["comm_lib_version"] = comm_lib
    d["pg_status"] = pg_status
    d["entries"] = entries
    return d


def pg_cfg(*groups):
    return {name: {"name": name, "desc": desc, "ranks": str(ranks)} for name, desc, ranks in groups}


def status(enq, started, done):
    return {"last_enqueued_collective": enq, "last_started_collective": started,
            "last_completed_collective": done}


def default_op(seq):
    return "_all_gather_base" if seq % 5 == 0 else ("broadcast" if seq == 1 else "all_reduce")


def op_sizes(op, seq):
    if op == "_all_gather_base":
        return [[4096]], [[16384]]
    return [[1024, 256 + seq]], None


def collective_run(version, rank, first_seq, last_seq, stuck=None, frames=True, pg=("0", "default_pg"),
                   pg_id=0, record_base=0, overrides=None):
    """Entries for seqs first..last (completed) plus an optional stuck seq {seq: state}."""
    entries = []
    rid = record_base + first_seq - 1
    for seq in range(first_seq, last_seq + 1):
        op = default_op(seq)
        ins, outs = op_sizes(op, seq)
        state = "completed"
        if stuck and seq in stuck:
            state = stuck[seq]
        kw = dict(out_sizes=outs, frames=frames, pg_id=pg_id)
        dtype = "Float"
        if overrides and (rank, seq) in overrides:
            o = overrides[(rank, seq)]
            op = o.get("op", op)
            ins = o.get("sizes", ins)
            kw["out_sizes"] = o.get("out_sizes", kw["out_sizes"])
            dtype = o.get("dtype", dtype)
        entries.append(entry(version, rid, pg, seq, op, ins, dtype, state,
                             T0 + seq * 10_000_000 + rank * 1000, **kw))
        rid += 1
    return entries


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- scenarios
def hang_rank2():
    """4 ranks; rank 2 never enters all_reduce seq 17 of the default group (others started or
    scheduled). Rank 1's ring buffer was overwritten up to seq 4. Two 2-rank TP groups are clean."""
    v = "2.10"
    dumps = {}
    states = {0: "started", 1: "scheduled", 3: "started"}
    for r in range(4):
        first = 5 if r == 1 else 1
        last = 16 if r == 2 else 17
        stuck = None if r == 2 else {17: states[r]}
        es = collective_run(v, r, first, last, stuck)
        tp_name, tp_ranks = ("1", [0, 1]) if r < 2 else ("2", [2, 3])
        tp = (tp_name, "TENSOR_MODEL_PARALLEL_GROUP")
        for seq in (1, 2):
            es.insert(seq * 3, entry(v, 0, tp, seq, "all_reduce", [[512]], "BFloat16", "completed",
                                     T0 + seq * 10_000_000 + 5_000_000, pg_id=int(tp_name)))
        for i, e in enumerate(es):
            e["record_id"] = (4 if r == 1 else 0) + i + 100
        cfg = pg_cfg(("0", "default_pg", [0, 1, 2, 3]), (tp_name, tp[1], tp_ranks))
        st = {"0": status(last, last, 16), tp_name: status(2, 2, 2)}
        dumps[r] = dump(v, cfg, st, es)
    return dumps


def to_json_form(d):
    """What dump_json writes for the same state (SCHEMA.md, abi.md §6.1)."""
    j = {k: v for k, v in d.items() if k != "entries"}
    j["pg_status"] = {pg: {k: str(x) for k, x in s.items()} for pg, s in d["pg_status"].items()}
    j["entries"] = []
    for e in d["entries"]:
        e = {k: v for k, v in e.items() if k != "frames"}
        e["process_group"] = list(e["process_group"])
        for k in ("time_discovered_started_ns", "time_discovered_completed_ns"):
            if e[k] is None:
                e[k] = 0
        j["entries"].append(e)
    return j


def mismatch(version, last, overrides, stuck_state):
    cfg = pg_cfg(("0", "default_pg", [0, 1, 2, 3]))
    dumps = {}
    for r in range(4):
        es = collective_run(version, r, 1, last, {last: stuck_state}, overrides=overrides,
                            frames=version != "2.4")
        dumps[r] = dump(version, cfg, {"0": status(last, last, last - 1)}, es)
    return dumps


def clean():
    v = "2.10"
    cfg = pg_cfg(("0", "default_pg", [0, 1, 2, 3]))
    return {r: dump(v, cfg, {"0": status(8, 8, 8)}, collective_run(v, r, 1, 8)) for r in range(4)}


def p2p_hang():
    """Pipeline sends on default_pg after 5 clean collectives: rank 0's send 0->1 (p2p seq 4) waits
    while rank 1 never posted the recv; ranks 2 and 3 have a matching send/recv pair both pending."""
    v = "2.10"
    cfg = pg_cfg(("0", "default_pg", [0, 1, 2, 3]))
    dumps = {}
    for r in range(4):
        es = collective_run(v, r, 1, 5)
        peer = {0: 1, 1: 0, 2: 3, 3: 2}[r]
        sender = r in (0, 2)
        last = 3 if r == 1 else 4
        for k in range(1, last + 1):
            name = f"send {r}->{peer}" if sender else f"recv {r}<-{peer}"
            state = "completed" if k < 4 else "started"
            e = entry(v, 0, ("0", "default_pg"), 5, name, [[4096]], "Float", state,
                      T0 + (10 + k) * 10_000_000 + r, p2p_seq=k)
            e["is_p2p"] = True
            es.append(e)
        for i, e in enumerate(es):
            e["record_id"] = i
        dumps[r] = dump(v, cfg, {"0": status(5, 5, 5)}, es)
    return dumps


def pr140969():
    """The state behind the real fr_trace report of pytorch/pytorch PR #140969
    (pytorch_pr140969_fr_trace_output.txt): 8 ranks, default_pg; ranks 0-2 enqueued all_reduce
    seq 31117 (record id 31116, input [[1571911]], state scheduled) from sync_buffers; ranks 3-7
    never did. Only the last 16 entries of each ring buffer are kept."""
    v = "2.4"
    cfg = pg_cfg(("0", "default_pg", list(range(8))))
    stack = [{"name": "all_reduce", "line": 2707,
              "filename": "/packages/fblearner.flow.canary/workflow#link-tree/torch/distributed/distributed_c10d.py"},
             {"name": "wrapper", "line": 81,
              "filename": "/packages/fblearner.flow.canary/workflow#link-tree/torch/distributed/c10d_logger.py"},
             {"name": "sync_buffers", "line": 650,
              "filename": "/packages/fblearner.flow.canary/workflow#link-tree/xri_mapsr/neural_fields/models/gaussian_splatting.py"}]
    dumps = {}
    for r in range(8):
        last = 31117 if r < 3 else 31116
        es = []
        for seq in range(last - 15, last + 1):
            state = "scheduled" if seq == 31117 else "completed"
            e = entry(v, seq - 1, ("0", "default_pg"), seq, "all_reduce", [[1571911]], "Float", state,
                      T0 + seq * 1_000_000 + r, frames=False, timing=False)
            e["frames"] = stack
            es.append({"frames": e.pop("frames"), **e})
        dumps[r] = dump(v, cfg, {"0": status(last, -1, 31116)}, es)
    return dumps


def tutorial_example():
    """The tutorial's example dump (format 2.3) with its '...' elisions removed."""
    with open(os.path.join(HERE, "pytorch_tutorials_flight_recorder_dump_example.txt")) as f:
        text = f.read()
    lines = [ln for ln in text.splitlines() if ln.strip() not in ("...", "...,")]
    text = "\n".join(ln.replace("...]", "]") for ln in lines)
    text = text.replace("null", "None").replace("true", "True").replace("false", "False")
    return ast.literal_eval(text)


def weird_data(protocol):
    """Every data opcode family the reader accepts, for the Python oracle. bytes need protocol 3,
    sets 4 and bytearray 5 to be written without REDUCE (which the reader refuses)."""
    shared = [1, 2, 3]
    d = {
        "ints": [0, 1, 255, 256, 65535, 65536, -1, -129, 2**31 - 1, -(2**31), 2**31, -(2**31) - 1,
                 2**62, 2**63 - 1, -(2**63), 2**63, 2**64 - 1],
        "floats": [0.0, -0.0, 1.5, -2.25e-300, 1e300, 0.1],
        "text": ["", "ascii", "caf\u00e9", "\u4e2d\u6587", "\U0001f680 rocket", "tab\tnew\nline \\ back \r\x1a\x00"],
        "nested": {"a": {"b": {"c": [[], (), {}, [[[[1]]]]]}}},
        "shared": [shared, shared, (shared, shared)],
        "keys": {1: "int", -5: "neg", 1.5: "float", True: "bool", None: "none"},
        "tuples": [(1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), ()],
        "flags": [True, False, None],
        "long_list": list(range(1200)),
        "long_text": "x" * 70000,
        "many_strings": [f"s{i}" for i in range(300)] * 2,  # memo > 255: LONG_BINPUT/LONG_BINGET
    }
    if protocol >= 3:
        d["bytes"] = [b"", b"\x00\xff raw", b"y" * 300]
        d["keys"][b"k"] = "bytes"
    if protocol >= 4:
        d["sets"] = [{1, 2, 3}, frozenset({5, 6}), set()]
    if protocol >= 5:
        d["bytearray"] = bytearray(b"ba")
    return d


# Tiny hand-written pickles for opcodes pickle.dumps no longer writes (Python 2 strings, LONG4,
# POP/POP_MARK/DUP, the 8-byte-length forms, protocol 0 PUT/GET, torch's empty-dict SETITEMS).
HANDMADE = {
    "hand_py2_strings.pkl": b"(S'abc\\n\\x41\\101'\nT\x03\x00\x00\x00defU\x03ghil.",
    "hand_long4.pkl": b"\x80\x02\x8b\x02\x00\x00\x00\x01\x82.",
    "hand_pop_dup.pkl": b"\x80\x02K\x01K\x020(K\x03K\x041K\x052\x87.",
    "hand_8byte_lengths.pkl": b"\x80\x04\x8d\x02\x00\x00\x00\x00\x00\x00\x00hi"
                              b"\x8e\x01\x00\x00\x00\x00\x00\x00\x00\xff\x86.",
    "hand_binbytes.pkl": b"\x80\x03B\x03\x00\x00\x00abc.",
    "hand_put_get_p0.pkl": b"(I7\np0\ng0\nl.",
    "hand_empty_dict_setitems.pkl": b"\x80\x02}(u.",
    "hand_unicode_escape_p0.pkl": b"V\\u00e9t\\u00e9 \\U0001f600 \\u005c\n.",
}


MALICIOUS = {
    # protocol 0: GLOBAL os.system, MARK, STRING, TUPLE, REDUCE
    "global_system.pkl": b"cos\nsystem\n(S'touch " + PWNED.encode() + b"'\ntR.",
    # protocol 0 INST: builds an object by calling the class
    "inst.pkl": b"(S'touch " + PWNED.encode() + b"'\nios\nsystem\n.",
    "persid.pkl": b"Pfoo\n.",
    "binpersid.pkl": b"\x80\x02X\x03\x00\x00\x00fooQ.",
    "ext1.pkl": b"\x80\x02\x82\x01.",
    "build.pkl": b"\x80\x02}(X\x01\x00\x00\x00aK\x01u}b.",
    "newobj.pkl": b"\x80\x02)K\x01\x81.",
    "obj.pkl": b"(K\x01o.",
    "next_buffer.pkl": b"\x80\x05\x97.",
}


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch " + PWNED,))


def malicious():
    out = dict(MALICIOUS)
    # Protocol 4 STACK_GLOBAL + REDUCE, as pickle.dumps writes for an object with __reduce__.
    out["stack_global_reduce.pkl"] = pickle.dumps(_Evil(), protocol=4)
    # The same, hidden inside an otherwise valid FR dump (refused mid-stream, at a later offset).
    d = clean()[0]
    d["entries"][3]["frames"] = _Evil()
    out["fr_dump_with_reduce.pkl"] = pickle.dumps(d, protocol=2)
    return out


def main():
    for sub in ("hang_rank2", "hang_rank2_json", "missing_dump", "size_mismatch", "dtype_mismatch",
                "op_mismatch", "p2p_hang", "pr140969", "clean", "hostnames", "protocols", "malicious", "truncated", "single"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
    hang = hang_rank2()
    for r, d in hang.items():
        write(f"{HERE}/hang_rank2/nccl_trace_rank_{r}", torch_pickle(d))
        write(f"{HERE}/hang_rank2_json/nccl_trace_rank_{r}", json.dumps(to_json_form(d), indent=1).encode())
        if r != 2:
            write(f"{HERE}/missing_dump/nccl_trace_rank_{r}", torch_pickle(d))
    size = mismatch("2.4", 9, {(1, 9): {"sizes": [[1024, 512]]}}, "started")
    dtype = mismatch("2.10", 5, {(3, 5): {"dtype": "BFloat16"}}, "scheduled")
    opmm = mismatch("2.10", 12, {(3, 12): {"op": "broadcast"}}, "started")
    for r in range(4):
        write(f"{HERE}/size_mismatch/nccl_trace_rank_{r}", pickle.dumps(size[r], protocol=2))
        write(f"{HERE}/dtype_mismatch/nccl_trace_rank_{r}", pickle.dumps(dtype[r], protocol=4))
        write(f"{HERE}/op_mismatch/nccl_trace_rank_{r}", pickle.dumps(opmm[r], protocol=3))
    for r, d in p2p_hang().items():
        write(f"{HERE}/p2p_hang/nccl_trace_rank_{r}", torch_pickle(d))
    for r, d in pr140969().items():
        write(f"{HERE}/pr140969/nccl_trace_rank_{r}", torch_pickle(d))
    cl = clean()
    hosts = ["container-node01_0", "container-node01_1", "container-node02_2", "container-node02_3"]
    for r in range(4):
        write(f"{HERE}/clean/nccl_trace_rank_{r}", pickle.dumps(cl[r], protocol=5))
        write(f"{HERE}/hostnames/nccl_trace_rank_{hosts[r]}", torch_pickle(cl[r]))
    for p in range(6):
        write(f"{HERE}/protocols/clean_rank0_p{p}.pkl", pickle.dumps(cl[0], protocol=p))
        write(f"{HERE}/protocols/weird_p{p}.pkl", pickle.dumps(weird_data(p), protocol=p))
    for name, data in HANDMADE.items():
        write(f"{HERE}/protocols/{name}", data)
    ex = tutorial_example()
    write(f"{HERE}/single/tutorial_example_v2.3.pkl", torch_pickle(ex))
    write(f"{HERE}/single/tutorial_example_v2.3.json", json.dumps(to_json_form(ex), indent=1).encode())
    for name, data in malicious().items():
        write(f"{HERE}/malicious/{name}", data)
    full = torch_pickle(hang[0])
    write(f"{HERE}/truncated/rank0_half.pkl", full[: len(full) // 2])
    write(f"{HERE}/truncated/rank0_no_stop.pkl", full[:-1])
    write(f"{HERE}/truncated/rank0_cut_in_string.pkl", full[:full.index(b"nccl:all_reduce") + 4])


if __name__ == "__main__":
    main()
