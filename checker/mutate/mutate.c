/* mutate.c - protocol mutants and the run that classifies them (mutate.h).
 * Mutants are made on the resolved text (cohcheck count --resolved), one row
 * line at a time, so every operator is a text edit of one row's columns and a
 * mutant is a standalone protocol file that the ordinary loader checks. */
#include "mutate.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../explore/explore.h"

const char *const mutant_class_names[6] = {"killed",     "killed-stronger", "survived",
                                           "equivalent", "invalid",         "not-covered"};

/* ---- generating ---- */

typedef struct {
    mutant_t *m;
    size_t n, cap;
    char **lines;
    size_t nlines;
    const proto_t *p;
    int ctrl, row; /* the row being mutated */
} gen_t;

/* Split S at top-level (parenthesis depth 0) occurrences of SEP into trimmed parts. */
static int split_top(const char *s, const char *sep, char ***out)
{
    char **parts = NULL;
    size_t n = 0, cap = 0;
    size_t sl = strlen(sep);
    int depth = 0;
    const char *start = s;
    for (const char *q = s;; q++) {
        if (*q == '(' || *q == '[')
            depth++;
        else if ((*q == ')' || *q == ']') && depth > 0)
            depth--;
        if (!*q || (depth == 0 && !strncmp(q, sep, sl))) {
            const char *a = start, *b = q;
            while (a < b && *a == ' ')
                a++;
            while (b > a && b[-1] == ' ')
                b--;
            char *part = xstrndup(a, (size_t)(b - a));
            UTIL_PUSH(parts, n, cap, part);
            if (!*q)
                break;
            q += sl - 1;
            start = q + 1;
        }
    }
    *out = parts;
    return (int)n;
}

static void free_parts(char **p, int n)
{
    for (int i = 0; i < n; i++)
        free(p[i]);
    free(p);
}

static char *join(char *const *parts, int n, const char *sep, int skip)
{
    strbuf_t b;
    sb_init(&b);
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (i == skip || !*parts[i])
            continue;
        if (!first)
            sb_puts(&b, sep);
        sb_puts(&b, parts[i]);
        first = false;
    }
    return b.s;
}

/* Add a mutant whose row line LINE becomes AFTER ("" to remove it). */
static void add(gen_t *g, const char *op, size_t line, const proto_row_t *row, const char *ctrl,
                const char *after)
{
    if (!strcmp(g->lines[line], after))
        return;
    strbuf_t t;
    sb_init(&t);
    for (size_t i = 0; i < g->nlines; i++) {
        const char *l = i == line ? after : g->lines[i];
        if (i == line && !*after)
            continue;
        sb_puts(&t, l);
        sb_putc(&t, '\n');
    }
    mutant_t m;
    memset(&m, 0, sizeof m);
    m.id = (int)g->n + 1;
    m.op = op;
    m.file = xstrdup(proto_file_of(g->p, row->text_off));
    m.line = row->line;
    m.ctrl = xstrdup(ctrl);
    m.ctrl_index = g->ctrl;
    m.row_index = g->row;
    const char *b = g->lines[line], *a = after;
    while (*b == ' ')
        b++;
    while (*a == ' ')
        a++;
    m.before = xstrdup(b);
    m.after = xstrdup(a);
    m.text = t.s;
    m.cls = MUT_SURVIVED;
    UTIL_PUSH(g->m, g->n, g->cap, m);
}

/* "  HEAD | guard | actions | next [| labels]" */
static char *row_line(const char *head, const char *guard, const char *acts, const char *next,
                      const char *labels)
{
    strbuf_t b;
    sb_init(&b);
    sb_printf(&b, "  %s | %s | %s | %s", head, guard, acts, next);
    if (labels && *labels)
        sb_printf(&b, " | %s", labels);
    /* Empty columns as the printer writes them: "| |", and no trailing blank. */
    for (char *q; (q = strstr(b.s, "|  |"));)
        memmove(q + 2, q + 3, strlen(q + 3) + 1);
    size_t l = strlen(b.s);
    while (l && b.s[l - 1] == ' ')
        b.s[--l] = '\0';
    b.len = l;
    return b.s;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Mutants of integer literals in S (one column): N -> N+1 and N-1. */
static void off_by_one(gen_t *g, size_t line, const proto_row_t *row, const char *ctrl,
                       const char *head, const char *cols[4], int which)
{
    const char *s = cols[which];
    for (size_t i = 0; s[i]; i++) {
        if (!isdigit((unsigned char)s[i]) || (i > 0 && ident_char(s[i - 1])))
            continue;
        size_t j = i;
        while (isdigit((unsigned char)s[j]))
            j++;
        if (ident_char(s[j])) {
            i = j;
            continue;
        }
        long v = strtol(s + i, NULL, 10);
        for (int d = -1; d <= 1; d += 2) {
            if (v + d < 0)
                continue;
            strbuf_t b;
            sb_init(&b);
            sb_putn(&b, s, i);
            sb_printf(&b, "%ld", v + d);
            sb_puts(&b, s + j);
            const char *c2[4] = {cols[0], cols[1], cols[2], cols[3]};
            c2[which] = b.s;
            char *l = row_line(head, c2[0], c2[1], c2[2], c2[3]);
            add(g, "off-by-one", line, row, ctrl, l);
            free(l);
            sb_free(&b);
        }
        i = j - 1;
    }
}

/* Mutants of comparisons in the guard: each operator negated. */
static void negate_cmp(gen_t *g, size_t line, const proto_row_t *row, const char *ctrl,
                       const char *head, const char *cols[4])
{
    static const struct {
        const char *op, *neg;
    } ops[] = {{"==", "!="}, {"!=", "=="}, {"<=", ">"}, {">=", "<"}, {"<", ">="}, {">", "<="}};
    const char *s = cols[0];
    for (size_t i = 0; s[i]; i++) {
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            size_t l = strlen(ops[k].op);
            if (strncmp(s + i, ops[k].op, l))
                continue;
            if (l == 1 && (s[i + 1] == '=' || (i > 0 && (s[i - 1] == '<' || s[i - 1] == '>' ||
                                                         s[i - 1] == '=' || s[i - 1] == '!'))))
                continue;
            strbuf_t b;
            sb_init(&b);
            sb_putn(&b, s, i);
            sb_puts(&b, ops[k].neg);
            sb_puts(&b, s + i + l);
            char *r = row_line(head, b.s, cols[1], cols[2], cols[3]);
            add(g, "negate-comparison", line, row, ctrl, r);
            free(r);
            sb_free(&b);
            i += l - 1;
            break;
        }
    }
}

/* ACT assigns a ghost line variable of C (docs/protocol-language.md, Ghosts). */
static bool ghost_action(const proto_ctrl_t *c, const char *act)
{
    size_t n = 0;
    while (ident_char(act[n]))
        n++;
    const char *r = act + n;
    while (*r == ' ')
        r++;
    if (!n || (strncmp(r, ":=", 2) && *r != '['))
        return false;
    for (int v = 0; v < c->nlinevars; v++)
        if (c->linevars[v].ghost && strlen(c->linevars[v].name) == n &&
            !strncmp(c->linevars[v].name, act, n))
            return true;
    return false;
}

static void row_mutants(gen_t *g, size_t line, const proto_ctrl_t *c, const proto_row_t *row)
{
    const char *ln = g->lines[line];
    /* HEAD: "STATES | EVENT", the line's first two columns. */
    const char *bar1 = strstr(ln, " | ");
    const char *bar2 = bar1 ? strstr(bar1 + 3, " | ") : NULL;
    if (!bar2)
        return;
    const char *h = ln;
    while (*h == ' ')
        h++;
    char *head = xstrndup(h, (size_t)(bar2 - h));
    char *t = proto_row_text(g->p, row);
    char *col[4] = {"", "", "", ""};
    int nc = proto_split_cols(t, col);
    (void)nc;
    const char *cols[4] = {col[0], col[1], col[2], col[3]};
    char *noghost = NULL; /* the actions without ghost assignments, which no mutant touches */
    if (row->kind == PROTO_ROW_STALL) {
        add(g, "stall-to-unhandled", line, row, c->name, "");
    } else if (row->kind == PROTO_ROW_NORMAL) {
        char **acts;
        int nparts = split_top(cols[1], ";", &acts);
        int na = nparts == 1 && !*acts[0] ? 0 : nparts;
        int kept = 0;
        for (int i = 0; i < na; i++) {
            if (ghost_action(c, acts[i])) {
                free(acts[i]);
                continue;
            }
            acts[kept++] = acts[i];
        }
        if (kept < na) { /* mutants of the row without its ghosts: the explorer's row */
            nparts -= na - kept;
            na = kept;
            noghost = join(acts, na, "; ", -1);
            cols[1] = noghost;
        }
        for (int i = 0; i < na; i++) {
            char *rest = join(acts, na, "; ", i);
            char *r = row_line(head, cols[0], rest, cols[2], cols[3]);
            add(g, strncmp(acts[i], "send ", 5) ? "drop-action" : "drop-send", line, row, c->name,
                r);
            free(r);
            free(rest);
            if (!strcmp(acts[i], "wait")) {
                char *save = acts[i];
                acts[i] = "done";
                char *w = join(acts, na, "; ", -1);
                char *r2 = row_line(head, cols[0], w, cols[2], cols[3]);
                add(g, "wait-to-done", line, row, c->name, r2);
                free(r2);
                free(w);
                acts[i] = save;
            }
        }
        for (int i = 0; i + 1 < na; i++) {
            if (!strcmp(acts[i], acts[i + 1]))
                continue;
            char *x = acts[i];
            acts[i] = acts[i + 1];
            acts[i + 1] = x;
            char *w = join(acts, na, "; ", -1);
            char *r = row_line(head, cols[0], w, cols[2], cols[3]);
            add(g, "swap-actions", line, row, c->name, r);
            free(r);
            free(w);
            acts[i + 1] = acts[i];
            acts[i] = x;
        }
        free_parts(acts, nparts);
        /* Next states: every other state of the controller (line rows only). */
        for (int s = 0; row->states && s < c->nstates; s++) {
            if (s == row->next || (row->next < 0 && row->states == 1ULL << s))
                continue; /* the same next state */
            char *r = row_line(head, cols[0], cols[1], c->state_names[s], cols[3]);
            add(g, "redirect-next", line, row, c->name, r);
            free(r);
        }
        off_by_one(g, line, row, c->name, head, cols, 1);
    }
    if (row->kind != PROTO_ROW_IMPOSSIBLE && *cols[0]) {
        char **conj;
        int nj = split_top(cols[0], "&&", &conj);
        for (int i = 0; i < nj; i++) {
            char *rest = join(conj, nj, " && ", i);
            char *r = row_line(head, rest, cols[1], cols[2], cols[3]);
            add(g, nj > 1 ? "drop-conjunct" : "drop-guard", line, row, c->name, r);
            free(r);
            free(rest);
        }
        free_parts(conj, nj);
        negate_cmp(g, line, row, c->name, head, cols);
        off_by_one(g, line, row, c->name, head, cols, 0);
    }
    free(noghost);
    free(t);
    free(head);
}

int mutate_generate(const proto_t *p, mutant_t **out, int *n, diag_t *err)
{
    gen_t g;
    memset(&g, 0, sizeof g);
    g.p = p;
    char *text = proto_resolved_text(p);
    size_t cap = 0;
    for (char *s = text; *s;) {
        char *nl = strchr(s, '\n');
        char *l = xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
        UTIL_PUSH(g.lines, g.nlines, cap, l);
        s = nl ? nl + 1 : s + strlen(s);
    }
    int rc = 0;
    int ci = -1, k = 0;
    for (size_t i = 0; i < g.nlines && rc == 0; i++) {
        const char *l = g.lines[i];
        if (!strncmp(l, "controller ", 11)) {
            ci = -1;
            for (int c = 0; c < p->nctrls; c++) {
                size_t nl = strlen(p->ctrls[c].name);
                if (!strncmp(l + 11, p->ctrls[c].name, nl) && l[11 + nl] == ' ')
                    ci = c;
            }
            k = 0;
            continue;
        }
        if (ci < 0)
            continue;
        if (!strcmp(l, "}")) {
            if (k != p->ctrls[ci].nrows) {
                diag_set(err, p->file, 0, 0,
                         "mutate: controller %s: %d rows in the resolved text, %d in the table",
                         p->ctrls[ci].name, k, p->ctrls[ci].nrows);
                rc = -1;
            }
            ci = -1;
            continue;
        }
        static const char *const decl[] = {"  stable", "  transient", "  init ", "  warm ",
                                           "  line ",  "  var ",      "  event "};
        bool is_decl = false;
        for (size_t d = 0; d < sizeof decl / sizeof decl[0]; d++)
            is_decl |= !strncmp(l, decl[d], strlen(decl[d]));
        /* A predictor and its rules (timed mode's) are no rows: never mutated. */
        is_decl |= !strncmp(l, "  predict ", 10) || (!strncmp(l, "  on ", 5) && l[5] != '|');
        if (is_decl || !strstr(l, " | "))
            continue;
        if (k >= p->ctrls[ci].nrows) {
            diag_set(err, p->file, 0, 0, "mutate: controller %s has more row lines than rows",
                     p->ctrls[ci].name);
            rc = -1;
            break;
        }
        g.ctrl = ci;
        g.row = k;
        row_mutants(&g, i, &p->ctrls[ci], &p->ctrls[ci].rows[k]);
        k++;
    }
    for (size_t i = 0; i < g.nlines; i++)
        free(g.lines[i]);
    free(g.lines);
    free(text);
    if (rc) {
        mutate_free(g.m, (int)g.n);
        return -1;
    }
    *out = g.m;
    *n = (int)g.n;
    return 0;
}

void mutate_free_one(mutant_t *m)
{
    free(m->file);
    free(m->ctrl);
    free(m->before);
    free(m->after);
    free(m->text);
    free(m->killed_by);
    free(m->verdict);
    free(m->setting);
    free(m->error);
    free(m->differs_on);
}

void mutate_free(mutant_t *m, int n)
{
    for (int i = 0; i < n; i++)
        mutate_free_one(&m[i]);
    free(m);
}

/* ---- running ---- */

typedef struct {
    const proto_t *orig;
    mutant_t *m;
    int n;
    mutate_test_t *tests;
    int ntests;
    const mutate_opts_t *o;
    int nset;                  /* 1 + nstronger */
    const sys_config_t **cfgs; /* per setting */
    bool *usable;              /* nset x ntests: the original passes, completely */
    exec_outcomes_t *reached;  /* nset x ntests: what the original reaches */
    pthread_mutex_t lock;
    int next, done;
    int ncells, next_cell; /* the original's cells, explored before the mutants */
    uint8_t **hit;         /* per controller, per row: the original chose it (usable cells) */
} run_t;

typedef enum { R_PASS, R_FAIL, R_LIMIT, R_SKIP } res_t;

/* Explore P on test T under CFG (with O's max_states, max_memory, liveness and por). R_FAIL gives
 * the verdict name in *VERDICT. With HIT (the original), the rows chosen are merged into HIT under
 * LOCK when the exploration passes. */
static res_t explore_one(const proto_t *p, const mutate_test_t *t, const sys_config_t *cfg,
                         const mutate_opts_t *o, exec_outcomes_t *reached, const char **verdict,
                         uint8_t **hit, pthread_mutex_t *lock)
{
    sys_t *s;
    diag_t d;
    int rc = sys_new(p, t->prog, cfg, &s, &d);
    if (rc == -2)
        return R_SKIP;
    if (rc) {
        *verdict = "unexpected";
        return R_FAIL; /* the mutant cannot even build the system */
    }
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = o->max_states;
    eo.max_memory = o->max_memory;
    eo.allowed = t->mr.racy ? NULL : &t->mr.allowed;
    eo.liveness = o->liveness;
    eo.fairness = o->liveness ? 1 : 0;
    eo.por = o->por;
    if (hit)
        sys_set_coverage(s, true);
    explore_result_t r;
    res_t out;
    if (explore_run(s, t->lay.nkeys, &eo, &r, &d)) {
        sys_free(s);
        *verdict = "unexpected"; /* an initial state breaks the protocol */
        return R_FAIL;
    }
    if (r.verdict == EXPLORE_OK) {
        out = R_PASS;
        if (hit) {
            pthread_mutex_lock(lock);
            for (int c = 0; c < p->nctrls; c++)
                for (int k = 0; k < p->ctrls[c].nrows; k++)
                    hit[c][k] |= sys_row_chosen(s, c, k);
            pthread_mutex_unlock(lock);
        }
        if (reached) {
            exec_outcomes_init(reached, r.reached.nkeys);
            for (size_t i = 0; i < r.reached.n; i++)
                exec_outcomes_add(reached, exec_outcome(&r.reached, i));
        }
    } else if (r.verdict == EXPLORE_INCOMPLETE) {
        out = R_LIMIT;
    } else {
        out = R_FAIL;
        *verdict = explore_verdict_names[r.verdict];
    }
    explore_result_free(&r);
    sys_free(s);
    return out;
}

/* Does A hold an outcome that B does not? */
static bool has_extra(const exec_outcomes_t *a, const exec_outcomes_t *b)
{
    for (size_t i = 0; i < a->n; i++)
        if (!exec_outcomes_has(b, exec_outcome(a, i)))
            return true;
    return false;
}

static void note_difference(run_t *r, mutant_t *m, int k, int t)
{
    if (m->differs_on)
        return;
    strbuf_t b;
    sb_init(&b);
    sb_printf(&b, "%s (%s)", r->tests[t].prog->name, k ? r->o->stronger[k - 1].name : "base");
    m->differs_on = b.s;
}

static void classify(run_t *r, mutant_t *m)
{
    proto_t *p;
    diag_t d;
    char name[64];
    snprintf(name, sizeof name, "mutant-%d.proto", m->id);
    if (proto_parse(name, m->text, strlen(m->text), &p, &d)) {
        m->cls = MUT_INVALID;
        m->error = xstrdup(d.msg);
        return;
    }
    for (int k = 0; k < r->nset; k++) {
        for (int t = 0; t < r->ntests; t++) {
            if (!r->usable[k * r->ntests + t])
                continue;
            exec_outcomes_t got;
            const char *verdict = NULL;
            res_t res = explore_one(p, &r->tests[t], r->cfgs[k], r->o, &got, &verdict, NULL, NULL);
            if (res == R_FAIL) {
                m->cls = k ? MUT_KILLED_STRONGER : MUT_KILLED;
                m->killed_by = xstrdup(r->tests[t].prog->name);
                m->verdict = xstrdup(verdict);
                m->setting = xstrdup(k ? r->o->stronger[k - 1].name : "base");
                m->gained = m->lost = m->bounded = 0;
                free(m->differs_on);
                m->differs_on = NULL;
                proto_free(p);
                return;
            }
            if (res == R_PASS) {
                const exec_outcomes_t *orig = &r->reached[k * r->ntests + t];
                bool more = has_extra(&got, orig), fewer = has_extra(orig, &got);
                m->gained += more;
                m->lost += fewer;
                if (more || fewer)
                    note_difference(r, m, k, t);
                exec_outcomes_free(&got);
            } else {
                m->bounded++; /* bounded or unsupported: cannot tell */
                note_difference(r, m, k, t);
            }
        }
    }
    /* Equivalent: every exploration complete and reaching exactly the original's outcomes,
     * and the mutated row exercised; a row the suite never reaches is not covered. */
    m->covered = r->hit[m->ctrl_index][m->row_index];
    m->cls = m->gained || m->lost || m->bounded ? MUT_SURVIVED
             : m->covered                       ? MUT_EQUIVALENT
                                                : MUT_NOT_COVERED;
    proto_free(p);
}

static void *orig_worker(void *arg)
{
    run_t *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        int i = r->next_cell++;
        pthread_mutex_unlock(&r->lock);
        if (i >= r->ncells)
            break;
        int k = i / r->ntests, t = i % r->ntests;
        const char *v = NULL;
        res_t res = explore_one(r->orig, &r->tests[t], r->cfgs[k], r->o, &r->reached[i], &v, r->hit,
                                &r->lock);
        r->usable[i] = res == R_PASS;
    }
    return NULL;
}

static void *worker(void *arg)
{
    run_t *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        int i = r->next++;
        pthread_mutex_unlock(&r->lock);
        if (i >= r->n)
            break;
        classify(r, &r->m[i]);
        pthread_mutex_lock(&r->lock);
        r->done++;
        if (r->o->progress)
            r->o->progress(r->o->progress_ctx, &r->m[i], r->done, r->n);
        pthread_mutex_unlock(&r->lock);
    }
    return NULL;
}

int mutate_run(const proto_t *orig, mutant_t *m, int n, mutate_test_t *tests, int ntests,
               const mutate_opts_t *o, diag_t *err)
{
    run_t r;
    memset(&r, 0, sizeof r);
    r.orig = orig;
    r.m = m;
    r.n = n;
    r.tests = tests;
    r.ntests = ntests;
    r.o = o;
    r.nset = 1 + o->nstronger;
    r.cfgs = xcalloc((size_t)r.nset, sizeof *r.cfgs);
    r.cfgs[0] = &o->base;
    for (int k = 0; k < o->nstronger; k++)
        r.cfgs[k + 1] = &o->stronger[k].cfg;
    size_t cells = (size_t)r.nset * (size_t)ntests;
    r.usable = xcalloc(cells ? cells : 1, sizeof *r.usable);
    r.reached = xcalloc(cells ? cells : 1, sizeof *r.reached);
    /* The original, in every setting: only the tests it passes completely can kill.
     * Those cells are explored by the same workers first (orig_worker). */
    r.ncells = (int)cells;
    r.hit = xcalloc((size_t)orig->nctrls + 1, sizeof *r.hit);
    for (int c = 0; c < orig->nctrls; c++)
        r.hit[c] = xcalloc((size_t)orig->ctrls[c].nrows + 1, 1);
    pthread_mutex_init(&r.lock, NULL);
    int nt = o->threads > 0 ? o->threads : 1;
    if (nt > 64)
        nt = 64;
    pthread_t th[64];
    for (int pass = 0; pass < 2; pass++) {
        void *(*fn)(void *) = pass ? worker : orig_worker;
        int started = 0;
        for (int i = 0; i < nt; i++) {
            if (pthread_create(&th[i], NULL, fn, &r))
                break;
            started++;
        }
        if (!started)
            fn(&r);
        for (int i = 0; i < started; i++)
            pthread_join(th[i], NULL);
    }
    for (int t = 0; t < ntests; t++)
        tests[t].usable = r.usable[t];
    pthread_mutex_destroy(&r.lock);
    for (size_t i = 0; i < cells; i++)
        if (r.usable[i])
            exec_outcomes_free(&r.reached[i]);
    free(r.usable);
    free(r.reached);
    free(r.cfgs);
    for (int c = 0; c < orig->nctrls; c++)
        free(r.hit[c]);
    free(r.hit);
    (void)err;
    return 0;
}
