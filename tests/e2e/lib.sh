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
