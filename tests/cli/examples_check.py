#!/usr/bin/env python3
"""Every line of every Examples block in `ncdx help CMD` names commands and flags that exist: the
ncdx part of each line is run with --help appended, where ncdx's pre-parse check refuses an unknown
command or flag with exit 64 (values are not checked this way: --help stops before the command runs)."""
import re, shlex, subprocess, sys

ncdx = sys.argv[1]
top = subprocess.run([ncdx, "--help"], capture_output=True, text=True).stdout
commands = re.findall(r"^  ([a-z]+)\s", top.split("SUBCOMMANDS:")[-1], re.M)
fails, checked = [], 0
for c in commands:
    h = subprocess.run([ncdx, "help", c], capture_output=True, text=True).stdout
    if "Examples:" not in h:
        fails.append(f"{c}: no Examples block in its help")
        continue
    for line in h.split("Examples:", 1)[1].splitlines():
        line = line.split(" #", 1)[0].strip()
        for seg in re.split(r"[;|]|<\(", line):
            seg = seg.strip().rstrip(")")
            m = re.search(r"(?:^|\s)ncdx\s(.*)", seg)
            if not m and seg.strip() != "ncdx":
                continue
            args = shlex.split(m.group(1)) if m else []
            cut = next((i for i, a in enumerate(args) if a.startswith(">")), len(args))  # a redirection ends the command
            args = args[:cut]
            r = subprocess.run([ncdx, *args, "--help"], capture_output=True, text=True)
            checked += 1
            if r.returncode != 0:
                fails.append(f"{c}: example `ncdx {' '.join(args)}` → exit {r.returncode}: {r.stderr.strip()[:200]}")
for f in fails:
    print("FAIL:", f)
print(f"examples: {checked} command lines parsed over {len(commands)} commands")
sys.exit(1 if fails or checked < len(commands) else 0)
