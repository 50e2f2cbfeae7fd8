/* fuzz_graph.c - libFuzzer target for the kernel graph readers (Matrix Market and
 * DIMACS, checker/prog/prog_graph.c, docs/litmus.md "Kernels"): any input gives a
 * CSR graph that keeps its invariant, or one diagnostic with a message; never a
 * crash, leak or hang. A graph read is then run through the reference SSSP and the
 * breadth-first levels, which agree on reachability, with hops <= distance (weights >= 1). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../checker/prog/prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    prog_graph_t g;
    diag_t d;
    if (prog_graph_read("fuzz", (const char *)data, size, 4096, 65536, &g, &d) != 0) {
        if (!d.msg[0] || d.line < 1 || d.col < 1)
            abort(); /* a rejected file always says why, and where */
        return 0;
    }
    if (g.n < 1 || g.n > 4096 || g.m < 0 || g.m > 65536 || g.row[0] != 0 || g.row[g.n] != g.m)
        abort();
    for (int v = 0; v < g.n; v++)
        if (g.row[v] > g.row[v + 1])
            abort();
    for (int k = 0; k < g.m; k++)
        if (g.col[k] < 0 || g.col[k] >= g.n || g.w[k] < 1 || g.w[k] >= PROG_MAX_SCALE_VAL)
            abort();
    int64_t *dist = malloc(sizeof *dist * (size_t)g.n);
    int64_t *hops = malloc(sizeof *hops * (size_t)g.n);
    if (dist && hops) {
        prog_graph_sssp(&g, 0, dist);
        prog_graph_bfs(&g, 0, hops);
        if (dist[0] != 0 || hops[0] != 0)
            abort();
        for (int v = 0; v < g.n; v++)
            if ((dist[v] < 0) != (hops[v] < 0) || hops[v] > dist[v])
                abort();
    }
    free(dist);
    free(hops);
    prog_graph_free(&g);
    return 0;
}
