#!/bin/sh
# `make install` into a scratch DESTDIR: the installed binary finds its models
# and protocols from any folder, the man page renders without warnings, and
# bash completion offers subcommands, options, protocols and models.
# Usage: sh tests/e2e/install.sh   (from the repo root, after `make`)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
t() { # t NAME CMD...: the command must succeed
    name=$1
    shift
    if "$@" >"$T/out" 2>&1; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL $name"
        sed 's/^/    /' "$T/out" | head -10
    fi
}
make -s install DESTDIR="$T/root" PREFIX=/usr >"$T/make.log" 2>&1 || { cat "$T/make.log"; exit 1; }
R=$T/root/usr
t installed-files test -x "$R/bin/cohcheck" -a -f "$R/share/man/man1/cohcheck.1" \
    -a -f "$R/share/bash-completion/completions/cohcheck" -a -f "$R/share/cohcheck/models/sc.cat" \
    -a -f "$R/share/cohcheck/protocols/gpu-wt.proto"
t litmus-from-elsewhere sh -c "cd / && '$R/bin/cohcheck' litmus --quiet '$R/share/cohcheck/litmus/core' | grep -q '^Summary: '"
t check-from-elsewhere sh -c "cd / && '$R/bin/cohcheck' check --no-db --protocol gpu-wt '$R/share/cohcheck/litmus/core/MP.litmus' | grep -q ': ok'"
if command -v man >/dev/null 2>&1; then
    t man-renders sh -c "MANWIDTH=80 man -l '$R/share/man/man1/cohcheck.1' | grep -q 'EXIT STATUS'"
    t man-no-warnings sh -c "test -z \"\$(MANWIDTH=80 man --warnings -l '$R/share/man/man1/cohcheck.1' 2>&1 >/dev/null)\""
fi
if command -v bash >/dev/null 2>&1; then
    comp() { # comp WANT WORDS...: completing the last word offers WANT
        want=$1
        shift
        bash -c '. "$0"; cd "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cohcheck; printf "%s\n" "${COMPREPLY[@]}"' \
            "$R/share/bash-completion/completions/cohcheck" "$PWD" "$@" | grep -qx -- "$want"
    }
    t complete-command comp draw cohcheck dr
    t complete-protocol comp gpu-wt-noinv cohcheck check --protocol gpu-wt-no
    t complete-model comp hrf-indirect cohcheck litmus --model hrf-i
    t complete-option comp --resolved cohcheck count --res
    t complete-count-protocol comp tcw-nogwct cohcheck count tcw-
fi
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
