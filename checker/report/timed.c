/* timed.c - `cohcheck report timed` (docs/report-timed.md): the seed papers' performance
 * figures re-run in timed mode. Every run is an in-process sim_run (checker/sim/sim.h) of a
 * protocol's own tables on a machine file, once per seed; the sweeps are the figures below.
 * Writes DIR/timed.md (machines, parameters, the claims table evaluated from the claims
 * files, per-figure tables of means with 95% confidence intervals and the parameters every
 * run used), DIR/timed/ID.dat|.gp|.svg|.png (gnuplot; skipped with a note when gnuplot is
 * missing) and a timed section in DIR/index.html when that page exists.
 * Invariant: tables depend only on the seeds; the wall-clock figures are one marked line. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../prog/prog.h"
#include "../proto/proto.h"
#include "../sim/sim.h"
#include "report.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the figures ---- */

typedef enum { PLOT_NONE, PLOT_LINES, PLOT_BARS } plot_kind_t;

typedef struct {
    const char *id;    /* file stem under timed/, and --only name */
    const char *title; /* heading */
    const char *source;
    const char *machine;
    const char *workloads; /* space-separated names in litmus/workloads */
    const char *protocols; /* space-separated; "*": every protocol in ./protocols */
    const char *sweep;     /* "CUS" (the --cus list), a parameter name, or NULL (one run) */
    const char *values, *quick_values; /* the parameter sweep's points */
    const char *fixed, *quick_fixed;   /* NAME=V,... settings of every run */
    const char *norm; /* "self": t(first point)/t; a protocol: t(it)/t at the same point */
    const char *norm_text;
    plot_kind_t plot;
    bool optional; /* skipped, and said so, when a workload is missing */
} figure_t;

/* Settings (figure_t.fixed): NAME=V applies to the protocol when it declares NAME, else to
 * the workload; PAT:NAME=V only to runs of the protocols PAT matches (a shell pattern:
 * tcs*:lifetime=800 reaches tcs, tcs-inorder and tcs-nostall). A protocol entry PROTO@S,...
 * runs PROTO with the further settings S (e.g. gpu-wt@RELAXED=1, seed 002's GDR).
 * Seed 002 Table I: 4 TBs/CU, 10 Ld&St/thr/iter (semaphores: readers 10 Ld, writers 30 St);
 * 100 iterations in the paper, 20 here (cycles grow linearly with them; the comparisons do
 * not depend on the count). Backoff: the HeteroSync code's 10 + 5 per failure, reset after
 * 25 (the HeteroSync code). Seed 004 section 7: TC-Strong's fixed lifetime 800 cycles, TCW-FIXED's
 * 3200. */
#define HS_FULL "TBS=4,ITERS=20,LDST=10,RLD=10,WST=30,BOINIT=10,BOSTEP=5,BORESET=25"
#define HS_QUICK "TBS=2,ITERS=2,LDST=1,RLD=1,WST=1,BOINIT=2,BOSTEP=1,BORESET=2"
#define HS_PROTOS "nol1 gpu-wt gpu-hrf denovo denovo-b"
#define SELF_WEAK "t(1 CU) / t(N CUs): weak scaling, 1.0 is perfect"
#define TC_LIFE "tcs*:lifetime=800,tcw*:lifetime=3200"
/* Seed 002 section IV-D strong-scales the relaxed-atomic benchmarks: the TB count is fixed
 * and divided over the CUs. The TB totals are the workloads' timed defaults, Table II's
 * (Flags 60, HG and HG-NO 64, RC 64, SL 512, SC 112 TBs, main TB or writer included), so
 * no setting here is per CU; the per-TB work is named explicitly. */
#define HS_RLX_FULL "ITERS=10,ITEMS=16,BINS=64,WITERS=2,RITERS=4,NDATA=4"
#define HS_RLX_QUICK "NTB=4,WORKERS=3,READERS=3,ITERS=2,ITEMS=2,BINS=4,WITERS=1,RITERS=1,NDATA=1"
#define SELF_STRONG                                                                          \
    "t(1 CU) / t(N CUs): strong scaling (the total TBs and work are fixed, Table II), N is " \
    "perfect"

/* RCC and RCC-WO run as rcc-vifix and rcc-wo-vifix: seed 003 Fig. 5 leaves the L1 VI/RENEW
 * cell empty, the kernels reach it at some seeds (kernels/dlb), and the two fill it as
 * II/RENEW; a run that never reaches the cell is the same run, cycle for cycle. */
static const figure_t FIGS[] = {
    {"hs-mutex-local", "HeteroSync local mutexes (seed 002 Fig. 2)", "seed 002 section V-A, Fig. 2",
     "heterosync", "SPM_L SPMBO_L FAM_L SLM_L", HS_PROTOS, "CUS", NULL, NULL, HS_FULL, HS_QUICK,
     "self", SELF_WEAK, PLOT_LINES, false},
    {"hs-mutex-global", "HeteroSync global mutexes (seed 002 Fig. 3)",
     "seed 002 section V-B, Fig. 3", "heterosync", "SPM_G SPMBO_G FAM_G SLM_G", HS_PROTOS, "CUS",
     NULL, NULL, HS_FULL, HS_QUICK, "self", SELF_WEAK, PLOT_LINES, false},
    {"hs-semaphore", "HeteroSync semaphores (seed 002 Figs. 2 and 3)",
     "seed 002 sections V-A and V-B", "heterosync", "SPS_L SPSBO_L SPS_G SPSBO_G", HS_PROTOS, "CUS",
     NULL, NULL, HS_FULL, HS_QUICK, "self", SELF_WEAK, PLOT_LINES, false},
    {"hs-barrier", "HeteroSync tree barriers (seed 002 Fig. 2)", "seed 002 section V-A, Fig. 2",
     "heterosync", "TB_LG TBEX_LG LFTB_LG LFTBEX_LG", HS_PROTOS, "CUS", NULL, NULL, HS_FULL,
     HS_QUICK, "self", SELF_WEAK, PLOT_LINES, false},
    {"hs-relaxed", "HeteroSync relaxed-atomic workloads (seed 002 Fig. 4)",
     "seed 002 section V-C, Fig. 4; GDR and DDR are gpu-wt and denovo with RELAXED=1 (DRFrlx)",
     "heterosync", "Flags HG HG-NO RC SL SC",
     "gpu-wt gpu-wt@RELAXED=1 gpu-hrf denovo denovo@RELAXED=1", "CUS", NULL, NULL, HS_RLX_FULL,
     HS_RLX_QUICK, "self", SELF_STRONG, PLOT_LINES, false},
    {"fermi",
     "TC and RCC protocols on the Fermi machine (seed 004 Figs. 7 and 10, seed 003 Fig. 9)",
     "seed 004 sections 8.1 and 8.3; seed 003 section III-C", "fermi", "mp mp@NDATA=2 taskqueue",
     "nol1 tcs tcs-inorder tcw rcc-vifix rcc-wo-vifix mesi gpu-vi gpu-vini", NULL, NULL, NULL,
     "CUS=16,CONSUMERS=15,ROUNDS=8,NDATA=8,NT=8,STEAL=2," TC_LIFE,
     "CUS=4,CONSUMERS=3,ROUNDS=2,NDATA=2,NT=2,STEAL=2," TC_LIFE, "nol1",
     "t(nol1) / t: speedup over no L1, the TC paper's baseline", PLOT_BARS, false},
    {"tcw-lifetime", "TC-Weak fixed-lifetime sweep (seed 004 Fig. 11)",
     "seed 004 section 8.4, Fig. 11", "fermi", "mp taskqueue", "tcw nol1", "lifetime",
     "0,100,200,400,800,1600,3200,6400", "0,400,3200",
     "CUS=16,CONSUMERS=15,ROUNDS=8,NDATA=8,NT=8,STEAL=2",
     "CUS=4,CONSUMERS=3,ROUNDS=2,NDATA=2,NT=2,STEAL=2", "nol1", "t(nol1) / t: speedup over no L1",
     PLOT_LINES, false},
    /* Seed 004 section 7's and seed 003 Table IV's kernels on fermi's 16 CUs: the
       inter-work-group set (bfs, hotspot as STN with its grid barrier per step, dlb) and the
       intra-work-group set (hotspot-wg as HSP, kmeans as KMN). Two steps or iterations and a
       16 x 16 grid keep the TC runs affordable: tcs and tcw take about 10 M events on
       hotspot-wg's default 4 steps. */
    {"tc-kernels", "TC and RCC protocols on application kernels (seed 004 Fig. 7, seed 003 Fig. 9)",
     "seed 004 sections 7 and 8.1, Figs. 7-8; seed 003 sections III-B and III-C, Fig. 9; "
     "inter-work-group: bfs (R-MAT 256 x 4), hotspot (STN: a grid barrier per step), dlb "
     "(16,384 elements); intra-work-group: hotspot-wg (HSP), kmeans (KMN); 16 CUs; tcs and "
     "tcs-inorder at lifetime 800, tcw (TCW-FIXED) at 3200",
     "fermi", "kernels/bfs kernels/hotspot kernels/dlb kernels/hotspot-wg kernels/kmeans",
     "nol1 mesi gpu-vi gpu-vini tcs tcs-inorder tcw rcc-vifix rcc-wo-vifix", NULL, NULL, NULL,
     "CUS=16,SCALE=8,DEG=4,W=16,H=16,ITERS=2,WGSIZE=32," TC_LIFE,
     "CUS=4,TBS=2,SCALE=5,DEG=2,W=8,H=8,ITERS=2,WGSIZE=8,N=256,K=2,B=4," TC_LIFE, "nol1",
     "t(nol1) / t: speedup over no L1, seed 004 Fig. 7a's baseline (its Fig. 7b normalises "
     "the intra-work-group set to a non-coherent L1, NO-COH)",
     PLOT_BARS, false},
    /* Seed 004 section 8.3 (Fig. 10): TC-Strong at 800 cycles, TCW-FIXED at 3200 and TCW
       (the same tcw with its lifetime predictor, `predict=1`: sim --predict on, starting at
       3200) on tc-kernels' kernels and sizes, normalised to TC-Strong as the paper's
       comparison is; RCC with its lease predictor (seed 003 II-E) beside RCC. */
    {"tc-predict",
     "TC-Strong, TCW-FIXED and TCW with its lifetime predictor (seed 004 Fig. 10); RCC with its "
     "lease predictor (seed 003 Fig. 7)",
     "seed 004 sections 6.4 and 8.3, Fig. 10; seed 003 section II-E, Fig. 7; tc-kernels' "
     "kernels and sizes on 16 CUs; tcs at lifetime 800, tcw (TCW-FIXED) at 3200, "
     "tcw@predict=1 (TCW) the same protocol with its predictor on, rcc-vifix@predict=1 RCC's",
     "fermi", "kernels/bfs kernels/hotspot kernels/dlb kernels/hotspot-wg kernels/kmeans",
     "tcs tcw tcw@predict=1 rcc-vifix rcc-vifix@predict=1", NULL, NULL, NULL,
     "CUS=16,SCALE=8,DEG=4,W=16,H=16,ITERS=2,WGSIZE=32," TC_LIFE,
     "CUS=4,TBS=2,SCALE=5,DEG=2,W=8,H=8,ITERS=2,WGSIZE=8,N=256,K=2,B=4," TC_LIFE, "tcs",
     "t(tcs) / t: speedup over TC-Strong, seed 004 Fig. 10's comparison", PLOT_BARS, false},
    {"hlrc-steal", "Task queue by steal interval (seed 001 Fig. 4 shape)",
     "seed 001 section V-A, Fig. 4; RSP pops at work-group scope and steals with remote scope "
     "promotion (SCOPED=1), the others synchronize at agent scope",
     "hlrc-apu", "taskqueue", "gpu-wt rsp hlrc denovo-b", "STEAL", "0,8,4,2,1", "0,2,1",
     "CUS=16,NT=8,rsp:SCOPED=1", "CUS=4,NT=2,rsp:SCOPED=1", "gpu-wt",
     "t(baseline) / t; the baseline is gpu-wt (seed 001: acquire flash-invalidates the L1, "
     "release flushes the store buffer); STEAL=k steals every k-th round, 0 never",
     PLOT_BARS, false},
    {"hlrc-cus", "Task queue by CU count (seed 001 Figs. 1, 5 and 6)",
     "seed 001 sections I and V-A, Figs. 1, 5, 6", "hlrc-apu", "taskqueue",
     "gpu-wt rsp hlrc denovo-b", "CUS", "2,4,8,16,32,64,128", "2,4,8", "NT=8,STEAL=2,rsp:SCOPED=1",
     "NT=2,STEAL=2,rsp:SCOPED=1", "gpu-wt", "t(baseline) / t at the same CU count", PLOT_LINES,
     false},
    /* Seed 001 IV-B's six scenarios on its Pannotia kernels as task-queue work: baseline (own
       queue only, agent scope), scope-only (own queue, wg scope), steal-only (steals, agent
       scope), RSP (wg pops, rm_agent steals), DeNovo-B and hLRC (steals). One TB per CU:
       4 TBs per CU run (rsp's locks is int(0..nthreads)) but the figure would take about
       30 minutes on two cores (sssp-tq's rsp run alone 163 s a seed). */
    {"hlrc-pannotia", "Pannotia kernels over per-CU task queues at 128 CUs (seed 001 Fig. 4)",
     "seed 001 sections IV-B and V-A, Fig. 4; baseline and steal-only are gpu-wt, scope-only "
     "and RSP rsp (own pops at work-group scope, RSP's steals rm_agent), a steal every 2 own "
     "pops and until empty; 128 CUs x 1 TB, colour on a 32 x 32 grid, SSSP and PageRank (4 "
     "iterations) on R-MAT 1024 x 8",
     "hlrc-apu", "kernels/color kernels/sssp-tq kernels/pagerank",
     "gpu-wt@STEAL=0 rsp@SCOPED=1,STEAL=0 gpu-wt@STEAL=2 rsp@SCOPED=1,STEAL=2 denovo-b@STEAL=2 "
     "hlrc@STEAL=2",
     NULL, NULL, NULL, "CUS=128,TBS=1", "CUS=8,TBS=1,WIDTH=8,HEIGHT=8,SCALE=6,DEG=4",
     "gpu-wt@STEAL=0",
     "t(baseline) / t: speedup over seed 001's baseline (gpu-wt, own queue only, agent scope); "
     "the columns are baseline, scope-only, steal-only, RSP, DeNovo-B, hLRC",
     PLOT_BARS, false},
    {"qr-apsp", "QuickRelease against write-through and RFO on APSP (seed 000 Fig. 5)",
     "seed 000 sections 4.2 and 5.1, Fig. 5; APSP is SSSP from sources 0..NSRC-1 in turn, "
     "each until convergence (kernels/apsp), its launches a grid barrier of atomics or, with "
     "LAUNCH=1, real kernel launches (the machine's launch latency); RFO is mesi",
     "qr-apu", "kernels/apsp kernels/apsp@LAUNCH=1", "nol1 gpu-wt qr mesi", NULL, NULL, NULL,
     "CUS=8,TBS=4,SCALE=8,DEG=4,NSRC=4,BACKOFF=16", "CUS=4,TBS=2,SCALE=5,DEG=4,NSRC=2,BACKOFF=16",
     "nol1", "t(nol1) / t: speedup over no L1, the QR paper's baseline", PLOT_BARS, false},
    {"census", "Every protocol in protocols/ in timed mode",
     "issue 10: every protocol that runs in timed mode has its rows", "heterosync", "SPM_G", "*",
     NULL, NULL, NULL, "CUS=4,TBS=2,ITERS=4,LDST=2", "CUS=2,TBS=1,ITERS=2,LDST=1", "nol1",
     "t(nol1) / t", PLOT_NONE, false},
};
#define NFIGS ((int)(sizeof FIGS / sizeof FIGS[0]))

/* ---- runs ---- */

typedef struct {
    bool ran; /* sim_run returned 0 */
    char err[700];
    sim_status_t status;
    bool correct;
    uint64_t cycles, events, msgs, bytes, inv, flushes, evictions, stalls, mstalls, loads, hits;
    uint64_t sync_acc, sync_l1, sync_l2, sync_rem, sync_ev; /* seed 001 Table 6's counts */
    uint64_t st_count;
    uint64_t dram_issued, dram_hits; /* DRAM row hits of the row accesses; 0, 0: no DRAM */
    double st_lat, ld_lat;
    double pred_mean; /* the first predictor's mean prediction (sim --predict on); 0: none */
    int cus_used;     /* distinct CUs the workload's threads are placed on */
    char pparams[200], wparams[400]; /* the effective settings: NAME=V,... */
    double wall;
} res_t;

typedef struct {
    int fig, wl, proto, val; /* indexes into the figure's lists */
} job_t;

#define MAXL 64
typedef struct {
    char *w[MAXL];
    int n;
} list_t;

typedef struct {
    const report_timed_opts_t *o;
    int nseeds;
    list_t wls[NFIGS], protos[NFIGS], vals[NFIGS];
    const char *fixed[NFIGS];
    bool on[NFIGS];
    char skipped[NFIGS][160]; /* why an optional figure did not run */
    job_t *jobs;
    res_t *res; /* [job][seed] */
    int njobs, next, done;
    pthread_mutex_t lock;
} ctx_t;

static void split(const char *s, const char *seps, list_t *l)
{
    l->n = 0;
    while (s && *s && l->n < MAXL) {
        size_t k = strcspn(s, seps);
        if (k)
            l->w[l->n++] = xstrndup(s, k);
        s += k;
        s += strspn(s, seps);
    }
}

static void list_free(list_t *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->w[i]);
    l->n = 0;
}

static bool good1(const res_t *r)
{
    return r->ran && r->status == SIM_DONE && r->correct;
}

/* R points at a job's first seed: every seed's run is correct. */
static bool good(const ctx_t *c, const res_t *r)
{
    for (int s = 0; s < c->nseeds; s++)
        if (!good1(&r[s]))
            return false;
    return true;
}

/* The first seed whose run is not correct (R: a job's first seed), or -1. */
static int first_bad(const ctx_t *c, const res_t *r)
{
    for (int s = 0; s < c->nseeds; s++)
        if (!good1(&r[s]))
            return s;
    return -1;
}

static const char *status_word(const res_t *r)
{
    if (!r->ran)
        return "error";
    switch (r->status) {
    case SIM_DONE: return r->correct ? "correct" : "wrong final state";
    case SIM_DEADLOCK: return "deadlock";
    case SIM_PROTOCOL: return "protocol error";
    case SIM_LIMIT: return "limit";
    }
    return "?";
}

/* The settings of JOB, in order: the figure's, the workload entry's and the protocol
 * entry's (after '@'), then the sweep point. */
static void job_settings(const ctx_t *c, const job_t *j, list_t *set)
{
    const figure_t *f = &FIGS[j->fig];
    list_t extra;
    split(c->fixed[j->fig], ",", set);
    for (int k = 0; k < 2; k++) {
        const char *e = k ? c->protos[j->fig].w[j->proto] : c->wls[j->fig].w[j->wl];
        const char *at = strchr(e, '@');
        split(at ? at + 1 : NULL, ",", &extra);
        for (int i = 0; i < extra.n && set->n < MAXL; i++)
            set->w[set->n++] = xstrdup(extra.w[i]);
        list_free(&extra);
    }
    if (f->sweep && set->n < MAXL) {
        char sw[96];
        snprintf(sw, sizeof sw, "%s=%s", f->sweep, c->vals[j->fig].w[j->val]);
        set->w[set->n++] = xstrdup(sw);
    }
}

/* Apply SET to protocol P (named PNAME): a name P declares sets it, any other becomes a
 * workload setting in WL (pointing into SET). PAT:NAME=V applies only when the shell
 * pattern PAT matches PNAME. Returns the workload settings' count, or -1 (ERR). */
static int apply_settings(list_t *set, const char *pname, proto_t *p, const char *sweep,
                          prog_setting_t *wl, int *cus, bool *sweep_proto, bool *predict,
                          diag_t *err)
{
    int nwl = 0;
    for (int i = 0; i < set->n; i++) {
        char *name = set->w[i], *colon = strchr(name, ':'), *eq = strchr(name, '=');
        if (!eq)
            continue;
        if (colon && colon < eq) {
            *colon = '\0';
            bool match = fnmatch(name, pname, 0) == 0;
            *colon = ':';
            if (!match)
                continue;
            name = colon + 1;
        }
        *eq = '\0';
        long v = strtol(eq + 1, NULL, 10);
        bool declared = false;
        for (int k = 0; k < p->nparams; k++)
            declared |= !strcmp(p->params[k].name, name);
        if (!strcmp(name, "CUS"))
            *cus = (int)v;
        if (!strcmp(name, "predict")) { /* predict=1: sim --predict on (docs/sim.md) */
            *predict = v != 0;
            *eq = '=';
            continue;
        }
        if (declared) {
            if (sweep && !strcmp(name, sweep))
                *sweep_proto = true;
            if (proto_set_param(p, name, (int)v, err))
                return -1;
        } else {
            wl[nwl].name = name;
            wl[nwl++].value = v;
        }
    }
    return nwl;
}

/* R's effective settings (what the run used) and the CUs its threads occupy. */
static void record_params(res_t *r, const proto_t *p, const prog_t *prog, bool predict)
{
    strbuf_t b;
    sb_init(&b);
    for (int k = 0; k < p->nparams; k++)
        sb_printf(&b, "%s%s=%d", k ? "," : "", p->params[k].name, p->params[k].value);
    if (predict)
        sb_printf(&b, "%spredict=1", p->nparams ? "," : "");
    snprintf(r->pparams, sizeof r->pparams, "%s", b.s ? b.s : "-");
    sb_free(&b);
    sb_init(&b);
    for (int k = 0, first = 1; k < prog->nparams; k++) {
        if (prog->params[k].derived)
            continue;
        sb_printf(&b, "%s%s=%lld", first ? "" : ",", prog->params[k].name,
                  (long long)prog->params[k].value);
        first = 0;
    }
    snprintf(r->wparams, sizeof r->wparams, "%s", b.s ? b.s : "-");
    sb_free(&b);
    uint64_t seen[4] = {0};
    for (int t = 0; t < prog->nthreads; t++) {
        int cu = prog->threads[t].cu;
        if (cu >= 0 && cu < 256 && !(seen[cu / 64] >> (cu % 64) & 1)) {
            seen[cu / 64] |= 1ULL << (cu % 64);
            r->cus_used++;
        }
    }
}

static void record_result(res_t *r, const sim_result_t *s)
{
    r->ran = true;
    r->status = s->status;
    r->correct = s->correct;
    if (s->status != SIM_DONE)
        snprintf(r->err, sizeof r->err, "%s", s->msg);
    r->cycles = s->cycles;
    r->events = s->events;
    for (int g = 0; g < s->nmsgs; g++) {
        r->msgs += s->messages[g];
        r->bytes += s->traffic[g];
    }
    r->inv = s->invalidations;
    r->flushes = s->flushes;
    r->evictions = s->evictions;
    r->stalls = s->stall_cycles;
    r->mstalls = s->stall_msg_cycles;
    r->loads = s->loads;
    r->hits = s->l1_hits;
    r->sync_acc = s->sync_accesses;
    r->sync_l1 = s->sync_l1;
    r->sync_l2 = s->sync_l2;
    r->sync_rem = s->sync_remote;
    r->sync_ev = s->sync_evicts;
    r->st_lat = s->lat[SIM_OP_STORE].mean;
    r->st_count = s->lat[SIM_OP_STORE].count;
    r->ld_lat = s->lat[SIM_OP_LOAD].mean;
    r->pred_mean = s->npreds ? s->preds[0].mean : 0;
    r->dram_hits = s->dram.row_hits;
    r->dram_issued = s->dram.row_hits + s->dram.row_misses + s->dram.row_conflicts;
}

/* Load the machine, protocol and workload of job J with its settings; 0, or -1 with R->err. */
static int load_job(ctx_t *c, const job_t *j, res_t *r, sim_machine_t *m, proto_t **p,
                    prog_t **prog, int *cus, bool *predict)
{
    const figure_t *f = &FIGS[j->fig];
    const char *entry = c->protos[j->fig].w[j->proto], *wentry = c->wls[j->fig].w[j->wl];
    char pname[128], wname[128], path[4096];
    snprintf(pname, sizeof pname, "%.*s", (int)strcspn(entry, "@"), entry);
    snprintf(wname, sizeof wname, "%.*s", (int)strcspn(wentry, "@"), wentry);
    diag_t d;
    int rc = -1;
    list_t set = {{0}, 0};
    if (c->o->find(c->o->find_ctx, f->machine, "protocols/machines", ".machine",
                   "COHCHECK_MACHINES", path, sizeof path)) {
        snprintf(r->err, sizeof r->err, "machine '%s' not found in protocols/machines", f->machine);
        return -1;
    }
    if (sim_machine_load(path, m, &d) || c->o->load_proto(c->o->find_ctx, pname, p, &d))
        goto diag;
    job_settings(c, j, &set);
    prog_setting_t wl[MAXL];
    bool sweep_proto = false;
    int nwl = apply_settings(&set, pname, *p, f->sweep, wl, cus, &sweep_proto, predict, &d);
    if (nwl < 0)
        goto diag;
    if (c->o->find(c->o->find_ctx, wname, "litmus/workloads", ".litmus", "COHCHECK_WORKLOADS", path,
                   sizeof path)) {
        snprintf(r->err, sizeof r->err, "workload '%s' not found in litmus/workloads", wname);
        goto out;
    }
    if (prog_load_params(path, wl, nwl, PROG_PARAMS_TIMED, prog, &d))
        goto diag;
    /* A sweep must change something: its parameter is declared by the protocol or the
     * workload (the normalising baseline is exempt: it runs unchanged at each point). */
    if (f->sweep && !sweep_proto && !prog_param_find(*prog, f->sweep) &&
        (strcmp(f->sweep, "CUS") ? strcmp(pname, f->norm) != 0 : true)) {
        snprintf(r->err, sizeof r->err, "neither protocol %s nor workload %s declares %s", pname,
                 wname, f->sweep);
        goto out;
    }
    if (*cus && !prog_param_find(*prog, "CUS")) {
        snprintf(r->err, sizeof r->err, "workload %s declares no CUS parameter", wname);
        goto out;
    }
    rc = 0;
    goto out;
diag:
    diag_format(&d, r->err, sizeof r->err);
out:
    list_free(&set);
    return rc;
}

/* Run job J at seed index S into R; every failure lands in R->err. */
static void run_job(ctx_t *c, const job_t *j, int s, res_t *r)
{
    proto_t *p = NULL;
    prog_t *prog = NULL;
    sim_machine_t m;
    diag_t d;
    memset(r, 0, sizeof *r);
    int cus = 0;
    bool predict = false;
    if (load_job(c, j, r, &m, &p, &prog, &cus, &predict))
        goto out;
    record_params(r, p, prog, predict);
    sim_config_t cfg = {.cus = cus,
                        .seed = c->o->seed + (uint64_t)s,
                        .max_events = c->o->max_events,
                        .predict = predict};
    sim_result_t sr;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (sim_run(p, prog, &m, &cfg, &sr, &d)) {
        diag_format(&d, r->err, sizeof r->err);
        sim_result_free(&sr);
        goto out;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    record_result(r, &sr);
    sim_result_free(&sr);
out:
    prog_free(prog);
    proto_free(p);
}

static void *worker(void *arg)
{
    ctx_t *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int i = c->next < c->njobs * c->nseeds ? c->next++ : -1;
        pthread_mutex_unlock(&c->lock);
        if (i < 0)
            return NULL;
        run_job(c, &c->jobs[i / c->nseeds], i % c->nseeds, &c->res[i]);
        pthread_mutex_lock(&c->lock);
        int done = ++c->done;
        pthread_mutex_unlock(&c->lock);
        if (c->o->progress)
            c->o->progress(c->o->progress_ctx, done, c->njobs * c->nseeds,
                           FIGS[c->jobs[i / c->nseeds].fig].id);
    }
}

/* The results (one per seed) of FIG's run (WL, PROTO, VAL) by name; NULL when not in the
 * sweep. */
static const res_t *find(const ctx_t *c, int fig, const char *wl, const char *proto,
                         const char *val)
{
    if (fig < 0 || !c->on[fig])
        return NULL;
    for (int i = 0; i < c->njobs; i++) {
        const job_t *j = &c->jobs[i];
        if (j->fig == fig && !strcmp(c->wls[fig].w[j->wl], wl) &&
            !strcmp(c->protos[fig].w[j->proto], proto) &&
            (!FIGS[fig].sweep || (val && !strcmp(c->vals[fig].w[j->val], val))))
            return &c->res[i * c->nseeds];
    }
    return NULL;
}

static int fig_index(const char *id)
{
    for (int i = 0; i < NFIGS; i++)
        if (!strcmp(FIGS[i].id, id))
            return i;
    return -1;
}

bool report_timed_has_figure(const char *id)
{
    return fig_index(id) >= 0;
}

/* The mean cycles over the seeds of R (a job's first seed). */
static double mean_cycles(const ctx_t *c, const res_t *r)
{
    double m = 0;
    for (int s = 0; s < c->nseeds; s++)
        m += (double)r[s].cycles;
    return m / c->nseeds;
}

/* The normalised figure of run R in FIG (see figure_t.norm), on the means over seeds: 0
 * when not computable. */
static double normed(const ctx_t *c, int fig, const job_t *j, const res_t *r)
{
    const figure_t *f = &FIGS[fig];
    if (!good(c, r) || !r->cycles)
        return 0;
    const res_t *b;
    if (!strcmp(f->norm, "self"))
        b = find(c, fig, c->wls[fig].w[j->wl], c->protos[fig].w[j->proto], c->vals[fig].w[0]);
    else
        b = find(c, fig, c->wls[fig].w[j->wl], f->norm, f->sweep ? c->vals[fig].w[j->val] : NULL);
    if (!b || !good(c, b))
        return 0;
    return mean_cycles(c, b) / mean_cycles(c, r);
}
/* ---- markdown ---- */

/* S as table-cell text: '|' escaped, newlines and backquotes flattened. */
static void md_text(strbuf_t *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            sb_puts(b, "\\|");
        else
            sb_putc(b, *s == '\n' ? ' ' : *s);
    }
}

/* One sentence about a failed run (R: the job's first seed), for the list under a table. */
static void md_failure(strbuf_t *b, const ctx_t *c, int fig, const job_t *j, const res_t *r)
{
    const figure_t *f = &FIGS[fig];
    int s = first_bad(c, r);
    int nbad = 0;
    for (int k = 0; k < c->nseeds; k++)
        nbad += !good1(&r[k]);
    sb_printf(b, "- 🔴 %s on %s", c->protos[fig].w[j->proto], c->wls[fig].w[j->wl]);
    if (f->sweep)
        sb_printf(b, " at %s=%s", f->sweep, c->vals[fig].w[j->val]);
    sb_printf(b, ", %d of %d seeds (first: seed %llu): %s", nbad, c->nseeds,
              (unsigned long long)(c->o->seed + (uint64_t)s), status_word(&r[s]));
    if (r[s].err[0]) {
        sb_puts(b, ": ");
        md_text(b, r[s].err);
    }
    sb_puts(b, "\n");
}

static void fmt_num(strbuf_t *b, double v)
{
    if (v > 0)
        sb_printf(b, "%.2f", v);
    else
        sb_puts(b, "-");
}

/* "mean ±h" of one field over the seeds of R (a job's first seed); the half-width of the
 * 95% interval, omitted with one seed. DIGITS: decimals. */
static void md_ci(strbuf_t *b, const ctx_t *c, const res_t *r, size_t off, bool dbl, int digits)
{
    double x[64], m, lo, hi;
    int n = c->nseeds < 64 ? c->nseeds : 64;
    for (int s = 0; s < n; s++) {
        const char *base = (const char *)&r[s] + off;
        x[s] = dbl ? *(const double *)(const void *)base
                   : (double)*(const uint64_t *)(const void *)base;
    }
    report_ci95(x, n, &m, &lo, &hi);
    sb_printf(b, "%.*f", digits, m);
    if (n > 1)
        sb_printf(b, " ±%.*f", digits, hi - m);
}

#define CI_U(b, c, r, field) md_ci(b, c, r, offsetof(res_t, field), false, 0)
#define CI_D(b, c, r, field, d) md_ci(b, c, r, offsetof(res_t, field), true, d)

/* The CUs a job's threads occupy, when fewer than the sweep point asks for. */
static void md_cus_used(strbuf_t *b, const ctx_t *c, int fig, const job_t *j, const res_t *r)
{
    const figure_t *f = &FIGS[fig];
    if (f->sweep && !strcmp(f->sweep, "CUS") && r->cus_used &&
        r->cus_used < atoi(c->vals[fig].w[j->val]))
        sb_printf(b, " [%d CUs used]", r->cus_used);
}

/* The tables of a swept figure: one row per workload and protocol, one column per point
 * ("mean cycles ±95% CI (normalised)"), and the failures listed below. */
static void md_sweep(strbuf_t *b, const ctx_t *c, int fig)
{
    const figure_t *f = &FIGS[fig];
    const list_t *V = &c->vals[fig];
    sb_printf(
        b, "Cells: mean cycles over %d seeds ±95%% CI half-width (%s).\n\n| workload | protocol |",
        c->nseeds, f->norm_text);
    for (int v = 0; v < V->n; v++)
        sb_printf(b, " %s=%s |", f->sweep, V->w[v]);
    sb_puts(b, " all correct |\n|---|---|");
    for (int v = 0; v < V->n; v++)
        sb_puts(b, "---:|");
    sb_puts(b, "---|\n");
    strbuf_t fails;
    sb_init(&fails);
    for (int w = 0; w < c->wls[fig].n; w++)
        for (int p = 0; p < c->protos[fig].n; p++) {
            bool allgood = true;
            strbuf_t row;
            sb_init(&row);
            for (int v = 0; v < V->n; v++) {
                job_t j = {fig, w, p, v};
                const res_t *r = find(c, fig, c->wls[fig].w[w], c->protos[fig].w[p], V->w[v]);
                if (!r)
                    continue;
                if (good(c, r)) {
                    sb_puts(&row, " ");
                    CI_U(&row, c, r, cycles);
                    sb_puts(&row, " (");
                    fmt_num(&row, normed(c, fig, &j, r));
                    sb_puts(&row, ")");
                    md_cus_used(&row, c, fig, &j, r);
                    sb_puts(&row, " |");
                } else {
                    allgood = false;
                    sb_printf(&row, " **✗ %s** |", status_word(&r[first_bad(c, r)]));
                    md_failure(&fails, c, fig, &j, r);
                }
            }
            sb_printf(b, "| %s%s | %s |%s %s |\n", allgood ? "" : "🔴 ", c->wls[fig].w[w],
                      c->protos[fig].w[p], row.s ? row.s : "", allgood ? "yes" : "**no**");
            sb_free(&row);
        }
    if (fails.len)
        sb_printf(b, "\nFailed runs (shown, never dropped):\n\n%s", fails.s);
    sb_free(&fails);
}

/* One row of a one-point figure's table. */
static void md_single_row(strbuf_t *b, const ctx_t *c, int fig, const job_t *j, const res_t *r)
{
    sb_printf(b, "| %s%s | %s |", good(c, r) ? "" : "🔴 ", c->wls[fig].w[j->wl],
              c->protos[fig].w[j->proto]);
    if (!good(c, r)) {
        sb_printf(b, " - | - | - | - | - | - | - | - | - | - | - | - | **no: %s** |\n",
                  status_word(&r[first_bad(c, r)]));
        return;
    }
    double hit[64], row[64], m, rm, lo, hi;
    bool dram = false;
    for (int s = 0; s < c->nseeds && s < 64; s++) {
        hit[s] = r[s].loads ? (double)r[s].hits / (double)r[s].loads : 0.0;
        row[s] = r[s].dram_issued ? (double)r[s].dram_hits / (double)r[s].dram_issued : 0.0;
        dram |= r[s].dram_issued > 0;
    }
    report_ci95(hit, c->nseeds < 64 ? c->nseeds : 64, &m, &lo, &hi);
    report_ci95(row, c->nseeds < 64 ? c->nseeds : 64, &rm, &lo, &hi);
    sb_puts(b, " ");
    CI_U(b, c, r, cycles);
    sb_puts(b, " | ");
    fmt_num(b, normed(c, fig, j, r));
    sb_puts(b, " | ");
    CI_U(b, c, r, msgs);
    sb_puts(b, " | ");
    CI_U(b, c, r, bytes);
    sb_puts(b, " | ");
    CI_U(b, c, r, inv);
    sb_puts(b, " | ");
    CI_U(b, c, r, flushes);
    sb_puts(b, " | ");
    CI_U(b, c, r, stalls);
    sb_puts(b, " | ");
    CI_U(b, c, r, mstalls);
    sb_puts(b, " | ");
    CI_D(b, c, r, st_lat, 1);
    sb_puts(b, " | ");
    CI_U(b, c, r, st_count);
    sb_printf(b, " | %.3f | ", m);
    if (dram)
        sb_printf(b, "%.3f | yes |\n", rm);
    else
        sb_puts(b, "- | yes |\n");
}

/* The table of a one-point figure: a row per run with its metrics' means ±95% CI. */
static void md_single(strbuf_t *b, const ctx_t *c, int fig)
{
    const figure_t *f = &FIGS[fig];
    sb_printf(
        b,
        "Means over %d seeds ±95%% CI half-width. Speedup: %s. Thread stall cycles: core "
        "events waiting before a row took them (not the paper's SC stall cycles); message "
        "stall cycles: messages waiting at their receiver (a TC-Strong write until the lease "
        "expires); store latency: mean cycles from issue to completion; stores: how many; "
        "DRAM row-hit rate: row hits over the DRAM's row accesses, - without a DRAM model "
        "(docs/sim.md).\n\n"
        "| workload | protocol | cycles | speedup | messages | traffic bytes | "
        "invalidations | flushes | thread stall cycles | message stall cycles | store latency | "
        "stores | L1 hit rate | DRAM row-hit rate | correct |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
        c->nseeds, f->norm_text);
    strbuf_t fails;
    sb_init(&fails);
    for (int w = 0; w < c->wls[fig].n; w++)
        for (int p = 0; p < c->protos[fig].n; p++) {
            job_t j = {fig, w, p, 0};
            const res_t *r = find(c, fig, c->wls[fig].w[w], c->protos[fig].w[p], NULL);
            if (!r)
                continue;
            md_single_row(b, c, fig, &j, r);
            if (!good(c, r))
                md_failure(&fails, c, fig, &j, r);
        }
    if (fails.len)
        sb_printf(b, "\nFailed runs (shown, never dropped):\n\n%s", fails.s);
    sb_free(&fails);
}

/* The effective settings of FIG's runs (seed 1 of each, at the first sweep point and, for
 * the swept parameter, every point): what each protocol and workload ran with. */
static void md_params(strbuf_t *b, const ctx_t *c, int fig)
{
    sb_puts(b, "\nEffective parameters (what each run used at the last sweep point, read back "
               "from the loaded protocol and workload; a sweep's own parameter varies along "
               "it):\n\n"
               "| workload | protocol | protocol parameters | workload parameters |\n"
               "|---|---|---|---|\n");
    for (int w = 0; w < c->wls[fig].n; w++)
        for (int p = 0; p < c->protos[fig].n; p++) {
            const res_t *r = find(c, fig, c->wls[fig].w[w], c->protos[fig].w[p],
                                  FIGS[fig].sweep ? c->vals[fig].w[c->vals[fig].n - 1] : NULL);
            if (!r)
                continue;
            sb_printf(b, "| %s | %s | %s", c->wls[fig].w[w], c->protos[fig].w[p],
                      r->pparams[0] ? r->pparams : "-");
            if (r->pred_mean > 0) /* seed 004 Fig. 11's "average lifetime predictions" */
                sb_printf(b, " (mean prediction %.0f)", r->pred_mean);
            sb_printf(b, " | %s |\n", r->wparams[0] ? r->wparams : "-");
        }
}
/* ---- claims ---- */

static int field_value(const res_t *x, const char *field, double *v)
{
    static const struct {
        const char *name;
        size_t off;
        bool dbl;
    } F[] = {
        {"cycles", offsetof(res_t, cycles), false},
        {"events", offsetof(res_t, events), false},
        {"messages_total", offsetof(res_t, msgs), false},
        {"traffic_bytes_total", offsetof(res_t, bytes), false},
        {"invalidations", offsetof(res_t, inv), false},
        {"flushes", offsetof(res_t, flushes), false},
        {"evictions", offsetof(res_t, evictions), false},
        {"stall_cycles", offsetof(res_t, stalls), false},
        {"stall_msg_cycles", offsetof(res_t, mstalls), false},
        {"loads", offsetof(res_t, loads), false},
        {"l1_hits", offsetof(res_t, hits), false},
        {"store_count", offsetof(res_t, st_count), false},
        {"store_latency_mean", offsetof(res_t, st_lat), true},
        {"load_latency_mean", offsetof(res_t, ld_lat), true},
        {"prediction_mean", offsetof(res_t, pred_mean), true},
        {"sync_accesses", offsetof(res_t, sync_acc), false},
        {"sync_l1", offsetof(res_t, sync_l1), false},
        {"sync_l2", offsetof(res_t, sync_l2), false},
        {"sync_remote_l1", offsetof(res_t, sync_rem), false},
        {"sync_evicts", offsetof(res_t, sync_ev), false},
    };
    if (!strcmp(field, "l1_hit_rate")) {
        *v = x->loads ? (double)x->hits / (double)x->loads : 0.0;
        return 0;
    }
    if (!strcmp(field, "dram_row_hit_rate")) {
        *v = x->dram_issued ? (double)x->dram_hits / (double)x->dram_issued : 0.0;
        return 0;
    }
    if (!strcmp(field, "cus_used")) {
        *v = x->cus_used;
        return 0;
    }
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        if (!strcmp(F[i].name, field)) {
            const char *base = (const char *)x + F[i].off;
            *v = F[i].dbl ? *(const double *)(const void *)base
                          : (double)*(const uint64_t *)(const void *)base;
            return 0;
        }
    return -1;
}

/* claim_lookup_fn over the sweep's results. */
static int lookup(void *vc, const claim_run_t *cr, int seed, const char *field, double *v,
                  char *why, size_t n)
{
    const ctx_t *c = vc;
    int fig = fig_index(cr->figure);
    const char *val = NULL, *pt = cr->point;
    if (fig < 0 || !c->on[fig]) {
        if (fig >= 0 && c->skipped[fig][0])
            snprintf(why, n, "%s", c->skipped[fig]);
        else
            snprintf(why, n, "figure %s was not run (--only left it out)", cr->figure);
        return -1;
    }
    const list_t *V = &c->vals[fig];
    if (FIGS[fig].sweep && pt)
        val = !strcmp(pt, "first") ? V->w[0] : !strcmp(pt, "last") ? V->w[V->n - 1] : pt;
    char at[96] = "";
    if (val)
        snprintf(at, sizeof at, " at %s=%s", FIGS[fig].sweep, val);
    const res_t *r = find(c, fig, cr->workload, cr->protocol, val);
    if (!r) {
        snprintf(why, n, "no %s run of %s on %s%s in this sweep (%s:%d)", cr->figure, cr->protocol,
                 cr->workload, at, cr->file, cr->line);
        return -1;
    }
    const res_t *x = &r[seed];
    if (!good1(x)) {
        snprintf(why, n, "the %s run of %s on %s%s, seed %llu: %s%s%.300s", cr->figure,
                 cr->protocol, cr->workload, at, (unsigned long long)(c->o->seed + (uint64_t)seed),
                 status_word(x), x->err[0] ? ": " : "", x->err);
        return -1;
    }
    return field_value(x, field, v);
}

/* Whether NAME is an entry of LIST (space-separated) or LIST is "*". */
static bool in_list(const char *list, const char *name)
{
    if (!strcmp(list, "*"))
        return true;
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        size_t k = strcspn(s, " ");
        if (k == n && !memcmp(s, name, n))
            return true;
        s += k + strspn(s + k, " ");
    }
    return false;
}

/* Every claim's runs name a figure, and a workload and protocol entry of it. */
static int check_runs(const claims_t *cl, diag_t *err)
{
    for (int i = 0; i < claims_count(cl); i++) {
        const claim_run_t *R;
        int n = claims_runs(cl, i, &R);
        for (int k = 0; k < n; k++) {
            int f = fig_index(R[k].figure);
            const char *bad =
                f < 0                                        ? "no figure %s"
                : !in_list(FIGS[f].workloads, R[k].workload) ? "figure %.0s%s has no such workload"
                : !in_list(FIGS[f].protocols, R[k].protocol) ? "figure %.0s%s has no such protocol"
                : (FIGS[f].sweep != NULL) != (R[k].point != NULL)
                    ? "figure %s: a point (first, last or a sweep value) is needed "
                      "exactly when the figure sweeps"
                    : NULL;
            if (bad) {
                char msg[300];
                snprintf(msg, sizeof msg, bad, R[k].figure, R[k].figure);
                diag_set(err, R[k].file, R[k].line, R[k].col, "%s", msg);
                return -1;
            }
        }
    }
    return 0;
}

/* Read every .claims file in DIR, in name order. */
static int load_claims(const char *dir, claims_t **out, diag_t *err)
{
    char **names = NULL;
    int n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        diag_set(err, dir, 0, 0, "cannot read the claims directory: %s", strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 7 && !strcmp(e->d_name + l - 7, ".claims") && e->d_name[0] != '.') {
            names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
            names[n++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    claims_t *cl = claims_new();
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[4096], *src = NULL;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (!rc && util_read_file(path, &src, &len)) {
            diag_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
            rc = -1;
        }
        if (!rc)
            rc = claims_parse(cl, path, src, len, err);
        free(src);
        free(names[i]);
    }
    free(names);
    if (!rc && !n) {
        diag_set(err, dir, 0, 0, "no .claims files in the claims directory");
        rc = -1;
    }
    if (!rc)
        rc = check_runs(cl, err);
    if (rc)
        claims_free(cl);
    else
        *out = cl;
    return rc;
}

static void md_cell(strbuf_t *b, const char *s)
{
    sb_putc(b, ' ');
    md_text(b, s ? s : "");
    sb_puts(b, " |");
}

/* The claims table and the table of claims not attempted. */
static void md_claims(strbuf_t *b, ctx_t *c, const claims_t *cl)
{
    sb_printf(b,
              "Every row is a claim from the claims files (reports/claims/*.claims): its "
              "runs, metric and rules are written there, and this table is their evaluation "
              "over %d seeds (%llu..%llu). Values are means with their 95%% confidence "
              "interval in brackets; a rule's comparison is decided only when the interval "
              "of the per-seed difference clears its threshold, else the label is \"within "
              "noise\". \"not measured\": a run the claim needs is missing, failed or wrong at "
              "some seed (the note names it).\n\n"
              "| claim | seed, section | the paper | cohcheck | label | rule and reason |\n"
              "|---|---|---|---|---|---|\n",
              c->nseeds, (unsigned long long)c->o->seed,
              (unsigned long long)(c->o->seed + (uint64_t)c->nseeds - 1));
    strbuf_t skipped;
    sb_init(&skipped);
    for (int i = 0; i < claims_count(cl); i++) {
        claim_result_t r;
        claims_eval(cl, i, c->nseeds, lookup, c, &r);
        if (r.label == CLAIM_SKIPPED) {
            sb_puts(&skipped, "|");
            md_cell(&skipped, r.title);
            md_cell(&skipped, r.source);
            md_cell(&skipped, r.paper);
            md_cell(&skipped, r.note);
            sb_puts(&skipped, "\n");
            claim_result_free(&r);
            continue;
        }
        strbuf_t t;
        sb_init(&t);
        sb_printf(&t, "%s: \"%s\"", r.paper, r.quote);
        sb_puts(b, "|");
        md_cell(b, r.title);
        md_cell(b, r.source);
        md_cell(b, t.s);
        sb_free(&t);
        sb_init(&t);
        sb_puts(&t, r.shown);
        if (r.proxy)
            sb_printf(&t, " (proxy: %s)", r.proxy);
        md_cell(b, t.s);
        sb_free(&t);
        md_cell(b, claim_label_word(r.label));
        sb_init(&t);
        if (r.rule[0])
            sb_printf(&t, "`%s`%s", r.rule, r.note[0] ? ": " : "");
        sb_puts(&t, r.note);
        md_cell(b, t.s);
        sb_free(&t);
        sb_puts(b, "\n");
        claim_result_free(&r);
    }
    sb_puts(b, "\n## Claims not attempted\n\nThese need detail a microbenchmark simulator lacks "
               "(the `skip` claims of the claims files):\n\n"
               "| claim | seed, section | the paper | why not |\n|---|---|---|---|\n");
    sb_puts(b, skipped.s ? skipped.s : "");
    sb_free(&skipped);
}
/* ---- gnuplot ---- */

static const char *const COLORS[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/* The data file of FIG: for each workload (a gnuplot index block), one line per sweep
 * point: the point, then per protocol the plotted figure ('?' when not a correct run).
 * Lines of a CU sweep plot cycles (seed 002's figures); others plot the speedup. */
static void gp_data(strbuf_t *b, const ctx_t *c, int fig)
{
    const figure_t *f = &FIGS[fig];
    bool cycles = f->sweep && !strcmp(f->sweep, "CUS") && !strcmp(f->norm, "self");
    if (!f->sweep) { /* bars over workloads: one block */
        sb_puts(b, "# workload");
        for (int p = 0; p < c->protos[fig].n; p++)
            sb_printf(b, " %s", c->protos[fig].w[p]);
        sb_puts(b, "\n");
        for (int w = 0; w < c->wls[fig].n; w++) {
            sb_printf(b, "%s", c->wls[fig].w[w]);
            for (int p = 0; p < c->protos[fig].n; p++) {
                job_t j = {fig, w, p, 0};
                const res_t *r = find(c, fig, c->wls[fig].w[w], c->protos[fig].w[p], NULL);
                double v = r ? normed(c, fig, &j, r) : 0;
                if (v > 0)
                    sb_printf(b, " %.4f", v);
                else
                    sb_puts(b, " ?");
            }
            sb_puts(b, "\n");
        }
        return;
    }
    for (int w = 0; w < c->wls[fig].n; w++) {
        sb_printf(b, "%s# %s: %s", w ? "\n\n" : "", c->wls[fig].w[w], f->sweep);
        for (int p = 0; p < c->protos[fig].n; p++)
            sb_printf(b, " %s", c->protos[fig].w[p]);
        sb_puts(b, "\n");
        for (int v = 0; v < c->vals[fig].n; v++) {
            sb_printf(b, "%s", c->vals[fig].w[v]);
            for (int p = 0; p < c->protos[fig].n; p++) {
                job_t j = {fig, w, p, v};
                const res_t *r =
                    find(c, fig, c->wls[fig].w[w], c->protos[fig].w[p], c->vals[fig].w[v]);
                double x = !r || !good(c, r) ? 0
                           : cycles          ? mean_cycles(c, r)
                                             : normed(c, fig, &j, r);
                if (x > 0)
                    sb_printf(b, cycles ? " %.0f" : " %.4f", x);
                else
                    sb_puts(b, " ?");
            }
            sb_puts(b, "\n");
        }
    }
}

/* Whether FIG has a plottable point (a correct run with a normalised figure when the
 * plot shows one) for workload W (-1: any). */
static bool has_point(const ctx_t *c, int fig, int w)
{
    const figure_t *f = &FIGS[fig];
    bool cycles = f->sweep && !strcmp(f->sweep, "CUS") && !strcmp(f->norm, "self");
    int nv = f->sweep ? c->vals[fig].n : 1;
    for (int x = 0; x < c->wls[fig].n; x++)
        for (int p = 0; p < c->protos[fig].n; p++)
            for (int v = 0; v < nv; v++) {
                if (w >= 0 && x != w)
                    continue;
                job_t j = {fig, x, p, v};
                const res_t *r = find(c, fig, c->wls[fig].w[x], c->protos[fig].w[p],
                                      f->sweep ? c->vals[fig].w[v] : NULL);
                if (r && good(c, r) && (cycles || normed(c, fig, &j, r) > 0))
                    return true;
            }
    return false;
}

/* A panel saying there is nothing to draw (gnuplot refuses an empty plot). */
static void gp_empty(strbuf_t *b)
{
    sb_puts(b, "set label 1 \"no correct run to plot\" at graph 0.5, 0.5 center\n"
               "unset logscale x\nset xrange [0:1]\nset yrange [0:1]\nplot NaN notitle\n"
               "unset label 1\nset autoscale x\nset yrange [0:*]\n");
}

/* The plot commands of FIG (after the terminal is set). */
static void gp_body(strbuf_t *b, const ctx_t *c, int fig)
{
    const figure_t *f = &FIGS[fig];
    int np = c->protos[fig].n, nw = c->wls[fig].n;
    bool cycles = f->sweep && !strcmp(f->sweep, "CUS") && !strcmp(f->norm, "self");
    bool numx = f->sweep && !strcmp(f->sweep, "CUS");
    sb_puts(b, "set datafile missing '?'\nset key outside right top\nset grid ytics\n"
               "set border 3\nset tics nomirror\n");
    if (!f->sweep) {
        sb_printf(b,
                  "set title \"%s\" noenhanced\nset style data histograms\n"
                  "set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
                  "set boxwidth 0.9\nset yrange [0:*]\nset ylabel \"speedup (%s)\"\n"
                  "set xtics noenhanced\n",
                  f->title, f->norm);
        if (!has_point(c, fig, -1)) {
            gp_empty(b);
            return;
        }
        sb_puts(b, "plot ");
        for (int p = 0; p < np; p++)
            sb_printf(b, "%s'%s.dat' using %d:xtic(1) title \"%s\" noenhanced lc rgb '%s'",
                      p ? ", " : "", f->id, p + 2, c->protos[fig].w[p], COLORS[p % 8]);
        sb_puts(b, "\n");
        return;
    }
    int cols = nw < 3 ? nw : 3, rows = (nw + cols - 1) / cols;
    sb_printf(b, "set multiplot layout %d,%d title \"%s\" noenhanced\n", rows, cols, f->title);
    if (f->plot == PLOT_BARS)
        sb_puts(b, "set style data histograms\nset style histogram clustered gap 1\n"
                   "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset yrange [0:*]\n");
    sb_printf(b, "set xlabel \"%s\"\nset ylabel \"%s\"\n", numx ? "CUs" : f->sweep,
              cycles ? "cycles" : "speedup");
    if (numx) {
        sb_puts(b, "set xtics (");
        for (int v = 0; v < c->vals[fig].n; v++)
            sb_printf(b, "%s\"%s\" %s", v ? ", " : "", c->vals[fig].w[v], c->vals[fig].w[v]);
        sb_puts(b, ")\nset logscale x 2\nset yrange [0:*]\n");
    } else if (f->plot == PLOT_LINES) {
        sb_puts(b, "set yrange [0:*]\nset offsets 0.3, 0.3, 0, 0\n");
    }
    for (int w = 0; w < nw; w++) {
        sb_printf(b, "set title \"%s\" noenhanced\n", c->wls[fig].w[w]);
        if (!has_point(c, fig, w)) {
            gp_empty(b);
            if (numx)
                sb_puts(b, "set logscale x 2\n");
            continue;
        }
        sb_puts(b, "plot ");
        for (int p = 0; p < np; p++) {
            const char *x = numx ? "1" : f->plot == PLOT_LINES ? "0" : NULL;
            if (x)
                sb_printf(b,
                          "%s'%s.dat' index %d using %s:%d%s with linespoints lw 2 pt %d "
                          "lc rgb '%s' title \"%s\" noenhanced",
                          p ? ", " : "", f->id, w, x, p + 2, numx ? "" : ":xtic(1)", p + 4,
                          COLORS[p % 8], c->protos[fig].w[p]);
            else
                sb_printf(b,
                          "%s'%s.dat' index %d using %d:xtic(1) lc rgb '%s' title \"%s\" "
                          "noenhanced",
                          p ? ", " : "", f->id, w, p + 2, COLORS[p % 8], c->protos[fig].w[p]);
        }
        sb_puts(b, "\n");
    }
    sb_puts(b, "unset multiplot\n");
}

static int write_text(const char *path, const char *text, diag_t *err)
{
    size_t n = strlen(path) + 32;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
        diag_set(err, path, 0, 0, "cannot write: %s", strerror(errno));
        unlink(tmp);
        rc = -1;
    }
    free(tmp);
    return rc;
}

/* Run `gnuplot SCRIPT` in DIR. 0 done, 127 gnuplot could not be started, other: failed. */
static int run_gnuplot(const char *dir, const char *script)
{
    const char *prog = getenv("COHCHECK_GNUPLOT");
    if (!prog || !*prog)
        prog = "gnuplot";
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0) {
            dup2(nul, 1);
            dup2(nul, 2);
        }
        if (chdir(dir))
            _exit(126);
        execlp(prog, prog, script, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 126;
}

/* ---- index.html ---- */

#define IDX_BEGIN "<!-- timed -->"
#define IDX_END "<!-- /timed -->"

void report_timed_index_section(strbuf_t *html, const char *outdir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/timed.md", outdir);
    if (access(path, R_OK))
        return;
    sb_puts(html, IDX_BEGIN
            "\n<h2 id=\"timed\">Timed mode</h2>\n<p>The seed papers' performance "
            "claims re-run in timed mode, with the claims table and per-figure tables: "
            "<a href=\"timed.md\">timed.md</a> (<code>cohcheck report timed</code>).</p>\n"
            "<p class=\"thumbs\">");
    for (int i = 0; i < NFIGS; i++) {
        if (FIGS[i].plot == PLOT_NONE)
            continue;
        snprintf(path, sizeof path, "%s/timed/%s.svg", outdir, FIGS[i].id);
        if (access(path, R_OK))
            continue;
        sb_printf(html, "<a href=\"timed/%s.svg\">%s</a>", FIGS[i].id, FIGS[i].id);
    }
    sb_puts(html, "</p>\n" IDX_END "\n");
}

/* Put the timed section into an existing DIR/index.html: replace the marked block, or
 * insert it before the "Other reports" heading (or </body>). No page: nothing to do. */
static int update_index(const char *outdir, diag_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", outdir);
    char *old;
    size_t len;
    if (util_read_file(path, &old, &len))
        return 0;
    strbuf_t sec, out;
    sb_init(&sec);
    sb_init(&out);
    report_timed_index_section(&sec, outdir);
    char *a = strstr(old, IDX_BEGIN), *z = a ? strstr(a, IDX_END) : NULL;
    if (a && z) {
        z += strlen(IDX_END);
        if (*z == '\n')
            z++;
        sb_putn(&out, old, (size_t)(a - old));
        sb_puts(&out, sec.s ? sec.s : "");
        sb_puts(&out, z);
    } else {
        char *at = strstr(old, "<h2 id=\"other\">");
        if (!at)
            at = strstr(old, "</body>");
        if (!at)
            at = old + len;
        sb_putn(&out, old, (size_t)(at - old));
        sb_puts(&out, sec.s ? sec.s : "");
        sb_puts(&out, at);
    }
    int rc = strcmp(out.s, old) ? write_text(path, out.s, err) : 0;
    free(old);
    sb_free(&sec);
    sb_free(&out);
    return rc;
}

/* ---- the report ---- */

/* The figures' lists and the jobs of the figures that run. */
static void setup(ctx_t *c)
{
    const report_timed_opts_t *o = c->o;
    for (int f = 0; f < NFIGS; f++) {
        const figure_t *F = &FIGS[f];
        c->on[f] = !o->nonly;
        for (int k = 0; k < o->nonly; k++)
            c->on[f] |= !strcmp(o->only[k], F->id);
        split(F->workloads, " ", &c->wls[f]);
        if (!strcmp(F->protocols, "*"))
            for (int i = 0; i < o->nprotocols && c->protos[f].n < MAXL; i++)
                c->protos[f].w[c->protos[f].n++] = xstrdup(o->protocols[i]);
        else
            split(F->protocols, " ", &c->protos[f]);
        if (F->sweep && !strcmp(F->sweep, "CUS") && !F->values)
            split(o->cus ? o->cus : o->quick ? "1,2,4" : "1,2,4,8,15", ",", &c->vals[f]);
        else if (F->sweep)
            split(o->quick ? F->quick_values : F->values, ",", &c->vals[f]);
        c->fixed[f] = o->quick ? F->quick_fixed : F->fixed;
        for (int w = 0; F->optional && c->on[f] && w < c->wls[f].n; w++) {
            char path[4096];
            if (o->find(o->find_ctx, c->wls[f].w[w], "litmus/workloads", ".litmus",
                        "COHCHECK_WORKLOADS", path, sizeof path)) {
                snprintf(c->skipped[f], sizeof c->skipped[f],
                         "no workload '%s' in litmus/workloads: figure %s was not run",
                         c->wls[f].w[w], F->id);
                c->on[f] = false;
            }
        }
        if (!c->on[f])
            continue;
        int nv = F->sweep ? c->vals[f].n : 1;
        for (int w = 0; w < c->wls[f].n; w++)
            for (int p = 0; p < c->protos[f].n; p++)
                for (int x = 0; x < nv; x++) {
                    c->jobs = xrealloc(c->jobs, (size_t)(c->njobs + 1) * sizeof *c->jobs);
                    c->jobs[c->njobs++] = (job_t){f, w, p, x};
                }
    }
}

/* Every job at every seed, on O->jobs threads. Returns the wall-clock seconds. */
static double run_all(ctx_t *c)
{
    int total = c->njobs * c->nseeds;
    c->res = xcalloc(total ? (size_t)total : 1, sizeof *c->res);
    pthread_mutex_init(&c->lock, NULL);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int nth = c->o->jobs < total ? c->o->jobs : total;
    pthread_t th[64];
    int started = 0;
    for (int i = 0; i < nth && i < 64; i++)
        if (!pthread_create(&th[i], NULL, worker, c))
            started++;
    if (!started)
        worker(c);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_mutex_destroy(&c->lock);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

/* FIG's .dat and .gp in SUB, then gnuplot. 0 drawn; 1 gnuplot failed; 127 not found; -1
 * a file could not be written (ERR). */
static int plot_fig(const ctx_t *c, int f, const char *sub, diag_t *err)
{
    strbuf_t dat, gp;
    sb_init(&dat);
    sb_init(&gp);
    gp_data(&dat, c, f);
    int rows = FIGS[f].sweep ? (c->wls[f].n + 2) / 3 : 1;
    sb_printf(&gp,
              "# %s.gp - written by `cohcheck report timed`; run `gnuplot %s.gp` here.\n"
              "set terminal svg size 1100,%d dynamic font 'sans,11'\nset output '%s.svg'\n",
              FIGS[f].id, FIGS[f].id, 120 + 330 * rows, FIGS[f].id);
    gp_body(&gp, c, f);
    sb_printf(&gp,
              "set output\nset terminal pngcairo size 1100,%d font 'sans,10'\n"
              "set output '%s.png'\n",
              120 + 330 * rows, FIGS[f].id);
    gp_body(&gp, c, f);
    sb_puts(&gp, "set output\n");
    char dp[4200], gpp[4200], name[128];
    snprintf(dp, sizeof dp, "%s/%s.dat", sub, FIGS[f].id);
    snprintf(gpp, sizeof gpp, "%s/%s.gp", sub, FIGS[f].id);
    snprintf(name, sizeof name, "%s.gp", FIGS[f].id);
    int rc;
    if (write_text(dp, dat.s, err) || write_text(gpp, gp.s, err))
        rc = -1;
    else
        rc = run_gnuplot(sub, name);
    sb_free(&dat);
    sb_free(&gp);
    return rc == 127 || rc <= 0 ? rc : 1;
}

static void md_machines(strbuf_t *md, const ctx_t *c)
{
    sb_puts(md,
            "## Machines\n\n| machine | description | CUs | L1 | L2 | network | memory events |\n"
            "|---|---|---:|---|---|---|---|\n");
    for (int f = 0; f < NFIGS; f++) {
        bool seen = !c->on[f];
        for (int g = 0; g < f && !seen; g++)
            seen = c->on[g] && !strcmp(FIGS[g].machine, FIGS[f].machine);
        if (seen)
            continue;
        char path[4096];
        sim_machine_t m;
        diag_t d;
        if (c->o->find(c->o->find_ctx, FIGS[f].machine, "protocols/machines", ".machine",
                       "COHCHECK_MACHINES", path, sizeof path) ||
            sim_machine_load(path, &m, &d)) {
            sb_printf(md, "| 🔴 %s | not found or not readable | | | | | |\n", FIGS[f].machine);
            continue;
        }
        sb_printf(md,
                  "| %s | %s | %d | %d cycles, %dx%d, %d-byte lines, %d MSHRs | %d cycles, %d "
                  "banks, occupancy %d, atomic %d | %d cycles one way, %d-byte flits, %d "
                  "flit/cycle | ",
                  m.name, m.desc, m.cus, m.l1_latency, m.l1_sets, m.l1_ways, m.line_bytes,
                  m.l1_mshrs, m.l2_latency, m.l2_banks, m.l2_occupancy, m.l2_atomic, m.net_latency,
                  m.flit_bytes, m.bandwidth);
        for (int e = 0; e < m.nevlat; e++)
            sb_printf(md, "%s%s %d", e ? ", " : "", m.evlat_name[e], m.evlat[e]);
        sb_puts(md, " |\n");
    }
    sb_puts(md, "\nThe machine files (protocols/machines/) cite their sources and record the "
                "choices made where a paper gives no number.\n\n");
}

static void md_sweeps(strbuf_t *md, const ctx_t *c)
{
    sb_puts(md, "## Sweeps and parameters\n\n| figure | machine | workloads | protocols | sweep | "
                "settings of every run |\n|---|---|---|---|---|---|\n");
    for (int f = 0; f < NFIGS; f++) {
        if (!c->on[f])
            continue;
        sb_printf(md, "| [%s](#%s) | %s | %s | %s | ", FIGS[f].id, FIGS[f].id, FIGS[f].machine,
                  FIGS[f].workloads,
                  strcmp(FIGS[f].protocols, "*") ? FIGS[f].protocols : "every protocol");
        if (FIGS[f].sweep) {
            sb_printf(md, "%s =", FIGS[f].sweep);
            for (int x = 0; x < c->vals[f].n; x++)
                sb_printf(md, "%s%s", x ? ", " : " ", c->vals[f].w[x]);
        } else {
            sb_puts(md, "-");
        }
        sb_printf(md, " | %s |\n", c->fixed[f] ? c->fixed[f] : "-");
    }
    sb_printf(md,
              "\nA setting names a protocol parameter when the protocol declares it (the TC "
              "lifetime, in cycles), otherwise a workload parameter; a workload that does not "
              "declare a setting ignores it, except the swept one, which must be declared. A "
              "workload parameter no setting names takes the workload's timed default (`param "
              "N = E timed T`). `CUS` also sets the machine's CU count; `PAT:NAME=V` applies "
              "only to the protocols the shell pattern PAT matches (`tcs*` reaches tcs and "
              "tcs-inorder), and a protocol written `P@S` runs P with the further settings S; "
              "`predict=1` runs the protocol's predictors (`cohcheck sim --predict on`). "
              "Each figure lists the parameters its runs actually used.\n\n"
              "Every run is bounded by %llu events (`--max-events`): a longer one is a red "
              "\"limit\" row. Seeds: %d (%llu..%llu), every run at each.\n\n",
              (unsigned long long)c->o->max_events, c->nseeds, (unsigned long long)c->o->seed,
              (unsigned long long)(c->o->seed + (uint64_t)c->nseeds - 1));
    for (int f = 0; f < NFIGS; f++)
        if (c->skipped[f][0])
            sb_printf(md, "Skipped: %s.\n\n", c->skipped[f]);
}

static void md_figures(strbuf_t *md, const ctx_t *c, const char *plot_note, const bool *plot_failed)
{
    for (int f = 0; f < NFIGS; f++) {
        if (!c->on[f])
            continue;
        sb_printf(md, "\n<a id=\"%s\"></a>\n## %s\n\nSource: %s. Machine: %s.", FIGS[f].id,
                  FIGS[f].title, FIGS[f].source, FIGS[f].machine);
        if (FIGS[f].plot != PLOT_NONE && !plot_note && plot_failed[f])
            sb_printf(md, "\n\n**Plot:** gnuplot failed on [timed/%s.gp](timed/%s.gp).", FIGS[f].id,
                      FIGS[f].id);
        else if (FIGS[f].plot != PLOT_NONE && !plot_note)
            sb_printf(md,
                      "\n\n![%s](timed/%s.svg)\n\n[PNG](timed/%s.png) · "
                      "[data](timed/%s.dat) · [gnuplot script](timed/%s.gp)",
                      FIGS[f].id, FIGS[f].id, FIGS[f].id, FIGS[f].id, FIGS[f].id);
        sb_puts(md, "\n\n");
        if (FIGS[f].sweep)
            md_sweep(md, c, f);
        else
            md_single(md, c, f);
        md_params(md, c, f);
    }
}

/* Plots, then DIR/timed.md. */
static int write_all(ctx_t *c, const claims_t *cl, double wall, report_timed_stats_t *st,
                     diag_t *err)
{
    const report_timed_opts_t *o = c->o;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/timed", o->outdir);
    if ((mkdir(o->outdir, 0777) && errno != EEXIST) || (mkdir(sub, 0777) && errno != EEXIST)) {
        diag_set(err, sub, 0, 0, "cannot create: %s", strerror(errno));
        return -1;
    }
    uint64_t events = 0;
    double simwall = 0;
    for (int i = 0; i < c->njobs; i++)
        good(c, &c->res[i * c->nseeds]) ? st->ngood++ : st->nbad++;
    for (int i = 0; i < c->njobs * c->nseeds; i++) {
        events += c->res[i].events;
        simwall += c->res[i].wall;
    }
    const char *plot_note = NULL;
    bool plot_failed[NFIGS] = {false};
    for (int f = 0; f < NFIGS && !plot_note; f++) {
        if (!c->on[f] || FIGS[f].plot == PLOT_NONE)
            continue;
        int g = plot_fig(c, f, sub, err);
        if (g < 0)
            return -1;
        if (g == 127)
            plot_note = "gnuplot was not found (set COHCHECK_GNUPLOT or install gnuplot): "
                        "plots skipped; the data and scripts are in timed/";
        plot_failed[f] = g == 1;
    }
    st->plots_skipped = plot_note != NULL;
    strbuf_t md;
    sb_init(&md);
    sb_printf(&md,
              "# Timed mode: the seed papers' performance claims\n\n"
              "Generated by `%s` with %d seeds from seed %llu: %d runs x %d seeds = %d "
              "simulations; %d runs correct at every seed, %d failed or wrong at some seed "
              "(shown as 🔴 rows, never dropped). Every run is an in-process `sim_run` of the "
              "protocol's own tables (docs/sim.md); the same seeds give the same tables, byte "
              "for byte.\n\n",
              o->cmdline ? o->cmdline : "cohcheck report timed", c->nseeds,
              (unsigned long long)o->seed, c->njobs, c->nseeds, c->njobs * c->nseeds, st->ngood,
              st->nbad);
    if (plot_note)
        sb_printf(&md, "**Plots:** %s.\n\n", plot_note);
    md_machines(&md, c);
    md_sweeps(&md, c);
    sb_puts(&md, "## Claims\n\n");
    md_claims(&md, c, cl);
    md_figures(&md, c, plot_note, plot_failed);
    sb_printf(&md,
              "\n---\n\nWall clock (varies from run to run; not part of the tables): %.1f s for "
              "%d simulations with -j %d, %llu events, %.0f events/s per simulating thread.\n",
              wall, c->njobs * c->nseeds, o->jobs, (unsigned long long)events,
              simwall > 0 ? (double)events / simwall : 0.0);
    snprintf(sub, sizeof sub, "%s/timed.md", o->outdir);
    int rc = write_text(sub, md.s, err) || update_index(o->outdir, err) ? -1 : 0;
    sb_free(&md);
    return rc;
}

int report_timed(const report_timed_opts_t *o, report_timed_stats_t *st, diag_t *err)
{
    memset(st, 0, sizeof *st);
    for (int k = 0; k < o->nonly; k++)
        if (fig_index(o->only[k]) < 0) {
            diag_set(err, "", 0, 0, "no figure '%s'", o->only[k]);
            return -1;
        }
    claims_t *cl = NULL;
    if (load_claims(o->claimsdir, &cl, err))
        return -1;
    ctx_t *c = xcalloc(1, sizeof *c);
    c->o = o;
    c->nseeds = o->seeds < 1 ? 1 : o->seeds > 64 ? 64 : o->seeds;
    setup(c);
    st->wall = run_all(c);
    st->nruns = c->njobs * c->nseeds;
    int rc = write_all(c, cl, st->wall, st, err);
    for (int f = 0; f < NFIGS; f++) {
        list_free(&c->wls[f]);
        list_free(&c->protos[f]);
        list_free(&c->vals[f]);
    }
    free(c->jobs);
    free(c->res);
    free(c);
    claims_free(cl);
    return rc;
}
