#!/usr/bin/env bash
# Builds ncdx and runs the whole test suite (unit, CLI goldens, corpus, multi-rank).
# BUILD_DIR and CMAKE_ARGS select another build (the ASan/UBSan one in .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR"
cd "$BUILD_DIR" && LC_ALL=C ctest --output-on-failure ${CTEST_ARGS:-}
