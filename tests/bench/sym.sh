#!/bin/sh
# Symmetry reduction (docs/por.md, "Symmetry"): states and time without and with
# --symmetry on tests with interchangeable compute units; time is the median of
# SYM_REPS runs (default 3) with min..max. Usage: sh tests/bench/sym.sh ./cohcheck
BIN=${1:-./cohcheck}
REPS=${SYM_REPS:-3}
field() { sed -n "s/.*\"$1\":\([0-9.e-]*\).*/\1/p" | head -n 1; }
# one OPTIONS...: "states median(min..max)" over REPS runs
one() {
    ts=""
    for _ in $(seq "$REPS"); do
        out=$("$BIN" check --no-db --json --max-memory 3G "$@")
        ts="$ts $(printf '%s' "$out" | field time_s)"
    done
    s=$(printf '%s' "$out" | field states)
    printf '%s %s\n' "$s" "$(printf '%s\n' $ts | sort -g | awk '{a[NR]=$1} END {printf "%.4f(%.4f..%.4f)", a[int((NR+1)/2)], a[1], a[NR]}')"
}
printf '%-44s %-10s %-28s %-10s %-28s\n' "test (options)" states "time s, median(min..max)" "sym states" "sym time s"
row() {
    name=$1
    shift
    a=$(one --no-symmetry "$@")
    b=$(one --symmetry "$@")
    printf '%-44s %-10s %-28s %-10s %-28s\n' "$name" ${a%% *} ${a#* } ${b%% *} ${b#* }
}
row "SPM_G gpu-wt" --protocol gpu-wt litmus/workloads/SPM_G.litmus
row "SPM_G gpu-wt --no-por" --protocol gpu-wt --no-por litmus/workloads/SPM_G.litmus
row "SPM_G denovo" --protocol denovo litmus/workloads/SPM_G.litmus
row "SPM_G qr" --protocol qr litmus/workloads/SPM_G.litmus
row "FAM_G mesi" --protocol mesi litmus/workloads/FAM_G.litmus
row "SPM_G gpu-wt warm env all" --protocol gpu-wt --init warm --env all litmus/workloads/SPM_G.litmus
row "RMW-add2 mesi --cus 4 warm" --protocol mesi --cus 4 --init warm litmus/core/RMW-add2.litmus
row "MP gpu-wt --cus 4 warm env all" --protocol gpu-wt --cus 4 --init warm --env all litmus/core/MP.litmus
row "SB gpu-wt --cus 6 warm" --protocol gpu-wt --cus 6 --init warm litmus/core/SB.litmus
