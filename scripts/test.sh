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
cd "$BUILD_DIR"
if [ -n "${CTEST_ARGS:-}" ]; then
  LC_ALL=C ctest --output-on-failure $CTEST_ARGS
  exit
fi
# Two passes: the suites that start real jobs (PyTorch fault runs, namespace hosts, Slurm, the
# browser) measure time-outs and links, so they run one at a time; everything else is
# deterministic and runs two at a time (the ASan stage of .ci/run has run this same set with -j2).
# Both passes always run; the exit status is the first failure's.
serial='(faults|netns|browser|torch|slow)'
rc=0
LC_ALL=C ctest --output-on-failure -j2 -LE "$serial" || rc=$?
LC_ALL=C ctest --output-on-failure -L "$serial" || { r=$?; [ "$rc" -ne 0 ] || rc=$r; }
exit "$rc"
