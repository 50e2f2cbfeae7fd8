/* fuzz_murphi.c - libFuzzer target for the Murphi export: any protocol text that
 * loads is exported (cold and warm, every environment action) on a small test,
 * and must give a model or one diagnostic, never a crash, leak or hang; the same
 * inputs must give the same text (the export is deterministic). Named under
 * protocols/ so variants (extends) resolve the shipped bases; run from the
 * repository root. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/export/murphi.h"
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
        strbuf_t a, b;
        sb_init(&a);
        sb_init(&b);
        int ra = murphi_export(p, prog, &cfg, NULL, &a, &d);
        int rb = murphi_export(p, prog, &cfg, NULL, &b, &d);
        if (ra != rb || (ra == 0 && (a.len != b.len || memcmp(a.s, b.s, a.len))))
            abort();
        sb_free(&a);
        sb_free(&b);
    }
    prog_free(prog);
    proto_free(p);
    return 0;
}
