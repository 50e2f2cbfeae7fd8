/* sim.h - timed mode (docs/architecture.md section 8): a discrete-event simulation of a
 * protocol's tables running a workload on a machine description, in cycles.
 * The protocol's rows are evaluated by the same evaluator as the explorer's
 * (checker/sys/rows.h), so a row means the same in both; there is no
 * per-protocol code here. The model, the machine format and the metrics are
 * documented in docs/sim.md. Library code: never prints, never exits. */
#ifndef COHCHECK_SIM_H
#define COHCHECK_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../prog/prog.h"
#include "../proto/proto.h"

/* ---- machines (protocols/machines/NAME.machine) ---- */

#define SIM_MAX_EVLAT 16
/* The most nodes an 'l2 N1,N2,...' list of a mesh topology names. */
#define SIM_MAX_L2_NODES 64
#define SIM_MAX_CUS 128     /* compute units of a run: nodesets of 128 (seed 001's 128-CU APU) */
#define SIM_EVLAT_DRAM (-2) /* 'event NAME dram': served by the machine's DRAM model */

/* 'dram ...' (docs/sim.md "DRAM"); all times in cycles. */
typedef struct {
    int channels;
    int banks;     /* per channel */
    int row_bytes; /* a row (page) of one bank */
    int queue;     /* requests per channel's scheduler queue (FR-FCFS window) */
    int bandwidth; /* data bytes per cycle per channel */
    int hit;       /* column access to the open row (tCL) */
    int miss;      /* bank without an open row: activate + column (tRCD + tCL) */
    int conflict;  /* another row open: precharge + activate + column (tRP + tRCD + tCL) */
    int latency;   /* fixed part: L2 -> memory controller -> L2, beyond the bank and bus */
} sim_dram_t;

typedef struct {
    char name[64];
    char desc[256];
    int cus;        /* compute units (the default for --cus) */
    int issue;      /* cycles between a thread's memory instructions (issue) */
    int alu;        /* cycles per local instruction (mov, add, branch) */
    int launch;     /* cycles from the last thread's arrival at a kernel launch boundary
                       (`launch`) to the next kernel's start (default 0) */
    int barrier;    /* cycles from the last arrival at a `bar.sync` to the release (default 0) */
    int l1_latency; /* cycles from a core event to its completion at the L1, and before
                       the L1's messages leave */
    int l1_sets;    /* 0: no capacity limit */
    int l1_ways;
    int l1_mshrs;      /* lines in transient states at one L1; 0: unlimited */
    char l1_evict[32]; /* the protocol's environment event that evicts an L1 line */
    int line_bytes;    /* bytes of a data field (a whole line) */
    int l2_latency;    /* cycles from a message's service at an L2 bank to its replies */
    int l2_banks;
    int l2_occupancy; /* cycles a bank is busy per message (contention) */
    int l2_atomic;    /* further cycles of the bank's atomic unit for a row computing apply() */
    int l2_sets;      /* 0: no capacity limit */
    int l2_ways;
    char l2_evict[32];
    int net_latency; /* one-way cycles between a CU and the shared level */
    int flit_bytes;
    int bandwidth;     /* flits per cycle per link */
    int header_bytes;  /* every message */
    int field_bytes;   /* every non-data field */
    int buffer;        /* flits buffered per channel (sender, receiver, network); 0: unlimited */
    int local_latency; /* between controllers of one CU */
    /* The SIMT core ('core' directive; docs/sim.md "Warps"): lanes of `simt` templates
       run in warps of `lanes`, one warp instruction per `width` slot per CU and cycle,
       picked by the scheduler; threads of other templates run as one-lane cores. */
    int lanes;      /* threads per warp (1..64) */
    int warp_width; /* warp instructions issued per CU per cycle */
    char sched[8];  /* "lrr" (loose round-robin), "gto" (greedy-then-oldest), "oldest" */
    int naive_sc;   /* 1: one memory operation per warp at a time (seed 003 "naive SC") */
    int nevlat;     /* 'event NAME CYCLES': internal events that take time (memory) */
    char evlat_name[SIM_MAX_EVLAT][32];
    int evlat[SIM_MAX_EVLAT]; /* cycles, or SIM_EVLAT_DRAM */
    bool has_dram;            /* a 'dram' line */
    sim_dram_t dram;
    /* 'topology crossbar|mesh COLS ROWS [hop N] [buffer F] [l2 ...]' (docs/sim.md "Network");
       NET_TOPO_LINKS (0, no line): the per-instance link model */
    int topology;
    int topo_cols, topo_rows; /* a mesh's */
    int topo_hop;             /* cycles per link (router and wire) */
    int topo_l2;              /* a mesh's node of the shared level */
    int topo_l2_spread;       /* 'l2 spread': the banks at several nodes (crossbar: a port each) */
    int topo_l2_n;            /* 'l2 N1,N2,...': bank b at topo_l2_nodes[b mod topo_l2_n] */
    int topo_l2_nodes[SIM_MAX_L2_NODES];
    int topo_buffer; /* flits per VC input buffer; 0: unbounded */
    /* 'sbuf N [coalesce 0|1]' (docs/sim.md "Store buffer"): N plain-store entries per CU
       drained in FIFO order by a hidden thread of the CU; 0 (no line): none */
    int sbuf;
    int sbuf_coalesce; /* 1: a store to a location already buffered overwrites its entry */
    int sbuf_lazy;     /* 1: entries leave only when an access waits for one or the drain */
} sim_machine_t;

/* Parse a machine file from memory: 0, or -1 with ERR "FILE:LINE:COL: message". */
int sim_machine_parse(const char *file, const char *src, size_t len, sim_machine_t *out,
                      diag_t *err);
int sim_machine_load(const char *path, sim_machine_t *out, diag_t *err);

/* ---- runs ---- */

typedef struct {
    int cus;             /* compute units; 0: as many as the workload places threads on */
    uint64_t seed;       /* ties between events of one cycle are broken by a PRNG seeded here */
    uint64_t max_cycles; /* 0: none */
    uint64_t max_events; /* 0: none */
    uint64_t max_idle;   /* cycles without any row firing before a deadlock is declared;
                            0: 1000000 */
    int memory;          /* SIM_MEM_*: how the machine's memory events are timed */
    bool predict;        /* run the protocol's predictors (docs/sim.md "Predictors"); false:
                            every predicted param is its fixed value, as in the explorer */
} sim_config_t;

enum {
    SIM_MEM_MACHINE, /* as the machine file says ('event NAME CYCLES' or 'event NAME dram') */
    SIM_MEM_DRAM,    /* every line event the machine times by its DRAM model */
    SIM_MEM_FIXED,   /* every DRAM event at the model's idle row-hit latency */
};

typedef enum {
    SIM_DONE,     /* every thread finished and the network drained */
    SIM_DEADLOCK, /* nothing can ever progress */
    SIM_PROTOCOL, /* an unhandled or impossible event, or an invariant/range failure */
    SIM_LIMIT,    /* --max-cycles or --max-events stopped the run */
} sim_status_t;

enum { SIM_OP_LOAD, SIM_OP_STORE, SIM_OP_ATOMIC, SIM_OP_FENCE, SIM_NOPS };

typedef struct {
    uint64_t count;
    double mean;
    uint64_t p50, p90, p99, max;
} sim_lat_t;

/* The DRAM model's statistics (all zero when no event used it). */
typedef struct {
    bool on;           /* some event was served by the model */
    int channels;      /* of the machine */
    uint64_t requests; /* reads served */
    uint64_t row_hits, row_misses, row_conflicts;
    uint64_t bytes;             /* data moved */
    double bandwidth;           /* bytes per cycle over the run, all channels */
    double peak_bandwidth;      /* channels x bytes per cycle */
    double occupancy_mean;      /* requests in a channel's queue, time-averaged over channels */
    uint64_t occupancy_max;     /* most requests in one channel's queue */
    uint64_t queue_full;        /* requests that found their channel's queue full */
    uint64_t queue_full_cycles; /* cycles they waited for a slot */
    double latency_mean;        /* cycles from request to data back */
    uint64_t latency_max;
} sim_dram_stats_t;

/* The network between the CUs and the shared level (docs/sim.md "Network"). */
typedef struct {
    uint64_t messages;      /* messages that crossed it (not those within a CU) */
    double latency_mean;    /* cycles from leaving the sender to arriving at the receiver */
    uint64_t latency_max;   /* (queueing on the links included; not the receiver's wait) */
    int links;              /* links that carried a message (each instance's out and in) */
    double util_mean;       /* busy cycles over the run's cycles, mean over those links */
    double util_max;        /* the busiest link's */
    char busiest[48];       /* which: "L2[0] in", "L1[3] out", ... (a topology's: "eject 4",
                               "r(1,0) east", ...) */
    char topology[32];      /* "links", "crossbar", "mesh 2x2" */
    double hops_mean;       /* a topology's links per message */
    uint64_t hol_messages;  /* a topology's messages held behind their VC's head */
    uint64_t hol_cycles;    /* and the cycles they were held */
    uint64_t full_messages; /* a topology's messages that found their VC's buffer full */
    uint64_t full_cycles;   /* and the cycles they waited for room */
} sim_net_stats_t;

/* The per-CU store buffers (docs/sim.md "Store buffer"; all zero without one). */
typedef struct {
    int entries;           /* per CU (the machine's sbuf) */
    bool coalesce;         /* sbuf ... coalesce 1 */
    bool lazy;             /* sbuf ... lazy 1 */
    uint64_t buffered;     /* plain stores that took an entry */
    uint64_t coalesced;    /* plain stores that overwrote an entry of their location */
    uint64_t forwarded;    /* plain loads served by their CU's buffer */
    uint64_t drained;      /* stores the buffers issued to the L1 (the hidden threads') */
    uint64_t fences;       /* release fences the hidden threads issued for a release */
    uint64_t full_waits;   /* plain stores that found their CU's buffer full */
    uint64_t full_cycles;  /* and the cycles they waited for an entry */
    uint64_t drain_waits;  /* ordered accesses and thread ends that waited for a drain */
    uint64_t drain_cycles; /* and the cycles they waited */
} sim_sbuf_stats_t;

/* One predictor's run (docs/sim.md "Predictors"). */
#define SIM_MAX_PREDS 4
typedef struct {
    char param[32], ctrl[32];
    bool per_line;
    uint64_t reads;   /* rows' reads of the prediction */
    double mean;      /* the prediction those reads found, averaged */
    int64_t min, max; /* (0, 0 without reads) */
    uint64_t updates; /* rules that fired (a clamped move included) */
    int64_t start;    /* the initial prediction */
} sim_pred_stats_t;

typedef struct {
    sim_status_t status;
    char msg[512];    /* why, when not SIM_DONE */
    char stuck[2048]; /* a deadlock's stalled work, one line per instance (else empty) */
    int cus;
    uint64_t cycles; /* when the last thread finished */
    uint64_t events; /* events processed */
    bool correct;    /* the final-state check (forall / ~exists); exists: true */
    bool has_check;  /* the condition is a check (forall or ~exists), not an observation */
    bool observed;   /* the condition's proposition held in the final state */
    uint64_t loads, l1_hits;
    int nmsgs;
    const char **msg_names; /* per message type */
    uint64_t *messages;     /* per message type: sent */
    uint64_t *traffic;      /* per message type: bytes */
    uint64_t invalidations, flushes, evictions;
    uint64_t stall_cycles;     /* threads' core events waiting (stall rows, full channels, sets
                                  or MSHRs) before a row took them */
    uint64_t stall_msg_cycles; /* messages waiting on stall rows or full channels at their
                                  receiver (e.g. a TC-Strong write until the lease expires) */
    sim_lat_t lat[SIM_NOPS];
    /* The SIMT core (docs/sim.md "Warps") */
    int warps;              /* warps of two or more lanes */
    int lanes;              /* the machine's lanes per warp */
    uint64_t warp_instrs;   /* warp instructions issued (a one-lane core's instructions) */
    uint64_t coalesced;     /* lane loads served by another lane's access of the location */
    uint64_t line_requests; /* distinct lines of warps' issued accesses, per instruction */
    uint64_t mshr_merges;   /* core events that waited behind their line's outstanding
                               request at the L1 and completed without a message */
    /* Synchronization accesses (atomics: rmw, cas, and loads and stores with an order) by
       where they were served, as seed 001 Table 6 counts them (docs/sim.md "Statistics"):
       at the thread's L1 without a stall or wait (sync_l1); after a wait, by the last
       message the L1 took on the line before the access completed: sent by another CU's
       L1 (sync_remote) or by anything else, the L2 or memory (sync_l2). sync_evicts: L1
       lines an atomic completed on, evicted since. */
    uint64_t sync_accesses, sync_l1, sync_l2, sync_remote, sync_evicts;
    sim_dram_stats_t dram;
    sim_net_stats_t net;
    sim_sbuf_stats_t sbuf;
    int npreds; /* predictors that ran (sim_config_t.predict); the first SIM_MAX_PREDS */
    sim_pred_stats_t preds[SIM_MAX_PREDS];
} sim_result_t;

/* Simulate PROG on protocol P and machine M. 0 with *OUT filled (its status says how
 * the run ended); -1 with ERR when the run cannot start (a workload the protocol has
 * no core map for, more CUs than the placement allows, ...). */
int sim_run(const proto_t *p, const prog_t *prog, const sim_machine_t *m, const sim_config_t *cfg,
            sim_result_t *out, diag_t *err);
/* sim_run on 128-bit slots (nodesets of SIM_MAX_CUS compute units), whatever the CU
 * count: sim_run calls it for the runs sim_needs_wide names. Where both widths can run
 * a run they give the same results exactly (the unit tests check that); it is only
 * slower. */
int sim_run_wide(const proto_t *p, const prog_t *prog, const sim_machine_t *m,
                 const sim_config_t *cfg, sim_result_t *out, diag_t *err);
/* Whether a run of PROG on P over NCUS compute units needs 128-bit slots: above 31 CUs,
 * when P has a nodeset anywhere (a variable, a message field, an expression, a send to
 * 'each'), or a mask and PROG a line of more than 31 locations. */
bool sim_needs_wide(const proto_t *p, const prog_t *prog, int ncus);
void sim_result_free(sim_result_t *r);

const char *sim_op_name(int op);

#endif
