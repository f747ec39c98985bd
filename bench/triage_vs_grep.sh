#!/usr/bin/env bash
# Times `ncdx triage FILE --json` against `LC_ALL=C grep -E -c -f bench/patterns.ere FILE` on the same
# generated NCCL log (bench/gen_nccl_log.py, cached in bench/out/), in the same run, and prints the
# time ratio ncdx/grep and both peak RSS values. Uses hyperfine when present (3 runs + 1 warmup).
# Usage: bench/triage_vs_grep.sh [SIZE]          SIZE like 1G (default), 200M
#   NCDX=path/to/ncdx      binary to time (default build/src/cli/ncdx)
#   NCDX_CMD="cat"         time another command instead of ncdx triage (to test the harness)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1G}
out=bench/out
mkdir -p "$out"
file="$out/nccl_${size}.log"
if [ ! -s "$file" ]; then
  echo "generating $file ..." >&2
  python3 bench/gen_nccl_log.py "$size" "$file"
fi
ncdx=${NCDX:-build/src/cli/ncdx}
if [ -n "${NCDX_CMD:-}" ]; then
  ncdx_cmd="$NCDX_CMD $file"
else
  [ -x "$ncdx" ] || { echo "triage_vs_grep: $ncdx not built (set NCDX=...)" >&2; exit 66; }
  ncdx_cmd="$ncdx triage $file --json"
fi
grep_cmd="grep -E -c -f bench/patterns.ere $file"
export LC_ALL=C
bytes=$(stat -c %s "$file")
echo "file: $file ($bytes bytes, $(grep -c '' "$file") lines)"
echo "grep matches: $($grep_cmd || true)"

mean_of() {  # hyperfine JSON → mean seconds of the command at index $2
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$1" "$2"
}
peak_rss_kib() {  # peak RSS of one run, KiB
  /usr/bin/time -f '%M' -o "$out/rss.txt" bash -c "$1 >/dev/null 2>&1" || true
  tail -1 "$out/rss.txt"
}
seconds_of() {
  local s e
  s=$(date +%s.%N)
  bash -c "$1 >/dev/null 2>&1" || true
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" 'BEGIN{print b-a}'
}

if command -v hyperfine >/dev/null; then
  hyperfine -N -i --warmup 1 --runs 3 --export-json "$out/hyperfine.json" \
    -n grep "$grep_cmd" -n ncdx "$ncdx_cmd" >&2
  tg=$(mean_of "$out/hyperfine.json" 0)
  tn=$(mean_of "$out/hyperfine.json" 1)
else
  seconds_of "$grep_cmd" >/dev/null  # warm the page cache
  tg=$(seconds_of "$grep_cmd")
  tn=$(seconds_of "$ncdx_cmd")
fi
rg=$(peak_rss_kib "$grep_cmd")
rn=$(peak_rss_kib "$ncdx_cmd")
awk -v tg="$tg" -v tn="$tn" -v rg="$rg" -v rn="$rn" -v b="$bytes" -v c="$ncdx_cmd" 'BEGIN{
  printf "grep : %8.3f s  %8.1f MB/s  peak RSS %7.1f MiB\n", tg, b/tg/1e6, rg/1024
  printf "ncdx : %8.3f s  %8.1f MB/s  peak RSS %7.1f MiB   (%s)\n", tn, b/tn/1e6, rn/1024, c
  printf "ratio ncdx/grep: %.2f\n", tn/tg
}'
