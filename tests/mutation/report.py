#!/usr/bin/env python3
"""reports/mutation.md from the JSON of tests/mutation/run.sh.

Usage: python3 tests/mutation/report.py [--previous REPORT] OUT > NEW.md
($SURVIVORS: another classification table, for tests)
OUT: P.core.json (or P.core.json.gz) per protocol (`cohcheck mutate --json` on litmus/core, with run.sh's
stages merged in), and P.gen.json where the survivors also ran on litmus/gen (then the
classes on core plus gen are reported). tests/mutation/survivors.tab gives the
classification and argument of each mutant that is not killed, keyed by protocol and
mutant number and checked against the row it was written for: an entry whose original
and mutated rows differ from the mutant's (the table changed since) is not applied.
Kill rate: (killed + killed-stronger) / (mutants - equivalent - invalid), so not-covered
mutants count against it; the last column also leaves out the mutants argued
unkillable (a class other than hole or undetermined).
--previous REPORT: a protocol with no data in OUT keeps its kill-rate row, its "### P"
section and its time exactly as REPORT (an earlier reports/mutation.md) has them; with no
data at all the output is REPORT's tables again. The committed campaigns' merged JSON is
in reports/mutation/ (gzip), so: report.py --previous reports/mutation.md reports/mutation"""
import gzip
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = ("killed", "killed-stronger", "survived", "equivalent", "invalid", "not-covered")


def load(path):
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rt") as f:
            lines = [json.loads(l) for l in f]
    elif not os.path.exists(path) or os.path.getsize(path) == 0:
        return None, {}
    else:
        lines = [json.loads(l) for l in open(path)]
    if not lines:
        return None, {}
    return lines[-1], {m["mutant"]: m for m in lines[:-1]}


def previous_of(path):
    """An earlier report's kill-rate rows, "### P" sections and times, by protocol."""
    rows, secs, times = {}, {}, []
    if not path:
        return rows, secs, times
    text = open(path).read()
    for l in text.split("\n"):
        if l.startswith("| ") and not l.startswith(("| protocol ", "|---")):
            rows[l.split(" | ")[0][2:]] = l
        if l.startswith("Times (wall seconds"):
            times = [t.rsplit(" ", 2)[:2] for t in l.split(": ", 1)[1].rstrip(".").split("; ")]
    parts = text.split("\n### ")
    for part in parts[1:]:  # each as main() writes it: an entry, a blank line, a blank line
        secs[part.split("\n", 1)[0]] = "### " + part.rstrip("\n") + "\n\n\n"
    return rows, secs, [(p, int(n)) for p, n in times]


ENTRY = re.compile(r"^- \*\*#(\d+)\*\* \S+ `[^`]*` \S+ \S+: `(.*)` -> `(.*)`  \n"
                   r"  .*\n  \*\*([^*]+)\*\*: (.*)$", re.M)


def reclassify(notes, p, row, sec):
    """An earlier report's row and section of protocol P with survivors.tab applied again:
    an entry whose survivors.tab class or argument changed since (for the same rows) gets
    the new ones, and the row's argued count and last rate follow. The classes mutate gave
    (killed, equivalent, ...) are the earlier report's: no data, no new class."""
    def note(mo):  # the entry's survivors.tab note, where it is for the same rows
        n = notes.get((p, int(mo.group(1))))
        return n if n and (n[0], n[1] or "(row removed)") == (mo.group(2), mo.group(3)) else None

    def sub(mo):
        n = note(mo)
        if not n:
            return mo.group(0)
        return mo.group(0)[:mo.start(4) - mo.start(0)] + "%s**: %s" % (n[2], n[3])
    old, sec = sec, ENTRY.sub(sub, sec)
    ents = list(ENTRY.finditer(sec))
    argued = sum(1 for mo in ents if note(mo) and unkillable(note(mo)[2:]))
    cells = row.split(" | ")
    if len(cells) != 14:
        return row, sec
    # the section lists every survivor under mutate's class, so the row's survived and
    # equivalent cells are rebuilt from it (the same whether or not the row was)
    surv = [mo for mo in ents if mo.group(0).split(" ", 2)[2].startswith("survived ")]
    raw = len(surv)
    bigger = sum(1 for mo in surv if note(mo) and note(mo)[2] == LARGER)
    kills = sum(1 for mo in surv if note(mo) and note(mo)[2] == KILLED)
    # the killed-stronger cell counted the earlier report's `killed (larger bound)` entries
    was = sum(1 for mo in ENTRY.finditer(old) if mo.group(0).split(" ", 2)[2].startswith(
        "survived ") and mo.group(4) == KILLED)
    ks = int(cells[8]) - was + kills
    # the earlier equivalent cell less its larger-bound entries (the section's survivors
    # that were neither counted survived nor killed there), plus today's
    eq = int(cells[9]) - (raw - int(cells[11]) - was) + bigger
    n, inv, k = int(cells[5]), int(cells[6]), int(cells[7]) + ks
    d = n - eq - inv
    cells[8], cells[9], cells[11] = str(ks), str(eq), str(raw - bigger - kills)
    cells[12] = str(argued)
    cells[13] = "%d/%d (%s)" % (k, d, rate(k, d)) + ("; %s" % rate(k, d - argued) if argued
                                                     else "") + " |"
    return " | ".join(cells), sec


def rate(k, d):
    return "%.1f %%" % (100.0 * k / d) if d else "-"


def notes_of():
    """(protocol, mutant) -> (original row, mutated row, class, argument)."""
    notes = {}
    for l in open(os.environ.get("SURVIVORS") or os.path.join(HERE, "survivors.tab")):
        if l.startswith("#") or not l.strip():
            continue
        p, i, orig, row, cls, why = l.rstrip("\n").split("\t", 5)
        notes[(p, int(i))] = (orig, row, cls, why)
    return notes


def classification(notes, p, m):
    """The class and argument of a mutant not killed, or None."""
    n = notes.get((p, m["mutant"]))
    if not n:
        return None
    if (n[0], n[1]) != (m["original"], m["row"]):
        return ("unclassified", "survivors.tab's entry #%d is for another row (`%s` -> `%s`):"
                " the table changed since it was written" % (m["mutant"], n[0], n[1]))
    return n[2], n[3]


# A bounded survivor that tests/mutation/pairs.py runs to completion, at a larger bound, on
# every pair it was bounded on, with the original's outcomes (the usable pairs: those the
# original completes within the campaign's bound). Counted equivalent (out of the rate),
# not argued.
LARGER = "equivalent (larger bound)"
# A bounded survivor that pairs.py (or a check of a test it names) refutes after the
# campaign, at a larger bound or on a pair the campaign's bound cut short: counted
# killed-stronger (the campaign's data is not stored for every protocol to re-run it).
# Also a mutant the campaign found equivalent (every pair the original completes within
# the bound gave the original's outcomes) that such a check refutes on a pair past it.
KILLED = "killed (larger bound)"


def unkillable(c):
    return c is not None and c[0] not in (LARGER, KILLED) and not c[0].startswith(
        ("hole", "undetermined", "unclassified"))


def describe(m, c):
    if c is None and m.get("bounded"):
        c = ("undetermined (bounded)",
             "its searches grew past the bound on tests the original completes within it,"
             " so it is neither killed nor shown equivalent; a larger --max-states decides it.")
    elif c is None and m["class"] == "not-covered":
        c = ("not covered", "no test of the suite chooses the row; not argued.")
    elif c is None:
        c = ("unclassified", "not argued.")
    cmp = "outcomes: more on %d, fewer on %d, bounded on %d (setting, test) pairs (first: %s)" % (
        m.get("gained", 0), m.get("lost", 0), m.get("bounded", 0), m.get("differs_on") or "-")
    return "- **#%d** %s `%s:%d` %s %s: `%s` -> `%s`  \n  %s.  \n  **%s**: %s\n" % (
        m["mutant"], m["class"], m["file"], m["line"], m["controller"], m["operator"],
        m["original"], m["row"] or "(row removed)", cmp, c[0], c[1])


def main():
    args = sys.argv[1:]
    prev = None
    if len(args) == 3 and args[0] == "--previous":
        prev, args = args[1], args[2:]
    if len(args) != 1:
        sys.stderr.write("usage: report.py [--previous REPORT] OUT\n")
        sys.exit(2)
    out_dir = args[0]
    prow, psec, ptimes = previous_of(prev)
    notes = notes_of()
    order = [l.split() for l in open(os.path.join(HERE, "protocols.tab"))
             if l.strip() and not l.startswith("#")]
    out = [open(os.path.join(HERE, "report-intro.md")).read().rstrip("\n"), ""]
    rows, detail, missing = [], [], []
    for f in order:
        p = f[0]
        s, ms = load(os.path.join(out_dir, p + ".core.json"))
        sg, mg = load(os.path.join(out_dir, p + ".gen.json"))
        if not s and p in prow:  # no data: the earlier report's row and section
            row, sec = prow[p], psec.get(p)
            if sec:
                row, sec = reclassify(notes, p, row, sec)
                detail.append(sec)
            rows.append(row)
            continue
        if not s:
            missing.append(p)
            continue
        if sg:
            ms = mg
        c = {k: 0 for k in CLASSES}
        for m in ms.values():
            c[m["class"]] += 1
        n = s["mutants"]
        d = n - c["equivalent"] - c["invalid"]
        k = c["killed"] + c["killed-stronger"]
        # survivors, not-covered mutants, and the mutants the campaign found equivalent
        # that a check after it refuted past the bound (a KILLED entry)
        cls = {m["mutant"]: classification(notes, p, m) for m in ms.values()
               if m["class"] in ("survived", "not-covered", "equivalent")}
        rest = sorted((m for m in ms.values() if m["class"] in ("survived", "not-covered") or
                       (m["class"] == "equivalent" and (cls[m["mutant"]] or ("",))[0] == KILLED)),
                      key=lambda m: m["mutant"])
        argued = sum(1 for m in rest if unkillable(cls[m["mutant"]]))
        bigger = sum(1 for m in rest if m["class"] == "survived" and cls[m["mutant"]] and
                     cls[m["mutant"]][0] == LARGER)
        kills = sum(1 for m in rest if m["class"] == "survived" and cls[m["mutant"]] and
                    cls[m["mutant"]][0] == KILLED)
        eqkills = sum(1 for m in rest if m["class"] == "equivalent")
        c["survived"] -= bigger + kills
        c["equivalent"] += bigger - eqkills
        c["killed-stronger"] += kills + eqkills
        k += kills + eqkills
        d += eqkills - bigger
        rows.append("| %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %s | %d | %s |" % (
            p, s["model"], f[1], f[2], s["usable_tests"], n, c["invalid"], c["killed"],
            c["killed-stronger"], c["equivalent"], c["not-covered"], c["survived"], argued,
            "%d/%d (%s)" % (k, d, rate(k, d)) + ("; %s" % rate(k, d - argued) if argued else
                                                 "")))
        if rest:
            detail.append("\n".join(["### %s\n" % p] + [describe(m, cls[m["mutant"]])
                                                          for m in rest] + [""]) + "\n")
    out.append("## Kill rates\n")
    out.append("Per protocol: its target model, the bound and stronger settings of the campaign"
               " (tests/mutation/protocols.tab; the stages run on top of them, such as `-E all`,"
               " are in How to regenerate), the core tests the original passes completely (usable), the mutants and their"
               " classes. The kill rate is (killed + killed-stronger) / (mutants - equivalent -"
               " invalid): not-covered mutants count against it. After the semicolon, the same"
               " rate leaving out the mutants argued unkillable below (restriction, redundant,"
               " model-invisible, equivalent by argument, unreachable). A survivor that"
               " tests/mutation/pairs.py ran to completion at a larger bound on every pair it was"
               " bounded on, with exactly the original's outcomes (`%s` below; the usable"
               " pairs stay those the original completes within the campaign's bound), is"
               " counted equivalent; one that pairs.py (or a check it names) refuted after the"
               " campaign, at a larger bound or on a pair the campaign's bound cut short (`%s`"
               " below), is counted killed-stronger.\n" % (LARGER, KILLED))
    out.append("| protocol | model | max-states | stronger | usable tests | mutants | invalid"
               " | killed | killed-stronger | equivalent | not-covered | survived"
               " | argued unkillable | kill rate |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    out.append("")
    if missing:
        out.append("Not run to the end in this campaign: %s. Their figures from the previous"
                   " campaign (core suite of 158 tests, before the not-covered class existed, so"
                   " not comparable) are in `reports/mutation.md` at commit c099468.\n"
                   % ", ".join(missing))
    times = os.path.join(out_dir, "times")
    tot = dict(ptimes)  # the earlier report's, replaced by this data's
    if os.path.exists(times):
        new = {}  # a protocol's runs of run.sh (the core stage, then later stages), summed
        for t in (l.split() for l in open(times)):
            if len(t) == 5:
                new[t[0]] = new.get(t[0], 0) + int(t[3]) + int(t[4])
        tot.update(new)
    if tot:
        out.append("Times (wall seconds of run.sh's stages, summed per protocol, under nice on"
                   " the shared 2-core machine, several times the idle figures): " +
                   "; ".join("%s %d s" % (p, n) for p, n in tot.items()) + ".\n")
    out.append("## Mutants not killed\n")
    out.append("Every survivor and not-covered mutant, with the row it changes, how its reachable"
               " outcomes compare with the original's over the (setting, test) pairs (more,"
               " fewer, search bounded), and its classification.\n")
    sys.stdout.write("\n".join(out) + "\n" + "".join(detail))


main()
