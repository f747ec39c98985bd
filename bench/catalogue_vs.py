#!/usr/bin/env python3
"""Catalogue coverage of ncdx binaries through the CLI, on every Nth row of
src/knowledge/data/messages.tsv, with the lines built as tests/unit/analyze/triage/catalogue_test.cc
builds them (same sample values and prefixes; messages_corrections.tsv applied).

  bench/catalogue_vs.py STEP NCDX [NCDX ...]

Prints, per project and binary, rows with the catalogue's class / failure rows of the sample
(info-only rows must give `none`). Compares a binary before and after a change without its test
binary (the test itself runs every row).
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def fill(f):
    out, i = [], 0
    while i < len(f):
        c = f[i]
        if c == "\\" and i + 1 < len(f):
            n = f[i + 1]
            out.append("\n" if n == "n" else " " if n == "t" else n)
            i += 2
            continue
        if c == "%" and i + 1 < len(f):
            if f[i + 1] == "%":
                out.append("%")
                i += 2
                continue
            m = re.match(r"%[-+ #0-9.*]*[hljztL]*([a-zA-Z])", f[i:])
            if m:
                conv = m.group(1)
                out.append({"s": "item0", "d": "3", "i": "3", "u": "3", "x": "1f", "X": "1f", "p": "0x7f3a2c000000",
                            "f": "1.50", "g": "1.50", "e": "1.50", "c": "x"}.get(conv, m.group(0)))
                i += len(m.group(0))
                continue
        if c == "{":
            e = f.find("}", i)
            if e != -1 and e - i < 80:
                out.append("3")
                i = e + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def with_prefix(project, kind, file, line, msg):
    src = os.path.basename(file) + ":" + (line or "1")
    if project == "nccl":
        if kind == "WARN":
            return f"gpu-node-01:1234:1250 [0] {src} NCCL WARN {msg}"
        if kind == "INFO":
            return f"gpu-node-01:1234:1250 [0] NCCL INFO {msg}"
        return msg
    if project == "cuda":
        return "RuntimeError: CUDA error: " + msg
    if kind.startswith("raise "):
        return kind[6:] + ": " + msg
    if kind in ("TORCH_CHECK", "TORCH_CHECK_WITH", "C10_THROW_ERROR", "TORCH_INTERNAL_ASSERT", "C10D_THROW_ERROR", "throw"):
        return "RuntimeError: " + msg
    if kind in ("LOG(ERROR)", "C10D_ERROR"):
        return f"[E1202 04:17:08.168302819 {src}] {msg}"
    if kind in ("LOG(WARNING)", "TORCH_WARN", "C10D_WARNING"):
        return f"[W1202 04:17:08.168302819 {src}] {msg}"
    if kind in ("LOG(INFO)", "C10D_INFO"):
        return f"[I1202 04:17:08.168302819 {src}] {msg}"
    if project == "vllm" and kind.startswith("logger."):
        lvl = "INFO" if kind == "logger.info" else "WARNING" if kind == "logger.warning" else "ERROR"
        return f"{lvl} 12-02 04:17:08 [{src}] {msg}"
    if kind.startswith("logger."):
        lvl = "I" if kind == "logger.info" else "W" if kind == "logger.warning" else "E"
        return f"{lvl}1202 04:17:08.168000 1234 {file}:{line or '1'}] {msg}"
    if kind == "warnings.warn":
        return f"{file}:{line or '1'}: UserWarning: {msg}"
    return msg


def main():
    step, bins = int(sys.argv[1]), sys.argv[2:]
    tsv = os.path.join(ROOT, "src", "knowledge", "data", "messages.tsv")
    corr = {}
    cp = os.path.join(ROOT, "src", "knowledge", "data", "messages_corrections.tsv")
    for l in open(cp):
        if l.strip() and not l.startswith("#"):
            p, fmt, k, _ = l.rstrip("\n").split("\t")
            corr[(p, fmt)] = k
    rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:][::step]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "catalogue.log")
        for b in bins:
            t = collections.defaultdict(lambda: [0, 0, 0, 0])
            for r in rows:
                if len(r) < 8:
                    continue
                proj, kind, klass, file, line, fmt = r[0], r[1], r[2], r[5], r[6], r[7]
                klass = corr.get((proj, fmt), klass)
                with open(path, "w") as f:
                    f.write(with_prefix(proj, kind, file, line, fill(fmt)) + "\n")
                p = subprocess.run([b, "triage", "--json", "--no-timestamps", path], capture_output=True, text=True)
                try:
                    got = json.loads(p.stdout)["verdict"]["class"]
                except (ValueError, KeyError):
                    got = "error"
                s = t[proj]
                if klass == "info-only":
                    s[2] += 1
                    s[3] += got == "none"
                else:
                    s[0] += 1
                    s[1] += got == klass
            for proj, s in sorted(t.items()):
                print(f"{b}: {proj:8s} right class {s[1]}/{s[0]} ({100.0 * s[1] / max(1, s[0]):.1f} %), "
                      f"info-only quiet {s[3]}/{s[2]}", flush=True)


if __name__ == "__main__":
    main()
