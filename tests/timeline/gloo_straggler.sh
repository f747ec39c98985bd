#!/usr/bin/env bash
# Real producer check of `ncdx timeline`: a 4-rank gloo job under torchrun, profiled with
# torch.profiler (tests/timeline/gloo_profile_job.py), rank 2 sleeping 150 ms extra per step from
# step 6 (26 of 32 steps: a straggler that no scheduling noise of a loaded machine hides; with 16
# steps a run at load 5 saw the other ranks own half of the delays over 20 ms, and rank 2 was not
# significant). ncdx must name rank 2 as the straggler and find its compute-side slowdown from
# step 6 (±1), its JSON must validate against docs/schema/timeline.schema.json and be the same with
# --jobs 1 (files read one after another) as with the default (in parallel).
# Skips (exit 77, reason on stdout) when the PyTorch venv (scripts/torch-venv.sh) is absent.
# Usage: gloo_straggler.sh NCDX SOURCE_DIR
set -euo pipefail
ncdx=$1
src=$2
py=${NCDX_TORCH_VENV:-/opt/ncdx/venv-torch}/bin/python3
if ! "$py" -c 'import torch, torch.distributed' >/dev/null 2>&1; then
  echo "SKIP: no PyTorch venv at ${py%/bin/python3} (run scripts/torch-venv.sh)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ncdx-timeline-gloo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=lo
timeout 300 "$py" -m torch.distributed.run --standalone --nproc-per-node 4 \
  "$src/tests/timeline/gloo_profile_job.py" "$work/traces" --steps 32 --slow-rank 2 --slow-from 6 --slow-ms 150 \
  >"$work/job.log" 2>&1 || { rc=$?; tail -20 "$work/job.log"; echo "torchrun job failed (exit $rc; 124 = over 300 s)"; exit 1; }
n=$(ls "$work/traces" | wc -l)
[ "$n" = 4 ] || { echo "expected 4 traces, got $n"; exit 1; }
set +e
"$ncdx" timeline "$work/traces" --json --no-timestamps >"$work/out.json"
rc=$?
"$ncdx" timeline "$work/traces" --json --no-timestamps --jobs 1 >"$work/out1.json"
"$ncdx" timeline "$work/traces" --no-color
set -e
# The files are read in parallel by default: the report must be the one of a sequential read.
cmp "$work/out.json" "$work/out1.json" || { echo "--jobs 1 and the default differ"; exit 1; }
[ "$rc" = 1 ] || { echo "exit code $rc, expected 1 (a straggler and a slowdown found)"; exit 1; }
python3 "$src/tests/validate_schema.py" "$src/docs/schema/timeline.schema.json" "$work/out.json"
python3 - "$work/out.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["stragglers"]
assert s and s[0]["rank"] == 2 and s[0]["significant"], "straggler: %s" % s[:2]
sd = [x for x in j["slowdowns"] if x["rank"] == 2 and x["side"] == "compute"]
assert sd, "no compute-side slowdown of rank 2: %s" % j["slowdowns"]
assert abs(sd[0]["from_step"] - 6) <= 1, "slowdown from step %d, injected at 6" % sd[0]["from_step"]
assert sd[0]["factor"] >= 1.10, sd[0]
# Another rank may really slow down when the 2-core machine is busy (a CI run saw rank 0's compute
# go 6.2 -> 20.1 ms per step, x3.2, while rank 2 went x34.6): that is measured, not invented. What
# must hold is that none of those is comparable to the injected one.
others = [x for x in j["slowdowns"] if x["rank"] != 2 and x["factor"] > sd[0]["factor"] / 4]
assert not others, "slowdowns on ranks that were not slowed, comparable to rank 2's x%.2f: %s" % (sd[0]["factor"], others)
assert all(r["comm_source"] == "gloo_span" for r in j["ranks"]), [r["comm_source"] for r in j["ranks"]]
print("ok: straggler rank 2 (late %d/%d, %.1f ms), slowdown from step %d x%.2f" % (
    s[0]["late_count"], s[0]["instances"], s[0]["mean_delay_us"] / 1000, sd[0]["from_step"], sd[0]["factor"]))
PY
