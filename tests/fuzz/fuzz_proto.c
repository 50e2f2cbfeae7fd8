/* fuzz_proto.c - libFuzzer target for the protocol loader: any input must
 * give a protocol or one positioned diagnostic, never a crash, leak or hang.
 * A loaded protocol is also counted and its maps queried, so the queries
 * run on every shape of table the loader accepts, and its resolved text
 * (count --resolved) must load again with the same counts, in both forms (ghosts dropped
 * and kept: proto.h). The input is
 * named protocols/fuzz.proto, so 'extends gpu-wt' reads the shipped bases
 * (run from the repository root). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    proto_t *p = NULL;
    diag_t d;
    if (proto_parse("protocols/fuzz.proto", (const char *)data, size, &p, &d) != 0) {
        if (d.line < 1 || d.col < 1)
            __builtin_trap(); /* every parse error is positioned */
        return 0;
    }
    for (int c = 0; c < p->nctrls; c++) {
        proto_count_t n;
        proto_count(p, c, &n);
    }
    for (int op = PROG_OP_LD; op <= PROG_OP_FENCE; op++)
        for (int ord = PROG_ORD_PLAIN; ord <= PROG_ORD_SC; ord++)
            for (int sc = PROG_SCOPE_NONE; sc <= PROG_SCOPE_RM_AGENT; sc++)
                (void)proto_find_map(p, op, ord, sc);
    char *text = proto_resolved_text(p);
    proto_t *q = NULL;
    if (proto_parse("resolved.proto", text, strlen(text), &q, &d) != 0)
        __builtin_trap(); /* the resolved form of a protocol is a protocol */
    for (int c = 0; c < p->nctrls; c++) {
        proto_count_t a, b;
        proto_count(p, c, &a);
        proto_count(q, c, &b);
        if (a.transitions != b.transitions || a.branches != b.branches || a.stable != b.stable)
            __builtin_trap();
    }
    proto_free(q);
    free(text);
    proto_free(p);
    /* The timed form (ghosts kept) of an accepted protocol loads too, with the same rows,
       and so does its resolved text. */
    if (proto_parse_timed("protocols/fuzz.proto", (const char *)data, size, NULL, &p, &d) != 0)
        __builtin_trap();
    text = proto_resolved_text(p);
    if (proto_parse_timed("resolved.proto", text, strlen(text), NULL, &q, &d) != 0)
        __builtin_trap();
    for (int c = 0; c < p->nctrls; c++) {
        proto_count_t a, b;
        proto_count(p, c, &a);
        proto_count(q, c, &b);
        if (a.transitions != b.transitions || a.branches != b.branches)
            __builtin_trap();
    }
    proto_free(q);
    free(text);
    proto_free(p);
    return 0;
}
