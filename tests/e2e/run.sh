#!/bin/sh
# End-to-end tests of the cohcheck binary: outputs, JSON, exit codes and error
# messages. Usage: sh tests/e2e/run.sh ./cohcheck   (run from the repo root)
BIN=${1:-./cohcheck}
D=tests/e2e/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# check NAME EXPECTED_EXIT PATTERN_FILE(stdout|stderr) GREP_PATTERN -- CMD...
check() {
    name=$1 want=$2 stream=$3 pat=$4
    shift 4
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    ok=1
    [ "$got" -eq "$want" ] || ok=0
    if [ -n "$pat" ]; then
        f="$T/out"; [ "$stream" = stderr ] && f="$T/err"
        grep -Eq -- "$pat" "$f" || ok=0
    fi
    if [ $ok -eq 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $got (want $want), pattern '$pat' in $stream"
        sed 's/^/    out: /' "$T/out" | head -20
        sed 's/^/    err: /' "$T/err" | head -5
    fi
}

# Exactly one line on stderr, and nothing on stdout.
one_line_err() {
    name=$1
    shift
    "$@" >"$T/out" 2>"$T/err"
    if [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: want one error line and no output"
        sed 's/^/    err: /' "$T/err" | head -5
    fi
}

check help 0 stdout 'litmus' "$BIN" --help
check no-args 2 stderr 'usage' "$BIN"
check unknown-cmd 2 stderr "unknown command 'bogus'" "$BIN" bogus
check litmus-help 0 stdout '--unroll' "$BIN" litmus --help
check litmus-no-paths 2 stderr 'at least one test' "$BIN" litmus
check litmus-bad-option 2 stderr 'unknown option' "$BIN" litmus --bogus $D/sb.litmus
check missing-path 2 stderr 'no-such.litmus: no such file' "$BIN" litmus no-such.litmus

# Text output, herd7-style.
check mp-rcsc 0 stdout '^Observation MP\+rel\+acq Never 0 3$' "$BIN" litmus --model rcsc $D/mp-rel-acq.litmus
check mp-states 0 stdout '^States 3$' "$BIN" litmus --model rcsc $D/mp-rel-acq.litmus
check sb-sc 0 stdout '^Observation SB Never 0 3$' "$BIN" litmus --model sc $D/sb.litmus
check sb-rcsc 0 stdout '^Observation SB Sometimes 1 3$' "$BIN" litmus --model rcsc $D/sb.litmus
check sb-ok-line 0 stdout '^Ok$' "$BIN" litmus --model rcsc $D/sb.litmus
check mp-drf-racy 0 stdout '^Racy yes' "$BIN" litmus --model drf $D/mp-rel-acq.litmus
check default-six 0 stdout '^Model hrf-indirect$' "$BIN" litmus $D/sb.litmus

# JSON: one object per test and model, normative fields.
"$BIN" litmus --json $D/sb.litmus >"$T/json" 2>&1
check json-lines 0 stdout '^6$' sh -c "wc -l <'$T/json' | tr -d ' '"
check json-fields 0 stdout '"test":"SB".*"model":"rcsc".*"outcomes":\[\{"0:r0":0,"1:r1":0,"x":1,"y":1\}.*"observation":"sometimes".*"racy":false' cat "$T/json"
check json-drf 0 stdout '"model":"drf".*"observation":"never".*"racy":true' cat "$T/json"

# Filters, limits, unrolling.
check filter-hit 0 stdout 'Test SB' "$BIN" litmus --model sc --filter '^S' $D/sb.litmus $D/mp-rel-acq.litmus
check filter-miss 0 stdout '^0$' sh -c "'$BIN' litmus --model sc --filter '^S' $D/mp-rel-acq.litmus | grep -c Test || true"
check filter-bad 2 stderr 'bad regular expression' "$BIN" litmus --filter '(' $D/sb.litmus
check max-candidates 3 stdout 'Incomplete' "$BIN" litmus --model sc --max-candidates 1 $D/sb.litmus
check unroll-cut 0 stdout 'Unroll 0 cut off' "$BIN" litmus --model sc --unroll 0 $D/spin.litmus
check unroll-zero 0 stdout '^States 1$' "$BIN" litmus --model sc --unroll 0 $D/spin.litmus
check unroll-two 0 stdout '^Observation spin Always 1 0$' "$BIN" litmus --model sc $D/spin.litmus
check unroll-loop-prefix 0 stdout '^Loop Ok$' "$BIN" litmus --model sc --unroll 0 $D/spin.litmus
check notexists-witnesses 0 stdout '^Positive: 3 Negative: 0$' "$BIN" litmus --model sc $D/sb-notexists.litmus
check notexists-observation 0 stdout '^Observation SB-notexists Never 0 3$' "$BIN" litmus --model sc $D/sb-notexists.litmus
check unroll-bad 2 stderr 'unroll needs a whole number' "$BIN" litmus --unroll x $D/sb.litmus

# Expectations.
check expect-mismatch 1 stdout 'FAIL wrong-expect sc: expected sometimes, got never' "$BIN" litmus --expect $D/wrong-expect.litmus
check expect-summary 1 stdout '^0 passed, 1 failed$' "$BIN" litmus --expect $D/wrong-expect.litmus
check expect-missing 1 stdout 'no \(\* expect' "$BIN" litmus --expect $D/sb.litmus
check expect-summary-line 1 stdout '^Summary: 1 test, 1 model: sc 1 Never 0 Sometimes 0 Always; 1 --expect mismatch; [0-9.]+ s$' "$BIN" litmus --expect $D/wrong-expect.litmus

# The summary line ends the text output; --quiet prints only it.
check summary-last 0 stdout '' sh -c "\"$BIN\" litmus --model sc --model rcpc $D/sb.litmus | tail -n 1 | grep -Eq '^Summary: 1 test, 2 models: sc [0-9]+ Never [0-9]+ Sometimes [0-9]+ Always; rcpc [0-9]+ Never [0-9]+ Sometimes [0-9]+ Always; [0-9.]+ s$'"
check quiet-only-summary 0 stdout '' sh -c "test \"\$(\"$BIN\" litmus --quiet litmus/core | wc -l)\" -eq 1 && \"$BIN\" litmus --quiet litmus/core | grep -Eq '^Summary: [0-9]+ tests, 6 models: sc '"
check json-no-summary 0 stdout '' sh -c "! \"$BIN\" litmus --json --model sc $D/sb.litmus | grep -q Summary"

# Bad input: one FILE:LINE:COL line, exit 2.
check bad-instr 2 stderr "^cohcheck: $D/bad-instr.litmus:4:5: order 'acq' is not allowed on st$" "$BIN" litmus $D/bad-instr.litmus
one_line_err bad-instr-one-line "$BIN" litmus $D/bad-instr.litmus
check bad-cond 2 stderr "bad-cond.litmus:5:9: condition names thread 3" "$BIN" litmus $D/bad-cond.litmus
check bad-model-type 2 stderr "bad-type.cat:2:[0-9]+: " "$BIN" litmus --model $D/bad-type.cat $D/sb.litmus
one_line_err bad-model-one-line "$BIN" litmus --model $D/bad-type.cat $D/sb.litmus
check bad-model-syntax 2 stderr "bad-syntax.cat:[0-9]+:[0-9]+: " "$BIN" litmus --model $D/bad-syntax.cat $D/sb.litmus
check unknown-model 2 stderr "unknown model 'nope'" "$BIN" litmus --model nope $D/sb.litmus

# A user-written model, no recompiling: TSO-like allows SB.
check user-model 0 stdout '^Observation SB Sometimes 1 3$' "$BIN" litmus --model $D/tso-like.cat $D/sb.litmus
check user-model-mp 0 stdout '^Observation MP\+rel\+acq Never 0 3$' "$BIN" litmus --model $D/tso-like.cat $D/mp-rel-acq.litmus

# check -j N: same results, in the same order, as one at a time.
"$BIN" check --no-db --protocol gpu-wt --init warm litmus/core/MP+rel+acq+guard.litmus litmus/core/SB+sc.litmus \
    litmus/core/CoRR.litmus litmus/core/MP+fences.litmus | sed 's/, [0-9.]* s)$//' >"$T/j1"
"$BIN" check --no-db -j 2 --protocol gpu-wt --init warm litmus/core/MP+rel+acq+guard.litmus litmus/core/SB+sc.litmus \
    litmus/core/CoRR.litmus litmus/core/MP+fences.litmus | sed 's/, [0-9.]* s)$//' >"$T/j2"
check jobs-same 0 stdout '' cmp "$T/j1" "$T/j2"
check jobs-bad 2 stderr '-j needs' "$BIN" check --no-db -j 0 --protocol nol1 litmus/core/SB.litmus
check lines-bad 2 stderr '--lines needs' "$BIN" check --no-db --lines 0 --protocol nol1 litmus/core/SB.litmus
check check-no-protocol 2 stderr 'protocol is required' "$BIN" check litmus/core/SB.litmus
check check-unknown-protocol 2 stderr "unknown protocol 'nope'" "$BIN" check --no-db --protocol nope litmus/core/SB.litmus
check check-bad-param 2 stderr 'wbufx' "$BIN" check --no-db --protocol gpu-wt --param wbufx=1 litmus/core/SB.litmus
# --max-depth (--no-por: counts of the full graph): states at the bound are checked, not expanded; incomplete (exit 3) when
# something lies beyond it, ok with the full counts (52 states) when nothing does; a
# deadlock at the bound is still one.
check max-depth-cut 3 stdout '"states":20,"transitions":30,.*"verdict":"incomplete".*"depth":5,' \
    "$BIN" check --no-db --json --no-por --protocol gpu-wt --max-depth 5 litmus/core/MP+rel+acq+guard.litmus
check max-depth-outcomes 3 stdout '"states":51,.*"outcomes":\[\{"1:r0":0,"1:r1":0,"x":1,"y":1\}\]' \
    "$BIN" check --no-db --json --no-por --protocol gpu-wt --max-depth 13 litmus/core/MP+rel+acq+guard.litmus
check max-depth-enough 0 stdout '"states":52,"transitions":84,.*"verdict":"ok"' \
    "$BIN" check --no-db --json --no-por --protocol gpu-wt --max-depth 14 litmus/core/MP+rel+acq+guard.litmus
check max-depth-deadlock 1 stdout 'deadlock \(3 states, 4 transitions, depth 2' \
    "$BIN" check --no-db --no-por --max-depth 2 --protocol $D/bad-deadlock.proto litmus/core/RMW-add2.litmus
check max-depth-bad 2 stderr '--max-depth needs' "$BIN" check --no-db --max-depth 0 --protocol nol1 litmus/core/SB.litmus
check count-json 0 stdout '^\{"protocol":"gpu-wt","controllers":\[\{"controller":"L1","stable":2,"transient":2,"coherent":0,"transitions":32,"branches":30,"published":\[\]\},\{"controller":"L2","stable":1,"transient":0,"coherent":0,"transitions":5,"branches":5,"published":\[\]\}\]\}$' "$BIN" count --json gpu-wt
check count-bad 2 stderr 'bad-syntax' "$BIN" count tests/e2e/data/bad-syntax.cat
check outstanding-unsupported 2 stderr "'outstanding 2' is not supported" "$BIN" check --no-db --protocol tests/e2e/data/outstanding2.proto litmus/core/SB.litmus

# A protocol under which no execution terminates (a fence that never completes) is a
# failure, never "ok": reported as a deadlock (livelock) with a trace, exit 1.
check livelock 1 stdout '^  no execution terminates: every path runs forever' \
    "$BIN" check --no-db --protocol $D/bad-livelock.proto $D/fence-ld.litmus
check livelock-json 1 stdout '"verdict":"deadlock".*"trace":\["initial state' \
    "$BIN" check --no-db --json --protocol $D/bad-livelock.proto $D/fence-ld.litmus

echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
