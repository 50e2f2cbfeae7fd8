/* matrix.c - `cohcheck report`'s work (report.h): the verdict matrix (protocol x model x
 * setting on the suites), the table-level counts and readings of every protocol, its state
 * diagram, a message-sequence chart of the first counterexample of every refuted protocol,
 * optionally the benchmark rows, and index.html linking them all. Checks run as child
 * processes of the cohcheck binary (the same code as `cohcheck check`); every file is
 * written to a temporary name and renamed, so an interrupted report leaves the old files.
 * Library code: it reports through its callbacks and a diag_t; it never prints or exits. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../draw/draw.h"
#include "../prog/prog.h"
#include "report.h"

/* The six required models, in the order they are reported (--models all). */
static const char *const six_models[6] = {"sc",  "rcsc",       "rcpc",
                                          "drf", "hrf-direct", "hrf-indirect"};

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

static int write_file(const char *dir, const char *name, const char *text, diag_t *err)
{
    size_t n = strlen(dir) + strlen(name) + 40;
    char *path = xmalloc(n), *tmp = xmalloc(n + 24);
    snprintf(path, n, "%s/%s", dir, name);
    snprintf(tmp, n + 24, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
        diag_set(err, "", 0, 0, "report: cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        rc = -1;
    }
    free(path);
    free(tmp);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of DIR's plain files ending in EXT, sorted (*N of them; free each and the list). */
static char **list_dir(const char *dir, const char *ext, int *n)
{
    char **v = NULL;
    size_t k = 0, cap = 0, e = strlen(ext);
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    for (struct dirent *de; (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        char path[4400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (de->d_name[0] != '.' && l > e && !strcmp(de->d_name + l - e, ext) &&
            stat(path, &st) == 0 && S_ISREG(st.st_mode))
            UTIL_PUSH(v, k, cap, xstrdup(de->d_name));
    }
    closedir(d);
    if (k)
        qsort(v, k, sizeof *v, cmp_str);
    *n = (int)k;
    return v;
}

static void free_names(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Pictures of an earlier report go: a protocol no longer refuted has no trace. */
static void remove_old_pictures(const char *outdir)
{
    for (int k = 0; k < 2; k++) {
        char sub[4200], path[8400];
        snprintf(sub, sizeof sub, "%s/%s", outdir, k ? "traces" : "diagrams");
        int n;
        char **old = list_dir(sub, ".svg", &n);
        for (int i = 0; i < n; i++) {
            snprintf(path, sizeof path, "%s/%s", sub, old[i]);
            unlink(path);
        }
        free_names(old, n);
    }
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
    argv[a++] = "--no-symmetry";
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
    char *ca[] = {(char *)self,  "check",
                  "--db",        db,
                  "--init",      init,
                  "--env",       *env ? env : "none",
                  "--no-por",    "--no-symmetry",
                  "--protocol",  proto_path,
                  (char *)tpath, NULL};
    char *da[] = {(char *)self, "draw", "--db", db, "--trace", "1", "-o", svg, NULL};
    int s1 = run_capture(ca, &out);
    free(out);
    out = NULL;
    if (s1 == 1 && run_capture(da, &out) == 0)
        r->has_trace = true;
    free(out);
    unlink(db);
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

/* ---- the report ---- */

typedef struct {
    const report_matrix_opts_t *o;
    row_t *rows;
    size_t nrows, caprows;
    test_ref_t *refs;
    strbuf_t counts, rd; /* counts-all.md, readings.md */
    summary_t sum;
    char when[64];
    bool have_bench;
} mx_t;

/* The matrix rows of protocol P (the I-th): one per model and setting. */
static void add_rows(mx_t *m, const proto_t *p, int i)
{
    const report_matrix_opts_t *o = m->o;
    bool broken = p->desc && !strncmp(p->desc, "BROKEN", 6);
    int nm = o->all_models ? 6 : 1, nset = o->nsettings;
    for (int k = 0; k < nm * nset; k++) {
        row_t r;
        memset(&r, 0, sizeof r);
        snprintf(r.proto, sizeof r.proto, "%s", p->name);
        const char *model = nm == 1 ? NULL : six_models[k / nset];
        const char *setting = o->settings[k % nset];
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
        run_row(o->self, &r, o->protos[i], model, setting, o->suites, o->nsuites, o->max_states,
                o->jobs);
        UTIL_PUSH(m->rows, m->nrows, m->caprows, r);
    }
}

/* Protocol I: its readings, counts, state diagram and matrix rows. */
static int do_protocol(mx_t *m, int i, diag_t *err)
{
    const report_matrix_opts_t *o = m->o;
    proto_t *p;
    if (proto_load(o->protos[i], &p, err))
        return -1;
    if (o->progress)
        o->progress(o->ctx, i, o->nprotos, p->name);
    readings_md(&m->rd, p);
    for (int c = 0; c < p->nctrls; c++) {
        proto_count_t k;
        proto_count(p, c, &k);
        sb_printf(&m->counts, "| %s | %s | %s | %d | %d (%d) | %d | %d |\n", p->name,
                  p->base ? p->base : "", p->ctrls[c].name, k.stable, k.transient, k.coherent,
                  k.transitions, k.branches);
    }
    char *dot = draw_proto_dot(p, NULL), sub[4200];
    snprintf(sub, sizeof sub, "%s/diagrams/%s.svg", o->outdir, p->name);
    int rc = o->write_picture(o->ctx, dot, sub) ? -1 : 0;
    free(dot);
    if (rc)
        diag_set(err, "", 0, 0, "%s", ""); /* reported by the callback */
    else
        add_rows(m, p, i);
    proto_free(p);
    return rc;
}

static void verdicts_md(const mx_t *m, strbuf_t *md)
{
    const report_matrix_opts_t *o = m->o;
    sb_printf(md,
              "# Verdict matrix\n\nGenerated by `cohcheck report` on %s: %s under %s, at most %s "
              "states per check, in each setting (cold or warm caches, and environment "
              "actions), on",
              m->when,
              o->protos_chosen ? "the protocols chosen with `--protocols`" : "every protocol",
              o->all_models ? "each of the six models" : "its target model", o->max_states);
    for (int s = 0; s < o->nsuites; s++)
        sb_printf(md, "%s `%s`", s ? "," : "", o->suites[s]);
    sb_printf(md,
              " (%d tests). A broken variant (a protocol described as BROKEN) is meant to be "
              "refuted; the first failing test is named, and its trace drawn in `traces/`. For "
              "a variant (`extends`) it is the first test that fails on the variant and passes "
              "on its base in the same setting (its own failure; \"also on BASE\" when every "
              "failure is shared).\n\n",
              o->ntests);
    summary_md(md, &m->sum, o->ntests);
    sb_puts(md, "| protocol | model | setting | ok | violation | deadlock | invariant | "
                "unexpected | incomplete | skipped | states | time s | first failure |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < m->nrows; i++) {
        const row_t *r = &m->rows[i];
        sb_printf(md, "| %s | %s | %s |", r->proto, r->model, r->setting);
        for (int k = 0; k < V_ERROR; k++)
            sb_printf(md, " %d |", r->n[k]);
        sb_printf(md, " %llu | %.2f | %s%s%s%s%s%s%s |\n", (unsigned long long)r->states, r->secs,
                  r->n[V_ERROR] ? "error running the check; " : "", r->fail_test,
                  r->fail_test[0] ? " " : "", r->fail_verdict, r->also_base ? " (also on " : "",
                  r->also_base ? r->base : "", r->also_base ? ")" : "");
    }
}

/* bench-latest.md: tests/bench/protocols.sh, one run per row (minutes). */
static int run_bench(mx_t *m, diag_t *err)
{
    const report_matrix_opts_t *o = m->o;
    char *ba[] = {"/bin/sh", "-c", "RUNS=1 sh tests/bench/protocols.sh \"$0\"", (char *)o->self,
                  NULL};
    char *out;
    if (o->progress)
        o->progress(o->ctx, -1, 0, "benchmark rows: running tests/bench/protocols.sh (minutes)");
    int rc = 0;
    if (run_capture(ba, &out) == 0 && out && *out) {
        strbuf_t b;
        sb_init(&b);
        sb_printf(&b,
                  "# Benchmark rows (latest)\n\nGenerated by `cohcheck report --bench` on %s "
                  "(`tests/bench/protocols.sh`, one run per row; figures, not assertions).\n\n%s",
                  m->when, out);
        rc = write_file(o->outdir, "bench-latest.md", b.s, err);
        m->have_bench = true;
        sb_free(&b);
    } else {
        diag_set(err, "", 0, 0, "report: the benchmark script failed");
        rc = -1;
    }
    free(out);
    return rc;
}

/* ---- index.html ---- */

static void html_head(const mx_t *m, strbuf_t *h)
{
    sb_puts(
        h,
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
    sb_printf(h, "<p id=\"generated\">Generated by <code>cohcheck report</code> on %s.</p>\n",
              m->when);
    summary_html(h, &m->sum, m->o->ntests);
}

static void html_row(strbuf_t *h, const row_t *r)
{
    sb_printf(h, "<tr class=\"%s\"><td>", row_class(r));
    html_esc(h, r->proto);
    sb_puts(h, "</td><td>");
    html_esc(h, r->model);
    sb_puts(h, "</td><td>");
    html_esc(h, r->setting);
    sb_puts(h, "</td>");
    for (int k = 0; k < V_ERROR; k++)
        sb_printf(h, "<td>%d</td>", r->n[k]);
    sb_printf(h, "<td>%llu</td><td>%.2f</td><td>", (unsigned long long)r->states, r->secs);
    if (r->n[V_ERROR])
        sb_puts(h, "error running the check ");
    if (r->fail_test[0]) {
        if (r->has_trace) {
            sb_puts(h, "<a href=\"traces/");
            html_esc(h, r->proto);
            sb_puts(h, ".svg\">");
        }
        html_esc(h, r->fail_test);
        sb_printf(h, " (%s)", r->fail_verdict);
        if (r->has_trace)
            sb_puts(h, "</a>");
    }
    sb_puts(h, "</td><td><a href=\"diagrams/");
    html_esc(h, r->proto);
    sb_puts(h, ".svg\">state machines</a></td></tr>\n");
}

static void html_matrix(const mx_t *m, strbuf_t *h)
{
    const report_matrix_opts_t *o = m->o;
    sb_puts(h, "<h2 id=\"verdicts\">Verdict matrix</h2>\n<p>");
    sb_printf(h, "Every protocol under %s, in each setting, at most %s states per check, on ",
              o->all_models ? "each of the six models" : "its target model", o->max_states);
    for (int s = 0; s < o->nsuites; s++) {
        sb_puts(h, s ? ", <code>" : "<code>");
        html_esc(h, o->suites[s]);
        sb_puts(h, "</code>");
    }
    sb_printf(h,
              " (%d tests; <a href=\"verdicts.md\">verdicts.md</a>). Where each protocol's "
              "tables interpret or depart from their paper: <a href=\"readings.md\">"
              "readings.md</a>.</p>\n<table>\n<tr>"
              "<th>protocol</th><th>model</th><th>setting</th>",
              o->ntests);
    for (int k = 0; k < V_ERROR; k++)
        sb_printf(h, "<th>%s</th>", vnames[k]);
    sb_puts(h, "<th>states</th><th>time s</th><th>first failure</th><th>diagram</th></tr>\n");
    for (size_t i = 0; i < m->nrows; i++)
        html_row(h, &m->rows[i]);
    sb_puts(h, "</table>\n");
}

/* The counts table again, as HTML rows (from counts-all.md's lines). */
static void html_counts(const mx_t *m, strbuf_t *h)
{
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/counts.md", m->o->outdir);
    bool have_counts = access(sub, R_OK) == 0;
    sb_printf(h,
              "<h2 id=\"counts\">Counts</h2>\n<p>States and transitions per "
              "controller (<a href=\"counts-all.md\">counts-all.md</a>%s).</p>\n<table>\n"
              "<tr><th>protocol</th><th>extends</th><th>controller</th><th>stable</th><th>"
              "transient (coherent)</th><th>transitions</th><th>branches</th></tr>\n",
              have_counts ? "; compared with the papers in <a href=\"counts.md\">counts.md</a>"
                          : "");
    for (char *line = strstr(m->counts.s, "|---"); line && (line = strchr(line, '\n'));) {
        line++;
        if (*line != '|')
            break;
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *copy = xstrndup(line, n);
        sb_puts(h, "<tr>");
        char *save = NULL;
        for (char *cell = strtok_r(copy, "|", &save); cell; cell = strtok_r(NULL, "|", &save)) {
            while (*cell == ' ')
                cell++;
            size_t l = strlen(cell);
            while (l && cell[l - 1] == ' ')
                cell[--l] = '\0';
            sb_puts(h, "<td>");
            html_esc(h, cell);
            sb_puts(h, "</td>");
        }
        sb_puts(h, "</tr>\n");
        free(copy);
    }
    sb_puts(h, "</table>\n");
}

/* Thumbnails of the state diagrams, and the counterexample charts. */
static void html_pictures(const mx_t *m, strbuf_t *h)
{
    sb_puts(h, "<h2 id=\"diagrams\">State diagrams</h2>\n<p class=\"thumbs\">");
    for (size_t i = 0; i < m->nrows; i++) {
        const row_t *r = &m->rows[i];
        if (i && !strcmp(r->proto, m->rows[i - 1].proto))
            continue;
        sb_puts(h, "<a href=\"diagrams/");
        html_esc(h, r->proto);
        sb_puts(h, ".svg\"><img loading=\"lazy\" alt=\"\" src=\"diagrams/");
        html_esc(h, r->proto);
        sb_puts(h, ".svg\">");
        html_esc(h, r->proto);
        sb_puts(h, "</a>");
    }
    sb_puts(h, "</p>\n<h2 id=\"traces\">Counterexamples</h2>\n<ul>\n");
    for (size_t i = 0; i < m->nrows; i++) {
        if (!m->rows[i].has_trace)
            continue;
        sb_puts(h, "<li><a href=\"traces/");
        html_esc(h, m->rows[i].proto);
        sb_puts(h, ".svg\">");
        html_esc(h, m->rows[i].proto);
        sb_puts(h, "</a> on ");
        html_esc(h, m->rows[i].fail_test);
        sb_printf(h, ": %s</li>\n", m->rows[i].fail_verdict);
    }
    sb_puts(h, "</ul>\n");
}

/* The timed-mode section, and every other report (*.md) in the folder. */
static void html_others(const mx_t *m, strbuf_t *h)
{
    report_timed_index_section(h, m->o->outdir);
    sb_puts(h, "<h2 id=\"other\">Other reports</h2>\n<ul>\n");
    int n;
    char **mds = list_dir(m->o->outdir, ".md", &n);
    for (int i = 0; i < n; i++) {
        sb_puts(h, "<li><a href=\"");
        html_esc(h, mds[i]);
        sb_puts(h, "\">");
        html_esc(h, mds[i]);
        sb_puts(h, "</a></li>\n");
    }
    free_names(mds, n);
    sb_puts(h, "</ul>\n</body>\n</html>\n");
}

static int write_index(const mx_t *m, diag_t *err)
{
    strbuf_t h;
    sb_init(&h);
    html_head(m, &h);
    html_matrix(m, &h);
    html_counts(m, &h);
    html_pictures(m, &h);
    html_others(m, &h);
    int rc = write_file(m->o->outdir, "index.html", h.s, err);
    sb_free(&h);
    return rc;
}

/* ---- the whole report ---- */

static void mx_init(mx_t *m, const report_matrix_opts_t *o)
{
    memset(m, 0, sizeof *m);
    m->o = o;
    m->refs = xcalloc(o->ntests ? (size_t)o->ntests : 1, sizeof *m->refs);
    for (int i = 0; i < o->ntests; i++) {
        prog_t *p;
        diag_t d;
        m->refs[i].path = o->tests[i];
        if (prog_load(o->tests[i], &p, &d) == 0) {
            m->refs[i].name = xstrdup(p->name);
            prog_free(p);
        }
    }
    time_t now = time(NULL);
    strftime(m->when, sizeof m->when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    sb_init(&m->counts);
    sb_puts(&m->counts,
            "# Table-level counts of every protocol\n\n"
            "Generated by `cohcheck report` from `cohcheck count` (conventions in counts.md):\n"
            "states declared stable and transient (coherent: declared `transient coherent`),\n"
            "transitions = non-empty (state, event) cells that are neither stall nor\n"
            "impossible, branches = the same per guarded alternative.\n\n"
            "| protocol | extends | controller | stable | transient (coherent) | transitions | "
            "branches |\n|---|---|---|---|---|---|---|\n");
    sb_init(&m->rd);
    sb_puts(&m->rd,
            "# Readings\n\n"
            "Generated by `cohcheck report` from `cohcheck count --readings`: every row,\n"
            "network, param or map of a protocol that interprets or departs from its paper\n"
            "is marked `reading \"SECTION\": \"TEXT\"` (docs/protocol-language.md, Readings).\n"
            "Unmarked items are transcribed as written. A variant lists its bases' readings\n"
            "it did not replace.\n\n");
}

static void mx_free(mx_t *m)
{
    sb_free(&m->sum.refuted_names);
    sb_free(&m->sum.missed_names);
    sb_free(&m->counts);
    sb_free(&m->rd);
    for (size_t i = 0; i < m->nrows; i++) {
        sb_free(&m->rows[i].oks);
        sb_free(&m->rows[i].fails);
    }
    free(m->rows);
    for (int i = 0; i < m->o->ntests; i++)
        free(m->refs[i].name);
    free(m->refs);
}

/* verdicts.md, counts-all.md, readings.md. */
static int write_markdown(const mx_t *m, diag_t *err)
{
    strbuf_t md;
    sb_init(&md);
    verdicts_md(m, &md);
    int rc = write_file(m->o->outdir, "verdicts.md", md.s, err) ||
                     write_file(m->o->outdir, "counts-all.md", m->counts.s, err) ||
                     write_file(m->o->outdir, "readings.md", m->rd.s, err)
                 ? -1
                 : 0;
    sb_free(&md);
    return rc;
}

int report_matrix(const report_matrix_opts_t *o, report_matrix_stats_t *st, diag_t *err)
{
    mx_t m;
    mx_init(&m, o);
    remove_old_pictures(o->outdir);
    int rc = 0;
    for (int i = 0; !rc && i < o->nprotos; i++)
        rc = do_protocol(&m, i, err);
    pick_first_failures(m.rows, m.nrows);
    for (size_t i = 0; !rc && i < m.nrows; i++)
        draw_first_trace(o->self, o->outdir, m.rows, m.nrows, &m.rows[i],
                         o->protos[m.rows[i].proto_index], m.refs, o->ntests);
    summarize(m.rows, m.nrows, &m.sum);
    if (!rc)
        rc = write_markdown(&m, err);
    if (!rc && o->bench)
        rc = run_bench(&m, err);
    if (!rc)
        rc = write_index(&m, err);
    memset(st, 0, sizeof *st);
    st->rows = m.nrows;
    st->protocols = m.sum.protocols;
    st->broken = m.sum.broken;
    st->broken_refuted = m.sum.broken_refuted;
    st->refuted = m.sum.refuted;
    st->incomplete = m.sum.incomplete;
    st->checks = m.sum.checks;
    st->errors = m.sum.errors;
    st->have_bench = m.have_bench;
    mx_free(&m);
    return rc;
}
