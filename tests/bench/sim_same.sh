#!/bin/sh
# tests/bench/sim_same.sh - the speed rounds' identical-run check (docs/sim.md "Speed"):
# runs 23 timed-mode runs with two binaries and diffs their --json output, the time fields
# (wall_s, events_per_s, cpu_s) removed. Prints one line per run and exits 1 on any difference.
# Usage: sh tests/bench/sim_same.sh BASE_BIN NEW_BIN
A=${1:?usage: sim_same.sh BASE_BIN NEW_BIN}
B=${2:?usage: sim_same.sh BASE_BIN NEW_BIN}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
strip() { sed -E 's/"(wall_s|events_per_s|cpu_s)":[0-9.e+-]+,?//g'; }
same() {
    n=$((n + 1))
    "$A" sim --json "$@" | strip >"$T/a" 2>&1
    "$B" sim --json "$@" | strip >"$T/b" 2>&1
    if [ ! -s "$T/a" ]; then
        echo "run $n: no output: $*"
        fail=1
    elif cmp -s "$T/a" "$T/b"; then
        echo "run $n: same: $*"
    else
        echo "run $n: DIFFERENT: $*"
        fail=1
    fi
}
AP="--workload kernels/apsp --machine qr-apu --cus 8 --param TBS=4 --param SCALE=8 --param DEG=4 --param NSRC=4 --param BACKOFF=16"
for p in nol1 gpu-wt qr mesi; do
    # shellcheck disable=SC2086
    same --protocol $p $AP
done
TQ="--workload kernels/sssp-tq --machine hlrc-apu --cus 128 --param TBS=1"
# shellcheck disable=SC2086
{
    same --protocol gpu-wt $TQ --param STEAL=0
    same --protocol rsp $TQ --param STEAL=0 --param SCOPED=1
    same --protocol gpu-wt $TQ --param STEAL=2
    same --protocol rsp $TQ --param STEAL=2 --param SCOPED=1
    same --protocol denovo-b $TQ --param STEAL=2
    same --protocol hlrc $TQ --param STEAL=2
}
BFS="--workload kernels/bfs --machine fermi --param CUS=16 --param TBS=4 --param SCALE=8 --param DEG=4"
# shellcheck disable=SC2086
{
    same --protocol tcw $BFS --param lifetime=3200
    same --protocol mesi $BFS
    same --protocol gpu-wt --workload SPM_G --machine heterosync --param TBS=4 --param ITERS=10 --param LDST=10
    same --protocol nol1 --workload kernels/sssp-warps --machine qr-apu --param SCALE=10 --param DEG=8 --param WGSIZE=64 --param BACKOFF=16
    same --protocol mesi --workload kernels/sssp --machine hlrc-apu --cus 31 --param SCALE=10 --param DEG=8 --param TBS=4 --param BACKOFF=16
    same --protocol hlrc --workload kernels/sssp --machine hlrc-apu --cus 128 --param SCALE=10 --param DEG=8 --param TBS=4 --param BACKOFF=16
    same --protocol rsp --workload kernels/sssp-tq --machine hlrc-apu --cus 16 --param TBS=2 --param STEAL=2 --param SCOPED=1
    same --protocol tcs --workload kernels/hotspot --machine fermi
    same --protocol rcc --workload kernels/dlb --machine fermi
    same --protocol gpu-vi --workload kernels/kmeans --machine fermi
    same --protocol tcw --workload taskqueue --machine fermi --param lifetime=3200
    same --protocol denovo-b --workload kernels/color --machine hlrc-apu --cus 128 --param TBS=1 --param STEAL=2
    same --protocol qr --workload kernels/sssp --machine qr-apu --param SCALE=10 --param DEG=8 --param TBS=4 --param BACKOFF=16
}
echo "sim_same: $n runs, $([ $fail = 0 ] && echo all identical || echo DIFFERENCES)"
exit $fail
