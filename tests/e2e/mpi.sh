#!/bin/sh
# Distributed search (check --mpi, docs/distributed.md): on 2 and 4 ranks of this one
# machine (mpirun --oversubscribe), every case must print exactly what one process
# prints with --json (states, transitions, outcomes, verdict, message, the whole trace,
# depth) and exit with the same code; rank 0 alone prints. MPI_FULL=1 (make test-full)
# adds the benchmark graph's pinned count. Skipped, with a message, without mpirun or a
# cohcheck built without MPI. Usage: sh tests/e2e/mpi.sh ./cohcheck
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
D=tests/e2e/data
if ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi: SKIPPED (no mpirun: apt-get install openmpi-bin libopenmpi-dev, then rebuild)"
    exit 0
fi
if "$BIN" check --mpi --no-db --protocol nol1 litmus/core/SB.litmus 2>&1 >/dev/null |
    grep -q 'built without MPI'; then
    echo "mpi: SKIPPED ($BIN was built without MPI)"
    exit 0
fi
# Open MPI refuses to run as root unless told; these are ignored otherwise.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# The fields that differ by nature: time, memory, the communication figures.
strip() { sed 's/"time_s":[0-9.]*//; s/,"bytes":[0-9]*//; s/,"mpi":{[^}]*}//' "$1"; }

# same NAME ARGS...: one process, then 2 and 4 ranks; identical JSON and exit code. Both
# sides run with $POR (default --no-por: the full graph; --por: the reduced graph, which
# the ranks explore where the reduction needs no cycle proviso).
POR=--no-por
same() {
    name=$1
    shift
    "$BIN" check --no-db --json $POR "$@" >"$T/one" 2>"$T/one.err"
    want=$?
    strip "$T/one" >"$T/one.s"
    if [ ! -s "$T/one.s" ]; then
        bad "$name: one process printed nothing (exit $want)"
        return
    fi
    for np in 2 4; do
        mpirun --oversubscribe -np $np "$BIN" check --mpi --json $POR "$@" </dev/null \
            >"$T/m$np" 2>"$T/m$np.err"
        got=$?
        strip "$T/m$np" >"$T/m$np.s"
        if [ "$got" -ne "$want" ]; then
            bad "$name -np $np: exit $got, one process $want"
            sed 's/^/    err: /' "$T/m$np.err" | head -5
        elif ! cmp -s "$T/one.s" "$T/m$np.s"; then
            bad "$name -np $np: output differs from one process"
            diff "$T/one.s" "$T/m$np.s" | cut -c1-300 | head -6
        elif ! grep -q "\"mpi\":{\"ranks\":$np," "$T/m$np"; then
            bad "$name -np $np: no mpi object with $np ranks"
        else
            ok
        fi
    done
}

# expect NAME PATTERN: the one-process output of the last `same` matched PATTERN (so
# the cases stay what their names say: a failure kind, a count, a trace length).
expect() {
    if grep -Eq -- "$2" "$T/one"; then ok; else bad "$1: '$2' not in $(cut -c1-200 "$T/one")"; fi
}

G=litmus/core
# Fast part (make test): one case per failure kind and limit, on 2 and 4 ranks.
# Proved, with environment actions (34 levels, thousands of messages).
same ok-env-all --protocol gpu-wt --env all $G/MP+rel+acq+guard.litmus
expect ok-env-all '"states":146446,"transitions":619500,.*"verdict":"ok"'
# Refuted: a violation with its shortest trace; the other failure kinds.
same viol-sc --protocol gpu-wt --model sc --init warm --env all $G/SB.litmus
expect viol-sc '"states":30598,"transitions":101746,.*"verdict":"violation"'
same deadlock --protocol $D/bad-deadlock.proto $G/RMW-add2.litmus
expect deadlock '"verdict":"deadlock"'
same unexpected --protocol $D/bad-unexpected.proto $G/MP+rel+acq.litmus
expect unexpected '"verdict":"unexpected".*FAILS'
same invariant --protocol $D/bad-invariant.proto $G/2+2W.litmus
expect invariant '"states":10,"transitions":13,.*"verdict":"invariant"'
same livelock --protocol $D/bad-livelock.proto $D/fence-ld.litmus
expect livelock '"verdict":"deadlock","message":"no execution terminates'
# Limits: --max-states stops where one process stops (exit 3), --max-depth too.
same max-states --protocol gpu-wt --env all --max-states 1000 $G/MP+rel+acq+guard.litmus
expect max-states '"states":1000,"transitions":2303,.*"verdict":"incomplete"'
same max-depth --protocol gpu-wt --max-depth 5 $G/MP+rel+acq+guard.litmus
expect max-depth '"states":20,"transitions":30,.*"verdict":"incomplete".*"depth":5,'
# --max-time: every rank stops at the end of the same level, named in the message.
mpirun --oversubscribe -np 2 "$BIN" check --no-db --json --mpi --protocol denovo --init warm \
    --env all --max-time 1 $G/RWC+rel+acqs.litmus </dev/null >"$T/one" 2>"$T/err"
rc=$?
if [ $rc -eq 3 ]; then
    expect max-time '"verdict":"incomplete","message":"stopped by --max-time after [0-9]+ states"'
else
    bad "mpi --max-time 1: exit $rc, $(cut -c1-200 "$T/one") $(head -c 200 "$T/err")"
fi

# --por (the default): the same reduced graph as one process, where no cycle proviso is
# needed: counts, por_reduced, verdicts, traces, the --max-states cut.
POR=--por
same por-ok --protocol gpu-wt --init warm --env all $G/SB+sc.litmus
expect por-ok '"states":7246,"transitions":13902,.*"verdict":"ok".*"por":true,"por_reduced":6974'
same por-viol --protocol gpu-wt-noinv --env fetch $G/MP+rel+acq+guard.litmus
expect por-viol '"states":2187,"transitions":3329,.*"verdict":"violation"'
same por-cut --protocol gpu-wt --init warm --env all --max-states 20000 $G/IRIW.litmus
expect por-cut '"states":20000,.*"verdict":"incomplete"'
same por-nol1 --protocol nol1 --init warm --env all $G/IRIW+sc.litmus
expect por-nol1 '"verdict":"ok".*"por":true'
# --symmetry (docs/por.md, "Symmetry"): every rank canonicalises before hashing to the
# owner, and reports each outcome's orbit: one process's --symmetry run.
same sym-por --symmetry --protocol gpu-wt --cus 4 --init warm $G/MP.litmus
expect sym-por '"states":2320,"transitions":2816,.*"verdict":"ok".*"por":true.*"name":"symmetry","applied":true'
POR=--no-por
same sym-ok --symmetry --protocol gpu-wt litmus/workloads/SPM_G.litmus
expect sym-ok '"states":122,"transitions":222,.*"verdict":"ok".*"name":"symmetry","applied":true'
same sym-viol --symmetry --protocol denovo-nofwd --cus 4 $G/RMW-add2.litmus
expect sym-viol '"states":26,"transitions":42,.*"verdict":"violation".*"trace":\["initial state'
same sym-cut --symmetry --protocol gpu-wt --cus 4 --init warm --max-states 1000 $G/MP.litmus
expect sym-cut '"states":1000,"transitions":1226,.*"verdict":"incomplete"'
# A test with a loop needs the cycle proviso: the ranks explore the full graph, say so
# ("por":false and why), and give one process's --no-por counts.
mpirun --oversubscribe -np 2 "$BIN" check --mpi --json --no-db --protocol gpu-wt \
    $G/MP+rel+acq+spin.litmus </dev/null >"$T/pv" 2>/dev/null
"$BIN" check --no-db --json --no-por --protocol gpu-wt $G/MP+rel+acq+spin.litmus >"$T/pv1"
if grep -q '"por":false,"por_off":"--mpi: cycles of steps are possible' "$T/pv" &&
    [ "$(grep -o '"states":[0-9]*,"transitions":[0-9]*' "$T/pv")" = \
        "$(grep -o '"states":[0-9]*,"transitions":[0-9]*' "$T/pv1")" ]; then
    ok
else
    bad "--mpi with a loop: $(cut -c1-300 "$T/pv")"
fi

# Rank 0 alone prints: one line per test, text output included.
mpirun --oversubscribe -np 4 "$BIN" check --mpi --protocol gpu-wt $G/SB+sc.litmus </dev/null \
    >"$T/txt" 2>&1
if [ "$(grep -c '^gpu-wt SB+sc' "$T/txt")" -eq 1 ] && grep -q '^  mpi: 4 ranks' "$T/txt"; then
    ok
else
    bad "text output: not one result line from rank 0: $(head -3 "$T/txt")"
fi

# Usage errors: exit 2 and one clear line (from rank 0 only).
# usage NAME PATTERN NP ARGS... (NP 1: without mpirun)
usage() {
    name=$1 pat=$2 np=$3
    shift 3
    if [ "$np" -eq 1 ]; then
        "$BIN" check --mpi "$@" </dev/null >"$T/u" 2>"$T/u.err"
    else
        mpirun --oversubscribe -np "$np" "$BIN" check --mpi "$@" </dev/null >"$T/u" 2>"$T/u.err"
    fi
    got=$?
    if [ "$got" -eq 2 ] && [ "$(grep -c -- "$pat" "$T/u.err")" -eq 1 ]; then
        ok
    else
        bad "$name: exit $got (want 2), '$pat' once in: $(head -3 "$T/u.err")"
    fi
}
usage mpi-jobs '-j with --mpi' 1 -j 2 --protocol gpu-wt $G/SB.litmus
usage mpi-dfs '--dfs with --mpi' 1 --dfs --protocol gpu-wt $G/SB.litmus
usage mpi-db '--db with --mpi' 1 --db "$T/x.db" --protocol gpu-wt $G/SB.litmus
usage mpi-threads '--threads with --mpi' 1 --threads 2 --protocol gpu-wt $G/SB.litmus
usage mpi-fingerprint '--fingerprint 96|128 and --queue-memory' 1 --fingerprint 128 \
    --protocol gpu-wt $G/SB.litmus
usage mpi-queue-memory '--fingerprint 96|128 and --queue-memory' 1 --queue-memory 64M \
    --protocol gpu-wt $G/SB.litmus
usage mpi-bad-file 'no-such.litmus' 4 --protocol gpu-wt "$T/no-such.litmus"
[ ! -e "$T/x.db" ] && ok || bad "mpi-db: a store was created"
[ ! -e cohcheck.db ] || [ cohcheck.db -ot "$T/one" ] && ok || bad "--mpi wrote cohcheck.db"

# A single process started without mpirun is one rank.
"$BIN" check --mpi --json --no-por --protocol gpu-wt $G/SB+sc.litmus >"$T/single" 2>&1
if grep -q '"states":208,"transitions":457,.*"mpi":{"ranks":1,' "$T/single"; then
    ok
else
    bad "singleton --mpi: $(head -c 300 "$T/single")"
fi

if [ -n "$MPI_FULL" ]; then
    # More protocols and failures, several tests in one run, and the benchmark graph
    # (tests/bench/run.sh): 1,184,433 states on every rank count.
    same viol-fetch --protocol gpu-wt-noinv --env fetch $G/MP+rel+acq+guard.litmus
    expect viol-fetch '"states":24661,"transitions":82944,.*"verdict":"violation"'
    same viol-rcc --protocol rcc --init warm --env evict,l2evict $G/CAS-lock+fences.litmus
    expect viol-rcc '"states":36584,"transitions":114680,.*"verdict":"violation"'
    same viol-tcw --protocol tcw-nogwct --init warm $G/MP+rel+acq.litmus
    expect viol-tcw '"states":16214,"transitions":52707,.*"verdict":"violation"'
    same declared-invariant --protocol $D/bad-declared-invariant.proto $G/MP+rel+acq.litmus
    expect declared-invariant '"states":1,"transitions":1,.*"verdict":"invariant"'
    same max-states-viol --protocol gpu-wt-noinv --env fetch --max-states 20000 \
        $G/MP+rel+acq+guard.litmus
    expect max-states-viol '"states":20000,.*"verdict":"incomplete"'
    # --max-states at the edges: below the initial states (warm caches), and one state
    # either side of where the violation is found.
    same max-states-init --protocol gpu-wt-noinv --init warm --max-states 3 \
        $G/MP+rel+acq+guard.litmus
    expect max-states-init '"states":3,.*"verdict":"incomplete"'
    same max-states-edge --protocol gpu-wt-noinv --env fetch --max-states 24660 \
        $G/MP+rel+acq+guard.litmus
    expect max-states-edge '"states":24660,.*"verdict":"incomplete"'
    same max-states-at --protocol gpu-wt-noinv --env fetch --max-states 24661 \
        $G/MP+rel+acq+guard.litmus
    expect max-states-at '"states":24661,.*"verdict":"violation"'
    same several --protocol gpu-wt --init warm $G/MP.litmus $G/SB+sc.litmus $G/IRIW+sc.litmus
    expect several 'IRIW\+sc'
    same tcw-wrc --protocol tcw --init warm $G/WRC+rel+acqs+guards.litmus
    expect tcw-wrc '"states":189285,"transitions":872806,.*"verdict":"violation"'
    same bench-graph --protocol gpu-wt --init warm --env all $G/SB+sc.litmus
    expect bench-graph '"states":1184433,"transitions":5404354,.*"verdict":"ok".*"depth":32,'
fi

echo "mpi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
