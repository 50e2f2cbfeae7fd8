#!/bin/sh
# `cohcheck count` pinned: the published state counts reproduced exactly and the
# transition counts as reports/counts.md states them.
# Usage: sh tests/e2e/count.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
pass=0
fail=0
expect() { # PROTOCOL CONTROLLER "stable transient coherent transitions branches"
    got=$("$BIN" count --json "$1" | tr '{' '\n' | grep "\"controller\":\"$2\"" |
        sed -n 's/.*"stable":\([0-9]*\),"transient":\([0-9]*\),"coherent":\([0-9]*\),"transitions":\([0-9]*\),"branches":\([0-9]*\).*/\1 \2 \3 \4 \5/p')
    if [ "$got" = "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL count $1 $2: got '$got', want '$3'"
    fi
}
expect rcc L1 "2 3 0 26 33"
expect rcc L2 "2 2 0 11 14"
expect tcw L1 "2 3 1 31 41"
expect tcw L2 "4 3 1 24 34"
expect tcs L1 "2 3 1 22 24"
expect tcs L2 "4 3 1 24 28"
expect gpu-wt L1 "2 2 0 32 30"
# the papers' figures travel with the protocol
if "$BIN" count rcc | grep -q 'published (seed 003 Table V): stable 2 transient 3 transitions 33'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL count rcc: published figures not shown"
fi
# hlrc (seed 001 Table 3 c0-c23): every label is cited (exit 0), each by the rows listed in
# reports/counts.md; hlrc-noinv drops exactly the invalidation cells, which count reports (exit 1).
expect hlrc L1 "3 8 0 56 59"
expect hlrc L2 "2 0 0 12 13"
expect hlrc-probe L1 "3 10 0 75 76"
expect hlrc-probe L2 "2 0 0 14 19"
out=$("$BIN" count hlrc 2>&1) && lab=$(printf '%s\n' "$out" | grep -c '^    c[0-9]* *L[12] hlrc.proto:[0-9]') &&
    [ "$lab" -eq 24 ] && printf '%s\n' "$out" | grep -q '^    c4    L1 hlrc.proto:[0-9]* L1 .* L2 hlrc.proto:[0-9]*$' &&
    ! printf '%s\n' "$out" | grep -q ERROR
if [ $? -eq 0 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL count hlrc: labels c0-c23 not all cited"
fi
"$BIN" count hlrc-noinv >"${TMPDIR:-/tmp}/count-noinv.$$" 2>&1
rc=$?
got=$(grep 'ERROR: no row cites this label' "${TMPDIR:-/tmp}/count-noinv.$$" | awk '{print $1}' | tr '\n' ' ')
rm -f "${TMPDIR:-/tmp}/count-noinv.$$"
if [ "$rc" -eq 1 ] && [ "$got" = "c3 c7 c11 c15 c19 c23 " ]; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "FAIL count hlrc-noinv: exit $rc, uncited '$got'"
fi
# Directory protocols (issue 9): reports/counts.md "Directory protocols"
expect gpu-vi L1 "2 2 1 26 27"
expect gpu-vi L2 "3 2 2 13 20"
expect gpu-vini L1 "2 2 1 26 27"
expect gpu-vini L2 "4 3 3 17 25"
expect mesi L1 "4 6 4 35 38"
expect mesi L2 "4 5 5 19 23"
if "$BIN" count mesi | grep -q 'published (seed 003 Table V): stable 5 transient 11 transitions 81' &&
    "$BIN" count gpu-vini | grep -q 'published (seed 004 Table 1): stable 5 transient 10 (coherent 8)'; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL count mesi/gpu-vini: published figures not shown"
fi
# DeNovo (seed 001 Table 3, DeNovo column): counts, and the rows (L1+L2) citing each of b0-b26.
expect denovo L1 "3 7 0 72 70"
expect denovo L2 "2 2 0 9 9"
expect denovo-b L1 "3 7 0 72 70"
expect denovo-b L2 "2 2 0 9 9"
for p in denovo denovo-b; do
    got=$("$BIN" count --json "$p" | tr '{' '\n' |
        sed -n 's/^"label":"\(b[0-9]*\)","rows":\[\([^]]*\)\].*/\1 \2/p' |
        awk '{l = gsub(/"L1 /, ""); c = gsub(/"L2 /, ""); printf "%s:%d+%d ", $1, l, c}')
    want="b0:1+0 b1:4+0 b2:1+1 b3:1+0 b4:3+0 b5:2+3 b6:1+0 b7:3+0 b8:5+0 b9:1+0 b10:4+0 b11:1+1 b12:1+0 b13:4+0 b14:2+3 b15:1+0 b16:4+0 b17:1+0 b18:3+0 b19:4+0 b20:1+1 b21:1+0 b22:3+0 b23:4+0 b24:2+3 b25:1+0 b26:3+0 "
    if [ "$got" = "$want" ] && "$BIN" count "$p" >/dev/null; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL count $p labels: got '$got'"
    fi
done
echo "count: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
