#!/bin/sh
# Mutation campaigns on the correct protocols (reports/mutation.md), one protocol at a time
# from tests/mutation/protocols.tab (or those named), with its exploration bound and
# stronger settings. Writes OUT/P.core.json (`cohcheck mutate --json` on the core suite)
# and, with -g, OUT/P.gen.json.
# Usage: sh tests/mutation/run.sh [-o OUT] [-j N] [-b CORE] [-r PREV] [-K PREV] [-g] [-L]
#        [-E LIST] [-N] [-M PREV] [-R N [-U LIST]] [-B PREV] [PROTOCOL...]
#   -b CORE  the core suite (default litmus/core and litmus/mutation, the tests written to
#            cover the rows litmus/core leaves not covered; an older suite's folder gives
#            "before"; several paths: one word, space-separated);
#            '-' for none: only the later stages, on the OUT/P.core.json already there
#   -r PREV  incremental, after tests were added to the suite: CORE names only the added
#            tests (a folder or file); the mutants not killed in PREV/P.core.json (survived,
#            equivalent, not-covered) are run on
#            them and the classes merged (what the old tests killed stays killed)
#   -K PREV  after the core stage (before -R), the kills of an earlier campaign of the same
#            table on the same suite, PREV/P.core.json, merged: a counterexample found there
#            (at any bound, with or without the reduction, with --liveness) is one here; a
#            mutant PREV showed equivalent on the full graph (POR=--no-por there) that this
#            run reports not covered is equivalent (its row is chosen, as -N would show)
#   -g       then the mutants that survived on CORE again on litmus/gen (--only: the
#            generated suite has ~1000 tests, too many to run every mutant on), merged into
#            OUT/P.gen.json: the classes on core plus gen
#   -S LIST, -m N  the stronger settings and --max-states of the gen stage (default: the
#            protocol's, from protocols.tab)
#   -L       after the core stage (and -R, -E, -N), the survivors and equivalent mutants again on
#            CORE with --liveness (the full graph: no reduction; the protocol's stronger
#            settings and -E's, or those in $LIVE_ST), merged: a mutant that livelocks or
#            starves a thread where the original does not is killed (an eviction row that
#            leaves the line waiting for data that never comes livelocks only with the
#            environment actions on)
#   -E LIST  after the core stage (and -R), the mutants not killed (survived, equivalent,
#            not-covered) again on CORE under the settings LIST (--stronger LIST), merged:
#            killed there is killed, a row chosen there is covered, other outcomes there
#            make a survivor (e.g. 'all': every environment action, whose rows a campaign
#            with only warm caches never chooses)
#   -N       after -R and -E, the not-covered mutants again on CORE without the partial-order
#            reduction (--no-por; the protocol's stronger settings and -E's, or those in
#            $NOPOR_ST), merged as
#            more settings: under --por a row counts as covered only where the reduced
#            graph takes it, so a mutant is reported not-covered only when the full graph
#            never chooses its row either (killed there is killed, chosen with the same
#            outcomes is equivalent)
#   -R N [-U LIST]  after the core stage, re-run the survivors whose searches hit the bound
#            with --max-states N (and stronger settings LIST, default the protocol's) on
#            CORE, merged: what that kills is killed (base and warm decide most of them);
#            with the protocol's own settings (no -U), a survivor that differed only by
#            bounded searches takes the class of the larger bound (killed, survived,
#            equivalent or not-covered)
#   -B PREV  after -R, PREV/P.core.json merged as -R merges its re-run: `mutate --only` on some
#            of the bounded survivors at a larger bound in the protocol's own settings, run
#            apart (a slice of them, where all of them at once would take too long)
# Every search uses the partial-order reduction (`mutate --por`) where the protocol's
# analysis allows it (every protocol of protocols.tab, the global-clock ones too: the tick
# is never in a reduced set, docs/por.md): the same kills and outcomes, fewer states per
# bound. POR=--no-por for the full graph.
# Then: python3 tests/mutation/report.py OUT > reports/mutation.md
# Long: run it under nice. Times of the last campaigns: reports/mutation.md.
BIN=${BIN:-./cohcheck}
POR=${POR:---por}
OUT=mutation-out
J=2
CORE="litmus/core litmus/mutation" # the core suite and the tests written to cover its holes
GEN=litmus/gen
PREV=
KPREV=
MPREV=
BPREV=
DOGEN=
GEN_ST=
GEN_MS=
RE_MS=
RE_ST=
LIVE=
NOPOR=
EXTRA=
while getopts o:j:b:r:K:M:B:gLNE:S:m:R:U: opt; do
    case $opt in
    o) OUT=$OPTARG ;;
    j) J=$OPTARG ;;
    b) CORE=$OPTARG ;;
    r) PREV=$OPTARG ;;
    K) KPREV=$OPTARG ;;
    M) MPREV=$OPTARG ;;
    B) BPREV=$OPTARG ;;
    g) DOGEN=1 ;;
    L) LIVE=1 ;;
    N) NOPOR=1 ;;
    E) EXTRA=$OPTARG ;;
    S) GEN_ST=$OPTARG ;;
    m) GEN_MS=$OPTARG ;;
    R) RE_MS=$OPTARG ;;
    U) RE_ST=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
mkdir -p "$OUT" || exit 2
RE_CORE=${RE_CORE:-litmus/core litmus/mutation} # the suite the -R re-runs use
LCORE=$CORE                      # and the -L ones: CORE, or RE_CORE with -b -
[ "$CORE" = - ] && LCORE=$RE_CORE
LIVE_ST=${LIVE_ST:-}             # the -L stage's stronger settings (default the protocol's)
NOPOR_ST=${NOPOR_ST:-}           # the -N stage's (default the protocol's and -E's)
TAB=${TAB:-tests/mutation/protocols.tab} # the campaigns (another table: tests/e2e/mutate.sh)
if [ $# -eq 0 ]; then
    # shellcheck disable=SC2046 # protocol names, one word each
    set -- $(grep -v '^#' "$TAB" | awk 'NF { print $1 }')
fi
# ids FILE CLASS...: the numbers of the mutants of those classes, comma-separated
ids() {
    python3 - "$@" <<'PY'
import json, sys
ms = [json.loads(l) for l in open(sys.argv[1])][:-1]
print(",".join(str(m["mutant"]) for m in ms if m["class"] in sys.argv[2:]))
PY
}
# merge PREV NEW IDS [same|settings]: PREV's classes combined with NEW's, a re-run of the mutants IDS on
# more tests only: killed there wins; else a survivor stays one, an equivalent mutant
# stays equivalent only if the new tests reach the original's outcomes too, and a
# not-covered one becomes equivalent when the new tests choose its row and change nothing.
# Not-covered mutants count against the kill rate.
merge() {
    python3 - "$@" <<'PY'
import json, sys
old = [json.loads(l) for l in open(sys.argv[1])]
new = [json.loads(l) for l in open(sys.argv[2])] if sys.argv[3] else []
s, ms = old[-1], {m["mutant"]: m for m in old[:-1]}
mode = sys.argv[4] if len(sys.argv) > 4 else "tests"
for n in new[:-1]:
    o = ms[n["mutant"]]
    if mode == "kills":  # an earlier campaign's kills; its full-graph row coverage
        assert (o["original"], o["row"]) == (n["original"], n["row"]), n["mutant"]
        if n["class"] in ("killed", "killed-stronger") and o["class"] not in (
                "killed", "killed-stronger", "invalid"):
            ms[n["mutant"]] = n
        elif n["class"] == "equivalent" and o["class"] == "not-covered":
            o["class"] = "equivalent"
        continue
    if n["class"] in ("killed", "killed-stronger", "invalid"):
        ms[n["mutant"]] = n
    elif (mode == "bound" and o["class"] == "survived" and not o.get("gained")
          and not o.get("lost")):
        ms[n["mutant"]] = n  # only bounded before: the larger bound decides, in every setting
    elif o["class"] in ("survived", "equivalent", "not-covered") and mode not in ("same", "bound"):
        for k in ("gained", "lost", "bounded"):
            if k in o:
                o[k] += n.get(k, 0)
            elif k in n:  # a run made before mutate reported them: only the new tests'
                o[k] = n[k]
                o["outcomes_of"] = "later runs only: the first one did not record them"
        o["differs_on"] = o.get("differs_on") or n.get("differs_on")
        if n["class"] == "survived":
            o["class"] = "survived"
        elif n["class"] == "equivalent" and o["class"] == "not-covered":
            o["class"] = "equivalent"  # the new tests choose its row, with the same outcomes
    # same: a re-run on the same tests with a larger bound or --liveness: only a kill
    # changes the class; bound: a larger bound in all the campaign's settings, whose class
    # replaces a survivor that differed only by bounded searches; settings: the same tests
    # under more settings, merged as more tests
if new and mode == "tests":  # more tests, unless a re-run on the same ones
    s["tests"] += new[-1]["tests"]
    s["usable_tests"] += new[-1]["usable_tests"]
c = {k: 0 for k in ("killed", "killed-stronger", "survived", "equivalent", "invalid",
                    "not-covered")}
for m in ms.values():
    c[m["class"]] += 1
for k in c:
    s[k.replace("-", "_")] = c[k]
d = s["mutants"] - c["equivalent"] - c["invalid"]
s["kill_rate"] = round((c["killed"] + c["killed-stronger"]) / d, 4) if d else 1.0
for i in sorted(ms):
    print(json.dumps(ms[i], separators=(",", ":")))
print(json.dumps(s, separators=(",", ":")))
PY
}
for p in "$@"; do
    row=$(awk -v p="$p" '$1 == p' "$TAB")
    if [ -z "$row" ]; then
        echo "run.sh: $p is not in $TAB" >&2
        exit 2
    fi
    ms=$(echo "$row" | awk '{ print $2 }')
    st=$(echo "$row" | awk '{ print $3 }')
    set_opts="--json $POR -j $J --max-states $ms --stronger $st --protocol $p"
    t0=$(date +%s)
    if [ "$CORE" = - ]; then
        : # no core stage: OUT/P.core.json is there already
    elif [ -n "$PREV" ]; then
        rest=$(ids "$PREV/$p.core.json" survived equivalent not-covered)
        if [ -n "$rest" ]; then
            # shellcheck disable=SC2086
            "$BIN" mutate $set_opts --only "$rest" $CORE >"$OUT/$p.rest.json" || exit 1
        fi
        merge "$PREV/$p.core.json" "$OUT/$p.rest.json" "$rest" >"$OUT/$p.core.json.tmp" &&
            mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
        rm -f "$OUT/$p.rest.json"
    else
        # shellcheck disable=SC2086
        "$BIN" mutate $set_opts $CORE >"$OUT/$p.core.json" || exit 1
    fi
    if [ -n "$KPREV" ]; then
        merge "$OUT/$p.core.json" "$KPREV/$p.core.json" - kills >"$OUT/$p.core.json.tmp" &&
            mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
    fi
    if [ -n "$MPREV" ]; then
        merge "$OUT/$p.core.json" "$MPREV/$p.core.json" - settings >"$OUT/$p.core.json.tmp" &&
            mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
    fi
    if [ -n "$RE_MS" ]; then
        rest=$(python3 - "$OUT/$p.core.json" <<'PY'
import json, sys
ms = [json.loads(l) for l in open(sys.argv[1])][:-1]
print(",".join(str(m["mutant"]) for m in ms if m["class"] == "survived" and m.get("bounded")))
PY
)
        if [ -n "$rest" ]; then
            # shellcheck disable=SC2086
            "$BIN" mutate --json $POR -j "$J" --max-states "$RE_MS" --stronger "${RE_ST:-$st}" \
                --protocol "$p" --only "$rest" $RE_CORE >"$OUT/$p.rerun.json" || exit 1
            mode=same # other settings than the campaign's: only a kill counts
            [ -z "$RE_ST" ] || [ "$RE_ST" = "$st" ] && mode=bound
            merge "$OUT/$p.core.json" "$OUT/$p.rerun.json" "$rest" $mode >"$OUT/$p.core.json.tmp" &&
                mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
        fi
    fi
    if [ -n "$BPREV" ]; then
        rest=$(ids "$BPREV/$p.core.json" killed killed-stronger survived equivalent invalid not-covered)
        merge "$OUT/$p.core.json" "$BPREV/$p.core.json" "$rest" bound >"$OUT/$p.core.json.tmp" &&
            mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
    fi
    if [ -n "$EXTRA" ]; then
        rest=$(ids "$OUT/$p.core.json" survived equivalent not-covered)
        if [ -n "$rest" ]; then
            # shellcheck disable=SC2086
            "$BIN" mutate --json $POR -j "$J" --max-states "$ms" --stronger "$EXTRA" \
                --protocol "$p" --only "$rest" $LCORE >"$OUT/$p.extra.json" || exit 1
            merge "$OUT/$p.core.json" "$OUT/$p.extra.json" "$rest" settings >"$OUT/$p.core.json.tmp" &&
                mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
        fi
    fi
    if [ -n "$NOPOR" ]; then
        rest=$(ids "$OUT/$p.core.json" not-covered)
        if [ -n "$rest" ]; then
            # shellcheck disable=SC2086
            "$BIN" mutate --json --no-por -j "$J" --max-states "$ms" --stronger "${NOPOR_ST:-$st${EXTRA:+,$EXTRA}}" \
                --protocol "$p" --only "$rest" $LCORE >"$OUT/$p.nopor.json" || exit 1
            merge "$OUT/$p.core.json" "$OUT/$p.nopor.json" "$rest" settings >"$OUT/$p.core.json.tmp" &&
                mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
        fi
    fi
    if [ -n "$LIVE" ]; then
        rest=$(ids "$OUT/$p.core.json" survived equivalent)
        if [ -n "$rest" ]; then
            # shellcheck disable=SC2086
            "$BIN" mutate --json --liveness -j "$J" --max-states "$ms" --stronger "${LIVE_ST:-$st${EXTRA:+,$EXTRA}}" \
                --protocol "$p" --only "$rest" $LCORE >"$OUT/$p.live.json" || exit 1
            merge "$OUT/$p.core.json" "$OUT/$p.live.json" "$rest" same >"$OUT/$p.core.json.tmp" &&
                mv "$OUT/$p.core.json.tmp" "$OUT/$p.core.json"
        fi
    fi
    t1=$(date +%s)
    if [ -n "$DOGEN" ]; then
        rest=$(ids "$OUT/$p.core.json" survived)
        if [ -n "$rest" ]; then
            # shellcheck disable=SC2086
            "$BIN" mutate --json $POR -j "$J" --max-states "${GEN_MS:-$ms}" --stronger "${GEN_ST:-$st}" \
                --protocol "$p" --only "$rest" "$GEN" >"$OUT/$p.genrun.json" || exit 1
        fi
        merge "$OUT/$p.core.json" "$OUT/$p.genrun.json" "$rest" >"$OUT/$p.gen.json"
    fi
    t2=$(date +%s)
    echo "$p: core $((t1 - t0)) s, gen $((t2 - t1)) s" >&2
    echo "$p $ms $st $((t1 - t0)) $((t2 - t1))" >>"$OUT/times"
done
