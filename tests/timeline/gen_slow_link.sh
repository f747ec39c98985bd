#!/usr/bin/env bash
# `ncdx timeline` per-link fail-slow end to end on generated Kineto traces with send/recv that name
# their peer (bench/gen_kineto_traces.py --p2p; the keys of torch/csrc/profiler/util.h): the
# injected slow link 2-3 is named from its step, a compute straggler posting its sends late is no
# link, a healthy run names none; the JSON validates against the schema and is byte-identical
# with --jobs 1 and --jobs 3.
# Usage: gen_slow_link.sh NCDX SOURCE_DIR
set -euo pipefail
ncdx=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ncdx-timeline-link.XXXXXX")
trap 'rm -rf "$work"' EXIT
gen() { python3 "$src/bench/gen_kineto_traces.py" "$work/$1" --ranks 6 --size-mb 6 --p2p "${@:2}" >/dev/null; }
gen link --straggler -1 --slow-link 2 --link-factor 1.4
gen slow --straggler 4 --factor 1.4
gen healthy --straggler -1
for set in link slow healthy; do
  rc=0
  "$ncdx" timeline "$work/$set" --json --no-timestamps --jobs 1 >"$work/$set.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "$set: exit $rc"; exit 1; }
  "$ncdx" timeline "$work/$set" --json --no-timestamps --jobs 3 >"$work/$set.3.json" || true
  cmp "$work/$set.json" "$work/$set.3.json" || { echo "$set: --jobs 3 differs from --jobs 1"; exit 1; }
  python3 "$src/tests/validate_schema.py" "$src/docs/schema/timeline.schema.json" "$work/$set.json" >/dev/null
done
python3 - "$work" <<'PY'
import json, sys
d = sys.argv[1]
def links(name):
    return [s for s in json.load(open("%s/%s.json" % (d, name)))["slowdowns"] if s["side"] == "link"]
l = links("link")
assert len(l) == 1 and l[0]["rank"] == 2 and l[0]["peer"] == 3, l
steps = json.load(open(d + "/link.json"))["ranks"][0]["steps"]
# One send to the peer per step, the first dropped as warm-up: op index = step number.
assert abs(l[0]["from_step"] - steps // 2) <= 2, (l[0], steps)
assert 1.25 <= l[0]["factor"] <= 1.55, l[0]
assert not links("slow"), links("slow")
assert not links("healthy"), links("healthy")
print("ok: link 2-3 x%.2f from op %d of %d steps; none on the straggler or healthy runs" % (l[0]["factor"], l[0]["from_step"], steps))
PY
