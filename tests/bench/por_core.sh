#!/bin/sh
# litmus/core on every correct protocol (docs/por.md, "litmus/core on every correct
# protocol"): each test under `--init warm --env all --threads 2` with every reduction
# at its default, a state bound (POR_CORE_BOUND, default 3000000; 0: none), the
# memory limit (POR_CORE_MEMORY, default 20G) and a wall-clock limit per test
# (POR_CORE_TIMEOUT seconds, default 1800: check's --max-time, so a run it stops says
# how far it got; `timeout` 10 minutes later is the backstop). One line per run in
# $POR_CORE_OUT/B<bound>/<protocol>.tsv (test, exit code, verdict, states, depth,
# wall s, peak RSS KB, user s, sys s, and for an incomplete run the limit that stopped
# it: states, memory or time; else -); a protocol's file is written when its last
# test ends, and protocols whose file exists are skipped (the sweep resumes). Then a
# summary per protocol (tests finished, skipped: no core map) and a markdown row for
# each unfinished one (protocol, test, verdict, states, depth, wall s, peak RSS GB).
# With POR_CORE_ONLY=FILE (lines "protocol test"), only those runs.
# Usage: sh tests/bench/por_core.sh [./cohcheck] [PROTOCOL...]
BIN=${1:-./cohcheck}
[ $# -gt 0 ] && shift
PROTOS=${*:-"nol1 gpu-wt gpu-wt-banked gpu-hrf hlrc qr qr-rcsc rsp mesi gpu-vi gpu-vini hlrc-probe denovo denovo-b tcs tcs-inorder tcw rcc rcc-wo rcc-l2fix"}
BOUND=${POR_CORE_BOUND:-3000000}
MEM=${POR_CORE_MEMORY:-20G}
TMO=${POR_CORE_TIMEOUT:-1800}
OUT=${POR_CORE_OUT:-${TMPDIR:-/tmp}/por-core}
dir=$OUT/B$BOUND
mkdir -p "$dir" || exit 2
tmp=$dir/.run.$$
maxs=""
[ "$BOUND" != 0 ] && maxs="--max-states $BOUND"
run_one() { # protocol test-name -> one tsv line on stdout
    /usr/bin/time -f '%e %M %U %S' -o "$tmp.time" timeout $((TMO + 600)) "$BIN" check \
        --protocol "$1" --init warm --env all --threads 2 --no-db --json $maxs \
        --max-memory "$MEM" --max-time "$TMO" "litmus/core/$2.litmus" >"$tmp.json" 2>"$tmp.err"
    rc=$?
    awk -v n="$2" -v rc="$rc" -v tf="$tmp.time" '
        function get(k, s,   r) { r = s; if (!sub(".*\"" k "\":\"?", "", r)) return "-"; sub("[\",}].*", "", r); return r }
        { j = j $0 }
        END {
            while ((getline l < tf) > 0) t = l   # the last line (time adds "Command exited ...")
            split(t, a, " ")
            v = get("verdict", j); if (v == "-") v = (rc == 124 ? "timeout" : "error")
            m = get("message", j); lim = "-"
            if (v == "incomplete")
                lim = m ~ /max-time/ ? "time" : m ~ /max-memory|out of memory/ ? "memory" : m ~ /max-states/ ? "states" : "-"
            printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n, rc, v, get("states", j), get("depth", j), a[1], a[2], a[3], a[4], lim
        }' "$tmp.json"
}
for p in $PROTOS; do
    f=$dir/$p.tsv
    [ -s "$f" ] && continue
    : >"$f.part"
    if [ -n "$POR_CORE_ONLY" ]; then
        tests=$(awk -v p="$p" '$1 == p { print $2 }' "$POR_CORE_ONLY")
    else
        tests=$(for t in litmus/core/*.litmus; do basename "$t" .litmus; done)
    fi
    for t in $tests; do
        run_one "$p" "$t" >>"$f.part"
    done
    mv "$f.part" "$f"
done
rm -f "$tmp.time" "$tmp.json" "$tmp.err"
for p in $PROTOS; do
    f=$dir/$p.tsv
    [ -s "$f" ] || continue
    awk -F'\t' -v p="$p" -v b="$BOUND" '
        { n++ }
        $3 == "skipped" { sk++; next }
        $3 == "incomplete" || $3 == "timeout" || $3 == "error" {
            bad[++nb] = sprintf("| %s | %s | %s | %s | %s | %s | %s |", p, $1, $3, $4, $5,
                $6 ~ /^[0-9.]+$/ ? $6 : "-", $7 ~ /^[0-9]+$/ ? sprintf("%.2f", $7 / 1048576) : "-"); next }
        { done++; st += $4; if ($6 ~ /^[0-9.]+$/ && $6 + 0 > w) { w = $6 + 0; wt = $1 } }
        END {
            printf "%s: %d of %d finished, %d skipped (%d states in all; longest %s, %.1f s)\n", p, done, n, sk, st, wt, w
            for (i = 1; i <= nb; i++) print bad[i]
        }' "$f"
done
