#!/bin/sh
# Workloads (litmus/workloads, docs/litmus.md "Workloads at scale"): every one parses and
# cites its seed; at its default (tiny) parameters each passes `check` on its target
# protocols with the state and transition counts pinned in workloads.tab; broken protocol
# variants are refuted on them; --param overrides reach the expansion; bad parameters,
# bad scale syntax and programs too large for the explorer exit 2 with FILE:LINE:COL.
# Usage: sh tests/e2e/workloads.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
W=litmus/workloads
n=$(ls $W/*.litmus | wc -l)
if [ "$n" -eq 24 ] && "$BIN" litmus --quiet --model sc $W >"$T/sum" &&
    grep -q "^Summary: 24 tests, 1 model: sc 0 Never 0 Sometimes 24 Always" "$T/sum"; then ok; else
    bad "litmus/workloads: expected 24 workloads, each 'always' under sc: $(tail -1 "$T/sum")"
fi
for f in $W/*.litmus; do
    grep -q "Seed 00[0-4]\|Seeds 00[0-4]" "$f" || bad "$f cites no seed section"
    grep -q "^param " "$f" || bad "$f declares no parameter"
done
ok
# Pinned verdicts and counts at default parameters.
grep -v '^#' tests/e2e/workloads.tab | while read -r w p verdict states trans; do
    out=$("$BIN" check --no-db --no-por --protocol "$p" "$W/$w.litmus" 2>&1)
    want="$p $w .*: $verdict ($states states, $trans transitions,"
    if echo "$out" | grep -q "^$want"; then echo ok; else echo "bad $w on $p: $(echo "$out" | tail -1)"; fi
done >"$T/tab"
c=$(grep -c '^ok$' "$T/tab")
pass=$((pass + c))
if grep -q '^bad' "$T/tab"; then
    fail=$((fail + $(grep -c '^bad' "$T/tab")))
    grep '^bad' "$T/tab" | sed 's/^bad/FAIL/'
fi
[ "$c" -eq "$(grep -vc '^#' tests/e2e/workloads.tab)" ] || bad "workloads.tab: only $c rows passed"
# Broken variants: a wrong final state (exit 1) from a warm start (a stale L1 copy) or cold.
refuted() { # protocol workload init outcome-fragment
    out=$("$BIN" check --no-db --no-por --init "$3" --protocol "$1" "$W/$2.litmus" 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && echo "$out" | grep -q "^$1 $2 [a-z-]*: violation" &&
        echo "$out" | grep -q "forbidden outcome reached:.*$4"; then ok; else
        bad "$1 on $2 ($3) should be refuted with $4 (rc $rc): $(echo "$out" | tail -2)"
    fi
}
refuted gpu-wt-noinv SPM_G warm "data\[0\]=1;"
refuted gpu-wt-noinv FAM_G warm "data\[0\]=1;"
refuted gpu-hrf-noinv SPM_G warm "data\[0\]=1;"
refuted gpu-wt-noflush SPM_G cold "data\[0\]=1;"
refuted nol1-nowait SPM_G cold "data\[0\]=1;"
refuted tcs-nostall mp warm "1:r6=1;"
refuted tcw-nogwct mp warm "1:r6=1;"
# The same broken variant passes a cold start: the workload needs the stale copy warm.
if "$BIN" check --no-db --no-por --protocol gpu-wt-noinv $W/SPM_G.litmus | grep -q ": ok (122 states"; then ok; else
    bad "gpu-wt-noinv SPM_G cold start"
fi
# --param reaches the expansion (litmus and check), and lets derive from it.
if "$BIN" litmus --model sc --param LDST=2 $W/SPM_G.litmus |
    grep -q "^Condition forall (data\[0\]=2 /\\\\ data\[1\]=2)"; then ok; else
    bad "litmus --param LDST=2 SPM_G: condition"
fi
if "$BIN" litmus --model sc --param BINS=3 --param ITEMS=2 $W/HG.litmus |
    grep -q "^Condition forall (bin\[0\]=2 /\\\\ (bin\[1\]=1 /\\\\ bin\[2\]=1))"; then ok; else
    bad "litmus --param BINS=3 ITEMS=2 HG: each bin's count"
fi
if "$BIN" check --no-db --no-por --protocol nol1 --param LDST=2 $W/SPM_G.litmus | grep -q "^nol1 SPM_G sc: ok (141 states, 257 transitions"; then ok; else
    bad "check --param LDST=2 SPM_G on nol1"
fi
if "$BIN" check --no-db --no-por --protocol gpu-hrf --param CUS=2 --param TBS=1 $W/SPM_L.litmus | grep -q "^gpu-hrf SPM_L hrf-indirect: ok (484 states, 1189 transitions"; then ok; else
    bad "check --param CUS=2 TBS=1 SPM_L on gpu-hrf"
fi
# At the paper's scale (15 CUs x 4 TBs) every workload with TBs per CU still expands; the
# model evaluator then refuses it by name (timed mode is what runs it).
for f in $(grep -l '^param TBS' $W/*.litmus); do
    if "$BIN" litmus --param CUS=15 --param TBS=4 "$f" 2>&1 >/dev/null |
        grep -q "^cohcheck: $f: too many threads for the model evaluator (6[01]; at most 16)"; then ok; else
        bad "$f at CUS=15 TBS=4 does not expand to 60 threads"
    fi
done
# Bad parameters: exit 2 and one FILE:LINE:COL line.
bad_param() { # expected-message args...
    msg=$1
    shift
    "$BIN" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q -e "$msg" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ]; then ok; else
        bad "$* should exit 2 with '$msg' (rc $rc): $(cat "$T/err")"
    fi
}
bad_param "SPM_G.litmus:1:1: --param NOPE: neither protocol nol1 nor this test declares NOPE" \
    check --no-db --protocol nol1 --param NOPE=1 $W/SPM_G.litmus
bad_param "SPM_G.litmus:1:1: --param NOPE: this test does not declare NOPE" litmus --param NOPE=1 $W/SPM_G.litmus
bad_param "SPM_G.litmus:14:5: THREADS is a let" check --no-db --protocol nol1 --param THREADS=3 $W/SPM_G.litmus
bad_param "--param needs a whole number from 0 to 32767, not .40000." litmus --param ITERS=40000 $W/SPM_G.litmus
bad_param "param" litmus --param ITERS $W/SPM_G.litmus
bad_param "HG.litmus: too many threads for the model evaluator (40; at most 16)" \
    check --no-db --protocol nol1 --param CUS=40 $W/HG.litmus
bad_param "too many threads for the model evaluator (40; at most 16)" litmus --param CUS=40 $W/HG.litmus
sed '/^param wbuf = 2/a param ITERS = 1' protocols/gpu-wt.proto >"$T/gpu-wt-iters.proto"
bad_param "SPM_G.litmus:1:1: --param ITERS: both protocol gpu-wt and this test declare ITERS" \
    check --no-db --protocol "$T/gpu-wt-iters.proto" --param ITERS=1 $W/SPM_G.litmus
# Bad scale syntax: one FILE:LINE:COL line, exit 2.
printf 'GPU t\nparam N = 2\n{ }\nthreads T[N] {\n  st x (tid / (N - 2)) ;\n}\nforall (x = 0)\n' >"$T/div.litmus"
bad_param "div.litmus:5:13: division by zero" litmus "$T/div.litmus"
printf 'GPU t\nparam N = 2\n{ }\nthreads T[N] {\n  st x[tid] M ;\n}\nforall (x[0] = 0)\n' >"$T/unk.litmus"
bad_param "unk.litmus:5:13: unknown name 'M'" litmus "$T/unk.litmus"
printf 'GPU t\nparam N = 2\n{ }\nthreads T[N] {\n  st x[tid] 1 ;\n}\nforall (all t in 0..N : x[t] = 1)\n' >"$T/oob.litmus"
bad_param "oob.litmus:7:25: condition names location 'x\[2\]'" litmus "$T/oob.litmus"
printf 'GPU t\nparam N = 5000\n{ }\nthreads T[N] {\n  st x 1 ;\n}\nforall (x = 1)\n' >"$T/big.litmus"
bad_param "big.litmus:4:11: thread count 5000 out of range (0..4096)" litmus "$T/big.litmus"
echo "workloads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
