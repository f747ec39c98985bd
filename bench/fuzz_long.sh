#!/usr/bin/env bash
# Longer fuzzing of every parser (issue #12): each fuzz/*_fuzz.cc target runs SECONDS (default
# 3600) at the lowest CPU priority, from its seeds plus the corpus grown by earlier runs
# (scripts/fuzz_common.sh: the build, NCDX_FUZZ_BUILD to reuse one, the seeds), and one row per
# target — seconds run, executions, exec/s, coverage, crashes, result — is printed in the Markdown
# form of docs/ADVERSARIAL.md "Fuzzing". libFuzzer stops a target at its first crash, leak or
# timeout: the reproducer is left in <build>/artifacts/ (counted in "crashes") and the script
# exits 1 after the other targets ran.
# Usage: bench/fuzz_long.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fuzz_common.sh
secs=${1:-3600}
shift || true
fuzz_make >&2
mkdir -p "$fuzz_build/artifacts"
status=0
echo "| target | seconds | executions | exec/s | coverage | crashes | result |"
echo "|---|---|---|---|---|---|---|"
for t in $(fuzz_targets "$@"); do
  exe="$fuzz_build/fuzz/$t"
  [ -x "$exe" ] || { echo "fuzz: $t was not built" >&2; exit 70; }
  work="$fuzz_build/corpus/$t"
  mkdir -p "$work"
  mapfile -t seeds < <(fuzz_seeds "$t")
  before=$(find "$fuzz_build/artifacts" -name "$t-*" | wc -l)
  start=$(date +%s)
  set +e
  nice -n 19 "$exe" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$fuzz_build/artifacts/$t-" "$work" "${seeds[@]}" >"$fuzz_build/$t.long.log" 2>&1
  rc=$?
  set -e
  ran=$(( $(date +%s) - start ))
  log="$fuzz_build/$t.long.log"
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
  crashes=$(( $(find "$fuzz_build/artifacts" -name "$t-*" | wc -l) - before ))
  result=$([ $rc -eq 0 ] && echo "no crash" || echo "FAILED rc=$rc (see $log)")
  echo "| $t | $ran | $execs | $rate | $cov | $crashes | $result |"
  [ $rc -eq 0 ] || status=1
done
exit $status
