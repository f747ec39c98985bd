#!/usr/bin/env bash
# A real Slurm cluster of N "hosts" made of network namespaces, for `srun --mpi=pmix ncdx doctor
# --cluster` (issue #14) and srun-launched fault runs (issue #10). Run as root.
#
#   slurm-cluster.sh run N -- CMD...
#
# builds N namespace hosts n1..nN on one bridge, starts a private munged, slurmctld in the root
# namespace and one slurmd per host (each in its own network, UTS and mount namespace), waits
# until sinfo shows every node idle, runs CMD in the root namespace with SLURM_CONF exported
# (typically `srun -N2 --mpi=pmix ...`) and removes everything it created (by name and pid file,
# also on failure or Ctrl-C). Exit status: CMD's, or 77 with "SKIP: <reason>" on stderr when
# Slurm or namespaces cannot run here.
#
# The recipe and its pitfalls are in docs/CLUSTER.md ("Slurm harness"): nsenter --net rather than
# ip netns exec (that remounts /sys, slurmd then finds no cgroup fs), PMIxCliTmpDirBase bind-mounted
# per node (the slurmds collide on spmix_appdir_* otherwise), per-node spool/pid/log (%n).
#
# Environment: NCDX_NS_PREFIX (names, default nsl<pid>, at most 10 characters), NCDX_SLURM_NET
# (the /24 as three octets, default: the first free 198.18.128-247 subnet in the root namespace;
# netns-cluster.sh uses 198.18.0 and 198.19.0 inside its namespaces only), NCDX_KEEP=1 keeps
# everything for debugging, NCDX_SLURM_CPUS (CPUs per node, default 2), NCDX_SLURM_WAIT (seconds
# to wait for idle nodes, default 60), NCDX_SLURM_HOSTNAMES (comma list: the nodes' UTS hostnames,
# default their Slurm names n1..nN; e.g. "dup,dup" clones one hostname onto two nodes). CMD sees SLURM_CONF, NCDX_SLURM_DIR (logs: $NCDX_SLURM_DIR/log)
# (pid files: slurmd-nI.pid), NCDX_SLURM_NODES (n1,...,nN) and NCDX_SLURM_ADDRS (their eth0 addresses).
set -uo pipefail

. "$(dirname "$0")/netns-lib.sh"
die() { echo "slurm-cluster: $*" >&2; exit 70; }

[ "${1:-}" = run ] || { sed -n '2,24p' "$0" >&2; exit 64; }
shift
N="${1:-}"; shift || true
[[ "$N" =~ ^[0-9]+$ ]] && [ "$N" -ge 1 ] && [ "$N" -le 32 ] || die "N must be 1..32"
[ "${1:-}" = "--" ] || die "expected -- CMD after N"
shift
[ $# -gt 0 ] || die "no command after --"

P="${NCDX_NS_PREFIX:-nsl$$}"
[ ${#P} -le 10 ] || die "NCDX_NS_PREFIX must be at most 10 characters"
for b in slurmctld slurmd srun sinfo munged nsenter unshare flock; do
  command -v "$b" >/dev/null || skip "$b is not installed (scripts/install-deps.sh installs Slurm and munge)"
done
id munge >/dev/null 2>&1 || skip "no munge user (the munge package's postinst makes it)"
[ -r /etc/munge/munge.key ] || skip "no /etc/munge/munge.key (the munge package's postinst makes it)"
netns_preflight "$P"

T="$(mktemp -d /tmp/ncdx-slurm.XXXXXX)"
chmod 711 "$T"  # munged runs as the munge user and needs to reach its directory
CTL_PID="" MUNGE_PID="" NET=""

cleanup() {
  local rc=$?
  if [ "${NCDX_KEEP:-0}" = 1 ]; then
    echo "kept: namespaces ${P}h*, bridge ${P}b, slurmctld $CTL_PID, munged $MUNGE_PID, dir $T" >&2
    return
  fi
  # slurmd, slurmstepd and the tasks live in the host namespaces: end them first.
  for i in $(seq 1 "$N"); do netns_kill_and_del "${P}h$i"; done
  for f in "$T/slurmctld.pid" "$T/munge/munged.pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  sleep 0.3
  for f in "$T/slurmctld.pid" "$T/munge/munged.pid"; do
    [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && kill -9 "$(cat "$f")" 2>/dev/null
  done
  ip link del "${P}b" 2>/dev/null
  rm -rf "$T"
  return $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The subnet and slurmctld port: chosen under a lock so two runs at once take different ones
# (the bridge's address is the claim; the port follows the subnet).
exec 9>/tmp/ncdx-slurm-net.lock
flock -w 60 9 || die "lock /tmp/ncdx-slurm-net.lock"
if [ -n "${NCDX_SLURM_NET:-}" ]; then
  NET="$NCDX_SLURM_NET"
else
  for k in $(seq 0 119); do
    x=$(( 128 + ($$ + k) % 120 ))
    ip -4 route show | grep -q "^198\.18\.$x\." && continue
    ss -ltnH "sport = :$(( 20000 + 2 * x ))" 2>/dev/null | grep -q . && continue
    NET="198.18.$x"; break
  done
  [ -n "$NET" ] || die "no free 198.18.128-247 subnet"
fi
[[ "$NET" =~ ^[0-9]+\.[0-9]+\.([0-9]+)$ ]] || die "NCDX_SLURM_NET must be three octets, e.g. 198.18.130"
CTL_PORT=$(( 20000 + 2 * ${BASH_REMATCH[1]} ))
ip link add "${P}b" type bridge || die "bridge ${P}b"
ip addr add "$NET.254/24" dev "${P}b" && ip link set "${P}b" up || die "address $NET.254 on ${P}b"
flock -u 9

mkdir -p "$T/state" "$T/log" "$T/pmix" "$T/munge"
NODES="" ADDRS=""
for i in $(seq 1 "$N"); do
  ns="${P}h$i"
  ip netns add "$ns" || die "netns $ns"
  ip -n "$ns" link set lo up
  netns_link "$ns" "${P}b" "${P}b$i" eth0 "$NET.$i/24" || die "veth ${P}b$i"
  mkdir -p "$T/spool/n$i" "$T/pmix-n$i"
  NODES="${NODES:+$NODES,}n$i" ADDRS="${ADDRS:+$ADDRS,}$NET.$i"
done

# A private munged on its own socket: a shared one started here would be stopped at the end
# under a parallel run still using it, and one left running would outlive the run.
chown munge:munge "$T/munge" && chmod 711 "$T/munge"  # munged wants x for all on the socket dir
runuser -u munge -- munged --socket="$T/munge/socket" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/munge/munged.log" --seed-file="$T/munge/seed" ||
  skip "munged did not start: $(tail -n 2 "$T/munge/munged.log" 2>/dev/null | tr '\n' ' ')"
MUNGE_PID=$(cat "$T/munge/munged.pid" 2>/dev/null)

CPUS="${NCDX_SLURM_CPUS:-2}"
IFS=, read -r -a UTS <<<"${NCDX_SLURM_HOSTNAMES:-}"
cat > "$T/slurm.conf" <<EOF
ClusterName=ncdx$$
SlurmctldHost=$(hostname -s)($NET.254)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd-%n.log
SlurmctldPort=$CTL_PORT
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=5
EOF
for i in $(seq 1 "$N"); do
  echo "NodeName=n$i NodeAddr=$NET.$i NodeHostname=n$i CPUs=$CPUS RealMemory=1000 State=UNKNOWN" >> "$T/slurm.conf"
done
echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4" >> "$T/slurm.conf"
echo "PMIxCliTmpDirBase=$T/pmix" > "$T/mpi.conf"
export SLURM_CONF="$T/slurm.conf"

slurm_logs() { tail -n 5 "$T"/log/*.log 2>/dev/null | tr '\n' ' ' | cut -c1-600; }
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start: $(slurm_logs)"
CTL_PID=$(cat "$T/slurmctld.pid" 2>/dev/null)
for i in $(seq 1 "$N"); do
  # nsenter --net, not ip netns exec: that mounts a fresh sysfs over /sys, which hides the cgroup
  # mounts under /sys/fs/cgroup, and slurmd dies ("No filesystem mounted on /sys/fs/cgroup"). But
  # the host's own sysfs shows the root namespace's interfaces (/sys/class/net), which is not what
  # a node sees: so, in the node's private mount namespace, set the cgroup tree aside, mount this
  # namespace's sysfs, and move the cgroup tree back onto it. The same mount namespace gives each
  # node its own PMIx client directory under the one configured path.
  mkdir -p "$T/cg-n$i"
  nsenter --net="/run/netns/${P}h$i" unshare --uts --mount --propagation private \
    sh -c "hostname ${UTS[$((i - 1))]:-n$i} && mount --rbind /sys/fs/cgroup '$T/cg-n$i' && mount -t sysfs sysfs /sys &&
           mount --move '$T/cg-n$i' /sys/fs/cgroup && mount --bind '$T/pmix-n$i' '$T/pmix' &&
           exec slurmd -f '$SLURM_CONF' -N n$i" ||
    skip "slurmd on n$i did not start: $(slurm_logs)"
done

wait_s="${NCDX_SLURM_WAIT:-60}"
t0=$SECONDS
while :; do
  idle=$(sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 == "idle"' | wc -l)
  [ "$idle" -ge "$N" ] && break
  [ $(( SECONDS - t0 )) -ge "$wait_s" ] &&
    skip "Slurm nodes not idle after ${wait_s}s: $(sinfo -h -N -o '%N %T' 2>&1 | tr '\n' ' ') $(slurm_logs)"
  sleep 0.5
done
echo "slurm-cluster: $N nodes idle after $(( SECONDS - t0 ))s (net $NET.0/24, slurmctld port $CTL_PORT)" >&2

export NCDX_SLURM_DIR="$T" NCDX_SLURM_NODES="$NODES" NCDX_SLURM_ADDRS="$ADDRS"
"$@"
