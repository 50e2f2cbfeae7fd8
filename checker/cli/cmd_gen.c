/* cmd_gen.c - `cohcheck gen`: write a diy-style generated litmus suite
 * (checker/gen, docs/gen.md), optionally with each test's expectations under
 * the six models (so `cohcheck litmus --expect` pins them). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/util.h"
#include "../gen/gen.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck gen -o DIR [--edges N] [--procs N] [--annot LIST] [--wg] [--samewg]\n"
    "                    [--expect] [--list] [--json]\n"
    "\n"
    "Generate litmus tests from critical cycles, as diy does: every cycle of up to N\n"
    "edges (program order PodWW PodWR PodRW PodRR between two accesses of a thread to\n"
    "different locations; Rfe Fre Coe between threads on one location), up to\n"
    "rotation, becomes one test per annotation family, named after its shape (MP, SB,\n"
    "LB, S, R, 2+2W, WRC, RWC, ISA2, IRIW, W+RWC, 3.SB, ...; other cycles by their\n"
    "edges) and family, with the final condition that makes the cycle happen.\n"
    "See docs/gen.md.\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] = "";

static int append_expect(strbuf_t *b, const char *text, const char *name, const char *argv0)
{
    prog_t *p;
    diag_t d;
    if (prog_parse(name, text, strlen(text), &p, &d)) {
        cli_report(&d);
        return -1;
    }
    cat_model_t *m[6] = {0};
    int rc = 0;
    for (int i = 0; i < 6 && rc == 0; i++)
        if (cli_load_model(cli_default_models[i], argv0, &m[i], &d)) {
            cli_report(&d);
            rc = -1;
        }
    exec_model_result_t res[6];
    exec_stats_t st;
    exec_opts_t xo = {.unroll = 2};
    if (rc == 0 && exec_eval(p, m, 6, &xo, res, &st, &d)) {
        cli_report(&d);
        rc = -1;
    }
    if (rc == 0) {
        exec_layout_t lay;
        exec_layout_init(&lay, p);
        sb_puts(b, "(* expect\n");
        for (int i = 0; i < 6; i++) {
            size_t pos = 0;
            for (size_t k = 0; k < res[i].allowed.n; k++)
                pos += exec_outcome_sat(p, &lay, exec_outcome(&res[i].allowed, k));
            size_t neg = res[i].allowed.n - pos;
            /* As herd: for ~exists the count is of outcomes satisfying E; gen writes exists. */
            const char *obs = pos == 0 ? "never" : neg == 0 ? "always" : "sometimes";
            sb_printf(b, "   %-12s %s%s\n", cli_default_models[i], obs, res[i].racy ? " racy" : "");
            exec_result_free(&res[i]);
        }
        sb_puts(b, "*)\n");
        exec_layout_free(&lay);
    }
    for (int i = 0; i < 6; i++)
        cat_free(m[i]);
    prog_free(p);
    return rc;
}

/* One generated test as a JSON line: name, cycle and (when written) its file. */
static void put_json_test(const gen_test_t *t, const char *path)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "{\"test\":");
    sb_json_str(&b, t->name);
    sb_puts(&b, ",\"cycle\":");
    sb_json_str(&b, t->cycle);
    sb_puts(&b, ",\"file\":");
    if (path)
        sb_json_str(&b, path);
    else
        sb_puts(&b, "null");
    printf("%s}\n", b.s);
    sb_free(&b);
}

/* --annot LIST into *ANNOT; -1 after an error line. */
static int parse_annot(const char *arg, unsigned *annot)
{
    *annot = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    char *save = NULL;
    static const struct {
        const char *name;
        unsigned flag;
    } fam[] = {{"plain", GEN_PLAIN}, {"rlx", GEN_RLX}, {"relacq", GEN_RELACQ},
               {"ra", GEN_RA},       {"sc", GEN_SC},   {"fences", GEN_FENCES}};
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned f = 0;
        for (size_t k = 0; k < sizeof fam / sizeof fam[0]; k++)
            if (!strcmp(t, fam[k].name))
                f = fam[k].flag;
        if (!f) {
            cli_error("gen: unknown annotation family '%s' (plain, rlx, relacq, ra, sc, "
                      "fences)",
                      t);
            return -1;
        }
        *annot |= f;
    }
    if (!*annot) {
        cli_error("gen: --annot needs at least one family");
        return -1;
    }
    return 0;
}

typedef struct {
    gen_opts_t o;
    const char *out; /* -o DIR */
    bool expect, list, json;
} gen_cli_t;

/* Parse the options into G and check them; *DONE when the command ends here
 * (--help, or an error line printed) with the returned code. */
static int gen_args(gen_cli_t *g, int argc, char **argv, bool *done)
{
    cli_getopt_t go;
    cli_getopt_init(&go, CLI_CMD_GEN);
    int ch;
    *done = true;
    while ((ch = cli_getopt(&go, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'o': g->out = optarg; break;
        case 'e': g->o.max_edges = (int)go.num; break;
        case 't':
            cli_error("gen: warning: --threads N is deprecated, use --procs N (the litmus "
                      "threads of a test; --threads is the threads of one search elsewhere)");
            /* fall through */
        case 'p': g->o.max_threads = (int)go.num; break;
        case 'a':
            if (parse_annot(optarg, &g->o.annot))
                return CLI_BAD_INPUT;
            break;
        case 'w': g->o.wg_scope = true; break;
        case 's': g->o.same_wg = true; break;
        case 'E': g->expect = true; break;
        case 'l': g->list = true; break;
        case 'J': g->json = true; break;
        case 'h': cli_usage(stdout, CLI_CMD_GEN, USAGE, USAGE_TAIL); return CLI_OK;
        }
    }
    if (optind < argc) {
        cli_error("gen: unexpected argument '%s' (see --help)", argv[optind]);
        return CLI_BAD_INPUT;
    }
    if (!g->out && !g->list) {
        cli_error("gen: give the output folder with -o DIR (or --list)");
        return CLI_BAD_INPUT;
    }
    *done = false;
    return CLI_OK;
}

/* --list: each test's name and cycle (or JSON), then the count. */
static void list_suite(const gen_test_t *t, int n, bool json)
{
    for (int i = 0; i < n; i++) {
        if (json)
            put_json_test(&t[i], NULL);
        else
            printf("%-40s %s\n", t[i].name, t[i].cycle);
    }
    if (json)
        printf("{\"tests\":%d,\"out\":null}\n", n);
    else
        printf("%d tests\n", n);
}

/* Write test T to OUT/NAME.litmus (through a temporary file), with --expect's
 * block; returns the exit code. */
static int write_test(const gen_cli_t *g, const gen_test_t *t, const char *argv0)
{
    int rc = CLI_OK;
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, t->text);
    if (g->expect && append_expect(&b, t->text, t->name, argv0))
        rc = CLI_BAD_INPUT;
    size_t len = strlen(g->out) + strlen(t->name) + 48;
    char *path = xmalloc(len), *tmp = xmalloc(len + 24);
    snprintf(path, len, "%s/%s.litmus", g->out, t->name);
    snprintf(tmp, len + 24, "%s.tmp%ld", path, (long)getpid());
    FILE *f = rc == CLI_OK ? fopen(tmp, "w") : NULL;
    if (rc == CLI_OK && (!f || fputs(b.s, f) < 0 || fclose(f) || rename(tmp, path))) {
        cli_error("gen: cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK && g->json)
        put_json_test(t, path);
    free(path);
    free(tmp);
    sb_free(&b);
    return rc;
}

int cmd_gen(int argc, char **argv)
{
    gen_cli_t g = {
        .o = {6, 4, GEN_PLAIN | GEN_RLX | GEN_RELACQ | GEN_RA | GEN_SC | GEN_FENCES, false, false}};
    diag_t d;
    bool done;
    int rc = gen_args(&g, argc, argv, &done);
    if (done)
        return rc;
    gen_test_t *t;
    int n;
    if (gen_suite(&g.o, &t, &n, &d)) {
        cli_error("gen: %s", d.msg);
        return CLI_BAD_INPUT;
    }
    if (g.list) {
        list_suite(t, n, g.json);
        gen_free(t, n);
        return CLI_OK;
    }
    if (cli_mkdirs(g.out)) {
        gen_free(t, n);
        return CLI_BAD_INPUT;
    }
    cli_progress_t *pr = cli_progress_new("gen", !g.json);
    for (int i = 0; i < n && rc == CLI_OK; i++) {
        cli_progress(pr, i, n, "%s", t[i].name);
        rc = write_test(&g, &t[i], argv[0]);
    }
    cli_progress_free(pr);
    if (rc == CLI_OK && g.json) {
        strbuf_t j;
        sb_init(&j);
        sb_printf(&j, "{\"tests\":%d,\"out\":", n);
        sb_json_str(&j, g.out);
        printf("%s}\n", j.s);
        sb_free(&j);
    } else if (rc == CLI_OK) {
        printf("gen: %d tests written to %s\n", n, g.out);
    }
    gen_free(t, n);
    return rc;
}
