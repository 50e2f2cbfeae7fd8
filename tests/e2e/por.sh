#!/bin/sh
# Partial-order reduction preserves outcomes, verdicts and failure kinds: every
# litmus/core test on every protocol, cold and warm with every environment
# action, with and without --por; every check.tab row with --por (BFS and DFS);
# pinned reduced counts; a stored --por run replays, traces and resumes.
# Usage: sh tests/e2e/por.sh ./cohcheck   (POR_FULL=1: the larger sweep of make test-full)
BIN=${1:-./cohcheck}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
num() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }
L=litmus/core

# Pinned reduced counts (BFS): a change in the reduction shows here first.
# pin PROTOCOL TEST STATES TRANSITIONS [OPTIONS...]
pin() {
    p=$1 t=$2 s=$3 tr=$4
    shift 4
    out=$("$BIN" check --no-db --json --por --protocol "$p" "$@" "$L/$t.litmus")
    gs=$(printf '%s' "$out" | num states)
    gt=$(printf '%s' "$out" | num transitions)
    [ "$gs" = "$s" ] && [ "$gt" = "$tr" ] && printf '%s' "$out" | grep -q '"por":true' && ok ||
        ko "pin $p $t $*: got $gs/$gt, want $s/$tr"
}
pin gpu-wt MP 38 43
pin gpu-wt IRIW 232 259
pin nol1 IRIW 232 259
pin gpu-hrf SB 432 528 --init warm
pin gpu-wt MP 2841 5054 --init warm --env all
pin gpu-wt SB 5413 8987 --init warm --env all
pin gpu-wt MP+rel+acq+spin 31832 92849 --init warm --env all
# The proviso's mark bit with wide fingerprints and a spilled queue: the same counts.
pin gpu-wt MP+rel+acq+spin 31832 92849 --init warm --env all --fingerprint 128
pin gpu-wt MP+rel+acq+spin 31832 92849 --init warm --env all --fingerprint 96 --queue-memory 1
# A done(tid) placed on the receiving CU by the thread-field analysis (docs/por.md,
# "Threads completed by a message"): parked requests (gpu-vi, gpu-vini, rcc, rcc-wo),
# a forwarded probe (hlrc-probe), a CU's own release marker (qr).
pin gpu-vi MP 19583 72259 --init warm --env all
pin gpu-vi SB 12673 44250 --init warm --env all
pin gpu-vini MP 65537 277628 --init warm --env all
pin rcc MP 35 37
pin rcc-wo SB 62 83
# hlrc-probe MP: 99/190 before the rule for destinations carried in message fields
# (the owner answering a probe `to msg.rq`), below.
pin hlrc-probe MP 52 68
# An L2 that parks a request and answers it later to the stored sender (rcc's r1src and
# asrc, gpu-vi's rq, mesi's and denovo's owner and sharers) shields every CU those
# variables do not name (docs/por.md, "Sends to computed nodes").
pin rcc WRC+rel+acqs 2084 2837 --init warm
pin rcc IRIW+acqs 13788 20020 --init warm
pin qr MP 243 547
# An L2 that does not only reply, with the CUs waiting on it (docs/por.md, "An L2 that
# parks requests, with the CUs waiting on it"): rcc-wo SB 101146 states before the rule
# (223235 without --por), rcc-l2fix MP 136350 (286294).
pin rcc-wo SB 83817 270159 --init warm --env all
pin rcc-l2fix MP 130352 431992 --init warm --env all
# A node carried in a message field set only from senders (hlrc's and hlrc-probe's `rq`,
# docs/por.md, "Destinations carried in message fields") shields every CU no value
# outside it names. Before the rule (and without --por): hlrc-probe SB 142/317,
# IRIW+acqs --init warm 393664/1095456, ISA2+rel+acqs --init warm 42756/132374,
# WRC+rel+acqs --init warm 8468/19924, MP --init warm --env all 141836/565997; hlrc
# IRIW+acqs --init warm 119808/365440.
pin hlrc-probe SB 77 123
pin hlrc-probe IRIW+acqs 123360 216768 --init warm
pin hlrc-probe ISA2+rel+acqs 19484 42564 --init warm
pin hlrc-probe WRC+rel+acqs 3832 6660 --init warm
pin hlrc-probe MP 130229 436033 --init warm --env all
pin hlrc IRIW+acqs 32128 55264 --init warm
# ... and refused where a table breaks it: a parked write answered to the last acker
# instead of the writer, a parked thread assigned without its node.
sed 's/send WACK(tid=rtid) to rq | V/send WACK(tid=rtid) to msg.src | V/' protocols/gpu-vi.proto >"$T/tid1.proto"
sed 's/rq := msg.src; rtid := msg.tid; rk := 0; rkeep := true/rq := msg.src; rk := 0; rkeep := true/' protocols/gpu-vi.proto >"$T/tid2.proto"
for f in tid1 tid2; do
    ! cmp -s "$T/$f.proto" protocols/gpu-vi.proto &&
        "$BIN" check --no-db --json --por --protocol "$T/$f.proto" "$L/MP.litmus" |
        grep -q '"por":false,"por_off":"a done(tid) may complete a thread of another compute unit"' &&
        ok || ko "$f: a done(tid) of another CU must keep --por off"
done
# A count over every state of a controller is a constant (rsp's acks): reduced.
pin rsp MP 36262 150912 --init warm --env all
pin rsp SB 65612 279656 --init warm --env all
# A count over some states still keeps it off.
sed 's/count(L1, I V IV IF IVX IFX); wait/count(L1, V IV IF IVX IFX); wait/' protocols/rsp.proto >"$T/cnt.proto"
! cmp -s "$T/cnt.proto" protocols/rsp.proto &&
    "$BIN" check --no-db --json --por --protocol "$T/cnt.proto" "$L/MP.litmus" |
    grep -q '"por":false,"por_off":"a row reads other instances (count)"' &&
    ok || ko "a count over some states must keep --por off"
# Every run's JSON lists the reductions, and why one did not apply.
"$BIN" check --no-db --json --protocol tcw "$L/MP.litmus" |
    grep -q '"reductions":\[{"name":"por","applied":true},{"name":"dead_values","applied":true},{"name":"symmetry","applied":false,"why":"no two compute units are interchangeable (their threads'"'"' programs or work-groups differ)"},{"name":"field_destinations","applied":false,"why":"no row sends to a node taken from a message field"}\]' &&
    ok || ko "tcw: reductions in the JSON"
"$BIN" check --no-db --json --protocol rsp --liveness "$L/MP.litmus" |
    grep -q '"reductions":\[{"name":"por","applied":false,"why":"--liveness explores the full graph' &&
    ok || ko "--liveness: reductions in the JSON"
"$BIN" check --no-db --json --no-por --protocol gpu-wt "$L/MP.litmus" |
    grep -q '"reductions":\[{"name":"por","applied":false,"why":"not asked for (--no-por)"},' && ok ||
    ko "--no-por: reductions in the JSON"
"$BIN" check --no-db --json --no-symmetry --protocol gpu-wt "$L/MP.litmus" |
    grep -q '"reductions":\[{"name":"por","applied":true},{"name":"dead_values","applied":true},{"name":"symmetry","applied":false,"why":"not asked for (--no-symmetry)"},{"name":"field_destinations","applied":false,"why":"no row sends to a node taken from a message field"}\]' && ok ||
    ko "gpu-wt: reductions in the JSON"
"$BIN" check --no-db --json --protocol mesi "$L/MP.litmus" |
    grep -q '"reductions":\[{"name":"por","applied":true},{"name":"dead_values","applied":false,"why":"the protocol declares invariants"},{"name":"symmetry","applied":false,"why":"no two compute units are interchangeable (their threads'"'"' programs or work-groups differ)"},{"name":"field_destinations","applied":false,"why":"no row sends to a node taken from a message field"}\]' &&
    ok || ko "mesi: reductions in the JSON"
# hlrc-probe's owner answers a forwarded probe `to msg.rq`: the field destinations apply.
"$BIN" check --no-db --json --protocol hlrc-probe "$L/MP.litmus" |
    grep -q '{"name":"field_destinations","applied":true}\]' && ok ||
    ko "hlrc-probe: field_destinations in the JSON"
"$BIN" check --no-db --json --no-por --protocol hlrc-probe "$L/MP.litmus" |
    grep -q '{"name":"field_destinations","applied":false,"why":"not asked for (--no-por)"}\]' && ok ||
    ko "hlrc-probe --no-por: field_destinations in the JSON"
# --por is the default: the same counts without the flag.
[ "$("$BIN" check --no-db --json --protocol gpu-wt "$L/IRIW.litmus" | num states)" = 232 ] && ok ||
    ko "--por is not the default"

# Not applicable: full expansion, and the JSON says why.
# Declared invariants: visible steps (docs/por.md, "Declared invariants"). mesi and
# denovo qualify; a state gets a proper set only where no stored owner, sharer or
# requester names the CU (docs/por.md, "Sends to computed nodes").
pin mesi MP 93168 414316 --init warm --env all
pin denovo MP 163208 666860 --init warm --env all
# gpu-wt with an invariant over L1 states: the sets shrink to invisible steps
# (gpu-wt alone: 2841 states), the outcomes stay, a broken invariant is still found.
pin tests/e2e/data/gpu-wt-inv.proto MP 107669 301713 --init warm --env all
pin tests/e2e/data/gpu-wt-inv.proto MP 57 74
# msi with capacity-1 channels (invariant swmr): 2217 states without --por.
pin tests/e2e/data/msi-cap1.proto IRIW 1276 2155
out=$("$BIN" check --no-db --json --por --protocol tests/e2e/data/gpu-wt-inv-bad.proto "$L/IRIW.litmus")
printf '%s' "$out" | grep -q '"states":221,.*"verdict":"invariant".*"por":true' && ok ||
    ko "gpu-wt-inv-bad IRIW --por: $(printf '%s' "$out" | cut -c1-300)"
POR_PROTOCOLS='tests/e2e/data/gpu-wt-inv*.proto' python3 -u tests/e2e/por.py "$BIN" fast >"$T/inv" &&
    ok || ko "por.py on gpu-wt-inv: $(tail -3 "$T/inv")"
# denovo's L1 keeps the requesting thread in a line variable (rtid, live in the states
# that wait): a row entering them without setting it keeps the reduction off.
sed 's/| send GETS to L2; rtid := req.tid; rloc := req.loc; wait | IV/| send GETS to L2; rloc := req.loc; wait | IV/' protocols/denovo.proto >"$T/dn.proto"
! cmp -s "$T/dn.proto" protocols/denovo.proto &&
    "$BIN" check --no-db --json --por --protocol "$T/dn.proto" "$L/MP.litmus" |
    grep -q '"por":false,"por_off":"a done(tid) may complete a thread of another compute unit"' &&
    ok || ko "denovo without rtid on a load miss must keep --por off"
# A global clock (docs/por.md, "Global clocks"): the tick is in no set, and a CU
# qualifies while the times its rows compare have expired. Without --por: tcs MP 1195
# states, tcs-inorder MP 1367, tcw MP 6631, tcw SB 5851, tcw MP warm 377996, tcs SB warm
# 30065, tcs WRC+rel+acqs warm 369520.
pin tcs MP 509 1007
pin tcs-inorder MP 651 1407
pin tcw MP 2731 6433
pin tcw SB 1528 3252
pin tcw MP 110939 519033 --init warm --env all
pin tcs SB 7789 37925 --init warm --env all
pin tcs WRC+rel+acqs 94414 322794 --init warm
# TC-Weak's non-cumulativity under rcpc (a violation; 726061 states without --por).
pin tcw WRC+rel+acqs 168375 474029 --init warm
# tcw with the refreshing fill of tcw-mirefetch: refuted with --por as without.
out=$("$BIN" check --no-db --json --por --protocol tcw-mirefetch --model rcpc --init warm --env l2evict "$L/MP+rel+acq.litmus")
printf '%s' "$out" | grep -q '"verdict":"violation".*"por":true' && ok || ko "tcw-mirefetch --por: $(printf '%s' "$out" | cut -c1-300)"
"$BIN" check --no-db --json --no-por --protocol gpu-wt "$L/MP.litmus" | grep -q '"por":false' && ok ||
    ko "--no-por: JSON por false"

# The store: a --por failure is recorded, traced (replayed from the stored
# positions) and a stopped --por run resumes to the counts of an uninterrupted one.
DB=$T/runs.db
"$BIN" check --db "$DB" --json --por --protocol gpu-wt-noinv --init warm "$L/MP+rel+acq+guard.litmus" >"$T/bad"
[ $? -eq 1 ] && grep -q '"verdict":"violation"' "$T/bad" && ok || ko "stored --por violation: $(cat "$T/bad")"
bad=$(num run <"$T/bad")
"$BIN" trace --db "$DB" "$bad" >"$T/tr" && grep -q 'FAILS\|forbids\|L1\[1\]' "$T/tr" && ! grep -q 'replay failed\|another state' "$T/tr" &&
    ok || ko "trace of a stored --por run: $(head -5 "$T/tr")"
ref=$("$BIN" check --no-db --json --por --protocol gpu-wt --init warm --env fetch "$L/MP+rel+acq+guard.litmus")
rs=$(printf '%s' "$ref" | num states)
rt=$(printf '%s' "$ref" | num transitions)
"$BIN" check --db "$DB" --json --por --protocol gpu-wt --init warm --env fetch --max-states 2000 "$L/MP+rel+acq+guard.litmus" >"$T/stop"
[ $? -eq 3 ] && ok || ko "--por --max-states should exit 3"
run=$(num run <"$T/stop")
"$BIN" resume --db "$DB" --json "$run" >"$T/res"
[ "$(num states <"$T/res")" = "$rs" ] && [ "$(num transitions <"$T/res")" = "$rt" ] && ok ||
    ko "resumed --por run: $(cat "$T/res") != $rs/$rt"
"$BIN" trace --db "$DB" "$run" 1500 >"$T/tr2"
head -n 1 "$T/tr2" | grep -q '^ *1  initial state' && ! grep -q 'replay failed\|another state' "$T/tr2" && ok ||
    ko "trace to a state of a resumed --por run: $(head -3 "$T/tr2")"

# --threads 2 (explore_par.c keeps the same stubborn sets and proviso): a stopped
# --por --threads run resumes to one thread's counts, and the outcomes and verdict
# of --por --threads 2 are --no-por's (a violation, and an ok test with loops).
"$BIN" check --db "$DB" --json --por --threads 2 --protocol gpu-wt --init warm --env fetch --max-states 2000 "$L/MP+rel+acq+guard.litmus" >"$T/stop2"
[ $? -eq 3 ] && [ "$(num states <"$T/stop2")" = 2000 ] && ok || ko "--por --threads 2 --max-states: $(cut -c1-200 "$T/stop2")"
"$BIN" resume --db "$DB" --json "$(num run <"$T/stop2")" >"$T/res2"
[ "$(num states <"$T/res2")" = "$rs" ] && [ "$(num transitions <"$T/res2")" = "$rt" ] && ok ||
    ko "resumed --por --threads 2 run: $(cut -c1-200 "$T/res2") != $rs/$rt"
outs() { sed -n 's/.*"outcomes":\(\[[^]]*\]\).*"verdict":"\([a-z]*\)".*/\1 \2/p'; }
for args in "gpu-wt-noinv --init warm $L/MP+rel+acq+guard.litmus" "gpu-wt --init warm --env all $L/MP+rel+acq+spin.litmus"; do
    # shellcheck disable=SC2086
    a=$("$BIN" check --no-db --json --no-por --protocol $args | outs)
    # shellcheck disable=SC2086
    b=$("$BIN" check --no-db --json --por --threads 2 --protocol $args | outs)
    [ -n "$a" ] && [ "$a" = "$b" ] && ok || ko "--por --threads 2 vs --no-por, $args: $b / $a"
done

# Bad input: --por takes no value.
"$BIN" check --no-db --por=yes --protocol gpu-wt "$L/MP.litmus" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && ok || ko "--por=yes: $(cat "$T/err")"

# The equivalence sweep.
mode=fast
[ -n "$POR_FULL" ] && mode=full
python3 -u tests/e2e/por.py "$BIN" "$mode" && ok || ko "por.py $mode"

echo "por: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
