# Shared by the fault-injection scripts (sourced from the repo root; see run.sh).
# FB: the fault build (build-fault/cohcheck), NB: the normal build, used to check
# and resume stores afterwards. Every outcome is tallied in $T/tally, one word a
# line, and summed by `summary`.
FB=${FB:-./build-fault/cohcheck}
NB=${NB:-./cohcheck}
T=$(mktemp -d /tmp/cohcheck-fault.XXXXXX)
trap 'rm -rf "$T"' EXIT
: >"$T/tally"
SEED=${FAULT_SEED:-29}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
tally() { echo "$1" >>"$T/tally"; }
problem() { # KIND MESSAGE: a finding, shown and counted
    tally "$1"
    echo "FAULT $1: $2"
}

# sanitizer_report FILE: true when FILE holds an ASan/LSan/UBSan report.
sanitizer_report() {
    grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|ERROR: UndefinedBehaviorSanitizer' "$1"
}

# samples N K: the allocation numbers to fail for a run of N allocations: 1..min(N,12),
# then K more spread geometrically up to N, each moved by a FAULT_SEED-derived offset
# within its step (deterministic for a seed; another seed picks other points).
# K "all": every number from 1 to N.
samples() {
    if [ "$2" = all ]; then # every allocation of the run
        seq 1 "$1"
        return
    fi
    awk -v n="$1" -v k="$2" -v seed="$SEED" 'BEGIN {
        srand(seed); m = n < 12 ? n : 12
        for (i = 1; i <= m; i++) print i
        if (n <= m) exit
        prev = m
        for (i = 1; i <= k; i++) {
            hi = int(m * exp(log(n / m) * i / k)); if (hi > n) hi = n
            if (hi <= prev) continue
            print prev + 1 + int(rand() * (hi - prev)); prev = hi
        }
    }'
}

# store_ok LABEL DB [BASE]: after a run that failed (its process is gone), DB is
# consistent (cohcheck store check), shows no run as "running", and every
# interrupted or stopped run resumes to the counts and verdict of the same test in
# BASE (a store of the fault-free run), when BASE is given.
store_ok() {
    label=$1 db=$2 base=$3
    [ -s "$db" ] || return 0
    if ! "$NB" store check --quiet --no-replay "$db" >"$T/sc.out" 2>&1; then
        problem inconsistent "$label: $(tail -n 3 "$T/sc.out")"
        return 1
    fi
    "$NB" show --db "$db" --json >"$T/show.json" 2>/dev/null
    if grep -q '"status":"running"' "$T/show.json"; then
        problem inconsistent "$label: a run of a dead process is shown running"
        return 1
    fi
    [ -n "$base" ] || return 0
    for r in $(grep -E '"status":"(interrupted|stopped)"' "$T/show.json" |
        sed 's/^{"run":\([0-9]*\),.*/\1/'); do
        "$NB" resume --db "$db" "$r" >/dev/null 2>&1
        # The list's line for run R, as the base was taken (show --json RUN adds the
        # message and the trace).
        got=$("$NB" show --db "$db" --json | grep "^{\"run\":$r," | sed 's/"run":[0-9]*,"started":"[^"]*",//; s/"pid":[0-9]*,"host":"[^"]*",//; s/,"seconds":[^,]*//')
        test=$(printf '%s' "$got" | sed 's/.*"test":"\([^"]*\)".*/\1/')
        want=$(grep "\"test\":\"$test\"" "$base" | head -1 | sed 's/"run":[0-9]*,"started":"[^"]*",//; s/"pid":[0-9]*,"host":"[^"]*",//; s/,"seconds":[^,]*//')
        if [ "$got" != "$want" ]; then
            problem inconsistent "$label: run $r resumed to $got, want $want"
            return 1
        fi
        tally resumed
    done
    if ! "$NB" store check --quiet "$db" >"$T/sc.out" 2>&1; then
        problem inconsistent "$label: after resuming: $(tail -n 3 "$T/sc.out")"
        return 1
    fi
    return 0
}

# judge LABEL RC OUT ERR LOG BASE_RC BASE_OUT: one run under an injected fault.
# Fired: it must exit 2 or 3 with a one-line message, or (SQLite recovering from a
# benign failure) print exactly what the fault-free run printed with its exit code.
# Not fired: it must behave as the fault-free run. Never a signal or a sanitizer report.
judge() {
    label=$1 rc=$2 out=$3 err=$4 log=$5 brc=$6 bout=$7
    tally injected
    if sanitizer_report "$err"; then
        problem asan "$label: $(grep -m1 -E 'ERROR:|runtime error' "$err")"
        return 1
    fi
    if [ "$rc" -ge 126 ]; then
        problem crash "$label: exit $rc: $(tail -n 2 "$err")"
        return 1
    fi
    if ! grep -q '^fired' "$log" 2>/dev/null; then
        tally notfired
        [ "$rc" -eq "$brc" ] || problem falseok "$label: no fault fired, but exit $rc (want $brc)"
        return 0
    fi
    tally fired
    if [ "$rc" -eq 2 ] || [ "$rc" -eq 3 ]; then
        # The message: one line on stderr, or none there and the explorer's own
        # "incomplete" verdict with its reason on stdout (a resource limit).
        # Progress lines (report: PROTOCOL) aside; "N+" faults may cascade into two.
        nl=$(grep -v '^ *$' "$err" | grep -vcE '^report: [a-z0-9-]+$')
        max=${MSG_LINES:-1}
        case $label in *+) max=$((max + 1)) ;; esac
        if [ "$nl" -gt "$max" ] || { [ "$nl" -eq 0 ] && ! grep -qE 'incomplete|out of memory' "$out"; }; then
            problem message "$label: exit $rc with $nl lines on stderr: $(head -n 3 "$err")"
            return 1
        fi
        tally clean
        return 0
    fi
    if [ "$rc" -eq "$brc" ] && [ ! -s "$err" ] && [ "$(normalize "$out")" = "$(normalize "$bout")" ]; then
        tally recovered
        return 0
    fi
    problem falseok "$label: exit $rc after an injected fault: $(head -c 300 "$out") $(head -n 2 "$err")"
    return 1
}

# The output less what differs between two correct runs: times, run numbers.
normalize() { sed -E 's/[0-9]+\.[0-9]+ ?m?s//g; s/run [0-9]+/run N/g; s/"run":[0-9]+//g; s/"seconds":[0-9.e+-]+//g' "$1"; }

# summary NAME: one line of counts, and a machine-readable one for run.sh.
summary() {
    c() { grep -cx "$1" "$T/tally"; }
    echo "$1: $(c injected) faults injected ($(c fired) fired: $(c clean) clean exit 2/3, $(c recovered) ran on to the fault-free result; $(c resumed) interrupted runs resumed), $(c crash) crashes, $(c falseok) false ok, $(c inconsistent) inconsistent stores, $(c asan) ASan reports, $(c message) bad messages"
    echo "RESULT $1 injected=$(c injected) fired=$(c fired) crash=$(c crash) falseok=$(c falseok) inconsistent=$(c inconsistent) asan=$(c asan) message=$(c message)" >>"${FAULT_RESULTS:-/dev/null}"
    [ "$(c crash)" -eq 0 ] && [ "$(c falseok)" -eq 0 ] && [ "$(c inconsistent)" -eq 0 ] &&
        [ "$(c asan)" -eq 0 ] && [ "$(c message)" -eq 0 ]
}
