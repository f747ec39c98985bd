#!/usr/bin/env bash
# Loads `ncdx completion bash` into bash and completes what a user types: commands, subcommands,
# flags of the command at hand (its own and the global ones), file names after the command.
set -uo pipefail
ncdx=$1
script=$("$ncdx" completion bash) || { echo "FAIL: ncdx completion bash exited $?"; exit 1; }
bash -n <(printf '%s\n' "$script") || { echo "FAIL: the script is not valid bash"; exit 1; }
eval "$script"
fails=0
expect() {  # expect "<word>..." "<one completion that must be offered>" ["absent"]
  local line=$1 want=$2
  read -ra COMP_WORDS <<<"$line"
  [[ "$line" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _ncdx
  local got=" ${COMPREPLY[*]} "
  if [[ "${3:-}" == absent ]]; then
    [[ "$got" != *" $want "* ]] && return
    echo "FAIL: '$line' offers '$want' (got:$got)"
  else
    [[ "$got" == *" $want "* ]] && return
    echo "FAIL: '$line' does not offer '$want' (got:$got)"
  fi
  fails=$((fails + 1))
}
expect "ncdx au" audit
expect "ncdx " triage
expect "ncdx env l" lint
expect "ncdx env " recommend
expect "ncdx topo --pi" --pick
expect "ncdx triage --fo" --follow
expect "ncdx triage --js" --json          # global flags are offered after the command too
expect "ncdx doctor --expect-g" --expect-gpus
expect "ncdx doctor --expect-g" --follow absent
expect "ncdx --no-c" --no-color
expect "ncdx env lint --env" --env-file
expect "ncdx env lint --env" --subsys absent  # env debug's flag, not lint's
cd "$(mktemp -d)" && touch rank0.log rank1.log
expect "ncdx triage ran" rank0.log
[ $fails -eq 0 ] && echo "bash completion: all cases offered" && exit 0
exit 1
