/* machine.c - the machine file parser (sim.h; format in docs/sim.md).
 * A file is lines of directives: a keyword, then NAME VALUE pairs; '#' starts
 * a comment. Every value is a non-negative integer unless said otherwise. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "sim.h"

typedef struct {
    const char *file, *src;
    size_t len, pos;
    int line, col;
    diag_t *err;
    int str_col; /* the column of the last name value pairs() read */
} mp_t;

static void skip_blank(mp_t *m)
{
    while (m->pos < m->len &&
           (m->src[m->pos] == ' ' || m->src[m->pos] == '\t' || m->src[m->pos] == '\r')) {
        m->pos++;
        m->col++;
    }
    if (m->pos < m->len && m->src[m->pos] == '#')
        while (m->pos < m->len && m->src[m->pos] != '\n') {
            m->pos++;
            m->col++;
        }
}

/* The next word on this line into BUF (a quoted string without its quotes when
 * QUOTED is allowed); 0 when the line ends, 1 with a word, -1 on an error. */
static int word(mp_t *m, char *buf, size_t n, int *wcol, bool *quoted)
{
    skip_blank(m);
    *wcol = m->col;
    *quoted = false;
    if (m->pos >= m->len || m->src[m->pos] == '\n')
        return 0;
    size_t k = 0;
    if (m->src[m->pos] == '"') {
        *quoted = true;
        m->pos++;
        m->col++;
        while (m->pos < m->len && m->src[m->pos] != '"' && m->src[m->pos] != '\n') {
            if (k + 1 < n)
                buf[k++] = m->src[m->pos];
            m->pos++;
            m->col++;
        }
        if (m->pos >= m->len || m->src[m->pos] != '"') {
            diag_set(m->err, m->file, m->line, *wcol, "unterminated string");
            return -1;
        }
        m->pos++;
        m->col++;
        buf[k] = 0;
        return 1;
    }
    while (m->pos < m->len && !isspace((unsigned char)m->src[m->pos]) && m->src[m->pos] != '#') {
        if (k + 1 >= n) {
            diag_set(m->err, m->file, m->line, *wcol, "word too long");
            return -1;
        }
        buf[k++] = m->src[m->pos++];
        m->col++;
    }
    buf[k] = 0;
    return 1;
}

static int number(mp_t *m, const char *w, int col, int *out)
{
    char *end;
    long v = strtol(w, &end, 10);
    if (!*w || *end || !isdigit((unsigned char)w[0]) || v > 100000000) {
        diag_set(m->err, m->file, m->line, col, "expected a non-negative integer, got '%s'", w);
        return -1;
    }
    *out = (int)v;
    return 0;
}

typedef struct {
    const char *key;
    int *val;  /* an integer, or */
    char *str; /* a name (an event of the protocol) */
    size_t strlen;
} kv_t;

/* The NAME VALUE pairs of a directive's line, into KV. */
static int pairs(mp_t *m, const char *dir, kv_t *kv, int nkv)
{
    char key[64], val[512];
    int kc, vc;
    bool q;
    for (;;) {
        int r = word(m, key, sizeof key, &kc, &q);
        if (r <= 0)
            return r;
        int k = 0;
        while (k < nkv && strcmp(kv[k].key, key))
            k++;
        if (k == nkv || q) {
            diag_set(m->err, m->file, m->line, kc, "unknown setting '%s' of '%s'", key, dir);
            return -1;
        }
        r = word(m, val, sizeof val, &vc, &q);
        if (r < 0)
            return -1;
        if (r == 0) {
            diag_set(m->err, m->file, m->line, vc, "'%s %s' needs a value", dir, key);
            return -1;
        }
        if (!kv[k].val)
            m->str_col = vc;
        if (kv[k].val) {
            if (number(m, val, vc, kv[k].val))
                return -1;
        } else {
            snprintf(kv[k].str, kv[k].strlen, "%s", val);
        }
    }
}

/* 'dram channels N banks N row BYTES queue N bandwidth BYTES hit N miss N conflict N
 * latency N' (docs/sim.md "DRAM"); the directive is at column DC. */
static int parse_dram(mp_t *m, int dc, sim_machine_t *o)
{
    if (o->has_dram) {
        diag_set(m->err, m->file, m->line, dc, "a second 'dram' line");
        return -1;
    }
    sim_dram_t *d = &o->dram;
    /* Defaults: one channel of 8 banks, 2 KB rows, a 32-request queue, 8 bytes per
       cycle, 12/24/36-cycle row hit/miss/conflict (seed 004 Table 4's tCL, tRCD, tRP of
       12), nothing fixed; every shipped machine sets its own. */
    *d = (sim_dram_t){1, 8, 2048, 32, 8, 12, 24, 36, 0};
    kv_t kv[] = {{"channels", &d->channels, NULL, 0},   {"banks", &d->banks, NULL, 0},
                 {"row", &d->row_bytes, NULL, 0},       {"queue", &d->queue, NULL, 0},
                 {"bandwidth", &d->bandwidth, NULL, 0}, {"hit", &d->hit, NULL, 0},
                 {"miss", &d->miss, NULL, 0},           {"conflict", &d->conflict, NULL, 0},
                 {"latency", &d->latency, NULL, 0}};
    if (pairs(m, "dram", kv, 9))
        return -1;
    const char *bad = d->channels < 1 || d->channels > 4096 ? "channels must be 1..4096"
                      : d->banks < 1 || d->banks > 1024     ? "banks must be 1..1024"
                      : d->row_bytes < 1                    ? "row must be at least 1 byte"
                      : d->queue < 1 || d->queue > 4096     ? "queue must be 1..4096"
                      : d->bandwidth < 1                    ? "bandwidth must be at least 1"
                      : d->hit > d->miss || d->miss > d->conflict
                          ? "latencies must be hit <= miss <= conflict"
                          : NULL;
    if (bad) {
        diag_set(m->err, m->file, m->line, dc, "dram: %s", bad);
        return -1;
    }
    o->has_dram = true;
    return 0;
}

/* A topology's 'l2' value V (at column VC): 'spread', a node, or a list of nodes
 * N1,N2,... of a mesh of NODES nodes (0 for a crossbar: 'spread' only). */
static int parse_l2_nodes(mp_t *m, const char *v, int vc, int nodes, sim_machine_t *o)
{
    if (!strcmp(v, "spread")) {
        o->topo_l2_spread = 1;
        return 0;
    }
    if (!nodes) {
        diag_set(m->err, m->file, m->line, vc, "topology crossbar: l2 takes 'spread', got '%s'", v);
        return -1;
    }
    const char *p = v;
    int n = 0;
    for (;;) {
        int col = vc + (int)(p - v);
        size_t len = strcspn(p, ",");
        char num[16];
        if (len == 0 || len >= sizeof num) {
            diag_set(m->err, m->file, m->line, col,
                     "topology mesh: l2 expects 'spread', a node or N1,N2,...");
            return -1;
        }
        memcpy(num, p, len);
        num[len] = 0;
        int node;
        if (number(m, num, col, &node))
            return -1;
        if (node >= nodes) {
            diag_set(m->err, m->file, m->line, col,
                     "topology mesh: l2 node %d outside the %dx%d mesh", node, o->topo_cols,
                     o->topo_rows);
            return -1;
        }
        if (n == SIM_MAX_L2_NODES) {
            diag_set(m->err, m->file, m->line, col, "topology mesh: more than %d l2 nodes",
                     SIM_MAX_L2_NODES);
            return -1;
        }
        o->topo_l2_nodes[n++] = node;
        p += len;
        if (!*p)
            break;
        p++;
    }
    o->topo_l2 = o->topo_l2_nodes[0];
    o->topo_l2_n = n > 1 ? n : 0;
    return 0;
}

/* 'topology crossbar [hop N] [buffer FLITS] [l2 spread]' or
 * 'topology mesh COLS ROWS [hop N] [buffer FLITS] [l2 NODE|N1,N2,...|spread]'
 * (docs/sim.md "Network"); the directive is at column DC. */
static int parse_topology(mp_t *m, int dc, sim_machine_t *o)
{
    char w[64];
    int wc;
    bool q;
    if (o->topology) {
        diag_set(m->err, m->file, m->line, dc, "a second 'topology' line");
        return -1;
    }
    int r = word(m, w, sizeof w, &wc, &q);
    if (r < 0)
        return -1;
    if (r == 0 || q || (strcmp(w, "crossbar") && strcmp(w, "mesh"))) {
        diag_set(m->err, m->file, m->line, wc, "topology: expected 'crossbar' or 'mesh'%s%s%s",
                 r ? ", got '" : "", r ? w : "", r ? "'" : "");
        return -1;
    }
    o->topo_hop = 1;
    o->topo_l2 = 0;
    o->topo_buffer = 0;
    if (w[0] == 'm') {
        o->topology = 2;
        int *dim[2] = {&o->topo_cols, &o->topo_rows};
        for (int k = 0; k < 2; k++) {
            r = word(m, w, sizeof w, &wc, &q);
            if (r < 0)
                return -1;
            if (r == 0) {
                diag_set(m->err, m->file, m->line, wc, "topology mesh needs COLS ROWS");
                return -1;
            }
            if (number(m, w, wc, dim[k]))
                return -1;
            if (*dim[k] < 1 || *dim[k] > 64) {
                diag_set(m->err, m->file, m->line, wc,
                         "topology mesh: COLS and ROWS must be 1..64");
                return -1;
            }
        }
    } else {
        o->topology = 1;
    }
    char l2[512] = "";
    kv_t kv[] = {{"hop", &o->topo_hop, NULL, 0},
                 {"buffer", &o->topo_buffer, NULL, 0},
                 {"l2", NULL, l2, sizeof l2}};
    if (pairs(m, "topology", kv, 3))
        return -1;
    int nodes = o->topology == 2 ? o->topo_cols * o->topo_rows : 0;
    if (l2[0] && parse_l2_nodes(m, l2, m->str_col, nodes, o))
        return -1;
    return 0;
}

/* 'sbuf N [coalesce 0|1] [lazy 0|1]' (docs/sim.md "Store buffer"); the directive is at
   column DC. */
static int parse_sbuf(mp_t *m, int dc, sim_machine_t *o, bool *seen)
{
    char w[64];
    int wc;
    bool q;
    if (*seen) {
        diag_set(m->err, m->file, m->line, dc, "a second 'sbuf' line");
        return -1;
    }
    *seen = true;
    int r = word(m, w, sizeof w, &wc, &q);
    if (r < 0)
        return -1;
    if (r == 0) {
        diag_set(m->err, m->file, m->line, wc, "'sbuf' needs its entries per CU");
        return -1;
    }
    if (number(m, w, wc, &o->sbuf))
        return -1;
    if (o->sbuf > 4096) {
        diag_set(m->err, m->file, m->line, wc, "sbuf: entries must be 0..4096");
        return -1;
    }
    kv_t kv[] = {{"coalesce", &o->sbuf_coalesce, NULL, 0}, {"lazy", &o->sbuf_lazy, NULL, 0}};
    if (pairs(m, "sbuf", kv, 2))
        return -1;
    if (o->sbuf_coalesce > 1 || o->sbuf_lazy > 1) {
        diag_set(m->err, m->file, m->line, dc,
                 o->sbuf_coalesce > 1 ? "sbuf: coalesce 0 or 1" : "sbuf: lazy 0 or 1");
        return -1;
    }
    return 0;
}

int sim_machine_parse(const char *file, const char *src, size_t len, sim_machine_t *o, diag_t *err)
{
    memset(o, 0, sizeof *o);
    /* Defaults: a small machine; every shipped file sets what its paper gives. */
    o->cus = 4;
    o->issue = 1;
    o->alu = 1;
    o->l1_latency = 1;
    o->line_bytes = 64;
    o->l2_latency = 10;
    o->l2_banks = 1;
    o->l2_occupancy = 1;
    o->l2_atomic = 1;
    o->net_latency = 10;
    o->flit_bytes = 32;
    o->bandwidth = 1;
    o->header_bytes = 8;
    o->field_bytes = 4;
    o->local_latency = 1;
    o->lanes = 32;
    o->warp_width = 1;
    snprintf(o->sched, sizeof o->sched, "lrr");
    snprintf(o->l1_evict, sizeof o->l1_evict, "evict");
    snprintf(o->l2_evict, sizeof o->l2_evict, "l2evict");
    mp_t m = {file, src, len, 0, 1, 1, err, 0};
    bool named = false;
    int dram_line = 0, dram_col = 0; /* the first 'event NAME dram' */
    int sb_line = 0, sb_col = 0;     /* the 'sbuf' line */
    bool sb_seen = false;
    while (m.pos < m.len) {
        char dir[64];
        int dc;
        bool q;
        int r = word(&m, dir, sizeof dir, &dc, &q);
        if (r < 0)
            return -1;
        if (r > 0) {
            int lc = dc;
            if (!strcmp(dir, "machine") || !strcmp(dir, "source")) {
                char v[256];
                int vc;
                if (word(&m, v, sizeof v, &vc, &q) <= 0) {
                    diag_set(err, file, m.line, vc, "'%s' needs a %s", dir,
                             dir[0] == 'm' ? "name" : "quoted text");
                    return -1;
                }
                if (dir[0] == 'm') {
                    snprintf(o->name, sizeof o->name, "%.63s", v);
                    named = true;
                    int r2 = word(&m, v, sizeof v, &vc, &q);
                    if (r2 < 0)
                        return -1;
                    if (r2 > 0) {
                        if (!q) {
                            diag_set(err, file, m.line, vc, "a description is quoted");
                            return -1;
                        }
                        snprintf(o->desc, sizeof o->desc, "%s", v);
                    }
                }
                /* 'source "..."' is the citation: kept in the file only. */
            } else if (!strcmp(dir, "cus") || !strcmp(dir, "issue") || !strcmp(dir, "alu") ||
                       !strcmp(dir, "launch") || !strcmp(dir, "barrier")) {
                char v[64];
                int vc;
                if (word(&m, v, sizeof v, &vc, &q) <= 0) {
                    diag_set(err, file, m.line, vc, "'%s' needs a value", dir);
                    return -1;
                }
                int *dst = dir[0] == 'c'   ? &o->cus
                           : dir[0] == 'i' ? &o->issue
                           : dir[0] == 'a' ? &o->alu
                           : dir[0] == 'l' ? &o->launch
                                           : &o->barrier;
                if (number(&m, v, vc, dst))
                    return -1;
                if (dir[0] == 'c' && (o->cus < 1 || o->cus > SIM_MAX_CUS)) {
                    diag_set(err, file, m.line, vc, "cus must be 1..128");
                    return -1;
                }
            } else if (!strcmp(dir, "l1")) {
                kv_t kv[] = {{"latency", &o->l1_latency, NULL, 0},
                             {"sets", &o->l1_sets, NULL, 0},
                             {"ways", &o->l1_ways, NULL, 0},
                             {"mshrs", &o->l1_mshrs, NULL, 0},
                             {"line", &o->line_bytes, NULL, 0},
                             {"evict", NULL, o->l1_evict, sizeof o->l1_evict}};
                if (pairs(&m, dir, kv, 6))
                    return -1;
            } else if (!strcmp(dir, "l2")) {
                kv_t kv[] = {{"latency", &o->l2_latency, NULL, 0},
                             {"banks", &o->l2_banks, NULL, 0},
                             {"occupancy", &o->l2_occupancy, NULL, 0},
                             {"atomic", &o->l2_atomic, NULL, 0},
                             {"sets", &o->l2_sets, NULL, 0},
                             {"ways", &o->l2_ways, NULL, 0},
                             {"evict", NULL, o->l2_evict, sizeof o->l2_evict}};
                if (pairs(&m, dir, kv, 7))
                    return -1;
            } else if (!strcmp(dir, "net")) {
                kv_t kv[] = {
                    {"latency", &o->net_latency, NULL, 0}, {"flit", &o->flit_bytes, NULL, 0},
                    {"bandwidth", &o->bandwidth, NULL, 0}, {"header", &o->header_bytes, NULL, 0},
                    {"field", &o->field_bytes, NULL, 0},   {"buffer", &o->buffer, NULL, 0}};
                if (pairs(&m, dir, kv, 6))
                    return -1;
            } else if (!strcmp(dir, "core")) {
                char sched[64];
                snprintf(sched, sizeof sched, "%s", o->sched);
                kv_t kv[] = {{"lanes", &o->lanes, NULL, 0},
                             {"width", &o->warp_width, NULL, 0},
                             {"scheduler", NULL, sched, sizeof sched},
                             {"naive", &o->naive_sc, NULL, 0}};
                if (pairs(&m, dir, kv, 4))
                    return -1;
                if (o->lanes < 1 || o->lanes > 64 || o->warp_width < 1 || o->naive_sc > 1 ||
                    (strcmp(sched, "lrr") && strcmp(sched, "gto") && strcmp(sched, "oldest"))) {
                    diag_set(err, file, m.line, dc,
                             "core: lanes 1..64, width at least 1, scheduler lrr, gto or oldest, "
                             "naive 0 or 1");
                    return -1;
                }
                snprintf(o->sched, sizeof o->sched, "%.7s", sched);
            } else if (!strcmp(dir, "topology")) {
                if (parse_topology(&m, dc, o))
                    return -1;
            } else if (!strcmp(dir, "dram")) {
                if (parse_dram(&m, dc, o))
                    return -1;
            } else if (!strcmp(dir, "sbuf")) {
                if (parse_sbuf(&m, dc, o, &sb_seen))
                    return -1;
                sb_line = m.line;
                sb_col = dc;
            } else if (!strcmp(dir, "local")) {
                kv_t kv[] = {{"latency", &o->local_latency, NULL, 0}};
                if (pairs(&m, dir, kv, 1))
                    return -1;
            } else if (!strcmp(dir, "event")) {
                char name[32], v[64];
                int nc, vc;
                if (word(&m, name, sizeof name, &nc, &q) <= 0 ||
                    word(&m, v, sizeof v, &vc, &q) <= 0) {
                    diag_set(err, file, m.line, dc, "'event' needs an event name and cycles");
                    return -1;
                }
                if (o->nevlat >= SIM_MAX_EVLAT) {
                    diag_set(err, file, m.line, dc, "too many 'event' lines (at most %d)",
                             SIM_MAX_EVLAT);
                    return -1;
                }
                snprintf(o->evlat_name[o->nevlat], sizeof o->evlat_name[0], "%s", name);
                if (!strcmp(v, "dram")) {
                    o->evlat[o->nevlat] = SIM_EVLAT_DRAM;
                    if (!dram_line) {
                        dram_line = m.line;
                        dram_col = vc;
                    }
                } else if (number(&m, v, vc, &o->evlat[o->nevlat])) {
                    return -1;
                }
                o->nevlat++;
            } else {
                diag_set(err, file, m.line, dc, "unknown directive '%s'", dir);
                return -1;
            }
            char extra[64];
            int ec;
            if (word(&m, extra, sizeof extra, &ec, &q) > 0) {
                diag_set(err, file, m.line, ec, "unexpected '%s' after '%s'", extra, dir);
                return -1;
            }
            (void)lc;
        }
        /* end of line */
        if (m.pos < m.len) {
            if (m.src[m.pos] != '\n') {
                diag_set(err, file, m.line, m.col, "unexpected character");
                return -1;
            }
            m.pos++;
            m.line++;
            m.col = 1;
        }
    }
    if (!named) {
        diag_set(err, file, 1, 1, "a machine file starts with 'machine NAME'");
        return -1;
    }
    if (o->l1_sets && !o->l1_ways) {
        diag_set(err, file, 1, 1, "l1: sets without ways");
        return -1;
    }
    if (o->l2_sets && !o->l2_ways) {
        diag_set(err, file, 1, 1, "l2: sets without ways");
        return -1;
    }
    if (dram_line && !o->has_dram) {
        diag_set(err, file, dram_line, dram_col, "'event ... dram' needs a 'dram' line");
        return -1;
    }
    if (o->sbuf && o->naive_sc) { /* seed 003: SC allows no store buffer */
        diag_set(err, file, sb_line, sb_col, "sbuf: a store buffer with 'core naive 1' (SC)");
        return -1;
    }
    if (o->l2_banks < 1 || o->flit_bytes < 1 || o->bandwidth < 1) {
        diag_set(err, file, 1, 1, "l2 banks, net flit and net bandwidth must be at least 1");
        return -1;
    }
    return 0;
}

int sim_machine_load(const char *path, sim_machine_t *out, diag_t *err)
{
    char *data;
    size_t len;
    if (util_read_file(path, &data, &len)) {
        diag_set(err, path, 0, 0, "cannot read machine file");
        return -1;
    }
    int rc = sim_machine_parse(path, data, len, out, err);
    free(data);
    return rc;
}
