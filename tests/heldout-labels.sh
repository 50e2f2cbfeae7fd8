#!/bin/sh
# heldout-labels.sh A/timed.md B/timed.md: compare the claims tables' labels of two
# `cohcheck report timed` runs (the committed seeds against held-out ones, e.g. --seed 101).
# Prints "same" or "differs" per claim; exit 0 when every label agrees, 1 otherwise.
# Usage (make report-timed-heldout): sh tests/heldout-labels.sh reports/timed.md /tmp/h/timed.md
labels() {
    # The claims table: title and label (the 5th cell; rule texts may hold '\|').
    sed -n '/^## Claims$/,/^## Claims not attempted/p' "$1" | grep '^| [A-Z]' |
        sed 's/\\|/\x01/g' | awk -F' [|] ' '{print $1 "\t" $5}' | sed 's/^| //'
}
labels "$1" >"${TMPDIR:-/tmp}/heldout-a.$$"
labels "$2" >"${TMPDIR:-/tmp}/heldout-b.$$"
rc=0
while IFS="$(printf '\t')" read -r title label; do
    other=$(awk -F'\t' -v t="$title" '$1 == t {print $2}' "${TMPDIR:-/tmp}/heldout-b.$$")
    if [ "$other" = "$label" ]; then
        printf 'same     %s: %s\n' "$label" "$title"
    else
        printf 'differs  %s -> %s: %s\n' "$label" "${other:-missing}" "$title"
        rc=1
    fi
done <"${TMPDIR:-/tmp}/heldout-a.$$"
rm -f "${TMPDIR:-/tmp}/heldout-a.$$" "${TMPDIR:-/tmp}/heldout-b.$$"
exit $rc
