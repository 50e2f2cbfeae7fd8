"""The differential mutant campaign shared by por_mutants.py and sym_mutants.py.

campaign() checks every STEP-th mutant of each protocol's resolved table (the generator
writes them) on TESTS in each setting, once with the reduction off (OFF) and once on (ON),
under one --max-states bound. Verdicts, racy flags, reached outcomes and allowed outcomes
left unreached must be identical wherever both runs complete; a mutant refuted with the
reduction off and "ok" with it on is a false ok. Returns the counters; prints one FAIL line
per difference.
"""
import glob
import json
import os
import subprocess


def _run(binary, bound, proto, opts, files):
    p = subprocess.run([binary, "check", "--no-db", "--json", "--max-memory", "3G",
                        "--max-states", bound, "--protocol", proto] + opts + files,
                       capture_output=True, text=True)
    res = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    return {d["test"]: d for d in res if "test" in d and "verdict" in d}


def _outs(d):
    return sorted(json.dumps(o, sort_keys=True) for o in d.get("outcomes", []))


def campaign(binary, gen, out, protos, per, bound, tests, settings, off, on, applied):
    """OFF/ON: the option that turns the reduction off/on; APPLIED(json): it applied."""
    st = {"mutants": 0, "compared": 0, "applied": 0, "refuted": 0, "inconclusive": 0,
          "fails": 0, "false_ok": 0, "invalid": 0}

    def fail(msg):
        st["fails"] += 1
        print("FAIL " + msg, flush=True)

    files = ["litmus/core/%s.litmus" % t for t in tests]
    for proto in protos:
        # A name in protocols/, or a .proto file.
        name = os.path.basename(proto)[:-6] if proto.endswith(".proto") else proto
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        src = proto if proto.endswith(".proto") else "protocols/%s.proto" % proto
        subprocess.run([gen, src, d], check=True, capture_output=True)
        muts = sorted(glob.glob(os.path.join(d, "*.proto")))
        step = max(1, len(muts) // per)
        for m in muts[::step][:per]:
            st["mutants"] += 1
            for cfg, opts in settings.items():
                ref = _run(binary, bound, m, opts + [off], files)
                got = _run(binary, bound, m, opts + [on], files)
                if not ref:
                    st["invalid"] += 1  # the mutated table does not load
                    break
                for t, r in ref.items():
                    g = got.get(t)
                    tag = "%s %s %s %s" % (name, os.path.basename(m)[:-6], t, cfg)
                    if g is None:
                        fail("%s: no %s result" % (tag, on))
                        continue
                    if "incomplete" in (r["verdict"], g["verdict"]) or r["verdict"] == "skipped":
                        st["inconclusive"] += 1
                        continue
                    st["compared"] += 1
                    st["applied"] += applied(g)
                    st["refuted"] += r["verdict"] != "ok"
                    if r["verdict"] != g["verdict"]:
                        if g["verdict"] == "ok":
                            st["false_ok"] += 1
                        fail("%s: verdict %s with %s, %s with %s" % (tag, r["verdict"], off,
                                                                   g["verdict"], on))
                    elif r.get("racy") != g.get("racy"):
                        fail("%s: racy differs" % tag)
                    elif r["verdict"] == "ok" and (_outs(r) != _outs(g) or r.get(
                            "allowed_unreached") != g.get("allowed_unreached")):
                        fail("%s: outcomes differ" % tag)
        print("%s: %d mutants so far" % (name, st["mutants"]), flush=True)
    return st
