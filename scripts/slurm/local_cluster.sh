#!/usr/bin/env bash
# A throw-away one-node SLURM cluster on this machine, all of it (munge key
# and socket, slurm.conf, controller state, spool, logs) in one directory:
#
#   scripts/slurm/local_cluster.sh start DIR   writes DIR/slurm.conf from
#       slurm.conf.in (free ports, this machine's CPUs and memory), starts
#       munged, slurmctld and slurmd as root without systemd, and waits until
#       the node takes jobs; then `export SLURM_CONF=DIR/slurm.conf` (DIR/env)
#       points sbatch, squeue and scancel at it
#   scripts/slurm/local_cluster.sh stop DIR    cancels its jobs and stops the
#       three daemons it started (by their pid files); safe to call twice
#
# Needs root (slurmd runs jobs as their user) and Debian's slurm-wlm and
# munge (scripts/setup.sh --full). Exit 77 when they are not installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
action=${1:-}
dir=${2:-}
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

missing_packages() {
  local tool
  for tool in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol; do
    command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null 2>&1 ||
      echo "$tool"
  done
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

stop_pid_file() {  # stop_pid_file FILE NAME: TERM, then KILL after 10 s
  local file=$1 name=$2 pid i
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "local_cluster: $name (pid $pid) did not stop; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$file"
}

stop() {
  if [ -f "$dir/slurm.conf" ] && [ -s "$dir/slurmctld.pid" ]; then
    SLURM_CONF=$dir/slurm.conf timeout 10 scancel --full --quiet --user "$(id -un)" 2>/dev/null || true
  fi
  stop_pid_file "$dir/slurmd.pid" slurmd
  stop_pid_file "$dir/slurmctld.pid" slurmctld
  stop_pid_file "$dir/munged.pid" munged
}

start() {
  export PATH=$PATH:/usr/sbin
  local absent
  absent=$(missing_packages)
  if [ -n "$absent" ]; then
    echo "local_cluster: SLURM or munge is not installed (missing:" $absent"); " \
      "scripts/setup.sh --full installs slurm-wlm and munge" >&2
    exit 77
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "local_cluster: must run as root (slurmd starts jobs as their owner)" >&2
    exit 2
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/munge"
  chmod 755 "$dir/munge"
  # The munge socket's path must fit a sockaddr_un (108 bytes).
  local socket=$dir/munge/socket
  if [ ${#socket} -gt 100 ]; then
    echo "local_cluster: $dir: too long a path for munge's socket; use a shorter DIR" >&2
    exit 2
  fi
  rm -f "$dir/munge/key"
  mungekey --create --keyfile "$dir/munge/key" >/dev/null
  munged --force --socket "$socket" --key-file "$dir/munge/key" \
    --pid-file "$dir/munged.pid" --log-file "$dir/log/munged.log" \
    --seed-file "$dir/munge/seed"

  local node cpus memory
  node=tcu-node
  cpus=$(nproc)
  memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  sed -e "s|@NODE@|$node|g" -e "s|@HOST@|$(hostname -s)|g" -e "s|@USER@|$(id -un)|g" \
    -e "s|@CTLD_PORT@|$(free_port)|g" -e "s|@SLURMD_PORT@|$(free_port)|g" \
    -e "s|@MUNGE_SOCKET@|$socket|g" -e "s|@STATE_DIR@|$dir|g" \
    -e "s|@CPUS@|$cpus|g" -e "s|@MEMORY_MB@|$memory|g" "$here/slurm.conf.in" >"$dir/slurm.conf"
  echo "export SLURM_CONF=$dir/slurm.conf" >"$dir/env"
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF" -i
  slurmd -f "$SLURM_CONF" -N "$node"
  # The node is up when the controller reports it idle (or mixed/allocated).
  local i state=
  for i in $(seq 60); do
    state=$(timeout 5 sinfo -h -N -o %t 2>/dev/null | head -1 || true)
    case $state in idle | mix | alloc) break ;; esac
    [ -s "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null || break
    sleep 0.5
  done
  case $state in
    idle | mix | alloc) echo "local_cluster: node $node up ($cpus CPUs); SLURM_CONF=$SLURM_CONF" ;;
    *)
      echo "local_cluster: the node did not come up (state '${state:-none}'); logs:" >&2
      tail -n 20 "$dir"/log/*.log >&2 || true
      stop
      exit 1
      ;;
  esac
}

case $action in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
