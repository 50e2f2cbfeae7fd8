/* murphi.c - cohcheck export --murphi: the system of checker/sys/sys.c written
 * as a Murphi model (Rumur dialect). Every sys.c rule has its counterpart here:
 *
 *   sys.c                          the model
 *   thread slots pc/step/status    Th[t].pc, .step, .stat, .r<k> (registers a thread names)
 *   instance lines and variables   c_<CTRL>[i].ln[l].st / .v_<var>, c_<CTRL>[i].v_<var>
 *   channels (only those a row     Ch[q] (n, m[0..CAP-1]); slots past n cleared, records
 *     can send into: lchan)          carry mt, line and one component per field name
 *   find_row / choose_row          <CTRL>_fires_<EV> (guard: first matching row is not a
 *                                    stall) and <CTRL>_do_<EV> (runs it; impossible and
 *                                    unhandled events are errors)
 *   emit: --lines over capacity    assume "lines" (such a successor is discarded)
 *   do_send back-pressure          Blocked := true, assume "back-pressure"
 *   normalize                      Normalize(): dead line variables reset, times shifted
 *   canon                          Canon(): unordered channels sorted as rec_cmp does
 *   tick that changes nothing      the tick rule is enabled only when a live time >= 0
 *   sys_initial (warm subsets)     one startstate per subset (ruleset over booleans)
 *   sys_check                      one invariant per protocol invariant, on every line
 *   deadlock                       rule "terminal" (a no-op in terminal states) and
 *                                    `rumur --deadlock-detection stuck`
 *
 * Every value is an integer (booleans 0/1) so that expressions translate
 * one to one; a comparison becomes (a < b ? 1 : 0). */
#include "murphi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MX_MAX_INST 64

typedef struct {
    char *name; /* component name in msg_t */
    char *type; /* its Murphi type */
} comp_t;

typedef struct {
    const proto_t *p;
    const prog_t *prog;
    sys_config_t cfg;
    strbuf_t *o;
    int nthreads, ncus, ninst, nlines, maxlocs, cap;
    int ictrl[MX_MAX_INST], icu[MX_MAX_INST];
    int *cbase, *cn; /* per controller: first global instance, number of instances */
    int *loc_line, *locpos, *line_nlocs, **line_locs;
    const proto_map_t ***maps; /* per thread, per instruction (NULL: not a memory op) */
    int maxpc, maxev;
    bool reg[PROG_MAX_REGS]; /* registers some thread names */
    int ncomp;
    comp_t *comp;
    int **mcomp; /* per message, per field: its component */
    int nch;
    int *ch_net, *ch_src, *ch_dst;
    int ncount;
    int *count_ctrl;
    uint64_t *count_states;
    bool clock, any_time;
    diag_t *err;
    bool failed;
} mx_t;

/* Expression context: which controller the row belongs to and what it can read. */
typedef struct {
    int ctrl;
    const char *i, *l; /* Murphi expressions of the instance index and the line */
    int msg;           /* the message a message row receives (h), -1: none */
    bool core;         /* a core event: req reads thread t's instruction */
} ectx_t;

static void P(mx_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void P(mx_t *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < (int)sizeof buf) {
        sb_puts(g->o, buf);
        return;
    }
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_puts(g->o, big);
    free(big);
}

static void unsupported(mx_t *g, int line, int col, const char *what)
{
    if (!g->failed)
        diag_set(g->err, g->p->file, line, col, "export --murphi: %s", what);
    g->failed = true;
}

/* ---- names and types ---- */

static const char *cname(const mx_t *g, int c)
{
    return g->p->ctrls[c].name;
}

/* T as a Murphi type; int(LO..nthreads) bounded by the run's NTHREADS. */
static void type_str(const proto_type_t *t, int nthreads, char *buf, size_t n)
{
    switch (t->kind) {
    case PROTO_T_DATA: snprintf(buf, n, "data_t"); break;
    case PROTO_T_BOOL: snprintf(buf, n, "0..1"); break;
    case PROTO_T_NODESET:
    case PROTO_T_MASK: snprintf(buf, n, "set_t"); break;
    case PROTO_T_INT: {
        /* zero is the value of a variable with no initial value: keep it in the type
           (an assignment outside lo..hi is checked apart) */
        long lo = t->lo < 0 ? t->lo : 0, hi = proto_type_hi(t, nthreads);
        if (hi < 0)
            hi = 0;
        if (lo < -32767)
            lo = -32767;
        if (hi > 32767)
            hi = 32767;
        snprintf(buf, n, "%ld..%ld", lo, hi);
        break;
    }
    default: snprintf(buf, n, "val_t"); break;
    }
}

/* Does assigning a value of type T need an explicit range check (0 outside lo..hi)? */
static bool needs_check(const proto_type_t *t)
{
    return t->kind == PROTO_T_INT && (t->lo > 0 || t->hi < 0);
}

static bool is_mem(const prog_instr_t *in)
{
    return in->op == PROG_OP_LD || in->op == PROG_OP_ST || in->op == PROG_OP_RMW ||
           in->op == PROG_OP_CAS || in->op == PROG_OP_FENCE;
}

static bool writes_reg(const prog_instr_t *in)
{
    return in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS;
}

/* Every state of MASK of controller C as "(X = C_A | X = C_B)"; "false" when none. */
static void states_cond(mx_t *g, int c, uint64_t mask, const char *x, strbuf_t *b)
{
    const proto_ctrl_t *pc = &g->p->ctrls[c];
    int n = 0;
    sb_putc(b, '(');
    for (int s = 0; s < pc->nstates; s++)
        if (mask >> s & 1)
            sb_printf(b, "%s%s = %s_%s", n++ ? " | " : "", x, pc->name, pc->state_names[s]);
    if (!n)
        sb_puts(b, "false");
    sb_putc(b, ')');
}

/* ---- expressions ---- */

static void ex(mx_t *g, const ectx_t *c, const proto_expr_t *e, strbuf_t *b);

/* The Murphi path of a variable or message-field expression (data included). */
static bool var_path(mx_t *g, const ectx_t *c, const proto_expr_t *e, strbuf_t *b)
{
    const proto_ctrl_t *pc = &g->p->ctrls[c->ctrl];
    switch (e->kind) {
    case PROTO_E_LINEVAR:
        sb_printf(b, "c_%s[%s].ln[%s].v_%s", pc->name, c->i, c->l, pc->linevars[e->index].name);
        return true;
    case PROTO_E_CTRLVAR:
        sb_printf(b, "c_%s[%s].v_%s", pc->name, c->i, pc->ctrlvars[e->index].name);
        return true;
    case PROTO_E_MSGF:
        if (c->msg < 0)
            break;
        sb_printf(b, "h.%s", g->comp[g->mcomp[c->msg][e->index]].name);
        return true;
    default: break;
    }
    return false;
}

static void ex_bin(mx_t *g, const ectx_t *c, const char *op, const proto_expr_t *a,
                   const proto_expr_t *bb, bool cmp, strbuf_t *b)
{
    sb_puts(b, "(");
    ex(g, c, a, b);
    sb_printf(b, " %s ", op);
    ex(g, c, bb, b);
    sb_puts(b, cmp ? " ? 1 : 0)" : ")");
}

static void ex(mx_t *g, const ectx_t *c, const proto_expr_t *e, strbuf_t *b)
{
    const proto_t *p = g->p;
    switch (e->kind) {
    case PROTO_E_NONE: sb_puts(b, "0"); return;
    case PROTO_E_INT: sb_printf(b, e->index < 0 ? "(%d)" : "%d", e->index); return;
    case PROTO_E_PARAM: sb_printf(b, "p_%s", p->params[e->index].name); return;
    case PROTO_E_LINEVAR:
    case PROTO_E_CTRLVAR:
    case PROTO_E_MSGF:
        if (!var_path(g, c, e, b))
            unsupported(g, e->line, e->col, "a variable used outside its context");
        return;
    case PROTO_E_INDEX:
        if (!var_path(g, c, e->a, b))
            unsupported(g, e->line, e->col, "an index into something that is not data");
        sb_puts(b, "[LocPos(");
        ex(g, c, e->b, b);
        sb_puts(b, ")]");
        return;
    case PROTO_E_MSGSRC:
        if (c->msg < 0)
            unsupported(g, e->line, e->col, "msg.src outside a message row");
        sb_puts(b, "src");
        return;
    case PROTO_E_REQF: {
        static const char *const f[] = {"ReqLoc", "ReqVal",   "ReqExp", "ReqOp",
                                        "ReqOrd", "ReqScope", "ReqTid"};
        if (!c->core)
            unsupported(g, e->line, e->col, "req used outside a core event");
        if (e->index == PROTO_REQ_TID)
            sb_puts(b, "t");
        else
            sb_printf(b, "%s(t)", f[e->index]);
        return;
    }
    case PROTO_E_SELF: sb_printf(b, "(%d + %s)", g->cbase[c->ctrl], c->i); return;
    case PROTO_E_LINE: sb_printf(b, "%s", c->l); return;
    case PROTO_E_NOT:
        sb_puts(b, "(");
        ex(g, c, e->a, b);
        sb_puts(b, " = 0 ? 1 : 0)");
        return;
    case PROTO_E_NEG:
        sb_puts(b, "(0 - ");
        ex(g, c, e->a, b);
        sb_puts(b, ")");
        return;
    case PROTO_E_BIN:
        switch (e->op) {
        case '+': ex_bin(g, c, "+", e->a, e->b, false, b); return;
        case '-': ex_bin(g, c, "-", e->a, e->b, false, b); return;
        case '<': ex_bin(g, c, "<", e->a, e->b, true, b); return;
        case 'l': ex_bin(g, c, "<=", e->a, e->b, true, b); return;
        case '>': ex_bin(g, c, ">", e->a, e->b, true, b); return;
        case 'g': ex_bin(g, c, ">=", e->a, e->b, true, b); return;
        case '=': ex_bin(g, c, "=", e->a, e->b, true, b); return;
        case '!': ex_bin(g, c, "!=", e->a, e->b, true, b); return;
        case '&':
        case '|':
            sb_puts(b, "((");
            ex(g, c, e->a, b);
            sb_printf(b, " != 0) %c (", e->op);
            ex(g, c, e->b, b);
            sb_puts(b, " != 0) ? 1 : 0)");
            return;
        }
        break;
    case PROTO_E_MAX:
    case PROTO_E_MIN:
        sb_puts(b, "(");
        ex(g, c, e->a, b);
        sb_puts(b, " > ");
        ex(g, c, e->b, b);
        sb_puts(b, " ? ");
        ex(g, c, e->kind == PROTO_E_MAX ? e->a : e->b, b);
        sb_puts(b, " : ");
        ex(g, c, e->kind == PROTO_E_MAX ? e->b : e->a, b);
        sb_puts(b, ")");
        return;
    case PROTO_E_COUNT:
        for (int k = 0; k < g->ncount; k++)
            if (g->count_ctrl[k] == e->index && g->count_states[k] == e->states) {
                sb_printf(b, "Count%d(%s)", k, c->l);
                return;
            }
        break;
    case PROTO_E_APPLY:
        sb_puts(b, "Apply(");
        ex(g, c, e->a, b);
        sb_puts(b, ", ");
        ex(g, c, e->b, b);
        sb_puts(b, ", ");
        ex(g, c, e->c, b);
        sb_puts(b, ", ");
        ex(g, c, e->d, b);
        sb_puts(b, ")");
        return;
    case PROTO_E_CLOCK: sb_puts(b, "0"); return; /* the clock of a normal form is 0 */
    case PROTO_E_TELEM:
        sb_printf(b, "c_%s[%s].v_%s[", cname(g, c->ctrl), c->i,
                  p->ctrls[c->ctrl].ctrlvars[e->a->index].name);
        ex(g, c, e->b, b);
        sb_puts(b, "]");
        return;
    case PROTO_E_IN:
        sb_puts(b, e->b->type.kind == PROTO_T_MASK ? "MaskIn(" : "NodeIn(");
        ex(g, c, e->a, b);
        sb_puts(b, ", ");
        ex(g, c, e->b, b);
        sb_puts(b, ")");
        return;
    case PROTO_E_SETOP:
        sb_printf(b, "%s%s(", e->type.kind == PROTO_T_MASK ? "Mask" : "Node",
                  e->op == '+' ? "Add" : "Del");
        ex(g, c, e->a, b);
        sb_puts(b, ", ");
        ex(g, c, e->b, b);
        sb_puts(b, ")");
        return;
    case PROTO_E_SIZE:
        sb_puts(b, "Popcount(");
        ex(g, c, e->a, b);
        sb_puts(b, ")");
        return;
    case PROTO_E_MERGE: break;
    }
    unsupported(g, e->line, e->col, "an expression the export does not translate");
    sb_puts(b, "0");
}

/* A data-valued expression: a data variable or field, or merge(a, b, mask). */
static void ex_data(mx_t *g, const ectx_t *c, const proto_expr_t *e, strbuf_t *b)
{
    if (e->kind == PROTO_E_MERGE) {
        sb_puts(b, "Merge(");
        ex_data(g, c, e->a, b);
        sb_puts(b, ", ");
        ex_data(g, c, e->b, b);
        sb_puts(b, ", ");
        ex(g, c, e->c, b);
        sb_puts(b, ")");
        return;
    }
    if (!var_path(g, c, e, b))
        unsupported(g, e->line, e->col, "data that is not a variable, a field or merge()");
}

static char *ex_str(mx_t *g, const ectx_t *c, const proto_expr_t *e)
{
    strbuf_t b;
    sb_init(&b);
    if (e->type.kind == PROTO_T_DATA)
        ex_data(g, c, e, &b);
    else
        ex(g, c, e, &b);
    return b.s;
}

/* ---- layout (as sys_new lays out the system) ---- */

static int comp_of(mx_t *g, const proto_field_t *f)
{
    char ty[64];
    type_str(&f->type, g->nthreads, ty, sizeof ty);
    for (int k = 0; k < g->ncomp; k++)
        if (!strcmp(g->comp[k].type, ty) && !strncmp(g->comp[k].name, "f_", 2) &&
            !strcmp(g->comp[k].name + 2, f->name))
            return k;
    char name[96];
    bool clash = false;
    for (int k = 0; k < g->ncomp; k++)
        clash |= !strcmp(g->comp[k].name + 2, f->name);
    if (clash)
        snprintf(name, sizeof name, "f_%s_%d", f->name, g->ncomp);
    else
        snprintf(name, sizeof name, "f_%s", f->name);
    g->comp = xrealloc(g->comp, sizeof *g->comp * (size_t)(g->ncomp + 1));
    g->comp[g->ncomp].name = xstrdup(name);
    g->comp[g->ncomp].type = xstrdup(ty);
    return g->ncomp++;
}

static void collect_counts(mx_t *g, const proto_expr_t *e)
{
    if (!e)
        return;
    if (e->kind == PROTO_E_COUNT) {
        bool seen = false;
        for (int k = 0; k < g->ncount; k++)
            seen |= g->count_ctrl[k] == e->index && g->count_states[k] == e->states;
        if (!seen) {
            g->count_ctrl = xrealloc(g->count_ctrl, sizeof(int) * (size_t)(g->ncount + 1));
            g->count_states = xrealloc(g->count_states, sizeof(uint64_t) * (size_t)(g->ncount + 1));
            g->count_ctrl[g->ncount] = e->index;
            g->count_states[g->ncount++] = e->states;
        }
    }
    collect_counts(g, e->a);
    collect_counts(g, e->b);
    collect_counts(g, e->c);
    collect_counts(g, e->d);
}

static void layout(mx_t *g)
{
    const proto_t *p = g->p;
    const prog_t *prog = g->prog;
    g->nthreads = prog->nthreads;
    int need = 0;
    for (int t = 0; t < prog->nthreads; t++)
        if (prog->threads[t].cu + 1 > need)
            need = prog->threads[t].cu + 1;
    g->ncus = g->cfg.cus > 0 ? g->cfg.cus : need;
    g->cbase = xcalloc((size_t)p->nctrls + 1, sizeof(int));
    g->cn = xcalloc((size_t)p->nctrls + 1, sizeof(int));
    for (int c = 0; c < p->nctrls; c++) {
        g->cbase[c] = g->ninst;
        g->cn[c] = p->ctrls[c].per_cu ? g->ncus : 1;
        for (int k = 0; k < g->cn[c] && g->ninst < MX_MAX_INST; k++) {
            g->ictrl[g->ninst] = c;
            g->icu[g->ninst++] = p->ctrls[c].per_cu ? k : -1;
        }
    }
    {
        sys_lines_t ln;
        sys_lines_build(p, prog, &ln);
        g->loc_line = ln.loc_line;
        g->locpos = ln.locpos;
        g->line_nlocs = ln.line_nlocs;
        g->line_locs = ln.line_locs;
        g->nlines = ln.nlines;
        g->maxlocs = ln.maxlocs;
    }
    g->cap = g->cfg.chan_capacity > 0 ? g->cfg.chan_capacity : 8;
    for (int n = 0; n < p->nnets; n++)
        if (p->nets[n].capacity > g->cap)
            g->cap = p->nets[n].capacity;
    if (g->cap > 255)
        g->cap = 255;
    /* threads: core maps, registers */
    g->maps = xcalloc((size_t)prog->nthreads + 1, sizeof *g->maps);
    g->maxev = 1;
    for (int t = 0; t < prog->nthreads; t++) {
        const prog_thread_t *pt = &prog->threads[t];
        g->maps[t] = xcalloc((size_t)pt->ninstr + 1, sizeof **g->maps);
        if (pt->ninstr > g->maxpc)
            g->maxpc = pt->ninstr;
        for (int i = 0; i < pt->ninstr; i++) {
            const prog_instr_t *in = &pt->instr[i];
            if (is_mem(in)) {
                g->maps[t][i] = proto_find_map(p, in->op, in->ord, in->scope);
                if (g->maps[t][i] && g->maps[t][i]->nevents > g->maxev)
                    g->maxev = g->maps[t][i]->nevents;
            }
            if (writes_reg(in) || in->op == PROG_OP_MOV || in->op == PROG_OP_ADD ||
                in->op == PROG_OP_BEQ || in->op == PROG_OP_BNE)
                g->reg[in->reg] = true;
            if (in->a.is_reg)
                g->reg[in->a.v] = true;
            if (in->b.is_reg)
                g->reg[in->b.v] = true;
        }
    }
    /* message components */
    g->mcomp = xcalloc((size_t)p->nmsgs + 1, sizeof *g->mcomp);
    for (int m = 0; m < p->nmsgs; m++) {
        g->mcomp[m] = xcalloc((size_t)p->msgs[m].nfields + 1, sizeof(int));
        for (int f = 0; f < p->msgs[m].nfields; f++) {
            g->mcomp[m][f] = comp_of(g, &p->msgs[m].fields[f]);
            g->any_time |= p->msgs[m].fields[f].type.kind == PROTO_T_TIME;
        }
    }
    /* channels a send can use (sys_new's lchan), in the same order */
    uint8_t *sends = xcalloc((size_t)p->nctrls * (size_t)p->nnets * (size_t)(p->nctrls + 1) + 1, 1);
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++)
            for (int k = 0; k < p->ctrls[c].rows[r].nactions; k++) {
                const proto_action_t *a = &p->ctrls[c].rows[r].actions[k];
                if (a->kind != PROTO_A_SEND)
                    continue;
                bool named = a->dest == PROTO_DEST_SHARED || a->dest == PROTO_DEST_SAMECU ||
                             a->dest == PROTO_DEST_ALL;
                int net = p->msgs[a->msg].net;
                sends[((size_t)c * p->nnets + net) * (p->nctrls + 1) +
                      (named ? a->dest_ctrl : p->nctrls)] = 1;
            }
    int nall = p->nnets * g->ninst * g->ninst;
    g->ch_net = xcalloc((size_t)nall + 1, sizeof(int));
    g->ch_src = xcalloc((size_t)nall + 1, sizeof(int));
    g->ch_dst = xcalloc((size_t)nall + 1, sizeof(int));
    for (int c = 0; c < nall; c++) {
        int net = c / (g->ninst * g->ninst), src = c / g->ninst % g->ninst, dst = c % g->ninst;
        const uint8_t *row = sends + ((size_t)g->ictrl[src] * p->nnets + net) * (p->nctrls + 1);
        if (row[p->nctrls] || row[g->ictrl[dst]]) {
            g->ch_net[g->nch] = net;
            g->ch_src[g->nch] = src;
            g->ch_dst[g->nch++] = dst;
        }
    }
    free(sends);
    /* count() uses, times */
    g->clock = p->clock != NULL;
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            collect_counts(g, row->guard);
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                collect_counts(g, a->index);
                collect_counts(g, a->value);
                collect_counts(g, a->dest_node);
                collect_counts(g, a->tid);
                collect_counts(g, a->dval);
                for (int f = 0; a->kind == PROTO_A_SEND && f < p->msgs[a->msg].nfields; f++)
                    collect_counts(g, a->fields[f]);
            }
        }
        for (int v = 0; v < pc->nlinevars; v++) {
            collect_counts(g, pc->linevars[v].init);
            g->any_time |= pc->linevars[v].type.kind == PROTO_T_TIME;
        }
        for (int v = 0; v < pc->nctrlvars; v++) {
            collect_counts(g, pc->ctrlvars[v].init);
            g->any_time |= pc->ctrlvars[v].type.kind == PROTO_T_TIME;
        }
    }
    for (int k = 0; k < p->ninvs; k++)
        collect_counts(g, p->invs[k].expr);
}

static void mx_free(mx_t *g)
{
    const proto_t *p = g->p;
    free(g->cbase);
    free(g->cn);
    free(g->loc_line);
    free(g->locpos);
    free(g->line_nlocs);
    for (int l = 0; g->line_locs && l < g->nlines; l++)
        free(g->line_locs[l]);
    free(g->line_locs);
    for (int t = 0; g->maps && t < g->nthreads; t++)
        free(g->maps[t]);
    free(g->maps);
    for (int k = 0; k < g->ncomp; k++) {
        free(g->comp[k].name);
        free(g->comp[k].type);
    }
    free(g->comp);
    for (int m = 0; g->mcomp && m < p->nmsgs; m++)
        free(g->mcomp[m]);
    free(g->mcomp);
    free(g->ch_net);
    free(g->ch_src);
    free(g->ch_dst);
    free(g->count_ctrl);
    free(g->count_states);
}

/* ---- rows ---- */

static bool env_enabled(const sys_config_t *cfg, const char *name)
{
    for (int k = 0; k < cfg->nenv_names; k++)
        if (!strcmp(name, cfg->env_names[k]))
            return true;
    return cfg->env_all || (!strcmp(name, "fetch") && (cfg->env & SYS_ENV_FETCH)) ||
           (!strcmp(name, "evict") && (cfg->env & SYS_ENV_EVICT)) ||
           (!strcmp(name, "writeback") && (cfg->env & SYS_ENV_WRITEBACK));
}

static bool has_rows(const proto_ctrl_t *pc, int ev)
{
    for (int r = 0; r < pc->nrows; r++)
        if (pc->rows[r].event == ev)
            return true;
    return false;
}

/* The parameters of a (controller, event) procedure, by the event's kind. */
static void ev_params(mx_t *g, int c, int ev, strbuf_t *b)
{
    const proto_event_t *e = &g->p->events[ev];
    sb_printf(b, "i: 0..%d; l: lidx_t", g->cn[c] - 1);
    if (e->kind == PROTO_EV_MSG)
        sb_puts(b, "; h: msg_t; src: node_t");
    else if (e->kind == PROTO_EV_CORE)
        sb_puts(b, "; t: tid_t");
}

static ectx_t ev_ctx(mx_t *g, int c, int ev)
{
    const proto_event_t *e = &g->p->events[ev];
    ectx_t x = {c, "i", "l", e->kind == PROTO_EV_MSG ? e->msg : -1, e->kind == PROTO_EV_CORE};
    return x;
}

/* Row R's condition on the unchanged state (find_row: states, then guard). */
static void row_cond(mx_t *g, const ectx_t *x, const proto_row_t *r, strbuf_t *b)
{
    char path[128];
    snprintf(path, sizeof path, "c_%s[i].ln[l].st", cname(g, x->ctrl));
    if (r->states) {
        sb_puts(b, "l >= 0 & ");
        states_cond(g, x->ctrl, r->states, path, b);
    } else {
        sb_puts(b, "l < 0");
    }
    if (r->guard) {
        sb_puts(b, " & ");
        char *s = ex_str(g, x, r->guard);
        sb_printf(b, "%s != 0", s);
        free(s);
    }
}

static void row_comment(mx_t *g, int c, const proto_row_t *r, const char *ind)
{
    char *t = proto_row_text(g->p, r);
    const proto_ctrl_t *pc = &g->p->ctrls[c];
    strbuf_t st;
    sb_init(&st);
    if (!r->states)
        sb_puts(&st, "-");
    for (int s = 0, n = 0; s < pc->nstates; s++)
        if (r->states >> s & 1)
            sb_printf(&st, "%s%s", n++ ? ", " : "", pc->state_names[s]);
    P(g, "%s-- %s:%d: %s | %s | %s\n", ind, proto_file_of(g->p, r->text_off), r->line, st.s,
      g->p->events[r->event].name, t);
    sb_free(&st);
    free(t);
}

static void emit_send(mx_t *g, const ectx_t *x, const proto_action_t *a)
{
    const proto_t *p = g->p;
    const proto_msg_t *m = &p->msgs[a->msg];
    int c = x->ctrl, D = a->dest_ctrl, bound = p->nets[m->net].capacity;
    bool self_cu = p->ctrls[c].per_cu;
    P(g, "    ClearMsg(m);\n    m.mt := M_%s;\n    m.line := %s;\n", m->name,
      m->noline ? "-1" : "l");
    for (int f = 0; f < m->nfields; f++) {
        const proto_expr_t *fe = a->fields[f];
        if (!fe)
            continue;
        const proto_type_t *ty = &m->fields[f].type;
        char *s = ex_str(g, x, fe);
        const char *comp = g->comp[g->mcomp[a->msg][f]].name;
        if (needs_check(ty))
            P(g,
              "    v := %s;\n    if v < %d | v > %d then error \"variable %s out of its range\"; "
              "endif;\n    m.%s := v;\n",
              s, ty->lo, proto_type_hi(ty, g->nthreads), m->fields[f].name, comp);
        else
            P(g, "    m.%s := %s;\n", comp, s);
        free(s);
    }
    char self[64];
    snprintf(self, sizeof self, "%d + i", g->cbase[c]);
#define SEND(dst)                                                                               \
    P(g, "    Send(ChanOf(%d, %s, %s), m, %d); if Blocked then return; endif;\n", m->net, self, \
      dst, bound)
    char dst[128];
    switch (a->dest) {
    case PROTO_DEST_SHARED:
    case PROTO_DEST_ALL:
        for (int k = 0; k < g->cn[D]; k++) {
            snprintf(dst, sizeof dst, "%d", g->cbase[D] + k);
            SEND(dst);
        }
        break;
    case PROTO_DEST_SAMECU:
        if (p->ctrls[D].per_cu && self_cu) {
            snprintf(dst, sizeof dst, "%d + i", g->cbase[D]);
            SEND(dst);
        } else if (!p->ctrls[D].per_cu && !self_cu) {
            snprintf(dst, sizeof dst, "%d", g->cbase[D]);
            SEND(dst);
        }
        break;
    case PROTO_DEST_SRC:
        if (x->msg < 0)
            unsupported(g, a->line, a->col, "a reply to msg.src outside a message row");
        SEND("src");
        break;
    case PROTO_DEST_NODE: {
        char *s = ex_str(g, x, a->dest_node);
        P(g,
          "    nd := %s;\n    if nd < 0 | nd >= NINST then error \"message %s sent to a node "
          "that does not exist\"; endif;\n",
          s, m->name);
        free(s);
        SEND("nd");
        break;
    }
    case PROTO_DEST_EACH: {
        if (!p->ctrls[D].per_cu)
            break;
        char *s = ex_str(g, x, a->dest_node);
        P(g, "    s := %s;\n    for k: 0..%d do\n      if k < 15 & (s >> k) %% 2 = 1 then\n  ", s,
          g->cn[D] - 1);
        free(s);
        snprintf(dst, sizeof dst, "%d + k", g->cbase[D]);
        P(g, "    ");
        SEND(dst);
        P(g, "      endif;\n    endfor;\n");
        break;
    }
    }
#undef SEND
}

static void emit_assign(mx_t *g, const ectx_t *x, const proto_action_t *a)
{
    const proto_ctrl_t *pc = &g->p->ctrls[x->ctrl];
    const proto_var_t *var = a->line_var ? &pc->linevars[a->var] : &pc->ctrlvars[a->var];
    strbuf_t t;
    sb_init(&t);
    if (a->line_var) {
        sb_printf(&t, "c_%s[i].ln[l].v_%s", pc->name, var->name);
    } else if (var->per_thread) {
        char *s = ex_str(g, x, a->index);
        P(g,
          "    nd := %s;\n    if nd < 0 | nd >= NT then error \"per-thread variable %s indexed "
          "by a thread that does not exist\"; endif;\n",
          s, var->name);
        if (pc->per_cu)
            P(g,
              "    if ThCu(nd) != i then error \"per-thread variable %s indexed by a thread not "
              "on this compute unit\"; endif;\n",
              var->name);
        free(s);
        sb_printf(&t, "c_%s[i].v_%s[nd]", pc->name, var->name);
    } else {
        sb_printf(&t, "c_%s[i].v_%s", pc->name, var->name);
    }
    if (a->index && !var->per_thread) {
        char *li = ex_str(g, x, a->index), *s = ex_str(g, x, a->value);
        P(g, "    %s[LocPos(%s)] := %s;\n", t.s, li, s);
        free(li);
        free(s);
    } else {
        char *s = ex_str(g, x, a->value);
        if (needs_check(&var->type))
            P(g,
              "    v := %s;\n    if v < %d | v > %d then error \"variable %s out of its range\"; "
              "endif;\n    %s := v;\n",
              s, var->type.lo, proto_type_hi(&var->type, g->nthreads), var->name, t.s);
        else
            P(g, "    %s := %s;\n", t.s, s);
        free(s);
    }
    sb_free(&t);
}

/* The actions of row R, then its next state and, for a core event, the thread's step. */
static void emit_actions(mx_t *g, const ectx_t *x, const proto_row_t *r)
{
    const proto_ctrl_t *pc = &g->p->ctrls[x->ctrl];
    bool did_done = false, did_wait = false;
    for (int k = 0; k < r->nactions; k++) {
        const proto_action_t *a = &r->actions[k];
        switch (a->kind) {
        case PROTO_A_ASSIGN: emit_assign(g, x, a); break;
        case PROTO_A_SEND: emit_send(g, x, a); break;
        case PROTO_A_DONE: {
            char *v = a->dval ? ex_str(g, x, a->dval) : xstrdup("0");
            if (a->tid) {
                char *t = ex_str(g, x, a->tid);
                P(g, "    v := %s;\n    DoneT(%s, %s, v);\n", v, t, a->dval ? "true" : "false");
                free(t);
            } else {
                if (!x->core)
                    unsupported(g, a->line, a->col, "done without a thread outside a core row");
                did_done = true;
                if (a->dval)
                    P(g, "    v := %s;\n    SetReg(t, v);\n", v);
            }
            free(v);
            break;
        }
        case PROTO_A_WAIT: did_wait = true; break;
        case PROTO_A_FORALL: {
            char path[128];
            snprintf(path, sizeof path, "c_%s[i].ln[fl].st", pc->name);
            strbuf_t b;
            sb_init(&b);
            states_cond(g, x->ctrl, a->from, path, &b);
            P(g, "    for fl: line_t do\n      if %s then %s := %s_%s; endif;\n    endfor;\n", b.s,
              path, pc->name, pc->state_names[a->to]);
            sb_free(&b);
            break;
        }
        }
    }
    if (r->next >= 0)
        P(g, "    if l >= 0 then c_%s[i].ln[l].st := %s_%s; endif;\n", pc->name, pc->name,
          pc->state_names[r->next]);
    if (x->core && did_done)
        P(g, "    CoreDone(t);\n");
    else if (x->core && did_wait)
        P(g, "    Th[t].stat := T_WAIT;\n");
}

static const char *ev_what(const proto_event_t *e)
{
    return e->kind == PROTO_EV_MSG ? "message" : e->kind == PROTO_EV_CORE ? "core event" : "event";
}

/* <CTRL>_fires_<EV> and <CTRL>_do_<EV>: choose_row and run_actions for one event. */
static void emit_event(mx_t *g, int c, int ev)
{
    const proto_t *p = g->p;
    const proto_ctrl_t *pc = &p->ctrls[c];
    const proto_event_t *e = &p->events[ev];
    bool optional = e->kind == PROTO_EV_INTERNAL || e->kind == PROTO_EV_ENV;
    ectx_t x = ev_ctx(g, c, ev);
    strbuf_t par;
    sb_init(&par);
    ev_params(g, c, ev, &par);
    P(g, "\n-- %s receives %s %s: the first row whose state and guard match\n", pc->name,
      ev_what(e), e->name);
    P(g, "function %s_fires_%s(%s): boolean;\nbegin\n", pc->name, e->name, par.s);
    for (int k = 0; k < pc->nrows; k++) {
        const proto_row_t *r = &pc->rows[k];
        if (r->event != ev)
            continue;
        strbuf_t b;
        sb_init(&b);
        row_cond(g, &x, r, &b);
        P(g, "  if %s then return %s; endif;\n", b.s,
          r->kind == PROTO_ROW_STALL ? "false" : "true");
        sb_free(&b);
    }
    P(g, "  return %s;\nend;\n\n", optional ? "false" : "true");
    P(g, "procedure %s_do_%s(%s);\nvar m: msg_t; v: val_t; nd: val_t; s: set_t;\nbegin\n", pc->name,
      e->name, par.s);
    for (int k = 0; k < pc->nrows; k++) {
        const proto_row_t *r = &pc->rows[k];
        if (r->event != ev)
            continue;
        strbuf_t b;
        sb_init(&b);
        row_cond(g, &x, r, &b);
        row_comment(g, c, r, "  ");
        P(g, "  if %s then\n", b.s);
        sb_free(&b);
        if (r->kind == PROTO_ROW_STALL)
            P(g, "    return; -- stall: the rule's guard excludes it\n");
        else if (r->kind == PROTO_ROW_IMPOSSIBLE)
            P(g, "    error \"impossible %s %s at %s\";\n", ev_what(e), e->name, pc->name);
        else {
            emit_actions(g, &x, r);
            P(g, "    return;\n");
        }
        P(g, "  endif;\n");
    }
    if (!optional)
        P(g, "  error \"unhandled %s %s at %s\";\n", ev_what(e), e->name, pc->name);
    P(g, "end;\n");
    sb_free(&par);
}

/* ---- declarations ---- */

static void emit_decls(mx_t *g)
{
    const proto_t *p = g->p;
    P(g, "const\n  NT: %d;       -- threads\n  NCU: %d;      -- compute units\n", g->nthreads,
      g->ncus);
    P(g, "  NINST: %d;    -- controller instances (nodes)\n  NLINES: %d;   -- cache lines\n",
      g->ninst, g->nlines);
    P(g,
      "  MAXLOCS: %d;  -- locations per line (data width)\n  CAP: %d;      -- messages per "
      "channel\n  NCH: %d;      -- channels some row can send into\n",
      g->maxlocs, g->cap, g->nch > 0 ? g->nch : 1);
    P(g, "  T_RUN: 0; T_WAIT: 1; T_DONE: 2;\n");
    for (int k = 0; k < p->nparams; k++)
        P(g, "  p_%s: %d;\n", p->params[k].name, p->params[k].value);
    for (int m = 0; m < p->nmsgs; m++)
        P(g, "  M_%s: %d;\n", p->msgs[m].name, m);
    for (int e = 0; e < p->nevents; e++)
        if (p->events[e].kind == PROTO_EV_CORE)
            P(g, "  E_%s: %d;\n", p->events[e].name, e);
    P(g, "\ntype\n  val_t: -32767..32767;\n  set_t: 0..32767;      -- nodesets (a bit per compute "
         "unit), masks (a bit per position)\n");
    P(g, "  data_t: array [0..MAXLOCS-1] of val_t;\n  line_t: 0..NLINES-1;\n  lidx_t: "
         "-1..NLINES-1;  -- -1: no line (controller-level)\n");
    P(g, "  node_t: 0..NINST-1;\n  tid_t: 0..NT-1;\n  chidx_t: 0..NCH-1;\n");
    P(g, "  msg_t: record\n    mt: 0..%d;\n    line: lidx_t;\n", p->nmsgs > 0 ? p->nmsgs - 1 : 0);
    for (int k = 0; k < g->ncomp; k++)
        P(g, "    %s: %s;\n", g->comp[k].name, g->comp[k].type);
    P(g, "  end;\n  chan_t: record\n    n: 0..CAP;\n    m: array [0..CAP-1] of msg_t;\n  end;\n");
    P(g, "  thread_t: record\n    pc: 0..%d;\n    step: 0..%d;\n    stat: 0..2;\n", g->maxpc,
      g->maxev);
    for (int r = 0; r < PROG_MAX_REGS; r++)
        if (g->reg[r])
            P(g, "    r%d: val_t;\n", r);
    P(g, "  end;\n");
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        char ty[64];
        P(g, "  %s_st_t: enum { ", pc->name);
        for (int s = 0; s < pc->nstates; s++)
            P(g, "%s%s_%s", s ? ", " : "", pc->name, pc->state_names[s]);
        P(g, " };\n  %s_line_t: record\n    st: %s_st_t;\n", pc->name, pc->name);
        for (int v = 0; v < pc->nlinevars; v++) {
            type_str(&pc->linevars[v].type, g->nthreads, ty, sizeof ty);
            P(g, "    v_%s: %s;\n", pc->linevars[v].name, ty);
        }
        P(g, "  end;\n  %s_t: record\n    ln: array [line_t] of %s_line_t;\n", pc->name, pc->name);
        for (int v = 0; v < pc->nctrlvars; v++) {
            type_str(&pc->ctrlvars[v].type, g->nthreads, ty, sizeof ty);
            if (pc->ctrlvars[v].per_thread)
                P(g, "    v_%s: array [tid_t] of %s;\n", pc->ctrlvars[v].name, ty);
            else
                P(g, "    v_%s: %s;\n", pc->ctrlvars[v].name, ty);
        }
        P(g, "  end;\n");
    }
    P(g, "\nvar\n  Th: array [tid_t] of thread_t;\n");
    for (int c = 0; c < p->nctrls; c++)
        P(g, "  c_%s: array [0..%d] of %s_t;  -- nodes %d..%d\n", cname(g, c), g->cn[c] - 1,
          cname(g, c), g->cbase[c], g->cbase[c] + g->cn[c] - 1);
    P(g, "  Ch: array [chidx_t] of chan_t;\n");
    for (int q = 0; q < g->nch; q++) {
        int s = g->ch_src[q], d = g->ch_dst[q];
        P(g, "  -- Ch[%d]: network %s (%s), %s", q, p->nets[g->ch_net[q]].name,
          p->nets[g->ch_net[q]].ordered ? "ordered" : "unordered", cname(g, g->ictrl[s]));
        if (g->icu[s] >= 0)
            P(g, "[%d]", g->icu[s]);
        P(g, " -> %s", cname(g, g->ictrl[d]));
        if (g->icu[d] >= 0)
            P(g, "[%d]", g->icu[d]);
        P(g, "\n");
    }
    P(g, "  Blocked: boolean;  -- a send found its bounded channel full: the step is not taken\n");
}

/* ---- helper functions ---- */

static void emit_helpers(mx_t *g)
{
    const proto_t *p = g->p;
    const prog_t *prog = g->prog;
    P(g, "\n------------------------------------------------------------------------------\n"
         "-- The test and the configuration as tables\n"
         "------------------------------------------------------------------------------\n\n");
    P(g, "function ThCu(t: val_t): val_t;\nbegin\n  switch t\n");
    for (int t = 0; t < g->nthreads; t++)
        P(g, "  case %d: return %d;\n", t, prog->threads[t].cu);
    P(g, "  endswitch;\n  error \"no such thread\";\n  return 0;\nend;\n\n");
    P(g, "function LocLine(loc: val_t): val_t;\nbegin\n  switch loc\n");
    for (int l = 0; l < prog->nlocs; l++)
        P(g, "  case %d: return %d;  -- %s\n", l, g->loc_line[l], prog->locs[l].name);
    P(g, "  endswitch;\n  error \"location index out of range\";\n  return 0;\nend;\n\n");
    P(g, "function LocPos(loc: val_t): val_t;\nbegin\n  switch loc\n");
    for (int l = 0; l < prog->nlocs; l++)
        P(g, "  case %d: return %d;\n", l, g->locpos[l]);
    P(g, "  endswitch;\n  error \"location index out of range\";\n  return 0;\nend;\n\n");
    P(g, "-- the compute unit of a node, -1 for a shared controller's\n"
         "function NodeCu(n: val_t): val_t;\nbegin\n  switch n\n");
    for (int i = 0; i < g->ninst; i++)
        P(g, "  case %d: return %d;\n", i, g->icu[i]);
    P(g,
      "  endswitch;\n  error \"a node that does not exist in a nodeset\";\n  return 0;\nend;\n\n");
    P(g, "function Apply(op: val_t; old: val_t; v: val_t; e: val_t): val_t;\nbegin\n"
         "  if op = 0 then return old + v; elsif op = 1 then return v;\n"
         "  elsif old = e then return v; else return old; endif;\nend;\n\n");
    P(g, "function Popcount(x: set_t): val_t;\nvar n: val_t;\nbegin\n  n := 0;\n"
         "  for k: 0..14 do if (x >> k) %% 2 = 1 then n := n + 1; endif; endfor;\n"
         "  return n;\nend;\n\n");
    P(g, "function NodeIn(n: val_t; x: set_t): val_t;\nbegin\n"
         "  if NodeCu(n) < 0 then return 0; endif;\n"
         "  if NodeCu(n) >= 15 then error \"nodesets hold at most 15 compute units\"; endif;\n"
         "  return (x >> NodeCu(n)) %% 2;\nend;\n\n");
    P(g, "function NodeAdd(x: set_t; n: val_t): set_t;\nbegin\n"
         "  if NodeCu(n) < 0 then error \"a nodeset holds per-cu instances only\"; endif;\n"
         "  if (x >> NodeCu(n)) %% 2 = 1 then return x; endif;\n  return x + (1 << "
         "NodeCu(n));\nend;\n\n");
    P(g, "function NodeDel(x: set_t; n: val_t): set_t;\nbegin\n"
         "  if NodeCu(n) < 0 then error \"a nodeset holds per-cu instances only\"; endif;\n"
         "  if (x >> NodeCu(n)) %% 2 = 0 then return x; endif;\n  return x - (1 << "
         "NodeCu(n));\nend;\n\n");
    P(g, "function MaskIn(loc: val_t; x: set_t): val_t;\nbegin\n"
         "  return (x >> LocPos(loc)) %% 2;\nend;\n\n");
    P(g, "function MaskAdd(x: set_t; loc: val_t): set_t;\nbegin\n"
         "  if (x >> LocPos(loc)) %% 2 = 1 then return x; endif;\n  return x + (1 << "
         "LocPos(loc));\nend;\n\n");
    P(g, "function MaskDel(x: set_t; loc: val_t): set_t;\nbegin\n"
         "  if (x >> LocPos(loc)) %% 2 = 0 then return x; endif;\n  return x - (1 << "
         "LocPos(loc));\nend;\n\n");
    P(g, "function Merge(a: data_t; b: data_t; x: set_t): data_t;\nvar r: data_t;\nbegin\n"
         "  for k: 0..MAXLOCS-1 do\n"
         "    if (x >> k) %% 2 = 1 then r[k] := b[k]; else r[k] := a[k]; endif;\n"
         "  endfor;\n  return r;\nend;\n\n");
    for (int k = 0; k < g->ncount; k++) {
        int c = g->count_ctrl[k];
        strbuf_t b;
        sb_init(&b);
        states_cond(g, c, g->count_states[k], "c_X[j].ln[l].st", &b);
        char *cond = b.s;
        /* name the controller's array in the condition */
        strbuf_t b2;
        sb_init(&b2);
        for (const char *q = cond; *q; q++) {
            if (!strncmp(q, "c_X[", 4)) {
                sb_printf(&b2, "c_%s[", cname(g, c));
                q += 3;
            } else {
                sb_putc(&b2, *q);
            }
        }
        P(g,
          "function Count%d(l: lidx_t): val_t;  -- count(%s, ...)\nvar n: val_t;\nbegin\n"
          "  if l < 0 then error \"count() needs a line context\"; endif;\n  n := 0;\n"
          "  for j: 0..%d do if %s then n := n + 1; endif; endfor;\n  return n;\nend;\n\n",
          k, cname(g, c), g->cn[c] - 1, b2.s);
        sb_free(&b);
        sb_free(&b2);
    }
    /* channels */
    P(g, "function ChanOf(net: val_t; src: val_t; dst: val_t): chidx_t;\nbegin\n");
    if (g->nch) {
        P(g, "  switch (net * NINST + src) * NINST + dst\n");
        for (int q = 0; q < g->nch; q++)
            P(g, "  case %d: return %d;\n",
              (g->ch_net[q] * g->ninst + g->ch_src[q]) * g->ninst + g->ch_dst[q], q);
        P(g, "  endswitch;\n");
    }
    P(g, "  error \"a send on a channel no row uses\";\n  return 0;\nend;\n\n");
    P(g, "procedure ClearMsg(var m: msg_t);\nbegin\n  m.mt := 0;\n  m.line := 0;\n");
    for (int k = 0; k < g->ncomp; k++) {
        if (!strcmp(g->comp[k].type, "data_t"))
            P(g, "  for k: 0..MAXLOCS-1 do m.%s[k] := 0; endfor;\n", g->comp[k].name);
        else
            P(g, "  m.%s := 0;\n", g->comp[k].name);
    }
    P(g, "end;\n\n");
    P(g, "-- do_send: BOUND > 0 is a bounded network's capacity (back-pressure)\n"
         "procedure Send(q: chidx_t; m: msg_t; bound: val_t);\nbegin\n"
         "  if bound > 0 & Ch[q].n >= bound then Blocked := true; return; endif;\n"
         "  if Ch[q].n >= CAP then error \"channel overflow (raise --param or the capacity)\"; "
         "endif;\n"
         "  Ch[q].m[Ch[q].n] := m;\n  Ch[q].n := Ch[q].n + 1;\nend;\n\n");
    P(g, "procedure Remove(q: chidx_t; k: 0..CAP-1);\nbegin\n"
         "  for j: 0..CAP-2 do\n"
         "    if j >= k & j + 1 < Ch[q].n then Ch[q].m[j] := Ch[q].m[j + 1]; endif;\n"
         "  endfor;\n  ClearMsg(Ch[q].m[Ch[q].n - 1]);\n  Ch[q].n := Ch[q].n - 1;\nend;\n\n");
    /* rec_cmp order: message, line, then the message's fields in declaration order */
    P(g, "function MsgGt(a: msg_t; b: msg_t): boolean;\nbegin\n"
         "  if a.mt != b.mt then return a.mt > b.mt; endif;\n"
         "  if a.line != b.line then return a.line > b.line; endif;\n");
    bool any = false;
    for (int m = 0; m < p->nmsgs; m++)
        any |= p->msgs[m].nfields > 0;
    if (any) {
        P(g, "  switch a.mt\n");
        for (int m = 0; m < p->nmsgs; m++) {
            if (!p->msgs[m].nfields)
                continue;
            P(g, "  case M_%s:\n", p->msgs[m].name);
            for (int f = 0; f < p->msgs[m].nfields; f++) {
                const char *cn = g->comp[g->mcomp[m][f]].name;
                if (p->msgs[m].fields[f].type.kind == PROTO_T_DATA)
                    for (int k = 0; k < g->maxlocs; k++)
                        P(g,
                          "    if a.%s[%d] != b.%s[%d] then return a.%s[%d] > b.%s[%d]; endif;\n",
                          cn, k, cn, k, cn, k, cn, k);
                else
                    P(g, "    if a.%s != b.%s then return a.%s > b.%s; endif;\n", cn, cn, cn, cn);
            }
        }
        P(g, "  endswitch;\n");
    }
    P(g, "  return false;\nend;\n\n");
    P(g, "-- canon: unordered channels are multisets, kept sorted\nprocedure Canon();\n"
         "var tmp: msg_t;\nbegin\n");
    for (int q = 0; q < g->nch; q++) {
        if (p->nets[g->ch_net[q]].ordered)
            continue;
        P(g,
          "  for a: 0..CAP-2 do\n    for b: 0..CAP-2 do\n"
          "      if b + 1 < Ch[%d].n then\n"
          "        if MsgGt(Ch[%d].m[b], Ch[%d].m[b + 1]) then\n"
          "          tmp := Ch[%d].m[b]; Ch[%d].m[b] := Ch[%d].m[b + 1]; Ch[%d].m[b + 1] := "
          "tmp;\n        endif;\n      endif;\n    endfor;\n  endfor;\n",
          q, q, q, q, q, q, q);
    }
    P(g, "end;\n\n");
}

/* ---- normal forms (sys.c normalize) ---- */

typedef struct {
    char path[160];
    char live[512]; /* "" : always live */
} tslot_t;

static int time_slots(mx_t *g, tslot_t **out)
{
    const proto_t *p = g->p;
    int n = 0;
    tslot_t *ts = NULL;
    size_t cap = 0;
    for (int gi = 0; gi < g->ninst; gi++) {
        int c = g->ictrl[gi], k = gi - g->cbase[c];
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int l = 0; l < g->nlines; l++)
            for (int v = 0; v < pc->nlinevars; v++) {
                const proto_var_t *var = &pc->linevars[v];
                if (var->type.kind != PROTO_T_TIME)
                    continue;
                tslot_t t;
                snprintf(t.path, sizeof t.path, "c_%s[%d].ln[%d].v_%s", pc->name, k, l, var->name);
                t.live[0] = 0;
                if (var->live != ~(uint64_t)0) {
                    char st[128];
                    snprintf(st, sizeof st, "c_%s[%d].ln[%d].st", pc->name, k, l);
                    strbuf_t b;
                    sb_init(&b);
                    states_cond(g, c, var->live, st, &b);
                    snprintf(t.live, sizeof t.live, "%s", b.s);
                    sb_free(&b);
                }
                UTIL_PUSH(ts, n, cap, t);
            }
        for (int v = 0; v < pc->nctrlvars; v++) {
            const proto_var_t *var = &pc->ctrlvars[v];
            if (var->type.kind != PROTO_T_TIME)
                continue;
            for (int t = 0; t < (var->per_thread ? g->nthreads : 1); t++) {
                if (var->per_thread && g->icu[gi] >= 0 && g->prog->threads[t].cu != g->icu[gi])
                    continue;
                tslot_t s;
                if (var->per_thread)
                    snprintf(s.path, sizeof s.path, "c_%s[%d].v_%s[%d]", pc->name, k, var->name, t);
                else
                    snprintf(s.path, sizeof s.path, "c_%s[%d].v_%s", pc->name, k, var->name);
                s.live[0] = 0;
                UTIL_PUSH(ts, n, cap, s);
            }
        }
    }
    *out = ts;
    return n;
}

/* Code running STMT (a format with %s for the field's path) on every time field of
 * every message in flight. */
static void msg_time_loop(mx_t *g, const char *stmt)
{
    const proto_t *p = g->p;
    if (!g->nch)
        return;
    P(g, "  for q: chidx_t do\n    for k: 0..CAP-1 do\n      if k < Ch[q].n then\n"
         "        switch Ch[q].m[k].mt\n");
    for (int m = 0; m < p->nmsgs; m++) {
        bool has = false;
        for (int f = 0; f < p->msgs[m].nfields; f++)
            has |= p->msgs[m].fields[f].type.kind == PROTO_T_TIME;
        if (!has)
            continue;
        P(g, "        case M_%s:\n", p->msgs[m].name);
        for (int f = 0; f < p->msgs[m].nfields; f++) {
            if (p->msgs[m].fields[f].type.kind != PROTO_T_TIME)
                continue;
            char path[128];
            snprintf(path, sizeof path, "Ch[q].m[k].%s", g->comp[g->mcomp[m][f]].name);
            P(g, "          ");
            P(g, stmt, path, path, path, path);
            P(g, "\n");
        }
    }
    P(g, "        else\n        endswitch;\n      endif;\n    endfor;\n  endfor;\n");
}

static void emit_normalize(mx_t *g)
{
    const proto_t *p = g->p;
    tslot_t *ts = NULL;
    int nts = time_slots(g, &ts);
    bool times = !g->cfg.time_raw && (nts > 0 || g->any_time || g->clock);
    P(g, "-- normalize: dead line variables back to their initial value; timestamps %s\n",
      g->clock ? "relative to the clock (always 0 here), every expired one collapsed to -1"
               : "shifted so that the smallest live one is 0");
    P(g, "procedure Normalize(tick: boolean);\nvar ref: val_t;\nbegin\n");
    for (int gi = 0; gi < g->ninst; gi++) {
        int c = g->ictrl[gi], k = gi - g->cbase[c];
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int v = 0; v < pc->nlinevars; v++) {
            const proto_var_t *var = &pc->linevars[v];
            if (var->live == ~(uint64_t)0 || var->type.kind == PROTO_T_DATA)
                continue;
            for (int l = 0; l < g->nlines; l++) {
                char st[128], ks[16], ls[16];
                snprintf(st, sizeof st, "c_%s[%d].ln[%d].st", pc->name, k, l);
                snprintf(ks, sizeof ks, "%d", k);
                snprintf(ls, sizeof ls, "%d", l);
                strbuf_t b;
                sb_init(&b);
                states_cond(g, c, var->live, st, &b);
                char *init = xstrdup("0");
                if (var->init && var->type.kind != PROTO_T_TIME) {
                    ectx_t x = {c, ks, ls, -1, false};
                    free(init);
                    init = ex_str(g, &x, var->init);
                }
                P(g, "  if !%s then c_%s[%d].ln[%d].v_%s := %s; endif;\n", b.s, pc->name, k, l,
                  var->name, init);
                free(init);
                sb_free(&b);
            }
        }
    }
    if (times) {
        if (g->clock) {
            P(g, "  if tick then ref := 1; else ref := 0; endif;\n");
        } else {
            P(g, "  ref := 32767;\n");
            for (int k = 0; k < nts; k++) {
                if (ts[k].live[0])
                    P(g, "  if %s & %s < ref then ref := %s; endif;\n", ts[k].live, ts[k].path,
                      ts[k].path);
                else
                    P(g, "  if %s < ref then ref := %s; endif;\n", ts[k].path, ts[k].path);
            }
            msg_time_loop(g, "if %s < ref then ref := %s; endif;");
            P(g, "  if ref = 32767 then return; endif;\n");
        }
        const char *sh = g->clock ? "%s := (%s - ref < -1 ? -1 : %s - ref);" : "%s := %s - ref;";
        for (int k = 0; k < nts; k++) {
            char stmt[1024];
            snprintf(stmt, sizeof stmt, sh, ts[k].path, ts[k].path, ts[k].path);
            if (ts[k].live[0])
                P(g, "  if !%s then %s := 0; else %s endif;\n", ts[k].live, ts[k].path, stmt);
            else
                P(g, "  %s\n", stmt);
        }
        msg_time_loop(g, g->clock ? "%s := (%s - ref < -1 ? -1 : %s - ref);" : "%s := %s - ref;");
    }
    P(g, "end;\n\n");
    if (g->clock) {
        P(g, "-- a tick changes the state only when some live time is not yet expired\n"
             "function TickChanges(): boolean;\nbegin\n");
        for (int k = 0; k < nts; k++) {
            if (ts[k].live[0])
                P(g, "  if %s & %s >= 0 then return true; endif;\n", ts[k].live, ts[k].path);
            else
                P(g, "  if %s >= 0 then return true; endif;\n", ts[k].path);
        }
        msg_time_loop(g, "if %s >= 0 then return true; endif;");
        P(g, "  return false;\nend;\n\n");
    }
    free(ts);
    P(g, "procedure Post();\nbegin\n  Normalize(false);\n  Canon();\nend;\n\n");
    P(g, "function Terminal(): boolean;\nbegin\n"
         "  for t: tid_t do if Th[t].stat != T_DONE then return false; endif; endfor;\n");
    if (g->nch)
        P(g, "  for q: chidx_t do if Ch[q].n != 0 then return false; endif; endfor;\n");
    P(g, "  return true;\nend;\n\n");
    if (g->cfg.lines > 0) {
        P(g,
          "-- --lines %d: no L1 holds more lines outside their initial state\n"
          "function OverCapacity(): boolean;\nvar n: val_t;\nbegin\n",
          g->cfg.lines);
        for (int c = 0; c < p->nctrls; c++) {
            const proto_ctrl_t *pc = &p->ctrls[c];
            if (!pc->per_cu)
                continue;
            P(g,
              "  for i: 0..%d do\n    n := 0;\n    for l: line_t do\n"
              "      if c_%s[i].ln[l].st != %s_%s then n := n + 1; endif;\n    endfor;\n"
              "    if n > %d then return true; endif;\n  endfor;\n",
              g->cn[c] - 1, pc->name, pc->name, pc->state_names[pc->init_state], g->cfg.lines);
        }
        P(g, "  return false;\nend;\n\n");
    }
}

/* ---- threads ---- */

static void opv(const prog_operand_t *o, char *buf, size_t n, int t)
{
    if (o->is_reg)
        snprintf(buf, n, "Th[%d].r%d", t, (int)o->v);
    else
        snprintf(buf, n, "%lld", (long long)o->v);
}

/* A function of thread T's current instruction: one case per (thread, pc). */
static void thread_switch(mx_t *g, const char *name, const char *rettype,
                          void (*val)(mx_t *, int, int, char *, size_t))
{
    P(g, "function %s(t: val_t): %s;\nbegin\n  switch t\n", name, rettype);
    for (int t = 0; t < g->nthreads; t++) {
        const prog_thread_t *pt = &g->prog->threads[t];
        if (!pt->ninstr)
            continue;
        P(g, "  case %d:\n    switch Th[%d].pc\n", t, t);
        for (int i = 0; i < pt->ninstr; i++) {
            char buf[128];
            buf[0] = 0;
            val(g, t, i, buf, sizeof buf);
            if (buf[0])
                P(g, "    case %d: return %s;\n", i, buf);
        }
        P(g, "    else\n    endswitch;\n");
    }
    P(g, "  else\n  endswitch;\n  return 0;\nend;\n\n");
}

static void v_loc(mx_t *g, int t, int i, char *b, size_t n)
{
    const prog_instr_t *in = &g->prog->threads[t].instr[i];
    if (is_mem(in) && in->op != PROG_OP_FENCE)
        snprintf(b, n, "%d", in->loc);
}
static void v_val(mx_t *g, int t, int i, char *b, size_t n)
{
    const prog_instr_t *in = &g->prog->threads[t].instr[i];
    if (is_mem(in))
        opv(in->op == PROG_OP_CAS ? &in->b : &in->a, b, n, t);
}
static void v_exp(mx_t *g, int t, int i, char *b, size_t n)
{
    const prog_instr_t *in = &g->prog->threads[t].instr[i];
    if (in->op == PROG_OP_CAS)
        opv(&in->a, b, n, t);
}
static void v_op(mx_t *g, int t, int i, char *b, size_t n)
{
    const prog_instr_t *in = &g->prog->threads[t].instr[i];
    if (in->op == PROG_OP_CAS)
        snprintf(b, n, "2");
    else if (in->op == PROG_OP_RMW && in->rmw == PROG_RMW_EXCH)
        snprintf(b, n, "1");
}
static void v_ord(mx_t *g, int t, int i, char *b, size_t n)
{
    const prog_instr_t *in = &g->prog->threads[t].instr[i];
    if (is_mem(in))
        snprintf(b, n, "%d", (int)in->ord);
}
static void v_scope(mx_t *g, int t, int i, char *b, size_t n)
{
    const prog_instr_t *in = &g->prog->threads[t].instr[i];
    if (is_mem(in))
        snprintf(b, n, "%d", (int)in->scope);
}
static void v_nev(mx_t *g, int t, int i, char *b, size_t n)
{
    if (g->maps[t][i])
        snprintf(b, n, "%d", g->maps[t][i]->nevents);
}

static void emit_threads(mx_t *g)
{
    const prog_t *prog = g->prog;
    P(g, "------------------------------------------------------------------------------\n"
         "-- Threads: the litmus program and the core maps\n"
         "------------------------------------------------------------------------------\n\n");
    for (int t = 0; t < g->nthreads; t++) {
        const prog_thread_t *pt = &prog->threads[t];
        P(g, "-- P%d on CU %d:", t, pt->cu);
        for (int i = 0; i < pt->ninstr; i++) {
            const prog_instr_t *in = &pt->instr[i];
            static const char *const ops[] = {"ld",  "st",  "rmw", "cas", "fence", "mov",
                                              "add", "beq", "bne", "b",   "nop"};
            P(g, " %d:%s%s%s", i, ops[in->op], is_mem(in) && in->ord ? "." : "",
              is_mem(in) ? prog_ord_name(in->ord) : "");
            if (is_mem(in) && in->op != PROG_OP_FENCE)
                P(g, " %s", prog->locs[in->loc].name);
            P(g, ";");
        }
        P(g, "\n");
    }
    P(g, "\nfunction NInstr(t: val_t): val_t;\nbegin\n  switch t\n");
    for (int t = 0; t < g->nthreads; t++)
        P(g, "  case %d: return %d;\n", t, prog->threads[t].ninstr);
    P(g, "  endswitch;\n  return 0;\nend;\n\n");
    thread_switch(g, "ReqLoc", "val_t", v_loc);
    thread_switch(g, "ReqVal", "val_t", v_val);
    thread_switch(g, "ReqExp", "val_t", v_exp);
    thread_switch(g, "ReqOp", "val_t", v_op);
    thread_switch(g, "ReqOrd", "val_t", v_ord);
    thread_switch(g, "ReqScope", "val_t", v_scope);
    thread_switch(g, "NEv", "val_t", v_nev);
    /* the current core event: (pc, step) -> event */
    P(g, "function CurEv(t: val_t): val_t;\nbegin\n  switch t\n");
    for (int t = 0; t < g->nthreads; t++) {
        const prog_thread_t *pt = &prog->threads[t];
        bool any = false;
        for (int i = 0; i < pt->ninstr; i++)
            any |= g->maps[t][i] != NULL;
        if (!any)
            continue;
        P(g, "  case %d:\n    switch Th[%d].pc\n", t, t);
        for (int i = 0; i < pt->ninstr; i++) {
            const proto_map_t *m = g->maps[t][i];
            if (!m)
                continue;
            P(g, "    case %d:\n      switch Th[%d].step\n", i, t);
            for (int k = 0; k < m->nevents; k++)
                P(g, "      case %d: return E_%s;\n", k, g->p->events[m->events[k]].name);
            P(g, "      else\n      endswitch;\n");
        }
        P(g, "    else\n    endswitch;\n");
    }
    P(g, "  else\n  endswitch;\n  error \"no core event\";\n  return 0;\nend;\n\n");
    /* done(v) without a thread: the current instruction's register */
    P(g, "procedure SetReg(t: val_t; v: val_t);\nbegin\n  switch t\n");
    for (int t = 0; t < g->nthreads; t++) {
        const prog_thread_t *pt = &prog->threads[t];
        bool any = false;
        for (int i = 0; i < pt->ninstr; i++)
            any |= writes_reg(&pt->instr[i]);
        if (!any)
            continue;
        P(g, "  case %d:\n    switch Th[%d].pc\n", t, t);
        for (int i = 0; i < pt->ninstr; i++)
            if (writes_reg(&pt->instr[i]))
                P(g, "    case %d: Th[%d].r%d := v;\n", i, t, pt->instr[i].reg);
        P(g, "    else\n    endswitch;\n");
    }
    P(g, "  else\n  endswitch;\nend;\n\n");
    /* advance: local instructions up to the next memory operation or the end */
    for (int t = 0; t < g->nthreads; t++) {
        const prog_thread_t *pt = &prog->threads[t];
        P(g,
          "procedure Advance%d();\nvar steps: 0..10001;\nbegin\n  steps := 0;\n"
          "  while true do\n"
          "    if Th[%d].pc >= %d then Th[%d].stat := T_DONE; Th[%d].step := 0; return; "
          "endif;\n",
          t, t, pt->ninstr, t, t);
        if (pt->ninstr) {
            P(g, "    switch Th[%d].pc\n", t);
            int anymem = 0;
            for (int i = 0; i < pt->ninstr; i++)
                if (is_mem(&pt->instr[i]))
                    P(g, "%s%d", anymem++ ? ", " : "    case ", i);
            if (anymem)
                P(g, ": Th[%d].stat := T_RUN; Th[%d].step := 0; return;\n", t, t);
            P(g,
              "    else\n      if steps > 10000 then error \"thread P%d loops without memory "
              "operations\"; endif;\n      switch Th[%d].pc\n",
              t, t);
            for (int i = 0; i < pt->ninstr; i++) {
                const prog_instr_t *in = &pt->instr[i];
                char a[64], b[64];
                opv(&in->a, a, sizeof a, t);
                opv(&in->b, b, sizeof b, t);
                switch (in->op) {
                case PROG_OP_MOV:
                    P(g, "      case %d: Th[%d].r%d := %s; Th[%d].pc := %d;\n", i, t, in->reg, a, t,
                      i + 1);
                    break;
                case PROG_OP_ADD:
                    P(g, "      case %d: Th[%d].r%d := %s + %s; Th[%d].pc := %d;\n", i, t, in->reg,
                      a, b, t, i + 1);
                    break;
                case PROG_OP_BEQ:
                case PROG_OP_BNE:
                    P(g,
                      "      case %d: if Th[%d].r%d %s %lld then Th[%d].pc := %d; else Th[%d].pc "
                      ":= %d; endif;\n",
                      i, t, in->reg, in->op == PROG_OP_BEQ ? "=" : "!=", (long long)in->a.v, t,
                      in->target, t, i + 1);
                    break;
                case PROG_OP_B: P(g, "      case %d: Th[%d].pc := %d;\n", i, t, in->target); break;
                default:
                    if (!is_mem(in))
                        P(g, "      case %d: Th[%d].pc := %d;\n", i, t, i + 1);
                    break;
                }
            }
            P(g, "      else\n      endswitch;\n      steps := steps + 1;\n    endswitch;\n");
        }
        P(g, "  end;\nend;\n\n");
    }
    P(g, "procedure Advance(t: val_t);\nbegin\n  switch t\n");
    for (int t = 0; t < g->nthreads; t++)
        P(g, "  case %d: Advance%d();\n", t, t);
    P(g, "  else\n  endswitch;\nend;\n\n");
    P(g, "-- a core row's done: the thread's next event, or its next instruction\n"
         "procedure CoreDone(t: tid_t);\nbegin\n  Th[t].step := Th[t].step + 1;\n"
         "  if Th[t].step >= NEv(t) then Th[t].pc := Th[t].pc + 1; Advance(t); endif;\nend;\n\n");
    P(g, "-- done(T, V) in a message row (thread_done)\n"
         "procedure DoneT(t: val_t; hasv: boolean; v: val_t);\nbegin\n"
         "  if t < 0 | t >= NT then error \"done for a thread that does not exist\"; endif;\n"
         "  if Th[t].pc >= NInstr(t) | Th[t].stat = T_DONE then\n"
         "    error \"done for a thread with no request in flight\";\n  endif;\n"
         "  if hasv then SetReg(t, v); endif;\n"
         "  Th[t].step := Th[t].step + 1;\n  Th[t].stat := T_RUN;\n"
         "  if Th[t].step >= NEv(t) then Th[t].pc := Th[t].pc + 1; Advance(t); endif;\nend;\n\n");
}

/* ---- dispatch and rules ---- */

static void emit_dispatch(mx_t *g)
{
    const proto_t *p = g->p;
    int cc = p->core_ctrl;
    const proto_ctrl_t *core = &p->ctrls[cc];
    P(g,
      "\n------------------------------------------------------------------------------\n"
      "-- Dispatch: core events at %s, messages at their receivers\n"
      "------------------------------------------------------------------------------\n\n",
      core->name);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            P(g, "function CoreFires(t: tid_t): boolean;\nbegin\n  switch CurEv(t)\n");
        else
            P(g, "procedure CoreDo(t: tid_t);\nbegin\n  switch CurEv(t)\n");
        for (int e = 0; e < p->nevents; e++) {
            if (p->events[e].kind != PROTO_EV_CORE || !has_rows(core, e))
                continue;
            const char *line = p->events[e].line ? "LocLine(ReqLoc(t))" : "-1";
            if (pass == 0)
                P(g, "  case E_%s: return %s_fires_%s(ThCu(t), %s, t);\n", p->events[e].name,
                  core->name, p->events[e].name, line);
            else
                P(g, "  case E_%s: %s_do_%s(ThCu(t), %s, t);\n", p->events[e].name, core->name,
                  p->events[e].name, line);
        }
        if (pass == 0)
            P(g, "  else\n  endswitch;\n  return true;  -- no row: fires, to report it\nend;\n\n");
        else
            P(g, "  else error \"unhandled core event at %s\";\n  endswitch;\nend;\n\n",
              core->name);
    }
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        bool any = false;
        for (int q = 0; q < g->nch; q++)
            any |= g->ictrl[g->ch_dst[q]] == c;
        if (!any)
            continue;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 0)
                P(g, "function %s_recv_fires(i: 0..%d; h: msg_t; src: node_t): boolean;\nbegin\n",
                  pc->name, g->cn[c] - 1);
            else
                P(g, "procedure %s_recv(i: 0..%d; h: msg_t; src: node_t);\nbegin\n", pc->name,
                  g->cn[c] - 1);
            bool cases = false;
            for (int m = 0; m < p->nmsgs; m++) {
                if (!has_rows(pc, m))
                    continue;
                if (!cases)
                    P(g, "  switch h.mt\n");
                cases = true;
                if (pass == 0)
                    P(g, "  case M_%s: return %s_fires_%s(i, h.line, h, src);\n", p->msgs[m].name,
                      pc->name, p->msgs[m].name);
                else
                    P(g, "  case M_%s: %s_do_%s(i, h.line, h, src);\n", p->msgs[m].name, pc->name,
                      p->msgs[m].name);
            }
            if (pass == 0)
                P(g, "%s  return true;  -- no row: fires, to report it\nend;\n\n",
                  cases ? "  else\n  endswitch;\n" : "");
            else if (cases)
                P(g, "  else error \"unhandled message at %s\";\n  endswitch;\nend;\n\n", pc->name);
            else
                P(g, "  error \"unhandled message at %s\";\nend;\n\n", pc->name);
        }
    }
}

static void inst_name(mx_t *g, int gi, char *buf, size_t n)
{
    if (g->icu[gi] >= 0)
        snprintf(buf, n, "%s[%d]", cname(g, g->ictrl[gi]), g->icu[gi]);
    else
        snprintf(buf, n, "%s", cname(g, g->ictrl[gi]));
}

static void emit_rules(mx_t *g)
{
    const proto_t *p = g->p;
    P(g, "------------------------------------------------------------------------------\n"
         "-- Rules: the steps of sys_successors\n"
         "------------------------------------------------------------------------------\n\n");
    P(g, "ruleset t: tid_t do\n  rule \"core event\"\n    Th[t].stat = T_RUN & CoreFires(t)\n"
         "  ==>\n  begin\n    CoreDo(t);\n    Post();\n  end;\nend;\n\n");
    for (int q = 0; q < g->nch; q++) {
        int s = g->ch_src[q], d = g->ch_dst[q], D = g->ictrl[d];
        char sn[64], dn[64];
        inst_name(g, s, sn, sizeof sn);
        inst_name(g, d, dn, sizeof dn);
        bool ord = p->nets[g->ch_net[q]].ordered;
        if (ord)
            P(g,
              "rule \"%s receives from %s on %s\"\n  Ch[%d].n > 0 & %s_recv_fires(%d, "
              "Ch[%d].m[0], %d)\n==>\nvar h: msg_t;\nbegin\n  h := Ch[%d].m[0];\n"
              "  Remove(%d, 0);\n  %s_recv(%d, h, %d);\n  Post();\nend;\n\n",
              dn, sn, p->nets[g->ch_net[q]].name, q, cname(g, D), d - g->cbase[D], q, s, q, q,
              cname(g, D), d - g->cbase[D], s);
        else
            P(g,
              "ruleset k: 0..CAP-1 do\n  rule \"%s receives from %s on %s\"\n"
              "    k < Ch[%d].n & %s_recv_fires(%d, Ch[%d].m[k], %d)\n  ==>\n  var h: msg_t;\n"
              "  begin\n    h := Ch[%d].m[k];\n    Remove(%d, k);\n    %s_recv(%d, h, %d);\n"
              "    Post();\n  end;\nend;\n\n",
              dn, sn, p->nets[g->ch_net[q]].name, q, cname(g, D), d - g->cbase[D], q, s, q, q,
              cname(g, D), d - g->cbase[D], s);
    }
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int e = p->nmsgs; e < p->nevents; e++) {
            const proto_event_t *ev = &p->events[e];
            if (ev->kind == PROTO_EV_CORE || ev->kind == PROTO_EV_MSG || !has_rows(pc, e) ||
                (ev->kind == PROTO_EV_ENV && !env_enabled(&g->cfg, ev->name)))
                continue;
            if (ev->line)
                P(g,
                  "ruleset i: 0..%d; l: line_t do\n  rule \"%s %s\"\n    %s_fires_%s(i, l)\n"
                  "  ==>\n  begin\n    %s_do_%s(i, l);\n    Post();\n  end;\nend;\n\n",
                  g->cn[c] - 1, pc->name, ev->name, pc->name, ev->name, pc->name, ev->name);
            else
                P(g,
                  "ruleset i: 0..%d do\n  rule \"%s %s\"\n    %s_fires_%s(i, -1)\n"
                  "  ==>\n  begin\n    %s_do_%s(i, -1);\n    Post();\n  end;\nend;\n\n",
                  g->cn[c] - 1, pc->name, ev->name, pc->name, ev->name, pc->name, ev->name);
        }
    }
    if (g->clock)
        P(g, "rule \"tick\"  -- the clock advances: every time moves one closer to expiring\n"
             "  TickChanges()\n==>\nbegin\n  Normalize(true);\n  Canon();\nend;\n\n");
    P(g, "-- a terminal state is not a deadlock (rumur --deadlock-detection stuck reports a\n"
         "-- state where no rule is enabled: cohcheck's deadlock)\n"
         "rule \"terminal\"\n  Terminal()\n==>\nbegin\nend;\n\n");
}

static void emit_init(mx_t *g)
{
    const proto_t *p = g->p;
    const prog_t *prog = g->prog;
    int slots[64], ns = 0;
    if (g->cfg.warm)
        for (int gi = 0; gi < g->ninst; gi++) {
            const proto_ctrl_t *c = &p->ctrls[g->ictrl[gi]];
            if (!c->per_cu || c->warm_state < 0)
                continue;
            for (int l = 0; l < g->nlines && ns < 20; l++)
                slots[ns++] = gi * 256 + l;
        }
    P(g,
      "------------------------------------------------------------------------------\n"
      "-- Initial states%s\n"
      "------------------------------------------------------------------------------\n\n",
      ns ? " (--init warm: every subset of the (L1 instance, line) pairs below starts warm)" : "");
    if (ns) {
        P(g, "ruleset ");
        for (int k = 0; k < ns; k++) {
            char in[64];
            inst_name(g, slots[k] / 256, in, sizeof in);
            P(g, "%sw%d: boolean", k ? "; " : "", k);
            (void)in;
        }
        P(g, " do\n");
        for (int k = 0; k < ns; k++) {
            char in[64];
            inst_name(g, slots[k] / 256, in, sizeof in);
            int l = slots[k] % 256;
            P(g, "-- w%d: %s, line of %s\n", k, in, prog->locs[g->line_locs[l][0]].name);
        }
    }
    P(g, "startstate \"initial\"\nbegin\n  Blocked := false;\n");
    P(g, "  for t: tid_t do\n    Th[t].pc := 0;\n    Th[t].step := 0;\n    Th[t].stat := T_RUN;\n");
    for (int r = 0; r < PROG_MAX_REGS; r++)
        if (g->reg[r])
            P(g, "    Th[t].r%d := 0;\n", r);
    P(g, "    Advance(t);\n  endfor;\n");
    for (int gi = 0; gi < g->ninst; gi++) {
        int c = g->ictrl[gi], k = gi - g->cbase[c];
        const proto_ctrl_t *pc = &p->ctrls[c];
        char ks[16];
        snprintf(ks, sizeof ks, "%d", k);
        for (int l = 0; l < g->nlines; l++) {
            char ls[16];
            snprintf(ls, sizeof ls, "%d", l);
            P(g, "  c_%s[%d].ln[%d].st := %s_%s;\n", pc->name, k, l, pc->name,
              pc->state_names[pc->init_state]);
            for (int v = 0; v < pc->nlinevars; v++) {
                const proto_var_t *var = &pc->linevars[v];
                if (var->type.kind == PROTO_T_DATA) {
                    for (int q = 0; q < g->maxlocs; q++)
                        P(g, "  c_%s[%d].ln[%d].v_%s[%d] := %lld;\n", pc->name, k, l, var->name, q,
                          var->init_initial && q < g->line_nlocs[l]
                              ? (long long)prog->locs[g->line_locs[l][q]].init
                              : 0LL);
                } else {
                    char *init = xstrdup("0");
                    if (var->init) {
                        ectx_t x = {c, ks, ls, -1, false};
                        free(init);
                        init = ex_str(g, &x, var->init);
                    }
                    P(g, "  c_%s[%d].ln[%d].v_%s := %s;\n", pc->name, k, l, var->name, init);
                    free(init);
                }
            }
        }
        for (int v = 0; v < pc->nctrlvars; v++) {
            const proto_var_t *var = &pc->ctrlvars[v];
            char *init = xstrdup("0");
            if (var->init && var->type.kind != PROTO_T_DATA) {
                ectx_t x = {c, ks, "-1", -1, false};
                free(init);
                init = ex_str(g, &x, var->init);
            }
            if (var->type.kind == PROTO_T_DATA)
                P(g, "  for q: 0..MAXLOCS-1 do c_%s[%d].v_%s[q] := 0; endfor;\n", pc->name, k,
                  var->name);
            else if (var->per_thread)
                for (int t = 0; t < g->nthreads; t++)
                    P(g, "  c_%s[%d].v_%s[%d] := %s;\n", pc->name, k, var->name, t,
                      g->icu[gi] < 0 || prog->threads[t].cu == g->icu[gi] ? init : "0");
            else
                P(g, "  c_%s[%d].v_%s := %s;\n", pc->name, k, var->name, init);
            free(init);
        }
    }
    P(g, "  for q: chidx_t do\n    Ch[q].n := 0;\n    for k: 0..CAP-1 do ClearMsg(Ch[q].m[k]); "
         "endfor;\n  endfor;\n");
    for (int k = 0; k < ns; k++) {
        int gi = slots[k] / 256, l = slots[k] % 256, c = g->ictrl[gi], ki = gi - g->cbase[c];
        const proto_ctrl_t *pc = &p->ctrls[c];
        P(g, "  if w%d then\n    c_%s[%d].ln[%d].st := %s_%s;\n", k, pc->name, ki, l, pc->name,
          pc->state_names[pc->warm_state]);
        for (int v = 0; v < pc->nlinevars; v++)
            if (pc->linevars[v].type.kind == PROTO_T_DATA)
                for (int q = 0; q < g->line_nlocs[l]; q++)
                    P(g, "    c_%s[%d].ln[%d].v_%s[%d] := %lld;\n", pc->name, ki, l,
                      pc->linevars[v].name, q, (long long)prog->locs[g->line_locs[l][q]].init);
        P(g, "  endif;\n");
    }
    P(g, "  Normalize(false);\nend;\n");
    if (ns)
        P(g, "end;\n");
    P(g, "\n");
}

static void emit_props(mx_t *g)
{
    const proto_t *p = g->p;
    P(g, "------------------------------------------------------------------------------\n"
         "-- Properties\n"
         "------------------------------------------------------------------------------\n\n");
    for (int k = 0; k < p->ninvs; k++) {
        /* sys_check: evaluated at instance 0 on every line */
        ectx_t x = {g->ictrl[0], "0", "l", -1, false};
        char *s = ex_str(g, &x, p->invs[k].expr);
        P(g, "invariant \"%s\"\n  forall l: line_t do %s != 0 end;\n\n", p->invs[k].name, s);
        free(s);
    }
    P(g, "-- a step whose send finds its bounded channel full is not taken (do_send)\n"
         "assume \"back-pressure\" !Blocked;\n\n");
    if (g->cfg.lines > 0)
        P(g,
          "-- a step that would fill an L1 past --lines %d is not taken\n"
          "assume \"lines\" !OverCapacity();\n\n",
          g->cfg.lines);
}

/* ---- outcomes (sys_outcome) ---- */

/* FinalLoc(l): location l's final value, by the 'final' declarations, else at its home. */
static void emit_final(mx_t *g)
{
    const proto_t *p = g->p;
    const prog_t *prog = g->prog;
    int home_ctrl = -1, home_var = -1;
    for (int c = 0; c < p->nctrls && home_ctrl < 0; c++)
        for (int v = 0; v < p->ctrls[c].nlinevars && home_ctrl < 0; v++)
            if (!p->ctrls[c].per_cu && p->ctrls[c].linevars[v].type.kind == PROTO_T_DATA &&
                p->ctrls[c].linevars[v].init_initial) {
                home_ctrl = c;
                home_var = v;
            }
    P(g, "function FinalLoc(l: val_t): val_t;  -- sys_outcome: a location's final value\n"
         "begin\n  switch l\n");
    for (int l = 0; l < prog->nlocs; l++) {
        int line = g->loc_line[l], pos = g->locpos[l];
        P(g, "  case %d:  -- %s\n", l, prog->locs[l].name);
        for (int f = 0; f < p->nfinals; f++) {
            const proto_final_t *fd = &p->finals[f];
            const proto_ctrl_t *pc = &p->ctrls[fd->ctrl];
            for (int k = 0; k < g->cn[fd->ctrl]; k++) {
                char st[128];
                snprintf(st, sizeof st, "c_%s[%d].ln[%d].st", pc->name, k, line);
                strbuf_t b;
                sb_init(&b);
                if (fd->states)
                    states_cond(g, fd->ctrl, fd->states, st, &b);
                else
                    sb_puts(&b, "true");
                if (fd->mask >= 0)
                    sb_printf(&b, " & (c_%s[%d].ln[%d].v_%s >> %d) %% 2 = 1", pc->name, k, line,
                              pc->linevars[fd->mask].name, pos);
                P(g, "    if %s then return c_%s[%d].ln[%d].v_%s[%d]; endif;\n", b.s, pc->name, k,
                  line, pc->linevars[fd->var].name, pos);
                sb_free(&b);
            }
        }
        if (home_ctrl >= 0)
            P(g, "    return c_%s[%d].ln[%d].v_%s[%d];\n", cname(g, home_ctrl),
              g->cn[home_ctrl] - 1, line, p->ctrls[home_ctrl].linevars[home_var].name, pos);
        else
            P(g, "    return %lld;\n", (long long)prog->locs[l].init);
    }
    P(g, "  endswitch;\n  return 0;\nend;\n\n");
}

static void emit_outcomes(mx_t *g, const exec_outcomes_t *allowed, const char *model)
{
    exec_layout_t lay;
    exec_layout_init(&lay, g->prog);
    emit_final(g);
    P(g,
      "-- the outcomes %s allows: registers, then final memory\n"
      "function Allowed(): boolean;\nbegin\n",
      model);
    for (size_t i = 0; i < allowed->n; i++) {
        const prog_val_t *v = allowed->v + i * (size_t)allowed->nkeys;
        P(g, "  if true");
        for (int k = 0; k < lay.nkeys; k++) {
            if (k < lay.nregkeys)
                P(g, " & Th[%d].r%d = %lld", lay.thread[k], lay.reg[k], (long long)v[k]);
            else
                P(g, " & FinalLoc(%d) = %lld", lay.loc[k], (long long)v[k]);
        }
        P(g, " then return true; endif;\n");
    }
    P(g, "  return false;\nend;\n\n");
    P(g, "invariant \"every terminal outcome is allowed by %s\"\n  Terminal() -> Allowed();\n\n",
      model);
    exec_layout_free(&lay);
}

/* ---- the model ---- */

static void emit_header(mx_t *g, const char *command)
{
    const proto_t *p = g->p;
    const prog_t *prog = g->prog;
    P(g, "-- Murphi (Rumur dialect) model written by cohcheck export --murphi (docs/murphi.md)\n");
    if (command)
        P(g, "--   %s\n", command);
    P(g, "--\n-- protocol %s (resolved:", p->name);
    for (int f = 0; f < p->nfiles; f++)
        P(g, " %s", p->files[f]);
    P(g, "), test %s (%s)\n", prog->name, prog->file);
    P(g, "-- configuration: --cus %d --init %s", g->ncus, g->cfg.warm ? "warm" : "cold");
    if (g->cfg.lines)
        P(g, " --lines %d", g->cfg.lines);
    P(g, " --env ");
    int n = 0;
    if (g->cfg.env_all)
        P(g, "%sall", n++ ? "," : "");
    if (g->cfg.env & SYS_ENV_FETCH)
        P(g, "%sfetch", n++ ? "," : "");
    if (g->cfg.env & SYS_ENV_EVICT)
        P(g, "%sevict", n++ ? "," : "");
    if (g->cfg.env & SYS_ENV_WRITEBACK)
        P(g, "%swriteback", n++ ? "," : "");
    for (int k = 0; k < g->cfg.nenv_names; k++)
        P(g, "%s%s", n++ ? "," : "", g->cfg.env_names[k]);
    if (!n)
        P(g, "none");
    for (int k = 0; k < p->nparams; k++)
        P(g, " --param %s=%d", p->params[k].name, p->params[k].value);
    P(g, "\n--\n"
         "-- The reachable states are cohcheck's, one for one (checker/sys/sys.c): Rumur's\n"
         "-- state count equals the `states` of cohcheck check with the same options. Check it:\n"
         "--   rumur --threads 1 --deadlock-detection stuck MODEL.m -o model.c\n"
         "--   cc -O2 model.c -o model -lpthread && ./model\n"
         "-- Exported: the protocol's rows (tried in order; a stall row disables the step;\n"
         "-- impossible and unhandled events are errors), its invariants, range checks,\n"
         "-- channel overflow, deadlocks (with --deadlock-detection stuck) and, unless\n"
         "-- exported with --no-outcomes, the outcomes the memory model allows (listed: the\n"
         "-- cat model itself is not translated).\n\n");
}

int murphi_export(const proto_t *p, const prog_t *prog, const sys_config_t *cfg,
                  const murphi_opts_t *o, strbuf_t *out, diag_t *err)
{
    murphi_opts_t none = {NULL, NULL, NULL, false};
    if (!o)
        o = &none;
    if (cfg->time_raw) {
        diag_set(err, p->file, 0, 0,
                 "export --murphi: raw time has no finite model; export the abstract one");
        return -1;
    }
    if (prog_has_kernel_instr(prog)) {
        diag_set(
            err, prog->file, 0, 0,
            "export --murphi: kernel instructions (sub, mul, div, rem, blt, bge, NAME[rK]) have no "
            "Murphi form yet");
        return -1;
    }
    /* The system must build exactly as `check` builds it (the same errors). */
    sys_t *s;
    if (sys_new(p, prog, cfg, &s, err))
        return -1;
    sys_free(s);
    if (!p->ctrls[p->core_ctrl].per_cu) {
        diag_set(err, p->file, 0, 0, "export --murphi: the core controller %s is not per-cu",
                 p->ctrls[p->core_ctrl].name);
        return -1;
    }
    mx_t g;
    memset(&g, 0, sizeof g);
    g.p = p;
    g.prog = prog;
    g.cfg = *cfg;
    g.err = err;
    strbuf_t body;
    sb_init(&body);
    g.o = &body;
    layout(&g);
    emit_header(&g, o->command);
    emit_decls(&g);
    emit_helpers(&g);
    emit_normalize(&g);
    emit_threads(&g);
    P(&g, "------------------------------------------------------------------------------\n"
          "-- The protocol's tables: per controller and event, the rows in the order\n"
          "-- find_row tries them\n"
          "------------------------------------------------------------------------------\n");
    for (int c = 0; c < p->nctrls; c++)
        for (int e = 0; e < p->nevents; e++) {
            const proto_event_t *ev = &p->events[e];
            if (!has_rows(&p->ctrls[c], e))
                continue;
            if (ev->kind == PROTO_EV_ENV && !env_enabled(cfg, ev->name))
                continue;
            if (ev->kind == PROTO_EV_CORE && c != p->core_ctrl)
                continue;
            emit_event(&g, c, e);
        }
    emit_dispatch(&g);
    emit_rules(&g);
    emit_init(&g);
    emit_props(&g);
    if (o->allowed)
        emit_outcomes(&g, o->allowed, o->model ? o->model : "the model");
    if (o->liveness)
        P(&g, "-- cohcheck check --liveness (docs/liveness.md): from every reachable state the\n"
              "-- end of the test stays reachable (AG EF); every rule counts as progress here,\n"
              "-- environment events included (cohcheck: --env-fair for each of them)\n"
              "liveness \"the test can always finish\"\n  Terminal();\n\n");
    int rc = g.failed ? -1 : 0;
    if (!rc)
        sb_puts(out, body.s);
    sb_free(&body);
    mx_free(&g);
    return rc;
}
