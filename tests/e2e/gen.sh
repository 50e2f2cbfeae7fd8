#!/bin/sh
# cohcheck gen: the shipped litmus/gen is exactly what the generator writes
# (cohcheck gen --expect --wg --samewg); every generated cycle is forbidden
# under sc and, with relaxed or plain accesses, allowed under rcpc (so each
# condition is satisfiable and is the cycle's); classic shapes get herd's names
# and agree with the hand-written core tests of those names; bad options exit 2.
# Usage: sh tests/e2e/gen.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
if "$BIN" gen -o "$T/g" --expect --wg --samewg >/dev/null && diff -r "$T/g" litmus/gen >"$T/diff"; then ok; else
    bad "litmus/gen differs from the generator's output: $(head -5 "$T/diff")"
fi
n=$(ls litmus/gen | wc -l)
if "$BIN" litmus --quiet --model sc litmus/gen | grep -q "^Summary: $n tests, 1 model: sc $n Never 0 Sometimes 0 Always"; then ok; else
    bad "some generated cycle is allowed under sc"
fi
mkdir "$T/weak"
"$BIN" gen -o "$T/weak" --annot plain,rlx >/dev/null
w=$(ls "$T/weak" | wc -l)
if "$BIN" litmus --quiet --model rcpc "$T/weak" | grep -q "^Summary: $w tests, 1 model: rcpc 0 Never $w Sometimes 0 Always"; then ok; else
    bad "some plain or relaxed cycle is not satisfiable under rcpc"
fi
for t in MP SB LB S R 2+2W WRC RWC ISA2 IRIW MP+rel+acq; do
    a=$("$BIN" litmus --json "litmus/core/$t.litmus" | sed 's/.*"model":"\([^"]*\)".*"observation":"\([a-z]*\)".*"racy":\([a-z]*\).*/\1 \2 \3/')
    b=$("$BIN" litmus --json "litmus/gen/$t.litmus" | sed 's/.*"model":"\([^"]*\)".*"observation":"\([a-z]*\)".*"racy":\([a-z]*\).*/\1 \2 \3/')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "gen $t disagrees with core $t"; fi
done
if "$BIN" gen --list --edges 4 --annot plain | tail -n 1 | grep -q '^6 tests$' &&
    "$BIN" gen --list --edges 4 --annot plain | grep -q '^MP  *PodWW Rfe PodRR Fre$'; then ok; else
    bad "gen --list --edges 4: the six two-thread shapes"
fi
# --procs N bounds a test's litmus threads; the old spelling --threads N works with one
# deprecation line; --json gives one object per test and a summary object.
a=$("$BIN" gen --list --edges 5 --procs 2 | tail -n 1)
b=$("$BIN" gen --list --edges 5 --threads 2 2>"$T/dep" | tail -n 1)
c=$("$BIN" gen --list --edges 5 | tail -n 1)
if [ "$a" = "$b" ] && [ "$a" != "$c" ] && [ "$(wc -l <"$T/dep")" -eq 1 ] && grep -q 'deprecated, use --procs N' "$T/dep"; then ok; else
    bad "gen --procs / --threads: '$a' '$b' '$c' $(cat "$T/dep")"
fi
"$BIN" gen --json -o "$T/j" --edges 4 --annot plain >"$T/j.out" 2>&1
if [ "$(grep -c '^{"test":' "$T/j.out")" -eq 6 ] && tail -n 1 "$T/j.out" | grep -q "^{\"tests\":6,\"out\":\"$T/j\"}$" &&
    [ "$(grep -vc '^{' "$T/j.out")" -eq 0 ] && [ "$(ls "$T/j" | wc -l)" -eq 6 ]; then ok; else bad "gen --json: $(cat "$T/j.out")"; fi
for args in "" "-o $T/x --edges 9" "-o $T/x --procs 1" "-o $T/x --annot bogus" "--list extra"; do
    # shellcheck disable=SC2086
    "$BIN" gen $args >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then ok; else bad "gen $args: exit $rc"; fi
done
echo "gen: $pass passed, $fail failed"
[ $fail -eq 0 ]
