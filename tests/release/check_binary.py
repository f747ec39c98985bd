#!/usr/bin/env python3
"""Checks that a release binary starts on the images GPU nodes run: its only shared dependency is
glibc and it asks for no glibc symbol version above the floor (2.34: RHEL 9; Ubuntu 22.04 has 2.35,
Debian 12 2.36). Reads the ELF dynamic section and version needs with binutils' readelf.
Usage: check_binary.py BINARY [--floor 2.34]
"""
import re
import subprocess
import sys

ALLOWED = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "ld-linux-x86-64.so.2",
           "ld-linux-aarch64.so.1"}


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], check=True, capture_output=True, text=True).stdout


def main():
    binary = sys.argv[1]
    floor = (2, 34)
    if "--floor" in sys.argv:
        floor = tuple(int(x) for x in sys.argv[sys.argv.index("--floor") + 1].split("."))
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf("-d", binary))
    versions = set(re.findall(r"Name: ([A-Z]+_[0-9.]+)", readelf("-V", binary)))
    problems = [f"NEEDED {n}: not part of glibc" for n in needed if n not in ALLOWED]
    newest = (0, 0)
    for v in sorted(versions):
        family, _, num = v.partition("_")
        if family != "GLIBC":
            problems.append(f"needs {v}: {family} is not glibc (libstdc++/libgcc must be static)")
            continue
        parts = tuple(int(x) for x in num.split(".")[:2])
        newest = max(newest, parts)
        if parts > floor:
            problems.append(f"needs {v}, newer than the floor GLIBC_{floor[0]}.{floor[1]}")
    for p in problems:
        print(f"{binary}: {p}")
    print(f"{binary}: NEEDED {', '.join(needed) or '-'}; newest glibc version GLIBC_{newest[0]}.{newest[1]}; "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
