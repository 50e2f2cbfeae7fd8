/* cmd_report.c - `cohcheck report`: the options, the protocols and tests they name, the
 * output folders, then one call to report_matrix (checker/report/matrix.c: the verdict
 * matrix, counts, readings, diagrams, counterexample charts, index.html) and its summary
 * line. Invariant: no report logic here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/util.h"
#include "../report/report.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck report [--out DIR] [--protocols LIST] [--suite PATH]...\n"
    "                       [--models target|all] [--settings LIST] [--max-states N]\n"
    "                       [-j N] [--bench] [--json]\n"
    "\n"
    "Regenerate the reports from fresh runs, into DIR (default ./cohcheck-report; the\n"
    "repository's checked-in reports/ only with an explicit --out reports):\n"
    "  verdicts.md          the verdict matrix: every protocol in ./protocols under its\n"
    "                       target model (or all six) on each suite, cold, with counts;\n"
    "                       a variant's first failure is the first test that fails on\n"
    "                       it and passes on its base\n"
    "  counts-all.md        states and transitions of every protocol's controllers\n"
    "  readings.md          every protocol's readings: where its tables interpret or\n"
    "                       depart from the paper (cohcheck count --readings)\n"
    "  diagrams/P.svg       each protocol's state machines (cohcheck draw)\n"
    "  traces/P.svg         the first counterexample of each refuted protocol, as a\n"
    "                       message-sequence chart (cohcheck draw --trace)\n"
    "  bench-latest.md      with --bench: tests/bench/protocols.sh, one run per row\n"
    "  index.html           a static page linking all of them and the other reports:\n"
    "                       a summary first (protocols, tests, findings, broken\n"
    "                       variants refuted as intended, incomplete checks), the\n"
    "                       matrix (red: a correct protocol refuted; blue: a broken\n"
    "                       variant refuted, as intended; amber: incomplete), and\n"
    "                       thumbnails of the state diagrams\n"
    "A broken variant is a protocol whose description starts with BROKEN.\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] =
    "`cohcheck report timed --help`: the timed-mode figures and claims (reports/timed.md)\n"
    "exit: 0 written, 2 bad input or a file could not be written\n";

/* The protocols to report on: LIST (comma-separated names or .proto files, each
 * found as --protocol finds it), else every .proto of the first protocols folder
 * that exists ($COHCHECK_PROTOCOLS, ./protocols, beside the binary, installed). */
static int report_protocols(const char *list, const char *argv0, char ***out, int *n)
{
    diag_t d;
    if (!list) {
        cli_dirs_t dirs;
        cli_data_dirs("protocols", "COHCHECK_PROTOCOLS", argv0, &dirs);
        for (int i = 0; dirs.dirs[i]; i++) {
            struct stat st;
            if (stat(dirs.dirs[i], &st) || !S_ISDIR(st.st_mode))
                continue;
            char *dir = (char *)dirs.dirs[i];
            if (cli_collect(&dir, 1, ".proto", out, n, &d)) {
                cli_report(&d);
                return -1;
            }
            return 0;
        }
        *out = NULL;
        *n = 0;
        return 0;
    }
    char **v = NULL;
    size_t k = 0, cap = 0;
    char *dup = xstrdup(list), *save = NULL;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char path[PATH_MAX];
        if (cli_find_data(t, "protocols", ".proto", "COHCHECK_PROTOCOLS", argv0, path,
                          sizeof path)) {
            cli_error("report: --protocols: no protocol '%s'", t);
            cli_free_list(v, (int)k);
            free(dup);
            return -1;
        }
        UTIL_PUSH(v, k, cap, xstrdup(path));
    }
    free(dup);
    if (!k) {
        cli_error("report: --protocols needs at least one protocol");
        return -1;
    }
    *out = v;
    *n = (int)k;
    return 0;
}

/* What the options say, before the inputs are resolved. */
typedef struct {
    const char *outdir, *models, *settings_arg, *proto_list;
    bool json, bench;
    char maxst[24], jobs[8];
    char *suites[32];
    int nsuites;
} report_args_t;

/* The options into A. CLI_OK, CLI_BAD_INPUT (reported), or -1 after --help. */
static int parse_args(int argc, char **argv, report_args_t *a)
{
    *a = (report_args_t){.outdir = "cohcheck-report",
                         .models = "target",
                         .settings_arg = "cold,warm",
                         .maxst = "2000000",
                         .jobs = "2"};
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_REPORT);
    for (int ch; (ch = cli_getopt(&g, argc, argv)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'o': a->outdir = optarg; break;
        case 's':
            if (a->nsuites >= 30) {
                cli_error("report: at most 30 --suite options");
                return CLI_BAD_INPUT;
            }
            a->suites[a->nsuites++] = optarg;
            break;
        case 'm': a->models = optarg; break;
        case 'S': snprintf(a->maxst, sizeof a->maxst, "%lld", g.num); break;
        case 'j': snprintf(a->jobs, sizeof a->jobs, "%lld", g.num); break;
        case 'b': a->bench = true; break;
        case 'T':
            if (!*optarg || strlen(optarg) > 400 ||
                strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789+,_") != strlen(optarg)) {
                cli_error("report: --settings takes a list like cold,warm,warm+evict");
                return CLI_BAD_INPUT;
            }
            a->settings_arg = optarg;
            break;
        case 'J': a->json = true; break;
        case 'P': a->proto_list = optarg; break;
        case 'h': cli_usage(stdout, CLI_CMD_REPORT, USAGE, USAGE_TAIL); return -1;
        }
    }
    if (optind < argc) {
        cli_error("report: unexpected argument '%s' (see --help)", argv[optind]);
        return CLI_BAD_INPUT;
    }
    if (!a->nsuites)
        a->suites[a->nsuites++] = "litmus/core";
    return CLI_OK;
}

/* Split --settings (copied into BUF) into SETTINGS (at most 32). -1 (reported) on a long one. */
static int split_settings(const char *arg, char *buf, size_t len, char **settings, int *n)
{
    snprintf(buf, len, "%s", arg);
    *n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t && *n < 32; t = strtok_r(NULL, ",", &save)) {
        if (strlen(t) >= 48) {
            cli_error("report: setting '%s' is too long", t);
            return -1;
        }
        settings[(*n)++] = t;
    }
    return 0;
}

/* The output folder with diagrams/ and traces/, created when missing. */
static int make_outdirs(const char *outdir)
{
    char sub[4200];
    if (cli_mkdirs(outdir))
        return -1;
    snprintf(sub, sizeof sub, "%s/diagrams", outdir);
    if (cli_mkdirs(sub))
        return -1;
    snprintf(sub, sizeof sub, "%s/traces", outdir);
    return cli_mkdirs(sub);
}

static int write_picture(void *ctx, const char *dot, const char *path)
{
    (void)ctx;
    return cli_write_picture(dot, path) == CLI_OK ? 0 : -1;
}

static void on_progress(void *ctx, int done, int total, const char *what)
{
    if (done < 0)
        cli_progress_soon((cli_progress_t *)ctx);
    cli_progress((cli_progress_t *)ctx, done, total, "%s", what);
}

static void print_summary(const report_args_t *a, const report_matrix_opts_t *o,
                          const report_matrix_stats_t *st)
{
    if (a->json) {
        strbuf_t j;
        sb_init(&j);
        sb_puts(&j, "{\"out\":");
        sb_json_str(&j, a->outdir);
        sb_printf(&j,
                  ",\"rows\":%zu,\"protocols\":%d,\"broken\":%d,\"tests\":%d,\"checks\":%d,"
                  "\"findings\":%d,\"broken_refuted\":%d,\"incomplete\":%d,\"errors\":%d}\n",
                  st->rows, st->protocols, st->broken, o->ntests, st->checks, st->refuted,
                  st->broken_refuted, st->incomplete, st->errors);
        fputs(j.s, stdout);
        sb_free(&j);
        return;
    }
    printf("report: %zu rows (%d protocols x %s) on %d tests written to %s/ (verdicts.md, "
           "counts-all.md, readings.md, diagrams/, traces/%s, index.html)\n",
           st->rows, o->nprotos, a->models, o->ntests, a->outdir,
           st->have_bench ? ", bench-latest.md" : "");
    printf("Summary: %d protocols, %d tests, %d checks: %d correct protocol%s refuted, %d of "
           "%d broken variants refuted as intended, %d incomplete\n",
           st->protocols, o->ntests, st->checks, st->refuted, st->refuted == 1 ? "" : "s",
           st->broken_refuted, st->broken, st->incomplete);
}

/* The protocols and the suites' tests into O: CLI_OK or CLI_BAD_INPUT (reported). */
static int resolve_inputs(const report_args_t *a, const char *argv0, char ***protos, char ***tests,
                          report_matrix_opts_t *o)
{
    diag_t d;
    if (report_protocols(a->proto_list, argv0, protos, &o->nprotos))
        return CLI_BAD_INPUT;
    if (cli_collect((char *const *)a->suites, a->nsuites, ".litmus", tests, &o->ntests, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (!o->nprotos || !o->ntests) {
        cli_error("report: no %s found", !o->nprotos ? "protocols" : "litmus tests");
        return CLI_BAD_INPUT;
    }
    o->protos = *protos;
    o->tests = *tests;
    return CLI_OK;
}

int cmd_report(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "timed"))
        return cmd_report_timed(argc - 1, argv + 1);
    report_args_t a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    char settings_buf[512], *settings[32], self[4096];
    report_matrix_opts_t o = {.outdir = a.outdir,
                              .protos_chosen = a.proto_list != NULL,
                              .suites = a.suites,
                              .nsuites = a.nsuites,
                              .all_models = !strcmp(a.models, "all"),
                              .settings = settings,
                              .max_states = a.maxst,
                              .jobs = a.jobs,
                              .bench = a.bench,
                              .write_picture = write_picture,
                              .progress = on_progress,
                              .self = self};
    if (split_settings(a.settings_arg, settings_buf, sizeof settings_buf, settings, &o.nsettings))
        return CLI_BAD_INPUT;
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) {
        cli_error("report: cannot find this program's path (/proc/self/exe)");
        return CLI_BAD_INPUT;
    }
    self[sl] = '\0';
    char **protos = NULL, **tests = NULL;
    rc = resolve_inputs(&a, argv[0], &protos, &tests, &o);
    if (rc == CLI_OK && make_outdirs(a.outdir))
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK) {
        cli_progress_t *pr = cli_progress_new("report", !a.json);
        o.ctx = pr;
        report_matrix_stats_t st;
        diag_t d;
        if (report_matrix(&o, &st, &d)) {
            if (d.msg[0])
                cli_report(&d);
            rc = CLI_BAD_INPUT;
        }
        cli_progress_free(pr);
        if (rc == CLI_OK)
            print_summary(&a, &o, &st);
    }
    cli_free_list(protos, o.nprotos);
    cli_free_list(tests, o.ntests);
    return rc;
}
