#!/bin/sh
# herd7's C dialect: hand-written C tests meet their expectations; every core
# test with a C form, written by --to-herd and read back, gives the native
# test's outcomes, observation and race flag under all six models, and the
# same state and transition counts when a protocol runs it; runs of C tests
# are stored and traced; each construct outside the subset is one
# FILE:LINE:COL error with exit 2 (tests/e2e/data/herd-bad, first line of each
# file names the expected position and message).
# Usage: sh tests/e2e/herd.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh

# Hand-written C and OpenCL tests against their expect blocks.
if "$BIN" litmus --expect --quiet tests/e2e/data/herd >"$T/out" 2>&1; then ok; else
    bad "C tests' expectations"
    cat "$T/out"
fi

# Round trip over litmus/core (--opencl: scoped tests too, in the OpenCL dialect).
mkdir "$T/c"
"$BIN" litmus --to-herd "$T/c" --opencl litmus/core >"$T/out" 2>"$T/skipped"
rc=$?
written=$(ls "$T/c" | wc -l)
skipped=$(grep -c 'skipped, no C form' "$T/skipped")
total=$(ls litmus/core/*.litmus | wc -l)
if [ $rc -eq 0 ] && [ $((written + skipped)) -eq "$total" ] && [ "$written" -ge 100 ] &&
    grep -q "^Summary: $written tests written" "$T/out"; then ok; else
    bad "--to-herd: rc $rc, $written written + $skipped skipped != $total"
fi
if head -n 1 "$T/c/MP+rel+acq.litmus" | grep -q '^C MP+rel+acq$' &&
    head -n 1 "$T/c/scoped-MP+wg+diffwg.litmus" | grep -q '^OpenCL scoped-MP+wg+diffwg$' &&
    grep -q 'P1@wg 1, dev 0 (global atomic_int\* x, global atomic_int\* f)' "$T/c/scoped-MP+wg+diffwg.litmus" &&
    grep -q 'memory_scope_work_group' "$T/c/scoped-MP+wg+diffwg.litmus"; then ok; else
    bad "--to-herd headers, placement and scopes"
fi
"$BIN" litmus --json litmus/core >"$T/native.json"
"$BIN" litmus --json "$T/c" >"$T/c.json"
if python3 - "$T/native.json" "$T/c.json" <<'EOF'; then ok; else bad "C round trip changed outcomes"; fi
import json, sys
# A compare-exchange is written with its expected value in a location of its own
# (herd7 takes it by address), read back as a plain read of it (and a store on
# failure): outcomes are compared on the native test's registers and locations.
def load(f, keys=None):
    d = {}
    for line in open(f):
        o = json.loads(line)
        k = (o["test"], o["model"])
        ks = keys[k] if keys and k in keys else None
        outs = set(json.dumps({n: v for n, v in x.items() if ks is None or n in ks},
                              sort_keys=True) for x in o["outcomes"])
        d[k] = (sorted(outs), o["observation"], o.get("racy"))
        if keys is None:
            d[k] = d[k] + (set(o["outcomes"][0]) if o["outcomes"] else set(),)
    return d
a = load(sys.argv[1])
b = load(sys.argv[2], {k: v[3] for k, v in a.items()})
a = {k: v[:3] for k, v in a.items()}
diff = [k for k in b if a.get(k) != b[k]]
for k in diff[:5]:
    print("  differs:", k, a.get(k), b[k])
sys.exit(1 if diff or len(b) < 600 else 0)
EOF
if "$BIN" litmus --expect --quiet "$T/c" >"$T/out" 2>&1; then ok; else bad "written C tests keep their expect blocks"; fi

# The same exploration from either file.
for pt in gpu-wt:MP+rel+acq+guard gpu-wt-noflush:MP+rel+acq+guard gpu-hrf:scoped-MP+wg+diffwg \
    rcc:SB+rel+acq tcw:WRC+rel+acqs; do
    p=${pt%%:*} t=${pt#*:}
    a=$("$BIN" check --no-db --json --protocol "$p" "litmus/core/$t.litmus" | sed 's/"time_s":[^,}]*//; s/"file":"[^"]*"//; s/"omission":[^,}]*//')
    b=$("$BIN" check --no-db --json --protocol "$p" "$T/c/$t.litmus" | sed 's/"time_s":[^,}]*//; s/"file":"[^"]*"//; s/"omission":[^,}]*//')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "check $p $t: native and C differ"; fi
done

# A C test is stored with its source: trace and draw rebuild it.
"$BIN" check --db "$T/db" --protocol gpu-wt-noflush tests/e2e/data/herd/MP+rel+acq+if.litmus >/dev/null 2>&1
if [ $? -eq 1 ] && "$BIN" trace --db "$T/db" 1 | grep -q 'L2 receives' &&
    "$BIN" draw --db "$T/db" --trace 1 -o "$T/t.dot"; then ok; else bad "stored C run"; fi

# A C test keeps its own register names in outcomes and conditions, and its
# header KEY=VALUE lines through --to-herd (which writes the names back).
"$BIN" litmus --json --model rc11 tests/e2e/data/herd/MP+na+rel+acq+diycross.litmus >"$T/names.json"
if grep -q '"outcomes":\[{"1:data":0,"1:flag":0,"y":1,"x":1},{"1:data":1,"1:flag":1,"y":1,"x":1}\]' "$T/names.json" &&
    grep -q '"condition":"exists (1:flag=1 /\\\\ 1:data=0)"' "$T/names.json"; then ok; else
    bad "C register names in outcomes: $(cat "$T/names.json")"
fi
mkdir "$T/cc"
"$BIN" litmus --to-herd "$T/cc" tests/e2e/data/herd/MP+na+rel+acq+diycross.litmus >/dev/null 2>&1
w="$T/cc/MP+na+rel+acq+diycross.litmus"
if grep -q '^Cycle=Fre PodWWNaRel RfeRelAcq PodRRAcqNa$' "$w" && grep -q 'int flag = 0;' "$w" &&
    grep -q '^exists (1:flag=1 /\\ 1:data=0)$' "$w" &&
    [ "$("$BIN" litmus --json --model rc11 "$w" | sed 's/"file":"[^"]*"//; s/"time_s":[^,}]*//')" = \
        "$(sed 's/"file":"[^"]*"//; s/"time_s":[^,}]*//' "$T/names.json")" ]; then ok; else
    bad "--to-herd of a C test: names, header lines"
    cat "$w"
fi

# A model's include not found beside it is looked up in COHCHECK_CAT_LIBDIR or HERDLIB.
mkdir "$T/lib" "$T/m"
printf 'let com = rf | co | fr\n' >"$T/lib/mylib.cat"
printf 'C M\ninclude "mylib.cat"\nacyclic po | com as sc\n' >"$T/m/m.cat"
if ! "$BIN" litmus --model "$T/m/m.cat" litmus/core/SB.litmus >/dev/null 2>&1 &&
    COHCHECK_CAT_LIBDIR="$T/lib" "$BIN" litmus --model "$T/m/m.cat" litmus/core/SB.litmus |
    grep -q '^Observation SB Never 0 3' &&
    HERDLIB="$T/lib" "$BIN" litmus --model "$T/m/m.cat" litmus/core/SB.litmus |
    grep -q '^Observation SB Never 0 3'; then ok; else bad "include from COHCHECK_CAT_LIBDIR/HERDLIB"; fi

# --cat-libdir DIR (every command that loads a model, any position) does the same and overrides the variables.
if COHCHECK_CAT_LIBDIR=/nonexistent "$BIN" litmus --cat-libdir "$T/lib" --model "$T/m/m.cat" \
    litmus/core/SB.litmus | grep -q '^Observation SB Never 0 3' &&
    "$BIN" check --no-db --protocol gpu-wt --model "$T/m/m.cat" --cat-libdir="$T/lib" \
        litmus/core/SB.litmus >/dev/null; then ok; else bad "--cat-libdir"; fi
"$BIN" litmus --cat-libdir "$T/nodir" --model "$T/m/m.cat" litmus/core/SB.litmus >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$T/err")" = "cohcheck: litmus: --cat-libdir $T/nodir: not a folder" ] &&
    [ ! -s "$T/out" ]; then ok; else bad "--cat-libdir with no folder: exit $rc, $(cat "$T/err")"; fi

# herd's own sc.cat, tso.cat, c11_partialSC.cat and c11_simp.cat, copied alone,
# load unchanged with their includes from --cat-libdir (herd7's library, when
# at hand: HERD7_LIBDIR, default ../shared/tools/herd7/share/herdtools7/herd).
HL=${HERD7_LIBDIR:-../shared/tools/herd7/share/herdtools7/herd}
if [ -f "$HL/c11_simp.cat" ]; then
    mkdir "$T/h"
    for m in sc tso c11_partialSC c11_simp rc11; do cp "$HL/$m.cat" "$T/h/"; done
    "$BIN" litmus --cat-libdir "$HL" --model "$T/h/sc.cat" --model "$T/h/tso.cat" \
        --model "$T/h/c11_partialSC.cat" --model "$T/h/c11_simp.cat" --model "$T/h/rc11.cat" \
        litmus/core/SB.litmus litmus/core/MP+rel+acq.litmus litmus/core/RMW-exch.litmus >"$T/out" 2>&1
    if grep -q '^Summary: 3 tests, 5 models: sc 3 Never 0 Sometimes 0 Always; tso 2 Never 1 Sometimes 0 Always; c11_partialSC 2 Never 0 Sometimes 1 Always (2 racy); c11_simp 2 Never 0 Sometimes 1 Always (2 racy); rc11 2 Never 1 Sometimes 0 Always (2 racy)' "$T/out"; then ok; else
        bad "herd's models from --cat-libdir: $(tail -n 1 "$T/out")"
    fi
else
    echo "herd: herd's model files skipped: no herd7 library at $HL (set HERD7_LIBDIR)"
fi

# Values: negative and wide literals (tests/e2e/data/herd-values: herd7 7.58 gives
# the same states, tests/e2e/herd-diff.sh), herd7's "States" form with a sign.
"$BIN" litmus --model sc tests/e2e/data/herd-values >"$T/out" 2>&1
if grep -q '^Summary: 5 tests, 1 model: sc 3 Never 2 Sometimes 0 Always' "$T/out" &&
    grep -q '^1:r0=-3; 1:r1=-7; x=-7; y=-3;$' "$T/out" &&
    grep -q '^0:r0=1; 1:r1=-1; x=-1000001; (\*)$' "$T/out" &&
    grep -q '^0:r0=-2147483648; 1:r0=-2147483648; x=-2147483648; y=2147483647;$' "$T/out"; then
    ok
else
    bad "negative and 32-bit values: $(tail -n 1 "$T/out")"
fi
W=tests/e2e/data/values/wide.litmus
"$BIN" litmus --json --model sc "$W" >"$T/out" 2>&1
if grep -q '"outcomes":\[{"0:r0":-9223372036854775808,"1:r1":4294967296,"1:r2":-9223372036854775808,"x":-9223372036854775808,"y":4294967296},{"0:r0":-9223372036854775808,"1:r1":4294967296,"1:r2":-5,' "$T/out" &&
    grep -q '"observation":"sometimes"' "$T/out"; then ok; else
    bad "64-bit values in --json: $(cat "$T/out")"
fi
if "$BIN" litmus --model sc --model rcpc tests/e2e/data/values/wrap.litmus >"$T/out" 2>&1 &&
    [ "$(grep -c '^Observation wrap Always 1 0$' "$T/out")" -eq 2 ]; then ok; else
    bad "64-bit wrap-around: $(tail -n 1 "$T/out")"
fi
# What does not fit a consumer's slots: one error at the value, exit 2, nothing written.
for c in "check --protocol protocols/mesi.proto --db $T/v.db|the explorer's 16-bit slots (-32767..32767)" \
    "sim --protocol protocols/mesi.proto --workload|timed mode's 32-bit registers (-2147483648..2147483647)" \
    "export --murphi -o $T/v.m --protocol protocols/mesi.proto|the explorer's 16-bit slots (-32767..32767)"; do
    # shellcheck disable=SC2086
    "$BIN" ${c%%|*} "$W" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ ! -e "$T/v.m" ] &&
        [ "$(cat "$T/err")" = "cohcheck: $W:3:1: value 4294967296 does not fit ${c#*|}" ]; then ok; else
        bad "${c%% *} on 64-bit values: exit $rc, $(cat "$T/err")"
    fi
done
"$BIN" check --protocol protocols/mesi.proto --db "$T/v.db" tests/e2e/data/herd-values/MP+neg.litmus >"$T/out" 2>&1
if grep -q '^mesi MP+neg sc: ok (80 states, 121 transitions' "$T/out"; then ok; else
    bad "the explorer on small negative values: $(head -n 1 "$T/out")"
fi
mkdir "$T/v"
"$BIN" litmus --to-herd "$T/v" "$W" tests/e2e/data/herd-values >"$T/out" 2>"$T/err"
if grep -q '^Summary: 5 tests written' "$T/out" &&
    grep -q "wide.litmus: skipped, no C form: the value 4294967296 is outside herd7's 32-bit C values" "$T/err" &&
    grep -q '^{ x = -1; y = -2; }$' "$T/v/MP+neg.litmus"; then ok; else
    bad "--to-herd of negative and wide values: $(cat "$T/err")"
fi

# Errors: the first line of each file is "// FILE:LINE:COL: message".
for f in tests/e2e/data/herd-bad/*.litmus; do
    want=$(head -n 1 "$f" | sed 's|^// ||')
    "$BIN" litmus "$f" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(cat "$T/err")" = "cohcheck: $want" ] && [ ! -s "$T/out" ]; then ok; else
        bad "$f: exit $rc, got '$(cat "$T/err")', want 'cohcheck: $want'"
    fi
done

echo "herd: $pass passed, $fail failed"
[ $fail -eq 0 ]
