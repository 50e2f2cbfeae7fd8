#!/bin/sh
# check --threads N (explore_par.c): the same result as one thread, field for
# field: states, transitions, outcomes, depth, verdict, message and trace, on
# the check.tab rows (ok and refuted, every failure kind, small enough to run
# three times), on a spread of core tests cold and warm with every environment
# action, under --max-states and --max-depth cuts; the same stored run (state
# numbering, parents, positions) for the store, which resume then finishes;
# the benchmark graph's pinned counts. THREADS_MAX_STATES bounds the check.tab
# rows taken (default 60000 states). Usage: sh tests/e2e/threads.sh ./cohcheck
BIN=${1:-./cohcheck}
LIMIT=${THREADS_MAX_STATES:-60000}
. tests/e2e/lib.sh
L=litmus/core
# the JSON result less what may differ: time, memory held, the thread count
norm() { sed -e 's/,"bytes":[0-9]*//' -e 's/,"time_s":[0-9.]*//' -e 's/,"threads":[0-9]*//'; }
num() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }

# same PROTOCOL TEST OPTIONS...: --threads 2 and 4 against one thread
same() {
    p=$1
    t=$2
    shift 2
    one=$("$BIN" check --no-db --json --protocol "$p" "$@" "$t" 2>&1)
    rc1=$?
    one=$(printf '%s' "$one" | norm)
    for n in 2 4; do
        got=$("$BIN" check --no-db --json --protocol "$p" --threads $n "$@" "$t" 2>&1)
        rc=$?
        got=$(printf '%s' "$got" | norm)
        if [ "$got" = "$one" ] && [ $rc -eq $rc1 ]; then
            ok
        else
            bad "--threads $n $p $t $*: exit $rc (one thread: $rc1)"
            printf '  1: %s\n  %s: %s\n' "$(printf '%s' "$one" | cut -c1-400)" $n \
                "$(printf '%s' "$got" | cut -c1-400)"
        fi
    done
}

# 1. check.tab rows up to LIMIT states (every verdict kind is among them).
kinds=""
while read -r proto test opts verdict states trans; do
    case "$proto" in '' | '#'*) continue ;; esac
    [ "$states" != "-" ] && [ "$states" -gt "$LIMIT" ] && continue
    # --liveness keeps the graph in one thread: --threads refuses it (tests/e2e/liveness.sh).
    case "$opts" in *--liveness*) continue ;; esac
    [ "$opts" = "-" ] && opts=""
    opts=$(printf "%s" "$opts" | tr "_" " ")
    # shellcheck disable=SC2086
    same "$proto" "$L/$test.litmus" $opts
    case " $kinds " in *" $verdict "*) ;; *) kinds="$kinds $verdict" ;; esac
done <tests/e2e/check.tab
for v in ok violation deadlock invariant unexpected; do
    case " $kinds " in *" $v "*) ok ;; *) bad "no check.tab row with verdict $v was compared" ;; esac
done

# 2. A spread of core tests x protocols, cold (complete) and warm with every
# environment action (cut by --max-states: the cut lands on the same transition).
for p in gpu-wt gpu-wt-noinv rcc rcc-norule3 mesi-noack denovo-noinv hlrc-noinv tcw-nogwct; do
    for t in MP+sc SB+sc MP+rel+acq+guard IRIW+acqs WRC+rel+acqs+guards CAS-spinlock; do
        [ -f "$L/$t.litmus" ] || continue
        same $p "$L/$t.litmus" --max-states 200000
        same $p "$L/$t.litmus" --init warm --env all --max-states 7777
    done
done
# the limits: a cut mid-level, at an exact level, and --max-depth
same gpu-wt "$L/SB+sc.litmus" --init warm --env all --max-states 1
same gpu-wt "$L/SB+sc.litmus" --init warm --env all --max-states 16
same gpu-wt "$L/SB+sc.litmus" --init warm --env all --max-states 12345
same gpu-wt "$L/SB+sc.litmus" --init warm --env all --max-depth 7
same gpu-wt-noinv "$L/MP+rel+acq+guard.litmus" --env fetch --max-depth 9

# 3. The store: the same run (counts, expanded prefix, verdict, trace, failing
# state) and the same numbering: sampled states have the same stored path
# (parents, positions, labels; the unit test compares every state); a stopped
# --threads run resumes to the uninterrupted counts.
show() { # the run's row (less its start time), message, trace and failing state
    "$BIN" show --db "$1" "$2" | sed -E -e '/^command:/d' -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}//'
}
for args in "gpu-wt-noinv --env fetch $L/MP+rel+acq+guard.litmus" \
    "gpu-wt --init warm --env all --max-states 30000 $L/SB+sc.litmus" \
    "tests/e2e/data/bad-deadlock.proto $L/RMW-add2.litmus"; do
    # shellcheck disable=SC2086
    r1=$("$BIN" check --db "$T/one.db" --json --protocol $args | num run)
    # shellcheck disable=SC2086
    r2=$("$BIN" check --db "$T/two.db" --json --threads 2 --protocol $args | num run)
    same_paths=1
    for st in 1 2 3 100 4000 17000 29999; do
        p1=$("$BIN" trace --db "$T/one.db" "$r1" $st 2>&1)
        [ "$p1" = "$("$BIN" trace --db "$T/two.db" "$r2" $st 2>&1)" ] || same_paths=0
    done
    if [ -n "$r1" ] && [ "$(show "$T/one.db" "$r1")" = "$(show "$T/two.db" "$r2")" ] &&
        [ $same_paths -eq 1 ]; then
        ok
    else
        bad "stored run differs with --threads 2: $args"
    fi
done
# (with --por: 2738 states, the reduced graph, which resume keeps)
full=$("$BIN" check --no-db --json --por --protocol gpu-wt --env fetch $L/MP+rel+acq+guard.litmus)
out=$("$BIN" check --db "$T/res.db" --json --por --threads 2 --protocol gpu-wt --env fetch \
    --max-states 1000 $L/MP+rel+acq+guard.litmus)
[ $? -eq 3 ] && ok || bad "--threads 2 --max-states should exit 3"
run=$(printf '%s' "$out" | num run)
res=$("$BIN" resume --db "$T/res.db" --json "$run")
[ $? -eq 0 ] && [ "$(printf '%s' "$res" | num states)" = "$(printf '%s' "$full" | num states)" ] &&
    [ "$(printf '%s' "$res" | num transitions)" = "$(printf '%s' "$full" | num transitions)" ] &&
    ok || bad "resume of a --threads run: $res; uninterrupted: $(printf '%s' "$full" | cut -c1-120)"
tr1=$("$BIN" trace --db "$T/res.db" "$run" 2500)
r0=$("$BIN" check --db "$T/res.db" --json --por --protocol gpu-wt --env fetch \
    $L/MP+rel+acq+guard.litmus | num run)
[ -n "$tr1" ] && [ "$tr1" = "$("$BIN" trace --db "$T/res.db" "$r0" 2500)" ] && ok ||
    bad "state 2500 has another path in the resumed --threads run"

# 4. The benchmark graph (tests/bench/threads.sh), pinned.
out=$("$BIN" check --no-db --json --threads 2 --no-por --protocol gpu-wt --init warm --env all \
    $L/SB+sc.litmus)
printf '%s' "$out" | grep -q '"states":1184433,"transitions":5404354,' &&
    printf '%s' "$out" | grep -q '"verdict":"ok"' && printf '%s' "$out" | grep -q '"depth":32,' &&
    printf '%s' "$out" | grep -q '"threads":2' && ok || bad "bench graph with --threads 2: $out"

# 5. Partial-order reduction (--por, the default; docs/por.md): the threads keep the
# serial explorer's stubborn sets and cycle proviso (a successor counts as expanded
# iff its number is <= the parent's), so the reduced graph is the same: states,
# transitions, por_reduced, por_full, numbering, verdict and trace. Cold and warm
# with every environment action, ok and refuted, loops (the proviso) and cuts; and
# --no-por the full graph. The proviso must have changed some choice (por_full > 0).
pfull=0
for p in gpu-wt gpu-wt-noinv gpu-hrf nol1 nol1-nowait hlrc-noinv rcc; do
    for t in MP+sc SB+sc MP+rel+acq+guard CAS-spinlock MP+rel+acq+spin MP+fences+spin IRIW+acqs; do
        [ -f "$L/$t.litmus" ] || continue
        same $p "$L/$t.litmus" --por --max-states 200000
        same $p "$L/$t.litmus" --por --init warm --env all --max-states 20000
    done
    same $p "$L/MP+rel+acq+guard.litmus" --no-por --init warm --env all --max-states 20000
done
same gpu-wt-noinv "$L/MP+rel+acq+guard.litmus" --por --env fetch
same gpu-wt "$L/SB+sc.litmus" --por --init warm --env all --max-states 4321
same gpu-wt "$L/MP+rel+acq+spin.litmus" --por --init warm --env all --max-depth 9
same tests/e2e/data/bad-deadlock.proto "$L/RMW-add2.litmus" --por
for n in 2 4; do
    out=$("$BIN" check --no-db --json --por --threads $n --protocol gpu-wt --init warm --env all \
        --max-states 20000 $L/CAS-spinlock.litmus)
    pf=$(printf '%s' "$out" | num por_full)
    printf '%s' "$out" | grep -q '"por":true' && [ "${pf:-0}" -gt 0 ] && pfull=$((pfull + 1))
done
[ $pfull -eq 2 ] && ok || bad "--por --threads: the cycle proviso never changed a choice"
# a refuted variant's reduced counts, pinned (one thread gives the same)
out=$("$BIN" check --no-db --json --por --threads 2 --protocol gpu-wt-noinv --env fetch \
    $L/MP+rel+acq+guard.litmus)
printf '%s' "$out" | grep -q '"states":2187,"transitions":3329,' &&
    printf '%s' "$out" | grep -q '"verdict":"violation"' && ok ||
    bad "--por --threads 2 violation: $(printf '%s' "$out" | cut -c1-200)"

# --max-memory: a table doubling that would pass the limit stops the search there
# (exit 3, "stopped by --max-memory"), and the explorer's bytes stay under it.
out=$("$BIN" check --no-db --json --no-por --threads 2 --protocol gpu-wt --init warm --env all \
    --max-memory 40M $L/SB+sc.litmus)
rc=$?
b=$(printf '%s' "$out" | num bytes)
[ $rc -eq 3 ] && printf '%s' "$out" | grep -q '"message":"stopped by --max-memory' &&
    [ -n "$b" ] && [ "$b" -le 41943040 ] && ok ||
    bad "--threads 2 --max-memory 40M: exit $rc, $(printf '%s' "$out" | cut -c1-200)"

# Where a doubling would pass --max-memory the table fills to 90 % first: SB (232,470
# states, 89 % of 2^18 slots) finishes under 12M with one thread's result, field for field.
one=$("$BIN" check --no-db --json --no-por --protocol gpu-wt --init warm --env all $L/SB.litmus | norm)
out=$("$BIN" check --no-db --json --no-por --threads 2 --protocol gpu-wt --init warm --env all \
    --max-memory 12M $L/SB.litmus)
rc=$?
b=$(printf '%s' "$out" | num bytes)
[ $rc -eq 0 ] && [ "$(printf '%s' "$out" | norm)" = "$one" ] && printf '%s' "$one" |
    grep -q '"states":232470,' && [ -n "$b" ] && [ "$b" -le 12582912 ] && ok ||
    bad "--threads 2 --max-memory 12M SB: exit $rc, $(printf '%s' "$out" | cut -c1-200)"

# 6. Symmetry (docs/por.md, "Symmetry"): the threads store canonical states and report
# one thread's --symmetry run field for field: counts, outcomes (each one's orbit),
# verdict, racy flag, a realised trace; with --por (the cycle proviso on the quotient)
# and without, ok, refuted (denovo-nofwd loses an update), a --max-states cut.
for p in gpu-wt rcc mesi denovo-nofwd tcw; do
    for t in workloads/SPM_G core/RMW-add2 core/CAS-spinlock; do
        same $p "litmus/$t.litmus" --symmetry --cus 4 --max-states 20000
        same $p "litmus/$t.litmus" --symmetry --init warm --env all --max-states 5000
    done
done
same gpu-wt litmus/workloads/SPM_G.litmus --symmetry --no-por
same gpu-wt "$L/MP.litmus" --symmetry --cus 4 --init warm --no-por
same gpu-wt litmus/workloads/SPM_G.litmus --symmetry --init warm --env all --max-states 777
out=$("$BIN" check --no-db --json --symmetry --threads 2 --protocol gpu-wt \
    litmus/workloads/SPM_G.litmus)
printf '%s' "$out" | grep -q '"states":61,"transitions":71,' &&
    printf '%s' "$out" | grep -q '"name":"symmetry","applied":true' && ok ||
    bad "--symmetry --threads 2 SPM_G: $(printf '%s' "$out" | cut -c1-200)"
# the stored trace is the serial check's real execution; a cut run resumes to the counts
rm -f "$T/sym.db"
"$BIN" check --db "$T/sym.db" --symmetry --threads 2 --protocol denovo-nofwd --cus 4 \
    litmus/core/RMW-add2.litmus >"$T/c" 2>&1
"$BIN" trace --db "$T/sym.db" 1 2>&1 | grep '^ *[0-9][0-9]*  ' >"$T/t1"
"$BIN" check --no-db --symmetry --protocol denovo-nofwd --cus 4 litmus/core/RMW-add2.litmus |
    grep '^ *[0-9][0-9]*  ' >"$T/c1"
[ -s "$T/c1" ] && cmp -s "$T/c1" "$T/t1" && ok || bad "--symmetry --threads 2: stored trace"
"$BIN" check --db "$T/sym.db" --symmetry --threads 2 --max-states 30 --protocol gpu-wt \
    litmus/workloads/SPM_G.litmus >/dev/null 2>&1
[ $? -eq 3 ] && ok || bad "--symmetry --threads 2 --max-states 30 should exit 3"
"$BIN" resume --db "$T/sym.db" 2 2>&1 | grep -q 'ok (61 states, 71 transitions; resumed run 2' &&
    ok || bad "resume of a --symmetry --threads run"

# 7. Bad values: one line, exit 2.
# --max-time (a wall-clock limit per test): the search stops as incomplete, exit 3, with
# the states it explored and the limit named, on one thread and on two; a search that
# ends sooner is untouched. (No time is asserted: only what the limit reports.)
for n in 1 2; do
    "$BIN" check --no-db --json --protocol denovo --init warm --env all --threads $n \
        --max-time 1 $L/RWC+rel+acqs.litmus >"$T/o" 2>"$T/e"
    rc=$?
    st=$(num states <"$T/o")
    if [ $rc -eq 3 ] && grep -q '"verdict":"incomplete","message":"stopped by --max-time after '"$st"' states"' "$T/o" &&
        [ "$st" -gt 0 ]; then ok; else bad "--max-time 1 --threads $n: exit $rc, $(cut -c1-300 "$T/o")"; fi
done
got=$("$BIN" check --no-db --json --protocol gpu-wt --init warm --env all --max-time 600 \
    $L/SB+sc.litmus | norm)
want=$("$BIN" check --no-db --json --protocol gpu-wt --init warm --env all $L/SB+sc.litmus | norm)
[ "$got" = "$want" ] && ok || bad "--max-time 600 changed a search that ends sooner"
for a in "--max-time 0" "--max-time x" "--max-time 1.5"; do
    # shellcheck disable=SC2086
    "$BIN" check --no-db --protocol gpu-wt $a $L/SB+sc.litmus >"$T/o" 2>"$T/e"
    [ $? -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] && ok || bad "check $a: $(cat "$T/e")"
done
for a in "--threads 0" "--threads x" "--threads 257" "--threads 2 --dfs"; do
    # shellcheck disable=SC2086
    "$BIN" check --no-db --protocol gpu-wt $a $L/SB+sc.litmus >"$T/o" 2>"$T/e"
    [ $? -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] && ok || bad "check $a: $(cat "$T/e")"
done
"$BIN" check --help | grep -q -- '--threads N' && ok || bad "check --help lacks --threads"
grep -qF -- '\-\-threads' docs/cohcheck.1 && ok || bad "the man page lacks --threads"
if command -v bash >/dev/null 2>&1; then
    bash -c '. docs/cohcheck.bash-completion; COMP_WORDS=(cohcheck check --thr); COMP_CWORD=2
        _cohcheck; printf "%s\n" "${COMPREPLY[@]}"' | grep -qx -- --threads && ok ||
        bad "bash completion does not offer check --threads"
fi

echo "threads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
