#!/bin/sh
# The time abstraction loses no behaviour (docs/time-abstraction.md), checked:
# for each row of tests/e2e/timecheck.tab, explore the system with abstract
# timestamps (the default), then with raw integers (--time raw) bounded at the
# abstract run's depth, and compare the sets of reached outcomes. Every path of
# the abstract system is as long as the raw path it stands for, so a raw search
# to that depth reaches every outcome the abstraction reaches, and an exact
# abstraction reaches no other. A row whose expectation is "differ" is a
# protocol that breaks the abstraction's rules: the check must see it.
# Usage: sh tests/e2e/timecheck.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
TAB=${2:-tests/e2e/timecheck.tab}
pass=0
fail=0
tmp=${TMPDIR:-/tmp}/cohcheck-timecheck.$$
trap 'rm -f "$tmp".a "$tmp".r' EXIT
outcomes() { # the "outcomes" array of a check --json line, one outcome per line, sorted
    sed -n 's/.*"outcomes":\[\(.*\)\],"allowed_unreached".*/\1/p' | tr -d '{' | tr '}' '\n' |
        sed 's/^,//' | grep . | sort
}
while read -r proto test opts expect; do
    case "$proto" in '' | '#'*) continue ;; esac
    [ "$opts" = "-" ] && opts=""
    opts=$(printf "%s" "$opts" | tr "_" " ")
    # shellcheck disable=SC2086
    abs=$("$BIN" check --no-db --json --no-por --protocol "$proto" $opts "litmus/core/$test.litmus" 2>&1)
    depth=$(printf '%s' "$abs" | sed -n 's/.*"depth":\([0-9]*\).*/\1/p')
    verdict=$(printf '%s' "$abs" | sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p')
    if [ -z "$depth" ] || [ "$verdict" != ok ]; then
        fail=$((fail + 1))
        echo "FAIL $proto $test $opts: the abstract run must complete ok; got: $(printf '%s' "$abs" | cut -c1-200)"
        continue
    fi
    printf '%s\n' "$abs" | outcomes >"$tmp".a
    # shellcheck disable=SC2086
    "$BIN" check --no-db --json --no-por --time raw --max-depth "$depth" --protocol "$proto" $opts \
        "litmus/core/$test.litmus" 2>&1 | outcomes >"$tmp".r
    if cmp -s "$tmp".a "$tmp".r; then got=same; else got=differ; fi
    if [ "$got" = "$expect" ] && [ -s "$tmp".a ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $proto $test $opts: outcomes $got (want $expect), depth $depth"
        diff "$tmp".a "$tmp".r | head -5
    fi
done <"$TAB"
echo "timecheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
