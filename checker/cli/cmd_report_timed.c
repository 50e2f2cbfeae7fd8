/* cmd_report_timed.c - `cohcheck report timed`: parses the options and hands them to
 * report_timed (checker/report/report.h), which runs the seed papers' figures in timed
 * mode over several seeds and evaluates the claims files. Prints one summary line.
 * Invariant: no report logic here; every rule lives in a claims file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../report/report.h"
#include "../sim/sim.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck report timed [--out DIR] [--claims DIR] [--cus LIST] [--quick] [-j N]\n"
    "                             [--seed S] [--seeds N] [--only ID]... [--max-events N]\n"
    "                             [--json]\n"
    "\n"
    "Run the seed papers' timed-mode sweeps in process (sim_run), every run once per seed,\n"
    "and write DIR/timed.md (machines, parameters, the claims table, per-figure tables of\n"
    "means with 95% confidence intervals and the parameters each run used) and\n"
    "DIR/timed/ID.svg|png (gnuplot; skipped with a note when gnuplot is missing). The\n"
    "claims, their runs, metrics and labelling rules are read from the claims files\n"
    "(docs/claims.md). Failed or wrong runs are shown as red rows, never dropped.\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] =
    "environment: COHCHECK_GNUPLOT names the gnuplot program (default gnuplot)\n"
    "exit: 0 written (red rows included), 2 bad input (options, a claims file) or a file\n"
    "could not be written\n";

static int find_data(void *ctx, const char *name, const char *dir, const char *ext, const char *env,
                     char *path, size_t len)
{
    return cli_find_data(name, dir, ext, env, (const char *)ctx, path, len);
}

static int load_proto(void *ctx, const char *name, proto_t **out, diag_t *err)
{
    return cli_load_protocol_timed(name, (const char *)ctx, out, err);
}

static bool valid_list(const char *s)
{
    if (!*s || strspn(s, "0123456789,") != strlen(s) || s[0] == ',' || strstr(s, ",,") ||
        s[strlen(s) - 1] == ',')
        return false;
    for (const char *p = s; *p; p += strcspn(p, ","), p += *p == ',') {
        int v = atoi(p);
        if (v < 1 || v > SIM_MAX_CUS)
            return false;
    }
    return true;
}

/* The protocol names in ./protocols, for the census figure. */
static int protocol_names(char ***names, int *n)
{
    diag_t d;
    char *pdir = "protocols";
    if (cli_collect(&pdir, 1, ".proto", names, n, &d)) {
        cli_report(&d);
        return -1;
    }
    for (int i = 0; i < *n; i++) {
        char *s = (*names)[i], *base = strrchr(s, '/');
        base = base ? base + 1 : s;
        memmove(s, base, strlen(base) + 1);
        s[strlen(s) - 6] = '\0';
    }
    return 0;
}

static int parse_opts(int argc, char **argv, report_timed_opts_t *o, const char **only, bool *json)
{
    bool max_events_set = false;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_REPORT_TIMED);
    for (int ch; (ch = cli_getopt(&g, argc, argv)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return -1;
        case 'o': o->outdir = optarg; break;
        case 'C': o->claimsdir = optarg; break;
        case 'c':
            if (!valid_list(optarg)) {
                cli_error("report timed: --cus takes a list of 1..128 like 1,2,4,8,15");
                return -1;
            }
            o->cus = optarg;
            break;
        case 'q': o->quick = true; break;
        case 'J': *json = true; break;
        case 'j': o->jobs = (int)g.num; break;
        case 's': o->seed = (uint64_t)g.num; break;
        case 'n': o->seeds = (int)g.num; break;
        case 'O':
            if (!report_timed_has_figure(optarg)) {
                cli_error("report timed: --only: no figure '%s' (see the ids in timed.md)", optarg);
                return -1;
            }
            if (o->nonly < 64)
                only[o->nonly++] = optarg;
            break;
        case 'E':
            o->max_events = (uint64_t)g.num;
            max_events_set = true;
            break;
        case 'h': cli_usage(stdout, CLI_CMD_REPORT_TIMED, USAGE, USAGE_TAIL); return 1;
        }
    }
    if (optind < argc) {
        cli_error("report timed: unexpected argument '%s' (see --help)", argv[optind]);
        return -1;
    }
    if (o->quick && !max_events_set)
        o->max_events = 2000000ULL;
    return 0;
}

/* report_timed's progress callback: one line on a terminal (cli_progress is thread-safe). */
static void on_progress(void *ctx, int done, int total, const char *fig)
{
    cli_progress((cli_progress_t *)ctx, done, total, "%s", fig);
}

/* --json: the summary line as one object (docs/report-timed.md). */
static void print_json(const report_timed_opts_t *o, const report_timed_stats_t *st)
{
    strbuf_t b;
    sb_init(&b);
    char file[4096];
    snprintf(file, sizeof file, "%s/timed.md", o->outdir);
    sb_puts(&b, "{\"out\":");
    sb_json_str(&b, o->outdir);
    sb_puts(&b, ",\"file\":");
    sb_json_str(&b, file);
    sb_printf(&b,
              ",\"simulations\":%d,\"runs\":%d,\"seeds\":%d,\"correct\":%d,\"failed\":%d,"
              "\"plots\":%s,\"time_s\":%.3f}\n",
              st->nruns, st->ngood + st->nbad, o->seeds, st->ngood, st->nbad,
              st->plots_skipped ? "false" : "true", st->wall);
    fputs(b.s, stdout);
    sb_free(&b);
}

int cmd_report_timed(int argc, char **argv)
{
    static const char *only[64];
    report_timed_opts_t o = {.outdir = "reports",
                             .claimsdir = "reports/claims",
                             .only = only,
                             .jobs = 2,
                             .seeds = 5,
                             .seed = 1,
                             .max_events = 50000000ULL,
                             .find = find_data,
                             .load_proto = load_proto,
                             .find_ctx = argv[0]};
    bool json = false;
    int prc = parse_opts(argc, argv, &o, only, &json);
    if (prc)
        return prc > 0 ? CLI_OK : CLI_BAD_INPUT;
    strbuf_t cmd;
    sb_init(&cmd);
    sb_puts(&cmd, "cohcheck report timed");
    /* The options that shape the tables (not --out, -j: the same tables either way). */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *prev = i > 1 ? argv[i - 1] : "";
        bool skip = !strcmp(a, "--out") || !strcmp(a, "-j") || !strcmp(a, "--jobs") ||
                    !strncmp(a, "--out=", 6) || !strncmp(a, "--jobs=", 7) ||
                    (!strncmp(a, "-j", 2) && a[2]) || !strcmp(prev, "--out") ||
                    !strcmp(prev, "-j") || !strcmp(prev, "--jobs");
        if (!skip)
            sb_printf(&cmd, " %s", a);
    }
    o.cmdline = cmd.s;
    char **names = NULL;
    int nnames = 0;
    if (protocol_names(&names, &nnames)) {
        sb_free(&cmd);
        return CLI_BAD_INPUT;
    }
    o.protocols = (const char *const *)names;
    o.nprotocols = nnames;
    report_timed_stats_t st;
    diag_t d;
    cli_progress_t *pr = cli_progress_new("report timed", !json);
    o.progress = on_progress;
    o.progress_ctx = pr;
    int rc = report_timed(&o, &st, &d);
    cli_progress_clear(pr);
    cli_progress_free(pr);
    if (rc) {
        cli_report(&d);
    } else if (json) {
        print_json(&o, &st);
    } else {
        printf("report timed: %d simulations (%d runs x %d seeds; %d correct at every seed, %d "
               "failed or wrong) in %.1f s written to %s/timed.md%s\n",
               st.nruns, st.ngood + st.nbad, o.seeds, st.ngood, st.nbad, st.wall, o.outdir,
               st.plots_skipped ? " (plots skipped)" : " and timed/");
    }
    cli_free_list(names, nnames);
    sb_free(&cmd);
    return rc ? CLI_BAD_INPUT : CLI_OK;
}
