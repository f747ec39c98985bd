#!/usr/bin/env bash
# Builds every fuzz/*_fuzz.cc with clang + libFuzzer (ASan/UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) starting from its seeds (scripts/fuzz_common.sh). Exits non-zero on the first
# crash, leak, timeout or sanitizer report; the reproducer is left in <build>/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fuzz_common.sh
secs=${1:-60}
shift || true
fuzz_make
mkdir -p "$fuzz_build/artifacts"
status=0
for t in $(fuzz_targets "$@"); do
  exe="$fuzz_build/fuzz/$t"
  [ -x "$exe" ] || { echo "fuzz: $t was not built" >&2; exit 70; }
  work="$fuzz_build/corpus/$t"  # grows while fuzzing; the committed seeds stay untouched
  mkdir -p "$work"
  mapfile -t seeds < <(fuzz_seeds "$t")
  start=$(date +%s.%N)
  set +e
  "$exe" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=0 \
    -artifact_prefix="$fuzz_build/artifacts/$t-" "$work" "${seeds[@]}" >"$fuzz_build/$t.log" 2>&1
  rc=$?
  set -e
  end=$(date +%s.%N)
  runs=$(grep -oE 'DONE +cov: [0-9]+.*|#[0-9]+ +DONE.*' "$fuzz_build/$t.log" | tail -1 || true)
  printf '%-28s %6.1fs  rc=%d  %s\n' "$t" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" "$rc" "$runs"
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t failed; last lines of $fuzz_build/$t.log:" >&2
    tail -30 "$fuzz_build/$t.log" >&2
    status=1
  fi
done
exit $status
