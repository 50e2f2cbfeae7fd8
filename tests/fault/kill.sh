#!/bin/sh
# kill -9 campaign (make test-fault): `check --db` is killed at FAULT_KILLS (50) random
# points (seeded by FAULT_SEED), every third trial with the spilled queue; in every
# fourth trial (1, 5, 9, ...) the first `resume` is killed too (at least 5 kills during resume).
# After each kill the killed run must show "interrupted" (never "running") and the
# store must pass store check; resumed to the end, the run must equal an
# uninterrupted one: states, transitions, verdict, trace (cohcheck trace), outcomes
# and visited states (cohcheck diff). Uses the normal build (NB).
# Usage: sh tests/fault/kill.sh   (from the repo root)
. tests/fault/lib.sh
KILLS=${FAULT_KILLS:-50}
ARGS="--protocol rsp-invfirst --env fetch litmus/core/scoped-MP+wg+rm_agent+diffwg.litmus"
# The reference: an uninterrupted run, run 1 of every trial's store.
# shellcheck disable=SC2086
"$NB" check --db "$T/ref.db" $ARGS >/dev/null 2>&1
s0=$(date +%s%N)
# shellcheck disable=SC2086
"$NB" check --no-db $ARGS >/dev/null 2>&1
ms=$((($(date +%s%N) - s0) / 1000000 + 50)) # a run's length: kill points lie in 0..1.3x
row() { "$NB" show --db "$1" --json "$2" | sed 's/"run":[0-9]*,"started":"[^"]*",//; s/"pid":[0-9]*,"host":"[^"]*",//; s/,"seconds":[^,]*//'; }
want=$(row "$T/ref.db" 1)

# killat MS CMD...: start CMD, kill -9 it after MS milliseconds; true if it was killed.
killat() {
    d=$1
    shift
    "$@" >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v d="$d" 'BEGIN { printf "%.3f", d / 1000 }')"
    kill -9 "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    [ $? -eq 137 ]
}

# after_kill LABEL DB: the killed run shows interrupted and the store is consistent.
after_kill() {
    if "$NB" show --db "$2" --json 2>/dev/null | grep -q '"status":"running"'; then
        problem inconsistent "$1: a killed run is shown running"
    elif [ -s "$2" ] && ! "$NB" store check --quiet "$2" >"$T/sc" 2>&1; then
        problem inconsistent "$1: $(tail -n 2 "$T/sc")"
    else
        tally interrupted_ok
    fi
}

kills=0 rkills=0 trial=0 misses=0
while [ $kills -lt "$KILLS" ] || [ $rkills -lt 5 ]; do
    trial=$((trial + 1))
    [ $trial -gt $((KILLS * 3 + 30)) ] && break
    db=$T/t.db
    rm -f "$db" "$db-wal" "$db-shm"
    cp "$T/ref.db" "$db"
    extra=
    [ $((trial % 3)) -eq 0 ] && extra="--queue-memory 1"
    d=$(awk -v s="$SEED" -v t=$trial -v ms=$ms 'BEGIN { srand(s * 1000 + t); print int(rand() * ms * 1.3) }')
    # shellcheck disable=SC2086
    if killat "$d" "$NB" check --db "$db" $extra $ARGS; then
        kills=$((kills + 1))
        tally injected
        tally fired
        after_kill "trial $trial (check killed at $d ms)" "$db"
    else
        misses=$((misses + 1))
    fi
    run=2
    "$NB" show --db "$db" --json 2 >/dev/null 2>&1 || continue # killed before its run began
    if [ $((trial % 4)) -eq 1 ]; then
        d=$(awk -v s="$SEED" -v t=$trial -v ms=$ms 'BEGIN { srand(s * 7919 + t); print int(rand() * ms) }')
        if killat "$d" "$NB" resume --db "$db" $run; then
            kills=$((kills + 1)) rkills=$((rkills + 1))
            tally injected
            tally fired
            after_kill "trial $trial (resume killed at $d ms)" "$db"
        fi
    fi
    if grep -q '"status":"\(interrupted\|stopped\)"' <<EOF2
$(row "$db" $run)
EOF2
    then
        "$NB" resume --db "$db" $run >/dev/null 2>&1
    fi
    got=$(row "$db" $run)
    if [ "$got" != "$want" ]; then
        problem falseok "trial $trial: the resumed run is $got, want $want"
        continue
    fi
    if [ "$("$NB" trace --db "$db" 1 | sed 1d)" != "$("$NB" trace --db "$db" $run | sed 1d)" ]; then
        problem falseok "trial $trial: the resumed run's trace differs"
        continue
    fi
    if ! "$NB" diff --db "$db" 1 $run >"$T/diff" 2>&1; then
        problem falseok "trial $trial: diff: $(tail -n 2 "$T/diff")"
        continue
    fi
    tally equal
    tally resumed
done
c() { grep -cx "$1" "$T/tally"; }
echo "  $trial trials: $kills kills ($rkills during resume, $misses runs ended first); $(c equal) resumed runs equal the uninterrupted one ($want)"
[ $kills -ge "$KILLS" ] && [ $rkills -ge 5 ] || problem falseok "only $kills kills, $rkills during resume"
summary kill
