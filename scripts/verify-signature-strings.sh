#!/usr/bin/env bash
# Verify the message texts of src/knowledge/data/signatures.yaml against the real artefacts.
#
# Usage: scripts/verify-signature-strings.sh SCRATCH_DIR [-v] > docs/SIGNATURE_SOURCES.md
#
# Downloads (pip download --no-deps, from PyPI) libnccl for several NCCL versions, PyTorch CUDA
# wheels, the CUDA runtime, and the Python projects (vLLM, SGLang, Ray, DeepSpeed, Accelerate,
# verl) into SCRATCH_DIR (keep it outside the repository), extracts `strings -n 6` of the shared
# libraries and the .py sources, then looks up, for every signature, the needle named in
# scripts/signature-sources.tsv and prints a Markdown table of what it found.
# With -v it also renders every found format string (printf / {} placeholders filled with sample
# values) and says on stderr whether one of the signature's patterns matches the rendering.
# Not run by CI or tests: it needs network access and ~6 GB of scratch space.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 SCRATCH_DIR [-v]" >&2; exit 64; }
scratch=$(mkdir -p "$1" && cd "$1" && pwd)
verbose=${2:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
case "$scratch/" in "$repo"/*) echo "$0: SCRATCH_DIR must be outside the repository" >&2; exit 64;; esac

NCCL_CU11=(2.13.4)
NCCL_CU12=(2.18.1 2.21.5 2.23.4 2.26.2 2.28.9 2.32.3)
TORCH=(1.13.1 2.3.1 2.5.1 2.15.0)
CUDART=12.9.79
PYPKGS=(vllm==0.33.0 sglang==0.5.23 ray==2.60.0 deepspeed==0.19.8 accelerate==1.15.0 verl==0.9.1 megatron-core==0.16.1)

mkdir -p "$scratch/whl" "$scratch/str" "$scratch/pysrc"
fetch() { # fetch DIST==VER -> path of the wheel/sdist
  local dir="$scratch/whl/${1//==/-}"
  [[ -n $(ls "$dir" 2>/dev/null) ]] || pip download -q --no-deps "$1" -d "$dir" >&2
  ls "$dir"/* | head -1
}
libstrings() { # libstrings WHEEL OUT GLOB...: strings of the members matching GLOB
  local whl=$1 out=$2; shift 2
  [[ -s $out ]] && return 0
  local x; x=$(mktemp -d "$scratch/x.XXXX")
  unzip -q -o -d "$x" "$whl" "$@" >&2 || true
  find "$x" -type f -exec strings -n 6 {} + > "$out"
  rm -rf "$x"
}
for v in "${NCCL_CU11[@]}"; do libstrings "$(fetch nvidia-nccl-cu11==$v)" "$scratch/str/nccl-$v.txt" '*libnccl.so*'; done
for v in "${NCCL_CU12[@]}"; do libstrings "$(fetch nvidia-nccl-cu12==$v)" "$scratch/str/nccl-$v.txt" '*libnccl.so*'; done
libstrings "$(fetch nvidia-cuda-runtime-cu12==$CUDART)" "$scratch/str/cudart-$CUDART.txt" '*libcudart.so*'
for v in "${TORCH[@]}"; do
  w=$(fetch torch==$v)
  libstrings "$w" "$scratch/str/torch-$v.txt" 'torch/lib/libtorch_cuda.so' 'torch/lib/libtorch_cuda_cpp.so' 'torch/lib/libtorch_cuda_cu.so' 'torch/lib/libtorch_cpu.so' \
    'torch/lib/libtorch_python.so' 'torch/lib/libc10.so' 'torch/lib/libc10_cuda.so'
  [[ -d $scratch/pysrc/torchpy-$v ]] || unzip -q -o -d "$scratch/pysrc/torchpy-$v" "$w" 'torch/*.py' >&2
done
# Ray's OOM / worker-death texts live in its C++ binaries, not in its .py files.
ray=$(printf '%s\n' "${PYPKGS[@]}" | sed -n 's/^ray==//p')
libstrings "$(fetch ray==$ray)" "$scratch/str/ray-$ray.txt" 'ray/core/src/ray/raylet/raylet' 'ray/_raylet.so'
# vLLM's cumem allocator error is printed by its C++ extension.
vllm=$(printf '%s\n' "${PYPKGS[@]}" | sed -n 's/^vllm==//p')
libstrings "$(fetch vllm==$vllm)" "$scratch/str/vllm-$vllm.txt" 'vllm/cumem_allocator*.so'
for p in "${PYPKGS[@]}"; do
  name=${p%%==*}; v=${p##*==}; d="$scratch/pysrc/$name-$v"
  [[ -d $d ]] && continue
  f=$(fetch "$p"); mkdir -p "$d"
  case $f in *.whl) unzip -q -o -d "$d" "$f" '*.py' >&2 || true;; *.tar.gz) tar xzf "$f" -C "$d";; esac
done

exec python3 - "$repo" "$scratch" "$verbose" <<'PY'
import glob, os, re, sys, yaml
repo, scratch, verbose = sys.argv[1], sys.argv[2], sys.argv[3] == "-v"
sigs = {s["id"]: s for s in yaml.safe_load(open(f"{repo}/src/knowledge/data/signatures.yaml"))["signatures"]}
rows = [l.rstrip("\n").split("\t") for l in open(f"{repo}/scripts/signature-sources.tsv")
        if l.strip() and not l.startswith("#")]

def vkey(v): return [int(x) for x in re.findall(r"\d+", v)]
corpora = {}  # artefact -> {version: [lines]} (a .py tree and a binary of one release merge)
for f in glob.glob(f"{scratch}/str/*.txt"):
    art, ver = os.path.basename(f)[:-4].rsplit("-", 1)
    corpora.setdefault(art, {}).setdefault(ver, []).extend(open(f, errors="replace").read().splitlines())
for d in glob.glob(f"{scratch}/pysrc/*"):
    art, ver = os.path.basename(d).rsplit("-", 1)
    lines = []
    for py in glob.glob(f"{d}/**/*.py", recursive=True):
        lines += open(py, errors="replace").read().splitlines()
    corpora.setdefault(art, {}).setdefault(ver, []).extend(lines)
corpora = {a: sorted(c.items(), key=lambda x: vkey(x[0])) for a, c in corpora.items()}

def render(fmt):  # a plausible rendering of a printf / str.format / f-string format
    s = re.sub(r"%0?\d*l{0,2}[du]", "12", fmt)
    s = re.sub(r"%0?\d*l{0,2}x", "1a2b", s)
    s = re.sub(r"%[sp]", "mlx5_0", s)
    return re.sub(r"\{[^{}]*\}", "12", s)

def py_re(p): return re.compile(p.replace("(?P<", "(?P<"))

def cell(s, n=110):
    s = s.strip().replace("|", "\\|").replace("`", "'")
    return s if len(s) <= n else s[: n - 1] + "…"

counts = {"verified": 0, "corrected": 0, "unverifiable": 0}
out = []
for r in rows:
    sid, art, needle = r[0], r[1], r[2]
    correction = r[3] if len(r) > 3 else ""
    if art == "none":
        counts["unverifiable"] += 1
        out.append(f"| `{sid}` | unverifiable | — | {cell(needle)} |")
        continue
    rx = re.compile(needle)
    found = []  # (version, string)
    for ver, lines in corpora.get(art, []):
        hits = [l.strip() for l in lines if rx.search(l)]
        if hits: found.append((ver, hits))
    if not found:
        counts["unverifiable"] += 1
        out.append(f"| `{sid}` | unverifiable | {art} (all checked versions) | needle `{cell(needle, 60)}` not found |")
        continue
    added = correction.startswith("new signature")
    status = "corrected" if correction and not added else "verified"
    counts[status] += 1
    vers = [v for v, _ in found]
    allv = [v for v, _ in corpora[art]]
    i = allv.index(vers[0])
    contiguous = allv[i:i + len(vers)] == vers
    span = vers[0] if len(vers) == 1 else (f"{vers[0]}–{vers[-1]}" if contiguous else "/".join(vers))
    variants = []
    for _, hits in found:
        for h in hits:
            if h not in variants: variants.append(h)
    src = "; ".join(f"`{cell(v, 100)}`" for v in variants[:3]) + (f" (+{len(variants) - 3} more)" if len(variants) > 3 else "")
    if correction: src += f" — **{'added' if added else 'corrected'}:** {cell(correction, 300)}"
    out.append(f"| `{sid}` | {status} | {art}@{span} | {src} |")
    if verbose:
        pats = [py_re(p) for p in sigs[sid]["patterns"]]
        for v in variants[:6]:
            ok = any(p.search(render(v)) for p in pats)
            print(f"{'ok  ' if ok else 'MISS'} {sid}: {render(v)[:160]}", file=sys.stderr)

checked = ", ".join(f"{a} " + "/".join(v for v, _ in c) for a, c in sorted(corpora.items()))
print("# Where each signature's text comes from\n")
print("Generated by `scripts/verify-signature-strings.sh SCRATCH_DIR > docs/SIGNATURE_SOURCES.md` "
      "(needles in `scripts/signature-sources.tsv`). Artefacts checked: " + checked + ".\n")
print("Status: **verified** = the signature's text is a rendering of the format string shown, in the "
      "versions shown; **corrected** = it was wrong or missed a real variant and was fixed; "
      "**added** in a verified row = a signature created from a real format string that none matched; "
      "**unverifiable** = the text is not printed by any artefact on PyPI (kernel, driver, loader, "
      "MPI, Slurm ...) or was not found in the checked versions (reason given).\n")
print(f"Totals: {counts['verified']} verified, {counts['corrected']} corrected, {counts['unverifiable']} unverifiable.\n")
print("| signature | status | artefact@versions | source format string(s) |")
print("|---|---|---|---|")
print("\n".join(out))
PY
