#!/bin/sh
# Benchmark (figures, never assertions, apart from the counts): one test on 1, 2
# and 4 threads (check --threads N) in one run, on the state-space benchmark
# graph: gpu-wt, SB+sc, --init warm --env all (1,184,433 states). Per thread
# count: the best wall time of BENCH_RUNS runs (default 3) and its CPU time
# (user + system), states/s, the speed-up over one thread and the CPU-time
# overhead (total CPU over one thread's). THREADS (default "1 2 4") picks them.
# Needs GNU time (/usr/bin/time) for CPU time. Usage: sh tests/bench/threads.sh ./cohcheck
BIN=${1:-./cohcheck}
RUNS=${BENCH_RUNS:-3}
COUNTS=${THREADS:-1 2 4}
TEST=litmus/core/SB+sc.litmus
ARGS="--no-por --protocol gpu-wt --init warm --env all" # the full benchmark graph
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cohthreads.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
GTIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %e -o "$TMP/probe" true 2>/dev/null; then
    GTIME=/usr/bin/time
fi
now() { date +%s.%N; }
echo "threads benchmark: gpu-wt, $TEST, --init warm --env all ($(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null), best of $RUNS)"
echo "| threads | states | transitions | wall s | CPU s | states/s (wall) | speed-up | CPU vs 1 thread | explorer MiB |"
echo "|---|---|---|---|---|---|---|---|---|"
w1=""
c1=""
for n in $COUNTS; do
    bw=""
    bc=NA
    for i in $(seq "$RUNS"); do
        if [ -n "$GTIME" ]; then
            # shellcheck disable=SC2086
            "$GTIME" -f '%e %U %S' -o "$TMP/t" "$BIN" check --no-db --json --threads "$n" $ARGS \
                "$TEST" >"$TMP/o" 2>&1
            read -r w u s <"$TMP/t"
            c=$(awk "BEGIN {print $u + $s}")
        else
            t0=$(now)
            # shellcheck disable=SC2086
            "$BIN" check --no-db --json --threads "$n" $ARGS "$TEST" >"$TMP/o" 2>&1
            w=$(awk "BEGIN {print $(now) - $t0}")
            c=NA
        fi
        if ! grep -q '"states":1184433,"transitions":5404354,.*"verdict":"ok"' "$TMP/o"; then
            echo "--threads $n: not the benchmark graph's counts:"
            cut -c1-300 "$TMP/o"
            exit 1
        fi
        if [ -z "$bw" ] || [ "$(awk "BEGIN {print ($w < $bw)}")" -eq 1 ]; then
            bw=$w
            bc=$c
            cp "$TMP/o" "$TMP/best"
        fi
    done
    [ -z "$w1" ] && w1=$bw && c1=$bc
    bytes=$(grep -o '"bytes":[0-9]*' "$TMP/best" | cut -d: -f2)
    awk -v n="$n" -v w="$bw" -v c="$bc" -v w1="$w1" -v c1="$c1" -v b="$bytes" 'BEGIN {
        cs = c != "NA" ? sprintf("%.2f", c) : "n/a"
        co = c != "NA" && c1 != "NA" && c1 > 0 ? sprintf("%.2fx", c / c1) : "n/a"
        printf "| %d | 1184433 | 5404354 | %.2f | %s | %.0f | %.2fx | %s | %.1f |\n",
            n, w, cs, 1184433 / w, w1 / w, co, b / 1048576 }'
done
