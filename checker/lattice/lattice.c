/* lattice.c - parse models/lattice and answer order questions on it.
 *
 * Invariant: after a successful parse, stronger[a] is the transitive closure
 * of the written edges (bit b set when a is strictly stronger than b) and no
 * model is stronger than itself. */
#include "lattice.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

struct lattice {
    int n;
    char *names[LATTICE_MAX_MODELS];
    uint32_t stronger[LATTICE_MAX_MODELS]; /* stronger[a] bit b: a < b */
};

static bool name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '+' || c == '-' || c == '/';
}

int lattice_find(const lattice_t *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name))
            return i;
    return -1;
}

/* The index of NAME[0..LEN), added when new; -1 when the lattice is full. */
static int intern(lattice_t *l, const char *name, size_t len)
{
    for (int i = 0; i < l->n; i++)
        if (strlen(l->names[i]) == len && !memcmp(l->names[i], name, len))
            return i;
    if (l->n >= LATTICE_MAX_MODELS)
        return -1;
    l->names[l->n] = xstrndup(name, len);
    return l->n++;
}

int lattice_parse(const char *file, const char *src, size_t len, lattice_t **out, diag_t *err)
{
    lattice_t *l = xcalloc(1, sizeof *l);
    int line = 1;
    size_t i = 0;
    /* Per edge, where it was written, to report a cycle at an edge that closes it. */
    while (i < len) {
        size_t eol = i;
        while (eol < len && src[eol] != '\n')
            eol++;
        int prev = -1;     /* the model before a pending '<' */
        bool want = false; /* a '<' waits for its name */
        bool decl = false; /* 'model' line */
        int ntok = 0;
        size_t p = i;
        while (p < eol) {
            char c = src[p];
            int col = (int)(p - i) + 1;
            if (c == ' ' || c == '\t' || c == '\r') {
                p++;
                continue;
            }
            if (c == '#')
                break;
            if (c == '<') {
                if (decl || prev < 0 || want) {
                    diag_set(err, file, line, col, "'<' needs a model name on each side");
                    goto fail;
                }
                want = true;
                p++;
                ntok++;
                continue;
            }
            if (!name_char(c)) {
                diag_set(err, file, line, col, "unexpected character '%c'", c);
                goto fail;
            }
            size_t q = p;
            while (q < eol && name_char(src[q]))
                q++;
            if (ntok == 0 && q - p == 5 && !memcmp(src + p, "model", 5)) {
                decl = true;
                ntok++;
                p = q;
                continue;
            }
            if (!decl && prev >= 0 && !want) {
                diag_set(err, file, line, col, "expected '<' between two model names");
                goto fail;
            }
            int m = intern(l, src + p, q - p);
            if (m < 0) {
                diag_set(err, file, line, col, "too many models (at most %d)", LATTICE_MAX_MODELS);
                goto fail;
            }
            if (want) {
                if (m == prev || (l->stronger[m] >> prev & 1)) {
                    diag_set(err, file, line, col, "cycle: '%s' would be stronger than itself",
                             l->names[m]);
                    goto fail;
                }
                /* prev < m: everything at or below prev becomes stronger than m and
                 * everything m is stronger than. */
                uint32_t up = l->stronger[m] | (UINT32_C(1) << m);
                for (int a = 0; a < l->n; a++)
                    if (a == prev || (l->stronger[a] >> prev & 1))
                        l->stronger[a] |= up;
                want = false;
            }
            prev = m;
            ntok++;
            p = q;
        }
        if (want) {
            diag_set(err, file, line, (int)(eol - i) + 1, "expected a model name after '<'");
            goto fail;
        }
        i = eol + 1;
        line++;
    }
    *out = l;
    return 0;
fail:
    lattice_free(l);
    return -1;
}

int lattice_load(const char *path, lattice_t **out, diag_t *err)
{
    char *data;
    size_t len;
    if (util_read_file(path, &data, &len)) {
        diag_set(err, path, 0, 0, "cannot read the lattice: %s", strerror(errno));
        return -1;
    }
    int rc = lattice_parse(path, data, len, out, err);
    free(data);
    return rc;
}

void lattice_free(lattice_t *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l);
}

int lattice_nmodels(const lattice_t *l)
{
    return l->n;
}

const char *lattice_model(const lattice_t *l, int i)
{
    return i >= 0 && i < l->n ? l->names[i] : "?";
}

bool lattice_stronger(const lattice_t *l, int a, int b)
{
    return a >= 0 && a < l->n && b >= 0 && b < l->n && (l->stronger[a] >> b & 1);
}

bool lattice_covers(const lattice_t *l, int a, int b)
{
    if (!lattice_stronger(l, a, b))
        return false;
    for (int m = 0; m < l->n; m++)
        if (lattice_stronger(l, a, m) && lattice_stronger(l, m, b))
            return false;
    return true;
}

int lattice_strongest(const lattice_t *l, const bool *in, bool *out)
{
    int k = 0;
    for (int a = 0; a < l->n; a++) {
        out[a] = false;
        if (!in[a])
            continue;
        bool max = true;
        for (int b = 0; b < l->n && max; b++)
            if (in[b] && lattice_stronger(l, b, a))
                max = false;
        out[a] = max;
        k += max;
    }
    return k;
}
