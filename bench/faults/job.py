"""A small data-parallel PyTorch job (gloo, CPU) with one injected fault, for the triage fault bench.

Launched by torchrun (RANK/WORLD_SIZE), mpirun (OMPI_COMM_WORLD_RANK/SIZE) or srun
(SLURM_PROCID/SLURM_NTASKS); the store at MASTER_ADDR/MASTER_PORT. The fault comes from the environment:
  NCDX_FAULT       fault name (see FAULTS below; "none" = healthy run)
  NCDX_FAULT_RANK  the rank that misbehaves
  NCDX_FAULT_STEP  the step at which it does
  NCDX_STEPS       steps in the run (default 6)
  NCDX_TIMEOUT_S   process-group timeout (default 12)
  NCDX_CKPT_DIR    checkpoint directory of the faulty rank for the full-disk fault
  NCDX_SYNC_DIR    a directory where the ranks wait for each other before init_process_group:
                   importing torch on a loaded machine takes longer than the short timeouts, and
                   a rank still importing must not look like a fault (prints nothing). For
                   link_drop the faulty rank asks the driver there (file linkdrop.req) to cut its
                   host's data link and goes on once it is cut (linkdrop.done): the driver, not the
                   job, owns the network (bench/faults/faults.py)
It prints what a real training script prints (a line per step), nothing about the fault itself:
the triage has to find the cause in what PyTorch, gloo and the launcher print.
"""
import ctypes
import datetime
import os
import resource
import signal
import sys
import time

import torch
import torch.distributed as dist

FAULTS = ("none", "sleep_hang", "other_collective", "sigkill", "sigsegv", "sigabrt", "exception",
          "early_exit", "wrong_collective", "wrong_shape", "wrong_dtype", "oom_rlimit", "wrong_port",
          "straggler", "disk_full", "link_drop")


def env_int(name, default):
    v = os.environ.get(name)
    return int(v) if v not in (None, "") else default


def main():
    rank = env_int("RANK", env_int("OMPI_COMM_WORLD_RANK", env_int("SLURM_PROCID", 0)))
    world = env_int("WORLD_SIZE", env_int("OMPI_COMM_WORLD_SIZE", env_int("SLURM_NTASKS", 1)))
    fault = os.environ.get("NCDX_FAULT", "none")
    frank = env_int("NCDX_FAULT_RANK", -1)
    fstep = env_int("NCDX_FAULT_STEP", 2)
    steps = env_int("NCDX_STEPS", 6)
    timeout = env_int("NCDX_TIMEOUT_S", 12)
    me = rank == frank
    if fault not in FAULTS:
        sys.exit(f"job.py: unknown fault {fault}")

    sync = os.environ.get("NCDX_SYNC_DIR")
    if sync:
        open(os.path.join(sync, f"ready.{rank}"), "w").close()
        deadline = time.time() + 600
        while len([f for f in os.listdir(sync) if f.startswith("ready.")]) < world and time.time() < deadline:
            time.sleep(0.1)
    if me and fault == "wrong_port":
        os.environ["MASTER_PORT"] = str(int(os.environ["MASTER_PORT"]) + 1)
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=timeout))
    try:
        train(rank, world, fault, me, fstep, steps, timeout)
    except Exception:
        dump_flight_recorder(rank)
        raise
    dist.barrier()
    dist.destroy_process_group()
    print(f"rank {rank}: done", flush=True)


def dump_flight_recorder(rank):
    """With NCDX_FR_DIR set (and TORCH_FR_BUFFER_SIZE > 0), a rank whose collective failed writes
    its Flight Recorder buffer where NCCL's watchdog would (file nccl_trace_rank_<rank>, the default
    TORCH_FR_DUMP_TEMP_FILE prefix): gloo records into the Flight Recorder but has no watchdog that
    dumps it, so the job does what a user's exception handler would."""
    d = os.environ.get("NCDX_FR_DIR")
    if not d:
        return
    try:
        from torch._C._distributed_c10d import _dump_fr_trace
        data = _dump_fr_trace()
    except (ImportError, RuntimeError):
        return
    with open(os.path.join(d, f"nccl_trace_rank_{rank}"), "wb") as f:
        f.write(data)


def link_drop(sync):
    """Have the driver drop all traffic of this host's data link, and wait until it has."""
    if not sync:
        return
    open(os.path.join(sync, "linkdrop.req"), "w").close()
    deadline = time.time() + 60
    while not os.path.exists(os.path.join(sync, "linkdrop.done")) and time.time() < deadline:
        time.sleep(0.02)


def train(rank, world, fault, me, fstep, steps, timeout):
    n = 4096
    print(f"rank {rank}/{world}: training {steps} steps", flush=True)
    for step in range(steps):
        dtype = torch.float32
        size = n
        if me and step == fstep:
            if fault == "sleep_hang":
                time.sleep(10 * timeout)
            elif fault == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif fault == "sigsegv":
                ctypes.string_at(0)  # a real invalid read
            elif fault == "sigabrt":
                os.abort()
            elif fault == "exception":
                raise ValueError(f"batch {step} has no labels")
            elif fault == "early_exit":
                print(f"rank {rank}: no more data, done", flush=True)
                sys.exit(0)
            elif fault == "oom_rlimit":
                resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
                torch.empty(4 << 30, dtype=torch.uint8).fill_(1)
            elif fault == "disk_full":
                d = os.environ.get("NCDX_CKPT_DIR", "/nonexistent")
                torch.save({"w": torch.ones(1 << 20)}, os.path.join(d, f"ckpt_rank{rank}_step{step}.pt"))
            elif fault == "link_drop":
                link_drop(os.environ.get("NCDX_SYNC_DIR", ""))
            elif fault == "wrong_shape":
                size = n // 2
            elif fault == "wrong_dtype":
                dtype = torch.float64
        t = torch.full((size,), float(rank + 1), dtype=dtype)
        if me and step == fstep and fault == "other_collective":
            dist.broadcast(t, src=rank)
        elif me and step == fstep and fault == "wrong_collective":
            out = [torch.empty_like(t) for _ in range(world)]
            dist.all_gather(out, t)
        else:
            dist.all_reduce(t)
        if me and fault == "straggler":
            time.sleep(0.4)
        print(f"rank {rank} step {step} loss {t[0].item() / world:.3f}", flush=True)
        time.sleep(0.05)


if __name__ == "__main__":
    main()
