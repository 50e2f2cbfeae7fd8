#!/bin/sh
# The shared progress line (checker/cli/cli_out.c): drawn on a terminal by every
# long-running command (check, classify, regress, mutate, gen, report, report
# timed), never
# when stderr is piped, and never mixed into stdout. A terminal is faked with
# script(1) (util-linux; the test skips, saying so, without it).
# COHCHECK_PROGRESS_EVERY=0 draws at every update, so short runs show it too.
# Usage: sh tests/e2e/progress.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
if ! command -v script >/dev/null 2>&1; then
    echo "progress: skipped: no script(1) to fake a terminal (apt-get install bsdutils)"
    exit 0
fi
BINA=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
C=litmus/core
export COHCHECK_PROGRESS_EVERY=0
# on_tty NAME PATTERN ARGS...: under a terminal the output has PATTERN after a \r.
on_tty() {
    name=$1 pat=$2
    shift 2
    script -qec "$BINA $*" /dev/null </dev/null >"$T/tty" 2>&1
    if tr '\r' '\n' <"$T/tty" | grep -Eq "^$pat"; then ok; else
        bad "$name: no progress line '$pat' on a terminal: $(tr '\r' '\n' <"$T/tty" | head -3)"
    fi
}
# piped NAME ARGS...: with stderr piped there is no progress and no \r anywhere.
piped() {
    name=$1
    shift
    # shellcheck disable=SC2086
    "$BINA" "$@" >"$T/out" 2>"$T/err"
    if ! grep -q "$(printf '\r')" "$T/out" "$T/err"; then ok; else bad "$name: progress written to a pipe"; fi
}
on_tty "check" 'check: [A-Za-z0-9+.-]+: [0-9]+ states, [0-9]+ states/s, queue' \
    check --no-db --protocol gpu-wt --init warm --env all $C/IRIW.litmus --max-states 200000
on_tty "check -j 2" 'check: [0-9]+/[0-9]+ \([0-9]+%\), [0-9.]+ s, 2 at once' \
    check --no-db -j 2 --protocol nol1 $C/SB.litmus $C/MP.litmus $C/LB.litmus
on_tty "classify" 'classify: [0-9]+/3 \([0-9]+%\)' classify --protocol nol1 $C/SB.litmus $C/MP.litmus $C/LB.litmus
on_tty "regress" 'regress: [0-9]+/3 \([0-9]+%\)' regress nol1 nol1 $C/SB.litmus $C/MP.litmus $C/LB.litmus
on_tty "mutate" 'mutate: [0-9]+/[0-9]+ \([0-9]+%\)' mutate --protocol nol1 --only 1-3 $C/SB.litmus
on_tty "gen" 'gen: [0-9]+/6 \([0-9]+%\)' gen -o "$T/g" --edges 4 --annot plain
on_tty "report" 'report: [0-9]+/2 \([0-9]+%\)' report --out "$T/r" --protocols nol1,gpu-wt --settings cold --suite $C/SB.litmus
on_tty "report timed" 'report timed: [0-9]+/60 \([0-9]+%\), [0-9.]+ s, hs-mutex-local' \
    report timed --quick --seeds 1 --only hs-mutex-local --out "$T/rt"
piped "check" check --no-db --protocol gpu-wt --init warm --env all $C/IRIW.litmus --max-states 200000
piped "check -j 2" check --no-db -j 2 --protocol nol1 $C/SB.litmus $C/MP.litmus
piped "classify" classify --protocol nol1 $C/SB.litmus $C/MP.litmus
piped "regress" regress nol1 nol1 $C/SB.litmus $C/MP.litmus
piped "mutate" mutate --protocol nol1 --only 1-3 $C/SB.litmus
piped "gen" gen -o "$T/g2" --edges 4 --annot plain
piped "report" report --out "$T/r2" --protocols nol1 --settings cold --suite $C/SB.litmus
piped "report timed" report timed --quick --seeds 1 --only hs-mutex-local --out "$T/rt2"
# --json on a terminal: no progress either.
script -qec "$BINA classify --json --protocol nol1 $C/SB.litmus $C/MP.litmus" /dev/null </dev/null >"$T/tty" 2>&1
if ! grep -q 'classify: [0-9]' "$T/tty"; then ok; else bad "classify --json drew progress"; fi
script -qec "$BINA report timed --json --quick --seeds 1 --only hs-mutex-local --out $T/rt3" /dev/null </dev/null >"$T/tty" 2>&1
if ! grep -q 'report timed: [0-9]' "$T/tty" && grep -q '^{"out":' "$T/tty"; then ok; else
    bad "report timed --json drew progress: $(head -c 300 "$T/tty")"
fi
echo "progress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
