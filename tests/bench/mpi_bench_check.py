#!/usr/bin/env python3
"""`ncdx bench --backend mpi` under `mpirun -np 4` (the real Open MPI): every collective's
nccl-tests text and ncdx JSON, the data check, nccl-tests' -J JSON, and the Open MPI
dynamic-rules file `ncdx tune` writes, read back by Open MPI. Exit 77 = skip (no mpirun, or
ncdx built without MPI), with the reason printed."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ncdx, schema_dir, validate = sys.argv[1], sys.argv[2], sys.argv[3]
mpirun = shutil.which("mpirun")
if not mpirun:
    print("SKIP: mpirun not found (apt-get install openmpi-bin)")
    sys.exit(77)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", LC_ALL="C")
NP = 4


def run(args, mpi=True, expect=0):
    cmd = ([mpirun, "-np", str(NP)] if mpi else []) + [ncdx] + args
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    if "built without MPI" in p.stderr:
        print("SKIP: ncdx was built without MPI (NCDX_WITH_MPI)")
        sys.exit(77)
    if p.returncode != expect:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode} (want {expect})\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


# nccl-tests' row: "%12li  %12li  %8s  %6s  %6s" + 2 x "  %7s  %6s  %6s  %6g" (util.cu @ a0b82b2).
ROW = re.compile(r"^ {0,11}\d{1,12}  [ \d]{12}  [ \w]{8}  [ \w]{6}  [ \-\d]{6}(  [ \d.e+]{7}  [ \d.e+]{6}  [ \d.e+]{6}  [ \d]{5}\d){2}$")

# 1. Text, all collectives, data check on: every row well formed, no wrong element.
for coll, root_col, op_col in [("allreduce", "-1", "sum"), ("allgather", "-1", "none"), ("reducescatter", "-1", "sum"),
                               ("broadcast", "1", "none"), ("reduce", "2", "sum"), ("alltoall", "-1", "none"),
                               ("sendrecv", "-1", "none")]:
    p = run(["bench", coll, "--backend", "mpi", "-b", "8", "-e", "256K", "-f", "8", "-n", "4", "-w", "1", "-c", "1",
             "-r", root_col if root_col != "-1" else "0"])
    lines = p.stdout.splitlines()
    rows = [l for l in lines if l and not l.startswith("#")]
    if len(rows) != 6:
        sys.exit(f"FAIL: {coll}: {len(rows)} result rows, want 6 (8 B .. 256 KB by 8)\n{p.stdout}")
    for l in rows:
        if not ROW.match(l):
            sys.exit(f"FAIL: {coll}: row not in nccl-tests' format: {l!r}")
        f = l.split()
        if f[4] != root_col or f[3] != op_col or f[2] != "float":
            sys.exit(f"FAIL: {coll}: type/redop/root columns {f[2:5]}, want float/{op_col}/{root_col}")
        if f[8] != "0" or f[12] != "0":
            sys.exit(f"FAIL: {coll}: wrong elements reported: {l}")
    if "# Out of bounds values : 0 OK" not in lines:
        sys.exit(f"FAIL: {coll}: no '# Out of bounds values : 0 OK' footer")
    if not any(re.match(r"^# Avg bus bandwidth    : [\d.e+-]+ $", l) for l in lines):
        sys.exit(f"FAIL: {coll}: no '# Avg bus bandwidth' footer")
    if sum(1 for l in lines if l.startswith("#  Rank ")) != NP:
        sys.exit(f"FAIL: {coll}: want {NP} '#  Rank' lines")
    if "# Collective test concluded: " not in p.stdout:
        sys.exit(f"FAIL: {coll}: no 'Collective test concluded' line")
    print(f"ok text {coll}")

# 2. ncdx JSON validated against its schema; sizes and nccl-tests' accounting at 4 ranks.
tmp = tempfile.mkdtemp(prefix="ncdx_bench_")
try:
    p = run(["bench", "allgather", "--backend", "mpi", "--sizes", "1K,64K", "-n", "5", "-c", "1", "--json", "--no-timestamps",
             "-J", os.path.join(tmp, "nt.json")])
    doc_path = os.path.join(tmp, "bench.json")
    open(doc_path, "w").write(p.stdout)
    subprocess.run([sys.executable, validate, os.path.join(schema_dir, "bench.schema.json"), doc_path], check=True,
                   capture_output=True)
    d = json.loads(p.stdout)
    assert d["nranks"] == NP and d["nprocs"] == NP and d["launcher"] == "mpi", d
    r = d["results"]
    # all_gather: size 1K float -> per-rank base (256/4) & ~3 = 64 elements, recv 256 -> 1024 B printed.
    assert [x["bytes"] for x in r] == [1024, 65536] and [x["count"] for x in r] == [64, 4096], r
    for x in r:
        o = x["out_of_place"]
        assert o["wrong"] == 0 and x["in_place"]["wrong"] == 0
        want = x["bytes"] / 1e9 / (o["time_us"] / 1e6)  # algbw = count*n*size / t
        assert abs(o["algbw_gbps"] - want) <= 1e-6 * max(1.0, want), (o, want)
        assert abs(o["busbw_gbps"] - o["algbw_gbps"] * (NP - 1) / NP) <= 1e-9 * max(1.0, o["busbw_gbps"])
        assert x["skew"] is not None and len(x["skew"]["mean_lateness_us"]) == NP
        assert o["iter"]["n"] == 5
    nt = json.load(open(os.path.join(tmp, "nt.json")))
    assert nt["version"] == 3 and len(nt["results"]) == 2 and nt["results"][0]["root"] == "    -1", nt
    assert set(nt["results"][0]["out_of_place"]) == {"time", "alg_bw", "bus_bw", "nwrong"}
    assert nt["out_of_bounds"] == {"count": 0, "okay": "true"}
    print("ok json + nccl-tests json")

    # 3. Other types and ops through the data check.
    for t, op in [("int8", "max"), ("double", "prod"), ("int64", "min"), ("uint8", "sum")]:
        p = run(["bench", "allreduce", "--backend", "mpi", "--sizes", "4K", "-n", "2", "-c", "2", "-d", t, "-o", op, "--json"])
        x = json.loads(p.stdout)["results"][0]
        assert x["out_of_place"]["wrong"] == 0 and x["in_place"]["wrong"] == 0, (t, op, x)
    print("ok types/ops")
    p = run(["bench", "allreduce", "--backend", "mpi", "-d", "half"], expect=64)
    assert "no MPI datatype" in p.stderr, p.stderr

    # 4. A dynamic-rules file as ncdx tune writes it, read by the real Open MPI: a bad file makes
    #    coll_tuned fail to read it (silently, in release builds), a good one must not break a run.
    rules = os.path.join(tmp, "rules.conf")
    open(rules, "w").write("# test\n1  # number of collectives\n2  # allreduce\n1\n4\n2\n0 3 0 0\n8192 4 0 0\n")
    p = subprocess.run([mpirun, "-np", str(NP), "--mca", "coll_tuned_use_dynamic_rules", "1", "--mca",
                        "coll_tuned_dynamic_rules_filename", rules, ncdx, "bench", "allreduce", "--backend", "mpi",
                        "--sizes", "1K,64K", "-n", "3", "-c", "1", "--json"], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert all(x["out_of_place"]["wrong"] == 0 for x in json.loads(p.stdout)["results"])
    print("ok dynamic rules accepted")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
