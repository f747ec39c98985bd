#!/usr/bin/env bash
# Longer fuzzing of every parser (issue #12): each fuzz/*_fuzz.cc target runs SECONDS (default
# 3600) at the lowest CPU priority, from its seeds plus the corpus grown by earlier runs, and one
# row per target (seconds, executions, exec/s, coverage, result) is printed in the Markdown form of
# docs/ADVERSARIAL.md "Fuzzing". A crash leaves its reproducer in build-fuzz/artifacts/ and makes
# the script exit 1. Uses the same build as scripts/fuzz.sh (clang, libFuzzer, ASan+UBSan).
# Usage: bench/fuzz_long.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600}
shift || true
build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DNCDX_FUZZ=ON -DNCDX_TESTS=OFF -DNCDX_BENCH=OFF >/dev/null
fi
nice -n 19 cmake --build "$build" -j2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in fuzz/*_fuzz.cc; do targets+=("$(basename "$src" .cc)"); done
fi
mkdir -p "$build/artifacts"
status=0
echo "| target | seconds | executions | exec/s | coverage | result |"
echo "|---|---|---|---|---|---|"
for t in "${targets[@]}"; do
  exe="$build/fuzz/$t"
  [ -x "$exe" ] || { echo "fuzz: $t was not built" >&2; exit 70; }
  work="$build/corpus/$t"
  mkdir -p "$work"
  seeds=()
  [ -d "fuzz/corpus/$t" ] && seeds=("fuzz/corpus/$t")
  set +e
  nice -n 19 "$exe" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$work" "${seeds[@]}" >"$build/$t.long.log" 2>&1
  rc=$?
  set -e
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$build/$t.long.log" | grep -oE '[0-9]+$' || echo 0)
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$build/$t.long.log" | grep -oE '[0-9]+$' || echo 0)
  cov=$(grep -oE 'cov: [0-9]+' "$build/$t.long.log" | tail -1 | grep -oE '[0-9]+' || echo "?")
  result=$([ $rc -eq 0 ] && echo "no crash" || echo "FAILED rc=$rc (see $build/artifacts/)")
  echo "| $t | $secs | $execs | $rate | $cov | $result |"
  [ $rc -eq 0 ] || status=1
done
exit $status
