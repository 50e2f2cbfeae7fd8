#!/bin/sh
# Symmetry reduction (docs/por.md, "Symmetry"; on by default): pinned state counts with
# --no-symmetry and --symmetry on tests with interchangeable compute units (identical spin
# workers, idle CUs), the same outcomes, the classes or the reason in the JSON, refusals,
# a real counterexample trace, a stored default run traced, drawn, resumed and checked,
# a --no-symmetry run resumed to the full counts; then the equivalence sweep
# (tests/e2e/sym.py) on a few protocols (SYM_FULL=1: every protocol, larger bounds).
# Usage: sh tests/e2e/sym.sh ./cohcheck
BIN=${1:-./cohcheck}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
num() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }
outs() { sed -n 's/.*"outcomes":\(\[[^]]*\]\).*/\1/p'; }

# pin TEST STATES TRANSITIONS SYM_STATES SYM_TRANSITIONS OPTIONS...: counts without and
# with --symmetry, and the same outcome list.
pin() {
    t=$1 s=$2 tr=$3 ss=$4 str=$5
    shift 5
    a=$("$BIN" check --no-db --json --no-symmetry "$@" "litmus/$t.litmus")
    b=$("$BIN" check --no-db --json --symmetry "$@" "litmus/$t.litmus")
    got="$(printf '%s' "$a" | num states)/$(printf '%s' "$a" | num transitions)"
    got="$got $(printf '%s' "$b" | num states)/$(printf '%s' "$b" | num transitions)"
    [ "$got" = "$s/$tr $ss/$str" ] && ok || ko "pin $t $*: got $got, want $s/$tr $ss/$str"
    [ "$(printf '%s' "$a" | outs)" = "$(printf '%s' "$b" | outs)" ] && ok ||
        ko "pin $t $*: outcomes differ"
    printf '%s' "$b" | grep -q '"name":"symmetry","applied":true' && ok ||
        ko "pin $t $*: symmetry not applied"
}
# HeteroSync spin mutex (seed 002 section III-A1): two identical TBs on two CUs.
pin workloads/SPM_G 123 143 61 71 --protocol gpu-wt
pin workloads/SPM_G 242 439 122 222 --protocol gpu-wt --no-por
pin workloads/SPM_G 132 207 67 106 --protocol mesi
pin workloads/SPM_G 183 281 93 143 --protocol denovo
pin workloads/SPM_G 218 367 110 186 --protocol denovo --no-por
# Two identical fetch-and-adds, two idle CUs: two classes.
pin core/RMW-add2 22 29 12 17 --protocol mesi --cus 4
# Idle CUs with warm lines: only they are interchangeable.
pin core/MP 3712 4352 2320 2816 --protocol gpu-wt --cus 4 --init warm
pin core/MP 10752 21568 6720 13576 --protocol gpu-wt --cus 4 --init warm --no-por

# jsym WANT OPTIONS...: the symmetry entry of "reductions" contains WANT.
jsym() {
    w=$1
    shift
    "$BIN" check --no-db --json "$@" >"$T/j" 2>"$T/e"
    grep -o '{"name":"symmetry".*' "$T/j" >"$T/r"
    grep -qF -- "$w" "$T/r" && ok || ko "symmetry entry of $*: want $w, got $(cat "$T/r")"
}
jsym '"classes":"CUs {0,1} {2,3}"' --symmetry --protocol mesi --cus 4 litmus/core/RMW-add2.litmus
jsym '"why":"not asked for (--no-symmetry)"' --no-symmetry --protocol mesi litmus/core/RMW-add2.litmus
# On by default: the same classes and the --symmetry counts without the flag.
jsym '"classes":"CUs {0,1} {2,3}"' --protocol mesi --cus 4 litmus/core/RMW-add2.litmus
"$BIN" check --no-db --json --protocol mesi --cus 4 litmus/core/RMW-add2.litmus |
    grep -q '"states":12,"transitions":17,' && ok || ko "default RMW-add2 --cus 4: not 12/17"
jsym '"why":"--liveness' --liveness --protocol gpu-wt litmus/workloads/SPM_G.litmus
jsym 'no two compute units are interchangeable' --symmetry --protocol gpu-wt litmus/core/MP.litmus
# rcc's L2 enters IV on a WRITE without setting r1src, kept in IV and reset to node 0
# (L1[0]) elsewhere: permuting CU 0 would not commute with the reset (sym_reset_exposed).
jsym 'a row of L2 (line 214) enters a state that keeps r1src without setting it' \
    --protocol rcc litmus/workloads/SPM_G.litmus
# ... but where CU 0 stays put (CoRR2's readers on CUs 2 and 3), it applies.
jsym '"classes":"CUs {2,3}"' --protocol rcc litmus/core/CoRR2.litmus
jsym '"why":"--liveness' --symmetry --liveness --protocol gpu-wt litmus/workloads/SPM_G.litmus
jsym '"classes":"CUs {0,1}"' --symmetry --threads 2 --protocol gpu-wt litmus/workloads/SPM_G.litmus
# With --threads the counts are one thread's with symmetry (tests/e2e/threads.sh).
"$BIN" check --no-db --json --symmetry --threads 2 --protocol gpu-wt \
    litmus/workloads/SPM_G.litmus | grep -q '"states":61,' && ok || ko "--threads 2 counts"

# A lost update (denovo-nofwd, seed 004's DeNovo with its forwarding removed): the
# same failure, and the trace is a real execution (no replay failure line).
a=$("$BIN" check --no-db --json --no-symmetry --protocol denovo-nofwd --cus 4 \
    litmus/core/RMW-add2.litmus)
b=$("$BIN" check --no-db --json --symmetry --protocol denovo-nofwd --cus 4 \
    litmus/core/RMW-add2.litmus)
printf '%s' "$a" | grep -q '"verdict":"violation"' && printf '%s' "$b" |
    grep -q '"verdict":"violation"' && ok || ko "denovo-nofwd RMW-add2: verdicts"
printf '%s' "$b" | grep -q '"trace":\["initial state' && ok || ko "denovo-nofwd: no trace"
printf '%s' "$b" | grep -q 'trace replay\|no real execution' && ko "denovo-nofwd: $b" || ok
printf '%s' "$b" | grep -q '"states":17,' && ok || ko "denovo-nofwd: states"

# Store, with symmetry on by default: the stored run's trace is the check's (a real
# execution), draw --trace charts it, an interrupted run resumes to the uninterrupted
# counts, and a run stored with --no-symmetry resumes to the full graph's.
D="$T/s.db"
"$BIN" check --db "$D" --protocol denovo-nofwd --cus 4 \
    litmus/core/RMW-add2.litmus >"$T/c" 2>&1
"$BIN" trace --db "$D" 1 >"$T/t" 2>&1 && ok || ko "trace: $(head -3 "$T/t")"
grep '^ *[0-9][0-9]*  ' "$T/c" >"$T/c1"
grep '^ *[0-9][0-9]*  ' "$T/t" >"$T/t1"
[ -s "$T/c1" ] && cmp -s "$T/c1" "$T/t1" && ok || ko "stored trace differs from check's"
# draw --trace charts the real execution: its steps are the check's trace lines.
"$BIN" draw --db "$D" --trace 1 -o "$T/d.dot" >/dev/null 2>&1 &&
    grep -o 'label="[0-9][0-9]*  [^\\"]*' "$T/d.dot" | sed 's/label="//' >"$T/d1" &&
    sed -n 's/^ *\([0-9][0-9]*  [^|]*\).*/\1/p' "$T/c" | sed 's/ *$//' >"$T/c2" &&
    [ "$(wc -l <"$T/d1")" -gt 10 ] && cmp -s "$T/d1" "$T/c2" && ok || ko "draw --trace"
"$BIN" check --db "$D" --max-states 30 --protocol gpu-wt \
    litmus/workloads/SPM_G.litmus >/dev/null 2>&1
"$BIN" resume --db "$D" 2 >"$T/r" 2>&1
grep -q 'ok (61 states, 71 transitions; resumed run 2 from 30 states)' "$T/r" && ok ||
    ko "resume: $(cat "$T/r")"
"$BIN" check --db "$D" --no-symmetry --max-states 30 --protocol gpu-wt \
    litmus/workloads/SPM_G.litmus >/dev/null 2>&1
"$BIN" resume --db "$D" 3 >"$T/r" 2>&1
grep -q 'ok (123 states, 143 transitions; resumed run 3 from 30 states)' "$T/r" && ok ||
    ko "resume of a --no-symmetry run: $(cat "$T/r")"
# Every stored state of the default run is canonical: the store's replay check agrees.
"$BIN" store check --quiet "$D" >"$T/sc" 2>&1 && ok || ko "store check: $(cat "$T/sc")"

# The equivalence sweep.
if [ "${SYM_FULL:-0}" = 1 ]; then
    python3 tests/e2e/sym.py "$BIN" full && ok || ko "sym.py full"
else
    SYM_PROTOCOLS="protocols/gpu-wt.proto protocols/mesi.proto protocols/denovo-nofwd.proto" \
        SYM_TESTS="litmus/workloads/*.litmus litmus/core/RMW-add2.litmus litmus/core/CAS-*.litmus" \
        python3 tests/e2e/sym.py "$BIN" fast && ok || ko "sym.py"
    SYM_PROTOCOLS="protocols/gpu-wt-noinv.proto protocols/rcc.proto" SYM_ARGS="--cus 4" \
        SYM_TESTS="litmus/core/MP+rel+acq+guard.litmus litmus/core/SB.litmus" \
        python3 tests/e2e/sym.py "$BIN" fast && ok || ko "sym.py --cus 4"
fi
echo "sym: $pass passed, $fail failed"
[ "$fail" = 0 ]
