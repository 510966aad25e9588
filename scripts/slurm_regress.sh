#!/usr/bin/env bash
# A `tcu run` regression as a SLURM job array: task i runs
# `tcu run ARGS --shard i/N --record-cases --report OUT/shards/shard-i.json`;
# when the array is done, `tcu run merge --print-missing` names the shards
# without a complete report (a task killed, timed out, its node lost), and
# only those are submitted again, up to --retries times; then the shards are
# merged into OUT/report.json (and OUT/report.xml, JUnit) and the summary is
# printed as one `tcu run` would print it.
#
#   scripts/slurm_regress.sh --tasks N [options] -- TCU_RUN_ARGS...
#
# Run it again with the same --out and arguments to resume: the shards whose
# reports are complete are kept, the rest submitted. Exit status: that of
# `tcu run merge` (0 every case passed; 1 a case failed or shards still
# missing; 2 bad usage or reports of another run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  cat >&2 <<EOF
usage: $0 --tasks N [options] -- TCU_RUN_ARGS...
  --tasks N          shards of the run, one array task each
  --out DIR          shard reports, logs and the merged report (default: slurm-regress)
  --tcu PATH         the tcu binary the tasks run (default: $root/build/tcu)
  --retries R        times the missing shards are submitted again (default: 2)
  --cpus-per-task C  CPUs of a task; its tcu run --jobs (default: 1)
  --poll SECONDS     how often squeue is asked whether the array is done (default: 2)
  --prelude CMD      a shell command each task runs before tcu (e.g. 'module load gcc')
  --sbatch-arg ARG   one more sbatch option, e.g. --sbatch-arg=--partition=batch
                     or --sbatch-arg=--time=1:00:00 (repeatable)
TCU_RUN_ARGS are tcu run's options but --shard, --jobs, --report and --record-cases,
which each task sets, e.g. -- --engine rtl --config default --count 100000 --seed 7
EOF
  exit 2
}

tasks= out=slurm-regress tcu=$root/build/tcu retries=2 cpus=1 poll=2 prelude=
sbatch_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --tasks) tasks=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --tcu) tcu=${2:?}; shift 2 ;;
    --retries) retries=${2:?}; shift 2 ;;
    --cpus-per-task) cpus=${2:?}; shift 2 ;;
    --poll) poll=${2:?}; shift 2 ;;
    --prelude) prelude=${2:?}; shift 2 ;;
    --sbatch-arg) sbatch_args+=("${2:?}"); shift 2 ;;
    --sbatch-arg=*) sbatch_args+=("${1#--sbatch-arg=}"); shift ;;
    --) shift; break ;;
    -h | --help) usage ;;
    *) echo "$0: unknown option $1 (tcu run's options go after --)" >&2; usage ;;
  esac
done
run_args=("$@")
number() { [[ $2 =~ ^[0-9]+$ ]] || { echo "$0: $1 $2: expected a number" >&2; exit 2; }; }
number --tasks "$tasks"
number --retries "$retries"
number --cpus-per-task "$cpus"
[ "$tasks" -ge 1 ] || { echo "$0: --tasks must be at least 1" >&2; exit 2; }
for arg in "${run_args[@]}"; do
  case $arg in
    --shard | --shard=* | -j | --jobs | --jobs=* | --report | --report=* | --record-cases)
      echo "$0: $arg: each task sets --shard, --jobs, --report and --record-cases" >&2
      exit 2
      ;;
  esac
done
[ -x "$tcu" ] || { echo "$0: $tcu: no tcu binary (build it, or give --tcu)" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "$0: sbatch not found: is SLURM installed?" >&2; exit 2; }
tcu=$(cd "$(dirname "$tcu")" && pwd)/$(basename "$tcu")

mkdir -p "$out/shards" "$out/logs"
out=$(cd "$out" && pwd)
# The run this directory holds: a resumed run must be the same one.
printf '%q ' "$tcu" run "${run_args[@]}" --tasks "$tasks" >"$out/run.new"
if [ -f "$out/run.args" ] && ! cmp -s "$out/run.args" "$out/run.new"; then
  echo "$0: $out holds the shards of another run ($(cat "$out/run.args")); use another --out" >&2
  rm -f "$out/run.new"
  exit 2
fi
mv "$out/run.new" "$out/run.args"

# The array task: one shard; its report lands under its name only once
# complete (a killed task leaves at most a .part file, which merge ignores).
{
  echo '#!/usr/bin/env bash'
  echo 'i=$SLURM_ARRAY_TASK_ID'
  echo "part=$(printf %q "$out/shards")/.shard-\$i.json.part"
  [ -z "$prelude" ] || echo "$prelude"
  printf '%q ' "$tcu" run "${run_args[@]}"
  echo "--shard \"\$i/$tasks\" --jobs $cpus --record-cases --report \"\$part\""
  echo 'code=$?'
  echo "[ -s \"\$part\" ] && mv \"\$part\" $(printf %q "$out/shards")/shard-\$i.json"
  echo 'exit $code'
} >"$out/job.sh"
chmod +x "$out/job.sh"

wait_for_job() {  # until squeue no longer lists the job
  local job=$1 listed errors=0
  while :; do
    if listed=$(squeue -h -j "$job" -o %i 2>&1); then
      [ -z "$listed" ] && return 0
      errors=0
    elif [[ $listed == *"Invalid job id"* ]]; then
      return 0
    elif [ $((errors += 1)) -gt 30 ]; then
      echo "$0: squeue keeps failing: $listed" >&2
      return 1
    fi
    sleep "$poll"
  done
}

for attempt in $(seq 0 "$retries"); do
  missing=$("$tcu" run merge --print-missing --shards "$tasks" "$out/shards")
  [ -n "$missing" ] || break
  [ "$attempt" -eq 0 ] || echo "slurm_regress: shards missing after the array: $missing; submitting them again"
  job=$(sbatch --parsable --array="$missing" --cpus-per-task="$cpus" --job-name=tcu-regress \
    --output="$out/logs/shard-%a.out" --chdir="$out" "${sbatch_args[@]}" "$out/job.sh")
  job=${job%%;*}
  echo "slurm_regress: submitted job $job: shards $missing of $tasks"
  wait_for_job "$job"
done
exec "$tcu" run merge "$out/shards" --report "$out/report.json" --junit "$out/report.xml"
