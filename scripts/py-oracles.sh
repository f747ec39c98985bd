#!/usr/bin/env bash
# Creates build/venv with the Python test oracles (PyPI, tests only; ncdx itself never runs Python):
# hydra-core + omegaconf for the composed-config comparison of `ncdx audit` (tests/audit), and
# jsonschema to validate the audit JSON goldens against docs/schema/audit.schema.json, lxml to
# validate JUnit files against the JUnit XSD (tests/report/junit_xsd_check.py).
# Usage: bash scripts/py-oracles.sh [BUILD_DIR]   (tests skip with a visible reason without it)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-${BUILD_DIR:-build}}
mkdir -p "$BUILD_DIR"
if [ ! -x "$BUILD_DIR/venv/bin/python3" ]; then
  python3 -m venv "$BUILD_DIR/venv"
fi
"$BUILD_DIR/venv/bin/python3" -m pip install --quiet --disable-pip-version-check "hydra-core>=1.3,<1.4" "omegaconf>=2.3,<2.4" "jsonschema>=4,<5" "lxml>=4.9,<6"
"$BUILD_DIR/venv/bin/python3" -c 'import hydra, omegaconf; print("oracles: hydra-core", hydra.__version__, "omegaconf", omegaconf.__version__)'
# verl's released wheels (~12 MB, --no-deps: only verl's own files) for the facts-table freshness
# test and the Hydra oracle on verl's real config (tests/audit/verl_oracle.py). Nothing of verl runs.
"$BUILD_DIR/venv/bin/python3" - "$BUILD_DIR/verl-wheels" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("vs", "scripts/verl-schema.py")
vs = importlib.util.module_from_spec(spec); spec.loader.exec_module(vs)
for v in vs.VERSIONS:
    vs.wheel_path(sys.argv[1], v, offline=False)
print("verl wheels:", ", ".join(vs.VERSIONS), "in", sys.argv[1])
PY
