# Shared by the e2e scripts (sourced from the repo root): a scratch folder $T
# removed on exit, and the pass/fail counters with ok and bad.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}
# expect_rc WANT NAME CMD...: the command exits with WANT (the first lines of its stderr
# are shown when it does not).
expect_rc() {
    e_want=$1
    e_name=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" = "$e_want" ]; then ok; else bad "$e_name: exit $rc, want $e_want: $(head -3 "$T/err")"; fi
}
