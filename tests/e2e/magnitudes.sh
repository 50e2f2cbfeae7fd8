#!/bin/sh
# tests/e2e/magnitudes.sh - the one-parameter experiments behind docs/report-timed.md "Why
# the magnitudes differ", pinned: the runs its reasons quote (cycles, events, messages,
# bytes) and the direction each experiment shows, so the written reasons fail loudly when
# the simulator's numbers move.
#  - seeds 003 Fig. 9 / 004 Fig. 7 (fermi, kernels/bfs, 16 CUs): on fermi's crossbar (8 flits
#    per VC at each port) tcw is faster than no L1 and than tcs, also at lifetime 0 and with
#    one TB per CU; on the link model fermi had before (an end-to-end window of 8 flits per
#    flow across its 163-cycle links, a copy of fermi.machine with only that changed) tcw
#    is 5.8x slower than no L1;
#  - seed 001 Fig. 4 (hlrc-apu on its 8x16 mesh, kernels/pagerank, 128 CUs x 1 TB): thinning
#    the grid barrier's polls (BACKOFF=4096) speeds the baseline 1.10x and DeNovo-B 1.06x
#    (1.77x and 1.03x on the link model, one link pair into the L2, it had before).
# Usage: sh tests/e2e/magnitudes.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh

# run NAME ARGS...: the CSV row's cycles,events,messages,traffic_bytes into $got
run() {
    name=$1
    shift
    got=$("$BIN" sim --csv "$@" 2>"$T/err" | tail -1 | cut -d, -f6,7,13,14)
    [ -n "$got" ] || bad "$name: no CSV row: $(head -2 "$T/err")"
}
# pin NAME WANT ARGS...: cycles,events,messages,traffic_bytes equal WANT; $cyc the cycles
pin() {
    name=$1
    want=$2
    shift 2
    run "$name" "$@"
    if [ "$got" = "$want" ]; then ok; else bad "$name: got '$got', want '$want'"; fi
    cyc=${got%%,*}
}
# less NAME A B: A < B
less() {
    if [ "$2" -lt "$3" ]; then ok; else bad "$1: $2 is not below $3"; fi
}

# ---- fermi: the end-to-end flow window, not the lease ----
# fermi.machine is on its crossbar (8 flits per VC at the ports' input buffers); fermi-links
# is the link model it had before: 163-cycle links with an end-to-end window of 8 flits per
# flow (sender, receiver, virtual network), nothing else changed.
sed '/^topology /d; s/^net latency 161 \(.*\)$/net latency 163 \1 buffer 8/; s/^machine fermi /machine fermi-links /' \
    protocols/machines/fermi.machine >"$T/fermi-links.machine"
grep -q '^net latency 163 .* buffer 8$' "$T/fermi-links.machine" && ok ||
    bad "fermi.machine has no 'net latency 161' line to turn into the link model"
B="--workload kernels/bfs --param CUS=16 --param SCALE=8 --param DEG=4 --seed 1"
pin "bfs nol1" 564489,742044,168136,3625048 --protocol nol1 --machine fermi $B
nol1=$cyc
pin "bfs tcw 3200" 447368,880873,124154,11152948 --protocol tcw --param lifetime=3200 \
    --machine fermi $B
tcw=$cyc
less "bfs: tcw ahead of nol1 on the crossbar" "$tcw" "$nol1"
pin "bfs tcs 800" 574518,987597,159822,14431288 --protocol tcs --param lifetime=800 \
    --machine fermi $B
less "bfs: tcw ahead of tcs on the crossbar" "$tcw" "$cyc"
pin "bfs tcw lifetime 0" 477588,969908,132890,11949496 --protocol tcw --param lifetime=0 \
    --machine fermi $B
less "bfs: tcw at lifetime 0 ahead of nol1" "$cyc" "$nol1"
pin "bfs nol1 links" 565004,353957,168248,3627512 --protocol nol1 \
    --machine "$T/fermi-links.machine" $B
lnol1=$cyc
pin "bfs tcw links" 3279533,1197639,83740,7432224 --protocol tcw --param lifetime=3200 \
    --machine "$T/fermi-links.machine" $B
less "bfs links: nol1 ahead of tcw with the flow window" "$lnol1" "$cyc"
run "bfs nol1 TBS=1" --protocol nol1 --machine fermi $B --param TBS=1
one=${got%%,*}
run "bfs tcw TBS=1" --protocol tcw --param lifetime=3200 --machine fermi $B --param TBS=1
less "bfs TBS=1: tcw ahead of nol1" "${got%%,*}" "$one"
[ "$one,${got%%,*}" = "793750,617232" ] && ok || bad "bfs TBS=1: got $one,${got%%,*}, want 793750,617232"

# ---- hlrc-apu: the grid barrier's polls ----
P="--machine hlrc-apu --workload kernels/pagerank --param CUS=128 --param TBS=1 --seed 1"
pin "pagerank baseline" 1108282,2632915,1058266,27191608 --protocol gpu-wt --param STEAL=0 $P
b16=$cyc
pin "pagerank baseline BACKOFF=4096" 1011185,396223,198258,8271432 --protocol gpu-wt \
    --param STEAL=0 --param BACKOFF=4096 $P
less "pagerank baseline: thinned polls faster" "$cyc" "$b16"
pin "pagerank denovo-b" 680498,485261,244084,9852448 --protocol denovo-b --param STEAL=2 $P
pin "pagerank denovo-b BACKOFF=4096" 638974,465774,239344,9662336 --protocol denovo-b \
    --param STEAL=2 --param BACKOFF=4096 $P

echo "magnitudes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
