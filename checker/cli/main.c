/* main.c - the cohcheck command: dispatches to subcommands. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../base/util.h"
#include "cli.h"

#define COHCHECK_VERSION "0.1.0"

static void usage(FILE *f)
{
    fputs("usage: cohcheck COMMAND [OPTIONS] ...\n"
          "\n"
          "Exhaustive checker and litmus-test engine for GPU cache-coherence protocols.\n"
          "\n"
          "commands:\n"
          "  litmus [--model M]... PATH...   which outcomes memory models allow (herd7-style)\n"
          "  check --protocol P PATH...      explore a protocol exhaustively on litmus tests\n"
          "  count PROTOCOL...               states and transitions per controller table\n"
          "  show [RUN]                      runs recorded in the store (cohcheck.db)\n"
          "  trace RUN [STATE]               the path to a run's failure or to any stored state\n"
          "  resume RUN                      finish a run stopped by a limit or SIGINT\n"
          "  diff RUN1 RUN2                  compare two runs' verdicts, outcomes and states\n"
          "  store check DB                  verify a store: integrity, counts, every stored\n"
          "                                  step replays\n"
          "  draw PROTOCOL -o FILE           state diagrams (.svg, .png, .dot); --trace RUN: a\n"
          "                                  stored trace as a message-sequence chart\n"
          "  mutate --protocol P PATH...     mutation testing: which mutants the tests kill\n"
          "  gen -o DIR                      generate litmus tests from critical cycles (diy)\n"
          "  regress OLD NEW PATH...         what a protocol change did: verdicts, outcomes\n"
          "  classify --protocol P PATH...   the strongest models of the lattice a protocol\n"
          "                                  passes, and the tests that separate it from the\n"
          "                                  next ones\n"
          "  report                          a report (verdicts, counts, diagrams,\n"
          "                                  counterexamples, index.html) from fresh runs,\n"
          "                                  into ./cohcheck-report\n"
          "  export --murphi --protocol P TEST -o FILE.m\n"
          "                                  the whole system as a Murphi model for Rumur\n"
          "  sim --protocol P --workload W   timed mode: the tables simulated in cycles\n"
          "\n"
          "Every command takes --help and --json (one JSON object per line on stdout).\n"
          "Exit codes: 0 all checks pass, 1 a check failed, 2 bad input or usage, 3 a\n"
          "resource limit stopped the work.\n"
          "See README.md and docs/ for the litmus format and the model language.\n",
          f);
}

/* Out of memory in a small allocation (util.h): one line and exit 3, at once.
 * Unwinding every caller instead would put an error path behind each of
 * thousands of allocations; ending the process is what a kill -9 does, and the
 * store survives that (its transactions are atomic; the run is shown as
 * interrupted and can be resumed). _exit, not exit: other threads may hold
 * locks that atexit handlers and stdio would wait on. Nothing is allocated here. */
static void on_oom(size_t n)
{
    char line[160];
    int k = snprintf(line, sizeof line,
                     "cohcheck: out of memory (an allocation of %zu bytes failed); stopped\n", n);
    if (k > 0) {
        ssize_t w = write(STDERR_FILENO, line, (size_t)k < sizeof line ? (size_t)k : sizeof line);
        (void)w;
    }
    _exit(CLI_LIMIT);
}

int main(int argc, char **argv)
{
    util_set_oom_handler(on_oom);
    if (store_fault_install() != 0) {
        cli_error("cannot install the fault-injection hooks into SQLite");
        return CLI_BAD_INPUT;
    }
    if (argc < 2) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("cohcheck %s\n", COHCHECK_VERSION);
        return CLI_OK;
    }
    if (!strcmp(cmd, "_docs")) /* a maintainer's command: generated docs (opts.c) */
        return cmd_docs(argc - 1, argv + 1);
    if (!strcmp(cmd, "litmus"))
        return cmd_litmus(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "count"))
        return cmd_count(argc - 1, argv + 1);
    if (!strcmp(cmd, "show"))
        return cmd_show(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace"))
        return cmd_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "resume"))
        return cmd_resume(argc - 1, argv + 1);
    if (!strcmp(cmd, "diff"))
        return cmd_diff(argc - 1, argv + 1);
    if (!strcmp(cmd, "store"))
        return cmd_store(argc - 1, argv + 1);
    if (!strcmp(cmd, "draw"))
        return cmd_draw(argc - 1, argv + 1);
    if (!strcmp(cmd, "mutate"))
        return cmd_mutate(argc - 1, argv + 1);
    if (!strcmp(cmd, "gen"))
        return cmd_gen(argc - 1, argv + 1);
    if (!strcmp(cmd, "regress"))
        return cmd_regress(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "classify"))
        return cmd_classify(argc - 1, argv + 1);
    if (!strcmp(cmd, "export"))
        return cmd_export(argc - 1, argv + 1);
    if (!strcmp(cmd, "sim"))
        return cmd_sim(argc - 1, argv + 1);
    cli_error("unknown command '%s' (try 'cohcheck --help')", cmd);
    return CLI_BAD_INPUT;
}
