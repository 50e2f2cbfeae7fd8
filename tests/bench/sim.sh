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

# Kernels (docs/litmus.md "Kernels"): simulated memory operations (loads, stores, atomics,
# fences completed) per CPU-second on the SSSP kernel (seed 000 APSP; R-MAT 2^10 vertices,
# 8 edges each, 32 TBs on qr-apu, BACKOFF=16), per protocol of seed 000 Fig. 5; min, median and
# max of 3; with the DRAM model (--memory machine, qr-apu's default) and without it (--memory
# fixed: 200 cycles, no first-touch fills). The two runs do different work (timing changes
# the relaxation order), so compare rates, not times.
K=litmus/workloads/kernels/sssp.litmus
if [ -f $K ]; then
    for mem in machine fixed; do for p in nol1 gpu-wt mesi qr; do
        rates=""
        for i in 1 2 3; do
            row=$("$BIN" sim --csv --protocol $p --workload $K --machine qr-apu --param SCALE=10 \
                --param DEG=8 --param TBS=4 --param BACKOFF=16 --memory $mem | tail -1)
            r=$(echo "$row" | awk -F, '{ ops = $21 + $25 + $29 + $33; printf "%.0f %d", ($20 > 0 ? ops / $20 : 0), ops }')
            rates="$rates$(echo "$r" | cut -d' ' -f1)
"
            ops=$(echo "$r" | cut -d' ' -f2)
        done
        s=$(printf '%s' "$rates" | sort -n | tr '\n' ' ')
        echo "timed mode: SSSP kernel on $p (qr-apu, 8 CUs x 4 TBs, R-MAT 1024 x 8, BACKOFF=16, --memory $mem): $ops memory operations; per CPU-second, one core: min/median/max $(echo "$s" | awk '{ print $1 " / " $2 " / " $3 }') (target 1000000)"
    done; done
fi

# The routed network (docs/sim.md "Routed network"): the same SSSP runs (--memory machine) on
# qr-apu as shipped (the link model) and with 'topology mesh 3 3 hop 1 l2 8' appended (8 CUs
# and the shared level on a 3x3 mesh, XY routing, HOL blocking at the L2's VC buffers); min,
# median and max of 3 memory operations per CPU-second.
if [ -f $K ]; then
    QM=$(mktemp)
    { cat protocols/machines/qr-apu.machine; echo "topology mesh 3 3 hop 1 l2 8"; } >"$QM"
    for p in nol1 mesi; do for mach in qr-apu "$QM"; do
        rates=""
        for i in 1 2 3; do
            row=$("$BIN" sim --csv --protocol $p --workload $K --machine "$mach" --param SCALE=10 \
                --param DEG=8 --param TBS=4 --param BACKOFF=16 | tail -1)
            r=$(echo "$row" | awk -F, '{ ops = $21 + $25 + $29 + $33; printf "%.0f %d", ($20 > 0 ? ops / $20 : 0), ops }')
            rates="$rates$(echo "$r" | cut -d' ' -f1)
"
            ops=$(echo "$r" | cut -d' ' -f2)
        done
        s=$(printf '%s' "$rates" | sort -n | tr '\n' ' ')
        net=links
        [ "$mach" = "$QM" ] && net="mesh 3x3"
        echo "timed mode: SSSP kernel on $p (qr-apu, network $net): $ops memory operations; per CPU-second, one core: min/median/max $(echo "$s" | awk '{ print $1 " / " $2 " / " $3 }')"
    done; done
    rm -f "$QM"
fi

# The SSSP kernel with warps (kernels/sssp-warps, docs/sim.md "Warps"): 8 CUs x 1 work-group
# x 64 lanes on qr-apu (64-lane wavefronts, width 4), R-MAT 1024 x 8, BACKOFF=16: simulated
# memory operations (issued accesses) and warp instructions per CPU-second; min, median
# and max of 3.
K=litmus/workloads/kernels/sssp-warps.litmus
if [ -f $K ]; then
    for p in nol1 mesi; do
        rates=""
        for i in 1 2 3; do
            row=$("$BIN" sim --csv --protocol $p --workload $K --machine qr-apu --param SCALE=10 \
                --param DEG=8 --param WGSIZE=64 --param BACKOFF=16 | tail -1)
            r=$(echo "$row" | awk -F, '{ ops = $21 + $25 + $29 + $33; printf "%.0f %.0f %d %d", ($20 > 0 ? ops / $20 : 0), ($20 > 0 ? $38 / $20 : 0), ops, $38 }')
            rates="$rates$(echo "$r" | cut -d' ' -f1,2)
"
            ops=$(echo "$r" | cut -d' ' -f3)
            wi=$(echo "$r" | cut -d' ' -f4)
        done
        o=$(printf '%s' "$rates" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
        w=$(printf '%s' "$rates" | cut -d' ' -f2 | sort -n | tr '\n' ' ')
        echo "timed mode: SSSP kernel with warps on $p (qr-apu, 8 CUs x 64 lanes, R-MAT 1024 x 8, BACKOFF=16): $ops memory operations, $wi warp instructions; per CPU-second, one core: memory operations min/median/max $(echo "$o" | awk '{ print $1 " / " $2 " / " $3 }') (target 1000000), warp instructions $(echo "$w" | awk '{ print $1 " / " $2 " / " $3 }')"
    done
fi

# Scale (docs/sim.md "Limits"): the SSSP kernel (R-MAT 1024 x 8, 4 TBs per CU, BACKOFF=16) on
# hlrc-apu at 31 CUs (32-bit slots) and at 128 (seed 001's, 128-bit slots), mesi and hlrc;
# min, median and max of 3 memory operations per CPU-second.
K=litmus/workloads/kernels/sssp.litmus
if [ -f $K ]; then
    for p in mesi hlrc; do for n in 31 128; do
        rates=""
        for i in 1 2 3; do
            row=$("$BIN" sim --csv --protocol $p --workload $K --machine hlrc-apu --cus $n \
                --param SCALE=10 --param DEG=8 --param TBS=4 --param BACKOFF=16 | tail -1)
            r=$(echo "$row" | awk -F, '{ ops = $21 + $25 + $29 + $33; printf "%.0f %d", ($20 > 0 ? ops / $20 : 0), ops }')
            rates="$rates$(echo "$r" | cut -d' ' -f1)
"
            ops=$(echo "$r" | cut -d' ' -f2)
        done
        s=$(printf '%s' "$rates" | sort -n | tr '\n' ' ')
        echo "timed mode: SSSP kernel on $p (hlrc-apu, $n CUs x 4 TBs, R-MAT 1024 x 8, BACKOFF=16): $ops memory operations; per CPU-second, one core: min/median/max $(echo "$s" | awk '{ print $1 " / " $2 " / " $3 }')"
    done; done
fi

# The issue's speed target on the headline figures' own runs: simulated memory operations
# (loads, stores, atomics, fences completed) and warp instructions per CPU-second, one
# core, min/median/max of 3. APSP: the qr-apsp figure's run (seed 000 Fig. 5; kernels/apsp,
# qr-apu, 8 CUs x 4 TBs, R-MAT 256 x 4, 4 sources, BACKOFF=16) per protocol of that figure.
# Pannotia: the hlrc-pannotia figure's SSSP run (seed 001 Fig. 4; kernels/sssp-tq,
# hlrc-apu at 128 CUs x 1 TB, R-MAT 1024 x 8) per column of that figure (baseline,
# scope-only, steal-only, RSP, DeNovo-B, hLRC).
# rate3 LABEL ARGS...: runs 'sim --csv ARGS' three times and prints one line.
rate3() {
    label=$1
    shift
    rates=""
    for _ in 1 2 3; do
        row=$("$BIN" sim --csv "$@" | tail -1)
        r=$(echo "$row" | awk -F, '{ ops = $21 + $25 + $29 + $33; printf "%.0f %.0f %d %d %s", ($20 > 0 ? ops / $20 : 0), ($20 > 0 ? $38 / $20 : 0), ops, $38, $11 }')
        rates="$rates$(echo "$r" | cut -d' ' -f1,2)
"
        ops=$(echo "$r" | cut -d' ' -f3)
        wi=$(echo "$r" | cut -d' ' -f4)
        st=$(echo "$r" | cut -d' ' -f5)
    done
    o=$(printf '%s' "$rates" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
    w=$(printf '%s' "$rates" | cut -d' ' -f2 | sort -n | tr '\n' ' ')
    echo "timed mode: $label: $ops memory operations, $wi warp instructions ($st); per CPU-second, one core: memory operations min/median/max $(echo "$o" | awk '{ print $1 " / " $2 " / " $3 }') (target 1000000), warp instructions $(echo "$w" | awk '{ print $1 " / " $2 " / " $3 }')"
}
if [ -f litmus/workloads/kernels/apsp.litmus ]; then
    for p in nol1 gpu-wt qr mesi; do
        rate3 "APSP (qr-apsp) on $p, qr-apu 8 CUs x 4 TBs" --protocol $p --workload kernels/apsp \
            --machine qr-apu --cus 8 --param TBS=4 --param SCALE=8 --param DEG=4 --param NSRC=4 \
            --param BACKOFF=16
    done
fi
if [ -f litmus/workloads/kernels/sssp-tq.litmus ]; then
    for col in "baseline gpu-wt STEAL=0" "scope-only rsp STEAL=0,SCOPED=1" "steal-only gpu-wt STEAL=2" \
        "RSP rsp STEAL=2,SCOPED=1" "DeNovo-B denovo-b STEAL=2" "hLRC hlrc STEAL=2"; do
        # shellcheck disable=SC2086
        set -- $col
        pa=$(echo "$3" | sed 's/^/--param /; s/,/ --param /g')
        # shellcheck disable=SC2086
        rate3 "Pannotia SSSP (hlrc-pannotia) $1 ($2 $3), hlrc-apu 128 CUs x 1 TB" --protocol $2 \
            --workload kernels/sssp-tq --machine hlrc-apu --cus 128 --param TBS=1 $pa
    done
fi

# Per-hop flow control (docs/sim.md "Routed network"): fermi's crossbar with 8-flit VC
# buffers and credits, on the tc-kernels figure's bfs run (seed 004 §8; kernels/bfs, 16 CUs
# x 4 TBs, R-MAT 256 x 4, tcw at lifetime 3200), and the same run with the buffers unbounded
# (links reserved when a message is sent).
if [ -f litmus/workloads/kernels/bfs.litmus ]; then
    FM=$(mktemp)
    sed 's/^topology crossbar hop 1 buffer 8 /topology crossbar hop 1 buffer 0 /' \
        protocols/machines/fermi.machine >"$FM"
    for mach in fermi "$FM"; do
        net="8-flit buffers, credits"
        [ "$mach" = "$FM" ] && net="unbounded buffers"
        rate3 "bfs (tc-kernels) on tcw, fermi 16 CUs x 4 TBs, $net" --protocol tcw \
            --workload kernels/bfs --machine "$mach" --param CUS=16 --param TBS=4 \
            --param SCALE=8 --param DEG=4 --param lifetime=3200
    done
    rm -f "$FM"
fi
