/* cmd_classify.c - `cohcheck classify --protocol P SUITE...`: where a protocol
 * sits in the model lattice (models/lattice; docs/architecture.md section 3, normative
 * JSON fields protocol, passes, fails, strongest, separating).
 *
 * Each test is explored once, with no model to stop at, collecting every
 * outcome the protocol reaches and the least depth at which it reaches it
 * (BFS); each test is evaluated once under all the lattice's models. A model
 * fails when some test reaches an outcome it forbids (a racy test forbids
 * nothing), passes when every test was explored completely without that,
 * and is undecided otherwise: an incomplete search is never a pass. The
 * strongest passed models are the maximal ones in the lattice; for each
 * failed model just above one of them, the separating test is the one whose
 * forbidden outcome is reached in the fewest steps, and that test alone is
 * explored again under that model to print the (shortest, BFS) trace. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../explore/explore.h"
#include "../lattice/lattice.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck classify --protocol P [OPTIONS] PATH...\n"
    "\n"
    "Place a protocol in the lattice of memory models (models/lattice): explore it\n"
    "once on every litmus test in PATH... (files or folders), compare the outcomes it\n"
    "reaches with the outcomes each model allows, and report the models it passes\n"
    "and fails, the strongest models it passes, and for each failed model just above\n"
    "those, the separating test whose forbidden outcome is reached in the fewest\n"
    "steps, with its shortest trace.\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] =
    "\n"
    "A test the protocol cannot run (no core map for an instruction) is skipped. A\n"
    "deadlock, an invariant failure or an unexpected event fails every model.\n"
    "exit: 0 done and every model decided, 1 a protocol error (deadlock, invariant,\n"
    "unexpected) or every model failed, 2 bad input, 3 some model undecided because\n"
    "a search was incomplete\n";

typedef struct {
    int nkeys;
    size_t n, cap;
    prog_val_t *v;
    int *depth;
} depths_t;

static void on_outcome(void *ctx, const prog_val_t *o, int depth)
{
    depths_t *d = ctx;
    for (size_t i = 0; i < d->n; i++)
        if (!memcmp(d->v + i * (size_t)d->nkeys, o, (size_t)d->nkeys * sizeof *o)) {
            if (depth < d->depth[i])
                d->depth[i] = depth;
            return;
        }
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->v = xrealloc(d->v, d->cap * (size_t)(d->nkeys ? d->nkeys : 1) * sizeof *d->v);
        d->depth = xrealloc(d->depth, d->cap * sizeof *d->depth);
    }
    memcpy(d->v + d->n * (size_t)d->nkeys, o, (size_t)d->nkeys * sizeof *o);
    d->depth[d->n++] = depth;
}

/* Per model: its state on the suite and its best separating test so far. */
typedef struct {
    cat_model_t *model;
    int failed_tests, undecided_tests;
    char *sep_file; /* the failing test with the shallowest forbidden outcome */
    char *sep_name;
    int sep_depth;
    uint64_t sep_states;
    bool sep_protocol_error; /* a deadlock/invariant/unexpected, not an outcome */
    int sep_verdict;
    char **sep_trace; /* kept for protocol errors (the first run's trace) */
    int sep_ntrace;
    char sep_msg[320];
    char *sep_outcome;      /* the forbidden outcome, "0:r0=1; x=0;" */
    char *sep_outcome_json; /* the same as a JSON object */
} mstate_t;

typedef struct {
    proto_t *proto;
    sys_config_t cfg;
    uint64_t max_states;
    int unroll;
    const char *argv0;
    bool por; /* --por (docs/por.md) */
} ctx_t;

static void free_trace(char **t, int n)
{
    for (int i = 0; i < n; i++)
        free(t[i]);
    free(t);
}

static char **copy_trace(const explore_result_t *r)
{
    char **t = xcalloc((size_t)r->ntrace + 1, sizeof *t);
    for (int i = 0; i < r->ntrace; i++)
        t[i] = xstrdup(r->trace[i]);
    return t;
}

/* Is candidate (DEPTH, STATES, NAME) better than the model's current one? */
static bool better(const mstate_t *m, int depth, uint64_t states, const char *name)
{
    if (!m->sep_file)
        return true;
    if (depth != m->sep_depth)
        return depth < m->sep_depth;
    if (states != m->sep_states)
        return states < m->sep_states;
    return strcmp(name, m->sep_name) < 0;
}

static void set_sep(mstate_t *m, const char *file, const char *name, int depth, uint64_t states)
{
    free(m->sep_file);
    free(m->sep_name);
    free_trace(m->sep_trace, m->sep_ntrace);
    m->sep_trace = NULL;
    m->sep_ntrace = 0;
    m->sep_protocol_error = false;
    m->sep_file = xstrdup(file);
    m->sep_name = xstrdup(name);
    m->sep_depth = depth;
    m->sep_states = states;
}

/* Explore one test and update every model. Returns 0 run, 1 skipped, 2 a bad test file
 * (reported; the caller goes on), -1 bad input that stops the run. */
static int classify_test(const ctx_t *c, const char *file, mstate_t *ms, int nm, bool *incomplete,
                         bool *proto_error)
{
    diag_t d;
    prog_t *p;
    if (prog_load(file, &p, &d)) {
        cli_report(&d);
        return 2;
    }
    cat_model_t *models[LATTICE_MAX_MODELS];
    for (int i = 0; i < nm; i++)
        models[i] = ms[i].model;
    exec_model_result_t mr[LATTICE_MAX_MODELS];
    exec_stats_t xs;
    exec_opts_t xo = {.unroll = c->unroll};
    if (exec_eval(p, models, nm, &xo, mr, &xs, &d)) {
        cli_report(&d);
        prog_free(p);
        return 2;
    }
    int rc = 0;
    sys_t *s = NULL;
    int src = sys_new(c->proto, p, &c->cfg, &s, &d);
    if (src == -2) {
        rc = 1;
        goto out;
    }
    if (src) {
        cli_report(&d);
        rc = -1;
        goto out;
    }
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    depths_t dep = {.nkeys = lay.nkeys};
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = c->max_states;
    eo.por = c->por;
    eo.on_outcome = on_outcome;
    eo.on_outcome_ctx = &dep;
    explore_result_t r;
    if (explore_run(s, lay.nkeys, &eo, &r, &d)) {
        cli_report(&d);
        rc = -1;
    } else {
        bool inc = r.verdict == EXPLORE_INCOMPLETE;
        bool perr = r.verdict != EXPLORE_OK && !inc;
        *incomplete = inc;
        *proto_error = perr;
        for (int m = 0; m < nm; m++) {
            if (perr) {
                ms[m].failed_tests++;
                if (better(&ms[m], r.ntrace, r.states, p->name)) {
                    set_sep(&ms[m], file, p->name, r.ntrace, r.states);
                    ms[m].sep_protocol_error = true;
                    ms[m].sep_verdict = (int)r.verdict;
                    ms[m].sep_trace = copy_trace(&r);
                    ms[m].sep_ntrace = r.ntrace;
                    snprintf(ms[m].sep_msg, sizeof ms[m].sep_msg, "%s", r.msg);
                }
                continue;
            }
            int best = INT_MAX;
            if (!mr[m].racy)
                for (size_t i = 0; i < dep.n; i++)
                    if (!exec_outcomes_has(&mr[m].allowed, dep.v + i * (size_t)dep.nkeys) &&
                        dep.depth[i] < best)
                        best = dep.depth[i];
            if (best < INT_MAX) {
                ms[m].failed_tests++;
                if (better(&ms[m], best, r.states, p->name))
                    set_sep(&ms[m], file, p->name, best, r.states);
            } else if (inc) {
                ms[m].undecided_tests++;
            }
        }
        explore_result_free(&r);
    }
    free(dep.v);
    free(dep.depth);
    exec_layout_free(&lay);
out:
    sys_free(s);
    for (int m = 0; m < nm; m++)
        exec_result_free(&mr[m]);
    prog_free(p);
    return rc;
}

/* Explore the separating test of M again under M alone, for its trace. */
static int separating_trace(const ctx_t *c, mstate_t *m)
{
    if (m->sep_protocol_error)
        return 0;
    diag_t d;
    prog_t *p;
    if (prog_load(m->sep_file, &p, &d)) {
        cli_report(&d);
        return -1;
    }
    exec_model_result_t mr;
    exec_stats_t xs;
    exec_opts_t xo = {.unroll = c->unroll};
    int rc = -1;
    sys_t *s = NULL;
    if (exec_eval(p, &m->model, 1, &xo, &mr, &xs, &d)) {
        cli_report(&d);
        prog_free(p);
        return -1;
    }
    if (sys_new(c->proto, p, &c->cfg, &s, &d)) {
        cli_report(&d);
        goto out;
    }
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = c->max_states;
    eo.por = c->por;
    eo.allowed = mr.racy ? NULL : &mr.allowed;
    explore_result_t r;
    if (explore_run(s, lay.nkeys, &eo, &r, &d)) {
        cli_report(&d);
    } else {
        m->sep_trace = copy_trace(&r);
        m->sep_ntrace = r.ntrace;
        m->sep_verdict = (int)r.verdict;
        snprintf(m->sep_msg, sizeof m->sep_msg, "%s", r.msg);
        for (size_t i = 0; i < r.reached.n && !mr.racy && !m->sep_outcome; i++) {
            const prog_val_t *v = exec_outcome(&r.reached, i);
            if (exec_outcomes_has(&mr.allowed, v))
                continue;
            strbuf_t t, j;
            sb_init(&t);
            sb_init(&j);
            for (int k = 0; k < lay.nkeys; k++)
                sb_printf(&t, "%s%s=%lld;", k ? " " : "", lay.names[k], (long long)v[k]);
            cli_outcome_json(&j, &lay, v);
            m->sep_outcome = t.s;
            m->sep_outcome_json = j.s;
        }
        rc = 0;
        explore_result_free(&r);
    }
    exec_layout_free(&lay);
out:
    sys_free(s);
    exec_result_free(&mr);
    prog_free(p);
    return rc;
}

static void json_list(strbuf_t *b, const char *key, const lattice_t *l, const bool *in)
{
    sb_printf(b, ",\"%s\":[", key);
    int k = 0;
    for (int i = 0; i < lattice_nmodels(l); i++)
        if (in[i]) {
            if (k++)
                sb_putc(b, ',');
            sb_json_str(b, lattice_model(l, i));
        }
    sb_putc(b, ']');
}

static void text_list(strbuf_t *b, const char *label, const lattice_t *l, const bool *in)
{
    sb_printf(b, "  %-10s", label);
    int k = 0;
    for (int i = 0; i < lattice_nmodels(l); i++)
        if (in[i])
            sb_printf(b, "%s%s", k++ ? " " : "", lattice_model(l, i));
    sb_puts(b, k ? "\n" : "(none)\n");
}

/* The lattice beside the models: the folder the model "sc" is found in. */
static int default_lattice(const char *argv0, char *path, size_t len)
{
    char sc[PATH_MAX + 400];
    if (cli_find_data("sc", "models", ".cat", "COHCHECK_MODELS", argv0, sc, sizeof sc))
        return -1;
    char *slash = strrchr(sc, '/');
    if (slash)
        *slash = 0;
    int n = snprintf(path, len, "%s/lattice", slash ? sc : ".");
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cmd_classify(int argc, char **argv)
{
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.cfg.chan_capacity = 8;
    c.unroll = 2;
    c.argv0 = argv[0];
    c.por = CLI_POR_DEFAULT;
    const char *proto_arg = NULL, *lattice_arg = NULL;
    const char *params[64];
    int nparams = 0;
    bool json = false, row = false;
    diag_t d;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_CLASSIFY);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'p': proto_arg = optarg; break;
        case 'L': lattice_arg = optarg; break;
        case 'c':
        case 'i':
        case 'e':
        case 'l':
            if (cli_config_opt("classify", ch, optarg, &c.cfg) < 0)
                return CLI_BAD_INPUT;
            break;
        case 'P':
            if (cli_param_opt("classify", optarg, params, &nparams))
                return CLI_BAD_INPUT;
            break;
        case 'S': c.max_states = (uint64_t)g.num; break;
        case 'u': c.unroll = (int)g.num; break;
        case 'J': json = true; break;
        case 'R': row = true; break;
        case CLI_OPT_POR:
        case CLI_OPT_NO_POR: cli_por_opt(ch, &c.por); break;
        case 'h': cli_usage(stdout, CLI_CMD_CLASSIFY, USAGE, USAGE_TAIL); return CLI_OK;
        }
    }
    if (!proto_arg) {
        cli_error("classify: --protocol is required (see --help)");
        return CLI_BAD_INPUT;
    }
    if (optind >= argc) {
        cli_error("classify: give at least one test file or folder (see --help)");
        return CLI_BAD_INPUT;
    }
    char lpath[PATH_MAX + 400];
    if (lattice_arg) {
        snprintf(lpath, sizeof lpath, "%s", lattice_arg);
    } else if (default_lattice(argv[0], lpath, sizeof lpath)) {
        cli_error("classify: cannot find models/lattice; give --lattice FILE");
        return CLI_BAD_INPUT;
    }
    lattice_t *lat = NULL;
    if (lattice_load(lpath, &lat, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    int nm = lattice_nmodels(lat);
    mstate_t ms[LATTICE_MAX_MODELS];
    memset(ms, 0, sizeof ms);
    int rc = CLI_OK;
    char **files = NULL;
    int nfiles = 0;
    if (cli_load_protocol(proto_arg, argv[0], &c.proto, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
        goto out;
    }
    if (cli_apply_params(c.proto, params, nparams, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
        goto out;
    }
    for (int m = 0; m < nm; m++)
        if (cli_load_model(lattice_model(lat, m), argv[0], &ms[m].model, &d)) {
            char buf[DIAG_FILE_MAX + DIAG_MSG_MAX + 64];
            diag_format(&d, buf, sizeof buf);
            cli_error("%s: model '%s': %s", lpath, lattice_model(lat, m), buf);
            rc = CLI_BAD_INPUT;
            goto out;
        }
    if (cli_collect(argv + optind, argc - optind, ".litmus", &files, &nfiles, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
        goto out;
    }
    if (!nfiles) {
        cli_error("classify: no .litmus files found");
        rc = CLI_BAD_INPUT;
        goto out;
    }
    int ran = 0, skipped = 0, incomplete = 0, perrors = 0, unreadable = 0;
    strbuf_t skipped_names, inc_names;
    sb_init(&skipped_names);
    sb_init(&inc_names);
    cli_progress_t *pr = cli_progress_new("classify", !json);
    for (int f = 0; f < nfiles; f++) {
        bool inc = false, perr = false;
        cli_progress(pr, f, nfiles, "%s", files[f]);
        int r = classify_test(&c, files[f], ms, nm, &inc, &perr);
        if (r < 0) {
            rc = CLI_BAD_INPUT;
            break;
        }
        if (r == 2) {
            unreadable++;
            continue;
        }
        const char *base = strrchr(files[f], '/');
        base = base ? base + 1 : files[f];
        if (r == 1) {
            sb_printf(&skipped_names, "%s%.*s", skipped++ ? " " : "", (int)(strlen(base) - 7),
                      base);
            continue;
        }
        ran++;
        perrors += perr;
        if (inc)
            sb_printf(&inc_names, "%s%.*s", incomplete++ ? " " : "", (int)(strlen(base) - 7), base);
    }
    cli_progress_free(pr);
    if (rc != CLI_OK) {
        sb_free(&skipped_names);
        sb_free(&inc_names);
        goto out;
    }
    bool pass[LATTICE_MAX_MODELS], fail[LATTICE_MAX_MODELS], und[LATTICE_MAX_MODELS];
    bool strongest[LATTICE_MAX_MODELS], above[LATTICE_MAX_MODELS];
    int npass = 0, nfail = 0, nund = 0;
    for (int m = 0; m < nm; m++) {
        fail[m] = ms[m].failed_tests > 0;
        und[m] = !fail[m] && ms[m].undecided_tests > 0;
        pass[m] = !fail[m] && !und[m] && ran > 0;
        und[m] = und[m] || (!fail[m] && ran == 0);
        npass += pass[m];
        nfail += fail[m];
        nund += und[m];
    }
    lattice_strongest(lat, pass, strongest);
    /* On the complete tests alone: every model not failed (an incomplete test
     * still fails the models whose forbidden outcomes it reached). */
    bool notfail[LATTICE_MAX_MODELS], strongest_c[LATTICE_MAX_MODELS];
    for (int m = 0; m < nm; m++)
        notfail[m] = !fail[m] && ran > incomplete;
    int nstrong_c = lattice_strongest(lat, notfail, strongest_c);
    /* Failed models just above the strongest passed ones (or, with undecided
     * models, the strongest on the complete tests; with none: the weakest failures). */
    const bool *base = npass || !nund ? strongest : strongest_c;
    int nbase = npass || !nund ? npass : nstrong_c;
    for (int a = 0; a < nm; a++) {
        above[a] = false;
        if (!fail[a])
            continue;
        for (int s = 0; s < nm; s++)
            if (base[s] && lattice_covers(lat, a, s))
                above[a] = true;
        if (!nbase) {
            bool weakest = true;
            for (int b = 0; b < nm; b++)
                if (fail[b] && lattice_stronger(lat, a, b))
                    weakest = false;
            above[a] = weakest;
        }
    }
    for (int a = 0; a < nm && rc == CLI_OK; a++)
        if (above[a] && separating_trace(&c, &ms[a]))
            rc = CLI_BAD_INPUT;
    if (rc != CLI_OK) {
        sb_free(&skipped_names);
        sb_free(&inc_names);
        goto out;
    }
    strbuf_t b;
    sb_init(&b);
    const char *init = c.cfg.warm ? "warm" : "cold";
    if (json) {
        sb_puts(&b, "{\"protocol\":");
        sb_json_str(&b, c.proto->name);
        sb_printf(&b, ",\"init\":\"%s\",\"tests\":%d,\"explored\":%d", init, nfiles, ran);
        json_list(&b, "passes", lat, pass);
        json_list(&b, "fails", lat, fail);
        json_list(&b, "undecided", lat, und);
        json_list(&b, "strongest", lat, strongest);
        json_list(&b, "strongest_on_complete", lat, strongest_c);
        sb_puts(&b, ",\"separating\":[");
        int k = 0;
        for (int a = 0; a < nm; a++) {
            if (!above[a])
                continue;
            if (k++)
                sb_putc(&b, ',');
            sb_puts(&b, "{\"model\":");
            sb_json_str(&b, lattice_model(lat, a));
            sb_puts(&b, ",\"below\":[");
            int kk = 0;
            for (int s = 0; s < nm; s++)
                if (base[s] && lattice_covers(lat, a, s)) {
                    if (kk++)
                        sb_putc(&b, ',');
                    sb_json_str(&b, lattice_model(lat, s));
                }
            sb_puts(&b, "],\"test\":");
            sb_json_str(&b, ms[a].sep_name);
            sb_printf(&b,
                      ",\"failed_tests\":%d,\"verdict\":\"%s\",\"depth\":%d,\"steps\":%d,"
                      "\"outcome\":%s,\"trace\":[",
                      ms[a].failed_tests, explore_verdict_names[ms[a].sep_verdict], ms[a].sep_depth,
                      ms[a].sep_ntrace, ms[a].sep_outcome_json ? ms[a].sep_outcome_json : "null");
            for (int i = 0; i < ms[a].sep_ntrace; i++) {
                if (i)
                    sb_putc(&b, ',');
                sb_json_str(&b, ms[a].sep_trace[i]);
            }
            sb_puts(&b, "]}");
        }
        /* Every failed model's shallowest failing test (traces only for those above). */
        sb_puts(&b, "],\"failures\":[");
        k = 0;
        for (int a = 0; a < nm; a++) {
            if (!fail[a])
                continue;
            if (k++)
                sb_putc(&b, ',');
            sb_puts(&b, "{\"model\":");
            sb_json_str(&b, lattice_model(lat, a));
            sb_printf(&b, ",\"failed_tests\":%d,\"test\":", ms[a].failed_tests);
            sb_json_str(&b, ms[a].sep_name);
            sb_printf(&b, ",\"depth\":%d}", ms[a].sep_depth);
        }
        sb_puts(&b, "],\"skipped\":[");
        {
            char *save, *tok;
            char *dup = xstrdup(skipped_names.s);
            int kk = 0;
            for (tok = strtok_r(dup, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
                if (kk++)
                    sb_putc(&b, ',');
                sb_json_str(&b, tok);
            }
            free(dup);
            sb_puts(&b, "],\"incomplete\":[");
            dup = xstrdup(inc_names.s);
            kk = 0;
            for (tok = strtok_r(dup, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
                if (kk++)
                    sb_putc(&b, ',');
                sb_json_str(&b, tok);
            }
            free(dup);
        }
        sb_printf(&b, "],\"protocol_errors\":%d,\"unreadable\":%d}\n", perrors, unreadable);
    } else if (row) {
        sb_printf(&b, "| %s | %s |", c.proto->name, init);
        int k = 0;
        for (int s = 0; s < nm; s++)
            if (base[s])
                sb_printf(&b, "%s`%s`", k++ ? ", " : " ", lattice_model(lat, s));
        if (k && base != strongest)
            sb_puts(&b, " (on the complete tests)");
        if (!k)
            sb_puts(&b, " none");
        sb_puts(&b, " |");
        k = 0;
        for (int a = 0; a < nm; a++)
            if (above[a])
                sb_printf(&b, "%s`%s`: %s (%d steps)", k++ ? "; " : " ", lattice_model(lat, a),
                          ms[a].sep_name, ms[a].sep_ntrace);
        if (!k)
            sb_puts(&b, " -");
        sb_printf(&b, " | %d/%d%s |\n", ran - incomplete, nfiles, incomplete ? " complete" : "");
    } else {
        sb_printf(&b, "classify %s (%s): %d tests, %d explored, %d skipped, %d incomplete",
                  c.proto->name, init, nfiles, ran, skipped, incomplete);
        if (unreadable)
            sb_printf(&b, ", %d unreadable", unreadable);
        sb_putc(&b, '\n');
        text_list(&b, "passes", lat, pass);
        text_list(&b, "fails", lat, fail);
        if (nund)
            text_list(&b, "undecided", lat, und);
        text_list(&b, "strongest", lat, strongest);
        if (nund) {
            sb_printf(&b, "  on the %d complete tests alone:\n", ran - incomplete);
            text_list(&b, "strongest", lat, strongest_c);
        }
        for (int a = 0; a < nm; a++) {
            if (!above[a])
                continue;
            sb_printf(&b, "  %s fails on %d test%s; separating test %s (%s, %d steps):\n",
                      lattice_model(lat, a), ms[a].failed_tests, ms[a].failed_tests == 1 ? "" : "s",
                      ms[a].sep_name, explore_verdict_names[ms[a].sep_verdict], ms[a].sep_ntrace);
            if (ms[a].sep_msg[0])
                sb_printf(&b, "    %s%s%s\n", ms[a].sep_msg, ms[a].sep_outcome ? ": " : "",
                          ms[a].sep_outcome ? ms[a].sep_outcome : "");
            for (int i = 0; i < ms[a].sep_ntrace; i++)
                sb_printf(&b, "    %3d  %s\n", i + 1, ms[a].sep_trace[i]);
        }
        if (skipped)
            sb_printf(&b, "  skipped: %s\n", skipped_names.s);
        if (incomplete)
            sb_printf(&b, "  incomplete: %s\n", inc_names.s);
    }
    fputs(b.s, stdout);
    sb_free(&b);
    sb_free(&skipped_names);
    sb_free(&inc_names);
    rc = unreadable ? CLI_BAD_INPUT
         : perrors  ? CLI_FAIL
         : nund     ? CLI_LIMIT
         : !npass   ? CLI_FAIL
                    : CLI_OK;
out:
    cli_free_list(files, nfiles);
    for (int m = 0; m < nm; m++) {
        cat_free(ms[m].model);
        free(ms[m].sep_file);
        free(ms[m].sep_name);
        free(ms[m].sep_outcome);
        free(ms[m].sep_outcome_json);
        free_trace(ms[m].sep_trace, ms[m].sep_ntrace);
    }
    proto_free(c.proto);
    lattice_free(lat);
    return rc;
}
