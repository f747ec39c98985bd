#!/usr/bin/env python3
"""Injected-fault bench for `ncdx triage`: real PyTorch jobs (gloo, CPU) with one fault on one rank.

  faults.py produce --out DIR --runs N [--seed S] [--jobs 2] [--max-world 8] [--quick]
      runs N jobs; each run directory gets truth.json (written BEFORE triage ever runs), the
      launcher's console output and, for --log-dir launches, torchrun's log tree.
  faults.py score --out DIR --ncdx PATH [--json FILE] [--min-culprit X --min-class Y --min-host Z]
      runs `ncdx triage --json` on every run's logs and scores culprit (exact rank set) and class,
      per fault and launcher, with the confusion matrix. Exit 1 when under --min-*.
  faults.py run ...      produce then score (the CTest subset).

Launchers: torchrun (console; --log-dir --tee 3; --log-dir --redirects 3) and mpirun (--tag-output
and plain) on this host, and, as root, across 2-8 network-namespace hosts (scripts/netns-hosts.sh,
the hosts scripts/netns-cluster.sh builds: own UTS hostname, mgmt0 + data0 links, names resolved
to mgmt0): `mpirun-netns` (one mpirun on host 1, --tag-output, --map-by node: rank r on host
r mod H) and `torchrun-netns` (one torchrun per host, --nnodes H --node-rank i, static rendezvous:
a TCPStore on host 1, so rank = node_rank * nproc + local_rank is known before the job starts;
c10d rendezvous assigns node ranks in arrival order and the ground truth could not name the
rank). MASTER_ADDR is host 1's name, gloo uses the data links (GLOO_SOCKET_IFNAME=data0). Only
netns launchers have the fault `link_drop` (nftables drops all of the victim host's data0 traffic at
a random step) and a victim host in the ground truth; the score then also gives culprit-host exact.

And srun (plain; srun-k: --kill-on-bad-exit=1 -l) across SRUN_NODES namespace hosts of a real Slurm
cluster: produce re-runs itself under scripts/slurm-cluster.sh when srun runs are planned and no
cluster is up (root; without Slurm those runs are skipped with the reason).

Scoring: the culprit is right when verdict.culprit.ranks is exactly [faulty rank] (truth
"culprit_ranks" where a fault takes more: a dropped link, all ranks of its host); the class is
right when it is the fault's class or one the log cannot tell apart from it (ACCEPT below, each
with the reason). A straggler is slow, not broken: its right answer is class `none`.
"Decidable culprit exact" leaves out the runs whose log cannot name the culprit, by the written
rules of decidable.py (from the truth and the log files, never from the verdict); the --min-*
gates stay on all runs.
Torch comes from the venv scripts/torch-venv.sh makes; without it, produce exits 77 (skip).
"""
import argparse
import atexit
import collections
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from decidable import undecidable_reason

HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(HERE, "job.py")

# fault -> (class of the root cause, classes the log cannot tell apart from it, with why)
TRUTH = {
    "sleep_hang": ("timeout-hang", {}),
    "other_collective": ("timeout-hang", {"data-mismatch": "the rank did enter a different collective"}),
    "sigkill": ("other", {"oom": "a SIGKILL is what the OOM killer sends; the log cannot tell them apart"}),
    "sigsegv": ("other", {}),
    "sigabrt": ("other", {}),
    "exception": ("other", {}),
    "early_exit": ("timeout-hang", {"other": "a rank that left early (uneven data) is an application bug"}),
    "wrong_collective": ("data-mismatch", {}),
    "wrong_shape": ("data-mismatch", {}),
    "wrong_dtype": ("data-mismatch", {}),
    "oom_rlimit": ("oom", {}),
    "wrong_port": ("config-invalid", {"network-socket": "the log shows a refused/timed-out store connect, "
                                      "not which port was meant"}),
    "straggler": ("none", {}),
    "disk_full": ("other", {}),
    # The victim host's data0 drops every packet (nftables): its ranks and their peers all wait until
    # the process-group timeout. Measured on the netns runs: every rank prints only gloo's "Timed out
    # waiting Nms for recv/send operation to complete" (gloo/transport/tcp/unbound_buffer.cc, no
    # peer named) and no socket error comes (a drop sends no reset).
    "link_drop": ("network-socket", {"timeout-hang": "every rank, victim or not, times out waiting for a "
                                     "peer; no rank gets a socket error"}),
}
# Faults whose culprit rank is scored (a straggler has no failure to attribute).
CULPRIT_SCORED = set(TRUTH) - {"straggler"}
LAUNCHERS = ("torchrun", "torchrun-tee", "torchrun-logdir", "mpirun", "mpirun-plain")
NETNS_LAUNCHERS = ("mpirun-netns", "torchrun-netns")
NETNS_ONLY = {"link_drop"}  # faults that need hosts of their own
NETNS = os.path.join(HERE, "..", "..", "scripts", "netns-hosts.sh")
SRUN_LAUNCHERS = ("srun", "srun-k")  # not in the default set: they need root and Slurm (--launchers)
SRUN_NODES = 2
DEBUG_DETAIL = {"wrong_collective", "wrong_shape", "wrong_dtype"}


def torch_python():
    """The venv's python, or None. The venv is scripts/torch-venv.sh's (NCDX_TORCH_VENV or
    /opt/ncdx/venv-torch); an existing one is used as it is, a missing one is created by the script."""
    venv = os.environ.get("NCDX_TORCH_VENV", "/opt/ncdx/venv-torch")
    py = os.path.join(venv, "bin", "python3")
    if not os.path.exists(py):
        script = os.path.join(HERE, "..", "..", "scripts", "torch-venv.sh")
        try:
            py = subprocess.run(["bash", script], capture_output=True, text=True, timeout=3600).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return None
        if not py or not os.path.exists(py):
            return None
    try:  # importing torch takes long on a loaded machine
        ok = subprocess.run([py, "-c", "import torch.distributed"], capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None
    return py if ok.returncode == 0 else None


def free_port_pair(rng):
    for _ in range(200):
        p = rng.randrange(20000, 60000, 2)
        ok = True
        for q in (p, p + 1):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", q))
                except OSError:
                    ok = False
        if ok:
            return p
    raise RuntimeError("no free port pair")


def plan(runs, seed, max_world, quick, faults=None, launchers=None):
    rng = random.Random(seed)
    launchers = launchers or LAUNCHERS
    netns = any(x in NETNS_LAUNCHERS for x in launchers)
    faults = faults or sorted(f for f in TRUTH if netns or f not in NETNS_ONLY)
    out = []
    for i in range(runs):
        fault = faults[i % len(faults)]
        launcher = launchers[(i // len(faults)) % len(launchers)] if not quick else launchers[i % len(launchers)]
        # Most runs small (a 2-core machine), a few up to max_world.
        u = rng.random()
        if quick or u < 0.8:
            world = rng.choice([2, 2, 3, 4, 4])
        elif u < 0.97 or max_world <= 8:
            world = rng.randint(2, min(8, max_world))
        else:
            world = rng.randint(9, max_world)  # a few large worlds (slow on 2 cores)
        steps = 4
        r = {"id": f"r{i:04d}", "fault": fault, "launcher": launcher, "world_size": world,
             "rank": rng.randrange(world), "step": rng.randrange(1, steps - 1), "steps": steps,
             "timeout_s": 6, "seed": seed}
        if launcher in NETNS_LAUNCHERS:  # (drawn last: the plans of the other launchers stay as they were)
            plan_hosts(r, rng)
        out.append(r)
    return out


def plan_hosts(r, rng):
    """Hosts of a netns run and which rank lives where. mpirun --map-by node deals ranks round
    robin; torchrun gives each of H nodes nproc ranks (world rounded up to H * nproc)."""
    world = max(r["world_size"], 2)
    h = rng.randint(2, min(world, 8))
    if r["launcher"] == "torchrun-netns":
        nproc = -(-world // h)
        world = h * nproc
        host_of = [q // nproc for q in range(world)]
        r["nproc_per_node"] = nproc
    else:
        host_of = [q % h for q in range(world)]
    r["world_size"] = world
    r["rank"] = min(r["rank"], world - 1)
    r["hosts"] = h
    r["host_of_rank"] = host_of  # 0-based host index of each rank


FORWARD = ("MASTER_ADDR", "MASTER_PORT", "NCDX_FAULT", "NCDX_FAULT_RANK", "NCDX_FAULT_STEP", "NCDX_STEPS",
           "NCDX_TIMEOUT_S", "NCDX_CKPT_DIR", "NCDX_SYNC_DIR", "TORCH_DISTRIBUTED_DEBUG", "OMP_NUM_THREADS",
           "NCDX_FR_DIR", "TORCH_FR_BUFFER_SIZE")


class Hosts:
    """The namespace hosts of one netns run (scripts/netns-hosts.sh), removed by name on exit,
    also when the driver is stopped (SIGTERM/SIGINT: see main())."""
    live = set()
    procs = set()  # launchers running on them (killed first when the driver is stopped)
    pending = set()  # `netns-hosts.sh up` still running
    stopping = False
    lock = threading.Lock()

    def __init__(self, r):
        # fz<pid><run>: unique to this driver's runs (netns-cluster.sh uses ncx<pid>, its tests
        # nct<pid>, the Slurm harness nsl*); at most 10 characters for the interface names.
        self.prefix = f"fz{os.getpid() % 10000:04d}{int(r['id'].lstrip('r')) % 1000:03d}"
        self.n = r["hosts"]
        self.names = [f"{self.prefix}h{i}" for i in range(1, self.n + 1)]

    def up(self, agent):
        with Hosts.lock:
            if Hosts.stopping:
                return "the driver is stopping"
            Hosts.live.add((self.prefix, self.n))
            # Started under the lock: down_all() (holding it) never runs while an `up` is half done.
            p = subprocess.Popen(["bash", NETNS, "up", self.prefix, str(self.n), "none", agent],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            Hosts.pending.add(p)
        _, err = p.communicate()
        with Hosts.lock:
            Hosts.pending.discard(p)
        p.stderr = err
        if p.returncode != 0:
            self.down()
            reason = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"rc {p.returncode}"
            return reason
        return None

    def down(self):
        subprocess.run(["bash", NETNS, "down", self.prefix, str(self.n)], capture_output=True)
        with Hosts.lock:
            Hosts.live.discard((self.prefix, self.n))

    def ns(self, i):
        return f"{self.prefix}h{i + 1}"

    def enter(self, i, cmd):
        """cmd run on host i (0-based): its namespace, its UTS hostname."""
        return ["ip", "netns", "exec", self.ns(i), "unshare", "--uts", "/bin/sh", "-c",
                f'hostname {self.names[i]}; exec "$@"', "sh"] + cmd

    @staticmethod
    def down_all():
        """Stop everything: no new hosts, wait for the ones half made, kill the launchers, remove all
        (netns-hosts.sh down also kills what still runs inside each namespace: torchrun's workers
        have sessions of their own)."""
        Hosts.stopping = True
        for p in list(Hosts.pending):
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
        for p in list(Hosts.procs):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for prefix, n in list(Hosts.live):
            subprocess.run(["bash", NETNS, "down", prefix, str(n)], capture_output=True)
        Hosts.live.clear()


# nftables in the victim's namespace: its data link drops everything, in and out (traffic between
# ranks of one host goes over lo and still flows, as over a node's shared memory).
LINK_DROP_NFT = """table inet ncdxfault {
  chain in { type filter hook input priority 0; iifname "data0" drop; }
  chain out { type filter hook output priority 0; oifname "data0" drop; }
}
"""


def netns_cmds(py, r, hosts, agent, run_dir, port):
    """[(console file, command)]: one mpirun on host 1, or one torchrun per host."""
    n = r["world_size"]
    if r["launcher"] == "mpirun-netns":
        hf = os.path.join(run_dir, "hostfile")
        slots = -(-n // hosts.n)
        with open(hf, "w") as f:
            f.writelines(f"{h} slots={slots}\n" for h in hosts.names)
        mpi = ["mpirun", "-np", str(n), "--hostfile", hf, "--map-by", "node", "--bind-to", "none", "--tag-output",
               "--mca", "plm_rsh_agent", agent, "--mca", "oob_tcp_if_include", "198.18.0.0/24",
               "--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "198.18.0.0/24"]
        for v in FORWARD + ("GLOO_SOCKET_IFNAME",):
            mpi += ["-x", v]
        return [("console.log", hosts.enter(0, mpi + [py, JOB]))]
    out = []
    for i in range(hosts.n):
        tr = [py, "-m", "torch.distributed.run", "--nnodes", str(hosts.n), "--node-rank", str(i),
              "--nproc-per-node", str(r["nproc_per_node"]), "--master-addr", hosts.names[0],
              "--master-port", port, JOB]
        out.append((f"node-{hosts.names[i]}.log", hosts.enter(i, tr)))
    return out


def watch_link_drop(sync, hosts, victim, stop, events):
    """Cut the victim's data link when the faulty rank asks (job.py link_drop)."""
    req = os.path.join(sync, "linkdrop.req")
    while not stop.is_set():
        if os.path.exists(req):
            p = subprocess.run(["ip", "netns", "exec", hosts.ns(victim), "nft", "-f", "-"], input=LINK_DROP_NFT,
                               capture_output=True, text=True)
            events["link_drop"] = {"t": time.time(), "rc": p.returncode, "stderr": p.stderr.strip()}
            open(os.path.join(sync, "linkdrop.done"), "w").close()
            return
        stop.wait(0.02)


def launch_cmd(py, r, run_dir, port):
    n = str(r["world_size"])
    torchrun = [py, "-m", "torch.distributed.run", "--nproc-per-node", n, "--master-addr", "127.0.0.1",
                "--master-port", str(port)]
    if r["launcher"] == "torchrun":
        return torchrun + [JOB]
    if r["launcher"] == "torchrun-tee":
        return torchrun + ["--log-dir", os.path.join(run_dir, "logdir"), "--tee", "3", JOB]
    if r["launcher"] == "torchrun-logdir":
        return torchrun + ["--log-dir", os.path.join(run_dir, "logdir"), "--redirects", "3", JOB]
    if r["launcher"] in SRUN_LAUNCHERS:
        # The ranks spread over the nodes in block order (srun's default distribution).
        srun = ["srun", "-N", str(min(SRUN_NODES, r["world_size"])), "-n", n, "--job-name", "train",
                "--overcommit"]  # more ranks than the nodes' configured CPUs
        if r["launcher"] == "srun-k":
            srun += ["--kill-on-bad-exit=1", "-l"]
        return srun + [py, JOB]
    mpi = ["mpirun", "-np", n, "--oversubscribe", "--bind-to", "none"]
    if r["launcher"] == "mpirun":
        mpi.append("--tag-output")
    for v in FORWARD:
        mpi += ["-x", v]
    return mpi + [py, JOB]


def slurm_mounts(cmd, mnt):
    """The mount commands for a tmpfs at mnt as the srun ranks see it: each Slurm node's slurmd
    runs in a private mount namespace (scripts/slurm-cluster.sh), so a mount made here would not
    reach its ranks; enter each slurmd's mount namespace instead."""
    d = os.environ["NCDX_SLURM_DIR"]
    out = []
    for node in os.environ["NCDX_SLURM_NODES"].split(","):
        with open(os.path.join(d, f"slurmd-{node}.pid")) as f:
            pid = f.read().strip()
        out.append(["nsenter", "-t", pid, "-m"] + cmd + [mnt])
    return out


def produce_one(py, r, out_dir, host, resume=False, fr=False):
    run_dir = os.path.join(out_dir, r["id"])
    if resume and os.path.exists(os.path.join(run_dir, "run.json")) and not json.load(
            open(os.path.join(run_dir, "run.json"))).get("wall_timeout") and json.load(
            open(os.path.join(run_dir, "run.json")))["rc"] != -9:
        with open(os.path.join(run_dir, "truth.json")) as f:
            return dict(json.load(f), resumed=True)
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    rng = random.Random(f'{r["seed"]}-{r["id"]}')
    port = free_port_pair(rng)
    srun = r["launcher"] in SRUN_LAUNCHERS
    truth = dict(r, host=host, klass=TRUTH[r["fault"]][0], accept=sorted(TRUTH[r["fault"]][1]),
                 master_port=port, skipped=None)
    hosts = Hosts(r) if r["launcher"] in NETNS_LAUNCHERS else None
    if hosts:
        # The victim host is the faulty rank's; a dropped link takes all of that host's ranks.
        v = r["host_of_rank"][r["rank"]]
        truth.update(host_names=hosts.names, victim_host=hosts.names[v],
                     host_addrs={h: [f"198.18.0.{i + 1}", f"198.19.0.{i + 1}"] for i, h in enumerate(hosts.names)})
        truth["culprit_ranks"] = ([q for q, hq in enumerate(r["host_of_rank"]) if hq == v]
                                  if r["fault"] in NETNS_ONLY else [r["rank"]])
    master = "127.0.0.1"
    if srun:
        if not os.environ.get("NCDX_SLURM_ADDRS"):
            truth["skipped"] = "no Slurm cluster (scripts/slurm-cluster.sh) around this run"
        else:
            master = os.environ["NCDX_SLURM_ADDRS"].split(",")[0]  # the first node: rank 0 is there
            truth["host"] = "n1"  # the node of rank 0, as srun's lines name it
    env = dict(os.environ, MASTER_ADDR=master, MASTER_PORT=str(port), NCDX_FAULT=r["fault"],
               NCDX_FAULT_RANK=str(r["rank"]), NCDX_FAULT_STEP=str(r["step"]), NCDX_STEPS=str(r["steps"]),
               NCDX_TIMEOUT_S=str(r["timeout_s"]), OMP_NUM_THREADS="1", NCDX_CKPT_DIR="",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_btl_tcp_if_include="lo", OMPI_MCA_oob_tcp_if_include="lo",
               PYTHONUNBUFFERED="1", NCDX_SYNC_DIR=os.path.join(run_dir, "sync"))
    if srun:  # gloo binds to what the hostname resolves to (nothing, for n1..nN): name the NIC
        env["GLOO_SOCKET_IFNAME"] = "eth0"
    os.makedirs(env["NCDX_SYNC_DIR"])
    # --fr: the ranks whose collective fails write their Flight Recorder buffer (job.py).
    env["NCDX_FR_DIR"] = os.path.join(run_dir, "fr") if fr else ""
    env["TORCH_FR_BUFFER_SIZE"] = "2000" if fr else "0"
    if fr:
        os.makedirs(env["NCDX_FR_DIR"])
        truth["fr"] = True
    env["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL" if r["fault"] in DEBUG_DETAIL else "OFF"
    if hosts:  # the store on host 1 by name (resolved to its mgmt0), gloo on the data links
        env.update(MASTER_ADDR=hosts.names[0], GLOO_SOCKET_IFNAME="data0")
        for k in ("OMPI_MCA_btl_tcp_if_include", "OMPI_MCA_oob_tcp_if_include"):
            env.pop(k)
    mnt = None
    if r["fault"] == "disk_full":
        mnt = os.path.join(run_dir, "ckpt")
        os.makedirs(mnt)
        mounts = [["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt]]
        if srun and not truth["skipped"]:
            mounts = slurm_mounts(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs"], mnt)
        ok = os.geteuid() == 0 and all(subprocess.run(m, capture_output=True).returncode == 0 for m in mounts)
        if not ok:
            truth["skipped"] = "a tiny tmpfs needs root (mount -t tmpfs)"
            mnt = None
        env["NCDX_CKPT_DIR"] = mnt or ""
    # Ground truth first: triage never runs before it is on disk.
    with open(os.path.join(run_dir, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
    if truth["skipped"]:
        return truth
    t0 = time.time()
    if hosts:
        rc, cmd, wall_timeout, events = run_netns(py, r, run_dir, env, hosts)
        if rc is None:  # the hosts could not be made: a skip with the reason, not a run
            truth["skipped"] = events
            with open(os.path.join(run_dir, "truth.json"), "w") as f:
                json.dump(truth, f, indent=1, sort_keys=True)
            if mnt:
                subprocess.run(["umount", "-l", mnt], capture_output=True)
            return truth
    else:
        cmd = launch_cmd(py, r, run_dir, port)
        events = {}
        with open(os.path.join(run_dir, "console.log"), "wb") as con:
            p = subprocess.Popen(cmd, stdout=con, stderr=subprocess.STDOUT, env=env, cwd=run_dir,
                                 start_new_session=True)
            rc, wall_timeout = wait_or_kill([p], r)
    if wall_timeout:
        truth["wall_timeout"] = True
    truth["rc"] = rc
    truth["wall_s"] = round(time.time() - t0, 1)
    if mnt:
        for m in slurm_mounts(["umount", "-l"], mnt) if srun else [["umount", "-l", mnt]]:
            subprocess.run(m, capture_output=True)
    with open(os.path.join(run_dir, "run.json"), "w") as f:
        json.dump(dict({"cmd": cmd, "rc": rc, "wall_s": truth["wall_s"], "wall_timeout": truth.get("wall_timeout", False)},
                       **events), f, indent=1)
    return truth


def netns_unavailable():
    """Why the namespace hosts cannot be made here, or None."""
    if os.geteuid() != 0:
        return "the netns launchers need root (network namespaces)"
    for tool, why in (("ip", "iproute2 (ip)"), ("nft", "nftables (nft, for link_drop)"), ("unshare", "unshare")):
        if shutil.which(tool) is None:
            return f"{why} is not installed"
    return None


def wait_or_kill(procs, r):
    """Wait for the launcher(s); past the wall limit kill their process groups. -> (rc, killed)"""
    # Generous: importing torch in every rank takes long on a loaded 2-core machine.
    deadline = time.time() + r["timeout_s"] * 10 + 200
    killed = False
    for p in procs:
        try:
            p.wait(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            killed = True
            break
    if killed:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for p in procs:
            p.wait()
    rcs = [p.returncode for p in procs]
    return next((x for x in rcs if x != 0), 0), killed


def run_netns(py, r, run_dir, env, hosts):
    """One run across namespace hosts. -> (rc, cmd, wall_timeout, events); rc None = not possible here."""
    agent = os.path.join(run_dir, "nsrsh")
    why = hosts.up(agent)
    if why:
        return None, None, False, why
    stop = threading.Event()
    events = {}
    try:
        watcher = None
        if r["fault"] == "link_drop":
            watcher = threading.Thread(target=watch_link_drop, daemon=True,
                                       args=(env["NCDX_SYNC_DIR"], hosts, r["host_of_rank"][r["rank"]], stop, events))
            watcher.start()
        cmds = netns_cmds(py, r, hosts, agent, run_dir, env["MASTER_PORT"])
        files, procs = [], []
        try:
            for name, cmd in cmds:
                files.append(open(os.path.join(run_dir, name), "wb"))
                procs.append(subprocess.Popen(cmd, stdout=files[-1], stderr=subprocess.STDOUT, env=env, cwd=run_dir,
                                              start_new_session=True))
                Hosts.procs.add(procs[-1])
            rc, killed = wait_or_kill(procs, r)
        finally:
            for p in procs:
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
            for f in files:
                f.close()
            Hosts.procs.difference_update(procs)
        stop.set()
        if watcher:
            watcher.join()
        return rc, [c for _, c in cmds], killed, events
    finally:
        stop.set()
        hosts.down()


def produce(args):
    if shutil.which("mpirun") is None:
        print("note: no mpirun; mpirun launches skipped", file=sys.stderr)
    launchers = args.launchers.split(",") if args.launchers else LAUNCHERS
    known = LAUNCHERS + NETNS_LAUNCHERS + SRUN_LAUNCHERS
    for x in launchers:
        if x not in known:
            print(f"faults.py: unknown launcher '{x}' (known: {', '.join(known)})", file=sys.stderr)
            return 64
    if any(x in NETNS_LAUNCHERS for x in launchers):
        why = netns_unavailable()
        if why and all(x in NETNS_LAUNCHERS for x in launchers):
            print(f"SKIP: {why}", file=sys.stderr)
            return 77
        if why:
            print(f"note: {why}; netns launches skipped", file=sys.stderr)
            launchers = [x for x in launchers if x not in NETNS_LAUNCHERS]
    if set(launchers) & set(SRUN_LAUNCHERS) and not os.environ.get("NCDX_SLURM_ADDRS"):
        # Bring the Slurm cluster up around this same command; it goes away when produce ends.
        script = os.path.join(HERE, "..", "..", "scripts", "slurm-cluster.sh")
        nodes = str(max(SRUN_NODES, 2))
        rc = subprocess.run(["bash", script, "run", nodes, "--", sys.executable, os.path.abspath(__file__),
                             "produce"] + sys.argv[2:]).returncode
        if rc == 77:
            print("note: no Slurm cluster here; srun launches skipped", file=sys.stderr)
            launchers = [x for x in launchers if x not in SRUN_LAUNCHERS]
            if not launchers:
                return 77
        else:
            return rc
    py = torch_python()
    if not py:
        print("SKIP: no PyTorch venv (run scripts/torch-venv.sh); the fault bench needs real torch", file=sys.stderr)
        return 77
    os.makedirs(args.out, exist_ok=True)
    runs = plan(args.runs, args.seed, args.max_world, args.quick,
                args.faults.split(",") if args.faults else None, launchers)
    if shutil.which("mpirun") is None:
        runs = [r for r in runs if not r["launcher"].startswith("mpirun")]
    runs = [r for r in runs if r["fault"] not in NETNS_ONLY or r["launcher"] in NETNS_LAUNCHERS]
    host = socket.gethostname()
    t0 = time.time()
    done = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for t in ex.map(lambda r: produce_one(py, r, args.out, host, args.resume, args.fr), runs):
            done += 1
            if t.get("resumed"):
                continue
            print(f"[{done}/{len(runs)}] {t['id']} {t['launcher']} {t['fault']} rank {t['rank']}/{t['world_size']}"
                  f" rc={t.get('rc')} {t.get('wall_s', 0)}s" + (f" SKIP {t['skipped']}" if t["skipped"] else ""),
                  file=sys.stderr, flush=True)
    print(f"produced {len(runs)} runs in {time.time() - t0:.0f}s", file=sys.stderr)
    return 0


def triage_inputs(run_dir, launcher):
    fr = os.path.join(run_dir, "fr")
    if os.path.isdir(fr) and os.listdir(fr):
        return ["--fr", fr] + triage_inputs_logs(run_dir, launcher)
    return triage_inputs_logs(run_dir, launcher)


def triage_inputs_logs(run_dir, launcher):
    if launcher == "torchrun-netns":  # each host's torchrun console, as collected from the nodes
        return sorted(os.path.join(run_dir, f) for f in os.listdir(run_dir) if f.startswith("node-"))
    if launcher == "torchrun-logdir":
        return [os.path.join(run_dir, "logdir"), os.path.join(run_dir, "console.log")]
    return [os.path.join(run_dir, "console.log")]


def score(args):
    rows = []
    for name in sorted(os.listdir(args.out)):
        tp = os.path.join(args.out, name, "truth.json")
        if not os.path.exists(tp):
            continue
        finished = os.path.exists(os.path.join(args.out, name, "run.json"))
        with open(tp) as f:
            truth = json.load(f)
        if truth.get("skipped"):
            rows.append({"truth": truth, "skipped": truth["skipped"]})
            continue
        if not finished:  # still running (a sweep scored while it runs)
            continue
        with open(os.path.join(args.out, name, "run.json")) as f:
            run = json.load(f)
        if run.get("wall_timeout") or (run["rc"] == -9 and "wall_timeout" not in run):
            rows.append({"truth": truth, "skipped": "the driver stopped the run (wall-clock limit): its logs are cut"})
            continue
        run_dir = os.path.join(args.out, name)
        p = subprocess.run([args.ncdx, "triage", "--json", "--no-timestamps"] + triage_inputs(run_dir, truth["launcher"]),
                           capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
        try:
            v = json.loads(p.stdout)["verdict"]
        except (ValueError, KeyError):
            v = {"class": f"error(rc={p.returncode})", "culprit": {}}
        ranks = sorted(v.get("culprit", {}).get("ranks", []) or [])
        klass = v.get("class")
        class_ok = klass == truth["klass"] or klass in truth["accept"]
        want = sorted(truth.get("culprit_ranks", [truth["rank"]]))
        culprit_ok = ranks == want if truth["fault"] in CULPRIT_SCORED else None
        hosts, host_ok = score_hosts(truth, v.get("culprit", {}).get("hosts", []) or [])
        # From the truth and the log files only (decidable.py), never from the verdict.
        undecidable = (undecidable_reason(truth, triage_inputs_logs(run_dir, truth["launcher"]))
                       if culprit_ok is not None else None)
        rows.append({"truth": truth, "class": klass, "ranks": ranks, "class_ok": class_ok,
                     "culprit_ok": culprit_ok, "hosts": hosts, "host_ok": host_ok, "id": v.get("id"),
                     "undecidable": undecidable})
    return report(rows, args)


def score_hosts(truth, named):
    """Culprit-host exact: the verdict's hosts, each read as a host of the run (its name, or one of
    its addresses: a log that gives only "[198.19.0.2]:port" still names that host), are exactly the
    victim's. Tokens that are no host of the run stay as they are (and make it wrong).
    -> (hosts as named, ok or None when the run has no victim host)"""
    if "victim_host" not in truth or truth["fault"] not in CULPRIT_SCORED:
        return named, None
    alias = {}
    for h, addrs in truth.get("host_addrs", {}).items():
        alias[h] = h
        for a in addrs:
            alias[a] = h
    return named, {alias.get(h, h) for h in named} == {truth["victim_host"]}


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.0f} %)" if b else "-"


def report(rows, args):
    scored = [r for r in rows if "skipped" not in r]
    skipped = [r for r in rows if "skipped" in r]
    # class ok/n, culprit ok/n, host ok/n, decidable culprit ok/n
    by = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0, 0])
    conf = collections.defaultdict(collections.Counter)
    for r in scored:
        t = r["truth"]
        for key in (("fault", t["fault"]), ("launcher", t["launcher"]), ("all", "all")):
            s = by[key]
            s[0] += r["class_ok"]
            s[1] += 1
            if r["culprit_ok"] is not None:
                s[2] += r["culprit_ok"]
                s[3] += 1
            if r.get("host_ok") is not None:
                s[4] += r["host_ok"]
                s[5] += 1
            if r["culprit_ok"] is not None and not r.get("undecidable"):
                s[6] += r["culprit_ok"]
                s[7] += 1
        conf[t["klass"]][r["class"]] += 1
    lines = [f"runs: {len(rows)} ({len(skipped)} skipped" +
             (f": {skipped[0]['skipped']}" if skipped else "") + ")", "",
             "| group | class right | culprit exact | decidable culprit exact | culprit host exact |",
             "|---|---|---|---|---|"]
    for kind in ("fault", "launcher", "all"):
        for key in sorted(k for k in by if k[0] == kind):
            s = by[key]
            lines.append(f"| {key[1]} | {pct(s[0], s[1])} | {pct(s[2], s[3])} | {pct(s[6], s[7])} | {pct(s[4], s[5])} |")
    a = by[("all", "all")]
    lines += ["", f"decidable culprit exact: {a[6]}/{a[7]}" + (f" ({100.0 * a[6] / a[7]:.1f} %)" if a[7] else "")]
    for kind in ("launcher", "fault"):
        lines.append(f"  per {kind}: " + ", ".join(f"{k[1]} {by[k][6]}/{by[k][7]}"
                                                  for k in sorted(k for k in by if k[0] == kind) if by[k][7]))
    undec = collections.Counter(r["undecidable"] for r in scored if r.get("undecidable"))
    lines.append(f"undecidable culprit: {sum(undec.values())}" +
                 "".join(f"\n  {n} {why}" for why, n in sorted(undec.items(), key=lambda x: -x[1])))
    # The third goal: a verdict never names a victim above the real culprit. A miss either
    # names victims only (the culprit absent), names the culprit beside others, or names no rank.
    judged = [r for r in scored if r["culprit_ok"] is False]
    want = lambda r: set(r["truth"].get("culprit_ranks", [r["truth"]["rank"]]))
    victims_only = sum(1 for r in judged if r["ranks"] and not (set(r["ranks"]) & want(r)))
    with_others = sum(1 for r in judged if set(r["ranks"]) > want(r))
    lines += ["", f"culprit misses: {len(judged)} - victims only (culprit not named): {victims_only}, "
              f"culprit named beside others: {with_others}, "
              f"no rank or part of the culprits: {len(judged) - victims_only - with_others}"]
    classes = sorted({c for row in conf.values() for c in row} | set(conf))
    lines += ["", "Confusion (rows: truth class, columns: verdict class)", "",
              "| truth \\ verdict | " + " | ".join(classes) + " |", "|---" * (len(classes) + 1) + "|"]
    for t in sorted(conf):
        lines.append(f"| {t} | " + " | ".join(str(conf[t][c] or "") for c in classes) + " |")
    wrong = [r for r in scored if not r["class_ok"] or r["culprit_ok"] is False or r.get("host_ok") is False]
    lines += ["", f"misses: {len(wrong)}"]
    for r in wrong[:60]:
        t = r["truth"]
        where = f" on {t['victim_host']} ({t['hosts']} hosts) -> hosts {r['hosts']}" if "victim_host" in t else ""
        lines.append(f"  {t['id']} {t['launcher']} {t['fault']} rank {t['rank']}/{t['world_size']}{where}: "
                     f"{r['class']} {r['ranks']} ({r['id']})" + (" [undecidable]" if r.get("undecidable") else ""))
    print("\n".join(lines))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "groups": {f"{k[0]}:{k[1]}": v for k, v in by.items()}}, f, indent=1)
    a = by[("all", "all")]
    if args.min_host is not None and a[5] and a[4] / a[5] < args.min_host:
        print(f"FAIL: culprit-host accuracy {a[4] / a[5]:.3f} < {args.min_host}", file=sys.stderr)
        return 1
    if args.min_class is not None and a[1] and a[0] / a[1] < args.min_class:
        print(f"FAIL: class accuracy {a[0] / a[1]:.3f} < {args.min_class}", file=sys.stderr)
        return 1
    if args.min_culprit is not None and a[3] and a[2] / a[3] < args.min_culprit:
        print(f"FAIL: culprit accuracy {a[2] / a[3]:.3f} < {args.min_culprit}", file=sys.stderr)
        return 1
    if not scored:
        print("FAIL: no run was scored", file=sys.stderr)
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=("produce", "score", "run"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-world", type=int, default=8)
    ap.add_argument("--quick", action="store_true", help="small worlds, 6 s timeouts (the CTest subset)")
    ap.add_argument("--faults", help="comma list (default: all)")
    ap.add_argument("--launchers", help="comma list (default: all)")
    ap.add_argument("--ncdx")
    ap.add_argument("--json")
    ap.add_argument("--min-class", type=float)
    ap.add_argument("--min-culprit", type=float)
    ap.add_argument("--min-host", type=float, help="floor of culprit-host exact (runs with a victim host)")
    ap.add_argument("--keep", action="store_true", help="run: keep the run directories")
    ap.add_argument("--resume", action="store_true", help="produce: keep finished runs, make the rest")
    ap.add_argument("--fr", action="store_true",
                    help="produce: ranks whose collective failed write Flight Recorder dumps (triage reads them with --fr)")
    args = ap.parse_args()
    if args.cmd in ("score", "run") and not args.ncdx:
        ap.error("--ncdx is needed to score")
    # Namespace hosts are removed by name also when the driver is stopped (CTest's timeout sends
    # SIGTERM) or fails.
    atexit.register(Hosts.down_all)

    def stopped(signum, frame):
        Hosts.down_all()
        os._exit(128 + signum)
    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGINT, stopped)
    if args.cmd == "produce":
        return produce(args)
    if args.cmd == "score":
        return score(args)
    rc = produce(args)
    if rc != 0:
        return rc
    try:
        return score(args)
    finally:
        if not args.keep:
            shutil.rmtree(args.out, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
