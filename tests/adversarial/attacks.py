#!/usr/bin/env python3
"""Adversarial suite (issue #12): hostile inputs against every reader and writer of ncdx.

Each attack builds its input in a private temporary directory, runs the real ncdx binary and
checks what must hold: nothing written outside the output, nothing clobbered, no hang, no crash
(never exit 70 or a signal), nothing raw on a terminal, no secret printed, bad input is 65 and
bad flags are 64. `attacks.py --list` prints the names; CTest runs one test per name.

Usage: attacks.py --ncdx BIN --data TESTS_DATA_DIR NAME...
"""
import argparse
import gzip
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile

NCDX = None
DATA = None
ATTACKS = {}
# No test may hang: a run that passes this is a failure (the hang attacks are exactly that).
RUN_LIMIT_S = 60


def attack(kind):
    def reg(fn):
        ATTACKS[fn.__name__] = (kind, fn)
        return fn
    return reg


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def run(args, env=None, stdin=None, cwd=None):
    e = dict(os.environ)
    e["LC_ALL"] = "C"
    e["NO_COLOR"] = "1"
    for k in list(e):
        if k.startswith(("NCCL_", "TORCH_", "HF_", "WANDB_")):
            del e[k]
    if env:
        e.update(env)
    try:
        p = subprocess.run([NCDX] + args, env=e, cwd=cwd, input=stdin, capture_output=True,
                           timeout=RUN_LIMIT_S)
    except subprocess.TimeoutExpired:
        raise Fail(f"ncdx {' '.join(args)}: no answer after {RUN_LIMIT_S} s (hang)")
    rc = p.returncode
    check(rc >= 0, f"ncdx {' '.join(args)}: killed by signal {-rc}: {p.stderr[-400:]!r}")
    check(rc != 70, f"ncdx {' '.join(args)}: internal error (70): {p.stderr[-400:]!r}")
    return rc, p.stdout, p.stderr


def tree(path):
    """Every path under `path` (files, dirs, links) with its content for files."""
    out = {}
    for dp, dns, fns in os.walk(path, followlinks=False):
        for n in dns + fns:
            p = os.path.join(dp, n)
            rel = os.path.relpath(p, path)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out[rel] = f.read()
            else:
                out[rel] = "dir"
    return out


def write(path, data, mode="w"):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, mode) as f:
        f.write(data)
    return path


def machine_copy(tmp, name="nodriver"):
    dst = os.path.join(tmp, "root")
    shutil.copytree(os.path.join(DATA, "machines", name), dst, symlinks=True)
    return dst


def no_escape_bytes(blob, where):
    check(b"\x1b" not in blob, f"{where}: a raw ESC byte reached the output")
    check(b"\x9b" not in blob.replace("\u009b".encode(), b""), f"{where}: a raw C1 CSI reached the output")
    check("\u009b".encode() not in blob, f"{where}: a raw U+009B (CSI) reached the output")
    check(b"\x07" not in blob, f"{where}: a raw BEL reached the output")


# ---------------------------------------------------------------- writers -----------------------
@attack("writer")
def output_nonempty_dir(tmp):
    d = os.path.join(tmp, "out")
    write(os.path.join(d, "notes.txt"), "mine")
    rc, _, err = run(["doctor", "--root", machine_copy(tmp), "--output", d])
    check(rc == 64, f"non-empty --output accepted (rc {rc})")
    check(sorted(os.listdir(d)) == ["notes.txt"], f"files written into a non-empty dir: {os.listdir(d)}")
    check(b"not empty" in err, f"message does not say why: {err!r}")


@attack("writer")
def output_nonempty_dir_force(tmp):
    d = os.path.join(tmp, "out")
    write(os.path.join(d, "notes.txt"), "mine")
    rc, _, err = run(["doctor", "--root", machine_copy(tmp), "--output", d, "--force"])
    check(rc in (0, 1, 2), f"--force refused (rc {rc}): {err!r}")
    check(os.path.isfile(os.path.join(d, "report.json")), "no report.json with --force")
    check(open(os.path.join(d, "notes.txt")).read() == "mine", "an unrelated file was touched")


@attack("writer")
def output_symlink_to_dir(tmp):
    victim = os.path.join(tmp, "etc")
    write(os.path.join(victim, "passwd"), "root:x:0:0\n")
    os.symlink(victim, os.path.join(tmp, "link_to_etc"))
    before = tree(victim)
    rc, _, err = run(["doctor", "--root", machine_copy(tmp), "--output", os.path.join(tmp, "link_to_etc")])
    check(rc == 64, f"symlinked --output accepted (rc {rc})")
    check(tree(victim) == before, "files written through a symlinked --output")
    check(b"symlink" in err, f"message does not say why: {err!r}")


@attack("writer")
def output_symlink_parent(tmp):
    victim = os.path.join(tmp, "etc")
    os.makedirs(victim)
    os.symlink(victim, os.path.join(tmp, "link"))
    rc, _, _ = run(["doctor", "--root", machine_copy(tmp), "--output", os.path.join(tmp, "link", "report")])
    check(rc == 64, f"--output below a symlink accepted (rc {rc})")
    check(os.listdir(victim) == [], f"created below a symlinked parent: {os.listdir(victim)}")


@attack("writer")
def output_relative_symlink(tmp):
    victim = os.path.join(tmp, "victim")
    os.makedirs(victim)
    os.makedirs(os.path.join(tmp, "work"))
    os.symlink("../victim", os.path.join(tmp, "work", "out"))
    rc, _, _ = run(["doctor", "--root", machine_copy(tmp), "--output", "out"], cwd=os.path.join(tmp, "work"))
    check(rc == 64, f"relative symlinked --output accepted (rc {rc})")
    check(os.listdir(victim) == [], "written through a relative symlink")


@attack("writer")
def output_leaf_symlinks_replaced(tmp):
    # With --force into an existing dir whose report.json is a planted link: the link is replaced.
    victim = write(os.path.join(tmp, "precious"), "precious\n")
    d = os.path.join(tmp, "out")
    os.makedirs(d)
    for n in ("report.json", "summary.txt", "report.html", "junit.xml", "metrics.prom"):
        os.symlink(victim, os.path.join(d, n))
    rc, _, _ = run(["doctor", "--root", machine_copy(tmp), "--output", d, "--force"])
    check(rc in (0, 1, 2), f"rc {rc}")
    check(open(victim).read() == "precious\n", "a planted symlink in the report dir was followed")
    check(not os.path.islink(os.path.join(d, "report.json")), "report.json is still a link")


@attack("writer")
def output_is_a_file(tmp):
    f = write(os.path.join(tmp, "afile"), "keep")
    rc, _, _ = run(["doctor", "--root", machine_copy(tmp), "--output", f])
    check(rc in (64, 66), f"--output naming a file: rc {rc}")
    check(open(f).read() == "keep", "a file named by --output was clobbered")


@attack("writer")
def triage_output_symlink(tmp):
    victim = os.path.join(tmp, "v")
    os.makedirs(victim)
    os.symlink(victim, os.path.join(tmp, "o"))
    log = write(os.path.join(tmp, "rank0.log"), "torch.OutOfMemoryError: CUDA out of memory.\n")
    rc, _, _ = run(["triage", log, "--output", os.path.join(tmp, "o")])
    check(rc == 64, f"triage --output through a symlink: rc {rc}")
    check(os.listdir(victim) == [], "triage wrote through a symlink")


@attack("writer")
def save_existing_file(tmp):
    f = write(os.path.join(tmp, "snap.json"), "precious")
    rc, _, err = run(["doctor", "--root", machine_copy(tmp), "--save", f])
    check(rc == 64, f"--save over an existing file accepted (rc {rc})")
    check(open(f).read() == "precious", "--save overwrote a file silently")
    rc, _, _ = run(["doctor", "--root", os.path.join(tmp, "root"), "--save", f, "--force"])
    check(rc in (0, 1, 2) and json.load(open(f))["schema"] == "ncdx.snapshot/1", "--save --force did not write")


@attack("writer")
def save_symlink(tmp):
    victim = write(os.path.join(tmp, "victim"), "precious")
    os.symlink(victim, os.path.join(tmp, "snap.json"))
    rc, _, _ = run(["doctor", "--root", machine_copy(tmp), "--save", os.path.join(tmp, "snap.json")])
    check(rc == 64, f"--save through a symlink accepted (rc {rc})")
    check(open(victim).read() == "precious", "--save wrote through a symlink")


@attack("writer")
def gather_nonempty_dir(tmp):
    d = os.path.join(tmp, "bundle")
    write(os.path.join(d, "x"), "x")
    rc, _, _ = run(["gather", "--root", machine_copy(tmp), "--output", d, "--quick"])
    check(rc == 64, f"gather into a non-empty dir: rc {rc}")
    check(os.listdir(d) == ["x"], "gather wrote into a non-empty dir")


def hostile_net_tree(tmp):
    root = machine_copy(tmp)
    net = os.path.join(root, "sys", "class", "net")
    os.makedirs(net, exist_ok=True)
    os.makedirs(os.path.join(root, "hide", "x1", "x2", "x3"), exist_ok=True)
    os.symlink("x1/x2/x3", os.path.join(root, "hide", "bb"))
    # Inside the source tree this resolves to root/dd; replayed with hide/bb as a real directory
    # it climbs out of the bundle.
    os.symlink("../../../hide/bb/../../../../dd", os.path.join(net, "eth8"))
    for f, v in (("operstate", "up"), ("mtu", "1500"), ("address", "aa:bb:cc:dd:ee:ff"), ("type", "1"),
                 ("speed", "100000")):
        write(os.path.join(root, "dd", f), v + "\n")
    return root


@attack("writer")
def gather_chained_links(tmp):
    root = hostile_net_tree(tmp)
    world = os.path.join(tmp, "world")
    os.makedirs(os.path.join(world, "out"))
    before = tree(world)
    rc, _, err = run(["gather", "--root", root, "--output", os.path.join(world, "out", "bundle"), "--quick"])
    check(rc == 0, f"gather rc {rc}: {err!r}")
    after = {k: v for k, v in tree(world).items() if not k.startswith(os.path.join("out", "bundle"))}
    check(after == before, f"gather created files outside its bundle: {sorted(set(after) - set(before))}")
    check(not os.path.exists(os.path.join(tmp, "dd")), "gather created a directory above the bundle")
    links = json.load(open(os.path.join(world, "out", "bundle", "ncdx", "links.json")))
    check(isinstance(links, list), "ncdx/links.json is not a list")
    # The bundle replays: doctor --from it reads back without error.
    rc, _, err = run(["doctor", "--from", os.path.join(world, "out", "bundle"), "--quick"])
    check(rc in (0, 1, 2), f"doctor --from the bundle: rc {rc}: {err!r}")


@attack("writer")
def gather_absolute_and_climbing_links(tmp):
    root = machine_copy(tmp)
    net = os.path.join(root, "sys", "class", "net")
    os.makedirs(net, exist_ok=True)
    os.symlink("/etc", os.path.join(net, "eth9"))
    os.symlink("../../../../../../../../../../" + tmp.lstrip("/") + "/escaped", os.path.join(net, "eth7"))
    world = os.path.join(tmp, "w")
    os.makedirs(world)
    rc, _, err = run(["gather", "--root", root, "--output", os.path.join(world, "b"), "--quick"])
    check(rc == 0, f"gather rc {rc}: {err!r}")
    check(not os.path.exists(os.path.join(tmp, "escaped")), "a climbing link created a directory outside")
    for dp, dns, fns in os.walk(os.path.join(world, "b")):
        for n in dns + fns:
            p = os.path.join(dp, n)
            if os.path.islink(p):
                real = os.path.realpath(p)
                check(real.startswith(os.path.realpath(os.path.join(world, "b")) + "/"),
                      f"bundle link {p} -> {os.readlink(p)} resolves outside the bundle")


@attack("writer")
def gather_secret_env(tmp):
    tok = "ghp_" + "A1b2C3d4" * 5
    rc, out, err = run(["gather", "--root", machine_copy(tmp), "--output", os.path.join(tmp, "b"), "--quick"],
                       env={"NCCL_IB_HCA": "mlx5", "NCCL_SOME_URL": "https://bob:hunter2pw@x.example/",
                            "VLLM_INNOCENT": tok, "HF_TOKEN": "hf_xxxxxxxxxxxxxxxxxxxxxxxx"})
    check(rc == 0, f"gather rc {rc}: {err!r}")
    for p, v in tree(os.path.join(tmp, "b")).items():
        if isinstance(v, bytes):
            for s in (tok.encode(), b"hunter2pw", b"hf_xxxxxxxx"):
                check(s not in v, f"secret {s[:8]!r}… in bundle file {p}")


# ---------------------------------------------------------------- special files -----------------
def fifo_tree(tmp):
    root = machine_copy(tmp)
    n = 0
    for rel in ("proc/meminfo", "proc/cmdline", "proc/mounts", "etc/nccl.conf", "proc/self/limits"):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if os.path.lexists(p):
            os.remove(p)
        os.mkfifo(p)
        n += 1
    return root


@attack("special-file")
def fifo_in_root_doctor(tmp):
    rc, _, _ = run(["doctor", "--root", fifo_tree(tmp)])
    check(rc in (0, 1, 2), f"doctor over FIFOs: rc {rc}")


@attack("special-file")
def fifo_in_root_gather(tmp):
    rc, _, _ = run(["gather", "--root", fifo_tree(tmp), "--output", os.path.join(tmp, "b"), "--quick"])
    check(rc == 0, f"gather over FIFOs: rc {rc}")
    for dp, _, fns in os.walk(os.path.join(tmp, "b")):
        for n in fns:
            check(not stat.S_ISFIFO(os.lstat(os.path.join(dp, n)).st_mode), "a FIFO was copied into the bundle")


@attack("special-file")
def fifo_as_from(tmp):
    f = os.path.join(tmp, "snap.json")
    os.mkfifo(f)
    rc, _, _ = run(["doctor", "--from", f])
    check(rc in (65, 66), f"doctor --from FIFO: rc {rc}")


@attack("special-file")
def socket_in_root(tmp):
    root = machine_copy(tmp)
    p = os.path.join(root, "proc", "meminfo")
    if os.path.lexists(p):
        os.remove(p)
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(p)
    except OSError as e:  # path too long for sun_path
        raise SkipTest(f"cannot bind a unix socket here: {e}")
    try:
        rc, _, _ = run(["doctor", "--root", root])
        check(rc in (0, 1, 2), f"doctor over a socket: rc {rc}")
    finally:
        s.close()


@attack("special-file")
def links_out_of_root(tmp):
    root = machine_copy(tmp)
    secret = write(os.path.join(tmp, "host_secret"), "HOSTSECRET-root:x:0:0\n")
    for rel, target in (("etc/nccl.conf", secret), ("proc/cmdline", "../../host_secret"),
                        ("proc/meminfo", "../../../../../../../../../../" + secret.lstrip("/")),
                        ("proc/version", "/dev/zero")):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if os.path.lexists(p):
            os.remove(p)
        os.symlink(target, p)
    for args in (["doctor", "--root", root, "--json"], ["gather", "--root", root, "--output", os.path.join(tmp, "b"), "--quick"]):
        rc, out, err = run(args)
        check(rc in (0, 1, 2), f"{args[0]} rc {rc}")
        check(b"HOSTSECRET" not in out + err, f"{args[0]} read a file outside --root")
    for p, v in tree(os.path.join(tmp, "b")).items():
        check(not (isinstance(v, bytes) and b"HOSTSECRET" in v), f"bundle {p} holds a host file")


@attack("special-file")
def device_link_in_root(tmp):
    root = machine_copy(tmp)
    p = os.path.join(root, "proc", "meminfo")
    if os.path.lexists(p):
        os.remove(p)
    os.symlink("../dev/zero", p)
    os.makedirs(os.path.join(root, "dev"), exist_ok=True)
    try:
        os.mknod(os.path.join(root, "dev", "zero"), 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    except (PermissionError, OSError) as e:
        raise SkipTest(f"mknod not permitted here ({e}); a device node cannot be planted")
    rc, _, _ = run(["doctor", "--root", root])
    check(rc in (0, 1, 2), f"doctor over a device node: rc {rc}")


# ---------------------------------------------------------------- JSON readers -------------------
def snapshot_with(tmp, number="1e999"):
    text = '{"schema": "ncdx.snapshot/1", "inventory": {"os": {"mem_total_bytes": %s}}}' % number
    return write(os.path.join(tmp, "snap.json"), text)


@attack("json")
def json_range_doctor(tmp):
    f = snapshot_with(tmp)
    rc, _, err = run(["doctor", "--from", f])
    check(rc == 65, f"doctor --from 1e999: rc {rc}")
    check(b"snap.json" in err, f"the file is not named: {err!r}")


@attack("json")
def json_range_topo(tmp):
    f = write(os.path.join(tmp, "t.json"), '{"topology": {"gpus": [{"index": 1e999}]}}')
    rc, _, err = run(["topo", "--from", f])
    check(rc == 65, f"topo --from 1e999: rc {rc}: {err!r}")


@attack("json")
def json_range_audit(tmp):
    f = snapshot_with(tmp)
    rc, _, err = run(["audit", "--from", f, "--", "trainer.n_gpus_per_node=8"])
    check(rc == 65, f"audit --from 1e999: rc {rc}: {err!r}")


@attack("json")
def json_range_env_recommend(tmp):
    f = snapshot_with(tmp)
    rc, _, err = run(["env", "recommend", "--nodes", "2", "--from", f])
    check(rc == 65, f"env recommend --from 1e999: rc {rc}: {err!r}")


@attack("json")
def json_negative_range(tmp):
    f = snapshot_with(tmp, "-1e999")
    rc, _, _ = run(["doctor", "--from", f])
    check(rc == 65, f"-1e999: rc {rc}")


@attack("json")
def json_deep_nesting(tmp):
    f = write(os.path.join(tmp, "deep.json"), "[" * 200000 + "]" * 200000)
    for args in (["doctor", "--from", f], ["topo", "--from", f]):
        rc, _, err = run(args)
        check(rc == 65, f"{args[0]} --from 200k-deep JSON: rc {rc}")
        check(b"deep" in err or b"nested" in err, f"no depth message: {err[-200:]!r}")


@attack("json")
def json_wrong_types(tmp):
    for body in ('{"schema": "ncdx.snapshot/1", "inventory": []}',
                 '{"schema": "ncdx.snapshot/1", "inventory": {"os": "x", "gpus": 5}}',
                 '{"schema": "ncdx.snapshot/1", "inventory": {"gpus": [{"index": "zero", "uuid": 7}]}}',
                 '{"schema": 5}', '[]', '"str"', 'null', '{"schema": "ncdx.snapshot/1"}'):
        f = write(os.path.join(tmp, "w.json"), body)
        rc, _, err = run(["doctor", "--from", f])
        check(rc in (0, 1, 2, 65), f"doctor --from {body}: rc {rc}: {err[-200:]!r}")


@attack("json")
def json_invalid_utf8(tmp):
    f = write(os.path.join(tmp, "u.json"), b'{"schema": "ncdx.snapshot/1", "inventory": {"os": {"hostname": "\xff\xfe\x1b[2J"}}}', "wb")
    rc, out, _ = run(["doctor", "--from", f])
    check(rc in (0, 1, 2, 65), f"rc {rc}")
    no_escape_bytes(out, "doctor text")


@attack("json")
def fr_json_range(tmp):
    d = os.path.join(tmp, "fr")
    write(os.path.join(d, "nccl_trace_rank_0"), '{"version": "2.10", "entries": [{"record_id": 1e999}]}')
    rc, _, err = run(["triage", "--fr", d])
    check(rc in (0, 1, 2, 65), f"FR JSON 1e999: rc {rc}: {err!r}")


# ---------------------------------------------------------------- dumps ----------------------
@attack("dump")
def fr_no_valid_record(tmp):
    d = os.path.join(tmp, "fr")
    write(os.path.join(d, "nccl_trace_rank_0"), '{"version": "2.10", "entries": [1, "x", null]}')
    rc, out, err = run(["triage", "--fr", d])
    check(rc == 65, f"dump with no valid record reported as rc {rc}: {out[:200]!r}")
    check(b"3 skipped" in err, f"no count of what was skipped: {err!r}")


@attack("dump")
def fr_unknown_format(tmp):
    d = os.path.join(tmp, "fr")
    write(os.path.join(d, "nccl_trace_rank_0"), "this is not a dump\n")
    write(os.path.join(d, "nccl_trace_rank_1"), b"\x89PNG\r\n\x1a\n", "wb")
    rc, _, err = run(["triage", "--fr", d])
    check(rc == 65, f"files that are not dumps: rc {rc} (expected 65): {err!r}")
    rc, _, _ = run(["triage", "--fr", os.path.join(d, "nccl_trace_rank_0")])
    check(rc == 65, f"one file that is not a dump: rc {rc}")


@attack("dump")
def fr_code_pickles(tmp):
    mal = os.path.join(DATA, "fr", "malicious")
    for n in sorted(os.listdir(mal)):
        rc, _, err = run(["triage", "--fr", os.path.join(mal, n)])
        check(rc == 65, f"{n}: rc {rc}")


@attack("dump")
def fr_truncated_pickles(tmp):
    src = os.path.join(DATA, "fr", "hang_rank2")
    files = sorted(f for f in os.listdir(src) if f.startswith("nccl_trace_rank_"))
    blob = open(os.path.join(src, files[0]), "rb").read()
    for cut in (1, 2, 7, len(blob) // 3, len(blob) // 2, len(blob) - 1):
        f = write(os.path.join(tmp, "nccl_trace_rank_0"), blob[:cut], "wb")
        rc, _, _ = run(["triage", "--fr", f])
        check(rc == 65, f"pickle cut at {cut}: rc {rc}")


# ---------------------------------------------------------------- scripts / configs ----------
def nested(depth):
    return "${A:-" * depth + "x" + "}" * depth


@attack("script")
def shell_nesting_12000(tmp):
    f = write(os.path.join(tmp, "run.sh"), "#!/bin/bash\nX=" + nested(12000) + "\npython3 -m verl.trainer.main_ppo a=$X\n")
    rc, _, err = run(["audit", "--script", f])
    check(rc == 65, f"12 000-deep ${{A:-…}}: rc {rc}")
    check(b"run.sh:2" in err, f"no file:line in {err[-200:]!r}")


@attack("script")
def shell_nesting_50000(tmp):
    f = write(os.path.join(tmp, "run.sh"), "X=" + nested(50000) + "\n")
    rc, _, err = run(["audit", "--script", f])
    check(rc == 65, f"50 000-deep: rc {rc}")


@attack("script")
def shell_nesting_shallow_ok(tmp):
    f = write(os.path.join(tmp, "run.sh"), "X=" + nested(8) + "\npython3 -m verl.trainer.main_ppo trainer.nnodes=1 a=$X\n")
    rc, _, err = run(["audit", "--script", f])
    check(rc in (0, 1, 2), f"8-deep expansion refused: rc {rc}: {err!r}")


@attack("script")
def shell_never_runs_code(tmp):
    marker = os.path.join(tmp, "PWNED")
    f = write(os.path.join(tmp, "run.sh"),
              f"X=$(touch {marker})\nY=`touch {marker}`\nZ=\"$(touch {marker})\"\n"
              f"python3 -m verl.trainer.main_ppo a=$(touch {marker}) b=$X\n")
    rc, _, _ = run(["audit", "--script", f])
    check(rc in (0, 1, 2), f"rc {rc}")
    check(not os.path.exists(marker), "a command substitution in a script was executed")


@attack("script")
def yaml_billion_laughs(tmp):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
    f = write(os.path.join(tmp, "cfg.yaml"), "\n".join(lines) + "\n")
    rc, _, _ = run(["audit", "--config", f])
    check(rc == 65, f"YAML billion laughs: rc {rc}")


@attack("script")
def yaml_deep_nesting(tmp):
    f = write(os.path.join(tmp, "cfg.yaml"), "a: " + "[" * 100000 + "]" * 100000 + "\n")
    rc, _, _ = run(["audit", "--config", f])
    check(rc == 65, f"YAML 100k-deep: rc {rc}")


@attack("script")
def env_file_hostile_lines(tmp):
    body = "".join(["export NCCL_DEBUG=INFO\n", "NCCL_X='unterminated\n", "=novalue\n", "A" * 100000 + "=1\n",
                    "NCCL_SOCKET_IFNAME=\x1b]0;pwned\x07eth0\n", "\x00\x01\x02=\x03\n"])
    f = write(os.path.join(tmp, "e.env"), body)
    rc, out, _ = run(["env", "lint", "--env-file", f])
    check(rc in (0, 1, 2, 65), f"rc {rc}")
    no_escape_bytes(out, "env lint")


# ---------------------------------------------------------------- display ------------------
ESC_PAYLOAD = "\x1b]0;owned\x07\x1b[2J\x1b[H\u009b31m\u202e"


def fr_dump_dir(tmp, name=ESC_PAYLOAD, desc=ESC_PAYLOAD, only_first=False):
    """The hang_rank2 JSON dumps with hostile names; only_first: one entry of rank 0 only (big)."""
    d = os.path.join(tmp, "fr")
    src = os.path.join(DATA, "fr", "hang_rank2_json")
    for r, f in enumerate(sorted(os.listdir(src))):
        j = json.load(open(os.path.join(src, f)))
        for i, e in enumerate(j.get("entries", [])):
            if only_first and (r or i):
                continue
            e["profiling_name"] = e.get("profiling_name", "nccl:all_reduce") + name
            e["process_group"] = [e["process_group"][0], desc]
        for k, v in j.get("pg_config", {}).items():
            if not only_first or r == 0:
                v["desc"] = desc
        write(os.path.join(d, f), json.dumps(j))
    return d


@attack("display")
def fr_escapes_text_and_summary(tmp):
    d = fr_dump_dir(tmp)
    rc, out, err = run(["triage", "--fr", d])
    check(rc in (0, 1, 2), f"rc {rc}: {err[-300:]!r}")
    no_escape_bytes(out, "triage stdout")
    no_escape_bytes(err, "triage stderr")
    rc, _, _ = run(["triage", "--fr", d, "--output", os.path.join(tmp, "rep")])
    for n in ("summary.txt", "junit.xml"):
        p = os.path.join(tmp, "rep", n)
        if os.path.exists(p):
            no_escape_bytes(open(p, "rb").read(), n)


@attack("display")
def fr_huge_string_capped(tmp):
    d = fr_dump_dir(tmp, name="Z" * (20 << 20), desc="D" * (4 << 20), only_first=True)
    rc, out, err = run(["triage", "--fr", d])
    check(rc in (0, 1, 2), f"rc {rc}: {err[-300:]!r}")
    check(len(out) < (2 << 20), f"a 20 MB name printed {len(out)} bytes")
    check(len(err) < (2 << 20), f"stderr {len(err)} bytes")


@attack("display")
def env_lint_live_escapes(tmp):
    rc, out, _ = run(["env", "lint"], env={"NCCL_SOCKET_IFNAME": "eth0" + ESC_PAYLOAD, "NCCL_DEBUG": ESC_PAYLOAD})
    check(rc in (0, 1, 2), f"rc {rc}")
    no_escape_bytes(out, "env lint (live env)")


@attack("display")
def env_lint_file_escapes(tmp):
    f = write(os.path.join(tmp, "e.env"), "NCCL_DEBUG=" + ESC_PAYLOAD + "\nNCCL_ALGO=" + ESC_PAYLOAD + "\n")
    rc, out, _ = run(["env", "lint", "--env-file", f])
    check(rc in (0, 1, 2), f"rc {rc}")
    no_escape_bytes(out, "env lint --env-file")


@attack("display")
def log_escapes(tmp):
    log = write(os.path.join(tmp, "rank0.log"),
                "[rank0]: torch.OutOfMemoryError: CUDA out of memory." + ESC_PAYLOAD + "\n" +
                "NCCL WARN " + ESC_PAYLOAD + " Timeout\n")
    rc, out, _ = run(["triage", log])
    check(rc in (0, 1, 2), f"rc {rc}")
    no_escape_bytes(out, "triage text")
    rc, _, _ = run(["triage", log, "--output", os.path.join(tmp, "r")])
    no_escape_bytes(open(os.path.join(tmp, "r", "summary.txt"), "rb").read(), "summary.txt")


@attack("display")
def audit_script_escapes(tmp):
    f = write(os.path.join(tmp, "run.sh"),
              "python3 -m verl.trainer.main_ppo trainer.project_name='" + ESC_PAYLOAD + "' "
              "actor_rollout_ref.rollout.gpu_memory_utilization=" + ESC_PAYLOAD + "\n")
    for fmt in ("text", "md"):
        rc, out, _ = run(["audit", "--script", f, "--format", fmt])
        check(rc in (0, 1, 2, 65), f"rc {rc}")
        no_escape_bytes(out, f"audit --format {fmt}")


@attack("display")
def topo_text_escapes(tmp):
    src = open(os.path.join(DATA, "topo", "smi", "mlengineering-2gpu-nv2.txt")).read()
    f = write(os.path.join(tmp, "smi.txt"), src.replace("GPU0", "GPU0" + ESC_PAYLOAD, 1))
    rc, out, err = run(["topo", "--smi", f])
    check(rc in (0, 1, 2, 65), f"rc {rc}")
    no_escape_bytes(out, "topo text")
    no_escape_bytes(err, "topo stderr")


@attack("display")
def doctor_snapshot_escapes(tmp):
    snap = {"schema": "ncdx.snapshot/1", "inventory": {"os": {"hostname": ESC_PAYLOAD, "kernel": ESC_PAYLOAD,
                                                               "driver_version": ESC_PAYLOAD}}}
    f = write(os.path.join(tmp, "s.json"), json.dumps(snap))
    rc, out, _ = run(["doctor", "--from", f])
    check(rc in (0, 1, 2, 65), f"rc {rc}")
    no_escape_bytes(out, "doctor text")


# ---------------------------------------------------------------- secrets ------------------
SECRET_TOKEN = "Zq8sK2mP9xL4vN7bR1tY6wE3"  # no known shape: only its name or context gives it away
SECRET_FORMS = [
    'HF_TOKEN="{t}"', "HF_TOKEN='{t}'", "WANDB_API_KEY: {t}", '{{"HF_TOKEN": "{t}"}}',
    "using token {t}", "https://user:{t}@example.com/repo.git",
    "Authorization: Bearer {t}", "export AWS_SECRET_ACCESS_KEY={t}",
]
SHAPES = ["ghp_" + "a1B2" * 9, "github_pat_11AAAAAAA0" + "b" * 60, "hf_" + "Q" * 34, "sk-proj-" + "z" * 40,
          "xoxb-1234567890-abcdefghijk", "AKIAIOSFODNN7EXAMPL3"]


def secret_log(tmp):
    lines = []
    for form in SECRET_FORMS:
        lines.append("[rank0]: torch.OutOfMemoryError: CUDA out of memory. " + form.format(t=SECRET_TOKEN))
    for s in SHAPES:
        lines.append("[rank1]: torch.OutOfMemoryError: CUDA out of memory. cfg x=" + s)
    return write(os.path.join(tmp, "rank0.log"), "\n".join(lines) + "\n")


def assert_no_secret(blob, where):
    for s in [SECRET_TOKEN] + SHAPES:
        check(s.encode() not in blob, f"{where}: secret {s[:10]}… printed")


@attack("secret")
def secrets_triage_text_json(tmp):
    log = secret_log(tmp)
    for args in (["triage", log, "--max-evidence", "50"], ["triage", log, "--json", "--max-evidence", "50"]):
        rc, out, err = run(args)
        check(rc in (1, 2), f"rc {rc}")
        assert_no_secret(out + err, " ".join(args[2:]) or "text")


@attack("secret")
def secrets_triage_report_dir(tmp):
    log = secret_log(tmp)
    rc, _, _ = run(["triage", log, "--output", os.path.join(tmp, "r"), "--max-evidence", "50"])
    check(rc in (1, 2), f"rc {rc}")
    for p, v in tree(os.path.join(tmp, "r")).items():
        if isinstance(v, bytes):
            assert_no_secret(v, p)


@attack("secret")
def secrets_env_lint(tmp):
    body = "".join(f"NCCL_X{i}={s}\n" for i, s in enumerate(SHAPES)) + "NCCL_URL=https://u:" + SECRET_TOKEN + "@h/\n"
    f = write(os.path.join(tmp, "e.env"), body)
    for extra in ([], ["--json"]):
        rc, out, err = run(["env", "lint", "--env-file", f] + extra)
        check(rc in (0, 1, 2), f"rc {rc}")
        assert_no_secret(out + err, "env lint " + " ".join(extra))


@attack("secret")
def secrets_json_context(tmp):
    log = write(os.path.join(tmp, "r.log"), "hello\n")
    rc, out, _ = run(["triage", log, "--json"], env={"NCCL_INNOCENT": SHAPES[0], "HF_TOKEN": SECRET_TOKEN,
                                                      "VLLM_URL": "https://a:" + SECRET_TOKEN + "@b/"})
    check(rc in (0, 1, 2), f"rc {rc}")
    assert_no_secret(out, "triage --json context")


# ---------------------------------------------------------------- numbers -------------------
def expect_usage(args):
    rc, _, err = run(args)
    check(rc == 64, f"ncdx {' '.join(args)}: rc {rc} (expected 64): {err[-200:]!r}")


@attack("number")
def flag_idle_negative(tmp):
    expect_usage(["triage", "--follow", "--idle", "-5", write(os.path.join(tmp, "l"), "x\n")])


@attack("number")
def flag_idle_nan_inf(tmp):
    for v in ("nan", "inf", "-inf", "1e999", "NaN"):
        expect_usage(["triage", "--follow", "--idle", v, write(os.path.join(tmp, "l"), "x\n")])


@attack("number")
def flag_max_evidence_negative(tmp):
    for v in ("-1", "18446744073709551615", "1e3", "abc"):
        expect_usage(["triage", "--max-evidence", v, write(os.path.join(tmp, "l"), "x\n")])


@attack("number")
def flag_counts(tmp):
    for args in (["audit", "--nodes", "0", "--", "a=1"], ["audit", "--gpus-per-node", "-8", "--", "a=1"],
                 ["audit", "--gpu-mem-gib", "nan", "--", "a=1"], ["env", "recommend", "--nodes", "99999999999"],
                 ["env", "recommend", "--nodes", "-2"], ["env", "lint", "--nodes", "0"],
                 ["template", "--nodes", "-1"], ["doctor", "--timeout", "nan"], ["doctor", "--timeout", "inf"],
                 ["triage", "--expect-timeout", "-5", "x"]):
        expect_usage(args)


# ---------------------------------------------------------------- bombs ---------------------
@attack("bomb")
def gzip_bomb(tmp):
    p = os.path.join(tmp, "rank0.log.gz")
    with gzip.open(p, "wb", compresslevel=9) as f:
        line = b"A" * 1023 + b"\n"
        for _ in range(16 * 1024):  # 16 MiB of text from ~50 KiB
            f.write(line)
    rc, out, _ = run(["triage", p])
    check(rc in (0, 1, 2, 65), f"rc {rc}")
    check(len(out) < (1 << 20), f"output {len(out)} bytes")


@attack("bomb")
def long_line(tmp):
    p = write(os.path.join(tmp, "rank0.log"), "x" * (8 << 20) + "\n" + "torch.OutOfMemoryError: CUDA out of memory.\n")
    rc, out, _ = run(["triage", p])
    check(rc in (0, 1, 2), f"rc {rc}")
    check(len(out) < (1 << 20), f"output {len(out)} bytes")


@attack("bomb")
def endless_user_files(tmp):
    # /dev/zero as a file the user names: refused once the size cap is passed, never slurped.
    for args in (["env", "lint", "--env-file", "/dev/zero"], ["topo", "--smi", "/dev/zero"],
                 ["audit", "--config", "/dev/zero"], ["audit", "--script", "/dev/zero"]):
        rc, _, err = run(args)
        check(rc == 65, f"ncdx {' '.join(args)}: rc {rc}: {err[-200:]!r}")


@attack("bomb")
def zstd_ratio_budget(tmp):
    import shutil as _sh
    if not _sh.which("zstd"):
        raise SkipTest("no zstd binary to build the bomb with")
    raw = os.path.join(tmp, "big.log")
    with open(raw, "wb") as f:
        line = b"x" * 4095 + b"\n"
        for _ in range(32 * 256):  # 32 MiB
            f.write(line)
    subprocess.run(["zstd", "-q", "-3", raw, "-o", raw + ".zst"], check=True)
    os.remove(raw)
    rc, out, err = run(["triage", raw + ".zst", "--max-decompressed", "4M"])
    check(rc in (0, 1, 2), f"rc {rc}")
    check(b"--max-decompressed" in err and b"stopped after" in err, f"no budget warning: {err[-300:]!r}")
    rc, _, _ = run(["triage", raw + ".zst", "--max-decompressed", "-1"])
    check(rc == 64, f"--max-decompressed -1: rc {rc}")


@attack("bomb")
def summary_counts_every_byte(tmp):
    p = write(os.path.join(tmp, "rank0.log"), "y" * (3 << 20) + "\nhello\n")
    rc, out, _ = run(["triage", p])
    check(rc in (0, 1, 2), f"rc {rc}")
    check(b"3.0 MiB" in out or b"3 MiB" in out or b"MiB" in out, f"summary does not count the long line: {out[-300:]!r}")


class SkipTest(Exception):
    pass


def main():
    global NCDX, DATA
    ap = argparse.ArgumentParser()
    ap.add_argument("--ncdx")
    ap.add_argument("--data")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    if a.list:
        for n, (k, _) in ATTACKS.items():
            print(f"{k}\t{n}")
        return 0
    NCDX, DATA = os.path.abspath(a.ncdx), os.path.abspath(a.data)
    names = a.names or list(ATTACKS)
    failed = skipped = 0
    for n in names:
        kind, fn = ATTACKS[n]
        tmp = tempfile.mkdtemp(prefix="ncdx-adv-")
        try:
            fn(tmp)
            print(f"HELD  {kind:12} {n}")
        except SkipTest as e:
            skipped += 1
            print(f"SKIP  {kind:12} {n}: {e}")
        except Fail as e:
            failed += 1
            print(f"FAIL  {kind:12} {n}: {e}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        return 1
    return 77 if skipped == len(names) else 0  # 77: CTest SKIP_RETURN_CODE


if __name__ == "__main__":
    sys.exit(main())
