#!/bin/sh
# cohcheck draw: every protocol's state diagram, and the stored counterexample of
# every refuted protocol in tests/e2e/check.tab (its first failing row) as a
# message-sequence chart, must give valid SVG with one node per state and one
# box per trace step. Bad input exits 2 and leaves no file behind.
# Usage: sh tests/e2e/draw.sh ./cohcheck   (from the repo root; needs graphviz)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh

# valid_svg FILE: well-formed XML with an <svg> root.
valid_svg() {
    python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag.endswith("svg") else 1)' "$1" 2>/dev/null
}

# State diagrams: one node per state of every controller.
for f in protocols/*.proto; do
    p=$(basename "$f" .proto)
    if ! "$BIN" draw "$p" -o "$T/$p.svg" 2>"$T/err" || ! valid_svg "$T/$p.svg"; then
        bad "draw $p: $(cat "$T/err")"
        continue
    fi
    want=$("$BIN" count --json "$p" | python3 -c 'import sys, json
n = 0
for line in sys.stdin:
    o = json.loads(line)
    for c in o.get("controllers", []):
        n += c["stable"] + c["transient"]
print(n)')
    got=$("$BIN" draw "$p" -o - | grep -Ec '^    c[0-9]+_s[0-9]+ \[label=')
    if [ "$got" = "$want" ]; then ok; else bad "draw $p: $got state nodes, want $want"; fi
done

# Counterexamples: the first failing row of each protocol in check.tab.
seen=" "
run=0
while read -r proto test opts verdict states trans; do
    case "$proto" in '' | '#'*) continue ;; esac
    case "$verdict" in violation | deadlock | unexpected | invariant) ;; *) continue ;; esac
    case "$seen" in *" $proto "*) continue ;; esac
    seen="$seen$proto "
    [ "$opts" = "-" ] && opts=""
    opts=$(printf "%s" "$opts" | tr "_" " ")
    # shellcheck disable=SC2086
    "$BIN" check --db "$T/runs.db" --protocol "$proto" $opts "litmus/core/$test.litmus" >/dev/null 2>&1
    run=$((run + 1))
    name=$(basename "$proto" .proto)
    steps=$("$BIN" trace --db "$T/runs.db" --json "$run" | python3 -c 'import sys, json
t = json.load(sys.stdin)["trace"]
print(sum(1 for s in t if "FAILS:" not in s and not s.startswith("(")))')
    if ! "$BIN" draw --db "$T/runs.db" --trace "$run" -o "$T/$name-trace.svg" 2>"$T/err" ||
        ! valid_svg "$T/$name-trace.svg"; then
        bad "draw --trace $run ($proto $test): $(cat "$T/err")"
        continue
    fi
    boxes=$("$BIN" draw --db "$T/runs.db" --trace "$run" -o - | grep -o 'label="[0-9][0-9]*  ' | sort -u | wc -l)
    if [ "$boxes" -eq "$steps" ]; then ok; else bad "draw --trace $run ($proto $test): $boxes step boxes, want $steps"; fi
    # The chart numbers its steps as the text trace does: box N is trace step N, and
    # step 1 shows the initial state (warm copies on their lanes).
    "$BIN" trace --db "$T/runs.db" --json "$run" >"$T/tr.json"
    "$BIN" draw --db "$T/runs.db" --trace "$run" -o - >"$T/tr.dot"
    if python3 - "$T/tr.json" "$T/tr.dot" <<'PY'; then ok; else bad "draw --trace $run ($proto $test): step numbers differ from the text trace"; fi
import json, re, sys
t = json.load(open(sys.argv[1]))["trace"]
dot = open(sys.argv[2]).read()
boxes = re.findall(r'label="([0-9]+)  ([^"\\]*)', dot)
assert boxes and boxes[0][0] == "1" and boxes[0][1].startswith("initial")
for n, text in boxes:
    step = t[int(n) - 1]
    if text.startswith("initial: "):
        assert n == "1" and step.startswith("initial state: ")
        assert all(("." + w) in step for w in text[9:].split()), (text, step)
    elif text != "initial state":
        assert step.startswith(text), (n, text, step)
PY
done <tests/e2e/check.tab
# gpu-wt-noinv's bug needs the warm copy L1[1].x=V: the chart shows it at step 1.
"$BIN" check --db "$T/warm.db" --protocol gpu-wt-noinv --init warm litmus/core/MP+rel+acq+guard.litmus >/dev/null 2>&1
"$BIN" draw --db "$T/warm.db" --trace 1 -o - >"$T/warm.dot"
grep -q 'label="1  initial: x=V' "$T/warm.dot" && grep -q 'label="2  P0 st: store x' "$T/warm.dot" && ok ||
    bad "draw --trace of a warm run: no initial x=V at step 1, or step 2 is not P0's store"

# A chart of any stored state, and the errors.
"$BIN" check --db "$T/ok.db" --protocol nol1 litmus/core/MP.litmus >/dev/null 2>&1
if "$BIN" draw --db "$T/ok.db" --trace 1 5 -o "$T/s5.dot" && grep -q 'path to state 5' "$T/s5.dot"; then ok; else bad "draw --trace 1 5"; fi
expect2() { # expect2 NAME PATTERN CMD...: exit 2, PATTERN on stderr, no output file
    name=$1 pat=$2
    shift 2
    "$@" >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pat" "$T/err" && ! ls "$T"/out.* >/dev/null 2>&1; then ok; else bad "$name: exit $rc, $(cat "$T/err")"; fi
}
expect2 "no failure recorded" "no recorded failure" "$BIN" draw --db "$T/ok.db" --trace 1 -o "$T/out.svg"
expect2 "no such state" "has no state" "$BIN" draw --db "$T/ok.db" --trace 1 999999 -o "$T/out.svg"
expect2 "no such run" "run 7 not found" "$BIN" draw --db "$T/ok.db" --trace 7 -o "$T/out.svg"
expect2 "bad extension" "must end in" "$BIN" draw gpu-wt -o "$T/out.pdf"
expect2 "no output" "give the output" "$BIN" draw gpu-wt
expect2 "unknown controller" "no controller 'L9'" "$BIN" draw gpu-wt --controller L9 -o "$T/out.svg"
expect2 "unknown protocol" "gpu-nope" "$BIN" draw gpu-nope -o "$T/out.svg"
# An unwritable place is one line of ours (never Graphviz's, naming its temporary file).
: >"$T/afile"
"$BIN" draw gpu-wt -o "$T/afile/x.svg" >/dev/null 2>"$T/err"
if [ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && ! grep -q '[.]tmp[0-9]' "$T/err"; then ok; else bad "draw into an unwritable place: $(cat "$T/err")"; fi
# A single controller's drawing is at most 3 times as wide as tall (mesi's L1 was 5814 x 713).
if command -v dot >/dev/null 2>&1; then
    for pc in mesi:L1 hlrc:L1 rcc:L1; do
        "$BIN" draw "${pc%:*}" --controller "${pc#*:}" -o "$T/one.svg" 2>/dev/null
        wh=$(grep -o '<svg width="[0-9]*pt" height="[0-9]*pt"' "$T/one.svg" | tr -dc '0-9 ' | sed 's/^ *//')
        w=${wh% *} h=${wh#* }
        if [ -n "$w" ] && [ "$w" -le $((3 * h)) ] && [ "$h" -le $((3 * w)) ]; then ok; else
            bad "draw $pc: ${w}x${h} points, more than 3 times as wide as tall or the reverse"
        fi
    done
fi
expect2 "no graphviz" "not installed" env PATH=/nonexistent "$BIN" draw gpu-wt -o "$T/out.svg"
if "$BIN" draw gpu-wt --stalls -o - | grep -q 'style=dotted'; then ok; else bad "--stalls draws stall rows"; fi

# litmus --show: one .dot per test and model, herd7-style graphs of the executions
# that satisfy the condition.
mkdir "$T/show"
"$BIN" litmus --quiet --show "$T/show" litmus/core/SB+rel+acq.litmus litmus/core/IRIW.litmus \
    tests/e2e/data/mp-fences-ok.litmus >/dev/null
n=$(ls "$T/show"/*.dot | wc -l)
if [ "$n" -eq 18 ]; then ok; else bad "--show wrote $n files, want 3 tests x 6 models"; fi
for f in "$T/show"/*.dot; do
    if dot -Tsvg -o "$T/g.svg" "$f" && valid_svg "$T/g.svg"; then ok; else bad "--show $f is not valid"; fi
done
# SB+rel+acq: rcpc allows the SB outcome (one execution, both reads fr-before the other
# thread's write); sc allows none.
if grep -q '1 allowed execution satisfies' "$T/show/SB+rel+acq.rcpc.dot" &&
    [ "$(grep -c 'label="fr"' "$T/show/SB+rel+acq.rcpc.dot")" -eq 2 ] &&
    grep -q '0 allowed executions satisfy' "$T/show/SB+rel+acq.sc.dot"; then ok; else bad "--show SB+rel+acq"; fi
# A release fence synchronises with an acquire fence through rf.
if [ "$(grep -c 'label="sw"' "$T/show/MP+fences+ok.rcpc.dot")" -eq 1 ] &&
    grep -q 'F\[rel.agent\]' "$T/show/MP+fences+ok.rcpc.dot"; then ok; else bad "--show sw edges"; fi
expect2 "--show onto a file" "a file of that name exists" "$BIN" litmus --show "$T/afile" litmus/core/SB.litmus

echo "draw: $pass passed, $fail failed"
[ $fail -eq 0 ]
