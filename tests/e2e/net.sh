#!/bin/sh
# tests/e2e/net.sh - timed mode's routed network (cohcheck sim, docs/sim.md "Network"):
# pinned runs on a 2x2 mesh, a 4x4 mesh and a crossbar (each twice: the same seed gives
# the same numbers), the JSON network object's topology fields, head-of-line blocking at a
# busy L2 bank appearing and going away with the bank's occupancy, ordered protocols
# correct over seeds, the link model kept without a 'topology' line, and bad input
# (FILE:LINE:COL, exit 2). Usage: sh tests/e2e/net.sh ./cohcheck
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
N=tests/e2e/data/net
L2=tests/e2e/data/sim/lock2.litmus
L15=tests/e2e/data/sim/lock15.litmus

# net NAME WANT ARGS...: the run's cycles and its JSON "network" object are WANT, twice.
net() {
    name=$1
    want=$2
    shift 2
    for run in 1 2; do
        "$BIN" sim --json "$@" >"$T/j" 2>"$T/err"
        got="$(sed -n 's/.*"cycles":\([0-9]*\),.*"network":{\(.*\)}}$/\1 \2/p' "$T/j")"
        if [ "$got" = "$want" ]; then ok; else bad "$name (run $run): got '$got', want '$want'"; fi
    done
}

# 2x2 mesh, CUs at nodes 0 and 1, the L2 at node 3, 2 banks busy 20 cycles per message:
# 11 links carry the lock's messages (0 -> 3: inject 0, r(0,0) east, r(1,0) north, eject 3;
# 1 -> 3: inject 1, r(1,0) north, eject 3; and back: inject 3, r(1,1) west, r(0,1) south,
# eject 0; inject 3, r(1,1) south, eject 1); the L2's injection port is the busiest.
# With 2-flit VC buffers and per-hop flow control, messages wait 28 times for credits (217
# cycles) behind messages waiting for their bank: the full buffers hold the links behind them.
net "gpu-wt lock2 mesh2x2" '513 "messages":70,"latency_mean":8.11,"latency_max":35,"links":11,"link_utilisation_mean":0.065957,"link_utilisation_max":0.113244,"busiest_link":"inject 3","topology":"mesh 2x2","hops_mean":3.40,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":28,"buffer_full_cycles":217' \
    --protocol gpu-wt --workload $L2 --machine $N/mesh2x2.machine
net "mesi lock2 mesh2x2" '542 "messages":64,"latency_mean":7.03,"latency_max":19,"links":11,"link_utilisation_mean":0.107347,"link_utilisation_max":0.191882,"busiest_link":"inject 3","topology":"mesh 2x2","hops_mean":3.47,"hol_messages":3,"hol_cycles":7,"buffer_full_messages":5,"buffer_full_cycles":17' \
    --protocol mesi --workload $L2 --machine $N/mesh2x2.machine
net "rcc lock2 mesh2x2" '573 "messages":76,"latency_mean":8.36,"latency_max":14,"links":11,"link_utilisation_mean":0.136760,"link_utilisation_max":0.293194,"busiest_link":"inject 3","topology":"mesh 2x2","hops_mean":3.53,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":27,"buffer_full_cycles":106' \
    --protocol rcc --workload $L2 --machine $N/mesh2x2.machine

# Unbounded VC buffers (links reserved when sent, no flow control): 468 cycles against 513,
# 8 messages held 30 cycles behind their VC's head at the L2's port (HOL blocking) instead.
sed 's/ buffer 2 / buffer 0 /' $N/mesh2x2.machine >"$T/nobuf.machine"
net "gpu-wt lock2 mesh2x2 unbounded" '468 "messages":68,"latency_mean":5.46,"latency_max":10,"links":11,"link_utilisation_mean":0.071770,"link_utilisation_max":0.122105,"busiest_link":"inject 3","topology":"mesh 2x2","hops_mean":3.47,"hol_messages":8,"hol_cycles":30,"buffer_full_messages":0,"buffer_full_cycles":0' \
    --protocol gpu-wt --workload $L2 --machine "$T/nobuf.machine"
# A bank busy 1 cycle a message: no HOL blocking, a shorter run.
sed 's/ occupancy 20 / occupancy 1 /' "$T/nobuf.machine" >"$T/fast.machine"
"$BIN" sim --json --protocol gpu-wt --workload $L2 --machine "$T/fast.machine" >"$T/j" 2>&1
if grep -qF '"hol_messages":0,"hol_cycles":0' "$T/j" && ! grep -qF '"cycles":468,' "$T/j"; then
    ok; else bad "occupancy 1: $(cat "$T/j")"; fi

# The same file without its topology line runs the link model (the topology is "links").
net "gpu-wt lock2 links2" '397 "messages":60,"latency_mean":1.63,"latency_max":5,"links":6,"link_utilisation_mean":0.080402,"link_utilisation_max":0.135678,"busiest_link":"L2[0] out","topology":"links","hops_mean":0.00,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":0,"buffer_full_cycles":0' \
    --protocol gpu-wt --workload $L2 --machine $N/links2.machine

# Crossbar (fermi's numbers): every message crosses 2 links; the L2's port (15) busiest.
net "rcc lock15 xbar" '323751 "messages":26970,"latency_mean":165.93,"latency_max":216,"links":32,"link_utilisation_mean":0.014869,"link_utilisation_max":0.197045,"busiest_link":"inject 15","topology":"crossbar","hops_mean":2.00,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":0,"buffer_full_cycles":0' \
    --protocol rcc --workload $L15 --machine $N/xbar.machine
# 4x4 mesh (heterosync's numbers): 62 links, the L2's ejection port busiest.
net "gpu-wt lock15 mesh4x4" '33913 "messages":24948,"latency_mean":15.38,"latency_max":41,"links":62,"link_utilisation_mean":0.090655,"link_utilisation_max":0.708440,"busiest_link":"eject 15","topology":"mesh 4x4","hops_mean":5.06,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":8,"buffer_full_cycles":13' \
    --protocol gpu-wt --workload $L15 --machine $N/mesh4x4.machine

# The shared level's banks on several nodes ('l2', docs/sim.md "Routed network"; line modulo
# banks picks the bank): a crossbar with a port per L2 bank (fermi's 8, nodes 15..22: the
# lock's bank port busiest, two more links than one L2 port); the 4x4 mesh with its 16 banks
# spread one per node (row-major, each row shifted by its row: the lock's bank at node 0)
# and with them alternating between nodes 5 and 10 (fewer hops than at corner 15).
sed 's/^topology crossbar hop 2$/topology crossbar hop 2 l2 spread/' $N/xbar.machine >"$T/xs.machine"
sed 's/ l2 15$/ l2 spread/' $N/mesh4x4.machine >"$T/ms.machine"
sed 's/ l2 15$/ l2 5,10/' $N/mesh4x4.machine >"$T/ml.machine"
net "rcc lock15 xbar l2 spread" '323751 "messages":26970,"latency_mean":165.93,"latency_max":216,"links":34,"link_utilisation_mean":0.013995,"link_utilisation_max":0.191591,"busiest_link":"inject 15","topology":"crossbar","hops_mean":2.00,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":0,"buffer_full_cycles":0' \
    --protocol rcc --workload $L15 --machine "$T/xs.machine"
net "gpu-wt lock15 mesh4x4 l2 spread" '31179 "messages":22874,"latency_mean":14.65,"latency_max":39,"links":64,"link_utilisation_mean":0.080127,"link_utilisation_max":0.649832,"busiest_link":"eject 0","topology":"mesh 4x4","hops_mean":4.91,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":6,"buffer_full_cycles":11' \
    --protocol gpu-wt --workload $L15 --machine "$T/ms.machine"
net "gpu-wt lock15 mesh4x4 l2 5,10" '30274 "messages":23872,"latency_mean":13.69,"latency_max":39,"links":68,"link_utilisation_mean":0.065150,"link_utilisation_max":0.694521,"busiest_link":"eject 5","topology":"mesh 4x4","hops_mean":3.97,"hol_messages":0,"hol_cycles":0,"buffer_full_messages":3,"buffer_full_cycles":9' \
    --protocol gpu-wt --workload $L15 --machine "$T/ml.machine"

# Ordered networks (gpu-wt, rcc: 'network req ordered') keep point-to-point order through
# the routed model: their lock runs are correct on every seed; so are the unordered ones'.
for p in gpu-wt rcc gpu-wt-unordered mesi; do
    for m in mesh4x4 xbar; do
        for seed in 1 2 3; do
            expect_rc 0 "$p lock15 $m seed $seed" "$BIN" sim --protocol $p --workload $L15 \
                --machine $N/$m.machine --seed $seed
        done
    done
done

# A message-dependent deadlock of the link model's end-to-end window (docs/sim.md,
# "Findings": denovo-b on fermi's links). fermi-links is fermi.machine on the link model it
# had before its crossbar: 163-cycle links, 'net ... buffer 8' (8 flits per sender, receiver
# and network that the receiver has not consumed, messages its stall rows hold included).
F=tests/e2e/data/net
sed '/^topology /d; s/^net latency 161 \(.*\)$/net latency 163 \1 buffer 8/; s/^machine fermi /machine fermi-links /' \
    protocols/machines/fermi.machine >"$T/fermi-links.machine"
grep -q '^net latency 163 .* buffer 8$' "$T/fermi-links.machine" && ok ||
    bad "fermi.machine has no 'net latency 161' line to turn into the link model"
S="--workload kernels/sssp --param SCALE=6 --param DEG=4 --param CUS=2 --param TBS=32 --param BACKOFF=16"
W="--workload kernels/sssp-warps --param SCALE=6 --param DEG=4 --param CUS=2 --param WGSIZE=32 --param BACKOFF=16"
# has NAME PATTERN: the last run's stderr has the line.
has() {
    if grep -qxF -- "$2" "$T/err"; then ok; else bad "$1: no line '$2': $(head -c 600 "$T/err")"; fi
}
# The cycle: each L1's resp channel is headed by a RECALL whose row (R: send RDATA) waits for
# room in the L1's wb channel (5 of 8 flits used; RDATA takes 5); that channel's RDATA waits
# at the L2 (RB: send GRANT to the requester, the other L1) for room in the other L1's resp
# channel (7 or 6 of 8 used), which the first RECALL and the messages behind it hold.
expect_rc 1 "denovo-b sssp fermi-links" "$BIN" sim --protocol denovo-b $S \
    --machine "$T/fermi-links.machine" --max-cycles 20000000
has "denovo-b sssp fermi-links" "cohcheck: sim: denovo-b SSSP: deadlock at cycle 114121: 0 of 64 threads finished, 64 events stalled, 18 messages in flight"
has "denovo-b sssp fermi-links" "  channel wb L1[0] -> L2[0] holds 1 message, 5 of 8 flits: RDATA line 585"
has "denovo-b sssp fermi-links" "  channel wb L1[1] -> L2[0] holds 1 message, 5 of 8 flits: RDATA line 706"
has "denovo-b sssp fermi-links" "  channel resp L2[0] -> L1[0] holds 3 messages, 7 of 8 flits: RECALL line 581, DATA line 214, RECALL line 579"
has "denovo-b sssp fermi-links" "  channel resp L2[0] -> L1[1] holds 2 messages, 6 of 8 flits: RECALL line 577, DATA line 291"
if grep -qF 'stalled at L1[1]: core event atomic (25 threads: 63, 46, 39, ...) on line 706 in IRA since cycle 112715; message RECALL from L2[0] on line 577 in R since cycle 113555' "$T/err" &&
    grep -qF 'message RDATA from L1[1] on line 706 in RB since cycle 112832' "$T/err"; then
    ok; else bad "denovo-b sssp fermi-links: stalled work: $(head -c 600 "$T/err")"; fi
expect_rc 1 "denovo-b sssp-warps fermi-links" "$BIN" sim --protocol denovo-b $W \
    --machine "$T/fermi-links.machine"
has "denovo-b sssp-warps fermi-links" "cohcheck: sim: denovo-b SSSP-warps: deadlock at cycle 339241: 0 of 64 threads finished, 17 events stalled, 17 messages in flight"
has "denovo-b sssp-warps fermi-links" "  channel wb L1[0] -> L2[0] holds 1 message, 5 of 8 flits: RDATA line 627"
has "denovo-b sssp-warps fermi-links" "  channel wb L1[1] -> L2[0] holds 1 message, 5 of 8 flits: RDATA line 592"
has "denovo-b sssp-warps fermi-links" "  channel resp L2[0] -> L1[0] holds 8 messages, 8 of 8 flits: RECALL line 614, RECALL line 635, RECALL line 612, RECALL line 610, RECALL line 629, RECALL line 625, RECALL line 618, RECALL line 609"
has "denovo-b sssp-warps fermi-links" "  channel resp L2[0] -> L1[1] holds 2 messages, 6 of 8 flits: RECALL line 589, GRANT line 621"
# At seed 2 the same cycle closes by cycle 117,914 while other threads spin on lines their
# L1 holds registered, so rows keep firing: --max-cycles stops it (exit 3), and the report
# lists what waits then (the 1,000,000 cycles are the limit, not the deadlock's cycle).
expect_rc 3 "denovo-b sssp fermi-links seed 2" "$BIN" sim --protocol denovo-b $S \
    --machine "$T/fermi-links.machine" --max-cycles 1000000 --seed 2
has "denovo-b sssp fermi-links seed 2" "  channel wb L1[0] -> L2[0] holds 1 message, 5 of 8 flits: RDATA line 577"
has "denovo-b sssp fermi-links seed 2" "  channel wb L1[1] -> L2[0] holds 1 message, 5 of 8 flits: RDATA line 581"
has "denovo-b sssp fermi-links seed 2" "  channel resp L2[0] -> L1[0] holds 2 messages, 6 of 8 flits: RECALL line 706, DATA line 119"
has "denovo-b sssp fermi-links seed 2" "  channel resp L2[0] -> L1[1] holds 2 messages, 6 of 8 flits: RECALL line 585, DATA line 569"
has "denovo-b sssp fermi-links seed 2" "  thread 34: waits for a reply to core event aload on line 577 (L1[1] in IRL)"
has "denovo-b sssp fermi-links seed 2" "  thread 5: waits for a reply to core event aload on line 581 (L1[0] in IRL)"
# The same runs on fermi's crossbar (receivers take every message out of the network, a
# stalled one into the controller's queue): correct, also with 1-flit buffers.
sed 's/^topology crossbar hop 1 buffer 8 /topology crossbar hop 1 buffer 1 /' \
    protocols/machines/fermi.machine >"$T/fermi-b1.machine"
grep -q '^topology crossbar hop 1 buffer 1 ' "$T/fermi-b1.machine" && ok ||
    bad "fermi.machine has no 'topology crossbar hop 1 buffer 8' line"
# run1 NAME WANT ARGS...: the run's CSV cycles,status are WANT.
run1() {
    name=$1
    want=$2
    shift 2
    got=$("$BIN" sim --csv "$@" 2>"$T/err" | tail -1 | cut -d, -f6,11)
    if [ "$got" = "$want" ]; then ok; else bad "$name: got '$got', want '$want'"; fi
}
run1 "denovo-b sssp fermi" 291217,correct --protocol denovo-b $S --machine fermi
run1 "denovo-b sssp-warps fermi" 359862,correct --protocol denovo-b $W --machine fermi
run1 "denovo-b sssp fermi buffer 1" 291281,correct --protocol denovo-b $S --machine "$T/fermi-b1.machine"
run1 "denovo-b sssp-warps fermi buffer 1" 358419,correct --protocol denovo-b $W \
    --machine "$T/fermi-b1.machine"
# The explorer reaches the same cycle when wb and resp hold one message per channel
# (denovo-b-cap1), on two CUs of one thread each: 4 stores each (two lines registered, then
# the other CU's two lines); the trace ends with both L1s' wb channels holding an RDATA
# and both resp channels a RECALL. Bounding one of the two networks, or neither, is ok.
# xcheck NAME WANT PROTO: check's verdict, states and transitions are WANT.
xcheck() {
    got=$("$BIN" check --no-db --json --protocol "$3" $F/recall-cycle.litmus 2>&1 |
        sed -n 's/.*"states":\([0-9]*\),"transitions":\([0-9]*\),.*"verdict":"\([a-z]*\)".*/\3 \1 \2/p')
    if [ "$got" = "$2" ]; then ok; else bad "$1: got '$got', want '$2'"; fi
}
xcheck "denovo-b-cap1 recall-cycle" "deadlock 20065 54725" $F/denovo-b-cap1.proto
if "$BIN" check --no-db --json --protocol $F/denovo-b-cap1.proto $F/recall-cycle.litmus |
    grep -qF '"L2 receives REG from L1[1] for z | L2.z: R -> RB, L2.z.rq: 0 -> 1","L1[1] receives GRANT from L2 for y | L1[1].y: DI -> R, L1[1].pending: 4 -> 3","L2 receives REG from L1[0] for y | L2.y: R -> RB","L1[1] receives RECALL from L2 for y | L1[1].y: R -> I","L2 receives REG from L1[1] for w | L2.w: V -> R, L2.w.owner: 0 -> 1","L1[1] receives GRANT from L2 for w | L1[1].w: DI -> R, L1[1].pending: 3 -> 2","L2 receives REG from L1[0] for w | L2.w: R -> RB"]'; then
    ok; else bad "denovo-b-cap1 recall-cycle: trace"; fi
sed '/^network resp /d' $F/denovo-b-cap1.proto >"$T/wb1.proto"
sed '/^network wb /d' $F/denovo-b-cap1.proto >"$T/resp1.proto"
xcheck "denovo-b wb capacity 1 recall-cycle" "ok 289405 837277" "$T/wb1.proto"
xcheck "denovo-b resp capacity 1 recall-cycle" "ok 30589 82333" "$T/resp1.proto"
xcheck "denovo-b recall-cycle" "ok 297393 867517" denovo-b
# Forwards on a network of their own (denovo-b-fwdnet) would break the cycle but break the
# tables: a RECALL that overtakes its GRANT is dropped as stale (a protocol deadlock, 28
# states); denovo-b keeps them in order on resp and is ok (27 states).
xcheck2() {
    got=$("$BIN" check --no-db --json --protocol "$3" $F/recall-overtakes.litmus 2>&1 |
        sed -n 's/.*"states":\([0-9]*\),"transitions":\([0-9]*\),.*"verdict":"\([a-z]*\)".*/\3 \1 \2/p')
    if [ "$got" = "$2" ]; then ok; else bad "$1: got '$got', want '$2'"; fi
}
xcheck2 "denovo-b-fwdnet recall-overtakes" "deadlock 28 35" $F/denovo-b-fwdnet.proto
xcheck2 "denovo-b recall-overtakes" "ok 27 35" denovo-b
if "$BIN" check --no-db --json --protocol $F/denovo-b-fwdnet.proto $F/recall-overtakes.litmus |
    grep -qF '"L1[0] receives RECALL from L2 for x","L1[0] receives GRANT from L2 for x | L1[0].x: DI -> R, L1[0].pending: 1 -> 0","P0 fence.rel.agent: frel | P0 finished"]'; then
    ok; else bad "denovo-b-fwdnet recall-overtakes: trace"; fi
# denovo-b-vn: forwards and write-back acknowledgements on a fourth network, write-backs as
# requests, every message taken sending only on a later network. With every network at one
# message per channel (denovo-b-vn-cap1) both tests are ok, and so is a write-back racing a
# forward (CoRR, MP+rel+acq+guard, RMW-add2 with --env evict,writeback); on fermi-links both
# kernels that deadlocked run correct.
xcheck "denovo-b-vn-cap1 recall-cycle" "ok 1581 4019" $F/denovo-b-vn-cap1.proto
xcheck "denovo-b-vn recall-cycle" "ok 166469 575259" $F/denovo-b-vn.proto
xcheck2 "denovo-b-vn-cap1 recall-overtakes" "ok 27 35" $F/denovo-b-vn-cap1.proto
for pt in "denovo-b-vn CoRR ok 172 290" "denovo-b-vn MP+rel+acq+guard ok 4413 12910" \
    "denovo-b-vn RMW-add2 ok 218 493" "denovo-b-vn-cap1 CoRR ok 166 278" \
    "denovo-b-vn-cap1 MP+rel+acq+guard ok 2819 7806" "denovo-b-vn-cap1 RMW-add2 ok 214 483"; do
    set -- $pt
    got=$("$BIN" check --no-db --json --env evict,writeback --protocol $F/$1.proto \
        litmus/core/$2.litmus 2>&1 |
        sed -n 's/.*"states":\([0-9]*\),"transitions":\([0-9]*\),.*"verdict":"\([a-z]*\)".*/\3 \1 \2/p')
    if [ "$got" = "$3 $4 $5" ]; then ok; else bad "$1 $2 evict,writeback: got '$got', want '$3 $4 $5'"; fi
done
run1 "denovo-b-vn sssp fermi-links" 500433,correct --protocol $F/denovo-b-vn.proto $S \
    --machine "$T/fermi-links.machine"
run1 "denovo-b-vn sssp-warps fermi-links" 564362,correct --protocol $F/denovo-b-vn.proto $W \
    --machine "$T/fermi-links.machine"

# Bad input: one FILE:LINE:COL line, exit 2.
bad_machine() {
    printf 'machine t\n%s\n' "$1" >"$T/bad.machine"
    expect_rc 2 "bad '$1'" "$BIN" sim --protocol gpu-wt --workload $L2 --machine "$T/bad.machine"
    if [ "$(cat "$T/err")" = "cohcheck: $T/bad.machine:$2" ] && [ ! -s "$T/out" ]; then ok; else
        bad "bad '$1': $(cat "$T/err")"; fi
}
bad_machine "topology torus" "2:10: topology: expected 'crossbar' or 'mesh', got 'torus'"
bad_machine "topology mesh 4" "2:16: topology mesh needs COLS ROWS"
bad_machine "topology mesh 4 99" "2:17: topology mesh: COLS and ROWS must be 1..64"
bad_machine "topology mesh 2 2 l2 9" "2:22: topology mesh: l2 node 9 outside the 2x2 mesh"
bad_machine "topology mesh 2 2 l2 0,3,4" "2:26: topology mesh: l2 node 4 outside the 2x2 mesh"
bad_machine "topology mesh 2 2 l2 0,,1" "2:24: topology mesh: l2 expects 'spread', a node or N1,N2,..."
bad_machine "topology mesh 2 2 l2 1,x" "2:24: expected a non-negative integer, got 'x'"
bad_machine "topology mesh 2 2 l2 0," "2:24: topology mesh: l2 expects 'spread', a node or N1,N2,..."
bad_machine "topology mesh 2 2 l2" "2:21: 'topology l2' needs a value"
bad_machine "topology crossbar l2 3" "2:22: topology crossbar: l2 takes 'spread', got '3'"
bad_machine "topology crossbar vc 2" "2:19: unknown setting 'vc' of 'topology'"
bad_machine "topology crossbar buffer -1" "2:26: expected a non-negative integer, got '-1'"

echo "net: $pass passed, $fail failed"
[ "$fail" = 0 ]
