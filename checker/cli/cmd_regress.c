/* cmd_regress.c - `cohcheck regress OLD NEW SUITE...`: what a protocol change did.
 * OLD and NEW are protocol names or files, or git revisions of one file
 * (REV:PATH, read with `git show`). Every test runs under both, per model;
 * changed verdicts, outcomes gained or lost, and state-space sizes are
 * reported; the exit status is 1 when a verdict got worse. Here: the options, the two
 * versions, models and tests, one call to regress_run (checker/regress/), the output. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/util.h"
#include "../regress/regress.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck regress [OPTIONS] OLD NEW PATH...\n"
    "\n"
    "Run every litmus test in PATH... (files or folders) on two versions of a protocol\n"
    "and report what changed: verdicts, outcomes gained or lost, and state and\n"
    "transition counts. OLD and NEW are protocol names or .proto files, or git\n"
    "revisions of one file written REV:PATH (for example HEAD~1:protocols/gpu-wt.proto,\n"
    "read with git show; a variant's base is read from the working tree).\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] =
    "exit: 0 no verdict got worse, 1 a verdict got worse (ok -> failure, or complete\n"
    "-> incomplete), 2 bad input\n";

/* Load ARG: a protocol name or file, or REV:PATH from git. */
static int load_version(const char *arg, const char *argv0, proto_t **out, diag_t *d)
{
    struct stat st;
    const char *colon = strchr(arg, ':');
    if (!colon || stat(arg, &st) == 0)
        return cli_load_protocol(arg, argv0, out, d);
    const char *path = colon + 1;
    int fd[2];
    if (pipe(fd)) {
        diag_set(d, arg, 0, 0, "cannot run git");
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        diag_set(d, arg, 0, 0, "cannot run git");
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, 2);
        execlp("git", "git", "show", arg, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    strbuf_t b;
    sb_init(&b);
    char buf[65536];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0)
        sb_putn(&b, buf, (size_t)n);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        diag_set(d, arg, 0, 0, "not a protocol file, and 'git show %s' failed", arg);
        sb_free(&b);
        return -1;
    }
    int rc = proto_parse(path, b.s, b.len, out, d);
    sb_free(&b);
    return rc;
}

static void put_outcome(strbuf_t *b, const exec_layout_t *lay, const prog_val_t *v, bool json)
{
    if (json) {
        exec_outcome_json(b, lay, v);
        return;
    }
    for (int k = 0; k < lay->nkeys; k++)
        sb_printf(b, "%s%s=%lld;", k ? " " : "", lay->names[k], (long long)v[k]);
}

/* The outcomes of S, each as put_outcome writes it, separated by SEP. */
static void put_outcomes(strbuf_t *b, const exec_layout_t *lay, const exec_outcomes_t *s, bool json,
                         const char *sep)
{
    for (size_t i = 0; i < s->n; i++) {
        sb_puts(b, i ? sep : "");
        put_outcome(b, lay, exec_outcome(s, i), json);
    }
}

/* What the options say, and the output so far. */
typedef struct {
    const char *models[8];
    int nmodels;
    bool all, json, annotate;
    const char *junit_path;
    cat_model_t *cm[8];
    cli_junit_t *ju;
    const char *new_name;
    strbuf_t out;
    cli_progress_t *pr;
} regress_cli_t;

/* The options into A and O. CLI_OK, CLI_BAD_INPUT (reported), or -1 after --help. */
static int parse_args(int argc, char **argv, regress_cli_t *a, regress_opts_t *o)
{
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_REGRESS);
    for (int ch; (ch = cli_getopt(&g, argc, argv)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'm':
            if (a->nmodels >= 8) {
                cli_error("regress: at most 8 --model options");
                return CLI_BAD_INPUT;
            }
            a->models[a->nmodels++] = optarg;
            break;
        case 'c':
        case 'i':
        case 'e':
        case 'l':
            if (cli_config_opt("regress", ch, optarg, &o->cfg) < 0)
                return CLI_BAD_INPUT;
            break;
        case 'S': o->max_states = (uint64_t)g.num; break;
        case 'u': o->unroll = (int)g.num; break;
        case 'a': a->all = true; break;
        case 'J': a->json = true; break;
        case 'U': a->junit_path = optarg; break;
        case 'A': a->annotate = true; break;
        case 'L': o->liveness = true; break;
        case CLI_OPT_POR:
        case CLI_OPT_NO_POR: cli_por_opt(ch, &o->por); break;
        case CLI_OPT_SYM: o->symmetry = true; break;
        case CLI_OPT_NO_SYM: o->symmetry = false; break;
        case 'h': cli_usage(stdout, CLI_CMD_REGRESS, USAGE, USAGE_TAIL); return -1;
        }
    }
    if (argc - optind < 3) {
        cli_error("regress: give OLD, NEW and at least one test or folder (see --help)");
        return CLI_BAD_INPUT;
    }
    return cli_junit_check(a->junit_path) == CLI_OK ? CLI_OK : CLI_BAD_INPUT;
}

/* One pair as a JSON object, or as text when it changed (every pair with --all). */
static void print_pair(regress_cli_t *a, const regress_pair_t *p, const char *model)
{
    const char *vo = regress_verdict_name(p->old.verdict),
               *vn = regress_verdict_name(p->cur.verdict);
    strbuf_t *b = &a->out;
    if (a->json) {
        sb_puts(b, "{\"test\":");
        sb_json_str(b, p->prog->name);
        sb_puts(b, ",\"model\":");
        sb_json_str(b, model);
        sb_printf(b,
                  ",\"old\":{\"verdict\":\"%s\",\"states\":%llu,\"transitions\":%llu},"
                  "\"new\":{\"verdict\":\"%s\",\"states\":%llu,\"transitions\":%llu},"
                  "\"worse\":%s,\"gained\":[",
                  vo, (unsigned long long)p->old.states, (unsigned long long)p->old.transitions, vn,
                  (unsigned long long)p->cur.states, (unsigned long long)p->cur.transitions,
                  p->worse ? "true" : "false");
        put_outcomes(b, p->lay, &p->gained, true, ",");
        sb_puts(b, "],\"lost\":[");
        put_outcomes(b, p->lay, &p->lost, true, ",");
        sb_puts(b, "]}\n");
        return;
    }
    if (!p->any && !a->all)
        return;
    sb_printf(b, "%s %s %s: %s%s%s",
              p->worse ? "WORSE"
              : p->any ? "changed"
                       : "same",
              p->prog->name, model, vo, p->verdict_changed ? " -> " : "",
              p->verdict_changed ? vn : "");
    if (p->states_changed)
        sb_printf(b, "; states %llu -> %llu, transitions %llu -> %llu",
                  (unsigned long long)p->old.states, (unsigned long long)p->cur.states,
                  (unsigned long long)p->old.transitions, (unsigned long long)p->cur.transitions);
    sb_putc(b, '\n');
    if (p->gained.n) {
        sb_puts(b, "    outcomes gained:\n      ");
        put_outcomes(b, p->lay, &p->gained, false, "\n      ");
        sb_putc(b, '\n');
    }
    if (p->lost.n) {
        sb_puts(b, "    outcomes lost:\n      ");
        put_outcomes(b, p->lay, &p->lost, false, "\n      ");
        sb_putc(b, '\n');
    }
}

/* regress_run's callbacks. */
static void on_pair(void *ctx, const regress_pair_t *p)
{
    regress_cli_t *a = ctx;
    const char *model = cat_model_name(a->cm[p->model]);
    char tname[300], msg[300];
    snprintf(tname, sizeof tname, "%s [%s]", p->prog->name, model);
    snprintf(msg, sizeof msg, "%s -> %s", regress_verdict_name(p->old.verdict),
             regress_verdict_name(p->cur.verdict));
    cli_junit_case(a->ju, a->new_name, tname, 0, p->worse ? "failure" : NULL,
                   p->worse ? "worse" : NULL, p->worse ? msg : NULL, NULL);
    if (a->annotate && p->worse)
        cli_annotate(&a->out, "error", p->prog->file, 1, tname, msg);
    print_pair(a, p, model);
}

static void on_progress(void *ctx, int done, int total, const char *file)
{
    cli_progress(((regress_cli_t *)ctx)->pr, done, total, "%s", file);
}

static void on_bad_file(void *ctx, const diag_t *d)
{
    (void)ctx;
    cli_report(d);
}

/* The two versions, the models (--model, else NEW's target) and the tests. CLI_OK or
 * CLI_BAD_INPUT (reported). */
static int load_inputs(regress_cli_t *a, int argc, char **argv, proto_t **po, proto_t **pn,
                       char ***files, regress_opts_t *o)
{
    diag_t d;
    if (load_version(argv[optind], argv[0], po, &d) ||
        load_version(argv[optind + 1], argv[0], pn, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (!a->nmodels) {
        if (!(*pn)->target) {
            cli_error("regress: %s declares no target; give --model", (*pn)->name);
            return CLI_BAD_INPUT;
        }
        a->models[a->nmodels++] = (*pn)->target;
    }
    for (int i = 0; i < a->nmodels; i++)
        if (cli_load_model(a->models[i], argv[0], &a->cm[i], &d)) {
            cli_report(&d);
            return CLI_BAD_INPUT;
        }
    if (cli_collect(argv + optind + 2, argc - optind - 2, ".litmus", files, &o->nfiles, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    o->old = *po;
    o->cur = *pn;
    o->models = a->cm;
    o->nmodels = a->nmodels;
    o->files = *files;
    return CLI_OK;
}

int cmd_regress(int argc, char **argv)
{
    regress_cli_t a = {0};
    regress_opts_t o = {.cfg.chan_capacity = 8,
                        .unroll = 2,
                        .max_states = 2000000,
                        .por = CLI_POR_DEFAULT,
                        .symmetry = true,
                        .on_pair = on_pair,
                        .progress = on_progress,
                        .bad_file = on_bad_file,
                        .ctx = &a};
    int rc = parse_args(argc, argv, &a, &o);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    proto_t *po = NULL, *pn = NULL;
    char **files = NULL;
    rc = load_inputs(&a, argc, argv, &po, &pn, &files, &o);
    if (rc == CLI_OK) {
        a.new_name = pn->name;
        a.ju = a.junit_path ? cli_junit_new("cohcheck regress") : NULL;
        sb_init(&a.out);
        a.pr = cli_progress_new("regress", !a.json);
        regress_stats_t st;
        regress_run(&o, &st);
        cli_progress_free(a.pr);
        fputs(a.out.s, stdout);
        if (!a.json)
            printf("%s -> %s: %d runs (%d tests x %d models), %d changed, %d got worse%s%.0d%s\n",
                   argv[optind], argv[optind + 1], st.runs, o.nfiles - st.unreadable, a.nmodels,
                   st.changed, st.worse, st.unreadable ? ", " : "", st.unreadable,
                   st.unreadable ? " unreadable" : "");
        rc = st.unreadable ? CLI_BAD_INPUT : st.worse ? CLI_FAIL : CLI_OK;
        if (a.ju && cli_junit_write(a.ju, a.junit_path) != CLI_OK)
            rc = CLI_BAD_INPUT;
        cli_junit_free(a.ju);
        sb_free(&a.out);
    }
    cli_free_list(files, o.nfiles);
    for (int i = 0; i < a.nmodels; i++)
        cat_free(a.cm[i]);
    proto_free(po);
    proto_free(pn);
    return rc;
}
