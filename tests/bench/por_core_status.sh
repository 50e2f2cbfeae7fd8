#!/bin/sh
# Where the litmus/core sweep without a state bound stands (docs/por.md, "litmus/core on
# every correct protocol"): per protocol, from the bounded sweep's files (DIR3, default
# reports/por-core/B3000000) and the unbounded runs' (DIR0, default reports/por-core/B0),
# one markdown row: tests, finished within the bound, stopped at it, and of those: run
# without it and finished (ok / violation), stopped without it (limit, timeout, error), not
# run yet; then the largest finished unbounded run (states, wall s, peak RSS GB). A
# protocol "finishes all of litmus/core" when its last two columns of stopped runs are 0.
# With --todo first, instead: the runs still to do ("protocol test" lines, the
# POR_CORE_ONLY format of por_core.sh): stopped at the bound, no line without it.
# With --stopped first: a markdown row per run that did not finish without the bound
# (protocol, test, verdict, states and depth reached, wall s, peak RSS GB, the limit:
# time or memory from --max-time / --max-memory, or `timeout` for a run killed before
# --max-time existed, when no count was kept).
# Usage: sh tests/bench/por_core_status.sh [--todo|--stopped] [DIR3 [DIR0]]
todo=0
stopped=0
[ "$1" = --todo ] && todo=1 && shift
[ "$1" = --stopped ] && stopped=1 && shift
D3=${1:-reports/por-core/B3000000}
D0=${2:-reports/por-core/B0}
if [ $todo = 1 ]; then
    for f in "$D3"/*.tsv; do
        p=$(basename "$f" .tsv)
        b0="$D0/$p.tsv"
        [ -f "$b0" ] || b0=/dev/null
        awk -F'\t' -v p="$p" 'FILENAME == ARGV[1] { u[$1] = 1; next }
            $3 == "incomplete" && !($1 in u) { print p, $1 }' "$b0" "$f"
    done
    exit 0
fi
if [ $stopped = 1 ]; then
    echo "| protocol | test | verdict | states reached | depth | wall s | peak RSS GB | limit |"
    echo "|---|---|---|---:|---:|---:|---:|---|"
    for f in "$D0"/*.tsv; do
        p=$(basename "$f" .tsv)
        awk -F'\t' -v p="$p" '$3 != "ok" && $3 != "violation" && $3 != "skipped" {
            lim = NF >= 10 ? $10 : ($3 == "timeout" ? "timeout" : "-")
            printf "| `%s` | `%s` | %s | %s | %s | %s | %s | %s |\n", p, $1, $3, $4, $5, $6,
                $7 ~ /^[0-9]+$/ ? sprintf("%.1f", $7 / 1048576) : "-", lim }' "$f"
    done
    exit 0
fi
echo "| protocol | tests | finished at the bound | stopped at it | then finished (ok / violation) | stopped without a bound | not run without one | largest unbounded run |"
echo "|---|---:|---:|---:|---|---:|---:|---|"
for f in "$D3"/*.tsv; do
    p=$(basename "$f" .tsv)
    b0="$D0/$p.tsv"
    [ -f "$b0" ] || b0=/dev/null
    awk -F'\t' -v p="$p" '
        FILENAME == ARGV[1] { u[$1] = $0; next }         # the unbounded runs, by test
        { n++ }
        $3 == "skipped" { next }
        $3 != "incomplete" { fin++; next }
        { stop++
          if (!($1 in u)) { notrun++; next }
          split(u[$1], a, "\t")
          if (a[3] == "ok" || a[3] == "violation") {
              if (a[3] == "ok") ok++; else viol++
              if (a[4] + 0 > big) { big = a[4] + 0; bt = $1; bw = a[6]; bm = a[7] }
          } else lim++ }
        END {
            l = big ? sprintf("`%s`: %d states, %s s, %.1f GB", bt, big, bw, bm / 1048576) : "-"
            printf "| `%s` | %d | %d | %d | %d / %d | %d | %d | %s |\n", p, n, fin, stop, ok, viol, lim, notrun, l
        }' "$b0" "$f"
done
