#!/bin/sh
# Mutation campaigns on the correct protocols (reports/mutation.md): for each protocol of
# tests/mutation/protocols.tab (or those named), `cohcheck mutate` on litmus/core, then the
# mutants it did not kill (survived or equivalent) again on litmus/core plus litmus/gen
# (--only: the generated suite is ~1000 tests, too many to run every mutant on). JSON to
# OUT/P.core.json and OUT/P.gen.json; then the report (tests/mutation/report.py).
# Usage: sh tests/mutation/run.sh [-o OUT] [-j N] [-b CORE] [PROTOCOL...]   (repo root)
#   -b CORE   the core suite (default litmus/core); a folder of an older suite gives the
#             "before" figures
# Long: run it under nice; about an hour on 2 idle cores for all twelve protocols.
BIN=${BIN:-./cohcheck}
OUT=mutation-out
J=2
CORE=litmus/core
GEN=litmus/gen
while getopts o:j:b: opt; do
    case $opt in
    o) OUT=$OPTARG ;;
    j) J=$OPTARG ;;
    b) CORE=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
mkdir -p "$OUT" || exit 2
TAB=tests/mutation/protocols.tab
if [ $# -eq 0 ]; then
    set -- $(grep -v '^#' "$TAB" | awk 'NF { print $1 }')
fi
for p in "$@"; do
    row=$(awk -v p="$p" '$1 == p' "$TAB")
    if [ -z "$row" ]; then
        echo "run.sh: $p is not in $TAB" >&2
        exit 2
    fi
    ms=$(echo "$row" | awk '{ print $2 }')
    st=$(echo "$row" | awk '{ print $3 }')
    t0=$(date +%s)
    "$BIN" mutate --json -j "$J" --max-states "$ms" --stronger "$st" --protocol "$p" "$CORE" \
        >"$OUT/$p.core.json" || exit 1
    t1=$(date +%s)
    ids=$(python3 -c '
import json, sys
ms = [json.loads(l) for l in open(sys.argv[1])][:-1]
print(",".join(str(m["mutant"]) for m in ms if m["class"] in ("survived", "equivalent")))
' "$OUT/$p.core.json")
    if [ -n "$ids" ]; then
        "$BIN" mutate --json -j "$J" --max-states "$ms" --stronger "$st" --protocol "$p" \
            --only "$ids" "$CORE" "$GEN" >"$OUT/$p.gen.json" || exit 1
    else
        : >"$OUT/$p.gen.json"
    fi
    t2=$(date +%s)
    echo "$p: core $((t1 - t0)) s, gen on the rest $((t2 - t1)) s" >&2
    echo "$p $ms $st $((t1 - t0)) $((t2 - t1))" >>"$OUT/times"
done
