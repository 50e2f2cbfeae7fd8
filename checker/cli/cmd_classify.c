/* cmd_classify.c - `cohcheck classify --protocol P SUITE...`: the options, the protocol,
 * lattice, models and tests they name, one call to classify_run (checker/classify/: the
 * exploration and the lattice's judgement), and its output as text, a README row or JSON
 * (docs/architecture.md section 3, normative JSON fields protocol, passes, fails,
 * strongest, separating). Invariant: no classification logic here. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../classify/classify.h"
#include "../explore/explore.h"
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
    "deadlock, an invariant failure or an unexpected event fails every model; with\n"
    "--liveness a livelock or a starving thread too.\n"
    "exit: 0 done and every model decided, 1 a protocol error (deadlock, invariant,\n"
    "unexpected, livelock, starvation) or every model failed, 2 bad input, 3 some\n"
    "model undecided because a search was incomplete\n";

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

/* What the options say. */
typedef struct {
    const char *proto_arg, *lattice_arg;
    const char *params[64];
    int nparams;
    bool json, row;
} classify_args_t;

/* The options into A and O. CLI_OK, CLI_BAD_INPUT (reported), or -1 after --help. */
static int parse_args(int argc, char **argv, classify_args_t *a, classify_opts_t *o)
{
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_CLASSIFY);
    for (int ch; (ch = cli_getopt(&g, argc, argv)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'p': a->proto_arg = optarg; break;
        case 'L': a->lattice_arg = optarg; break;
        case 'c':
        case 'i':
        case 'e':
        case 'l':
            if (cli_config_opt("classify", ch, optarg, &o->cfg) < 0)
                return CLI_BAD_INPUT;
            break;
        case 'P':
            if (cli_param_opt("classify", optarg, a->params, &a->nparams))
                return CLI_BAD_INPUT;
            break;
        case 'S': o->max_states = (uint64_t)g.num; break;
        case 'u': o->unroll = (int)g.num; break;
        case 'J': a->json = true; break;
        case 'R': a->row = true; break;
        case CLI_OPT_POR:
        case CLI_OPT_NO_POR: cli_por_opt(ch, &o->por); break;
        case CLI_OPT_SYM: o->symmetry = true; break;
        case CLI_OPT_NO_SYM: o->symmetry = false; break;
        case CLI_O_LIVENESS: o->liveness = true; break;
        case 'h': cli_usage(stdout, CLI_CMD_CLASSIFY, USAGE, USAGE_TAIL); return -1;
        }
    }
    if (!a->proto_arg) {
        cli_error("classify: --protocol is required (see --help)");
        return CLI_BAD_INPUT;
    }
    if (optind >= argc) {
        cli_error("classify: give at least one test file or folder (see --help)");
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

/* The lattice (--lattice, else beside the models), the protocol with its parameters, the
 * lattice's models and the tests. CLI_OK or CLI_BAD_INPUT (reported). */
static int load_inputs(const classify_args_t *a, int argc, char **argv, lattice_t **lat,
                       cat_model_t **models, classify_opts_t *o, char ***files)
{
    char lpath[PATH_MAX + 400];
    diag_t d;
    if (a->lattice_arg) {
        snprintf(lpath, sizeof lpath, "%s", a->lattice_arg);
    } else if (default_lattice(argv[0], lpath, sizeof lpath)) {
        cli_error("classify: cannot find models/lattice; give --lattice FILE");
        return CLI_BAD_INPUT;
    }
    if (lattice_load(lpath, lat, &d) || cli_load_protocol(a->proto_arg, argv[0], &o->proto, &d) ||
        cli_apply_params(o->proto, a->params, a->nparams, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    for (int m = 0; m < lattice_nmodels(*lat); m++)
        if (cli_load_model(lattice_model(*lat, m), argv[0], &models[m], &d)) {
            char buf[DIAG_FILE_MAX + DIAG_MSG_MAX + 64];
            diag_format(&d, buf, sizeof buf);
            cli_error("%s: model '%s': %s", lpath, lattice_model(*lat, m), buf);
            return CLI_BAD_INPUT;
        }
    if (cli_collect(argv + optind, argc - optind, ".litmus", files, &o->nfiles, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (!o->nfiles) {
        cli_error("classify: no .litmus files found");
        return CLI_BAD_INPUT;
    }
    o->files = *files;
    return CLI_OK;
}

/* The words of LIST ("SB MP") as a JSON array under KEY. */
static void json_words(strbuf_t *b, const char *key, const char *list)
{
    sb_printf(b, ",\"%s\":[", key);
    char *save, *dup = xstrdup(list);
    int k = 0;
    for (char *tok = strtok_r(dup, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (k++)
            sb_putc(b, ',');
        sb_json_str(b, tok);
    }
    free(dup);
    sb_putc(b, ']');
}

/* The separating tests: model, the models below it, test, verdict, depth, trace. */
static void json_separating(strbuf_t *b, const lattice_t *lat, const classify_result_t *r)
{
    const bool *base = classify_base(r);
    sb_puts(b, ",\"separating\":[");
    int k = 0;
    for (int a = 0; a < r->nm; a++) {
        if (!r->above[a])
            continue;
        const classify_model_t *m = &r->m[a];
        sb_puts(b, k++ ? ",{\"model\":" : "{\"model\":");
        sb_json_str(b, lattice_model(lat, a));
        sb_puts(b, ",\"below\":[");
        int kk = 0;
        for (int s = 0; s < r->nm; s++)
            if (base[s] && lattice_covers(lat, a, s)) {
                if (kk++)
                    sb_putc(b, ',');
                sb_json_str(b, lattice_model(lat, s));
            }
        sb_puts(b, "],\"test\":");
        sb_json_str(b, m->sep_name);
        sb_printf(b,
                  ",\"failed_tests\":%d,\"verdict\":\"%s\",\"depth\":%d,\"steps\":%d,"
                  "\"outcome\":%s,\"trace\":[",
                  m->failed_tests, explore_verdict_names[m->sep_verdict], m->sep_depth,
                  m->sep_ntrace, m->sep_outcome_json ? m->sep_outcome_json : "null");
        for (int i = 0; i < m->sep_ntrace; i++) {
            if (i)
                sb_putc(b, ',');
            sb_json_str(b, m->sep_trace[i]);
        }
        sb_puts(b, "]}");
    }
    sb_putc(b, ']');
}

static void print_json(strbuf_t *b, const lattice_t *lat, const char *proto, const char *init,
                       const classify_result_t *r)
{
    sb_puts(b, "{\"protocol\":");
    sb_json_str(b, proto);
    sb_printf(b, ",\"init\":\"%s\",\"tests\":%d,\"explored\":%d", init, r->tests, r->ran);
    json_list(b, "passes", lat, r->pass);
    json_list(b, "fails", lat, r->fail);
    json_list(b, "undecided", lat, r->und);
    json_list(b, "strongest", lat, r->strongest);
    json_list(b, "strongest_on_complete", lat, r->strongest_c);
    json_separating(b, lat, r);
    /* Every failed model's shallowest failing test (traces only for those above). */
    sb_puts(b, ",\"failures\":[");
    int k = 0;
    for (int a = 0; a < r->nm; a++) {
        if (!r->fail[a])
            continue;
        sb_puts(b, k++ ? ",{\"model\":" : "{\"model\":");
        sb_json_str(b, lattice_model(lat, a));
        sb_printf(b, ",\"failed_tests\":%d,\"test\":", r->m[a].failed_tests);
        sb_json_str(b, r->m[a].sep_name);
        sb_printf(b, ",\"depth\":%d}", r->m[a].sep_depth);
    }
    sb_putc(b, ']');
    json_words(b, "skipped", r->skipped_names.s);
    json_words(b, "incomplete", r->inc_names.s);
    sb_printf(b, ",\"protocol_errors\":%d,\"unreadable\":%d}\n", r->perrors, r->unreadable);
}

/* One Markdown row for the README's protocol table. */
static void print_row(strbuf_t *b, const lattice_t *lat, const char *proto, const char *init,
                      const classify_result_t *r)
{
    const bool *base = classify_base(r);
    sb_printf(b, "| %s | %s |", proto, init);
    int k = 0;
    for (int s = 0; s < r->nm; s++)
        if (base[s])
            sb_printf(b, "%s`%s`", k++ ? ", " : " ", lattice_model(lat, s));
    if (k && r->base_complete)
        sb_puts(b, " (on the complete tests)");
    if (!k)
        sb_puts(b, " none");
    sb_puts(b, " |");
    k = 0;
    for (int a = 0; a < r->nm; a++)
        if (r->above[a])
            sb_printf(b, "%s`%s`: %s (%d steps)", k++ ? "; " : " ", lattice_model(lat, a),
                      r->m[a].sep_name, r->m[a].sep_ntrace);
    if (!k)
        sb_puts(b, " -");
    sb_printf(b, " | %d/%d%s |\n", r->ran - r->incomplete, r->tests,
              r->incomplete ? " complete" : "");
}

static void print_text(strbuf_t *b, const lattice_t *lat, const char *proto, const char *init,
                       const classify_result_t *r)
{
    sb_printf(b, "classify %s (%s): %d tests, %d explored, %d skipped, %d incomplete", proto, init,
              r->tests, r->ran, r->skipped, r->incomplete);
    if (r->unreadable)
        sb_printf(b, ", %d unreadable", r->unreadable);
    sb_putc(b, '\n');
    text_list(b, "passes", lat, r->pass);
    text_list(b, "fails", lat, r->fail);
    if (r->nund)
        text_list(b, "undecided", lat, r->und);
    text_list(b, "strongest", lat, r->strongest);
    if (r->nund) {
        sb_printf(b, "  on the %d complete tests alone:\n", r->ran - r->incomplete);
        text_list(b, "strongest", lat, r->strongest_c);
    }
    for (int a = 0; a < r->nm; a++) {
        const classify_model_t *m = &r->m[a];
        if (!r->above[a])
            continue;
        sb_printf(b, "  %s fails on %d test%s; separating test %s (%s, %d steps):\n",
                  lattice_model(lat, a), m->failed_tests, m->failed_tests == 1 ? "" : "s",
                  m->sep_name, explore_verdict_names[m->sep_verdict], m->sep_ntrace);
        if (m->sep_msg[0])
            sb_printf(b, "    %s%s%s\n", m->sep_msg, m->sep_outcome ? ": " : "",
                      m->sep_outcome ? m->sep_outcome : "");
        for (int i = 0; i < m->sep_ntrace; i++)
            sb_printf(b, "    %3d  %s\n", i + 1, m->sep_trace[i]);
    }
    if (r->skipped)
        sb_printf(b, "  skipped: %s\n", r->skipped_names.s);
    if (r->incomplete)
        sb_printf(b, "  incomplete: %s\n", r->inc_names.s);
}

static void on_progress(void *ctx, int done, int total, const char *file)
{
    cli_progress((cli_progress_t *)ctx, done, total, "%s", file);
}

static void on_bad_file(void *ctx, const diag_t *d)
{
    (void)ctx;
    cli_report(d);
}

/* Classify and print. The exit status. */
static int run_and_print(const classify_args_t *a, classify_opts_t *o, const lattice_t *lat)
{
    cli_progress_t *pr = cli_progress_new("classify", !a->json);
    o->progress = on_progress;
    o->bad_file = on_bad_file;
    o->ctx = pr;
    classify_result_t r;
    diag_t d;
    int k = classify_run(o, &r, &d);
    cli_progress_free(pr);
    if (k) {
        cli_report(&d);
        classify_result_free(&r);
        return CLI_BAD_INPUT;
    }
    strbuf_t b;
    sb_init(&b);
    const char *init = o->cfg.warm ? "warm" : "cold";
    if (a->json)
        print_json(&b, lat, o->proto->name, init, &r);
    else if (a->row)
        print_row(&b, lat, o->proto->name, init, &r);
    else
        print_text(&b, lat, o->proto->name, init, &r);
    fputs(b.s, stdout);
    sb_free(&b);
    int rc = r.unreadable ? CLI_BAD_INPUT
             : r.perrors  ? CLI_FAIL
             : r.nund     ? CLI_LIMIT
             : !r.npass   ? CLI_FAIL
                          : CLI_OK;
    classify_result_free(&r);
    return rc;
}

int cmd_classify(int argc, char **argv)
{
    classify_args_t a = {0};
    classify_opts_t o = {
        .cfg.chan_capacity = 8, .unroll = 2, .por = CLI_POR_DEFAULT, .symmetry = true};
    int rc = parse_args(argc, argv, &a, &o);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    lattice_t *lat = NULL;
    cat_model_t *models[LATTICE_MAX_MODELS] = {0};
    char **files = NULL;
    rc = load_inputs(&a, argc, argv, &lat, models, &o, &files);
    if (rc == CLI_OK) {
        o.lat = lat;
        o.models = models;
        rc = run_and_print(&a, &o, lat);
    }
    cli_free_list(files, o.nfiles);
    for (int m = 0; m < LATTICE_MAX_MODELS; m++)
        cat_free(models[m]);
    proto_free(o.proto);
    lattice_free(lat);
    return rc;
}
