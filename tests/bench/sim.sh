#!/bin/sh
# tests/bench/sim.sh - timed-mode speed: simulated events per second of a 15-CU HeteroSync
# run (SPM_G on gpu-wt, heterosync machine: 15 CUs x 4 TBs, 10 critical sections of 10
# load/store pairs each), best of 3 by the run's own wall and CPU time. Prints one line. Without
# litmus/workloads/SPM_G.litmus it runs tests/e2e/data/sim/lock15x.litmus (15 CUs, a CAS
# spin lock taken 200 times by each).
# Usage: sh tests/bench/sim.sh ./cohcheck
BIN=${1:-./cohcheck}
if [ -f litmus/workloads/SPM_G.litmus ]; then
    W=SPM_G
    ARGS="--param TBS=4 --param ITERS=10 --param LDST=10"
else
    W=tests/e2e/data/sim/lock15x.litmus
    ARGS=""
fi
best=""
bestc=""
for i in 1 2 3; do
    # shellcheck disable=SC2086
    row=$("$BIN" sim --csv --protocol gpu-wt --workload $W --machine heterosync $ARGS | tail -1)
    ev=$(echo "$row" | cut -d, -f7)
    wall=$(echo "$row" | cut -d, -f8)
    cpu=$(echo "$row" | cut -d, -f20)
    r=$(awk -v e="$ev" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? e / w : 0) }')
    c=$(awk -v e="$ev" -v w="$cpu" 'BEGIN { printf "%.0f", (w > 0 ? e / w : 0) }')
    if [ -z "$best" ] || [ "$r" -gt "$best" ]; then best=$r; fi
    if [ -z "$bestc" ] || [ "$c" -gt "$bestc" ]; then bestc=$c; fi
done
echo "timed mode: gpu-wt $W $ARGS, 15 CUs (heterosync): $ev events; best of 3: $best simulated events/s by wall time, $bestc by CPU time, one core (target 1000000)"
