# cohcheck - build, test, bench, install.
# `make` builds ./cohcheck; `make test` runs every fast test; see README.md.

CC       ?= cc
PREFIX   ?= /usr/local
BUILD    ?= build
OPT      ?= -O2 -g
WARN     := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla \
            -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
SAN      ?=
DEFS     := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
PKG_CFLAGS := $(shell pkg-config --cflags libpcre2-8 sqlite3 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs libpcre2-8 sqlite3 2>/dev/null || echo -lpcre2-8 -lsqlite3)
CFLAGS_ALL  = $(OPT) $(WARN) $(DEFS) $(SAN) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL  = $(PKG_LIBS) -lm -lpthread $(LDLIBS)

LIB_SRCS  := $(sort $(filter-out checker/cli/%,$(shell find checker -name '*.c')))
CLI_SRCS  := $(sort $(wildcard checker/cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
DEPS      := $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_OBJS:.o=.d)

.PHONY: all docs test test-classify test-murphi test-murphi-counts install-lattice test-draw test-herd test-report test-mutate report test-install test-unit test-e2e test-litmus test-check test-time test-store test-full test-san bench fuzz install clean format format-check

all: cohcheck

cohcheck: $(BUILD)/libcohcheck.a $(CLI_OBJS)
	$(CC) $(OPT) $(SAN) -o $@ $(CLI_OBJS) $(BUILD)/libcohcheck.a $(LDFLAGS) $(LDLIBS_ALL)

$(BUILD)/libcohcheck.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

# The timed simulator's hot objects (its event loop, the row evaluator, the network) at
# -O3 where OPT is the default: docs/sim.md "Speed" (the sixth round) measures it.
ifeq ($(OPT),-O2 -g)
HOT_OPT  ?= -O3
endif
HOT_OBJS := $(addprefix $(BUILD)/checker/,sim/sim.o sim/sim_wide.o sim/net.o sys/rows.o)
$(HOT_OBJS): CFLAGS_ALL += $(HOT_OPT)

$(BUILD)/unit_tests: $(UNIT_OBJS) $(BUILD)/libcohcheck.a
	$(CC) $(OPT) $(SAN) -o $@ $(UNIT_OBJS) $(BUILD)/libcohcheck.a $(LDFLAGS) -lcriterion $(LDLIBS_ALL)

# The differential --por mutant campaign's generator (tests/e2e/por_mutants.py).
$(BUILD)/por_mutants: $(BUILD)/tests/e2e/por_mutants.o $(BUILD)/libcohcheck.a
	$(CC) $(OPT) $(SAN) -o $@ $< $(BUILD)/libcohcheck.a $(LDFLAGS) $(LDLIBS_ALL)

# Fast tier: unit tests, end-to-end tests of the binary, the litmus suites' expectations.
test: test-unit test-e2e test-litmus test-check test-time test-store test-draw test-herd test-report test-mutate test-install test-classify test-murphi

test-unit: $(BUILD)/unit_tests
	$(BUILD)/unit_tests --jobs 2

test-e2e: cohcheck
	sh tests/e2e/run.sh ./cohcheck
	sh tests/e2e/docs.sh ./cohcheck
	sh tests/e2e/options.sh ./cohcheck
	sh tests/e2e/folders.sh ./cohcheck
	sh tests/e2e/progress.sh ./cohcheck

test-litmus: cohcheck
	./cohcheck litmus --expect --quiet litmus

# The SQLite store: resume, diff, show, trace (tests/e2e/store.sh).
test-store: cohcheck
	sh tests/e2e/store.sh ./cohcheck

# Pictures: state diagrams of every protocol, counterexample charts (needs graphviz).
test-draw: cohcheck
	sh tests/e2e/draw.sh ./cohcheck

# cohcheck report on a small suite (BROWSER=1: also render it in headless Chromium).
test-report: cohcheck
	sh tests/e2e/report.sh ./cohcheck
	sh tests/e2e/report-browser.sh ./cohcheck

# Regenerate reports/ (verdict matrix cold and warm on litmus/core, counts, diagrams,
# counterexample charts, index.html); `make report REPORT_FLAGS=--bench` adds bench rows.
report: cohcheck
	./cohcheck report --out reports $(REPORT_FLAGS)

# Generated tests (litmus/gen), mutation testing, regress, JUnit reports.
test-mutate: cohcheck
	sh tests/e2e/gen.sh ./cohcheck
	sh tests/e2e/mutate.sh ./cohcheck
	sh tests/e2e/pairs.sh ./cohcheck
	sh tests/e2e/regress.sh ./cohcheck
	sh tests/e2e/junit.sh ./cohcheck

# herd7's C dialect: reading, --to-herd round trips, errors.
test-herd: cohcheck
	sh tests/e2e/herd.sh ./cohcheck
	sh tests/e2e/herd-diff.sh ./cohcheck

# `make install` into a scratch folder: paths, man page, bash completion.
test-install: cohcheck
	sh tests/e2e/install.sh

# Protocol verdicts and pinned state/transition counts, BFS and DFS (tests/e2e/check.tab).
test-check: cohcheck
	sh tests/e2e/check.sh ./cohcheck
	sh tests/e2e/count.sh ./cohcheck
	sh tests/e2e/liveness.sh ./cohcheck
	sh tests/e2e/extends.sh ./cohcheck
	sh tests/e2e/readings.sh ./cohcheck
	sh tests/e2e/findings.sh ./cohcheck

# The time abstraction against raw integers (docs/time-abstraction.md).
test-time: cohcheck
	sh tests/e2e/timecheck.sh ./cohcheck

# Slower tier: everything in `test`, the sanitizer build, and the report page rendered
# in headless Chromium (apt-get install chromium; screenshot kept in build/).
test-full: test test-san
	BROWSER=1 sh tests/e2e/report.sh ./cohcheck
	sh tests/e2e/murphi-counts.sh ./cohcheck
	LIVENESS_SWEEP=1 sh tests/e2e/liveness.sh ./cohcheck

# Address and undefined-behaviour sanitizers over the whole fast tier.
test-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" test-unit
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/run.sh ./build-san/cohcheck
	./build-san/cohcheck litmus --expect --quiet litmus
	sh tests/e2e/check.sh ./build-san/cohcheck
	sh tests/e2e/store.sh ./build-san/cohcheck
	sh tests/e2e/count.sh ./build-san/cohcheck
	sh tests/e2e/timecheck.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/extends.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/liveness.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/draw.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/herd.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/report.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/folders.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/gen.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/mutate.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/regress.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/junit.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/classify.sh ./build-san/cohcheck
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/murphi.sh ./build-san/cohcheck

cohcheck-san: $(BUILD)/libcohcheck.a $(CLI_OBJS)
	$(CC) $(OPT) $(SAN) -o $(BUILD)/cohcheck $(CLI_OBJS) $(BUILD)/libcohcheck.a $(LDFLAGS) $(LDLIBS_ALL)

bench: cohcheck
	sh tests/bench/run.sh ./cohcheck
	sh tests/bench/protocols.sh ./cohcheck
	sh tests/bench/sym.sh ./cohcheck

# Fuzz the parsers with libFuzzer (clang). FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 60
fuzz:
	sh tests/fuzz/run.sh $(FUZZ_SECONDS)

install: cohcheck
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cohcheck/models \
	    $(DESTDIR)$(PREFIX)/share/cohcheck/protocols
	install -m 755 cohcheck $(DESTDIR)$(PREFIX)/bin/cohcheck
	install -m 644 models/*.cat $(DESTDIR)$(PREFIX)/share/cohcheck/models/
	install -m 644 protocols/*.proto $(DESTDIR)$(PREFIX)/share/cohcheck/protocols/
	cp -r litmus $(DESTDIR)$(PREFIX)/share/cohcheck/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 docs/cohcheck.1 $(DESTDIR)$(PREFIX)/share/man/man1/cohcheck.1
	install -m 644 docs/cohcheck.bash-completion \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/cohcheck

format:
	clang-format -i $(shell find checker tests -name '*.[ch]')

# The bash completion and the man page's OPTIONS section, generated from the option
# table (checker/cli/opts.c); tests/e2e/options.sh fails when they are stale.
docs: cohcheck
	sh docs/gen.sh ./cohcheck

format-check:
	clang-format --dry-run --Werror $(shell find checker tests -name '*.[ch]')

clean:
	rm -rf $(BUILD) build-san cohcheck

-include $(DEPS)

# The model lattice and `cohcheck classify` (issue 14): pinned placements, the lattice on
# the suites (tests/e2e/classify.sh); models/lattice is installed beside the models.
test-classify: cohcheck
	sh tests/e2e/classify.sh ./cohcheck
install: install-lattice
install-lattice: cohcheck
	install -d $(DESTDIR)$(PREFIX)/share/cohcheck/models
	install -m 644 models/lattice $(DESTDIR)$(PREFIX)/share/cohcheck/models/lattice

# Murphi export (docs/murphi.md): `make test` checks that every protocol exports,
# deterministically, that Rumur parses it and that bad input is rejected; `make test-full`
# runs Rumur on tests/e2e/murphi.tab and requires its state counts to equal cohcheck's.
test-murphi: cohcheck
	sh tests/e2e/murphi.sh ./cohcheck
test-murphi-counts: cohcheck
	sh tests/e2e/murphi-counts.sh ./cohcheck

# Memory beyond RAM (issue 11 part 4, docs/memory.md): the BFS queue spilled to disk gives
# identical counts, verdicts and traces; --fingerprint 64|96|128; disk errors exit 3.
test-spill: cohcheck
	sh tests/e2e/spill.sh ./cohcheck
test: test-spill

# The SPIN twin of the benchmark graph (tests/bench/gpu-wt-sb.pml): SPIN stores exactly
# cohcheck's states (make test-full; skipped without spin).
test-spin: cohcheck
	sh tests/e2e/spin.sh ./cohcheck
test-full: test-spin
# check.tab with 128-bit fingerprints and a spilled queue: identical verdicts and counts.
test-spill-check: cohcheck
	sh tests/e2e/spill-check.sh ./cohcheck
test-full: test-spill-check
# tests/e2e/spill.sh under the address and undefined-behaviour sanitizers.
test-spill-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/spill.sh ./build-san/cohcheck
test-san: test-spill-san
# `cohcheck report timed` (issue 10 part 5; docs/report-timed.md): the --quick sweep's files,
# claims table, red rows, well-formed SVG and same-seed determinism (tests/e2e/timed-report.sh).
# `make report-timed` regenerates reports/timed.md and reports/timed/ with the full sweep.
test: test-timed-report
test-timed-report: cohcheck
	sh tests/e2e/timed-report.sh ./cohcheck
report-timed: cohcheck
	nice -n 10 ./cohcheck report timed -j 2
# Held-out check: the same sweep at seeds 101-105, its labels compared with reports/timed.md's.
HELDOUT ?= /tmp/cohcheck-heldout
report-timed-heldout: cohcheck
	nice -n 10 ./cohcheck report timed -j 2 --seed 101 --out $(HELDOUT)
	sh tests/heldout-labels.sh reports/timed.md $(HELDOUT)/timed.md
.PHONY: test-timed-report report-timed report-timed-heldout

# ---- Timed mode (cohcheck sim, docs/sim.md): pinned runs, broken variants, limits, bad input.
test: test-sim
test-san: test-sim-san
.PHONY: test-sim test-sim-san
test-sim: cohcheck
	sh tests/e2e/sim.sh ./cohcheck
test-sim-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/sim.sh ./build-san/cohcheck
# The per-CU store buffer (docs/sim.md "Store buffer"): pinned runs, kernels' final checks,
# broken variants, bad input.
test: test-sbuf
test-san: test-sbuf-san
.PHONY: test-sbuf test-sbuf-san
test-sbuf: cohcheck
	sh tests/e2e/sbuf.sh ./cohcheck
test-sbuf-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/sbuf.sh ./build-san/cohcheck
# The DRAM model (docs/sim.md "DRAM"): pinned runs that reach memory, JSON, bad input.
test: test-dram
test-san: test-dram-san
.PHONY: test-dram test-dram-san
test-dram: cohcheck
	sh tests/e2e/dram.sh ./cohcheck
test-dram-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/dram.sh ./build-san/cohcheck
# The routed network (docs/sim.md "Network"): topologies, HOL blocking, JSON, bad input.
test: test-net
test-san: test-net-san
.PHONY: test-net test-net-san
test-net: cohcheck
	sh tests/e2e/net.sh ./cohcheck
test-net-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/net.sh ./build-san/cohcheck
test-san: test-timed-report-san
.PHONY: test-timed-report-san
test-timed-report-san:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/timed-report.sh ./build-san/cohcheck

# Workloads (litmus/workloads): parse, check at default parameters on their target protocols
# with pinned counts, broken variants refuted, --param (tests/e2e/workloads.sh).
test: test-workloads
test-workloads: cohcheck
	sh tests/e2e/workloads.sh ./cohcheck
.PHONY: test-workloads
# One test on several threads (check --threads N, explore_par.c): tests/e2e/threads.sh in
# `make test` and under ASan/UBSan in `make test-san`; `make test-tsan` builds with
# ThreadSanitizer into build-tsan and runs the e2e tests (criterion's unit-test runner
# cannot start under TSan, so tests/unit/test_par.c runs in the other builds).
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
.PHONY: test-threads test-san-threads test-tsan clean-tsan
test: test-threads
test-threads: cohcheck
	sh tests/e2e/threads.sh ./cohcheck
test-san: test-san-threads
test-san-threads:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 THREADS_MAX_STATES=20000 sh tests/e2e/threads.sh ./build-san/cohcheck
test-tsan:
	$(MAKE) BUILD=build-tsan SAN="$(TSAN_FLAGS)" OPT="-O1 -g" cohcheck-san
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" THREADS_MAX_STATES=20000 \
	    sh tests/e2e/threads.sh ./build-tsan/cohcheck
clean: clean-tsan
clean-tsan:
	rm -rf build-tsan
# Partial-order reduction (docs/por.md): --por keeps every outcome, verdict and failure
# kind of --no-por on litmus/core x every protocol, cold and warm with every environment
# action (tests/e2e/por.sh; POR_FULL=1: the larger sweep of test-full).
.PHONY: test-por test-por-full
test: test-por
test-full: test-por-full
test-por: cohcheck
	sh tests/e2e/por.sh ./cohcheck
test-por-full: cohcheck
	POR_FULL=1 sh tests/e2e/por.sh ./cohcheck
# Symmetry reduction (docs/por.md, "Symmetry"): pinned counts with and without --symmetry,
# refusals, real traces, store and resume, and the equivalence sweep (tests/e2e/sym.sh;
# SYM_FULL=1: every protocol on litmus/core --cus 4 and the workloads).
.PHONY: test-sym test-sym-full
test: test-sym
test-full: test-sym-full
test-sym: cohcheck
	sh tests/e2e/sym.sh ./cohcheck
test-sym-full: cohcheck
	SYM_FULL=1 sh tests/e2e/sym.sh ./cohcheck

test-san: test-san-workloads
test-san-workloads:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/workloads.sh ./build-san/cohcheck
.PHONY: test-san-workloads

# Distributed search on MPI (issue 11, docs/distributed.md): when Open MPI (or another MPI
# with mpicc) is installed, checker/explore/explore_mpi.c is built with COHCHECK_MPI and
# cohcheck links libmpi; `check --mpi` then runs under mpirun. MPI=0 builds without it.
# `make test` runs tests/e2e/mpi.sh's fast part (skipped without mpirun); `make test-full`
# adds the benchmark graph's pinned count on 2 and 4 ranks.
MPI ?= 1
ifeq ($(MPI),1)
MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null || pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null || pkg-config --libs ompi-c 2>/dev/null)
ifneq ($(strip $(MPI_LIBS)),)
DEFS       += -DCOHCHECK_MPI
PKG_CFLAGS += $(MPI_CFLAGS)
PKG_LIBS   += $(MPI_LIBS)
endif
endif
.PHONY: test-mpi test-mpi-full
test: test-mpi
test-full: test-mpi-full
test-mpi: cohcheck
	sh tests/e2e/mpi.sh ./cohcheck
test-mpi-full: cohcheck
	MPI_FULL=1 sh tests/e2e/mpi.sh ./cohcheck
# Fault injection (docs/reliability.md): failing allocations, SQLite I/O errors, a full
# disk, kill -9 at random points, concurrent writers and readers; each run must exit 2
# or 3 with one line, never crash, report a false "ok", leak, or leave the store
# inconsistent (checked with `cohcheck store check`). Builds build-fault/cohcheck with
# ASan/UBSan and -DCOHCHECK_FAULT; FAULT_SEED, FAULT_KILLS, FAULT_SAMPLES vary the campaign.
.PHONY: test-fault
test-fault: cohcheck
	$(MAKE) BUILD=build-fault SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" CFLAGS="-DCOHCHECK_FAULT" cohcheck-san
	sh tests/fault/run.sh ./build-fault/cohcheck ./cohcheck
clean: clean-fault
clean-fault:
	rm -rf build-fault

# Kernels (docs/litmus.md "Kernels"): register-indexed addresses, loops, graph inputs; the
# SSSP kernel pinned in sim and check (tests/e2e/kernels.sh).
.PHONY: test-kernels test-san-kernels
test: test-kernels
test-kernels: cohcheck
	sh tests/e2e/kernels.sh ./cohcheck
test-san: test-san-kernels
test-san-kernels:
	$(MAKE) BUILD=build-san SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" OPT="-O1 -g" cohcheck-san
	ASAN_OPTIONS=detect_leaks=1 sh tests/e2e/kernels.sh ./build-san/cohcheck
# The experiments behind docs/report-timed.md "Why the magnitudes differ", pinned
# (tests/e2e/magnitudes.sh).
.PHONY: test-magnitudes
test: test-magnitudes
test-magnitudes: cohcheck
	sh tests/e2e/magnitudes.sh ./cohcheck
