#!/bin/sh
# cohcheck regress: gpu-wt -> gpu-wt-noinv names the test whose verdict got worse
# and the outcome gained, and exits 1; identical versions change nothing and
# exit 0; git revisions are read with git show; bad input exits 2.
# Usage: sh tests/e2e/regress.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
C=litmus/core
"$BIN" regress --no-por --init warm gpu-wt gpu-wt-noinv $C/MP+rel+acq+guard.litmus $C/SB.litmus $C/CoRR.litmus >"$T/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^WORSE MP+rel+acq+guard drf: ok -> violation; states 640 -> 784, transitions 1140 -> 1268$' "$T/out" &&
    grep -A1 'outcomes gained:' "$T/out" | grep -q '1:r0=1; 1:r1=0; x=1; y=1;' &&
    tail -n 1 "$T/out" | grep -q '3 runs (3 tests x 1 models), [0-9]* changed, 1 got worse$' &&
    ! grep -q '^WORSE SB' "$T/out"; then ok; else
    bad "gpu-wt -> gpu-wt-noinv (exit $rc)"
    cat "$T/out"
fi
"$BIN" regress --json --no-por --init warm gpu-wt gpu-wt-noinv $C/MP+rel+acq+guard.litmus >"$T/json" 2>&1
if grep -q '"test":"MP+rel+acq+guard","model":"drf","old":{"verdict":"ok","states":640,"transitions":1140},"new":{"verdict":"violation","states":784,"transitions":1268},"worse":true,"gained":\[{"1:r0":1,"1:r1":0,"x":1,"y":1}\],"lost":\[\]}' "$T/json"; then ok; else
    bad "regress --json: $(cat "$T/json")"
fi
if "$BIN" regress gpu-wt protocols/gpu-wt.proto $C/MP.litmus >"$T/out" 2>&1 &&
    tail -n 1 "$T/out" | grep -q '0 changed, 0 got worse$'; then ok; else bad "identical versions"; fi
# A fixed version improves: nothing got worse, exit 0.
if "$BIN" regress --init warm gpu-wt-noinv gpu-wt $C/MP+rel+acq+guard.litmus >"$T/out" 2>&1 &&
    grep -q '^changed MP+rel+acq+guard drf: violation -> ok' "$T/out"; then ok; else bad "an improvement"; fi
if git rev-parse --verify -q HEAD >/dev/null 2>&1 && git cat-file -e HEAD:protocols/gpu-wt.proto 2>/dev/null; then
    if "$BIN" regress HEAD:protocols/gpu-wt.proto gpu-wt $C/MP.litmus >"$T/out" 2>&1; then ok; else bad "git revision: $(cat "$T/out")"; fi
fi
for args in "gpu-wt" "gpu-wt gpu-wt" "nope:protocols/x.proto gpu-wt $C/MP.litmus" "gpu-wt gpu-wt /nonexistent"; do
    # shellcheck disable=SC2086
    "$BIN" regress $args >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then ok; else bad "regress $args: exit $rc, $(cat "$T/err")"; fi
done
echo "regress: $pass passed, $fail failed"
[ $fail -eq 0 ]
