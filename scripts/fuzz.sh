#!/usr/bin/env bash
# Builds every fuzz/*_fuzz.cc with clang + libFuzzer (ASan/UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) starting from its seeds in fuzz/corpus/<target>/. Exits non-zero on the first
# crash, leak, timeout or sanitizer report; the reproducer is left in build-fuzz/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
# NCDX_FUZZ_BUILD: an existing clang build configured with -DNCDX_FUZZ=ON to reuse (CI fuzzes in
# its ASan build instead of compiling everything a fourth time).
build=${NCDX_FUZZ_BUILD:-build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  LAUNCHER=""
  command -v ccache >/dev/null && LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $LAUNCHER \
    -DNCDX_FUZZ=ON -DNCDX_TESTS=OFF -DNCDX_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in fuzz/*_fuzz.cc; do targets+=("$(basename "$src" .cc)"); done
fi
mkdir -p "$build/artifacts"
status=0
for t in "${targets[@]}"; do
  exe="$build/fuzz/$t"
  [ -x "$exe" ] || { echo "fuzz: $t was not built" >&2; exit 70; }
  work="$build/corpus/$t"  # grows while fuzzing; the committed seeds stay untouched
  mkdir -p "$work"
  seeds=()
  [ -d "fuzz/corpus/$t" ] && seeds=("fuzz/corpus/$t")
  # Test fixtures that are real inputs of a target seed it too (read in place, never copied).
  case "$t" in
    run_script_fuzz) seeds+=("tests/data/audit/examples") ;;
  esac
  start=$(date +%s.%N)
  set +e
  "$exe" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=0 \
    -artifact_prefix="$build/artifacts/$t-" "$work" "${seeds[@]}" >"$build/$t.log" 2>&1
  rc=$?
  set -e
  end=$(date +%s.%N)
  runs=$(grep -oE 'DONE +cov: [0-9]+.*|#[0-9]+ +DONE.*' "$build/$t.log" | tail -1 || true)
  printf '%-28s %6.1fs  rc=%d  %s\n' "$t" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" "$rc" "$runs"
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t failed; last lines of $build/$t.log:" >&2
    tail -30 "$build/$t.log" >&2
    status=1
  fi
done
exit $status
