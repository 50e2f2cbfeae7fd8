#!/bin/sh
# The --por reduction factor (states and time) on the MP, SB and IRIW families of
# litmus/core under `gpu-wt --init warm --env all` (docs/por.md), as a markdown
# table, symmetry off on both sides (--no-symmetry: the partial-order reduction's own
# factor). A run stopped by the bound (POR_BOUND, default 3000000 states) shows
# its count with '>' and takes no part in the totals.
# Usage: sh tests/bench/por.sh [./cohcheck]
BIN=${1:-./cohcheck}
BOUND=${POR_BOUND:-3000000}
OPTS="--protocol gpu-wt --init warm --env all --no-db --json --max-states $BOUND"
echo "| test | states | states --por | factor | s | s --por | factor |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for f in litmus/core/MP*.litmus litmus/core/SB*.litmus litmus/core/IRIW*.litmus; do
    # shellcheck disable=SC2086
    a=$(nice -n 10 "$BIN" check $OPTS --no-por --no-symmetry "$f")
    # shellcheck disable=SC2086
    b=$(nice -n 10 "$BIN" check $OPTS --por --no-symmetry "$f")
    printf '%s\n%s\n' "$a" "$b" | awk -v t="$(basename "$f" .litmus)" '
        function get(k, s,   r) { r = s; if (!sub(".*\"" k "\":\"?", "", r)) return ""; sub("[\",}].*", "", r); return r }
        NR == 1 { s0 = get("states", $0); t0 = get("time_s", $0); v0 = get("verdict", $0) }
        NR == 2 { s1 = get("states", $0); t1 = get("time_s", $0); v1 = get("verdict", $0) }
        END {
            done = v0 != "incomplete" && v1 != "incomplete"
            printf "| %s | %s%s | %s%s | %s | %.2f | %.2f | %s |\n", t, (v0 == "incomplete" ? ">" : ""), s0,
                (v1 == "incomplete" ? ">" : ""), s1, (done ? sprintf("%.2fx", s0 / s1) : "-"), t0, t1,
                (done && t1 > 0 ? sprintf("%.2fx", t0 / t1) : "-")
            if (done && v0 != v1) printf "| %s | VERDICTS DIFFER: %s vs %s | | | | | |\n", t, v0, v1
            if (done) printf "TOTAL %s %s %s %s\n", s0, s1, t0, t1 > "/dev/stderr"
        }'
done 2>"${TMPDIR:-/tmp}/por-bench.$$"
awk '{ s0 += $2; s1 += $3; t0 += $4; t1 += $5; n++ }
    END { if (n) printf "| total (%d tests complete in both) | %d | %d | %.2fx | %.2f | %.2f | %.2fx |\n",
        n, s0, s1, s0 / s1, t0, t1, (t1 > 0 ? t0 / t1 : 0) }' "${TMPDIR:-/tmp}/por-bench.$$"
rm -f "${TMPDIR:-/tmp}/por-bench.$$"
