#!/usr/bin/env bash
# Real producer check of `ncdx timeline` on Ray: tests/timeline/ray_slow_task_job.py on a local
# Ray (PyPI `ray`, scripts/ray-venv.sh; 4 CPUs, 16 rounds of 4 tasks, `ray.get` per round), the
# worker that ran task 2 of round 0 sleeping 150 ms per task from round 6; `ray.timeline()` is
# the input. ncdx must name that worker ("worker:<id>" of the timeline, the id the job recorded)
# as the significant straggler, exit 1, and its JSON must validate against the schema.
# Creates the Ray venv when it is absent; skips (exit 77, reason on stdout) only when that fails. No Ray process outlives the test:
# the job calls ray.shutdown(), and `ray stop --force` runs on every exit.
# Usage: ray_straggler.sh NCDX SOURCE_DIR
set -euo pipefail
ncdx=$1
src=$2
venv=${NCDX_RAY_VENV:-/opt/ncdx/venv-ray}
py=$venv/bin/python3
# A missing venv is created (as faults.py does for PyTorch), so CI runs the real producer; only a
# machine without PyPI skips.
if ! "$py" -c 'import ray' >/dev/null 2>&1 && ! NCDX_RAY_VENV=$venv bash "$src/scripts/ray-venv.sh" >/dev/null; then
  echo "SKIP: no Ray venv at $venv and scripts/ray-venv.sh could not create it (PyPI out of reach?)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ncdx-timeline-ray.XXXXXX")
# Ray's session files go under the work dir; `ray stop` ends what this test's job started
# (a local cluster of this user; the job has already shut it down when all went well).
cleanup() { "$venv/bin/ray" stop --force >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
export RAY_TMPDIR="$work/ray" RAY_AUTH_MODE=disabled OMP_NUM_THREADS=1
timeout 240 "$py" "$src/tests/timeline/ray_slow_task_job.py" "$work/timeline.json" --cpus 4 --rounds 16 \
  --tasks 4 --slow-index 2 --slow-from 6 --slow-ms 150 >"$work/job.log" 2>&1 ||
  { rc=$?; tail -20 "$work/job.log"; echo "Ray job failed (exit $rc; 124 = over 240 s)"; exit 1; }
set +e
"$ncdx" timeline "$work/timeline.json" --json --no-timestamps >"$work/out.json"
rc=$?
"$ncdx" timeline "$work/timeline.json" --no-color
set -e
[ "$rc" = 1 ] || { echo "exit code $rc, expected 1 (a straggler found)"; exit 1; }
python3 "$src/tests/validate_schema.py" "$src/docs/schema/timeline.schema.json" "$work/out.json"
python3 - "$work/out.json" "$work/timeline.json.truth.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
truth = json.load(open(sys.argv[2]))
names = {r["rank"]: r["rank_from"] for r in j["ranks"]}
slow = [r for r, n in names.items() if ("worker:" + truth["slow_worker"]) in n]
assert len(slow) == 1, "the slow worker %s is not one rank: %s" % (truth["slow_worker"], names)
s = j["stragglers"]
assert s and s[0]["rank"] == slow[0] and s[0]["significant"], "straggler: %s, slow worker is rank %d" % (s[:2], slow[0])
assert all(r["comm_source"] == "ray_task" for r in j["ranks"]), [r["comm_source"] for r in j["ranks"]]
print("ok: Ray %s, straggler rank %d = %s (late %d/%d, %.1f ms)" % (truth["ray_version"], slow[0], names[slow[0]],
      s[0]["late_count"], s[0]["instances"], s[0]["mean_delay_us"] / 1000))
PY
