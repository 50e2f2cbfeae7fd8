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

int cmd_export(int argc, char **argv)
{
    const char *proto_arg = NULL, *out = NULL, *model_arg = NULL;
    const char *params[64];
    int nparams = 0;
    bool murphi = false, outcomes = true, json = false, liveness = false;
    int unroll = 2;
    sys_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_EXPORT);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        if (ch == CLI_GETOPT_BAD)
            return CLI_BAD_INPUT;
        int r = cli_config_opt("export", ch, optarg, &cfg);
        if (r < 0)
            return CLI_BAD_INPUT;
        if (r > 0)
            continue;
        switch (ch) {
        case 'R': murphi = true; break;
        case 'p': proto_arg = optarg; break;
        case 'm': model_arg = optarg; break;
        case 'n': outcomes = false; break;
        case 'J': json = true; break;
        case 'L': liveness = true; break;
        case 'o': out = optarg; break;
        case 'u': unroll = (int)g.num; break;
        case 'P':
            if (cli_param_opt("export", optarg, params, &nparams))
                return CLI_BAD_INPUT;
            break;
        case 'h': usage(stdout); return CLI_OK;
        }
    }
    if (!murphi) {
        cli_error("export: say which language: --murphi (see --help)");
        return CLI_BAD_INPUT;
    }
    if (!proto_arg) {
        cli_error("export: --protocol is required (see --help)");
        return CLI_BAD_INPUT;
    }
    if (!out) {
        cli_error("export: -o FILE.m is required (see --help)");
        return CLI_BAD_INPUT;
    }
    if (json && !strcmp(out, "-")) {
        cli_error("export: --json and -o - would both write to standard output");
        return CLI_BAD_INPUT;
    }
    if (optind != argc - 1) {
        cli_error("export: give exactly one litmus test (see --help)");
        return CLI_BAD_INPUT;
    }
    if (model_arg && !outcomes) {
        cli_error("export: --model and --no-outcomes exclude each other");
        return CLI_BAD_INPUT;
    }
    diag_t d;
    cat_model_t *model = NULL;
    proto_t *p = NULL;
    prog_t *prog = NULL;
    exec_model_result_t mr;
    bool have_mr = false;
    int rc = CLI_BAD_INPUT;
    if (cli_load_protocol(proto_arg, argv[0], &p, &d)) {
        cli_report(&d);
        goto done;
    }
    if (outcomes && !model_arg)
        model_arg = p->target;
    if (outcomes && !model_arg) {
        cli_error("export: protocol %s declares no target model; give --model or --no-outcomes",
                  p->name);
        goto done;
    }
    if (model_arg && cli_load_model(model_arg, argv[0], &model, &d)) {
        cli_report(&d);
        goto done;
    }
    if (cli_apply_params(p, params, nparams, &d)) {
        cli_report(&d);
        goto done;
    }
    if (prog_load(argv[optind], &prog, &d)) {
        cli_report(&d);
        goto done;
    }
    murphi_opts_t mo = {NULL, NULL, model ? cat_model_name(model) : NULL, false};
    if (model) {
        exec_opts_t xo = {.unroll = unroll};
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
    sb_puts(&cmd, "cohcheck export");
    for (int i = 1; i < argc; i++) { /* the output's name is left out: it is the file itself */
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output"))
            i++;
        else if (strncmp(argv[i], "-o", 2) && strncmp(argv[i], "--output=", 9) &&
                 strcmp(argv[i], "--json"))
            sb_printf(&cmd, " %s", argv[i]);
    }
    mo.command = cmd.s;
    mo.liveness = liveness;
    if (murphi_export(p, prog, &cfg, &mo, &text, &d))
        cli_report(&d);
    else
        rc = write_file(text.s, out);
    if (rc == CLI_OK && json) {
        strbuf_t j;
        sb_init(&j);
        sb_puts(&j, "{\"protocol\":");
        sb_json_str(&j, p->name);
        sb_puts(&j, ",\"test\":");
        sb_json_str(&j, prog->name);
        sb_puts(&j, ",\"file\":");
        sb_json_str(&j, out);
        sb_printf(&j, ",\"bytes\":%zu}\n", text.len);
        fputs(j.s, stdout);
        sb_free(&j);
    }
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
