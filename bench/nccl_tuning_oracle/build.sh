#!/bin/sh
# Builds the NCCL tuning oracle (driver.cc) against an NCCL source tree that lives outside this
# repository: NCCL's src/graph/tuning.cc and src/misc/param.cc are compiled from that tree as
# they are, with the host compiler and CUDA headers (no GPU, no CUDA library is needed).
#
#   build.sh NCCL_SRC OUT_DIR CUDA_INCLUDE_DIR...
#
# NCCL_SRC: a checkout of github.com/NVIDIA/nccl at the tag to test (e.g. v2.27.7-1).
# CUDA_INCLUDE_DIR: directories holding cuda_runtime.h, cuda.h, nvml.h and cuda/atomic, e.g. the
# include/ folders of the PyPI wheels nvidia-cuda-runtime-cu12, nvidia-nvml-dev-cu12 and
# nvidia-cuda-cccl-cu12. Writes OUT_DIR/nccl_tuning_oracle.
set -eu
if [ $# -lt 3 ]; then
  echo "usage: build.sh NCCL_SRC OUT_DIR CUDA_INCLUDE_DIR..." >&2
  exit 64
fi
src=$(cd "$1" && pwd); out=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/include"
inc="-I$out/include -I$src/src -I$src/src/include -I$src/src/include/plugin -I$src/src/graph"
[ -d "$src/src/include/os" ] && inc="$inc -I$src/src/include/os"   # 2.29+ (src/Makefile)
for d in "$@"; do inc="$inc -I$d"; done
# nccl.h from nccl.h.in with the release's version macros (as src/Makefile does).
major=$(sed -n 's/^NCCL_MAJOR *:= *//p' "$src/makefiles/version.mk")
minor=$(sed -n 's/^NCCL_MINOR *:= *//p' "$src/makefiles/version.mk")
patch=$(sed -n 's/^NCCL_PATCH *:= *//p' "$src/makefiles/version.mk")
suffix=$(sed -n 's/^NCCL_SUFFIX *:= *//p' "$src/makefiles/version.mk")
code=$(printf "%d%02d%02d" "$major" "$minor" "$patch")
sed -e "s/\${nccl:Major}/$major/g" -e "s/\${nccl:Minor}/$minor/g" -e "s/\${nccl:Patch}/$patch/g" \
    -e "s/\${nccl:Suffix}/$suffix/g" -e "s/\${nccl:Version}/$code/g" \
    "$src/src/nccl.h.in" > "$out/include/nccl.h"
cxx=${CXX:-g++}
# src/Makefile and makefiles/common.mk: NCCL_OS_LINUX (2.30+), CUDA_MAJOR/MINOR of the headers.
flags="-std=c++17 -O1 -fPIC -w -DNCCL_OS_LINUX -DCUDA_MAJOR=${CUDA_MAJOR:-12} -DCUDA_MINOR=${CUDA_MINOR:-9}"
# NCCL's objects are kept when newer than their source (a driver change relinks only driver.o).
for f in graph/tuning.cc misc/param.cc; do
  o="$out/$(basename "$f" .cc).o"
  [ -f "$o" ] && [ "$o" -nt "$src/src/$f" ] && continue
  $cxx $flags $inc -c "$src/src/$f" -o "$o"
done
$cxx $flags $inc -c "$here/driver.cc" -o "$out/driver.o"
$cxx -o "$out/nccl_tuning_oracle" "$out/driver.o" "$out/tuning.o" "$out/param.o" -ldl -lpthread
echo "$out/nccl_tuning_oracle (NCCL $major.$minor.$patch)"
