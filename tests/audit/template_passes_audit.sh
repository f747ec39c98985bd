#!/usr/bin/env bash
# Every `ncdx template` script must pass `ncdx audit` cleanly (exit 0: no WARN, no FAIL) on the
# cluster it was generated for: each size tier x engine x strategy (default, fsdp, megatron).
set -u
NCDX=${NCDX:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0; n=0
for size in 3B 7B 14B 32B 70B 235B 671B; do
  for engine in vllm sglang; do
    for strategy in "" fsdp megatron; do
      args=(template --model-size "$size" --engine "$engine")
      [ -n "$strategy" ] && args+=(--strategy "$strategy")
      if ! "$NCDX" "${args[@]}" > "$tmp/run.sh" 2> "$tmp/err"; then
        echo "FAIL: ncdx ${args[*]} exited non-zero: $(cat "$tmp/err")"; bad=1; continue
      fi
      nodes=$(grep -o 'trainer.nnodes=[0-9]*' "$tmp/run.sh" | cut -d= -f2)
      fabric=$(grep -o -- '--fabric [a-z]*' "$tmp/run.sh" | head -1 | cut -d' ' -f2)
      n=$((n + 1))
      if ! "$NCDX" --no-color audit --no-process-env --script "$tmp/run.sh" --verl-version 0.7.1 --nodes "$nodes" \
           --gpus-per-node 8 --gpu-mem-gib 80 --fabric "$fabric" > "$tmp/audit.txt" 2>&1; then
        echo "FAIL: audit of ${args[*]} (nodes=$nodes fabric=$fabric) is not clean:"
        sed -n '/Details/,$p' "$tmp/audit.txt"
        bad=1
      fi
    done
  done
done
echo "$n generated scripts audited"
exit $bad
