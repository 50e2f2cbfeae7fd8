#!/bin/sh
# tests/e2e/sbuf.sh - timed mode's per-CU store buffer (a machine's `sbuf N [coalesce 0|1]
# [lazy 0|1]`, docs/sim.md "Store buffer"): a small run pinned without and with a buffer
# (cycles, events, messages, bytes and the buffer's counts), the JSON of a run without one
# unchanged (no store_buffer field), a protocol's `local wg` (wg releases that keep the
# buffer, the waits that remain, rm_agent workloads that drain), lazy draining, kernels'
# final checks with the buffer on gpu-wt, gpu-hrf and denovo (each run must buffer
# stores), broken variants still refuted, and bad input (exit 2, one line).
# Usage: sh tests/e2e/sbuf.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
D=tests/e2e/data/sbuf
K=litmus/workloads/kernels

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
# sbuf NAME WANT ARGS...: the JSON's store_buffer object equals WANT.
sbuf() {
    name=$1
    want=$2
    shift 2
    got=$("$BIN" sim --json "$@" 2>"$T/err" | grep -o '"store_buffer":{[^}]*}')
    if [ "$got" = "\"store_buffer\":{$want}" ]; then ok; else
        bad "$name: got '$got', want '$want'"; fi
}

# fifo.litmus: P0 stores a, b, b, c, a, loads a and b, releases f; P1 acquires f and loads
# a, b, c. On mesi (store misses wait for the line) with 2 entries: a's first store is in
# flight while b's two stores coalesce (coalesce 1) and c's takes the second entry, so
# a's second store waits for an entry; both loads are forwarded; the release waits for
# the drain and one fence of the hidden thread. Without coalescing, b's second store
# takes an entry of its own (5 drained, 2 full waits).
F="--workload $D/fifo.litmus"
pin "mesi fifo, no buffer" 446,79,28,1252 --protocol mesi $F --machine $D/plain.machine
pin "mesi fifo, sbuf 2 coalesce 1" 444,85,28,1252 --protocol mesi $F --machine $D/sb2.machine
pin "mesi fifo, sbuf 2" 446,86,28,1252 --protocol mesi $F --machine $D/sb2n.machine
sbuf "mesi fifo, sbuf 2 coalesce 1" '"entries":2,"coalesce":true,"lazy":false,"buffered":4,"coalesced":1,"forwarded":2,"drained":4,"fences":1,"full_waits":1,"full_cycles":32,"drain_waits":1,"drain_cycles":71' \
    --protocol mesi $F --machine $D/sb2.machine
sbuf "mesi fifo, sbuf 2" '"entries":2,"coalesce":false,"lazy":false,"buffered":5,"coalesced":0,"forwarded":1,"drained":5,"fences":1,"full_waits":2,"full_cycles":69,"drain_waits":1,"drain_cycles":36' \
    --protocol mesi $F --machine $D/sb2n.machine
pin "gpu-wt fifo, no buffer" 297,56,32,784 --protocol gpu-wt $F --machine $D/plain.machine
pin "gpu-wt fifo, sbuf 2 coalesce 1" 259,56,26,560 --protocol gpu-wt $F --machine $D/sb2.machine
sbuf "gpu-wt fifo, sbuf 2 coalesce 1" '"entries":2,"coalesce":true,"lazy":false,"buffered":5,"coalesced":0,"forwarded":2,"drained":5,"fences":1,"full_waits":0,"full_cycles":0,"drain_waits":1,"drain_cycles":90' \
    --protocol gpu-wt $F --machine $D/sb2.machine
# 'local wg' (gpu-hrf, rsp: wg scope performed at the L1). wg.litmus: P0 stores a, b,
# releases f at wg scope and stores a again; P1, in the same work-group, acquires f and
# loads a and b. On gpu-hrf the wg release neither waits for the drain nor needs a fence
# (fences 0; the one drain wait is P0's end); denovo, which does not declare it, drains at
# the release with a fence. With `lazy 1` the entries stay until something waits for them:
# a's second store coalesces into the entry of its first, across the wg release.
W="--workload $D/wg.litmus"
sbuf "gpu-hrf wg, sbuf 2 coalesce 1" '"entries":2,"coalesce":true,"lazy":false,"buffered":3,"coalesced":0,"forwarded":0,"drained":3,"fences":0,"full_waits":0,"full_cycles":0,"drain_waits":1,"drain_cycles":1' \
    --protocol gpu-hrf $W --machine $D/sb2.machine
sbuf "denovo wg, sbuf 2 coalesce 1" '"entries":2,"coalesce":true,"lazy":false,"buffered":3,"coalesced":0,"forwarded":0,"drained":3,"fences":1,"full_waits":0,"full_cycles":0,"drain_waits":3,"drain_cycles":43' \
    --protocol denovo $W --machine $D/sb2.machine
sbuf "gpu-hrf wg, sbuf 2 coalesce 1 lazy 1" '"entries":2,"coalesce":true,"lazy":true,"buffered":2,"coalesced":1,"forwarded":0,"drained":2,"fences":0,"full_waits":0,"full_cycles":0,"drain_waits":1,"drain_cycles":32' \
    --protocol gpu-hrf $W --machine $D/sb2l.machine
for p in gpu-hrf denovo gpu-wt; do
    for m in sb2 sb2l; do
        expect_rc 0 "$p wg.litmus on $m" "$BIN" sim --protocol $p $W --machine $D/$m.machine
    done
done
# A wg-scoped RMW of a location with a buffered store waits for that store (wgrmw.litmus:
# st x 5, then rmw.add x 1 must read 5): correct only with the wait (lazy: it would read 0).
sbuf "gpu-hrf wgrmw, lazy 1" '"entries":2,"coalesce":true,"lazy":true,"buffered":2,"coalesced":0,"forwarded":0,"drained":2,"fences":0,"full_waits":0,"full_cycles":0,"drain_waits":1,"drain_cycles":4' \
    --protocol gpu-hrf --workload $D/wgrmw.litmus --machine $D/sb2l.machine
expect_rc 0 "gpu-hrf wgrmw, lazy 1" "$BIN" sim --protocol gpu-hrf --workload $D/wgrmw.litmus --machine $D/sb2l.machine
# A workload with rm_agent accesses drains at wg releases as before (rm.litmus on rsp, which
# declares 'local wg': P1's rm_agent acquire promotes P0's wg release, and P0 then waits for
# P1, so without the drain and its fence P1 would read a and b as 0 from the L2).
for m in sb2 sb2l; do
    expect_rc 0 "rsp rm.litmus on $m" "$BIN" sim --protocol rsp --workload $D/rm.litmus --machine $D/$m.machine
    "$BIN" sim --json --protocol rsp --workload $D/rm.litmus --machine $D/$m.machine >"$T/j" 2>&1
    if grep -q '"fences":1,' "$T/j"; then ok; else bad "rsp rm.litmus on $m: $(grep -o '"store_buffer[^}]*' "$T/j")"; fi
done

# A machine without a buffer: no store_buffer field (the JSON of every earlier run).
"$BIN" sim --json --protocol mesi $F --machine $D/plain.machine >"$T/j" 2>&1
if grep -q '"correct":true' "$T/j" && ! grep -q store_buffer "$T/j"; then ok; else
    bad "no buffer: $(cut -c1-200 "$T/j")"; fi

# kernels SUFFIX LINE: the kernels' machines with the sbuf LINE added ($T/MACHINE-SUFFIX).
kernels() {
    for m in qr-apu fermi hlrc-apu; do
        sed "s/^machine $m /machine $m-$1 /" protocols/machines/$m.machine >"$T/$m-$1.machine"
        echo "$2" >>"$T/$m-$1.machine"
    done
}
# kernel_runs SUFFIX WANT RUN...: each RUN ("MACHINE WORKLOAD ARGS...") on gpu-wt, gpu-hrf and
# denovo on MACHINE-SUFFIX: exit 0, a correct final state, and the JSON matches WANT.
kernel_runs() {
    sfx=$1
    want=$2
    shift 2
    for run in "$@"; do
        set -- $run
        m=$1
        w=$2
        shift 2
        for p in gpu-wt gpu-hrf denovo; do
            "$BIN" sim --json --protocol $p --machine "$T/$m-$sfx.machine" --workload "$w" "$@" >"$T/j" 2>"$T/err"
            rc=$?
            if [ "$rc" = 0 ] && grep -q '"correct":true' "$T/j" && grep -q "$want" "$T/j"; then
                ok
            else bad "$p $w on $m-$sfx: exit $rc: $(grep -o '"status[^,]*\|"store_buffer[^}]*' "$T/j")"; fi
        done
    done
}
HW="fermi kernels/hotspot-wg --param CUS=4 --param W=8 --param H=8 --param ITERS=2 --param WGSIZE=8"
KM="fermi $K/kmeans.litmus --param CUS=4 --param ITERS=2"
RD="qr-apu $K/reduction.litmus --param N=512"
PR="hlrc-apu kernels/pagerank --cus 8 --param CUS=8 --param SCALE=6"
# Kernels with plain stores keep their final checks with a 4-entry coalescing buffer on
# their machines (one-lane thread blocks and SIMT warps), and each run buffers stores.
kernels sb "sbuf 4 coalesce 1"
kernel_runs sb '"store_buffer":{"entries":4,"coalesce":true,"lazy":false,"buffered":[1-9]' \
    "qr-apu $K/nn.litmus --param N=256" "$RD" \
    "qr-apu kernels/apsp --param SCALE=6 --param NSRC=3 --param LAUNCH=1" \
    "fermi $K/bfs.litmus --param SCALE=6 --param DEG=4" "fermi $K/hotspot.litmus --param W=16 --param H=16" \
    "$HW" "$KM" "$PR"
# The same with a 16-entry lazy buffer (entries leave only when an access waits for one or
# for the drain) on a few of them: wg-scoped releases keep gpu-hrf's entries (kmeans
# forwards buffered values), full buffers wait, and every final check holds.
kernels sbl "sbuf 16 coalesce 1 lazy 1"
kernel_runs sbl '"store_buffer":{"entries":16,"coalesce":true,"lazy":true,"buffered":[1-9]' \
    "$HW" "$KM" "$RD" "$PR"

# rsp with remote-scope promotion (SCOPED=1): its rm_agent releases drain through an
# agent-scope fence of the hidden thread (rsp maps no rm_agent fence).
"$BIN" sim --json --protocol rsp --machine "$T/hlrc-apu-sb.machine" --workload kernels/pagerank \
    --cus 8 --param CUS=8 --param SCALE=6 --param SCOPED=1 --param STEAL=2 >"$T/j" 2>"$T/err"
if grep -q '"correct":true' "$T/j" &&
    grep -q '"buffered":[1-9][0-9]*,"coalesced":[0-9]*,"forwarded":[0-9]*,"drained":[0-9]*,"fences":[1-9]' "$T/j"; then
    ok; else bad "rsp pagerank SCOPED=1 with sbuf 4: $(cat "$T/err") $(grep -o '"store_buffer[^}]*' "$T/j")"; fi

# Broken variants are still refuted with the buffer (lock15 on fermi: a wrong count, exit 1).
for p in gpu-wt-noinv gpu-hrf-noinv denovo-nofwd; do
    expect_rc 1 "$p lock15 with sbuf 4" "$BIN" sim --protocol $p \
        --workload tests/e2e/data/sim/lock15.litmus --machine "$T/fermi-sb.machine"
    if grep -q "wrong final state" "$T/err"; then ok; else bad "$p lock15: $(cat "$T/err")"; fi
done

# A store the protocol never acknowledges (nol1-lostack): the hidden thread waits for its
# reply and the thread's end for the drain: a deadlock (exit 1) whose report names both.
expect_rc 1 "lost ack with sbuf 2" "$BIN" sim --protocol tests/e2e/data/sim/nol1-lostack.proto \
    --workload tests/e2e/data/sim/st1.litmus --machine $D/sb2.machine
if grep -q "^  store buffer of CU 0: 0 entries, a store in flight (thread 1), 1 waiting$" "$T/err" &&
    grep -q "^  thread 1: waits for a reply to core event store on line 0" "$T/err"; then
    ok; else bad "lost ack with sbuf 2: $(cat "$T/err")"; fi

# Bad input: one FILE:LINE:COL line, exit 2.
for f in bad-naive:3:3 bad-coalesce:2:1 bad-num:2:6 bad-twice:3:1 bad-lazy:2:1; do
    name=${f%%:*}
    expect_rc 2 "machine $name" "$BIN" sim --protocol gpu-wt $F --machine $D/$name.machine
    if [ "$(wc -l <"$T/err")" = 1 ] && grep -q "^cohcheck: $D/$name.machine:${f#*:}: " "$T/err"; then
        ok; else bad "machine $name: $(cat "$T/err")"; fi
done
# A release the protocol has no release fence for: the buffer cannot drain it (exit 2);
# without a buffer the same run is correct.
expect_rc 0 "nofence, no buffer" "$BIN" sim --protocol $D/nofence.proto $F --machine $D/plain.machine
expect_rc 2 "nofence, sbuf 2" "$BIN" sim --protocol $D/nofence.proto $F --machine $D/sb2.machine
if [ "$(wc -l <"$T/err")" = 1 ] &&
    grep -q "^cohcheck: $D/fifo.litmus:12:2: machine sb2: sbuf: protocol nofence has no release fence" "$T/err"; then
    ok; else bad "nofence: $(cat "$T/err")"; fi

echo "sbuf: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
