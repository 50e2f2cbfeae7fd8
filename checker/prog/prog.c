/* prog.c - evaluating and printing litmus conditions (see prog.h). */
#include <stdio.h>

#include "prog.h"

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
