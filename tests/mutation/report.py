#!/usr/bin/env python3
"""reports/mutation.md from the JSON of tests/mutation/run.sh.

Usage: python3 tests/mutation/report.py BEFORE_DIR AFTER_DIR > reports/mutation.md
BEFORE_DIR: P.core.json on the core suite as it was; AFTER_DIR: P.core.json on the
current core suite and P.gen.json (the mutants not killed on core, again on core plus
gen). tests/mutation/survivors.tab gives each survivor's classification and argument,
keyed by protocol and mutant number (the numbers are stable while the table is)."""
import json
import os
import sys


def load(path):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None, {}
    lines = [json.loads(l) for l in open(path)]
    return lines[-1], {m["mutant"]: m for m in lines[:-1]}


def rate(k, d):
    return "%.1f %%" % (100.0 * k / d) if d else "-"


def counts(ms):
    c = {k: 0 for k in ("killed", "killed-stronger", "survived", "equivalent", "invalid")}
    for m in ms.values():
        c[m["class"]] += 1
    return c


def cell(c, n):
    d = n - c["equivalent"] - c["invalid"]
    k = c["killed"] + c["killed-stronger"]
    return "%d/%d (%s)" % (k, d, rate(k, d))


def main():
    before, after = sys.argv[1], sys.argv[2]
    notes = {}
    tab = os.path.join(os.path.dirname(__file__), "survivors.tab")
    for l in open(tab):
        if l.startswith("#") or not l.strip():
            continue
        p, i, cls, why = l.rstrip("\n").split("\t", 3)
        notes[(p, int(i))] = (cls, why)
    order = [l.split()[0] for l in open(os.path.join(os.path.dirname(__file__), "protocols.tab"))
             if l.strip() and not l.startswith("#")]
    out = []
    w = out.append
    rows = []
    detail = []
    for p in order:
        sb, mb = load(os.path.join(before, p + ".core.json"))
        sa, ma = load(os.path.join(after, p + ".core.json"))
        sg, mg = load(os.path.join(after, p + ".gen.json"))
        if not sa:
            continue
        merged = dict(ma)
        merged.update(mg)  # the rest, re-run on core + gen
        cb, ca, cg = counts(mb) if sb else None, counts(ma), counts(merged)
        n = sa["mutants"]
        argued = sum(1 for m in merged.values() if m["class"] == "survived"
                     and notes.get((p, m["mutant"]), ("",))[0] != "hole")
        d = n - cg["equivalent"] - cg["invalid"]
        k = cg["killed"] + cg["killed-stronger"]
        rows.append("| %s | %s | %d | %d | %s | %s | %s | %d | %d | %s |" % (
            p, sa["model"], n, cg["invalid"],
            cell(cb, sb["mutants"]) + " on %d" % sb["tests"] if sb else "-",
            cell(ca, n) + " on %d" % sa["tests"],
            cell(cg, n), cg["equivalent"], cg["survived"],
            rate(k, d - argued)))
        surv = [m for m in merged.values() if m["class"] == "survived"]
        if surv:
            detail.append("### %s\n" % p)
            for m in sorted(surv, key=lambda m: m["mutant"]):
                cls, why = notes.get((p, m["mutant"]), ("unclassified", ""))
                detail.append("- **#%d** `%s:%d` %s %s: `%s` -> `%s`  \n"
                              "  outcomes more on %d, fewer on %d, bounded on %d (setting, test) "
                              "pairs (first: %s).  \n  **%s**: %s\n" % (
                                  m["mutant"], m["file"], m["line"], m["controller"],
                                  m["operator"], m["original"], m["row"] or "(row removed)",
                                  m.get("gained", 0), m.get("lost", 0), m.get("bounded", 0),
                                  m.get("differs_on"), cls, why))
            detail.append("")
    w("| protocol | model | mutants | invalid | before: core | after: core | after: core + gen"
      " | equivalent | survived | killed of those not argued unkillable |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    w("")
    out.extend(detail)
    sys.stdout.write("\n".join(out) + "\n")


main()
