#!/usr/bin/env python3
"""herd_diff.py - run litmus tests under herd7 and cohcheck and compare them.

For each model pair COH:HERD (a cohcheck model and a herd7 .cat file) every
test is run by both tools; a test agrees when the Observation (Never,
Sometimes, Always) is the same and cohcheck's final states, cut down to the
names herd7 prints (the condition's registers and locations), are exactly
herd7's states. A test herd7 does not answer, or cohcheck rejects, is listed
apart with the first line of the tool's error. Prints one line per difference
and a summary; exits 1 when any test differs or cohcheck rejects a test that
herd7 answers (unless --allow-rejects), 0 otherwise.

Usage: herd_diff.py --cohcheck BIN --herd7 HERD7 --libdir DIR
                    --model COH:HERD.cat [--model ...] [--allow-rejects]
                    [--require-all] FILE...
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def herd_run(herd7, libdir, cat, files):
    """herd7's answers: {test name: (observation, frozenset of states)}; failures."""
    out = {}
    errs = {}
    # One herd7 process per batch; a test herd7 rejects is dropped from its output
    # with a message on stderr, so the answered ones are matched by name.
    for i in range(0, len(files), 200):
        batch = files[i:i + 200]
        p = subprocess.run([herd7, "-set-libdir", libdir, "-model", cat] + batch,
                           capture_output=True, text=True)
        parse_herd(p.stdout, out)
        for line in p.stderr.splitlines():
            m = re.match(r'(?:Warning: )?File "([^"]*)"', line)
            if m:
                errs.setdefault(m.group(1), line.strip())
    return out, errs


def parse_herd(text, out):
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"Test (\S+) ", lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        i += 1
        states = set()
        if i < len(lines) and lines[i].startswith("States "):
            n = int(lines[i].split()[1])
            for k in range(n):
                states.add(parse_state(lines[i + 1 + k]))
            i += 1 + n
        obs = None
        while i < len(lines) and not lines[i].startswith("Test "):
            m2 = re.match(r"Observation (\S+) (\w+) (\d+) (\d+)", lines[i])
            if m2:
                obs = m2.group(2)
            i += 1
        out[name] = (obs, frozenset(states))


def parse_state(line):
    pairs = []
    for part in line.split(";"):
        part = part.strip()
        if not part:
            continue
        k, v = part.split("=", 1)
        k = k.strip()
        if k.startswith("[") and k.endswith("]"):
            k = k[1:-1]
        v = v.strip()
        pairs.append((k, int(v) if re.fullmatch(r"-?\d+", v) else v))
    return frozenset(pairs)


def coh_run(binary, model, files):
    """cohcheck's answers and rejections, as herd_run."""
    out = {}
    errs = {}
    good = []
    for f in files:  # cohcheck stops at the first bad file: check each first
        p = subprocess.run([binary, "litmus", "--json", "--model", model, f],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            errs[f] = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
            continue
        good.append(f)
        for line in p.stdout.splitlines():
            o = json.loads(line)
            out[f] = (o["observation"].capitalize(), o["outcomes"], o["test"])
    return out, errs


def test_name(path):
    with open(path, errors="replace") as fh:
        for line in fh:
            w = line.split()
            if len(w) >= 2 and w[0] in ("C", "OpenCL"):
                return w[1]
    return os.path.basename(path)


def compare(args):
    files = args.files
    names = {f: test_name(f) for f in files}
    total_diff = 0
    rejected = {}
    answered = 0
    for pair in args.model:
        coh_model, herd_cat = pair.split(":", 1)
        herd, herr = herd_run(args.herd7, args.libdir, herd_cat, files)
        coh, cerr = coh_run(args.cohcheck, coh_model, files)
        agree = diff = 0
        for f in files:
            n = names[f]
            if n not in herd:
                continue
            answered += 1
            if f in cerr:
                rejected[f] = cerr[f]
                continue
            hobs, hstates = herd[n]
            cobs, couts, _ = coh[f]
            keys = set(k for s in hstates for k, _ in s)
            cstates = frozenset(frozenset((k, v) for k, v in o.items() if k in keys)
                                for o in couts)
            if hobs == cobs and hstates == cstates:
                agree += 1
                continue
            diff += 1
            why = []
            if hobs != cobs:
                why.append("observation herd7 %s, cohcheck %s" % (hobs, cobs))
            if hstates != cstates:
                only_h = sorted(fmt(s) for s in hstates - cstates)
                only_c = sorted(fmt(s) for s in cstates - hstates)
                why.append("states only herd7: %s; only cohcheck: %s" %
                           (only_h or "-", only_c or "-"))
            print("DIFF %s %s (%s): %s" % (coh_model, n, f, "; ".join(why)))
        unanswered = [f for f in files if names[f] not in herd]
        print("%s vs herd7 %s: %d tests, herd7 answers %d, both %d: %d agree, %d differ" %
              (coh_model, herd_cat, len(files), len(files) - len(unanswered),
               agree + diff, agree, diff))
        total_diff += diff
        for f in unanswered:
            print("  herd7 does not answer %s: %s" % (f, herr.get(f, "no output")))
        if args.require_all:
            total_diff += len(unanswered)
    for f, e in sorted(rejected.items()):
        print("REJECTED %s: %s" % (f, e))
    print("Summary: %d differences, %d rejected of those herd7 answers" %
          (total_diff, len(rejected)))
    return 1 if total_diff or (rejected and not args.allow_rejects) else 0


def fmt(s):
    return " ".join("%s=%s" % kv for kv in sorted(s, key=str))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cohcheck", required=True)
    ap.add_argument("--herd7", required=True)
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--model", action="append", required=True)
    ap.add_argument("--allow-rejects", action="store_true")
    ap.add_argument("--require-all", action="store_true",
                    help="a test herd7 does not answer is a failure")
    ap.add_argument("files", nargs="+")
    return compare(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
