"""Hydra oracle for `ncdx audit` on verl's real config: for every verl release in ncdx's facts table,
several override sets drawn from the shapes of the official scripts (real keys with new values,
invented keys, typos, + / ++ / ~, config groups such as model_engine=megatron and
actor@actor_rollout_ref.actor=megatron_actor) are composed twice:

  * by real Hydra (hydra-core + omegaconf) on the config dir of that release's wheel, and
  * by `ncdx --json audit --print --verl-version V -- <overrides>`.

Verdicts agree when both refuse, or both compose the same tree (OmegaConf.to_container,
resolve=False). Prints the agreement per version and every disagreement; exit 1 below the bar.

Usage: python3 verl_oracle.py NCDX WHEEL_CACHE [--sets N] [--min 99.5] [--versions a,b]
Exit 77 (skip) when a wheel is not in the cache (scripts/py-oracles.sh downloads them).
"""
import argparse
import importlib.util
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
spec = importlib.util.spec_from_file_location("verl_schema", os.path.join(ROOT, "scripts", "verl-schema.py"))
vs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vs)
sys.path.insert(0, HERE)
from hydra_oracle import ncdx_print, same  # noqa: E402 - the comparison and the ncdx call of the YAML oracle


def first_diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:  # a is ncdx's tree, b is Hydra's
                return f"{path}{k}: only in Hydra"
            if k not in b:
                return f"{path}{k}: only in ncdx"
            d = first_diff(a[k], b[k], f"{path}{k}.")
            if d:
                return d
        return None
    return None if same(a, b) else f"{path.rstrip('.')}: Hydra {b!r} vs ncdx {a!r}"


def value_like(v, rng):
    """A new value of the same kind, written as a script would write it."""
    if isinstance(v, bool):
        return rng.choice(["True", "False", "true"])
    if isinstance(v, int):
        return str(rng.choice([1, 2, 4, 8, 16, 256, 1024, -1, 0]))
    if isinstance(v, float):
        return rng.choice(["0.5", "1e-6", "0.001", "0.9"])
    if v is None:
        return rng.choice(["null", "4", "vllm", "[a,b]"])
    if isinstance(v, list):
        return rng.choice(["[console]", "[console,wandb]", "[]"])
    if isinstance(v, dict):
        return rng.choice(["{}", "{a:1}"])
    return rng.choice(["vllm", "sglang", "$HOME/data/train.parquet", "fsdp2", "grpo", "'a b'"])


def typo(key, rng):
    parts = key.split(".")
    i = rng.randrange(len(parts))
    p = parts[i]
    if len(p) > 3:
        j = rng.randrange(len(p) - 1)
        p = p[:j] + p[j + 1] + p[j] + p[j + 2:] if rng.random() < 0.5 else p[:j] + p[j + 1:]
    else:
        p = p + "s"
    parts[i] = p
    return ".".join(parts)


INVENTED = ["trainer.dist_backend=nccl", "model.tensor_parallel_size=8", "trainer.nccl_timeout=1200",
            "actor_rollout_ref.model.tensor_parallel_size=2", "critic.model.fsdp_config.foo=1"]


def draw_sets(tree, choices, options, rng, n):
    flat = {}
    vs.flatten(tree, "", flat)
    leaves = sorted(flat)
    containers = sorted({k.rsplit(".", 1)[0] for k in leaves if "." in k})
    groups = []
    for c, default in sorted(choices.items()):
        if "/" in c:
            continue
        for opt in options.get(c, []):
            groups.append(f"{c}={opt}")
        groups.append(f"{c}=no_such_option")
    groups.append("actor@actor_rollout_ref.nope=dp_actor")
    sets = []
    for _ in range(n):
        k = rng.choice([1, 1, 2, 3, 4])
        s = []
        for _ in range(k):
            r = rng.random()
            key = rng.choice(leaves)
            if r < 0.35:
                s.append(f"{key}={value_like(flat[key], rng)}")
            elif r < 0.45:
                s.append(f"+{key}={value_like(flat[key], rng)}")
            elif r < 0.52:
                s.append(f"++{key}={value_like(flat[key], rng)}")
            elif r < 0.60:
                s.append(f"+{rng.choice(containers)}.new_key_{rng.randrange(9)}={rng.randrange(9)}")
            elif r < 0.66:
                s.append(f"~{key}")
            elif r < 0.72:
                s.append(f"{typo(key, rng)}={value_like(flat[key], rng)}")
            elif r < 0.76:
                s.append(rng.choice(INVENTED))
            elif r < 0.80:
                s.append("+" + rng.choice(INVENTED))
            elif r < 0.98 and groups:
                s.append(rng.choice(groups))
            else:
                s.append(f"~{typo(key, rng)}")
        sets.append(s)
    return sets


def hydra_compose(comp, cdir, name, overrides):
    try:
        tree, _, _ = comp.compose(cdir, name, overrides)
        return tree, None
    except Exception as e:  # noqa: BLE001 - any Hydra error: the run would not start
        return None, f"{type(e).__name__}: {str(e).splitlines()[0]}"


def ncdx_compose(ncdx, v, overrides):
    return ncdx_print(ncdx, ["--verl-version", v], overrides)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ncdx")
    ap.add_argument("cache")
    ap.add_argument("--sets", type=int, default=40)
    ap.add_argument("--min", type=float, default=99.5)
    ap.add_argument("--versions", default=",".join(vs.VERSIONS))
    a = ap.parse_args()
    a.ncdx, a.cache = os.path.abspath(a.ncdx), os.path.abspath(a.cache)  # the loop chdirs into each wheel
    versions = a.versions.split(",")
    wheels = {}
    for v in versions:
        w = vs.wheel_path(a.cache, v, offline=True)
        if w is None:
            print(f"skip: the verl {v} wheel is not in {a.cache} (bash scripts/py-oracles.sh downloads them)")
            return 77
        wheels[v] = w
    rng = random.Random(11)
    total = agree = 0
    worst = 100.0
    for v in versions:
        tmp = tempfile.mkdtemp(prefix="ncdx-oracle-")
        cwd = os.getcwd()
        try:
            vs.unpack(wheels[v], tmp)
            sys.path.insert(0, tmp)
            for m in [m for m in sys.modules if m == "verl" or m.startswith("verl.")]:
                del sys.modules[m]
            os.chdir(tmp)
            comp = vs.Composer(tmp)
            cdir, name = "verl/trainer/config", "ppo_trainer"
            tree, choices, options = comp.compose(cdir, name, [])
            sets = draw_sets(tree, choices, options, rng, a.sets)
            n = ok = 0
            for s in sets:
                h, herr = hydra_compose(comp, cdir, name, s)
                x, xerr = ncdx_compose(a.ncdx, v, s)
                n += 1
                if h is None and x is None:
                    ok += 1
                elif h is not None and x is not None and same(x, h):
                    ok += 1
                else:
                    why = (f"Hydra: {herr}" if h is None else "Hydra composes") + " | " + \
                          (f"ncdx: {xerr}" if x is None else "ncdx composes")
                    if h is not None and x is not None:
                        why = "both compose, trees differ: " + str(first_diff(x, h))
                    print(f"DISAGREE verl {v}: {' '.join(s)}\n    {why}")
            pct = 100.0 * ok / n if n else 100.0
            worst = min(worst, pct)
            print(f"verl {v}: {ok}/{n} override sets agree with Hydra ({pct:.1f} %)")
            total += n
            agree += ok
        finally:
            os.chdir(cwd)
            if tmp in sys.path:
                sys.path.remove(tmp)
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"all versions: {agree}/{total} ({100.0 * agree / max(total, 1):.2f} %), lowest per version {worst:.1f} %")
    return 0 if worst >= a.min else 1


if __name__ == "__main__":
    sys.exit(main())
