#!/bin/sh
# Regenerate what the option table (checker/cli/opts.c) documents: the bash
# completion (docs/cohcheck.bash-completion, whole) and the man page's OPTIONS
# section (docs/cohcheck.1, between its "BEGIN OPTIONS" and "END OPTIONS"
# comment lines). Usage: sh docs/gen.sh ./cohcheck [--check] (repo root);
# --check writes nothing and exits 1 when a checked-in file is stale.
BIN=${1:-./cohcheck}
T=$(mktemp -d /tmp/cohcheck-gen.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$BIN" _docs lint || exit 1
"$BIN" _docs completion >"$T/completion" || exit 1
"$BIN" _docs man >"$T/options" || exit 1
grep -q '^\.\\" BEGIN OPTIONS' docs/cohcheck.1 && grep -q '^\.\\" END OPTIONS' docs/cohcheck.1 || {
    echo "docs/cohcheck.1 has no BEGIN OPTIONS / END OPTIONS comment lines" >&2
    exit 1
}
awk -v gen="$T/options" '
    /^\.\\" BEGIN OPTIONS/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
    /^\.\\" END OPTIONS/ { skip = 0 }
    !skip { print }' docs/cohcheck.1 >"$T/man"
if [ "$2" = --check ]; then
    rc=0
    cmp -s "$T/completion" docs/cohcheck.bash-completion ||
        { echo "docs/cohcheck.bash-completion is stale: run make docs" >&2; rc=1; }
    cmp -s "$T/man" docs/cohcheck.1 || { echo "docs/cohcheck.1's OPTIONS section is stale: run make docs" >&2; rc=1; }
    exit $rc
fi
cp "$T/completion" docs/cohcheck.bash-completion && cp "$T/man" docs/cohcheck.1
