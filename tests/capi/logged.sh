#!/usr/bin/env bash
# logged.sh LOG COMMAND [ARGS...]: runs COMMAND with its output into LOG;
# on failure prints LOG's last 40 lines and exits with COMMAND's status.
log=$1
shift
"$@" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  tail -40 "$log"
  echo "(the whole output: $log)"
fi
exit "$status"
