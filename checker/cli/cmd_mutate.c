/* cmd_mutate.c - `cohcheck mutate`: how much of a protocol's behaviour a suite
 * pins down. Every mutant of the protocol's table (one small change to one row)
 * is checked on the suite until a test kills it; survivors are checked again
 * with stronger settings; what survives everything is called equivalent when
 * every test reaches exactly the original's outcomes, else a hole in the suite. */
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

/* Keep only the mutants numbered in LIST ("3,7,10-12"), in order. -1 (reported) on junk
 * or a number no mutant has. */
static int select_only(const char *list, mutant_t **m, int *n)
{
    bool *keep = xcalloc((size_t)*n + 1, sizeof *keep);
    const char *s = list;
    int rc = 0;
    while (rc == 0) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || !isdigit((unsigned char)*s))
            rc = -1;
        else if (*end == '-') {
            const char *s2 = end + 1;
            b = strtol(s2, &end, 10);
            if (end == s2 || !isdigit((unsigned char)*s2))
                rc = -1;
        }
        if (rc == 0 && (a < 1 || b < a || b > *n))
            rc = -1;
        for (long i = a; rc == 0 && i <= b; i++)
            keep[i - 1] = true;
        if (rc == 0 && *end == '\0')
            break;
        if (rc == 0 && *end != ',')
            rc = -1;
        s = end + 1;
    }
    if (rc) {
        cli_error("mutate: --only takes mutant numbers from 1 to %d, like '3,7,10-12': '%s'", *n,
                  list);
        free(keep);
        return -1;
    }
    int k = 0;
    for (int i = 0; i < *n; i++) {
        if (keep[i])
            (*m)[k++] = (*m)[i];
        else
            mutate_free_one(&(*m)[i]);
    }
    *n = k;
    free(keep);
    return 0;
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

int cmd_mutate(int argc, char **argv)
{
    const char *proto_arg = NULL, *model_arg = NULL, *stronger = "warm,warm+all,warm+cus4";
    const char *params[32];
    int nparams = 0;
    sys_config_t base;
    memset(&base, 0, sizeof base);
    base.chan_capacity = 8;
    mutate_opts_t mo;
    memset(&mo, 0, sizeof mo);
    mo.max_states = 200000;
    mo.threads = 2;
    int unroll = 2;
    bool json = false, all = false, annotate = false;
    const char *junit_path = NULL, *only = NULL;
    diag_t d;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_MUTATE);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'p': proto_arg = optarg; break;
        case 'm': model_arg = optarg; break;
        case 'c':
        case 'i':
        case 'e':
        case 'l':
            if (cli_config_opt("mutate", ch, optarg, &base) < 0)
                return CLI_BAD_INPUT;
            break;
        case 'P':
            if (nparams >= 32 || !strchr(optarg, '=')) {
                cli_error("mutate: --param takes NAME=VALUE (at most 32)");
                return CLI_BAD_INPUT;
            }
            params[nparams++] = optarg;
            break;
        case 's': stronger = optarg; break;
        case 'S': mo.max_states = (uint64_t)g.num; break;
        case 'T':
            cli_error("mutate: warning: --threads N is deprecated here, use -j N (mutants at "
                      "once; --threads is the threads of one search elsewhere)");
            /* fall through */
        case 'j': mo.threads = (int)g.num; break;
        case 'u': unroll = (int)g.num; break;
        case 'J': json = true; break;
        case 'a': all = true; break;
        case 'O': only = optarg; break;
        case 'U': junit_path = optarg; break;
        case 'A': annotate = true; break;
        case 'L': mo.liveness = true; break;
        case 'h': cli_usage(stdout, CLI_CMD_MUTATE, USAGE, USAGE_TAIL); return CLI_OK;
        }
    }
    if (!proto_arg) {
        cli_error("mutate: give the protocol with --protocol P");
        return CLI_BAD_INPUT;
    }
    if (optind >= argc) {
        cli_error("mutate: give at least one litmus test or folder");
        return CLI_BAD_INPUT;
    }
    if (cli_junit_check(junit_path) != CLI_OK)
        return CLI_BAD_INPUT;
    /* Stronger settings. */
    mutate_setting_t sets[16];
    char setbuf[512];
    int nsets = 0;
    if (strcmp(stronger, "none")) {
        if (strlen(stronger) >= sizeof setbuf) {
            cli_error("mutate: --stronger list too long");
            return CLI_BAD_INPUT;
        }
        snprintf(setbuf, sizeof setbuf, "%s", stronger);
        char *save = NULL;
        for (char *t = strtok_r(setbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (nsets >= 16 || parse_setting(t, &base, &sets[nsets].cfg)) {
                cli_error("mutate: --stronger: bad setting '%s' (warm, cold, +fetch, +evict, "
                          "+all, ...)",
                          t);
                return CLI_BAD_INPUT;
            }
            sets[nsets++].name = t;
        }
    }
    proto_t *p;
    if (cli_load_protocol(proto_arg, argv[0], &p, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    for (int i = 0; i < nparams; i++) {
        char name[64];
        const char *eq = strchr(params[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - params[i]), params[i]);
        if (proto_set_param(p, name, atoi(eq + 1), &d)) {
            cli_report(&d);
            proto_free(p);
            return CLI_BAD_INPUT;
        }
    }
    const char *mname = model_arg ? model_arg : p->target;
    if (!mname) {
        cli_error("mutate: protocol %s declares no target; give --model", p->name);
        proto_free(p);
        return CLI_BAD_INPUT;
    }
    cat_model_t *model;
    if (cli_load_model(mname, argv[0], &model, &d)) {
        cli_report(&d);
        proto_free(p);
        return CLI_BAD_INPUT;
    }
    char **files;
    int nfiles;
    int rc = CLI_OK;
    if (cli_collect(argv + optind, argc - optind, ".litmus", &files, &nfiles, &d)) {
        cli_report(&d);
        cat_free(model);
        proto_free(p);
        return CLI_BAD_INPUT;
    }
    mutate_test_t *tests = xcalloc((size_t)nfiles + 1, sizeof *tests);
    int ntests = 0, unreadable = 0;
    /* A bad test file gets its error line and is left out; the others run, and the
     * summary counts it (exit 2 after the run). */
    for (int i = 0; i < nfiles && rc == CLI_OK; i++) {
        mutate_test_t *t = &tests[ntests];
        if (prog_load(files[i], &t->prog, &d)) {
            cli_report(&d);
            unreadable++;
            continue;
        }
        exec_opts_t xo = {.unroll = unroll};
        exec_stats_t xs;
        if (exec_eval(t->prog, &model, 1, &xo, &t->mr, &xs, &d)) {
            cli_report(&d);
            prog_free(t->prog);
            unreadable++;
            continue;
        }
        exec_layout_init(&t->lay, t->prog);
        t->path = files[i];
        ntests++;
    }
    mutant_t *m = NULL;
    int nm = 0;
    if (rc == CLI_OK && mutate_generate(p, &m, &nm, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK && only && select_only(only, &m, &nm) < 0)
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK) {
        prog_ctx_t pc = {cli_progress_new("mutate", !json)};
        mo.base = base;
        mo.stronger = sets;
        mo.nstronger = nsets;
        mo.progress = progress;
        mo.progress_ctx = &pc;
        if (mutate_run(p, m, nm, tests, ntests, &mo, &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
        }
        cli_progress_free(pc.pr);
    }
    if (rc == CLI_OK) {
        int cnt[6] = {0};
        for (int i = 0; i < nm; i++)
            cnt[m[i].cls]++;
        int usable = 0;
        for (int t = 0; t < ntests; t++)
            usable += tests[t].usable;
        /* Not-covered mutants stay in the denominator: the suite never exercises them. */
        int denom = nm - cnt[MUT_EQUIVALENT] - cnt[MUT_INVALID];
        double rate = denom ? 100.0 * (cnt[MUT_KILLED] + cnt[MUT_KILLED_STRONGER]) / denom : 100;
        strbuf_t b;
        sb_init(&b);
        for (int i = 0; i < nm; i++) {
            const mutant_t *x = &m[i];
            if (json) {
                json_mutant(&b, x);
                continue;
            }
            if (!all && (x->cls == MUT_KILLED || x->cls == MUT_INVALID))
                continue;
            sb_printf(&b, "%-15s #%-4d %s:%d %s %s\n  - %s\n  + %s\n", mutant_class_names[x->cls],
                      x->id, x->file, x->line, x->ctrl, x->op, x->before,
                      *x->after ? x->after : "(row removed)");
            if (x->killed_by)
                sb_printf(&b, "  killed by %s (%s, %s)\n", x->killed_by, x->verdict, x->setting);
            if (x->error)
                sb_printf(&b, "  does not load: %s\n", x->error);
            if (x->cls == MUT_SURVIVED)
                sb_printf(&b,
                          "  outcomes: more on %d, fewer on %d, search bounded on %d "
                          "(setting, test) pairs; first %s%s\n",
                          x->gained, x->lost, x->bounded, x->differs_on ? x->differs_on : "-",
                          !x->gained && !x->bounded ? "; it only removes behaviour" : "");
        }
        if (json) {
            sb_puts(&b, "{\"protocol\":");
            sb_json_str(&b, p->name);
            sb_puts(&b, ",\"model\":");
            sb_json_str(&b, cat_model_name(model));
            sb_printf(&b,
                      ",\"tests\":%d,\"usable_tests\":%d,\"mutants\":%d,\"killed\":%d,"
                      "\"killed_stronger\":%d,\"survived\":%d,\"equivalent\":%d,\"invalid\":%d,"
                      "\"not_covered\":%d,\"liveness\":%s,\"kill_rate\":%.4f}\n",
                      ntests, usable, nm, cnt[MUT_KILLED], cnt[MUT_KILLED_STRONGER],
                      cnt[MUT_SURVIVED], cnt[MUT_EQUIVALENT], cnt[MUT_INVALID],
                      cnt[MUT_NOT_COVERED], mo.liveness ? "true" : "false", rate / 100);
        } else {
            sb_printf(&b,
                      "%s under %s: %d mutants on %d tests (%d usable): %d killed, %d killed "
                      "only with stronger settings, %d survived, %d equivalent, %d invalid, %d "
                      "not covered (counted as not killed); kill rate %.1f %%\n",
                      p->name, cat_model_name(model), nm, ntests, usable, cnt[MUT_KILLED],
                      cnt[MUT_KILLED_STRONGER], cnt[MUT_SURVIVED], cnt[MUT_EQUIVALENT],
                      cnt[MUT_INVALID], cnt[MUT_NOT_COVERED], rate);
            if (unreadable)
                sb_printf(&b, "%d test file%s unreadable (left out)\n", unreadable,
                          unreadable == 1 ? "" : "s");
        }
        cli_junit_t *ju = junit_path ? cli_junit_new("cohcheck mutate") : NULL;
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
                cli_annotate(&b, "warning", x->file, x->line, title, msg);
            }
        }
        fputs(b.s, stdout);
        sb_free(&b);
        if (ju && cli_junit_write(ju, junit_path) != CLI_OK)
            rc = CLI_BAD_INPUT;
        cli_junit_free(ju);
    }
    if (unreadable)
        rc = CLI_BAD_INPUT;
    mutate_free(m, nm);
    for (int t = 0; t < ntests; t++) {
        exec_layout_free(&tests[t].lay);
        exec_result_free(&tests[t].mr);
        prog_free(tests[t].prog);
    }
    free(tests);
    cli_free_list(files, nfiles);
    cat_free(model);
    proto_free(p);
    return rc;
}
