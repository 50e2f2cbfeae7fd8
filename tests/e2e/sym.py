#!/usr/bin/env python3
"""The symmetry reduction preserves what check reports (docs/por.md, "Symmetry").

For every protocol in protocols/ and every test: litmus/core with --cus 4 (the CUs
no thread runs on are interchangeable) and litmus/workloads (identical threads on
identical CUs), cold and with `--init warm --env all`, each run with --no-symmetry
and --symmetry (the partial-order reduction on in both, as by default; SYM_POR=0:
off in both). Every test that finishes without symmetry within the bound must give
with it: the same verdict, the same racy flag, the same reached outcomes and allowed
outcomes left unreached (the reduction reports each outcome's orbit), no more
states, and a failing run a trace that replays as a real execution (no
"(trace replay" or "(no real execution" line). A run where symmetry applied
is counted; the JSON must say why when it did not.

Usage: python3 tests/e2e/sym.py ./cohcheck [fast|full]
  SYM_PROTOCOLS='GLOB...': fewer protocols; SYM_TESTS='GLOB...': other tests (run
  with the options in SYM_ARGS, e.g. '--cus 4').
  fast: bound 20000 states cold, 4000 warm (make test); full: 200000 both.
Prints one FAIL line per difference and a summary; exit 1 on any difference.
"""
import glob
import json
import os
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "./cohcheck"
MODE = sys.argv[2] if len(sys.argv) > 2 else "fast"
BOUNDS = {"fast": (20000, 4000), "full": (200000, 200000)}[MODE]
PROTOS = sorted(sum((glob.glob(g) for g in
                     os.environ.get("SYM_PROTOCOLS", "protocols/*.proto").split()), []))
TESTS = os.environ.get("SYM_TESTS")
POR = [] if os.environ.get("SYM_POR", "1") == "1" else ["--no-por"]
fails = 0
st = {"compared": 0, "applied": 0, "inconclusive": 0, "failing": 0, "states": 0, "states_sym": 0}


def fail(msg):
    global fails
    fails += 1
    print("FAIL " + msg)


def run(args, files):
    p = subprocess.run([BIN, "check", "--no-db", "--json", "--max-memory", "1G"] + POR + args
                       + files, capture_output=True, text=True)
    res = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    return {d["file"] if "file" in d else d["test"]: d for d in res if "verdict" in d}


def sym_entry(d):
    for r in d.get("reductions", []):
        if r["name"] == "symmetry":
            return r
    return None


def outcomes(d):
    return sorted(json.dumps(o, sort_keys=True) for o in d.get("outcomes", []))


def compare(tag, ref, got):
    if ref["verdict"] == "skipped" and got["verdict"] == "skipped":
        return  # the protocol has no core map for an instruction of the test
    e = sym_entry(got)
    if e is None or (not e["applied"] and not e.get("why")):
        fail("%s: the JSON does not say whether symmetry applied, or why not" % tag)
        return
    if ref["verdict"] == "incomplete":
        return
    if ref["verdict"] != "ok" and got["verdict"] == "incomplete":
        st["inconclusive"] += 1
        return
    st["compared"] += 1
    st["applied"] += e["applied"]
    if ref["verdict"] != got["verdict"]:
        fail("%s: verdict %s without symmetry, %s with" % (tag, ref["verdict"], got["verdict"]))
        return
    if ref.get("racy") != got.get("racy"):
        fail("%s: racy differs" % tag)
    if ref["verdict"] in ("ok", "violation") and outcomes(ref) != outcomes(got):
        if ref["verdict"] == "ok":
            fail("%s: outcomes differ: %s vs %s" % (tag, outcomes(ref), outcomes(got)))
    if ref["verdict"] == "ok":
        if ref.get("allowed_unreached") != got.get("allowed_unreached"):
            fail("%s: allowed_unreached differs" % tag)
        st["states"] += ref["states"]
        st["states_sym"] += got["states"]
        if got["states"] > ref["states"]:
            fail("%s: %d states with symmetry, %d without" % (tag, got["states"], ref["states"]))
    else:
        st["failing"] += 1
        tr = got.get("trace", [])
        if not tr:
            fail("%s: a failing run without a trace" % tag)
        for line in tr:
            if line.startswith("(trace replay") or line.startswith("(no real execution"):
                fail("%s: %s" % (tag, line))


def sweep(files, extra):
    for proto in PROTOS:
        name = os.path.basename(proto)[:-6]
        for warm, bound in ((False, BOUNDS[0]), (True, BOUNDS[1])):
            args = ["--protocol", proto, "--max-states", str(bound)] + extra
            if warm:
                args += ["--init", "warm", "--env", "all"]
            ref = run(args + ["--no-symmetry"], files)
            got = run(args + ["--symmetry"], files)
            for k in ref:
                if k not in got:
                    fail("%s %s: no result with --symmetry" % (name, k))
                    continue
                compare("%s %s%s %s" % (name, k, " warm" if warm else "", " ".join(extra)),
                        ref[k], got[k])


if TESTS:
    sweep(sorted(sum((glob.glob(g) for g in TESTS.split()), [])),
          os.environ.get("SYM_ARGS", "").split())
else:
    core = sorted(glob.glob("litmus/core/*.litmus"))
    sweep(core, ["--cus", "4"])
    sweep(sorted(glob.glob("litmus/workloads/*.litmus")), [])
ratio = st["states_sym"] / st["states"] if st["states"] else 1
print("sym: %d compared (%d with symmetry applied, %d failing), %d inconclusive; ok runs: "
      "%d states without, %d with (%.3f); %d differences"
      % (st["compared"], st["applied"], st["failing"], st["inconclusive"], st["states"],
         st["states_sym"], ratio, fails))
sys.exit(1 if fails else 0)
