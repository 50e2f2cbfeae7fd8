#!/bin/sh
# Build the libFuzzer targets with clang (ASan + UBSan) and run each for
# $1 seconds (default 60), seeded with the shipped litmus tests, models and
# protocols (plus the protocol snippets in tests/fuzz/seeds-proto, the litmus snippets in
# tests/fuzz/seeds-litmus and herd7-syntax models in tests/fuzz/seeds-cat), machines, the
# kernel graph inputs (tests/e2e/data/kernels) and the claims files (reports/claims).
# Crashes land in build-fuzz/crash-*; the corpus grows in build-fuzz/corpus-*.
set -e
SECS=${1:-60}
OUT=build-fuzz
mkdir -p $OUT
CFLAGS="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -fsanitize=fuzzer,address,undefined"
SRCS="$(find checker -name '*.c' ! -path 'checker/cli/*')"
for t in litmus cat eval proto check lattice murphi machine graph claims; do
    clang $CFLAGS -o $OUT/fuzz_$t tests/fuzz/fuzz_$t.c $SRCS -lpcre2-8 -lsqlite3 -lm -lpthread
done
mkdir -p $OUT/corpus-litmus $OUT/corpus-cat $OUT/corpus-eval $OUT/corpus-proto $OUT/corpus-check $OUT/corpus-lattice $OUT/corpus-murphi $OUT/corpus-machine $OUT/corpus-graph $OUT/corpus-claims
cp tests/e2e/data/kernels/*.gr tests/e2e/data/kernels/*.mtx $OUT/corpus-graph/
cp reports/claims/*.claims $OUT/corpus-claims/
cp protocols/machines/*.machine tests/e2e/data/sim/*.machine tests/e2e/data/dram/*.machine tests/e2e/data/net/*.machine \
    tests/e2e/data/sbuf/*.machine $OUT/corpus-machine/
cp models/lattice $OUT/corpus-lattice/
find litmus tests/e2e/data tests/fuzz/seeds-litmus -name '*.litmus' -exec cp {} $OUT/corpus-litmus/ \;
cp $OUT/corpus-litmus/* $OUT/corpus-eval/
cp models/*.cat tests/e2e/data/*.cat tests/fuzz/seeds-cat/*.cat $OUT/corpus-cat/
find protocols tests/fuzz/seeds-proto -name '*.proto' -exec cp {} $OUT/corpus-proto/ \; 2>/dev/null || true
find protocols tests/fuzz/seeds-proto tests/e2e/data -name '*.proto' -exec cp {} $OUT/corpus-check/ \; 2>/dev/null || true
cp $OUT/corpus-check/* $OUT/corpus-murphi/
for t in litmus cat eval proto check lattice murphi machine graph claims; do
    echo "fuzzing $t for ${SECS}s"
    $OUT/fuzz_$t -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix=$OUT/ -print_final_stats=1 $OUT/corpus-$t 2>&1 | tail -4
done
