/* proto_print.c - a loaded protocol written back as one standalone protocol
 * file (`cohcheck count --resolved`): what a variant ('extends') amounts to
 * once its bases are applied. Declarations come from the tables; guards,
 * actions, initial values and invariants are the source's own text.
 * Invariant: the text parses to the same tables (tests/unit/test_proto.c
 * checks this for every protocol in protocols/). */
#include <string.h>

#include "../base/util.h"
#include "../prog/prog.h"
#include "proto_int.h"

static void put_type(strbuf_t *b, proto_type_t t)
{
    char buf[40];
    proto_type_name(t, buf, sizeof buf);
    sb_puts(b, buf);
}

static void put_text(strbuf_t *b, const proto_t *p, size_t off, size_t len)
{
    /* The text is one row or expression; fold its line breaks so that the
     * printed row stays on one line. */
    for (size_t i = 0; i < len && off + i < p->source_len; i++) {
        char ch = p->source[off + i];
        sb_putn(b, ch == '\n' || ch == '\r' ? " " : &ch, 1);
    }
}

static void put_states(strbuf_t *b, const proto_ctrl_t *c, uint64_t mask, const char *sep)
{
    bool first = true;
    for (int s = 0; s < c->nstates; s++)
        if (mask >> s & 1) {
            sb_printf(b, "%s%s", first ? "" : sep, c->state_names[s]);
            first = false;
        }
}

static void put_var(strbuf_t *b, const proto_t *p, const proto_ctrl_t *c, const proto_var_t *v,
                    bool line)
{
    sb_printf(b, "  %s %s%s%s: ", line ? "line" : "var", v->ghost ? "ghost " : "", v->name,
              v->per_thread ? "[tid]" : "");
    put_type(b, v->type);
    if (v->init_initial) {
        sb_puts(b, " = initial");
    } else if (v->init_warm) {
        sb_printf(b, " = warm %s", p->ctrls[v->init_warm - 1].name);
    } else if (v->init && v->text_len) {
        sb_puts(b, " = ");
        put_text(b, p, v->text_off, v->text_len);
    }
    uint64_t all = c->nstates >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << c->nstates) - 1;
    if (line && (v->live & all) != all) {
        sb_puts(b, " live ");
        put_states(b, c, v->live, " ");
    }
    sb_puts(b, "\n");
}

static void put_pattern(strbuf_t *b, const proto_map_t *m)
{
    static const char *const ops[] = {"ld", "st", "rmw", "cas", "fence"};
    static const char *const ords[] = {"plain", "rlx", "acq", "rel", "acqrel", "sc"};
    static const char *const scopes[] = {"", "wg", "agent", "system", "rm_agent"};
    sb_puts(b, m->op >= 0 && m->op < 5 ? ops[m->op] : "?");
    if (m->ord >= 0 && m->ord < 6)
        sb_printf(b, ".%s", ords[m->ord]);
    else
        sb_puts(b, ".*");
    if (m->scope > 0 && m->scope < 5)
        sb_printf(b, ".%s", scopes[m->scope]);
    else
        sb_puts(b, ".*");
}

/* Controller CI's predictors and their rules (timed mode's; no row). */
static void put_preds(strbuf_t *b, const proto_t *p, int ci)
{
    const proto_ctrl_t *c = &p->ctrls[ci];
    for (int i = 0; i < p->npreds; i++) {
        const proto_pred_t *d = &p->preds[i];
        if (d->ctrl != ci)
            continue;
        sb_printf(b, "  predict %s per %s range %d..%d", p->params[d->param].name,
                  d->per_line ? "line" : "bank", d->lo, d->hi);
        if (!d->start_param)
            sb_printf(b, " start %d", d->start);
        sb_puts(b, "\n");
    }
    for (int i = 0; i < p->nprules; i++) {
        const proto_prule_t *r = &p->prules[i];
        if (r->ctrl != ci)
            continue;
        sb_puts(b, "  on ");
        if (r->states)
            put_states(b, c, r->states, ", ");
        else
            sb_puts(b, "-");
        sb_printf(b, " | %s | ", p->events[r->event].name);
        put_text(b, p, r->text_off, r->text_len);
        sb_puts(b, "\n");
    }
}

static void put_ctrl(strbuf_t *b, const proto_t *p, int ci)
{
    const proto_ctrl_t *c = &p->ctrls[ci];
    sb_printf(b, "\ncontroller %s %s {\n", c->name, c->per_cu ? "per-cu" : "shared");
    /* In declaration order, so that states keep their numbers. */
    for (int s = 0; s < c->nstates; s++) {
        int kind = c->coherent[s] ? 2 : c->transient[s];
        int prev = s ? (c->coherent[s - 1] ? 2 : c->transient[s - 1]) : -1;
        if (kind != prev)
            sb_puts(b, s ? "\n" : "");
        if (kind != prev)
            sb_puts(b, kind == 2 ? "  transient coherent" : kind ? "  transient" : "  stable");
        sb_printf(b, " %s", c->state_names[s]);
    }
    sb_puts(b, "\n");
    sb_printf(b, "  init %s\n", c->state_names[c->init_state]);
    if (c->warm_state >= 0)
        sb_printf(b, "  warm %s\n", c->state_names[c->warm_state]);
    for (int i = 0; i < c->nlinevars; i++)
        put_var(b, p, c, &c->linevars[i], true);
    for (int i = 0; i < c->nctrlvars; i++)
        put_var(b, p, c, &c->ctrlvars[i], false);
    /* Internal and environment events this controller has rows for. */
    for (int e = p->nmsgs; e < p->nevents; e++) {
        const proto_event_t *ev = &p->events[e];
        if (ev->kind != PROTO_EV_INTERNAL && ev->kind != PROTO_EV_ENV)
            continue;
        bool used = false;
        for (int r = 0; r < c->nrows && !used; r++)
            used = c->rows[r].event == e;
        if (used)
            sb_printf(b, "  event %s%s%s\n", ev->name, ev->line ? " line" : "",
                      ev->kind == PROTO_EV_ENV ? " env" : "");
    }
    for (int r = 0; r < c->nrows; r++) {
        const proto_row_t *row = &c->rows[r];
        sb_puts(b, "  ");
        if (row->states)
            put_states(b, c, row->states, ", ");
        else
            sb_puts(b, "-");
        sb_printf(b, " | %s | ", p->events[row->event].name);
        put_text(b, p, row->text_off, row->text_len);
        sb_puts(b, "\n");
    }
    put_preds(b, p, ci);
    sb_puts(b, "}\n");
}

char *proto_resolved_text(const proto_t *p)
{
    strbuf_t b;
    sb_init(&b);
    sb_printf(&b, "protocol %s", p->name);
    if (p->desc)
        sb_printf(&b, " \"%s\"", p->desc);
    sb_puts(&b, "\n");
    if (p->base)
        sb_printf(&b, "(* resolved: %d section(s), the last extending %s *)\n", p->nsections,
                  p->base);
    if (p->target)
        sb_printf(&b, "target %s\n", p->target);
    if (p->clock)
        sb_printf(&b, "clock %s\n", p->clock);
    if (p->granularity_word)
        sb_puts(&b, "granularity word\n");
    for (int i = 0; i < p->nparams; i++)
        sb_printf(&b, "param %s = %d\n", p->params[i].name, p->params[i].value);
    for (int i = 0; i < p->nnets; i++) {
        sb_printf(&b, "network %s %s", p->nets[i].name,
                  p->nets[i].ordered ? "ordered" : "unordered");
        if (p->nets[i].capacity)
            sb_printf(&b, " capacity %d", p->nets[i].capacity);
        sb_puts(&b, "\n");
    }
    for (int i = 0; i < p->nmsgs; i++) {
        const proto_msg_t *m = &p->msgs[i];
        sb_printf(&b, "message %s on %s", m->name, p->nets[m->net].name);
        for (int f = 0; f < m->nfields; f++) {
            sb_printf(&b, "%s%s%s: ", f ? ", " : " (", m->fields[f].ghost ? "ghost " : "",
                      m->fields[f].name);
            put_type(&b, m->fields[f].type);
        }
        sb_printf(&b, "%s%s\n", m->nfields ? ")" : "", m->noline ? " noline" : "");
    }
    if (p->nlabels) {
        sb_printf(&b, "labels \"%s\"", p->labels_source);
        for (int i = 0; i < p->nlabels; i++)
            sb_printf(&b, "%s%s", i ? ", " : " ", p->labels[i]);
        sb_puts(&b, "\n");
    }
    for (int c = 0; c < p->nctrls; c++)
        put_ctrl(&b, p, c);
    if (p->core_ctrl >= 0) {
        sb_printf(&b, "\ncore %s {\n  outstanding %d\n", p->ctrls[p->core_ctrl].name,
                  p->outstanding);
        if (p->wg_local)
            sb_puts(&b, "  local wg\n");
        for (int i = 0; i < p->nmaps; i++) {
            sb_puts(&b, "  map ");
            put_pattern(&b, &p->maps[i]);
            for (int j = 0; j < p->maps[i].nevents; j++)
                sb_printf(&b, "%s%s", j ? ", " : " -> ", p->events[p->maps[i].events[j]].name);
            sb_puts(&b, "\n");
        }
        sb_puts(&b, "}\n");
    }
    for (int i = 0; i < p->nfinals; i++) {
        const proto_final_t *f = &p->finals[i];
        const proto_ctrl_t *c = &p->ctrls[f->ctrl];
        sb_printf(&b, "final %s.%s", c->name, c->linevars[f->var].name);
        if (f->states) {
            sb_puts(&b, " in ");
            put_states(&b, c, f->states, ", ");
        }
        if (f->mask >= 0)
            sb_printf(&b, " if %s", c->linevars[f->mask].name);
        sb_puts(&b, "\n");
    }
    for (int i = 0; i < p->ninvs; i++) {
        sb_printf(&b, "invariant %s: ", p->invs[i].name);
        put_text(&b, p, p->invs[i].text_off, p->invs[i].text_len);
        sb_puts(&b, "\n");
    }
    for (int i = 0; i < p->npubs; i++) {
        const proto_pub_t *pb = &p->pubs[i];
        sb_printf(&b, "published \"%s\" %s", pb->source, p->ctrls[pb->ctrl].name);
        if (pb->stable >= 0)
            sb_printf(&b, " stable %d", pb->stable);
        if (pb->transient >= 0)
            sb_printf(&b, " transient %d", pb->transient);
        if (pb->coherent >= 0)
            sb_printf(&b, " coherent %d", pb->coherent);
        if (pb->transitions >= 0)
            sb_printf(&b, " transitions %d", pb->transitions);
        sb_puts(&b, "\n");
    }
    return b.s;
}

/* The row's source text with comments removed and white space folded. */
char *proto_row_text(const proto_t *p, const proto_row_t *r)
{
    strbuf_t b;
    sb_init(&b);
    const char *s = p->source + r->text_off;
    size_t n = r->text_len;
    if (r->text_off > p->source_len)
        n = 0;
    else if (n > p->source_len - r->text_off)
        n = p->source_len - r->text_off;
    int depth = 0;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && s[i] == '(' && s[i + 1] == '*') {
            depth++;
            i++;
            continue;
        }
        if (depth && i + 1 < n && s[i] == '*' && s[i + 1] == ')') {
            depth--;
            i++;
            continue;
        }
        if (depth)
            continue;
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
            space = b.len > 0;
            continue;
        }
        if (space)
            sb_putc(&b, ' ');
        space = false;
        sb_putc(&b, s[i]);
    }
    return b.s ? b.s : xstrdup("");
}

/* Split a row's text "guard | actions | next [| labels]" at its column bars
 * (single '|', not '||'). Returns the number of columns (at most 4); each
 * column is trimmed and NUL-terminated in place. */
int proto_split_cols(char *t, char **col)
{
    int n = 0;
    col[n++] = t;
    for (char *q = t; *q; q++) {
        if (*q == '|' && q[1] == '|') {
            q++;
            continue;
        }
        if (*q == '|' && n < 4) {
            *q = '\0';
            col[n++] = q + 1;
        }
    }
    for (int i = 0; i < n; i++) {
        while (*col[i] == ' ')
            col[i]++;
        size_t l = strlen(col[i]);
        while (l && col[i][l - 1] == ' ')
            col[i][--l] = '\0';
    }
    return n;
}
