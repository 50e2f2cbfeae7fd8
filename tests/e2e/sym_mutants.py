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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutant_campaign import campaign  # noqa: E402

BIN, GEN, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
PROTOS = os.environ.get("SYM_MUT_PROTOCOLS",
                        "rcc tcw denovo mesi rsp qr hlrc-probe").split()
PER = int(os.environ.get("SYM_MUT_PER", "30"))
BOUND = os.environ.get("SYM_MUT_BOUND", "20000")
TESTS = ["RMW-add2", "MP+rel+acq+guard", "CAS-lock", "SB+rel+acq"]
SETTINGS = {"cold": ["--cus", "4"], "warm": ["--cus", "4", "--init", "warm", "--env", "all"]}
st = campaign(BIN, GEN, OUT, PROTOS, PER, BOUND, TESTS, SETTINGS, "--no-symmetry", "--symmetry",
              lambda g: any(x["name"] == "symmetry" and x["applied"]
                            for x in g.get("reductions", [])))
print("sym_mutants.py: %(mutants)d mutants (%(invalid)d settings invalid), %(compared)d "
      "mutant x test x setting comparisons (%(applied)d with symmetry applied, %(refuted)d "
      "refuted), %(inconclusive)d inconclusive (bound), %(false_ok)d false ok, "
      "%(fails)d differences" % st)
sys.exit(1 if st["fails"] else 0)
