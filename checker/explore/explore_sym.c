/* explore_sym.c - the explorer's side of the symmetry reduction (docs/por.md,
 * "Symmetry"): outcomes of a canonical terminal state stand for their whole orbit, and
 * traces recorded over canonical states are replayed as real executions. Invariant:
 * every trace line describes a step sys_successors really takes from the state the
 * line before left (canonical states are only used to find that step). */
#include "explore.h"
#include "explore_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int explore_terminal_outcomes(sys_t *s, const explore_opts_t *o, explore_result_t *r,
                              const prog_val_t *outv, int depth, prog_val_t *bad)
{
    int order = sys_sym_order(s), nk = r->reached.nkeys, found = 0;
    prog_val_t *img = xcalloc((size_t)nk + 1, sizeof *img);
    for (int g = 0; g < (order ? order : 1); g++) {
        if (g)
            sys_sym_outcome(s, g, outv, nk, img);
        else
            memcpy(img, outv, sizeof *img * (size_t)nk);
        if (g && exec_outcomes_has(&r->reached, img))
            continue; /* an image seen before (the identity always counts) */
        exec_outcomes_add(&r->reached, img);
        if (o->on_outcome)
            o->on_outcome(o->on_outcome_ctx, img, depth);
        if (o->allowed && !exec_outcomes_has(o->allowed, img)) {
            memcpy(bad, img, sizeof *img * (size_t)nk);
            found = 1;
            break;
        }
    }
    free(img);
    return found;
}

/* The canonical states along ORDS into ST/LEN (N buffers); 0, or -1 when a position
 * is not there. */
static int replay_canonical(sys_t *s, const uint32_t *ords, size_t n, uint8_t **st, size_t *len)
{
    sys_error_t e;
    for (size_t i = 0; i < n; i++) {
        explore_pick_t p = {ords[i], 0, st[i], 0, {0, 0, 0, 0}, false};
        if (i == 0)
            sys_initial(s, explore_pick, &p, &e);
        else
            sys_successors(s, st[i - 1], len[i - 1], explore_pick, &p, &e);
        if (!p.got)
            return -1;
        len[i] = p.len;
    }
    return 0;
}

/* Map the real path ST[0..N) by the element whose image of the last state has
 * outcome WANT (the path then ends in that outcome), and find its labels again. */
static void aim_path(sys_t *s, uint8_t **st, size_t *len, sys_label_t *labs, size_t n,
                     const prog_val_t *want, int nkeys)
{
    size_t maxst = sys_max_state(s);
    uint8_t *buf = xmalloc(maxst + 1);
    prog_val_t *v = xcalloc((size_t)nkeys + 1, sizeof *v);
    for (int g = 0; g < sys_sym_order(s); g++) {
        size_t bl = sys_sym_apply(s, g, st[n - 1], len[n - 1], buf);
        sys_outcome(s, buf, bl, v);
        if (memcmp(v, want, sizeof *v * (size_t)nkeys))
            continue;
        if (g == 0)
            break;
        for (size_t i = 0; i < n; i++) {
            len[i] = sys_sym_apply(s, g, st[i], len[i], buf);
            memcpy(st[i], buf, len[i]);
        }
        sys_sym_realise(s, st, len, labs, n, true);
        break;
    }
    free(v);
    free(buf);
}

size_t explore_replay_sym(sys_t *s, const uint32_t *ords, size_t n, explore_result_t *r,
                          const prog_val_t *want, int nkeys, uint8_t **out)
{
    size_t maxst = sys_max_state(s);
    uint8_t **st = xcalloc(n + 1, sizeof *st);
    size_t *len = xcalloc(n + 1, sizeof *len);
    sys_label_t *labs = xcalloc(n + 1, sizeof *labs);
    for (size_t i = 0; i < n; i++)
        st[i] = xmalloc(maxst + 1);
    r->trace = xcalloc(n + 3, sizeof(char *));
    r->ntrace = 0;
    size_t got = 0;
    const char *why = "(trace replay failed: the system is not deterministic)";
    if (n && !replay_canonical(s, ords, n, st, len)) {
        got = sys_sym_realise(s, st, len, labs, n, false);
        why = "(trace replay failed: no real step reaches the next recorded state)";
        if (got == n && want)
            aim_path(s, st, len, labs, n, want, nkeys);
    }
    for (size_t i = 0; i < got; i++) {
        strbuf_t sb;
        sb_init(&sb);
        size_t b = i ? i - 1 : 0;
        sys_describe(s, &labs[i], st[b], len[b], st[i], len[i], &sb);
        r->trace[r->ntrace++] = sb.s;
    }
    size_t elen = 0;
    *out = xmalloc(maxst + 1);
    if (got < n || !n) {
        strbuf_t sb;
        sb_init(&sb);
        sb_puts(&sb, why);
        r->trace[r->ntrace++] = sb.s;
    } else {
        elen = len[n - 1];
        memcpy(*out, st[n - 1], elen);
    }
    for (size_t i = 0; i < n; i++)
        free(st[i]);
    free(st);
    free(len);
    free(labs);
    return elen;
}

/* The first failing step of the real state ST: its label into LAB and its message
 * into MSG (a permutation of the canonical state fails on a permuted step). */
static bool real_failure(sys_t *s, const uint8_t *st, size_t len, sys_label_t *lab, char *msg,
                         size_t mn)
{
    sys_error_t e;
    int on = sys_sym_order(s) > 0;
    sys_set_symmetry(s, false, NULL);
    int rc = sys_successors(s, st, len, explore_pick_none, NULL, &e);
    if (on)
        sys_set_symmetry(s, true, NULL);
    if (rc >= 0)
        return false;
    *lab = e.label;
    snprintf(msg, mn, "%s", e.msg);
    return true;
}

void explore_trace_end_sym(sys_t *s, explore_result_t *r, const uint8_t *end, size_t elen,
                           const uint8_t *st, size_t len, const sys_label_t *fail_lab)
{
    uint8_t *c = xmalloc(sys_max_state(s) + 1);
    size_t cl = elen ? sys_sym_canon(s, end, elen, c) : 0;
    bool same = elen && cl == len && !memcmp(c, st, len);
    free(c);
    strbuf_t sb;
    sb_init(&sb);
    sys_label_t lab;
    if (!same) {
        sb_puts(&sb, elen ? "(trace replay ended in another state: a fingerprint collision?)"
                          : "(no real execution found for the recorded path)");
        r->trace[r->ntrace++] = sb.s;
    } else if (fail_lab && real_failure(s, end, elen, &lab, r->msg, sizeof r->msg)) {
        sys_describe(s, &lab, end, elen, end, elen, &sb);
        sb_printf(&sb, " | FAILS: %s", r->msg);
        r->trace[r->ntrace++] = sb.s;
    } else {
        free(sb.s);
    }
    sb_init(&sb);
    if (same)
        sys_dump(s, end, elen, &sb);
    else
        sys_dump(s, st, len, &sb);
    r->failure_state = sb.s;
}

void explore_sym_start(sys_t *s, const explore_opts_t *o, explore_result_t *r)
{
    r->symmetry = false;
    r->sym_note[0] = 0;
    if (!o->symmetry) {
        sys_set_symmetry(s, false, NULL);
        return;
    }
    if (o->liveness) {
        sys_set_symmetry(s, false, NULL);
        snprintf(r->sym_note, sizeof r->sym_note,
                 "--liveness explores the full graph: a cycle of the quotient need not be a "
                 "cycle of the system (docs/por.md, \"Symmetry\")");
        return;
    }
    const char *why = NULL;
    r->symmetry = sys_set_symmetry(s, true, &why);
    snprintf(r->sym_note, sizeof r->sym_note, "%s", why ? why : "");
}
