#!/bin/sh
# --liveness end to end (docs/liveness.md): the JSON of a livelock and a starvation, the
# lasso in the store (draw --trace draws its cycle, resume finishes a stopped run with the
# same verdict), the options' errors and refusals (exit 2), and the pinned sweep of the
# correct protocols over litmus/core (tests/e2e/liveness.tab or $LIVENESS_TAB, with LIVENESS_SWEEP=1 or
# under make test-full). Verdicts and counts of single tests are pinned in check.tab.
# Usage: sh tests/e2e/liveness.sh ./cohcheck   (from the repository root)
BIN=${1:-./cohcheck}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}
C=litmus/core

# 1. A livelock's JSON: verdict, exit 1, the lasso (prefix 4 steps, a 1-step cycle), por off.
out=$("$BIN" check --no-db --json --liveness --protocol rcc "$C/MP+rel+acq+spin.litmus")
rc=$?
[ $rc -eq 1 ] && ok || bad "rcc livelock: exit $rc"
for pat in '"verdict":"livelock"' '"lasso":{"prefix":4,"cycle":1,"ids":\[' '"env_only":false' \
    '"stuck_states":14' '"por":false' '"por_off":"--liveness explores the full graph' \
    '"liveness":"checked","fairness":"weak"' 'cycle: the next 1 step'; do
    printf '%s' "$out" | grep -q -- "$pat" && ok || bad "rcc livelock JSON lacks $pat"
done

# 2. Broken only by an environment event; --env-fair names it and the test passes.
out=$("$BIN" check --no-db --json --liveness --env evict --protocol gpu-wt-rlxhit "$C/MP+rlx+spin.litmus")
printf '%s' "$out" | grep -q '"env_only":true,"breaking_env":"evict"' && ok || bad "rlxhit env_only: $out"
"$BIN" check --no-db --liveness --env-fair evict --protocol gpu-wt-rlxhit "$C/MP+rlx+spin.litmus" >/dev/null
[ $? -eq 0 ] && ok || bad "rlxhit --env-fair evict should pass"
# Without --liveness the broken variant passes: only the liveness check refutes it.
"$BIN" check --no-db --protocol gpu-wt-rlxhit "$C/MP+rlx+spin.litmus" >/dev/null && ok ||
    bad "rlxhit without --liveness should pass"

# 3. Starvation: which thread, under which fairness; --fairness none checks AG EF only.
out=$("$BIN" check --no-db --json --liveness --protocol tcs "$C/MP+rel+acq+spin.litmus")
printf '%s' "$out" | grep -q '"verdict":"starvation".*"starved_thread":0' && ok || bad "tcs starvation: $out"
out=$("$BIN" check --no-db --liveness --fairness none --protocol tcs "$C/MP+rel+acq+spin.litmus")
[ $? -eq 0 ] && ok || bad "tcs --fairness none: $out"

# 4. The store: the cycle is recorded, drawn and resumed.
DB="$T/l.db"
"$BIN" check --db "$DB" --liveness --protocol tcs litmus/liveness/MP+rel+acq+spin2.litmus --fairness strong >"$T/full" 2>&1
[ $? -eq 1 ] && ok || bad "tcs spin2 strong: $(head -2 "$T/full")"
"$BIN" draw --trace 1 --db "$DB" -o "$T/l.dot" && ok || bad "draw --trace of a starvation"
grep -q '\[cycle 1/13\]' "$T/l.dot" && grep -q 'marked \[cycle\] repeat forever' "$T/l.dot" && ok ||
    bad "the drawn lasso has no marked cycle"
"$BIN" check --db "$DB" --liveness --fairness strong --max-states 3000 --protocol tcs \
    litmus/liveness/MP+rel+acq+spin2.litmus >/dev/null 2>&1
[ $? -eq 3 ] && ok || bad "a stopped liveness run exits 3"
"$BIN" resume 2 --db "$DB" >"$T/res" 2>&1
[ $? -eq 1 ] && ok || bad "resume of a liveness run: $(head -3 "$T/res")"
grep -q 'starvation (13172 states, 49983 transitions; resumed run 2 from 3000 states)' "$T/res" && ok ||
    bad "resume: $(head -1 "$T/res")"
grep -q 'under strong fairness: P0 never finishes while the 13-step cycle' "$T/res" && ok ||
    bad "resume's lasso differs: $(sed -n 2p "$T/res")"
"$BIN" draw --trace 2 --db "$DB" -o "$T/r.dot" && grep -q '\[cycle 13/13\]' "$T/r.dot" && ok ||
    bad "draw --trace of the resumed run"

# A bounded search gives no liveness verdict: incomplete, exit 3, "not checked".
out=$("$BIN" check --no-db --json --liveness --max-states 100 --protocol tcs "$C/MP+rel+acq+spin.litmus")
rc=$?
[ $rc -eq 3 ] && printf '%s' "$out" | grep -q '"verdict":"incomplete".*"liveness":"not checked"' && ok ||
    bad "a bounded liveness run: exit $rc, $out"

# 5. DFS and the spilled queue give the same verdicts.
v=$("$BIN" check --no-db --json --liveness --dfs --protocol tcs-inorder litmus/liveness/MP+rel+acq+spin2.litmus |
    grep -o '"verdict":"[a-z]*"')
[ "$v" = '"verdict":"ok"' ] && ok || bad "tcs-inorder --dfs: $v"
out=$("$BIN" check --no-db --json --liveness --queue-memory 300K --protocol gpu-wt --env all \
    "$C/MP+rel+acq+guard.litmus")
printf '%s' "$out" | grep -q '"states":146446,.*"verdict":"ok".*"spilled_bytes":[1-9]' && ok ||
    bad "a spilled liveness run: $(printf '%s' "$out" | cut -c1-200)"

# 6. Bad usage: one line, exit 2.
err() { # NAME PATTERN CMD...
    name=$1 pat=$2
    shift 2
    "$@" >"$T/o" 2>"$T/e"
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pat" "$T/e" && [ "$(wc -l <"$T/e")" -eq 1 ]; then ok; else
        bad "$name: exit $rc, $(cat "$T/e")"
    fi
}
err threads "cannot be used with --threads" "$BIN" check --no-db --liveness --threads 2 --protocol rcc "$C/MP+rel+acq+spin.litmus"
err fair-unknown "no environment event 'tock'" "$BIN" check --no-db --liveness --env-fair tock --protocol rcc "$C/MP+rel+acq+spin.litmus"
err fair-syntax "--env-fair takes" "$BIN" check --no-db --liveness --env-fair 'a b' --protocol rcc "$C/MP+rel+acq+spin.litmus"
err fair-alone "only matters with --liveness" "$BIN" check --no-db --env-fair tick --protocol rcc "$C/MP+rel+acq+spin.litmus"
err fairness-bad "--fairness takes weak, strong or none" "$BIN" check --no-db --liveness --fairness often --protocol rcc "$C/MP+rel+acq+spin.litmus"
err fairness-alone "only matters with --liveness" "$BIN" check --no-db --fairness weak --protocol rcc "$C/MP+rel+acq+spin.litmus"

# 7. regress --liveness: a livelock is a verdict that got worse (exit 1).
"$BIN" regress --liveness gpu-wt gpu-wt-rlxhit "$C/MP+rlx+spin.litmus" >"$T/reg" 2>&1
[ $? -eq 1 ] && grep -q 'ok -> livelock' "$T/reg" && ok || bad "regress --liveness: $(cat "$T/reg")"

# 8. export --murphi --liveness: Rumur's AG EF property agrees (skipped without rumur).
if command -v rumur >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
    for pv in "rcc violated" "tcs-inorder No_error"; do
        set -- $pv
        "$BIN" export --murphi --liveness --protocol "$1" "$C/MP+rel+acq+spin.litmus" -o "$T/$1.m" &&
            rumur --threads 1 --deadlock-detection stuck "$T/$1.m" -o "$T/$1.c" >/dev/null 2>&1 &&
            cc -O1 "$T/$1.c" -o "$T/$1.bin" -lpthread 2>/dev/null
        "$T/$1.bin" >"$T/$1.out" 2>&1
        want=$(echo "$2" | tr _ ' ')
        grep -q "$want" "$T/$1.out" && ok || bad "rumur liveness on $1: $(tail -3 "$T/$1.out")"
    done
else
    echo "liveness: rumur or cc not found: the Murphi liveness cross-check is skipped"
fi

# 9. The sweep (tests/e2e/liveness.tab): every correct protocol on litmus/core, cold and warm,
# summarised as verdict counts; long, so only on request (make test-full).
if [ "${LIVENESS_SWEEP:-0}" = 1 ]; then
    while read -r proto init want; do
        case "$proto" in '' | '#'*) continue ;; esac
        got=$("$BIN" check --no-db --json --liveness --init "$init" --max-states 300000 \
            --max-memory 2G --protocol "$proto" "$C" 2>/dev/null | grep -o '"verdict":"[a-z]*"' |
            cut -d'"' -f4 | LC_ALL=C sort | uniq -c | awk '{printf "%s%s=%s", (NR > 1 ? "," : ""), $2, $1}')
        [ "$got" = "$want" ] && ok || bad "sweep $proto $init: got $got, want $want"
    done <"${LIVENESS_TAB:-tests/e2e/liveness.tab}"
fi
echo "liveness: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
