/* rows_impl.h - the evaluator's body for one slot type; included by rows.c with
 * ROWS_SLOT, ROWS_VAL (an expression's value: int64_t, or a 128-bit integer where
 * nodesets hold 128 compute units), ROWS_VMAX (largest data or counter value),
 * ROWS_SETBITS (bits of a nodeset or mask) and ROWS(name) defined. Moved from sys.c
 * unchanged in meaning. Set bits are shifted unsigned (ROWS_UVAL), never into a sign
 * bit. */

/* The number of elements in set A (its low ROWS_SETBITS bits). */
static int ROWS(popcount)(ROWS_VAL a)
{
    ROWS_UVAL u = (ROWS_UVAL)a;
    int n = 0;
    for (int k = 0; k < ROWS_SETBITS; k += 64)
        n += __builtin_popcountll(
            (uint64_t)(u >> k) &
            (ROWS_SETBITS - k >= 64 ? UINT64_MAX : ((uint64_t)1 << (ROWS_SETBITS - k)) - 1));
    return n;
}

int ROWS(fail)(ROWS(ctx_t) * x, sys_err_kind_t k, const char *fmt, const char *a, const char *b)
{
    if (x->err->kind == SYS_ERR_NONE) {
        x->err->kind = k;
        snprintf(x->err->msg, sizeof x->err->msg, fmt, a, b);
    }
    return -1;
}

/* Slot pointer of a data-typed (or any) variable expression; NULL if not addressable. */
static ROWS_SLOT *ROWS(var_ptr)(ROWS(ctx_t) * x, const proto_expr_t *e)
{
    const rows_layout_t *L = x->L;
    int c = L->inst_ctrl[x->inst];
    switch (e->kind) {
    case PROTO_E_LINEVAR: return x->lrec ? x->lrec + L->lv_off[c][e->index] : NULL;
    case PROTO_E_CTRLVAR: return x->cvars + L->cv_off[c][e->index];
    case PROTO_E_MSGF:
        return x->msg ? (ROWS_SLOT *)x->msg + 2 + L->msg_foff[x->msg[0]][e->index] : NULL;
    default: return NULL;
    }
}

static inline ROWS_VAL ROWS(req_field)(ROWS(ctx_t) * x, int f)
{
    const prog_instr_t *in = x->instr;
    const ROWS_SLOT *regs = x->regs;
#define OPV(o) ((o).is_reg ? regs[(o).v] : (int64_t)(o).v)
    switch (f) {
    case PROTO_REQ_LOC: return prog_instr_loc(in, in->indexed ? regs[in->idx_reg] : 0);
    case PROTO_REQ_VAL: return in->op == PROG_OP_CAS ? OPV(in->b) : OPV(in->a);
    case PROTO_REQ_EXP: return in->op == PROG_OP_CAS ? OPV(in->a) : 0;
    case PROTO_REQ_OP:
        return in->op == PROG_OP_CAS                               ? 2
               : in->op == PROG_OP_RMW && in->rmw == PROG_RMW_EXCH ? 1
                                                                   : 0;
    case PROTO_REQ_ORD: return in->ord;
    case PROTO_REQ_SCOPE: return in->scope;
    case PROTO_REQ_TID: return x->tid;
    }
#undef OPV
    return 0;
}

/* Element TID of per-thread controller variable V of this instance. */
static ROWS_SLOT *ROWS(telem_ptr)(ROWS(ctx_t) * x, int v, ROWS_VAL tid)
{
    const rows_layout_t *L = x->L;
    int ci = L->inst_ctrl[x->inst], cu = L->inst_cu[x->inst];
    if (tid < 0 || tid >= L->nthreads || (cu >= 0 && L->prog->threads[tid].cu != cu)) {
        ROWS(fail)
        (x, SYS_ERR_INVARIANT, "per-thread variable %s indexed by a thread not on this %s",
         L->p->ctrls[ci].ctrlvars[v].name, "compute unit");
        return NULL;
    }
    return x->cvars + L->cv_off[ci][v] + tid;
}

/* ROWS(eval) with its leaves (a constant, a line or controller variable, a message
 * field, self, the line, msg.src, a request field) read without a call: the values and
 * errors are eval's. */
static inline int ROWS(eval_q)(ROWS(ctx_t) * x, const proto_expr_t *e, ROWS_VAL *v)
{
    const rows_layout_t *L = x->L;
    switch (e->kind) {
    case PROTO_E_INT: *v = e->index; return 0;
    case PROTO_E_LINEVAR:
        if (!x->lrec)
            break;
        *v = x->lrec[L->lv_off[L->inst_ctrl[x->inst]][e->index]];
        return 0;
    case PROTO_E_CTRLVAR: *v = x->cvars[L->cv_off[L->inst_ctrl[x->inst]][e->index]]; return 0;
    case PROTO_E_MSGF:
        if (!x->msg)
            break;
        *v = x->msg[2 + L->msg_foff[x->msg[0]][e->index]];
        return 0;
    case PROTO_E_SELF: *v = x->inst; return 0;
    case PROTO_E_LINE: *v = x->line; return 0;
    case PROTO_E_MSGSRC: *v = x->msg_src; return 0;
    case PROTO_E_REQF:
        if (!x->instr)
            break;
        *v = ROWS(req_field)(x, e->index);
        return 0;
    default: break;
    }
    return ROWS(eval)(x, e, v);
}

static int ROWS(line_of_loc)(ROWS(ctx_t) * x, ROWS_VAL loc, int *pos)
{
    if (loc < 0 || loc >= x->L->prog->nlocs)
        return ROWS(fail)(x, SYS_ERR_INVARIANT, "location index out of range%s%s", "", "");
    *pos = x->L->locpos[loc];
    return x->L->loc_line[loc];
}

static int ROWS(eval_index)(ROWS(ctx_t) * x, const proto_expr_t *e, ROWS_VAL *v)
{
    ROWS_VAL loc;
    if (ROWS(eval_q)(x, e->b, &loc))
        return -1;
    int pos;
    if (ROWS(line_of_loc)(x, loc, &pos) < 0)
        return -1;
    ROWS_SLOT *p = ROWS(var_ptr)(x, e->a);
    if (!p)
        return ROWS(fail)(x, SYS_ERR_INVARIANT, "data indexed outside a line context%s%s", "", "");
    *v = p[pos];
    return 0;
}

static ROWS_VAL ROWS(apply_rmw)(ROWS_VAL op, ROWS_VAL old, ROWS_VAL val, ROWS_VAL exp)
{
    switch (op) {
    case 0: return old + val;
    case 1: return val;
    default: return old == exp ? val : old;
    }
}

/* The bit of element V in a set of kind KIND (nodeset: a node's compute
 * unit; mask: a location's position in the current line). *BIT is -1 for a
 * node that no nodeset can hold (a shared controller's). */
static int ROWS(set_bit)(ROWS(ctx_t) * x, proto_type_kind_t kind, ROWS_VAL v, int *bit)
{
    const rows_layout_t *L = x->L;
    if (kind == PROTO_T_NODESET) {
        if (v < 0 || v >= L->ninst)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "a node that does not exist in a nodeset%s%s",
                              "", "");
        *bit = L->inst_cu[v];
        if (*bit >= ROWS_SETBITS)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "nodesets hold at most %s compute units%s",
                              ROWS_SETBITS_S, "");
        return 0;
    }
    int pos;
    if (ROWS(line_of_loc)(x, v, &pos) < 0)
        return -1;
    if (x->line < 0 || L->loc_line[v] != x->line)
        return ROWS(fail)(x, SYS_ERR_INVARIANT, "a mask holds locations of its own line only%s%s",
                          "", "");
    if (pos >= ROWS_SETBITS)
        return ROWS(fail)(x, SYS_ERR_INVARIANT, "masks hold at most %s locations per line%s",
                          ROWS_SETBITS_S, "");
    *bit = pos;
    return 0;
}

/* The data value E names (a data variable or field, or merge(...) computed
 * into BUF, which holds maxlocs slots); NULL with an error when it has none. */
static const ROWS_SLOT *ROWS(data_of)(ROWS(ctx_t) * x, const proto_expr_t *e, ROWS_SLOT *buf)
{
    if (e->kind != PROTO_E_MERGE)
        return ROWS(var_ptr)(x, e);
    const ROWS_SLOT *a = ROWS(var_ptr)(x, e->a), *b = ROWS(var_ptr)(x, e->b);
    ROWS_VAL m;
    if (!a || !b || ROWS(eval_q)(x, e->c, &m))
        return NULL;
    for (int k = 0; k < x->L->maxlocs; k++)
        buf[k] = (ROWS_UVAL)m >> k & 1 ? b[k] : a[k];
    return buf;
}

int ROWS(eval)(ROWS(ctx_t) * x, const proto_expr_t *e, ROWS_VAL *v)
{
    const rows_layout_t *L = x->L;
    ROWS_VAL a, b, c, d;
    int bit;
    switch (e->kind) {
    case PROTO_E_NONE: *v = 0; return 0;
    case PROTO_E_IN:
        if (ROWS(eval_q)(x, e->a, &a) || ROWS(eval_q)(x, e->b, &b) ||
            ROWS(set_bit)(x, e->b->type.kind, a, &bit))
            return -1;
        *v = bit >= 0 && ((ROWS_UVAL)b >> bit & 1);
        return 0;
    case PROTO_E_SETOP:
        if (ROWS(eval_q)(x, e->a, &a) || ROWS(eval_q)(x, e->b, &b) ||
            ROWS(set_bit)(x, e->type.kind, b, &bit))
            return -1;
        if (bit < 0)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "a nodeset holds per-cu instances only%s%s", "",
                              "");
        *v = e->op == '+' ? (ROWS_VAL)((ROWS_UVAL)a | (ROWS_UVAL)1 << bit)
                          : (ROWS_VAL)((ROWS_UVAL)a & ~((ROWS_UVAL)1 << bit));
        return 0;
    case PROTO_E_SIZE:
        if (ROWS(eval_q)(x, e->a, &a))
            return -1;
        *v = ROWS(popcount)(a);
        return 0;
    case PROTO_E_MERGE:
        return ROWS(fail)(x, SYS_ERR_INVARIANT, "merge() is data, not a value%s%s", "", "");
    case PROTO_E_INT: *v = e->index; return 0;
    case PROTO_E_PARAM:
        *v = x->param ? x->param(x, e->index) : L->p->params[e->index].value;
        return 0;
    case PROTO_E_LINEVAR:
    case PROTO_E_CTRLVAR:
    case PROTO_E_MSGF: {
        ROWS_SLOT *p = ROWS(var_ptr)(x, e);
        if (!p)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "variable used outside its context%s%s", "",
                              "");
        *v = *p;
        return 0;
    }
    case PROTO_E_INDEX: return ROWS(eval_index)(x, e, v);
    case PROTO_E_MSGSRC: *v = x->msg_src; return 0;
    case PROTO_E_REQF:
        if (!x->instr)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "req used outside a core event%s%s", "", "");
        *v = ROWS(req_field)(x, e->index);
        return 0;
    case PROTO_E_SELF: *v = x->inst; return 0;
    case PROTO_E_LINE: *v = x->line; return 0;
    case PROTO_E_NOT:
        if (ROWS(eval_q)(x, e->a, &a))
            return -1;
        *v = !a;
        return 0;
    case PROTO_E_NEG:
        if (ROWS(eval_q)(x, e->a, &a))
            return -1;
        *v = -a;
        return 0;
    case PROTO_E_BIN:
        if (ROWS(eval_q)(x, e->a, &a))
            return -1;
        if (e->op == '&' && !a) {
            *v = 0;
            return 0;
        }
        if (e->op == '|' && a) {
            *v = 1;
            return 0;
        }
        if (ROWS(eval_q)(x, e->b, &b))
            return -1;
        switch (e->op) {
        case '+': *v = a + b; break;
        case '-': *v = a - b; break;
        case '<': *v = a < b; break;
        case 'l': *v = a <= b; break;
        case '>': *v = a > b; break;
        case 'g': *v = a >= b; break;
        case '=': *v = a == b; break;
        case '!': *v = a != b; break;
        case '&': *v = b != 0; break;
        case '|': *v = b != 0; break;
        default: return ROWS(fail)(x, SYS_ERR_INVARIANT, "bad operator%s%s", "", "");
        }
        return 0;
    case PROTO_E_MAX:
    case PROTO_E_MIN:
        if (ROWS(eval_q)(x, e->a, &a) || ROWS(eval_q)(x, e->b, &b))
            return -1;
        *v = (e->kind == PROTO_E_MAX) == (a > b) ? a : b;
        return 0;
    case PROTO_E_COUNT: {
        if (x->line < 0)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "count() needs a line context%s%s", "", "");
        int n = 0;
        for (int i = 0; i < L->ninst; i++) {
            if (L->inst_ctrl[i] != e->index)
                continue;
            const ROWS_SLOT *r = x->ops->line(x, i, x->line);
            int st = r ? r[0] : L->p->ctrls[e->index].init_state;
            n += (int)(e->states >> st & 1);
        }
        *v = n;
        return 0;
    }
    case PROTO_E_APPLY:
        if (ROWS(eval_q)(x, e->a, &a) || ROWS(eval_q)(x, e->b, &b) || ROWS(eval_q)(x, e->c, &c) ||
            ROWS(eval_q)(x, e->d, &d))
            return -1;
        *v = ROWS(apply_rmw)(a, b, c, d);
        return 0;
    case PROTO_E_CLOCK: *v = x->clock; return 0;
    case PROTO_E_TELEM: {
        ROWS_SLOT *p;
        if (ROWS(eval_q)(x, e->b, &a) || !(p = ROWS(telem_ptr)(x, e->a->index, a)))
            return -1;
        *v = *p;
        return 0;
    }
    }
    return ROWS(fail)(x, SYS_ERR_INVARIANT, "unknown expression%s%s", "", "");
}

static inline int ROWS(check_range)(ROWS(ctx_t) * x, const proto_type_t *ty, ROWS_VAL v,
                                    const char *name)
{
    ROWS_VAL lo = -ROWS_VMAX, hi = ROWS_VMAX;
    if (ty->kind == PROTO_T_INT) {
        lo = ty->lo;
        hi = ty->ncus ? x->L->ncus : proto_type_hi(ty, x->L->nthreads);
    } else if (ty->kind == PROTO_T_BOOL) {
        lo = 0;
        hi = 1;
    } else if (ty->kind == PROTO_T_NODESET || ty->kind == PROTO_T_MASK) {
        if (ROWS_SETBITS > 62)
            return 0; /* a wide slot: every bit pattern is a set */
        lo = 0;
        hi = ((ROWS_VAL)1 << (ROWS_SETBITS % 63)) - 1;
    }
    if (v < lo || v > hi)
        return ROWS(fail)(x, SYS_ERR_INVARIANT, "variable %s out of its range%s", name, "");
    return 0;
}

static int ROWS(do_send)(ROWS(ctx_t) * x, const proto_action_t *a)
{
    const rows_layout_t *L = x->L;
    const proto_msg_t *m = &L->p->msgs[a->msg];
    ROWS_SLOT rec[256];
    memset(rec, 0, sizeof(ROWS_SLOT) * (size_t)L->mw);
    rec[0] = (ROWS_SLOT)a->msg;
    rec[1] = (ROWS_SLOT)(m->noline ? -1 : x->line);
    for (int f = 0; f < m->nfields; f++) {
        const proto_expr_t *fe = a->fields[f];
        if (!fe)
            continue;
        ROWS_SLOT *dst = rec + 2 + L->msg_foff[a->msg][f];
        if (m->fields[f].type.kind == PROTO_T_DATA) {
            ROWS_SLOT buf[256];
            const ROWS_SLOT *src = ROWS(data_of)(x, fe, buf);
            if (!src)
                return ROWS(fail)(x, SYS_ERR_INVARIANT,
                                  "message %s: data field needs a data variable%s", m->name, "");
            memcpy(dst, src, sizeof(ROWS_SLOT) * (size_t)L->maxlocs);
        } else {
            ROWS_VAL v;
            if (ROWS(eval_q)(x, fe, &v) ||
                ROWS(check_range)(x, &m->fields[f].type, v, m->fields[f].name))
                return -1;
            *dst = (ROWS_SLOT)v;
        }
    }
    int dsts[256], nd = 0;
    int cu = L->inst_cu[x->inst];
    /* The destination controller's instances, in order: from the layout's list where it
       has one, else every instance (the same order either way). */
    const int *ci = L->ctrl_insts && a->dest_ctrl >= 0 && a->dest_ctrl < L->p->nctrls
                        ? L->ctrl_insts[a->dest_ctrl]
                        : NULL;
    switch (a->dest) {
    case PROTO_DEST_SHARED:
    case PROTO_DEST_SAMECU:
    case PROTO_DEST_ALL:
        if (ci) {
            for (; *ci >= 0 && nd < 256; ci++)
                if (a->dest != PROTO_DEST_SAMECU || L->inst_cu[*ci] == cu)
                    dsts[nd++] = *ci;
            break;
        }
        for (int i = 0; i < L->ninst && nd < 256; i++)
            if (L->inst_ctrl[i] == a->dest_ctrl &&
                (a->dest != PROTO_DEST_SAMECU || L->inst_cu[i] == cu))
                dsts[nd++] = i;
        break;
    case PROTO_DEST_SRC:
        if (x->msg_src < 0)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "reply to msg.src outside a message row%s%s",
                              "", "");
        dsts[nd++] = x->msg_src;
        break;
    case PROTO_DEST_EACH: {
        ROWS_VAL set;
        if (ROWS(eval_q)(x, a->dest_node, &set))
            return -1;
        if (ci) {
            for (; *ci >= 0 && nd < 256; ci++)
                if (L->inst_cu[*ci] >= 0 && L->inst_cu[*ci] < ROWS_SETBITS &&
                    ((ROWS_UVAL)set >> L->inst_cu[*ci] & 1))
                    dsts[nd++] = *ci;
            break;
        }
        for (int i = 0; i < L->ninst && nd < 256; i++)
            if (L->inst_ctrl[i] == a->dest_ctrl && L->inst_cu[i] >= 0 &&
                L->inst_cu[i] < ROWS_SETBITS && ((ROWS_UVAL)set >> L->inst_cu[i] & 1))
                dsts[nd++] = i;
        break;
    }
    case PROTO_DEST_NODE: {
        ROWS_VAL v;
        if (ROWS(eval_q)(x, a->dest_node, &v))
            return -1;
        if (v < 0 || v >= L->ninst)
            return ROWS(fail)(x, SYS_ERR_INVARIANT,
                              "message %s sent to a node that does not exist%s", m->name, "");
        dsts[nd++] = (int)v;
        break;
    }
    }
    for (int k = 0; k < nd; k++) {
        int rc = x->ops->send(x, m->net, dsts[k], rec);
        if (rc)
            return rc;
    }
    return 0;
}

static int ROWS(do_assign)(ROWS(ctx_t) * x, const proto_action_t *a)
{
    const rows_layout_t *L = x->L;
    int c = L->inst_ctrl[x->inst];
    const proto_var_t *var =
        a->line_var ? &L->p->ctrls[c].linevars[a->var] : &L->p->ctrls[c].ctrlvars[a->var];
    ROWS_SLOT *p;
    if (a->line_var) {
        if (!x->lrec)
            return ROWS(fail)(x, SYS_ERR_INVARIANT,
                              "line variable %s assigned outside a line row%s", var->name, "");
        p = x->lrec + L->lv_off[c][a->var];
    } else if (var->per_thread) {
        ROWS_VAL tid;
        if (ROWS(eval_q)(x, a->index, &tid) || !(p = ROWS(telem_ptr)(x, a->var, tid)))
            return -1;
    } else {
        p = x->cvars + L->cv_off[c][a->var];
    }
    if (a->index && !var->per_thread) {
        ROWS_VAL loc, v;
        int pos;
        if (ROWS(eval_q)(x, a->index, &loc) || ROWS(line_of_loc)(x, loc, &pos) < 0 ||
            ROWS(eval_q)(x, a->value, &v))
            return -1;
        if (v > ROWS_VMAX || v < -ROWS_VMAX)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "value written to %s out of range%s", var->name,
                              "");
        p[pos] = (ROWS_SLOT)v;
        return 0;
    }
    if (var->type.kind == PROTO_T_DATA) {
        ROWS_SLOT buf[256];
        const ROWS_SLOT *src = ROWS(data_of)(x, a->value, buf);
        if (!src)
            return ROWS(fail)(x, SYS_ERR_INVARIANT, "data assignment to %s needs a data variable%s",
                              var->name, "");
        memmove(p, src, sizeof(ROWS_SLOT) * (size_t)L->maxlocs);
        return 0;
    }
    ROWS_VAL v;
    if (ROWS(eval_q)(x, a->value, &v) || ROWS(check_range)(x, &var->type, v, var->name))
        return -1;
    *p = (ROWS_SLOT)v;
    return 0;
}

int ROWS(run_actions)(ROWS(ctx_t) * x, const proto_row_t *row)
{
    for (int i = 0; i < row->nactions; i++) {
        const proto_action_t *a = &row->actions[i];
        ROWS_VAL tid, v = 0;
        switch (a->kind) {
        case PROTO_A_ASSIGN:
            if (ROWS(do_assign)(x, a))
                return -1;
            break;
        case PROTO_A_SEND: {
            int rc = ROWS(do_send)(x, a);
            if (rc)
                return rc;
            break;
        }
        case PROTO_A_DONE:
            if (a->dval && ROWS(eval_q)(x, a->dval, &v))
                return -1;
            if (a->tid) {
                if (ROWS(eval_q)(x, a->tid, &tid) || x->ops->done(x, tid, a->dval != NULL, v))
                    return -1;
            } else {
                x->did_done = true;
                if (a->dval) {
                    const prog_instr_t *in = x->instr;
                    if (in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS)
                        x->regs[in->reg] = (ROWS_SLOT)v;
                }
            }
            break;
        case PROTO_A_WAIT: x->did_wait = true; break;
        case PROTO_A_FORALL: x->ops->forall(x, a->from, a->to); break;
        }
    }
    if (row->next >= 0 && x->lrec)
        x->lrec[0] = (ROWS_SLOT)row->next;
    return 0;
}

int ROWS(find_row)(ROWS(ctx_t) * x, int event, const proto_row_t **out)
{
    const rows_layout_t *L = x->L;
    int ci = L->inst_ctrl[x->inst];
    const proto_ctrl_t *c = &L->p->ctrls[ci];
    int st = x->lrec ? x->lrec[0] : -1;
    *out = NULL;
    for (const int *rp = L->ev_rows[ci * L->p->nevents + event]; *rp >= 0; rp++) {
        const proto_row_t *row = &c->rows[*rp];
        if (st >= 0 ? !(row->states >> st & 1) : row->states != 0)
            continue;
        if (row->guard) {
            ROWS_VAL g;
            if (ROWS(eval)(x, row->guard, &g))
                return -1;
            if (!g)
                continue;
        }
        *out = row;
        return 0;
    }
    return 0;
}
