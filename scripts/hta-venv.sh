#!/usr/bin/env bash
# Creates (once) and prints the path of the HolisticTraceAnalysis venv that bench/timeline_hta.sh
# uses as the peer analyser of PyTorch profiler traces (PyPI `holistictraceanalysis`; a test oracle
# only, ncdx never runs Python). Fixed path outside the checkout so later runs reuse it.
# Usage: bash scripts/hta-venv.sh → prints the venv's python on stdout; exit 1 if PyPI is out of reach.
set -euo pipefail
VENV=${NCDX_HTA_VENV:-/opt/ncdx/venv-hta}
if ! "$VENV/bin/python3" -c 'import hta' >/dev/null 2>&1; then
  mkdir -p "$(dirname "$VENV")"
  [ -x "$VENV/bin/python3" ] || python3 -m venv "$VENV"
  "$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check holistictraceanalysis >&2
fi
"$VENV/bin/python3" -c 'import hta' >&2
echo "$VENV/bin/python3"
