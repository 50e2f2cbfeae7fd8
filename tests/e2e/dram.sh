#!/bin/sh
# tests/e2e/dram.sh - timed mode's DRAM model (cohcheck sim, docs/sim.md "DRAM"): pinned
# cycles, events, messages, traffic and DRAM statistics of a streaming kernel on a 16-line L2
# (each run twice: the same seed gives the same numbers), the row-buffer and bandwidth
# settings moving them, the JSON fields, --memory fixed reproducing a fixed-latency machine,
# every shipped machine's model in use on a kernel, and bad input (FILE:LINE:COL, exit 2).
# Usage: sh tests/e2e/dram.sh ./cohcheck
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
D=tests/e2e/data/dram
M=$D/l2-small.machine
W="--workload $D/stream.litmus"

# pin NAME WANT ARGS...: the CSV row's cycles,events,messages,traffic_bytes,dram_requests,
# dram_row_hit_rate,dram_bytes equal WANT, twice.
pin() {
    name=$1
    want=$2
    shift 2
    for run in 1 2; do
        got=$("$BIN" sim --csv "$@" 2>"$T/err" | tail -1 | cut -d, -f6,7,13,14,42,43,44)
        if [ "$got" = "$want" ]; then ok; else bad "$name (run $run): got '$got', want '$want'"; fi
    done
}
# field NAME JSONFILE KEY: the number KEY has in the "dram" object.
field() {
    sed -n "s/.*\"dram\":{.*\"$2\":\([0-9.]*\).*/\1/p" "$1"
}

# 520 lines (512 of a, 8 of out), each filled from DRAM at its first touch of the L2; mesi
# also refills every line its 16-line L2 evicts (memory folded into the L2: an eviction is
# followed by the memfill step), rcc only a line read again after its eviction (none here).
pin "mesi stream" 18640,7021,2048,92224,1024,0.994141,65536 --protocol mesi $W --machine $M
pin "rcc stream" 18145,3617,1040,59712,520,0.988462,33280 --protocol rcc $W --machine $M
pin "gpu-wt stream" 17753,3600,1040,49344,520,0.988462,33280 --protocol gpu-wt $W --machine $M
pin "gpu-wt stream seed 7" 17753,3601,1040,49344,520,0.988462,33280 --protocol gpu-wt $W \
    --machine $M --seed 7
expect_rc 0 "mesi stream correct" "$BIN" sim --protocol mesi $W --machine $M

# Rows of one line: every access after a bank's first is a row conflict (2 channels x 8
# banks: 16 misses, 504 conflicts) and the run is slower.
sed 's/ row 8192 / row 64 /' $M >"$T/row64.machine"
pin "gpu-wt stream 64-byte rows" 19613,3573,1040,49344,520,0.000000,33280 --protocol gpu-wt $W \
    --machine "$T/row64.machine"
# One byte per cycle: 64 cycles a line on the bus; the run is slower and requests queue.
sed 's/ bandwidth 6 / bandwidth 1 /' $M >"$T/bw1.machine"
pin "gpu-wt stream 1 byte/cycle" 21304,3655,1040,49344,520,0.988462,33280 --protocol gpu-wt $W \
    --machine "$T/bw1.machine"

# JSON: the "dram" object's fields, consistent with each other.
"$BIN" sim --json --protocol gpu-wt $W --machine "$T/bw1.machine" >"$T/j" 2>&1
for k in channels requests row_hits row_misses row_conflicts row_hit_rate bytes bandwidth \
    peak_bandwidth queue_occupancy_mean queue_occupancy_max queue_full queue_full_cycles \
    latency_mean latency_max; do
    if grep -q "\"dram\":{.*\"$k\":[0-9]" "$T/j"; then ok; else bad "--json dram lacks $k: $(cat "$T/j")"; fi
done
for want in '"channels":2' '"requests":520' '"row_hits":514' '"row_misses":6' '"row_conflicts":0' \
    '"bytes":33280' '"peak_bandwidth":2.0' '"queue_occupancy_max":2' '"queue_full":2' \
    '"queue_full_cycles":147' '"latency_max":456'; do
    if grep -qF "$want" "$T/j"; then ok; else bad "bw1 --json lacks $want: $(cat "$T/j")"; fi
done
bw=$(field "$T/j" bandwidth)
if awk -v b="$bw" 'BEGIN { exit !(b > 0 && b <= 2.0) }'; then ok; else bad "bandwidth $bw not in (0, peak 2]"; fi

# --memory fixed: every DRAM event at the model's idle row-hit latency (174 + 15 + 11 = 200)
# and no first-touch fills: the same run as a machine whose events are 'event NAME 200' and
# that has no dram line; "dram" is null.
grep -v '^dram ' $M | sed 's/^event memdata dram/event memdata 200/; s/^event memfill dram/event memfill 200/' \
    >"$T/fixed.machine"
a=$("$BIN" sim --csv --protocol mesi $W --machine $M --memory fixed | tail -1 | cut -d, -f6,7,13,14)
b=$("$BIN" sim --csv --protocol mesi $W --machine "$T/fixed.machine" | tail -1 | cut -d, -f6,7,13,14)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "--memory fixed '$a' differs from fixed 200 '$b'"; fi
"$BIN" sim --json --protocol mesi $W --machine $M --memory fixed >"$T/j" 2>&1
if grep -q '"dram":null,' "$T/j"; then ok; else bad "--memory fixed: dram not null"; fi
# --memory dram: the fixed 'event NAME 200' lines served by a dram line's model instead.
sed 's/^event memdata dram/event memdata 200/; s/^event memfill dram/event memfill 200/' $M \
    >"$T/both.machine"
a=$("$BIN" sim --csv --protocol mesi $W --machine $M | tail -1 | cut -d, -f6,7,13,14,42)
b=$("$BIN" sim --csv --protocol mesi $W --machine "$T/both.machine" --memory dram | tail -1 |
    cut -d, -f6,7,13,14,42)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "--memory dram '$b' differs from 'event NAME dram' '$a'"; fi

# Every shipped machine serves its memory by its model: a kernel's first touches reach DRAM
# (row-hit rate and bandwidth in the JSON) and the final check holds.
for m in fermi heterosync hlrc-apu qr-apu; do
    "$BIN" sim --json --protocol mesi --machine $m --workload litmus/workloads/kernels/sssp.litmus \
        --param SCALE=5 --param DEG=4 --param TBS=2 --param BACKOFF=16 >"$T/j" 2>&1
    r=$(field "$T/j" requests)
    if grep -q '"correct":true' "$T/j" && [ "${r:-0}" -gt 0 ]; then ok; else
        bad "$m: no DRAM requests or not correct: $(head -c 300 "$T/j")"
    fi
done

# Bad input: one line, exit 2.
expect_rc 2 "--memory bogus" "$BIN" sim --protocol mesi $W --machine $M --memory bogus
if grep -q "^cohcheck: sim: --memory takes machine, dram or fixed, not 'bogus'$" "$T/err"; then
    ok; else bad "--memory bogus: $(cat "$T/err")"; fi
expect_rc 2 "--memory dram without a dram line" "$BIN" sim --protocol mesi $W \
    --machine "$T/fixed.machine" --memory dram
if grep -q "machine l2-small has no 'dram' line" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ]; then
    ok; else bad "--memory dram without dram: $(cat "$T/err")"; fi
printf 'machine x\nevent memdata dram\n' >"$T/nodram.machine"
expect_rc 2 "event dram without a dram line" "$BIN" sim --protocol mesi $W --machine "$T/nodram.machine"
if grep -q "nodram.machine:2:15: 'event ... dram' needs a 'dram' line" "$T/err"; then ok; else
    bad "event dram without dram: $(cat "$T/err")"; fi
printf 'machine x\ndram channels 8 banks 0\n' >"$T/bad.machine"
expect_rc 2 "dram banks 0" "$BIN" sim --protocol mesi $W --machine "$T/bad.machine"
if grep -q "bad.machine:2:1: dram: banks must be 1..1024" "$T/err"; then ok; else
    bad "dram banks 0: $(cat "$T/err")"; fi
printf 'machine x\ndram rows 8\n' >"$T/bad.machine"
expect_rc 2 "dram rows" "$BIN" sim --protocol mesi $W --machine "$T/bad.machine"
if grep -q "bad.machine:2:6: unknown setting 'rows' of 'dram'" "$T/err"; then ok; else
    bad "dram rows: $(cat "$T/err")"; fi

echo "dram: $pass passed, $fail failed"
[ "$fail" = 0 ]
