#!/bin/sh
# MPI benchmark (figures, never assertions): the benchmark graph (gpu-wt, SB+sc,
# --init warm --env all: 1,184,433 states) explored by one process, then by
# `mpirun -np N cohcheck check --mpi` with N = 1, 2, 4 on this machine, best wall
# time of BENCH_RUNS (default 3) each. Prints a markdown table with states/s and the
# communication each run reports (docs/distributed.md derives the expected speed-up
# on a cluster from it). Usage: sh tests/bench/mpi.sh ./cohcheck
BIN=${1:-./cohcheck}
RUNS=${BENCH_RUNS:-3}
TEST=litmus/core/SB+sc.litmus
ARGS="--no-por --protocol gpu-wt --init warm --env all" # the full benchmark graph
if ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi benchmark skipped: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
    exit 0
fi
if "$BIN" check --mpi --no-db --protocol nol1 litmus/core/SB.litmus 2>&1 >/dev/null |
    grep -q 'built without MPI'; then
    echo "mpi benchmark skipped: $BIN was built without MPI"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cohmpi.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
now() { date +%s.%N; }
jf() { grep -o "\"$2\":[0-9.]*" "$1" | head -1 | cut -d: -f2; }
GTIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %U -o "$TMP/probe" true 2>/dev/null; then
    GTIME=/usr/bin/time
fi
# run NAME CMD...: best of $RUNS by wall time (mpirun's start included); $TMP/NAME.out
# holds the best run's JSON, $TMP/NAME.w its wall seconds and $TMP/NAME.c the CPU
# seconds of every rank together (user + system; NA without GNU time).
run() {
    name=$1
    shift
    best=""
    for i in $(seq "$RUNS"); do
        t0=$(now)
        c=NA
        if [ -n "$GTIME" ]; then
            "$GTIME" -f '%U %S' -o "$TMP/t" "$@" </dev/null >"$TMP/o" 2>/dev/null
            c=$(tail -1 "$TMP/t" | awk '{print $1 + $2}')
        else
            "$@" </dev/null >"$TMP/o" 2>/dev/null
        fi
        t1=$(now)
        w=$(awk "BEGIN {print $t1 - $t0}")
        if [ -z "$best" ] || [ "$(awk "BEGIN {print ($w < $best)}")" -eq 1 ]; then
            best=$w
            cp "$TMP/o" "$TMP/$name.out"
            echo "$c" >"$TMP/$name.c"
        fi
    done
    echo "$best" >"$TMP/$name.w"
}
run serial "$BIN" check --no-db --json $ARGS "$TEST"
for np in 1 2 4; do
    run np$np mpirun --oversubscribe -np $np "$BIN" check --mpi --json $ARGS "$TEST"
done
echo
echo "MPI benchmark: gpu-wt, $TEST, --init warm --env all ($(nproc) cores, best of $RUNS)"
echo "| run | states | transitions | wall s | explore s | states/s (explore) | speed-up | CPU s (all ranks) | messages | bytes sent | successors sent | bytes/state |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
base=$(jf "$TMP/serial.out" time_s)
for name in serial np1 np2 np4; do
    f=$TMP/$name.out
    if ! grep -q '"verdict":"ok"' "$f"; then
        echo "| $name | run failed: $(head -c 200 "$f") |"
        continue
    fi
    case $name in
    serial) what="one process (no --mpi)" ;;
    *) what="mpirun -np ${name#np} --mpi" ;;
    esac
    n=$(jf "$f" states)
    tr=$(jf "$f" transitions)
    t=$(jf "$f" time_s)
    w=$(cat "$TMP/$name.w")
    c=$(cat "$TMP/$name.c")
    msg=$(jf "$f" messages)
    by=$(jf "$f" bytes_sent)
    ctl=$(jf "$f" control_bytes)
    ss=$(jf "$f" successors_sent)
    awk -v what="$what" -v n="$n" -v tr="$tr" -v w="$w" -v t="$t" -v b="$base" -v m="${msg:-0}" \
        -v by="${by:-0}" -v ctl="${ctl:-0}" -v ss="${ss:-0}" -v c="$c" 'BEGIN {
        printf "| %s | %d | %d | %.2f | %.2f | %.0f | %.2fx | %s | %d | %d | %d | %.1f |\n",
            what, n, tr, w, t, n / t, b / t, c, m, by + ctl, ss, (by + ctl) / n }'
done
