#!/bin/sh
# A folder with a bad file: every command that takes a folder prints one
# FILE:LINE:COL line for it, runs the other tests, ends with a summary that
# counts it, and exits 2 only after the others ran. `check` on a folder ends
# with a summary line as `litmus` does. Usage: sh tests/e2e/folders.sh ./cohcheck
BIN=${1:-./cohcheck}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
T=$(mktemp -d /tmp/cohcheck-folders.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}
mkdir "$T/dir"
cp litmus/core/SB.litmus litmus/core/MP.litmus "$T/dir/"
head -c 60 litmus/core/IRIW.litmus >"$T/dir/trunc.litmus"
errpat='^cohcheck: [^:]*/trunc\.litmus:[0-9]+:[0-9]+: '

# expect NAME WANT_EXIT SUMMARY_PATTERN CMD...: exit WANT_EXIT, exactly one error line
# (the bad file's FILE:LINE:COL), and SUMMARY_PATTERN on the last line of stdout.
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$name: exit $got, want $want"
    elif [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -Eq "$errpat" "$T/err"; then
        bad "$name: want one FILE:LINE:COL line on stderr, got: $(cat "$T/err")"
    elif ! tail -1 "$T/out" | grep -Eq -- "$pat"; then
        bad "$name: last line '$(tail -1 "$T/out")' does not match '$pat'"
    else
        ok
    fi
}

expect "litmus --quiet" 2 '^Summary: 2 tests, 6 models: .*; 1 unreadable; [0-9.]+ s$' \
    "$BIN" litmus --quiet "$T/dir"
expect "litmus" 2 '^Summary: 2 tests, .*; 1 unreadable; ' "$BIN" litmus "$T/dir"
expect "check" 2 '^Summary: 3 tests: 2 ok, 1 unreadable$' \
    "$BIN" check --no-db --protocol nol1 "$T/dir"
# The two good tests ran before the summary.
[ "$(grep -c ': ok (' "$T/out")" -eq 2 ] && ok || bad "check: the good tests did not run: $(cat "$T/out")"
expect "check -j 2" 2 '^Summary: 3 tests: 2 ok, 1 unreadable$' \
    "$BIN" check --no-db -j 2 --protocol nol1 "$T/dir"
expect "classify" 2 '^  strongest sc$' "$BIN" classify --protocol nol1 "$T/dir"
grep -q '^classify nol1 (cold): 3 tests, 2 explored, 0 skipped, 0 incomplete, 1 unreadable$' "$T/out" &&
    ok || bad "classify's count line: $(head -1 "$T/out")"
expect "regress" 2 '2 runs \(2 tests x 1 models\), 0 changed, 0 got worse, 1 unreadable$' \
    "$BIN" regress nol1 nol1 "$T/dir"
expect "mutate" 2 '^1 test file unreadable \(left out\)$' \
    "$BIN" mutate --protocol nol1 --only 1 "$T/dir"
grep -q ' on 2 tests (2 usable): 1 killed' "$T/out" && ok || bad "mutate ran on the good tests: $(cat "$T/out")"

# Without the bad file: a summary, the verdict's exit code.
rm "$T/dir/trunc.litmus"
"$BIN" check --no-db --protocol nol1 "$T/dir" >"$T/out" 2>&1
[ $? -eq 0 ] && [ "$(tail -1 "$T/out")" = "Summary: 2 tests: 2 ok" ] && ok ||
    bad "check on a good folder: $(tail -1 "$T/out")"
# A protocol without core maps for some tests: skipped, counted.
"$BIN" check --no-db --protocol gpu-hrf litmus/core >"$T/out" 2>&1
rc=$?
n=$(find litmus/core -name '*.litmus' | wc -l)
nskip=$(grep -c ': skipped (' "$T/out")
nok=$(grep -Ec ': ok( \[racy[^]]*\])? \(' "$T/out")
[ $rc -eq 0 ] && [ "$(tail -1 "$T/out")" = "Summary: $n tests: $nok ok, $nskip skipped" ] && [ "$nskip" -gt 0 ] &&
    ok || bad "check gpu-hrf litmus/core: exit $rc, $(tail -1 "$T/out")"
# One file: no summary line (the verdict line is the summary).
"$BIN" check --no-db --protocol nol1 litmus/core/SB.litmus >"$T/out" 2>&1
[ "$(wc -l <"$T/out")" -eq 1 ] && ok || bad "check of one file printed a summary"
# --json: one object per test, no summary line.
"$BIN" check --no-db --json --protocol nol1 "$T/dir" >"$T/out" 2>&1
[ "$(grep -vc '^{' "$T/out")" -eq 0 ] && ok || bad "check --json printed a non-JSON line"

# Output folders are created when missing, for every option that names one; a file in
# the way is one error line and exit 2.
"$BIN" litmus --to-herd "$T/o/herd/deep" litmus/core/SB.litmus >/dev/null 2>&1 && [ -f "$T/o/herd/deep/SB.litmus" ] &&
    ok || bad "litmus --to-herd into a new folder"
"$BIN" litmus --show "$T/o/show/deep" --model sc litmus/core/SB.litmus >/dev/null 2>&1 &&
    ls "$T/o/show/deep/"SB.*.dot >/dev/null 2>&1 && ok || bad "litmus --show into a new folder"
"$BIN" draw nol1 -o "$T/o/draw/deep/nol1.dot" >/dev/null 2>&1 && [ -s "$T/o/draw/deep/nol1.dot" ] &&
    ok || bad "draw -o into a new folder"
"$BIN" export --murphi --protocol nol1 litmus/core/SB.litmus -o "$T/o/export/deep/sb.m" >/dev/null 2>&1 &&
    [ -s "$T/o/export/deep/sb.m" ] && ok || bad "export -o into a new folder"
"$BIN" gen -o "$T/o/gen/deep" --edges 4 >/dev/null 2>&1 && ls "$T/o/gen/deep/"*.litmus >/dev/null 2>&1 &&
    ok || bad "gen -o into a new folder"
: >"$T/afile"
for cmd in "litmus --to-herd $T/afile/d litmus/core/SB.litmus" "litmus --show $T/afile/d litmus/core/SB.litmus" \
    "draw nol1 -o $T/afile/x.svg" "export --murphi --protocol nol1 litmus/core/SB.litmus -o $T/afile/x.m" \
    "gen -o $T/afile/d"; do
    # shellcheck disable=SC2086
    "$BIN" $cmd >"$T/out" 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "cannot create folder '$T/afile'" "$T/err" && ok ||
        bad "$cmd under a file: exit $rc, $(cat "$T/err")"
done

echo "folders: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
