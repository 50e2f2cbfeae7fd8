/* cmd_sim.c - `cohcheck sim --protocol P --workload W [options]` (docs/architecture.md
 * section 8): timed mode (checker/sim/sim.h, docs/sim.md). Prints one line, one
 * JSON object (--json) or a CSV header and row (--csv). Exit: 0 done and correct,
 * 1 a wrong final state, a deadlock or a protocol error, 2 bad input, 3 a limit. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/util.h"
#include "../prog/prog.h"
#include "../proto/proto.h"
#include "../sim/sim.h"
#include "cli.h"

static void usage(FILE *f)
{
    fputs("usage: cohcheck sim --protocol P --workload W [OPTIONS]\n"
          "\n"
          "Timed mode: simulate the protocol's own tables, in cycles, running a workload on a\n"
          "machine description, and check the workload's final state (docs/sim.md).\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, CLI_CMD_SIM);
    fputs("\n"
          "exit: 0 done and correct, 1 wrong final state, deadlock or protocol error,\n"
          "      2 bad input, 3 a limit stopped the run\n",
          f);
}

static const char *status_name(const sim_result_t *r)
{
    switch (r->status) {
    case SIM_DONE: return r->correct ? "correct" : "wrong";
    case SIM_DEADLOCK: return "deadlock";
    case SIM_PROTOCOL: return "protocol-error";
    case SIM_LIMIT: return "incomplete";
    }
    return "?";
}

/* "params":{"protocol":{NAME:V,...},"workload":{NAME:V,...}}: the values the run used
 * (lets, derived from them, left out). */
static void json_params(strbuf_t *b, const proto_t *p, const prog_t *w)
{
    sb_puts(b, ",\"params\":{\"protocol\":{");
    for (int k = 0; k < p->nparams; k++) {
        sb_puts(b, k ? "," : "");
        sb_json_str(b, p->params[k].name);
        sb_printf(b, ":%d", p->params[k].value);
    }
    sb_puts(b, "},\"workload\":{");
    for (int k = 0, first = 1; k < w->nparams; k++) {
        if (w->params[k].derived)
            continue;
        sb_puts(b, first ? "" : ",");
        sb_json_str(b, w->params[k].name);
        sb_printf(b, ":%lld", (long long)w->params[k].value);
        first = 0;
    }
    sb_puts(b, "}}");
}

/* The DRAM model's statistics, or null when no event used it. */
static void json_dram(strbuf_t *b, const sim_dram_stats_t *d)
{
    if (!d->on) {
        sb_puts(b, "null");
        return;
    }
    uint64_t issued = d->row_hits + d->row_misses + d->row_conflicts;
    sb_printf(b,
              "{\"channels\":%d,\"requests\":%llu,\"row_hits\":%llu,\"row_misses\":%llu,"
              "\"row_conflicts\":%llu,\"row_hit_rate\":%.6f,\"bytes\":%llu,"
              "\"bandwidth\":%.6f,\"peak_bandwidth\":%.1f,\"queue_occupancy_mean\":%.6f,"
              "\"queue_occupancy_max\":%llu,\"queue_full\":%llu,\"queue_full_cycles\":%llu,"
              "\"latency_mean\":%.2f,\"latency_max\":%llu}",
              d->channels, (unsigned long long)d->requests, (unsigned long long)d->row_hits,
              (unsigned long long)d->row_misses, (unsigned long long)d->row_conflicts,
              issued ? (double)d->row_hits / (double)issued : 0.0, (unsigned long long)d->bytes,
              d->bandwidth, d->peak_bandwidth, d->occupancy_mean,
              (unsigned long long)d->occupancy_max, (unsigned long long)d->queue_full,
              (unsigned long long)d->queue_full_cycles, d->latency_mean,
              (unsigned long long)d->latency_max);
}

/* "messages" and "traffic_bytes" per message type, their totals, and the event counters. */
static void json_traffic(strbuf_t *b, const sim_result_t *r)
{
    uint64_t msgs = 0, bytes = 0;
    sb_puts(b, ",\"messages\":{");
    for (int g = 0, first = 1; g < r->nmsgs; g++) {
        if (!r->messages[g])
            continue;
        sb_printf(b, "%s", first ? "" : ",");
        sb_json_str(b, r->msg_names[g]);
        sb_printf(b, ":%llu", (unsigned long long)r->messages[g]);
        first = 0;
        msgs += r->messages[g];
    }
    sb_puts(b, "},\"traffic_bytes\":{");
    for (int g = 0, first = 1; g < r->nmsgs; g++) {
        if (!r->messages[g])
            continue;
        sb_printf(b, "%s", first ? "" : ",");
        sb_json_str(b, r->msg_names[g]);
        sb_printf(b, ":%llu", (unsigned long long)r->traffic[g]);
        first = 0;
        bytes += r->traffic[g];
    }
    sb_printf(b,
              "},\"messages_total\":%llu,\"traffic_bytes_total\":%llu,\"invalidations\":%llu,"
              "\"flushes\":%llu,\"evictions\":%llu,\"stall_cycles\":%llu,"
              "\"stall_msg_cycles\":%llu,",
              (unsigned long long)msgs, (unsigned long long)bytes,
              (unsigned long long)r->invalidations, (unsigned long long)r->flushes,
              (unsigned long long)r->evictions, (unsigned long long)r->stall_cycles,
              (unsigned long long)r->stall_msg_cycles);
}

/* The interconnect's statistics, the "network" object's fields. */
static void json_network(strbuf_t *b, const sim_result_t *r)
{
    sb_printf(b,
              ",\"network\":{\"messages\":%llu,\"latency_mean\":%.2f,\"latency_max\":%llu,"
              "\"links\":%d,\"link_utilisation_mean\":%.6f,\"link_utilisation_max\":%.6f,"
              "\"busiest_link\":",
              (unsigned long long)r->net.messages, r->net.latency_mean,
              (unsigned long long)r->net.latency_max, r->net.links, r->net.util_mean,
              r->net.util_max);
    sb_json_str(b, r->net.busiest);
    sb_puts(b, ",\"topology\":");
    sb_json_str(b, r->net.topology);
    sb_printf(b,
              ",\"hops_mean\":%.2f,\"hol_messages\":%llu,\"hol_cycles\":%llu,"
              "\"buffer_full_messages\":%llu,\"buffer_full_cycles\":%llu",
              r->net.hops_mean, (unsigned long long)r->net.hol_messages,
              (unsigned long long)r->net.hol_cycles, (unsigned long long)r->net.full_messages,
              (unsigned long long)r->net.full_cycles);
}

/* ,"store_buffer":{...}: the per-CU store buffers' counts (docs/sim.md "Metrics"); absent
   on a machine without one. */
static void json_sbuf(strbuf_t *b, const sim_result_t *r)
{
    const sim_sbuf_stats_t *d = &r->sbuf;
    if (!d->entries)
        return;
    sb_printf(b,
              ",\"store_buffer\":{\"entries\":%d,\"coalesce\":%s,\"lazy\":%s,\"buffered\":%llu,"
              "\"coalesced\":%llu,\"forwarded\":%llu,\"drained\":%llu,\"fences\":%llu,"
              "\"full_waits\":%llu,\"full_cycles\":%llu,\"drain_waits\":%llu,"
              "\"drain_cycles\":%llu}",
              d->entries, d->coalesce ? "true" : "false", d->lazy ? "true" : "false",
              (unsigned long long)d->buffered, (unsigned long long)d->coalesced,
              (unsigned long long)d->forwarded, (unsigned long long)d->drained,
              (unsigned long long)d->fences, (unsigned long long)d->full_waits,
              (unsigned long long)d->full_cycles, (unsigned long long)d->drain_waits,
              (unsigned long long)d->drain_cycles);
}

/* ,"predictors":[{param, controller, scope, start, reads, mean, min, max, updates}]: the
   predictors that ran (--predict on); absent when none did. */
static void json_preds(strbuf_t *b, const sim_result_t *r)
{
    for (int k = 0; k < r->npreds; k++) {
        const sim_pred_stats_t *d = &r->preds[k];
        sb_puts(b, k ? ",{\"param\":" : ",\"predictors\":[{\"param\":");
        sb_json_str(b, d->param);
        sb_puts(b, ",\"controller\":");
        sb_json_str(b, d->ctrl);
        sb_printf(b,
                  ",\"scope\":\"%s\",\"start\":%lld,\"reads\":%llu,\"mean\":%.2f,\"min\":%lld,"
                  "\"max\":%lld,\"updates\":%llu}",
                  d->per_line ? "line" : "bank", (long long)d->start, (unsigned long long)d->reads,
                  d->mean, (long long)d->min, (long long)d->max, (unsigned long long)d->updates);
    }
    if (r->npreds)
        sb_puts(b, "]");
}

static void json_out(const sim_result_t *r, const proto_t *p, const prog_t *w, const char *mach,
                     uint64_t seed, double wall, double cpu)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "{\"protocol\":");
    sb_json_str(&b, p->name);
    sb_puts(&b, ",\"workload\":");
    sb_json_str(&b, w->name);
    sb_puts(&b, ",\"machine\":");
    sb_json_str(&b, mach);
    sb_printf(&b,
              ",\"cus\":%d,\"seed\":%llu,\"cycles\":%llu,\"events\":%llu,\"wall_s\":%.6f,"
              "\"events_per_s\":%.0f,\"cpu_s\":%.6f,\"correct\":%s,\"status\":\"%s\"",
              r->cus, (unsigned long long)seed, (unsigned long long)r->cycles,
              (unsigned long long)r->events, wall, wall > 0 ? (double)r->events / wall : 0.0, cpu,
              r->status == SIM_DONE && r->correct ? "true" : "false", status_name(r));
    json_params(&b, p, w);
    if (r->status == SIM_DONE)
        sb_printf(&b, ",\"check\":%s,\"observed\":%s", r->has_check ? "true" : "false",
                  r->observed ? "true" : "false");
    if (r->status != SIM_DONE) {
        sb_puts(&b, ",\"message\":");
        sb_json_str(&b, r->msg);
    }
    if (r->stuck[0]) {
        sb_puts(&b, ",\"stuck\":");
        sb_json_str(&b, r->stuck);
    }
    sb_printf(&b, ",\"l1_hit_rate\":%.6f,\"loads\":%llu",
              r->loads ? (double)r->l1_hits / (double)r->loads : 0.0, (unsigned long long)r->loads);
    json_traffic(&b, r);
    sb_printf(&b,
              "\"warps\":%d,\"lanes\":%d,\"warp_instructions\":%llu,\"coalesced\":%llu,"
              "\"line_requests\":%llu,\"mshr_merges\":%llu,",
              r->warps, r->lanes, (unsigned long long)r->warp_instrs,
              (unsigned long long)r->coalesced, (unsigned long long)r->line_requests,
              (unsigned long long)r->mshr_merges);
    sb_printf(&b,
              "\"sync\":{\"accesses\":%llu,\"l1\":%llu,\"l2\":%llu,\"remote_l1\":%llu,"
              "\"evicts\":%llu},",
              (unsigned long long)r->sync_accesses, (unsigned long long)r->sync_l1,
              (unsigned long long)r->sync_l2, (unsigned long long)r->sync_remote,
              (unsigned long long)r->sync_evicts);
    for (int k = 0; k < SIM_NOPS; k++)
        sb_printf(&b,
                  "%s\"%s\":{\"count\":%llu,\"mean\":%.2f,\"p50\":%llu,\"p90\":%llu,"
                  "\"p99\":%llu,\"max\":%llu}",
                  k ? "," : "\"latency\":{", sim_op_name(k), (unsigned long long)r->lat[k].count,
                  r->lat[k].mean, (unsigned long long)r->lat[k].p50,
                  (unsigned long long)r->lat[k].p90, (unsigned long long)r->lat[k].p99,
                  (unsigned long long)r->lat[k].max);
    sb_puts(&b, "},\"dram\":");
    json_dram(&b, &r->dram);
    json_network(&b, r);
    sb_puts(&b, "}");
    json_sbuf(&b, r);
    json_preds(&b, r);
    sb_puts(&b, "}\n");
    fputs(b.s, stdout);
    sb_free(&b);
}

static void csv_out(const sim_result_t *r, const char *proto, const char *wl, const char *mach,
                    uint64_t seed, double wall, double cpu)
{
    uint64_t msgs = 0, bytes = 0;
    for (int g = 0; g < r->nmsgs; g++) {
        msgs += r->messages[g];
        bytes += r->traffic[g];
    }
    printf("protocol,workload,machine,cus,seed,cycles,events,wall_s,events_per_s,correct,status,"
           "l1_hit_rate,messages,traffic_bytes,invalidations,flushes,evictions,stall_cycles,"
           "stall_msg_cycles,cpu_s");
    for (int k = 0; k < SIM_NOPS; k++)
        printf(",%s_count,%s_p50,%s_p90,%s_p99", sim_op_name(k), sim_op_name(k), sim_op_name(k),
               sim_op_name(k));
    printf(",warps,warp_instructions,coalesced,line_requests,mshr_merges");
    printf(",dram_requests,dram_row_hit_rate,dram_bytes,dram_bandwidth");
    printf(",sync_accesses,sync_l1,sync_l2,sync_remote_l1,sync_evicts");
    printf(
        "\n%s,%s,%s,%d,%llu,%llu,%llu,%.6f,%.0f,%s,%s,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.6f",
        proto, wl, mach, r->cus, (unsigned long long)seed, (unsigned long long)r->cycles,
        (unsigned long long)r->events, wall, wall > 0 ? (double)r->events / wall : 0.0,
        r->status == SIM_DONE && r->correct ? "true" : "false", status_name(r),
        r->loads ? (double)r->l1_hits / (double)r->loads : 0.0, (unsigned long long)msgs,
        (unsigned long long)bytes, (unsigned long long)r->invalidations,
        (unsigned long long)r->flushes, (unsigned long long)r->evictions,
        (unsigned long long)r->stall_cycles, (unsigned long long)r->stall_msg_cycles, cpu);
    for (int k = 0; k < SIM_NOPS; k++)
        printf(",%llu,%llu,%llu,%llu", (unsigned long long)r->lat[k].count,
               (unsigned long long)r->lat[k].p50, (unsigned long long)r->lat[k].p90,
               (unsigned long long)r->lat[k].p99);
    printf(",%d,%llu,%llu,%llu,%llu", r->warps, (unsigned long long)r->warp_instrs,
           (unsigned long long)r->coalesced, (unsigned long long)r->line_requests,
           (unsigned long long)r->mshr_merges);
    const sim_dram_stats_t *d = &r->dram;
    uint64_t issued = d->row_hits + d->row_misses + d->row_conflicts;
    printf(",%llu,%.6f,%llu,%.6f", (unsigned long long)d->requests,
           issued ? (double)d->row_hits / (double)issued : 0.0, (unsigned long long)d->bytes,
           d->bandwidth);
    printf(",%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)r->sync_accesses,
           (unsigned long long)r->sync_l1, (unsigned long long)r->sync_l2,
           (unsigned long long)r->sync_remote, (unsigned long long)r->sync_evicts);
}

typedef struct {
    const char *proto_arg, *wl_arg, *mach_arg;
    const char *params[64]; /* --param NAME=VALUE */
    int nparams;
    bool json, csv;
    sim_config_t cfg;
} sim_opts_t;

/* Parse the options into O and check them; *DONE when the command ends here
 * (--help, or an error line printed) with the returned code. */
static int sim_args(sim_opts_t *o, int argc, char **argv, bool *done)
{
    cli_getopt_t go;
    cli_getopt_init(&go, CLI_CMD_SIM);
    int ch;
    *done = true;
    while ((ch = cli_getopt(&go, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'p': o->proto_arg = optarg; break;
        case 'w': o->wl_arg = optarg; break;
        case 'M': o->mach_arg = optarg; break;
        case 'c': o->cfg.cus = (int)go.num; break;
        case 'P':
            if (cli_param_opt("sim", optarg, o->params, &o->nparams))
                return CLI_BAD_INPUT;
            break;
        case 's': o->cfg.seed = (uint64_t)go.num; break;
        case 'C': o->cfg.max_cycles = (uint64_t)go.num; break;
        case 'E': o->cfg.max_events = (uint64_t)go.num; break;
        case 'I': o->cfg.max_idle = (uint64_t)go.num; break;
        case 'J': o->json = true; break;
        case 'D':
            o->cfg.memory = optarg[0] == 'm'   ? SIM_MEM_MACHINE
                            : optarg[0] == 'd' ? SIM_MEM_DRAM
                                               : SIM_MEM_FIXED;
            break;
        case 'v': o->csv = true; break;
        case CLI_O_PREDICT: o->cfg.predict = optarg[1] == 'n'; break;
        case 'h': usage(stdout); return CLI_OK;
        }
    }
    if (!o->proto_arg || !o->wl_arg) {
        cli_error("sim: --protocol and --workload are required (see --help)");
        return CLI_BAD_INPUT;
    }
    if (optind != argc) {
        cli_error("sim: unexpected argument '%s' (see --help)", argv[optind]);
        return CLI_BAD_INPUT;
    }
    if (o->json && o->csv) {
        cli_error("sim: --json and --csv exclude each other");
        return CLI_BAD_INPUT;
    }
    *done = false;
    return CLI_OK;
}

/* Load the workload at WPATH into *PROG; a workload declaring parameter CUS gets
 * the machine's compute units (--cus, or the machine file's), unless --param sets
 * it. Returns 0, or -1 after an error line. */
static int sim_load_workload(sim_opts_t *o, const char *wpath, const proto_t *p,
                             const sim_machine_t *mach, cli_params_t *sp, prog_t **prog)
{
    diag_t d;
    if (cli_load_test(wpath, p, sp, prog, &d)) {
        cli_report(&d);
        return -1;
    }
    const prog_param_t *pc = prog_param_find(*prog, "CUS");
    bool user_cus = false;
    for (int k = 0; k < sp->nwl; k++)
        user_cus |= !strcmp(sp->wl[k].name, "CUS");
    if (!pc || pc->derived || user_cus)
        return 0;
    int want = o->cfg.cus ? o->cfg.cus : mach->cus;
    if (sp->nwl >= 64) {
        cli_error("sim: too many --param settings");
        return -1;
    }
    sp->wl[sp->nwl].name = xstrdup("CUS");
    sp->wl[sp->nwl++].value = want;
    prog_free(*prog);
    *prog = NULL;
    if (cli_load_test(wpath, p, sp, prog, &d)) {
        cli_report(&d);
        return -1;
    }
    o->cfg.cus = want;
    return 0;
}

/* Load the protocol, the machine and the workload. Returns 0, or -1 after an
 * error line. */
static int sim_load(sim_opts_t *o, const char *argv0, proto_t **p, prog_t **prog,
                    sim_machine_t *mach, cli_params_t *sp)
{
    diag_t d;
    char path[PATH_MAX + 400];
    if (cli_load_protocol_timed(o->proto_arg, argv0, p, &d) ||
        cli_split_params(*p, o->params, o->nparams, sp, &d)) {
        cli_report(&d);
        return -1;
    }
    sp->timed = true; /* the workloads' timed defaults (the papers' scale) */
    if (cli_find_data(o->mach_arg, "protocols/machines", ".machine", "COHCHECK_MACHINES", argv0,
                      path, sizeof path)) {
        cli_error("sim: unknown machine '%s' (a name in ./protocols/machines or "
                  "$COHCHECK_MACHINES, or a .machine file)",
                  o->mach_arg);
        return -1;
    }
    if (sim_machine_load(path, mach, &d)) {
        cli_report(&d);
        return -1;
    }
    char wpath[PATH_MAX + 400];
    if (cli_find_data(o->wl_arg, "litmus/workloads", ".litmus", "COHCHECK_WORKLOADS", argv0, wpath,
                      sizeof wpath)) {
        cli_error("sim: unknown workload '%s' (a name in ./litmus/workloads or "
                  "$COHCHECK_WORKLOADS, or a .litmus file)",
                  o->wl_arg);
        return -1;
    }
    return sim_load_workload(o, wpath, *p, mach, sp, prog);
}

/* The default output: one line, and one for the DRAM model when it was used. */
static void text_out(const sim_result_t *r, const char *proto, const char *wl, const char *mach,
                     uint64_t seed, double wall)
{
    uint64_t msgs = 0, bytes = 0;
    for (int g = 0; g < r->nmsgs; g++) {
        msgs += r->messages[g];
        bytes += r->traffic[g];
    }
    printf("%s %s on %s (%d CUs, seed %llu): %s, %llu cycles, %llu events (%.0f events/s), "
           "L1 hit rate %.3f, %llu messages, %llu bytes, %llu invalidations, %llu flushes, "
           "%llu stall cycles\n",
           proto, wl, mach, r->cus, (unsigned long long)seed, status_name(r),
           (unsigned long long)r->cycles, (unsigned long long)r->events,
           wall > 0 ? (double)r->events / wall : 0.0,
           r->loads ? (double)r->l1_hits / (double)r->loads : 0.0, (unsigned long long)msgs,
           (unsigned long long)bytes, (unsigned long long)r->invalidations,
           (unsigned long long)r->flushes, (unsigned long long)r->stall_cycles);
    if (r->dram.on) {
        const sim_dram_stats_t *dr = &r->dram;
        uint64_t issued = dr->row_hits + dr->row_misses + dr->row_conflicts;
        printf("  DRAM: %llu reads, row-hit rate %.3f, %llu bytes, %.3f of %.0f bytes/cycle, "
               "queue occupancy %.2f mean %llu max, latency %.1f mean %llu max\n",
               (unsigned long long)dr->requests,
               issued ? (double)dr->row_hits / (double)issued : 0.0, (unsigned long long)dr->bytes,
               dr->bandwidth, dr->peak_bandwidth, dr->occupancy_mean,
               (unsigned long long)dr->occupancy_max, dr->latency_mean,
               (unsigned long long)dr->latency_max);
    }
    if (r->sbuf.entries) {
        const sim_sbuf_stats_t *d = &r->sbuf;
        printf("  store buffer: %d entries%s%s, %llu buffered, %llu coalesced, %llu forwarded, "
               "%llu drained, %llu fences, %llu full waits (%llu cycles), %llu drain waits "
               "(%llu cycles)\n",
               d->entries, d->coalesce ? " coalescing" : "", d->lazy ? " lazy" : "",
               (unsigned long long)d->buffered, (unsigned long long)d->coalesced,
               (unsigned long long)d->forwarded, (unsigned long long)d->drained,
               (unsigned long long)d->fences, (unsigned long long)d->full_waits,
               (unsigned long long)d->full_cycles, (unsigned long long)d->drain_waits,
               (unsigned long long)d->drain_cycles);
    }
    for (int k = 0; k < r->npreds; k++) {
        const sim_pred_stats_t *d = &r->preds[k];
        printf("  predictor %s (%s, per %s, start %lld): mean %.1f over %llu reads, min %lld, "
               "max %lld, %llu updates\n",
               d->param, d->ctrl, d->per_line ? "line" : "bank", (long long)d->start, d->mean,
               (unsigned long long)d->reads, (long long)d->min, (long long)d->max,
               (unsigned long long)d->updates);
    }
}

/* A run that did not end correct: its error line, and for a stall what each
 * instance holds (where to start reading the tables). */
static void report_failure(const sim_result_t *r, const proto_t *p, const prog_t *prog)
{
    const char *wl = prog->name;
    if (r->status != SIM_DONE) {
        cli_error("sim: %s %s: %s", p->name, wl, r->msg);
        for (const char *l = r->stuck; *l;) {
            size_t n = strcspn(l, "\n");
            bool plain = !strncmp(l, "thread ", 7) || !strncmp(l, "channel ", 8) ||
                         !strncmp(l, "store buffer ", 13);
            fprintf(stderr, "  %s%.*s\n", plain ? "" : "stalled at ", (int)n, l);
            l += n + (l[n] == '\n');
        }
    } else if (!r->correct)
        cli_error("sim: %s %s: wrong final state (the condition %s)", p->name, wl,
                  prog->quant == PROG_FORALL ? "'forall' does not hold" : "'~exists' holds");
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

int cmd_sim(int argc, char **argv)
{
    sim_opts_t o = {.mach_arg = "heterosync", .cfg = {.seed = 1}};
    bool done;
    int rc = sim_args(&o, argc, argv, &done);
    if (done)
        return rc;
    diag_t d;
    proto_t *p = NULL;
    prog_t *prog = NULL;
    sim_machine_t mach;
    rc = CLI_BAD_INPUT;
    cli_params_t sp;
    memset(&sp, 0, sizeof sp);
    if (sim_load(&o, argv[0], &p, &prog, &mach, &sp))
        goto done;
    sim_result_t r;
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    if (sim_run(p, prog, &mach, &o.cfg, &r, &d)) {
        cli_report(&d);
        sim_result_free(&r);
        goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double wall = elapsed(&t0, &t1), cpu = elapsed(&c0, &c1);
    if (o.json)
        json_out(&r, p, prog, mach.name, o.cfg.seed, wall, cpu);
    else if (o.csv)
        csv_out(&r, p->name, prog->name, mach.name, o.cfg.seed, wall, cpu);
    else
        text_out(&r, p->name, prog->name, mach.name, o.cfg.seed, wall);
    report_failure(&r, p, prog);
    rc = r.status == SIM_LIMIT ? CLI_LIMIT : r.status == SIM_DONE && r.correct ? CLI_OK : CLI_FAIL;
    sim_result_free(&r);
done:
    cli_params_free(&sp);
    prog_free(prog);
    proto_free(p);
    return rc;
}
