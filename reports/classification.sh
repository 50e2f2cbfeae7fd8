#!/bin/sh
# Regenerate reports/classification.md: `cohcheck classify` on every correct protocol on
# litmus/core, cold, and --init warm bounded by --max-states (incomplete tests are listed,
# never counted as passes). Usage: sh reports/classification.sh [./cohcheck] [MAX_STATES]
# The JSON of each run is kept in reports/classification/ (PROTOCOL.cold.json, .warm.json).
BIN=${1:-./cohcheck}
MAX=${2:-1000000}
OUT=reports/classification
PROTOS=${PROTOS:-"nol1 gpu-wt gpu-wt-banked gpu-hrf rsp rcc rcc-l2fix rcc-vifix rcc-wo rcc-wo-vifix tcs tcw qr qr-rcsc gpu-vi gpu-vini mesi denovo denovo-b hlrc hlrc-probe"}
mkdir -p "$OUT"
for p in $PROTOS; do
    t0=$(date +%s)
    "$BIN" classify --protocol "$p" --json litmus/core >"$OUT/$p.cold.json"
    t1=$(date +%s)
    "$BIN" classify --protocol "$p" --init warm --max-states "$MAX" --json litmus/core >"$OUT/$p.warm.json"
    t2=$(date +%s)
    echo "$p $((t1 - t0)) $((t2 - t1))" >>"$OUT/times.txt.new"
done
mv "$OUT/times.txt.new" "$OUT/times.txt"
python3 reports/classification.py "$OUT" "$MAX" >reports/classification.md
