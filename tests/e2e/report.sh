#!/bin/sh
# cohcheck report on a small suite: the verdict matrix has a row per protocol and
# setting, counterexample charts exist for refuted protocols (and only for them:
# stale pictures go), index.html is well-formed and every local link in it
# resolves. With BROWSER=1 (make test-full) the page is also opened in headless
# Chromium: it must render the matrix, and a screenshot is kept in build/.
# Usage: sh tests/e2e/report.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
R=$T/r
mkdir -p "$R/traces"
echo stale >"$R/traces/stale.svg"
if "$BIN" report --out "$R" --settings cold,warm --suite litmus/core/MP+rel+acq+guard.litmus \
    --suite litmus/core/SB+rel+acq.litmus >"$T/out" 2>"$T/err"; then ok; else
    bad "report failed: $(tail -n 3 "$T/err")"
fi
np=$(ls protocols/*.proto | wc -l)
rows=$(grep -c '^| [a-z0-9-]* | [a-z-]* | \(cold\|warm\) |' "$R/verdicts.md")
if [ "$rows" -eq $((np * 2)) ]; then ok; else bad "verdicts.md has $rows rows, want $((np * 2))"; fi
# gpu-wt-noflush is refuted cold on MP+rel+acq+guard (check.tab pins it); gpu-wt passes.
if grep -q '^| gpu-wt-noflush | drf | cold | 1 | 1 |.*MP+rel+acq+guard violation |$' "$R/verdicts.md" &&
    grep -q '^| gpu-wt | drf | cold | 2 | 0 | 0 | 0 | 0 | 0 | 0 |' "$R/verdicts.md"; then ok; else
    bad "verdict rows for gpu-wt and gpu-wt-noflush"
fi
if [ -f "$R/traces/gpu-wt-noflush.svg" ] && [ ! -f "$R/traces/gpu-wt.svg" ] &&
    [ ! -f "$R/traces/stale.svg" ]; then ok; else bad "traces/: $(ls "$R/traces" | tr '\n' ' ')"; fi
nd=$(ls "$R/diagrams"/*.svg | wc -l)
if [ "$nd" -eq "$np" ]; then ok; else bad "$nd diagrams for $np protocols"; fi
for p in protocols/*.proto; do
    n=$(basename "$p" .proto)
    grep -q "^| $n | " "$R/counts-all.md" || { bad "counts-all.md lacks $n"; continue; }
done
ok
if python3 - "$R" <<'PY'; then ok; else bad "index.html"; fi
import sys, os
from html.parser import HTMLParser
root = sys.argv[1]
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.stack, self.rows = [], [], 0
    def handle_starttag(self, tag, attrs):
        if tag not in ("meta", "br", "img", "link"):
            self.stack.append(tag)
        if tag == "tr":
            self.rows += 1
        for k, v in attrs:
            if k == "href":
                self.links.append(v)
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            raise SystemExit("unbalanced </%s>" % tag)
        self.stack.pop()
p = P()
p.feed(open(os.path.join(root, "index.html")).read())
missing = [l for l in p.links if "://" not in l and not os.path.exists(os.path.join(root, l))]
if p.stack or missing or p.rows < 20:
    print("open:", p.stack, "missing:", missing, "rows:", p.rows)
    sys.exit(1)
PY
# The default output is ./cohcheck-report/ (never the checked-in reports/); --protocols
# chooses protocols, and COHCHECK_PROTOCOLS is honoured even where ./protocols exists.
BINA=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
REPO=$PWD
mkdir -p "$T/cwd/protocols"
cp protocols/nol1.proto "$T/cwd/protocols/"
# (COHCHECK_MODELS: a binary outside the repository root, as build-san/cohcheck, finds no
# models from a folder without them.)
(cd "$T/cwd" && COHCHECK_MODELS="$REPO/models" "$BINA" report --protocols nol1 --settings cold --suite "$REPO/litmus/core/SB.litmus" >/dev/null 2>&1)
if [ -f "$T/cwd/cohcheck-report/index.html" ] && [ ! -e "$T/cwd/reports" ] &&
    grep -q '^| nol1 | sc | cold | 1 |' "$T/cwd/cohcheck-report/verdicts.md"; then ok; else bad "report's default --out"; fi
mkdir -p "$T/envp"
cp protocols/gpu-wt.proto protocols/gpu-wt-noinv.proto "$T/envp/"
(cd "$T/cwd" && COHCHECK_PROTOCOLS="$T/envp" "$BINA" report --out "$T/envr" --settings cold \
    --suite "$REPO/litmus/core/SB.litmus" >/dev/null 2>&1)
n=$(grep -c '^| gpu-wt' "$T/envr/verdicts.md" 2>/dev/null)
if [ "$n" = 2 ] && ! grep -q '^| nol1 ' "$T/envr/verdicts.md"; then ok; else bad "COHCHECK_PROTOCOLS ignored: $n rows"; fi
# Bad input: exit 2.
for args in "--models most" "--settings cold;warm" "--suite /nonexistent" "-j 0" "extra" "--protocols nope"; do
    # shellcheck disable=SC2086
    "$BIN" report --out "$T/bad" $args >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then ok; else bad "report $args: exit $rc"; fi
done
# readings.md: every protocol has a section; gpu-vi's ordered request network is a reading.
for p in protocols/*.proto; do
    n=$(basename "$p" .proto)
    grep -q "^## $n\( (extends [a-z0-9-]*)\)\{0,1\}$" "$R/readings.md" || { bad "readings.md lacks $n"; continue; }
done
ok
if grep -q '^| gpu-vi.proto:[0-9]* | `network req` | seed 004 §3.1, Table 4 | ' "$R/readings.md"; then ok; else
    bad "readings.md: gpu-vi's network req reading"
fi

# A variant's first failure is its own: the first test that fails on it and passes on its
# base. qr-split-fifo fails R+sc (as qr does) and guard-WRC+rel+acqs+samecu (qr passes it).
R2=$T/r2
if "$BIN" report --out "$R2" --settings cold --suite litmus/core/R+sc.litmus \
    --suite litmus/core/guard-WRC+rel+acqs+samecu.litmus >"$T/out2" 2>"$T/err2"; then ok; else
    bad "second report failed: $(tail -n 3 "$T/err2")"
fi
if grep -q '^| qr-split-fifo | rcsc | cold | 0 | 2 |.* guard-WRC+rel+acqs+samecu violation |$' "$R2/verdicts.md" &&
    grep -q '^| qr | rcsc | cold | 1 | 1 |.* R+sc violation |$' "$R2/verdicts.md"; then ok; else
    bad "first failures: $(grep '^| qr' "$R2/verdicts.md")"
fi

if [ "${BROWSER:-0}" = 1 ]; then
    CHROME=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$CHROME" ]; then
        bad "BROWSER=1 but no chromium (apt-get install chromium)"
    else
        mkdir -p build
        "$CHROME" --headless --no-sandbox --disable-gpu --window-size=1400,2000 \
            --screenshot="$PWD/build/report-screenshot.png" "file://$R/index.html" >/dev/null 2>&1
        dom=$("$CHROME" --headless --no-sandbox --disable-gpu --dump-dom "file://$R/index.html" 2>/dev/null)
        if [ -s build/report-screenshot.png ] && printf '%s' "$dom" | grep -q '<td>gpu-wt-noflush</td>' &&
            printf '%s' "$dom" | grep -q 'id="verdicts"'; then ok; else bad "chromium did not render index.html"; fi
    fi
fi
echo "report: $pass passed, $fail failed"
[ $fail -eq 0 ]
