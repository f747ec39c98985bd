#!/usr/bin/env bash
# A cluster of N "hosts" made of network namespaces, for `ncdx doctor --cluster` under a real
# mpirun (issue #14; Open MPI run as root, namespaces joined by veth pairs). Run as root.
#
#   netns-cluster.sh run N [FAULT ...] -- NCDX_ARGS...
#   netns-cluster.sh exec N [FAULT ...] -- COMMAND...
#
# builds the hosts, applies the faults, runs `mpirun -np N ncdx NCDX_ARGS` from host 1 and
# removes everything it created (by name, also on failure or Ctrl-C). Exit status: ncdx's, or
# 77 with "SKIP: <reason>" on stderr when namespaces/mpirun are not possible here.
# `exec` runs COMMAND once inside host 1 instead, with NCDX_MPIRUN_ARGS set to the mpirun
# arguments that reach the N hosts (hostfile, rsh agent, btl/oob interfaces): for a tool that
# launches its own mpirun jobs, such as `ncdx tune --backend mpi --mpirun-args "$NCDX_MPIRUN_ARGS"`.
#
# Each host has two links, like a real node: mgmt0 (198.18.0.i/24, MPI's control traffic) and
# data0 (198.19.0.i/24, what NCCL_SOCKET_IFNAME=data selects and ncdx measures). Every data link
# is shaped with htb to RATE (default 50mbit), low enough that 2 busy CPUs are not the bottleneck.
# (htb, not tbf: tbf's small queue drops packets of a TCP burst, which would look like loss.)
#
# Faults (host numbers are 1-based):
#   slowlink:A:B:PCT   A↔B at PCT % less bandwidth (both directions)
#   slownode:V:PCT     all of V's data traffic at PCT % less bandwidth
#   lossy:V:PCT        V drops PCT % of its outgoing data packets (nftables)
#   cpu:V:PCT          V's ncdx limited to PCT % of one CPU (cgroup cpu quota)
#   firewall:V         V drops all incoming data traffic (nftables): unreachable
#   envdrift:V:K=VAL   V's ranks see another environment value (e.g. NCCL_IB_HCA=mlx5_9)
#   mtu:V:MTU          V's data0 gets another MTU
#   duphost:V:W        V takes W's short hostname (hW.dup instead of hV.c)
#   delaylink:A:B:MS   every A↔B round trip MS ms longer (one-way latency, RTT/2, +MS/2)
#   delaynode:V:MS     every round trip of V's data traffic MS ms longer
#   linkdown:V         V's data0 goes down mid-run: as soon as V has its first established data
#                      connection (a matrix pair under way; MPI itself runs on mgmt0)
#
# Delay without netem (not in this kernel, nor fq/etf): an iptables NFQUEUE rule on the INPUT hook
# of A's (V's) namespace hands the arriving packets (from B) to scripts/netns-delay.py, which
# accepts each one MS ms after it came; the kernel holds it meanwhile. All of the round trip's
# delay sits on the inbound side: a packet held on the sender's OUTPUT hook still counts against
# its socket's TCP small queues budget (net/ipv4/tcp_output.c tcp_small_queue_check; netem orphans
# its packets for this reason), and a 50 Mbit/s stream held 3 ms there ran at 5 Mbit/s, against
# 40 Mbit/s held 6 ms on the receiver's INPUT. One delayer process per fault, inside that
# namespace: it goes with the namespace (nsh_down kills what runs there) and is killed by pid too.
#
# Environment: NCDX (path of the binary, default build/src/cli/ncdx), RATE, NCDX_NS_PREFIX
# (default ncx<pid>; names stay under 15 characters), NCDX_KEEP=1 keeps the hosts for debugging,
# NCDX_MPI_NET=data puts MPI's own traffic (btl tcp) on the shaped data links instead of mgmt0
# (what bench/alphabeta_netns.py needs: Open MPI's collectives over links of known bandwidth).
# OMPI_MCA_* variables in the environment reach the ranks (mpirun forwards them).
set -uo pipefail

skip() { echo "SKIP: $*" >&2; exit 77; }
die() { echo "netns-cluster: $*" >&2; exit 70; }

MODE="${1:-}"
[ "$MODE" = run ] || [ "$MODE" = exec ] || { sed -n '2,45p' "$0" >&2; exit 64; }
shift
N="${1:-}"; shift || true
[[ "$N" =~ ^[0-9]+$ ]] && [ "$N" -ge 2 ] && [ "$N" -le 64 ] || die "N must be 2..64"
FAULTS=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do FAULTS+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
ARGS=("$@")

command -v mpirun >/dev/null || skip "mpirun (openmpi-bin) is not installed"
NCDX="${NCDX:-$(pwd)/build/src/cli/ncdx}"
[ -x "$NCDX" ] || die "no ncdx binary at $NCDX"
RATE="${RATE:-50mbit}"
case "${NCDX_MPI_NET:-mgmt}" in
  mgmt) BTL_NET=198.18.0.0/24;; data) BTL_NET=198.19.0.0/24;; *) die "NCDX_MPI_NET must be mgmt or data";;
esac
P="${NCDX_NS_PREFIX:-ncx$$}"
[ ${#P} -le 10 ] || die "NCDX_NS_PREFIX must be at most 10 characters"
# The hosts themselves (namespaces, links, shaping, the rsh agent): scripts/netns-hosts.sh.
# shellcheck source=netns-hosts.sh
. "$(dirname "${BASH_SOURCE[0]}")/netns-hosts.sh"
nsh_check "$P"
T="$(mktemp -d /tmp/ncdx-netns.XXXXXX)"

DELAY_PIDS=()
cleanup() {
  [ "${NCDX_KEEP:-0}" = 1 ] && { echo "kept: namespaces ${P}h*, bridges ${P}m ${P}d, dir $T" >&2; return; }
  local pid
  for pid in "${DELAY_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  nsh_down "$P" "$N"
  for i in $(seq 1 "$N"); do
    [ -d "/sys/fs/cgroup/cpu/${P}h$i" ] && rmdir "/sys/fs/cgroup/cpu/${P}h$i" 2>/dev/null
    [ -d "/sys/fs/cgroup/${P}h$i" ] && rmdir "/sys/fs/cgroup/${P}h$i" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

BASE_KBIT=$(nsh_rate_kbit "$RATE")
nsh_up "$P" "$N" "$RATE"
declare -A HOSTNAME_OF NSH_NAME NSH_PRE
for i in $(seq 1 "$N"); do HOSTNAME_OF[$i]="h$i.c"; done

declare -A ENV_OF CPU_OF
nft_ok() { command -v nft >/dev/null || skip "nft (nftables) is not installed: the loss/firewall faults need it"; }
# iptables with the NFQUEUE target (nft's own `queue` needs CONFIG_NFT_QUEUE, unset here; iptables
# reaches xt_NFQUEUE through nft_compat or the legacy tables).
IPT=""
delay_ok() {
  [ -n "$IPT" ] && return
  for IPT in iptables iptables-legacy ""; do [ -n "$IPT" ] && command -v "$IPT" >/dev/null && break; done
  [ -n "$IPT" ] || skip "iptables is not installed: the delay faults need its NFQUEUE target (no netem in this kernel)"
  command -v python3 >/dev/null || skip "python3 is not installed: the delay faults need scripts/netns-delay.py"
}
# delay HOST MS [PEER]: data packets arriving at HOST (from PEER only, if given) held MS ms.
delay() {
  local host="$1" ms="$2" q=${#DELAY_PIDS[@]} log="$T/delay${#DELAY_PIDS[@]}.log" from=() i
  [[ "$ms" =~ ^[0-9]+([.][0-9]+)?$ ]] || die "delay must be a number of ms, not '$ms'"
  [ -n "${3:-}" ] && from=(-s "$3")
  ip netns exec "${P}h$host" "$IPT" -A INPUT -i data0 "${from[@]}" -j NFQUEUE --queue-num "$q" --queue-bypass ||
    die "delay rule on h$host ($IPT NFQUEUE)"
  ip netns exec "${P}h$host" python3 "$(dirname "${BASH_SOURCE[0]}")/netns-delay.py" "$q" "$ms" > "$log" 2>&1 &
  DELAY_PIDS+=($!)
  for i in $(seq 1 50); do
    grep -q '^ready' "$log" 2>/dev/null && return
    kill -0 "${DELAY_PIDS[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  die "delayer on h$host did not start: $(tail -n 1 "$log" 2>/dev/null)"
}
for f in "${FAULTS[@]}"; do
  IFS=: read -r kind a b c <<<"$f"
  case "$kind" in
    slowlink)
      [ -n "$b" ] && [ -n "$c" ] || die "slowlink:A:B:PCT"
      k=$(( BASE_KBIT * (100 - c) / 100 ))
      for pair in "$a:$b" "$b:$a"; do
        from="${pair%:*}"; to="${pair#*:}"
        ip netns exec "${P}h$from" tc class add dev data0 parent 1: classid 1:20 htb rate "${k}kbit" ceil "${k}kbit" "${NSH_HTB[@]}" || die "slowlink class"
        ip netns exec "${P}h$from" tc filter add dev data0 parent 1: protocol ip prio 1 u32 match ip dst "198.19.0.$to/32" flowid 1:20 || die "slowlink filter"
      done;;
    slownode)
      k=$(( BASE_KBIT * (100 - b) / 100 ))
      ip netns exec "${P}h$a" tc class change dev data0 parent 1: classid 1:10 htb rate "${k}kbit" ceil "${k}kbit" "${NSH_HTB[@]}" || die "slownode"
      tc class change dev "${P}d$a" parent 1: classid 1:10 htb rate "${k}kbit" ceil "${k}kbit" "${NSH_HTB[@]}" || die "slownode"
      ;;
    lossy)
      nft_ok
      ip netns exec "${P}h$a" nft add table inet ncdxchaos
      ip netns exec "${P}h$a" nft add chain inet ncdxchaos out '{ type filter hook output priority 0; }'
      ip netns exec "${P}h$a" nft add rule inet ncdxchaos out oifname data0 numgen random mod 100 '<' "$b" drop || die "lossy rule"
      ;;
    firewall)
      nft_ok
      ip netns exec "${P}h$a" nft add table inet ncdxchaos
      ip netns exec "${P}h$a" nft add chain inet ncdxchaos in '{ type filter hook input priority 0; }'
      ip netns exec "${P}h$a" nft add rule inet ncdxchaos in iifname data0 drop || die "firewall rule"
      ;;
    cpu) CPU_OF[$a]="$b";;
    envdrift) ENV_OF[$a]="${ENV_OF[$a]:-} export ${b}${c:+:$c};";;
    mtu) ip -n "${P}h$a" link set data0 mtu "$b" || die "mtu";;
    duphost) HOSTNAME_OF[$a]="h$b.dup";;
    delaylink) [ -n "$b" ] && [ -n "$c" ] || die "delaylink:A:B:MS"; delay_ok; delay "$a" "$c" "198.19.0.$b/32";;
    delaynode) [ -n "$b" ] || die "delaynode:V:MS"; delay_ok; delay "$a" "$b";;
    linkdown)
      # Polls V's namespace for an established TCP connection from its data address (ss, iproute2),
      # then takes the link down: the matrix has started and V is in a pair. Gives up after 120 s.
      ( for _ in $(seq 1 2400); do
          if ip netns exec "${P}h$a" ss -Htn state established src "198.19.0.$a" 2>/dev/null | grep -q .; then
            ip -n "${P}h$a" link set data0 down; exit 0
          fi
          sleep 0.05
        done ) &
      DELAY_PIDS+=($!);;
    *) die "unknown fault '$kind'";;
  esac
done

# The rsh agent (netns-hosts.sh): host i enters its namespace under its UTS hostname, with its
# planted env and its CPU cgroup.
agent="$T/nsrsh"
for i in $(seq 1 "$N"); do
  pre="${ENV_OF[$i]:-}"
  if [ -n "${CPU_OF[$i]:-}" ]; then
    quota=$(( CPU_OF[$i] * 1000 ))
    if [ -d /sys/fs/cgroup/cpu ]; then
      mkdir -p "/sys/fs/cgroup/cpu/${P}h$i" && echo 100000 > "/sys/fs/cgroup/cpu/${P}h$i/cpu.cfs_period_us" &&
        echo "$quota" > "/sys/fs/cgroup/cpu/${P}h$i/cpu.cfs_quota_us" || die "cgroup v1 cpu quota"
      pre="$pre echo \$\$ > /sys/fs/cgroup/cpu/${P}h$i/cgroup.procs;"
    elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
      mkdir -p "/sys/fs/cgroup/${P}h$i" && echo "$quota 100000" > "/sys/fs/cgroup/${P}h$i/cpu.max" || die "cgroup v2 cpu.max"
      pre="$pre echo \$\$ > /sys/fs/cgroup/${P}h$i/cgroup.procs;"
    else
      skip "no cgroup cpu controller for the cpu fault"
    fi
  fi
  NSH_NAME[$i]="${HOSTNAME_OF[$i]}"; NSH_PRE[$i]="$pre"
done
nsh_agent "$P" "$N" "$agent"
hf="$T/hostfile"
for i in $(seq 1 "$N"); do echo "198.18.0.$i slots=1"; done > "$hf"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
pre1="${ENV_OF[1]:-}"
[ -n "${CPU_OF[1]:-}" ] && pre1="$pre1 echo \$\$ > /sys/fs/cgroup/cpu/${P}h1/cgroup.procs;"
q=""; for a in "${ARGS[@]}"; do q="$q '${a//\'/\'\\\'\'}'"; done
MPI_ARGS="--hostfile $hf --map-by node --mca plm_rsh_agent $agent \
--mca oob_tcp_if_include 198.18.0.0/24 --mca btl tcp,self --mca btl_tcp_if_include $BTL_NET \
-x NCCL_SOCKET_IFNAME=data -x LC_ALL=C"
if [ "$MODE" = exec ]; then
  ip netns exec "${P}h1" unshare --uts /bin/sh -c "hostname ${HOSTNAME_OF[1]}; $pre1
    export NCDX_MPIRUN_ARGS='$MPI_ARGS'; exec $q"
else
  ip netns exec "${P}h1" unshare --uts /bin/sh -c "hostname ${HOSTNAME_OF[1]}; $pre1
    exec mpirun -np $N $MPI_ARGS $NCDX $q"
fi
rc=$?
exit $rc
