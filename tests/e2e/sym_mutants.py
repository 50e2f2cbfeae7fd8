#!/usr/bin/env python3
"""Differential mutant campaign for --symmetry (docs/por.md, "Symmetry").

As tests/e2e/por_mutants.py, comparing --no-symmetry with --symmetry (the partial-order
reduction on in both, as by default): for each protocol, every STEP-th mutant of its
resolved table (build/por_mutants writes them) is checked on core tests with identical
threads or idle CUs (all with --cus 4: two classes of interchangeable CUs for the
two-thread tests), cold and `--init warm --env all`, under one --max-states bound. The
verdicts, racy flags, reached outcomes and allowed outcomes left unreached must be
identical wherever both runs complete; a mutant refuted without symmetry and "ok" with
it is a false ok (a release blocker). Runs stopped at the bound are inconclusive.

Usage: python3 tests/e2e/sym_mutants.py ./cohcheck build/por_mutants OUTDIR
  SYM_MUT_PROTOCOLS='rcc qr path/x.proto ...' SYM_MUT_PER=N (mutants per protocol, default 30)
  SYM_MUT_BOUND=N (states per run, default 20000)
Prints one FAIL line per difference and a summary; exit 1 on any difference.
"""
import glob
import json
import os
import subprocess
import sys

BIN, GEN, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
PROTOS = os.environ.get("SYM_MUT_PROTOCOLS",
                        "rcc tcw denovo mesi rsp qr hlrc-probe").split()
PER = int(os.environ.get("SYM_MUT_PER", "30"))
BOUND = os.environ.get("SYM_MUT_BOUND", "20000")
TESTS = ["RMW-add2", "MP+rel+acq+guard", "CAS-lock", "SB+rel+acq"]
SETTINGS = {"cold": ["--cus", "4"], "warm": ["--cus", "4", "--init", "warm", "--env", "all"]}
st = {"mutants": 0, "compared": 0, "sym_on": 0, "refuted": 0, "inconclusive": 0, "fails": 0,
      "false_ok": 0, "invalid": 0}


def run(proto, opts, files):
    p = subprocess.run([BIN, "check", "--no-db", "--json", "--max-memory", "3G",
                        "--max-states", BOUND, "--protocol", proto] + opts + files,
                       capture_output=True, text=True)
    res = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    return {d["test"]: d for d in res if "test" in d and "verdict" in d}


def outs(d):
    return sorted(json.dumps(o, sort_keys=True) for o in d.get("outcomes", []))


def fail(msg):
    st["fails"] += 1
    print("FAIL " + msg, flush=True)


for proto in PROTOS:
    # A name in protocols/, or a .proto file.
    name = os.path.basename(proto)[:-6] if proto.endswith(".proto") else proto
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    src = proto if proto.endswith(".proto") else "protocols/%s.proto" % proto
    subprocess.run([GEN, src, d], check=True, capture_output=True)
    muts = sorted(glob.glob(os.path.join(d, "*.proto")))
    step = max(1, len(muts) // PER)
    files = ["litmus/core/%s.litmus" % t for t in TESTS]
    for m in muts[::step][:PER]:
        st["mutants"] += 1
        for cfg, opts in SETTINGS.items():
            ref = run(m, opts + ["--no-symmetry"], files)
            got = run(m, opts + ["--symmetry"], files)
            if not ref:
                st["invalid"] += 1  # the mutated table does not load
                break
            for t, r in ref.items():
                g = got.get(t)
                tag = "%s %s %s %s" % (name, os.path.basename(m)[:-6], t, cfg)
                if g is None:
                    fail("%s: no --symmetry result" % tag)
                    continue
                if "incomplete" in (r["verdict"], g["verdict"]) or r["verdict"] == "skipped":
                    st["inconclusive"] += 1
                    continue
                st["compared"] += 1
                st["sym_on"] += any(x["name"] == "symmetry" and x["applied"]
                                    for x in g.get("reductions", []))
                st["refuted"] += r["verdict"] != "ok"
                if r["verdict"] != g["verdict"]:
                    if g["verdict"] == "ok":
                        st["false_ok"] += 1
                    fail("%s: verdict %s without --symmetry, %s with" % (tag, r["verdict"],
                                                                         g["verdict"]))
                elif r.get("racy") != g.get("racy"):
                    fail("%s: racy differs" % tag)
                elif r["verdict"] == "ok" and (outs(r) != outs(g) or r.get(
                        "allowed_unreached") != g.get("allowed_unreached")):
                    fail("%s: outcomes differ" % tag)
    print("%s: %d mutants so far" % (name, st["mutants"]), flush=True)
print("sym_mutants.py: %(mutants)d mutants (%(invalid)d settings invalid), %(compared)d "
      "mutant x test x setting comparisons (%(sym_on)d with symmetry applied, %(refuted)d "
      "refuted), %(inconclusive)d inconclusive (bound), %(false_ok)d false ok, "
      "%(fails)d differences" % st)
sys.exit(1 if st["fails"] else 0)
