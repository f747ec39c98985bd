#!/usr/bin/env python3
"""Writes pasted.jsonl: real public failure reports as their reporters pasted them, with the
artefacts of where the log came from (Ray's coloured prefixes, kubectl/CI timestamps, markdown,
HTML-escaped scrapes, terminal wrapping, CRLF). Message texts: the dev corpus
(tests/data/corpus/failures-dev.jsonl, verbatim excerpts) and the log lines of the verl-project/verl
issues named per case; the artefact is the one named in `artefacts`.
Usage: python3 make_pasted.py  (from this directory)."""
import json, os, re

here = os.path.dirname(os.path.abspath(__file__))
corpus = {}
with open(os.path.join(here, "../../corpus/failures-dev.jsonl")) as f:
    for line in f:
        if line.strip():
            j = json.loads(line)
            corpus[j["id"]] = j

ESC = "\x1b"

def lines(log): return log.split("\n")
def each(log, f): return "\n".join(f(l, i) for i, l in enumerate(lines(log)))
def ray(log, actor, ip=None, lost=False):
    inner = f"{actor}" + (f", ip={ip}" if ip else "")
    o, c = ("[36m", "[0m") if lost else (ESC + "[36m", ESC + "[0m")
    return each(log, lambda l, i: f"{o}({inner}){c} {l}" if l else l)
def fence(log, lang=""): return f"```{lang}\n{log}\n```"
def quote(log): return each(log, lambda l, i: "> " + l)
def crlf(log): return log.replace("\n", "\r\n")
def k8s(log, base="2024-05-01T12:00:"): return each(log, lambda l, i: f"{base}{i // 1000 % 60:02d}.{i % 1000:03d}117862Z {l}")
def gha(log): return each(log, lambda l, i: f"2026-04-22T21:34:{20 + i // 1000:02d}.{i % 1000:03d}0317Z {l}")
def html(log): return log.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
def hard_wrap(log, w):
    out = []
    for l in lines(log):
        while len(l) > w:
            out.append(l[:w]); l = l[w:]
        out.append(l)
    return "\n".join(out)
def word_wrap(log, w):
    out = []
    for l in lines(log):
        while len(l) > w and l.rfind(" ", 0, w) > w // 2:
            k = l.rfind(" ", 0, w); out.append(l[:k]); l = l[k + 1:]
        out.append(l)
    return "\n".join(out)
def trailing(log): return each(log, lambda l, i: l + "  " if l else l)
def compose(log, svc): return each(log, lambda l, i: f"{svc}  | {l}")
def indent(log, n=4): return each(log, lambda l, i: " " * n + l)
def tqdm(prefix=""):
    bars = [f" {p:3d}%|{'█' * (p // 10)}{' ' * (10 - p // 10)}| {p // 10}/10 [00:0{p // 20}<00:0{5 - p // 20}]" for p in (10, 40, 70, 100)]
    return prefix + "\r".join(bars)

cases = []
def add(id, source, title, log, label, root_cause, fix, artefacts, env=None):
    c = {"id": id, "source": source, "title": title}
    if env: c["env"] = env
    c.update({"log": log, "label_class": label, "root_cause": root_cause, "fix": fix, "artefacts": artefacts})
    cases.append(c)

def from_corpus(cid, f, artefacts, suffix):
    j = corpus[cid]
    add(f"paste-{cid}-{suffix}", j["source"], j.get("title", ""), f(j["log"]), j["label_class"], j["root_cause"],
        j.get("fix", ""), artefacts)

# --- verl-project/verl issues, Ray's coloured worker prefixes ----------------------------------
W597 = ("[rank1]:[E314 14:33:45.172185860 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.\n"
        "[rank1]:[E314 14:33:45.172398442 ProcessGroupNCCL.cpp:1664] [PG 0 (default_pg) Rank 1] Exception (either an error or timeout) "
        "detected by watchdog at work: 1, last enqueued NCCL work: 1, last completed NCCL work: -1.")
add("paste-verl-597", "volcengine/verl#597", "Stuck after logging NCCL version, before logging model size",
    fence(ray("NCCL version 2.21.5+cuda12.4\n" + W597, "WorkerDict pid=231421", lost=True)), "timeout-hang",
    "The first collective (SeqNum=1, last completed -1) never completed on a Slurm cluster; the thread is open, the class is what the log shows (verl.md §4 INFERENCE).",
    "Check the transport/bootstrap between the nodes (NCCL_DEBUG=INFO), not the timeout.", ["ray colour with ESC lost", "code fence"])
add("paste-verl-108", "volcengine/verl#108", "nccl error when using multi node training",
    quote("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2615, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
          "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
          "Last error:\n"
          "[Service thread] Error encountered progressing operation=Connect, res=3, closing connection"),
    "network-socket", "NCCL's proxy could not connect to the peer node at torch.distributed.barrier() (verl.md §4: INFERENCE, thread closed without a visible resolution).",
    "Set NCCL_SOCKET_IFNAME to the interface that reaches the other nodes; check the firewall.", ["blockquote"])
add("paste-verl-726", "volcengine/verl#726", "multi-node training nccl issue. socketStartConnect: Connect to 169.254.0.1<40815> failed : Software caused connection abort",
    ray("gpu-node-2:2811:3120 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 169.254.0.1<40815> failed : Software caused connection abort\n"
        "gpu-node-2:2811:3120 [0] NCCL INFO misc/socket.cc:565 -> 2\n"
        "gpu-node-2:2811:3120 [0] NCCL INFO bootstrap.cc:270 -> 2", "WorkerDict pid=2811", ip="xxx.xxx.xxx.xxx"),
    "network-socket", "NCCL picked a link-local (169.254.x.x) interface to reach the other node (verl.md §4 INFERENCE).",
    "Set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the routable interface.", ["ray colour", "redacted ip"])
add("paste-verl-161", "volcengine/verl#161", "Duplicate GPU detected: rank 1 and rank 0 both on CUDA device 10",
    crlf(trailing("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\n"
                  "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                  "Last error:\n"
                  "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10")),
    "config-invalid", "Two ranks were given the same GPU; maintainer: related to the Ray version (upgrade ray to 2.40).",
    "Upgrade Ray; make each worker see only its own GPU.", ["CRLF", "trailing spaces"])
add("paste-verl-1096", "volcengine/verl#1096", "Duplicate GPU detected : rank 9 and rank 1 both on CUDA device 34000",
    ray("[rank9]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5\n"
        "[rank9]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
        "[rank9]: Last error:\n"
        "[rank9]: Duplicate GPU detected : rank 9 and rank 1 both on CUDA device 34000", "WorkerDict pid=40122", ip="10.0.1.12"),
    "config-invalid", "Two ranks on one GPU under Ray (verl.md §4; see #589/PR #590 on CUDA_VISIBLE_DEVICES for Ray actors).",
    "Let Ray set CUDA_VISIBLE_DEVICES per actor; do not override it.", ["ray colour"])
add("paste-verl-1752", "volcengine/verl#1752", "worker_process_setup_hook leads to Duplicate GPU detected",
    hard_wrap("(WorkerDict pid=1207) [rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5\n"
              "(WorkerDict pid=1207) [rank0]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
              "(WorkerDict pid=1207) [rank0]: Last error:\n"
              "(WorkerDict pid=1207) [rank0]: Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 69000", 80),
    "config-invalid", "A runtime_env worker_process_setup_hook breaks Ray's per-actor GPU visibility, so two ranks share a GPU (verl.md §4 INFERENCE; thread open).",
    "Drop the hook or set CUDA_VISIBLE_DEVICES from ray.get_gpu_ids() in it.", ["terminal hard wrap at 80 columns"])
add("paste-verl-302", "volcengine/verl#302", "cuda error: out of memory at /workspace/csrc/cumem_allocator.cpp:62",
    tqdm() + "\n" + ray('Traceback (most recent call last):\n'
                        '  File "/verl/verl/workers/sharding_manager/fsdp_vllm.py", line 79, in __enter__\n'
                        '    self.inference_engine.wake_up()\n'
                        'RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:62', "WorkerDict pid=9932", ip="172.17.0.2"),
    "oom", "vLLM's cuMem allocator ran out of GPU memory at wake-up; lowering gpu_memory_utilization to 0.45 fixed it.",
    "Lower actor_rollout_ref.rollout.gpu_memory_utilization.", ["tqdm redraws", "ray colour"])
add("paste-verl-1420", "volcengine/verl#1420", "NCCL timeout Error using sglang rollout",
    ray("[Rank7]:[T506 14:16:14.487575902 ProcessGroupNCCL.cpp:629] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600066 milliseconds before timing out. [repeated 7x across cluster]\n"
        "[PG ID 4 PG GUID 12(mesh_tp) Rank 3] failure detected by watchdog at work sequence id: 3 PG status: last enqueued work: 3, last completed work: 2 [repeated 7x across cluster]\n"
        "Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.", "WorkerDict pid=66442"),
    "timeout-hang", "A missing dist.barrier() before broadcast_pyobj in the SGLang rollout; fixed by PR #1846.",
    "Upgrade verl (PR #1846).", ["ray colour", "ray dedup suffix"])
add("paste-verl-2844", "volcengine/verl#2844", "SGLang + Megatron, Qwen 32B with 8k/16k responses",
    word_wrap(ray("[rank30]:[E731 20:21:07.659674566 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 30] Process group watchdog thread terminated with exception: [Rank 30] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=10800000) ran for 10800089 milliseconds before timing out. [repeated 27x across cluster]",
                  "WorkerDict pid=18841", ip="10.10.3.7"), 120),
    "timeout-hang", "A rank is stuck (a 3 h timeout still fires): a hang during the validation rollout (verl.md §4 INFERENCE; thread open).",
    "Find the rank that never reached the collective (py-spy dump, Flight Recorder).", ["ray colour", "word wrap at 120"])
add("paste-verl-2995", "volcengine/verl#2995", "NCCL timeout during validation(/rollout) training qwen3 235B (rollout tp=16)",
    quote(ray("[rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] [Rank 38] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10, OpType=ALLREDUCE, NumelIn=2, NumelOut=2, Timeout(ms)=7200000) ran for 7200015 milliseconds before timing out.\n"
              "[PG ID 0 PG GUID 0(default_pg) Rank 38]  failure detected by watchdog at work sequence id: 10 PG status: last enqueued work: 10, last completed work: 9",
              "WorkerDict pid=835", ip="172.26.143.83", lost=True)),
    "timeout-hang", "Even a 2 h timeout is reached during the cross-node TP=16 rollout: a hang (verl.md §4; thread open).",
    "Find the rank that never reached SeqNum 10.", ["blockquote", "ray colour with ESC lost"])
add("paste-verl-668", "volcengine/verl#668", "Stuck at load 7B checkpoint",
    fence('  File "/workspace/verl/verl/workers/megatron_workers.py", line 352, in init_model\n'
          '    torch.distributed.barrier()\n'
          'torch.distributed.DistBackendError: wait timeout after 600000ms', "text"),
    "timeout-hang", "Loading the checkpoint before the barrier took longer than the 10 min default timeout (triage; PR #1983/#2321 added nccl_timeout).",
    "Raise actor_rollout_ref.nccl_timeout.", ["code fence with language"])
add("paste-verl-2106", "volcengine/verl#2106", "qwen3-8b 48k RL sglang backend: Timed out waiting 1800000ms for recv operation",
    ray("RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete",
        "WorkerDict pid=7730", ip="10.0.0.3"),
    "timeout-hang", "One rank (long-tail multi-turn rollout) missed the sync point for 30 min (triage in verl.md §4).",
    "Raise actor_rollout_ref.nccl_timeout; find the first failing rank.", ["ray colour"])
add("paste-verl-5954", "volcengine/verl#5954", "指定使用gpu无效",
    "用的是 CUDA_VISIBLE_DEVICES=0,1，报错如下：\n" + fence(ray("ValueError: Total available GPUs 7.0 is less than total desired GPUs 8", "TaskRunner pid=2013")) +
    "\n请问怎么解决？",
    "config-invalid", "The config asks for more GPUs (trainer.n_gpus_per_node × nnodes) than are visible.",
    "Make trainer.n_gpus_per_node × trainer.nnodes match the visible GPUs.", ["chinese text", "code fence", "ray colour"])

# --- dev-corpus reports with the artefacts of where they were pasted from ------------------------
from_corpus("nccl-525", k8s, ["kubectl logs --timestamps (Kubeflow)"], "kubectl")
from_corpus("pytorch-ci-infra-490", gha, ["GitHub Actions log timestamps"], "gha")
from_corpus("nccl-207", html, ["HTML entities (scraped page)"], "html")
from_corpus("nccl-697", html, ["HTML entities (scraped page)"], "html")
from_corpus("nccl-295", lambda l: html(l), ["HTML entities (scraped page)"], "html")
from_corpus("pytorch-81628", lambda l: hard_wrap(l, 100), ["terminal hard wrap at 100 columns"], "wrap")
from_corpus("vllm-19186", lambda l: compose(l, "vllm-1"), ["docker compose"], "compose")
from_corpus("nccl-1488", lambda l: fence(indent(l, 1).replace("\n ", "\n\t").replace(" node23", "\tnode23", 1)), ["code fence", "tab indentation"], "tabs")
from_corpus("determined-8915", lambda l: crlf(trailing(l)), ["CRLF", "trailing spaces"], "crlf")
from_corpus("marin-7018", lambda l: ray(l, "pid=52817", ip="10.130.2.8"), ["ray (pid=…, ip=…)"], "ray")
from_corpus("milabench-183", crlf, ["CRLF"], "crlf")
from_corpus("open-r1-multimodal-7", lambda l: each(l, lambda s, i: ESC + "[31m" + s + ESC + "[0m"), ["ANSI colour"], "ansi")
from_corpus("llamafactory-8549", lambda l: "训练到一半卡住了，日志如下：\n" + fence(l) + "\n有人遇到过吗？", ["chinese text", "code fence"], "zh")
from_corpus("vllm-7201", html, ["HTML entities (scraped page)"], "html")
from_corpus("pytorch-70985", lambda l: each(l, lambda s, i: "- " + s), ["list bullets", "inline backticks"], "bullets")
from_corpus("pytorch-135355", quote, ["blockquote", "bold"], "quote")
from_corpus("sglang-531", lambda l: tqdm() + "\n" + crlf(l), ["tqdm redraws", "CRLF"], "tqdm")
from_corpus("zero-bubble-pp-60", lambda l: each(l, lambda s, i: "worker-1: " + s if s else s), ["pdsh/DeepSpeed host prefix"], "pdsh")

with open(os.path.join(here, "pasted.jsonl"), "w") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + "\n")
print(len(cases), "cases")
