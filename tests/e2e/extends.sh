#!/bin/sh
# Protocol language v2 end to end: every protocol's resolved form (`count
# --resolved`) parses and resolves to itself; every variant's resolved tables
# equal its old full copy's (tests/e2e/data/resolved/*.proto, kept from before
# `extends`) cell by cell; labels are listed; bad variants give one
# FILE:LINE:COL error and exit 2; a variant's stored run resumes from the store.
# Usage: sh tests/e2e/extends.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}

# 1. Resolved forms are standalone protocols that resolve to themselves.
# Counts must be equal; a label's citing rows are compared by controller, not
# by FILE:LINE (the resolved text has its own line numbers).
NOLOC='s/"protocol":"[^"]*"//; s/ [^ "]*\.proto:[0-9]*"/"/g'
for f in protocols/*.proto tests/e2e/data/msi*.proto tests/e2e/data/wc*.proto; do
    n=$(basename "$f" .proto)
    if "$BIN" count --resolved "$f" >"$T/$n.r1.proto" 2>"$T/err" &&
        "$BIN" count --resolved "$T/$n.r1.proto" >"$T/$n.r2.proto" 2>>"$T/err" &&
        python3 tests/e2e/samecells.py "$T/$n.r1.proto" "$T/$n.r2.proto" >"$T/diff" &&
        [ "$("$BIN" count --json "$f" | sed "$NOLOC")" = \
            "$("$BIN" count --json "$T/$n.r1.proto" | sed "$NOLOC")" ]; then
        ok
    else
        bad "resolved $f"
        head -5 "$T/err" "$T/diff"
    fi
done

# 2. Each variant resolves to exactly the tables its full copy declared (the
# copies predate predictors: timed mode's, not tables).
for f in tests/e2e/data/resolved/*.proto; do
    n=$(basename "$f" .proto)
    if "$BIN" count --resolved "$n" >"$T/v.proto" && "$BIN" count --resolved "$f" >"$T/c.proto" &&
        python3 tests/e2e/samecells.py --tables "$T/v.proto" "$T/c.proto" >"$T/diff"; then
        ok
    else
        bad "variant $n differs from its full copy"
        head -10 "$T/diff"
    fi
    grep -q "^protocol $n \".*\" extends " "protocols/$n.proto" && ok || bad "$n does not use extends"
done

# 3. Errors: one line FILE:LINE:COL, exit 2, nothing on stdout.
err() { # NAME 'FILE:LINE:COL: text' FILE
    name=$1 want=$2 file=$3
    "$BIN" count "$file" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
        grep -qF -- "$want" "$T/err"; then
        ok
    else
        bad "error $name: exit $rc"
        cat "$T/err"
    fi
}
cp tests/e2e/data/msi.proto "$T/msi.proto"
printf 'protocol v "x" extends nosuch\n' >"$T/v1.proto"
err missing-base "$T/v1.proto:1:24: cannot read base protocol 'nosuch'" "$T/v1.proto"
printf 'protocol v extends msi\ncontroller L1 per-cu {\n  remove M | DATA\n}\n' >"$T/v2.proto"
err nothing-to-remove "$T/v2.proto:3:3: nothing to remove" "$T/v2.proto"
printf 'protocol v extends msi\ncontroller L1 shared {\n}\n' >"$T/v3.proto"
err per-cu-mismatch "$T/v3.proto:2:12: controller 'L1' is per-cu in the base" "$T/v3.proto"
printf 'protocol v extends msi\ncore L1 {\n  unmap rmw.*\n}\n' >"$T/v4.proto"
err unmap-none "$T/v4.proto:3:9: the base has no map for this pattern" "$T/v4.proto"
printf 'protocol a extends b\n' >"$T/a.proto"
printf 'protocol b extends a\n' >"$T/b.proto"
err cycle "chain longer than" "$T/a.proto"
printf 'protocol v extends msi\ncontroller L2 shared {\n  V | GETS | | send INV to each L1 in owner |\n}\n' >"$T/v5.proto"
err each-node "$T/v5.proto:3:39: type mismatch: 'each L1 in' needs a nodeset, found node" "$T/v5.proto"
printf 'protocol v extends msi\ncontroller L2 shared {\n  V | GETS | msg.loc in sharers | |\n}\n' >"$T/v6.proto"
err in-types "$T/v6.proto:3:22: type mismatch at 'in': a nodeset holds nodes" "$T/v6.proto"
printf 'protocol v extends msi\nnetwork req ordered capacity 0\n' >"$T/v7.proto"
err capacity "$T/v7.proto:2:30: a capacity is 1..16 messages" "$T/v7.proto"
printf 'protocol v extends msi\nfinal L1.data in Q\n' >"$T/v8.proto"
err final-state "$T/v8.proto:2:18: undeclared state 'Q'" "$T/v8.proto"
printf 'protocol v extends msi\ncontroller L1 per-cu {\n  I | load | | done | | z9\n}\n' >"$T/v9.proto"
err cite-undeclared "$T/v9.proto:3:25: undeclared label 'z9'" "$T/v9.proto"
printf 'protocol v\ncontroller L2 shared {\n  stable V\n  remove V | x\n}\n' >"$T/v10.proto"
err remove-outside "$T/v10.proto:4:3: 'remove' belongs in a variant" "$T/v10.proto"
printf 'protocol v extends msi\nprotocol w\n' >"$T/v11.proto"
err second-header "$T/v11.proto:2:10: a second 'protocol' header must say 'extends v'" "$T/v11.proto"
# An error in a base is reported in the base's file.
printf 'protocol brk\ncontroller L2 shared {\n  stable V\n  V | nosuch | | |\n}\n' >"$T/brk.proto"
printf 'protocol v extends brk\n' >"$T/v12.proto"
err base-error "$T/brk.proto:4:7: undeclared event 'nosuch'" "$T/v12.proto"

# 4. Labels: each listed with its rows; a label no row cites fails `count` (exit 1).
cat >"$T/lab.proto" <<'EOF'
protocol lab
labels "a table" a0..a2, b
controller L2 shared {
  stable V
  event go line
  event go2 line
  V | go | | | | a0 a1
  V | go2 | | | | b
}
EOF
"$BIN" count "$T/lab.proto" >"$T/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "a1 *L2 lab.proto:7" "$T/out" && grep -q "a2 *ERROR: no row cites" "$T/out"; then ok; else
    bad "labels: exit $rc"
    cat "$T/out"
fi

# 5. A variant's run is stored with its bases and resumes from the store alone (1276 states:
# the --por count, msi's invariant kept as a visible property; 2217 with --no-por).
DB="$T/s.db"
"$BIN" check --db "$DB" --max-states 20 --protocol tests/e2e/data/msi-cap1.proto litmus/core/IRIW.litmus >/dev/null 2>&1
cp tests/e2e/data/msi-cap1.proto "$T/gone.proto"
if "$BIN" resume --db "$DB" 1 >"$T/out" 2>&1 && grep -q "ok (1276 states" "$T/out"; then ok; else
    bad "resume a variant's run"
    cat "$T/out"
fi

# 6. A variant outside protocols/ extends a shipped protocol: its base is not beside it, so
# it comes from the protocol folders ($COHCHECK_PROTOCOLS, ./protocols, next to the binary);
# a base beside the variant still comes first.
mkdir -p "$T/mine"
printf 'protocol my-noinv "x" extends gpu-wt\ncontroller L1 per-cu {\n  V | acq | | done |\n}\n' \
    >"$T/mine/my-noinv.proto"
if "$BIN" check --no-db --protocol "$T/mine/my-noinv.proto" --init warm \
    litmus/core/MP+rel+acq+guard.litmus >"$T/out" 2>&1; then
    bad "a user's variant of gpu-wt: not refuted"
    cat "$T/out"
elif grep -q "my-noinv MP+rel+acq+guard drf: violation" "$T/out"; then ok; else
    bad "a user's variant of gpu-wt"
    cat "$T/out"
fi
printf 'protocol gpu-wt "a local base, with no L1"\n' >"$T/mine/gpu-wt.proto"
err local-base-first "$T/mine/my-noinv.proto:2:12: controller 'L1' declares no stable state" \
    "$T/mine/my-noinv.proto"
printf 'protocol v "x" extends nosuch-anywhere\n' >"$T/mine/v.proto"
err missing-everywhere \
    "$T/mine/v.proto:1:24: cannot read base protocol 'nosuch-anywhere' ($T/mine/nosuch-anywhere.proto)" \
    "$T/mine/v.proto"

echo "extends: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
