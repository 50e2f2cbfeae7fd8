/* cmd_export.c - `cohcheck export --murphi --protocol P [options] TEST -o FILE.m`
 * (docs/architecture.md section 3): the whole system as a Murphi model for Rumur
 * (checker/export/murphi.h, docs/murphi.md). The file is written through a
 * temporary file renamed over FILE, so bad input leaves no partial output. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/util.h"
#include "../export/murphi.h"
#include "../prog/prog.h"
#include "../proto/proto.h"
#include "cli.h"

static void usage(FILE *f)
{
    fputs("usage: cohcheck export --murphi --protocol P [OPTIONS] TEST -o FILE.m\n"
          "\n"
          "Write the whole system - the resolved protocol (a variant with its bases applied),\n"
          "the litmus test's threads, the configuration, the channels, the environment\n"
          "actions and the time abstraction - as a Murphi model in the dialect Rumur reads.\n"
          "Its reachable states are cohcheck's one for one: Rumur's state count equals the\n"
          "`states` of `cohcheck check --no-por` with the same other options (the partial-\n"
          "order reduction is off in the export; docs/murphi.md).\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, CLI_CMD_EXPORT);
    fputs("\n"
          "Check the model with Rumur (Debian package rumur):\n"
          "  rumur --threads 1 --deadlock-detection stuck FILE.m -o model.c\n"
          "  cc -O2 model.c -o model -lpthread && ./model\n"
          "\n"
          "exit: 0 written, 2 bad input (nothing written)\n",
          f);
}

static int write_file(const char *text, const char *out)
{
    if (!strcmp(out, "-")) {
        fputs(text, stdout);
        return fflush(stdout) ? CLI_BAD_INPUT : CLI_OK;
    }
    if (cli_mkdirs_for(out))
        return CLI_BAD_INPUT;
    char *tmp = xmalloc(strlen(out) + 32);
    sprintf(tmp, "%s.tmp%ld", out, (long)getpid());
    int rc = CLI_OK;
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        cli_error("export: cannot write '%s': %s", out, strerror(errno));
        rc = CLI_BAD_INPUT;
    } else if (rename(tmp, out)) {
        cli_error("export: cannot write '%s': %s", out, strerror(errno));
        rc = CLI_BAD_INPUT;
    }
    if (rc != CLI_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}

typedef struct {
    const char *proto_arg, *out, *model_arg;
    const char *params[64]; /* --param NAME=VALUE */
    int nparams;
    bool murphi, outcomes, json, liveness;
    int unroll;
    sys_config_t cfg;
} export_opts_t;

/* Parse the options into O and check them; *DONE when the command ends here
 * (--help, or an error line printed) with the returned code. */
static int export_args(export_opts_t *o, int argc, char **argv, bool *done)
{
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_EXPORT);
    int ch;
    *done = true;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        if (ch == CLI_GETOPT_BAD)
            return CLI_BAD_INPUT;
        int r = cli_config_opt("export", ch, optarg, &o->cfg);
        if (r < 0)
            return CLI_BAD_INPUT;
        if (r > 0)
            continue;
        switch (ch) {
        case 'R': o->murphi = true; break;
        case 'p': o->proto_arg = optarg; break;
        case 'm': o->model_arg = optarg; break;
        case 'n': o->outcomes = false; break;
        case 'J': o->json = true; break;
        case 'L': o->liveness = true; break;
        case 'o': o->out = optarg; break;
        case 'u': o->unroll = (int)g.num; break;
        case 'P':
            if (cli_param_opt("export", optarg, o->params, &o->nparams))
                return CLI_BAD_INPUT;
            break;
        case 'h': usage(stdout); return CLI_OK;
        }
    }
    const char *why = !o->murphi      ? "export: say which language: --murphi (see --help)"
                      : !o->proto_arg ? "export: --protocol is required (see --help)"
                      : !o->out       ? "export: -o FILE.m is required (see --help)"
                      : o->json && !strcmp(o->out, "-")
                          ? "export: --json and -o - would both write to standard output"
                      : optind != argc - 1 ? "export: give exactly one litmus test (see --help)"
                      : o->model_arg && !o->outcomes
                          ? "export: --model and --no-outcomes exclude each other"
                          : NULL;
    if (why) {
        cli_error("%s", why);
        return CLI_BAD_INPUT;
    }
    *done = false;
    return CLI_OK;
}

/* The command line the model records: the output's name is left out (it is the
 * file itself), and so is --json. */
static void export_command(strbuf_t *cmd, int argc, char **argv)
{
    sb_puts(cmd, "cohcheck export");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output"))
            i++;
        else if (strncmp(argv[i], "-o", 2) && strncmp(argv[i], "--output=", 9) &&
                 strcmp(argv[i], "--json"))
            sb_printf(cmd, " %s", argv[i]);
    }
}

/* --json: what was written. */
static void export_json(const proto_t *p, const prog_t *prog, const char *out, size_t bytes)
{
    strbuf_t j;
    sb_init(&j);
    sb_puts(&j, "{\"protocol\":");
    sb_json_str(&j, p->name);
    sb_puts(&j, ",\"test\":");
    sb_json_str(&j, prog->name);
    sb_puts(&j, ",\"file\":");
    sb_json_str(&j, out);
    sb_printf(&j, ",\"bytes\":%zu}\n", bytes);
    fputs(j.s, stdout);
    sb_free(&j);
}

/* Load the protocol (its parameters applied), the model (the protocol's target
 * unless --model or --no-outcomes) and the test. Returns 0, or -1 after an
 * error line. */
static int export_load(export_opts_t *o, const char *argv0, const char *test, proto_t **p,
                       cat_model_t **model, prog_t **prog)
{
    diag_t d;
    if (cli_load_protocol(o->proto_arg, argv0, p, &d)) {
        cli_report(&d);
        return -1;
    }
    if (o->outcomes && !o->model_arg)
        o->model_arg = (*p)->target;
    if (o->outcomes && !o->model_arg) {
        cli_error("export: protocol %s declares no target model; give --model or --no-outcomes",
                  (*p)->name);
        return -1;
    }
    if ((o->model_arg && cli_load_model(o->model_arg, argv0, model, &d)) ||
        cli_apply_params(*p, o->params, o->nparams, &d) || prog_load(test, prog, &d)) {
        cli_report(&d);
        return -1;
    }
    return 0;
}

int cmd_export(int argc, char **argv)
{
    export_opts_t o = {.outcomes = true, .unroll = 2};
    bool done;
    int rc = export_args(&o, argc, argv, &done);
    if (done)
        return rc;
    diag_t d;
    cat_model_t *model = NULL;
    proto_t *p = NULL;
    prog_t *prog = NULL;
    exec_model_result_t mr;
    bool have_mr = false;
    rc = CLI_BAD_INPUT;
    if (export_load(&o, argv[0], argv[optind], &p, &model, &prog))
        goto done;
    murphi_opts_t mo = {NULL, NULL, model ? cat_model_name(model) : NULL, false};
    if (model) {
        exec_opts_t xo = {.unroll = o.unroll};
        exec_stats_t xs;
        if (exec_eval(prog, &model, 1, &xo, &mr, &xs, &d)) {
            cli_report(&d);
            goto done;
        }
        have_mr = true;
        mo.allowed = mr.racy ? NULL : &mr.allowed;
    }
    strbuf_t cmd, text;
    sb_init(&cmd);
    sb_init(&text);
    export_command(&cmd, argc, argv);
    mo.command = cmd.s;
    mo.liveness = o.liveness;
    if (murphi_export(p, prog, &o.cfg, &mo, &text, &d))
        cli_report(&d);
    else
        rc = write_file(text.s, o.out);
    if (rc == CLI_OK && o.json)
        export_json(p, prog, o.out, text.len);
    sb_free(&cmd);
    sb_free(&text);
done:
    if (have_mr)
        exec_result_free(&mr);
    prog_free(prog);
    proto_free(p);
    cat_free(model);
    return rc;
}
