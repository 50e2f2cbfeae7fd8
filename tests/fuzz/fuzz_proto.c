/* fuzz_proto.c - libFuzzer target for the protocol loader: any input must
 * give a protocol or one positioned diagnostic, never a crash, leak or hang.
 * A loaded protocol is also counted and its maps queried, so the queries
 * run on every shape of table the loader accepts. */
#include <stddef.h>
#include <stdint.h>

#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    proto_t *p = NULL;
    diag_t d;
    if (proto_parse("fuzz.proto", (const char *)data, size, &p, &d) != 0) {
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
    proto_free(p);
    return 0;
}
