# Sourced by the CLI tests: expect CODE PATTERN -- command... runs the
# command, and counts a failure in $failures unless it exits CODE and its
# output (stdout or stderr, kept in $dir/out and $dir/err) contains PATTERN.
# The caller sets dir (a scratch directory) and failures=0.
expect() {
  local code=$1 pattern=$2
  shift 3
  "$@" >"$dir/out" 2>"$dir/err"
  local got=$?
  if [[ $got -ne $code ]] || ! grep -qF -- "$pattern" "$dir/out" "$dir/err"; then
    echo "FAIL: $* -> exit $got (want $code), output lacks '$pattern':"
    cat "$dir/out" "$dir/err" | head -5
    failures=$((failures + 1))
  else
    echo "ok: exit $code: $*"
  fi
}
