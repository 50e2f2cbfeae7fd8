#!/bin/sh
# Benchmark rows for the timestamp protocols (issue 4): message passing and IRIW
# on two and three compute units (tests/bench/litmus), cold caches, each
# protocol's target model. Prints a markdown table: states, transitions, wall
# seconds, states/s and peak RSS (GNU time %M), best wall time of 3 runs.
# Usage: sh tests/bench/timestamp.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
RUNS=${RUNS:-3}
TIME=$(command -v /usr/bin/time || true)
echo "| protocol | test | CUs | states | transitions | wall s | states/s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|---|"
for p in rcc rcc-wo tcs tcw; do
    for t in MP-2cu MP-3cu IRIW-2cu IRIW-3cu; do
        best="" rss=0 states="" trans=""
        i=0
        while [ $i -lt "$RUNS" ]; do
            i=$((i + 1))
            if [ -n "$TIME" ]; then
                out=$("$TIME" -f "TIME %e %M" "$BIN" check --no-db --json --protocol "$p" \
                    "tests/bench/litmus/$t.litmus" 2>&1)
            else
                out=$("$BIN" check --no-db --json --protocol "$p" "tests/bench/litmus/$t.litmus" 2>&1)
            fi
            states=$(printf '%s' "$out" | sed -n 's/.*"states":\([0-9]*\).*/\1/p' | head -n 1)
            trans=$(printf '%s' "$out" | sed -n 's/.*"transitions":\([0-9]*\).*/\1/p' | head -n 1)
            secs=$(printf '%s' "$out" | sed -n 's/.*"time_s":\([0-9.]*\).*/\1/p' | head -n 1)
            m=$(printf '%s' "$out" | sed -n 's/^TIME [0-9.]* \([0-9]*\)$/\1/p')
            [ -n "$m" ] && [ "$m" -gt "$rss" ] && rss=$m
            if [ -z "$best" ] || [ "$(echo "$secs < $best" | bc 2>/dev/null || echo 0)" = 1 ]; then
                best=$secs
            fi
        done
        cus=${t#*-}
        rate=$(echo "if ($best > 0) $states / $best else 0" | bc 2>/dev/null || echo "?")
        printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$p" "${t%-*}" "${cus%cu}" "$states" \
            "$trans" "$best" "${rate%.*}" "$(echo "scale=1; $rss / 1024" | bc 2>/dev/null || echo "?")"
    done
done
