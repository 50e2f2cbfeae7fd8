#!/bin/sh
# The Rumur cross-check of state counts (make test-full): each row of
# tests/e2e/murphi.tab is checked by cohcheck (its `states` must be the pinned
# count) and exported with `cohcheck export --murphi`; Rumur's verifier of the
# export must reach exactly the same number of states (docs/murphi.md).
# Usage: sh tests/e2e/murphi-counts.sh ./cohcheck [TAB]   (needs rumur and cc)
BIN=${1:-./cohcheck}
TAB=${2:-tests/e2e/murphi.tab}
. tests/e2e/lib.sh
if ! command -v rumur >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
    echo "murphi-counts.sh: needs rumur and a C compiler (apt-get install rumur gcc)"
    exit 1
fi
n=0
while read -r proto test states opts; do
    case "$proto" in '' | '#'*) continue ;; esac
    n=$((n + 1))
    what="$proto $(basename "$test" .litmus) $opts"
    got=$("$BIN" check --no-db --json --no-por --no-symmetry --protocol "$proto" $opts "$test" |
        sed 's/.*"states":\([0-9]*\).*/\1/')
    if [ "$got" != "$states" ]; then
        bad "$what: cohcheck $got states, pinned $states"
        continue
    fi
    m="$T/m$n"
    # --model is a check option: the export accepts it too
    if ! "$BIN" export --murphi --protocol "$proto" $opts "$test" -o "$m.m" 2>"$T/err"; then
        bad "$what: export failed: $(cat "$T/err")"
        continue
    fi
    if ! rumur --quiet --threads 1 --deadlock-detection stuck "$m.m" -o "$m.c" 2>"$T/err"; then
        bad "$what: rumur rejects the model: $(head -3 "$T/err")"
        continue
    fi
    if ! cc -O1 "$m.c" -o "$m" -lpthread 2>"$T/err"; then
        bad "$what: the verifier does not compile: $(head -3 "$T/err")"
        continue
    fi
    "$m" >"$m.out" 2>&1
    rs=$(grep -A2 'State Space Explored' "$m.out" | grep -o '[0-9]* states' | cut -d' ' -f1)
    if grep -q 'No error found' "$m.out" && [ "$rs" = "$states" ]; then
        ok
        echo "  $what: $states states (cohcheck = rumur)"
    else
        bad "$what: rumur ${rs:-?} states, cohcheck $states: $(grep -A3 '^Status' "$m.out" | tail -2)"
    fi
    rm -f "$m" "$m.c"
done <"$TAB"
echo "murphi-counts.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
