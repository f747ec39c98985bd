"""Runs `ncdx audit` over every examples/**/*.sh of a verl source tree revision (read from a bare
git mirror, never executed) and measures what a new user meets: exit codes (65 = ncdx could not
read a valid script), and "unknown key" FAIL rows (Hydra's "Could not override 'K'") checked
against real Hydra composing the wheel's config with the script's own config groups: a row whose
key Hydra has is a false alarm.

Usage: python3 verl_examples.py NCDX GIT_DIR REV VERL_VERSION WHEEL_CACHE [--list]
(bench, not a test: the verl mirror is not part of the repository)
"""
import collections
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("verl_schema", os.path.join(HERE, "..", "..", "scripts", "verl-schema.py"))
vs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vs)


def main():
    ncdx, git_dir, rev, version, cache = sys.argv[1:6]
    listing = "--list" in sys.argv
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", rev, "examples"],
                           capture_output=True, text=True, check=True).stdout.split()
    scripts = [n for n in names if n.endswith(".sh")]
    work = tempfile.mkdtemp(prefix="ncdx-examples-")
    wheel_dir = tempfile.mkdtemp(prefix="ncdx-wheel-")
    cwd = os.getcwd()
    try:
        vs.unpack(vs.wheel_path(cache, version, offline=True), wheel_dir)
        sys.path.insert(0, wheel_dir)
        comp = vs.Composer(wheel_dir)
        codes = collections.Counter()
        unknown = false_unknown = 0
        why65 = collections.Counter()
        for n in scripts:
            path = os.path.join(work, n.replace("/", "__"))
            with open(path, "wb") as f:
                f.write(subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{n}"], capture_output=True).stdout)
            p = subprocess.run([ncdx, "--json", "--no-timestamps", "audit", "--no-process-env", "--verl-version", version, path],
                               capture_output=True, text=True, cwd=cwd)
            codes[p.returncode] += 1
            if p.returncode in (64, 65, 66, 70) or (p.returncode == 1 and not p.stdout.strip()):
                why65[p.stderr.strip().split(": ", 2)[-1][:90]] += 1
                if listing:
                    print(f"exit {p.returncode}: {n}: {p.stderr.strip()[:200]}")
                continue
            rep = json.loads(p.stdout)
            ctx = rep.get("context", {})
            cid = ctx.get("verl_config", "trainer/config/ppo_trainer")
            groups = ctx.get("config_groups", [])
            cdir = "verl/" + cid.rsplit("/", 1)[0]
            name = cid.rsplit("/", 1)[1]
            os.chdir(wheel_dir)
            try:
                tree, _, _ = comp.compose(cdir, name, groups)
            except Exception:  # noqa: BLE001
                tree = {}
            finally:
                os.chdir(cwd)
            flat = {}
            vs.flatten(tree, "", flat)
            for r in rep.get("rows", []):
                if r.get("rule") != "verl.keys" or r.get("status") != "FAIL" or "Could not override" not in (r.get("why") or ""):
                    continue
                unknown += 1
                k = r["parameter"]
                if k in flat or any(x.startswith(k + ".") for x in flat):
                    false_unknown += 1
                    if listing:
                        print(f"false unknown: {n}: {k}")
        print(f"verl {rev} examples ({version} wheel): {len(scripts)} scripts; exit codes " +
              ", ".join(f"{c}: {k}" for c, k in sorted(codes.items())))
        for w, k in why65.most_common(8):
            print(f"  not audited x{k}: {w}")
        rate = 100.0 * false_unknown / unknown if unknown else 0.0
        print(f"  'unknown key' FAIL rows: {unknown}, false (Hydra has the key): {false_unknown} ({rate:.1f} %)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(wheel_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
