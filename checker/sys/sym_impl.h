/* sym_impl.h - symmetry reduction (docs/por.md, "Symmetry"), included once at the end
 * of sys.c for its internals. The analysis finds compute units whose permutation is an
 * automorphism of the system (Ip and Dill's scalarsets, as in Murphi): CUs with no
 * thread or with identical thread programs and work-group shapes, under rows that only
 * test node, tid and nodeset values for equality and membership. A group element
 * permutes the CUs, with them their per-cu instances, their threads (k-th onto k-th),
 * the channels between instances, and every node-, tid- and nodeset-typed value.
 * Invariant: sym_canon_work leaves in W the least encoding of W's orbit, so it is a
 * state of the same orbit and two states of one orbit get the same representative. */

#define SYM_MAX_ORDER 720 /* group elements enumerated for the exact least representative */

struct sys_sym {
    bool ok;        /* the analysis proved a nontrivial group */
    char why[256];  /* else: why not */
    char desc[160]; /* the classes, "CUs {0,1} {2,3}" */
    int order;      /* group elements, the identity first */
    int *cu;        /* order * ncus: element g maps CU c to cu[g * ncus + c] */
    int *inst;      /* order * ninst: ... instance i to inst[g * ninst + i] */
    int *thr;       /* order * nthreads: ... thread t to thr[g * nthreads + t] */
    int *okey;      /* per thread: its first outcome key */
    int *nkey;      /* per thread: its outcome keys (registers it writes) */
    work_t w3, wb;  /* scratch: a permuted state and the least one so far */
    uint8_t *e3, *eb;
    bool borrowed; /* a clone's (sym_clone): the tables are the original's */
    /* the cheaper canonical form (sym_canon_work): per CU, the next CU of its class
       (-1: none); per thread, its rank on its CU; scratch: per CU its key and the
       key its image position gets, a CU's data abstracted, the candidate elements
       (nextm -2: a fixed CU) */
    int *nextm, *trank;
    uint64_t *key, *kimg;
    int16_t *kbuf;
    int *cand;
};

static void sym_scratch_free(struct sys_sym *y)
{
    free(y->key);
    free(y->kimg);
    free(y->kbuf);
    free(y->cand);
    free(y->w3.fixed);
    free(y->w3.chan);
    free(y->w3.clen);
    free(y->wb.fixed);
    free(y->wb.chan);
    free(y->wb.clen);
    free(y->e3);
    free(y->eb);
}

static void sym_free(struct sys_sym *y)
{
    if (!y)
        return;
    if (!y->borrowed) {
        free(y->cu);
        free(y->inst);
        free(y->thr);
        free(y->okey);
        free(y->nkey);
        free(y->nextm);
        free(y->trank);
    }
    sym_scratch_free(y);
    free(y);
}

static bool sym_idlike(proto_type_kind_t k)
{
    return k == PROTO_T_NODE || k == PROTO_T_TID || k == PROTO_T_NODESET;
}

/* Does E treat an instance or thread id as a number (order, arithmetic, a constant
 * naming a per-cu instance or a thread)? Then ids do more than index instances. */
static bool sym_expr_bad(const sys_t *s, const proto_expr_t *e)
{
    if (!e)
        return false;
    if (e->kind == PROTO_E_BIN && strchr("+-<l>g", e->op) &&
        ((e->a && sym_idlike(e->a->type.kind)) || (e->b && sym_idlike(e->b->type.kind))))
        return true;
    if ((e->kind == PROTO_E_INT || e->kind == PROTO_E_PARAM) && sym_idlike(e->type.kind)) {
        if (e->type.kind != PROTO_T_NODE || e->kind != PROTO_E_INT)
            return true;
        if (e->index >= 0 && e->index < s->ninst && s->inst[e->index].cu >= 0)
            return true;
    }
    return sym_expr_bad(s, e->a) || sym_expr_bad(s, e->b) || sym_expr_bad(s, e->c) ||
           sym_expr_bad(s, e->d);
}

static bool sym_action_bad(const sys_t *s, const proto_action_t *a)
{
    if (sym_expr_bad(s, a->index) || sym_expr_bad(s, a->value) || sym_expr_bad(s, a->dest_node) ||
        sym_expr_bad(s, a->tid) || sym_expr_bad(s, a->dval))
        return true;
    if (a->kind == PROTO_A_SEND && a->fields)
        for (int f = 0; f < s->p->msgs[a->msg].nfields; f++)
            if (sym_expr_bad(s, a->fields[f]))
                return true;
    return false;
}

/* The first row, invariant or initial value that uses ids as numbers: WHY names it. */
static bool sym_proto_bad(const sys_t *s, char *why, size_t n)
{
    const proto_t *p = s->p;
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            bool bad = sym_expr_bad(s, row->guard);
            for (int k = 0; k < row->nactions && !bad; k++)
                bad = sym_action_bad(s, &row->actions[k]);
            if (bad) {
                snprintf(why, n,
                         "a row of %s (line %d) orders, adds or names node or thread ids: "
                         "they do more than index instances",
                         pc->name, row->line);
                return true;
            }
        }
        for (int v = 0; v < pc->nlinevars + pc->nctrlvars; v++) {
            const proto_var_t *var =
                v < pc->nlinevars ? &pc->linevars[v] : &pc->ctrlvars[v - pc->nlinevars];
            if (sym_expr_bad(s, var->init)) {
                snprintf(why, n, "the initial value of %s.%s names a node or thread id", pc->name,
                         var->name);
                return true;
            }
        }
    }
    for (int k = 0; k < p->ninvs; k++)
        if (sym_expr_bad(s, p->invs[k].expr)) {
            snprintf(why, n, "invariant %s (line %d) orders, adds or names node or thread ids",
                     p->invs[k].name, p->invs[k].line);
            return true;
        }
    return false;
}

/* Does ROW of controller PC set line variable V? */
static bool sym_row_sets(const proto_row_t *row, int v)
{
    for (int k = 0; k < row->nactions; k++)
        if (row->actions[k].kind == PROTO_A_ASSIGN && row->actions[k].line_var &&
            row->actions[k].var == v)
            return true;
    return false;
}

/* A line variable with a 'live' clause is reset to its initial value outside its live
 * states. A node or tid one starts at 0: the first instance, thread 0. When an element
 * moves that instance or thread (CLS: CU classes), the reset value is not mapped with
 * the rest of the state, so a row that brings the line into a live state without
 * setting the variable exposes a value that differs between a state and its image:
 * s -> t but not g(s) -> g(t), and a recorded path need not be a real execution
 * (rcc's WRITE in I enters IV, where r1src is kept, and leaves it 0). WHY names it. */
static bool sym_reset_exposed(const sys_t *s, const int *cls, char *why, size_t n)
{
    int cu0 = s->ninst ? s->inst[0].cu : -1, tcu0 = s->prog->nthreads ? s->prog->threads[0].cu : -1;
    bool node0 = cu0 >= 0 && cls[cu0] >= 0, tid0 = tcu0 >= 0 && cls[tcu0] >= 0;
    for (int c = 0; c < s->p->nctrls; c++) {
        const proto_ctrl_t *pc = &s->p->ctrls[c];
        for (int v = 0; v < pc->nlinevars; v++) {
            const proto_var_t *var = &pc->linevars[v];
            proto_type_kind_t k = var->type.kind;
            if (var->live == ~(uint64_t)0 ||
                !((k == PROTO_T_NODE && node0) || (k == PROTO_T_TID && tid0)))
                continue;
            for (int r = 0; r < pc->nrows; r++) {
                const proto_row_t *row = &pc->rows[r];
                bool enters = row->next >= 0 && (var->live >> row->next & 1) &&
                              (row->states & ~var->live) && !sym_row_sets(row, v);
                for (int a = 0; a < row->nactions && !enters; a++)
                    enters = row->actions[a].kind == PROTO_A_FORALL &&
                             (row->actions[a].from & ~var->live) &&
                             (var->live >> row->actions[a].to & 1);
                if (enters) {
                    snprintf(why, n,
                             "a row of %s (line %d) enters a state that keeps %s without "
                             "setting it: its reset value names one compute unit's %s",
                             pc->name, row->line, var->name,
                             k == PROTO_T_NODE ? "instance" : "thread");
                    return true;
                }
            }
        }
    }
    return false;
}

static bool sym_same_instr(const prog_instr_t *a, const prog_instr_t *b)
{
    return a->op == b->op && a->ord == b->ord && a->scope == b->scope && a->rmw == b->rmw &&
           a->reg == b->reg && a->loc == b->loc && a->a.is_reg == b->a.is_reg && a->a.v == b->a.v &&
           a->b.is_reg == b->b.is_reg && a->b.v == b->b.v && a->target == b->target &&
           a->indexed == b->indexed && a->idx_reg == b->idx_reg && a->idx_off == b->idx_off &&
           a->idx_len == b->idx_len;
}

/* CUs C and D run the same programs: as many threads, the k-th of each alike, and
 * threads in one work-group on C exactly where they are on D. */
static bool sym_same_cu(const sys_t *s, int c, int d)
{
    const prog_t *pg = s->prog;
    int tc[PROG_MAX_THREADS], td[PROG_MAX_THREADS], nc = 0, nd = 0;
    for (int t = 0; t < pg->nthreads; t++) {
        if (pg->threads[t].cu == c)
            tc[nc++] = t;
        if (pg->threads[t].cu == d)
            td[nd++] = t;
    }
    if (nc != nd)
        return false;
    for (int k = 0; k < nc; k++) {
        const prog_thread_t *a = &pg->threads[tc[k]], *b = &pg->threads[td[k]];
        if (a->ninstr != b->ninstr)
            return false;
        for (int i = 0; i < a->ninstr; i++)
            if (!sym_same_instr(&a->instr[i], &b->instr[i]))
                return false;
        for (int j = 0; j < k; j++)
            if ((a->wg == pg->threads[tc[j]].wg) != (b->wg == pg->threads[td[j]].wg))
                return false;
    }
    return true;
}

/* A CU some of whose threads share a work-group with a thread elsewhere stays put. */
static bool sym_cu_fixed(const sys_t *s, int c)
{
    const prog_t *pg = s->prog;
    for (int t = 0; t < pg->nthreads; t++)
        for (int u = 0; u < pg->nthreads; u++)
            if (pg->threads[t].cu == c && pg->threads[u].cu != c &&
                pg->threads[t].wg == pg->threads[u].wg)
                return true;
    return false;
}

/* Elements of the group: every CU permutation within each class (CLS[c]: CU c's class,
 * -1: fixed), as CU maps, built class by class (cartesian product). */
static int sym_elements(const sys_t *s, const int *cls, int ncls, int **out)
{
    int n = s->ncus, order = 1;
    int *el = xmalloc(sizeof(int) * (size_t)n);
    for (int c = 0; c < n; c++)
        el[c] = c;
    for (int k = 0; k < ncls; k++) {
        int mem[64], m = 0;
        for (int c = 0; c < n; c++)
            if (cls[c] == k)
                mem[m++] = c;
        int fact = 1;
        for (int i = 2; i <= m; i++)
            fact *= i;
        int *nel = xmalloc(sizeof(int) * (size_t)n * (size_t)order * (size_t)fact);
        int nn = 0;
        for (int g = 0; g < order; g++) {
            int idx[64];
            for (int i = 0; i < m; i++)
                idx[i] = i;
            for (;;) { /* lexicographic permutations of idx: the identity first */
                int *e = nel + (size_t)nn++ * n;
                memcpy(e, el + (size_t)g * n, sizeof(int) * (size_t)n);
                for (int i = 0; i < m; i++)
                    e[mem[i]] = el[(size_t)g * n + mem[idx[i]]];
                int i = m - 2;
                while (i >= 0 && idx[i] > idx[i + 1])
                    i--;
                if (i < 0)
                    break;
                int j = m - 1;
                while (idx[j] < idx[i])
                    j--;
                int t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
                for (int a = i + 1, b = m - 1; a < b; a++, b--) {
                    t = idx[a];
                    idx[a] = idx[b];
                    idx[b] = t;
                }
            }
        }
        free(el);
        el = nel;
        order = nn;
    }
    *out = el;
    return order;
}

/* Y's scratch: two states and their encodings, on cache lines of their own (each
 * search thread canonicalises into its own). */
static void sym_scratch(const sys_t *s, struct sys_sym *y)
{
    size_t nch = (size_t)s->nchan * s->cap * s->mw + 1;
    y->w3 = (work_t){xcalloc_lines((size_t)s->nfixed + 4, 2), xcalloc_lines(nch, 2),
                     xcalloc_lines((size_t)s->nchan + 1, 1)};
    y->wb = (work_t){xcalloc_lines((size_t)s->nfixed + 4, 2), xcalloc_lines(nch, 2),
                     xcalloc_lines((size_t)s->nchan + 1, 1)};
    y->e3 = xcalloc_lines(s->maxstate + 1, 1);
    y->eb = xcalloc_lines(s->maxstate + 1, 1);
    y->key = xcalloc_lines((size_t)s->ncus + 1, sizeof *y->key);
    y->kimg = xcalloc_lines((size_t)s->ncus + 1, sizeof *y->kimg);
    y->kbuf = xcalloc_lines((size_t)s->nfixed + 4, sizeof *y->kbuf);
    y->cand = xcalloc_lines((size_t)y->order + 1, sizeof *y->cand);
}

/* For sys_clone: Y's tables, read only, with scratch of the clone's own. */
static struct sys_sym *sym_clone(const sys_t *s, const struct sys_sym *y)
{
    if (!y)
        return NULL;
    struct sys_sym *c = xcalloc_lines(1, sizeof *c);
    *c = *y;
    c->borrowed = true;
    if (y->ok)
        sym_scratch(s, c);
    else
        c->w3 = c->wb = (work_t){NULL, NULL, NULL}, c->e3 = c->eb = NULL, c->key = c->kimg = NULL,
        c->kbuf = NULL, c->cand = NULL;
    return c;
}

/* Instance and thread maps of each element, the outcome key blocks, the scratch. */
static void sym_tables(sys_t *s, struct sys_sym *y)
{
    y->inst = xmalloc(sizeof(int) * (size_t)y->order * (size_t)s->ninst);
    y->thr = xmalloc(sizeof(int) * (size_t)y->order * ((size_t)s->nthreads + 1));
    const prog_t *pg = s->prog;
    for (int g = 0; g < y->order; g++) {
        const int *cp = y->cu + (size_t)g * s->ncus;
        int *ip = y->inst + (size_t)g * s->ninst, *tp = y->thr + (size_t)g * s->nthreads;
        for (int i = 0; i < s->ninst; i++)
            ip[i] = s->inst[i].cu < 0 ? i : i - s->inst[i].cu + cp[s->inst[i].cu];
        for (int t = 0; t < pg->nthreads; t++) {
            int c = pg->threads[t].cu, k = 0, d = cp[c];
            for (int u = 0; u < t; u++)
                k += pg->threads[u].cu == c;
            for (int u = 0; u < pg->nthreads; u++)
                if (pg->threads[u].cu == d && k-- == 0)
                    tp[t] = u;
        }
    }
    y->okey = xcalloc((size_t)s->nthreads + 1, sizeof(int));
    y->nkey = xcalloc((size_t)s->nthreads + 1, sizeof(int));
    int k = 0;
    for (int t = 0; t < pg->nthreads; t++) {
        uint32_t written = 0;
        for (int i = 0; i < pg->threads[t].ninstr; i++)
            if (prog_writes_reg(&pg->threads[t].instr[i]))
                written |= 1u << pg->threads[t].instr[i].reg;
        y->okey[t] = k;
        for (int r = 0; r < PROG_MAX_REGS; r++)
            y->nkey[t] += written >> r & 1;
        k += y->nkey[t];
    }
    sym_scratch(s, y);
}

/* Channel C with its ends mapped by IP. */
static int sym_chan(const sys_t *s, const int *ip, int c)
{
    int nn = s->ninst * s->ninst;
    return c / nn * nn + ip[chan_src(s, c)] * s->ninst + ip[chan_dst(s, c)];
}

/* Does every element keep the channels some row can send into among themselves, and
 * the warm lines that may start warm (sys_initial takes at most 20) symmetric? */
static bool sym_layout_ok(const sys_t *s, const struct sys_sym *y, char *why, size_t n)
{
    bool *live = xcalloc((size_t)s->nchan + 1, 1);
    for (int q = 0; q < s->nlchan; q++)
        live[s->lchan[q]] = true;
    bool ok = true;
    for (int g = 1; g < y->order && ok; g++)
        for (int q = 0; q < s->nlchan && ok; q++)
            ok = live[sym_chan(s, y->inst + (size_t)g * s->ninst, s->lchan[q])];
    free(live);
    if (!ok) {
        snprintf(why, n, "the channels rows can send into are not symmetric");
        return false;
    }
    int nwarm = 0;
    for (int i = 0; i < s->ninst; i++) {
        const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
        if (c->per_cu && c->warm_state >= 0)
            nwarm += s->nlines;
    }
    if (s->cfg.warm && nwarm > 20) {
        snprintf(why, n,
                 "--init warm starts only the first 20 of %d (instance, line) pairs warm: not "
                 "the same on every CU",
                 nwarm);
        return false;
    }
    return true;
}

/* Classes of interchangeable CUs into CLS (-1: fixed); returns how many, 0 with WHY. */
static int sym_classes(const sys_t *s, int *cls, char *desc, size_t dn, char *why, size_t n)
{
    int ncls = 0, first[64];
    for (int c = 0; c < s->ncus; c++) {
        cls[c] = -1;
        if (sym_cu_fixed(s, c))
            continue;
        for (int k = 0; k < ncls && cls[c] < 0; k++)
            if (sym_same_cu(s, first[k], c))
                cls[c] = k;
        if (cls[c] < 0) {
            first[ncls] = c;
            cls[c] = ncls++;
        }
    }
    /* singletons are fixed: renumber the classes with two or more CUs */
    int m = 0, map[64];
    for (int k = 0; k < ncls; k++) {
        int cnt = 0;
        for (int c = 0; c < s->ncus; c++)
            cnt += cls[c] == k;
        map[k] = cnt > 1 ? m++ : -1;
    }
    size_t dl = (size_t)snprintf(desc, dn, "CUs");
    for (int c = 0; c < s->ncus; c++)
        cls[c] = cls[c] < 0 ? -1 : map[cls[c]];
    for (int k = 0; k < m && dl < dn; k++) {
        const char *sep = " {";
        for (int c = 0; c < s->ncus && dl < dn; c++)
            if (cls[c] == k) {
                dl += (size_t)snprintf(desc + dl, dn - dl, "%s%d", sep, c);
                sep = ",";
            }
        if (dl < dn)
            dl += (size_t)snprintf(desc + dl, dn - dl, "}");
    }
    if (!m)
        snprintf(why, n,
                 "no two compute units are interchangeable (their threads' programs or "
                 "work-groups differ)");
    return m;
}

static void sym_analyse(sys_t *s, struct sys_sym *y)
{
    if (s->ncus > 16) {
        snprintf(y->why, sizeof y->why, "more than 16 compute units");
        return;
    }
    if (sym_proto_bad(s, y->why, sizeof y->why))
        return;
    int cls[64];
    int ncls = sym_classes(s, cls, y->desc, sizeof y->desc, y->why, sizeof y->why);
    if (!ncls)
        return;
    double order = 1;
    for (int c = 0, k = 0; k < ncls; c = 0, k++)
        for (int cnt = 0; c < s->ncus; c++)
            if (cls[c] == k)
                order *= ++cnt;
    if (sym_reset_exposed(s, cls, y->why, sizeof y->why))
        return;
    if (order > SYM_MAX_ORDER) {
        snprintf(y->why, sizeof y->why,
                 "the group of %s has %.0f elements (at most %d are enumerated)", y->desc, order,
                 SYM_MAX_ORDER);
        return;
    }
    y->order = sym_elements(s, cls, ncls, &y->cu);
    y->nextm = xmalloc(sizeof(int) * ((size_t)s->ncus + 1));
    for (int c = 0; c < s->ncus; c++) {
        y->nextm[c] = cls[c] < 0 ? -2 : -1;
        for (int d = c + 1; d < s->ncus && cls[c] >= 0 && y->nextm[c] < 0; d++)
            if (cls[d] == cls[c])
                y->nextm[c] = d;
    }
    y->trank = xcalloc((size_t)s->nthreads + 1, sizeof(int));
    for (int t = 0; t < s->nthreads; t++)
        for (int u = 0; u < t; u++)
            y->trank[t] += s->prog->threads[u].cu == s->prog->threads[t].cu;
    sym_tables(s, y);
    y->ok = sym_layout_ok(s, y, y->why, sizeof y->why);
}

/* Value V of kind K under element (IP, TP, CP). */
static int16_t sym_val(const sys_t *s, const int *ip, const int *tp, const int *cp,
                       proto_type_kind_t k, int16_t v)
{
    if (k == PROTO_T_NODE)
        return v >= 0 && v < s->ninst ? (int16_t)ip[v] : v;
    if (k == PROTO_T_TID)
        return v >= 0 && v < s->nthreads ? (int16_t)tp[v] : v;
    if (k != PROTO_T_NODESET)
        return v;
    uint16_t u = (uint16_t)v, r = (uint16_t)(u & ~((1u << s->ncus) - 1));
    for (int c = 0; c < s->ncus; c++)
        if (u >> c & 1)
            r |= (uint16_t)(1u << cp[c]);
    return (int16_t)r;
}

/* The id-typed values of instance block B (controller CTRL), in place. */
static void sym_fix_block(const sys_t *s, int ctrl, int16_t *b, const int *ip, const int *tp,
                          const int *cp)
{
    const proto_ctrl_t *pc = &s->p->ctrls[ctrl];
    for (int v = 0; v < pc->nlinevars; v++) {
        proto_type_kind_t k = pc->linevars[v].type.kind;
        if (!sym_idlike(k))
            continue;
        for (int l = 0; l < s->nlines; l++) {
            int16_t *x = b + l * s->line_w[ctrl] + s->lv_off[ctrl][v];
            *x = sym_val(s, ip, tp, cp, k, *x);
        }
    }
    int16_t *cv = b + s->nlines * s->line_w[ctrl];
    for (int v = 0; v < pc->nctrlvars; v++) {
        proto_type_kind_t k = pc->ctrlvars[v].type.kind;
        int16_t *x = cv + s->cv_off[ctrl][v];
        if (!pc->ctrlvars[v].per_thread) {
            *x = sym_val(s, ip, tp, cp, k, *x);
            continue;
        }
        int16_t tmp[PROG_MAX_THREADS];
        for (int t = 0; t < s->nthreads; t++)
            tmp[tp[t]] = sym_val(s, ip, tp, cp, k, x[t]);
        memcpy(x, tmp, sizeof(int16_t) * (size_t)s->nthreads);
    }
}

/* OUT = element G applied to IN (unordered channels sorted again). */
static void sym_apply_work(const sys_t *s, const struct sys_sym *y, int g, const work_t *in,
                           work_t *out)
{
    const int *ip = y->inst + (size_t)g * s->ninst, *tp = y->thr + (size_t)g * s->nthreads,
              *cp = y->cu + (size_t)g * s->ncus;
    memcpy(out->fixed, in->fixed, sizeof(int16_t) * (size_t)s->nfixed);
    for (int t = 0; t < s->nthreads; t++)
        memcpy(out->fixed + tp[t] * TH_W, in->fixed + t * TH_W, sizeof(int16_t) * TH_W);
    for (int i = 0; i < s->ninst; i++) {
        int ctrl = s->inst[i].ctrl;
        int16_t *b = out->fixed + s->inst[ip[i]].base;
        memcpy(b, in->fixed + s->inst[i].base, sizeof(int16_t) * (size_t)s->inst_w[ctrl]);
        sym_fix_block(s, ctrl, b, ip, tp, cp);
    }
    memset(out->clen, 0, (size_t)s->nchan);
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q], d = sym_chan(s, ip, c);
        out->clen[d] = in->clen[c];
        const int16_t *m = in->chan + (size_t)c * s->cap * s->mw;
        int16_t *o = out->chan + (size_t)d * s->cap * s->mw;
        memcpy(o, m, sizeof(int16_t) * (size_t)in->clen[c] * (size_t)s->mw);
        for (int k = 0; k < in->clen[c]; k++, o += s->mw) {
            const proto_msg_t *pm = &s->p->msgs[o[0]];
            for (int f = 0; f < pm->nfields; f++)
                if (sym_idlike(pm->fields[f].type.kind)) {
                    int16_t *x = o + 2 + s->msg_foff[o[0]][f];
                    *x = sym_val(s, ip, tp, cp, pm->fields[f].type.kind, *x);
                }
        }
    }
    /* A dead value went back to its initial value, which the map may have moved: the
       image is normalized as any emitted state is (the map commutes with the rest). */
    normalize(s, out);
    canon(s, out);
}

/* Value V of kind K in CU C's key: an instance by its place on its CU (or itself when
 * shared), a thread by its rank on its CU, a nodeset by how many CUs it holds (and its
 * other bits): never which CU. An element maps a live value to one with the same
 * place, rank or count, and a dead value (sys_set_dead) stays its initial value, which
 * these abstractions make the same on every CU (the default 0 names thread 0 and the
 * first instance: a dead one is not moved). */
static int16_t sym_key_val(const sys_t *s, const struct sys_sym *y, int c, proto_type_kind_t k,
                           int16_t v)
{
    (void)c;
    if (k == PROTO_T_NODE && v >= 0 && v < s->ninst) {
        int cu = s->inst[v].cu;
        return cu < 0 ? v : (int16_t)(30000 + v - cu);
    }
    if (k == PROTO_T_TID && v >= 0 && v < s->nthreads)
        return (int16_t)(30000 + y->trank[v]);
    if (k != PROTO_T_NODESET)
        return v;
    uint16_t u = (uint16_t)v, lo = (uint16_t)((1u << s->ncus) - 1);
    return (int16_t)((u & ~lo) ^ (uint16_t)__builtin_popcount((unsigned)(u & lo)));
}

/* Block B of instance (controller CTRL) on CU C, abstracted in place as C sees it; a
 * per-thread array keeps C's own threads' entries, in rank order. */
static void sym_key_block(const sys_t *s, const struct sys_sym *y, int ctrl, int16_t *b, int c)
{
    const proto_ctrl_t *pc = &s->p->ctrls[ctrl];
    for (int v = 0; v < pc->nlinevars; v++) {
        proto_type_kind_t k = pc->linevars[v].type.kind;
        if (sym_idlike(k))
            for (int l = 0; l < s->nlines; l++) {
                int16_t *x = b + l * s->line_w[ctrl] + s->lv_off[ctrl][v];
                *x = sym_key_val(s, y, c, k, *x);
            }
    }
    int16_t *cv = b + s->nlines * s->line_w[ctrl];
    for (int v = 0; v < pc->nctrlvars; v++) {
        proto_type_kind_t k = pc->ctrlvars[v].type.kind;
        int16_t *x = cv + s->cv_off[ctrl][v];
        if (!pc->ctrlvars[v].per_thread) {
            *x = sym_key_val(s, y, c, k, *x);
            continue;
        }
        int16_t tmp[PROG_MAX_THREADS] = {0};
        for (int t = 0; t < s->nthreads; t++)
            if (s->prog->threads[t].cu == c)
                tmp[y->trank[t]] = sym_key_val(s, y, c, k, x[t]);
        memcpy(x, tmp, sizeof(int16_t) * (size_t)s->nthreads);
    }
}

/* CU C's key in W: a hash of its threads and its instances' blocks as C sees them.
 * Invariant: key(g(c), g(w)) = key(c, w) for every element g (channels are left out:
 * a key need not tell states apart, only be the same along an orbit). */
static uint64_t sym_cu_key(const sys_t *s, struct sys_sym *y, const work_t *w, int c)
{
    size_t n = 0;
    for (int t = 0; t < s->nthreads; t++)
        if (s->prog->threads[t].cu == c) {
            memcpy(y->kbuf + n, w->fixed + t * TH_W, sizeof(int16_t) * TH_W);
            n += TH_W;
        }
    for (int i = 0; i < s->ninst; i++)
        if (s->inst[i].cu == c) {
            int ctrl = s->inst[i].ctrl;
            memcpy(y->kbuf + n, w->fixed + s->inst[i].base,
                   sizeof(int16_t) * (size_t)s->inst_w[ctrl]);
            sym_key_block(s, y, ctrl, y->kbuf + n, c);
            const uint8_t *g = s->ghost_slot[ctrl];
            if (!g) {
                n += (size_t)s->inst_w[ctrl];
                continue;
            }
            /* a ghost's slots (0 in every state) are left out, as if not declared */
            size_t m = n;
            for (int k = 0; k < s->inst_w[ctrl]; k++)
                if (!g[k])
                    y->kbuf[m++] = y->kbuf[n + (size_t)k];
            n = m;
        }
    return util_hash64(y->kbuf, sizeof(int16_t) * n, 0);
}

/* The elements whose image of W has its CUs' keys in order within every class (the
 * sorted images) into y->cand; returns how many (at least one). */
static int sym_candidates(const sys_t *s, struct sys_sym *y, const work_t *w)
{
    for (int c = 0; c < s->ncus; c++)
        y->key[c] = y->nextm[c] > -2 ? sym_cu_key(s, y, w, c) : 0; /* -2: a fixed CU */
    int n = 0;
    for (int g = 0; g < y->order; g++) {
        const int *cp = y->cu + (size_t)g * s->ncus;
        for (int c = 0; c < s->ncus; c++)
            y->kimg[cp[c]] = y->key[c];
        bool sorted = true;
        for (int c = 0; c < s->ncus && sorted; c++)
            sorted = y->nextm[c] < 0 || y->kimg[c] <= y->kimg[y->nextm[c]];
        if (sorted)
            y->cand[n++] = g;
    }
    return n;
}

/* W becomes its orbit's representative: the least encoding among the sorted images
 * (docs/por.md, "The canonical form"). The set of sorted images is the same for every
 * state of an orbit, so is its least element. */
static void sym_canon_work(sys_t *s, work_t *w)
{
    struct sys_sym *y = s->sym;
    int nc = sym_candidates(s, y, w);
    if (nc == 1) { /* one sorted image: no encoding to compare */
        if (y->cand[0]) {
            sym_apply_work(s, y, y->cand[0], w, &y->wb);
            copy_work(s, &y->wb, w);
        }
        return;
    }
    bool moved = y->cand[0] != 0;
    if (moved)
        sym_apply_work(s, y, y->cand[0], w, &y->wb);
    size_t nb = encode(s, moved ? &y->wb : w, y->eb);
    for (int k = 1; k < nc; k++) {
        int g = y->cand[k];
        sym_apply_work(s, y, g, w, &y->w3);
        size_t n = encode(s, &y->w3, y->e3);
        int d = n != nb ? (n < nb ? -1 : 1) : memcmp(y->e3, y->eb, n);
        if (d >= 0)
            continue;
        uint8_t *te = y->e3;
        y->e3 = y->eb;
        y->eb = te;
        nb = n;
        work_t tw = y->w3;
        y->w3 = y->wb;
        y->wb = tw;
        moved = true;
    }
    if (moved)
        copy_work(s, &y->wb, w);
}

bool sys_set_symmetry(sys_t *s, bool on, const char **why)
{
    if (!on) {
        s->sym_on = false;
        return false;
    }
    if (!s->sym) {
        s->sym = xcalloc(1, sizeof *s->sym);
        sym_analyse(s, s->sym);
    }
    s->sym_on = s->sym->ok;
    if (why)
        *why = s->sym->ok ? s->sym->desc : s->sym->why;
    s->dec_ok = false;
    return s->sym_on;
}

int sys_sym_order(const sys_t *s)
{
    return s->sym_on ? s->sym->order : 0;
}

void sys_sym_outcome(const sys_t *s, int g, const prog_val_t *in, int nkeys, prog_val_t *out)
{
    const struct sys_sym *y = s->sym;
    memcpy(out, in, sizeof *out * (size_t)nkeys);
    const int *tp = y->thr + (size_t)g * s->nthreads;
    for (int t = 0; t < s->nthreads; t++)
        memcpy(out + y->okey[tp[t]], in + y->okey[t], sizeof *out * (size_t)y->nkey[t]);
}

size_t sys_sym_apply(sys_t *s, int g, const uint8_t *state, size_t len, uint8_t *out)
{
    work_t cur = load_cur(s, state, len);
    sym_apply_work(s, s->sym, g, &cur, &s->sym->wb);
    return encode(s, &s->sym->wb, out);
}

size_t sys_sym_canon(sys_t *s, const uint8_t *state, size_t len, uint8_t *out)
{
    work_t cur = load_cur(s, state, len);
    work_t w = {s->w2fixed, s->w2chan, s->w2clen};
    copy_work(s, &cur, &w);
    sym_canon_work(s, &w);
    return encode(s, &w, out);
}

/* Successors of one state, copied (realising a path canonicalises each after
 * sys_successors returns: canonicalising reuses the decoder's scratch). */
typedef struct {
    uint8_t *buf; /* n states of stride bytes */
    size_t *len;
    sys_label_t *lab;
    int n, cap;
    size_t stride;
} sym_succs_t;

static void sym_collect(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    sym_succs_t *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->buf = xrealloc(c->buf, c->stride * (size_t)c->cap);
        c->len = xrealloc(c->len, sizeof *c->len * (size_t)c->cap);
        c->lab = xrealloc(c->lab, sizeof *c->lab * (size_t)c->cap);
    }
    memcpy(c->buf + c->stride * (size_t)c->n, st, len);
    c->len[c->n] = len;
    c->lab[c->n++] = *lab;
}

/* The successor of FROM (its real successors, not canonicalised) that is TO, or whose
 * canonical form is TO when !EXACT: its index in C, or -1. */
static int sym_find_step(sys_t *s, const uint8_t *from, size_t flen, const uint8_t *to, size_t tlen,
                         bool exact, sym_succs_t *c, uint8_t *tmp)
{
    sys_error_t e;
    c->n = 0;
    sys_successors(s, from, flen, sym_collect, c, &e);
    for (int k = 0; k < c->n; k++) {
        const uint8_t *st = c->buf + c->stride * (size_t)k;
        size_t n = c->len[k];
        if (!exact)
            n = sys_sym_canon(s, st, n, tmp), st = tmp;
        if (n == tlen && !memcmp(st, to, n))
            return k;
    }
    return -1;
}

size_t sys_sym_realise(sys_t *s, uint8_t **states, size_t *lens, sys_label_t *labs, size_t n,
                       bool exact)
{
    bool on = s->sym_on;
    s->sym_on = false;
    sym_succs_t c = {NULL, NULL, NULL, 0, 0, s->maxstate + 1};
    uint8_t *tmp = xmalloc(s->maxstate + 1);
    size_t i = 1;
    if (n)
        labs[0] = (sys_label_t){SYS_STEP_INIT, 0, 0, 0};
    for (; i < n; i++) {
        int k = sym_find_step(s, states[i - 1], lens[i - 1], states[i], lens[i], exact, &c, tmp);
        if (k < 0)
            break;
        lens[i] = c.len[k];
        memcpy(states[i], c.buf + c.stride * (size_t)k, lens[i]);
        labs[i] = c.lab[k];
    }
    free(tmp);
    free(c.buf);
    free(c.len);
    free(c.lab);
    s->sym_on = on;
    s->dec_ok = false;
    return i < n ? i : n;
}
