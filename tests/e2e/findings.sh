#!/bin/sh
# The findings table (tests/e2e/findings.tab, README.md "Findings"): every row's command,
# run as a fresh clone would run it, gives the pinned verdict (check: "verdict", sim:
# "status") and, for a counterexample, the pinned depth; README.md quotes every command.
# Usage: sh tests/e2e/findings.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
TAB=${2:-tests/e2e/findings.tab}
. tests/e2e/lib.sh
field() { # field NAME JSON
    printf '%s' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"]*\)\"\{0,1\}[,}].*/\1/p" | head -n 1
}
while read -r finding proto verdict depth cmd; do
    case "$finding" in '' | '#'*) continue ;; esac
    set -- $cmd
    if [ "$1" != cohcheck ]; then
        bad "$finding $proto: the command does not start with cohcheck: $cmd"
        continue
    fi
    sub=$2
    shift 2
    case "$sub" in
    check) extra="--json --no-db" key=verdict ;;
    sim) extra="--json" key=status ;;
    *)
        bad "$finding $proto: unknown command '$sub'"
        continue
        ;;
    esac
    # shellcheck disable=SC2086
    out=$("$BIN" "$sub" $extra "$@" 2>/dev/null | tail -n 1)
    v=$(field "$key" "$out")
    d=$(field depth "$out")
    if [ "$v" = "$verdict" ] && { [ "$depth" = - ] || [ "$d" = "$depth" ]; }; then ok; else
        bad "$finding: $cmd: got $key=$v depth=$d, want $verdict $depth"
    fi
    grep -qF -- "\`$cmd\`" README.md || bad "$finding: README.md does not quote \`$cmd\`"
done <"$TAB"
echo "findings: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
