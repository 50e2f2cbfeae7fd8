/* cmd_store.c - the store's subcommands (docs/architecture.md section 7): `show` lists
 * runs, `trace` prints a stored path, `resume` finishes a stopped run, `diff`
 * compares two runs. Each run holds its protocol and test sources and its
 * configuration, so the system is rebuilt from the store alone, whatever the
 * files on disk say now. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/util.h"
#include "../sys/sys_por.h"
#include "cli.h"

static int json_int(const char *js, const char *key, int def)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = js ? strstr(js, pat) : NULL;
    return p ? atoi(p + strlen(pat)) : def;
}

static bool json_has(const char *js, const char *kv)
{
    return js && strstr(js, kv);
}

void cli_rebuilt_free(cli_rebuilt_t *b)
{
    sys_free(b->sys);
    if (b->have_mr)
        exec_result_free(&b->mr);
    if (b->prog)
        exec_layout_free(&b->lay);
    prog_free(b->prog);
    cat_free(b->model);
    proto_free(b->proto);
    store_run_free(&b->run);
    memset(b, 0, sizeof *b);
}

int cli_rebuild(store_t *db, int64_t id, const char *argv0, cli_rebuilt_t *b, diag_t *d)
{
    memset(b, 0, sizeof *b);
    if (store_get_run(db, id, &b->run, d))
        return -1;
    store_run_t *r = &b->run;
    if (proto_parse(r->proto_file ? r->proto_file : "stored.proto",
                    r->proto_src ? r->proto_src : "", r->proto_len, &b->proto, d) ||
        prog_parse(r->test_file ? r->test_file : "stored.litmus", r->test_src ? r->test_src : "",
                   r->test_len, &b->prog, d))
        goto fail;
    exec_layout_init(&b->lay, b->prog);
    /* Parameters: "params":"a=1,b=2". */
    const char *pp = r->config ? strstr(r->config, "\"params\":\"") : NULL;
    if (pp) {
        pp += strlen("\"params\":\"");
        const char *end = strchr(pp, '"');
        char *list = xstrndup(pp, end ? (size_t)(end - pp) : strlen(pp));
        char *save = NULL;
        for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(t, '=');
            if (!eq)
                continue;
            *eq = 0;
            if (proto_set_param(b->proto, t, atoi(eq + 1), d)) {
                free(list);
                goto fail;
            }
        }
        free(list);
    }
    b->cfg.cus = json_int(r->config, "cus", 0);
    b->cfg.lines = json_int(r->config, "lines", 0);
    b->cfg.warm = json_has(r->config, "\"init\":\"warm\"");
    b->cfg.env = (unsigned)json_int(r->config, "env", 0);
    b->cfg.chan_capacity = json_int(r->config, "chan", 8);
    b->cfg.time_raw = json_int(r->config, "time_raw", 0) != 0;
    if (json_int(r->config, "enc", 1) != SYS_ENCODING_VERSION) {
        diag_set(d, NULL, 0, 0,
                 "run %lld was recorded by another version of cohcheck (state encoding %d, this "
                 "one reads %d): check it again",
                 (long long)id, json_int(r->config, "enc", 1), SYS_ENCODING_VERSION);
        goto fail;
    }
    b->cfg.env_all = json_int(r->config, "env_all", 0) != 0;
    const char *en = r->config ? strstr(r->config, "\"env_names\":\"") : NULL;
    for (en = en ? en + 13 : NULL; en && *en && *en != '"' && b->cfg.nenv_names < 8;) {
        size_t n = strcspn(en, ",\"");
        if (n && n < sizeof b->cfg.env_names[0])
            snprintf(b->cfg.env_names[b->cfg.nenv_names++], sizeof b->cfg.env_names[0], "%.*s",
                     (int)n, en);
        en += n + (en[n] == ',');
    }
    b->dfs = json_has(r->config, "\"dfs\":true");
    b->por = json_has(r->config, "\"por\":true");
    b->liveness = json_has(r->config, "\"liveness\":true");
    b->sym = json_has(r->config, "\"symmetry\":true");
    const char *ef = r->config ? strstr(r->config, "\"env_fair\":\"") : NULL;
    if (ef) {
        ef += strlen("\"env_fair\":\"");
        snprintf(b->env_fair, sizeof b->env_fair, "%.*s", (int)strcspn(ef, "\""), ef);
    }
    if (cli_load_model(r->model, argv0, &b->model, d))
        goto fail;
    exec_opts_t xo = {.unroll = json_int(r->config, "unroll", 2)};
    exec_stats_t xs;
    if (exec_eval(b->prog, &b->model, 1, &xo, &b->mr, &xs, d))
        goto fail;
    b->have_mr = true;
    if (sys_new(b->proto, b->prog, &b->cfg, &b->sys, d))
        goto fail;
    if (b->por) { /* a --por run's states have their unread values reset (sys_set_dead) */
        sys_por_t *por = sys_por_new(b->sys);
        sys_set_dead(b->sys, sys_por_active(por, NULL));
        sys_por_free(por);
    }
    /* states are rebuilt canonical, as the run stored them; a run that asked for symmetry
       where the analysis refused it stored real states (b->sym false then) */
    if (b->sym)
        b->sym = sys_set_symmetry(b->sys, true, NULL);
    return 0;
fail:
    cli_rebuilt_free(b);
    return -1;
}

/* The options show, trace, resume and diff share (the table's, for CMD): --db PATH,
 * --json, --help, and resume's --max-states. Returns the index of the first operand,
 * -1 after --help, -2 after an error line. */
static int common_opts(cli_cmd_t cmd, int argc, char **argv, const char **db, bool *json,
                       const char *usage_text, uint64_t *max_states)
{
    cli_getopt_t g;
    cli_getopt_init(&g, cmd);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return -2;
        case 'D': *db = optarg; break;
        case 'J': *json = true; break;
        case 'S': *max_states = (uint64_t)g.num; break;
        case 'h':
            fputs(usage_text, stdout);
            cli_usage(stdout, cmd, "\noptions:\n", NULL);
            return -1;
        }
    }
    return optind;
}

int cli_open_db(const char *path, store_t **db)
{
    diag_t d;
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: no such database (runs are recorded by 'cohcheck check'; see --db)", path);
        return -1;
    }
    fclose(f);
    if (store_open(path, db, &d)) {
        cli_report(&d);
        return -1;
    }
    return 0;
}

static int parse_run(const char *cmd, const char *s, int64_t *id)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v <= 0) {
        cli_error("%s: '%s' is not a run number (see 'cohcheck show')", cmd, s);
        return -1;
    }
    *id = v;
    return 0;
}

/* ---- show ---- */

typedef struct {
    bool json;
    bool one; /* one run asked for: --json adds its message and trace */
    int n;
} show_ctx_t;

static void show_one(void *ctx, const store_run_t *r)
{
    show_ctx_t *c = ctx;
    if (c->json) {
        strbuf_t b;
        sb_init(&b);
        sb_printf(&b, "{\"run\":%lld,\"started\":", (long long)r->id);
        sb_json_str(&b, r->started ? r->started : "");
        sb_puts(&b, ",\"protocol\":");
        sb_json_str(&b, r->protocol ? r->protocol : "");
        sb_puts(&b, ",\"test\":");
        sb_json_str(&b, r->test ? r->test : "");
        sb_puts(&b, ",\"model\":");
        sb_json_str(&b, r->model ? r->model : "");
        sb_puts(&b, ",\"status\":");
        sb_json_str(&b, store_run_state(r));
        if (r->pid > 0) {
            sb_printf(&b, ",\"pid\":%lld,\"host\":", (long long)r->pid);
            sb_json_str(&b, r->host ? r->host : "");
        }
        sb_puts(&b, ",\"verdict\":");
        sb_json_str(&b, r->verdict ? r->verdict : "");
        sb_printf(&b, ",\"states\":%llu,\"transitions\":%llu,\"seconds\":%.3f,\"config\":%s",
                  (unsigned long long)r->states, (unsigned long long)r->transitions, r->seconds,
                  r->config ? r->config : "null");
        if (c->one) {
            sb_puts(&b, ",\"message\":");
            sb_json_str(&b, r->message ? r->message : "");
            sb_printf(&b, ",\"trace\":%s", r->trace_json && *r->trace_json ? r->trace_json : "[]");
        }
        sb_puts(&b, "}\n");
        fputs(b.s, stdout);
        sb_free(&b);
    } else {
        if (c->n == 0)
            printf("%5s  %-19s  %-18s %-28s %-13s %-11s %-10s %10s %12s\n", "run", "started",
                   "protocol", "test", "model", "status", "verdict", "states", "transitions");
        printf("%5lld  %-19s  %-18s %-28s %-13s %-11s %-10s %10llu %12llu\n", (long long)r->id,
               r->started ? r->started : "", r->protocol ? r->protocol : "", r->test ? r->test : "",
               r->model ? r->model : "", store_run_state(r), r->verdict ? r->verdict : "",
               (unsigned long long)r->states, (unsigned long long)r->transitions);
    }
    c->n++;
}

int cmd_show(int argc, char **argv)
{
    const char *dbp = "cohcheck.db";
    bool json = false;
    int first =
        common_opts(CLI_CMD_SHOW, argc, argv, &dbp, &json,
                    "usage: cohcheck show [--db PATH] [--json] [RUN]\n\n"
                    "List the runs recorded in the store (newest first), or show one run: its\n"
                    "configuration, counts, verdict and the trace to its failure, one numbered\n"
                    "step per line; --json: one object per run. Status: done, stopped (a limit;\n"
                    "resumable), running (its process lives), interrupted (its process is gone:\n"
                    "killed, out of memory; resumable), running? (another host's process, cannot\n"
                    "tell).\n",
                    NULL);
    if (first < 0)
        return first == -1 ? CLI_OK : CLI_BAD_INPUT;
    store_t *db;
    if (cli_open_db(dbp, &db))
        return CLI_BAD_INPUT;
    diag_t d;
    int rc = CLI_OK;
    show_ctx_t c = {json, first < argc, 0};
    if (first >= argc) {
        if (store_list_runs(db, show_one, &c, &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
        }
    } else {
        int64_t id = 0;
        store_run_t r;
        if (parse_run("show", argv[first], &id) || store_get_run(db, id, &r, &d)) {
            if (id > 0)
                cli_error("show: no run %s in %s", argv[first], dbp);
            rc = CLI_BAD_INPUT;
        } else {
            show_one(&c, &r);
            if (!json) {
                printf("command: %s\nconfig:  %s\n", r.command ? r.command : "",
                       r.config ? r.config : "");
                if (r.message && *r.message)
                    printf("message: %s\n", r.message);
                if (r.trace_json && strcmp(r.trace_json, "[]")) {
                    puts("trace:");
                    if (cli_print_trace(stdout, "  ", r.trace_json) < 0)
                        printf("  %s\n", r.trace_json);
                }
            }
            store_run_free(&r);
        }
    }
    store_close(db, &d);
    return rc;
}

/* ---- trace ---- */

/* The run's stored failure: verdict, message and trace. */
static void trace_failure(const store_run_t *r, int64_t id, bool json)
{
    if (json)
        printf("{\"run\":%lld,\"verdict\":\"%s\",\"trace\":%s}\n", (long long)id,
               r->verdict ? r->verdict : "", r->trace_json ? r->trace_json : "[]");
    else {
        printf("run %lld: %s %s %s: %s\n", (long long)id, r->protocol, r->test, r->model,
               r->verdict ? r->verdict : "");
        if (r->message && *r->message)
            printf("  %s\n", r->message);
        if (cli_print_trace(stdout, "  ", r->trace_json) < 0)
            printf("  %s\n", r->trace_json);
    }
}

size_t cli_sym_realise_path(sys_t *s, store_state_t *path, size_t n)
{
    size_t maxst = sys_max_state(s);
    uint8_t **st = xcalloc(n + 1, sizeof *st);
    size_t *len = xcalloc(n + 1, sizeof *len);
    sys_label_t *labs = xcalloc(n + 1, sizeof *labs);
    for (size_t i = 0; i < n; i++) {
        const store_state_t *p = &path[n - 1 - i];
        st[i] = xmalloc(maxst + 1);
        len[i] = p->enc_len <= maxst ? p->enc_len : maxst;
        memcpy(st[i], p->enc, len[i]);
    }
    size_t got = sys_sym_realise(s, st, len, labs, n, false);
    for (size_t i = 0; i < got; i++) {
        store_state_t *p = &path[n - 1 - i];
        void *e = xmalloc(len[i] + 1), *l = xmalloc(sizeof labs[i]);
        memcpy(e, st[i], len[i]);
        memcpy(l, &labs[i], sizeof labs[i]);
        free((void *)p->enc); /* malloc'd by store_get_state */
        free((void *)p->label);
        p->enc = e;
        p->enc_len = len[i];
        p->label = l;
        p->label_len = sizeof labs[i];
    }
    for (size_t i = 0; i < n; i++)
        free(st[i]);
    free(st);
    free(len);
    free(labs);
    return got;
}

/* The path to state TARGET of run ID: parents walked back to an initial state,
 * then each step described forward. Returns the exit code. */
static int trace_path(store_t *db, const cli_rebuilt_t *b, int64_t id, int64_t target, bool json)
{
    diag_t d;
    int rc = CLI_OK;
    store_state_t *path = NULL;
    size_t n = 0, cap = 0;
    for (int64_t v = target; v >= 0;) {
        store_state_t st;
        if (store_get_state(db, id, v, &st, &d)) {
            cli_error("trace: run %lld has no state %lld", (long long)id, (long long)v);
            rc = CLI_BAD_INPUT;
            break;
        }
        UTIL_PUSH(path, n, cap, st);
        v = st.parent;
        if (n > 10000000)
            break;
    }
    strbuf_t js;
    sb_init(&js);
    if (json)
        sb_printf(&js, "{\"run\":%lld,\"state\":%lld,\"trace\":[", (long long)id,
                  (long long)target);
    if (rc == CLI_OK && b->sym && cli_sym_realise_path(b->sys, path, n) < n) {
        cli_error("trace: run %lld: no real execution follows the stored states to %lld",
                  (long long)id, (long long)target);
        rc = CLI_BAD_INPUT;
    }
    for (size_t i = n; rc == CLI_OK && i-- > 0;) {
        strbuf_t sb;
        sb_init(&sb);
        sys_label_t lab;
        memcpy(&lab, path[i].label,
               path[i].label_len < sizeof lab ? path[i].label_len : sizeof lab);
        const store_state_t *before = i + 1 < n ? &path[i + 1] : &path[i];
        sys_describe(b->sys, &lab, before->enc, before->enc_len, path[i].enc, path[i].enc_len, &sb);
        if (json) {
            if (i + 1 < n)
                sb_putc(&js, ',');
            sb_json_str(&js, sb.s);
        } else {
            printf("  %3zu  %s\n", n - i, sb.s);
        }
        sb_free(&sb);
    }
    if (json && rc == CLI_OK)
        printf("%s]}\n", js.s);
    sb_free(&js);
    for (size_t i = 0; i < n; i++) {
        free((void *)path[i].label);
        free((void *)path[i].enc);
    }
    free(path);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    const char *dbp = "cohcheck.db";
    bool json = false;
    int first =
        common_opts(CLI_CMD_TRACE, argc, argv, &dbp, &json,
                    "usage: cohcheck trace [--db PATH] [--json] RUN [STATE]\n\n"
                    "Print the path from an initial state to state number STATE of a stored run\n"
                    "(default: the run's failure), one numbered step per line as `check` prints\n"
                    "it: component, event, changes; step 1 is the initial state (warm copies\n"
                    "included). --json: one object with the steps as an array of strings.\n",
                    NULL);
    if (first < 0)
        return first == -1 ? CLI_OK : CLI_BAD_INPUT;
    if (first >= argc) {
        cli_error("trace: give a run number (see 'cohcheck show')");
        return CLI_BAD_INPUT;
    }
    int64_t id, target = -1;
    if (parse_run("trace", argv[first], &id))
        return CLI_BAD_INPUT;
    if (first + 1 < argc) {
        char *end;
        target = strtoll(argv[first + 1], &end, 10);
        if (*end || target < 0) {
            cli_error("trace: '%s' is not a state number", argv[first + 1]);
            return CLI_BAD_INPUT;
        }
    }
    store_t *db;
    if (cli_open_db(dbp, &db))
        return CLI_BAD_INPUT;
    diag_t d;
    int rc = CLI_OK;
    cli_rebuilt_t b;
    if (cli_rebuild(db, id, argv[0], &b, &d)) {
        cli_report(&d);
        store_close(db, &d);
        return CLI_BAD_INPUT;
    }
    if (target < 0)
        trace_failure(&b.run, id, json);
    else
        rc = trace_path(db, &b, id, target, json);
    cli_rebuilt_free(&b);
    store_close(db, &d);
    return rc;
}

/* ---- resume ---- */

typedef struct {
    uint8_t **states;
    size_t *lens;
    int64_t *parents;
    int *depths;
    uint32_t *ords;
    size_t n, cap;
    bool missing; /* some state has no recorded replay position */
    bool gap;     /* the stored numbers are not 0, 1, 2, ... */
} loaded_t;

static void load_state(void *ctx, const store_state_t *st)
{
    loaded_t *l = ctx;
    if (st->id != (int64_t)l->n)
        l->gap = true;
    if (l->n == l->cap) {
        size_t c = l->cap ? l->cap * 2 : 1024;
        l->states = xrealloc(l->states, c * sizeof *l->states);
        l->lens = xrealloc(l->lens, c * sizeof *l->lens);
        l->parents = xrealloc(l->parents, c * sizeof *l->parents);
        l->depths = xrealloc(l->depths, c * sizeof *l->depths);
        l->ords = xrealloc(l->ords, c * sizeof *l->ords);
        l->cap = c;
    }
    l->states[l->n] = xmalloc(st->enc_len + 1);
    memcpy(l->states[l->n], st->enc, st->enc_len);
    l->lens[l->n] = st->enc_len;
    l->parents[l->n] = st->parent;
    l->depths[l->n] = st->depth;
    sys_label_t lab;
    cli_label_read(st->label, st->label_len, &lab, &l->ords[l->n]);
    l->missing |= l->ords[l->n] == UINT32_MAX;
    l->n++;
}

/* Successors of one parent, for finding the replay positions of its children. */
typedef struct {
    uint8_t **enc;
    size_t *len;
    size_t n, cap;
} succs_t;

static void collect_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    succs_t *c = ctx;
    (void)lab;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->enc = xrealloc(c->enc, c->cap * sizeof *c->enc);
        c->len = xrealloc(c->len, c->cap * sizeof *c->len);
    }
    c->enc[c->n] = xmalloc(len + 1);
    memcpy(c->enc[c->n], st, len);
    c->len[c->n++] = len;
}

static void succs_clear(succs_t *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->enc[i]);
    c->n = 0;
}

/* The successors of stored state P (the initial states for P = -1) into C, unless
 * *HAVE says they are there already. */
static void parent_succs(sys_t *sys, const loaded_t *l, int64_t p, succs_t *c, int64_t *have)
{
    if (p == *have)
        return;
    succs_clear(c);
    sys_error_t e;
    if (p < 0)
        sys_initial(sys, collect_succ, c, &e);
    else
        sys_successors(sys, l->states[p], l->lens[p], collect_succ, c, &e);
    *have = p;
}

/* Runs recorded before replay positions were stored: find each state's position
 * among its parent's successors by computing them again. 0, or -1 with ERR. */
static int derive_ords(sys_t *sys, loaded_t *l, diag_t *err)
{
    succs_t c = {NULL, NULL, 0, 0};
    int64_t have = -2; /* whose successors C holds (-1: the initial states) */
    int rc = 0;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        if (l->ords[i] != UINT32_MAX)
            continue;
        int64_t p = l->parents[i];
        if (p >= (int64_t)i) {
            diag_set(err, "", 0, 0, "resume: state %zu has parent %lld", i, (long long)p);
            rc = -1;
            break;
        }
        parent_succs(sys, l, p, &c, &have);
        for (size_t k = 0; k < c.n; k++)
            if (c.len[k] == l->lens[i] && !memcmp(c.enc[k], l->states[i], c.len[k])) {
                l->ords[i] = (uint32_t)k;
                break;
            }
        if (l->ords[i] == UINT32_MAX) {
            diag_set(err, "", 0, 0, "resume: stored state %zu is not a successor of its parent", i);
            rc = -1;
        }
    }
    succs_clear(&c);
    free(c.enc);
    free(c.len);
    return rc;
}

/* The resumed run's result: one line and its trace, or one JSON object. */
static void resume_print(const store_run_t *run, int64_t id, const explore_result_t *r,
                         size_t loaded, bool json)
{
    if (json)
        printf("{\"run\":%lld,\"protocol\":\"%s\",\"test\":\"%s\",\"model\":\"%s\","
               "\"states\":%llu,"
               "\"transitions\":%llu,\"verdict\":\"%s\"}\n",
               (long long)id, run->protocol, run->test, run->model, (unsigned long long)r->states,
               (unsigned long long)r->transitions, explore_verdict_names[r->verdict]);
    else {
        printf("%s %s %s: %s (%llu states, %llu transitions; resumed run %lld from %zu "
               "states)\n",
               run->protocol, run->test, run->model, explore_verdict_names[r->verdict],
               (unsigned long long)r->states, (unsigned long long)r->transitions, (long long)id,
               loaded);
        if (r->verdict != EXPLORE_OK)
            printf("  %s\n", r->msg);
        for (int i = 0; i < r->ntrace; i++)
            printf("  %3d  %s\n", i + 1, r->trace[i]);
    }
}

/* Continue run ID's search from the L states loaded from the store, record and
 * print the result. Returns the exit code. */
static int resume_search(store_t *db, cli_rebuilt_t *b, int64_t id, const loaded_t *l,
                         uint64_t max_states, bool json)
{
    diag_t d;
    int rc;
    cli_store_ctx_t hook = {db, id};
    /* A run that crashed recorded no expanded count (0): re-expand everything. One
     * stopped, then resumed and interrupted keeps its stopped count, still true. */
    uint64_t expanded = b->run.expanded;
    if (expanded > l->n)
        expanded = l->n;
    explore_resume_t res = {
        l->n,     (const uint8_t *const *)l->states, l->lens, l->parents, l->depths, l->ords,
        expanded, expanded ? b->run.transitions : 0};
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = max_states;
    eo.allowed = b->mr.racy ? NULL : &b->mr.allowed;
    /* Interrupted before its first state was stored: explore from the start. */
    eo.resume = l->n ? &res : NULL;
    eo.por = b->por; /* the same reduction, so the same states are expanded */
    eo.symmetry = b->sym;
    eo.liveness = b->liveness;
    eo.fairness = b->liveness ? json_int(b->run.config, "fairness", 1) : 0;
    const char *fair[8];
    char fair_buf[sizeof b->env_fair];
    snprintf(fair_buf, sizeof fair_buf, "%s", b->env_fair);
    int nfair = *fair_buf ? cli_parse_env_fair(fair_buf, fair, 8) : 0;
    eo.fair_env = fair;
    eo.nfair_env = nfair > 0 ? nfair : 0;
    eo.on_new = cli_store_hook;
    eo.on_new_ctx = &hook;
    explore_result_t r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (explore_run(b->sys, b->lay.nkeys, &eo, &r, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs =
        b->run.seconds + (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    int rec = cli_store_finish(db, id, &r, &b->lay, &b->mr, secs);
    resume_print(&b->run, id, &r, l->n, json);
    rc = r.verdict == EXPLORE_OK ? CLI_OK : r.verdict == EXPLORE_INCOMPLETE ? CLI_LIMIT : CLI_FAIL;
    if (rec != CLI_OK)
        rc = rec; /* not recorded: never an "ok" exit */
    explore_result_free(&r);
    return rc;
}

int cmd_resume(int argc, char **argv)
{
    const char *dbp = "cohcheck.db";
    bool json = false;
    uint64_t max_states = 0;
    int first = common_opts(
        CLI_CMD_RESUME, argc, argv, &dbp, &json,
        "usage: cohcheck resume [--db PATH] [--max-states N] [--json] RUN\n\n"
        "Continue a BFS run that a limit or SIGINT stopped, or that was interrupted\n"
        "(killed, out of memory), from the states recorded in the store, and record the\n"
        "result in the same run. Final counts equal those of an uninterrupted run. A run\n"
        "whose process still lives is refused.\n",
        &max_states);
    if (first < 0)
        return first == -1 ? CLI_OK : CLI_BAD_INPUT;
    int64_t id;
    if (first >= argc || parse_run("resume", argv[first], &id)) {
        if (first >= argc)
            cli_error("resume: give a run number (see 'cohcheck show')");
        return CLI_BAD_INPUT;
    }
    store_t *db;
    if (cli_open_db(dbp, &db))
        return CLI_BAD_INPUT;
    diag_t d;
    cli_rebuilt_t b;
    if (cli_rebuild(db, id, argv[0], &b, &d)) {
        cli_report(&d);
        store_close(db, &d);
        return CLI_BAD_INPUT;
    }
    int rc = CLI_OK;
    loaded_t l;
    memset(&l, 0, sizeof l);
    if (!strcmp(b.run.status, "done")) {
        cli_error("resume: run %lld is complete (%s); nothing to resume", (long long)id,
                  b.run.verdict);
        rc = CLI_BAD_INPUT;
    } else if (b.dfs) {
        cli_error("resume: run %lld used --dfs; only BFS runs can be resumed", (long long)id);
        rc = CLI_BAD_INPUT;
    } else if (store_run_claim(db, id, &d) || store_states(db, id, load_state, &l, &d) ||
               (l.missing && derive_ords(b.sys, &l, &d))) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK)
        rc = resume_search(db, &b, id, &l, max_states, json);
    for (size_t i = 0; i < l.n; i++)
        free(l.states[i]);
    free(l.states);
    free(l.lens);
    free(l.parents);
    free(l.depths);
    free(l.ords);
    cli_rebuilt_free(&b);
    if (store_close(db, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    }
    return rc;
}

/* ---- diff ---- */

typedef struct {
    sys_t *sys;
    char **items;
    size_t n, cap;
} textset_t;

static void collect_state(void *ctx, const store_state_t *st)
{
    textset_t *t = ctx;
    strbuf_t sb;
    sb_init(&sb);
    sys_dump(t->sys, st->enc, st->enc_len, &sb);
    for (size_t i = 0; i + 1 < sb.len; i++) /* one line per state: "P0 ... | L1[0]: ..." */
        if (sb.s[i] == '\n')
            sb.s[i] = '|';
    if (sb.len && sb.s[sb.len - 1] == '\n')
        sb.s[--sb.len] = 0;
    UTIL_PUSH(t->items, t->n, t->cap, sb.s);
}

static void collect_outcome(void *ctx, const char *json, bool allowed)
{
    textset_t *t = ctx;
    strbuf_t sb;
    sb_init(&sb);
    sb_printf(&sb, "%s%s", json, allowed ? "" : " (forbidden)");
    UTIL_PUSH(t->items, t->n, t->cap, sb.s);
}

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_unique(textset_t *t)
{
    if (!t->n)
        return;
    qsort(t->items, t->n, sizeof *t->items, cmpstr);
    size_t k = 1;
    for (size_t i = 1; i < t->n; i++) {
        if (!strcmp(t->items[i], t->items[k - 1]))
            free(t->items[i]);
        else
            t->items[k++] = t->items[i];
    }
    t->n = k;
}

static void textset_free(textset_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->items[i]);
    free(t->items);
}

/* Print what is only in A and only in B (at most SHOW examples each); return the counts. */
static void set_diff(const char *what, const textset_t *a, const textset_t *b, int64_t ra,
                     int64_t rb, size_t show, size_t *only_a, size_t *only_b)
{
    size_t i = 0, j = 0, na = 0, nb = 0;
    while (i < a->n || j < b->n) {
        int c = i >= a->n ? 1 : j >= b->n ? -1 : strcmp(a->items[i], b->items[j]);
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            if (na++ < show)
                printf("  %s only in run %lld: %s\n", what, (long long)ra, a->items[i]);
            i++;
        } else {
            if (nb++ < show)
                printf("  %s only in run %lld: %s\n", what, (long long)rb, b->items[j]);
            j++;
        }
    }
    *only_a = na;
    *only_b = nb;
}

/* The next "key":value pair of a flat JSON object at *P into KEY and VAL (a string's
 * contents, or the bare token). 0, or -1 at the end. */
static int config_pair(const char **p, char *key, size_t klen, char *val, size_t vlen)
{
    const char *s = *p;
    while (*s && *s != '"')
        s++;
    if (!*s)
        return -1;
    const char *k = ++s;
    while (*s && *s != '"')
        s++;
    if (!*s)
        return -1;
    snprintf(key, klen, "%.*s", (int)(s - k), k);
    s++;
    while (*s == ':' || *s == ' ')
        s++;
    const char *v = s;
    if (*s == '"') {
        v = ++s;
        while (*s && !(*s == '"' && s[-1] != '\\'))
            s++;
        snprintf(val, vlen, "%.*s", (int)(s - v), v);
        if (*s)
            s++;
    } else {
        while (*s && *s != ',' && *s != '}')
            s++;
        snprintf(val, vlen, "%.*s", (int)(s - v), v);
    }
    *p = s;
    return 0;
}

/* Look KEY up in flat JSON object CFG; VAL gets "(none)" when it is absent. */
static void config_get(const char *cfg, const char *key, char *val, size_t vlen)
{
    char k[64];
    const char *p = cfg ? cfg : "";
    while (config_pair(&p, k, sizeof k, val, vlen) == 0)
        if (!strcmp(k, key))
            return;
    snprintf(val, vlen, "(none)");
}

/* The settings two runs were made with that differ (their stored configurations):
 * "por true -> false, init cold -> warm" into TEXT, objects into JS. Returns how many. */
static int settings_diff(const char *ca, const char *cb, strbuf_t *text, strbuf_t *js)
{
    int n = 0;
    for (int side = 0; side < 2; side++) {
        const char *p = side ? cb : ca;
        char key[64], v[512], va[512], vb[512];
        while (p && config_pair(&p, key, sizeof key, v, sizeof v) == 0) {
            if (side) { /* keys only run 2 has */
                config_get(ca, key, va, sizeof va);
                if (strcmp(va, "(none)"))
                    continue;
                snprintf(vb, sizeof vb, "%s", v);
            } else {
                snprintf(va, sizeof va, "%s", v);
                config_get(cb, key, vb, sizeof vb);
                if (!strcmp(va, vb))
                    continue;
            }
            sb_printf(text, "%s%s %s -> %s", n ? ", " : "", key, *va ? va : "\"\"",
                      *vb ? vb : "\"\"");
            sb_puts(js, n ? ",{\"setting\":" : "{\"setting\":");
            sb_json_str(js, key);
            sb_puts(js, ",\"run1\":");
            sb_json_str(js, va);
            sb_puts(js, ",\"run2\":");
            sb_json_str(js, vb);
            sb_putc(js, '}');
            n++;
        }
    }
    return n;
}

static void print_run_line(int64_t id, const store_run_t *r)
{
    printf("run %lld: %s %s %s: %s, %llu states, %llu transitions\n", (long long)id, r->protocol,
           r->test, r->model, r->verdict ? r->verdict : "", (unsigned long long)r->states,
           (unsigned long long)r->transitions);
}

/* diff --json: one object; SETTINGS is the settings_differ array's contents. */
static void diff_json(int64_t ra, int64_t rb, const char *settings, bool verdict_same,
                      const textset_t *oa, const textset_t *ob, size_t sa_only, size_t sb_only,
                      size_t both)
{
    strbuf_t jb;
    sb_init(&jb);
    sb_printf(&jb,
              "{\"run1\":%lld,\"run2\":%lld,\"settings_differ\":[%s],\"verdict_same\":%s,"
              "\"outcomes_only_1\":[",
              (long long)ra, (long long)rb, settings, verdict_same ? "true" : "false");
    for (int side = 0; side < 2; side++) {
        const textset_t *x = side ? ob : oa, *y = side ? oa : ob;
        int k = 0;
        for (size_t i = 0; i < x->n; i++) {
            if (bsearch(&x->items[i], y->items, y->n, sizeof *y->items, cmpstr))
                continue;
            if (k++)
                sb_putc(&jb, ',');
            sb_json_str(&jb, x->items[i]);
        }
        sb_puts(&jb, side ? "]" : "],\"outcomes_only_2\":[");
    }
    sb_printf(&jb, ",\"states_only_1\":%zu,\"states_only_2\":%zu,\"states_both\":%zu}\n", sa_only,
              sb_only, both);
    fputs(jb.s, stdout);
    sb_free(&jb);
}

/* Compare runs RA and RB (rebuilt as A and B): verdicts, reached outcomes and
 * visited states by their decoded form; print the differences. Returns the exit
 * code (CLI_FAIL when anything differs). */
static int diff_sets(store_t *db, const cli_rebuilt_t *A, const cli_rebuilt_t *B, int64_t ra,
                     int64_t rb, bool json, const char *settings)
{
    diag_t d;
    textset_t oa, ob, sa, sb;
    memset(&oa, 0, sizeof oa);
    memset(&ob, 0, sizeof ob);
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    sa.sys = A->sys;
    sb.sys = B->sys;
    int rc = CLI_OK;
    if (store_outcomes(db, ra, collect_outcome, &oa, &d) ||
        store_outcomes(db, rb, collect_outcome, &ob, &d) ||
        store_states(db, ra, collect_state, &sa, &d) ||
        store_states(db, rb, collect_state, &sb, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
    } else {
        sort_unique(&oa);
        sort_unique(&ob);
        sort_unique(&sa);
        sort_unique(&sb);
        size_t oa_only, ob_only, sa_only, sb_only;
        set_diff("outcome", &oa, &ob, ra, rb, json ? 0 : (size_t)-1, &oa_only, &ob_only);
        set_diff("state", &sa, &sb, ra, rb, json ? 0 : 3, &sa_only, &sb_only);
        bool verdict_same =
            A->run.verdict && B->run.verdict && !strcmp(A->run.verdict, B->run.verdict);
        if (json)
            diff_json(ra, rb, settings, verdict_same, &oa, &ob, sa_only, sb_only, sa.n - sa_only);
        else
            printf("verdict: %s\noutcomes: %zu only in run %lld, %zu only in run %lld\n"
                   "states: %zu only in run %lld, %zu only in run %lld, %zu in both\n",
                   verdict_same ? "same" : "differs", oa_only, (long long)ra, ob_only,
                   (long long)rb, sa_only, (long long)ra, sb_only, (long long)rb, sa.n - sa_only);
        if (!verdict_same || oa_only || ob_only || sa_only || sb_only)
            rc = CLI_FAIL;
    }
    textset_free(&oa);
    textset_free(&ob);
    textset_free(&sa);
    textset_free(&sb);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    const char *dbp = "cohcheck.db";
    bool json = false;
    int first = common_opts(
        CLI_CMD_DIFF, argc, argv, &dbp, &json,
        "usage: cohcheck diff [--db PATH] [--json] RUN1 RUN2\n\n"
        "Compare two runs (say, a protocol before and after a change): verdicts, counts,\n"
        "reached outcomes, and visited states compared by their decoded, name-based form\n"
        "(thread positions, line states by name, messages by name), so renumbered states\n"
        "and reordered tables still match. First it names the settings the two runs\n"
        "were made with that differ (--por against --no-por, --init, --env, ...).\n"
        "Exit 1 when verdicts, outcomes or states differ.\n",
        NULL);
    if (first < 0)
        return first == -1 ? CLI_OK : CLI_BAD_INPUT;
    int64_t ra, rb;
    if (first + 1 >= argc || parse_run("diff", argv[first], &ra) ||
        parse_run("diff", argv[first + 1], &rb)) {
        if (first + 1 >= argc)
            cli_error("diff: give two run numbers (see 'cohcheck show')");
        return CLI_BAD_INPUT;
    }
    store_t *db;
    if (cli_open_db(dbp, &db))
        return CLI_BAD_INPUT;
    diag_t d;
    cli_rebuilt_t A, B;
    if (cli_rebuild(db, ra, argv[0], &A, &d)) {
        cli_report(&d);
        store_close(db, &d);
        return CLI_BAD_INPUT;
    }
    if (cli_rebuild(db, rb, argv[0], &B, &d)) {
        cli_report(&d);
        cli_rebuilt_free(&A);
        store_close(db, &d);
        return CLI_BAD_INPUT;
    }
    if (!json) {
        print_run_line(ra, &A.run);
        print_run_line(rb, &B.run);
    }
    /* Runs made with different settings (--por against --no-por, cold against warm)
     * differ for that reason alone: say so first. */
    strbuf_t set_text, set_js;
    sb_init(&set_text);
    sb_init(&set_js);
    int nset = settings_diff(A.run.config, B.run.config, &set_text, &set_js);
    if (!json)
        printf("settings: %s\n", nset ? set_text.s : "same");
    int rc = diff_sets(db, &A, &B, ra, rb, json, nset ? set_js.s : "");
    sb_free(&set_text);
    sb_free(&set_js);
    cli_rebuilt_free(&A);
    cli_rebuilt_free(&B);
    store_close(db, &d);
    return rc;
}

/* ---- store check ---- */

static void loaded_free(loaded_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->states[i]);
    free(l->states);
    free(l->lens);
    free(l->parents);
    free(l->depths);
    free(l->ords);
    memset(l, 0, sizeof *l);
}

typedef struct {
    int64_t *ids;
    size_t n, cap;
} idlist_t;

static void collect_id(void *ctx, const store_run_t *r)
{
    idlist_t *l = ctx;
    UTIL_PUSH(l->ids, l->n, l->cap, r->id);
}

/* Replay every stored step of L: each state must be a successor of its parent
 * (an initial state for parent -1), at its recorded position when there is one.
 * Returns the first state that is not, or -1 when all are. */
static int64_t replay_states(sys_t *sys, const loaded_t *l)
{
    succs_t c = {NULL, NULL, 0, 0};
    int64_t have = -2, bad = -1;
    for (size_t i = 0; i < l->n && bad < 0; i++) {
        int64_t p = l->parents[i];
        if (p < -1 || p >= (int64_t)i) {
            bad = (int64_t)i;
            break;
        }
        parent_succs(sys, l, p, &c, &have);
        bool found = false;
        for (size_t k = 0; k < c.n && !found; k++)
            found = (l->ords[i] == UINT32_MAX || l->ords[i] == k) && c.len[k] == l->lens[i] &&
                    !memcmp(c.enc[k], l->states[i], c.len[k]);
        if (!found)
            bad = (int64_t)i;
    }
    succs_clear(&c);
    free(c.enc);
    free(c.len);
    return bad;
}

/* Check run ID: its stored states are numbered 0..n-1, every step replays, and a
 * finished run's counts equal its rows. Problems go to PB, one line each; returns how many
 * (-1: the run cannot be read). */
static int check_run(store_t *db, int64_t id, const char *argv0, bool replay, bool quiet,
                     uint64_t *nstates, char *state, size_t statelen, strbuf_t *pb)
{
    diag_t d;
    cli_rebuilt_t b;
    store_run_t r;
    if (store_get_run(db, id, &r, &d)) {
        sb_printf(pb, "run %lld: %s\n", (long long)id, d.msg);
        return -1;
    }
    snprintf(state, statelen, "%s", store_run_state(&r));
    bool finished = !strcmp(r.status, "done") || !strcmp(r.status, "stopped");
    uint64_t want = r.states;
    int64_t failure = r.failure;
    store_run_free(&r);
    int bad = 0;
    loaded_t l;
    memset(&l, 0, sizeof l);
    if (store_states(db, id, load_state, &l, &d)) {
        sb_printf(pb, "run %lld: %s\n", (long long)id, d.msg);
        return 1;
    }
    *nstates = l.n;
    if (l.gap && ++bad)
        sb_printf(pb, "run %lld: the stored states are not numbered 0 to %zu\n", (long long)id,
                  l.n);
    if (finished && l.n != want && ++bad)
        sb_printf(pb, "run %lld: the run says %llu states, %zu are stored\n", (long long)id,
                  (unsigned long long)want, l.n);
    if (failure >= (int64_t)l.n && ++bad)
        sb_printf(pb, "run %lld: the failing state %lld is not stored\n", (long long)id,
                  (long long)failure);
    if (replay && !bad && l.n) {
        if (cli_rebuild(db, id, argv0, &b, &d)) {
            sb_printf(pb, "run %lld: cannot rebuild its system: %s\n", (long long)id, d.msg);
            bad++;
        } else {
            int64_t at = replay_states(b.sys, &l);
            if (at >= 0 && ++bad)
                sb_printf(pb, "run %lld: stored state %lld is not a successor of its parent %lld\n",
                          (long long)id, (long long)at, (long long)l.parents[at]);
            cli_rebuilt_free(&b);
        }
    }
    if (!bad && !quiet)
        sb_printf(pb, "run %lld: %s, %zu states%s\n", (long long)id, state, l.n,
                  replay && l.n ? ", every step replays" : "");
    loaded_free(&l);
    return bad;
}

/* store check --json: one object; PROBLEMS holds one line per problem. */
static void store_check_json(const char *dbp, bool ok, size_t nruns, size_t nfin, size_t nint,
                             size_t nrun, uint64_t total, const char *problems)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "{\"db\":");
    sb_json_str(&b, dbp);
    sb_printf(&b,
              ",\"consistent\":%s,\"runs\":%zu,\"finished\":%zu,\"interrupted\":%zu,"
              "\"running\":%zu,\"states\":%llu,\"problems\":[",
              ok ? "true" : "false", nruns, nfin, nint, nrun, (unsigned long long)total);
    for (const char *p = problems, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            nl = p + strlen(p) - 1;
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
        if (p != problems)
            sb_putc(&b, ',');
        sb_json_str(&b, line);
    }
    sb_puts(&b, "]}\n");
    fputs(b.s, stdout);
    sb_free(&b);
}

static const char store_usage[] =
    "usage: cohcheck store check [--no-replay] [--quiet] [--json] DB\n\n"
    "Verify a store: SQLite's integrity and foreign-key checks, then every run: its\n"
    "stored states are numbered without gaps, a finished run's counts equal its stored\n"
    "rows, its failing state is stored, and every stored step replays (each state is a\n"
    "successor of its parent under the run's own protocol, test and configuration).\n"
    "Runs still being written or interrupted are checked as far as they got.\n"
    "--no-replay skips the replay (fast on big stores). Exit 0: consistent; 1: a problem\n"
    "(one line each); 2: not a store, or bad usage. --json: one object (db, consistent,\n"
    "runs, finished, interrupted, running, states, problems).\n"
    "\n"
    "options:\n";

/* Parse `store check`'s options; *DONE when the command ends here (--help, or an
 * error line printed) with the returned code. */
static int store_args(int argc, char **argv, bool *replay, bool *quiet, bool *json,
                      const char **dbp, bool *done)
{
    *done = true;
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_usage(stdout, CLI_CMD_STORE_CHECK, store_usage, NULL);
        return CLI_OK;
    }
    if (argc < 2 || strcmp(argv[1], "check") != 0) {
        cli_error("store: give a subcommand: check (see 'cohcheck store --help')");
        return CLI_BAD_INPUT;
    }
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_STORE_CHECK);
    for (int ch; (ch = cli_getopt(&g, argc - 1, argv + 1)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case CLI_O_NO_REPLAY: *replay = false; break;
        case 'q': *quiet = true; break;
        case 'J': *json = *quiet = true; break;
        case 'h': cli_usage(stdout, CLI_CMD_STORE_CHECK, store_usage, NULL); return CLI_OK;
        }
    }
    int first = optind + 1;
    if (first < argc)
        *dbp = argv[first];
    if (first + 1 < argc) {
        cli_error("store check: unexpected '%s' (see 'cohcheck store --help')", argv[first + 1]);
        return CLI_BAD_INPUT;
    }
    if (!*dbp) {
        cli_error("store check: give the database file (see 'cohcheck store --help')");
        return CLI_BAD_INPUT;
    }
    *done = false;
    return CLI_OK;
}

int cmd_store(int argc, char **argv)
{
    bool replay = true, quiet = false, json = false, done;
    const char *dbp = NULL;
    int rc = store_args(argc, argv, &replay, &quiet, &json, &dbp, &done);
    if (done)
        return rc;
    store_t *db;
    if (cli_open_db(dbp, &db))
        return CLI_BAD_INPUT;
    diag_t d;
    char msg[512];
    int integ = store_integrity(db, msg, sizeof msg, &d);
    if (integ < 0) {
        cli_report(&d);
        store_close(db, &d);
        return CLI_BAD_INPUT;
    }
    int bad = integ;
    strbuf_t pb;
    sb_init(&pb);
    if (integ)
        sb_printf(&pb, "%s: %s\n", dbp, msg);
    idlist_t ids = {NULL, 0, 0};
    if (store_list_runs(db, collect_id, &ids, &d)) {
        sb_printf(&pb, "%s: %s\n", dbp, d.msg);
        bad++;
    }
    size_t nfin = 0, nint = 0, nrun = 0;
    uint64_t total = 0;
    for (size_t i = ids.n; i-- > 0;) {
        uint64_t n = 0;
        char state[32] = "";
        int k = check_run(db, ids.ids[i], argv[0], replay, quiet, &n, state, sizeof state, &pb);
        bad += k != 0;
        total += n;
        if (!strcmp(state, "done") || !strcmp(state, "stopped"))
            nfin++;
        else if (!strcmp(state, "interrupted"))
            nint++;
        else
            nrun++;
        if (!json) {
            fputs(pb.s ? pb.s : "", stdout);
            sb_free(&pb);
            sb_init(&pb);
        }
    }
    free(ids.ids);
    if (json)
        store_check_json(dbp, bad == 0, ids.n, nfin, nint, nrun, total, pb.s ? pb.s : "");
    else
        printf("%s%s: %s: %zu runs (%zu finished, %zu interrupted, %zu running), %llu states\n",
               pb.s ? pb.s : "", dbp, bad ? "PROBLEMS" : "consistent", ids.n, nfin, nint, nrun,
               (unsigned long long)total);
    sb_free(&pb);
    store_close(db, &d);
    return bad ? CLI_FAIL : CLI_OK;
}
