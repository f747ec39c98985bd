"""`ncdx template` x verl release: does the script verl would run (1) compose under real Hydra with
that release's wheel config, (2) pass verl's own validate_config (verl/utils/config.py of the wheel,
0.6.0+, loaded on its own with omegaconf: its batch, parallelism and log-prob micro-batch checks run;
the later dataclass conversion needs transformers/ray and is reported as not run), and (3) pass
`ncdx audit` with default flags (exit 0)?

Usage: python3 template_matrix.py NCDX WHEEL_CACHE [--versions a,b] [--sizes 7B,70B] [--strategies fsdp,megatron]
Prints one row per cell; exit 1 when any cell fails, 77 when a wheel is missing.
"""
import argparse
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("verl_schema", os.path.join(HERE, "..", "..", "scripts", "verl-schema.py"))
vs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vs)


def script_args(text):
    """The arguments of `python3 -m verl.trainer.main_ppo` in our own template (simple words)."""
    joined = text.replace("\\\n", " ")
    for line in joined.splitlines():
        if "-m verl.trainer.main_ppo" in line:
            words = shlex.split(line)
            return [w for w in words[words.index("verl.trainer.main_ppo") + 1:] if w != "$@"]
    return None


def verl_validate(wheel, tmp, cfg):
    """Runs the wheel's verl.utils.config.validate_config on the composed config, or says why not."""
    import zipfile
    from omegaconf import OmegaConf
    with zipfile.ZipFile(wheel) as z:
        if "verl/utils/config.py" not in z.namelist():
            return "n/a (no verl/utils/config.py: validation lives in ray_trainer, needs ray)"
        src = z.read("verl/utils/config.py").decode()
    if "def validate_config" not in src:
        return "n/a (no validate_config)"
    for name in ("verl", "verl.utils"):
        sys.modules[name] = types.ModuleType(name)
        sys.modules[name].__path__ = []
    mod = types.ModuleType("verl.utils.config")
    exec(compile(src, "verl/utils/config.py", "exec"), mod.__dict__)  # noqa: S102 - verl's own validation code
    c = OmegaConf.create(cfg)
    OmegaConf.resolve(c)
    use_ref = bool(c.algorithm.get("use_kl_in_reward", False) or c.actor_rollout_ref.actor.get("use_kl_loss", False))
    use_critic = c.algorithm.adv_estimator == "gae"
    try:
        mod.validate_config(c, use_reference_policy=use_ref, use_critic=use_critic)
        return "ok"
    except (ImportError, ModuleNotFoundError) as e:
        return f"ok (checks before the dataclass conversion; {e.name or 'import'} not installed)"
    except Exception as e:  # noqa: BLE001
        # From 0.8.0 validate_config converts the actor config with omega_conf_to_dataclass (0.9.1
        # verl/utils/config.py:164) after its batch checks: Hydra's instantiate then needs
        # verl.workers.config, which imports transformers (verl/workers/config/model.py:18) and is
        # not loaded here. Only that failure counts as "the checks before it ran".
        if type(e).__name__ == "InstantiationException" and "Error locating target 'verl.workers." in str(e):
            return "ok (checks before the dataclass conversion; verl.workers.config needs transformers)"
        return f"FAIL {type(e).__name__}: {str(e).splitlines()[0][:140]}"
    finally:
        for name in ("verl.utils.config", "verl.utils", "verl"):
            sys.modules.pop(name, None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ncdx")
    ap.add_argument("cache")
    ap.add_argument("--versions", default=",".join(vs.VERSIONS))
    ap.add_argument("--sizes", default="3B,7B,14B,32B,70B")
    ap.add_argument("--engines", default="vllm")
    ap.add_argument("--strategies", default="fsdp,megatron")
    a = ap.parse_args()
    bad = 0
    print("verl   size engine strategy | composes | verl validate_config | ncdx audit")
    for v in a.versions.split(","):
        wheel = vs.wheel_path(a.cache, v, offline=True)
        if wheel is None:
            print(f"skip: the verl {v} wheel is not in {a.cache}")
            return 77
        tmp = tempfile.mkdtemp(prefix="ncdx-tmpl-")
        cwd = os.getcwd()
        try:
            vs.unpack(wheel, tmp)
            sys.path.insert(0, tmp)
            for m in [m for m in sys.modules if m == "verl" or m.startswith("verl.")]:
                del sys.modules[m]
            comp = vs.Composer(tmp)
            for size in a.sizes.split(","):
                for engine in a.engines.split(","):
                    for strategy in a.strategies.split(","):
                        p = subprocess.run([a.ncdx, "template", "--model-size", size, "--engine", engine, "--strategy", strategy,
                                            "--verl-version", v], capture_output=True, text=True)
                        if p.returncode != 0:
                            print(f"{v:6} {size:4} {engine:6} {strategy:8} | template exit {p.returncode}: {p.stderr.strip()}")
                            bad = 1
                            continue
                        args = script_args(p.stdout) or []
                        name = "ppo_trainer"
                        hydra_args = []
                        for w in args:
                            if w.startswith("--config-name="):
                                name = w.split("=", 1)[1]
                            elif not w.startswith("--"):
                                hydra_args.append(w)
                        os.chdir(tmp)
                        try:
                            cfg, _, _ = comp.compose("verl/trainer/config", name, hydra_args)
                            composes = "yes"
                        except Exception as e:  # noqa: BLE001
                            cfg, composes = None, f"NO: {str(e).splitlines()[0][:120]}"
                        finally:
                            os.chdir(cwd)
                        valid = verl_validate(wheel, tmp, cfg) if cfg is not None else "-"
                        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
                            f.write(p.stdout)
                        nodes = next((w.split("=")[1] for w in hydra_args if w.startswith("trainer.nnodes=")), "1")
                        au = subprocess.run([a.ncdx, "--no-color", "audit", "--no-process-env", "--verl-version", v, f.name,
                                             "--nodes", nodes, "--gpus-per-node", "8", "--gpu-mem-gib", "80"],
                                            capture_output=True, text=True)
                        os.unlink(f.name)
                        audit = "exit 0" if au.returncode == 0 else f"exit {au.returncode}"
                        ok = composes == "yes" and (valid.startswith("ok") or valid.startswith("n/a")) and au.returncode == 0
                        bad |= not ok
                        print(f"{v:6} {size:4} {engine:6} {strategy:8} | {composes} | {valid} | {audit}")
                        if au.returncode != 0:
                            for line in au.stdout.splitlines():
                                if " WARN " in line or " FAIL " in line:
                                    print("      " + line.strip()[:200])
        finally:
            os.chdir(cwd)
            if tmp in sys.path:
                sys.path.remove(tmp)
            shutil.rmtree(tmp, ignore_errors=True)
    return bad


if __name__ == "__main__":
    sys.exit(main())
