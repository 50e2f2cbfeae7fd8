/* cmd_report.c - `cohcheck report`: regenerate reports/ from fresh runs (DESIGN.md
 * section 3): the verdict matrix (protocol x model x suite), the table-level
 * counts of every protocol, the state diagrams, a message-sequence chart of the
 * first counterexample of every refuted protocol, optionally the benchmark table,
 * and reports/index.html linking them all. Checks run as child processes of this
 * binary (the same code as `cohcheck check`); every file is written to a
 * temporary name and renamed, so an interrupted report leaves the old files. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/util.h"
#include "../draw/draw.h"
#include "../report/report.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck report [--out DIR] [--suite PATH]... [--models target|all]\n"
    "                       [--settings LIST] [--max-states N] [-j N] [--bench]\n"
    "\n"
    "Regenerate the reports from fresh runs, into DIR (default reports):\n"
    "  verdicts.md          the verdict matrix: every protocol in ./protocols under its\n"
    "                       target model (or all six) on each suite, cold, with counts\n"
    "  counts-all.md        states and transitions of every protocol's controllers\n"
    "  diagrams/P.svg       each protocol's state machines (cohcheck draw)\n"
    "  traces/P.svg         the first counterexample of each refuted protocol, as a\n"
    "                       message-sequence chart (cohcheck draw --trace)\n"
    "  bench-latest.md      with --bench: tests/bench/protocols.sh, one run per row\n"
    "  index.html           a static page linking all of them and the other reports\n"
    "\n"
    "options:\n"
    "  --out DIR           where to write (default reports; created if missing)\n"
    "  --suite PATH        a litmus file or folder (repeatable; default litmus/core)\n"
    "  --models target|all the protocol's target model (default) or all six models\n"
    "  --settings LIST     comma-separated check settings, each 'cold' or 'warm' and\n"
    "                      environment actions joined by '+' (warm+evict, cold+fetch);\n"
    "                      one matrix row per protocol, model and setting (default\n"
    "                      cold,warm)\n"
    "  --max-states N      per check (default 2000000): larger ones are 'incomplete'\n"
    "  -j N                tests checked at once (default 2)\n"
    "  --bench             also run the protocol benchmark rows (minutes)\n"
    "  --help              this text\n"
    "`cohcheck report timed --help`: the timed-mode figures and claims (reports/timed.md)\n"
    "exit: 0 written, 2 bad input or a file could not be written\n";

/* ---- child processes ---- */

/* Run ARGV with stdout captured into *OUT (malloc'd); stderr discarded.
 * Returns the exit status, or -1 if it could not run. */
static int run_capture(char *const *argv, char **out)
{
    int fd[2];
    *out = NULL;
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, 2);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    strbuf_t b;
    sb_init(&b);
    char buf[65536];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            sb_putn(&b, buf, (size_t)n);
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    *out = b.s;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The string value of "KEY":"..." or the number of "KEY":N in one JSON line, into BUF. */
static bool json_field(const char *line, const char *key, char *buf, size_t n)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    if (!p)
        return false;
    p += strlen(pat);
    bool str = *p == '"';
    p += str;
    size_t k = 0;
    while (p[k] && (str ? p[k] != '"' : (p[k] != ',' && p[k] != '}')) && k + 1 < n) {
        buf[k] = p[k];
        k++;
    }
    buf[k] = '\0';
    return true;
}

/* ---- output files ---- */

static int write_file(const char *dir, const char *name, const char *text)
{
    size_t n = strlen(dir) + strlen(name) + 40;
    char *path = xmalloc(n), *tmp = xmalloc(n + 24);
    snprintf(path, n, "%s/%s", dir, name);
    snprintf(tmp, n + 24, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
        cli_error("report: cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        rc = -1;
    }
    free(path);
    free(tmp);
    return rc;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) && errno != EEXIST) {
        cli_error("report: cannot create '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void html_esc(strbuf_t *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        default: sb_putc(b, *s);
        }
    }
}

/* ---- the matrix ---- */

enum {
    V_OK,
    V_VIOLATION,
    V_DEADLOCK,
    V_INVARIANT,
    V_UNEXPECTED,
    V_INCOMPLETE,
    V_SKIPPED,
    V_ERROR,
    V__N
};
static const char *const vnames[V__N] = {"ok",         "violation",  "deadlock", "invariant",
                                         "unexpected", "incomplete", "skipped",  "error"};

typedef struct {
    char proto[64], model[32], setting[48];
    int n[V__N];
    uint64_t states;
    double secs;
    char fail_test[128], fail_verdict[32];
    bool has_trace;
} row_t;

typedef struct {
    char *name, *path;
} test_ref_t;

/* The run: every protocol x model on the suites. */
static void run_row(const char *self, row_t *r, const char *proto_path, const char *model,
                    const char *setting, char *const *suites, int nsuites, const char *maxst,
                    const char *jobs)
{
    char *argv[64];
    int a = 0;
    /* "warm+evict+fetch" -> --init warm --env evict,fetch */
    char init[8] = "cold", env[48] = "";
    char tmp[48];
    snprintf(tmp, sizeof tmp, "%s", setting);
    char *save = NULL;
    for (char *t = strtok_r(tmp, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        if (!strcmp(t, "cold") || !strcmp(t, "warm"))
            snprintf(init, sizeof init, "%s", t);
        else
            snprintf(env + strlen(env), sizeof env - strlen(env), "%s%s", *env ? "," : "", t);
    }
    argv[a++] = (char *)self;
    argv[a++] = "check";
    argv[a++] = "--no-db";
    argv[a++] = "--json";
    argv[a++] = "--no-por"; /* reports give the full graph's verdicts and counts */
    argv[a++] = "-j";
    argv[a++] = (char *)jobs;
    argv[a++] = "--max-states";
    argv[a++] = (char *)maxst;
    argv[a++] = "--protocol";
    argv[a++] = (char *)proto_path;
    argv[a++] = "--init";
    argv[a++] = init;
    if (*env) {
        argv[a++] = "--env";
        argv[a++] = env;
    }
    if (model) {
        argv[a++] = "--model";
        argv[a++] = (char *)model;
    }
    for (int i = 0; i < nsuites && a < 62; i++)
        argv[a++] = suites[i];
    argv[a] = NULL;
    char *out;
    int st = run_capture(argv, &out);
    if (st < 0 || st == 2 || !out || !*out) {
        r->n[V_ERROR]++;
        free(out);
        return;
    }
    for (char *line = out; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char v[32], buf[64], test[128];
        if (json_field(line, "verdict", v, sizeof v)) {
            int k = V_ERROR;
            for (int i = 0; i < V__N; i++)
                if (!strcmp(v, vnames[i]))
                    k = i;
            r->n[k]++;
            if (json_field(line, "states", buf, sizeof buf))
                r->states += strtoull(buf, NULL, 10);
            if (json_field(line, "time_s", buf, sizeof buf))
                r->secs += strtod(buf, NULL);
            if (!model || !*r->model)
                json_field(line, "model", r->model, sizeof r->model);
            if (k != V_OK && k != V_SKIPPED && k != V_INCOMPLETE && !r->fail_test[0] &&
                json_field(line, "test", test, sizeof test)) {
                snprintf(r->fail_test, sizeof r->fail_test, "%s", test);
                snprintf(r->fail_verdict, sizeof r->fail_verdict, "%s", v);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(out);
}

static bool have_trace_for(const row_t *rows, size_t n, const char *proto)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].has_trace && !strcmp(rows[i].proto, proto))
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, 0, 'o'},      {"suite", required_argument, 0, 's'},
        {"models", required_argument, 0, 'm'},   {"max-states", required_argument, 0, 'S'},
        {"settings", required_argument, 0, 'T'}, {"jobs", required_argument, 0, 'j'},
        {"bench", no_argument, 0, 'b'},          {"json", no_argument, 0, 'J'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0},
    };
    if (argc > 1 && !strcmp(argv[1], "timed"))
        return cmd_report_timed(argc - 1, argv + 1);
    const char *outdir = "reports", *models = "target", *settings_arg = "cold,warm";
    char maxst[24] = "2000000", jobs[8] = "2";
    char *suites[32];
    int nsuites = 0;
    bool bench = false;
    diag_t d;
    long long v;
    opterr = 0;
    optind = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, "hj:", longopts, NULL)) != -1) {
        switch (ch) {
        case 'o': outdir = optarg; break;
        case 's':
            if (nsuites >= 30) {
                cli_error("report: at most 30 --suite options");
                return CLI_BAD_INPUT;
            }
            suites[nsuites++] = optarg;
            break;
        case 'm':
            if (strcmp(optarg, "target") && strcmp(optarg, "all")) {
                cli_error("report: --models takes 'target' or 'all', not '%s'", optarg);
                return CLI_BAD_INPUT;
            }
            models = optarg;
            break;
        case 'S':
            if (cli_parse_count("--max-states", optarg, 4000000000LL, &v, &d) || v == 0) {
                cli_error("report: --max-states takes a number from 1 to 4e9");
                return CLI_BAD_INPUT;
            }
            snprintf(maxst, sizeof maxst, "%lld", v);
            break;
        case 'j':
            if (cli_parse_count("-j", optarg, 64, &v, &d) || v == 0) {
                cli_error("report: -j takes a number from 1 to 64");
                return CLI_BAD_INPUT;
            }
            snprintf(jobs, sizeof jobs, "%lld", v);
            break;
        case 'b': bench = true; break;
        case 'T':
            if (!*optarg || strlen(optarg) > 400 ||
                strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789+,_") != strlen(optarg)) {
                cli_error("report: --settings takes a list like cold,warm,warm+evict");
                return CLI_BAD_INPUT;
            }
            settings_arg = optarg;
            break;
        case 'J': break;
        case 'h': fputs(USAGE, stdout); return CLI_OK;
        default:
            cli_error("report: unknown option or missing value '%s' (see --help)",
                      argv[optind - 1]);
            return CLI_BAD_INPUT;
        }
    }
    if (optind < argc) {
        cli_error("report: unexpected argument '%s' (see --help)", argv[optind]);
        return CLI_BAD_INPUT;
    }
    if (!nsuites)
        suites[nsuites++] = "litmus/core";
    char settings_buf[512], *settings[32];
    int nset = 0;
    snprintf(settings_buf, sizeof settings_buf, "%s", settings_arg);
    char *ssave = NULL;
    for (char *t = strtok_r(settings_buf, ",", &ssave); t && nset < 32;
         t = strtok_r(NULL, ",", &ssave)) {
        if (strlen(t) >= 48) {
            cli_error("report: setting '%s' is too long", t);
            return CLI_BAD_INPUT;
        }
        settings[nset++] = t;
    }
    char self[4096];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) {
        cli_error("report: cannot find this program's path (/proc/self/exe)");
        return CLI_BAD_INPUT;
    }
    self[sl] = '\0';
    /* Inputs: protocols, and the suites' tests (name -> path, for traces). */
    char **protos, **tests;
    int nprotos, ntests;
    char *pdir = "protocols";
    if (cli_collect(&pdir, 1, ".proto", &protos, &nprotos, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (cli_collect(suites, nsuites, ".litmus", &tests, &ntests, &d)) {
        cli_report(&d);
        cli_free_list(protos, nprotos);
        return CLI_BAD_INPUT;
    }
    if (!nprotos || !ntests) {
        cli_error("report: no %s found", !nprotos ? "protocols in ./protocols" : "litmus tests");
        cli_free_list(protos, nprotos);
        cli_free_list(tests, ntests);
        return CLI_BAD_INPUT;
    }
    test_ref_t *refs = xcalloc((size_t)ntests, sizeof *refs);
    for (int i = 0; i < ntests; i++) {
        prog_t *p;
        refs[i].path = tests[i];
        if (prog_load(tests[i], &p, &d) == 0) {
            refs[i].name = xstrdup(p->name);
            prog_free(p);
        }
    }
    char sub[4200];
    int rc = CLI_OK;
    if (make_dir(outdir))
        rc = CLI_BAD_INPUT;
    snprintf(sub, sizeof sub, "%s/diagrams", outdir);
    if (rc == CLI_OK && make_dir(sub))
        rc = CLI_BAD_INPUT;
    snprintf(sub, sizeof sub, "%s/traces", outdir);
    if (rc == CLI_OK && make_dir(sub))
        rc = CLI_BAD_INPUT;
    /* Pictures of an earlier report go: a protocol no longer refuted has no trace. */
    for (int k = 0; rc == CLI_OK && k < 2; k++) {
        char **old;
        int nold;
        snprintf(sub, sizeof sub, "%s/%s", outdir, k ? "traces" : "diagrams");
        char *sp = sub;
        if (cli_collect(&sp, 1, ".svg", &old, &nold, &d) == 0) {
            for (int i = 0; i < nold; i++)
                unlink(old[i]);
            cli_free_list(old, nold);
        }
    }
    row_t *rows = NULL;
    size_t nrows = 0, caprows = 0;
    strbuf_t counts;
    sb_init(&counts);
    sb_puts(&counts,
            "# Table-level counts of every protocol\n\n"
            "Generated by `cohcheck report` from `cohcheck count` (conventions in counts.md):\n"
            "states declared stable and transient (coherent: declared `transient coherent`),\n"
            "transitions = non-empty (state, event) cells that are neither stall nor\n"
            "impossible, branches = the same per guarded alternative.\n\n"
            "| protocol | extends | controller | stable | transient (coherent) | transitions | "
            "branches |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; rc == CLI_OK && i < nprotos; i++) {
        proto_t *p;
        if (proto_load(protos[i], &p, &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
            break;
        }
        fprintf(stderr, "report: %s\n", p->name);
        for (int c = 0; c < p->nctrls; c++) {
            proto_count_t k;
            proto_count(p, c, &k);
            sb_printf(&counts, "| %s | %s | %s | %d | %d (%d) | %d | %d |\n", p->name,
                      p->base ? p->base : "", p->ctrls[c].name, k.stable, k.transient, k.coherent,
                      k.transitions, k.branches);
        }
        /* The diagram. */
        char *dot = draw_proto_dot(p, NULL);
        snprintf(sub, sizeof sub, "%s/diagrams/%s.svg", outdir, p->name);
        if (cli_write_picture(dot, sub) != CLI_OK)
            rc = CLI_BAD_INPUT;
        free(dot);
        /* The matrix rows. */
        int nm = strcmp(models, "all") ? 1 : 6;
        for (int m = 0; m < nm * nset; m++) {
            row_t r;
            memset(&r, 0, sizeof r);
            snprintf(r.proto, sizeof r.proto, "%s", p->name);
            const char *model = nm == 1 ? NULL : cli_default_models[m / nset];
            const char *setting = settings[m % nset];
            snprintf(r.setting, sizeof r.setting, "%s", setting);
            if (model)
                snprintf(r.model, sizeof r.model, "%s", model);
            run_row(self, &r, protos[i], model, setting, suites, nsuites, maxst, jobs);
            /* A chart of the first counterexample under the target model. */
            bool target = !model || (p->target && !strcmp(model, p->target));
            const char *tpath = NULL;
            for (int t = 0; r.fail_test[0] && t < ntests; t++)
                if (refs[t].name && !strcmp(refs[t].name, r.fail_test))
                    tpath = refs[t].path;
            if (target && tpath && !have_trace_for(rows, nrows, p->name)) {
                char db[4200], svg[4200], *out;
                snprintf(db, sizeof db, "%s/.report-%ld.db", outdir, (long)getpid());
                snprintf(svg, sizeof svg, "%s/traces/%s.svg", outdir, p->name);
                unlink(db);
                char init[8] = "cold", env[48] = "", tmp[48];
                snprintf(tmp, sizeof tmp, "%s", setting);
                char *sv = NULL;
                for (char *t = strtok_r(tmp, "+", &sv); t; t = strtok_r(NULL, "+", &sv)) {
                    if (!strcmp(t, "cold") || !strcmp(t, "warm"))
                        snprintf(init, sizeof init, "%s", t);
                    else
                        snprintf(env + strlen(env), sizeof env - strlen(env), "%s%s",
                                 *env ? "," : "", t);
                }
                char *ca[] = {self,       "check",      "--db",    db,
                              "--init",   init,         "--env",   *env ? env : "none",
                              "--no-por", "--protocol", protos[i], (char *)tpath,
                              NULL};
                char *da[] = {self, "draw", "--db", db, "--trace", "1", "-o", svg, NULL};
                int s1 = run_capture(ca, &out);
                free(out);
                out = NULL;
                if (s1 == 1 && run_capture(da, &out) == 0)
                    r.has_trace = true;
                free(out);
                unlink(db);
            }
            UTIL_PUSH(rows, nrows, caprows, r);
        }
        proto_free(p);
    }
    /* verdicts.md */
    strbuf_t md, html;
    sb_init(&md);
    sb_init(&html);
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    sb_printf(&md,
              "# Verdict matrix\n\nGenerated by `cohcheck report` on %s: every protocol in "
              "`protocols/` under %s, at most %s states per check, in each setting (cold or warm "
              "caches, and environment actions), on",
              when, strcmp(models, "all") ? "its target model" : "each of the six models", maxst);
    for (int s = 0; s < nsuites; s++)
        sb_printf(&md, "%s `%s`", s ? "," : "", suites[s]);
    sb_printf(&md,
              " (%d tests). A broken variant is meant to be refuted; the first failing "
              "test is named, and its trace drawn in `traces/`.\n\n",
              ntests);
    sb_puts(&md, "| protocol | model | setting | ok | violation | deadlock | invariant | "
                 "unexpected | incomplete | skipped | states | time s | first failure |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nrows; i++) {
        row_t *r = &rows[i];
        sb_printf(&md, "| %s | %s | %s |", r->proto, r->model, r->setting);
        for (int k = 0; k < V_ERROR; k++)
            sb_printf(&md, " %d |", r->n[k]);
        sb_printf(&md, " %llu | %.2f | %s%s%s%s |\n", (unsigned long long)r->states, r->secs,
                  r->n[V_ERROR] ? "error running the check; " : "", r->fail_test,
                  r->fail_test[0] ? " " : "", r->fail_verdict);
    }
    if (rc == CLI_OK && write_file(outdir, "verdicts.md", md.s))
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK && write_file(outdir, "counts-all.md", counts.s))
        rc = CLI_BAD_INPUT;
    /* bench-latest.md */
    bool have_bench = false;
    if (rc == CLI_OK && bench) {
        char *ba[] = {"/bin/sh", "-c", "RUNS=1 sh tests/bench/protocols.sh \"$0\"", self, NULL};
        char *out;
        fprintf(stderr, "report: benchmark rows\n");
        if (run_capture(ba, &out) == 0 && out && *out) {
            strbuf_t b;
            sb_init(&b);
            sb_printf(&b,
                      "# Benchmark rows (latest)\n\nGenerated by `cohcheck report --bench` on %s "
                      "(`tests/bench/protocols.sh`, one run per row; figures, not "
                      "assertions).\n\n%s",
                      when, out);
            if (write_file(outdir, "bench-latest.md", b.s))
                rc = CLI_BAD_INPUT;
            have_bench = true;
            sb_free(&b);
        } else {
            cli_error("report: the benchmark script failed");
            rc = CLI_BAD_INPUT;
        }
        free(out);
    }
    /* index.html */
    sb_puts(
        &html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>cohcheck reports</title>\n<style>\n"
        "body{font-family:sans-serif;margin:2em;max-width:80em}"
        "table{border-collapse:collapse;font-size:90%}"
        "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}"
        "td:first-child,td:nth-child(2),td:nth-child(3),td:nth-last-child(-n+2),th{text-align:left}"
        ".bad{background:#fdd}.good{background:#dfd}"
        ".thumbs a{display:inline-block;margin:4px;padding:4px;border:1px solid #ccc}"
        "\n</style>\n</head>\n<body>\n<h1>cohcheck reports</h1>\n");
    sb_printf(&html, "<p id=\"generated\">Generated by <code>cohcheck report</code> on %s.</p>\n",
              when);
    sb_puts(&html, "<h2 id=\"verdicts\">Verdict matrix</h2>\n<p>");
    sb_printf(&html, "Every protocol under %s, in each setting, at most %s states per check, on ",
              strcmp(models, "all") ? "its target model" : "each of the six models", maxst);
    for (int s = 0; s < nsuites; s++) {
        sb_puts(&html, s ? ", <code>" : "<code>");
        html_esc(&html, suites[s]);
        sb_puts(&html, "</code>");
    }
    sb_printf(&html,
              " (%d tests; <a href=\"verdicts.md\">verdicts.md</a>).</p>\n<table>\n<tr>"
              "<th>protocol</th><th>model</th><th>setting</th>",
              ntests);
    for (int k = 0; k < V_ERROR; k++)
        sb_printf(&html, "<th>%s</th>", vnames[k]);
    sb_puts(&html, "<th>states</th><th>time s</th><th>first failure</th><th>diagram</th></tr>\n");
    for (size_t i = 0; i < nrows; i++) {
        row_t *r = &rows[i];
        bool failed = r->n[V_VIOLATION] + r->n[V_DEADLOCK] + r->n[V_INVARIANT] +
                          r->n[V_UNEXPECTED] + r->n[V_ERROR] >
                      0;
        sb_printf(&html, "<tr class=\"%s\"><td>", failed ? "bad" : "good");
        html_esc(&html, r->proto);
        sb_puts(&html, "</td><td>");
        html_esc(&html, r->model);
        sb_puts(&html, "</td><td>");
        html_esc(&html, r->setting);
        sb_puts(&html, "</td>");
        for (int k = 0; k < V_ERROR; k++)
            sb_printf(&html, "<td>%d</td>", r->n[k]);
        sb_printf(&html, "<td>%llu</td><td>%.2f</td><td>", (unsigned long long)r->states, r->secs);
        if (r->n[V_ERROR])
            sb_puts(&html, "error running the check ");
        if (r->fail_test[0]) {
            if (r->has_trace) {
                sb_puts(&html, "<a href=\"traces/");
                html_esc(&html, r->proto);
                sb_puts(&html, ".svg\">");
            }
            html_esc(&html, r->fail_test);
            sb_printf(&html, " (%s)", r->fail_verdict);
            if (r->has_trace)
                sb_puts(&html, "</a>");
        }
        sb_puts(&html, "</td><td><a href=\"diagrams/");
        html_esc(&html, r->proto);
        sb_puts(&html, ".svg\">state machines</a></td></tr>\n");
    }
    snprintf(sub, sizeof sub, "%s/counts.md", outdir);
    bool have_counts = access(sub, R_OK) == 0;
    sb_printf(&html,
              "</table>\n<h2 id=\"counts\">Counts</h2>\n<p>States and transitions per "
              "controller (<a href=\"counts-all.md\">counts-all.md</a>%s).</p>\n<table>\n"
              "<tr><th>protocol</th><th>extends</th><th>controller</th><th>stable</th><th>"
              "transient (coherent)</th><th>transitions</th><th>branches</th></tr>\n",
              have_counts ? "; compared with the papers in <a href=\"counts.md\">counts.md</a>"
                          : "");
    /* The counts table again, as HTML rows (from the markdown lines). */
    for (char *line = strstr(counts.s, "|---"); line && (line = strchr(line, '\n'));) {
        line++;
        if (*line != '|')
            break;
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *copy = xstrndup(line, n);
        sb_puts(&html, "<tr>");
        char *save = NULL;
        for (char *cell = strtok_r(copy, "|", &save); cell; cell = strtok_r(NULL, "|", &save)) {
            while (*cell == ' ')
                cell++;
            size_t l = strlen(cell);
            while (l && cell[l - 1] == ' ')
                cell[--l] = '\0';
            sb_puts(&html, "<td>");
            html_esc(&html, cell);
            sb_puts(&html, "</td>");
        }
        sb_puts(&html, "</tr>\n");
        free(copy);
    }
    sb_puts(&html, "</table>\n<h2 id=\"diagrams\">State diagrams</h2>\n<p class=\"thumbs\">");
    for (size_t i = 0; i < nrows; i++) {
        if (i && !strcmp(rows[i].proto, rows[i - 1].proto))
            continue;
        sb_puts(&html, "<a href=\"diagrams/");
        html_esc(&html, rows[i].proto);
        sb_puts(&html, ".svg\">");
        html_esc(&html, rows[i].proto);
        sb_puts(&html, "</a>");
    }
    sb_puts(&html, "</p>\n<h2 id=\"traces\">Counterexamples</h2>\n<ul>\n");
    for (size_t i = 0; i < nrows; i++) {
        if (!rows[i].has_trace)
            continue;
        sb_puts(&html, "<li><a href=\"traces/");
        html_esc(&html, rows[i].proto);
        sb_puts(&html, ".svg\">");
        html_esc(&html, rows[i].proto);
        sb_puts(&html, "</a> on ");
        html_esc(&html, rows[i].fail_test);
        sb_printf(&html, ": %s</li>\n", rows[i].fail_verdict);
    }
    sb_puts(&html, "</ul>\n");
    report_timed_index_section(&html, outdir);
    sb_puts(&html, "<h2 id=\"other\">Other reports</h2>\n<ul>\n");
    char *od = (char *)outdir;
    char **mds;
    int nmds;
    if (cli_collect(&od, 1, ".md", &mds, &nmds, &d) == 0) {
        qsort(mds, (size_t)nmds, sizeof *mds, cmp_str);
        for (int i = 0; i < nmds; i++) {
            const char *base = mds[i] + strlen(outdir) + 1;
            if (strchr(base, '/'))
                continue;
            sb_puts(&html, "<li><a href=\"");
            html_esc(&html, base);
            sb_puts(&html, "\">");
            html_esc(&html, base);
            sb_puts(&html, "</a></li>\n");
        }
        cli_free_list(mds, nmds);
    }
    sb_puts(&html, "</ul>\n</body>\n</html>\n");
    if (rc == CLI_OK && write_file(outdir, "index.html", html.s))
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK)
        printf("report: %zu rows (%d protocols x %s) on %d tests written to %s/ (verdicts.md, "
               "counts-all.md, diagrams/, traces/%s, index.html)\n",
               nrows, nprotos, models, ntests, outdir, have_bench ? ", bench-latest.md" : "");
    sb_free(&md);
    sb_free(&html);
    sb_free(&counts);
    free(rows);
    for (int i = 0; i < ntests; i++)
        free(refs[i].name);
    free(refs);
    cli_free_list(protos, nprotos);
    cli_free_list(tests, ntests);
    return rc;
}
