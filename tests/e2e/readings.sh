#!/bin/sh
# Readings (docs/protocol-language.md, Readings): `count --readings` lists
# each marked row, network, param and map with FILE:LINE, the section and the
# text (and --json); a variant keeps its bases' readings it did not replace;
# every protocol in protocols/ that is not a variant carries readings (the
# audit); misplaced readings give one FILE:LINE:COL error and exit 2.
# Usage: sh tests/e2e/readings.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh

# 1. The text form: FILE:LINE of the marked item, the item, (section) text.
line=$(grep -n '^network req  ordered' protocols/gpu-vi.proto | cut -d: -f1)
"$BIN" count --readings gpu-vi >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q "^gpu-vi: [0-9]* readings$" "$T/out" &&
    grep -q "^  protocols/gpu-vi.proto:$line  network req$" "$T/out" &&
    grep -q "^      (seed 004 §3.1, Table 4) the request network keeps point-to-point order" "$T/out"; then
    ok
else
    bad "count --readings gpu-vi: $(head -3 "$T/out")"
fi

# 2. JSON: one object per protocol, every field present.
if "$BIN" count --readings --json hlrc hlrc-probe | python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
assert [o["protocol"] for o in objs] == ["hlrc", "hlrc-probe"], objs
for o in objs:
    assert o["readings"], o["protocol"]
    for r in o["readings"]:
        assert set(r) == {"file", "line", "kind", "item", "section", "text"}, r
        assert r["kind"] in ("row", "network", "param", "map"), r
        assert r["file"].startswith("protocols/hlrc") and r["line"] > 0, r
ld = [r for r in objs[0]["readings"] if r["item"] == "L2 V, R | LD"]
assert ld and "§III-C-1" in ld[0]["section"], objs[0]
probe = [r for r in objs[1]["readings"] if r["item"] == "L2 R | LD"]
assert probe and probe[0]["file"] == "protocols/hlrc-probe.proto", objs[1]
'; then ok; else bad "count --readings --json hlrc hlrc-probe"; fi

# 3. A variant: gpu-vi-unordered redeclares the request network, so gpu-vi's
# reading of it goes and the variant's own comes; the others stay.
"$BIN" count --readings gpu-vi-unordered >"$T/v" 2>&1
if grep -q "^  protocols/gpu-vi-unordered.proto:[0-9]*  network req$" "$T/v" &&
    ! grep -q "^  protocols/gpu-vi.proto:[0-9]*  network req$" "$T/v" &&
    grep -q "^  protocols/gpu-vi.proto:[0-9]*  network fwd$" "$T/v"; then ok; else
    bad "gpu-vi-unordered readings: $(cat "$T/v")"
fi

# 4. The audit: every protocol that is not a variant marks its readings.
for f in protocols/*.proto; do
    grep -q '^protocol [a-z0-9-]* ".*" extends ' "$f" && continue
    n=$(basename "$f" .proto)
    if "$BIN" count --readings --json "$n" | grep -q '"readings":\[{'; then ok; else
        bad "$n has no readings"
    fi
done

# 5. Errors: one FILE:LINE:COL line, exit 2, nothing on stdout.
cp tests/fuzz/seeds-proto/readings.proto "$T/r.proto"
err() { # NAME SED-SCRIPT 'LINE:COL: text'
    sed "$2" "$T/r.proto" >"$T/e.proto"
    "$BIN" count --readings "$T/e.proto" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
        grep -qF -- "$T/e.proto:$3" "$T/err"; then ok; else
        bad "error $1: exit $rc: $(cat "$T/err")"
    fi
}
err first-in-block 's/^  stable I$/  stable I\n  reading "a": "b"/' \
    "10:3: a reading must follow the row, network, param or map it marks"
err after-message 's/^message A on req (tid: tid)$/&\nreading "a": "b"/' \
    "8:1: a reading must follow the row, network, param or map it marks"
err twice 's/^  reading "§3": "every load"$/&\n  reading "§4": "again"/' \
    "22:3: a second reading for one item (one per item)"
err no-colon 's/"seed 9 §2": "ordered"/"seed 9 §2" "ordered"/' "6:24: expected ':' after the section"
err empty 's/"seed 9 §2": "ordered"/"": "ordered"/' "6:11: empty section"
if "$BIN" count --readings --resolved gpu-vi >/dev/null 2>&1; [ $? -eq 2 ]; then ok; else
    bad "--readings with --resolved is not refused"
fi

echo "readings: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
