#!/bin/sh
# Docs that cannot drift from the binary: the counts README.md and the man page
# quote are recomputed here from the binary's own output and compared; the
# repository cites its own docs/architecture.md (or the papers), never the
# team's notes outside it. Usage: sh tests/e2e/docs.sh ./cohcheck (repo root).
BIN=${1:-./cohcheck}
T=$(mktemp -d /tmp/cohcheck-docs.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}
# same NAME WANT GOT: the documented value WANT equals the binary's GOT.
same() {
    if [ -z "$2" ]; then
        bad "$1: the docs no longer say it (update this test with the text)"
    elif [ "$2" = "$3" ]; then ok; else bad "$1: the docs say '$2', the binary gives '$3'"; fi
}
# quoted NAME FILE FIXED-STRING: FILE quotes the binary's output line verbatim.
quoted() {
    if grep -Fq -- "$3" "$2"; then ok; else bad "$1: $2 does not contain '$3'"; fi
}

# ---- No citation of notes that are not in the repository. The pattern is
# built from pieces so this file does not match it itself.
pat="DESIGN[.]md|CLAIMS[.]md|PROTOCOLS[.]md"
grep -rIlE --exclude-dir=.git --exclude-dir='build*' "$pat" . >"$T/cites" 2>/dev/null
if [ -s "$T/cites" ]; then bad "files cite notes outside the repository: $(tr '\n' ' ' <"$T/cites")"; else ok; fi
[ -f docs/architecture.md ] && ok || bad "docs/architecture.md is missing"

# ---- README.md: the core suite's size and summary line.
"$BIN" litmus --quiet litmus/core >"$T/sum" 2>&1
ntests=$(sed -n 's/^Summary: \([0-9]*\) tests,.*/\1/p' "$T/sum")
[ -n "$ntests" ] || bad "no Summary line from litmus --quiet litmus/core"
same "README suite size" "$(sed -n 's/.*the `litmus\/core` suite (\([0-9]*\) tests).*/\1/p' README.md)" "$ntests"
same "README 'has N tests'" "$(sed -n 's/^`litmus\/core` has \([0-9]*\) tests.*/\1/p' README.md)" "$ntests"
# The summary line up to the third model, as printed (the time differs).
head3=$(sed -n 's/^\(Summary: [^;]*;[^;]*\);.*/\1/p' "$T/sum")
quoted "README summary line" README.md "$head3"
nmodels=$(grep -v '^#' models/lattice | grep '^model' | head -1 | wc -w)
same "README model count" "eleven" "$(case $((nmodels - 1)) in 11) echo eleven ;; *) echo "$((nmodels - 1))" ;; esac)"
same "README workload count" "$(sed -n 's/.*(`litmus\/workloads\/`, \([0-9]*\) files).*/\1/p' README.md)" \
    "$(find litmus/workloads -name '*.litmus' | wc -l)"

# ---- README.md: the check example's first line, as the binary prints it.
"$BIN" check --no-db --protocol gpu-wt-noinv --init warm litmus/core/MP+rel+acq+guard.litmus \
    >"$T/chk" 2>&1
line=$(head -1 "$T/chk" | sed 's/, [0-9.]* s)$//')
quoted "README check example" README.md "$line"
quoted "README check example step 1" README.md "$(sed -n 3p "$T/chk")"

# ---- README.md: the benchmark table's tests and candidate executions.
cands=$("$BIN" litmus --json litmus/core | grep -o '"candidates":[0-9]*' |
    awk -F: '{s += $2} END {print s / 6}')
grep '^| litmus/core, ' README.md | awk -F'|' '{gsub(/ /, "", $3); gsub(/ /, "", $5); print $3, $5}' >"$T/bench"
[ -s "$T/bench" ] || bad "README has no benchmark rows"
while read -r n c; do
    same "README bench tests" "$n" "$ntests"
    same "README bench candidates" "$c" "$cands"
done <"$T/bench"

# ---- README.md: the Murphi section's protocol count.
nproto=$(find protocols -maxdepth 1 -name '*.proto' | wc -l)
same "README protocol count" "$(sed -n 's/.*(of the \([0-9]*\)$/\1/p' README.md)" "$nproto"
nmurphi=$(grep -v '^#' tests/e2e/murphi.tab | awk 'NF {print $1}' | sort -u | wc -l)
same "README murphi.tab count" "$(sed -n 's/.*`make test-full` re-checks \([0-9]*\),.*/\1/p' README.md)" "$nmurphi"

# ---- README.md: generated suites and skipped tests, as the binary gives them.
ngen=$("$BIN" gen --list --wg --samewg | sed -n 's/^\([0-9]*\) tests$/\1/p')
same "README litmus/gen size" "$(sed -n 's/.*`litmus\/gen\/` holds \([0-9]*\) of them.*/\1/p' README.md)" "$ngen"
same "litmus/gen files" "$(find litmus/gen -name '*.litmus' | wc -l)" "$ngen"
same "README litmus/gen (1,018 form)" "$(sed -n 's/.*On the \([0-9,]*\) generated tests of `litmus\/gen`.*/\1/p' README.md | tr -d ,)" "$ngen"
nskip=$("$BIN" check --no-db --protocol gpu-hrf litmus/core | sed -n 's/^Summary: .* \([0-9]*\) skipped$/\1/p')
same "README gpu-hrf skipped rm_agent tests" "$(sed -n 's/.*(the \([0-9]*\) `rm_agent` tests are reported as skipped.*/\1/p' README.md)" "$nskip"
for s in ptx vulkan; do
    same "README litmus/$s size" "$(sed -n "s/.*\`litmus\/$s\/\` (\([0-9]*\) tests).*/\1/p" README.md)" \
        "$("$BIN" litmus --quiet --model sc "litmus/$s" | sed -n 's/^Summary: \([0-9]*\) tests.*/\1/p')"
done
same "README pinned workload runs" "$(sed -n 's/.*TBs; \([0-9]*\) runs at default parameters are pinned.*/\1/p' README.md)" \
    "$(grep -v '^#' tests/e2e/workloads.tab | grep -c .)"

# ---- Rumur's count equals cohcheck's with --no-por only (the export has no reduction):
# no doc says "with the same options" any more, each says --no-por.
for f in README.md docs/murphi.md docs/cohcheck.1; do
    if grep -q 'with the same options' "$f"; then bad "$f still says 'with the same options'"; else ok; fi
done
grep -q 'no\\-por' docs/cohcheck.1 && grep -q 'check --protocol P --no-por' docs/murphi.md &&
    grep -q 'check --no-por` with the same other options' README.md && ok || bad "a Murphi paragraph lacks --no-por"
"$BIN" export --help | grep -q 'check --no-por` with the same other options' && ok || bad "export --help lacks --no-por"

# ---- The man page: one section per subcommand of `cohcheck --help`, in the
# order NAME, SYNOPSIS, DESCRIPTION, COMMANDS..., EXIT STATUS, FILES, SEE ALSO.
"$BIN" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | sort -u >"$T/cmds"
[ -s "$T/cmds" ] || bad "no commands in cohcheck --help"
while read -r c; do
    if grep -Eq "^\.SS \"?$c\b" docs/cohcheck.1; then ok; else bad "man page: no section for '$c'"; fi
done <"$T/cmds"
grep '^\.SH' docs/cohcheck.1 | tr -d '"' | sed 's/^\.SH //' >"$T/sh"
last=$(tail -1 "$T/sh")
same "man page's last section" "SEE ALSO" "$last"
first=$(head -3 "$T/sh" | tr '\n' ',')
same "man page's first sections" "NAME,SYNOPSIS,DESCRIPTION," "$first"

# --json: every command's --help lists it (report timed's too), with no exception left
# in the top-level help or the man page.
while read -r c; do
    if "$BIN" "$c" --help 2>&1 | grep -q -- '--json'; then ok; else bad "'$c --help' does not list --json"; fi
done <"$T/cmds"
"$BIN" report timed --help | grep -q -- '^  --json' && ok || bad "'report timed --help' does not list --json"
"$BIN" --help | grep -q "^Every command takes --help and --json" && ok || bad "cohcheck --help does not say every command takes --json"
if "$BIN" --help | grep -q "except 'report timed'" || grep -q '^\.BR "report timed" ,$' docs/cohcheck.1; then
    bad "an exception to --json is still documented"
else ok; fi
# --json output of the commands that write files is JSON.
"$BIN" draw nol1 --json -o "$T/d.dot" | grep -q '^{"file":"[^"]*d.dot","format":"dot","protocol":"nol1"}$' &&
    ok || bad "draw --json"
"$BIN" export --json --murphi --protocol nol1 litmus/core/SB.litmus -o "$T/e.m" |
    grep -q '^{"protocol":"nol1","test":"SB","file":"[^"]*e.m","bytes":[0-9]*}$' && ok || bad "export --json"
"$BIN" draw nol1 --json -o - >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "draw --json -o - should be refused"

echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
