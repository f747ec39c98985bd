#!/usr/bin/env python3
"""Cross-checks ncdx's Flight Recorder reader against Python's pickle/json as the oracle.

  oracle_compare.py DRIVER FILE            same structure as Python reads (pickle or JSON file)
  oracle_compare.py DRIVER FILE --refuse OPCODE
                                           exit 65, an error naming OPCODE and a byte offset, and
                                           the payload never ran (/tmp/ncdx_fr_pwned not created)
  oracle_compare.py DRIVER FILE --bad      exit 65 with a one-line error (truncated/malformed)
The oracle unpickles with find_class/persistent_load disabled, so nothing executes here either.
"""
import base64
import io
import json
import os
import pickle
import subprocess
import sys

PWNED = "/tmp/ncdx_fr_pwned"


class DataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"global {module}.{name} refused")

    def persistent_load(self, pid):
        raise pickle.UnpicklingError("persistent id refused")


def key(k):
    # json.dumps' key rules, plus bytes as base64 (ncdx's choice).
    if isinstance(k, bytes):
        return base64.b64encode(k).decode()
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, float):
        return json.dumps(k)
    return str(k)


def conv(o):
    if isinstance(o, dict):
        return {key(k): conv(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [conv(x) for x in o]
    if isinstance(o, (set, frozenset)):
        return [conv(x) for x in o]
    if isinstance(o, (bytes, bytearray)):
        return {"__bytes__": base64.b64encode(bytes(o)).decode()}
    return o


def first_diff(a, b, path="$"):
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                       and not isinstance(a, bool) and not isinstance(b, bool)):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: missing on one side"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def main():
    driver, path = sys.argv[1], sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) > 3 else None
    if mode == "--refuse" and os.path.exists(PWNED):
        os.remove(PWNED)
    p = subprocess.run([driver, path], capture_output=True, text=True)
    if mode == "--refuse":
        opcode = sys.argv[4]
        ok = (p.returncode == 65 and f"refusing pickle opcode {opcode} " in p.stderr
              and "byte " in p.stderr and not os.path.exists(PWNED) and p.stdout == "")
        print(p.stderr.strip())
        return 0 if ok else 1
    if mode == "--bad":
        lines = p.stderr.strip().splitlines()
        print(p.stderr.strip())
        return 0 if p.returncode == 65 and len(lines) == 1 and p.stdout == "" else 1
    if p.returncode != 0:
        print(f"driver failed ({p.returncode}): {p.stderr.strip()}")
        return 1
    with open(path, "rb") as f:
        data = f.read()
    expected = json.loads(data) if data.lstrip()[:1] == b"{" else conv(DataOnly(io.BytesIO(data)).load())
    got = json.loads(p.stdout)
    d = first_diff(expected, got)
    if d:
        print(f"{path}: differs from Python at {d}")
        return 1
    print(f"{path}: same structure as Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
