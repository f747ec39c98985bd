#!/usr/bin/env bash
# The one prepared GPU validation run of issue "doctor": on a machine with NVIDIA GPUs, builds
# ncdx (no CUDA toolkit needed: everything is dlopen'ed), then records
#   - `ncdx doctor --full --json` (NVML fields, CUDA copy bandwidth H2D/D2H/D2D, P2P bandwidth and
#     latency matrices, local NCCL all-reduce busbw, each against its expected value),
#   - `ncdx topo --json` from the live NVML topology,
#   - `ncdx gather` (a bundle, replayed offline with `doctor --from`),
#   - `nvidia-smi topo -m` and `nvidia-smi -q` when present, to cross-check NVML fields,
#   - the gpu-labelled tests (ctest -L gpu), which skip without a GPU and run with one.
# Output goes to $OUT (the device tool's folder) or ./gpu-validate.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-validate}
mkdir -p "$out"
command -v cmake >/dev/null || bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DNCDX_BENCH=OFF >/dev/null && cmake --build build -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 70; }
ncdx=build/src/cli/ncdx
/usr/bin/time -v $ncdx doctor --full --json >"$out/doctor.json" 2>"$out/doctor.stderr"; echo "doctor exit $?"
$ncdx doctor --full --no-color >"$out/doctor.txt" 2>&1
$ncdx topo --json >"$out/topo.json" 2>&1; echo "topo exit $?"
$ncdx gather -o "$out/bundle" >/dev/null 2>&1 && $ncdx doctor --from "$out/bundle" --json >"$out/doctor-replay.json" 2>&1
if command -v nvidia-smi >/dev/null; then
  nvidia-smi topo -m >"$out/nvidia-smi-topo.txt" 2>&1
  nvidia-smi -q >"$out/nvidia-smi-q.txt" 2>&1
fi
(cd build && ctest -L gpu --output-on-failure) >"$out/ctest-gpu.txt" 2>&1; echo "ctest -L gpu exit $?"
python3 - "$out/doctor.json" <<'PY' || true
import json, sys
d = json.load(open(sys.argv[1]))
for m in d.get("measurements", []):
    print(f"{m.get('id')}: {m.get('value')} {m.get('unit')} expected {m.get('expected')} ({m.get('pct_of_expected')}%) {m.get('status')}")
PY
