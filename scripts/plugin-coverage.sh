#!/usr/bin/env bash
# Line and branch coverage of the NCCL tuner plugin (plugins/nccl-tuner/ncdx_tuner.c) under its ABI
# harness (tests/tuner/tuner_plugin_test.cc): the plugin built with gcc --coverage, loaded by the
# harness exactly as in ctest (dlopen + the ncclTunerPlugin_vN symbols), then gcov's summary.
# Usage: scripts/plugin-coverage.sh [MIN_LINES_PCT MIN_BRANCHES_TAKEN_PCT]  (floors: exit 1 below them)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
min_lines=${1:-0} min_taken=${2:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
${CC:-gcc} -O0 --coverage -fPIC -shared -fvisibility=hidden "$src/plugins/nccl-tuner/ncdx_tuner.c" -o libnccl-tuner-ncdx.so
${CXX:-g++} -std=c++20 -O0 -I"$src/plugins/nccl-tuner" -DNCDX_TUNER_SO="\"$work/libnccl-tuner-ncdx.so\"" \
  "$src/tests/tuner/tuner_plugin_test.cc" -lgtest -lgtest_main -ldl -pthread -o tuner_test
./tuner_test --gtest_brief=1 >harness.log 2>&1 || { cat harness.log; echo "plugin-coverage: the harness failed" >&2; exit 1; }
${GCOV:-gcov} -b -c -o . libnccl-tuner-ncdx.so-ncdx_tuner.gcda >gcov.txt
sed -n '2,5p' gcov.txt | sed 's/^/ncdx_tuner.c: /'
# Lines that never ran, for the record (the out-of-memory path cannot be reached without failing calloc).
grep -n '#####' ncdx_tuner.c.gcov | sed 's/^/never ran: /' || true
python3 - "$min_lines" "$min_taken" gcov.txt <<'PY'
import re, sys
lo_lines, lo_taken, path = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
text = open(path).read()
lines = float(re.search(r"Lines executed:([\d.]+)%", text).group(1))
taken = float(re.search(r"Taken at least once:([\d.]+)%", text).group(1))
bad = [f"lines {lines} % < {lo_lines} %"] * (lines < lo_lines) + [f"branches taken {taken} % < {lo_taken} %"] * (taken < lo_taken)
if bad:
    sys.exit("plugin-coverage: below the floor: " + "; ".join(bad))
PY
