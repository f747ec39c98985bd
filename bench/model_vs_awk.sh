#!/usr/bin/env bash
# Benchmarks of `ncdx model` (docs/MODEL.md, docs/PERFORMANCE.md), in one run:
#  1. the full prediction table (25 sizes x 5 collectives) at 16 and at 100,000 ranks: wall time
#     of the whole process (no peer: nothing else computes NCCL's choice offline);
#  2. --judge of a large nccl-tests output (real tables from ../shared/data repeated to N rows)
#     beside the peer most people use on these files, an awk one-liner that pulls the busbw
#     column: the ratio ncdx/awk. ncdx also parses every column, predicts and judges each size.
# Usage: bench/model_vs_awk.sh [ROWS]   (default 200000)   NCDX=path/to/ncdx
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-200000}
ncdx=${NCDX:-build/src/cli/ncdx}
[ -x "$ncdx" ] || { echo "model_vs_awk: $ncdx not built (set NCDX=...)" >&2; exit 66; }
out=bench/out
mkdir -p "$out"
file="$out/nccl_tests_${rows}.txt"
if [ ! -s "$file" ]; then
  python3 - "$rows" "$file" <<'PY'
import json, sys
rows, path = int(sys.argv[1]), sys.argv[2]
recs = [json.loads(l) for l in open("../shared/data/nccl_tests_results.jsonl")]
table = next(r["output_verbatim"] for r in recs if r["id"] == "aws-batch-p5-2node")
lines = [l for l in table.splitlines()]
body = [l for l in lines if l.strip()[:1].isdigit() or l.startswith("[1,0]<stdout>:  ")]
with open(path, "w") as f:
    f.write("\n".join(lines[:40]) + "\n")
    n = 0
    while n < rows:
        for l in body:
            f.write(l + "\n"); n += 1
PY
fi
export LC_ALL=C
# CPU seconds (user+sys) of one run: on a shared CI machine wall time measures the neighbours.
t() { /usr/bin/time -f '%U %S' -o "$out/cpu.txt" "$@" > /dev/null 2>&1 || true; awk '{printf "%.3f", $1 + $2}' "$out/cpu.txt"; }
echo "table 16 ranks:      $(t "$ncdx" model --spec nodes=2,gpus=8,gpu=H100,nic=8x400G-IB) s"
echo "table 100000 ranks:  $(t "$ncdx" model --spec nodes=12500,gpus=8,gpu=H100,nic=8x400G-IB) s"
echo "judge file: $file ($(wc -l < "$file") lines)"
a=$(t awk '{sub(/^\[[^]]*\]<stdout>:/, "")} $1 ~ /^[0-9]+$/ {s += $8; n++} END {print s/n}' "$file")
j=$(t "$ncdx" model --judge "$file" --spec nodes=2,gpus=8,gpu=H100,nic=32x100G-EFA --coll allreduce)
echo "awk busbw column:    $a s"
echo "ncdx model --judge:  $j s"
python3 -c "print(f'ratio ncdx/awk (CPU time): {$j/max($a,0.001):.1f}')"
