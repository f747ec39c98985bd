#!/usr/bin/env bash
# Peak RSS and time of `ncdx triage --fr` on one large Flight Recorder dump (issue #12, goal: at
# most 1× the input for the JSON form; docs/ADVERSARIAL.md "Memory"). The dump is rank 37 of
# bench/gen_fr_dumps.py's 64-rank job with ENTRIES entries (default 160 000: ~100 MB of dump_json
# text), cached in bench/out/; LAYOUT json (default) or torch (the pickle torch writes).
# Usage: bench/fr_memory.sh [ENTRIES] [LAYOUT] [NCDX] (default build/src/cli/ncdx)
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-160000}
layout=${2:-json}
ncdx=$(realpath "${3:-build/src/cli/ncdx}")
dir=bench/out/fr_memory_${layout}_${entries}
dump=$dir/nccl_trace_rank_37
[ -f "$dump" ] || nice -n 19 python3 bench/gen_fr_dumps.py "$dir" --ranks 64 --entries "$entries" --layout "$layout" --only 37
size=$(stat -c %s "$dump")
printf '| dump | output | exit | peak RSS | RSS / input | wall | user CPU |\n|---|---|---|---|---|---|---|\n'
for mode in text json; do
  flag=""; [ $mode = json ] && flag=--json
  rc=0
  nice -n 19 /usr/bin/time -o "$dir/time" -f "%M %e %U" "$ncdx" triage --fr "$dump" $flag --no-timestamps >/dev/null 2>&1 || rc=$?
  read -r kb wall user < <(tail -1 "$dir/time")
  printf '| %s, %s entries, %s MB | %s | %s | %s MiB | %s× | %s s | %s s |\n' "$layout" "$entries" $((size / 1000000)) $mode $rc \
    $((kb / 1024)) "$(awk -v r="$kb" -v s="$size" 'BEGIN{printf "%.2f", r * 1024 / s}')" "$wall" "$user"
done
