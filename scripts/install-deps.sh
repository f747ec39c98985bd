#!/usr/bin/env bash
# Installs everything ncdx needs to build and test, from Debian packages only.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
pkgs=(build-essential cmake ninja-build pkg-config git python3 python3-venv
      libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev libre2-dev zlib1g-dev libzstd-dev
      libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-dev
      zstd gzip hyperfine time iproute2 python3-jsonschema ccache binutils debootstrap chromium
      openmpi-bin libopenmpi-dev nftables iptables groff-base mandoc
      slurmctld slurmd slurm-client munge libibverbs-dev)
# MPI: bench/tune --backend mpi, doctor --cluster; nftables, iptables (NFQUEUE for the delay
# faults): the netns fault harness; groff/mandoc:
# the man page test; Slurm + munge: scripts/slurm-cluster.sh (srun --mpi=pmix across namespace
# hosts; the pmix plugin ships in slurm-wlm-basic-plugins, which slurmd depends on);
# libibverbs-dev: rdma-core's verbs.h, which the RDMA layout test compares our declarations with,
# and libibverbs.so.1, which the RDMA matrix loads (never linked).
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
