#!/bin/sh
# Benchmarks (figures, never assertions): time to evaluate the whole litmus
# suite under all six models, and under SC alone, best of 3 runs each.
BIN=${1:-./cohcheck}
SUITE=${SUITE:-litmus/core}
now() { date +%s.%N; }
best() { # best of 3 wall-clock seconds for "$@"
    b=""
    for i in 1 2 3; do
        t0=$(now)
        "$@" >/dev/null 2>&1
        t1=$(now)
        t=$(awk "BEGIN {print $t1 - $t0}")
        if [ -z "$b" ] || [ "$(awk "BEGIN {print ($t < $b)}")" -eq 1 ]; then b=$t; fi
    done
    printf '%.3f' "$b"
}
ntests=$(find $SUITE -name '*.litmus' | wc -l)
all=$(best "$BIN" litmus --json "$SUITE")
sc=$(best "$BIN" litmus --json --model sc "$SUITE")
cands=$("$BIN" litmus --json "$SUITE" | grep -o '"candidates":[0-9]*' | awk -F: '{s+=$2} END {print s/6}')
echo "cohcheck litmus benchmark ($(nproc) cores)"
echo "| what | tests | models | candidate executions | seconds (best of 3) |"
echo "|---|---|---|---|---|"
echo "| $SUITE, all six models | $ntests | 6 | $cands | $all |"
echo "| $SUITE, sc only | $ntests | 1 | $cands | $sc |"
