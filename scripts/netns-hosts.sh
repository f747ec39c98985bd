#!/usr/bin/env bash
# Hosts made of network namespaces: the piece scripts/netns-cluster.sh (ncdx doctor --cluster) and
# bench/faults/faults.py (PyTorch jobs across hosts, launchers mpirun-netns/torchrun-netns) share.
# Run as root. Sourced, it defines the functions below; run, it is a small CLI:
#
#   netns-hosts.sh up PREFIX N RATE AGENT   build hosts 1..N (RATE: htb rate of the data links, or
#                                           "none"), name resolution and the rsh agent at AGENT;
#                                           removes what it made when it fails; exit 77 + "SKIP:
#                                           reason" on stderr when namespaces are not possible here
#   netns-hosts.sh down PREFIX N            remove all of it, by name (idempotent)
#
# Host i (1-based) is namespace ${PREFIX}h$i with two links, like a real node: mgmt0
# (198.18.0.i/24: MPI's control traffic, the rendezvous) and data0 (198.19.0.i/24: what
# NCCL_SOCKET_IFNAME=data / GLOO_SOCKET_IFNAME=data0 select), each a veth on a bridge of its own
# (${PREFIX}m, ${PREFIX}d). Its hostname (UTS namespace, set by the agent) is NSH_NAME[i] (default
# ${PREFIX}h$i); /etc/netns/${PREFIX}h$i/hosts, which `ip netns exec` mounts over /etc/hosts
# (ip-netns(8)), resolves every host's name to its mgmt0 address, so a hostfile, MASTER_ADDR and the
# launchers' messages use names, as on a real cluster. Bridges have no address: two sets of hosts
# with different prefixes can live side by side.
# No GSO/TSO on the data links: a drop must cost one wire packet, not a 64 KB super-packet. Shaping
# is htb (not tbf: tbf's small queue drops packets of a TCP burst, which would look like loss), with
# NSH_HTB's minimal bucket: htb sends while a class's tokens are >= 0 and caps them at `burst`
# (net/sched/sch_htb.c htb_class_mode, htb_accnt_tokens), so after an idle spell floor(burst/frame)
# + 1 frames leave at line rate. tc's default burst here is one MTU, 1600 B (rate/HZ + mtu with the
# nanosecond psched clock), which lets 2 frames of a message through unshaped; burst 1 lets 1,
# the least a token bucket can: small messages see the shaped rate from their second frame on.

nsh_skip() { echo "SKIP: $*" >&2; exit 77; }
# htb class options of every shaped link (see above); netns-cluster.sh's fault classes use them too.
NSH_HTB=(quantum 1514 burst 1 cburst 1)
nsh_die() { echo "netns-hosts: $*" >&2; exit 70; }

# Namespaces possible here? (exit 77 with the reason where not)
nsh_check() {  # PREFIX
  [ "$(id -u)" -eq 0 ] || nsh_skip "needs root for network namespaces"
  command -v ip >/dev/null || nsh_skip "iproute2 (ip) is not installed"
  ip netns add "${1}probe" 2>/dev/null || nsh_skip "cannot create network namespaces here (ip netns add failed)"
  ip netns del "${1}probe"
}

nsh_rate_kbit() {  # "200mbit" → 200000
  case "$1" in
    *gbit) echo $(( ${1%gbit} * 1000000 ));; *mbit) echo $(( ${1%mbit} * 1000 ));; *kbit) echo "${1%kbit}";;
    *) nsh_die "RATE must end in kbit, mbit or gbit (or be none)";;
  esac
}

# Room in the ARP table for N hosts that all talk to each other on both links. The kernel has one
# ARP table for every network namespace (arp_tbl; its gc_thresh* are set only in the initial
# namespace), and past gc_thresh3 (1024 by default) a new neighbour is refused ("neighbour:
# arp_cache: neighbor table overflow!", net/core/neighbour.c neigh_alloc): at 32 hosts (2 x 32 x 31
# = 1984 entries) the packets to the peers met last were dropped, and ~20 % of a healthy matrix's
# pairs read "connect ... timed out" from round 22 on (2026-12-07). Real nodes each have a table
# of their own, so the harness makes room: raised only (a limit, and other sets of hosts may be up),
# never lowered back (a concurrent set would lose its room).
nsh_neigh_room() {  # N
  local want=$(( 2 * $1 * ($1 - 1) + 1024 )) k cur
  for k in gc_thresh2 gc_thresh3; do
    cur=$(sysctl -n "net.ipv4.neigh.default.$k" 2>/dev/null) || return 0
    [ "$cur" -ge "$want" ] || sysctl -qw "net.ipv4.neigh.default.$k=$want" || echo "netns-hosts: could not raise $k to $want" >&2
  done
}

# Build hosts 1..N. RATE "none" leaves the links unshaped.
nsh_up() {  # PREFIX N RATE
  local P="$1" N="$2" RATE="$3" i ns kind dev d n base=""
  [ ${#P} -le 10 ] || nsh_die "prefix '$P' must be at most 10 characters (interface names have 15)"
  nsh_neigh_room "$N"
  [ "$RATE" = none ] || base=$(nsh_rate_kbit "$RATE")
  ip link add "${P}m" type bridge && ip link set "${P}m" up || nsh_die "bridge ${P}m"
  ip link add "${P}d" type bridge && ip link set "${P}d" up || nsh_die "bridge ${P}d"
  for i in $(seq 1 "$N"); do
    ns="${P}h$i"
    ip netns add "$ns" || nsh_die "netns $ns"
    ip -n "$ns" link set lo up
    for kind in m d; do
      local g=(); [ "$kind" = d ] && g=(gso_max_segs 1 gso_max_size 1500)
      ip link add "${P}${kind}$i" "${g[@]}" type veth peer name "${kind}x$i" "${g[@]}" netns "$ns" || nsh_die "veth ${P}${kind}$i"
      ip link set "${P}${kind}$i" master "${P}${kind}" up
    done
    ip -n "$ns" link set "mx$i" name mgmt0
    ip -n "$ns" link set "dx$i" name data0
    ip -n "$ns" addr add "198.18.0.$i/24" dev mgmt0
    ip -n "$ns" addr add "198.19.0.$i/24" dev data0
    ip -n "$ns" link set mgmt0 up
    ip -n "$ns" link set data0 up
    [ -n "$base" ] || continue
    # Shaping: egress of the node (data0) and egress towards it (the bridge-side veth).
    for dev in "data0@$ns" "${P}d$i@"; do
      d="${dev%@*}"; n="${dev#*@}"
      local tcx=(tc); [ -n "$n" ] && tcx=(ip netns exec "$n" tc)
      "${tcx[@]}" qdisc add dev "$d" root handle 1: htb default 10 || nsh_die "htb on $d"
      "${tcx[@]}" class add dev "$d" parent 1: classid 1:10 htb rate "${base}kbit" ceil "${base}kbit" "${NSH_HTB[@]}" || nsh_die "htb class on $d"
    done
  done
}

# /etc/netns/<ns>/hosts for every host: all hosts' names → their mgmt0 address.
nsh_resolve() {  # PREFIX N
  local P="$1" N="$2" i j
  for i in $(seq 1 "$N"); do
    mkdir -p "/etc/netns/${P}h$i" || nsh_die "/etc/netns/${P}h$i"
    { echo "127.0.0.1 localhost"
      for j in $(seq 1 "$N"); do echo "198.18.0.$j ${NSH_NAME[$j]:-${P}h$j}"; done
    } > "/etc/netns/${P}h$i/hosts"
  done
}

# The rsh agent mpirun uses to start orted on a host (its mgmt0 address or its name): enter that
# host's namespace with its own UTS hostname (distinct names also keep Open MPI's shared-memory
# transport from pairing ranks of different namespaces), then run NSH_PRE[i] (shell text: planted
# environment, a cgroup) before the command.
nsh_agent() {  # PREFIX N FILE
  local P="$1" N="$2" f="$3" i
  {
    echo '#!/bin/sh'
    echo 'host="$1"; shift'
    echo 'case "$host" in'
    for i in $(seq 1 "$N"); do
      echo "  198.18.0.$i|${NSH_NAME[$i]:-${P}h$i}) ns=${P}h$i; hn=${NSH_NAME[$i]:-${P}h$i}; pre='${NSH_PRE[$i]:-}';;"
    done
    echo '  *) echo "nsrsh: unknown host $host" >&2; exit 1;;'
    echo 'esac'
    echo 'exec ip netns exec "$ns" unshare --uts /bin/sh -c "hostname $hn; $pre exec $*"'
  } > "$f" && chmod +x "$f" || nsh_die "agent $f"
}

# Remove everything nsh_up/nsh_resolve made for PREFIX, by name (what is not there is skipped).
nsh_down() {  # PREFIX N
  local P="$1" N="$2" i pid
  for i in $(seq 1 "$N"); do
    # What still runs on the host was started on it (ranks whose launcher was killed): a namespace
    # whose name is gone would keep them, and their sockets, alive.
    for pid in $(ip netns pids "${P}h$i" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    ip netns del "${P}h$i" 2>/dev/null
    # The bridge-side ends go with the namespace, unless something still holds it: by name then.
    ip link del "${P}m$i" 2>/dev/null
    ip link del "${P}d$i" 2>/dev/null
    [ -d "/etc/netns/${P}h$i" ] && rm -rf "/etc/netns/${P}h$i"
  done
  ip link del "${P}m" 2>/dev/null
  ip link del "${P}d" 2>/dev/null
  return 0  # /etc/netns itself stays: another set of hosts may be using it
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  declare -A NSH_NAME NSH_PRE
  case "${1:-}" in
    up)
      [ $# -eq 5 ] || { sed -n '2,12p' "$0" >&2; exit 64; }
      P="$2"; N="$3"
      [[ "$N" =~ ^[0-9]+$ ]] && [ "$N" -ge 1 ] && [ "$N" -le 64 ] || nsh_die "N must be 1..64"
      nsh_check "$P"
      trap 'nsh_down "$P" "$N"' EXIT
      nsh_up "$P" "$N" "$4"
      nsh_resolve "$P" "$N"
      nsh_agent "$P" "$N" "$5"
      trap - EXIT;;
    down)
      [ $# -eq 3 ] || { sed -n '2,12p' "$0" >&2; exit 64; }
      nsh_down "$2" "$3";;
    *) sed -n '2,12p' "$0" >&2; exit 64;;
  esac
fi
