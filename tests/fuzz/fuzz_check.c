/* fuzz_check.c - libFuzzer target for the protocol interpreter and explorer:
 * any protocol text that loads is explored on a small message-passing test
 * (bounded states), so odd but valid tables (indexing data on the wrong line,
 * sends to unusual destinations, counters out of range, deep stalls) must give
 * a verdict, never a crash, leak or hang. Named under protocols/ so variants
 * (extends) resolve the shipped bases; run from the repository root. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../checker/cat/cat.h"
#include "../../checker/exec/exec.h"
#include "../../checker/explore/explore.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sys/sys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *test_src = "GPU MP\n{ x = 0; y = 0; }\nsameline x z\n P0 | P1@wg0 | P2 ;\n"
                              " st x 1 | ld.acq r0 y | rmw.add r2 z 1 ;\n"
                              " st.rel y 1 | ld r1 x | fence ;\n"
                              " cas r3 y 0 2 | | ld.sc.wg r4 x ;\nexists (1:r0 = 1 /\\ 1:r1 = 0)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_t d;
    proto_t *p = NULL;
    if (proto_parse("protocols/fuzz.proto", (const char *)data, size, &p, &d))
        return 0;
    prog_t *prog = NULL;
    if (prog_parse("mp.litmus", test_src, strlen(test_src), &prog, &d)) {
        proto_free(p);
        return 0;
    }
    for (int warm = 0; warm < 2; warm++) {
        sys_config_t cfg = {0, warm != 0, SYS_ENV_FETCH | SYS_ENV_EVICT | SYS_ENV_WRITEBACK, 4,
                            warm ? 1 : 0};
        sys_t *s = NULL;
        if (sys_new(p, prog, &cfg, &s, &d))
            continue;
        exec_layout_t lay;
        exec_layout_init(&lay, prog);
        explore_opts_t o;
        memset(&o, 0, sizeof o);
        o.max_states = 3000;
        o.dfs = warm != 0;
        o.por = warm != 0; /* the reduction's analyses (sys_por, sys_set_dead) on any table */
        explore_result_t r;
        if (explore_run(s, lay.nkeys, &o, &r, &d) == 0)
            explore_result_free(&r);
        exec_layout_free(&lay);
        sys_free(s);
    }
    prog_free(prog);
    proto_free(p);
    return 0;
}
