/* cmd_litmus.c - `cohcheck litmus`: which outcomes each memory model allows for
 * each litmus test, printed herd7-style or as JSON lines (docs/architecture.md section 3).
 * With --expect, compares the observation and racy flag of every test and
 * model against the test's own "(* expect ... *)" block. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <getopt.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <time.h>

#include "../base/util.h"
#include "../exec/exec.h"
#include "../draw/draw.h"
#include "../prog/prog.h"
#include "cli.h"

#define MAX_MODELS 32

typedef struct {
    char *names[MAX_MODELS];
    cat_model_t *models[MAX_MODELS];
    int n;
    const char *argv0;
} model_cache_t;

typedef struct {
    char model[64];
    int obs; /* 0 never, 1 sometimes, 2 always */
    bool racy;
    int line;
} expect_t;

typedef struct {
    bool json, expect, quiet;
    const char *to_herd; /* --to-herd DIR: write the tests in herd7's C dialect instead */
    bool opencl;         /* --opencl: also write scoped tests, as OpenCL */
    const char *show;    /* --show DIR: execution graphs, one .dot per test and model */
    cli_junit_t *junit;  /* --junit FILE */
    bool annotate;       /* --annotate */
    int written, skipped;
    exec_opts_t eo;
    pcre2_code *filter;
    const char *model_args[MAX_MODELS];
    int nmodel_args;
    model_cache_t cache;
    int passed, failed;
    /* For the summary line: tests evaluated, and per model the observations. */
    int tests;
    int nsum;
    struct {
        char name[64];
        int obs[3], racy;
    } sum[MAX_MODELS];
    const char *params[64]; /* --param NAME=VALUE: workload parameters */
    int nparams;
    cli_params_t sp;
} litmus_opts_t;

static const char *const obs_names[] = {"Never", "Sometimes", "Always"};
static const char *const obs_lower[] = {"never", "sometimes", "always"};

static void usage(FILE *f)
{
    fputs("usage: cohcheck litmus [OPTIONS] PATH...\n"
          "\n"
          "Evaluate litmus tests (files, or folders walked recursively for *.litmus) against\n"
          "memory models by enumerating every candidate execution, and print which outcomes\n"
          "each model allows, herd7-style.\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, CLI_CMD_LITMUS);
    fputs("\n"
          "Files whose first word is 'C' or 'OpenCL' are read as herd7's C dialect\n"
          "(docs/litmus.md lists the subset); the rest as cohcheck's format.\n"
          "\n"
          "Observation (as herd7): Never, Sometimes or Always according to how many allowed\n"
          "outcomes satisfy the condition's proposition. For drf and hrf-* a test is racy when\n"
          "some SC execution has a (heterogeneous) race; its outcomes are then the SC ones.\n"
          "The text output ends with one summary line: tests, models, per model how many\n"
          "tests are Never, Sometimes and Always (and racy), --expect mismatches, time.\n"
          "exit: 0 done, 1 an --expect mismatch, 2 bad input, 3 --max-candidates reached\n",
          f);
}

static cat_model_t *get_model(model_cache_t *mc, const char *arg, int *rc)
{
    for (int i = 0; i < mc->n; i++)
        if (!strcmp(mc->names[i], arg))
            return mc->models[i];
    if (mc->n >= MAX_MODELS) {
        cli_error("too many models (at most %d)", MAX_MODELS);
        *rc = CLI_BAD_INPUT;
        return NULL;
    }
    diag_t d;
    cat_model_t *m;
    if (cli_load_model(arg, mc->argv0, &m, &d)) {
        cli_report(&d);
        *rc = CLI_BAD_INPUT;
        return NULL;
    }
    mc->names[mc->n] = xstrdup(arg);
    mc->models[mc->n++] = m;
    return m;
}

/* Parse the "(* expect" block of SRC. Returns the number of entries (0 when
 * there is none) or -1 with D set. */
static int parse_expect(const prog_t *p, expect_t *out, int max, diag_t *d)
{
    const char *src = p->source;
    const char *b = strstr(src, "(* expect");
    if (!b)
        return 0;
    const char *e = strstr(b, "*)");
    if (!e)
        e = src + p->source_len;
    int line = 1;
    for (const char *q = src; q < b; q++)
        line += *q == '\n';
    const char *q = strchr(b, '\n');
    int n = 0;
    while (q && q < e) {
        q++;
        line++;
        const char *eol = memchr(q, '\n', (size_t)(src + p->source_len - q));
        if (!eol || eol > e)
            eol = e;
        char buf[256];
        size_t len = (size_t)(eol - q) < sizeof buf - 1 ? (size_t)(eol - q) : sizeof buf - 1;
        memcpy(buf, q, len);
        buf[len] = 0;
        char m[64], o[32], r[32];
        int k = sscanf(buf, "%63s %31s %31s", m, o, r);
        if (k >= 2) {
            if (n >= max) {
                diag_set(d, p->file, line, 1, "too many expect lines");
                return -1;
            }
            expect_t *x = &out[n];
            snprintf(x->model, sizeof x->model, "%s", m);
            x->obs = -1;
            for (int i = 0; i < 3; i++)
                if (!strcmp(o, obs_lower[i]))
                    x->obs = i;
            x->racy = k == 3 && !strcmp(r, "racy");
            x->line = line;
            if (x->obs < 0 || (k == 3 && !x->racy)) {
                diag_set(d, p->file, line, 1,
                         "expect line must be 'MODEL never|sometimes|always [racy]'");
                return -1;
            }
            n++;
        } else if (k == 1) {
            diag_set(d, p->file, line, 1,
                     "expect line must be 'MODEL never|sometimes|always [racy]'");
            return -1;
        }
        q = eol < e ? eol : NULL;
    }
    return n;
}

static int observation(size_t pos, size_t neg)
{
    return pos == 0 ? 0 : neg == 0 ? 2 : 1;
}

static bool validated(prog_quant_t q, size_t pos, size_t neg)
{
    switch (q) {
    case PROG_EXISTS: return pos > 0;
    case PROG_NOT_EXISTS: return pos == 0;
    case PROG_FORALL: return neg == 0;
    }
    return false;
}

static void print_text(const prog_t *p, const exec_layout_t *lay, const cat_model_t *m,
                       const exec_model_result_t *r, const exec_stats_t *st, const exec_opts_t *eo,
                       double secs)
{
    static const char *const kind[] = {"Allowed", "Forbidden", "Required"};
    strbuf_t b;
    sb_init(&b);
    size_t pos = 0, neg = 0;
    sb_printf(&b, "Test %s %s\n", p->name, kind[p->quant]);
    sb_printf(&b, "Model %s\n", cat_model_name(m));
    sb_printf(&b, "States %zu\n", r->allowed.n);
    for (size_t i = 0; i < r->allowed.n; i++) {
        const prog_val_t *v = exec_outcome(&r->allowed, i);
        for (int k = 0; k < lay->nkeys; k++)
            sb_printf(&b, "%s%s=%lld;", k ? " " : "", lay->names[k], (long long)v[k]);
        if (exec_outcome_sat(p, lay, v)) {
            pos++;
            sb_puts(&b, " (*)");
        } else {
            neg++;
        }
        sb_putc(&b, '\n');
    }
    /* As herd7: "Loop" when the unroll bound cut executions off; for ~exists the
     * witnesses are the outcomes that do not satisfy the proposition. */
    sb_printf(&b, "%s%s\n", st->unroll_cut ? "Loop " : "",
              validated(p->quant, pos, neg) ? "Ok" : "No");
    bool swap = p->quant == PROG_NOT_EXISTS;
    sb_printf(&b, "Witnesses\nPositive: %zu Negative: %zu\n", swap ? neg : pos, swap ? pos : neg);
    for (int i = 0; i < cat_nflags(m); i++)
        if (r->flags >> i & 1)
            sb_printf(&b, "Flag %s\n", cat_flag_name(m, i));
    sb_puts(&b, "Condition ");
    prog_cond_format(p, &b);
    sb_putc(&b, '\n');
    sb_printf(&b, "Observation %s %s %zu %zu\n", p->name, obs_names[observation(pos, neg)], pos,
              neg);
    if (cat_nflags(m) > 0)
        sb_printf(&b, "Racy %s\n",
                  r->racy ? "yes (no outcome is guaranteed; SC outcomes shown)" : "no");
    if (st->unroll_cut)
        sb_printf(&b, "Unroll %d cut off some executions (raise --unroll to see longer ones)\n",
                  eo->unroll);
    if (st->incomplete)
        sb_printf(&b, "Incomplete: stopped after %llu candidate executions (--max-candidates)\n",
                  (unsigned long long)st->candidates);
    sb_printf(&b, "Time %s %.3f\n\n", p->name, secs);
    fputs(b.s, stdout);
    sb_free(&b);
}

static void print_json(const prog_t *p, const exec_layout_t *lay, const cat_model_t *m,
                       const exec_model_result_t *r, const exec_stats_t *st, const exec_opts_t *eo,
                       double secs)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "{\"test\":");
    sb_json_str(&b, p->name);
    sb_puts(&b, ",\"file\":");
    sb_json_str(&b, p->file);
    sb_puts(&b, ",\"model\":");
    sb_json_str(&b, cat_model_name(m));
    sb_puts(&b, ",\"outcomes\":[");
    size_t pos = 0, neg = 0;
    for (size_t i = 0; i < r->allowed.n; i++) {
        const prog_val_t *v = exec_outcome(&r->allowed, i);
        if (i)
            sb_putc(&b, ',');
        exec_outcome_json(&b, lay, v);
        if (exec_outcome_sat(p, lay, v))
            pos++;
        else
            neg++;
    }
    sb_printf(&b, "],\"observation\":\"%s\",\"positive\":%zu,\"negative\":%zu",
              obs_lower[observation(pos, neg)], pos, neg);
    sb_printf(&b, ",\"validated\":%s", validated(p->quant, pos, neg) ? "true" : "false");
    sb_puts(&b, ",\"condition\":");
    strbuf_t c;
    sb_init(&c);
    prog_cond_format(p, &c);
    sb_json_str(&b, c.s);
    sb_free(&c);
    sb_printf(&b, ",\"racy\":%s,\"flags\":[", r->racy ? "true" : "false");
    int nf = 0;
    for (int i = 0; i < cat_nflags(m); i++)
        if (r->flags >> i & 1) {
            if (nf++)
                sb_putc(&b, ',');
            sb_json_str(&b, cat_flag_name(m, i));
        }
    sb_printf(
        &b,
        "],\"candidates\":%llu,\"unroll\":%d,\"unroll_cut\":%s,\"complete\":%s,\"time_s\":%.6f}\n",
        (unsigned long long)st->candidates, eo->unroll, st->unroll_cut ? "true" : "false",
        st->incomplete ? "false" : "true", secs);
    fputs(b.s, stdout);
    sb_free(&b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Evaluate one file; returns an exit code contribution. */
/* --to-herd: P in herd7's C dialect, its expect block kept, to DIR/NAME.litmus. */
static int write_herd(litmus_opts_t *o, const prog_t *p)
{
    strbuf_t b;
    sb_init(&b);
    char why[160];
    if (prog_needs_opencl(p) && !o->opencl) {
        /* herd7 dies on OpenCL files (no front end since 2015): none is written. */
        fprintf(stderr,
                "cohcheck: %s: skipped, no C form: scopes or work-groups need OpenCL, which "
                "herd7 does not read (--opencl writes it for cohcheck)\n",
                p->file);
        o->skipped++;
        sb_free(&b);
        return CLI_OK;
    }
    if (prog_to_herd(p, &b, why, sizeof why)) {
        fprintf(stderr, "cohcheck: %s: skipped, no C form: %s\n", p->file, why);
        o->skipped++;
        sb_free(&b);
        return CLI_OK;
    }
    const char *e = strstr(p->source, "(* expect");
    const char *end = e ? strstr(e, "*)") : NULL;
    if (e && end)
        sb_printf(&b, "\n%.*s\n", (int)(end + 2 - e), e);
    char *path = xmalloc(strlen(o->to_herd) + strlen(p->name) + 32);
    char *tmp = xmalloc(strlen(o->to_herd) + strlen(p->name) + 48);
    sprintf(path, "%s/%s.litmus", o->to_herd, p->name);
    sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = CLI_OK;
    if (!f || fputs(b.s, f) < 0 || fclose(f) || rename(tmp, path)) {
        cli_error("--to-herd: cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        rc = CLI_BAD_INPUT;
    } else {
        o->written++;
    }
    free(path);
    free(tmp);
    sb_free(&b);
    return rc;
}

/* --show: the first SHOW_MAX allowed executions of each model that satisfy the condition. */
#define SHOW_MAX 4
typedef struct {
    const prog_t *p;
    const exec_layout_t *lay;
    int n[MAX_MODELS];
    size_t total[MAX_MODELS];
    draw_exec_t *ex; /* nmodels x SHOW_MAX */
} show_ctx_t;

static void show_hook(void *ctx, int model, const exec_graph_t *g)
{
    show_ctx_t *sc = ctx;
    if (!exec_outcome_sat(sc->p, sc->lay, g->outcome))
        return;
    sc->total[model]++;
    if (sc->n[model] < SHOW_MAX)
        draw_exec_copy(&sc->ex[(size_t)model * SHOW_MAX + (size_t)sc->n[model]++], g, sc->lay);
}

static int write_show(litmus_opts_t *o, const prog_t *p, const char *model, const draw_exec_t *ex,
                      int n, size_t total)
{
    char *text = draw_execs_dot(p, model, ex, n, total);
    size_t len = strlen(o->show) + strlen(p->name) + strlen(model) + 32;
    char *path = xmalloc(len), *tmp = xmalloc(len + 24);
    snprintf(path, len, "%s/%s.%s.dot", o->show, p->name, model);
    snprintf(tmp, len + 24, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
        cli_error("--show: cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        rc = -1;
    }
    free(text);
    free(path);
    free(tmp);
    return rc;
}

/* Load PATH into *P, or leave *P NULL when the file is done with here: unreadable
 * (its error line printed), outside --filter, written by --to-herd, or a kernel. */
static int load_selected(litmus_opts_t *o, const char *path, prog_t **pp)
{
    diag_t d;
    prog_t *p;
    *pp = NULL;
    if (cli_load_test(path, NULL, &o->sp, &p, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (o->filter) {
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(o->filter, NULL);
        int m = pcre2_match(o->filter, (PCRE2_SPTR)p->name, strlen(p->name), 0, 0, md, NULL);
        pcre2_match_data_free(md);
        if (m < 0) {
            prog_free(p);
            return CLI_OK;
        }
    }
    if (o->to_herd) {
        int rc = write_herd(o, p);
        prog_free(p);
        return rc;
    }
    if (prog_has_indexed(p) || prog_has_join(p) || prog_has_div(p)) {
        /* A kernel: its accesses' locations come from registers, its threads join
           (launch, bar.sync), or it divides (a zero divisor is a run error), which the
           model evaluator's executions cannot follow; check and sim run it. */
        if (!o->quiet)
            printf("%s: skipped (a kernel with %s: run cohcheck check or sim)\n", p->name,
                   prog_has_indexed(p) ? "register-indexed addresses"
                   : prog_has_join(p)  ? "launch or bar.sync"
                                       : "div or rem");
        prog_free(p);
        return CLI_OK;
    }
    *pp = p;
    return CLI_OK;
}

/* The models to evaluate under: --model's, the expect block's, or the defaults.
 * Returns how many, or -1 with *RC set when one does not load. */
static int pick_models(litmus_opts_t *o, const expect_t *exp, int nexp, cat_model_t **models,
                       int *rc)
{
    int nm = 0;
    if (o->nmodel_args) {
        for (int i = 0; i < o->nmodel_args; i++)
            if (!(models[nm++] = get_model(&o->cache, o->model_args[i], rc)))
                return -1;
    } else if (o->expect) {
        for (int i = 0; i < nexp; i++)
            if (!(models[nm++] = get_model(&o->cache, exp[i].model, rc)))
                return -1;
    } else {
        for (int i = 0; i < 6; i++)
            if (!(models[nm++] = get_model(&o->cache, cli_default_models[i], rc)))
                return -1;
    }
    return nm;
}

/* The summary line's per-model observation counts. */
static void tally(litmus_opts_t *o, const char *model, int obs, bool racy)
{
    int m = 0;
    while (m < o->nsum && strcmp(o->sum[m].name, model))
        m++;
    if (m == o->nsum && m < MAX_MODELS) {
        snprintf(o->sum[m].name, sizeof o->sum[m].name, "%s", model);
        o->nsum++;
    }
    if (m < o->nsum) {
        o->sum[m].obs[obs]++;
        o->sum[m].racy += racy;
    }
}

static void print_annotation(const char *file, int line, const char *title, const char *msg)
{
    strbuf_t a;
    sb_init(&a);
    cli_annotate(&a, "error", file, line, title, msg);
    fputs(a.s, stdout);
    sb_free(&a);
}

/* --expect: compare MODEL's observation with the test's expectation for it.
 * Returns CLI_FAIL on a mismatch, else CLI_OK. */
static int check_expect(litmus_opts_t *o, const prog_t *p, const char *model, const expect_t *exp,
                        int nexp, int obs, bool racy, bool incomplete, double secs)
{
    const expect_t *x = NULL;
    for (int k = 0; k < nexp; k++)
        if (!strcmp(exp[k].model, model))
            x = &exp[k];
    char tname[300], msg[300];
    snprintf(tname, sizeof tname, "%s [%s]", p->name, model);
    if (!x) {
        printf("FAIL %s %s: no expectation for this model\n", p->name, model);
        o->failed++;
        cli_junit_case(o->junit, "litmus", tname, secs, "failure", "no-expectation",
                       "no expectation for this model", NULL);
        if (o->annotate)
            print_annotation(p->file, 1, tname, "no expectation for this model");
        return CLI_FAIL;
    }
    if (x->obs != obs || x->racy != racy || incomplete) {
        printf("FAIL %s %s: expected %s%s, got %s%s%s (%s:%d)\n", p->name, model, obs_lower[x->obs],
               x->racy ? " racy" : "", obs_lower[obs], racy ? " racy" : "",
               incomplete ? " (incomplete)" : "", p->file, x->line);
        o->failed++;
        snprintf(msg, sizeof msg, "expected %s%s, got %s%s%s", obs_lower[x->obs],
                 x->racy ? " racy" : "", obs_lower[obs], racy ? " racy" : "",
                 incomplete ? " (incomplete)" : "");
        cli_junit_case(o->junit, "litmus", tname, secs, "failure", "mismatch", msg, NULL);
        if (o->annotate)
            print_annotation(p->file, x->line, tname, msg);
        return CLI_FAIL;
    }
    cli_junit_case(o->junit, "litmus", tname, secs, NULL, NULL, NULL, NULL);
    if (!o->quiet)
        printf("ok   %s %s: %s%s\n", p->name, model, obs_lower[obs], racy ? " racy" : "");
    o->passed++;
    return CLI_OK;
}

/* One model's result: tallied, then compared (--expect) or printed. Returns
 * CLI_FAIL on an --expect mismatch, else CLI_OK. */
static int report_model(litmus_opts_t *o, const prog_t *p, const exec_layout_t *lay,
                        const cat_model_t *m, const exec_model_result_t *r, const exec_stats_t *st,
                        const expect_t *exp, int nexp, double secs)
{
    size_t pos = 0;
    for (size_t k = 0; k < r->allowed.n; k++)
        pos += exec_outcome_sat(p, lay, exec_outcome(&r->allowed, k));
    int obs = observation(pos, r->allowed.n - pos);
    tally(o, cat_model_name(m), obs, r->racy);
    if (o->expect)
        return check_expect(o, p, cat_model_name(m), exp, nexp, obs, r->racy, st->incomplete, secs);
    if (o->json)
        print_json(p, lay, m, r, st, &o->eo, secs);
    else if (!o->quiet)
        print_text(p, lay, m, r, st, &o->eo, secs);
    char tname[300];
    snprintf(tname, sizeof tname, "%s [%s]", p->name, cat_model_name(m));
    cli_junit_case(o->junit, "litmus", tname, secs, st->incomplete ? "error" : NULL,
                   st->incomplete ? "incomplete" : NULL, NULL, NULL);
    return CLI_OK;
}

/* Evaluate P under the NM MODELS, write --show's graphs and report each model. */
static int eval_file(litmus_opts_t *o, const prog_t *p, cat_model_t **models, int nm,
                     const expect_t *exp, int nexp)
{
    diag_t d;
    int rc = CLI_OK;
    exec_model_result_t res[MAX_MODELS];
    exec_stats_t st;
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    show_ctx_t sc = {.p = p, .lay = &lay};
    exec_opts_t eo = o->eo;
    if (o->show) {
        sc.ex = xcalloc((size_t)nm * SHOW_MAX, sizeof *sc.ex);
        eo.on_consistent = show_hook;
        eo.on_consistent_ctx = &sc;
    }
    double t0 = now_s();
    if (exec_eval(p, models, nm, &eo, res, &st, &d)) {
        cli_report(&d);
        exec_layout_free(&lay);
        free(sc.ex);
        return CLI_BAD_INPUT;
    }
    double secs = now_s() - t0;
    for (int i = 0; o->show && i < nm; i++)
        if (write_show(o, p, cat_model_name(models[i]), sc.ex + (size_t)i * SHOW_MAX, sc.n[i],
                       sc.total[i]))
            rc = CLI_BAD_INPUT;
    free(sc.ex);
    o->tests++;
    for (int i = 0; i < nm; i++) {
        if (report_model(o, p, &lay, models[i], &res[i], &st, exp, nexp, secs) == CLI_FAIL)
            rc = rc == CLI_OK ? CLI_FAIL : rc;
        exec_result_free(&res[i]);
    }
    exec_layout_free(&lay);
    if (st.incomplete && rc == CLI_OK)
        rc = CLI_LIMIT;
    return rc;
}

static int run_file(litmus_opts_t *o, const char *path)
{
    prog_t *p;
    int rc = load_selected(o, path, &p);
    if (!p)
        return rc;
    expect_t exp[MAX_MODELS];
    int nexp = 0;
    if (o->expect) {
        diag_t d;
        nexp = parse_expect(p, exp, MAX_MODELS, &d);
        if (nexp < 0) {
            cli_report(&d);
            prog_free(p);
            return CLI_BAD_INPUT;
        }
        if (nexp == 0) {
            printf("FAIL %s: no (* expect ... *) block\n", p->name);
            o->failed++;
            prog_free(p);
            return CLI_FAIL;
        }
    }
    cat_model_t *models[MAX_MODELS];
    int nm = pick_models(o, exp, nexp, models, &rc);
    if (nm >= 0)
        rc = eval_file(o, p, models, nm, exp, nexp);
    prog_free(p);
    return rc;
}

/* Combine exit codes: bad input dominates, then a limit, then a failure. */
static int worst(int a, int b)
{
    static const int rank[] = {0, 1, 3, 2};
    return rank[a] >= rank[b] ? a : b;
}

/* Parse the options into O and check them; *DONE when the command ends here
 * (--help, or an error line printed) with the returned code. */
static int litmus_args(litmus_opts_t *o, int argc, char **argv, const char **junit_path, bool *done)
{
    diag_t d;
    int rc = CLI_OK;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_LITMUS);
    int c;
    *done = true;
    while ((c = cli_getopt(&g, argc, argv)) != -1) {
        switch (c) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'm':
            if (o->nmodel_args >= MAX_MODELS) {
                cli_error("too many --model options (at most %d)", MAX_MODELS);
                return CLI_BAD_INPUT;
            }
            o->model_args[o->nmodel_args++] = optarg;
            break;
        case 'f': {
            int ec;
            PCRE2_SIZE eo;
            if (o->filter)
                pcre2_code_free(o->filter);
            o->filter = pcre2_compile((PCRE2_SPTR)optarg, PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
            if (!o->filter) {
                PCRE2_UCHAR msg[256];
                pcre2_get_error_message(ec, msg, sizeof msg);
                cli_error("--filter: bad regular expression at offset %zu: %s", (size_t)eo,
                          (char *)msg);
                return CLI_BAD_INPUT;
            }
            break;
        }
        case 'u': o->eo.unroll = (int)g.num; break;
        case 'c': o->eo.max_candidates = (uint64_t)g.num; break;
        case 'P':
            if (cli_param_opt("litmus", optarg, o->params, &o->nparams))
                return CLI_BAD_INPUT;
            break;
        case 'J': o->json = true; break;
        case 'E': o->expect = true; break;
        case 'q': o->quiet = true; break;
        case 'U': *junit_path = optarg; break;
        case 'A': o->annotate = true; break;
        case 'O': o->opencl = true; break;
        case 'H': o->to_herd = optarg; break; /* created when missing, below */
        case 'S': o->show = optarg; break;
        case 'h': usage(stdout); return CLI_OK;
        }
    }
    if (optind >= argc) {
        cli_error("litmus: give at least one test file or folder (see --help)");
        return CLI_BAD_INPUT;
    }
    for (int i = 0; i < o->nmodel_args; i++)
        if (!get_model(&o->cache, o->model_args[i], &rc))
            return rc;
    if (cli_split_params(NULL, o->params, o->nparams, &o->sp, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    /* Output folders are created when missing. */
    if ((o->to_herd && cli_mkdirs(o->to_herd)) || (o->show && cli_mkdirs(o->show)))
        return CLI_BAD_INPUT;
    *done = false;
    return CLI_OK;
}

/* The text summary line: tests, models, observations per model, mismatches,
 * unreadable files (each had its error line), time. */
static void print_summary(const litmus_opts_t *o, int unreadable, double secs)
{
    printf("Summary: %d test%s, %d model%s", o->tests, o->tests == 1 ? "" : "s", o->nsum,
           o->nsum == 1 ? "" : "s");
    for (int m = 0; m < o->nsum; m++) {
        printf("%s %s %d Never %d Sometimes %d Always", m ? ";" : ":", o->sum[m].name,
               o->sum[m].obs[0], o->sum[m].obs[1], o->sum[m].obs[2]);
        if (o->sum[m].racy)
            printf(" (%d racy)", o->sum[m].racy);
    }
    if (o->expect)
        printf("; %d --expect mismatch%s", o->failed, o->failed == 1 ? "" : "es");
    if (unreadable)
        printf("; %d unreadable", unreadable);
    printf("; %.2f s\n", secs);
}

/* Run every test found under the NPATHS PATHS; returns the exit code. */
static int litmus_run(litmus_opts_t *o, char **paths, int npaths, const char *junit_path)
{
    diag_t d;
    int rc = CLI_OK;
    char **files;
    int nfiles;
    if (cli_collect(paths, npaths, ".litmus", &files, &nfiles, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (nfiles == 0) {
        cli_error("litmus: no .litmus files found");
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK && !o->to_herd && cli_junit_check(junit_path) != CLI_OK)
        rc = CLI_BAD_INPUT;
    if (rc != CLI_OK) {
        cli_free_list(files, nfiles);
        return rc;
    }
    double t0 = now_s();
    if (junit_path && !o->to_herd)
        o->junit = cli_junit_new("cohcheck litmus");
    /* A bad file gets its one error line; the others still run and the summary
     * counts it. */
    int unreadable = 0;
    for (int i = 0; i < nfiles; i++) {
        int frc = run_file(o, files[i]);
        unreadable += frc == CLI_BAD_INPUT;
        rc = worst(rc, frc);
        fflush(stdout);
    }
    if (o->junit && rc != CLI_BAD_INPUT && cli_junit_write(o->junit, junit_path) != CLI_OK)
        rc = CLI_BAD_INPUT;
    cli_junit_free(o->junit);
    o->junit = NULL;
    cli_free_list(files, nfiles);
    bool summary = nfiles > 0 && (rc != CLI_BAD_INPUT || (unreadable && nfiles > 1));
    if (o->to_herd) {
        if (summary)
            printf("Summary: %d test%s written in herd7's C dialect to %s, %d skipped (no C "
                   "form)%s%.0d%s\n",
                   o->written, o->written == 1 ? "" : "s", o->to_herd, o->skipped,
                   unreadable ? ", " : "", unreadable, unreadable ? " unreadable" : "");
        return rc;
    }
    if (o->expect)
        printf("%d passed, %d failed\n", o->passed, o->failed);
    if (!o->json && summary)
        print_summary(o, unreadable, now_s() - t0);
    return rc;
}

int cmd_litmus(int argc, char **argv)
{
    litmus_opts_t o;
    memset(&o, 0, sizeof o);
    const char *junit_path = NULL;
    o.eo.unroll = 2;
    o.cache.argv0 = argv[0];
    bool done;
    int rc = litmus_args(&o, argc, argv, &junit_path, &done);
    if (!done)
        rc = litmus_run(&o, argv + optind, argc - optind, junit_path);
    cli_params_free(&o.sp);
    if (o.filter)
        pcre2_code_free(o.filter);
    for (int i = 0; i < o.cache.n; i++) {
        free(o.cache.names[i]);
        cat_free(o.cache.models[i]);
    }
    return rc;
}
