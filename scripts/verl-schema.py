#!/usr/bin/env python3
"""Derives ncdx's verl config facts from verl's released wheels (the wheel's config is the truth).

For every supported verl release: `pip download verl==V --no-deps` (cached), read the wheel's
`@hydra.main(config_path=..., config_name=...)` entry points and its `*.yaml` config files, compose
each entry point's config with real Hydra (hydra-core + omegaconf from build/venv, see
scripts/py-oracles.sh), once with the defaults and once per alternative config-group option
(`model_engine=megatron`, `actor@actor_rollout_ref.actor=megatron_actor`, ...), and write our own
facts tables (never verl's files):

  src/knowledge/data/verl_entry_points.tsv  module -> config, per version range
  src/knowledge/data/verl_groups.tsv        config-group choices (override key, option, status)
  src/knowledge/data/verl_config.tsv        key path, type, default, group, per config/variant/version range

Usage:
  build/venv/bin/python3 scripts/verl-schema.py            # regenerate (downloads missing wheels)
  build/venv/bin/python3 scripts/verl-schema.py --check    # exit 1 when the committed tables differ
  options: --cache DIR (default $NCDX_VERL_CACHE or ~/.cache/ncdx/verl-wheels), --offline
           (--check exits 77 when a wheel is missing and --offline is given)
Runs nothing from verl: only YAML files are read; package __init__ files needed for Hydra's pkg://
search path are written empty in a temporary directory.
"""
import argparse
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

VERSIONS = ["0.4.0", "0.4.1", "0.5.0", "0.6.0", "0.6.1", "0.7.0", "0.7.1", "0.8.0", "0.9.0", "0.9.1"]
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "src", "knowledge", "data")
HYDRA_MAIN = re.compile(r'@hydra\.main\(\s*config_path\s*=\s*"([^"]+)"\s*,\s*config_name\s*=\s*"([^"]+)"')


def wheel_path(cache, v, offline):
    found = sorted(glob.glob(os.path.join(cache, f"verl-{v}-*.whl")))
    if found:
        return found[0]
    if offline:
        return None
    os.makedirs(cache, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "-d", cache, f"verl=={v}"], check=True)
    found = sorted(glob.glob(os.path.join(cache, f"verl-{v}-*.whl")))
    return found[0] if found else None


def unpack(whl, dest):
    """YAML files of the wheel, plus empty __init__.py for every package dir (for pkg:// search paths).
    Returns the entry points [(module, config_dir relative to dest, config_name)]."""
    entries = []
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            if not name.startswith("verl/"):
                continue
            if name.endswith(".yaml"):
                out = os.path.join(dest, name)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, "wb") as f:
                    f.write(z.read(name))
            elif name.endswith(".py"):
                d = os.path.join(dest, os.path.dirname(name))
                os.makedirs(d, exist_ok=True)
                if name.endswith("__init__.py"):
                    open(os.path.join(dest, name), "w").close()
                text = z.read(name).decode("utf-8", "replace")
                for m in HYDRA_MAIN.finditer(text):
                    cdir = os.path.normpath(os.path.join(os.path.dirname(name), m.group(1)))
                    entries.append((name[:-3].replace("/", "."), cdir, m.group(2)))
    return sorted(set(entries))


def flatten(node, prefix, out):
    if isinstance(node, dict) and node:
        for k, v in node.items():
            flatten(v, f"{prefix}.{k}" if prefix else str(k), out)
    else:
        out[prefix] = node


def type_of(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "interp" if "${" in v else "str"
    if isinstance(v, list):
        return "list"
    return "dict"


def enc(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


class Composer:
    def __init__(self, root):
        from hydra import compose, initialize_config_dir  # noqa: F401 (imported here: venv only)
        self.root = root

    def compose(self, cdir, name, overrides):
        from hydra import compose, initialize_config_dir
        from hydra.core.global_hydra import GlobalHydra
        from omegaconf import OmegaConf
        GlobalHydra.instance().clear()
        with initialize_config_dir(config_dir=os.path.join(self.root, cdir), version_base=None):
            cfg = compose(config_name=name, overrides=overrides, return_hydra_config=True)
            choices = dict(cfg.hydra.runtime.choices)
            tree = OmegaConf.to_container(cfg, resolve=False)
            tree.pop("hydra", None)
            loader = GlobalHydra.instance().config_loader()
            options = {}
            for key in choices:
                if key.startswith("hydra/"):
                    continue
                group = key.split("@")[0]
                try:
                    options[key] = sorted(loader.get_group_options(group))
                except Exception:  # noqa: BLE001 - a relative group (../optim) has no listing from the root
                    options[key] = []
            return tree, {k: v for k, v in choices.items() if not k.startswith("hydra/")}, options


def group_of(key, packages):
    """The config group whose package holds `key` (the longest package that prefixes it)."""
    best, blen = "", -1
    for choice, pkg in packages.items():
        if (key == pkg or key.startswith(pkg + ".")) and len(pkg) > blen:
            best, blen = choice, len(pkg)
    return best


def package_of(choice):
    """`actor@actor_rollout_ref.actor` -> actor_rollout_ref.actor; `model_engine` -> '' (global)."""
    if "@" in choice:
        return choice.split("@", 1)[1]
    return choice.replace("/", ".")


def derive_version(v, whl, facts):
    tmp = tempfile.mkdtemp(prefix="ncdx-verl-")
    cwd = os.getcwd()
    try:
        entries = unpack(whl, tmp)
        sys.path.insert(0, tmp)
        for m in [m for m in sys.modules if m == "verl" or m.startswith("verl.")]:
            del sys.modules[m]
        comp = Composer(tmp)
        configs = {}
        for module, cdir, name in entries:
            if not os.path.exists(os.path.join(tmp, cdir, name + ".yaml")):
                continue  # the module names a config the wheel does not ship: not an entry point here
            cid = f"{os.path.relpath(cdir, 'verl')}/{name}"
            facts["entries"].setdefault((module, cid), set()).add(v)
            configs[cid] = (cdir, name, True)
        # Other primary configs beside an entry point's (--config-name ppo_megatron_trainer): defaults only.
        for cdir in sorted({c[0] for c in configs.values()}):
            for y in sorted(glob.glob(os.path.join(tmp, cdir, "*.yaml"))):
                name = os.path.basename(y)[:-5]
                cid = f"{os.path.relpath(cdir, 'verl')}/{name}"
                if not name.startswith("_") and cid not in configs:
                    configs[cid] = (cdir, name, False)
        os.chdir(tmp)  # some configs name their search path relative to the working directory (file://verl/...)
        for cid, (cdir, name, is_entry) in sorted(configs.items()):
            try:
                tree, choices, options = comp.compose(cdir, name, [])
            except Exception as e:  # noqa: BLE001
                print(f"verl {v}: {cid} does not compose: {str(e).splitlines()[0]}", file=sys.stderr)
                continue
            facts["configs"].setdefault(cid, set()).add(v)
            base = {}
            flatten(tree, "", base)
            packages = {c: package_of(c) for c in choices}
            for key, val in base.items():
                facts["config"].setdefault((cid, "", key, type_of(val), enc(val), group_of(key, packages)), set()).add(v)
            for choice, default in sorted(choices.items()):
                facts["groups"].setdefault((cid, choice, default or "null", "default"), set()).add(v)
                # Nested choices (actor/../optim@...) are set by their parent group's file, not by scripts.
                for opt in ([] if "/" in choice or not is_entry else options.get(choice, [])):
                    if opt == default:
                        continue
                    override = f"{choice}={opt}"
                    try:
                        vt, _, _ = comp.compose(cdir, name, [override])
                    except Exception as e:  # noqa: BLE001 - Hydra refuses this option: ncdx must refuse it too
                        msg = str(e).splitlines()[0][:160].replace("\t", " ")
                        facts["groups"].setdefault((cid, choice, opt, "error: " + msg), set()).add(v)
                        continue
                    facts["groups"].setdefault((cid, choice, opt, "ok"), set()).add(v)
                    flat = {}
                    flatten(vt, "", flat)
                    for key, val in flat.items():
                        if key in base and enc(base[key]) == enc(val) and type_of(base[key]) == type_of(val):
                            continue
                        facts["config"].setdefault((cid, override, key, type_of(val), enc(val), group_of(key, packages)),
                                                   set()).add(v)
                    for key in base:
                        if key not in flat:
                            facts["config"].setdefault((cid, override, key, "absent", "", ""), set()).add(v)
    finally:
        os.chdir(cwd)  # back where we were: --cache may be relative to it
        sys.path.remove(tmp) if tmp in sys.path else None
        shutil.rmtree(tmp, ignore_errors=True)


def ranges(vs):
    """{'0.5.0','0.6.0','0.6.1'} -> '0.5.0-0.6.1' over VERSIONS order; gaps give several ranges."""
    idx = sorted(VERSIONS.index(v) for v in vs)
    out, start, prev = [], idx[0], idx[0]
    for i in idx[1:] + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        out.append(VERSIONS[start] if start == prev else f"{VERSIONS[start]}-{VERSIONS[prev]}")
        if i is not None:
            start = prev = i
    return ",".join(out)


HEADER = """# Generated by scripts/verl-schema.py from verl's released wheels (PyPI verl=={vs}) by composing
# each entry point's config with hydra-core {hydra}: do not edit; regenerate with
#   build/venv/bin/python3 scripts/verl-schema.py
# Our own facts table (not verl's files). Versions are ranges over: {vs}.
"""


def render(facts):
    import hydra
    head = HEADER.format(vs=", ".join(VERSIONS), hydra=hydra.__version__)
    files = {}
    rows = sorted((m, c, ranges(v)) for (m, c), v in facts["entries"].items())
    rows += sorted(("-", c, ranges(v)) for c, v in facts["configs"].items())
    files["verl_entry_points.tsv"] = head + "# module (- = a config that composes, for --config-name)\tconfig\tversions\n" + "".join("\t".join(r) + "\n" for r in rows)
    rows = sorted((c, k, o, s, ranges(v)) for (c, k, o, s), v in facts["groups"].items())
    files["verl_groups.tsv"] = (head + "# config\tchoice (the override key)\toption\tstatus (default | ok | error: Hydra's message)"
                                "\tversions\n" + "".join("\t".join(r) + "\n" for r in rows))
    rows = sorted((c, var or "-", k, t, d, g or "-", ranges(v)) for (c, var, k, t, d, g), v in facts["config"].items())
    files["verl_config.tsv"] = (head + "# config\tvariant (- = defaults; else the one group override, rows = what differs;"
                                " type 'absent' = the key is gone)\tkey\ttype\tdefault (JSON)\tgroup\tversions\n" +
                                "".join("\t".join(r) + "\n" for r in rows))
    return files


def expand(rng):
    out = []
    for part in rng.split(","):
        lo, _, hi = part.partition("-")
        out += VERSIONS[VERSIONS.index(lo):VERSIONS.index(hi or lo) + 1]
    return out


def project(text, v):
    """The rows of a committed table that hold at version v (versions column dropped)."""
    rows = set()
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        cols = line.split("\t")
        if v in expand(cols[-1]):
            rows.add(tuple(cols[:-1]))
    return rows


def check_versions(a):
    bad = []
    for v in a.versions.split(","):
        whl = wheel_path(a.cache, v, a.offline)
        if whl is None:
            print(f"skip: the verl {v} wheel is not in {a.cache} (run without --offline to download it)")
            return 77
        facts = {"entries": {}, "groups": {}, "config": {}, "configs": {}}
        derive_version(v, whl, facts)
        for name, text in render(facts).items():
            path = os.path.join(DATA, name)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            want, have = project(text, v), project(old, v)
            if want != have:
                bad.append(f"{name} @ {v}: {len(want - have)} rows missing, {len(have - want)} rows extra")
    for b in bad:
        print("stale: " + b)
    if not bad:
        print("verl facts tables are fresh for " + a.versions)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=os.environ.get("NCDX_VERL_CACHE", os.path.expanduser("~/.cache/ncdx/verl-wheels")))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--offline", action="store_true")
    ap.add_argument("--versions", default=",".join(VERSIONS),
                    help="with --check: re-derive only these versions and compare the committed rows that cover them")
    a = ap.parse_args()
    a.cache = os.path.abspath(a.cache)
    if a.check and a.versions != ",".join(VERSIONS):
        return check_versions(a)
    facts = {"entries": {}, "groups": {}, "config": {}, "configs": {}}
    for v in VERSIONS:
        whl = wheel_path(a.cache, v, a.offline)
        if whl is None:
            print(f"skip: the verl {v} wheel is not in {a.cache} (run without --offline to download it)")
            return 77
        derive_version(v, whl, facts)
    files = render(facts)
    stale = []
    for name, text in files.items():
        path = os.path.join(DATA, name)
        if a.check:
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if old != text:
                stale.append(name)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"wrote {os.path.relpath(path)} ({text.count(chr(10))} lines)")
    if stale:
        print("stale (regenerate with scripts/verl-schema.py): " + ", ".join(stale))
        return 1
    if a.check:
        print("verl facts tables are fresh: " + ", ".join(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
