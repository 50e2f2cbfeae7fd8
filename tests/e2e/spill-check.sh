#!/bin/sh
# Every row of tests/e2e/check.tab (BFS and DFS) with 128-bit fingerprints and the BFS queue
# spilled to disk (--queue-memory 1): the same verdicts and exact counts (make test-full).
# Usage: sh tests/e2e/spill-check.sh ./cohcheck   (from the repo root)
BIN=${1:-./cohcheck}
. tests/e2e/lib.sh
case "$BIN" in /*) ;; *) BIN=$PWD/$BIN ;; esac
printf '#!/bin/sh\nexec "%s" "$@" --fingerprint 128 --queue-memory 1\n' "$BIN" >"$T/cohcheck"
chmod +x "$T/cohcheck"
TMPDIR=$T sh tests/e2e/check.sh "$T/cohcheck"
