#!/bin/sh
# Memory beyond RAM (issue 11 part 4, docs/memory.md): the BFS queue spilled to disk
# gives the same counts, outcomes, verdicts, traces and state numbering as an all-RAM
# queue; --fingerprint 64|96|128 gives the same counts; a disk error stops the search
# with exit 3 and what was explored; bad values exit 2.
# Usage: sh tests/e2e/spill.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
export TMPDIR="$T"
jf() { grep -o "\"$2\":[0-9.e+-]*" "$1" | head -1 | cut -d: -f2; }
# The JSON without the fields that may differ: memory, time, spill and width.
same() { sed 's/,"bytes":.*//' "$1"; }

# run NAME ARGS...: cohcheck check --no-db --json ARGS into $T/NAME.json, exit in $T/NAME.rc
run() {
    name=$1
    shift
    "$BIN" check --no-db --no-por --json "$@" >"$T/$name.json" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
}

# spilled PROTO TEST STATES TRANS VERDICT RC ARGS...: the run with --queue-memory 1 (every
# chunk but the reader's and the writer's goes to disk) equals the run without.
spilled() {
    p=$1 t=$2 n=$3 tr=$4 v=$5 rc=$6
    shift 6
    run ram --protocol "$p" "$@" "litmus/core/$t.litmus"
    run disk --queue-memory 1 --protocol "$p" "$@" "litmus/core/$t.litmus"
    what="$p $t $*"
    got="$(jf "$T/disk.json" states) $(jf "$T/disk.json" transitions) $(cat "$T/disk.rc")"
    if [ "$got" != "$n $tr $rc" ] || ! grep -q "\"verdict\":\"$v\"" "$T/disk.json" || [ -s "$T/disk.err" ]; then
        bad "spill $what: got '$got' $(grep -o '"verdict":"[a-z]*"' "$T/disk.json"), want '$n $tr $rc' $v $(head -3 "$T/disk.err")"
    elif [ "$(jf "$T/disk.json" spilled_bytes)" -lt 1000000 ] || [ "$(jf "$T/ram.json" spilled_bytes)" != 0 ]; then
        bad "spill $what: spilled $(jf "$T/disk.json" spilled_bytes) bytes (ram run: $(jf "$T/ram.json" spilled_bytes))"
    elif [ "$(same "$T/ram.json")" != "$(same "$T/disk.json")" ] || [ "$(cat "$T/ram.rc")" != "$rc" ]; then
        bad "spill $what: the spilled run differs from the all-RAM one"
        diff "$T/ram.json" "$T/disk.json" | head -5
    else
        ok
    fi
}
# The benchmark graph (tests/bench/run.sh): about 28 MB through the spill file.
spilled gpu-wt SB+sc 1184433 5404354 ok 0 --init warm --env all
# Pinned as in tests/e2e/check.tab: one ok run and three refutations with their traces.
spilled gpu-wt MP+rel+acq+guard 146446 619500 ok 0 --env all
spilled tcw WRC+rel+acqs+guards 189285 872806 violation 1 --init warm
spilled tcw-mirefetch MP+rel+acq 74977 320441 violation 1 --init warm --env l2evict
spilled rsp-invfirst scoped-MP+wg+rm_agent+diffwg 80743 310249 violation 1 --env fetch
# The traces are not empty (the comparison above covers their text).
if [ "$(sed 's/.*"trace":\[//' "$T/disk.json" | grep -o '","' | wc -l)" -ge 5 ]; then ok; else
    bad "spill: the refutation's trace is missing"
fi

# Stopped mid-search: the same states expanded, so the same transitions.
run ram --max-states 100000 --protocol gpu-wt --env all litmus/core/MP+rel+acq+guard.litmus
run disk --max-states 100000 --queue-memory 1 --protocol gpu-wt --env all \
    litmus/core/MP+rel+acq+guard.litmus
if [ "$(same "$T/ram.json")" = "$(same "$T/disk.json")" ] && [ "$(cat "$T/disk.rc")" = 3 ] &&
    [ "$(jf "$T/disk.json" states)" = 100000 ] && [ "$(jf "$T/disk.json" spilled_bytes)" -gt 0 ]; then
    ok
else
    bad "spill --max-states: $(same "$T/ram.json" | cut -c1-200) vs $(same "$T/disk.json" | cut -c1-200)"
fi

# The state numbering: state N of the spilled run is state N of the all-RAM run (the
# store replays the path to it), and the store sees the same states.
db=$T/spill.db
for q in "" "--queue-memory 1"; do
    # shellcheck disable=SC2086
    "$BIN" check --no-por --db "$db" --json $q --protocol tcw-mirefetch --init warm --env l2evict \
        litmus/core/MP+rel+acq.litmus >/dev/null 2>&1
done
for s in 40000 66666 74976; do
    "$BIN" trace --db "$db" 1 "$s" >"$T/t1" 2>&1
    "$BIN" trace --db "$db" 2 "$s" >"$T/t2" 2>&1
    if [ -s "$T/t1" ] && cmp -s "$T/t1" "$T/t2" && [ "$(wc -l <"$T/t1")" -ge 5 ]; then ok; else
        bad "spill: state $s differs between the all-RAM and the spilled run"
        diff "$T/t1" "$T/t2" | head -4
    fi
done
if "$BIN" diff --db "$db" 1 2 | grep -q 'states: 0 only in run 1, 0 only in run 2, 74977 in both'; then
    ok
else
    bad "spill: cohcheck diff of the all-RAM and spilled runs: $("$BIN" diff --db "$db" 1 2 | tail -1)"
fi

# --max-memory spills past 3/4 of the bound: 2M stops, 3M completes by spilling.
run m3 --max-memory 3M --protocol gpu-wt --env all litmus/core/MP+rel+acq+guard.litmus
run m2 --max-memory 2M --protocol gpu-wt --env all litmus/core/MP+rel+acq+guard.litmus
if grep -q '"verdict":"ok"' "$T/m3.json" && [ "$(jf "$T/m3.json" states)" = 146446 ] &&
    [ "$(jf "$T/m3.json" spilled_bytes)" -gt 0 ] && [ "$(cat "$T/m2.rc")" = 3 ] &&
    grep -q '"message":"stopped by --max-memory' "$T/m2.json"; then
    ok
else
    bad "spill --max-memory: 3M $(cut -c1-160 "$T/m3.json"); 2M $(cut -c1-160 "$T/m2.json")"
fi

# Disk errors: exit 3, verdict incomplete, the states explored so far; never ok.
TMPDIR=$T/no-such-folder run nodir --queue-memory 1 --protocol gpu-wt --env all \
    litmus/core/MP+rel+acq+guard.litmus
n=$(jf "$T/nodir.json" states)
if [ "$(cat "$T/nodir.rc")" = 3 ] && grep -q '"verdict":"incomplete"' "$T/nodir.json" &&
    grep -q 'cannot create a spill file in [^"]*no-such-folder: No such file' "$T/nodir.json" &&
    [ "$n" -gt 0 ] && [ "$n" -lt 146446 ]; then
    ok
else
    bad "spill: no spill folder: exit $(cat "$T/nodir.rc"), $(cut -c1-300 "$T/nodir.json")"
fi
# A write that fails part-way (RLIMIT_FSIZE, SIGXFSZ ignored: the write returns EFBIG).
(
    trap '' XFSZ
    ulimit -f 4096
    run full --queue-memory 1 --protocol tcw --init warm litmus/core/WRC+rel+acqs+guards.litmus
)
n=$(jf "$T/full.json" states)
if [ "$(cat "$T/full.rc")" = 3 ] && grep -q '"verdict":"incomplete"' "$T/full.json" &&
    grep -q "writing the queue's spill file: File too large" "$T/full.json" &&
    [ "$n" -gt 0 ] && [ "$n" -lt 189285 ] && [ "$(jf "$T/full.json" spilled_bytes)" -gt 0 ]; then
    ok
else
    bad "spill: a failing write: exit $(cat "$T/full.rc"), $(cut -c1-300 "$T/full.json")"
fi

# Fingerprint widths: identical counts and verdicts; the bound is states^2 / 2^(w+1);
# the explorer's bytes grow with the width (8, 12 or 16 bytes per slot).
for c in "gpu-wt MP+rel+acq+guard 146446 --env all" "tcw WRC+rel+acqs+guards 189285 --init warm"; do
    # shellcheck disable=SC2086
    set -- $c
    p=$1 t=$2 n=$3
    shift 3
    prev=0
    for w in 64 96 128; do
        run w$w --fingerprint $w --protocol "$p" "$@" "litmus/core/$t.litmus"
        b=$(jf "$T/w$w.json" bytes)
        want=$(awk -v n="$n" -v w="$w" 'BEGIN { printf "%.3g", n * (n - 1) / 2 ^ (w + 1) }')
        if [ "$(jf "$T/w$w.json" states)" = "$n" ] && [ "$(jf "$T/w$w.json" fingerprint)" = "$w" ] &&
            [ "$(cat "$T/w$w.rc")" = "$(cat "$T/w64.rc")" ] && [ ! -s "$T/w$w.err" ] &&
            [ "$(same "$T/w$w.json")" = "$(same "$T/w64.json")" ] && [ "$b" -gt "$prev" ] &&
            [ "$(jf "$T/w$w.json" omission)" = "$want" ]; then
            ok
        else
            bad "--fingerprint $w $p $t: $(cut -c1-120 "$T/w$w.json") ... bytes $b omission $(jf "$T/w$w.json" omission) (want $want)"
        fi
        prev=$b
    done
done
# DFS too, and with a spilled queue at 128 bits.
run dfs --dfs --fingerprint 96 --protocol gpu-wt --env all litmus/core/MP+rel+acq+guard.litmus
run wq --fingerprint 128 --queue-memory 1 --protocol gpu-wt --env all litmus/core/MP+rel+acq+guard.litmus
if [ "$(jf "$T/dfs.json" states)" = 146446 ] && [ "$(jf "$T/dfs.json" transitions)" = 619500 ] &&
    [ "$(cat "$T/dfs.rc")" = 0 ] && [ "$(cat "$T/wq.rc")" = 0 ] && [ ! -s "$T/wq.err" ] &&
    [ "$(jf "$T/wq.json" states)" = 146446 ] && [ "$(jf "$T/wq.json" transitions)" = 619500 ] &&
    [ "$(jf "$T/wq.json" spilled_bytes)" -gt 0 ]; then
    ok
else
    bad "--fingerprint with --dfs / --queue-memory: $(cut -c1-120 "$T/dfs.json"); $(cut -c1-120 "$T/wq.json")"
fi

# Bad values: one line, exit 2.
for a in "--fingerprint 32" "--fingerprint 64x" "--fingerprint ''" "--queue-memory 0" \
    "--queue-memory 12Q" "--queue-memory -1M"; do
    eval "set -- $a"
    "$BIN" check --no-db --no-por "$@" --protocol gpu-wt litmus/core/SB+sc.litmus >"$T/o" 2>"$T/e"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q -- "${1}" "$T/e" && [ ! -s "$T/o" ]; then
        ok
    else
        bad "check $a: exit $rc, $(cat "$T/e")"
    fi
done

# check --help, the man page and bash completion know the options.
h=$("$BIN" check --help)
for o in --queue-memory --fingerprint; do
    if printf '%s\n' "$h" | grep -q -- "^  $o " &&
        sed 's/\\-/-/g' docs/cohcheck.1 | grep -q -- "^\.BI $o "; then ok; else
        bad "$o: not in check --help or docs/cohcheck.1"
    fi
done
if command -v bash >/dev/null 2>&1; then
    comp() { # comp WANT WORDS...: completing the last word offers WANT
        want=$1
        shift
        bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cohcheck; printf "%s\n" "${COMPREPLY[@]}"' \
            docs/cohcheck.bash-completion "$@" | grep -qx -- "$want"
    }
    for c in "--queue-memory cohcheck check --queue" "--fingerprint cohcheck check --finger" \
        "96 cohcheck check --fingerprint 9" "128 cohcheck check --fingerprint 1"; do
        # shellcheck disable=SC2086
        if comp $c; then ok; else bad "bash completion: $c"; fi
    done
fi

echo "spill.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
