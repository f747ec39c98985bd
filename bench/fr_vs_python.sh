#!/usr/bin/env bash
# Times ncdx reading PyTorch Flight Recorder dumps against the Python that torchfrtrace runs to load
# them (bench/fr_load_python.py: gc off, pickle.load of every file, per-rank entry lists, group
# memberships; stdlib only), on the same generated dump set (bench/gen_fr_dumps.py, cached in
# bench/out/), in the same run. Prints mean wall, user CPU, peak RSS of each and the ratios.
# Two ncdx commands are timed:
#   reader  build/bench/fr_read_bench DIR         read_fr_path only: the same work as the Python peer
#   triage  ncdx triage --fr DIR --json            what a user runs: read + all FR checks + report
# Uses hyperfine when present (1 warmup + RUNS runs).
# Usage: bench/fr_vs_python.sh [RANKS] [ENTRIES] [LAYOUT]   defaults 64 20000 torch
#   LAYOUT torch (the bytes torch's C++ pickler writes), python (pickle.dumps protocol 4) or json
#   (dump_json; the peer then uses json.load)
#   NCDX=path/to/ncdx  READER=path/to/fr_read_bench  RUNS=3
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${1:-64}
entries=${2:-20000}
layout=${3:-torch}
runs=${RUNS:-3}
out=bench/out
dir="$out/fr_${layout}_${ranks}x${entries}"
if [ ! -s "$dir/nccl_trace_rank_$((ranks - 1))" ]; then
  echo "generating $dir ..." >&2
  rm -rf "$dir"
  python3 bench/gen_fr_dumps.py "$dir" --ranks "$ranks" --entries "$entries" --layout "$layout" >&2
fi
ncdx=${NCDX:-build/src/cli/ncdx}
reader=${READER:-build/bench/fr_read_bench}
for b in "$ncdx" "$reader"; do
  [ -x "$b" ] || { echo "fr_vs_python: $b not built (set NCDX=... / READER=...)" >&2; exit 66; }
done
json_flag=""
[ "$layout" = json ] && json_flag=" --json"
py_cmd="python3 bench/fr_load_python.py $dir$json_flag"
reader_cmd="$reader $dir"
triage_cmd="$ncdx triage --fr $dir --json"
bytes=$(du -cb "$dir"/nccl_trace_rank_* | tail -1 | cut -f1)
echo "dumps: $dir ($ranks files, $bytes bytes, $entries entries each, layout $layout)"
echo "python: $($py_cmd)"
echo "reader: $($reader_cmd)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# Mean wall and user CPU of each command: hyperfine when present, else one timed run each.
if command -v hyperfine >/dev/null; then
  hyperfine -N -i --warmup 1 --runs "$runs" --export-json "$out/fr_hyperfine.json" \
    -n python "$py_cmd" -n reader "$reader_cmd" -n triage "$triage_cmd" >&2
  read -r tp up tr ur tt ut < <(python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))["results"]
print(" ".join("%s %s" % (x["mean"], x["user"]) for x in r))' "$out/fr_hyperfine.json")
else
  timed() {  # wall and user seconds of one run
    /usr/bin/time -f '%e %U' -o "$out/fr_time.txt" bash -c "$1 >/dev/null 2>&1" || true
    tail -1 "$out/fr_time.txt"
  }
  timed "$py_cmd" >/dev/null  # warm the page cache
  read -r tp up < <(timed "$py_cmd")
  read -r tr ur < <(timed "$reader_cmd")
  read -r tt ut < <(timed "$triage_cmd")
fi
peak_rss_kib() {
  /usr/bin/time -f '%M' -o "$out/fr_rss.txt" bash -c "$1 >/dev/null 2>&1" || true
  tail -1 "$out/fr_rss.txt"
}
rp=$(peak_rss_kib "$py_cmd")
rr=$(peak_rss_kib "$reader_cmd")
rt=$(peak_rss_kib "$triage_cmd")
awk -v b="$bytes" -v tp="$tp" -v up="$up" -v rp="$rp" -v tr="$tr" -v ur="$ur" -v rr="$rr" \
    -v tt="$tt" -v ut="$ut" -v rt="$rt" 'BEGIN{
  printf "python : %8.3f s wall  %8.3f s user  %7.1f MB/s  peak RSS %7.1f MiB\n", tp, up, b/tp/1e6, rp/1024
  printf "reader : %8.3f s wall  %8.3f s user  %7.1f MB/s  peak RSS %7.1f MiB\n", tr, ur, b/tr/1e6, rr/1024
  printf "triage : %8.3f s wall  %8.3f s user  %7.1f MB/s  peak RSS %7.1f MiB\n", tt, ut, b/tt/1e6, rt/1024
  printf "ratio reader/python: %.2f (wall), %.2f (user)\n", tr/tp, ur/up
  printf "ratio triage/python: %.2f (wall), %.2f (user)\n", tt/tp, ut/up
}'
