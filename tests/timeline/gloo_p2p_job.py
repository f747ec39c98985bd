#!/usr/bin/env python3
"""The producer of tests/data/timeline/gloo-p2p-4rank: a 4-rank gloo job (CPU) under torchrun,
profiled with torch.profiler (record_shapes=True), that per step runs an all_reduce, a ring shift
with isend/irecv (to r+1, from r-1) and a blocking send/recv pair. Real Kineto traces with
point-to-point ops, for the peer fields `ncdx timeline` reads (docs/TIMELINE.md, per-link
fail-slow).
Usage: OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=lo torchrun --standalone --nproc-per-node 4 gloo_p2p_job.py OUT
"""
import sys

import torch
import torch.distributed as dist
from torch.profiler import ProfilerActivity, profile, tensorboard_trace_handler


def main():
    out = sys.argv[1]
    dist.init_process_group("gloo")
    r, w = dist.get_rank(), dist.get_world_size()
    t = torch.ones(1024)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                 on_trace_ready=tensorboard_trace_handler(out, worker_name=f"rank{r}")) as prof:
        for _ in range(3):
            dist.all_reduce(t)
            rb = torch.empty(1024)
            s = dist.isend(t, (r + 1) % w)
            q = dist.irecv(rb, (r - 1) % w)
            s.wait()
            q.wait()
            # Even ranks send first, odd ranks receive first: no deadlock on blocking calls.
            if r % 2 == 0:
                dist.send(t, (r + 1) % w)
                dist.recv(rb, (r - 1) % w)
            else:
                dist.recv(rb, (r - 1) % w)
                dist.send(t, (r + 1) % w)
            prof.step()
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
