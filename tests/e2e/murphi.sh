#!/bin/sh
# cohcheck export --murphi, fast tier: every protocol exports on a test, the
# output is deterministic and (when rumur is installed) parses; bad input exits
# 2 with one error line and leaves no file behind; one small model is run by
# Rumur and must reach exactly cohcheck's number of states.
# The state-count cross-check on every protocol is tests/e2e/murphi-counts.sh
# (make test-full). Usage: sh tests/e2e/murphi.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh

have_rumur=0
if command -v rumur >/dev/null 2>&1 && command -v murphi2xml >/dev/null 2>&1; then
    have_rumur=1
else
    echo "murphi.sh: rumur is not installed: skipping the parse and run checks (apt-get install rumur)"
fi
# parses FILE.m: Rumur's front end (murphi2xml, from the rumur package: parsing and type
# checking without generating the verifier, which takes seconds per model)
parses() {
    murphi2xml "$1" >/dev/null 2>"$T/err"
}

# Every protocol, cold, on a two-thread test; warm with every environment action on
# the shipped ones' message-passing test.
for f in protocols/*.proto; do
    p=$(basename "$f" .proto)
    for opts in "" "--init warm --env all"; do
        if ! "$BIN" export --murphi --protocol "$p" $opts litmus/core/MP.litmus -o "$T/$p.m" \
            2>"$T/err"; then
            bad "export $p $opts: $(cat "$T/err")"
            continue
        fi
        "$BIN" export --murphi --protocol "$p" $opts litmus/core/MP.litmus -o "$T/$p.2.m"
        if cmp -s "$T/$p.m" "$T/$p.2.m"; then ok; else bad "export $p $opts: not deterministic"; fi
        if [ $have_rumur = 1 ]; then
            if parses "$T/$p.m"; then
                ok
            else
                bad "rumur rejects the export of $p $opts: $(head -3 "$T/err")"
            fi
        fi
    done
done

# A model with loops, registers and RMWs parses too.
for t in litmus/core/CAS-spinlock.litmus litmus/core/CoRMWR1.litmus; do
    "$BIN" export --murphi --protocol gpu-wt "$t" -o "$T/loop.m" 2>"$T/err" || bad "export $t: $(cat "$T/err")"
    if [ $have_rumur = 1 ]; then
        parses "$T/loop.m" && ok ||
            bad "rumur rejects the export of $t: $(head -3 "$T/err")"
    fi
done

# '-' writes to standard output; the header names the command and the configuration.
out=$("$BIN" export --murphi --protocol nol1 --init warm --env evict litmus/core/SB.litmus -o -)
case "$out" in
*"cohcheck export --murphi --protocol nol1 --init warm --env evict"*"--init warm --env evict"*) ok ;;
*) bad "export -o -: header lacks the command or the configuration" ;;
esac

# The outcomes the model allows become an invariant on terminal states: the protocol's
# target by default (nol1: sc), --model M, none for a racy test under drf (it constrains
# no outcome) and none with --no-outcomes.
"$BIN" export --murphi --protocol nol1 litmus/core/SB.litmus -o "$T/sc.m"
"$BIN" export --murphi --protocol nol1 --model drf litmus/core/SB.litmus -o "$T/drf.m"
"$BIN" export --murphi --protocol nol1 --model rcsc litmus/core/SB.litmus -o "$T/rcsc.m"
"$BIN" export --murphi --protocol nol1 --no-outcomes litmus/core/SB.litmus -o "$T/none.m"
if grep -q 'invariant "every terminal outcome is allowed by sc"' "$T/sc.m" &&
    [ "$(grep -c '^  if true &' "$T/sc.m")" = 3 ] &&
    [ "$(grep -c '^  if true &' "$T/rcsc.m")" = 4 ] &&
    ! grep -q 'allowed by' "$T/drf.m" && ! grep -q 'allowed by' "$T/none.m"; then
    ok
else
    bad "export: the outcome invariant (target, --model, drf, --no-outcomes)"
fi
if [ $have_rumur = 1 ]; then
    parses "$T/sc.m" && ok || bad "rumur rejects --model sc: $(head -3 "$T/err")"
fi

# Bad input: exit 2, one line on stderr, no output file (not even a partial one).
bad_input() { # bad_input WHAT ARGS...: the export must fail with exit 2 and write nothing
    what=$1
    shift
    rm -f "$T/bad.m"
    "$BIN" export "$@" -o "$T/bad.m" >"$T/out" 2>"$T/err"
    rc=$?
    lines=$(wc -l <"$T/err")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -e "$T/bad.m" ] && ! ls "$T"/bad.m.tmp* >/dev/null 2>&1; then
        ok
    else
        bad "export $what: exit $rc, $lines error lines, file $(ls "$T"/bad.m* 2>/dev/null)"
    fi
}
printf 'LITMUS broken\n{ x = 0; }\nP0 ;\n st x 1 ;\nexists (\n' >"$T/broken.litmus"
bad_input "without --murphi" --protocol nol1 litmus/core/SB.litmus
bad_input "without --protocol" --murphi litmus/core/SB.litmus
bad_input "unknown protocol" --murphi --protocol no-such-protocol litmus/core/SB.litmus
bad_input "missing test" --murphi --protocol nol1 "$T/missing.litmus"
bad_input "two tests" --murphi --protocol nol1 litmus/core/SB.litmus litmus/core/MP.litmus
bad_input "broken test" --murphi --protocol nol1 "$T/broken.litmus"
bad_input "too few CUs" --murphi --protocol nol1 --cus 1 litmus/core/SB.litmus
bad_input "unknown env event" --murphi --protocol nol1 --env nosuchevent litmus/core/SB.litmus
bad_input "bad --init" --murphi --protocol nol1 --init hot litmus/core/SB.litmus
bad_input "unknown param" --murphi --protocol gpu-wt --param nosuch=1 litmus/core/SB.litmus
bad_input "unknown option" --murphi --protocol nol1 --frobnicate litmus/core/SB.litmus
bad_input "unknown model" --murphi --protocol nol1 --model nosuchmodel litmus/core/SB.litmus
bad_input "--model with --no-outcomes" --murphi --protocol nol1 --model sc --no-outcomes litmus/core/SB.litmus
# the error of a broken test names its position
"$BIN" export --murphi --protocol nol1 "$T/broken.litmus" -o "$T/bad.m" 2>"$T/err"
if grep -q "broken.litmus:[0-9]*:[0-9]*: " "$T/err"; then ok; else bad "broken test: $(cat "$T/err")"; fi
# an existing file is left as it was when the export fails
echo keep >"$T/keep.m"
"$BIN" export --murphi --protocol nol1 --cus 1 litmus/core/SB.litmus -o "$T/keep.m" 2>/dev/null
if [ "$(cat "$T/keep.m")" = keep ]; then ok; else bad "a failed export overwrote its output"; fi

# One model run end to end: Rumur's state count is cohcheck's.
if [ $have_rumur = 1 ] && command -v cc >/dev/null 2>&1; then
    "$BIN" export --murphi --protocol nol1 litmus/core/SB.litmus -o "$T/run.m"
    want=$("$BIN" check --no-db --json --no-por --no-symmetry --protocol nol1 litmus/core/SB.litmus |
        sed 's/.*"states":\([0-9]*\).*/\1/')
    if rumur --quiet --threads 1 --deadlock-detection stuck "$T/run.m" -o "$T/run.c" &&
        cc -O1 "$T/run.c" -o "$T/run" -lpthread 2>/dev/null && "$T/run" >"$T/run.out"; then
        got=$(grep -A2 'State Space Explored' "$T/run.out" | grep -o '[0-9]* states' | cut -d' ' -f1)
        if [ "$got" = "$want" ] && [ "$want" = 69 ]; then ok; else bad "nol1 SB: rumur $got states, cohcheck $want (pinned 69)"; fi
    else
        bad "nol1 SB: the Rumur model did not run: $(tail -3 "$T/run.out" 2>/dev/null)"
    fi
fi

# bash completion offers the subcommand and its options.
if command -v bash >/dev/null 2>&1; then
    comp() { # comp WANT WORDS...: completing the last word offers WANT
        want=$1
        shift
        bash -c '. docs/cohcheck.bash-completion; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cohcheck; printf "%s\n" "${COMPREPLY[@]}"' \
            _ "$@" | grep -qx -- "$want"
    }
    comp export cohcheck exp && ok || bad "completion: export"
    comp --murphi cohcheck export --mu && ok || bad "completion: --murphi"
    comp nol1-nowait cohcheck export --protocol nol1- && ok || bad "completion: protocol"
    comp check cohcheck che && ok || bad "completion: other subcommands"
fi

echo "murphi.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
