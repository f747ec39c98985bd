#!/usr/bin/env bash
# Skips (exit 77, with the reason) unless build/venv has hydra-core and omegaconf; see scripts/py-oracles.sh.
set -u
if [ ! -x "${VENV_PY:-}" ]; then
  echo "SKIP: no Python oracle venv at ${VENV_PY:-<unset>}; run scripts/py-oracles.sh to compare with Hydra/OmegaConf"
  exit 77
fi
if ! "$VENV_PY" -c 'import hydra, omegaconf' 2>/dev/null; then
  echo "SKIP: hydra-core/omegaconf not importable in $VENV_PY; run scripts/py-oracles.sh"
  exit 77
fi
exec "$VENV_PY" "$(dirname "$0")/hydra_oracle.py" "$@"
