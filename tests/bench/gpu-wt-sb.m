-- gpu-wt-sb.m - Murphi (Rumur dialect) model of the cohcheck benchmark configuration
--
--   ./cohcheck check --no-db --protocol gpu-wt --init warm --env all litmus/core/SB+sc.litmus
--
-- written to have the same reachable state graph as cohcheck's interpreter
-- (checker/sys/sys.c) on that configuration, so both tools visit the same number of
-- states (cohcheck: 1,184,433 states, 5,404,354 transitions; the transitions include
-- the 16 initial states, which Rumur does not count as rules fired).
--
-- The system (protocols/gpu-wt.proto, param wbuf = 2; litmus/core/SB+sc.litmus):
--   - 2 threads, P0 on CU 0, P1 on CU 1 (--cus defaults to the CUs the test uses: 2);
--       P0: st.sc x 1 ; ld.sc r0 y        P1: st.sc y 1 ; ld.sc r0 x
--     mapped by the `core L1` section: st.sc -> rel, store ; ld.sc -> aload, acq.
--   - one L1 per CU (states I V IV IF, line var `data`, controller var `pending`),
--     one shared L2 (line state always V, line var `data`);
--   - locations x, y on two different lines (no `sameline`), so `data` holds one value;
--   - networks req (L1[c] -> L2) and resp (L2 -> L1[c]) are ordered: one FIFO per
--     (network, sender, receiver), capacity 8, only the head can be received;
--   - --env all: the L1's `evict` and `fetch` line events are enabled on every
--     (instance, line) (the L2 has no rows for them; no protocol has `writeback` here);
--   - --init warm: every subset of the 4 (L1 instance, line) pairs starts in the `warm`
--     state V with the test's initial data (16 start states).
--
-- State layout mirrors sys.c: per thread (pc, step, status, registers), per instance
-- (per line: state, data; per controller vars), per channel (length, records). Message
-- records carry the message kind, its line and every declared field; fields a message
-- does not declare are 0, and slots past a channel's length are cleared, so equal
-- cohcheck states map to equal Murphi states and back. Registers other than r0 are
-- never written by this test (always 0) and are left out; the L2's line state is
-- constantly V and is left out too (neither changes the number of states).
--
-- Every row of gpu-wt's tables is transcribed, including those this test never fires
-- (plain loads, GETS/DATA, atomics, fences), so the model is the protocol, not just the
-- paths SB+sc takes. Rows are tried in file order exactly as find_row does; a `stall`
-- row becomes a false rule guard (no successor, as in cohcheck), `impossible` and
-- unhandled events become `error`.
--
-- Generate single-threaded:  rumur --threads 1 --deadlock-detection stuck gpu-wt-sb.m -o x.c

const
  NT:    2;   -- threads
  NCU:   2;   -- compute units = L1 instances
  NLOC:  2;   -- locations x (0), y (1); each its own line
  NI:    2;   -- instructions per thread
  CAP:   8;   -- channel capacity (cohcheck's default)
  WBUF:  2;   -- gpu-wt `param wbuf = 2`
  VMAX:  1;   -- values: initial 0, stores write 1, no RMW in this test

type
  tid_t:  0..NT-1;
  cu_t:   0..NCU-1;
  loc_t:  0..NLOC-1;
  line_t: 0..NLOC-1;
  val_t:  0..VMAX;
  pc_t:   0..NI;
  step_t: 0..3;
  pend_t: 0..8;          -- `var pending: int(0..8)`

  lstate_t: enum { S_I, S_V, S_IV, S_IF };
  tstat_t:  enum { T_RUN, T_WAIT, T_DONE };
  -- core events named in the `core L1` maps
  ev_t:     enum { E_load, E_store, E_aload, E_atomic, E_acq, E_rel, E_facq, E_frel };
  op_t:     enum { O_LD, O_ST, O_RMW, O_CAS, O_FENCE };
  ord_t:    enum { D_plain, D_rlx, D_acq, D_rel, D_acqrel, D_sc };
  mtype_t:  enum { M_NONE, M_GETS, M_FETCH, M_ST, M_ALD, M_ATOM,
                   M_DATA, M_FILL, M_AVAL, M_WACK };

  msg_t: record
    mt:   mtype_t;
    line: line_t;
    tid:  tid_t;       -- GETS ALD ATOM DATA AVAL
    loc:  loc_t;       -- GETS ST ALD ATOM
    val:  val_t;       -- ST ATOM DATA AVAL
    op:   0..2;        -- ATOM
    exp:  val_t;       -- ATOM
    d:    val_t;       -- DATA FILL (a line's data: one location per line here)
  end;

  chan_t: record
    n: 0..CAP;
    m: array [0..CAP-1] of msg_t;
  end;

  l1line_t: record
    st:   lstate_t;
    data: val_t;
  end;

  l1_t: record
    ln:      array [line_t] of l1line_t;
    pending: pend_t;
  end;

  thread_t: record
    pc:   pc_t;
    step: step_t;
    stat: tstat_t;
    r0:   val_t;
  end;

var
  Th:   array [tid_t] of thread_t;
  L1:   array [cu_t] of l1_t;
  L2:   array [line_t] of val_t;     -- L2 line data (memory folded in); its state is always V
  Req:  array [cu_t] of chan_t;      -- network req,  L1[c] -> L2
  Resp: array [cu_t] of chan_t;      -- network resp, L2 -> L1[c]

---------------------------------------------------------------------------------------
-- The litmus program (SB+sc) and the core maps
---------------------------------------------------------------------------------------

function CuOf(t: tid_t): cu_t; begin return t; end;

function IOp(t: tid_t; pc: pc_t): op_t;
begin
  if pc = 0 then return O_ST; else return O_LD; endif;
end;

function IOrd(t: tid_t; pc: pc_t): ord_t; begin return D_sc; end;

-- P0: st x 1 ; ld r0 y      P1: st y 1 ; ld r0 x
function ILoc(t: tid_t; pc: pc_t): loc_t;
begin
  if pc = 0 then return t; else return 1 - t; endif;
end;

function IVal(t: tid_t; pc: pc_t): val_t; begin return 1; end;   -- req.val of the stores

function LineOf(l: loc_t): line_t; begin return l; end;

-- `core L1` maps: number of events and the k-th event of (op, ord)
function NEv(op: op_t; o: ord_t): step_t;
begin
  switch op
  case O_LD:    if o = D_acq | o = D_sc then return 2; else return 1; endif;
  case O_ST:    if o = D_rel | o = D_sc then return 2; else return 1; endif;
  case O_RMW, O_CAS:
                if o = D_acqrel | o = D_sc then return 2 + 1;
                elsif o = D_acq | o = D_rel then return 2;
                else return 1; endif;
  case O_FENCE: if o = D_acqrel | o = D_sc then return 2; else return 1; endif;
  endswitch;
end;

function Ev(op: op_t; o: ord_t; k: step_t): ev_t;
begin
  switch op
  case O_LD:
    if o = D_plain then return E_load; endif;
    if k = 0 then return E_aload; else return E_acq; endif;
  case O_ST:
    if (o = D_rel | o = D_sc) & k = 0 then return E_rel; endif;
    return E_store;
  case O_RMW, O_CAS:
    if o = D_acq then
      if k = 0 then return E_atomic; else return E_acq; endif;
    elsif o = D_rel then
      if k = 0 then return E_rel; else return E_atomic; endif;
    elsif o = D_acqrel | o = D_sc then
      if k = 0 then return E_rel; elsif k = 1 then return E_atomic; else return E_acq; endif;
    else
      return E_atomic;
    endif;
  case O_FENCE:
    if o = D_acq then return E_facq;
    elsif o = D_rel then return E_frel;
    elsif k = 0 then return E_frel;
    else return E_facq; endif;
  endswitch;
end;

function CurEv(t: tid_t): ev_t;
begin
  return Ev(IOp(t, Th[t].pc), IOrd(t, Th[t].pc), Th[t].step);
end;

function IsLineEv(e: ev_t): boolean;
begin
  return e != E_facq & e != E_frel;
end;

---------------------------------------------------------------------------------------
-- Helpers: messages, channels, threads (sys.c: do_send, step_msg, thread_done, advance)
---------------------------------------------------------------------------------------

procedure ClearMsg(var m: msg_t);
begin
  m.mt := M_NONE; m.line := 0; m.tid := 0; m.loc := 0; m.val := 0; m.op := 0; m.exp := 0; m.d := 0;
end;

procedure Push(var ch: chan_t; m: msg_t);
begin
  if ch.n = CAP then error "channel overflow"; endif;
  ch.m[ch.n] := m;
  ch.n := ch.n + 1;
end;

procedure Pop(var ch: chan_t);
begin
  for i: 0..CAP-2 do
    if i + 1 < ch.n then ch.m[i] := ch.m[i + 1]; endif;
  endfor;
  ClearMsg(ch.m[ch.n - 1]);
  ch.n := ch.n - 1;
end;

-- Run local instructions up to the next memory operation (SB+sc has none) or the end.
procedure Advance(t: tid_t);
begin
  Th[t].step := 0;
  if Th[t].pc >= NI then Th[t].stat := T_DONE; else Th[t].stat := T_RUN; endif;
end;

-- `done` of thread T's current event, with value V for its register when HASV.
procedure Done(t: tid_t; hasv: boolean; v: val_t);
begin
  if Th[t].stat = T_DONE then error "done for a thread with no request in flight"; endif;
  if hasv & (IOp(t, Th[t].pc) = O_LD | IOp(t, Th[t].pc) = O_RMW | IOp(t, Th[t].pc) = O_CAS) then
    Th[t].r0 := v;
  endif;
  Th[t].step := Th[t].step + 1;
  Th[t].stat := T_RUN;
  if Th[t].step >= NEv(IOp(t, Th[t].pc), IOrd(t, Th[t].pc)) then
    Th[t].pc := Th[t].pc + 1;
    Advance(t);
  endif;
end;

procedure ForallVtoI(c: cu_t);
begin
  for l: line_t do
    if L1[c].ln[l].st = S_V then L1[c].ln[l].st := S_I; endif;
  endfor;
end;

---------------------------------------------------------------------------------------
-- Core events at the L1: is the first matching row `stall`?
---------------------------------------------------------------------------------------

function CoreStalls(t: tid_t): boolean;
var c: cu_t; s: lstate_t; e: ev_t;
begin
  c := CuOf(t);
  e := CurEv(t);
  if IsLineEv(e) then s := L1[c].ln[LineOf(ILoc(t, Th[t].pc))].st; else s := S_I; endif;
  switch e
  case E_load:   return s = S_IV | s = S_IF;
  case E_store:  return L1[c].pending >= WBUF | s = S_IV | s = S_IF;
  case E_aload:  return false;
  case E_atomic: return s = S_IV | s = S_IF;
  case E_acq:    return false;
  case E_rel:    return L1[c].pending > 0;
  case E_facq:   return false;
  case E_frel:   return L1[c].pending > 0;
  endswitch;
end;

ruleset t: tid_t do
  rule "core event"
    Th[t].stat = T_RUN & !CoreStalls(t)
  ==>
  var c: cu_t; l: line_t; lc: loc_t; e: ev_t; m: msg_t; op: op_t; isdone: boolean;
  begin
    c := CuOf(t);
    e := CurEv(t);
    op := IOp(t, Th[t].pc);
    lc := ILoc(t, Th[t].pc);
    l := LineOf(lc);
    ClearMsg(m);
    m.line := l;
    isdone := false;
    switch e
    case E_load:
      if L1[c].ln[l].st = S_V then
        -- V | load | | done(data[req.loc]) |
        Th[t].r0 := L1[c].ln[l].data;
        isdone := true;
      else
        -- I | load | | send GETS(tid=req.tid, loc=req.loc) to L2; wait | IV
        m.mt := M_GETS; m.tid := t; m.loc := lc;
        Push(Req[c], m);
        Th[t].stat := T_WAIT;
        L1[c].ln[l].st := S_IV;
      endif;
    case E_store:
      -- I | store | | send ST(loc, val) to L2; pending := pending + 1; done |
      -- V | store | | data[req.loc] := req.val; send ST(...) to L2; pending + 1; done |
      if L1[c].ln[l].st = S_V then L1[c].ln[l].data := IVal(t, Th[t].pc); endif;
      m.mt := M_ST; m.loc := lc; m.val := IVal(t, Th[t].pc);
      Push(Req[c], m);
      L1[c].pending := L1[c].pending + 1;
      isdone := true;
    case E_aload:
      -- I, V, IV, IF | aload | | send ALD(tid, loc) to L2; wait |
      m.mt := M_ALD; m.tid := t; m.loc := lc;
      Push(Req[c], m);
      Th[t].stat := T_WAIT;
    case E_atomic:
      -- I | atomic | | send ATOM(...) to L2; wait |     V | ... | I
      -- (this test has no RMW/CAS; op, val and exp would come from the instruction)
      m.mt := M_ATOM; m.tid := t; m.loc := lc; m.op := 0; m.val := IVal(t, Th[t].pc); m.exp := 0;
      Push(Req[c], m);
      Th[t].stat := T_WAIT;
      L1[c].ln[l].st := S_I;
    case E_acq:
      -- V | acq | | forall V -> I; done | I      I, IV, IF | acq | | forall V -> I; done |
      ForallVtoI(c);
      isdone := true;
    case E_rel:
      -- I, V, IV, IF | rel | | done |   (pending > 0 stalls)
      isdone := true;
    case E_facq:
      ForallVtoI(c);
      isdone := true;
    case E_frel:
      isdone := true;
    endswitch;
    if isdone then
      -- step_thread after a `done`: next event, or next instruction (status stays RUN)
      Th[t].step := Th[t].step + 1;
      if Th[t].step >= NEv(op, IOrd(t, Th[t].pc)) then
        Th[t].pc := Th[t].pc + 1;
        Advance(t);
      endif;
    endif;
  end;
end;

---------------------------------------------------------------------------------------
-- The L2 receives the head of Req[c]
---------------------------------------------------------------------------------------

ruleset c: cu_t do
  rule "L2 receives"
    Req[c].n > 0
  ==>
  var h: msg_t; r: msg_t;
  begin
    h := Req[c].m[0];
    Pop(Req[c]);
    ClearMsg(r);
    r.line := h.line;
    switch h.mt
    case M_GETS:
      -- V | GETS | | send DATA(tid=msg.tid, val=data[msg.loc], d=data) to msg.src |
      r.mt := M_DATA; r.tid := h.tid; r.val := L2[LineOf(h.loc)]; r.d := L2[h.line];
      Push(Resp[c], r);
    case M_FETCH:
      -- V | FETCH | | send FILL(d=data) to msg.src |
      r.mt := M_FILL; r.d := L2[h.line];
      Push(Resp[c], r);
    case M_ST:
      -- V | ST | | data[msg.loc] := msg.val; send WACK to msg.src |
      L2[LineOf(h.loc)] := h.val;
      r.mt := M_WACK;
      Push(Resp[c], r);
    case M_ALD:
      -- V | ALD | | send AVAL(tid=msg.tid, val=data[msg.loc]) to msg.src |
      r.mt := M_AVAL; r.tid := h.tid; r.val := L2[LineOf(h.loc)];
      Push(Resp[c], r);
    case M_ATOM:
      -- V | ATOM | | send AVAL(old value); data[msg.loc] := apply(op, old, val, exp) |
      r.mt := M_AVAL; r.tid := h.tid; r.val := L2[LineOf(h.loc)];
      Push(Resp[c], r);
      if h.op = 0 then L2[LineOf(h.loc)] := L2[LineOf(h.loc)] + h.val;
      elsif h.op = 1 then L2[LineOf(h.loc)] := h.val;
      elsif L2[LineOf(h.loc)] = h.exp then L2[LineOf(h.loc)] := h.val;
      endif;
    else
      error "unexpected message at L2";
    endswitch;
  end;
end;

---------------------------------------------------------------------------------------
-- L1[c] receives the head of Resp[c]
---------------------------------------------------------------------------------------

ruleset c: cu_t do
  rule "L1 receives"
    Resp[c].n > 0
  ==>
  var h: msg_t;
  begin
    h := Resp[c].m[0];
    Pop(Resp[c]);
    switch h.mt
    case M_DATA:
      -- IV | DATA | | data := msg.d; done(msg.tid, msg.val) | V    else impossible
      if L1[c].ln[h.line].st != S_IV then error "impossible message DATA"; endif;
      L1[c].ln[h.line].data := h.d;
      Done(h.tid, true, h.val);
      L1[c].ln[h.line].st := S_V;
    case M_FILL:
      -- IF | FILL | | data := msg.d | V    else impossible
      if L1[c].ln[h.line].st != S_IF then error "impossible message FILL"; endif;
      L1[c].ln[h.line].data := h.d;
      L1[c].ln[h.line].st := S_V;
    case M_AVAL:
      -- I, V, IV, IF | AVAL | | done(msg.tid, msg.val) |
      Done(h.tid, true, h.val);
    case M_WACK:
      -- I, V, IV, IF | WACK | | pending := pending - 1 |
      if L1[c].pending = 0 then error "variable pending out of its range"; endif;
      L1[c].pending := L1[c].pending - 1;
    else
      error "unexpected message at L1";
    endswitch;
  end;
end;

---------------------------------------------------------------------------------------
-- Environment actions (--env all): evict and fetch, per L1 instance and line
---------------------------------------------------------------------------------------

ruleset c: cu_t; l: line_t do
  -- V | evict | | data := data | I
  rule "evict"
    L1[c].ln[l].st = S_V
  ==>
  begin
    L1[c].ln[l].st := S_I;
  end;

  -- I | fetch | | send FETCH to L2 | IF
  rule "fetch"
    L1[c].ln[l].st = S_I
  ==>
  var m: msg_t;
  begin
    ClearMsg(m);
    m.mt := M_FETCH; m.line := l;
    Push(Req[c], m);
    L1[c].ln[l].st := S_IF;
  end;
end;

---------------------------------------------------------------------------------------
-- Start states (--init warm): every subset of (L1 instance, line) starts in V
---------------------------------------------------------------------------------------

ruleset w00: boolean; w01: boolean; w10: boolean; w11: boolean do
  startstate "warm subset"
  begin
    for t: tid_t do
      Th[t].pc := 0; Th[t].r0 := 0;
      Advance(t);
    endfor;
    for c: cu_t do
      L1[c].pending := 0;
      for l: line_t do
        L1[c].ln[l].st := S_I;
        L1[c].ln[l].data := 0;          -- `line data: data = initial`
      endfor;
      Req[c].n := 0;
      Resp[c].n := 0;
      for i: 0..CAP-1 do
        ClearMsg(Req[c].m[i]);
        ClearMsg(Resp[c].m[i]);
      endfor;
    endfor;
    for l: line_t do L2[l] := 0; endfor;
    if w00 then L1[0].ln[0].st := S_V; endif;
    if w01 then L1[0].ln[1].st := S_V; endif;
    if w10 then L1[1].ln[0].st := S_V; endif;
    if w11 then L1[1].ln[1].st := S_V; endif;
  end;
end;

---------------------------------------------------------------------------------------
-- The outcome check: terminal states (all threads finished, all channels empty) must
-- show an outcome SB+sc allows under drf (= SC here): not (0:r0 = 0 /\ 1:r0 = 0), and
-- final memory x = 1, y = 1.
---------------------------------------------------------------------------------------

function Terminal(): boolean;
begin
  for t: tid_t do if Th[t].stat != T_DONE then return false; endif; endfor;
  for c: cu_t do if Req[c].n != 0 | Resp[c].n != 0 then return false; endif; endfor;
  return true;
end;

invariant "SB+sc: every terminal outcome is allowed (drf)"
  Terminal() -> (!(Th[0].r0 = 0 & Th[1].r0 = 0) & L2[0] = 1 & L2[1] = 1);
