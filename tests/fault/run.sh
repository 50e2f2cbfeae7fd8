#!/bin/sh
# make test-fault: every fault-injection campaign in turn, then one line of totals.
# Usage: sh tests/fault/run.sh FAULT_BUILD NORMAL_BUILD   (from the repo root)
# FAULT_SEED picks other sample and kill points; FAULT_SAMPLES, FAULT_KILLS, FAULT_SECONDS
# size the campaigns (docs/reliability.md).
export FB=${1:-./build-fault/cohcheck} NB=${2:-./cohcheck}
export FAULT_RESULTS
FAULT_RESULTS=$(mktemp /tmp/cohcheck-fault-results.XXXXXX)
trap 'rm -f "$FAULT_RESULTS"' EXIT
start=$(date +%s)
status=0
for part in ${FAULT_PARTS:-alloc io disk kill concurrent}; do
    echo "== $part"
    sh "tests/fault/$part.sh" || status=1
done
awk -v secs=$(($(date +%s) - start)) -v seed="${FAULT_SEED:-29}" '
    /^RESULT/ { for (i = 3; i <= NF; i++) { split($i, kv, "="); sum[kv[1]] += kv[2] } }
    END {
        printf "test-fault (seed %s, %d s): %d faults injected (%d fired), %d crashes, %d false ok, %d inconsistent stores, %d ASan reports, %d bad messages\n",
            seed, secs, sum["injected"], sum["fired"], sum["crash"], sum["falseok"],
            sum["inconsistent"], sum["asan"], sum["message"]
    }' "$FAULT_RESULTS"
exit $status
