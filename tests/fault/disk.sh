#!/bin/sh
# A full disk (make test-fault): the store, then the spilled queue's folder, on a
# tiny file system set up here: a tmpfs with size= (needs mount; as root or in a
# user namespace), else (or with FAULT_DISK_MODE=ulimit) a file-size limit (ulimit -f: writes past it fail with
# EFBIG, as on a full disk), else skipped with the reason. Runs must exit 2 or 3
# with one line, the store must pass store check, show no dead run as running, and,
# moved to a roomy folder, resume to the uninterrupted run's counts and verdict.
# Usage: sh tests/fault/disk.sh   (from the repo root)
. tests/fault/lib.sh
ARGS="--protocol rsp-invfirst --env fetch litmus/core/scoped-MP+wg+rm_agent+diffwg.litmus"
M=$T/mnt
mkdir -p "$M"
how=
if [ "${FAULT_DISK_MODE:-tmpfs}" = tmpfs ] && mount -t tmpfs -o size=64k tmpfs "$M" 2>/dev/null; then
    how=tmpfs
    umount "$M"
    trap 'umount "$M" 2>/dev/null; rm -rf "$T"' EXIT
elif (ulimit -f 64) 2>/dev/null; then
    how=ulimit
    echo "  (tmpfs: mount not permitted here; a file-size limit stands in for the full disk)"
else
    echo "SKIP disk: neither mount nor ulimit -f is permitted here"
    summary disk
    exit 0
fi
# shellcheck disable=SC2086
"$NB" check --db "$T/ref.db" $ARGS >/dev/null 2>&1
"$NB" show --db "$T/ref.db" --json >"$T/base.json"
# shellcheck disable=SC2086
"$NB" check --no-db $ARGS >"$T/base.out" 2>/dev/null
brc=$?

# full KB CMD...: run CMD (in $M) with KB kilobytes of room; exit status in $rc.
full() {
    kb=$1
    shift
    if [ $how = tmpfs ]; then
        mount -t tmpfs -o size=${kb}k tmpfs "$M" || return 1
        "$@" >"$T/f.out" 2>"$T/f.err"
        rc=$?
    else
        (
            trap '' XFSZ
            ulimit -f $((kb * 2)) # POSIX sh counts 512-byte blocks
            exec "$@"
        ) >"$T/f.out" 2>"$T/f.err"
        rc=$?
    fi
    echo "fired disk $kb" >"$T/f.log"
}
unfull() { [ $how = tmpfs ] && umount "$M"; }

for kb in ${FAULT_DISK_KB:-8 32 96 256 640 1280 2560 4096}; do
    # The store on the small disk.
    rm -f "$M"/s.db*
    # shellcheck disable=SC2086
    full "$kb" "$FB" check --db "$M/s.db" $ARGS || { problem crash "cannot mount a ${kb}k tmpfs"; continue; }
    if [ -s "$M/s.db" ]; then
        cp "$M"/s.db* "$T/" # to a roomy folder: check, then resume there
        judge "store on ${kb}k" $rc "$T/f.out" "$T/f.err" "$T/f.log" "$brc" "$T/base.out" &&
            store_ok "store on ${kb}k" "$T/s.db" "$T/base.json"
        rm -f "$T"/s.db*
    else
        judge "store on ${kb}k" $rc "$T/f.out" "$T/f.err" "$T/f.log" "$brc" "$T/base.out"
    fi
    unfull
    # The spilled queue's folder on the small disk (no store).
    # shellcheck disable=SC2086
    full "$kb" env TMPDIR="$M" "$FB" check --no-db --queue-memory 1 $ARGS || continue
    judge "spill on ${kb}k" $rc "$T/f.out" "$T/f.err" "$T/f.log" "$brc" "$T/base.out"
    unfull
done
echo "  full disk by $how: $(grep -cx injected "$T/tally") runs"
summary disk
