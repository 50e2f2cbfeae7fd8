#!/bin/sh
# End-to-end tests of the SQLite store: a run stopped by --max-states exits 3
# and `resume` finishes it with the counts of an uninterrupted run; the store
# does not change counts; `diff` names the outcomes two runs disagree on;
# `show` and `trace` read runs back. Usage: sh tests/e2e/store.sh ./cohcheck
BIN=${1:-./cohcheck}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DB=$T/runs.db
L=litmus/core
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
num() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }

# Reference: uninterrupted, no store.
ref=$("$BIN" check --no-db --json --protocol gpu-wt --env fetch $L/MP+rel+acq+guard.litmus)
rs=$(printf '%s' "$ref" | num states)
rt=$(printf '%s' "$ref" | num transitions)
[ -n "$rs" ] && [ "$rs" -gt 2000 ] && ok || ko "reference run: $ref"

# The same with the store: identical counts.
full=$("$BIN" check --db "$DB" --json --protocol gpu-wt --env fetch $L/MP+rel+acq+guard.litmus)
[ "$(printf '%s' "$full" | num states)" = "$rs" ] && [ "$(printf '%s' "$full" | num transitions)" = "$rt" ] &&
    ok || ko "store changed the counts: $full"

# Stopped by a limit: exit 3, recorded as stopped.
"$BIN" check --db "$DB" --json --protocol gpu-wt --env fetch --max-states 2000 $L/MP+rel+acq+guard.litmus >"$T/out"
[ $? -eq 3 ] && ok || ko "--max-states did not exit 3"
grep -q '"verdict":"incomplete"' "$T/out" && ok || ko "--max-states verdict: $(cat "$T/out")"
run=$(num run <"$T/out")
"$BIN" show --db "$DB" "$run" | grep -q ' stopped ' && ok || ko "show: run $run not stopped"

# Resume: same final counts as the uninterrupted run; the run becomes done.
"$BIN" resume --db "$DB" --json "$run" >"$T/res"
[ $? -eq 0 ] && ok || ko "resume exit: $(cat "$T/res")"
[ "$(num states <"$T/res")" = "$rs" ] && [ "$(num transitions <"$T/res")" = "$rt" ] && ok ||
    ko "resume counts $(cat "$T/res") != $rs/$rt"
"$BIN" show --db "$DB" "$run" | grep -q ' done ' && ok || ko "show: resumed run not done"
"$BIN" resume --db "$DB" "$run" >/dev/null 2>&1
[ $? -eq 2 ] && ok || ko "resuming a finished run should be refused"

# diff: a resumed run and a fresh one have the same state space.
fresh=$(printf '%s' "$full" | num run)
"$BIN" diff --db "$DB" "$fresh" "$run" >"$T/d0"
[ $? -eq 0 ] && grep -q "states: 0 only in run $fresh, 0 only in run $run, $rs in both" "$T/d0" && ok ||
    ko "diff fresh/resumed: $(cat "$T/d0")"

# diff gpu-wt against gpu-wt-noinv: names the outcome only the broken one reaches.
"$BIN" check --db "$DB" --json --protocol gpu-wt-noinv --env fetch $L/MP+rel+acq+guard.litmus >"$T/bad"
bad=$(num run <"$T/bad")
"$BIN" diff --db "$DB" "$fresh" "$bad" >"$T/d1"
[ $? -eq 1 ] && ok || ko "diff of differing runs should exit 1"
grep -q "outcome only in run $bad: {\"1:r0\":1,\"1:r1\":0,\"x\":1,\"y\":1} (forbidden)" "$T/d1" && ok ||
    ko "diff did not name the outcome: $(cat "$T/d1")"
grep -q '^verdict: differs' "$T/d1" && ok || ko "diff verdict line"

# trace: the stored failure trace, and a path to a stored state.
"$BIN" trace --db "$DB" "$bad" | grep -q 'L1\[1\]' && ok || ko "trace of the failure"
"$BIN" trace --db "$DB" "$bad" 40 | head -1 | grep -q '^    1  initial state' && ok || ko "trace to state 40"
# Text by default: numbered steps, step 1 the initial state, as check prints them; --json:
# the steps as one array.
"$BIN" trace --db "$DB" "$bad" >"$T/tr"
sed -n 3p "$T/tr" | grep -q '^    1  initial state' && ! grep -q '^\[' "$T/tr" &&
    grep -q '^    2  ' "$T/tr" && ok || ko "trace RUN prints numbered steps: $(head -4 "$T/tr")"
"$BIN" check --db "$DB" --protocol gpu-wt-noinv --env fetch $L/MP+rel+acq+guard.litmus |
    sed -n 's/^  *\([0-9][0-9]*  .*\)/\1/p' >"$T/chk_steps"
sed -n 's/^  *\([0-9][0-9]*  .*\)/\1/p' "$T/tr" >"$T/tr_steps"
cmp -s "$T/chk_steps" "$T/tr_steps" && [ -s "$T/tr_steps" ] && ok || ko "trace RUN's steps differ from check's"
"$BIN" trace --db "$DB" --json "$bad" | grep -q '"trace":\["initial state' && ok || ko "trace --json"
"$BIN" show --db "$DB" "$bad" >"$T/sh"
grep -q '^trace:$' "$T/sh" && grep -q '^    1  initial state' "$T/sh" && ! grep -q '\["' "$T/sh" && ok ||
    ko "show RUN prints the trace as steps: $(cat "$T/sh")"
"$BIN" show --db "$DB" --json "$bad" | grep -q '"trace":\["initial state' && ok || ko "show --json RUN has the trace"
"$BIN" show --db "$DB" --json | grep -c '"run":' | grep -q '^4$' && ok || ko "show --json lists 4 runs"

# diff names the settings that differ; the same run against itself: "settings: same".
r1=$("$BIN" check --db "$DB" --json --no-por --protocol gpu-wt $L/SB.litmus 2>/dev/null | num run)
r2=$("$BIN" check --db "$DB" --json --por --init warm --protocol gpu-wt $L/SB.litmus 2>/dev/null | num run)
"$BIN" diff --db "$DB" "$r1" "$r2" >"$T/ds"
grep -qx 'settings: init cold -> warm, por false -> true' "$T/ds" && ok || ko "diff settings: $(cat "$T/ds")"
"$BIN" diff --db "$DB" --json "$r1" "$r2" | grep -q '"settings_differ":\[{"setting":"init","run1":"cold","run2":"warm"},{"setting":"por","run1":"false","run2":"true"}\]' &&
    ok || ko "diff --json settings_differ"
"$BIN" diff --db "$DB" "$r2" "$r2" | grep -qx 'settings: same' && ok || ko "diff of a run with itself: settings"

# The size warning: once, when a run takes the store past COHCHECK_STORE_WARN, naming --no-db.
W=$T/warn.db
COHCHECK_STORE_WARN=64K "$BIN" check --db "$W" --protocol gpu-wt --init warm --env all $L/MP.litmus >/dev/null 2>"$T/w1"
COHCHECK_STORE_WARN=64K "$BIN" check --db "$W" --protocol gpu-wt --init warm --env all $L/MP.litmus >/dev/null 2>"$T/w2"
[ "$(wc -l <"$T/w1")" -eq 1 ] && grep -q "^cohcheck: warning: the store $W is now .* MiB (over 0.0625 MiB).*--no-db" "$T/w1" &&
    [ ! -s "$T/w2" ] && ok || ko "store size warning: '$(cat "$T/w1")' then '$(cat "$T/w2")'"
"$BIN" check --db "$T/small.db" --protocol gpu-wt $L/MP.litmus >/dev/null 2>"$T/w3"
[ ! -s "$T/w3" ] && ok || ko "a small store warned: $(cat "$T/w3")"

# Bad input.
"$BIN" show --db "$T/none.db" >/dev/null 2>&1
[ $? -eq 2 ] && ok || ko "show on a missing database"
echo "not a database" >"$T/junk.db"
"$BIN" check --db "$T/junk.db" --protocol nol1 $L/SB.litmus >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && ok || ko "check on a junk database: $(cat "$T/err")"
"$BIN" trace --db "$DB" 999 >/dev/null 2>&1
[ $? -eq 2 ] && ok || ko "trace of a missing run"

# store check: every run of $DB is consistent and replays (pinned: the fresh run and
# the resumed one, $rs states each, the two noinv runs' 2187 each, and the diff
# settings pair's 142 and 336).
"$BIN" store check "$DB" >"$T/sc"
[ $? -eq 0 ] && grep -q ": consistent: 6 runs (6 finished, 0 interrupted, 0 running), $((2 * rs + 2 * 2187 + 142 + 336)) states" "$T/sc" &&
    [ "$(grep -c 'every step replays' "$T/sc")" -eq 6 ] && ok || ko "store check: $(cat "$T/sc")"
"$BIN" store check --json "$DB" | grep -q '^{"db":"[^"]*","consistent":true,"runs":6,"finished":6,"interrupted":0,"running":0,"states":[0-9]*,"problems":\[\]}$' &&
    ok || ko "store check --json"
# A run whose count disagrees with its rows, and a damaged block: exit 1, one line each.
if command -v python3 >/dev/null 2>&1; then
    cp "$DB" "$T/tampered.db"
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE runs SET states=states+1 WHERE id=1'); c.execute('UPDATE states SET data=substr(data,1,10) WHERE run=2 AND first=0'); c.commit()" "$T/tampered.db"
    "$BIN" store check --quiet "$T/tampered.db" >"$T/sc2"
    [ $? -eq 1 ] && grep -q '^run 1: the run says' "$T/sc2" && grep -q '^run 2: .*damaged' "$T/sc2" &&
        grep -q 'PROBLEMS' "$T/sc2" && ok || ko "store check on a tampered store: $(cat "$T/sc2")"
    # A 'running' run whose process is gone is shown interrupted, and resumes.
    "$BIN" check --db "$DB" --json --protocol gpu-wt --env fetch --max-states 500 $L/MP+rel+acq+guard.litmus >"$T/st"
    r5=$(num run <"$T/st")
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE runs SET status='running', pstart='gone/1' WHERE id=?\", (int(sys.argv[2]),)); c.commit()" "$DB" "$r5"
    "$BIN" show --db "$DB" "$r5" | grep -q ' interrupted ' && ok || ko "show: a dead run is not interrupted"
    "$BIN" show --db "$DB" --json | grep -q '"status":"interrupted"' && ok || ko "show --json: interrupted"
    "$BIN" resume --db "$DB" --json "$r5" >"$T/res5"
    [ $? -eq 0 ] && [ "$(num states <"$T/res5")" = "$rs" ] && ok || ko "resume of an interrupted run: $(cat "$T/res5")"
else
    echo "SKIP store check on a tampered store: python3 (sqlite3 module) not found"
fi
"$BIN" store check "$T/none.db" >/dev/null 2>&1
[ $? -eq 2 ] && ok || ko "store check on a missing database"
"$BIN" store check "$T/junk.db" >/dev/null 2>&1
[ $? -eq 2 ] && ok || ko "store check on a junk file"
"$BIN" store frobnicate "$DB" >/dev/null 2>&1
[ $? -eq 2 ] && ok || ko "store with an unknown subcommand"

echo "store: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
