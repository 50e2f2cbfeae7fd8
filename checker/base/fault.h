/* fault.h - fault injection points for `make test-fault` (tests/fault/).
 *
 * Built with -DCOHCHECK_FAULT, the environment picks which call fails:
 *   COHCHECK_FAULT_ALLOC=N     the Nth allocation fails (1-based; xmalloc and the
 *                              other util.h allocators, the explorer's own tables,
 *                              and SQLite's allocator); "N+": the Nth and every later one
 *   COHCHECK_FAULT_IO=KIND:N   the Nth call of KIND fails; "KIND:N+" likewise from N on.
 *                              KIND: read, write, sync, lock (SQLite's file calls, through
 *                              the VFS shim in store_fault.c) or spill (the BFS queue's
 *                              spill file: pread and pwrite)
 *   COHCHECK_FAULT_LOG=FILE    each fault that fires appends "fired KIND N" to FILE,
 *                              and a normal exit appends "count alloc N read N ...".
 * Without COHCHECK_FAULT every function here is a constant false: no cost, no state.
 *
 * Invariant: these counters are the only process-wide mutable state of the library,
 * and they exist only in the fault build (an allocator hook has no caller context). */
#ifndef COHCHECK_FAULT_H
#define COHCHECK_FAULT_H

#include <stdbool.h>

typedef enum {
    FAULT_ALLOC,
    FAULT_READ,
    FAULT_WRITE,
    FAULT_SYNC,
    FAULT_LOCK,
    FAULT_SPILL,
    FAULT_NKINDS
} fault_kind_t;

#ifdef COHCHECK_FAULT
/* Count one call of KIND; true when it must fail. Thread-safe. */
bool fault_hit(fault_kind_t kind);
#else
static inline bool fault_hit(fault_kind_t kind)
{
    (void)kind;
    return false;
}
#endif

#endif
