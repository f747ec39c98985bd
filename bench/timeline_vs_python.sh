#!/usr/bin/env bash
# Times `ncdx timeline --json` (parse + analyse + report) against Python's json.load of the same
# files (bench/timeline_load_python.py: the load alone, no analysis) on a generated Kineto-style
# trace set (bench/gen_kineto_traces.py, cached in bench/out/), in the same run. Prints wall, user
# CPU, peak RSS of each, ncdx's MB/s per core of CPU, its RSS as a share of the input, the ratio,
# and whether ncdx named the injected straggler.
# Usage: bench/timeline_vs_python.sh [SIZE_MB] [RANKS]   defaults 1024 8;  NCDX=path/to/ncdx
#        NCDX_JOBS=N: ncdx --jobs N (files read at once; default ncdx's own: one per CPU)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1024}
ranks=${2:-8}
dir=bench/out/kineto_${ranks}x${size}MB
ncdx=${NCDX:-build/src/cli/ncdx}
[ -x "$ncdx" ] || { echo "timeline_vs_python: $ncdx not built (set NCDX=...)" >&2; exit 66; }
if [ ! -s "$dir/rank$((ranks - 1)).pt.trace.json" ]; then
  echo "generating $dir ..." >&2
  rm -rf "$dir"
  python3 bench/gen_kineto_traces.py "$dir" --ranks "$ranks" --size-mb "$size" --straggler $((ranks - 3)) >&2
fi
bytes=$(du -cb "$dir"/*.json | tail -1 | cut -f1)
echo "traces: $dir ($ranks files, $bytes bytes)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# The outputs go beside the traces, not among them: both readers take every file of the folder.
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
measure() {  # prints "wall user maxrss_kb"
  /usr/bin/time -f "%e %U %M" -o "$res/time" "$@" >"$res/out" 2>"$res/err" || true
  tail -1 "$res/time"  # after "Command exited with non-zero status N" when it did
}
read -r pw pu pm < <(measure python3 bench/timeline_load_python.py "$dir")
echo "python json.load: $(cat "$res/out")"
jobs=()
[ -n "${NCDX_JOBS:-}" ] && jobs=(--jobs "$NCDX_JOBS")
echo "ncdx jobs: ${NCDX_JOBS:-default (one per CPU: $(nproc))}"
read -r nw nu nm < <(measure "$ncdx" timeline "$dir" --json --no-timestamps "${jobs[@]}")
python3 - "$res/out" $((ranks - 3)) <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["stragglers"][0] if j["stragglers"] else {}
print("ncdx: %s; straggler %s (injected %s), slowdowns %s" % (j["totals"]["headline"], s.get("rank"), sys.argv[2],
      [(x["rank"], x["from_step"], x["factor"]) for x in j["slowdowns"]]))
PY
python3 - "$bytes" "$pw" "$pu" "$pm" "$nw" "$nu" "$nm" <<'PY'
import sys
b, pw, pu, pm, nw, nu, nm = (float(x) for x in sys.argv[1:])
mb = b / 1e6
print("| tool | wall s | user s | peak RSS MB |")
print("|---|---|---|---|")
print("| python json.load | %.2f | %.2f | %.0f |" % (pw, pu, pm / 1024))
print("| ncdx timeline --json | %.2f | %.2f | %.0f |" % (nw, nu, nm / 1024))
print("ncdx: %.0f MB/s wall, %.0f MB/s per core of user CPU; RSS %.1f %% of the input; %.1fx faster than the load alone (wall), %.1fx (CPU)"
      % (mb / nw, mb / max(nu, 1e-9), 100 * nm * 1024 / b, pw / nw, pu / max(nu, 1e-9)))
PY
