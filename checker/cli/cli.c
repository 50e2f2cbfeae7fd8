/* cli.c - shared command-line helpers (see cli.h). */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/util.h"

const char *const cli_default_models[6] = {"sc",  "rcsc",       "rcpc",
                                           "drf", "hrf-direct", "hrf-indirect"};

/* On a terminal an error starts on a clean line: a progress line (cli_out.c) may be
 * showing; it is drawn again at its next update. */
static void clear_line(void)
{
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
}

void cli_report(const diag_t *d)
{
    char buf[DIAG_FILE_MAX + DIAG_MSG_MAX + 64];
    diag_format(d, buf, sizeof buf);
    clear_line();
    fprintf(stderr, "cohcheck: %s\n", buf);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clear_line();
    fputs("cohcheck: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Directory of the running binary, from /proc/self/exe or ARGV0. */
static void exe_dir(const char *argv0, char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) {
        snprintf(buf, len, "%s", argv0 ? argv0 : ".");
        n = (ssize_t)strlen(buf);
    }
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(buf, len, ".");
}

void cli_data_dirs(const char *dir, const char *env, const char *argv0, cli_dirs_t *out)
{
    char exe[PATH_MAX];
    exe_dir(argv0, exe, sizeof exe);
    snprintf(out->buf[0], sizeof out->buf[0], "%s/%s", exe, dir);
    snprintf(out->buf[1], sizeof out->buf[1], "%s/../share/cohcheck/%s", exe, dir);
    int n = 0;
    const char *envdir = getenv(env);
    if (envdir)
        out->dirs[n++] = envdir;
    out->dirs[n++] = dir;
    out->dirs[n++] = out->buf[0];
    out->dirs[n++] = out->buf[1];
    out->dirs[n] = NULL;
}

int cli_find_data(const char *arg, const char *dir, const char *ext, const char *env,
                  const char *argv0, char *path, size_t len)
{
    size_t n = strlen(arg), e = strlen(ext);
    bool has_ext = n > e && !strcmp(arg + n - e, ext);
    /* A path is taken as it is, except a name in a subfolder of DIR without the extension
     * (kernels/apsp), which is searched for first. */
    bool is_path = strchr(arg, '/') || has_ext;
    if (is_path && (has_ext || is_file(arg))) {
        snprintf(path, len, "%s", arg);
        return 0;
    }
    /* Search: $ENV, ./DIR, DIR next to the binary, the install share dir. */
    cli_dirs_t d;
    cli_data_dirs(dir, env, argv0, &d);
    for (int i = 0; d.dirs[i]; i++) {
        snprintf(path, len, "%s/%s%s", d.dirs[i], arg, ext);
        if (is_file(path))
            return 0;
    }
    if (is_path) {
        snprintf(path, len, "%s", arg);
        return 0;
    }
    return -1;
}

int cli_load_model(const char *arg, const char *argv0, cat_model_t **out, diag_t *err)
{
    char path[PATH_MAX + 400];
    if (cli_find_data(arg, "models", ".cat", "COHCHECK_MODELS", argv0, path, sizeof path)) {
        diag_set(err, "", 0, 0,
                 "unknown model '%s' (give sc, rcsc, rcpc, drf, hrf-direct, hrf-indirect, a name "
                 "found in ./models or $COHCHECK_MODELS, or a .cat file)",
                 arg);
        return -1;
    }
    /* A herd7 library folder for includes: $COHCHECK_CAT_LIBDIR, else herd7's $HERDLIB. */
    const char *lib = getenv("COHCHECK_CAT_LIBDIR");
    if (!lib || !*lib)
        lib = getenv("HERDLIB");
    return cat_load_lib(path, lib && *lib ? lib : NULL, out, err);
}

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_ext(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n > e && !strcmp(name + n - e, ext);
}

static int walk(const char *dir, const char *ext, char ***files, size_t *n, size_t *cap, int depth,
                diag_t *err)
{
    if (depth > 64) {
        diag_set(err, dir, 0, 0, "folders nested too deeply");
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        diag_set(err, dir, 0, 0, "cannot open folder: %s", strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t nn = 0, nc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        UTIL_PUSH(names, nn, nc, xstrdup(de->d_name));
    }
    closedir(d);
    if (nn)
        qsort(names, nn, sizeof *names, cmpstr);
    int rc = 0;
    for (size_t i = 0; i < nn; i++) {
        char *path = xmalloc(strlen(dir) + strlen(names[i]) + 2);
        sprintf(path, "%s/%s", dir, names[i]);
        struct stat st;
        if (!rc && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                rc = walk(path, ext, files, n, cap, depth + 1, err);
            } else if (S_ISREG(st.st_mode) && has_ext(names[i], ext)) {
                UTIL_PUSH(*files, *n, *cap, path);
                path = NULL;
            }
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return rc;
}

int cli_collect(char *const *paths, int npaths, const char *ext, char ***files, int *nfiles,
                diag_t *err)
{
    char **out = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            diag_set(err, paths[i], 0, 0, "no such file or folder");
            cli_free_list(out, (int)n);
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            char *p = xstrdup(paths[i]);
            size_t l = strlen(p);
            while (l > 1 && p[l - 1] == '/')
                p[--l] = 0;
            int rc = walk(p, ext, &out, &n, &cap, 0, err);
            free(p);
            if (rc) {
                cli_free_list(out, (int)n);
                return -1;
            }
        } else {
            UTIL_PUSH(out, n, cap, xstrdup(paths[i]));
        }
    }
    *files = out;
    *nfiles = (int)n;
    return 0;
}

void cli_free_list(char **files, int n)
{
    for (int i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

int cli_parse_count(const char *opt, const char *s, long long max, long long *out, diag_t *err)
{
    char *end;
    errno = 0;
    long long v = s ? strtoll(s, &end, 10) : -1;
    if (!s || !*s || *end || errno || v < 0 || v > max) {
        diag_set(err, "", 0, 0, "%s needs a whole number from 0 to %lld, not '%s'", opt, max,
                 s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

int cli_param_opt(const char *cmd, const char *arg, const char **params, int *nparams)
{
    if (*nparams >= 64 || !strchr(arg, '=')) {
        cli_error("%s%s--param takes NAME=VALUE (at most 64), not '%s'", cmd ? cmd : "",
                  cmd ? ": " : "", arg);
        return -1;
    }
    params[(*nparams)++] = arg;
    return 0;
}

int cli_apply_params(proto_t *p, const char *const *params, int nparams, diag_t *err)
{
    for (int i = 0; i < nparams; i++) {
        char name[128];
        long long v;
        const char *eq = strchr(params[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - params[i]), params[i]);
        if (cli_parse_count("--param", eq + 1, 32767, &v, err) ||
            proto_set_param(p, name, (int)v, err))
            return -1;
    }
    return 0;
}

int cli_config_opt(const char *cmd, int ch, const char *arg, sys_config_t *cfg)
{
    diag_t d;
    long long v;
    switch (ch) {
    case 'c':
        if (cli_parse_count("--cus", arg, 15, &v, &d) || v == 0) {
            cli_error("%s: --cus takes a number from 1 to 15", cmd);
            return -1;
        }
        cfg->cus = (int)v;
        return 1;
    case 'i':
        if (strcmp(arg, "cold") && strcmp(arg, "warm")) {
            cli_error("%s: --init takes cold or warm, not '%s'", cmd, arg);
            return -1;
        }
        cfg->warm = !strcmp(arg, "warm");
        return 1;
    case 'e':
        if (cli_parse_env(arg, cfg)) {
            cli_error("%s: --env: bad list '%s'", cmd, arg);
            return -1;
        }
        return 1;
    case 'l':
        if (cli_parse_count("--lines", arg, 64, &v, &d) || v == 0) {
            cli_error("%s: --lines takes a number from 1 to 64", cmd);
            return -1;
        }
        cfg->lines = (int)v;
        return 1;
    default: return 0;
    }
}

int cli_split_params(proto_t *p, const char *const *params, int nparams, cli_params_t *out,
                     diag_t *err)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < nparams && i < 64; i++) {
        const char *eq = strchr(params[i], '=');
        char *name = xstrndup(params[i], (size_t)(eq - params[i]));
        long long v;
        if (cli_parse_count("--param", eq + 1, 32767, &v, err)) {
            free(name);
            return -1;
        }
        bool proto_has = false;
        for (int k = 0; p && k < p->nparams; k++)
            proto_has |= !strcmp(p->params[k].name, name);
        if (proto_has) {
            out->proto_names[out->nproto++] = name;
            if (proto_set_param(p, name, (int)v, err))
                return -1;
        } else {
            out->wl[out->nwl].name = name;
            out->wl[out->nwl++].value = v;
        }
    }
    return 0;
}

int cli_load_test(const char *path, const proto_t *p, const cli_params_t *sp, prog_t **out,
                  diag_t *err)
{
    if (prog_load_params(path, sp->wl, sp->nwl, sp->timed ? PROG_PARAMS_TIMED : 0, out, err))
        return -1;
    const char *bad = NULL, *why = NULL;
    for (int i = 0; i < sp->nwl && !bad; i++)
        if (!prog_param_find(*out, sp->wl[i].name)) {
            bad = sp->wl[i].name;
            why = "neither protocol %s nor this test declares %s";
        }
    for (int i = 0; i < sp->nproto && !bad; i++)
        if (prog_param_find(*out, sp->proto_names[i])) {
            bad = sp->proto_names[i];
            why = "both protocol %s and this test declare %s: the setting is ambiguous";
        }
    if (bad && !p)
        why = "%sthis test does not declare %s";
    if (bad) {
        char msg[DIAG_MSG_MAX];
        snprintf(msg, sizeof msg, why, p ? p->name : "", bad);
        diag_set(err, path, 1, 1, "--param %s: %s", bad, msg);
        prog_free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

void cli_params_free(cli_params_t *sp)
{
    for (int i = 0; i < sp->nwl; i++)
        free((char *)sp->wl[i].name);
    for (int i = 0; i < sp->nproto; i++)
        free(sp->proto_names[i]);
    memset(sp, 0, sizeof *sp);
}

int cli_por_opt(int ch, bool *por)
{
    if (ch != CLI_OPT_POR && ch != CLI_OPT_NO_POR)
        return 0;
    *por = ch == CLI_OPT_POR;
    return 1;
}
