#!/usr/bin/env bash
# Creates (once) and prints the path of the PyTorch venv that the real-producer tests use: the
# triage fault bench (torchrun/gloo jobs with injected faults) and the timeline traces
# (torch.profiler). PyTorch comes from PyPI (tests only; ncdx never runs Python). The Linux wheel
# pulls the CUDA libraries (~5 GB) but runs on CPU with the gloo backend. The venv lives at a
# fixed path outside the checkout so CI runs and later sessions reuse it.
# Usage: bash scripts/torch-venv.sh   → prints the venv's python on stdout, exit 0; 1 if PyPI is out of reach.
set -euo pipefail
VENV=${NCDX_TORCH_VENV:-/opt/ncdx/venv-torch}
if ! "$VENV/bin/python3" -c 'import torch' >/dev/null 2>&1; then
  mkdir -p "$(dirname "$VENV")"
  [ -x "$VENV/bin/python3" ] || python3 -m venv "$VENV"
  "$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check "torch>=2.4" numpy >&2
fi
"$VENV/bin/python3" -c 'import torch' >&2
echo "$VENV/bin/python3"
