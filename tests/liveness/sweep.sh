#!/bin/sh
# The liveness sweep of reports/liveness.md: every test of litmus/core with --liveness, cold
# and warm, per protocol named (default: the correct ones), into OUT/P.INIT.json, with wall
# seconds in OUT/times. CPU-heavy: run it under nice. Then
#   python3 tests/liveness/report.py OUT > reports/liveness.md
# Usage: sh tests/liveness/sweep.sh [-f weak|strong|none] OUT [PROTOCOL...]
BIN=${BIN:-./cohcheck}
FAIR=weak
if [ "$1" = -f ]; then
    FAIR=$2
    shift 2
fi
OUT=${1:?usage: sh tests/liveness/sweep.sh [-f FAIRNESS] OUT [PROTOCOL...]}
shift
[ $# -gt 0 ] || set -- nol1 gpu-wt gpu-wt-banked gpu-hrf rsp qr qr-rcsc rcc rcc-wo rcc-l2fix rcc-vifix rcc-wo-vifix \
    tcs tcs-inorder tcw denovo denovo-b gpu-vi gpu-vini mesi hlrc hlrc-probe
mkdir -p "$OUT"
for p in "$@"; do
    for init in cold warm; do
        s=$(date +%s.%N)
        nice -n 10 "$BIN" check --no-db --liveness --fairness "$FAIR" --json --init "$init" \
            --max-states 300000 --max-memory 2G --protocol "$p" litmus/core >"$OUT/$p.$init.json" 2>"$OUT/$p.$init.err"
        e=$(date +%s.%N)
        echo "$p $init $(awk "BEGIN {print $e - $s}")" >>"$OUT/times"
    done
done
