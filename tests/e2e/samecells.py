#!/usr/bin/env python3
"""Compare two resolved protocols (`cohcheck count --resolved`) cell by cell:
every declaration line the same (in any order), and for every (controller,
state, event) cell the same rows in the same order. Exit 0 when they agree.
Used to show that a variant written with `extends` resolves to exactly the
protocol its old full copy declared (tests/e2e/extends.sh). Predictors
(`predict` and its `on` rules, timed mode only) are declarations; with
--tables they are left out (the old full copies predate them)."""
import sys

TABLES = "--tables" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--tables"]


def cells(path):
    decls, rows, ctrl = [], {}, None
    for line in open(path):
        line = line.rstrip("\n")
        t = line.strip()
        if not t or t.startswith("(* resolved"):
            continue
        if t.startswith("controller "):
            ctrl = t.split()[1]
            decls.append(t)
            continue
        if t == "}":
            ctrl = None
            continue
        if ctrl and (t.startswith("predict ") or (t.startswith("on ") and t[3:4] != "|")):
            if not TABLES:
                decls.append(ctrl + ": " + " ".join(t.split()))
            continue
        parts = t.split("|", 2)
        if ctrl and len(parts) == 3 and not t.startswith(("line ", "var ", "event ")):
            states = [s.strip() for s in parts[0].split(",")]
            ev = parts[1].strip()
            rest = " ".join(parts[2].split())
            for s in states:
                rows.setdefault((ctrl, s, ev), []).append(rest)
            continue
        if t.startswith("protocol "):
            t = t.split('"')[0].split()[0]  # names and descriptions may differ
        decls.append(" ".join(t.split()))
    return sorted(decls), rows


a, b = cells(ARGS[0]), cells(ARGS[1])
ok = True
if a[0] != b[0]:
    ok = False
    for d in sorted(set(a[0]) ^ set(b[0])):
        print("declaration only in", ARGS[0] if d in a[0] else ARGS[1], ":", d)
for k in sorted(set(a[1]) | set(b[1])):
    if a[1].get(k) != b[1].get(k):
        ok = False
        print("cell", k, ":", a[1].get(k), "vs", b[1].get(k))
sys.exit(0 if ok else 1)
