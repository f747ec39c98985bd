"""Which runs of the fault bench a log can decide: written rules, each with its reason, computed
from the ground truth (fault, culprit rank, world size) and the log content only, never from a
verdict. A run that is not decidable still counts in "culprit exact"; "decidable culprit exact"
leaves it out. docs/TRIAGE.md ("Decidable culprit") keeps the same list.

  undecidable_reason(truth, paths) -> the reason (str) when the culprit cannot be named from the
  log, else None.
"""
import os
import re

# Faults whose evidence is the same on both ranks of a two-rank job, whichever one is at fault:
# each rank prints the same report with the two sides swapped (PyTorch's "Detected mismatch between
# collectives ... Rank 0 is running ..., but Rank 1 is running ..." names both fingerprints, and with
# two there is no majority), or each waits for the other (a different collective: both time out or
# one times out and the other loses the connection when it exits), or one serves the store and the
# other is its only client (a wrong MASTER_PORT on either side: the server prints "1/2 clients
# joined", the client "timed out ... trying to connect to (addr, port)", the same lines whichever
# one was given the wrong port; only the launcher's setting, not in the log, tells).
SYMMETRIC_AT_2 = {
    "wrong_collective": "the two ranks' mismatch reports are each other's mirror image (no majority of two)",
    "wrong_shape": "the two ranks' mismatch reports are each other's mirror image (no majority of two)",
    "wrong_dtype": "the two ranks' mismatch reports are each other's mirror image (no majority of two)",
    "other_collective": "each rank waits in its own collective for the other; either one entered the odd one",
    # (when rank 0 serves the store, env://; not under torchrun: AGENT_STORE below)
    "wrong_port": "store server and its only client print the same timeouts whichever was given the wrong port",
}

# torchrun's agent serves the store (torch/distributed/run.py: TORCHELASTIC_USE_AGENT_STORE), so
# both ranks are its clients and the one that reached it outvotes the one that did not: a wrong
# port is decidable there. Its lines: torch.distributed.elastic's own log lines, its failure block.
AGENT_STORE = re.compile(r"torch/distributed/elastic/|\brank\s*:\s*\d+ \(local_rank")

# Faults that leave the culprit silent: it prints no error of its own, so only elimination (the
# ranks that did report, against the ranks the job has) can name it.
SILENT = {"sleep_hang", "early_exit"}

# Faults whose culprit the launcher reports by its own exit (a signal: "exited on signal 9",
# "exitcode: -11", "task 3: Segmentation fault"), with or without per-line rank prefixes.
BY_SIGNAL = {"sigkill", "sigsegv", "sigabrt"}

# Rank identities a log format carries (each group(1) a rank, or a Slurm task range):
PER_LINE = [
    re.compile(r"^\[rank(\d+)\]:"),                    # PyTorch's "[rankN]:" on a group member's stderr
    re.compile(r"^\[\d+,(\d+)\]<std(?:out|err)>:"),    # mpirun --tag-output "[jobid,rank]<stderr>:"
    re.compile(r"^(\d+): "),                           # srun --label "N: "
    # torchrun --tee/--redirects "[<role><local_rank>]:"; the local rank is the rank on one node
    # (a multi-node console's global ranks come from its failure block below).
    re.compile(r"^\[[A-Za-z_]\w*?(\d+)\]:"),
    re.compile(r"\bRank (\d+) is running collective"),  # PyTorch's mismatch report names both ranks
]
LAUNCHER = [
    re.compile(r"\brank\s*:\s*(\d+) \(local_rank"),               # torchrun's failure block entry
    re.compile(r"\bprocess rank (\d+) with PID"),                 # mpirun: "process rank 3 with PID ... exited on signal"
    re.compile(r"Process name: \[\[\d+,\d+\],(\d+)\]"),           # mpirun: the first process to fail
    re.compile(r"^srun: error: \S+: tasks? ([\d,\-]+):"),         # srun: one line per task status (ranges)
]


def _expand(group):
    out = set()
    for part in group.split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit() and (not hi or hi.isdigit()):
            out.update(range(int(lo), int(hi or lo) + 1))
    return out


def _files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                yield from (os.path.join(root, n) for n in names)
        elif os.path.isfile(p):
            yield p


def _any_line(paths, rx):
    for f in _files(paths):
        with open(f, errors="replace") as fh:
            if any(rx.search(line) for line in fh):
                return True
    return False


def rank_identities(paths):
    """-> (ranks a per-line marker or a per-rank log file names, ranks a launcher report names)."""
    per_line, launcher = set(), set()
    for f in _files(paths):
        # torchrun --log-dir: attempt_K/<rank>/stderr.log (one node: local rank = rank)
        m = re.search(r"attempt_\d+/(\d+)/[^/]+$", f)
        if m and os.path.getsize(f):
            per_line.add(int(m.group(1)))
        with open(f, errors="replace") as fh:
            for line in fh:
                for rx in PER_LINE:
                    m = rx.search(line)
                    if m:
                        per_line.add(int(m.group(1)))
                for rx in LAUNCHER:
                    m = rx.search(line)
                    if m:
                        launcher |= _expand(m.group(1))
    return per_line, launcher


def undecidable_reason(truth, paths):
    fault, world = truth["fault"], truth["world_size"]
    culprit = set(truth.get("culprit_ranks", [truth["rank"]]))
    if world == 2 and fault in SYMMETRIC_AT_2 and not (fault == "wrong_port" and _any_line(paths, AGENT_STORE)):
        return "world 2, symmetric: " + SYMMETRIC_AT_2[fault]
    if fault == "link_drop":
        # Both ends of a dropped link time out alike, and a drop sends no reset (faults.py TRUTH).
        return "a dropped link: both ends see the same timeouts, no rank gets a socket error"
    per_line, launcher = rank_identities(paths)
    seen = per_line | launcher
    # A rank the log never shows, above every rank it shows: the log does not even show that it
    # exists (a job's ranks are 0..N-1, so a lower one would), and no verdict can name it.
    if fault in SILENT and not (culprit & seen) and (not seen or min(culprit) > max(seen)):
        return "silent culprit the log never shows (no line names its rank, none above it)"
    # No line says which rank printed it (a plain console before the process group's "[rankN]:"
    # prefix exists, no launcher tags) and the launcher names one process at most (mpirun's "The
    # first process to do so was: Process name: [[j,1],N]"): who printed which error, or who stayed
    # silent, cannot be read; only a crash signal's rank can. torchrun's block and srun's task lines
    # give every failed rank's own status instead, which can decide.
    if not per_line and len(launcher) <= 1 and fault not in BY_SIGNAL:
        return "no line carries the rank that printed it, the launcher names one process at most"
    return None
