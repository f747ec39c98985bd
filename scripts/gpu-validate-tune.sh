#!/usr/bin/env bash
# The one prepared GPU validation run of issue #15 ("GPU validation", "ncdx tune"): on a machine
# with NVIDIA GPUs and libnccl.so.2 (no CUDA toolkit needed: ncdx dlopens libcudart and libnccl),
#   1. builds ncdx and libnccl-tuner-ncdx.so only (no tests, no benchmarks);
#   2. the tuner plugin loaded into the real NCCL (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,TUNING)
#      with a CSV forcing Ring/LL on all-reduce at 1-4 MiB, and the same bench without it: the log
#      must show NCCL loading it and our "ncdx tuner: allreduce ... -> Ring/LL" lines;
#   3. a small `ncdx tune --backend nccl` (allreduce, 1 - 64 MiB x 4, no exhaustive search);
#   4. `ncdx bench --backend nccl` every collective, 8 B - 4 GB, on every GPU present (one
#      process, ncclCommInitAll), fewer iterations and no data check from 128 MB up, nccl-tests'
#      -J JSON per collective, until 7 minutes have passed;
#   5. the model's prediction next to each: `ncdx model --judge` on that JSON with a --spec built
#      from nvidia-smi (nodes=1, gpus=N, gpu=<model>);
#   6. nccl-tests, when nvcc exists and NCDX_NCCL_TESTS_SRC names its source tree: built with
#      NCCL_HOME from the found library and its all_reduce_perf run next to ncdx bench.
# On ONE GPU NCCL's collectives are local copies (nothing crosses NVLink or a NIC, busbw factors
# are 0 for all-reduce/all-gather/reduce-scatter/alltoall, and NCCL does not consult the tuner for
# a 1-rank communicator): the script says so in summary.txt, and steps 2-3 prove only loading.
# Without a GPU or libnccl.so.2 it says which is missing and exits 77 (skip) before building.
# Checking the script itself without a GPU: NCDX_SKIP_BUILD=1 NCDX_BUILD_DIR=build reuses a build,
# NCDX_VALIDATE_SMALL_ONLY=1 stops the sweep at 64 MB (the stand-in libraries keep host memory).
# Output: $OUT (the device tool's folder) or ./gpu-validate-tune; summary.txt first. Budget: about
# 8 minutes on 8 H100s (the build is most of it on 16 cores).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-validate-tune}
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
t0=$SECONDS

# --- 0. GPU and NCCL, before spending time on a build.
ngpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >"$out/nvidia-smi-L.txt" 2>&1; then
  ngpu=$(grep -c '^GPU ' "$out/nvidia-smi-L.txt")
fi
if [ "$ngpu" -lt 1 ]; then
  say "no GPU: nvidia-smi missing or lists no GPU ($(head -1 "$out/nvidia-smi-L.txt" 2>/dev/null || echo 'not installed')); nothing to validate"
  exit 77
fi
find_lib() {  # $1 = soname, $2 = env override, $3 = python package dir under nvidia/
  local env_val=${!2:-}
  if [ -n "$env_val" ]; then [ -e "$env_val" ] && { echo "$env_val"; return 0; }; return 1; fi
  local p
  p=$(ldconfig -p 2>/dev/null | awk -v so="$1" '$1 == so {print $NF; exit}')
  [ -n "$p" ] && { echo "$p"; return 0; }
  p=$(python3 - "$3" "$1" 2>/dev/null <<'PY'
import importlib.util, os, sys
for base in ("nvidia." + sys.argv[1],):
    try:
        spec = importlib.util.find_spec(base)
    except Exception:
        continue
    for d in (spec.submodule_search_locations or []) if spec else []:
        f = os.path.join(d, "lib", sys.argv[2])
        if os.path.exists(f):
            print(f); sys.exit(0)
PY
)
  [ -n "$p" ] && { echo "$p"; return 0; }
  return 1
}
nccl=$(find_lib libnccl.so.2 NCDX_NCCL_LIB nccl) || { say "no NCCL: libnccl.so.2 not in ldconfig, python nvidia/nccl/lib or NCDX_NCCL_LIB"; exit 77; }
export NCDX_NCCL_LIB=$nccl
if cudart=$(find_lib libcudart.so.12 NCDX_CUDART_LIB cuda_runtime); then export NCDX_CUDART_LIB=$cudart; fi
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
gpu_tok=$(echo "$gpu_name" | grep -oE 'GH200|B200|H200|H100|H800|A100|A800|L40S|L40|L4|A10G|V100|T4' | head -1)
say "GPUs: $ngpu x $gpu_name; NCCL: $nccl; cudart: ${NCDX_CUDART_LIB:-default search}"
if [ "$ngpu" -eq 1 ]; then
  say "ONE GPU: NCCL's collectives are local copies here (no NVLink, no NIC; busbw factors 2(n-1)/n and (n-1)/n are 0;"
  say "  NCCL does not run the tuner for a 1-rank communicator): bench times are copy times, the plugin step proves loading only."
fi
nvidia-smi topo -m >"$out/nvidia-smi-topo.txt" 2>&1

# --- 1. build (ncdx and the plugin only).
command -v cmake >/dev/null || bash scripts/install-deps.sh >"$out/deps.log" 2>&1
# Its own build folder: a developer's build/ keeps its tests and benchmarks.
bdir=${NCDX_BUILD_DIR:-build-gpuval}
if [ "${NCDX_SKIP_BUILD:-0}" = 1 ] && [ -x "$bdir/src/cli/ncdx" ]; then
  say "build: skipped (NCDX_SKIP_BUILD=1, $bdir)"
elif ! { cmake -S . -B "$bdir" -G Ninja -DNCDX_BENCH=OFF -DNCDX_TESTS=OFF >"$out/build.log" 2>&1 &&
       cmake --build "$bdir" -j"$(nproc)" --target ncdx nccl-tuner-ncdx >>"$out/build.log" 2>&1; }; then
  tail -30 "$out/build.log"; say "build failed (build.log)"; exit 70
fi
ncdx=$bdir/src/cli/ncdx
plugin=$(readlink -f "$bdir/lib/libnccl-tuner-ncdx.so")
say "build: $((SECONDS - t0)) s"

# --- 2. the plugin inside the real NCCL (short, before the long sweep).
csv="$out/force-ring-ll.conf"
printf '# ncdx GPU validation: all-reduce 1-4 MiB forced to Ring/LL\nallreduce,1048576,4194304,ring,ll,-1,-1,-1\n' >"$csv"
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING NCCL_TUNER_PLUGIN="$plugin" NCDX_TUNER_FILE="$(readlink -f "$csv")" \
  timeout 60 $ncdx bench allreduce --backend nccl -g "$ngpu" --sizes 512K,1M,2M,4M,8M -n 20 -w 5 >"$out/plugin-on.txt" 2>&1
echo "exit $?" >>"$out/plugin-on.txt"
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING \
  timeout 60 $ncdx bench allreduce --backend nccl -g "$ngpu" --sizes 512K,1M,2M,4M,8M -n 20 -w 5 >"$out/plugin-off.txt" 2>&1
say "plugin: NCCL's own lines: $(grep -ciE 'tuner' "$out/plugin-on.txt") mentioning a tuner; loaded: $(grep -m1 -iE 'tuner.*(using|loaded|ncdx)' "$out/plugin-on.txt" | cut -c1-160)"
say "plugin: steered calls: $(grep -c 'ncdx tuner: allreduce' "$out/plugin-on.txt") ('ncdx tuner: allreduce ... -> Ring/LL' lines; expected > 0 with >= 2 GPUs, 0 on one)"
grep -E '^ +[0-9]+ ' "$out/plugin-on.txt" | sed 's/^/  with plugin   /' | tee -a "$summary" >/dev/null
grep -E '^ +[0-9]+ ' "$out/plugin-off.txt" | sed 's/^/  without       /' | tee -a "$summary" >/dev/null

# --- 3. a small ncdx tune: allreduce 1-64 MiB, NCCL's channel count only, no exhaustive search (each launch
# initialises NCCL on every GPU, seconds each).
if [ "$ngpu" -ge 2 ]; then
  (cd "$out" && timeout 150 "$(readlink -f "$OLDPWD/$ncdx")" tune --backend nccl -g "$ngpu" --collectives allreduce -b 1M -e 64M -f 4 \
    -n 20 -w 3 --repeats 2 --no-exhaustive --plugin "$plugin" --tuner-file nccl_tuner.conf --json >tune.json 2>tune.stderr)
  say "tune: exit $? ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("; ".join(c["collective"]+": "+str(c["trials"])+"/"+str(c["exhaustive_trials"])+" trials, "+", ".join(b["choice"]+" x"+format(b["gain_vs_default"],".3f") for b in c["buckets"]) for c in d["collectives"]))' "$out/tune.json" 2>/dev/null))"
else
  say "tune: skipped (one GPU: every configuration is the same local copy)"
fi

# --- 4-5. every collective, 8 B - 4 GB, and the model's judgement of each.
spec="nodes=1,gpus=$ngpu${gpu_tok:+,gpu=$gpu_tok}"
for c in allreduce allgather reducescatter broadcast reduce alltoall sendrecv; do
  timeout 60 $ncdx bench $c --backend nccl -g "$ngpu" -b 8 -e 64M -f 2 -n 20 -w 5 -c 1 \
    -J "$out/bench-$c-small.nt.json" >"$out/bench-$c-small.txt" 2>&1; rs=$?
  rl=skipped
  [ "${NCDX_VALIDATE_SMALL_ONLY:-0}" = 1 ] || { timeout 90 $ncdx bench $c --backend nccl -g "$ngpu" -b 128M -e 4G -f 2 -n 5 -w 1 -c 0 \
    -J "$out/bench-$c-large.nt.json" >"$out/bench-$c-large.txt" 2>&1; rl=$?; }
  say "bench $c: exit $rs (8 B-64 MB), $rl (128 MB-4 GB); $(grep -h 'Avg bus bandwidth' "$out/bench-$c-small.txt" "$out/bench-$c-large.txt" 2>/dev/null | tr '\n' ' ')"
  for part in small large; do
    [ -s "$out/bench-$c-$part.nt.json" ] || continue
    $ncdx model --judge "$out/bench-$c-$part.nt.json" --spec "$spec" --coll "$c" >"$out/judge-$c-$part.txt" 2>&1
    say "  judge $c $part (exit $?): $(grep -m1 -iE 'verdict|ok:|slow:|wrong' "$out/judge-$c-$part.txt")"
  done
  [ $((SECONDS - t0)) -gt 420 ] && { say "time: stopping the sweep after $c (8-minute budget)"; break; }
done
$ncdx model --spec "$spec" --coll allreduce,allgather,reducescatter,broadcast,reduce -b 8 -e 4G -f 2 --json >"$out/model.json" 2>&1

# --- 6. nccl-tests next to ncdx bench.
if command -v nvcc >/dev/null 2>&1 && [ -n "${NCDX_NCCL_TESTS_SRC:-}" ] && [ -d "$NCDX_NCCL_TESTS_SRC" ]; then
  nccl_home=$(mktemp -d); mkdir -p "$nccl_home/lib" "$nccl_home/include"
  ln -s "$nccl" "$nccl_home/lib/libnccl.so"; ln -s "$nccl" "$nccl_home/lib/libnccl.so.2"
  hdr=$(dirname "$nccl")/../include/nccl.h; [ -e "$hdr" ] && ln -s "$(readlink -f "$hdr")" "$nccl_home/include/nccl.h"
  if make -C "$NCDX_NCCL_TESTS_SRC" -j"$(nproc)" NCCL_HOME="$nccl_home" >"$out/nccl-tests-build.log" 2>&1; then
    timeout 90 "$NCDX_NCCL_TESTS_SRC/build/all_reduce_perf" -b 8 -e 4G -f 2 -g "$ngpu" >"$out/nccl-tests-all_reduce.txt" 2>&1
    say "nccl-tests all_reduce_perf: exit $?; $(grep 'Avg bus bandwidth' "$out/nccl-tests-all_reduce.txt")"
  else
    say "nccl-tests: build failed (nccl-tests-build.log; nccl.h found: $([ -e "$hdr" ] && echo yes || echo no))"
  fi
else
  say "nccl-tests: not built (needs nvcc and NCDX_NCCL_TESTS_SRC=<nccl-tests source tree>)"
fi
say "total: $((SECONDS - t0)) s"
