#!/usr/bin/env bash
# Builds ncdx and runs the whole test suite (unit, CLI goldens, corpus, multi-rank).
# BUILD_DIR and CMAKE_ARGS select another build (the ASan/UBSan one in .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
# ccache, when installed, makes a rebuild of an unchanged file free (CI and local runs share it).
LAUNCHER=""
command -v ccache >/dev/null && LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
cmake -S . -B "$BUILD_DIR" -G Ninja $LAUNCHER ${CMAKE_ARGS:-} >/dev/null
# Python test oracles (Hydra/OmegaConf, jsonschema) from PyPI; the tests that need them say so and
# skip when PyPI is out of reach.
bash scripts/py-oracles.sh "$BUILD_DIR" || echo "test.sh: Python oracles unavailable; their tests will skip" >&2
cmake --build "$BUILD_DIR"
cd "$BUILD_DIR" && LC_ALL=C ctest --output-on-failure ${CTEST_ARGS:-}
