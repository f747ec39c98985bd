#!/usr/bin/env bash
# Worst cases of `ncdx env lint --env-file` under the 6 MiB execve limit (config/env_file.cc) —
# peak RSS and time of each (issue #12, docs/ADVERSARIAL.md "Memory"). Cases, each as many lines
# as fit the limit: `short` (NCCL_<hex>=1: the most names, ~300 000, one env.unknown row each),
# `near` (NCCL_IB_HCA<hex>=1: each close to a real name, so "did you mean" compares the most),
# `long-path` (`short` under a 60-character path: every origin "<path>:<line>" is a heap string).
# Usage: bench/env_lint_memory.sh [NCDX] (default build/src/cli/ncdx)
set -euo pipefail
cd "$(dirname "$0")/.."
ncdx=$(realpath "${1:-build/src/cli/ncdx}")
out=bench/out/env_lint_memory
long=$out/a/directory/path/as/long/as/a/real/job/keeps/it
mkdir -p "$out" "$long"
python3 - "$out" <<'PY'
import sys
limit = 6 << 20  # what parse_env_file counts: name, '=', value, NUL and an 8-byte pointer each
def write(path, fmt):
    total = i = 0
    with open(path, "w") as f:
        while True:
            k = fmt % i
            total += len(k) + 1 + 1 + 1 + 8
            if total > limit:
                break
            f.write(k + "=1\n")
            i += 1
    print(f"{path}: {i} assignments")
write(sys.argv[1] + "/short.env", "NCCL_%x")
write(sys.argv[1] + "/near.env", "NCCL_IB_HCA%x")
PY
cp "$out/short.env" "$long/long-path.env"
printf '| case | output | peak RSS | wall | user CPU |\n|---|---|---|---|---|\n'
for f in "$out/short.env" "$out/near.env" "$long/long-path.env"; do
  for mode in text json; do
    flag=""; [ $mode = json ] && flag=--json
    nice -n 19 /usr/bin/time -o "$out/time" -f "%M %e %U" "$ncdx" env lint $flag --no-timestamps \
      --nccl-version 2.27.5 --env-file "$f" >/dev/null 2>&1 || true  # exit 1: the rows are WARNs
    read -r kb wall user < <(tail -1 "$out/time")
    printf '| %s | %s | %s MiB | %s s | %s s |\n' "$(basename "$f" .env)" $mode $((kb / 1024)) "$wall" "$user"
  done
done
