#!/usr/bin/env bash
# Creates (once) and prints the path of the Ray venv that tests/timeline/ray_straggler.sh uses to
# write a real `ray.timeline()` (PyPI `ray`, CPU, no extras: the core wheel runs tasks locally;
# tests only, ncdx never runs Python). The version is pinned so the trace format the test checks is
# the one docs/TIMELINE.md describes. Fixed path outside the checkout so later runs reuse it.
# Usage: bash scripts/ray-venv.sh → prints the venv's python on stdout; exit 1 if PyPI is out of reach.
set -euo pipefail
VENV=${NCDX_RAY_VENV:-/opt/ncdx/venv-ray}
RAY_VERSION=2.60.0
have() { "$VENV/bin/python3" -c "import ray, sys; sys.exit(ray.__version__ != '$RAY_VERSION')" >/dev/null 2>&1; }
if ! have; then
  mkdir -p "$(dirname "$VENV")"
  [ -x "$VENV/bin/python3" ] || python3 -m venv "$VENV"
  "$VENV/bin/python3" -m pip install --quiet --disable-pip-version-check "ray==$RAY_VERSION" >&2
fi
have
echo "$VENV/bin/python3"
