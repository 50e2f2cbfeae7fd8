#!/bin/sh
# The cost of --liveness against a plain check (docs/liveness.md), as a markdown table:
# per configuration, the full graph without liveness (--no-por), AG EF only (--fairness
# none), with weak fairness (the default) and with strong fairness. Wall seconds as the
# best and the worst of LIVE_RUNS runs (default 3), peak RSS (GNU time) of the worst.
# Usage: sh tests/bench/liveness.sh [./cohcheck]
BIN=${1:-./cohcheck}
RUNS=${LIVE_RUNS:-3}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cohlive.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
GTIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$TMP/probe" true 2>/dev/null; then
    GTIME=/usr/bin/time
fi
# one CONFIG MODE ARGS...: "min max rss_mib verdict states transitions"
one() {
    min="" max="" rss=0
    for i in $(seq "$RUNS"); do
        t0=$(date +%s.%N)
        if [ -n "$GTIME" ]; then
            "$GTIME" -f %M -o "$TMP/rss" "$BIN" check --no-db --json --no-por --max-memory 3G "$@" >"$TMP/out" 2>&1
            r=$(tail -1 "$TMP/rss")
        else
            "$BIN" check --no-db --json --no-por --max-memory 3G "$@" >"$TMP/out" 2>&1
            r=0
        fi
        t1=$(date +%s.%N)
        t=$(awk "BEGIN {print $t1 - $t0}")
        [ -z "$min" ] || [ "$(awk "BEGIN {print ($t < $min)}")" -eq 1 ] && min=$t
        [ -z "$max" ] || [ "$(awk "BEGIN {print ($t > $max)}")" -eq 1 ] && max=$t
        [ "$r" -gt "$rss" ] && rss=$r
    done
    v=$(grep -o '"verdict":"[a-z]*"' "$TMP/out" | head -1 | cut -d'"' -f4)
    s=$(grep -o '"states":[0-9]*' "$TMP/out" | head -1 | cut -d: -f2)
    printf '%.2f %.2f %.0f %s %s' "$min" "$max" "$(awk "BEGIN {print $rss / 1024}")" "$v" "$s"
}
echo "--liveness cost ($(nproc) cores, best-worst of $RUNS runs, wall s; peak RSS MiB)"
echo "| configuration | states | plain | AG EF (--fairness none) | weak fairness | strong fairness | verdict with --liveness |"
echo "|---|---:|---|---|---|---|---|"
while read -r name args; do
    # shellcheck disable=SC2086
    set -- $args
    read -r p0 p1 pr pv ps <<EOT
$(one "$@")
EOT
    read -r n0 n1 nr nv ns <<EOT
$(one "$@" --liveness --fairness none)
EOT
    read -r w0 w1 wr wv ws <<EOT
$(one "$@" --liveness --fairness weak)
EOT
    read -r s0 s1 sr sv ss <<EOT
$(one "$@" --liveness --fairness strong)
EOT
    echo "| $name | $ps | $p0-$p1 s, $pr MiB | $n0-$n1 s, $nr MiB | $w0-$w1 s, $wr MiB | $s0-$s1 s, $sr MiB | $nv / $wv / $sv |"
done <<'EOF2'
gpu-wt-MP-guard-env-all --protocol gpu-wt --env all litmus/core/MP+rel+acq+guard.litmus
gpu-wt-SB+sc-warm-env-all --protocol gpu-wt --init warm --env all litmus/core/SB+sc.litmus
tcs-MP-spin2 --protocol tcs-inorder litmus/liveness/MP+rel+acq+spin2.litmus
denovo-b-IRIW-warm --protocol denovo-b --init warm litmus/core/IRIW.litmus
EOF2
