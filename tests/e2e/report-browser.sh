#!/bin/sh
# The report page as a browser shows it: `cohcheck report` on three protocols
# (one correct, one refuted as a finding, one broken variant) and three tests,
# then index.html loaded in headless Chromium. The summary must render with the
# report's counts, the incomplete colour must exist, every state-diagram
# thumbnail must load as an image, and the linked counterexample chart must
# render (an SVG with its lanes). Skips, saying why, without Chromium
# (CHROMIUM=path overrides /usr/bin/chromium).
# Usage: sh tests/e2e/report-browser.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
CHROME=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROME" ] || [ ! -x "$CHROME" ]; then
    echo "report-browser: skipped: no chromium (apt-get install chromium, or set CHROMIUM)"
    exit 0
fi
if ! command -v dot >/dev/null 2>&1; then
    echo "report-browser: skipped: no Graphviz dot to draw the charts (apt-get install graphviz)"
    exit 0
fi
R=$T/r
C=litmus/core
"$BIN" report --out "$R" --protocols gpu-wt,hlrc,gpu-wt-noflush --settings cold \
    --suite $C/MP+rel+acq+guard.litmus --suite $C/SB+rel+acq.litmus \
    --suite $C/WRC+rel+acqs+guards.litmus >"$T/out" 2>"$T/err" || bad "report failed: $(cat "$T/err")"
# The summary line the command prints, and the same numbers on the page.
grep -qx 'Summary: 3 protocols, 3 tests, 9 checks: 1 correct protocol refuted, 1 of 1 broken variants refuted as intended, 0 incomplete' \
    "$T/out" && ok || bad "report's summary line: $(tail -1 "$T/out")"
grep -q '^\*\*Summary\*\*: 3 protocols (2 correct, 1 broken variants), 3 tests, 9 checks. Findings: 1 correct protocol refuted (hlrc). Broken variants refuted as intended: 1 of 1. Incomplete checks: 0.$' \
    "$R/verdicts.md" && ok || bad "verdicts.md's summary"

# A probe appended to a copy of the page (in the same folder, so its relative links
# resolve) reports what the browser rendered into the body's data-probe attribute.
sed 's#</body>#<script src="probe.js"></script></body>#' "$R/index.html" >"$R/probe.html"
cat >"$R/probe.js" <<'JS'
window.addEventListener('load', function () {
    var out = [];
    var s = document.getElementById('summary');
    var r = s ? s.getBoundingClientRect() : null;
    out.push('summary=' + (s && r.height > 20 && r.width > 100 ? 'shown' : 'missing'));
    ['n-protocols', 'n-tests', 'n-findings', 'n-broken-refuted', 'n-incomplete'].forEach(function (id) {
        var e = document.getElementById(id);
        out.push(id + '=' + (e ? e.textContent : 'none'));
    });
    var inc = document.querySelector('#summary .incomplete');
    out.push('incomplete-colour=' + (inc ? getComputedStyle(inc).backgroundColor : 'none'));
    var exp = document.querySelector('tr.expected');
    out.push('expected-row=' + (exp ? getComputedStyle(exp).backgroundColor : 'none'));
    var imgs = document.querySelectorAll('.thumbs img'), loaded = 0;
    imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) loaded++; });
    out.push('thumbs=' + loaded + '/' + imgs.length);
    var a = document.querySelector('a[href^="traces/"]');
    if (!a) { out.push('chart=nolink'); finish(); return; }
    var img = new Image();
    img.onload = function () { out.push('chart=' + img.naturalWidth + 'x' + img.naturalHeight); finish(); };
    img.onerror = function () { out.push('chart=broken'); finish(); };
    img.src = a.getAttribute('href');
    function finish() { document.body.setAttribute('data-probe', out.join(' ')); }
});
JS
"$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --user-data-dir="$T/profile" --allow-file-access-from-files --virtual-time-budget=10000 \
    --dump-dom "file://$R/probe.html" >"$T/dom" 2>"$T/chrome.err"
probe=$(sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' "$T/dom" | head -1)
[ -n "$probe" ] || bad "chromium rendered nothing: $(head -c 300 "$T/chrome.err")"
want() { # want KEY=VALUE: the probe saw exactly that
    case " $probe " in *" $1 "*) ok ;; *) bad "browser: want $1 in '$probe'" ;; esac
}
want summary=shown
want n-protocols=3
want n-tests=3
want n-findings=1
want n-broken-refuted=1
want n-incomplete=0
want thumbs=3/3
# The incomplete colour (#ffe7b3) differs from the pass, fail and expected ones.
want "incomplete-colour=rgb(255, 231, 179)"
want "expected-row=rgb(221, 232, 255)"
case " $probe " in *" chart="[0-9]*x[0-9]*" "*) ok ;; *) bad "the linked chart did not render: $probe" ;; esac
# The chart itself is a message-sequence chart of the refuted protocol.
grep -q 'run 1: ' "$R/traces/hlrc.svg" && ok || bad "traces/hlrc.svg is not the chart"
echo "report-browser: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
