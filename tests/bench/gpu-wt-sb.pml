/* gpu-wt-sb.pml - Promela (SPIN) model of the cohcheck benchmark configuration
 *
 *   ./cohcheck check --no-db --protocol gpu-wt --init warm --env all litmus/core/SB+sc.litmus
 *
 * the SPIN twin of tests/bench/gpu-wt-sb.m (Rumur), transcribed from it rule for rule:
 * the same system, state layout and row order, so SPIN stores exactly the states
 * cohcheck and Rumur visit: 1,184,433. See that file's header for the system itself
 * (protocols/gpu-wt.proto with wbuf = 2, litmus/core/SB+sc.litmus on 2 CUs, ordered
 * req/resp networks of capacity 8, --env all = evict and fetch on every L1 line,
 * --init warm = the 16 subsets of (L1, line) pairs starting in V).
 *
 * How the state count is kept equal to the number of distinct global states:
 *   - one process loops over d_step'd guarded rules (a `do` whose options are all
 *     d_steps): each rule is one atomic, deterministic transition, and between rules
 *     the process is always at the loop head, so its program counter is the same in
 *     every stored state;
 *   - temporaries are `hidden` (outside the state vector);
 *   - message slots past a channel's length are cleared, as in cohcheck and the Murphi
 *     model, so equal cohcheck states map to equal state vectors and back;
 *   - the 16 warm start states: SPIN has one initial state. Here it is the all-zero
 *     state, which is the warm subset {} (every thread at its first instruction, every
 *     L1 line I with data 0, pending 0, channels empty, L2 data 0): all encodings are
 *     chosen so that value is 0. The other 15 subsets are reached from it by 15 "warm
 *     start" rules enabled only in that exact state (PRISTINE). So the stored states
 *     are exactly the states reachable from the 16 warm states, with no pre-initial
 *     state, and the count is the same. The 15 extra transitions make SPIN's
 *     "transitions" (stored + matched = 1 + rules fired + 15) equal cohcheck's, which
 *     counts the 16 initial states as transitions: 5,404,354 = Rumur's 5,404,338 rules
 *     fired + 16.
 *
 * Every row of gpu-wt's tables is transcribed, including those this test never fires
 * (plain loads, GETS/DATA, atomics, fences). Rows are tried in file order as cohcheck's
 * find_row does; a `stall` row makes a false guard (no successor, as in cohcheck);
 * `impossible` rows, unhandled events and out-of-range values are assertion failures.
 * The outcome check (SB+sc under drf: not both loads 0, final x = y = 1) is asserted
 * after every rule, on terminal states.
 *
 * Verify (safety only, no partial-order reduction, exact storage: no bitstate, no hash
 * compaction; as tests/bench/spin.sh and tests/e2e/spin.sh run it):
 *   spin -a gpu-wt-sb.pml && cc -O2 -DSAFETY -DNOREDUCE -o pan pan.c && ./pan -m100000 -w21
 * SPIN 6.5.2 reports "1184433 states, stored" and "5404354 transitions (= stored+matched)",
 * depth 364 (its search is depth-first). -DCOLLAPSE stores the same states, slower and no
 * smaller here (one global component); -DHC4 loses 16,946 of them (docs/memory.md).
 */

#define NT 2    /* threads */
#define NCU 2   /* compute units = L1 instances */
#define NLOC 2  /* locations x (0), y (1); each its own line */
#define NI 2    /* instructions per thread */
#define CAP 8   /* channel capacity (cohcheck's default) */
#define WBUF 2  /* gpu-wt `param wbuf = 2` */
#define VMAX 1  /* values: initial 0, stores write 1, no RMW in this test */
#define PMAX 8  /* `var pending: int(0..8)` */

/* line states; thread status; core events; instruction kinds; orders; message kinds.
 * The first of each is 0: the all-zero state is a start state. */
#define S_I 0
#define S_V 1
#define S_IV 2
#define S_IF 3
#define T_RUN 0
#define T_WAIT 1
#define T_DONE 2
#define E_load 0
#define E_store 1
#define E_aload 2
#define E_atomic 3
#define E_acq 4
#define E_rel 5
#define E_facq 6
#define E_frel 7
#define O_LD 0
#define O_ST 1
#define O_RMW 2
#define O_CAS 3
#define O_FENCE 4
#define D_plain 0
#define D_rlx 1
#define D_acq 2
#define D_rel 3
#define D_acqrel 4
#define D_sc 5
#define M_NONE 0
#define M_GETS 1
#define M_FETCH 2
#define M_ST 3
#define M_ALD 4
#define M_ATOM 5
#define M_DATA 6
#define M_FILL 7
#define M_AVAL 8
#define M_WACK 9

typedef msg_t {
    byte mt;   /* M_* */
    byte line;
    byte tid;  /* GETS ALD ATOM DATA AVAL */
    byte loc;  /* GETS ST ALD ATOM */
    byte val;  /* ST ATOM DATA AVAL */
    byte op;   /* ATOM */
    byte exp;  /* ATOM */
    byte d     /* DATA FILL (a line's data: one location per line here) */
};
typedef chan_t { byte n; msg_t m[CAP] };
typedef l1line_t { byte st; byte data };
typedef l1_t { l1line_t ln[NLOC]; byte pending };
typedef thread_t { byte pc; byte step; byte stat; byte r0 };

thread_t Th[NT];
l1_t L1[NCU];
byte L2[NLOC];   /* L2 line data (memory folded in); its state is always V */
chan_t Req[NCU];  /* network req,  L1[c] -> L2 */
chan_t Resp[NCU]; /* network resp, L2 -> L1[c] */

/* temporaries of one rule: not part of the state */
hidden byte hc, hl, hlc, he, hop, hdone, hi, ht, hv;
hidden byte hm_mt, hm_line, hm_tid, hm_loc, hm_val, hm_op, hm_exp, hm_d; /* message to send */
hidden byte hh_mt, hh_line, hh_tid, hh_loc, hh_val, hh_op, hh_exp, hh_d; /* message received */

/* ---- The litmus program (SB+sc) and the core maps ---- */

/* P0: st.sc x 1 ; ld.sc r0 y      P1: st.sc y 1 ; ld.sc r0 x */
#define CUOF(t) (t)
#define IOP(t, pc) ((pc) == 0 -> O_ST : O_LD)
#define IORD(t, pc) D_sc
#define ILOC(t, pc) ((pc) == 0 -> (t) : 1 - (t))
#define IVAL(t, pc) 1
#define LINEOF(l) (l)

/* `core L1` maps: number of events and the k-th event of (op, ord) */
#define NEV(op, o) \
    ((op) == O_LD -> (((o) == D_acq || (o) == D_sc) -> 2 : 1) : \
     ((op) == O_ST -> (((o) == D_rel || (o) == D_sc) -> 2 : 1) : \
      (((op) == O_RMW || (op) == O_CAS) -> \
           (((o) == D_acqrel || (o) == D_sc) -> 3 : (((o) == D_acq || (o) == D_rel) -> 2 : 1)) : \
       (((o) == D_acqrel || (o) == D_sc) -> 2 : 1))))
#define EV_LD(o, k) ((o) == D_plain -> E_load : ((k) == 0 -> E_aload : E_acq))
#define EV_ST(o, k) ((((o) == D_rel || (o) == D_sc) && (k) == 0) -> E_rel : E_store)
#define EV_AT(o, k) \
    ((o) == D_acq -> ((k) == 0 -> E_atomic : E_acq) : \
     ((o) == D_rel -> ((k) == 0 -> E_rel : E_atomic) : \
      (((o) == D_acqrel || (o) == D_sc) -> \
           ((k) == 0 -> E_rel : ((k) == 1 -> E_atomic : E_acq)) : E_atomic)))
#define EV_FE(o, k) \
    ((o) == D_acq -> E_facq : ((o) == D_rel -> E_frel : ((k) == 0 -> E_frel : E_facq)))
#define EV(op, o, k) \
    ((op) == O_LD -> EV_LD(o, k) : ((op) == O_ST -> EV_ST(o, k) : \
     (((op) == O_RMW || (op) == O_CAS) -> EV_AT(o, k) : EV_FE(o, k))))
#define CUREV(t) EV(IOP(t, Th[t].pc), IORD(t, Th[t].pc), Th[t].step)
#define ISLINEEV(e) ((e) != E_facq && (e) != E_frel)

/* Core events at the L1: is the first matching row `stall`? (S: the line's state) */
#define CORE_S(t) (ISLINEEV(CUREV(t)) -> L1[CUOF(t)].ln[LINEOF(ILOC(t, Th[t].pc))].st : S_I)
#define CORE_STALLS(t) \
    (CUREV(t) == E_load -> (CORE_S(t) == S_IV || CORE_S(t) == S_IF) : \
     (CUREV(t) == E_store -> \
          (L1[CUOF(t)].pending >= WBUF || CORE_S(t) == S_IV || CORE_S(t) == S_IF) : \
      (CUREV(t) == E_atomic -> (CORE_S(t) == S_IV || CORE_S(t) == S_IF) : \
       ((CUREV(t) == E_rel || CUREV(t) == E_frel) -> L1[CUOF(t)].pending > 0 : 0))))

/* ---- Helpers: messages, channels, threads (sys.c: do_send, step_msg, thread_done) ---- */

inline clear_hm() {
    hm_mt = M_NONE; hm_line = 0; hm_tid = 0; hm_loc = 0; hm_val = 0; hm_op = 0; hm_exp = 0; hm_d = 0
}

/* send the message in hm_* on CH */
inline push(ch) {
    assert(ch.n < CAP); /* channel overflow */
    ch.m[ch.n].mt = hm_mt; ch.m[ch.n].line = hm_line; ch.m[ch.n].tid = hm_tid;
    ch.m[ch.n].loc = hm_loc; ch.m[ch.n].val = hm_val; ch.m[ch.n].op = hm_op;
    ch.m[ch.n].exp = hm_exp; ch.m[ch.n].d = hm_d;
    ch.n++
}

/* receive the head of CH into hh_*; slots past the new length are cleared */
inline pop(ch) {
    hh_mt = ch.m[0].mt; hh_line = ch.m[0].line; hh_tid = ch.m[0].tid; hh_loc = ch.m[0].loc;
    hh_val = ch.m[0].val; hh_op = ch.m[0].op; hh_exp = ch.m[0].exp; hh_d = ch.m[0].d;
    hi = 0;
    do
    :: hi + 1 < ch.n ->
        ch.m[hi].mt = ch.m[hi + 1].mt; ch.m[hi].line = ch.m[hi + 1].line;
        ch.m[hi].tid = ch.m[hi + 1].tid; ch.m[hi].loc = ch.m[hi + 1].loc;
        ch.m[hi].val = ch.m[hi + 1].val; ch.m[hi].op = ch.m[hi + 1].op;
        ch.m[hi].exp = ch.m[hi + 1].exp; ch.m[hi].d = ch.m[hi + 1].d;
        hi++
    :: else -> break
    od;
    ch.n--;
    ch.m[ch.n].mt = M_NONE; ch.m[ch.n].line = 0; ch.m[ch.n].tid = 0; ch.m[ch.n].loc = 0;
    ch.m[ch.n].val = 0; ch.m[ch.n].op = 0; ch.m[ch.n].exp = 0; ch.m[ch.n].d = 0
}

/* Run local instructions up to the next memory operation (SB+sc has none) or the end. */
inline advance(t) {
    Th[t].step = 0;
    if
    :: Th[t].pc >= NI -> Th[t].stat = T_DONE
    :: else -> Th[t].stat = T_RUN
    fi
}

/* `done` of thread T's current event, with value V for its register */
inline done_v(t, v) {
    assert(Th[t].stat != T_DONE); /* done for a thread with no request in flight */
    hop = IOP(t, Th[t].pc);
    if
    :: hop == O_LD || hop == O_RMW || hop == O_CAS -> Th[t].r0 = v
    :: else -> skip
    fi;
    Th[t].step++;
    Th[t].stat = T_RUN;
    if
    :: Th[t].step >= NEV(hop, IORD(t, Th[t].pc)) -> Th[t].pc++; advance(t)
    :: else -> skip
    fi
}

inline forall_v_to_i(c) {
    if :: L1[c].ln[0].st == S_V -> L1[c].ln[0].st = S_I :: else -> skip fi;
    if :: L1[c].ln[1].st == S_V -> L1[c].ln[1].st = S_I :: else -> skip fi
}

/* The outcome check on terminal states (all threads finished, all channels empty):
 * SB+sc allows under drf (= SC here) anything but 0:r0 = 0 /\ 1:r0 = 0; x = y = 1. */
#define TERMINAL \
    (Th[0].stat == T_DONE && Th[1].stat == T_DONE && Req[0].n == 0 && Resp[0].n == 0 && \
     Req[1].n == 0 && Resp[1].n == 0)
#ifndef FORBID_11
#define OUTCOME_OK (!(Th[0].r0 == 0 && Th[1].r0 == 0) && L2[0] == 1 && L2[1] == 1)
#else /* anti-vacuity (tests/e2e/spin.sh): also forbid 0:r0 = 1 /\ 1:r0 = 1, which SC allows */
#define OUTCOME_OK \
    (!(Th[0].r0 == 0 && Th[1].r0 == 0) && !(Th[0].r0 == 1 && Th[1].r0 == 1) && L2[0] == 1 && \
     L2[1] == 1)
#endif
inline check_outcome() {
    assert(!TERMINAL || OUTCOME_OK)
}

/* ---- The rules ---- */

/* A core event of thread T at its L1 (rows in gpu-wt.proto's `L1` table order). */
inline core_event(t) {
    hc = CUOF(t);
    he = CUREV(t);
    hop = IOP(t, Th[t].pc);
    hlc = ILOC(t, Th[t].pc);
    hl = LINEOF(hlc);
    clear_hm();
    hm_line = hl;
    hdone = 0;
    if
    :: he == E_load ->
        if
        :: L1[hc].ln[hl].st == S_V -> /* V | load | | done(data[req.loc]) | */
            Th[t].r0 = L1[hc].ln[hl].data;
            hdone = 1
        :: else -> /* I | load | | send GETS(tid=req.tid, loc=req.loc) to L2; wait | IV */
            hm_mt = M_GETS; hm_tid = t; hm_loc = hlc;
            push(Req[hc]);
            Th[t].stat = T_WAIT;
            L1[hc].ln[hl].st = S_IV
        fi
    :: he == E_store ->
        /* I | store | | send ST(loc, val) to L2; pending := pending + 1; done |
         * V | store | | data[req.loc] := req.val; send ST(...) to L2; pending + 1; done | */
        if
        :: L1[hc].ln[hl].st == S_V -> L1[hc].ln[hl].data = IVAL(t, Th[t].pc)
        :: else -> skip
        fi;
        hm_mt = M_ST; hm_loc = hlc; hm_val = IVAL(t, Th[t].pc);
        push(Req[hc]);
        assert(L1[hc].pending < PMAX); /* variable pending out of its range */
        L1[hc].pending++;
        hdone = 1
    :: he == E_aload -> /* I, V, IV, IF | aload | | send ALD(tid, loc) to L2; wait | */
        hm_mt = M_ALD; hm_tid = t; hm_loc = hlc;
        push(Req[hc]);
        Th[t].stat = T_WAIT
    :: he == E_atomic -> /* I | atomic | | send ATOM(...) to L2; wait |   V | ... | I */
        hm_mt = M_ATOM; hm_tid = t; hm_loc = hlc; hm_op = 0; hm_val = IVAL(t, Th[t].pc);
        hm_exp = 0;
        push(Req[hc]);
        Th[t].stat = T_WAIT;
        L1[hc].ln[hl].st = S_I
    :: he == E_acq || he == E_facq -> /* V | acq | | forall V -> I; done | I  (and I, IV, IF) */
        forall_v_to_i(hc);
        hdone = 1
    :: else -> /* rel, frel: I, V, IV, IF | rel | | done |  (pending > 0 stalls) */
        hdone = 1
    fi;
    if
    :: hdone -> /* step_thread after a `done`: next event, or next instruction */
        Th[t].step++;
        if
        :: Th[t].step >= NEV(hop, IORD(t, Th[t].pc)) -> Th[t].pc++; advance(t)
        :: else -> skip
        fi
    :: else -> skip
    fi
}

/* The L2 receives the head of Req[C]. */
inline l2_receives(c) {
    pop(Req[c]);
    clear_hm();
    hm_line = hh_line;
    if
    :: hh_mt == M_GETS -> /* V | GETS | | send DATA(tid, val=data[msg.loc], d=data) to msg.src | */
        hm_mt = M_DATA; hm_tid = hh_tid; hm_val = L2[LINEOF(hh_loc)]; hm_d = L2[hh_line];
        push(Resp[c])
    :: hh_mt == M_FETCH -> /* V | FETCH | | send FILL(d=data) to msg.src | */
        hm_mt = M_FILL; hm_d = L2[hh_line];
        push(Resp[c])
    :: hh_mt == M_ST -> /* V | ST | | data[msg.loc] := msg.val; send WACK to msg.src | */
        L2[LINEOF(hh_loc)] = hh_val;
        hm_mt = M_WACK;
        push(Resp[c])
    :: hh_mt == M_ALD -> /* V | ALD | | send AVAL(tid=msg.tid, val=data[msg.loc]) to msg.src | */
        hm_mt = M_AVAL; hm_tid = hh_tid; hm_val = L2[LINEOF(hh_loc)];
        push(Resp[c])
    :: hh_mt == M_ATOM -> /* V | ATOM | | send AVAL(old value); data[msg.loc] := apply(...) | */
        hm_mt = M_AVAL; hm_tid = hh_tid; hm_val = L2[LINEOF(hh_loc)];
        push(Resp[c]);
        if
        :: hh_op == 0 ->
            assert(L2[LINEOF(hh_loc)] + hh_val <= VMAX);
            L2[LINEOF(hh_loc)] = L2[LINEOF(hh_loc)] + hh_val
        :: hh_op == 1 -> L2[LINEOF(hh_loc)] = hh_val
        :: else ->
            if
            :: L2[LINEOF(hh_loc)] == hh_exp -> L2[LINEOF(hh_loc)] = hh_val
            :: else -> skip
            fi
        fi
    :: else -> assert(false) /* unexpected message at L2 */
    fi
}

/* L1[C] receives the head of Resp[C]. */
inline l1_receives(c) {
    pop(Resp[c]);
    if
    :: hh_mt == M_DATA -> /* IV | DATA | | data := msg.d; done(msg.tid, msg.val) | V */
        assert(L1[c].ln[hh_line].st == S_IV); /* impossible message DATA */
        L1[c].ln[hh_line].data = hh_d;
        ht = hh_tid; hv = hh_val;
        done_v(ht, hv);
        L1[c].ln[hh_line].st = S_V
    :: hh_mt == M_FILL -> /* IF | FILL | | data := msg.d | V */
        assert(L1[c].ln[hh_line].st == S_IF); /* impossible message FILL */
        L1[c].ln[hh_line].data = hh_d;
        L1[c].ln[hh_line].st = S_V
    :: hh_mt == M_AVAL -> /* I, V, IV, IF | AVAL | | done(msg.tid, msg.val) | */
        ht = hh_tid; hv = hh_val;
        done_v(ht, hv)
    :: hh_mt == M_WACK -> /* I, V, IV, IF | WACK | | pending := pending - 1 | */
        assert(L1[c].pending > 0); /* variable pending out of its range */
        L1[c].pending--
    :: else -> assert(false) /* unexpected message at L1 */
    fi
}

/* --env all: V | evict | | data := data | I      I | fetch | | send FETCH to L2 | IF */
inline fetch(c, l) {
    clear_hm();
    hm_mt = M_FETCH; hm_line = l;
    push(Req[c]);
    L1[c].ln[l].st = S_IF
}

/* ---- Start states (--init warm) ---- */

/* The all-zero state: warm subset {} (see the header). */
#define PRISTINE \
    (Th[0].pc == 0 && Th[0].step == 0 && Th[0].stat == T_RUN && Th[0].r0 == 0 && \
     Th[1].pc == 0 && Th[1].step == 0 && Th[1].stat == T_RUN && Th[1].r0 == 0 && \
     L1[0].ln[0].st == S_I && L1[0].ln[0].data == 0 && L1[0].ln[1].st == S_I && \
     L1[0].ln[1].data == 0 && L1[0].pending == 0 && \
     L1[1].ln[0].st == S_I && L1[1].ln[0].data == 0 && L1[1].ln[1].st == S_I && \
     L1[1].ln[1].data == 0 && L1[1].pending == 0 && \
     Req[0].n == 0 && Resp[0].n == 0 && Req[1].n == 0 && Resp[1].n == 0 && \
     L2[0] == 0 && L2[1] == 0)
/* (channel slots past the length are always clear, so n == 0 covers them) */
#define WARM(w00, w01, w10, w11) \
    :: d_step { PRISTINE -> \
        L1[0].ln[0].st = (w00 -> S_V : S_I); L1[0].ln[1].st = (w01 -> S_V : S_I); \
        L1[1].ln[0].st = (w10 -> S_V : S_I); L1[1].ln[1].st = (w11 -> S_V : S_I); \
        check_outcome() }

active proctype system() {
    do
    :: d_step { Th[0].stat == T_RUN && !CORE_STALLS(0) -> core_event(0); check_outcome() }
    :: d_step { Th[1].stat == T_RUN && !CORE_STALLS(1) -> core_event(1); check_outcome() }
    :: d_step { Req[0].n > 0 -> l2_receives(0); check_outcome() }
    :: d_step { Req[1].n > 0 -> l2_receives(1); check_outcome() }
    :: d_step { Resp[0].n > 0 -> l1_receives(0); check_outcome() }
    :: d_step { Resp[1].n > 0 -> l1_receives(1); check_outcome() }
    :: d_step { L1[0].ln[0].st == S_V -> L1[0].ln[0].st = S_I; check_outcome() }
    :: d_step { L1[0].ln[1].st == S_V -> L1[0].ln[1].st = S_I; check_outcome() }
    :: d_step { L1[1].ln[0].st == S_V -> L1[1].ln[0].st = S_I; check_outcome() }
    :: d_step { L1[1].ln[1].st == S_V -> L1[1].ln[1].st = S_I; check_outcome() }
    :: d_step { L1[0].ln[0].st == S_I -> fetch(0, 0); check_outcome() }
    :: d_step { L1[0].ln[1].st == S_I -> fetch(0, 1); check_outcome() }
    :: d_step { L1[1].ln[0].st == S_I -> fetch(1, 0); check_outcome() }
    :: d_step { L1[1].ln[1].st == S_I -> fetch(1, 1); check_outcome() }
    WARM(0, 0, 0, 1)
    WARM(0, 0, 1, 0)
    WARM(0, 0, 1, 1)
    WARM(0, 1, 0, 0)
    WARM(0, 1, 0, 1)
    WARM(0, 1, 1, 0)
    WARM(0, 1, 1, 1)
    WARM(1, 0, 0, 0)
    WARM(1, 0, 0, 1)
    WARM(1, 0, 1, 0)
    WARM(1, 0, 1, 1)
    WARM(1, 1, 0, 0)
    WARM(1, 1, 0, 1)
    WARM(1, 1, 1, 0)
    WARM(1, 1, 1, 1)
    od
}
