#!/usr/bin/env python3
"""A small Ray job on CPU whose `ray.timeline()` is the real producer of the Ray timelines
`ncdx timeline` reads. ROUNDS rounds of TASKS calls of one remote function (a few ms of busy
work each), `ray.get` per round (the driver waits for the last task, as a synchronous RL/training
step does). The worker that ran task SLOW_INDEX in round 0 is the chosen one: from round SLOW_FROM
on, every task that runs on it sleeps SLOW_MS extra (a worker that became slow, not a task that
moves between workers). Writes OUT (the timeline) and OUT.truth.json: the slow worker's id (the
`worker:<id>` of the timeline's thread_name metadata) and which worker ran each task.
Usage: ray_slow_task_job.py OUT [--cpus 4] [--rounds 16] [--tasks 4] [--slow-index 2]
       [--slow-from 6] [--slow-ms 40] [--work-ms 5]
"""
import argparse
import json
import os
import time

import ray


@ray.remote(num_cpus=1)
def step(rnd, work_ms, slow_worker, slow_ms):
    me = ray.get_runtime_context().get_worker_id()
    t_end = time.perf_counter() + work_ms / 1000.0
    x = 0
    while time.perf_counter() < t_end:  # busy work: a compute step
        x += 1
    if slow_worker is not None and me == slow_worker:
        time.sleep(slow_ms / 1000.0)
    return me, os.getpid(), rnd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--tasks", type=int, default=4)
    ap.add_argument("--slow-index", type=int, default=2)
    ap.add_argument("--slow-from", type=int, default=6)
    ap.add_argument("--slow-ms", type=float, default=40.0)
    ap.add_argument("--work-ms", type=float, default=5.0)
    a = ap.parse_args()
    ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False)
    try:
        slow_worker = None
        ran = []
        for rnd in range(a.rounds):
            sw = slow_worker if rnd >= a.slow_from else None
            res = ray.get([step.remote(rnd, a.work_ms, sw, a.slow_ms) for _ in range(a.tasks)])
            ran.append([r[0] for r in res])
            if rnd == 0:
                slow_worker = res[a.slow_index][0]
        ray.timeline(filename=a.out)
        with open(a.out + ".truth.json", "w") as f:
            json.dump({"ray_version": ray.__version__, "slow_worker": slow_worker,
                       "slow_from": a.slow_from, "rounds": a.rounds, "ran": ran}, f)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
