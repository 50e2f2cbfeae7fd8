/* prog.c - evaluating and printing litmus conditions, and the instruction
 * semantics every executor shares (see prog.h). */
#include <stdio.h>

#include "prog.h"

int prog_instr_loc(const prog_instr_t *in, int64_t idx)
{
    if (!in->indexed)
        return in->loc;
    int64_t e = idx + in->idx_off;
    return e >= 0 && e < in->idx_len ? in->loc + (int)e : -1;
}

bool prog_has_indexed(const prog_t *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstr; i++)
            if (p->threads[t].instr[i].indexed)
                return true;
    return false;
}

static bool outside(prog_val_t x, prog_val_t lo, prog_val_t hi)
{
    return x < lo || x > hi;
}

bool prog_value_outside(const prog_t *p, prog_val_t lo, prog_val_t hi, prog_val_t *v, int *line,
                        int *col)
{
    for (int l = 0; l < p->nlocs; l++)
        if (outside(p->locs[l].init, lo, hi)) {
            *v = p->locs[l].init;
            *line = p->locs[l].init_line;
            *col = p->locs[l].init_col;
            return true;
        }
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstr; i++) {
            const prog_instr_t *in = &p->threads[t].instr[i];
            const prog_operand_t *o = NULL;
            if (!in->a.is_reg && outside(in->a.v, lo, hi))
                o = &in->a;
            else if (!in->b.is_reg && outside(in->b.v, lo, hi))
                o = &in->b;
            if (o) {
                *v = o->v;
                *line = in->line;
                *col = in->col;
                return true;
            }
        }
    return false;
}

bool prog_has_kernel_instr(const prog_t *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstr; i++)
            if (p->threads[t].instr[i].indexed || p->threads[t].instr[i].op > PROG_OP_NOP)
                return true;
    return false;
}

bool prog_has_div(const prog_t *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstr; i++)
            if (p->threads[t].instr[i].op == PROG_OP_DIV ||
                p->threads[t].instr[i].op == PROG_OP_REM)
                return true;
    return false;
}

bool prog_has_join(const prog_t *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstr; i++)
            if (p->threads[t].instr[i].op == PROG_OP_JOIN)
                return true;
    return false;
}

bool prog_writes_reg(const prog_instr_t *in)
{
    switch (in->op) {
    case PROG_OP_LD:
    case PROG_OP_RMW:
    case PROG_OP_CAS:
    case PROG_OP_MOV:
    case PROG_OP_ADD:
    case PROG_OP_SUB:
    case PROG_OP_MUL:
    case PROG_OP_DIV:
    case PROG_OP_REM: return true;
    default: return false;
    }
}

bool prog_is_branch(const prog_instr_t *in)
{
    return in->op == PROG_OP_B || in->op == PROG_OP_BEQ || in->op == PROG_OP_BNE ||
           in->op == PROG_OP_BLT || in->op == PROG_OP_BGE;
}

bool prog_branch_taken(const prog_instr_t *in, int64_t r, int64_t a)
{
    switch (in->op) {
    case PROG_OP_B: return true;
    case PROG_OP_BEQ: return r == a;
    case PROG_OP_BNE: return r != a;
    case PROG_OP_BLT: return r < a;
    case PROG_OP_BGE: return r >= a;
    default: return false;
    }
}

int64_t prog_alu(const prog_instr_t *in, int64_t a, int64_t b)
{
    switch (in->op) {
    case PROG_OP_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
    case PROG_OP_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
    case PROG_OP_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case PROG_OP_DIV:
        if (b == 0)
            return 0;
        return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b; /* C truncates toward zero */
    case PROG_OP_REM: return b == 0 || b == -1 ? 0 : a % b;
    default: return a;
    }
}

bool prog_alu_faults(const prog_instr_t *in, int64_t b)
{
    return (in->op == PROG_OP_DIV || in->op == PROG_OP_REM) && b == 0;
}

bool prog_cond_eval(const prog_cond_t *c, const prog_val_t (*regs)[PROG_MAX_REGS],
                    const prog_val_t *mem)
{
    switch (c->kind) {
    case PROG_COND_TRUE: return true;
    case PROG_COND_FALSE: return false;
    case PROG_COND_REG: return regs[c->thread][c->reg] == c->val;
    case PROG_COND_LOC: return mem[c->loc] == c->val;
    case PROG_COND_AND: return prog_cond_eval(c->a, regs, mem) && prog_cond_eval(c->b, regs, mem);
    case PROG_COND_OR: return prog_cond_eval(c->a, regs, mem) || prog_cond_eval(c->b, regs, mem);
    case PROG_COND_NOT: return !prog_cond_eval(c->a, regs, mem);
    }
    return false;
}

const char *prog_reg_name(const prog_t *p, int t, int r, char *buf, size_t n)
{
    if (t >= 0 && t < p->nthreads && r >= 0 && r < PROG_MAX_REGS && p->threads[t].regname[r])
        return p->threads[t].regname[r];
    snprintf(buf, n, "r%d", r);
    return buf;
}

static void fmt(const prog_t *p, const prog_cond_t *c, strbuf_t *out, int prec)
{
    switch (c->kind) {
    case PROG_COND_TRUE: sb_puts(out, "true"); break;
    case PROG_COND_FALSE: sb_puts(out, "false"); break;
    case PROG_COND_REG: {
        char rn[64];
        sb_printf(out, "%d:%s=%lld", c->thread, prog_reg_name(p, c->thread, c->reg, rn, sizeof rn),
                  (long long)c->val);
        break;
    }
    case PROG_COND_LOC: sb_printf(out, "%s=%lld", p->locs[c->loc].name, (long long)c->val); break;
    case PROG_COND_NOT:
        sb_puts(out, "~");
        fmt(p, c->a, out, 3);
        break;
    case PROG_COND_AND:
    case PROG_COND_OR: {
        int my = c->kind == PROG_COND_AND ? 2 : 1;
        if (prec > my)
            sb_putc(out, '(');
        fmt(p, c->a, out, my);
        sb_puts(out, c->kind == PROG_COND_AND ? " /\\ " : " \\/ ");
        fmt(p, c->b, out, my + 1);
        if (prec > my)
            sb_putc(out, ')');
        break;
    }
    }
}

void prog_cond_format(const prog_t *p, strbuf_t *out)
{
    static const char *const q[] = {"exists", "~exists", "forall"};
    sb_printf(out, "%s (", q[p->quant]);
    fmt(p, p->cond, out, 0);
    sb_putc(out, ')');
}
