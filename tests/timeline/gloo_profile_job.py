#!/usr/bin/env python3
"""A small data-parallel training loop under torchrun (gloo, CPU) profiled with torch.profiler:
the real producer of the Kineto traces `ncdx timeline` reads. Each step runs some matmuls
(compute), an all_reduce of the "gradients" and a small broadcast; rank SLOW_RANK sleeps
SLOW_MS extra per step from step SLOW_FROM on (an injected straggler / fail-slow compute).
Traces: OUT/rank<r>.<ts>.pt.trace.json (torch.profiler.tensorboard_trace_handler).
Usage: torchrun --nproc-per-node 4 gloo_profile_job.py OUT [--steps N] [--slow-rank R]
       [--slow-from S] [--slow-ms MS] [--size N]
"""
import argparse
import os
import time

import torch
import torch.distributed as dist
from torch.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("--slow-rank", type=int, default=2)
    ap.add_argument("--slow-from", type=int, default=8)
    ap.add_argument("--slow-ms", type=float, default=30.0)
    ap.add_argument("--size", type=int, default=256)
    a = ap.parse_args()
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(rank)
    torch.set_num_threads(1)
    w = torch.randn(a.size, a.size)
    grad = torch.zeros(1 << 16)
    os.makedirs(a.out, exist_ok=True)
    # No wait/warmup steps: profiler step k is training step k, so the injected start step is
    # what ncdx must report (ProfilerStep#k).
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                 schedule=schedule(wait=0, warmup=0, active=a.steps, repeat=1),
                 on_trace_ready=tensorboard_trace_handler(a.out, worker_name=f"rank{rank}")) as prof:
        for step in range(a.steps):
            x = torch.randn(a.size, a.size)
            for _ in range(4):
                x = torch.tanh(x @ w)
            grad.add_(x.sum())
            if rank == a.slow_rank and step >= a.slow_from:
                time.sleep(a.slow_ms / 1000.0)
            dist.all_reduce(grad)
            flag = torch.tensor([step])
            dist.broadcast(flag, src=0)
            prof.step()
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
