#!/bin/sh
# cohcheck classify: pinned placements of protocols in the model lattice on a small
# suite (passes, fails, strongest, separating tests with depth, steps and the
# forbidden outcome), the TC-Weak MI readings, incomplete searches (undecided,
# exit 3), bad input (exit 2, one line), and models/lattice itself: every edge
# A < B holds on litmus/core, litmus/ptx and litmus/vulkan (allowed(A) within
# allowed(B); a test racy under B allows everything).
# Usage: sh tests/e2e/classify.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
C=litmus/core
SUITE="$C/SB.litmus $C/SB+rel+acq.litmus $C/MP+rel+acq.litmus $C/LB.litmus $C/IRIW+acqs.litmus
       $C/scoped-MP+wg+diffwg.litmus $C/scoped-2RMW+wg+agent+diffwg.litmus"
# field JSON KEY: the value of KEY in one JSON object, compactly.
field() { python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])[sys.argv[2]], separators=(",", ":")))' "$1" "$2"; }
sep() { python3 -c 'import json,sys; print(" ".join("%s:%s:%d:%d:%s" % (s["model"], s["test"], s["depth"], s["steps"], json.dumps(s["outcome"], separators=(",", ":"), sort_keys=True)) for s in json.loads(sys.argv[1])["separating"]))' "$1"; }
expect() { # expect WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok; else bad "$1: got $2, want $3"; fi
}

# QuickRelease: TSO-like store buffering; passes tso and C11 rcpc, not sc or rcsc.
# shellcheck disable=SC2086
j=$("$BIN" classify --protocol qr --json $SUITE)
expect "qr exit" $? 0
expect "qr passes" "$(field "$j" passes)" '["tso","pc","rcpc-gh","rcpc","ptx","vulkan"]'
expect "qr fails" "$(field "$j" fails)" '["sc","rcsc","drf","hrf-indirect","hrf-direct"]'
expect "qr strongest" "$(field "$j" strongest)" '["tso","rcpc"]'
expect "qr separating" "$(sep "$j")" 'sc:SB:16:17:{"0:r0":0,"1:r0":0,"x":1,"y":1} rcsc:SB+rel+acq:24:25:{"0:r0":0,"1:r0":0,"x":1,"y":1}'
expect "qr counts" "$(field "$j" tests) $(field "$j" explored) $(field "$j" skipped) $(field "$j" incomplete)" '7 7 [] []'
# shellcheck disable=SC2086
"$BIN" classify --protocol qr $SUITE >"$T/out"
if grep -q '^  strongest tso rcpc$' "$T/out" &&
    grep -q '^  sc fails on 2 tests; separating test SB (violation, 17 steps):$' "$T/out" &&
    grep -q '^    reached an outcome the model forbids: 0:r0=0; 1:r0=0; x=1; y=1;$' "$T/out" &&
    grep -q '^     17  L1\[1\] receives INV from L2 for y$' "$T/out"; then ok; else bad "qr text: $(cat "$T/out")"; fi
# shellcheck disable=SC2086
expect "qr row" "$("$BIN" classify --protocol qr --row $SUITE)" '| qr | cold | `tso`, `rcpc` | `sc`: SB (17 steps); `rcsc`: SB+rel+acq (25 steps) | 7/7 |'

# gpu-hrf: scoped; work-group-scoped RMWs of two work-groups lose an update.
# shellcheck disable=SC2086
j=$("$BIN" classify --protocol gpu-hrf --json $SUITE)
expect "gpu-hrf strongest" "$(field "$j" strongest)" '["ptx","hrf-indirect"]'
expect "gpu-hrf separating" "$(sep "$j")" 'tso:scoped-2RMW+wg+agent+diffwg:11:12:{"0:r0":0,"1:r1":0,"c":1} rcsc:scoped-2RMW+wg+agent+diffwg:11:12:{"0:r0":0,"1:r1":0,"c":1} drf:scoped-2RMW+wg+agent+diffwg:11:12:{"0:r0":0,"1:r1":0,"c":1}'

# TC-Weak's L2 MI row: the stall reading passes everything here; the refetch reading
# loses the GWCT (the IM fill answers a plain ACK) and is refuted under rcpc.
j=$("$BIN" classify --protocol tcw --init warm --env l2evict --json $C/MP+rel+acq.litmus)
expect "tcw strongest" "$(field "$j" strongest)" '["sc"]'
j=$("$BIN" classify --protocol tcw-mirefetch --init warm --env l2evict --json $C/MP+rel+acq.litmus)
expect "tcw-mirefetch fails" "$(field "$j" fails)" '["sc","tso","pc","rcsc","rcpc-gh","rcpc","ptx"]'
expect "tcw-mirefetch strongest" "$(field "$j" strongest)" '["vulkan","drf"]'
expect "tcw-mirefetch separating" "$(sep "$j")" 'rcsc:MP+rel+acq:13:14:{"1:r0":1,"1:r1":0,"x":1,"y":1} rcpc:MP+rel+acq:13:14:{"1:r0":1,"1:r1":0,"x":1,"y":1} ptx:MP+rel+acq:13:14:{"1:r0":1,"1:r1":0,"x":1,"y":1}'

# An incomplete search decides nothing it did not see: undecided, exit 3.
"$BIN" classify --protocol qr --max-states 50 --json $C/IRIW+acqs.litmus $C/SB.litmus >"$T/j"
rc=$?
j=$(cat "$T/j")
expect "incomplete exit" $rc 3
expect "incomplete passes" "$(field "$j" passes)" '[]'
expect "incomplete list" "$(field "$j" incomplete)" '["IRIW+acqs","SB"]'
expect "incomplete undecided" "$(field "$j" undecided)" '["sc","tso","pc","rcsc","rcpc-gh","rcpc","ptx","vulkan","drf","hrf-indirect","hrf-direct"]'

# Bad input: one line, exit 2.
printf 'model a b\na < b\nb < a\n' >"$T/cyc"
printf 'sc < nosuchmodel\n' >"$T/unknown"
for args in "" "--protocol qr" "--protocol nope $C/SB.litmus" "--protocol qr --lattice $T/cyc $C/SB.litmus" \
    "--protocol qr --lattice $T/unknown $C/SB.litmus" "--protocol qr --max-states 0 $C/SB.litmus" \
    "--protocol qr $T" "--protocol qr --bogus $C/SB.litmus"; do
    # shellcheck disable=SC2086
    "$BIN" classify $args >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then ok; else bad "classify $args: exit $rc, $(cat "$T/err")"; fi
done
if grep -q "cyc:3:5: cycle: 'a' would be stronger than itself" "$T/err" 2>/dev/null ||
    "$BIN" classify --protocol qr --lattice "$T/cyc" $C/SB.litmus 2>&1 | grep -q "cyc:3:5: cycle: 'a' would be stronger than itself$"; then ok; else bad "lattice cycle position"; fi

# models/lattice holds on the suites: for every edge A < B (closed), A's allowed
# outcomes are B's on every test (a test racy under B allows everything).
models=$(grep '^model' models/lattice | cut -d' ' -f2-)
margs=""
for m in $models; do margs="$margs --model $m"; done
# shellcheck disable=SC2086
"$BIN" litmus --json $margs $C litmus/ptx litmus/vulkan >"$T/all.json"
python3 - "$T/all.json" models/lattice >"$T/lat" <<'PY'
import json, sys, collections
d = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    o = json.loads(line)
    d[o["test"]][o["model"]] = (bool(o.get("racy")), {json.dumps(x, sort_keys=True) for x in o["outcomes"]})
edges = []
for line in open(sys.argv[2]):
    line = line.split("#")[0].split()
    if not line or line[0] == "model":
        continue
    names = [w for w in line if w != "<"]
    edges += list(zip(names, names[1:]))
bad = 0
for a, b in edges:
    for t, r in d.items():
        (ra, oa), (rb, ob) = r[a], r[b]
        if not rb and (ra or not oa <= ob):
            print("edge %s < %s fails on %s" % (a, b, t))
            bad += 1
print("edges %d tests %d bad %d" % (len(edges), len(d), bad))
PY
# Every test of the three suites (litmus/core grows: count them, do not pin the number).
nlat=$(ls $C/*.litmus litmus/ptx/*.litmus litmus/vulkan/*.litmus | wc -l | tr -d ' ')
if tail -n 1 "$T/lat" | grep -q "^edges 13 tests $nlat bad 0\$"; then ok; else bad "lattice on the suites: $(cat "$T/lat")"; fi
# The new models' observations on litmus/core, pinned (tests/e2e/data/lattice-core.tab).
"$BIN" litmus --json --model tso --model pc --model rcpc-gh --model ptx --model vulkan $C |
    python3 -c '
import sys, json, collections
d = collections.OrderedDict()
for line in sys.stdin:
    o = json.loads(line)
    d.setdefault(o["test"], []).append(o["observation"] + ("+racy" if o.get("racy") else ""))
for t, v in sorted(d.items()):
    print(t, " ".join(v))' >"$T/core.tab"
grep -v '^#' tests/e2e/data/lattice-core.tab | awk '{$1=$1; print}' >"$T/want.tab"
# Only the tests the table lists (tests added to litmus/core later are not pinned here).
awk 'NR == FNR { w[$1] = 1; next } ($1 in w)' "$T/want.tab" "$T/core.tab" >"$T/got.tab"
if [ "$(wc -l <"$T/want.tab")" -eq 153 ] && diff "$T/want.tab" "$T/got.tab" >"$T/diff"; then ok; else bad "litmus/core under the new models: $(cat "$T/diff")"; fi
# --liveness: RCC's read-only spin (no tick) livelocks, a protocol error that fails every
# model with the lasso as separating trace; without it the same tests pass sc.
expect_rc 1 "classify --liveness rcc spin" "$BIN" classify --protocol rcc --liveness --json \
    $C/MP+rlx+spin.litmus $C/MP.litmus
python3 - "$T/out" <<'PY' && ok || bad "classify --liveness: $(head -c 300 "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["passes"] == [] and "sc" in d["fails"] and d["protocol_errors"] == 1, d
s = d["separating"]
assert s and all(x["verdict"] == "livelock" and x["test"] == "MP+rlx+spin" for x in s), s
assert any(t.startswith("---- cycle:") for t in s[0]["trace"]), s[0]["trace"]
PY
expect_rc 0 "classify rcc spin without --liveness" "$BIN" classify --protocol rcc --json \
    $C/MP+rlx+spin.litmus $C/MP.litmus
grep -q '"strongest":\["sc"\]' "$T/out" && ok || bad "classify rcc: $(head -c 300 "$T/out")"
echo "classify: $pass passed, $fail failed"
[ $fail -eq 0 ]
