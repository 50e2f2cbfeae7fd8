/* proto.c - freeing and querying a loaded protocol (proto.h): parameter
 * overrides, map lookup for an instruction, and the table counts of
 * `cohcheck count`. Invariant: these functions only read the tables, except
 * proto_set_param, which changes one parameter's value and nothing else. */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "proto_int.h"

void proto_expr_free(proto_expr_t *e)
{
    if (!e)
        return;
    proto_expr_free(e->a);
    proto_expr_free(e->b);
    proto_expr_free(e->c);
    proto_expr_free(e->d);
    free(e);
}

void proto_action_clear(const proto_t *p, proto_action_t *a)
{
    proto_expr_free(a->index);
    proto_expr_free(a->value);
    proto_expr_free(a->tid);
    proto_expr_free(a->dval);
    proto_expr_free(a->dest_node);
    if (a->fields) {
        for (int i = 0; i < p->msgs[a->msg].nfields; i++)
            proto_expr_free(a->fields[i]);
        free(a->fields);
    }
    memset(a, 0, sizeof *a);
}

void proto_row_clear(const proto_t *p, proto_row_t *r)
{
    proto_expr_free(r->guard);
    for (int i = 0; i < r->nactions; i++)
        proto_action_clear(p, &r->actions[i]);
    free(r->actions);
    free(r->cites);
    r->cites = NULL;
    r->ncites = 0;
    r->guard = NULL;
    r->actions = NULL;
    r->nactions = 0;
}

static void vars_free(proto_var_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].name);
        proto_expr_free(v[i].init);
    }
    free(v);
}

void proto_free(proto_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nctrls; i++) {
        proto_ctrl_t *c = &p->ctrls[i];
        free(c->name);
        for (int s = 0; s < c->nstates; s++)
            free(c->state_names[s]);
        free(c->state_names);
        free(c->transient);
        free(c->coherent);
        vars_free(c->linevars, c->nlinevars);
        vars_free(c->ctrlvars, c->nctrlvars);
        for (int r = 0; r < c->nrows; r++)
            proto_row_clear(p, &c->rows[r]);
        free(c->rows);
    }
    free(p->ctrls);
    proto_preds_free(p);
    for (int i = 0; i < p->nmsgs; i++) {
        free(p->msgs[i].name);
        for (int f = 0; f < p->msgs[i].nfields; f++)
            free(p->msgs[i].fields[f].name);
        free(p->msgs[i].fields);
    }
    free(p->msgs);
    for (int i = 0; i < p->nparams; i++)
        free(p->params[i].name);
    free(p->params);
    for (int i = 0; i < p->nnets; i++)
        free(p->nets[i].name);
    free(p->nets);
    for (int i = 0; i < p->nevents; i++)
        free(p->events[i].name);
    free(p->events);
    for (int i = 0; i < p->nmaps; i++)
        free(p->maps[i].events);
    free(p->maps);
    for (int i = 0; i < p->ninvs; i++) {
        free(p->invs[i].name);
        proto_expr_free(p->invs[i].expr);
    }
    free(p->invs);
    free(p->file);
    free(p->name);
    free(p->desc);
    free(p->source);
    free(p->target);
    free(p->clock);
    for (int i = 0; i < p->npubs; i++)
        free(p->pubs[i].source);
    free(p->pubs);
    for (int i = 0; i < p->nlabels; i++)
        free(p->labels[i]);
    free(p->labels);
    free(p->labels_source);
    for (int i = 0; i < p->nreadings; i++) {
        free(p->readings[i].item);
        free(p->readings[i].section);
        free(p->readings[i].text);
        free(p->readings[i].file);
    }
    free(p->readings);
    free(p->base);
    free(p->finals);
    for (int i = 0; i < p->nfiles; i++)
        free(p->files[i]);
    free(p->files);
    free(p->file_offs);
    free(p);
}

int proto_set_param(proto_t *p, const char *name, int value, diag_t *err)
{
    for (int i = 0; i < p->nparams; i++)
        if (!strcmp(p->params[i].name, name)) {
            p->params[i].value = value;
            return 0;
        }
    diag_set(err, p->file, 0, 0, "unknown param '%s'", name);
    return -1;
}

const proto_map_t *proto_find_map(const proto_t *p, int op, int ord, int scope)
{
    const proto_map_t *best = NULL;
    int best_wild = 3;
    for (int i = 0; i < p->nmaps; i++) {
        const proto_map_t *m = &p->maps[i];
        if (m->op != op || (m->ord >= 0 && m->ord != ord) || (m->scope >= 0 && m->scope != scope))
            continue;
        int wild = (m->ord < 0) + (m->scope < 0);
        if (wild < best_wild) {
            best = m;
            best_wild = wild;
        }
    }
    return best;
}

bool proto_expr_any(const proto_expr_t *e, proto_expr_pred pred, int arg)
{
    if (!e)
        return false;
    return pred(e, arg) || proto_expr_any(e->a, pred, arg) || proto_expr_any(e->b, pred, arg) ||
           proto_expr_any(e->c, pred, arg) || proto_expr_any(e->d, pred, arg);
}

bool proto_action_any(const proto_t *p, const proto_action_t *a, proto_expr_pred pred, int arg)
{
    if (proto_expr_any(a->index, pred, arg) || proto_expr_any(a->value, pred, arg) ||
        proto_expr_any(a->dest_node, pred, arg) || proto_expr_any(a->tid, pred, arg) ||
        proto_expr_any(a->dval, pred, arg))
        return true;
    for (int f = 0; a->kind == PROTO_A_SEND && a->fields && f < p->msgs[a->msg].nfields; f++)
        if (proto_expr_any(a->fields[f], pred, arg))
            return true;
    return false;
}

void proto_count(const proto_t *p, int c, proto_count_t *out)
{
    const proto_ctrl_t *ct = &p->ctrls[c];
    *out = (proto_count_t){0, 0, 0, 0, 0};
    for (int s = 0; s < ct->nstates; s++) {
        if (ct->transient[s])
            out->transient++;
        else
            out->stable++;
        out->coherent += ct->coherent[s];
    }
    /* cells[e]: states with a normal row for event e; bit 0 stands for '-'. */
    uint64_t *cells = xcalloc((size_t)p->nevents + 1, sizeof *cells);
    for (int r = 0; r < ct->nrows; r++) {
        const proto_row_t *row = &ct->rows[r];
        if (row->kind != PROTO_ROW_NORMAL)
            continue;
        cells[row->event] |= row->states ? row->states : 1;
        out->branches += __builtin_popcountll(row->states); /* '-' rows: the core interface */
    }
    for (int e = 0; e < p->nevents; e++)
        out->transitions += __builtin_popcountll(cells[e]);
    free(cells);
}

const char *proto_file_of(const proto_t *p, size_t off)
{
    const char *f = p->file;
    for (int i = 0; i < p->nfiles && p->file_offs[i] <= off; i++)
        f = p->files[i];
    return f;
}
