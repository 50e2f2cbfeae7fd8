#!/bin/sh
# The state-space benchmark graph checked by three tools side by side (issue 11 part 5):
# cohcheck --no-db, Rumur --threads 1 (tests/bench/gpu-wt-sb.m) and SPIN
# (tests/bench/gpu-wt-sb.pml): gpu-wt, SB+sc, --init warm, --env all, 2 CUs, 1,184,433
# states. Figures, not assertions (tests/e2e/spin.sh pins SPIN's count).
# SPIN: spin -a; cc -O2 -DSAFETY -DNOREDUCE (exact state storage: no bitstate, no hash
# compaction, no -DCOLLAPSE; no partial-order reduction); pan -m100000 -w21 (DFS, a
# 2^21-slot hash table for 1.2 M states). Not -DHC4: SPIN 6.5.2's hash compaction stores
# 1,167,487 of the 1,184,433 states here (16,946 lost, with -w21, -w24 or -w28). BENCH_RUNS (default 3) runs per tool, best
# wall time; peak RSS by GNU time. Tools that are not installed are skipped.
# Usage: sh tests/bench/spin.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
RUNS=${BENCH_RUNS:-3}
HERE=$(dirname "$0")
TEST=litmus/core/SB+sc.litmus
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cohspin.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
GTIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$TMP/probe" true 2>/dev/null; then
    GTIME=/usr/bin/time
fi
now() { date +%s.%N; }
# measure NAME CMD...: best wall of $RUNS runs; $TMP/NAME.out (that run's output) and
# $TMP/NAME.m: "wall cpu rss_kb" (cpu NA and rss 0 without GNU time).
measure() {
    name=$1
    shift
    bw=""
    brss=0
    for i in $(seq "$RUNS"); do
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
# row TOOL RUN STATES TRANSITIONS NAME
row() {
    read -r w c rss <"$TMP/$5.m"
    awk -v tool="$1" -v what="$2" -v n="$3" -v tr="$4" -v w="$w" -v c="$c" -v rss="$rss" 'BEGIN {
        rs = rss > 0 ? sprintf("%.1f", rss / 1024) : "n/a"
        bps = rss > 0 ? sprintf("%.0f", rss * 1024 / n) : "n/a"
        cs = c != "NA" ? sprintf("%.2f", c) : "n/a"
        cps = c != "NA" && c > 0 ? sprintf("%.0f", n / c) : "n/a"
        printf "| %s | %s | %d | %d | %.2f | %s | %.0f | %s | %s | %s |\n",
            tool, what, n, tr, w, cs, n / w, cps, rs, bps }'
}

echo "SPIN, Rumur and cohcheck on the benchmark graph: gpu-wt, $TEST, --init warm --env all, 2 CUs ($(nproc) cores, best of $RUNS)"
measure coh "$BIN" check --no-db --no-por --no-symmetry --json --protocol gpu-wt --init warm --env all "$TEST"
if ! grep -q '"verdict":"ok"' "$TMP/coh.out"; then
    echo "cohcheck did not finish with verdict ok:"
    tail -5 "$TMP/coh.out"
    exit 1
fi
nc=$(grep -o '"states":[0-9]*' "$TMP/coh.out" | cut -d: -f2)
tc=$(grep -o '"transitions":[0-9]*' "$TMP/coh.out" | cut -d: -f2)

have_rumur=0
if command -v rumur >/dev/null 2>&1; then
    if rumur --threads 1 --deadlock-detection stuck "$HERE/gpu-wt-sb.m" -o "$TMP/r.c" \
        >"$TMP/rgen.log" 2>&1 && ${CC:-cc} -O3 -o "$TMP/r" "$TMP/r.c" -lpthread >>"$TMP/rgen.log" 2>&1; then
        measure rumur "$TMP/r"
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
        tail -20 "$TMP/rgen.log"
    fi
else
    echo "rumur is not installed: Rumur row skipped"
fi

have_spin=0
if command -v spin >/dev/null 2>&1; then
    cp "$HERE/gpu-wt-sb.pml" "$TMP/"
    if (cd "$TMP" && spin -a gpu-wt-sb.pml >sgen.log 2>&1 &&
        ${CC:-cc} -O2 -DSAFETY -DNOREDUCE -o pan pan.c >>sgen.log 2>&1); then
        measure spin "$TMP/pan" -m100000 -w21
        ns=$(grep -o '[0-9]* states, stored' "$TMP/spin.out" | awk '{print $1}')
        ts=$(grep -o '[0-9]* transitions (= stored+matched)' "$TMP/spin.out" | awk '{print $1}')
        if grep -q 'errors: 0' "$TMP/spin.out" && [ -n "$ns" ]; then
            have_spin=1
        else
            echo "SPIN's verifier reported an error:"
            tail -20 "$TMP/spin.out"
        fi
    else
        echo "could not build the SPIN verifier:"
        tail -20 "$TMP/sgen.log"
    fi
else
    echo "spin is not installed (Debian: apt-get install spin): SPIN row skipped"
fi

echo "| tool | run | states | transitions | wall s | CPU s | states/s (wall) | states/CPU-s | peak RSS MiB | bytes/state (RSS) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
row cohcheck "--no-db" "$nc" "$tc" coh
if [ "$have_rumur" -eq 1 ]; then
    row "Rumur $(rumur --version 2>/dev/null | awk '{print $NF}')" "--threads 1 (rules fired)" "$nr" "$rr" rumur
fi
if [ "$have_spin" -eq 1 ]; then
    row "SPIN $(spin -V 2>/dev/null | awk '{print $3}')" "-DSAFETY -DNOREDUCE, exact (stored+matched)" "$ns" "$ts" spin
    read -r wc cc_ rc <"$TMP/coh.m"
    read -r ws cs rs <"$TMP/spin.m"
    awk -v nc="$nc" -v ns="$ns" -v tc="$tc" -v ts="$ts" -v wc="$wc" -v ws="$ws" -v cc="$cc_" \
        -v cs="$cs" 'BEGIN {
        printf "SPIN: states %s (cohcheck %d, SPIN %d stored), transitions %s (cohcheck %d, SPIN %d)\n",
            (nc == ns ? "identical" : "DIFFERENT"), nc, ns, (tc == ts ? "identical" : "DIFFERENT"), tc, ts
        printf "cohcheck --no-db states/s = %.2fx SPIN by wall time, %s by CPU time\n",
            (nc / wc) / (ns / ws), (cc != "NA" && cs != "NA" ? sprintf("%.2fx", cs / cc) : "n/a") }'
fi
if [ "$have_rumur" -eq 1 ]; then
    echo "Rumur: states $([ "$nr" = "$nc" ] && echo identical || echo DIFFERENT) (Rumur $nr); rules fired $rr = cohcheck transitions $tc - 16 initial states"
fi
