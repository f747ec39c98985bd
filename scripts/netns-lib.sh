# shellcheck shell=bash
# Sourced by scripts/slurm-cluster.sh: the namespace pieces of its Slurm nodes (one link each, on a
# bridge with an address in the root namespace, where slurmctld runs). The mpirun hosts of
# netns-cluster.sh and the fault bench (two links each, bridges without addresses) are built by
# scripts/netns-hosts.sh. Not meant to be run on its own.

skip() { echo "SKIP: $*" >&2; exit 77; }

# Root, iproute2 and a namespace that can really be created; else SKIP (exit 77) with the reason.
# $1: the caller's name prefix (the probe namespace is "$1probe", deleted at once).
netns_preflight() {
  [ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces"
  command -v ip >/dev/null || skip "iproute2 (ip) is not installed"
  ip netns add "$1probe" 2>/dev/null || skip "cannot create network namespaces here (ip netns add failed)"
  ip netns del "$1probe"
}

# netns_link NS BRIDGE ROOTSIDE IFNAME ADDR/PLEN [veth options...]
# One veth from bridge BRIDGE (root namespace side ROOTSIDE, attached and up) into namespace NS,
# renamed IFNAME there, with ADDR/PLEN, up. Returns non-zero on the first failing step.
netns_link() {
  local ns="$1" br="$2" rootside="$3" ifname="$4" addr="$5"; shift 5
  local tmp="t$rootside"  # temporary peer name in NS: unique there; callers keep ROOTSIDE under 15 characters
  ip link add "$rootside" "$@" type veth peer name "$tmp" "$@" netns "$ns" || return 1
  ip link set "$rootside" master "$br" up || return 1
  ip -n "$ns" link set "$tmp" name "$ifname" || return 1
  ip -n "$ns" addr add "$addr" dev "$ifname" || return 1
  ip -n "$ns" link set "$ifname" up
}

# Ends every process living in namespace NS (TERM, then KILL after ~3 s), then deletes NS.
netns_kill_and_del() {
  local ns="$1" pids
  pids=$(ip netns pids "$ns" 2>/dev/null)
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    kill $pids 2>/dev/null
    for _ in 1 2 3 4 5 6; do
      pids=$(ip netns pids "$ns" 2>/dev/null); [ -z "$pids" ] && break
      sleep 0.5
    done
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  fi
  ip netns del "$ns" 2>/dev/null
}
