#!/bin/sh
# Benchmark rows for protocols (figures, never assertions): each row of
# tests/bench/protocols.tab is explored with --no-db under the protocol's target
# model, RUNS times (default 3). Prints a markdown table: verdict, states,
# transitions, best wall seconds (the explorer's own time_s), states/s and peak
# RSS (GNU time %M, the largest of the runs; n/a without GNU time).
# Usage: sh tests/bench/protocols.sh ./cohcheck [TABLE]   (from the repo root)
BIN=${1:-./cohcheck}
TAB=${2:-tests/bench/protocols.tab}
RUNS=${RUNS:-${BENCH_RUNS:-3}}
TIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
    TIME=/usr/bin/time
fi
field() { printf '%s' "$1" | sed -n "s/.*\"$2\":\"*\([0-9a-z.]*\).*/\1/p" | head -n 1; }
echo "| protocol | test | CUs | options | verdict | states | transitions | wall s | states/s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
grep -v '^#' "$TAB" | while read -r p t cus opts; do
    [ -z "$p" ] && continue
    args=""
    [ "$opts" != "-" ] && args=$(printf '%s' "$opts" | tr '_' ' ')
    best="" rss=0 states="" trans="" verdict=""
    i=0
    while [ $i -lt "$RUNS" ]; do
        i=$((i + 1))
        if [ -n "$TIME" ]; then
            # shellcheck disable=SC2086
            out=$("$TIME" -f "TIME %e %M" "$BIN" check --no-db --json --no-por --no-symmetry --protocol "$p" $args "$t" 2>&1)
        else
            # shellcheck disable=SC2086
            out=$("$BIN" check --no-db --json --no-por --no-symmetry --protocol "$p" $args "$t" 2>&1)
        fi
        states=$(field "$out" states)
        trans=$(field "$out" transitions)
        verdict=$(field "$out" verdict)
        secs=$(field "$out" time_s)
        m=$(printf '%s' "$out" | sed -n 's/^TIME [0-9.]* \([0-9]*\)$/\1/p')
        [ -n "$m" ] && [ "$m" -gt "$rss" ] && rss=$m
        if [ -z "$best" ] || [ "$(awk "BEGIN {print ($secs < $best)}")" = 1 ]; then
            best=$secs
        fi
    done
    awk -v p="$p" -v t="$(basename "$t" .litmus)" -v c="$cus" -v o="$opts" -v v="$verdict" \
        -v n="$states" -v tr="$trans" -v w="$best" -v rss="$rss" 'BEGIN {
        rate = w > 0 ? sprintf("%.0f", n / w) : "n/a"
        rs = rss > 0 ? sprintf("%.1f", rss / 1024) : "n/a"
        gsub("_", " ", o)
        printf "| %s | %s | %s | %s | %s | %d | %d | %.4f | %s | %s |\n", p, t, c, o, v, n, tr, w, rate, rs }'
done
