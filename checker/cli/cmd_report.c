/* cmd_report.c - `cohcheck report`: regenerate reports/ from fresh runs (docs/architecture.md
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
    return cli_mkdirs(path);
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
    char proto[64], base[64], model[32], setting[48];
    int n[V__N];
    uint64_t states;
    double secs;
    char fail_test[128], fail_verdict[32];
    bool has_trace;
    bool also_base;  /* every failure of this variant also fails on its base */
    bool target;     /* under the protocol's target model */
    int proto_index; /* into the protocol paths */
    strbuf_t oks;    /* "\nTEST\n..." : the tests that passed */
    strbuf_t fails;  /* "TEST VERDICT\n...": the failures, in suite order */
    bool broken;     /* a deliberately broken variant: refuting it is the intended result */
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
    if (st < 0 || !out || !*out) {
        r->n[V_ERROR]++;
        free(out);
        return;
    }
    if (st == 2) /* a bad test in the suite: the other tests' lines still count */
        r->n[V_ERROR]++;
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
            bool named = json_field(line, "test", test, sizeof test);
            if (named && k == V_OK)
                sb_printf(&r->oks, "%s\n", test);
            if (named && k != V_OK && k != V_SKIPPED && k != V_INCOMPLETE) {
                sb_printf(&r->fails, "%s %s\n", test, v);
                if (!r->fail_test[0]) {
                    snprintf(r->fail_test, sizeof r->fail_test, "%s", test);
                    snprintf(r->fail_verdict, sizeof r->fail_verdict, "%s", v);
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(out);
}

/* A variant's first failure is the first test that fails on it and passes on
 * its base (same model and setting): the failures it shares with its base are
 * the base's. When there is none, the first failure stays, marked also_base. */
static void pick_first_failures(row_t *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        row_t *r = &rows[i];
        const row_t *b = NULL;
        for (size_t j = 0; r->base[0] && r->fail_test[0] && j < n && !b; j++)
            if (!strcmp(rows[j].proto, r->base) && !strcmp(rows[j].model, r->model) &&
                !strcmp(rows[j].setting, r->setting))
                b = &rows[j];
        if (!b)
            continue;
        r->also_base = true;
        for (const char *l = r->fails.s; l && *l;) {
            const char *sp = strchr(l, ' '), *nl = strchr(l, '\n');
            if (!sp || !nl)
                break;
            char key[160];
            snprintf(key, sizeof key, "\n%.*s\n", (int)(sp - l), l);
            if (b->oks.s && strstr(b->oks.s, key)) {
                snprintf(r->fail_test, sizeof r->fail_test, "%.*s", (int)(sp - l), l);
                snprintf(r->fail_verdict, sizeof r->fail_verdict, "%.*s", (int)(nl - sp - 1),
                         sp + 1);
                r->also_base = false;
                break;
            }
            l = nl + 1;
        }
    }
}

static bool have_trace_for(const row_t *rows, size_t n, const char *proto)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].has_trace && !strcmp(rows[i].proto, proto))
            return true;
    return false;
}

/* readings.md: protocol P's readings (`count --readings`), those its variant
 * items replaced left out. */
static void readings_md(strbuf_t *b, const proto_t *p)
{
    int n = 0;
    for (int i = 0; i < p->nreadings; i++)
        n += p->readings[i].live;
    if (p->base)
        sb_printf(b, "## %s (extends %s)\n\n", p->name, p->base);
    else
        sb_printf(b, "## %s\n\n", p->name);
    if (!n) {
        sb_puts(b, "No readings: every row is transcribed as written.\n\n");
        return;
    }
    sb_puts(b, "| where | item | section | reading |\n|---|---|---|---|\n");
    for (int i = 0; i < p->nreadings; i++) {
        const proto_reading_t *r = &p->readings[i];
        if (!r->live)
            continue;
        const char *f = strrchr(r->file, '/');
        sb_printf(b, "| %s:%d | `", f ? f + 1 : r->file, r->line);
        for (const char *c = r->item; *c; c++)
            sb_puts(b, *c == '|' ? "\\|" : (char[]){*c, 0});
        sb_printf(b, "` | %s | %s |\n", r->section, r->text);
    }
    sb_putc(b, '\n');
}

/* A chart of the first counterexample of row R (under its protocol's target
 * model; one per protocol), drawn from a fresh check into a scratch store. */
static void draw_first_trace(const char *self, const char *outdir, row_t *rows, size_t n, row_t *r,
                             char *proto_path, const test_ref_t *refs, int ntests)
{
    const char *tpath = NULL;
    for (int t = 0; r->fail_test[0] && t < ntests; t++)
        if (refs[t].name && !strcmp(refs[t].name, r->fail_test))
            tpath = refs[t].path;
    if (!r->target || !tpath || have_trace_for(rows, n, r->proto))
        return;
    char db[4200], svg[4200], *out;
    snprintf(db, sizeof db, "%s/.report-%ld.db", outdir, (long)getpid());
    snprintf(svg, sizeof svg, "%s/traces/%s.svg", outdir, r->proto);
    unlink(db);
    char init[8] = "cold", env[48] = "", tmp[48];
    snprintf(tmp, sizeof tmp, "%s", r->setting);
    char *sv = NULL;
    for (char *t = strtok_r(tmp, "+", &sv); t; t = strtok_r(NULL, "+", &sv)) {
        if (!strcmp(t, "cold") || !strcmp(t, "warm"))
            snprintf(init, sizeof init, "%s", t);
        else
            snprintf(env + strlen(env), sizeof env - strlen(env), "%s%s", *env ? "," : "", t);
    }
    char *ca[] = {
        (char *)self,        "check",    "--db",       db,         "--init",      init, "--env",
        *env ? env : "none", "--no-por", "--protocol", proto_path, (char *)tpath, NULL};
    char *da[] = {(char *)self, "draw", "--db", db, "--trace", "1", "-o", svg, NULL};
    int s1 = run_capture(ca, &out);
    free(out);
    out = NULL;
    if (s1 == 1 && run_capture(da, &out) == 0)
        r->has_trace = true;
    free(out);
    unlink(db);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

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

static bool row_failed(const row_t *r)
{
    return r->n[V_VIOLATION] + r->n[V_DEADLOCK] + r->n[V_INVARIANT] + r->n[V_UNEXPECTED] +
               r->n[V_ERROR] >
           0;
}

/* A row's colour: a correct protocol refuted (bad), a broken variant refuted as intended
 * (expected), a check a limit stopped (incomplete), else good. */
static const char *row_class(const row_t *r)
{
    if (row_failed(r))
        return r->broken && !r->n[V_ERROR] ? "expected" : "bad";
    return r->n[V_INCOMPLETE] ? "incomplete" : "good";
}

/* The summary at the top of index.html and verdicts.md: protocols, tests, findings
 * (correct protocols refuted), broken variants refuted as intended, incomplete checks. */
typedef struct {
    int protocols, broken, broken_refuted, refuted, incomplete, checks, errors;
    strbuf_t refuted_names, missed_names; /* "a, b" */
} summary_t;

static void summarize(const row_t *rows, size_t n, summary_t *s)
{
    memset(s, 0, sizeof *s);
    sb_init(&s->refuted_names);
    sb_init(&s->missed_names);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < V__N; k++)
            s->checks += rows[i].n[k];
        s->incomplete += rows[i].n[V_INCOMPLETE];
        s->errors += rows[i].n[V_ERROR];
        if (i && !strcmp(rows[i].proto, rows[i - 1].proto))
            continue;
        bool failed = false; /* in any of this protocol's rows */
        for (size_t j = i; j < n && !strcmp(rows[j].proto, rows[i].proto); j++)
            failed = failed || row_failed(&rows[j]);
        s->protocols++;
        s->broken += rows[i].broken;
        strbuf_t *list = NULL;
        if (rows[i].broken && failed)
            s->broken_refuted++;
        else if (rows[i].broken)
            list = &s->missed_names;
        else if (failed) {
            s->refuted++;
            list = &s->refuted_names;
        }
        if (list)
            sb_printf(list, "%s%s", list->len ? ", " : "", rows[i].proto);
    }
}

static void summary_html(strbuf_t *h, const summary_t *s, int ntests)
{
    sb_printf(h,
              "<div id=\"summary\"><h2>Summary</h2>\n<ul>\n"
              "<li>Protocols: <b id=\"n-protocols\">%d</b> (%d correct, %d broken variants)</li>\n"
              "<li>Tests: <b id=\"n-tests\">%d</b>; checks run: %d</li>\n",
              s->protocols, s->protocols - s->broken, s->broken, ntests, s->checks);
    sb_printf(h,
              "<li class=\"%s\">Findings: <b id=\"n-findings\">%d</b> correct protocol%s refuted",
              s->refuted ? "bad" : "good", s->refuted, s->refuted == 1 ? "" : "s");
    if (s->refuted) {
        sb_puts(h, " (");
        html_esc(h, s->refuted_names.s);
        sb_puts(h, ")");
    }
    sb_printf(h,
              "</li>\n<li class=\"expected\">Broken variants refuted as intended: <b "
              "id=\"n-broken-refuted\">%d</b> of %d",
              s->broken_refuted, s->broken);
    if (s->missed_names.len) {
        sb_puts(h, " (not refuted here: ");
        html_esc(h, s->missed_names.s);
        sb_puts(h, ")");
    }
    sb_printf(h,
              "</li>\n<li class=\"incomplete\">Incomplete checks: <b "
              "id=\"n-incomplete\">%d</b> (a limit stopped them: neither a pass nor a "
              "failure)</li>\n",
              s->incomplete);
    if (s->errors)
        sb_printf(h, "<li class=\"bad\">Checks that could not run: %d</li>\n", s->errors);
    sb_puts(h, "</ul></div>\n");
}

static void summary_md(strbuf_t *md, const summary_t *s, int ntests)
{
    sb_printf(md,
              "**Summary**: %d protocols (%d correct, %d broken variants), %d tests, %d checks. "
              "Findings: %d correct protocol%s refuted%s%s%s. Broken variants refuted as "
              "intended: %d of %d%s%s%s. Incomplete checks: %d.%s\n\n",
              s->protocols, s->protocols - s->broken, s->broken, ntests, s->checks, s->refuted,
              s->refuted == 1 ? "" : "s", s->refuted ? " (" : "", s->refuted_names.s,
              s->refuted ? ")" : "", s->broken_refuted, s->broken,
              s->missed_names.len ? " (not refuted here: " : "", s->missed_names.s,
              s->missed_names.len ? ")" : "", s->incomplete,
              s->errors ? " Some checks could not run." : "");
}

int cmd_report(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "timed"))
        return cmd_report_timed(argc - 1, argv + 1);
    const char *outdir = "cohcheck-report", *models = "target", *settings_arg = "cold,warm";
    const char *proto_list = NULL;
    bool json = false;
    char maxst[24] = "2000000", jobs[8] = "2";
    char *suites[32];
    int nsuites = 0;
    bool bench = false;
    diag_t d;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_REPORT);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
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
        case 'S': snprintf(maxst, sizeof maxst, "%lld", g.num); break;
        case 'j': snprintf(jobs, sizeof jobs, "%lld", g.num); break;
        case 'b': bench = true; break;
        case 'T':
            if (!*optarg || strlen(optarg) > 400 ||
                strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789+,_") != strlen(optarg)) {
                cli_error("report: --settings takes a list like cold,warm,warm+evict");
                return CLI_BAD_INPUT;
            }
            settings_arg = optarg;
            break;
        case 'J': json = true; break;
        case 'P': proto_list = optarg; break;
        case 'h': cli_usage(stdout, CLI_CMD_REPORT, USAGE, USAGE_TAIL); return CLI_OK;
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
    if (report_protocols(proto_list, argv[0], &protos, &nprotos))
        return CLI_BAD_INPUT;
    if (cli_collect(suites, nsuites, ".litmus", &tests, &ntests, &d)) {
        cli_report(&d);
        cli_free_list(protos, nprotos);
        return CLI_BAD_INPUT;
    }
    if (!nprotos || !ntests) {
        cli_error("report: no %s found", !nprotos ? "protocols" : "litmus tests");
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
    strbuf_t rd;
    sb_init(&rd);
    sb_puts(&rd,
            "# Readings\n\n"
            "Generated by `cohcheck report` from `cohcheck count --readings`: every row,\n"
            "network, param or map of a protocol that interprets or departs from its paper\n"
            "is marked `reading \"SECTION\": \"TEXT\"` (docs/protocol-language.md, Readings).\n"
            "Unmarked items are transcribed as written. A variant lists its bases' readings\n"
            "it did not replace.\n\n");
    cli_progress_t *pr = cli_progress_new("report", !json);
    for (int i = 0; rc == CLI_OK && i < nprotos; i++) {
        proto_t *p;
        if (proto_load(protos[i], &p, &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
            break;
        }
        cli_progress(pr, i, nprotos, "%s", p->name);
        readings_md(&rd, p);
        bool broken = p->desc && !strncmp(p->desc, "BROKEN", 6);
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
            snprintf(r.base, sizeof r.base, "%s", p->base ? p->base : "");
            r.proto_index = i;
            r.target = !model || (p->target && !strcmp(model, p->target));
            sb_init(&r.oks);
            sb_init(&r.fails);
            sb_putc(&r.oks, '\n');
            r.broken = broken;
            run_row(self, &r, protos[i], model, setting, suites, nsuites, maxst, jobs);
            UTIL_PUSH(rows, nrows, caprows, r);
        }
        proto_free(p);
    }
    pick_first_failures(rows, nrows);
    for (size_t i = 0; rc == CLI_OK && i < nrows; i++)
        draw_first_trace(self, outdir, rows, nrows, &rows[i], protos[rows[i].proto_index], refs,
                         ntests);
    cli_progress_free(pr);
    /* verdicts.md */
    strbuf_t md, html;
    sb_init(&md);
    sb_init(&html);
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    sb_printf(&md,
              "# Verdict matrix\n\nGenerated by `cohcheck report` on %s: %s under %s, at most %s "
              "states per check, in each setting (cold or warm caches, and environment "
              "actions), on",
              when, proto_list ? "the protocols chosen with `--protocols`" : "every protocol",
              strcmp(models, "all") ? "its target model" : "each of the six models", maxst);
    for (int s = 0; s < nsuites; s++)
        sb_printf(&md, "%s `%s`", s ? "," : "", suites[s]);
    sb_printf(&md,
              " (%d tests). A broken variant (a protocol described as BROKEN) is meant to be "
              "refuted; the first failing test is named, and its trace drawn in `traces/`. For "
              "a variant (`extends`) it is the first test that fails on the variant and passes "
              "on its base in the same setting (its own failure; \"also on BASE\" when every "
              "failure is shared).\n\n",
              ntests);
    summary_t sum;
    summarize(rows, nrows, &sum);
    summary_md(&md, &sum, ntests);
    sb_puts(&md, "| protocol | model | setting | ok | violation | deadlock | invariant | "
                 "unexpected | incomplete | skipped | states | time s | first failure |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nrows; i++) {
        row_t *r = &rows[i];
        sb_printf(&md, "| %s | %s | %s |", r->proto, r->model, r->setting);
        for (int k = 0; k < V_ERROR; k++)
            sb_printf(&md, " %d |", r->n[k]);
        sb_printf(&md, " %llu | %.2f | %s%s%s%s%s%s%s |\n", (unsigned long long)r->states, r->secs,
                  r->n[V_ERROR] ? "error running the check; " : "", r->fail_test,
                  r->fail_test[0] ? " " : "", r->fail_verdict, r->also_base ? " (also on " : "",
                  r->also_base ? r->base : "", r->also_base ? ")" : "");
    }
    if (rc == CLI_OK && write_file(outdir, "verdicts.md", md.s))
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK && write_file(outdir, "counts-all.md", counts.s))
        rc = CLI_BAD_INPUT;
    if (rc == CLI_OK && write_file(outdir, "readings.md", rd.s))
        rc = CLI_BAD_INPUT;
    sb_free(&rd);
    /* bench-latest.md */
    bool have_bench = false;
    if (rc == CLI_OK && bench) {
        char *ba[] = {"/bin/sh", "-c", "RUNS=1 sh tests/bench/protocols.sh \"$0\"", self, NULL};
        char *out;
        cli_progress_t *bp = cli_progress_new("report: benchmark rows", !json);
        cli_progress_soon(bp);
        cli_progress(bp, -1, 0, "running tests/bench/protocols.sh (minutes)");
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
        cli_progress_free(bp);
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
        ".bad{background:#fdd}.good{background:#dfd}.expected{background:#dde8ff}"
        ".incomplete{background:#ffe7b3}"
        "#summary ul{list-style:none;padding:0}#summary li{margin:2px 0;padding:2px 6px}"
        ".thumbs a{display:inline-block;margin:4px;padding:4px;border:1px solid #ccc;"
        "text-align:center;vertical-align:top;font-size:90%}"
        ".thumbs img{display:block;width:220px;height:140px;object-fit:contain;"
        "background:#fff}"
        "\n</style>\n</head>\n<body>\n<h1>cohcheck reports</h1>\n");
    sb_printf(&html, "<p id=\"generated\">Generated by <code>cohcheck report</code> on %s.</p>\n",
              when);
    summary_html(&html, &sum, ntests);
    sb_puts(&html, "<h2 id=\"verdicts\">Verdict matrix</h2>\n<p>");
    sb_printf(&html, "Every protocol under %s, in each setting, at most %s states per check, on ",
              strcmp(models, "all") ? "its target model" : "each of the six models", maxst);
    for (int s = 0; s < nsuites; s++) {
        sb_puts(&html, s ? ", <code>" : "<code>");
        html_esc(&html, suites[s]);
        sb_puts(&html, "</code>");
    }
    sb_printf(&html,
              " (%d tests; <a href=\"verdicts.md\">verdicts.md</a>). Where each protocol's "
              "tables interpret or depart from their paper: <a href=\"readings.md\">"
              "readings.md</a>.</p>\n<table>\n<tr>"
              "<th>protocol</th><th>model</th><th>setting</th>",
              ntests);
    for (int k = 0; k < V_ERROR; k++)
        sb_printf(&html, "<th>%s</th>", vnames[k]);
    sb_puts(&html, "<th>states</th><th>time s</th><th>first failure</th><th>diagram</th></tr>\n");
    for (size_t i = 0; i < nrows; i++) {
        row_t *r = &rows[i];
        sb_printf(&html, "<tr class=\"%s\"><td>", row_class(r));
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
        sb_puts(&html, ".svg\"><img loading=\"lazy\" alt=\"\" src=\"diagrams/");
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
    if (rc == CLI_OK && json) {
        strbuf_t j;
        sb_init(&j);
        sb_puts(&j, "{\"out\":");
        sb_json_str(&j, outdir);
        sb_printf(&j,
                  ",\"rows\":%zu,\"protocols\":%d,\"broken\":%d,\"tests\":%d,\"checks\":%d,"
                  "\"findings\":%d,\"broken_refuted\":%d,\"incomplete\":%d,\"errors\":%d}\n",
                  nrows, sum.protocols, sum.broken, ntests, sum.checks, sum.refuted,
                  sum.broken_refuted, sum.incomplete, sum.errors);
        fputs(j.s, stdout);
        sb_free(&j);
    } else if (rc == CLI_OK) {
        printf("report: %zu rows (%d protocols x %s) on %d tests written to %s/ (verdicts.md, "
               "counts-all.md, readings.md, diagrams/, traces/%s, index.html)\n",
               nrows, nprotos, models, ntests, outdir, have_bench ? ", bench-latest.md" : "");
        printf("Summary: %d protocols, %d tests, %d checks: %d correct protocol%s refuted, %d of "
               "%d broken variants refuted as intended, %d incomplete\n",
               sum.protocols, ntests, sum.checks, sum.refuted, sum.refuted == 1 ? "" : "s",
               sum.broken_refuted, sum.broken, sum.incomplete);
    }
    sb_free(&sum.refuted_names);
    sb_free(&sum.missed_names);
    sb_free(&md);
    sb_free(&html);
    sb_free(&counts);
    for (size_t i = 0; i < nrows; i++) {
        sb_free(&rows[i].oks);
        sb_free(&rows[i].fails);
    }
    free(rows);
    for (int i = 0; i < ntests; i++)
        free(refs[i].name);
    free(refs);
    cli_free_list(protos, nprotos);
    cli_free_list(tests, ntests);
    return rc;
}
