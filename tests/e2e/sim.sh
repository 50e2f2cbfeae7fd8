#!/bin/sh
# tests/e2e/sim.sh - timed mode (cohcheck sim, docs/sim.md): pinned cycles, events, messages
# and traffic of small runs (the same seed twice gives the same numbers), a broken protocol
# that gives a wrong final count, a deadlock, limits, and bad input.
# Usage: sh tests/e2e/sim.sh ./cohcheck
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
D=tests/e2e/data/sim


# pin NAME WANT ARGS...: the CSV row's cycles,events,messages,traffic_bytes equal WANT, twice.
pin() {
    name=$1
    want=$2
    shift 2
    for run in 1 2; do
        got=$("$BIN" sim --csv "$@" 2>"$T/err" | tail -1 | cut -d, -f6,7,13,14)
        if [ "$got" = "$want" ]; then ok; else bad "$name (run $run): got '$got', want '$want'"; fi
    done
}

pin "gpu-wt lock2 heterosync" 1044,157,76,1744 --protocol gpu-wt --workload $D/lock2.litmus
pin "gpu-hrf lock2 heterosync" 1044,157,76,1744 --protocol gpu-hrf --workload $D/lock2.litmus
pin "nol1 lock2 heterosync" 1115,143,88,1720 --protocol nol1 --workload $D/lock2.litmus
pin "tcw lock2 fermi lifetime 400" 7526,3379,70,4616 --protocol tcw --workload $D/lock2.litmus \
    --machine fermi --param lifetime=400
pin "gpu-wt lock15 fermi seed 7" 318538,73502,15854,371588 --protocol gpu-wt \
    --workload $D/lock15.litmus --machine fermi --seed 7

# Timed defaults (`param N = E timed T`): with no --param, sim runs seed 002 Table I's scale
# (15 CUs x 4 TBs, 100 critical sections of 10 load/store pairs), and --json says so.
"$BIN" sim --json --protocol gpu-wt --workload SPM_G >"$T/j" 2>&1
if grep -q '"cus":15,.*"cycles":8274189,"events":16657063,.*"params":{"protocol":{"wbuf":2},"workload":{"CUS":15,"TBS":4,"ITERS":100,"LDST":10}}' "$T/j"; then
    ok
else bad "sim SPM_G at Table I scale: $(head -c 400 "$T/j")"; fi
"$BIN" sim --json --protocol tcs-inorder --workload mp --machine fermi --param lifetime=800 \
    --param CUS=3 --param CONSUMERS=2 --param ROUNDS=2 >"$T/j" 2>&1
if grep -q '"params":{"protocol":{"lifetime":800},"workload":{"CUS":3,"CONSUMERS":2,"ROUNDS":2,"NDATA":1}}' "$T/j"; then
    ok
else bad "sim --json params: $(head -c 400 "$T/j")"; fi

# Messages and traffic by message name (docs/architecture.md section 8 fields), with memory
# at a fixed latency (--memory fixed: no DRAM model, "dram":null). Network: the 66 messages
# cross it; one flit (16 bytes) takes 1 + 14 cycles, queueing on a busy link adds up to 4;
# 6 links carried them (each L1's and the L2's, out and in); the L2's outgoing one is the
# busiest (6 DATA x 5 flits + 15 AVAL + 12 WACK = 57 busy cycles).
"$BIN" sim --json --memory fixed --protocol gpu-wt --workload $D/lock2.litmus >"$T/j" 2>&1
for want in '"protocol":"gpu-wt"' '"workload":"LOCK2"' '"machine":"heterosync"' '"cus":2' \
    '"cycles":686' '"events":126' '"correct":true' \
    '"messages":{"GETS":6,"ST":12,"ATOM":15,"DATA":6,"AVAL":15,"WACK":12}' \
    '"traffic_bytes":{"GETS":96,"ST":192,"ATOM":420,"DATA":480,"AVAL":240,"WACK":96}' \
    '"invalidations":4' '"flushes":0' '"stall_cycles":186' '"l1_hit_rate":0.000000' \
    '"load":{"count":6,"mean":37.00,"p50":37,"p90":37,"p99":37,"max":37}' '"wall_s":' \
    '"events_per_s":' '"dram":null,' \
    '"network":{"messages":66,"latency_mean":15.74,"latency_max":19,"links":6,' \
    '"busiest_link":"L2[0] out","topology":"links","hops_mean":0.00,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":0,"buffer_full_cycles":0}}'; do
    if grep -qF "$want" "$T/j"; then ok; else bad "gpu-wt lock2 --json lacks $want: $(cat "$T/j")"; fi
done

# Every machine runs the lock on the protocols of the TC, RCC, hLRC and QR papers: correct.
for m in fermi heterosync hlrc-apu qr-apu; do
    for p in nol1 gpu-wt gpu-hrf tcs tcw rcc rcc-wo hlrc qr denovo mesi; do
        expect_rc 0 "$p lock2 on $m" "$BIN" sim --protocol $p --workload $D/lock2.litmus \
            --machine $m --max-cycles 10000000
    done
done

# A broken variant: gpu-wt-noinv (acquires do not invalidate) reads a stale counter.
expect_rc 1 "gpu-wt-noinv lock2" "$BIN" sim --protocol gpu-wt-noinv --workload $D/lock2.litmus
if grep -q "wrong final state" "$T/err"; then ok; else bad "gpu-wt-noinv: $(cat "$T/err")"; fi
got=$("$BIN" sim --csv --protocol gpu-wt-noinv --workload $D/lock15.litmus 2>/dev/null |
    tail -1 | cut -d, -f10,11)
if [ "$got" = "false,wrong" ]; then ok; else bad "gpu-wt-noinv lock15: '$got'"; fi

# A deadlock: the fixture's L2 never acknowledges a store.
expect_rc 1 "deadlock" "$BIN" sim --protocol $D/nol1-lostack.proto --workload $D/st1.litmus
# (cycle 18 plus the store's line's first fill from DRAM: 147 + 24 (row miss) + 8 (bus) = 179)
if grep -q "deadlock at cycle 197: 0 of 1 threads finished" "$T/err"; then ok; else
    bad "deadlock message: $(cat "$T/err")"; fi
# ... and what is stuck: the thread waiting for the acknowledgement.
if grep -q "thread 0: waits for a reply to core event store on line 0 (L1\[0\] in I)" "$T/err"; then
    ok; else bad "deadlock: no stuck work: $(cat "$T/err")"; fi
"$BIN" sim --json --protocol $D/nol1-lostack.proto --workload $D/st1.litmus >"$T/out" 2>/dev/null
if grep -q '"stuck":"thread 0: waits for a reply to core event store on line 0' "$T/out"; then
    ok; else bad "deadlock --json: no stuck: $(cut -c1-200 "$T/out")"; fi
# A lazy internal event enabled by the row just fired, with nothing touching its line
# again: hlrc-probe's hand-over (fdone) once the FWD arrived and no write-through is
# pending. Before, SPM_G deadlocked (reports/timed.md); 2 and 15 CUs now finish.
for c in 2 15; do
    expect_rc 0 "hlrc-probe SPM_G --cus $c" "$BIN" sim --protocol hlrc-probe --workload SPM_G --cus $c
done

# Local instructions between two memory operations: at most 100,001, counted the same way
# by the compiled loop and the instructions run as written. local198's P1 runs 99,596
# before its store; local199's would run 100,099: the run stops at the 100,002nd.
pin "local loops under the limit" 99598,15,8,168 --protocol gpu-wt --workload $D/local198.litmus
expect_rc 1 "local loops over the limit" "$BIN" sim --json --protocol gpu-wt \
    --workload $D/local199.litmus
if grep -q '"message":"thread P1 loops without memory operations"' "$T/out" &&
    grep -q '"warp_instructions":100002,' "$T/out"; then
    ok; else bad "local loop limit: $(cut -c1-300 "$T/out")"; fi
# Count-down loops ('L: beq r K x ; sub r r 1 ; b L'), which the compiled loop runs in one
# step where the register reaches K without wrapping and under the limit: the cycles and
# instructions of running them one by one. down178 counts 33,328 down (99,993 instructions
# in all), downk from 20,000 and 320 down to 70; down183 (33,333, over the limit) and
# downneg (from -5: it wraps) stop at the 100,002nd instruction.
for c in "down178 99990,15 99993" "downk 60549,18 60551" "down183 0,0 100002" \
    "downneg 0,0 100002"; do
    set -- $c
    "$BIN" sim --json --protocol gpu-wt --workload $D/$1.litmus >"$T/out" 2>/dev/null
    cy=${2%,*}
    ev=${2#*,}
    if grep -q "\"cycles\":$cy,\"events\":$ev," "$T/out" &&
        grep -q "\"warp_instructions\":$3," "$T/out"; then
        ok; else bad "count-down loop $1: $(cut -c1-300 "$T/out")"; fi
done

# Limits: exit 3, never "correct".
expect_rc 3 "--max-events" "$BIN" sim --protocol gpu-wt --workload $D/lock2.litmus --max-events 10
expect_rc 3 "--max-cycles" "$BIN" sim --protocol gpu-wt --workload $D/lock2.litmus --max-cycles 100
if grep -q '"correct":false' "$T/out" || grep -q incomplete "$T/out"; then ok; else
    bad "limit run: $(cat "$T/out")"; fi

# Bad machine files: one FILE:LINE:COL line, exit 2.
for f in bad-key:2:14 bad-num:3:21 bad-dir:3:1 noname:1:1 simt-bad:2:1; do
    name=${f%%:*}
    expect_rc 2 "machine $name" "$BIN" sim --protocol gpu-wt --workload $D/lock2.litmus \
        --machine $D/$name.machine
    lines=$(wc -l <"$T/err")
    if [ "$lines" = 1 ] && grep -q "^cohcheck: $D/$name.machine:${f#*:}: " "$T/err"; then ok; else
        bad "machine $name: $(cat "$T/err")"; fi
done

# Bad options: exit 2 with one line.
for args in "--protocol gpu-wt" "--protocol gpu-wt --workload nosuch" \
    "--protocol gpu-wt --workload $D/lock2.litmus --machine nosuch" \
    "--protocol gpu-wt --workload $D/lock2.litmus --cus 1" \
    "--protocol gpu-wt --workload $D/lock2.litmus --cus 0" \
    "--protocol gpu-wt --workload $D/lock2.litmus --seed x" \
    "--protocol gpu-wt --workload $D/lock2.litmus --param nosuch=1" \
    "--protocol gpu-wt --workload $D/lock2.litmus --json --csv" \
    "--protocol gpu-wt --workload $D/lock2.litmus --bogus"; do
    # shellcheck disable=SC2086
    expect_rc 2 "sim $args" "$BIN" sim $args
    if [ "$(wc -l <"$T/err")" = 1 ]; then ok; else bad "sim $args: $(cat "$T/err")"; fi
done
expect_rc 0 "sim --help" "$BIN" sim --help

# RCC's livelock remedy (seed 003 II-D): the machine's `event tick 10000` advances each L1's
# logical time, so a read-only spin ends. Producer/consumer and task queue on rcc and rcc-wo
# (fermi, small parameters): pinned; without the tick the spin never ends (exit 3).
pin "rcc mp fermi" 121062,44047,50,2836 --protocol rcc --workload mp --machine fermi --cus 3 \
    --param CONSUMERS=2 --param ROUNDS=2
pin "rcc-wo mp fermi" 90728,39337,48,2792 --protocol rcc-wo --workload mp --machine fermi \
    --cus 3 --param CONSUMERS=2 --param ROUNDS=2
pin "rcc taskqueue fermi" 2812,128,32,2976 --protocol rcc --workload taskqueue --machine fermi \
    --cus 4
pin "rcc-wo taskqueue fermi" 2837,158,32,2976 --protocol rcc-wo --workload taskqueue \
    --machine fermi --cus 4
for p in rcc rcc-wo; do
    expect_rc 3 "$p mp without a tick" "$BIN" sim --protocol $p --workload mp \
        --machine $D/notick.machine --max-cycles 200000
    expect_rc 0 "$p MP+rel+acq+spin fermi" "$BIN" sim --protocol $p \
        --workload litmus/core/MP+rel+acq+spin.litmus --machine fermi
done


# Predictors (docs/sim.md "Predictors"): --predict off (the default) is the run the explorer's
# tables give, today's numbers to the event; on, tcw's lifetime predictor (seed 004 6.4: one
# per L2 bank) and rcc's lease predictor (seed 003 II-E: one per line, 8..2048) change it.
HW="--workload kernels/hotspot-wg --machine fermi --param CUS=4 --param W=8 --param H=8 --param ITERS=2 --param WGSIZE=8"
HS="--workload kernels/hotspot --machine fermi --param CUS=4 --param TBS=2 --param W=8 --param H=8 --param ITERS=2"
# shellcheck disable=SC2086
{
    pin "tcw hotspot-wg 3200 (TCW-FIXED)" 77688,96322,3152,199232 --protocol tcw $HW \
        --param lifetime=3200
    pin "tcw hotspot-wg 3200 --predict off" 77688,96322,3152,199232 --protocol tcw $HW \
        --param lifetime=3200 --predict off
    pin "tcw hotspot-wg 3200 --predict on (TCW)" 77688,96322,3152,199232 --protocol tcw $HW \
        --param lifetime=3200 --predict on
    pin "rcc hotspot --predict off" 28810,5556,792,53712 --protocol rcc $HS --predict off
    pin "rcc hotspot --predict on" 29517,5726,822,54228 --protocol rcc $HS --predict on
    pin "rcc-wo hotspot --predict off" 26339,5730,810,55404 --protocol rcc-wo $HS
    pin "rcc-wo hotspot --predict on" 27410,6022,852,58344 --protocol rcc-wo $HS --predict on
    "$BIN" sim --json --protocol tcw $HW --param lifetime=3200 --predict on >"$T/j" 2>&1
    if grep -q '"predictors":\[{"param":"lifetime","controller":"L2","scope":"bank","start":3200,"reads":1064,"mean":3607.31,"min":3200,"max":4060,"updates":1616}\]}$' "$T/j"; then
        ok
    else bad "tcw --predict on JSON: $(grep -o '"predictors.*' "$T/j")"; fi
    "$BIN" sim --json --protocol rcc $HS --predict on >"$T/j" 2>&1
    if grep -q '"predictors":\[{"param":"lease","controller":"L2","scope":"line","start":2048,"reads":480,"mean":960.20,"min":8,"max":2048,"updates":187}\]}$' "$T/j"; then
        ok
    else bad "rcc --predict on JSON: $(grep -o '"predictors.*' "$T/j")"; fi
    "$BIN" sim --json --protocol tcw $HW --param lifetime=3200 >"$T/j" 2>&1
    if grep -q predictors "$T/j"; then bad "tcw --predict off has a predictors field"; else ok; fi
    # tcw's twrite rule (`used fence, rel`: "disabled for applications not using fences"):
    # the same rewrites of a leased line move the prediction 3 more times with a fence.
    for f in rewrite:1 rewrite-fence:4; do
        "$BIN" sim --json --protocol tcw --workload $D/${f%:*}.litmus --machine fermi \
            --param lifetime=3200 --predict on >"$T/j" 2>&1
        if grep -q "\"correct\":true.*\"updates\":${f#*:}}\]}\$" "$T/j"; then ok; else
            bad "tcw ${f%:*} --predict on: want ${f#*:} updates: $(grep -o '"predictors.*' "$T/j")"; fi
    done
    expect_rc 2 "sim --predict maybe" "$BIN" sim --protocol tcw $HW --predict maybe
    if [ "$(wc -l <"$T/err")" = 1 ] && grep -q "^cohcheck: sim: --predict takes on or off, not 'maybe'" "$T/err"; then ok; else
        bad "sim --predict maybe: $(cat "$T/err")"; fi
}

# Ranges at scale (branch ranges): these runs stopped with "variable pending out of its range"
# (denovo, denovo-b: 4 TBs x 10 words per CU pending registration, over int(0..15)) and
# "variable acks / locks out of its range" (rsp: one ack per L1, one lock per remote writer,
# over int(0..15) / int(0..7)) before the ranges were widened to 0..255.
pin "denovo TB_LG heterosync 2 CUs x 4 TBs" 3739,4084,1000,40000 --protocol denovo \
    --workload TB_LG --machine heterosync --cus 2 --param TBS=4 --param LDST=10 --param ITERS=2
pin "denovo-b TB_LG heterosync 2 CUs x 4 TBs" 3739,4084,1000,40000 --protocol denovo-b \
    --workload TB_LG --machine heterosync --cus 2 --param TBS=4 --param LDST=10 --param ITERS=2
pin "denovo LFTB_LG heterosync 2 CUs x 4 TBs" 3514,4965,1008,40320 --protocol denovo \
    --workload LFTB_LG --machine heterosync --cus 2 --param TBS=4 --param LDST=10 --param ITERS=2
pin "rsp taskqueue hlrc-apu 8 CUs steal 2" 5988,5194,3814,54096 --protocol rsp \
    --workload taskqueue --machine hlrc-apu --cus 8 --param NT=8 --param STEAL=2 --param SCOPED=1
pin "rsp taskqueue hlrc-apu 32 CUs steal 8" 7050,16407,12382,179760 --protocol rsp \
    --workload taskqueue --machine hlrc-apu --cus 32 --param NT=8 --param STEAL=8 --param SCOPED=1
for s in 0 8 4 2 1; do
    expect_rc 0 "rsp taskqueue hlrc-apu 32 CUs steal $s" "$BIN" sim --protocol rsp \
        --workload taskqueue --machine hlrc-apu --cus 32 --param NT=8 --param STEAL=$s \
        --param SCOPED=1
done

# tcs livelocks on mp (docs/protocol-notes.md, "tcs: a delayed write starves"): the round-1
# flag write (the 6th GETX) waits at the L2 while the two spinning consumers' GETS keep
# raising gts; at 300,000 and 600,000 cycles the same 6 GETX and 5 ACK, the GETS growing.
# tcs-inorder holds the write at the L2 and finishes correct.
for mc in 300000 600000; do
    expect_rc 3 "tcs mp livelock at $mc cycles" "$BIN" sim --json --protocol tcs --workload mp \
        --machine fermi --param CUS=3 --param CONSUMERS=2 --param ROUNDS=2 --param NDATA=1 \
        --param lifetime=800 --max-cycles $mc
    if grep -q '"status":"incomplete".*"GETX":6,"DATA":[0-9]*,"ACK":5}' "$T/out"; then ok; else
        bad "tcs mp livelock at $mc cycles: $(cat "$T/out")"
    fi
done
pin "tcs-inorder mp fermi 2 consumers" 5986,2429,48,3008 --protocol tcs-inorder --workload mp \
    --machine fermi --param CUS=3 --param CONSUMERS=2 --param ROUNDS=2 --param NDATA=1 \
    --param lifetime=800
pin "tcs-inorder mp fermi 15 consumers 8 words" 98227,140708,4830,381144 --protocol tcs-inorder \
    --workload mp --machine fermi --param CUS=16 --param CONSUMERS=15 --param ROUNDS=8 \
    --param NDATA=8 --param lifetime=800

# The SIMT core (docs/sim.md "Warps"): the lanes of a `simt` template run in warps.
# pinw NAME WANT ARGS...: cycles,events,messages,traffic_bytes and the warp columns
# (warps,warp_instructions,coalesced,line_requests,mshr_merges) equal WANT, twice.
pinw() {
    name=$1
    want=$2
    shift 2
    for run in 1 2; do
        got=$("$BIN" sim --csv "$@" 2>"$T/err" | tail -1 | cut -d, -f6,7,13,14,37-41)
        if [ "$got" = "$want" ]; then ok; else bad "$name (run $run): got '$got', want '$want'"; fi
    done
}
W=$D/warps.litmus
# 8 lanes, one warp: x is loaded once for all (7 lanes coalesced); 25 line requests (x,
# a[0..7], out[0..7], cnt[0..7]); the divergent loop: 29 warp instructions.
pinw "warps 8 lanes lrr" 360,124,50,1248,1,29,7,25,0 --protocol gpu-wt --workload $W \
    --machine $D/simt-lrr.machine
# 24 lanes: three warps of 8 sharing one issue slot per cycle; the scheduler picks.
pinw "warps 24 lanes lrr" 908,462,146,3552,3,159,21,75,2 --protocol gpu-wt --workload $W \
    --machine $D/simt-lrr.machine --param LANES=24
pinw "warps 24 lanes gto" 904,457,146,3552,3,159,21,75,2 --protocol gpu-wt --workload $W \
    --machine $D/simt-gto.machine --param LANES=24
pinw "warps 24 lanes oldest" 905,462,146,3552,3,159,21,75,2 --protocol gpu-wt --workload $W \
    --machine $D/simt-oldest.machine --param LANES=24
# Naive SC (seed 003): one memory operation per warp at a time: the same work, later.
pinw "warps 8 lanes naive" 600,116,50,1248,1,29,7,25,0 --protocol gpu-wt --workload $W \
    --machine $D/simt-naive.machine
# lanes 1: every thread is a one-thread core (no warps); the 7 other loads of x wait behind
# the first one's miss at the L1 and complete without a message: 7 MSHR merges.
pinw "warps lanes 1" 324,104,50,1248,0,148,0,0,7 --protocol gpu-wt --workload $W \
    --machine $D/simt-one.machine
"$BIN" sim --json --protocol gpu-wt --workload $W --machine $D/simt-lrr.machine >"$T/out"
for want in '"warps":1,"lanes":8,"warp_instructions":29,"coalesced":7,"line_requests":25' \
    '"mshr_merges":0' '"correct":true'; do
    if grep -q "$want" "$T/out"; then ok; else bad "warps json: no $want: $(cat "$T/out")"; fi
done
# The SSSP kernel with warps (qr-apu: 64 lanes; 2 CUs x 1 work-group x 32 lanes, R-MAT 2^6
# x 4): correct on the protocols, wrong (exit 1) on a broken variant.
K=litmus/workloads/kernels/sssp-warps.litmus
if [ -f $K ]; then
    KA="--workload $K --machine qr-apu --param SCALE=6 --param DEG=4 --param WGSIZE=32 --param CUS=2 --param BACKOFF=16"
    # shellcheck disable=SC2086
    pinw "sssp-warps nol1" 158619,76213,31036,634384,2,20617,0,3957,0 --protocol nol1 $KA
    # shellcheck disable=SC2086
    pinw "sssp-warps mesi" 104417,53116,8266,373396,2,22743,0,3996,580 --protocol mesi $KA
    # shellcheck disable=SC2086
    pinw "sssp-warps rcc" 176943,64077,24880,1361344,2,17339,0,3893,379 --protocol rcc $KA
    # shellcheck disable=SC2086
    expect_rc 1 "sssp-warps gpu-vi-lostsharer" "$BIN" sim --protocol gpu-vi-lostsharer $KA
    if grep -q "wrong final state" "$T/err"; then ok; else bad "sssp-warps lostsharer: $(cat "$T/err")"; fi
    # With `core lanes 1` the lanes are one-thread cores: the run is sssp's with as many TBs
    # per CU, to the event.
    one="--machine $D/simt-one.machine --param SCALE=6 --param DEG=4 --param CUS=2 --param BACKOFF=16"
    # shellcheck disable=SC2086
    a=$("$BIN" sim --csv --protocol mesi --workload $K $one --param WGSIZE=8 | tail -1 | cut -d, -f6,7,13,14)
    # shellcheck disable=SC2086
    b=$("$BIN" sim --csv --protocol mesi --workload litmus/workloads/kernels/sssp.litmus $one \
        --param TBS=8 | tail -1 | cut -d, -f6,7,13,14)
    if [ "$a" = "$b" ] && [ "$a" = 18787,11294,3100,138280 ]; then ok; else
        bad "sssp-warps on lanes 1: '$a', sssp: '$b', want both 18787,11294,3100,138280"; fi
fi

echo "sim: $pass passed, $fail failed"
[ "$fail" = 0 ]
