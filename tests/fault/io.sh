#!/bin/sh
# I/O faults (make test-fault): SQLite's file calls fail through the fault build's
# VFS shim (read, write, sync, lock: every call of each kind in turn, once, and from
# it on), and so do the spilled BFS queue's reads and writes. Each run must exit 2
# or 3 with one line (or recover exactly); the store must pass store check (SQLite's
# integrity_check included), show no dead run as running, and its interrupted runs
# must resume to the fault-free counts. Usage: sh tests/fault/io.sh (from the repo root)
. tests/fault/lib.sh
K=${FAULT_SAMPLES:-24}
L=litmus/core

# scenario NAME KINDS DB TEMPLATE ARGS...: as alloc.sh's, for each KIND of I/O call.
scenario() {
    name=$1 kinds=$2 db=$3 tpl=$4
    shift 4
    fresh() {
        rm -f "$db" "$db-wal" "$db-shm"
        [ "$tpl" = - ] || cp "$tpl" "$db"
    }
    [ "$db" = - ] && db=$T/none.db
    fresh
    COHCHECK_FAULT_LOG=$T/base.log "$FB" "$@" >"$T/base.out" 2>"$T/base.err"
    brc=$?
    base=$T/base.json
    : >"$base"
    [ -s "$db" ] && "$NB" show --db "$db" --json >"$base" 2>/dev/null
    summary_line="  $name:"
    for kind in $kinds; do
        n=$(sed -n "s/^count.* $kind \\([0-9]*\\).*/\\1/p" "$T/base.log" | tail -n 1)
        [ -n "$n" ] || n=0
        i=0
        for f in $(samples "$n" "$K"); do
            # Lasting lock failures wait out the 10 s busy timeout: the first sample only.
            first=$((i == 0))
            for m in once lasting; do
                mode=
                if [ $m = lasting ]; then
                    [ "$kind" = lock ] && [ $first = 0 ] && continue
                    mode=+
                fi
                i=$((i + 1))
                fresh
                rm -f "$T/f.log"
                COHCHECK_FAULT_LOG=$T/f.log COHCHECK_FAULT_IO=$kind:$f$mode "$FB" "$@" \
                    >"$T/f.out" 2>"$T/f.err"
                judge "$name $kind:$f$mode" $? "$T/f.out" "$T/f.err" "$T/f.log" "$brc" "$T/base.out" &&
                    grep -q '^fired' "$T/f.log" && store_ok "$name $kind:$f$mode" "$db" "$base"
            done
        done
        summary_line="$summary_line $kind $n calls ($i injected)"
    done
    rm -f "$T/base.log"
    echo "$summary_line"
}

MSG_LINES=2 # two tests: a line for each that fails
scenario "check --db" "read write sync lock" "$T/a.db" - check --db "$T/a.db" --protocol gpu-wt $L/MP.litmus $L/SB.litmus
MSG_LINES=1
scenario "check --db, 2738 states" "read write sync lock" "$T/a.db" - check --db "$T/a.db" --protocol gpu-wt --env fetch $L/MP+rel+acq+guard.litmus
"$NB" check --db "$T/tpl.db" --protocol gpu-wt --env fetch --max-states 1500 $L/MP+rel+acq+guard.litmus >/dev/null 2>&1
scenario "resume" "read write sync lock" "$T/a.db" "$T/tpl.db" resume --db "$T/a.db" 1
scenario "check, spilled queue" "spill" - - check --no-db --queue-memory 1 --protocol rsp-invfirst --env fetch $L/scoped-MP+wg+rm_agent+diffwg.litmus
summary io
