# Shared by scripts/fuzz.sh (the CI smoke run) and bench/fuzz_long.sh (the recorded long run):
# the libFuzzer build, the target list and the seeds of each target. Source it from the repo root.
# NCDX_FUZZ_BUILD: an existing clang build configured with -DNCDX_FUZZ=ON to reuse (CI fuzzes in
# its ASan build instead of compiling everything a fourth time); default build-fuzz, made here.
fuzz_build=${NCDX_FUZZ_BUILD:-build-fuzz}

# Configures (first time) and builds every target of $fuzz_build at the lowest CPU priority.
fuzz_make() {
  if [ ! -f "$fuzz_build/build.ninja" ]; then
    local launcher=""
    command -v ccache >/dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
    CC=clang CXX=clang++ cmake -S . -B "$fuzz_build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $launcher \
      -DNCDX_FUZZ=ON -DNCDX_TESTS=OFF -DNCDX_BENCH=OFF >/dev/null
  fi
  nice -n 19 cmake --build "$fuzz_build" -j2
}

# The targets named, or every fuzz/*_fuzz.cc.
fuzz_targets() {
  if [ $# -gt 0 ]; then printf '%s\n' "$@"; return; fi
  for src in fuzz/*_fuzz.cc; do basename "$src" .cc; done
}

# Seed directories of a target: its committed corpus, and test fixtures that are real inputs of
# it (read in place, never copied).
fuzz_seeds() {
  [ -d "fuzz/corpus/$1" ] && echo "fuzz/corpus/$1"
  case "$1" in
    run_script_fuzz) echo "tests/data/audit/examples" ;;
    results_load_fuzz) echo "tests/data/report" ;;
  esac
  return 0
}
