#!/usr/bin/env python3
"""Partial-order reduction preserves what check reports (docs/por.md).

For every protocol in protocols/ and every test in litmus/core, cold and with
`--init warm --env all`: the tests that finish without --por within a bound are
checked again with --por (BFS and DFS); the verdicts (failure kinds), the racy
flag, and for ok verdicts the exact sets of reached outcomes and the allowed
outcomes left unreached must be identical. A failing --por run must come with a
trace. Then every row of tests/e2e/check.tab is run with --por: the same verdict
(every broken variant is still refuted), and for ok rows at most the pinned
counts.

Usage: python3 tests/e2e/por.py ./cohcheck [fast|full]   (POR_PROTOCOLS='GLOB...': fewer protocols, here and in check.tab;
  POR_TESTS=GLOB: other tests for the sweep, e.g. 'litmus/gen/*.litmus';
  POR_WARM_BOUND=N: another bound for the warm runs, e.g. to reach the rules that act
  only under --env, where few tests finish within the fast bound)
  fast: cold bound 20000 states, warm bound 2000; check.tab rows under BFS, ok rows
        pinned at most 50000 states and every failing row (make test)
  full: cold and warm bound 200000; every check.tab row, BFS and DFS (make test-full)
Prints one FAIL line per difference and a summary; exit 1 on any difference.
"""
import glob
import json
import os
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "./cohcheck"
MODE = sys.argv[2] if len(sys.argv) > 2 else "fast"
WARM = ["--init", "warm", "--env", "all"]
BOUNDS = {"fast": (20000, 2000), "full": (200000, 200000)}[MODE]
if os.environ.get("POR_WARM_BOUND"):
    BOUNDS = (BOUNDS[0], int(os.environ["POR_WARM_BOUND"]))
ROW_LIMIT = {"fast": 50000, "full": None}[MODE]  # check.tab ok rows pinned above: full only
fails = 0
PROTOS = sorted(sum((glob.glob(g) for g in
                     os.environ.get("POR_PROTOCOLS", "protocols/*.proto").split()), []))
POR_BOUND = 200000
stats = {"inconclusive": 0, "compared": 0, "states": 0, "states_por": 0, "failing": 0, "rows": 0}


def fail(msg):
    global fails
    fails += 1
    print("FAIL " + msg)


def run(args, files):
    """Check FILES; their results by file (one JSON line per file, in order)."""
    p = subprocess.run([BIN, "check", "--no-db", "--json"] + args + files, capture_output=True,
                       text=True)
    res = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    res = [d for d in res if "test" in d and "verdict" in d]
    if len(res) != len(files):
        fail("check %s: %d results for %d files: %s" % (" ".join(args), len(res), len(files),
                                                         p.stderr.strip()[:200]))
        return {}
    return dict(zip(files, res))


def outcome_set(d):
    return sorted(json.dumps(o, sort_keys=True) for o in d.get("outcomes", []))


def compare(tag, ref, got):
    if ref["verdict"] != "ok" and got["verdict"] == "incomplete":
        stats["inconclusive"] += 1
        return
    stats["compared"] += 1
    if got.get("por") is not True and not got.get("por_off"):
        fail("%s: --por run does not say por" % tag)
    if ref["verdict"] != got["verdict"]:
        fail("%s: verdict %s without --por, %s with" % (tag, ref["verdict"], got["verdict"]))
        return
    if ref.get("racy") != got.get("racy"):
        fail("%s: racy differs" % tag)
    if ref["verdict"] == "ok":
        stats["states"] += ref["states"]
        stats["states_por"] += got["states"]
        if outcome_set(ref) != outcome_set(got):
            fail("%s: outcomes differ: %s vs %s" % (tag, outcome_set(ref), outcome_set(got)))
        if ref.get("allowed_unreached") != got.get("allowed_unreached"):
            fail("%s: allowed_unreached differs" % tag)
        if got["states"] > ref["states"]:
            fail("%s: --por explored more states (%d > %d)" % (tag, got["states"], ref["states"]))
    else:
        stats["failing"] += 1
        if not got.get("trace"):
            fail("%s: %s without a trace" % (tag, got["verdict"]))


def sweep():
    tests = sorted(glob.glob(os.environ.get("POR_TESTS", "litmus/core/*.litmus")))
    protos = PROTOS
    cold_bound, warm_bound = BOUNDS
    for proto in protos:
        name = os.path.basename(proto)[:-6]
        for cfg, bound in (("cold", cold_bound), ("warm", warm_bound)):
            opts = ["--protocol", proto] + (WARM if cfg == "warm" else [])
            ref = run(opts + ["--no-por", "--max-states", str(bound)], tests)
            done = [t for t in tests if t in ref and
                    ref[t]["verdict"] not in ("incomplete", "skipped")]
            if not done:
                continue
            orders = [[]] + ([["--dfs"]] if cfg == "cold" else [])
            for order in orders:
                # A failing reference stopped early; --por may need more states to reach
                # its failure: a larger bound, and an incomplete --por run of a failing
                # reference is counted as inconclusive.
                got = run(opts + ["--por", "--max-states", str(POR_BOUND)] + order, done)
                for t in done:
                    tag = "%s %s %s%s" % (name, os.path.basename(t)[:-8], cfg,
                                          " dfs" if order else "")
                    if t not in got:
                        continue  # reported by run()
                    if order and ref[t]["verdict"] != "ok":
                        continue  # DFS finds other failures first: compared under BFS only
                    compare(tag, ref[t], got[t])


def table():
    for line in open("tests/e2e/check.tab"):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        proto, test, opts, verdict = f[0], f[1], f[2], f[3]
        if "POR_PROTOCOLS" in os.environ and not any(
                os.path.basename(q)[:-6] == proto or q == proto for q in PROTOS):
            continue
        extra = [] if opts == "-" else opts.replace("_", " ").split()
        pinned = int(f[4]) if len(f) > 4 and f[4].isdigit() else 0
        if ROW_LIMIT and verdict == "ok" and pinned > ROW_LIMIT:
            continue
        for order in ([], ["--dfs"]) if MODE == "full" else ([],):
            f1 = "litmus/core/%s.litmus" % test
            got = run(["--protocol", proto, "--por"] + order + extra, [f1])
            stats["rows"] += 1
            d = got.get(f1)
            tag = "check.tab %s %s %s%s --por" % (proto, test, opts, " --dfs" if order else "")
            if not d:
                if verdict != "skipped":
                    fail("%s: no result" % tag)
                continue
            if d["verdict"] != verdict:
                fail("%s: verdict %s, want %s" % (tag, d["verdict"], verdict))
            elif verdict == "ok" and len(f) > 4 and f[4].isdigit() and d["states"] > int(f[4]):
                fail("%s: %d states, more than the pinned %s" % (tag, d["states"], f[4]))


sweep()
table()
red = stats["states"] / stats["states_por"] if stats["states_por"] else 0
print("por.py %s: %d test x protocol x configuration comparisons (%d failing; %d failing"
      " references inconclusive: --por stopped at %d states), %d check.tab runs; ok runs: %d"
      " states without --por, %d with (%.2fx); %d differences"
      % (MODE, stats["compared"], stats["failing"], stats["inconclusive"], POR_BOUND,
         stats["rows"], stats["states"], stats["states_por"], red, fails))
sys.exit(1 if fails else 0)
