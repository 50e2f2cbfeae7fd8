#!/bin/sh
# SPIN's count of the benchmark graph equals cohcheck's (make test-full; skipped without
# spin): tests/bench/gpu-wt-sb.pml under spin -a, cc -O2 -DSAFETY -DNOREDUCE (exact
# storage), pan must store exactly cohcheck's 1,184,433 states and count its 5,404,354
# transitions, with no error; with -DFORBID_11 (an outcome SC allows made an assertion)
# pan must fail, so the outcome check is live.
# Usage: sh tests/e2e/spin.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
if ! command -v spin >/dev/null 2>&1; then
    echo "spin.sh: spin is not installed (Debian: apt-get install spin): skipped"
    exit 0
fi
"$BIN" check --no-db --no-por --no-symmetry --json --protocol gpu-wt --init warm --env all litmus/core/SB+sc.litmus \
    >"$T/coh.json"
nc=$(grep -o '"states":[0-9]*' "$T/coh.json" | cut -d: -f2)
tc=$(grep -o '"transitions":[0-9]*' "$T/coh.json" | cut -d: -f2)
if [ "$nc $tc" = "1184433 5404354" ] && grep -q '"verdict":"ok"' "$T/coh.json"; then ok; else
    bad "cohcheck on the benchmark graph: $nc states, $tc transitions (want 1184433 5404354)"
fi
cp tests/bench/gpu-wt-sb.pml "$T/"
# pan DEFINES...: build and run the verifier; its output in $T/pan.out
pan() {
    (cd "$T" && spin "$@" -a gpu-wt-sb.pml >gen.log 2>&1 &&
        ${CC:-cc} -O2 -DSAFETY -DNOREDUCE -o pan pan.c >>gen.log 2>&1 &&
        ./pan -m100000 -w21 >pan.out 2>&1)
}
if ! pan; then
    bad "spin: the model does not build or run: $(tail -3 "$T/gen.log") $(tail -3 "$T/pan.out" 2>/dev/null)"
else
    ns=$(grep -o '[0-9]* states, stored' "$T/pan.out" | awk '{print $1}')
    ts=$(grep -o '[0-9]* transitions (= stored+matched)' "$T/pan.out" | awk '{print $1}')
    if grep -q 'errors: 0' "$T/pan.out" && [ "$ns" = "$nc" ] && [ "$ts" = "$tc" ]; then
        ok
        echo "  gpu-wt SB+sc --init warm --env all: $ns states, $ts transitions (cohcheck = SPIN)"
    else
        bad "spin: ${ns:-?} states stored, ${ts:-?} transitions; cohcheck $nc, $tc: $(grep -m1 'errors:' "$T/pan.out")"
    fi
fi
pan -DFORBID_11
if grep -q 'assertion violated' "$T/pan.out" && ! grep -q 'errors: 0' "$T/pan.out"; then ok; else
    bad "spin -DFORBID_11: the outcome assertion never fails: $(grep -m1 'errors:' "$T/pan.out")"
fi
echo "spin.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
