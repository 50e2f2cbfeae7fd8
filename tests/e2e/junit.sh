#!/bin/sh
# --junit FILE and --annotate on check, litmus, mutate and regress: every report
# validates against tests/e2e/data/junit.xsd (xmllint, Debian's libxml2-utils),
# counts its failures right, carries the trace in a failed check, and the
# annotations follow GitHub's ::error file=...,line=...:: form. A broken report
# must not validate (the schema can fail).
# Usage: sh tests/e2e/junit.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
XSD=tests/e2e/data/junit.xsd
. tests/e2e/lib.sh
valid() { xmllint --noout --schema "$XSD" "$1" >/dev/null 2>&1; }
C=litmus/core
"$BIN" check --no-db --annotate --junit "$T/check.xml" --protocol gpu-wt-noflush \
    $C/MP+rel+acq+guard.litmus $C/SB.litmus >"$T/out" 2>&1
if valid "$T/check.xml" && grep -q '<testsuite name="cohcheck check" tests="2" failures="1" errors="0"' "$T/check.xml" &&
    grep -q '<failure type="violation" message="reached an outcome the model forbids">forbidden outcome: 1:r0=1; 1:r1=0; x=1; y=1;' "$T/check.xml" &&
    grep -q '^trace ([0-9]* steps):$' "$T/check.xml" && grep -q '^  1  initial state' "$T/check.xml" &&
    grep -q '^::error file=litmus/core/MP+rel+acq+guard.litmus,line=1,title=gpu-wt-noflush MP+rel+acq+guard under drf%3A violation::reached an outcome the model forbids' "$T/out"; then ok; else
    bad "check --junit/--annotate"
fi
# A skipped test (no core map) and a bounded one (error).
"$BIN" check --no-db --junit "$T/check2.xml" --max-states 10 --protocol gpu-hrf \
    $C/scoped-MP+wg+rm_agent+diffwg.litmus $C/IRIW.litmus >/dev/null 2>&1
if valid "$T/check2.xml" && grep -q 'skipped="1"' "$T/check2.xml" && grep -q 'errors="1"' "$T/check2.xml"; then ok; else
    bad "check --junit skipped and incomplete"
fi
"$BIN" litmus --expect --quiet --annotate --junit "$T/litmus.xml" tests/e2e/data/wrong-expect.litmus $C/SB.litmus >"$T/out" 2>&1
if valid "$T/litmus.xml" && grep -q 'tests="7" failures="1"' "$T/litmus.xml" &&
    grep -q '^::error file=tests/e2e/data/wrong-expect.litmus,line=8,title=wrong-expect \[sc\]::expected sometimes, got never$' "$T/out"; then ok; else
    bad "litmus --junit/--annotate"
fi
"$BIN" mutate --annotate --junit "$T/mutate.xml" --protocol nol1 $C/SB.litmus >"$T/out" 2>&1
# Failures: the survivors and the not-covered mutants (no test reaches their row).
n=$(grep "^nol1 under sc: " "$T/out" | sed -n 's/^nol1 under sc: \([0-9]*\) mutants.* \([0-9]*\) survived.* \([0-9]*\) not covered.*/\1 \2 \3/p')
set -- $n
if valid "$T/mutate.xml" && [ -n "$n" ] && grep -q "tests=\"$1\" failures=\"$(($2 + $3))\"" "$T/mutate.xml"; then ok; else
    bad "mutate --junit ($n)"
fi
"$BIN" regress --annotate --junit "$T/regress.xml" --init warm gpu-wt gpu-wt-noinv $C/MP+rel+acq+guard.litmus $C/SB.litmus >"$T/out" 2>&1
if valid "$T/regress.xml" && grep -q 'tests="2" failures="1"' "$T/regress.xml" &&
    grep -q '^::error file=litmus/core/MP+rel+acq+guard.litmus,line=1,title=MP+rel+acq+guard \[drf\]::ok -> violation$' "$T/out"; then ok; else
    bad "regress --junit/--annotate"
fi
# The schema rejects a report without the required attributes.
sed 's/ failures="[0-9]*" errors="[0-9]*" skipped/ skipped/' "$T/check.xml" >"$T/broken.xml"
if ! valid "$T/broken.xml"; then ok; else bad "a testsuite without failures= validated"; fi
# Unwritable report: exit 2, one line.
: >"$T/afile"; "$BIN" litmus --junit "$T/afile/x.xml" $C/SB.litmus >/dev/null 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'cannot create folder' "$T/err"; then ok; else bad "unwritable --junit: exit $rc"; fi
# A missing folder is created.
"$BIN" litmus --junit "$T/new/sub/x.xml" $C/SB.litmus >/dev/null 2>&1 && valid "$T/new/sub/x.xml" && ok ||
    bad "--junit into a new folder"
# The body's first and last steps are the trace's (check's text output).
"$BIN" check --no-db --protocol gpu-wt-noflush $C/MP+rel+acq+guard.litmus >"$T/txt" 2>&1
first=$(grep -E '^ +1  ' "$T/txt" | sed 's/^ *//')
last=$(grep -E '^ +[0-9]+  ' "$T/txt" | tail -1 | sed 's/^ *//')
body=$(sed -n '/<failure/,/<\/failure>/p' "$T/check.xml" | sed 's/^ *//; s/<\/failure>//; s/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g')
if printf '%s\n' "$body" | grep -qxF "$first" && printf '%s\n' "$body" | grep -qxF "$last"; then ok; else
    bad "junit body lacks the first or last step ($first / $last)"
fi
# The path is checked before the run: a bad one costs no exploration and prints no result.
for cmd in "check --no-db --protocol gpu-wt-noflush" "litmus" "mutate --protocol nol1" "regress nol1 nol1"; do
    # shellcheck disable=SC2086
    "$BIN" $cmd --junit "$T/afile/x.xml" $C/MP+rel+acq+guard.litmus >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "cannot write\|cannot create folder" "$T/err"; then ok; else
        bad "$cmd --junit under a file: exit $rc, out $(head -2 "$T/out"), err $(cat "$T/err")"
    fi
done
"$BIN" check --no-db --protocol nol1 --junit "$T" $C/SB.litmus >"$T/out" 2>"$T/err"
if [ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q 'is a folder' "$T/err"; then ok; else bad "--junit FOLDER"; fi
echo "junit: $pass passed, $fail failed"
[ $fail -eq 0 ]
