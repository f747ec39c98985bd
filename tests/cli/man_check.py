#!/usr/bin/env python3
"""`ncdx help --man` is a man page that groff renders without a warning (and mandoc lints clean when
installed), documents every command path and every flag of each, and has its exit codes."""
import re, shutil, subprocess, sys

ncdx = sys.argv[1]
page = subprocess.run([ncdx, "help", "--man"], capture_output=True, text=True, check=True).stdout
fails = []
if not shutil.which("groff"):
    print("SKIP: groff not installed"); sys.exit(77)
r = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=page, capture_output=True, text=True)
if r.returncode != 0 or r.stderr.strip():
    fails.append("groff warnings: " + r.stderr.strip()[:2000])
if shutil.which("mandoc"):
    r = subprocess.run(["mandoc", "-Tlint", "-Wwarning"], input=page, capture_output=True, text=True)
    # mandoc names stdin "<stdin>"; a page generated without a date is its only expected remark
    msgs = [l for l in r.stdout.splitlines() + r.stderr.splitlines() if l.strip() and "missing date" not in l]
    if msgs:
        fails.append("mandoc -Tlint: " + "; ".join(msgs[:10]))
text = subprocess.run(["groff", "-man", "-Tascii", "-P-c", "-P-b", "-P-u"], input=page, capture_output=True, text=True).stdout
text = re.sub(r".\x08", "", text)
top = subprocess.run([ncdx, "--help"], capture_output=True, text=True).stdout
commands = re.findall(r"^  ([a-z]+)\s", top.split("SUBCOMMANDS:")[-1], re.M)
if len(commands) < 10:
    fails.append(f"could not read the command list from ncdx --help ({commands})")
for c in commands:
    if f"ncdx {c}" not in text:
        fails.append(f"command {c} missing from the page")
    h = subprocess.run([ncdx, "help", c], capture_output=True, text=True).stdout
    for flag in set(re.findall(r"^\s+(--[a-z][a-z0-9_-]*)", h, re.M)):
        if flag not in text:
            fails.append(f"{c}: flag {flag} missing from the page")
for code in ("64", "65", "66", "70"):
    if not re.search(rf"^\s+{code}\s*$", text, re.M) and f"\n       {code}" not in text:
        fails.append(f"exit status {code} not documented")
for f in fails:
    print("FAIL:", f)
print(f"man page: {len(page)} bytes, {len(commands)} commands checked")
sys.exit(1 if fails else 0)
