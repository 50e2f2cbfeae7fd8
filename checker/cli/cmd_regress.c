/* cmd_regress.c - `cohcheck regress OLD NEW SUITE...`: what a protocol change did.
 * OLD and NEW are protocol names or files, or git revisions of one file
 * (REV:PATH, read with `git show`). Every test runs under both, per model;
 * changed verdicts, outcomes gained or lost, and state-space sizes are
 * reported; the exit status is 1 when a verdict got worse. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/util.h"
#include "../explore/explore.h"
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

typedef struct {
    int verdict; /* explore_verdict_t, or -1 skipped */
    uint64_t states, transitions;
    exec_outcomes_t reached;
    bool have;
} res_t;

static void run_one(const proto_t *p, const prog_t *prog, const sys_config_t *cfg,
                    const exec_model_result_t *mr, int nkeys, uint64_t max_states, bool por,
                    bool live, res_t *r)
{
    memset(r, 0, sizeof *r);
    r->verdict = -1;
    sys_t *s;
    diag_t d;
    if (sys_new(p, prog, cfg, &s, &d))
        return;
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = max_states;
    eo.por = por;
    eo.allowed = mr->racy ? NULL : &mr->allowed;
    eo.liveness = live;
    eo.fairness = live ? 1 : 0;
    explore_result_t x;
    if (explore_run(s, nkeys, &eo, &x, &d)) {
        r->verdict = EXPLORE_UNEXPECTED;
        sys_free(s);
        return;
    }
    r->verdict = x.verdict;
    r->states = x.states;
    r->transitions = x.transitions;
    exec_outcomes_init(&r->reached, x.reached.nkeys);
    for (size_t i = 0; i < x.reached.n; i++)
        exec_outcomes_add(&r->reached, exec_outcome(&x.reached, i));
    r->have = true;
    explore_result_free(&x);
    sys_free(s);
}

static int rank(int v)
{
    return v < 0 ? -1 : v == EXPLORE_OK ? 0 : v == EXPLORE_INCOMPLETE ? 1 : 2;
}

static const char *vname(int v)
{
    return v < 0 ? "skipped" : explore_verdict_names[v];
}

static void put_outcome(strbuf_t *b, const exec_layout_t *lay, const prog_val_t *v, bool json)
{
    if (json) {
        cli_outcome_json(b, lay, v);
        return;
    }
    for (int k = 0; k < lay->nkeys; k++)
        sb_printf(b, "%s%s=%lld;", k ? " " : "", lay->names[k], (long long)v[k]);
}

int cmd_regress(int argc, char **argv)
{
    const char *models[8];
    int nmodels = 0, unroll = 2;
    sys_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.chan_capacity = 8;
    uint64_t max_states = 2000000;
    bool all = false, json = false, annotate = false, por = CLI_POR_DEFAULT, live = false;
    const char *junit_path = NULL;
    diag_t d;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_REGRESS);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'm':
            if (nmodels >= 8) {
                cli_error("regress: at most 8 --model options");
                return CLI_BAD_INPUT;
            }
            models[nmodels++] = optarg;
            break;
        case 'c':
        case 'i':
        case 'e':
        case 'l':
            if (cli_config_opt("regress", ch, optarg, &cfg) < 0)
                return CLI_BAD_INPUT;
            break;
        case 'S': max_states = (uint64_t)g.num; break;
        case 'u': unroll = (int)g.num; break;
        case 'a': all = true; break;
        case 'J': json = true; break;
        case 'U': junit_path = optarg; break;
        case 'A': annotate = true; break;
        case 'L': live = true; break;
        case CLI_OPT_POR:
        case CLI_OPT_NO_POR: cli_por_opt(ch, &por); break;
        case 'h': cli_usage(stdout, CLI_CMD_REGRESS, USAGE, USAGE_TAIL); return CLI_OK;
        }
    }
    if (argc - optind < 3) {
        cli_error("regress: give OLD, NEW and at least one test or folder (see --help)");
        return CLI_BAD_INPUT;
    }
    if (cli_junit_check(junit_path) != CLI_OK)
        return CLI_BAD_INPUT;
    proto_t *po = NULL, *pn = NULL;
    if (load_version(argv[optind], argv[0], &po, &d) ||
        load_version(argv[optind + 1], argv[0], &pn, &d)) {
        cli_report(&d);
        proto_free(po);
        return CLI_BAD_INPUT;
    }
    if (!nmodels) {
        if (!pn->target) {
            cli_error("regress: %s declares no target; give --model", pn->name);
            proto_free(po);
            proto_free(pn);
            return CLI_BAD_INPUT;
        }
        models[nmodels++] = pn->target;
    }
    cat_model_t *cm[8] = {0};
    int rc = CLI_OK;
    for (int i = 0; i < nmodels && rc == CLI_OK; i++)
        if (cli_load_model(models[i], argv[0], &cm[i], &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
        }
    char **files = NULL;
    int nfiles = 0;
    if (rc == CLI_OK &&
        cli_collect(argv + optind + 2, argc - optind - 2, ".litmus", &files, &nfiles, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    }
    int worse = 0, changed = 0, runs = 0;
    cli_junit_t *ju = junit_path ? cli_junit_new("cohcheck regress") : NULL;
    strbuf_t out;
    sb_init(&out);
    int unreadable = 0; /* bad test files: an error line each, left out, exit 2 at the end */
    cli_progress_t *pr = cli_progress_new("regress", !json);
    for (int f = 0; f < nfiles && rc == CLI_OK; f++) {
        cli_progress(pr, f, nfiles, "%s", files[f]);
        prog_t *prog;
        if (prog_load(files[f], &prog, &d)) {
            cli_report(&d);
            unreadable++;
            continue;
        }
        exec_model_result_t mr[8];
        exec_stats_t xs;
        exec_opts_t xo = {.unroll = unroll};
        if (exec_eval(prog, cm, nmodels, &xo, mr, &xs, &d)) {
            cli_report(&d);
            prog_free(prog);
            unreadable++;
            continue;
        }
        exec_layout_t lay;
        exec_layout_init(&lay, prog);
        for (int m = 0; m < nmodels; m++) {
            res_t a, b;
            run_one(po, prog, &cfg, &mr[m], lay.nkeys, max_states, por, live, &a);
            run_one(pn, prog, &cfg, &mr[m], lay.nkeys, max_states, por, live, &b);
            runs++;
            bool vchg = a.verdict != b.verdict;
            bool got_worse = rank(b.verdict) > rank(a.verdict) && rank(a.verdict) >= 0;
            strbuf_t gained, lost;
            sb_init(&gained);
            sb_init(&lost);
            int ng = 0, nl = 0;
            /* A search that stopped (a failure or a limit) reached only part of its
             * outcomes: gained needs the old search complete, lost the new one. */
            bool a_all = a.verdict == EXPLORE_OK, b_all = b.verdict == EXPLORE_OK;
            if (a.have && b.have && a_all) {
                for (size_t i = 0; i < b.reached.n; i++)
                    if (!exec_outcomes_has(&a.reached, exec_outcome(&b.reached, i))) {
                        sb_puts(&gained, ng++ ? (json ? "," : "\n      ") : "");
                        put_outcome(&gained, &lay, exec_outcome(&b.reached, i), json);
                    }
            }
            if (a.have && b.have && b_all) {
                for (size_t i = 0; i < a.reached.n; i++)
                    if (!exec_outcomes_has(&b.reached, exec_outcome(&a.reached, i))) {
                        sb_puts(&lost, nl++ ? (json ? "," : "\n      ") : "");
                        put_outcome(&lost, &lay, exec_outcome(&a.reached, i), json);
                    }
            }
            bool schg = a.states != b.states || a.transitions != b.transitions;
            bool any = vchg || ng || nl || schg;
            changed += any;
            worse += got_worse;
            {
                char tname[300], msg[300];
                snprintf(tname, sizeof tname, "%s [%s]", prog->name, cat_model_name(cm[m]));
                snprintf(msg, sizeof msg, "%s -> %s", vname(a.verdict), vname(b.verdict));
                cli_junit_case(ju, pn->name, tname, 0, got_worse ? "failure" : NULL,
                               got_worse ? "worse" : NULL, got_worse ? msg : NULL, NULL);
                if (annotate && got_worse) {
                    strbuf_t an;
                    sb_init(&an);
                    cli_annotate(&an, "error", prog->file, 1, tname, msg);
                    sb_puts(&out, an.s);
                    sb_free(&an);
                }
            }
            if (json) {
                sb_puts(&out, "{\"test\":");
                sb_json_str(&out, prog->name);
                sb_puts(&out, ",\"model\":");
                sb_json_str(&out, cat_model_name(cm[m]));
                sb_printf(&out,
                          ",\"old\":{\"verdict\":\"%s\",\"states\":%llu,\"transitions\":%llu},"
                          "\"new\":{\"verdict\":\"%s\",\"states\":%llu,\"transitions\":%llu},"
                          "\"worse\":%s,\"gained\":[%s],\"lost\":[%s]}\n",
                          vname(a.verdict), (unsigned long long)a.states,
                          (unsigned long long)a.transitions, vname(b.verdict),
                          (unsigned long long)b.states, (unsigned long long)b.transitions,
                          got_worse ? "true" : "false", gained.s, lost.s);
            } else if (any || all) {
                sb_printf(&out, "%s %s %s: %s%s%s",
                          got_worse ? "WORSE"
                          : any     ? "changed"
                                    : "same",
                          prog->name, cat_model_name(cm[m]), vname(a.verdict), vchg ? " -> " : "",
                          vchg ? vname(b.verdict) : "");
                if (schg)
                    sb_printf(&out, "; states %llu -> %llu, transitions %llu -> %llu",
                              (unsigned long long)a.states, (unsigned long long)b.states,
                              (unsigned long long)a.transitions, (unsigned long long)b.transitions);
                sb_putc(&out, '\n');
                if (ng)
                    sb_printf(&out, "    outcomes gained:\n      %s\n", gained.s);
                if (nl)
                    sb_printf(&out, "    outcomes lost:\n      %s\n", lost.s);
            }
            sb_free(&gained);
            sb_free(&lost);
            if (a.have)
                exec_outcomes_free(&a.reached);
            if (b.have)
                exec_outcomes_free(&b.reached);
        }
        for (int m = 0; m < nmodels; m++)
            exec_result_free(&mr[m]);
        exec_layout_free(&lay);
        prog_free(prog);
    }
    cli_progress_free(pr);
    if (rc == CLI_OK) {
        fputs(out.s, stdout);
        if (!json)
            printf("%s -> %s: %d runs (%d tests x %d models), %d changed, %d got worse%s%.0d%s\n",
                   argv[optind], argv[optind + 1], runs, nfiles - unreadable, nmodels, changed,
                   worse, unreadable ? ", " : "", unreadable, unreadable ? " unreadable" : "");
        rc = unreadable ? CLI_BAD_INPUT : worse ? CLI_FAIL : CLI_OK;
        if (ju && cli_junit_write(ju, junit_path) != CLI_OK)
            rc = CLI_BAD_INPUT;
    }
    cli_junit_free(ju);
    sb_free(&out);
    cli_free_list(files, nfiles);
    for (int i = 0; i < nmodels; i++)
        cat_free(cm[i]);
    proto_free(po);
    proto_free(pn);
    return rc;
}
