#!/usr/bin/env python3
"""Compare two resolved protocols (`cohcheck count --resolved`) cell by cell:
every declaration line the same (in any order), and for every (controller,
state, event) cell the same rows in the same order. Exit 0 when they agree.
Used to show that a variant written with `extends` resolves to exactly the
protocol its old full copy declared (tests/e2e/extends.sh)."""
import sys


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


a, b = cells(sys.argv[1]), cells(sys.argv[2])
ok = True
if a[0] != b[0]:
    ok = False
    for d in sorted(set(a[0]) ^ set(b[0])):
        print("declaration only in", sys.argv[1] if d in a[0] else sys.argv[2], ":", d)
for k in sorted(set(a[1]) | set(b[1])):
    if a[1].get(k) != b[1].get(k):
        ok = False
        print("cell", k, ":", a[1].get(k), "vs", b[1].get(k))
sys.exit(0 if ok else 1)
