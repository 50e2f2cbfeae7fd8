/* prog_c.c - herd7's C dialect (and its OpenCL flavour) as litmus input, and
 * our tests written back in it (docs/litmus.md, "herd7 C files").
 *
 * Reading: a C test is translated into the native format, which the native
 * parser then reads, so both formats mean exactly the same thing. Every
 * construct outside the subset is an error at its FILE:LINE:COL; an error the
 * native parser finds in the translation is reported at the C line the
 * offending row came from. Writing: structured forward branches become `if`
 * blocks; tests with loops, remote scope or CU placement have no C form. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "prog.h"

/* ---- tokens ---- */

enum { C_EOF, C_ID, C_NUM, C_STR, C_PUNCT };

typedef struct {
    int kind;
    const char *s;
    size_t n;
    int line, col;
} ctok_t;

typedef struct {
    const char *file, *src;
    size_t len;
    ctok_t *t;
    size_t nt, cap, i;
    diag_t *err;
    bool failed;
    /* output */
    strbuf_t out;
    int *map; /* per native line (1-based): the C line */
    size_t nmap, capmap;
    int outline;
} cp_t;

static int fail_at(cp_t *c, int line, int col, const char *fmt, const char *arg)
{
    if (!c->failed) {
        char msg[200];
        snprintf(msg, sizeof msg, fmt, arg);
        diag_set(c->err, c->file, line, col, "%s", msg);
    }
    c->failed = true;
    return -1;
}

static int fail_tok(cp_t *c, const ctok_t *t, const char *fmt)
{
    char what[48];
    if (t->kind == C_EOF)
        snprintf(what, sizeof what, "end of file");
    else
        snprintf(what, sizeof what, "'%.*s'", (int)(t->n > 32 ? 32 : t->n), t->s);
    return fail_at(c, t->line, t->col, fmt, what);
}

static int tokenize(cp_t *c, size_t off, int line, int col)
{
    const char *s = c->src;
    size_t n = c->len;
    int depth = 0; /* braces open: inside a thread's code, herd's C lexer has no (* *) */
    while (off < n) {
        char ch = s[off];
        if (ch == '\n') {
            off++;
            line++;
            col = 1;
            continue;
        }
        if (isspace((unsigned char)ch)) {
            off++;
            col++;
            continue;
        }
        /* Comments: C's two kinds, and herd's (* ... *) outside braces (in a thread's
         * code, as in herd7's C lexer, `(*x)` is a dereference). */
        if (ch == '/' && off + 1 < n && s[off + 1] == '/') {
            while (off < n && s[off] != '\n')
                off++;
            continue;
        }
        if ((ch == '/' || (ch == '(' && depth == 0)) && off + 1 < n && s[off + 1] == '*') {
            char close = ch == '/' ? '/' : ')';
            int l0 = line, c0 = col;
            off += 2;
            col += 2;
            while (off + 1 < n && !(s[off] == '*' && s[off + 1] == close)) {
                if (s[off] == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
                off++;
            }
            if (off + 1 >= n)
                return fail_at(c, l0, c0, "unterminated comment%s", "");
            off += 2;
            col += 2;
            continue;
        }
        ctok_t t = {C_PUNCT, s + off, 1, line, col};
        if (isalpha((unsigned char)ch) || ch == '_') {
            t.kind = C_ID;
            while (off + t.n < n && (isalnum((unsigned char)s[off + t.n]) || s[off + t.n] == '_'))
                t.n++;
        } else if (isdigit((unsigned char)ch)) {
            t.kind = C_NUM;
            while (off + t.n < n && isalnum((unsigned char)s[off + t.n]))
                t.n++;
        } else if (ch == '"') {
            t.kind = C_STR;
            while (off + t.n < n && s[off + t.n] != '"' && s[off + t.n] != '\n')
                t.n++;
            if (off + t.n >= n || s[off + t.n] != '"')
                return fail_at(c, line, col, "unterminated string%s", "");
            t.n++;
        } else if (off + 1 < n &&
                   ((ch == '=' && s[off + 1] == '=') || (ch == '!' && s[off + 1] == '=') ||
                    (ch == '/' && s[off + 1] == '\\') || (ch == '\\' && s[off + 1] == '/') ||
                    (ch == '&' && s[off + 1] == '&') || (ch == '|' && s[off + 1] == '|'))) {
            t.n = 2;
        } else if (ch == '^') {
            return fail_at(c, line, col, "not supported: the operator %s (only '+' is)", "'^'");
        } else if (!strchr("(){}[];,=*&:@~+-!<>.|", ch) || !ch) {
            char what[16];
            snprintf(what, sizeof what, isprint((unsigned char)ch) ? "'%c'" : "byte 0x%02x",
                     (unsigned char)ch);
            return fail_at(c, line, col, "unexpected %s", what);
        }
        if (t.kind == C_PUNCT && (ch == '{' || ch == '}'))
            depth += ch == '{' ? 1 : (depth > 0 ? -1 : 0);
        UTIL_PUSH(c->t, c->nt, c->cap, t);
        off += t.n;
        col += (int)t.n;
    }
    ctok_t e = {C_EOF, s + n, 0, line, col};
    UTIL_PUSH(c->t, c->nt, c->cap, e);
    return 0;
}

static const ctok_t *peek(const cp_t *c)
{
    return &c->t[c->i];
}
static const ctok_t *peek2(const cp_t *c)
{
    return &c->t[c->i + 1 < c->nt ? c->i + 1 : c->i];
}
static bool is(const ctok_t *t, const char *s)
{
    return t->kind != C_EOF && t->n == strlen(s) && !memcmp(t->s, s, t->n);
}
static const ctok_t *next(cp_t *c)
{
    const ctok_t *t = &c->t[c->i];
    if (c->i + 1 < c->nt)
        c->i++;
    return t;
}
static int expect(cp_t *c, const char *s, const char *what)
{
    if (!is(peek(c), s))
        return fail_tok(c, peek(c), what);
    next(c);
    return 0;
}

/* ---- the test being read ---- */

#define MAXT PROG_MAX_THREADS
#define MAXLOC 64

#define C_NAME_MAX 256 /* longest C name read (the writer refuses longer locations) */
typedef struct {
    char name[C_NAME_MAX];
    int line, col;
} cname_t;

typedef struct {
    int wg;
    bool placed;
    cname_t regs[PROG_MAX_REGS]; /* C register names, by index */
    int nregs;
    bool known[PROG_MAX_REGS]; /* a constant value is known (straight-line code) */
    long long val[PROG_MAX_REGS];
    /* instructions: one native cell each, with its C line */
    char **ins;
    int *line;
    size_t n, cap, capl;
    int labels;
} cthread_t;

typedef struct {
    cp_t *c;
    bool opencl;
    cthread_t th[MAXT];
    int nth;
    cname_t locs[MAXLOC];
    prog_val_t init[MAXLOC];
    int nlocs;
    int writes[MAXLOC];           /* stores, RMWs and compare-exchanges to each location */
    const ctok_t *casexp[MAXLOC]; /* the compare-exchange using it as its expected value */
    bool close_neg;               /* the condition's next value closes a '~(' */
} ctest_t;

static void tok_name(const ctok_t *t, char *buf, size_t n)
{
    snprintf(buf, n, "%.*s", (int)t->n, t->s);
}

/* A number token's value (tokens are not NUL-terminated: copy first); -1 if too long. */
static long tok_long(const ctok_t *t)
{
    char tmp[24];
    if (t->n >= sizeof tmp)
        return -1;
    tok_name(t, tmp, sizeof tmp);
    return strtol(tmp, NULL, 10);
}

/* An integer literal as herd7 reads one: [-]DIGITS or [-]0xHEX, any 64-bit signed
 * value (herd7 7.58 itself stops at 32 bits; docs/litmus.md "herd7's C dialect").
 * Reads the optional '-' and the number; *V gets the value. WHAT names it in errors. */
static int c_int(cp_t *c, const char *what, prog_val_t *v)
{
    const ctok_t *t = peek(c), *at = t;
    bool neg = is(t, "-");
    if (neg) {
        next(c);
        t = peek(c);
    }
    if (t->kind != C_NUM)
        return fail_tok(
            c, t, neg ? "expected a number after '-', found %s" : "expected a number, found %s");
    char tmp[48];
    bool too_long = t->n + 2 >= sizeof tmp;
    tmp[0] = '-';
    tok_name(t, tmp + 1, sizeof tmp - 1);
    const char *d = neg ? tmp : tmp + 1;
    bool hex = tmp[1] == '0' && (tmp[2] == 'x' || tmp[2] == 'X');
    char *end;
    errno = 0;
    long long x = strtoll(d, &end, hex ? 16 : 10);
    if (!too_long && (*end || end == d || (hex && !tmp[3]))) {
        char m[96];
        snprintf(m, sizeof m, "%s %%s is not an integer", what);
        return fail_tok(c, t, m);
    }
    if (too_long || errno == ERANGE) {
        char m[160];
        snprintf(m, sizeof m, "%s %s%.*s%s does not fit in 64 bits (%lld..%lld)", what,
                 neg ? "-" : "", (int)(t->n > 24 ? 24 : t->n), t->s, t->n > 24 ? "..." : "",
                 (long long)INT64_MIN, (long long)INT64_MAX);
        return fail_at(c, at->line, at->col, "%s", m);
    }
    next(c);
    *v = x;
    return 0;
}

static int find_loc(const ctest_t *x, const ctok_t *t)
{
    for (int i = 0; i < x->nlocs; i++)
        if (strlen(x->locs[i].name) == t->n && !memcmp(x->locs[i].name, t->s, t->n))
            return i;
    return -1;
}

/* Declare location T (a parameter or an initialised variable). */
static int add_loc(ctest_t *x, const ctok_t *t)
{
    int i = find_loc(x, t);
    if (i >= 0)
        return i;
    if (t->n >= sizeof x->locs[0].name)
        return fail_tok(x->c, t, "location name %s is too long");
    /* Native locations are [a-z][a-z0-9_]*. */
    if (!islower((unsigned char)t->s[0]))
        return fail_tok(x->c, t, "location %s: names must start with a lower-case letter");
    for (size_t k = 0; k < t->n; k++)
        if (!islower((unsigned char)t->s[k]) && !isdigit((unsigned char)t->s[k]) && t->s[k] != '_')
            return fail_tok(x->c, t, "location %s: names may hold only a-z, 0-9 and '_'");
    if (x->nlocs >= MAXLOC)
        return fail_tok(x->c, t, "too many locations at %s");
    tok_name(t, x->locs[x->nlocs].name, sizeof x->locs[0].name);
    x->locs[x->nlocs].line = t->line;
    x->locs[x->nlocs].col = t->col;
    return x->nlocs++;
}

/* The register index of C name T in thread TH; DECLARE adds it. -1 (reported) if
 * unknown. A name rN keeps index N when it is free (so outcomes read the same);
 * other names take the highest free index. */
static int reg_of(ctest_t *x, cthread_t *th, const ctok_t *t, bool declare)
{
    for (int i = 0; i < PROG_MAX_REGS; i++)
        if (th->regs[i].name[0] && strlen(th->regs[i].name) == t->n &&
            !memcmp(th->regs[i].name, t->s, t->n))
            return i;
    if (!declare)
        return fail_tok(x->c, t, "%s is not a register of this thread (declare it with 'int')");
    if (t->n >= sizeof th->regs[0].name)
        return fail_tok(x->c, t, "register name %s is too long");
    int want = -1;
    if (t->n >= 2 && t->n <= 3 && t->s[0] == 'r' && isdigit((unsigned char)t->s[1]) &&
        (t->n == 2 || isdigit((unsigned char)t->s[2])))
        want = (int)tok_long(&(ctok_t){C_NUM, t->s + 1, t->n - 1, 0, 0});
    if (want >= PROG_MAX_REGS || (want >= 0 && th->regs[want].name[0]))
        want = -1;
    for (int i = PROG_MAX_REGS - 1; want < 0 && i >= 0; i--)
        if (!th->regs[i].name[0])
            want = i;
    if (want < 0)
        return fail_tok(x->c, t, "too many registers (at most 16 per thread) at %s");
    tok_name(t, th->regs[want].name, sizeof th->regs[0].name);
    th->regs[want].line = t->line;
    th->regs[want].col = t->col;
    th->nregs++;
    return want;
}

/* A scratch register for a result the C code discards. */
static int temp_reg(ctest_t *x, cthread_t *th, const ctok_t *at)
{
    for (int i = PROG_MAX_REGS - 1; i >= 0; i--)
        if (!th->regs[i].name[0]) {
            snprintf(th->regs[i].name, sizeof th->regs[0].name, " tmp%d", i);
            th->nregs++;
            return i;
        }
    return fail_tok(x->c, at, "too many registers (at most 16 per thread) at %s");
}

static void emit(cthread_t *th, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void emit(cthread_t *th, int line, const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = xstrdup(buf);
    size_t n = th->n, n2 = th->n;
    UTIL_PUSH(th->ins, n, th->cap, s);
    UTIL_PUSH(th->line, n2, th->capl, line);
    th->n = n;
}

/* A value: an integer literal (64-bit, signed) or a register. Writes "5" or "r3" to BUF. */
static int value(ctest_t *x, cthread_t *th, char *buf, size_t n)
{
    const ctok_t *t = peek(x->c);
    if (t->kind == C_NUM || (is(t, "-") && t[1].kind == C_NUM)) {
        prog_val_t v;
        if (c_int(x->c, "value", &v))
            return -1;
        snprintf(buf, n, "%lld", (long long)v);
        return 0;
    }
    if (t->kind == C_ID) {
        int r = reg_of(x, th, t, false);
        if (r < 0)
            return -1;
        next(x->c);
        snprintf(buf, n, "r%d", r);
        return 0;
    }
    return fail_tok(x->c, t, "expected a value (an integer or a register), found %s");
}

/* A location argument: x, &x or *x... herd writes x (a pointer parameter). */
static int loc_arg(ctest_t *x)
{
    while (is(peek(x->c), "&") || is(peek(x->c), "*"))
        next(x->c);
    const ctok_t *t = peek(x->c);
    if (t->kind != C_ID)
        return fail_tok(x->c, t, "expected a location, found %s");
    int l = find_loc(x, t);
    if (l < 0)
        return fail_tok(x->c, t, "%s is not a location (a parameter of the thread)");
    next(x->c);
    return l;
}

static const char *const mo_names[] = {"memory_order_relaxed", "memory_order_consume",
                                       "memory_order_acquire", "memory_order_release",
                                       "memory_order_acq_rel", "memory_order_seq_cst"};
static const char *const mo_ours[] = {"rlx", "acq", "acq", "rel", "acqrel", "sc"};

static const char *mem_order(ctest_t *x)
{
    const ctok_t *t = peek(x->c);
    for (size_t i = 0; i < sizeof mo_names / sizeof mo_names[0]; i++)
        if (is(t, mo_names[i])) {
            next(x->c);
            return mo_ours[i];
        }
    fail_tok(x->c, t, "expected a memory_order_... argument, found %s");
    return NULL;
}

/* [, memory_scope_...]: "" when absent (agent, the default of atomics). */
static const char *mem_scope(ctest_t *x)
{
    if (!is(peek(x->c), ","))
        return "";
    next(x->c);
    const ctok_t *t = peek(x->c);
    static const char *const names[] = {"memory_scope_work_group", "memory_scope_device",
                                        "memory_scope_all_svm_devices", "memory_scope_all_devices"};
    static const char *const ours[] = {".wg", ".agent", ".system", ".system"};
    for (int i = 0; i < 4; i++)
        if (is(t, names[i])) {
            next(x->c);
            return ours[i];
        }
    if (is(t, "memory_scope_work_item") || is(t, "memory_scope_sub_group"))
        fail_tok(x->c, t, "scope %s is not supported (wg, device and all_svm_devices are)");
    else
        fail_tok(x->c, t, "expected a memory_scope_... argument, found %s");
    return NULL;
}

/* Checks that ORD is allowed for the operation (a load cannot release, ...). */
static int check_ord(ctest_t *x, const ctok_t *at, const char *ord, const char *op)
{
    bool ok = true;
    if (!strcmp(op, "ld"))
        ok = strcmp(ord, "rel") && strcmp(ord, "acqrel");
    else if (!strcmp(op, "st"))
        ok = strcmp(ord, "acq") && strcmp(ord, "acqrel");
    if (!ok)
        return fail_tok(x->c, at, "this memory order is not allowed on %s");
    return 0;
}

/* Is NAME one of the Linux kernel's memory-model primitives (herd's
 * linux-kernel.def: READ_ONCE, smp_mb, xchg_relaxed, atomic_inc, spin_lock, ...)? */
static bool is_kernel_macro(const char *name)
{
    static const char *const exact[] = {
        "READ_ONCE",        "WRITE_ONCE", "synchronize_rcu",     "synchronize_rcu_expedited",
        "synchronize_srcu", "call_rcu",   "lockless_dereference"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (!strcmp(name, exact[i]))
            return true;
    static const char *const prefix[] = {"smp_", "rcu_", "srcu_", "spin_", "xchg", "cmpxchg"};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
        if (!strncmp(name, prefix[i], strlen(prefix[i])))
            return true;
    if (strncmp(name, "atomic_", 7) != 0)
        return false;
    /* atomic_*: C11's own names (with or without _explicit) are not the kernel's. */
    static const char *const c11[] = {"load",
                                      "store",
                                      "fetch_add",
                                      "fetch_sub",
                                      "fetch_and",
                                      "fetch_or",
                                      "fetch_xor",
                                      "exchange",
                                      "thread_fence",
                                      "signal_fence",
                                      "work_item_fence",
                                      "init",
                                      "is_lock_free",
                                      "compare_exchange_strong",
                                      "compare_exchange_weak"};
    size_t n = strlen(name + 7);
    if (n > 9 && !strcmp(name + 7 + n - 9, "_explicit"))
        n -= 9;
    for (size_t i = 0; i < sizeof c11 / sizeof c11[0]; i++)
        if (strlen(c11[i]) == n && !strncmp(name + 7, c11[i], n))
            return false;
    return strncmp(name + 7, "flag_", 5) != 0;
}

/* compare_exchange(x, e, NEW, mo, mo_fail[, scope]) with E a location, as herd7
 * reads it: a plain read of E, then either an RMW of X from *E to NEW (result 1)
 * or a read of X that differs, whose value is stored to E (result 0). Written
 * natively: ld rE e; cas rO x K NEW; [mov dest 1]; beq rO K; [mov dest 0]; st e rO.
 * K is E's initial value, which rE always reads because no other code writes E
 * (checked at the end: cas_loc_check). The cursor is after "x,". */
static int cas_loc(ctest_t *x, cthread_t *th, const ctok_t *t, int l, int dest, bool explicit_)
{
    cp_t *c = x->c;
    const ctok_t *et = peek(c);
    if (et->kind != C_ID)
        return fail_tok(c, et, "expected the location of the expected value, found %s");
    int e = find_loc(x, et);
    if (e < 0)
        return fail_tok(c, et, "%s is not a location (herd7 passes the expected value's location)");
    if (e == l)
        return fail_tok(c, et, "not supported: %s as both object and expected value");
    if (x->casexp[e])
        return fail_tok(c, et, "not supported: %s is the expected value of two compare-exchanges");
    x->casexp[e] = et;
    next(c);
    char w[32];
    const char *ord = "sc", *scope = "";
    if (expect(c, ",", "expected ',' and the new value, found %s") || value(x, th, w, sizeof w))
        return -1;
    if (explicit_ &&
        (expect(c, ",", "expected ',' and the success order, found %s") || !(ord = mem_order(x)) ||
         expect(c, ",", "expected ',' and the failure order, found %s") || !mem_order(x) ||
         !(scope = mem_scope(x))))
        return -1;
    int re = temp_reg(x, th, t), ro = re < 0 ? -1 : temp_reg(x, th, t);
    if (ro < 0)
        return -1;
    long long k = x->init[e];
    int lab = th->labels++;
    emit(th, t->line, "ld r%d %s", re, x->locs[e].name);
    emit(th, t->line, "cas.%s%s r%d %s %lld %s", ord, scope, ro, x->locs[l].name, k, w);
    if (dest >= 0)
        emit(th, t->line, "mov r%d 1", dest);
    emit(th, t->line, "beq r%d %lld C%d", ro, k, lab);
    if (dest >= 0)
        emit(th, t->line, "mov r%d 0", dest);
    emit(th, t->line, "st %s r%d", x->locs[e].name, ro);
    emit(th, t->line, "C%d:", lab);
    th->known[re] = th->known[ro] = false;
    if (dest >= 0)
        th->known[dest] = false;
    return 0;
}

/* Every location a compare-exchange reads its expected value from is written by
 * nothing else, so that its read returns the initial value (see cas_loc). */
static int cas_loc_check(ctest_t *x)
{
    for (int e = 0; e < x->nlocs; e++)
        if (x->casexp[e] && x->writes[e] > 0)
            return fail_tok(x->c, x->casexp[e],
                            "not supported: %s, a compare-exchange's expected value, is also "
                            "written by other code");
    return 0;
}

/* A call that produces a value into register DEST (-1: discarded).
 * Returns 0, or -1 reported. T is the function name token, already consumed. */
static int call(ctest_t *x, cthread_t *th, const ctok_t *t, int dest)
{
    cp_t *c = x->c;
    char name[64];
    tok_name(t, name, sizeof name);
    bool explicit_ = strstr(name, "_explicit") != NULL;
    if (is_kernel_macro(name))
        return fail_tok(c, t,
                        "Linux-kernel macro %s is not supported (cohcheck has no Linux-kernel "
                        "memory model; docs/litmus.md)");
    if (expect(c, "(", "expected '(' after the function name, found %s"))
        return -1;
    const char *ord = "sc", *scope = "";
    char v[32], w[32];
    int l;
    if (!strcmp(name, "atomic_load_explicit") || !strcmp(name, "atomic_load")) {
        if (dest < 0 && (dest = temp_reg(x, th, t)) < 0)
            return -1;
        if ((l = loc_arg(x)) < 0)
            return -1;
        if (explicit_) {
            if (expect(c, ",", "expected ',' and a memory order, found %s") ||
                !(ord = mem_order(x)) || !(scope = mem_scope(x)) || check_ord(x, t, ord, "ld"))
                return -1;
        }
        emit(th, t->line, "ld.%s%s r%d %s", ord, scope, dest, x->locs[l].name);
    } else if (!strcmp(name, "atomic_store_explicit") || !strcmp(name, "atomic_store")) {
        if (dest >= 0)
            return fail_tok(c, t, "%s returns no value");
        if ((l = loc_arg(x)) < 0 || expect(c, ",", "expected ',' and the value, found %s") ||
            value(x, th, v, sizeof v))
            return -1;
        if (explicit_) {
            if (expect(c, ",", "expected ',' and a memory order, found %s") ||
                !(ord = mem_order(x)) || !(scope = mem_scope(x)) || check_ord(x, t, ord, "st"))
                return -1;
        }
        emit(th, t->line, "st.%s%s %s %s", ord, scope, x->locs[l].name, v);
        x->writes[l]++;
    } else if (!strcmp(name, "atomic_fetch_add_explicit") || !strcmp(name, "atomic_fetch_add") ||
               !strcmp(name, "atomic_exchange_explicit") || !strcmp(name, "atomic_exchange")) {
        bool add = strstr(name, "add") != NULL;
        if (dest < 0 && (dest = temp_reg(x, th, t)) < 0)
            return -1;
        if ((l = loc_arg(x)) < 0 || expect(c, ",", "expected ',' and the operand, found %s") ||
            value(x, th, v, sizeof v))
            return -1;
        if (explicit_ && (expect(c, ",", "expected ',' and a memory order, found %s") ||
                          !(ord = mem_order(x)) || !(scope = mem_scope(x))))
            return -1;
        emit(th, t->line, "rmw.%s.%s%s r%d %s %s", add ? "add" : "exch", ord, scope, dest,
             x->locs[l].name, v);
        x->writes[l]++;
    } else if (!strcmp(name, "atomic_compare_exchange_strong_explicit") ||
               !strcmp(name, "atomic_compare_exchange_strong")) {
        /* (x, &r, NEW, mo_success, mo_failure[, scope]): r ends holding the old value
         * in both cases, as our cas's register does; the failure order is the one our
         * cas derives from the success order. The result (success) is old == expected. */
        if ((l = loc_arg(x)) < 0 ||
            expect(c, ",", "expected ',' and the expected value's location, found %s"))
            return -1;
        x->writes[l]++;
        if (!is(peek(c), "&")) {
            if (cas_loc(x, th, t, l, dest, explicit_))
                return -1;
            return expect(c, ")", "expected ')', found %s");
        }
        next(c);
        const ctok_t *rt = peek(c);
        if (rt->kind != C_ID)
            return fail_tok(c, rt, "expected a register, found %s");
        int r = reg_of(x, th, rt, false);
        if (r < 0)
            return -1;
        next(c);
        if (expect(c, ",", "expected ',' and the new value, found %s") || value(x, th, w, sizeof w))
            return -1;
        if (explicit_) {
            if (expect(c, ",", "expected ',' and the success order, found %s") ||
                !(ord = mem_order(x)) ||
                expect(c, ",", "expected ',' and the failure order, found %s") || !mem_order(x) ||
                !(scope = mem_scope(x)))
                return -1;
        }
        bool known = th->known[r];
        long long expv = th->val[r];
        emit(th, t->line, "cas.%s%s r%d %s r%d %s", ord, scope, r, x->locs[l].name, r, w);
        th->known[r] = false;
        if (dest >= 0) {
            if (!known)
                return fail_tok(c, t,
                                "the result of %s is used, so the expected value must be a "
                                "constant assigned before it");
            int lab = th->labels++;
            emit(th, t->line, "mov r%d 0", dest);
            emit(th, t->line, "bne r%d %lld C%d", r, expv, lab);
            emit(th, t->line, "mov r%d 1", dest);
            emit(th, t->line, "C%d:", lab);
        }
    } else if (!strcmp(name, "atomic_thread_fence") || !strcmp(name, "atomic_work_item_fence")) {
        if (dest >= 0)
            return fail_tok(c, t, "%s returns no value");
        if (!strcmp(name, "atomic_work_item_fence")) {
            /* (flags, order, scope): the flags name address spaces; all are one here. */
            while (peek(c)->kind == C_ID || is(peek(c), "|"))
                next(c);
            if (expect(c, ",", "expected ',' and a memory order, found %s"))
                return -1;
        }
        if (!(ord = mem_order(x)) || !(scope = mem_scope(x)))
            return -1;
        if (strcmp(ord, "rlx") != 0) /* a relaxed fence does nothing */
            emit(th, t->line, "fence.%s%s", ord, scope);
    } else {
        return fail_tok(c, t,
                        "%s is not supported (atomic_load/store/fetch_add/exchange/"
                        "compare_exchange_strong[_explicit], atomic_thread_fence, "
                        "atomic_work_item_fence)");
    }
    if (expect(c, ")", "expected ')', found %s"))
        return -1;
    if (dest >= 0)
        th->known[dest] = false;
    return 0;
}

static int stmt(ctest_t *x, cthread_t *th);
static int rhs(ctest_t *x, cthread_t *th, int r, bool fresh);

/* '{' stmts '}' or one statement. Registers assigned inside lose their known values. */
static int block(ctest_t *x, cthread_t *th)
{
    cp_t *c = x->c;
    bool saved[PROG_MAX_REGS];
    memcpy(saved, th->known, sizeof saved);
    int rc = 0;
    if (is(peek(c), "{")) {
        next(c);
        while (rc == 0 && !is(peek(c), "}")) {
            if (peek(c)->kind == C_EOF)
                return fail_tok(c, peek(c), "expected '}', found %s");
            rc = stmt(x, th);
        }
        if (rc == 0)
            next(c);
    } else {
        rc = stmt(x, th);
    }
    /* Known after the block only if known before and not reassigned inside. */
    for (int r = 0; r < PROG_MAX_REGS; r++)
        th->known[r] = saved[r] && th->known[r];
    return rc;
}

/* if (COND) BLOCK [else BLOCK]: COND is REG ==|!= VAL, VAL ==|!= REG, REG or !REG. */
static int if_stmt(ctest_t *x, cthread_t *th, const ctok_t *kw)
{
    cp_t *c = x->c;
    if (expect(c, "(", "expected '(' after 'if', found %s"))
        return -1;
    bool neg = false;
    if (is(peek(c), "!")) {
        neg = true;
        next(c);
    }
    const ctok_t *a = peek(c);
    int reg = -1;
    long long val = 0;
    bool eq = !neg; /* the branch is taken when reg == val (eq) or reg != val */
    if (a->kind == C_NUM || (is(a, "-") && peek2(c)->kind == C_NUM)) {
        char v[32];
        if (value(x, th, v, sizeof v))
            return -1;
        val = strtoll(v, NULL, 10);
        bool e = is(peek(c), "==");
        if (!e && !is(peek(c), "!="))
            return fail_tok(c, peek(c), "expected '==' or '!=', found %s");
        next(c);
        if (peek(c)->kind != C_ID || (reg = reg_of(x, th, peek(c), false)) < 0)
            return c->failed ? -1 : fail_tok(c, peek(c), "expected a register, found %s");
        next(c);
        eq = e;
    } else if (a->kind == C_ID) {
        if ((reg = reg_of(x, th, a, false)) < 0)
            return -1;
        next(c);
        if (!neg && (is(peek(c), "==") || is(peek(c), "!="))) {
            eq = is(peek(c), "==");
            next(c);
            const ctok_t *b = peek(c);
            if (b->kind != C_NUM && !(is(b, "-") && peek2(c)->kind == C_NUM))
                return fail_tok(c, b, "conditions compare a register with an integer, not %s");
            char v[32];
            if (value(x, th, v, sizeof v))
                return -1;
            val = strtoll(v, NULL, 10);
        } else {
            /* if (r): taken when r != 0; if (!r): when r == 0. */
            val = 0;
            eq = neg;
        }
    } else if (is(a, "*")) {
        /* if (*x), if (!*x): a plain load into a scratch register, tested against 0. */
        next(c);
        int l = loc_arg(x);
        if (l < 0 || (reg = temp_reg(x, th, a)) < 0)
            return -1;
        emit(th, a->line, "ld r%d %s", reg, x->locs[l].name);
        th->known[reg] = false;
        val = 0;
        eq = neg;
    } else {
        return fail_tok(c, a, "expected a register condition, found %s");
    }
    if (expect(c, ")", "expected ')' (conditions are one comparison), found %s"))
        return -1;
    int lab = th->labels++;
    /* Skip the then-block when the condition is false. */
    emit(th, kw->line, "%s r%d %lld E%d", eq ? "bne" : "beq", reg, val, lab);
    if (block(x, th))
        return -1;
    if (is(peek(c), "else")) {
        const ctok_t *e = next(c);
        emit(th, e->line, "b F%d", lab);
        emit(th, e->line, "E%d:", lab);
        if (block(x, th))
            return -1;
        emit(th, e->line, "F%d:", lab);
    } else {
        emit(th, kw->line, "E%d:", lab);
    }
    return 0;
}

static bool is_type_word(const ctok_t *t)
{
    static const char *const w[] = {
        "int",      "atomic_int", "volatile",   "const",       "unsigned", "global",  "__global",
        "local",    "_Atomic",    "intptr_t",   "uint32_t",    "int32_t",  "long",    "bool",
        "_Bool",    "int8_t",     "uint8_t",    "int16_t",     "uint16_t", "int64_t", "uint64_t",
        "__int128", "__uint128",  "__int128_t", "__uint128_t", "signed",   "short",   "char"};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (is(t, w[i]))
            return true;
    return false;
}

static int stmt(ctest_t *x, cthread_t *th)
{
    cp_t *c = x->c;
    const ctok_t *t = peek(c);
    if (is(t, ";")) {
        next(c);
        return 0;
    }
    if (is(t, "{"))
        return block(x, th);
    if (is(t, "if")) {
        next(c);
        return if_stmt(x, th, t);
    }
    if (is(t, "while") || is(t, "for") || is(t, "do") || is(t, "goto") || is(t, "return"))
        return fail_tok(c, t, "%s is not supported: write loops as native tests (docs/litmus.md)");
    /* *x = v; */
    if (is(t, "*")) {
        next(c);
        int l = loc_arg(x);
        char v[32];
        if (l < 0 || expect(c, "=", "expected '=', found %s") || value(x, th, v, sizeof v) ||
            expect(c, ";", "expected ';', found %s"))
            return -1;
        emit(th, t->line, "st %s %s", x->locs[l].name, v);
        x->writes[l]++;
        return 0;
    }
    /* [int] r [= expr]; */
    bool decl = false;
    while (is_type_word(peek(c))) {
        decl = true;
        next(c);
    }
    const ctok_t *id = peek(c);
    if (id->kind != C_ID)
        return fail_tok(c, id, "expected a statement, found %s");
    if (!decl && is(peek2(c), "(")) {
        next(c);
        if (call(x, th, id, -1))
            return -1;
        return expect(c, ";", "expected ';', found %s");
    }
    int before = th->nregs;
    int r = reg_of(x, th, id, decl);
    if (r < 0)
        return -1;
    bool fresh = th->nregs > before; /* a new register holds 0 already */
    next(c);
    if (decl && is(peek(c), ";")) { /* int r; registers start at 0 */
        next(c);
        th->known[r] = true;
        th->val[r] = 0;
        return 0;
    }
    if (expect(c, "=", "expected '=', found %s"))
        return -1;
    int npar = 0; /* r = (*x); r = (f(...)); */
    while (is(peek(c), "(") && (is(peek2(c), "*") || is(peek2(c), "(") || peek2(c)->kind == C_ID)) {
        next(c);
        npar++;
    }
    if (rhs(x, th, r, fresh))
        return -1;
    for (; npar > 0; npar--)
        if (expect(c, ")", "expected ')', found %s"))
            return -1;
    return expect(c, ";", "expected ';', found %s");
}

/* The right-hand side of r = ...: *x, a call, a value or a sum of two. */
/* An operand of '+': a value, or *x or a call, read into a scratch register. */
static int operand(ctest_t *x, cthread_t *th, char *buf, size_t n)
{
    cp_t *c = x->c;
    const ctok_t *e = peek(c);
    if (!is(e, "*") && !(e->kind == C_ID && is(peek2(c), "(")))
        return value(x, th, buf, n);
    int t = temp_reg(x, th, e);
    if (t < 0)
        return -1;
    next(c);
    if (is(e, "*")) {
        int l = loc_arg(x);
        if (l < 0)
            return -1;
        emit(th, e->line, "ld r%d %s", t, x->locs[l].name);
    } else if (call(x, th, e, t)) {
        return -1;
    }
    th->known[t] = false;
    snprintf(buf, n, "r%d", t);
    return 0;
}

/* The right-hand side of r = ...: *x, a call or a value, maybe plus an operand. */
static int rhs(ctest_t *x, cthread_t *th, int r, bool fresh)
{
    cp_t *c = x->c;
    const ctok_t *e = peek(c);
    char a[32], b[32];
    bool simple = false;
    if (is(e, "*")) { /* r = *x; a plain load */
        next(c);
        int l = loc_arg(x);
        if (l < 0)
            return -1;
        emit(th, e->line, "ld r%d %s", r, x->locs[l].name);
        snprintf(a, sizeof a, "r%d", r);
    } else if (e->kind == C_ID && is(peek2(c), "(")) {
        next(c);
        if (call(x, th, e, r))
            return -1;
        snprintf(a, sizeof a, "r%d", r);
    } else {
        if (value(x, th, a, sizeof a))
            return -1;
        simple = true;
    }
    if (is(peek(c), "^") || is(peek(c), "-") || is(peek(c), "*") || is(peek(c), "&") ||
        is(peek(c), "|"))
        return fail_tok(c, peek(c), "not supported: the operator %s (only '+' is)");
    if (is(peek(c), "+")) {
        next(c);
        if (operand(x, th, b, sizeof b))
            return -1;
        emit(th, e->line, "add r%d %s %s", r, a, b);
        th->known[r] = false;
    } else if (!simple) {
        th->known[r] = false;
    } else if (fresh && !strcmp(a, "0")) {
        th->known[r] = true; /* int r = 0: registers start at 0, no instruction */
        th->val[r] = 0;
    } else {
        emit(th, e->line, "mov r%d %s", r, a);
        th->known[r] = a[0] != 'r';
        th->val[r] = strtoll(a, NULL, 10);
    }
    return 0;
}

/* P<n>[@wg N, dev N] ( params ) { stmts } */
static int thread(ctest_t *x)
{
    cp_t *c = x->c;
    const ctok_t *t = next(c);
    char name[32];
    tok_name(t, name, sizeof name);
    char *end;
    long n = strtol(name + 1, &end, 10);
    if (name[0] != 'P' || !name[1] || *end || n != x->nth) {
        char want[80];
        snprintf(want, sizeof want,
                 "expected thread P%d next (threads in order from P0), found %%s", x->nth);
        return fail_tok(c, t, want);
    }
    if (x->nth >= MAXT)
        return fail_tok(c, t, "too many threads at %s (at most 16)");
    cthread_t *th = &x->th[x->nth++];
    th->wg = (int)n;
    if (is(peek(c), "@")) {
        next(c);
        for (;;) {
            const ctok_t *k = peek(c);
            if (k->kind != C_ID)
                return fail_tok(c, k, "expected a placement (wg N, dev N), found %s");
            next(c);
            const ctok_t *v = peek(c);
            if (v->kind != C_NUM)
                return fail_tok(c, v, "expected a number, found %s");
            long num = tok_long(v);
            next(c);
            if (num < 0 || num >= PROG_MAX_THREADS)
                return fail_tok(c, v, "work-group or device %s out of range (0..15)");
            if (is(k, "wg") || is(k, "cta")) {
                th->wg = (int)num;
                th->placed = true;
            } else if (is(k, "dev") || is(k, "gpu")) {
                if (num != 0)
                    return fail_tok(c, v, "device %s: every thread runs on device 0 here");
            } else {
                return fail_tok(c, k, "unknown placement %s (wg, dev)");
            }
            if (!is(peek(c), ","))
                break;
            next(c);
        }
    }
    if (expect(c, "(", "expected '(' and the thread's parameters, found %s"))
        return -1;
    while (!is(peek(c), ")")) {
        const ctok_t *p = peek(c);
        if (p->kind == C_EOF)
            return fail_tok(c, p, "expected ')', found %s");
        /* The parameter's name is the last identifier before ',' or ')'. */
        if (p->kind == C_ID && (is(peek2(c), ",") || is(peek2(c), ")")) && !is_type_word(p)) {
            if (add_loc(x, p) < 0)
                return -1;
        } else if (p->kind != C_ID && !is(p, "*") && !is(p, ",")) {
            return fail_tok(c, p, "unexpected %s in the parameter list");
        }
        next(c);
    }
    next(c);
    if (!is(peek(c), "{"))
        return fail_tok(c, peek(c), "expected '{' and the thread's code, found %s");
    return block(x, th);
}

/* { x = 0; *y = 1; [z] = 2; int w = 0; atomic_int v; } */
static int init_block(ctest_t *x)
{
    cp_t *c = x->c;
    next(c);
    while (!is(peek(c), "}")) {
        const ctok_t *t = peek(c);
        if (t->kind == C_EOF)
            return fail_tok(c, t, "expected '}' closing the initial state, found %s");
        if (is(t, ";")) {
            next(c);
            continue;
        }
        if (is(t, "atomic_t") || is(t, "spinlock_t") || is(t, "atomic_long_t"))
            return fail_tok(c, t,
                            "Linux-kernel type %s is not supported (cohcheck has no "
                            "Linux-kernel memory model; docs/litmus.md)");
        while (is_type_word(peek(c)) || is(peek(c), "*") || is(peek(c), "["))
            next(c);
        const ctok_t *id = peek(c);
        if (id->kind != C_ID)
            return fail_tok(c, id, "expected a location in the initial state, found %s");
        int l = add_loc(x, id);
        if (l < 0)
            return -1;
        next(c);
        if (is(peek(c), "]"))
            next(c);
        if (is(peek(c), "=")) {
            next(c);
            const ctok_t *v = peek(c);
            if (v->kind != C_NUM && !(is(v, "-") && v[1].kind == C_NUM))
                return fail_tok(c, v, "initial values are integers, not %s");
            if (c_int(c, "initial value", &x->init[l]))
                return -1;
        }
        if (!is(peek(c), ";") && !is(peek(c), "}"))
            return fail_tok(c, peek(c), "expected ';', found %s");
    }
    next(c);
    return 0;
}

/* Before an atom (the cursor after its register or location): herd's A != V is
 * ~(A = V) here; writes "~(" and ends the atom's ')' after its value. Returns 0. */
static int neg_atom(ctest_t *x, strbuf_t *out)
{
    cp_t *c = x->c;
    if (!is(peek(c), "!="))
        return 0;
    const ctok_t *v = peek2(c);
    if (v->kind != C_NUM)
        return fail_tok(c, v, "expected a value after '!=', found %s");
    x->close_neg = true;
    sb_puts(out, "~(");
    return 0;
}

/* The final condition: herd's syntax, registers renamed to ours. */
static int condition(ctest_t *x, strbuf_t *out)
{
    cp_t *c = x->c;
    const ctok_t *t = peek(c);
    if (is(t, "regions") && is(peek2(c), ":")) {
        /* regions: x:PROP ...: memory attributes for herd's Arm models; ignored here */
        while (peek(c)->kind != C_EOF && !is(peek(c), "exists") && !is(peek(c), "forall") &&
               !is(peek(c), "~") && !is(peek(c), "locations") && !is(peek(c), "filter"))
            next(c);
        t = peek(c);
    }
    if (is(t, "locations")) { /* locations [x; 0:r0;]: what herd prints; we print all */
        while (!is(peek(c), "]") && peek(c)->kind != C_EOF)
            next(c);
        if (expect(c, "]", "expected ']' closing 'locations', found %s"))
            return -1;
        t = peek(c);
    }
    if (is(t, "filter"))
        return fail_tok(c, t, "%s conditions are not supported");
    if (is(t, "~")) {
        next(c);
        if (!is(peek(c), "exists"))
            return fail_tok(c, peek(c), "expected 'exists' after '~', found %s");
        next(c);
        sb_puts(out, "~exists ");
    } else if (is(t, "exists") || is(t, "forall")) {
        next(c);
        sb_printf(out, "%s ", is(t, "exists") ? "exists" : "forall");
    } else {
        return fail_tok(c, t, "expected the final condition (exists, ~exists, forall), found %s");
    }
    while (peek(c)->kind != C_EOF) {
        const ctok_t *k = next(c);
        if (is(k, "(") || is(k, ")") || is(k, "~") || is(k, "/\\") || is(k, "\\/")) {
            sb_putn(out, k->s, k->n);
        } else if (is(k, "&&") || is(k, "||")) {
            sb_puts(out, is(k, "&&") ? " /\\ " : " \\/ ");
        } else if (is(k, "!")) {
            sb_puts(out, "~");
        } else if (is(k, "=") || is(k, "==") || is(k, "!=")) {
            sb_puts(out, " = "); /* an atom with != was opened with '~(' (neg_atom) */
        } else if (is(k, "true") || is(k, "false")) {
            sb_putn(out, k->s, k->n);
        } else if (k->kind == C_NUM && is(peek(c), ":")) {
            long tn = tok_long(k);
            next(c);
            const ctok_t *r = peek(c);
            if (tn < 0 || tn >= x->nth)
                return fail_tok(c, k, "thread %s does not exist");
            if (r->kind != C_ID)
                return fail_tok(c, r, "expected a register, found %s");
            int ri = reg_of(x, &x->th[tn], r, false);
            if (ri < 0)
                return -1;
            next(c);
            if (neg_atom(x, out))
                return -1;
            sb_printf(out, "%ld:r%d", tn, ri);
        } else if (k->kind == C_NUM || (is(k, "-") && peek(c)->kind == C_NUM)) {
            prog_val_t v;
            c->i--; /* c_int reads the sign and the number */
            if (c_int(c, "value", &v))
                return -1;
            sb_printf(out, "%lld%s", (long long)v, x->close_neg ? ")" : "");
            x->close_neg = false;
        } else if (is(k, "[") || is(k, "*")) {
            const ctok_t *l = peek(c);
            if (l->kind != C_ID || find_loc(x, l) < 0)
                return fail_tok(c, l, "expected a location, found %s");
            next(c);
            if (is(k, "[") && expect(c, "]", "expected ']', found %s"))
                return -1;
            if (neg_atom(x, out))
                return -1;
            sb_putn(out, l->s, l->n);
        } else if (k->kind == C_ID) {
            if (find_loc(x, k) < 0)
                return fail_tok(c, k, "%s is not a location of the test");
            if (neg_atom(x, out))
                return -1;
            sb_putn(out, k->s, k->n);
        } else {
            return fail_tok(c, k, "unexpected %s in the condition");
        }
    }
    return 0;
}

static void map_line(cp_t *c, int cline)
{
    UTIL_PUSH(c->map, c->nmap, c->capmap, cline);
}

/* Comments and blanks before the header. */
static size_t skip_lead(const char *s, size_t n, size_t off, int *line)
{
    while (off < n) {
        if (s[off] == '\n') {
            (*line)++;
            off++;
        } else if (isspace((unsigned char)s[off])) {
            off++;
        } else if (off + 1 < n && (s[off] == '(' || s[off] == '/') && s[off + 1] == '*') {
            char close = s[off] == '(' ? ')' : '/';
            off += 2;
            while (off + 1 < n && !(s[off] == '*' && s[off + 1] == close)) {
                if (s[off] == '\n')
                    (*line)++;
                off++;
            }
            off = off + 1 < n ? off + 2 : n;
        } else if (off + 1 < n && s[off] == '/' && s[off + 1] == '/') {
            while (off < n && s[off] != '\n')
                off++;
        } else {
            break;
        }
    }
    return off;
}

bool prog_is_c(const char *src, size_t len)
{
    int line = 1;
    size_t off = skip_lead(src, len, 0, &line);
    size_t w = 0;
    while (off + w < len && (isalnum((unsigned char)src[off + w]) || src[off + w] == '_'))
        w++;
    bool word = (w == 1 && src[off] == 'C') || (w == 6 && !memcmp(src + off, "OpenCL", 6));
    return word && off + w < len && (src[off + w] == ' ' || src[off + w] == '\t');
}

/* After the name line: blank lines, a "description" line (written to the native
 * text) and herd's KEY=VALUE lines (Cycle=..., Orig=...; appended to META), in
 * any order. Returns the offset of the first other line; *LINE is its number. */
static size_t header_lines(cp_t *c, size_t off, int *line, strbuf_t *meta)
{
    const char *s = c->src;
    size_t n = c->len;
    bool desc = false;
    while (off < n) {
        size_t ls = off + (s[off] == '\n'); /* start of the next line */
        if (s[off] == '\n')
            (*line)++;
        size_t p = ls;
        while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r'))
            p++;
        size_t e = p;
        while (e < n && s[e] != '\n')
            e++;
        if (p == e) { /* a blank line */
            off = e;
            continue;
        }
        if (s[p] == '"' && !desc) {
            const char *q = memchr(s + p + 1, '"', e - p - 1);
            if (!q) {
                fail_at(c, *line, (int)(p - ls) + 1, "unterminated string%s", "");
                return n;
            }
            size_t r = (size_t)(q - s) + 1;
            while (r < e && isspace((unsigned char)s[r]))
                r++;
            if (r < e)
                return ls;
            sb_putn(&c->out, s + p, (size_t)(q - s) + 1 - p);
            sb_putc(&c->out, '\n');
            map_line(c, *line);
            desc = true;
            off = e;
            continue;
        }
        size_t k = p;
        while (k < e && (isalnum((unsigned char)s[k]) || s[k] == '_'))
            k++;
        size_t eq = k;
        while (eq < e && (s[eq] == ' ' || s[eq] == '\t'))
            eq++;
        if (k == p || !isalpha((unsigned char)s[p]) || eq >= e || s[eq] != '=')
            return ls;
        for (size_t q = p; q < e; q++)
            if ((unsigned char)s[q] < 0x20 && s[q] != '\t' && s[q] != '\r') {
                fail_at(c, *line, (int)(q - ls) + 1, "unexpected byte in a header line%s", "");
                return n;
            }
        sb_putn(meta, s + p, e - p);
        sb_putc(meta, '\n');
        off = e;
    }
    return off;
}

int prog_c_translate(const char *file, const char *src, size_t len, char **native, int **map,
                     int *nmap, prog_c_info_t *info, diag_t *err)
{
    memset(info, 0, sizeof *info);
    cp_t c;
    memset(&c, 0, sizeof c);
    c.file = file;
    c.src = src;
    c.len = len;
    c.err = err;
    ctest_t *x = xcalloc(1, sizeof *x);
    x->c = &c;
    int rc = -1;
    sb_init(&c.out);
    map_line(&c, 0); /* native lines are 1-based */
    /* Header: 'C' or 'OpenCL', then the name, alone on its line. */
    int line = 1;
    size_t off = skip_lead(src, len, 0, &line);
    x->opencl = src[off] == 'O';
    off += x->opencl ? 6 : 1;
    while (off < len && (src[off] == ' ' || src[off] == '\t'))
        off++;
    size_t b = off;
    while (off < len && !isspace((unsigned char)src[off]))
        off++;
    size_t ls = b;
    while (ls > 0 && src[ls - 1] != '\n')
        ls--;
    int ncol = (int)(b - ls) + 1;
    if (off == b) {
        fail_at(&c, line, ncol, "expected the test name after the header word%s", "");
        goto out;
    }
    for (size_t k = b; k < off; k++)
        if (!isalnum((unsigned char)src[k]) && !strchr("_.+-", src[k] ? src[k] : ' ')) {
            fail_at(&c, line, (int)(k - ls) + 1, "test names may hold only A-Z a-z 0-9 _ . + -%s",
                    "");
            goto out;
        }
    char *name = xstrndup(src + b, off - b);
    while (off < len && src[off] != '\n') {
        if (!isspace((unsigned char)src[off])) {
            fail_at(&c, line, (int)(off - ls) + 1, "unexpected text after the test name%s", "");
            free(name);
            goto out;
        }
        off++;
    }
    sb_printf(&c.out, "GPU %s\n", name);
    free(name);
    map_line(&c, line);
    strbuf_t meta;
    sb_init(&meta);
    off = header_lines(&c, off, &line, &meta);
    if (c.failed) {
        sb_free(&meta);
        goto out;
    }
    info->meta = meta.len ? meta.s : NULL;
    if (!meta.len)
        sb_free(&meta);
    if (tokenize(&c, off, line, 1))
        goto out;
    if (peek(&c)->kind == C_STR) {
        const ctok_t *d = next(&c);
        sb_putn(&c.out, d->s, d->n);
        sb_putc(&c.out, '\n');
        map_line(&c, d->line);
    }
    if (!is(peek(&c), "{")) {
        fail_tok(&c, peek(&c), "expected '{' and the initial state, found %s");
        goto out;
    }
    int init_line = peek(&c)->line;
    if (init_block(x))
        goto out;
    while (peek(&c)->kind == C_ID && peek(&c)->s[0] == 'P' && peek(&c)->n > 1 &&
           isdigit((unsigned char)peek(&c)->s[1]))
        if (thread(x))
            goto out;
    if (x->nth == 0) {
        fail_tok(&c, peek(&c), "expected thread P0, found %s");
        goto out;
    }
    if (cas_loc_check(x))
        goto out;
    int cond_line = peek(&c)->line;
    strbuf_t cond;
    sb_init(&cond);
    if (peek(&c)->kind == C_EOF) {
        sb_puts(&cond, "forall (true)"); /* no final condition: herd7 lists the states */
    } else if (condition(x, &cond)) {
        sb_free(&cond);
        goto out;
    }
    /* Native text. */
    sb_puts(&c.out, "{");
    for (int l = 0; l < x->nlocs; l++)
        sb_printf(&c.out, " %s = %lld;", x->locs[l].name, (long long)x->init[l]);
    sb_puts(&c.out, " }\n");
    map_line(&c, init_line);
    size_t rows = 0;
    for (int t = 0; t < x->nth; t++) {
        sb_printf(&c.out, "%s P%d@wg%d", t ? " |" : "", t, x->th[t].wg);
        if (x->th[t].n > rows)
            rows = x->th[t].n;
    }
    sb_puts(&c.out, " ;\n");
    map_line(&c, x->c->t[0].line);
    for (size_t r = 0; r < rows; r++) {
        int cl = 0;
        for (int t = 0; t < x->nth; t++) {
            const cthread_t *th = &x->th[t];
            sb_printf(&c.out, "%s %s", t ? " |" : "", r < th->n ? th->ins[r] : "");
            if (!cl && r < th->n)
                cl = th->line[r];
        }
        sb_puts(&c.out, " ;\n");
        map_line(&c, cl);
    }
    sb_printf(&c.out, "%s\n", cond.s);
    map_line(&c, cond_line);
    sb_free(&cond);
    for (int t = 0; t < x->nth; t++)
        for (int r = 0; r < PROG_MAX_REGS; r++)
            if (x->th[t].regs[r].name[0] && x->th[t].regs[r].name[0] != ' ')
                info->regname[t][r] = xstrdup(x->th[t].regs[r].name);
    rc = 0;
out:
    if (rc) {
        free(info->meta);
        info->meta = NULL;
    }
    for (int t = 0; t < MAXT; t++) {
        for (size_t k = 0; k < x->th[t].n; k++)
            free(x->th[t].ins[k]);
        free(x->th[t].ins);
        free(x->th[t].line);
    }
    free(x);
    free(c.t);
    if (rc) {
        sb_free(&c.out);
        free(c.map);
        return -1;
    }
    *native = c.out.s;
    *map = c.map;
    *nmap = (int)c.nmap;
    return 0;
}

/* ---- writing herd7's C dialect ---- */

typedef struct {
    const prog_t *p;
    int t;
    bool opencl;
    strbuf_t *out;
    char *why;
    size_t whylen;
    char rn[4][300]; /* register names being printed (wreg) */
    int rni;
} wr_t;

/* Register R of the thread being written, by its test's name (rN if none). */
static const char *wreg(wr_t *w, int r)
{
    char *b = w->rn[w->rni++ & 3];
    return prog_reg_name(w->p, w->t, r, b, sizeof w->rn[0]);
}

/* The location holding compare-exchange I's expected value in thread T (herd7
 * passes the expected value by address): casexpT_I, made unique. */
static void cas_loc_name(const prog_t *p, int t, int i, char *buf, size_t n)
{
    snprintf(buf, n, "casexp%d_%d", t, i);
    for (int l = 0; l < p->nlocs; l++)
        if (!strcmp(p->locs[l].name, buf)) {
            size_t k = strlen(buf);
            if (k + 1 < n) {
                buf[k] = '_';
                buf[k + 1] = 0;
            }
            l = -1;
        }
}

static int no_c_form(wr_t *w, const char *what)
{
    snprintf(w->why, w->whylen, "%s", what);
    return -1;
}

static const char *c_order(prog_ord_t o)
{
    switch (o) {
    case PROG_ORD_RLX: return "memory_order_relaxed";
    case PROG_ORD_ACQ: return "memory_order_acquire";
    case PROG_ORD_REL: return "memory_order_release";
    case PROG_ORD_ACQREL: return "memory_order_acq_rel";
    default: return "memory_order_seq_cst";
    }
}

/* The failure order C requires of a compare-exchange: ours drops the release part. */
static const char *c_fail_order(prog_ord_t o)
{
    return o == PROG_ORD_ACQREL ? "memory_order_acquire"
           : o == PROG_ORD_REL  ? "memory_order_relaxed"
                                : c_order(o);
}

static void c_scope(wr_t *w, prog_scope_t s)
{
    if (!w->opencl)
        return;
    sb_puts(w->out, s == PROG_SCOPE_WG       ? ", memory_scope_work_group"
                    : s == PROG_SCOPE_SYSTEM ? ", memory_scope_all_svm_devices"
                                             : ", memory_scope_device");
}

static void c_operand(wr_t *w, prog_operand_t a)
{
    if (a.is_reg)
        sb_puts(w->out, wreg(w, (int)a.v));
    else
        sb_printf(w->out, "%lld", (long long)a.v);
}

static void indent(wr_t *w, int depth)
{
    for (int i = 0; i < depth; i++)
        sb_puts(w->out, "  ");
}

/* Instructions [I, J) of the thread at DEPTH: forward branches become if blocks. */
static int write_range(wr_t *w, int i, int j, int depth)
{
    const prog_thread_t *th = &w->p->threads[w->t];
    while (i < j) {
        const prog_instr_t *in = &th->instr[i];
        const char *loc = (in->op <= PROG_OP_CAS) ? w->p->locs[in->loc].name : "";
        if (in->op != PROG_OP_NOP && in->op != PROG_OP_BEQ && in->op != PROG_OP_BNE &&
            in->op != PROG_OP_B)
            indent(w, depth);
        switch (in->op) {
        case PROG_OP_LD:
            if (in->ord == PROG_ORD_PLAIN)
                sb_printf(w->out, "%s = *%s;\n", wreg(w, in->reg), loc);
            else {
                sb_printf(w->out, "%s = atomic_load_explicit(%s, %s", wreg(w, in->reg), loc,
                          c_order(in->ord));
                c_scope(w, in->scope);
                sb_puts(w->out, ");\n");
            }
            break;
        case PROG_OP_ST:
            if (in->ord == PROG_ORD_PLAIN) {
                sb_printf(w->out, "*%s = ", loc);
                c_operand(w, in->a);
                sb_puts(w->out, ";\n");
            } else {
                sb_printf(w->out, "atomic_store_explicit(%s, ", loc);
                c_operand(w, in->a);
                sb_printf(w->out, ", %s", c_order(in->ord));
                c_scope(w, in->scope);
                sb_puts(w->out, ");\n");
            }
            break;
        case PROG_OP_RMW:
            sb_printf(w->out, "%s = atomic_%s_explicit(%s, ", wreg(w, in->reg),
                      in->rmw == PROG_RMW_ADD ? "fetch_add" : "exchange", loc);
            c_operand(w, in->a);
            sb_printf(w->out, ", %s", c_order(in->ord));
            c_scope(w, in->scope);
            sb_puts(w->out, ");\n");
            break;
        case PROG_OP_CAS: {
            /* compare_exchange(x, e, NEW) with e a location holding EXP (herd7 takes the
             * expected value by address), then r = *e: the old value in both cases, as
             * our cas's register (cohcheck reads this back exactly: cas_loc). */
            if (in->a.is_reg)
                return no_c_form(w, "a compare-exchange whose expected value is a register");
            char e[64];
            cas_loc_name(w->p, w->t, i, e, sizeof e);
            sb_printf(w->out, "atomic_compare_exchange_strong_explicit(%s, %s, ", loc, e);
            c_operand(w, in->b);
            sb_printf(w->out, ", %s, %s", c_order(in->ord), c_fail_order(in->ord));
            c_scope(w, in->scope);
            sb_puts(w->out, ");\n");
            indent(w, depth);
            sb_printf(w->out, "%s = *%s;\n", wreg(w, in->reg), e);
            break;
        }
        case PROG_OP_FENCE:
            if (w->opencl) {
                sb_printf(w->out, "atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, %s",
                          c_order(in->ord));
                c_scope(w, in->scope);
                sb_puts(w->out, ");\n");
            } else {
                sb_printf(w->out, "atomic_thread_fence(%s);\n", c_order(in->ord));
            }
            break;
        case PROG_OP_MOV:
            sb_printf(w->out, "%s = ", wreg(w, in->reg));
            c_operand(w, in->a);
            sb_puts(w->out, ";\n");
            break;
        case PROG_OP_ADD:
            sb_printf(w->out, "%s = ", wreg(w, in->reg));
            c_operand(w, in->a);
            sb_puts(w->out, " + ");
            c_operand(w, in->b);
            sb_puts(w->out, ";\n");
            break;
        case PROG_OP_NOP: break;
        case PROG_OP_SUB:
        case PROG_OP_MUL:
        case PROG_OP_DIV:
        case PROG_OP_REM:
        case PROG_OP_BLT:
        case PROG_OP_BGE:
            return no_c_form(w, "a kernel instruction (sub, mul, div, rem, blt, bge)");
        case PROG_OP_JOIN: return no_c_form(w, "a kernel launch or bar.sync (a join)");
        case PROG_OP_B: return no_c_form(w, "an unconditional branch outside an if/else shape");
        case PROG_OP_BEQ:
        case PROG_OP_BNE: {
            int t = in->target;
            if (t <= i)
                return no_c_form(w, "a backward branch (a loop)");
            if (t > j)
                return no_c_form(w, "a branch out of its enclosing block");
            if (in->a.is_reg)
                return no_c_form(w, "a branch comparing two registers");
            /* The block [i+1, t) runs when the branch is not taken. */
            indent(w, depth);
            sb_printf(w->out, "if (%s %s %lld) {\n", wreg(w, in->reg),
                      in->op == PROG_OP_BEQ ? "!=" : "==", (long long)in->a.v);
            int end = t;
            const prog_instr_t *last = t - 1 > i ? &th->instr[t - 1] : NULL;
            bool has_else = last && last->op == PROG_OP_B && last->target >= t && last->target <= j;
            if (write_range(w, i + 1, has_else ? t - 1 : t, depth + 1))
                return -1;
            indent(w, depth);
            if (has_else) {
                sb_puts(w->out, "} else {\n");
                end = last->target;
                if (write_range(w, t, end, depth + 1))
                    return -1;
                indent(w, depth);
            }
            sb_puts(w->out, "}\n");
            i = end;
            continue;
        }
        }
        i++;
    }
    return 0;
}

bool prog_needs_opencl(const prog_t *p)
{
    for (int t = 0; t < p->nthreads; t++) {
        if (p->threads[t].wg != t)
            return true;
        for (int i = 0; i < p->threads[t].ninstr; i++)
            if (p->threads[t].instr[i].scope == PROG_SCOPE_WG ||
                p->threads[t].instr[i].scope == PROG_SCOPE_SYSTEM ||
                p->threads[t].instr[i].scope == PROG_SCOPE_RM_AGENT)
                return true;
    }
    return false;
}

/* A condition value outside herd7's 32-bit C values: true, with it in *V. */
static bool cond_wide(const prog_cond_t *c, prog_val_t *v)
{
    if (!c)
        return false;
    if ((c->kind == PROG_COND_REG || c->kind == PROG_COND_LOC) &&
        (c->val < INT32_MIN || c->val > INT32_MAX)) {
        *v = c->val;
        return true;
    }
    return cond_wide(c->a, v) || cond_wide(c->b, v);
}

int prog_to_herd(const prog_t *p, strbuf_t *out, char *why, size_t whylen)
{
    wr_t w = {.p = p, .out = out, .why = why, .whylen = whylen};
    if (p->nthreads > PROG_MAX_THREADS)
        return no_c_form(&w, "more than 16 threads");
    /* herd7 7.58 reads C values with Int32.of_string (and dies on wider ones). */
    prog_val_t wide;
    int wl, wc;
    if (prog_value_outside(p, INT32_MIN, INT32_MAX, &wide, &wl, &wc) || cond_wide(p->cond, &wide)) {
        snprintf(why, whylen, "the value %lld is outside herd7's 32-bit C values", (long long)wide);
        return -1;
    }
    for (int l = 0; l < p->nlocs; l++) {
        if (strchr(p->locs[l].name, '['))
            return no_c_form(&w, "a location array element");
        ctok_t t = {C_ID, p->locs[l].name, strlen(p->locs[l].name), 0, 0};
        if (is_type_word(&t))
            return no_c_form(&w, "a location named like a C type word");
        if (t.n >= C_NAME_MAX)
            return no_c_form(&w, "a location name longer than 255 characters");
    }
    for (int t = 0; t < p->nthreads; t++) {
        const prog_thread_t *th = &p->threads[t];
        if (th->wg != t)
            w.opencl = true;
        for (int k = 0; k < p->nthreads; k++)
            if (p->threads[k].wg == th->wg && p->threads[k].cu != th->cu)
                return no_c_form(&w, "inconsistent CU placement");
        if (th->cu != th->wg)
            return no_c_form(&w, "a work-group placed on another CU (OpenCL has no CUs)");
        for (int i = 0; i < th->ninstr; i++) {
            if (th->instr[i].scope == PROG_SCOPE_RM_AGENT)
                return no_c_form(&w, "remote-scope promotion (rm_agent has no OpenCL scope)");
            if (th->instr[i].scope == PROG_SCOPE_WG || th->instr[i].scope == PROG_SCOPE_SYSTEM)
                w.opencl = true;
        }
    }
    int nexp = 0;
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstr; i++)
            nexp += p->threads[t].instr[i].op == PROG_OP_CAS;
    if (p->nlocs + nexp > MAXLOC)
        return no_c_form(&w, "too many locations with the compare-exchanges' expected values");
    strbuf_t body;
    sb_init(&body);
    w.out = &body;
    sb_printf(&body, "%s %s\n", w.opencl ? "OpenCL" : "C", p->name);
    if (p->desc)
        sb_printf(&body, "\"%s\"\n", p->desc);
    if (p->meta) /* a C test's KEY=VALUE header lines, kept */
        sb_puts(&body, p->meta);
    sb_puts(&body, "{");
    for (int l = 0; l < p->nlocs; l++)
        sb_printf(&body, " %s = %lld;", p->locs[l].name, (long long)p->locs[l].init);
    for (int t = 0; t < p->nthreads; t++) /* compare-exchanges' expected values */
        for (int i = 0; i < p->threads[t].ninstr; i++)
            if (p->threads[t].instr[i].op == PROG_OP_CAS) {
                char e[64];
                cas_loc_name(p, t, i, e, sizeof e);
                sb_printf(&body, " %s = %lld;", e, (long long)p->threads[t].instr[i].a.v);
            }
    sb_puts(&body, " }\n");
    for (int t = 0; t < p->nthreads; t++) {
        const prog_thread_t *th = &p->threads[t];
        sb_printf(&body, "\nP%d", t);
        if (w.opencl)
            sb_printf(&body, "@wg %d, dev 0", th->wg);
        sb_puts(&body, " (");
        for (int l = 0; l < p->nlocs; l++)
            sb_printf(&body, "%s%satomic_int* %s", l ? ", " : "", w.opencl ? "global " : "",
                      p->locs[l].name);
        for (int i = 0; i < th->ninstr; i++)
            if (th->instr[i].op == PROG_OP_CAS) {
                char e[64];
                cas_loc_name(p, t, i, e, sizeof e);
                sb_printf(&body, ", %sint* %s", w.opencl ? "global " : "", e);
            }
        sb_puts(&body, ") {\n");
        /* Declare every register the thread writes (ours start at 0, as C's here). */
        bool used[PROG_MAX_REGS] = {false};
        for (int i = 0; i < th->ninstr; i++) {
            const prog_instr_t *in = &th->instr[i];
            if (in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS ||
                in->op == PROG_OP_MOV || in->op == PROG_OP_ADD)
                used[in->reg] = true;
            if (in->a.is_reg && in->op != PROG_OP_NOP)
                used[in->a.v] = true;
            if (in->b.is_reg && (in->op == PROG_OP_CAS || in->op == PROG_OP_ADD))
                used[in->b.v] = true;
            if (in->op == PROG_OP_BEQ || in->op == PROG_OP_BNE)
                used[in->reg] = true;
        }
        /* Reading the compare-exchange form back takes two scratch registers each. */
        int nused = 0, ncas = 0;
        for (int r = 0; r < PROG_MAX_REGS; r++)
            nused += used[r];
        for (int i = 0; i < th->ninstr; i++)
            ncas += th->instr[i].op == PROG_OP_CAS;
        if (nused + 2 * ncas > PROG_MAX_REGS) {
            sb_free(&body);
            return no_c_form(&w, "too many registers for herd7's compare-exchange form (two "
                                 "scratch registers each)");
        }
        w.t = t;
        /* Highest first: the reader gives a name other than rN the highest free
         * index, so a C test's registers keep their indices (and outcome order). */
        for (int r = PROG_MAX_REGS - 1; r >= 0; r--)
            if (used[r])
                sb_printf(&body, "  int %s = 0;\n", wreg(&w, r));
        if (write_range(&w, 0, th->ninstr, 1)) {
            sb_free(&body);
            return -1;
        }
        sb_puts(&body, "}\n");
    }
    sb_puts(&body, "\n");
    prog_cond_format(p, &body);
    sb_puts(&body, "\n");
    sb_putn(out, body.s, body.len);
    sb_free(&body);
    return 0;
}
