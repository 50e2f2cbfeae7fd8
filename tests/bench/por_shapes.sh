#!/bin/sh
# The reductions on the hard shapes, per protocol (docs/por.md, "Reporting"): each
# shipped correct protocol on IRIW+acqs, WRC+rel+acqs, ISA2+rel+acqs, W+RWC and SB+sc
# under `--init warm --env all`, states without and with the reductions (--no-por
# --no-symmetry, and the default: --por, with symmetry where it applies), as a
# markdown table, with the states the --por run expanded with a proper stubborn set
# (por_reduced), the reductions that applied and, for those that did not, why. A run
# stopped by the bound (POR_BOUND, default 3000000 states, and --max-memory POR_MEMORY,
# default 3G) shows its count with '>'.
# Usage: sh tests/bench/por_shapes.sh [./cohcheck]   (POR_SHAPES_PROTOCOLS: fewer)
BIN=${1:-./cohcheck}
BOUND=${POR_BOUND:-3000000}
MEM=${POR_MEMORY:-3G}
PROTOS=${POR_SHAPES_PROTOCOLS:-"nol1 gpu-wt gpu-hrf hlrc hlrc-probe rcc rcc-wo qr gpu-vi gpu-vini tcs tcs-inorder tcw denovo denovo-b mesi rsp"}
TESTS="IRIW+acqs WRC+rel+acqs ISA2+rel+acqs W+RWC SB+sc"
echo "| protocol | test | states --no-por | states --por | factor | proper sets | verdict | reductions |"
echo "|---|---|---:|---:|---:|---:|---|---|"
for p in $PROTOS; do
    for t in $TESTS; do
        opts="--protocol $p --init warm --env all --no-db --json --max-states $BOUND --max-memory $MEM"
        # shellcheck disable=SC2086
        a=$(nice -n 10 "$BIN" check $opts --no-por --no-symmetry "litmus/core/$t.litmus" 2>/dev/null)
        # shellcheck disable=SC2086
        b=$(nice -n 10 "$BIN" check $opts --por "litmus/core/$t.litmus" 2>/dev/null)
        printf '%s\n%s\n' "$a" "$b" | awk -v p="$p" -v t="$t" '
            function get(k, s,   r) { r = s; if (!sub(".*\"" k "\":\"?", "", r)) return ""; sub("[\",}].*", "", r); return r }
            NR == 1 { s0 = get("states", $0); v0 = get("verdict", $0) }
            NR == 2 {
                s1 = get("states", $0); v1 = get("verdict", $0); r1 = get("por_reduced", $0)
                red = $0; if (!sub(".*\"reductions\":\\[", "", red)) red = ""; sub("\\].*", "", red)
                gsub("\\{\"name\":\"", "", red); gsub("\",\"applied\":true\\}", ": applied", red)
                gsub("\",\"applied\":false,\"why\":\"", ": not applied (", red); gsub("\"\\}", ")", red)
                gsub("applied,", "applied; ", red); gsub("\\),", "); ", red)
            }
            END {
                done = v0 != "incomplete" && v1 != "incomplete" && s1 > 0
                printf "| %s | %s | %s%s | %s%s | %s | %s | %s | %s |\n", p, t, (v0 == "incomplete" ? ">" : ""), s0,
                    (v1 == "incomplete" ? ">" : ""), s1, (done ? sprintf("%.2fx", s0 / s1) : "-"),
                    (r1 == "" ? 0 : r1), (v0 == v1 ? v1 : v0 " / " v1), red
            }'
    done
done
