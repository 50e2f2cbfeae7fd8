#!/bin/sh
# The option table (checker/cli/opts.c) is the one truth about options: every
# subcommand accepts exactly the options its --help lists (probed through the
# binary's own parser: an option it does not take is "unknown"), and the
# generated man-page section and bash completion are not stale (docs/gen.sh).
# Usage: sh tests/e2e/options.sh ./cohcheck (repo root).
BIN=${1:-./cohcheck}
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
T=$(mktemp -d /tmp/cohcheck-options.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL $*"
}

# ---- The generated documentation is current.
if sh docs/gen.sh "$BIN" --check; then ok; else bad "docs/gen.sh --check: regenerate with make docs"; fi

# ---- The subcommands: cohcheck --help's, with the two-word ones spelled out.
"$BIN" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | sort -u |
    sed 's/^store$/store check/' >"$T/cmds"
echo "report timed" >>"$T/cmds"
[ "$(wc -l <"$T/cmds")" -ge 17 ] && ok || bad "cohcheck --help lists $(wc -l <"$T/cmds") commands"

# listed CMD: the spellings CMD --help lists in its option column, one a line.
listed() {
    # shellcheck disable=SC2086
    "$BIN" $1 --help | sed -n '/^options:/,$p' | grep -E '^  -' |
        sed 's/^  //; s/  .*//' | tr ' ,' '\n\n' | grep -E '^--?[a-z]' | sort -u
}
# Every spelling any subcommand lists or the table holds, and some that none takes.
while read -r c; do
    listed "$c" >>"$T/all"
    # shellcheck disable=SC2086
    "$BIN" _docs options $c >>"$T/all"
done <"$T/cmds"
printf '%s\n' --bogus -x --threads --jobs --db --out -o -j -m >>"$T/all"
sort -u "$T/all" >"$T/universe"
[ "$(wc -l <"$T/universe")" -gt 60 ] && ok || bad "only $(wc -l <"$T/universe") option spellings found"

# accepts CMD OPT: the parser takes OPT (with a value if it needs one). A junk
# operand keeps every command from doing work after parsing.
mkdir "$T/run"
accepts() {
    # shellcheck disable=SC2086
    (cd "$T/run" && timeout 60 "$BIN" $1 "$2" 1 /nonexistent/x.litmus >/dev/null 2>"$T/err")
    ! grep -q 'unknown option' "$T/err"
}
while read -r c; do
    listed "$c" >"$T/listed"
    [ -s "$T/listed" ] || bad "'$c --help' lists no options"
    grep -qx -- --help "$T/listed" && grep -qx -- -h "$T/listed" || bad "'$c --help' does not list -h, --help"
    while read -r o; do
        if accepts "$c" "$o"; then
            # A unique prefix of a listed long option is getopt_long's abbreviation of it.
            if grep -qx -- "$o" "$T/listed" || [ "$(grep -c -- "^$o" "$T/listed")" = 1 ]; then
                ok
            else
                bad "'$c' accepts $o, which '$c --help' does not list"
            fi
        else
            if grep -qx -- "$o" "$T/listed"; then bad "'$c --help' lists $o, which '$c' rejects: $(cat "$T/err")"; else ok; fi
        fi
    done <"$T/universe"
done <"$T/cmds"

# ---- Values are checked by the table: one line, exit 2, nothing on stdout.
value() { # value WANT ARGS...: one error line containing WANT, exit 2
    want=$1
    shift
    (cd "$T/run" && "$BIN" "$@" >"$T/out" 2>"$T/err")
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF -- "$want" "$T/err" && [ ! -s "$T/out" ]; then
        ok
    else
        bad "$*: exit $rc, $(cat "$T/err")"
    fi
}
value "check: --threads needs a whole number from 1 to 256, not 'x'" check --threads x --protocol nol1 x.litmus
value "mutate: --cus needs a whole number from 1 to 15, not '16'" mutate --cus 16 --protocol nol1 x.litmus
value "check: --init takes cold or warm, not 'hot'" check --init hot --protocol nol1 x.litmus
value "check: --max-memory takes a size such as 512M or 2G, not '2X'" check --max-memory 2X --protocol nol1 x.litmus
value "gen: --procs needs a whole number from 2 to 4, not '5'" gen --procs 5 --list
value "report: --models takes target or all, not 'some'" report --models some
value "sim: unknown option or missing value '--jobs'" sim --jobs 2
value "report timed: -j needs a whole number from 1 to 64, not '0'" report timed -j 0

echo "options: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
