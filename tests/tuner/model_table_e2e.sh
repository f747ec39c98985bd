#!/bin/sh
# ncdx tune --model ... --out DIR --json, then the plugin check (model_table_check.cc).
# Usage: model_table_e2e.sh NCDX CHECK PLUGIN.so DIR MIN_RULES TUNE-ARGS...
set -eu
ncdx=$1 check=$2 so=$3 dir=$4 min_rules=$5
shift 5
rm -rf "$dir"
mkdir -p "$dir"
"$ncdx" --no-timestamps tune --model --json --out "$dir" "$@" > "$dir/tune.json"
test -s "$dir/nccl_tuner.conf"
if [ "$min_rules" = 0 ]; then
  # Agreement: the file says so and holds no rule; no env file.
  grep -q "the model agrees with NCCL's own choice in every bucket" "$dir/nccl_tuner.conf"
  if grep -v '^#' "$dir/nccl_tuner.conf" | grep -q .; then echo "FAIL: rules in an agreeing table"; exit 1; fi
  test ! -e "$dir/nccl.env"
fi
"$check" "$so" "$dir/tune.json" "$dir/nccl_tuner.conf" "$min_rules"
