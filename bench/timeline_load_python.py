#!/usr/bin/env python3
"""The peer of `ncdx timeline` in bench/timeline_vs_python.sh: Python's json.load of each trace
file in DIR, one after the other (what HTA and most scripts do before any analysis), gc off.
Prints files, events and bytes."""
import gc
import json
import os
import sys

gc.disable()
d = sys.argv[1]
n = b = 0
for f in sorted(os.listdir(d)):
    p = os.path.join(d, f)
    b += os.path.getsize(p)
    with open(p) as fh:
        n += len(json.load(fh)["traceEvents"])
print("%d events, %d bytes" % (n, b))
