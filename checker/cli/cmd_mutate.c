/* cmd_mutate.c - `cohcheck mutate`: how much of a protocol's behaviour a suite
 * pins down. Every mutant of the protocol's table (one small change to one row)
 * is checked on the suite until a test kills it; survivors are checked again
 * with stronger settings; what survives everything is called equivalent when
 * every test reaches exactly the original's outcomes, else a hole in the suite.
 * Here: the options, the protocol, model and tests they name, the calls into
 * checker/mutate/ (mutate.h), and the output. */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/util.h"
#include "../mutate/mutate.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck mutate --protocol P [OPTIONS] PATH...\n"
    "\n"
    "Mutation testing: generate the mutants of protocol P's resolved table, each one\n"
    "small change to one row, and check each on the litmus tests in PATH... (files or\n"
    "folders) until a test kills it (a violation, deadlock, invariant failure or\n"
    "unexpected event). Only tests the original passes completely can kill. Survivors\n"
    "are checked again under stronger settings. Operators: drop-action, drop-send,\n"
    "swap-actions, wait-to-done, redirect-next, drop-guard, drop-conjunct,\n"
    "negate-comparison, off-by-one (integer literals), stall-to-unhandled.\n"
    "\n"
    "classes: killed, killed-stronger (only under a stronger setting), equivalent (no\n"
    "test refutes it, every test reaches exactly the original's outcomes in every\n"
    "setting, and the mutated row is chosen on some test), not-covered (the same, but\n"
    "the original never chooses the mutated row on the suite: counted as not killed),\n"
    "survived (a hole in the suite: some test reaches other outcomes, yet none refutes\n"
    "it), invalid (the mutated table does not load; not counted).\n"
    "kill rate = (killed + killed-stronger) / (mutants - equivalent - invalid).\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] = "exit: 0 done, 2 bad input\n";

typedef struct {
    cli_progress_t *pr; /* the shared progress line (cli_out.c) */
} prog_ctx_t;

static void progress(void *ctx, const mutant_t *m, int done, int total)
{
    prog_ctx_t *p = ctx;
    if (m)
        cli_progress(p->pr, done, total, "mutant #%d", m->id);
    else
        cli_progress(p->pr, done, total, NULL);
}

/* "warm+evict+fetch" into CFG (from BASE). -1 on junk. */
static int parse_setting(const char *s, const sys_config_t *base, sys_config_t *cfg)
{
    *cfg = *base;
    cfg->env = 0;
    cfg->env_all = false;
    cfg->nenv_names = 0;
    char tmp[128], env[128] = "";
    if (strlen(s) >= sizeof tmp)
        return -1;
    snprintf(tmp, sizeof tmp, "%s", s);
    char *save = NULL;
    for (char *t = strtok_r(tmp, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        if (!strcmp(t, "warm") || !strcmp(t, "cold"))
            cfg->warm = !strcmp(t, "warm");
        else if (!strncmp(t, "cus", 3) && t[3] >= '1' && t[3] <= '9' && strlen(t) <= 5 &&
                 atoi(t + 3) <= 15)
            cfg->cus = atoi(t + 3); /* more compute units than the test places threads on */
        else
            snprintf(env + strlen(env), sizeof env - strlen(env), "%s%s", *env ? "," : "", t);
    }
    return *env ? cli_parse_env(env, cfg) : 0;
}

static void json_mutant(strbuf_t *b, const mutant_t *m)
{
    sb_printf(b, "{\"mutant\":%d,\"file\":", m->id);
    sb_json_str(b, m->file);
    sb_printf(b, ",\"line\":%d,\"controller\":", m->line);
    sb_json_str(b, m->ctrl);
    sb_puts(b, ",\"operator\":");
    sb_json_str(b, m->op);
    sb_puts(b, ",\"original\":");
    sb_json_str(b, m->before);
    sb_puts(b, ",\"row\":");
    sb_json_str(b, m->after);
    sb_puts(b, ",\"class\":");
    sb_json_str(b, mutant_class_names[m->cls]);
    sb_puts(b, ",\"killed_by\":");
    if (m->killed_by) {
        sb_json_str(b, m->killed_by);
        sb_puts(b, ",\"verdict\":");
        sb_json_str(b, m->verdict);
        sb_puts(b, ",\"setting\":");
        sb_json_str(b, m->setting);
    } else {
        sb_puts(b, "null");
    }
    if (m->cls == MUT_SURVIVED || m->cls == MUT_EQUIVALENT || m->cls == MUT_NOT_COVERED) {
        sb_printf(b, ",\"gained\":%d,\"lost\":%d,\"bounded\":%d,\"differs_on\":", m->gained,
                  m->lost, m->bounded);
        if (m->differs_on)
            sb_json_str(b, m->differs_on);
        else
            sb_puts(b, "null");
    }
    if (m->error) {
        sb_puts(b, ",\"error\":");
        sb_json_str(b, m->error);
    }
    sb_puts(b, "}\n");
}

/* What the options say. */
typedef struct {
    const char *proto_arg, *model_arg, *stronger, *junit_path, *only;
    const char *params[32];
    int nparams, unroll;
    bool json, all, annotate;
} mutate_args_t;

/* The options into A and MO. CLI_OK, CLI_BAD_INPUT (reported), or -1 after --help. */
static int parse_args(int argc, char **argv, mutate_args_t *a, mutate_opts_t *mo)
{
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_MUTATE);
    for (int ch; (ch = cli_getopt(&g, argc, argv)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'p': a->proto_arg = optarg; break;
        case 'm': a->model_arg = optarg; break;
        case 'c':
        case 'i':
        case 'e':
        case 'l':
            if (cli_config_opt("mutate", ch, optarg, &mo->base) < 0)
                return CLI_BAD_INPUT;
            break;
        case 'P':
            if (a->nparams >= 32 || !strchr(optarg, '=')) {
                cli_error("mutate: --param takes NAME=VALUE (at most 32)");
                return CLI_BAD_INPUT;
            }
            a->params[a->nparams++] = optarg;
            break;
        case 's': a->stronger = optarg; break;
        case 'S': mo->max_states = (uint64_t)g.num; break;
        case 'M': mo->max_memory = g.size; break;
        case 'T':
            cli_error("mutate: warning: --threads N is deprecated here, use -j N (mutants at "
                      "once; --threads is the threads of one search elsewhere)");
            /* fall through */
        case 'j': mo->threads = (int)g.num; break;
        case 'u': a->unroll = (int)g.num; break;
        case 'J': a->json = true; break;
        case 'a': a->all = true; break;
        case 'O': a->only = optarg; break;
        case 'U': a->junit_path = optarg; break;
        case 'A': a->annotate = true; break;
        case 'L': mo->liveness = true; break;
        case CLI_OPT_POR:
        case CLI_OPT_NO_POR: cli_por_opt(ch, &mo->por); break;
        case 'h': cli_usage(stdout, CLI_CMD_MUTATE, USAGE, USAGE_TAIL); return -1;
        }
    }
    if (!a->proto_arg) {
        cli_error("mutate: give the protocol with --protocol P");
        return CLI_BAD_INPUT;
    }
    if (optind >= argc) {
        cli_error("mutate: give at least one litmus test or folder");
        return CLI_BAD_INPUT;
    }
    return cli_junit_check(a->junit_path) == CLI_OK ? CLI_OK : CLI_BAD_INPUT;
}

/* --stronger's LIST (copied into BUF) into SETS (at most 16) from BASE. -1 (reported). */
static int parse_stronger(const char *list, const sys_config_t *base, char *buf, size_t len,
                          mutate_setting_t *sets, int *n)
{
    *n = 0;
    if (!strcmp(list, "none"))
        return 0;
    if (strlen(list) >= len) {
        cli_error("mutate: --stronger list too long");
        return -1;
    }
    snprintf(buf, len, "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n >= 16 || parse_setting(t, base, &sets[*n].cfg)) {
            cli_error("mutate: --stronger: bad setting '%s' (warm, cold, +fetch, +evict, "
                      "+all, ...)",
                      t);
            return -1;
        }
        sets[(*n)++].name = t;
    }
    return 0;
}

/* The protocol with its --param settings, and the model (--model, else its target).
 * CLI_OK or CLI_BAD_INPUT (reported). */
static int load_protocol_model(const mutate_args_t *a, const char *argv0, proto_t **p,
                               cat_model_t **model)
{
    diag_t d;
    if (cli_load_protocol(a->proto_arg, argv0, p, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    for (int i = 0; i < a->nparams; i++) {
        char name[64];
        const char *eq = strchr(a->params[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - a->params[i]), a->params[i]);
        if (proto_set_param(*p, name, atoi(eq + 1), &d)) {
            cli_report(&d);
            return CLI_BAD_INPUT;
        }
    }
    const char *mname = a->model_arg ? a->model_arg : (*p)->target;
    if (!mname) {
        cli_error("mutate: protocol %s declares no target; give --model", (*p)->name);
        return CLI_BAD_INPUT;
    }
    if (cli_load_model(mname, argv0, model, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

/* One mutant as text (survivors and the like; every one with --all). */
static void text_mutant(strbuf_t *b, const mutant_t *x)
{
    sb_printf(b, "%-15s #%-4d %s:%d %s %s\n  - %s\n  + %s\n", mutant_class_names[x->cls], x->id,
              x->file, x->line, x->ctrl, x->op, x->before, *x->after ? x->after : "(row removed)");
    if (x->killed_by)
        sb_printf(b, "  killed by %s (%s, %s)\n", x->killed_by, x->verdict, x->setting);
    if (x->error)
        sb_printf(b, "  does not load: %s\n", x->error);
    if (x->cls == MUT_SURVIVED)
        sb_printf(b,
                  "  outcomes: more on %d, fewer on %d, search bounded on %d "
                  "(setting, test) pairs; first %s%s\n",
                  x->gained, x->lost, x->bounded, x->differs_on ? x->differs_on : "-",
                  !x->gained && !x->bounded ? "; it only removes behaviour" : "");
}

/* The closing summary (a line, or an object with --json). */
static void print_summary(strbuf_t *b, const mutate_args_t *a, const mutate_opts_t *mo,
                          const proto_t *p, const cat_model_t *model, int nm, int ntests,
                          int unreadable, const mutate_summary_t *s)
{
    const int *cnt = s->count;
    if (a->json) {
        sb_puts(b, "{\"protocol\":");
        sb_json_str(b, p->name);
        sb_puts(b, ",\"model\":");
        sb_json_str(b, cat_model_name(model));
        sb_printf(b,
                  ",\"tests\":%d,\"usable_tests\":%d,\"mutants\":%d,\"killed\":%d,"
                  "\"killed_stronger\":%d,\"survived\":%d,\"equivalent\":%d,\"invalid\":%d,"
                  "\"not_covered\":%d,\"liveness\":%s,\"kill_rate\":%.4f}\n",
                  ntests, s->usable, nm, cnt[MUT_KILLED], cnt[MUT_KILLED_STRONGER],
                  cnt[MUT_SURVIVED], cnt[MUT_EQUIVALENT], cnt[MUT_INVALID], cnt[MUT_NOT_COVERED],
                  mo->liveness ? "true" : "false", s->rate / 100);
        return;
    }
    sb_printf(b,
              "%s under %s: %d mutants on %d tests (%d usable): %d killed, %d killed "
              "only with stronger settings, %d survived, %d equivalent, %d invalid, %d "
              "not covered (counted as not killed); kill rate %.1f %%\n",
              p->name, cat_model_name(model), nm, ntests, s->usable, cnt[MUT_KILLED],
              cnt[MUT_KILLED_STRONGER], cnt[MUT_SURVIVED], cnt[MUT_EQUIVALENT], cnt[MUT_INVALID],
              cnt[MUT_NOT_COVERED], s->rate);
    if (unreadable)
        sb_printf(b, "%d test file%s unreadable (left out)\n", unreadable,
                  unreadable == 1 ? "" : "s");
}

/* The JUnit cases (JU may be NULL) and, with --annotate, a warning per survivor into B. */
static void junit_annotate(cli_junit_t *ju, strbuf_t *b, bool annotate, const proto_t *p,
                           const mutant_t *m, int nm)
{
    for (int i = 0; i < nm; i++) {
        const mutant_t *x = &m[i];
        char tname[256], msg[1024];
        snprintf(tname, sizeof tname, "#%d %s %s:%d", x->id, x->op, x->file, x->line);
        snprintf(msg, sizeof msg, "%s -> %s", x->before, *x->after ? x->after : "(removed)");
        if (x->cls == MUT_SURVIVED || x->cls == MUT_NOT_COVERED)
            cli_junit_case(ju, p->name, tname, 0, "failure", mutant_class_names[x->cls],
                           x->cls == MUT_SURVIVED ? "no test kills this mutant"
                                                  : "no test reaches this row",
                           msg);
        else if (x->cls == MUT_EQUIVALENT || x->cls == MUT_INVALID)
            cli_junit_case(ju, p->name, tname, 0, "skipped", mutant_class_names[x->cls],
                           x->error ? x->error : msg, NULL);
        else
            cli_junit_case(ju, p->name, tname, 0, NULL, NULL, NULL, NULL);
        if (annotate && (x->cls == MUT_SURVIVED || x->cls == MUT_NOT_COVERED)) {
            char title[128];
            snprintf(title, sizeof title, "%s mutant #%d (%s)",
                     x->cls == MUT_SURVIVED ? "surviving" : "not covered", x->id, x->op);
            cli_annotate(b, "warning", x->file, x->line, title, msg);
        }
    }
}

/* Every output of a finished run: the mutants, the summary, JUnit, annotations. */
static int print_results(const mutate_args_t *a, const mutate_opts_t *mo, const proto_t *p,
                         const cat_model_t *model, const mutant_t *m, int nm,
                         const mutate_test_t *tests, int ntests, int unreadable)
{
    mutate_summary_t s;
    mutate_summarize(m, nm, tests, ntests, &s);
    strbuf_t b;
    sb_init(&b);
    for (int i = 0; i < nm; i++) {
        if (a->json)
            json_mutant(&b, &m[i]);
        else if (a->all || (m[i].cls != MUT_KILLED && m[i].cls != MUT_INVALID))
            text_mutant(&b, &m[i]);
    }
    print_summary(&b, a, mo, p, model, nm, ntests, unreadable, &s);
    cli_junit_t *ju = a->junit_path ? cli_junit_new("cohcheck mutate") : NULL;
    junit_annotate(ju, &b, a->annotate, p, m, nm);
    fputs(b.s, stdout);
    sb_free(&b);
    int rc = ju && cli_junit_write(ju, a->junit_path) != CLI_OK ? CLI_BAD_INPUT : CLI_OK;
    cli_junit_free(ju);
    return rc;
}

static void on_bad_file(void *ctx, const diag_t *d)
{
    (void)ctx;
    cli_report(d);
}

/* Generate, select and check the mutants on TESTS, then print. The exit status. */
static int run_mutants(const mutate_args_t *a, mutate_opts_t *mo, const proto_t *p,
                       const cat_model_t *model, mutate_test_t *tests, int ntests, int unreadable)
{
    mutant_t *m = NULL;
    int nm = 0, rc = CLI_OK;
    diag_t d;
    if (mutate_generate(p, &m, &nm, &d) || (a->only && mutate_select(a->only, &m, &nm, &d))) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK) {
        prog_ctx_t pc = {cli_progress_new("mutate", !a->json)};
        mo->progress = progress;
        mo->progress_ctx = &pc;
        if (mutate_run(p, m, nm, tests, ntests, mo, &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
        }
        cli_progress_free(pc.pr);
    }
    if (rc == CLI_OK)
        rc = print_results(a, mo, p, model, m, nm, tests, ntests, unreadable);
    mutate_free(m, nm);
    return rc;
}

int cmd_mutate(int argc, char **argv)
{
    mutate_args_t a = {.stronger = "warm,warm+all,warm+cus4", .unroll = 2};
    mutate_opts_t mo = {.base.chan_capacity = 8, .max_states = 200000, .threads = 2};
    int rc = parse_args(argc, argv, &a, &mo);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    mutate_setting_t sets[16];
    char setbuf[512];
    if (parse_stronger(a.stronger, &mo.base, setbuf, sizeof setbuf, sets, &mo.nstronger))
        return CLI_BAD_INPUT;
    mo.stronger = sets;
    proto_t *p = NULL;
    cat_model_t *model = NULL;
    char **files = NULL;
    int nfiles = 0;
    diag_t d;
    rc = load_protocol_model(&a, argv[0], &p, &model);
    if (rc == CLI_OK && cli_collect(argv + optind, argc - optind, ".litmus", &files, &nfiles, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK) {
        /* A bad test file gets its error line and is left out; the others run, and the
         * summary counts it (exit 2 after the run). */
        mutate_test_t *tests;
        int ntests, unreadable;
        mutate_load_tests(files, nfiles, model, a.unroll, on_bad_file, NULL, &tests, &ntests,
                          &unreadable);
        rc = run_mutants(&a, &mo, p, model, tests, ntests, unreadable);
        if (unreadable)
            rc = CLI_BAD_INPUT;
        mutate_tests_free(tests, ntests);
    }
    cli_free_list(files, nfiles);
    cat_free(model);
    proto_free(p);
    return rc;
}
