#!/bin/sh
# tests/e2e/magnitudes.sh - the one-parameter experiments behind docs/report-timed.md "Why
# the magnitudes differ", pinned: the runs its reasons quote (cycles, events, messages,
# bytes) and the direction each experiment shows, so the written reasons fail loudly when
# the simulator's numbers move.
#  - seeds 003 Fig. 9 / 004 Fig. 7 (fermi, kernels/bfs, 16 CUs): tcw is slower than no L1
#    with fermi's 8-flit flow buffer, as slow at lifetime 0, faster with one TB per CU or
#    with the buffer at 64 flits (a copy of fermi.machine with only that changed);
#  - seed 001 Fig. 4 (hlrc-apu, kernels/pagerank, 128 CUs x 1 TB): thinning the grid
#    barrier's polls (BACKOFF=4096) speeds the baseline 1.77x and DeNovo-B 1.03x.
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

# ---- fermi: the flow buffer, not the lease ----
sed 's/^machine fermi /machine fermi64 /; s/ buffer 8$/ buffer 64/' \
    protocols/machines/fermi.machine >"$T/fermi64.machine"
grep -q ' buffer 64$' "$T/fermi64.machine" && ok || bad "fermi.machine has no 'buffer 8' to widen"
B="--workload kernels/bfs --param CUS=16 --param SCALE=8 --param DEG=4 --seed 1"
pin "bfs nol1" 565004,353957,168248,3627512 --protocol nol1 --machine fermi $B
nol1=$cyc
pin "bfs tcw 3200" 3279533,1197639,83740,7432224 --protocol tcw --param lifetime=3200 \
    --machine fermi $B
less "bfs: nol1 ahead of tcw at buffer 8" "$nol1" "$cyc"
pin "bfs tcw lifetime 0" 3164171,1378319,87350,7759816 --protocol tcw --param lifetime=0 \
    --machine fermi $B
less "bfs: nol1 ahead of tcw at lifetime 0" "$nol1" "$cyc"
pin "bfs nol1 buffer 64" 565004,353957,168248,3627512 --protocol nol1 \
    --machine "$T/fermi64.machine" $B
pin "bfs tcw buffer 64" 446144,611888,129072,11605436 --protocol tcw --param lifetime=3200 \
    --machine "$T/fermi64.machine" $B
less "bfs: tcw ahead of nol1 at buffer 64" "$cyc" "$nol1"
run "bfs nol1 TBS=1" --protocol nol1 --machine fermi $B --param TBS=1
one=${got%%,*}
run "bfs tcw TBS=1" --protocol tcw --param lifetime=3200 --machine fermi $B --param TBS=1
less "bfs TBS=1: tcw ahead of nol1" "${got%%,*}" "$one"
[ "$one,${got%%,*}" = "793758,617947" ] && ok || bad "bfs TBS=1: got $one,${got%%,*}, want 793758,617947"

# ---- hlrc-apu: the grid barrier's polls ----
P="--machine hlrc-apu --workload kernels/pagerank --param CUS=128 --param TBS=1 --seed 1"
pin "pagerank baseline" 1752267,3247460,1547900,37963556 --protocol gpu-wt --param STEAL=0 $P
b16=$cyc
pin "pagerank baseline BACKOFF=4096" 991756,389386,196032,8222460 --protocol gpu-wt \
    --param STEAL=0 --param BACKOFF=4096 $P
less "pagerank baseline: thinned polls faster" "$cyc" "$b16"
pin "pagerank denovo-b" 762472,502957,243703,9836920 --protocol denovo-b --param STEAL=2 $P
pin "pagerank denovo-b BACKOFF=4096" 737591,477703,235555,9510680 --protocol denovo-b \
    --param STEAL=2 --param BACKOFF=4096 $P

echo "magnitudes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
