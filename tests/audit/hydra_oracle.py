"""Compares `ncdx audit --bare --print --json` with Hydra's compose (OmegaConf.to_container,
resolve=False) for each case in cases.txt: `<yaml file> <TAB> <override> <TAB> <override> ...`
(tabs separate overrides; lines starting with # are comments). Both must fail, or both must give
the same config. Exit 1 on any difference."""
import json
import math
import os
import subprocess
import sys
import tempfile

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b and type(a) is type(b)
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return True
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


def hydra_compose(yaml_path, overrides):
    d = os.path.dirname(os.path.abspath(yaml_path))
    name = os.path.splitext(os.path.basename(yaml_path))[0]
    try:
        with initialize_config_dir(config_dir=d, version_base=None):
            cfg = compose(config_name=name, overrides=overrides)
            return OmegaConf.to_container(cfg, resolve=False), None
    except Exception as e:  # noqa: BLE001 - any Hydra error is "the run would not start"
        return None, f"{type(e).__name__}: {e}"


def ncdx_print(ncdx, flags, overrides):
    """`ncdx --json audit --print FLAGS -- OVERRIDES`: (composed config, None), or (None, why) when
    ncdx refuses (exit 65, like Hydra raising) or fails otherwise. Shared with verl_oracle.py."""
    p = subprocess.run([ncdx, "--json", "audit", "--no-process-env", "--print"] + flags + ["--"] + overrides,
                       capture_output=True, text=True)
    if p.returncode == 65:
        return None, p.stderr.strip()
    if p.returncode != 0:
        return None, f"unexpected exit {p.returncode}: {p.stderr.strip()}"
    return json.loads(p.stdout)["config"], None


def ncdx_compose(ncdx, yaml_path, overrides):
    return ncdx_print(ncdx, ["--bare", "--config", yaml_path], overrides)


def main():
    cases_file = sys.argv[1]
    base = os.path.dirname(cases_file)
    ncdx = os.environ["NCDX"]
    n = bad = 0
    for lineno, line in enumerate(open(cases_file, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        yaml_path = os.path.join(base, parts[0])
        overrides = [p for p in parts[1:] if p != ""]
        want, werr = hydra_compose(yaml_path, overrides)
        got, gerr = ncdx_compose(ncdx, yaml_path, overrides)
        n += 1
        ok = (werr is not None and gerr is not None) or (werr is None and gerr is None and same(want, got))
        if not ok:
            bad += 1
            print(f"MISMATCH {cases_file}:{lineno}: {parts[0]} {overrides}")
            print(f"  hydra: {werr or json.dumps(want, sort_keys=True)}")
            print(f"  ncdx : {gerr or json.dumps(got, sort_keys=True)}")
    print(f"{n} cases, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
