#!/bin/sh
# Runs compare.py (the cluster sweep and --fuzz 300 random graph cases) for every oracle built
# under ORACLE_DIR (ORACLE_DIR/<tag>/nccl_tuning_oracle, from build.sh) and writes
#   OUT_DIR/nccl_tuning_oracle_<version>_<date>.jsonl        (sweep, one record per case)
#   OUT_DIR/nccl_tuning_oracle_<version>_fuzz_<date>.jsonl   (fuzz, one record per case)
# and appends each run's summary line to OUT_DIR/nccl_tuning_oracle_summary_<date>.jsonl.
# --collnet adds the CollNet cases (compare.py --collnet: the CollNet sweep after the sweep, 150
# CollNet fuzz cases after the fuzz) and names the files nccl_tuning_oracle_collnet_*.
#
#   run_all.sh [--collnet] NCDX ORACLE_DIR OUT_DIR DATE
set -eu
extra= ; kind=
if [ "${1:-}" = "--collnet" ]; then extra=--collnet; kind=collnet_; shift; fi
[ $# -eq 4 ] || { echo "usage: run_all.sh [--collnet] NCDX ORACLE_DIR OUT_DIR DATE" >&2; exit 64; }
ncdx=$1; dir=$2; out=$3; date=$4
here=$(cd "$(dirname "$0")" && pwd)
summary="$out/nccl_tuning_oracle_${kind}summary_$date.jsonl"
: > "$summary"
for oracle in $(ls -d "$dir"/v*/nccl_tuning_oracle | sort -V); do
  tag=$(basename "$(dirname "$oracle")"); v=${tag#v}; v=${v%-*}
  python3 "$here/compare.py" --ncdx "$ncdx" --oracle "$oracle" --nccl "$v" --tag "$tag" $extra \
    --out "$out/nccl_tuning_oracle_${kind}${v}_$date.jsonl" > /dev/null
  python3 "$here/compare.py" --ncdx "$ncdx" --oracle "$oracle" --nccl "$v" --tag "$tag" --fuzz 300 --seed 1 $extra \
    --out "$out/nccl_tuning_oracle_${kind}${v}_fuzz_$date.jsonl" > /dev/null
  tail -n 1 "$out/nccl_tuning_oracle_${kind}${v}_$date.jsonl" >> "$summary"
  tail -n 1 "$out/nccl_tuning_oracle_${kind}${v}_fuzz_$date.jsonl" >> "$summary"
  echo "$tag done" >&2
done
