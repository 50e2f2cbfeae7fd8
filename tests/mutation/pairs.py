#!/usr/bin/env python3
"""Decide a bounded survivor on the (setting, test) pairs it was bounded on.

Usage: python3 tests/mutation/pairs.py [--bin ./cohcheck] [--mutants build/por_mutants]
           [--bound N] [--memory SIZE] [--cache FILE] PROTOCOL MUTANT SETTING:TEST...
       python3 tests/mutation/pairs.py --scan N0 --settings LIST [--cache FILE] [--bound N]
           PROTOCOL MUTANT

`cohcheck mutate` classes a mutant "undetermined (bounded)" when its search grows past
--max-states on a test the original completes. This writes mutant MUTANT of PROTOCOL's
resolved table (build/por_mutants numbers them as mutate does), checks the original and
the mutant with `check --por --no-symmetry --json --max-states N` (mutate's graph) on
each pair (SETTING as mutate's: base, or 'warm', 'cold', 'cusK' and environment actions
joined by '+', e.g. warm+all, warm+cus4, tick; TEST: a name in litmus/core or
litmus/mutation) and prints one line a pair: the verdicts, states and whether the
mutant's outcomes equal the original's. Exit 0 when the mutant completes every pair
with exactly the original's outcomes (with the other pairs, where mutate saw the same
outcomes, the mutant is then equivalent on the suite at this bound), 1 when it is
refuted or reaches other outcomes on some pair (a kill or a survivor), 3 when some
search still stops at the bound, 2 on bad input.

With --scan N0 and no pairs, it first finds them: every test of litmus/core and
litmus/mutation in every setting of LIST (comma-separated, e.g. base,warm,all), the
original and the mutant at N0 states (the original's runs, at any bound and in either
mode, are kept in --cache FILE, one JSON line a run, so a second mutant of the same
protocol reuses them); the pairs where the original completes and the mutant does not
are then run at --bound, as above. A pair the mutant already decides at N0 is reported
and counts: the first refutation ends the scan (killed), other outcomes make it a
survivor."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SUITES = ("litmus/core", "litmus/mutation")
RANK = (0, 3, 1, 2)  # exit codes, least to most severe


def setting_opts(s):
    opts, env = [], []
    for part in s.split("+"):
        if part == "base" or part == "cold":
            continue
        if part == "warm":
            opts += ["--init", "warm"]
        elif part.startswith("cus") and part[3:].isdigit():
            opts += ["--cus", part[3:]]
        elif part and all(c.isalnum() or c == "_" for c in part):
            env.append(part)  # an environment action (check rejects an unknown one)
        else:
            raise ValueError("bad setting part '%s'" % part)
    return opts + (["--env", ",".join(env)] if env else [])


def find_test(name):
    for d in SUITES:
        p = os.path.join(ROOT, d, name + ".litmus")
        if os.path.exists(p):
            return p
    raise ValueError("no test '%s' in %s" % (name, " or ".join(SUITES)))


def check(binary, proto, opts, test, bound, memory):
    # mutate's graph: the partial-order reduction, no symmetry reduction
    r = subprocess.run([binary, "check", "--protocol", proto, "--por", "--no-symmetry",
                        "--no-db", "--json",
                        "--max-states", str(bound), "--max-memory", memory] + opts + [test],
                       capture_output=True, text=True)
    try:
        d = json.loads(r.stdout)
    except ValueError:
        return {"verdict": "error: " + (r.stderr.strip().splitlines() or ["?"])[-1],
                "states": 0, "outcomes": set()}
    d["outcomes"] = set(json.dumps(o, sort_keys=True) for o in d.get("outcomes", []))
    return d


def original(a, st, opts, test, bound):
    """The original's run on a pair, from --cache FILE when it holds it (one JSON line a
    run, keyed by protocol, setting, test and bound), else run and added there."""
    if a.cache_runs is None:
        a.cache_runs = {}
        if a.cache and os.path.exists(a.cache):
            for line in open(a.cache):
                d = json.loads(line)
                a.cache_runs[(d["protocol"], d["setting"], d["test"], d["bound"])] = d
    name = os.path.basename(test)[:-len(".litmus")]
    key = (a.protocol, st, name, bound)
    if key not in a.cache_runs:
        o = check(a.bin, a.protocol, opts, test, bound, a.memory)
        a.cache_runs[key] = {"protocol": a.protocol, "setting": st, "test": name,
                             "bound": bound, "verdict": o["verdict"],
                             "states": o.get("states", 0), "outcomes": sorted(o["outcomes"])}
        if a.cache:
            with open(a.cache, "a") as f:
                f.write(json.dumps(a.cache_runs[key]) + "\n")
    d = dict(a.cache_runs[key])
    d["outcomes"] = set(d["outcomes"])
    return d


def scan(a, mfile):
    """The pairs where the original completes at a.scan states and the mutant does not;
    the worst exit code of the pairs the mutant decides there."""
    tests = []
    for d in SUITES:
        tests += sorted(os.path.join(ROOT, d, f) for f in os.listdir(os.path.join(ROOT, d))
                        if f.endswith(".litmus"))
    out, worst = [], 0
    for st in a.settings.split(","):
        opts = setting_opts(st)
        for test in tests:
            name = os.path.basename(test)[:-len(".litmus")]
            o = original(a, st, opts, test, a.scan)
            if o["verdict"] != "ok":
                continue
            m = check(a.bin, mfile, opts, test, a.scan, a.memory)
            if m["verdict"] == "incomplete":
                out.append((st, opts, test))
            elif m["verdict"] != "ok":
                print("%s %s (%s): at %d states the mutant is refuted (%s): killed" % (
                    a.protocol, name, st, a.scan, m["verdict"]), flush=True)
                return [], 1
            elif m["outcomes"] != o["outcomes"]:
                print("%s %s (%s): at %d states the mutant reaches other outcomes" % (
                    a.protocol, name, st, a.scan), flush=True)
                worst = 1
    print("%s #%d: bounded at %d states on %d pairs: %s" % (
        a.protocol, a.mutant, a.scan, len(out),
        " ".join("%s:%s" % (st, os.path.basename(t)[:-len(".litmus")]) for st, _, t in out)),
        flush=True)
    return out, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "cohcheck"))
    ap.add_argument("--mutants", default=os.path.join(ROOT, "build", "por_mutants"))
    ap.add_argument("--bound", type=int, default=30000000)
    ap.add_argument("--memory", default="8G")
    ap.add_argument("protocol")
    ap.add_argument("mutant", type=int)
    ap.add_argument("--scan", type=int, default=0)
    ap.add_argument("--settings", default="")
    ap.add_argument("--cache", default="")
    ap.add_argument("pairs", nargs="*", metavar="SETTING:TEST")
    a = ap.parse_args()
    a.cache_runs = None
    if not a.pairs and not (a.scan and a.settings):
        print("pairs.py: give SETTING:TEST pairs, or --scan N0 --settings LIST", file=sys.stderr)
        return 2
    try:
        pairs = [(p.split(":", 1)[0], setting_opts(p.split(":", 1)[0]),
                  find_test(p.split(":", 1)[1])) for p in a.pairs]
        for st in a.settings.split(",") if a.settings else []:
            setting_opts(st)
    except (ValueError, IndexError) as e:
        print("pairs.py: %s" % e, file=sys.stderr)
        return 2
    proto = os.path.join(ROOT, "protocols", a.protocol + ".proto")
    if not os.path.exists(proto):
        print("pairs.py: no protocol %s" % proto, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([a.mutants, proto, tmp], capture_output=True, text=True)
        mfile = os.path.join(tmp, "%04d.proto" % a.mutant)
        if r.returncode != 0 or not os.path.exists(mfile):
            print("pairs.py: %s wrote no mutant %d of %s" % (a.mutants, a.mutant, a.protocol),
                  file=sys.stderr)
            return 2
        worst = 0
        if not pairs:
            pairs, worst = scan(a, mfile)
        for s, opts, test in pairs:
            o = original(a, s, opts, test, a.bound)
            m = check(a.bin, mfile, opts, test, a.bound, a.memory)
            name = os.path.basename(test)[:-len(".litmus")]
            if o["verdict"] != "ok":
                res, code = "original %s: not usable" % o["verdict"], 2
            elif m["verdict"] == "incomplete":
                res, code = "bounded", 3
            elif m["verdict"] != "ok":
                res, code = "killed (%s)" % m["verdict"], 1
            elif m["outcomes"] == o["outcomes"]:
                res, code = "same outcomes", 0
            else:
                res, code = "other outcomes (%d more, %d fewer)" % (
                    len(m["outcomes"] - o["outcomes"]), len(o["outcomes"] - m["outcomes"])), 1
            print("%s %s (%s): original %s %d states, mutant %s %d states: %s" % (
                a.protocol, name, s, o["verdict"], o.get("states", 0), m["verdict"],
                m.get("states", 0), res), flush=True)
            worst = max(worst, code, key=RANK.index)
        return worst


if __name__ == "__main__":
    sys.exit(main())
