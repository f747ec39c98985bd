#!/usr/bin/env python3
"""Offline checks of scripts/compat-pins.py: Requires-Dist forms as real wheels write them parse to
the table's columns, and an unreachable index exits 77 (the freshness test's skip)."""
import importlib.util
import subprocess
import sys

spec = importlib.util.spec_from_file_location("compat_pins", sys.argv[1])
cp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cp)

CASES = {
    # torch 2.1.2's METADATA (old parenthesised form) and torch 2.6.0's
    'nvidia-nccl-cu12 (==2.18.1) ; platform_system == "Linux" and platform_machine == "x86_64"':
        ("nvidia-nccl-cu12", "==2.18.1", "-", 'platform_system == "Linux" and platform_machine == "x86_64"'),
    'nvidia-nccl-cu12==2.21.5; platform_system == "Linux" and platform_machine == "x86_64"':
        ("nvidia-nccl-cu12", "==2.21.5", "-", 'platform_system == "Linux" and platform_machine == "x86_64"'),
    # verl's extras, sglang's srt extra, a spec with two parts (sorted), a name in another spelling
    'torch==2.6.0; extra == "sglang"': ("torch", "==2.6.0", "sglang", "-"),
    'vllm<=0.8.5,>=0.7.3; extra == "vllm"': ("vllm", "<=0.8.5,>=0.7.3", "vllm", "-"),
    'vllm >=0.7.3, <=0.8.5 ; extra == "vllm"': ("vllm", "<=0.8.5,>=0.7.3", "vllm", "-"),
    'sglang[openai,srt]==0.4.6.post5; extra == "sglang"': ("sglang", "==0.4.6.post5", "sglang", "-"),
    'flashinfer_python==0.2.3; extra == "srt"': ("flashinfer-python", "==0.2.3", "srt", "-"),
    'torch; extra == "srt_hip"': ("torch", "-", "srt-hip", "-"),
    'torch==2.5.1; platform_machine != "aarch64" and extra == "x"': ("torch", "==2.5.1", "x", 'platform_machine != "aarch64"'),
    'torch==2.13.0': ("torch", "==2.13.0", "-", "-"),
}
bad = 0
for line, want in CASES.items():
    got = cp.parse(line)
    if got != want:
        print(f"FAIL parse({line!r}) = {got}, want {want}")
        bad += 1
# Loopback only: nothing listens on port 9 (discard), so the index is unreachable.
rc = subprocess.run([sys.executable, sys.argv[1], "--check", sys.argv[2], "--index", "http://127.0.0.1:9/"],
                    capture_output=True, text=True, timeout=120).returncode
if rc != 77:
    print(f"FAIL unreachable index: exit {rc}, want 77")
    bad += 1
print(f"{len(CASES) + 1 - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
