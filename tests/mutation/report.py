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
    c = {k: 0 for k in ("killed", "killed-stronger", "survived", "equivalent", "invalid",
                        "not-covered")}
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
    intro = os.path.join(os.path.dirname(__file__), "report-intro.md")
    out.append(open(intro).read().rstrip("\n"))
    w("")
    rows = []
    detail = []
    for p in order:
        sb, mb = load(os.path.join(before, p + ".core.json"))
        sa, ma = load(os.path.join(after, p + ".core.json"))
        sg, mg = load(os.path.join(after, p + ".gen.json"))
        if not sa:
            continue
        merged = dict(mg) if sg else dict(ma)  # P.gen.json: the classes on core + gen
        cb, ca, cg = counts(mb) if sb else None, counts(ma), counts(merged)
        n = sa["mutants"]
        argued = sum(1 for m in merged.values() if m["class"] == "survived"
                     and not notes.get((p, m["mutant"]), ("hole",))[0].startswith(
                         ("hole", "undetermined")))
        d = n - cg["equivalent"] - cg["invalid"]
        k = cg["killed"] + cg["killed-stronger"]
        rows.append("| %s | %s | %d | %d | %s | %s | %s | %d | %d | %s |" % (
            p, sa["model"], n, cg["invalid"],
            cell(cb, sb["mutants"]) + " on %d" % sb["tests"] if sb else "-",
            cell(ca, n) + " on %d" % sa["tests"],
            cell(cg, n) if sg or not ca["survived"] else "not run", cg["equivalent"],
            cg["survived"],
            rate(k, d - argued)))
        surv = [m for m in merged.values() if m["class"] == "survived"]
        if surv:
            detail.append("### %s\n" % p)
            for m in sorted(surv, key=lambda m: m["mutant"]):
                cls, why = notes.get((p, m["mutant"]), ("unclassified", ""))
                if cls == "unclassified" and m.get("bounded"):
                    cls, why = ("undetermined (bounded)",
                                "its searches grew past the bound on tests the original completes"
                                " within it, so it is neither killed nor shown equivalent; a"
                                " larger --max-states decides it.")
                if "gained" in m:
                    cmp = ("outcomes%s: more on %d, fewer on %d, bounded on %d (setting, test) "
                           "pairs (first: %s)" % (
                               " (" + m["outcomes_of"] + ")" if "outcomes_of" in m else "",
                               m["gained"], m["lost"], m["bounded"],
                               m.get("differs_on") or "-"))
                else:
                    cmp = "outcome comparison not recorded (run before mutate reported it)"
                detail.append("- **#%d** `%s:%d` %s %s: `%s` -> `%s`  \n  %s.  \n"
                              "  **%s**: %s\n" % (
                                  m["mutant"], m["file"], m["line"], m["controller"],
                                  m["operator"], m["original"], m["row"] or "(row removed)",
                                  cmp, cls, why))
            detail.append("")
    w("## Kill rates\n")
    w("Killed (base or stronger settings) over mutants that are neither equivalent (shown by the"
      " tool) nor invalid, on the core suite as it was (153 tests), on the core suite with the"
      " tests added here, and on core plus litmus/gen (the mutants that survived core, re-run on"
      " the generated suite). The last column leaves out the survivors argued unkillable below"
      " (restriction, redundant, model-invisible, equivalent by argument).\n")
    w("| protocol | model | mutants | invalid | before: core | after: core | after: core + gen"
      " | equivalent | survived | killed of those not argued unkillable |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    w("")
    for d, what in ((before, "full campaigns on the old core suite"),
                    (after, "incremental: added tests, then litmus/gen on the survivors")):
        times = os.path.join(d, "times")
        if os.path.exists(times):
            w("Times, %s (wall seconds under nice on the shared 2-core machine, several"
              " times the idle figures; max-states and stronger settings from"
              " tests/mutation/protocols.tab): " % what + "; ".join(
                  "%s %s s%s" % (f[0], f[3], ", gen %s s" % f[4] if f[4] != "0" else "")
                  for f in (l.split() for l in open(times)) if len(f) == 5) + ".\n")
    w("## Survivors\n")
    w("Every mutant that survives every setting on core plus gen, with the row it changes, how"
      " its reachable outcomes compare with the original's over the (setting, test) pairs"
      " (more, fewer, search bounded), and its classification.\n")
    out.extend(detail)
    sys.stdout.write("\n".join(out) + "\n")


main()
