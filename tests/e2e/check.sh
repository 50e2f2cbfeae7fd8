#!/bin/sh
# End-to-end protocol checks driven by tests/e2e/check.tab: each row names a
# protocol, a litmus test, options, the expected verdict, and (for complete
# explorations) the exact state and transition counts. Every row also runs
# with --dfs, which must give the same verdict, and the same counts when the
# verdict is ok. Usage: sh tests/e2e/check.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
TAB=${2:-tests/e2e/check.tab}
pass=0
fail=0
field() { # field NAME JSON
    printf '%s' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"]*\)\"\{0,1\}[,}].*/\1/p" | head -n 1
}
while read -r proto test opts verdict states trans; do
    case "$proto" in '' | '#'*) continue ;; esac
    [ "$opts" = "-" ] && opts=""
    opts=$(printf "%s" "$opts" | tr "_" " ")
    for order in --bfs --dfs; do
        # shellcheck disable=SC2086
        # --no-por: the pinned counts are those without the partial-order reduction
        # (tests/e2e/por.sh checks --por), with the symmetry reduction where it applies, as
        # by default (tests/e2e/sym.sh pins both sides).
        out=$("$BIN" check --no-db --json --no-por $order --protocol "$proto" $opts "litmus/core/$test.litmus" 2>&1)
        rc=$?
        v=$(field verdict "$out")
        s=$(field states "$out")
        t=$(field transitions "$out")
        want_rc=0
        case "$verdict" in ok | skipped) want_rc=0 ;; incomplete) want_rc=3 ;; *) want_rc=1 ;; esac
        ok=1
        [ "$v" = "$verdict" ] || ok=0
        [ "$rc" -eq "$want_rc" ] || ok=0
        if [ "$verdict" = ok ] || [ "$order" = --bfs ]; then
            [ "$states" = "-" ] || [ "$s" = "$states" ] || ok=0
            [ "$trans" = "-" ] || [ "$t" = "$trans" ] || ok=0
        fi
        if [ "$verdict" != ok ] && [ "$verdict" != incomplete ] && [ "$verdict" != skipped ]; then
            printf '%s' "$out" | grep -q '"trace":\["' || ok=0
        fi
        if [ $ok -eq 1 ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $proto $test $opts $order: got verdict=$v states=$s transitions=$t exit=$rc;" \
                "want $verdict $states $trans exit=$want_rc"
            printf '%s\n' "$out" | cut -c1-300 | head -3
        fi
    done
done <"$TAB"
echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
