#!/bin/sh
# Failing allocations (make test-fault): allocation number n fails, for n = 1..12 and
# FAULT_SAMPLES more spread over each run (lib.sh: samples), in the fault build,
# which counts xmalloc & co., the explorer's tables and SQLite's allocator. Every
# other sample is "n+" (that one and all later ones fail: SQLite's error paths under
# lasting exhaustion). Each run must exit 2 or 3 with one line, or recover exactly;
# its store must stay consistent, and its interrupted runs must resume to the
# fault-free counts. FAULT_SAMPLES=all fails every allocation in turn; FAULT_ONLY=PATTERN
# runs only the scenarios whose name matches. Usage: sh tests/fault/alloc.sh (repo root)
. tests/fault/lib.sh
K=${FAULT_SAMPLES:-24}
L=litmus/core

# scenario NAME K DB TEMPLATE ARGS...: DB "-" for none; TEMPLATE a store copied to DB
# before each run ("-": start empty).
scenario() {
    name=$1 k=$2 db=$3 tpl=$4
    shift 4
    case $name in ${FAULT_ONLY:-*}) ;; *) return ;; esac
    fresh() {
        rm -f "$db" "$db-wal" "$db-shm"
        [ "$tpl" = - ] || cp "$tpl" "$db"
    }
    [ "$db" = - ] && db=$T/none.db
    fresh
    COHCHECK_FAULT_LOG=$T/base.log "$FB" "$@" >"$T/base.out" 2>"$T/base.err"
    brc=$?
    # The last count is the command's own (report's child processes count first).
    n=$(sed -n 's/^count alloc \([0-9]*\).*/\1/p' "$T/base.log" | tail -n 1)
    rm -f "$T/base.log"
    if [ -z "$n" ] || sanitizer_report "$T/base.err"; then
        problem crash "$name: the fault-free run failed (exit $brc): $(tail -n 3 "$T/base.err")"
        return
    fi
    base=$T/base.json
    : >"$base"
    [ -s "$db" ] && "$NB" show --db "$db" --json >"$base" 2>/dev/null
    i=0
    for f in $(samples "$n" "$k"); do
        i=$((i + 1))
        [ $((i % 2)) -eq 0 ] && f="$f+"
        fresh
        rm -f "$T/f.log"
        COHCHECK_FAULT_LOG=$T/f.log COHCHECK_FAULT_ALLOC=$f "$FB" "$@" >"$T/f.out" 2>"$T/f.err"
        judge "$name alloc $f" $? "$T/f.out" "$T/f.err" "$T/f.log" "$brc" "$T/base.out" &&
            grep -q '^fired' "$T/f.log" && store_ok "$name alloc $f" "$db" "$base"
    done
    echo "  $name: $n allocations, $i injected"
}

scenario "litmus folder" "$K" - - litmus --quiet $L
MSG_LINES=2 # two tests: a line for each that fails
scenario "check --db" "$K" "$T/a.db" - check --db "$T/a.db" --protocol gpu-wt $L/MP.litmus $L/SB.litmus
MSG_LINES=1
scenario "check --db --por" "$K" "$T/a.db" - check --db "$T/a.db" --por --protocol gpu-wt --env fetch $L/MP+rel+acq+guard.litmus
scenario "check --db --threads 2" "$K" "$T/a.db" - check --db "$T/a.db" --threads 2 --protocol gpu-wt $L/IRIW.litmus
scenario "check, spilled queue" "$K" - - check --no-db --queue-memory 1 --protocol rsp-invfirst --env fetch $L/scoped-MP+wg+rm_agent+diffwg.litmus
# resume: a stopped run in a template store, resumed under each fault.
"$NB" check --db "$T/tpl.db" --protocol gpu-wt --env fetch --max-states 1500 $L/MP+rel+acq+guard.litmus >/dev/null 2>&1
scenario "resume" "$K" "$T/a.db" "$T/tpl.db" resume --db "$T/a.db" 1
scenario "sim" "$K" - - sim --protocol gpu-wt --workload tests/e2e/data/sim/lock2.litmus
scenario "report" "${FAULT_REPORT_SAMPLES:-6}" - - report --out "$T/rep" --settings cold --suite $L/SB.litmus --max-states 20000 -j 1
summary alloc
