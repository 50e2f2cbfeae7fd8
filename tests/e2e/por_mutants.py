#!/usr/bin/env python3
"""Differential mutant campaign for --por (docs/por.md, "Tests and measurements").

For each protocol, every STEP-th mutant of its resolved table (as `cohcheck mutate`
numbers them; build/por_mutants writes them) is checked on a fixed list of core tests,
cold and `--init warm --env all`, with and without --por (same --max-states bound):
the verdicts, racy flags, reached outcomes and allowed outcomes left unreached must be
identical wherever both runs complete. A mutant refuted without --por and "ok" with it
is a false ok (a release blocker). Runs where either side stopped at the bound are
counted as inconclusive; runs whose mutant keeps the reduction off (the analysis
rejects the mutated table) are counted apart, as they compare the full graph with
itself.

Usage: python3 tests/e2e/por_mutants.py ./cohcheck build/por_mutants OUTDIR
  POR_MUT_PROTOCOLS='rcc qr path/x.proto ...' POR_MUT_PER=N (mutants per protocol, default 40)
  POR_MUT_BOUND=N (states per run, default 20000)
Prints one FAIL line per difference and a summary; exit 1 on any difference.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutant_campaign import campaign  # noqa: E402

BIN, GEN, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
PROTOS = os.environ.get("POR_MUT_PROTOCOLS",
                        "rcc rcc-wo qr hlrc-probe gpu-vi gpu-vini").split()
PER = int(os.environ.get("POR_MUT_PER", "40"))
BOUND = os.environ.get("POR_MUT_BOUND", "20000")
TESTS = ["MP+rel+acq", "MP+rel+acq+guard", "SB+rel+acq", "WRC+rel+acqs", "CoRR", "RMW-add2"]
SETTINGS = {"cold": [], "warm": ["--init", "warm", "--env", "all"]}
st = campaign(BIN, GEN, OUT, PROTOS, PER, BOUND, TESTS, SETTINGS, "--no-por", "--por",
              lambda g: g.get("por") is True)
print("por_mutants.py: %(mutants)d mutants (%(invalid)d settings invalid), %(compared)d "
      "mutant x test x setting comparisons (%(applied)d with the reduction on, %(refuted)d "
      "refuted), %(inconclusive)d inconclusive (bound), %(false_ok)d false ok, "
      "%(fails)d differences" % st)
sys.exit(1 if st["fails"] else 0)
