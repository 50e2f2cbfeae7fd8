#!/bin/sh
# Concurrency (make test-fault): 4 writers (check --db, one of them --threads 2) and
# 4 readers (show, trace, diff, store check) on one store for FAULT_SECONDS (20) s.
# Every command must succeed (waiting for locks is allowed: the busy timeout), and
# no reader may see a half-written run: store check finds every run marked done
# complete while the writers go on, and show lists no finished run with 0 states.
# Usage: sh tests/fault/concurrent.sh   (from the repo root)
. tests/fault/lib.sh
SECS=${FAULT_SECONDS:-20}
DB=$T/c.db
L=litmus/core
"$NB" check --db "$DB" --protocol gpu-wt $L/MP.litmus $L/MP.litmus >/dev/null 2>&1
end=$(($(date +%s) + SECS))

# worker NAME EXPECTED_RC CMD...: run CMD until the deadline; a wrong exit is a problem.
worker() {
    name=$1 want=$2
    shift 2
    i=0
    while [ "$(date +%s)" -lt $end ]; do
        i=$((i + 1))
        "$@" >"$T/$name.out" 2>"$T/$name.err"
        rc=$?
        if [ $rc -ne "$want" ] || sanitizer_report "$T/$name.err"; then
            echo "$name #$i: exit $rc (want $want): $(head -c 300 "$T/$name.err") $(grep PROBLEMS "$T/$name.out")" >>"$T/problems"
        fi
        if grep -q '"status":"done"' "$T/$name.out" && grep '"status":"done"' "$T/$name.out" | grep -q '"states":0,'; then
            echo "$name #$i: a finished run with 0 states" >>"$T/problems"
        fi
    done
    echo "$i" >"$T/$name.n"
}
worker w1 0 "$NB" check --db "$DB" --protocol gpu-wt --env fetch $L/MP+rel+acq+guard.litmus &
worker w2 0 "$NB" check --db "$DB" --protocol gpu-wt $L/SB.litmus $L/IRIW.litmus &
worker w3 1 "$NB" check --db "$DB" --protocol gpu-wt-noinv --env fetch $L/MP+rel+acq+guard.litmus &
worker w4 0 "$NB" check --db "$DB" --threads 2 --protocol gpu-wt $L/IRIW.litmus &
worker show 0 "$NB" show --db "$DB" --json &
worker trace 0 "$NB" trace --db "$DB" 1 5 &
worker diff 0 "$NB" diff --db "$DB" 1 2 &
worker check 0 "$NB" store check --no-replay --quiet "$DB" &
wait
total=0
for w in w1 w2 w3 w4 show trace diff check; do
    total=$((total + $(cat "$T/$w.n")))
done
nprob=0
[ -s "$T/problems" ] && nprob=$(wc -l <"$T/problems") && head -n 5 "$T/problems"
i=0
while [ $i -lt "$nprob" ]; do
    tally inconsistent
    i=$((i + 1))
done
"$NB" store check --quiet "$DB" >"$T/final" 2>&1 || problem inconsistent "final store check: $(tail -n 2 "$T/final")"
echo "  $SECS s: $total commands (w1 $(cat "$T/w1.n"), w2 $(cat "$T/w2.n"), w3 $(cat "$T/w3.n"), w4 $(cat "$T/w4.n"), show $(cat "$T/show.n"), trace $(cat "$T/trace.n"), diff $(cat "$T/diff.n"), store check $(cat "$T/check.n")), $nprob failed; $(tail -n 1 "$T/final")"
summary concurrent
