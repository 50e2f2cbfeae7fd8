#!/bin/sh
# tests/bench/sim.sh - timed-mode speed: simulated events per second of a 15-CU run
# (15 threads, one per CU, each taking a CAS spin lock 200 times to increment a counter,
# on gpu-wt and the heterosync machine), best of 3 by wall time. Prints one line.
# Usage: sh tests/bench/sim.sh ./cohcheck
BIN=${1:-./cohcheck}
W=tests/e2e/data/sim/lock15x.litmus
best=""
for i in 1 2 3; do
    eps=$("$BIN" sim --csv --protocol gpu-wt --workload $W --machine heterosync | tail -1 | cut -d, -f7,8)
    ev=${eps%,*}
    wall=${eps#*,}
    r=$(awk -v e="$ev" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? e / w : 0) }')
    if [ -z "$best" ] || [ "$r" -gt "$best" ]; then best=$r; fi
done
echo "timed mode: gpu-wt on $W, 15 CUs (heterosync): $ev events, best $best simulated events/s (target 1000000)"
