#!/bin/sh
# Benchmarks (figures, never assertions): time to evaluate the whole litmus
# suite under all six models, and under SC alone, best of 3 runs each.
BIN=${1:-./cohcheck}
SUITE=${SUITE:-litmus/core}
now() { date +%s.%N; }
best() { # best of 3 wall-clock seconds for "$@"
    b=""
    for i in 1 2 3; do
        t0=$(now)
        "$@" >/dev/null 2>&1
        t1=$(now)
        t=$(awk "BEGIN {print $t1 - $t0}")
        if [ -z "$b" ] || [ "$(awk "BEGIN {print ($t < $b)}")" -eq 1 ]; then b=$t; fi
    done
    printf '%.3f' "$b"
}
ntests=$(find $SUITE -name '*.litmus' | wc -l)
all=$(best "$BIN" litmus --json "$SUITE")
sc=$(best "$BIN" litmus --json --model sc "$SUITE")
cands=$("$BIN" litmus --json "$SUITE" | grep -o '"candidates":[0-9]*' | awk -F: '{s+=$2} END {print s/6}')
echo "cohcheck litmus benchmark ($(nproc) cores)"
echo "| what | tests | models | candidate executions | seconds (best of 3) |"
echo "|---|---|---|---|---|"
echo "| $SUITE, all six models | $ntests | 6 | $cands | $all |"
echo "| $SUITE, sc only | $ntests | 1 | $cands | $sc |"

# ---- State-space exploration (issue 3): cohcheck with and without the store, and the
# same system modelled in Murphi (tests/bench/gpu-wt-sb.m) checked by Rumur, one thread.
# Configuration: gpu-wt, SB+sc, --init warm, --env all, 2 CUs (1,184,433 states).
# BENCH_RUNS (default 3): runs per tool; the best wall time is reported, peak RSS is the
# largest seen. Needs GNU time (/usr/bin/time) for peak RSS; Rumur part skipped without rumur.
RUNS=${BENCH_RUNS:-3}
SSTEST=litmus/core/SB+sc.litmus
SSARGS="--no-por --protocol gpu-wt --init warm --env all" # the full graph: Rumur's count
HERE=$(dirname "$0")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cohbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
GTIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$TMP/probe" true 2>/dev/null; then
    GTIME=/usr/bin/time
fi
# measure NAME CMD...: run CMD $RUNS times (PRE, if set, is run before each); leaves
# $TMP/NAME.out (stdout+stderr of the best run) and $TMP/NAME.m: "wall cpu rss_kb".
measure() {
    name=$1
    shift
    bw=""
    brss=0
    for i in $(seq "$RUNS"); do
        [ -n "$PRE" ] && eval "$PRE"
        if [ -n "$GTIME" ]; then
            "$GTIME" -f '%e %U %S %M' -o "$TMP/t" "$@" >"$TMP/o" 2>&1
            read -r w u s rss <<EOT
$(tail -1 "$TMP/t")
EOT
            c=$(awk "BEGIN {print $u + $s}")
        else
            t0=$(now)
            "$@" >"$TMP/o" 2>&1
            t1=$(now)
            w=$(awk "BEGIN {print $t1 - $t0}")
            c=NA
            rss=0
        fi
        if [ "$rss" -gt "$brss" ]; then brss=$rss; fi
        if [ -z "$bw" ] || [ "$(awk "BEGIN {print ($w < $bw)}")" -eq 1 ]; then
            bw=$w
            bc=$c
            cp "$TMP/o" "$TMP/$name.out"
        fi
    done
    echo "$bw $bc $brss" >"$TMP/$name.m"
}
jfield() { grep -o "\"$2\":[0-9.]*" "$1" | head -1 | cut -d: -f2; }
# row TOOL WHAT STATES TRANS NAME EXPLORER_BYTES
row() {
    read -r w c rss <"$TMP/$5.m"
    awk -v tool="$1" -v what="$2" -v n="$3" -v tr="$4" -v w="$w" -v c="$c" -v rss="$rss" \
        -v eb="$6" 'BEGIN {
        rs = rss > 0 ? sprintf("%.1f", rss / 1024) : "n/a"
        bps = rss > 0 ? sprintf("%.0f", rss * 1024 / n) : "n/a"
        ebs = eb != "" ? sprintf("%.0f", eb / n) : "n/a"
        cs = c != "NA" ? sprintf("%.2f", c) : "n/a"
        cps = c != "NA" && c > 0 ? sprintf("%.0f", n / c) : "n/a"
        printf "| %s | %s | %d | %d | %.2f | %s | %.0f | %s | %s | %s | %s |\n",
            tool, what, n, tr, w, cs, n / w, cps, rs, bps, ebs }'
}

echo
echo "state-space benchmark: gpu-wt, $SSTEST, --init warm --env all, 2 CUs ($(nproc) cores, best of $RUNS)"
PRE=""
measure nodb "$BIN" check --no-db --json $SSARGS "$SSTEST"
PRE='rm -f "$TMP/bench.db" "$TMP/bench.db-wal" "$TMP/bench.db-shm"'
measure db "$BIN" check --db "$TMP/bench.db" --json $SSARGS "$SSTEST"
dbsize=$(wc -c <"$TMP/bench.db")
PRE=""
for f in nodb db; do
    if ! grep -q '"verdict":"ok"' "$TMP/$f.out"; then
        echo "cohcheck did not finish with verdict ok ($f):"
        tail -5 "$TMP/$f.out"
        exit 1
    fi
done
n0=$(jfield "$TMP/nodb.out" states)
t0=$(jfield "$TMP/nodb.out" transitions)
n1=$(jfield "$TMP/db.out" states)
t1=$(jfield "$TMP/db.out" transitions)
have_rumur=0
if command -v rumur >/dev/null 2>&1; then
    if rumur --threads 1 --deadlock-detection stuck "$HERE/gpu-wt-sb.m" -o "$TMP/gpu-wt-sb.c" \
        >"$TMP/gen.log" 2>&1 &&
        ${CC:-cc} -O3 -o "$TMP/gpu-wt-sb" "$TMP/gpu-wt-sb.c" -lpthread >>"$TMP/gen.log" 2>&1; then
        measure rumur "$TMP/gpu-wt-sb"
        nr=$(grep -o '[0-9]* states, [0-9]* rules fired' "$TMP/rumur.out" | awk '{print $1}')
        rr=$(grep -o '[0-9]* states, [0-9]* rules fired' "$TMP/rumur.out" | awk '{print $3}')
        if grep -q 'No error found' "$TMP/rumur.out" && [ -n "$nr" ]; then
            have_rumur=1
        else
            echo "Rumur's verifier reported an error:"
            tail -20 "$TMP/rumur.out"
        fi
    else
        echo "could not build the Rumur verifier:"
        tail -20 "$TMP/gen.log"
    fi
else
    echo "rumur is not installed (Debian: apt-get install rumur): Rumur comparison skipped"
fi
echo "| tool | run | states | transitions / rules fired | wall s | CPU s | states/s (wall) | states/CPU-s | peak RSS MiB | bytes/state (RSS) | bytes/state (explorer) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
row cohcheck "--no-db" "$n0" "$t0" nodb "$(jfield "$TMP/nodb.out" bytes)"
row cohcheck "--db (store)" "$n1" "$t1" db "$(jfield "$TMP/db.out" bytes)"
if [ "$have_rumur" -eq 1 ]; then
    row "Rumur $(rumur --version 2>/dev/null | awk '{print $NF}')" "--threads 1" "$nr" "$rr" rumur ""
fi
read -r w0 c0 m0 <"$TMP/nodb.m"
read -r w1 c1 m1 <"$TMP/db.m"
eb=$(jfield "$TMP/nodb.out" bytes)
om=$(grep -o '"omission":[0-9.e+-]*' "$TMP/nodb.out" | head -1 | cut -d: -f2)
awk -v w0="$w0" -v w1="$w1" -v c0="$c0" -v c1="$c1" -v m0="$m0" -v m1="$m1" -v d="$dbsize" \
    -v n="$n1" -v eb="$eb" -v om="$om" 'BEGIN {
    printf "store cost: %+.0f%% wall time (target: under +25%%), %s CPU time, %+.0f%% peak RSS; database %.1f MiB (%.0f bytes/state)\n",
        (w1 / w0 - 1) * 100, (c0 != "NA" ? sprintf("%+.0f%%", (c1 / c0 - 1) * 100) : "n/a"),
        (m0 > 0 ? (m1 / m0 - 1) * 100 : 0), d / 1048576, d / n
    printf "bytes/state (--no-db): %s by peak RSS, %.1f by the explorer'"'"'s own count (target: at most 24)\n",
        (m0 > 0 ? sprintf("%.1f", m0 * 1024 / n) : "n/a"), eb / n
    printf "hash compaction: 64-bit fingerprints, probability that a collision hid a state <= %s\n", om }'
if [ "$have_rumur" -eq 1 ]; then
    read -r wr cr mr <"$TMP/rumur.m"
    awk -v n0="$n0" -v nr="$nr" -v t0="$t0" -v rr="$rr" -v w0="$w0" -v wr="$wr" -v c0="$c0" \
        -v cr="$cr" 'BEGIN {
        printf "states: %s (cohcheck %d, Rumur %d); transitions: cohcheck %d = Rumur rules fired %d + %d initial states\n",
            (n0 == nr ? "identical" : "DIFFERENT"), n0, nr, t0, rr, t0 - rr
        printf "cohcheck --no-db states/s = %.2fx Rumur single-threaded by wall time, %s by CPU time (target: 5x)\n",
            (n0 / w0) / (nr / wr), (c0 != "NA" && cr != "NA" ? sprintf("%.2fx", cr / c0) : "n/a") }'
fi

# ---- The model lattice (issue 14): litmus/core under every model of models/lattice (the
# budget is 1 s), and under ptx alone (the costliest model).
lat=$(grep -v '^#' models/lattice | grep '^model' | head -1 | cut -d' ' -f2-)
latargs=""
nlat=0
for m in $lat; do latargs="$latargs --model $m"; nlat=$((nlat + 1)); done
# shellcheck disable=SC2086
lall=$(best "$BIN" litmus --json $latargs "$SUITE")
lptx=$(best "$BIN" litmus --json --model ptx "$SUITE")
echo "| $SUITE, every lattice model | $ntests | $nlat | $cands | $lall |"
echo "| $SUITE, ptx only | $ntests | 1 | $cands | $lptx |"

# ---- SPIN, Rumur and cohcheck side by side on the benchmark graph (issue 11 part 5).
sh "$HERE/spin.sh" "$BIN"
sh tests/bench/sim.sh "$BIN"
sh "$HERE/threads.sh" "$BIN"
# ---- --liveness (issue 26): its cost against a plain check.
sh "$HERE/liveness.sh" "$BIN"
# ---- Partial-order reduction (issue 11): the --por reduction factor on MP, SB, IRIW.
sh tests/bench/por.sh "$BIN"
# ---- The reductions per protocol on the hard shapes (issue 30): states with and without.
sh tests/bench/por_shapes.sh "$BIN"

# ---- Distributed search on MPI (issue 11): 1 process, -np 1, 2 and 4 on the graph above.
sh "$HERE/mpi.sh" "$BIN"
