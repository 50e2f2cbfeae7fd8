/* opts.c - the declared option table: every option of every subcommand, once per
 * meaning, with its value's type and range, its help text and the subcommands that
 * take it; the parser (cli_getopt), --help lists, the man page's OPTIONS section and
 * the bash completion script are generated from it (docs/architecture.md, "The option
 * table"). Invariant: within one subcommand no two entries share a name or a code. */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/util.h"
#include "cli.h"

const char *const cli_cmd_names[CLI_CMD__N] = {
    "litmus",   "check",       "count",        "show",   "trace", "resume",
    "diff",     "store check", "draw",         "mutate", "gen",   "regress",
    "classify", "report",      "report timed", "export", "sim"};

#define C(x) CLI_CMDS(CLI_CMD_##x)
/* The subcommands that take the system settings of check (--init, --env, --lines). */
#define SETTINGS (C(CHECK) | C(MUTATE) | C(REGRESS) | C(CLASSIFY) | C(EXPORT))
#define ALL_CMDS ((1u << CLI_CMD__N) - 1)
#define STORE_READERS (C(SHOW) | C(TRACE) | C(RESUME) | C(DIFF) | C(DRAW))
/* The subcommands that load a memory model (directly, or rebuilding a stored run). */
#define MODEL_USERS                                                                     \
    (C(LITMUS) | C(CHECK) | C(CLASSIFY) | C(MUTATE) | C(REGRESS) | C(EXPORT) | C(GEN) | \
     C(REPORT) | C(STORE_CHECK) | STORE_READERS)
#define BIG 4000000000LL
#define HUGE (1LL << 62)
#define ANY LLONG_MAX

#define FLAG(n, s, c, cm, h)                                                \
    {                                                                       \
        n, s, c, CLI_ARG_FLAG, 0, 0, NULL, NULL, CLI_COMP_NONE, NULL, cm, h \
    }
#define INT(n, s, c, lo, hi, m, cm, h)                                    \
    {                                                                     \
        n, s, c, CLI_ARG_INT, lo, hi, m, NULL, CLI_COMP_NONE, NULL, cm, h \
    }
#define STR(n, s, c, m, comp, cm, h)                              \
    {                                                             \
        n, s, c, CLI_ARG_STRING, 0, 0, m, NULL, comp, NULL, cm, h \
    }
#define WORDS(n, s, c, m, w, cm, h)                                       \
    {                                                                     \
        n, s, c, CLI_ARG_STRING, 0, 0, m, NULL, CLI_COMP_VALUES, w, cm, h \
    }
#define PATH(n, s, c, m, comp, cm, h)                           \
    {                                                           \
        n, s, c, CLI_ARG_PATH, 0, 0, m, NULL, comp, NULL, cm, h \
    }
#define ENUM(n, s, c, v, cm, h)                                         \
    {                                                                   \
        n, s, c, CLI_ARG_ENUM, 0, 0, v, v, CLI_COMP_VALUES, NULL, cm, h \
    }
#define SIZE(n, s, c, cm, h)                                                  \
    {                                                                         \
        n, s, c, CLI_ARG_SIZE, 0, 0, "SIZE", NULL, CLI_COMP_NONE, NULL, cm, h \
    }

const cli_opt_t cli_opts[] = {
    /* ---- What to check: protocol, model, tests. */
    PATH("protocol", 0, 'p', "P", CLI_COMP_PROTOCOL,
         C(CHECK) | C(MUTATE) | C(CLASSIFY) | C(EXPORT) | C(SIM),
         "the protocol: a name in ./protocols ($COHCHECK_PROTOCOLS) or a .proto file "
         "(required)"),
    STR("model", 'm', 'm', "M", CLI_COMP_MODEL, C(LITMUS),
        "a model name (sc rcsc rcpc drf hrf-direct hrf-indirect, or any NAME.cat in ./models "
        "or $COHCHECK_MODELS) or a .cat file; repeatable; default: the six models above"),
    STR("model", 0, 'm', "M", CLI_COMP_MODEL, C(CHECK) | C(MUTATE) | C(EXPORT),
        "memory model: every terminal outcome must be one M allows (default: the protocol's "
        "target model)"),
    STR("model", 0, 'm', "M", CLI_COMP_MODEL, C(REGRESS),
        "a model (repeatable, at most 8; default: NEW's target)"),
    PATH("lattice", 0, 'L', "FILE", CLI_COMP_FILE, C(CLASSIFY),
         "the lattice (default: models/lattice beside the models)"),
    PATH("workload", 0, 'w', "W", CLI_COMP_WORKLOAD, C(SIM),
         "a name in ./litmus/workloads ($COHCHECK_WORKLOADS) or a .litmus file (any litmus "
         "test runs; required)"),
    PATH("machine", 0, 'M', "M", CLI_COMP_MACHINE, C(SIM),
         "a name in ./protocols/machines ($COHCHECK_MACHINES) or a .machine file (default: "
         "heterosync)"),
    STR("filter", 0, 'f', "REGEX", CLI_COMP_NONE, C(LITMUS),
        "only tests whose name matches (PCRE2)"),
    FLAG("murphi", 0, 'R', C(EXPORT), "the output language (the only one so far; required)"),

    /* ---- The system: compute units, initial state, environment, capacity, parameters. */
    INT("cus", 0, 'c', 1, 16, "N", C(CHECK), "compute units (default: as many as the test uses)"),
    INT("cus", 0, 'c', 1, 15, "N", C(MUTATE) | C(REGRESS) | C(CLASSIFY) | C(EXPORT),
        "compute units (default: as many as the test uses)"),
    INT("cus", 0, 'c', 1, 128, "N", C(SIM),
        "compute units; a workload declaring parameter CUS gets N (default: the "
        "machine's); any other workload gets the CUs its threads are placed on (default) or N"),
    WORDS("cus", 0, 'c', "LIST", "1,2,4 1,2,4,8,15", C(REPORT_TIMED),
          "CU counts of the scaling sweeps, each 1..128 (default 1,2,4,8,15; --quick 1,2,4)"),
    ENUM("init", 0, 'i', "cold|warm", SETTINGS,
         "warm: every L1 line may start valid with its initial value (default cold)"),
    WORDS("env", 0, 'e', "LIST", "fetch evict writeback all fetch,evict", SETTINGS,
          "environment actions caches may take at any time: fetch, evict, writeback, or any "
          "other environment event the protocol declares (e.g. l2evict); all: every one "
          "(comma-separated; default none)"),
    INT("lines", 0, 'l', 1, 64, "N", SETTINGS,
        "L1 capacity: at most N lines of an L1 outside their initial state; a fill into a "
        "full L1 waits for an eviction (--env evict)"),
    STR("param", 0, 'P', "NAME=VALUE", CLI_COMP_NONE,
        C(CHECK) | C(MUTATE) | C(CLASSIFY) | C(EXPORT),
        "override a protocol or workload parameter (repeatable; unset workload parameters "
        "keep their small default E of `param N = E timed T`; `cohcheck sim` takes T)"),
    STR("param", 0, 'P', "NAME=VALUE", CLI_COMP_NONE, C(LITMUS),
        "set a workload parameter (repeatable; docs/litmus.md)"),
    STR("param", 0, 'P', "NAME=VALUE", CLI_COMP_NONE, C(SIM),
        "override a protocol parameter (a lease, in cycles) or a workload parameter "
        "(repeatable). An unset workload parameter takes its timed default (`param N = E "
        "timed T`: the paper's scale, e.g. seed 002 Table I's TBS=4 ITERS=100 LDST=10); "
        "`cohcheck check` uses the tiny default E"),
    ENUM("time", 0, 'T', "abstract|raw", C(CHECK),
         "timestamps (type time): abstract (default) normalizes them so the space is finite "
         "(docs/time-abstraction.md); raw keeps the integers (with a clock, bound it with "
         "--max-depth)"),

    /* ---- The search. */
    INT("max-states", 0, 'S', 1, BIG, "N", C(CHECK) | C(RESUME), "stop after N states (exit 3)"),
    INT("max-states", 0, 'S', 1, BIG, "N", C(MUTATE),
        "per exploration (default 200000); a bounded one kills nothing"),
    INT("max-states", 0, 'S', 1, BIG, "N", C(REGRESS),
        "per exploration (default 2000000; bounded runs are 'incomplete')"),
    INT("max-states", 0, 'S', 1, BIG, "N", C(CLASSIFY),
        "per exploration (default none); a test stopped by it is incomplete: it fails models "
        "by the outcomes it reached, and keeps every other model from passing"),
    INT("max-states", 0, 'S', 1, BIG, "N", C(REPORT),
        "per check (default 2000000): larger ones are 'incomplete'"),
    SIZE("max-memory", 0, 'M', C(CHECK),
         "stop when the state store exceeds SIZE (e.g. 512M, 2G; exit 3)"),
    SIZE("max-memory", 0, 'M', C(MUTATE),
         "per exploration (default none; -j N runs N at once): one that exceeds SIZE stops "
         "and, as with --max-states, kills nothing"),
    INT("max-time", 0, CLI_O_MAX_TIME, 1, BIG, "SECONDS", C(CHECK),
        "stop a test's search after SECONDS of wall-clock time: incomplete (exit 3), with "
        "the states it explored"),
    INT("max-depth", 0, 'X', 1, 1000000000LL, "N", C(CHECK),
        "check states N steps deep but expand none of them; if any has a successor, the "
        "verdict is incomplete (exit 3)"),
    SIZE("queue-memory", 0, CLI_O_QUEUE_MEMORY, C(CHECK),
         "keep at most about SIZE of the BFS queue in RAM; the rest goes to a temporary file "
         "in $TMPDIR (also done past 3/4 of --max-memory; a disk error stops the search: exit "
         "3)"),
    {"fingerprint", 0, CLI_O_FINGERPRINT, CLI_ARG_ENUM, 0, 0, "BITS", "64|96|128", CLI_COMP_VALUES,
     NULL, C(CHECK),
     "64 (default), 96 or 128 bits per visited state: collisions may hide a state with "
     "probability <= states^2 / 2^(BITS+1)"},
    INT("jobs", 'j', 'j', 1, 64, "N", C(CHECK),
        "check N tests at once (one explorer each; output in order)"),
    INT(NULL, 'j', 'j', 1, 64, "N", C(MUTATE), "mutants checked at once (default 2)"),
    INT("threads", 0, 'T', 1, 64, "N", C(MUTATE),
        "the old spelling of -j N (still works, with a deprecation line)"),
    INT("jobs", 'j', 'j', 1, 64, "N", C(REPORT), "tests checked at once (default 2)"),
    INT("jobs", 'j', 'j', 1, 64, "N", C(REPORT_TIMED), "simulations run at once (default 2)"),
    INT("threads", 0, 'R', 1, 256, "N", C(CHECK),
        "explore each test with N threads (BFS; same counts, numbering and verdicts as one "
        "thread; default 1)"),
    FLAG("bfs", 0, 'b', C(CHECK), "breadth-first search (the default: shortest counterexamples)"),
    FLAG("dfs", 0, 'd', C(CHECK), "depth-first search"),
    FLAG("por", 0, CLI_OPT_POR, C(CHECK) | C(CLASSIFY) | C(REGRESS),
         "partial-order reduction (docs/por.md; the default): expand a stubborn set of each "
         "state's steps and reset values no step will read; same outcomes and verdicts"),
    FLAG("no-por", 0, CLI_OPT_NO_POR, C(CHECK) | C(CLASSIFY) | C(REGRESS),
         "no partial-order reduction: the full graph's counts"),
    FLAG("symmetry", 0, CLI_OPT_SYM, C(CHECK),
         "symmetry reduction (docs/por.md, \"Symmetry\"; the default), where the analysis "
         "proves it sound: store one state per orbit under permutations of interchangeable "
         "compute units; every outcome's orbit is reported, traces stay real executions; "
         "--threads N and --mpi give the serial counts (not with --liveness)"),
    FLAG("no-symmetry", 0, CLI_OPT_NO_SYM, C(CHECK),
         "no symmetry reduction: every state of each orbit is stored (the full graph's "
         "counts, as export --murphi's model has them)"),
    FLAG("symmetry", 0, CLI_OPT_SYM, C(CLASSIFY) | C(REGRESS),
         "symmetry reduction in every search (check --symmetry; the default), where the "
         "analysis proves it sound: the same outcome sets and verdicts, fewer states"),
    FLAG("no-symmetry", 0, CLI_OPT_NO_SYM, C(CLASSIFY) | C(REGRESS),
         "no symmetry reduction: the full graph's state counts"),
    FLAG("liveness", 0, 'L', C(CHECK),
         "also check that every reachable state can still reach the end of the test by the "
         "system's own steps (AG EF done): else 'livelock' with a lasso, a path and a cycle "
         "that never finishes (docs/liveness.md); the full graph (no --por); one thread, not "
         "with --mpi"),
    FLAG("por", 0, CLI_OPT_POR, C(MUTATE),
         "partial-order reduction in every search (docs/por.md), where the protocol allows it "
         "and not with --liveness: the same kills and outcomes, fewer states per --max-states; "
         "row coverage is the reduced graph's (default: off, the full graph)"),
    FLAG("no-por", 0, CLI_OPT_NO_POR, C(MUTATE), "no partial-order reduction (the default)"),
    FLAG("liveness", 0, 'L', C(MUTATE),
         "also check liveness (check --liveness, weak fairness): a mutant that livelocks or "
         "starves a thread is killed"),
    FLAG("liveness", 0, 'L', C(REGRESS),
         "also check liveness (check --liveness, weak fairness): a livelock or starvation is "
         "a verdict that got worse"),
    FLAG("liveness", 0, CLI_O_LIVENESS, C(CLASSIFY),
         "also check liveness on every test (check --liveness, weak fairness; the full graph): "
         "a livelock or a starving thread fails every model, as a deadlock does, with its lasso "
         "as the separating trace"),
    FLAG("liveness", 0, 'L', C(EXPORT),
         "add a Rumur liveness property (AG EF): a terminal state stays reachable (check "
         "--liveness; every rule, environment events included, counts as progress in Rumur)"),
    ENUM("fairness", 0, CLI_O_FAIRNESS, "weak|strong|none", C(CHECK),
         "with --liveness, then look for a thread that waits forever on a cycle fair to every "
         "thread, channel, internal event and the clock ('starvation'; default weak; none: AG "
         "EF done only)"),
    STR("env-fair", 0, CLI_O_ENV_FAIR, "LIST", CLI_COMP_NONE, C(CHECK),
        "environment events --liveness may count on to happen (e.g. tick: RCC's periodic "
        "advance of logical time); enables them as --env does; others need not happen"),
    FLAG("mpi", 0, 'I', C(CHECK),
         "distributed search: run as mpirun -np N cohcheck check --mpi ...; the N ranks split "
         "the states and give one process's counts, verdict and trace; rank 0 prints (BFS "
         "only; not with -j, --dfs or --db: the store is off; docs/distributed.md); --por "
         "applies where no cycle proviso is needed (no loops); else the ranks explore the full "
         "graph"),
    INT("unroll", 0, 'u', 0, 1000, "N",
        C(LITMUS) | C(CHECK) | C(MUTATE) | C(REGRESS) | C(CLASSIFY) | C(EXPORT),
        "take each backward branch at most N times when computing a model's allowed outcomes "
        "(default 2); longer executions are cut off and the output says so"),
    INT("max-candidates", 0, 'c', 1, 1000000000000000LL, "N", C(LITMUS),
        "stop a test after N candidate executions (exit 3)"),
    INT("seed", 0, 's', 0, ANY, "S", C(SIM),
        "seed of the PRNG that orders events of one cycle (default 1); the same seed gives the "
        "same run, to the cycle"),
    INT("seed", 0, 's', 0, HUGE, "S", C(REPORT_TIMED), "the first simulator seed (default 1)"),
    INT("seeds", 0, 'n', 1, 64, "N", C(REPORT_TIMED),
        "seeds per run, S..S+N-1 (default 5): tables show the mean and its 95% confidence "
        "interval; the same seeds give the same tables"),
    INT("max-cycles", 0, 'C', 0, ANY, "N", C(SIM), "stop (exit 3) past cycle N"),
    INT("max-events", 0, 'E', 0, ANY, "N", C(SIM), "stop (exit 3) after N events"),
    INT("max-events", 0, 'E', 1, HUGE, "N", C(REPORT_TIMED),
        "per run (default 50000000, --quick 2000000): a longer run is reported as a limit"),
    INT("max-idle", 0, 'I', 0, ANY, "N", C(SIM),
        "cycles without any row firing before a deadlock is declared (default 1000000)"),
    FLAG("quick", 0, 'q', C(REPORT_TIMED),
         "a small sweep (fewer iterations, CUs and sweep points) for tests"),
    WORDS("only", 0, 'O', "ID",
          "hs-mutex-local hs-mutex-global hs-semaphore hs-barrier hs-relaxed fermi "
          "tcw-lifetime hlrc-steal hlrc-cus hlrc-pannotia qr-apsp census",
          C(REPORT_TIMED), "run only figure ID (repeatable; the claims that need others say so)"),

    /* ---- mutate, gen, report: what to generate or run. */
    STR("stronger", 0, 's', "LIST", CLI_COMP_NONE, C(MUTATE),
        "settings for survivors, comma-separated, each 'warm' or 'cold' with environment "
        "actions and 'cusN' (N compute units) joined by '+' (default warm,warm+all,warm+cus4); "
        "'none' for no second round"),
    FLAG("all", 0, 'a', C(MUTATE), "list every mutant, not only those not killed"),
    STR("only", 0, 'O', "LIST", CLI_COMP_NONE, C(MUTATE),
        "check only the mutants with these numbers (as listed by an earlier run on the same "
        "table): '3,7,10-12'"),
    FLAG("all", 0, 'a', C(REGRESS), "print unchanged tests too"),
    INT("edges", 0, 'e', 3, 8, "N", C(GEN), "longest cycle, 3 to 8 (default 6)"),
    INT("procs", 0, 'p', 2, 4, "N", C(GEN),
        "most litmus threads (processes) per test, 2 to 4 (default 4)"),
    INT("threads", 0, 't', 2, 4, "N", C(GEN),
        "the old spelling of --procs N (still works, with a warning: elsewhere --threads is "
        "the threads of one search)"),
    WORDS("annot", 0, 'a', "LIST", "plain rlx relacq ra sc fences", C(GEN),
          "families, comma-separated (default all): plain (data accesses), rlx, relacq "
          "(release on a thread's last write, acquire on its first read: MP+rel+acq), ra "
          "(every write release, every read acquire), sc, fences (relaxed accesses, an acq_rel "
          "fence between)"),
    FLAG("wg", 0, 'w', C(GEN), "also each annotated test at work-group scope (+wg)"),
    FLAG("samewg", 0, 's', C(GEN), "also each test with every thread in one work-group (+samewg)"),
    FLAG("expect", 0, 'E', C(GEN), "append an (* expect *) block: each test under the six models"),
    FLAG("list", 0, 'l', C(GEN), "print the tests' names and cycles instead of writing files"),
    PATH("out", 'o', 'o', "DIR", CLI_COMP_DIR, C(GEN),
         "write DIR/NAME.litmus (DIR is created when missing)"),
    PATH("out", 0, 'o', "DIR", CLI_COMP_DIR, C(REPORT),
         "where to write (default cohcheck-report; created if missing)"),
    PATH("out", 0, 'o', "DIR", CLI_COMP_DIR, C(REPORT_TIMED), "where to write (default reports)"),
    PATH("claims", 0, 'C', "DIR", CLI_COMP_DIR, C(REPORT_TIMED),
         "the *.claims files to evaluate (default reports/claims)"),
    STR("protocols", 0, 'P', "LIST", CLI_COMP_NONE, C(REPORT),
        "comma-separated protocol names or .proto files (default: every protocol in "
        "$COHCHECK_PROTOCOLS, else ./protocols)"),
    PATH("suite", 0, 's', "PATH", CLI_COMP_FILE, C(REPORT),
         "a litmus file or folder (repeatable; default litmus/core)"),
    ENUM("models", 0, 'm', "target|all", C(REPORT),
         "the protocol's target model (default) or all six models"),
    STR("settings", 0, 'T', "LIST", CLI_COMP_NONE, C(REPORT),
        "comma-separated check settings, each 'cold' or 'warm' and environment actions joined "
        "by '+' (warm+evict, cold+fetch); one matrix row per protocol, model and setting "
        "(default cold,warm)"),
    FLAG("bench", 0, 'b', C(REPORT), "also run the protocol benchmark rows (minutes)"),

    /* ---- litmus. */
    FLAG("expect", 0, 'E', C(LITMUS),
         "compare with each test's (* expect ... *) block; exit 1 on any mismatch; without "
         "--model, checks the models it lists"),
    FLAG("quiet", 0, 'q', C(LITMUS), "print only the summary line (and --expect mismatches)"),
    PATH("show", 0, 'S', "DIR", CLI_COMP_DIR, C(LITMUS),
         "also write herd7-style graphs of the allowed executions that satisfy the condition "
         "to DIR/TEST.MODEL.dot (at most 4 drawn per file): po, rf, co, fr, rmw and sw edges "
         "(DIR is created when missing)"),
    PATH("to-herd", 0, 'H', "DIR", CLI_COMP_DIR, C(LITMUS),
         "write each test in herd7's C dialect to DIR/NAME.litmus instead of evaluating it "
         "(DIR is created when missing); tests with no C form (loops, rm_agent, and scopes or "
         "work-groups: herd7 reads no OpenCL) are listed and skipped"),
    FLAG("opencl", 0, 'O', C(LITMUS),
         "with --to-herd: write scoped tests too, in the OpenCL dialect (cohcheck reads it; "
         "herd7 7.58 does not)"),

    /* ---- Models: herd7's library for a model's includes. cli_getopt takes it itself
     * (passed on as $COHCHECK_CAT_LIBDIR, which cli_load_model reads), so a subcommand
     * has no case for it. */
    PATH("cat-libdir", 0, CLI_O_CAT_LIBDIR, "DIR", CLI_COMP_DIR, MODEL_USERS,
         "a herd7 model library (e.g. herdtools7's share/herdtools7/herd) where a model's "
         "'include' not found beside it is looked up; overrides $COHCHECK_CAT_LIBDIR and "
         "$HERDLIB"),

    /* ---- The store. */
    FLAG("trace", 0, 't', C(CHECK), "also print the full state where each failure happens"),
    PATH("db", 0, 'D', "PATH", CLI_COMP_FILE, C(CHECK),
         "record runs, states, outcomes and traces (default cohcheck.db)"),
    FLAG("no-db", 0, 'N', C(CHECK), "record nothing"),
    PATH("db", 0, 'D', "PATH", CLI_COMP_FILE, STORE_READERS, "the store (default cohcheck.db)"),
    FLAG("no-replay", 0, CLI_O_NO_REPLAY, C(STORE_CHECK),
         "skip replaying the stored steps (fast on big stores)"),
    FLAG("quiet", 0, 'q', C(STORE_CHECK),
         "no line for a consistent run: only the problems and the closing line"),

    /* ---- count. */
    FLAG("resolved", 0, CLI_O_RESOLVED, C(COUNT),
         "print the whole resolved protocol instead: a variant ('extends') with its bases "
         "applied, as one standalone file (one row per state list and event, in the order "
         "they are tried)"),
    FLAG("readings", 0, CLI_O_READINGS, C(COUNT),
         "list the protocol's readings instead: each row, network, param or map marked "
         "'reading \"SECTION\": \"TEXT\"', where the tables interpret or depart from their "
         "paper, as FILE:LINE of the marked item, the item, the section and the reading "
         "(unmarked items are transcribed as written; a variant's list has its bases' "
         "readings it did not replace)"),

    /* ---- draw, export: the file written. */
    PATH("output", 'o', 'o', "FILE", CLI_COMP_FILE, C(DRAW),
         ".dot (Graphviz text), .svg or .png (needs Graphviz's dot; FILE's folder is created "
         "when missing); '-' writes the .dot text to standard output"),
    STR("controller", 0, 'C', "C", CLI_COMP_NONE, C(DRAW), "draw only controller C"),
    FLAG("stalls", 0, 'S', C(DRAW), "draw stall rows too (dotted)"),
    INT("width", 0, 'W', 8, 1000, "N", C(DRAW),
        "wrap edge labels after about N characters (default 48)"),
    STR("trace", 0, 'T', "RUN", CLI_COMP_NONE, C(DRAW),
        "draw stored run RUN instead of a protocol"),
    PATH("output", 'o', 'o', "FILE", CLI_COMP_FILE, C(EXPORT),
         "the model to write ('-': standard output; its folder is created when missing)"),
    FLAG("no-outcomes", 0, 'n', C(EXPORT),
         "check no outcome (Rumur then explores every state even where check stops at a "
         "forbidden outcome)"),

    /* ---- Output. */
    FLAG("json", 0, 'J', C(CHECK), "one JSON object per test"),
    FLAG("json", 0, 'J', C(LITMUS), "one JSON object per test and model on stdout"),
    FLAG("json", 0, 'J', C(MUTATE), "one object per mutant, then a summary object"),
    FLAG("json", 0, 'J', C(REGRESS), "one object per test and model"),
    FLAG("json", 0, 'J', C(CLASSIFY),
         "one JSON object: protocol, passes, fails, undecided, strongest, "
         "strongest_on_complete, separating (model, below, test, depth, steps, outcome, "
         "trace), failures (every failed model's shallowest failing test), tests, skipped, "
         "incomplete"),
    FLAG("json", 0, 'J', C(DRAW) | C(EXPORT),
         "print what was written as one object (the file, and what it holds); not with -o -"),
    FLAG("json", 0, 'J', C(GEN),
         "one object per test ({\"test\", \"cycle\", \"file\"}), then {\"tests\", \"out\"}"),
    FLAG("json", 0, 'J', C(REPORT), "print the summary as one object instead of a line"),
    FLAG("json", 0, 'J', C(REPORT_TIMED),
         "print the summary as one object instead of a line: out, file, simulations, runs, "
         "seeds, correct, failed, plots, time_s (docs/report-timed.md)"),
    ENUM("memory", 0, 'D', "machine|dram|fixed", C(SIM),
         "machine: memory events as the machine file times them (default); dram: every line "
         "event it times ('event NAME CYCLES') served by its 'dram' model; fixed: every 'event "
         "NAME dram' at the model's idle row-hit latency instead"),
    ENUM("predict", 0, CLI_O_PREDICT, "on|off", C(SIM),
         "on: run the protocol's predictors ('predict' in its controllers: tcw's lifetime, "
         "rcc's lease; docs/sim.md \"Predictors\"); off: every predicted param keeps its "
         "fixed value, as in the explorer (default)"),
    FLAG("json", 0, 'J', C(SIM), "one JSON object (fields in docs/sim.md, plus latency)"),
    FLAG("json", 0, 'J', C(COUNT), "one JSON object per protocol"),
    FLAG("json", 0, 'J', C(SHOW) | C(TRACE) | C(RESUME) | C(DIFF) | C(STORE_CHECK),
         "one JSON object per line on stdout (fields in docs/architecture.md section 3)"),
    FLAG("csv", 0, 'v', C(SIM), "a CSV header line and one row"),
    FLAG("row", 0, 'R', C(CLASSIFY), "one Markdown row for the README's protocol table"),
    PATH("junit", 0, 'U', "FILE", CLI_COMP_FILE, C(LITMUS),
         "also write a JUnit XML report (one test case per test and model; --expect "
         "mismatches are failures; its folder is created when missing)"),
    PATH("junit", 0, 'U', "FILE", CLI_COMP_FILE, C(CHECK),
         "also write a JUnit XML report (one test case per test; its folder is created when "
         "missing; the path is checked before the run)"),
    PATH("junit", 0, 'U', "FILE", CLI_COMP_FILE, C(MUTATE),
         "also write a JUnit XML report: a survivor is a failure, equivalent and invalid "
         "mutants are skipped"),
    PATH("junit", 0, 'U', "FILE", CLI_COMP_FILE, C(REGRESS),
         "also write a JUnit XML report (a verdict that got worse fails)"),
    FLAG("annotate", 0, 'A', C(LITMUS),
         "print GitHub annotations (::error file=...) for mismatches"),
    FLAG("annotate", 0, 'A', C(CHECK),
         "also print GitHub annotations (::error file=...) for failures"),
    FLAG("annotate", 0, 'A', C(MUTATE),
         "print GitHub annotations (::warning) at each survivor's row"),
    FLAG("annotate", 0, 'A', C(REGRESS),
         "print GitHub annotations (::error) for verdicts that got worse"),
    FLAG("help", 'h', 'h', ALL_CMDS, "this help"),
};
const int cli_nopts = (int)(sizeof cli_opts / sizeof cli_opts[0]);

const cli_opt_t *cli_opt_find(cli_cmd_t cmd, int code)
{
    for (int i = 0; i < cli_nopts; i++)
        if ((cli_opts[i].cmds & CLI_CMDS(cmd)) && cli_opts[i].code == code)
            return &cli_opts[i];
    return NULL;
}

/* ---- Parsing. */

int cli_parse_size(const char *s, uint64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v <= 0)
        return -1;
    uint64_t m = 1;
    if (*end == 'K' || *end == 'k')
        m = 1ULL << 10;
    else if (*end == 'M' || *end == 'm')
        m = 1ULL << 20;
    else if (*end == 'G' || *end == 'g')
        m = 1ULL << 30;
    else if (*end)
        return -1;
    if (*end && end[1])
        return -1;
    *out = (uint64_t)(v * (double)m);
    return 0;
}

void cli_getopt_init(cli_getopt_t *g, cli_cmd_t cmd)
{
    memset(g, 0, sizeof *g);
    g->cmd = cmd;
}

static void build(cli_getopt_t *g)
{
    int n = 0;
    struct option *lo = g->lo;
    char *s = g->shortopts;
    *s++ = ':';
    for (int i = 0; i < cli_nopts; i++) {
        const cli_opt_t *o = &cli_opts[i];
        if (!(o->cmds & CLI_CMDS(g->cmd)))
            continue;
        int has = o->arg == CLI_ARG_FLAG ? no_argument : required_argument;
        if (o->name && n < 63)
            lo[n++] = (struct option){o->name, has, 0, o->code};
        if (o->shrt) {
            *s++ = o->shrt;
            if (has)
                *s++ = ':';
        }
    }
    *s = 0;
    lo[n] = (struct option){0, 0, 0, 0};
    g->started = true;
}

/* "--lines", or "-j" when given by its short name (SHORT). */
static const char *spelling(const cli_opt_t *o, bool shrt, char *buf, size_t len)
{
    if (o->name && !shrt)
        snprintf(buf, len, "--%s", o->name);
    else
        snprintf(buf, len, "-%c", o->shrt);
    return buf;
}

static bool enum_has(const char *values, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = values; *p;) {
        size_t k = strcspn(p, "|");
        if (k == n && !strncmp(p, v, n) && n)
            return true;
        p += k + (p[k] == '|');
    }
    return false;
}

/* "a, b or c" from "a|b|c". */
static void enum_words(const char *values, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (const char *p = values; *p && o < len;) {
        size_t k = strcspn(p, "|");
        const char *next = p + k + (p[k] == '|');
        const char *sep = p == values ? "" : *next ? ", " : " or ";
        o += (size_t)snprintf(buf + o, len - o, "%s%.*s", sep, (int)k, p);
        p = next;
    }
}

static int validate(cli_getopt_t *g, const cli_opt_t *o, bool shrt, const char *v)
{
    char sp[64], words[160];
    const char *cmd = cli_cmd_names[g->cmd];
    spelling(o, shrt, sp, sizeof sp);
    switch (o->arg) {
    case CLI_ARG_INT: {
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || errno || x < o->min || x > o->max) {
            cli_error("%s: %s needs a whole number from %lld to %lld, not '%s'", cmd, sp, o->min,
                      o->max, v);
            return -1;
        }
        g->num = x;
        return 0;
    }
    case CLI_ARG_SIZE:
        if (cli_parse_size(v, &g->size)) {
            cli_error("%s: %s takes a size such as 512M or 2G, not '%s'", cmd, sp, v);
            return -1;
        }
        return 0;
    case CLI_ARG_ENUM:
        if (!enum_has(o->values, v)) {
            enum_words(o->values, words, sizeof words);
            cli_error("%s: %s takes %s, not '%s'", cmd, sp, words, v);
            return -1;
        }
        return 0;
    case CLI_ARG_PATH:
        if (!*v) {
            cli_error("%s: %s needs a path, not ''", cmd, sp);
            return -1;
        }
        return 0;
    default: return 0;
    }
}

/* --cat-libdir DIR: checked to be a folder and passed on as $COHCHECK_CAT_LIBDIR (read
 * by cli_load_model, here and in the runs a command starts); then the next option. */
static int take_cat_libdir(cli_getopt_t *g, int argc, char **argv)
{
    struct stat st;
    if (stat(optarg, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cli_error("%s: --cat-libdir %s: not a folder", cli_cmd_names[g->cmd], optarg);
        return CLI_GETOPT_BAD;
    }
    if (setenv("COHCHECK_CAT_LIBDIR", optarg, 1) != 0) {
        cli_error("%s: --cat-libdir %s: cannot set COHCHECK_CAT_LIBDIR", cli_cmd_names[g->cmd],
                  optarg);
        return CLI_GETOPT_BAD;
    }
    return cli_getopt(g, argc, argv);
}

int cli_getopt(cli_getopt_t *g, int argc, char **argv)
{
    if (!g->started) {
        build(g);
        opterr = 0;
        optind = 1;
    }
    int li = -1;
    int ch = getopt_long(argc, argv, g->shortopts, g->lo, &li);
    if (ch == -1)
        return -1;
    const cli_opt_t *o = ch == '?' || ch == ':' ? NULL : cli_opt_find(g->cmd, ch);
    if (!o) {
        cli_error("%s: unknown option or missing value '%s' (see --help)", cli_cmd_names[g->cmd],
                  argv[optind - 1]);
        return CLI_GETOPT_BAD;
    }
    if (o->arg != CLI_ARG_FLAG && validate(g, o, li < 0, optarg))
        return CLI_GETOPT_BAD;
    if (ch == CLI_O_CAT_LIBDIR)
        return take_cat_libdir(g, argc, argv);
    return ch;
}

/* ---- --help. */

/* The left column: "-j N, --jobs N", "--init cold|warm", "-h, --help". */
static void left_col(const cli_opt_t *o, char *buf, size_t len)
{
    const char *m = o->arg == CLI_ARG_FLAG ? "" : o->meta;
    const char *sp = *m ? " " : "";
    if (o->shrt && o->name)
        snprintf(buf, len, "-%c, --%s%s%s", o->shrt, o->name, sp, m);
    else if (o->shrt)
        snprintf(buf, len, "-%c%s%s", o->shrt, sp, m);
    else
        snprintf(buf, len, "--%s%s%s", o->name, sp, m);
}

/* Print TEXT from column COL (the cursor is at AT), wrapped before column 88. */
static void wrap(FILE *f, const char *text, int col, int at)
{
    const char *p = text;
    bool first = true;
    while (*p) {
        int room = 88 - col;
        size_t n = strlen(p);
        if ((int)n > room) {
            n = (size_t)room;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = strcspn(p, " ");
        }
        fprintf(f, "%*s%.*s\n", first ? col - at : col, "", (int)n, p);
        first = false;
        p += n;
        while (*p == ' ')
            p++;
    }
}

void cli_opts_help(FILE *f, cli_cmd_t cmd)
{
    for (int i = 0; i < cli_nopts; i++) {
        const cli_opt_t *o = &cli_opts[i];
        if (!(o->cmds & CLI_CMDS(cmd)))
            continue;
        char left[96];
        left_col(o, left, sizeof left);
        int at = fprintf(f, "  %s", left);
        if (at > 21) {
            fputc('\n', f);
            at = 0;
        }
        wrap(f, o->help, 22, at);
    }
}

void cli_usage(FILE *f, cli_cmd_t cmd, const char *head, const char *tail)
{
    if (head)
        fputs(head, f);
    cli_opts_help(f, cmd);
    if (tail)
        fputs(tail, f);
}

/* ---- The man page's OPTIONS section. */

static void roff(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '-')
            fputs("\\-", f);
        else if (*s == '\\')
            fputs("\\e", f);
        else
            fputc(*s, f);
    }
}

static int by_name(const void *a, const void *b)
{
    const cli_opt_t *x = &cli_opts[*(const int *)a], *y = &cli_opts[*(const int *)b];
    char kx[64], ky[64];
    snprintf(kx, sizeof kx, "%s", x->name ? x->name : (char[]){x->shrt, 0});
    snprintf(ky, sizeof ky, "%s", y->name ? y->name : (char[]){y->shrt, 0});
    int c = strcmp(kx, ky);
    return c ? c : *(const int *)a - *(const int *)b;
}

void cli_opts_man(FILE *f)
{
    int *ix = xmalloc((size_t)cli_nopts * sizeof *ix);
    for (int i = 0; i < cli_nopts; i++)
        ix[i] = i;
    qsort(ix, (size_t)cli_nopts, sizeof *ix, by_name);
    fputs(".\\\" Generated from the option table (checker/cli/opts.c) by `make docs`:\n"
          ".\\\" edit the table, not this section.\n"
          ".SH OPTIONS\n"
          "Every option, with the commands that take it (each command's\n"
          ".B \\-\\-help\n"
          "lists its own). A bad value is one error line and exit status 2.\n",
          f);
    for (int k = 0; k < cli_nopts; k++) {
        const cli_opt_t *o = &cli_opts[ix[k]];
        char left[96];
        left_col(o, left, sizeof left);
        fputs(".TP\n", f);
        if (o->arg == CLI_ARG_FLAG) {
            fputs(".B ", f);
            roff(f, left);
        } else {
            /* The spelling in bold, the value's name in italics. */
            size_t n = strlen(left) - strlen(o->meta);
            fputs(".BI ", f);
            char *spell = xstrndup(left, n - 1);
            bool q = strchr(spell, ' ') != NULL;
            fputs(q ? "\"" : "", f);
            roff(f, spell);
            fputs(q ? "\"" : "", f);
            free(spell);
            fputs(" \" ", f);
            roff(f, o->meta);
            fputc('"', f);
        }
        fputs(o->help[0] == '.' || o->help[0] == '\'' ? "\n\\&" : "\n", f);
        roff(f, o->help);
        if (o->arg == CLI_ARG_INT && o->max < (1LL << 62))
            fprintf(f, "; %s: %lld to %lld", o->meta, o->min, o->max);
        fputs(".\n(", f);
        bool first = true;
        for (int c = 0; c < CLI_CMD__N; c++)
            if (o->cmds & CLI_CMDS(c)) {
                fprintf(f, "%s%s", first ? "" : ", ", cli_cmd_names[c]);
                first = false;
            }
        fputs(")\n", f);
    }
    free(ix);
}

/* ---- bash completion. */

static const char *const comp_kind[] = {"none",  "file",     "dir",     "protocol",
                                        "model", "workload", "machine", "words"};

/* The words a command line may start with (`cohcheck --help`'s commands). */
static const char *const top_words =
    "litmus check count show trace resume diff store draw mutate gen regress report classify "
    "export sim";

static void comp_values(FILE *f, const cli_opt_t *o)
{
    fprintf(f, "_cohcheck_reply %s", comp_kind[o->comp]);
    if (o->comp == CLI_COMP_VALUES) {
        fputs(" \"", f);
        for (const char *p = o->arg == CLI_ARG_ENUM ? o->values : o->words; *p; p++)
            fputc(*p == '|' ? ' ' : *p, f);
        fputc('"', f);
    }
}

static void comp_command(FILE *f, cli_cmd_t c)
{
    fprintf(f, "    \"%s\")\n        case \"$prev\" in\n", cli_cmd_names[c]);
    for (int i = 0; i < cli_nopts; i++) {
        const cli_opt_t *o = &cli_opts[i];
        if (!(o->cmds & CLI_CMDS(c)) || o->arg == CLI_ARG_FLAG)
            continue;
        fputs("        ", f);
        if (o->shrt)
            fprintf(f, "-%c%s", o->shrt, o->name ? " | " : "");
        if (o->name)
            fprintf(f, "--%s", o->name);
        fputs(")\n            ", f);
        comp_values(f, o);
        fputs("\n            return ;;\n", f);
    }
    fputs("        esac\n        opts=\"", f);
    bool first = true;
    for (int i = 0; i < cli_nopts; i++) {
        const cli_opt_t *o = &cli_opts[i];
        if (!(o->cmds & CLI_CMDS(c)))
            continue;
        if (o->shrt) {
            fprintf(f, "%s-%c", first ? "" : " ", o->shrt);
            first = false;
        }
        if (o->name) {
            fprintf(f, "%s--%s", first ? "" : " ", o->name);
            first = false;
        }
    }
    fputs("\" ;;\n", f);
}

/* The completion script's header and its two shell helpers. */
static void comp_helpers(FILE *f)
{
    fputs("# bash completion for cohcheck: subcommands, their options, the values of enumerated\n"
          "# options, protocol, model, workload and machine names (from ./protocols, ./models,\n"
          "# ... and $COHCHECK_PROTOCOLS, $COHCHECK_MODELS, ..., and the installed share\n"
          "# folder), and files. Installed by `make install`.\n"
          "# Generated from the option table (checker/cli/opts.c) by `make docs`: edit the\n"
          "# table, not this file.\n"
          "\n"
          "_cohcheck_names() { # _cohcheck_names SUBDIR EXT ENVDIR: names of SUBDIR/*.EXT\n"
          "    local d f\n"
          "    for d in \"./$1\" \"$3\" \"$(dirname \"$(command -v cohcheck 2>/dev/null || echo "
          ".)\")/../share/cohcheck/$1\"; do\n"
          "        [ -n \"$d\" ] && [ -d \"$d\" ] || continue\n"
          "        for f in \"$d\"/*.\"$2\"; do\n"
          "            [ -e \"$f\" ] && basename \"$f\" \".$2\"\n"
          "        done\n"
          "    done | sort -u\n"
          "}\n"
          "\n"
          "_cohcheck_reply() { # _cohcheck_reply KIND [WORDS]: COMPREPLY for the current word\n"
          "    case \"$1\" in\n"
          "    file) compopt -o filenames 2>/dev/null\n"
          "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
          "    dir) compopt -o filenames 2>/dev/null\n"
          "        mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
          "    protocol) mapfile -t COMPREPLY < <(compgen -W \"$(_cohcheck_names protocols proto "
          "\"$COHCHECK_PROTOCOLS\")\" -- \"$cur\") ;;\n"
          "    model) mapfile -t COMPREPLY < <(compgen -W \"$(_cohcheck_names models cat "
          "\"$COHCHECK_MODELS\")\" -- \"$cur\") ;;\n"
          "    workload) mapfile -t COMPREPLY < <(compgen -W \"$(_cohcheck_names litmus/workloads "
          "litmus \"$COHCHECK_WORKLOADS\")\" -- \"$cur\") ;;\n"
          "    machine) mapfile -t COMPREPLY < <(compgen -W \"$(_cohcheck_names protocols/machines "
          "machine \"$COHCHECK_MACHINES\")\" -- \"$cur\") ;;\n"
          "    words) mapfile -t COMPREPLY < <(compgen -W \"$2\" -- \"$cur\") ;;\n"
          "    *) COMPREPLY=() ;;\n"
          "    esac\n"
          "}\n",
          f);
}

void cli_opts_completion(FILE *f)
{
    comp_helpers(f);
    fputs("\n"
          "_cohcheck() {\n"
          "    local cur prev cmd opts=\"\"\n"
          "    cur=${COMP_WORDS[COMP_CWORD]}\n"
          "    prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
          "    cmd=${COMP_WORDS[1]}\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n",
          f);
    fprintf(f, "        _cohcheck_reply words \"%s --help --version\"\n", top_words);
    fputs("        return\n"
          "    fi\n"
          "    case \"$cmd\" in # the subcommands of two words\n"
          "    store | report)\n"
          "        local sub=check\n"
          "        [ \"$cmd\" = report ] && sub=timed\n"
          "        if [ \"${COMP_WORDS[2]}\" = \"$sub\" ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
          "            cmd=\"$cmd $sub\"\n"
          "        elif [ \"$COMP_CWORD\" -eq 2 ] && [[ \"$cur\" != -* ]]; then\n"
          "            _cohcheck_reply words \"$sub\"\n"
          "            return\n"
          "        fi ;;\n"
          "    esac\n"
          "    case \"$cmd\" in\n",
          f);
    for (int c = 0; c < CLI_CMD__N; c++)
        comp_command(f, (cli_cmd_t)c);
    fputs("    *) return ;;\n"
          "    esac\n"
          "    if [[ \"$cur\" == -* ]]; then\n"
          "        _cohcheck_reply words \"$opts\"\n"
          "        return\n"
          "    fi\n"
          "    case \"$cmd\" in # operands\n"
          "    count | draw | regress) _cohcheck_reply protocol ;;\n"
          "    litmus | check | mutate | classify | export)\n"
          "        compopt -o filenames 2>/dev/null\n"
          "        mapfile -t COMPREPLY < <(compgen -f -X '!*.litmus' -- \"$cur\"; compgen -d -- "
          "\"$cur\") ;;\n"
          "    esac\n"
          "}\n"
          "complete -F _cohcheck cohcheck\n",
          f);
}

/* ---- `cohcheck _docs`: the maintainer's generator and the table's own check. */

/* 0 when no subcommand has two entries with one name, short name or code. */
static int lint(void)
{
    int bad = 0;
    for (int c = 0; c < CLI_CMD__N; c++)
        for (int i = 0; i < cli_nopts; i++)
            for (int j = i + 1; j < cli_nopts; j++) {
                const cli_opt_t *a = &cli_opts[i], *b = &cli_opts[j];
                if (!(a->cmds & b->cmds & CLI_CMDS(c)))
                    continue;
                if (a->code == b->code || (a->shrt && a->shrt == b->shrt) ||
                    (a->name && b->name && !strcmp(a->name, b->name))) {
                    cli_error("_docs: %s: options %d and %d clash", cli_cmd_names[c], i, j);
                    bad = 1;
                }
            }
    for (int i = 0; i < cli_nopts; i++)
        if (!cli_opts[i].help || !cli_opts[i].cmds || (!cli_opts[i].name && !cli_opts[i].shrt) ||
            (cli_opts[i].arg != CLI_ARG_FLAG && !cli_opts[i].meta)) {
            cli_error("_docs: option %d is incomplete", i);
            bad = 1;
        }
    return bad;
}

int cmd_docs(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "man")) {
        cli_opts_man(stdout);
        return CLI_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "completion")) {
        cli_opts_completion(stdout);
        return CLI_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "lint"))
        return lint() ? CLI_FAIL : CLI_OK;
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "options")) {
        /* The long and short spellings subcommand ARGV[2] (ARGV[3]) takes, one a line. */
        char name[64];
        snprintf(name, sizeof name, "%s%s%s", argv[2], argc == 4 ? " " : "",
                 argc == 4 ? argv[3] : "");
        for (int c = 0; c < CLI_CMD__N; c++) {
            if (strcmp(cli_cmd_names[c], name))
                continue;
            for (int i = 0; i < cli_nopts; i++) {
                const cli_opt_t *o = &cli_opts[i];
                if (!(o->cmds & CLI_CMDS(c)))
                    continue;
                if (o->shrt)
                    printf("-%c\n", o->shrt);
                if (o->name)
                    printf("--%s\n", o->name);
            }
            return CLI_OK;
        }
    }
    cli_error("_docs: give man, completion, lint, or options COMMAND (a maintainer's command: "
              "`make docs` writes the generated documentation)");
    return CLI_BAD_INPUT;
}
