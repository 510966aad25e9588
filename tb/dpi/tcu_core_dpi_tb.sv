// A SystemVerilog testbench of rtl/tcu_core.sv with the golden model as its
// scoreboard over DPI-C (tcu_golden_dpi_pkg): random instructions of every
// variant the C API lists (tcu list's spellings), with random operands
// (valid sparse metadata, legal selectors) and random back-pressure on the
// write-back; each instruction's register words go in as a front-end sends
// them (docs/architecture.md "Operand routing network": the start beat with
// the descriptor, held until in_start_ready_o, then a beat a cycle, the last
// one flagged; words in any order, any number a beat, an empty last beat
// allowed), every D word written back is collected and every D register is
// compared with the golden model's. Prints per-variant pass counts; any
// mismatch or protocol error ends the run with a non-zero exit status.
//
// Plusargs: +count=N instructions per variant (default 4), +seed=S (1),
// +backpressure=P percent of write-back cycles with wb_ready_i low (30).
// Built by Verilator --binary --timing (tests/capi/dpi.cmake).
module tcu_core_dpi_tb;
  import tcu_golden_dpi_pkg::*;

  // tcu_core's parameters (set with -G: tests/capi/dpi.cmake gives the spec's
  // configuration dpi; defaults: tcu_core's).
  parameter int unsigned Int4MacsPerCycle = tcu_pkg::Int4MacsPerCycle;
  parameter int unsigned E2m1MacsPerCycle = tcu_pkg::E2m1MacsPerCycle;
  parameter int unsigned F16FmasPerCycle  = tcu_pkg::F16FmasPerCycle;
  parameter int unsigned F64FmasPerCycle  = tcu_pkg::F64FmasPerCycle;
  parameter int unsigned IntStages        = tcu_pkg::IntStages;
  parameter int unsigned E2m1Stages       = tcu_pkg::E2m1Stages;
  parameter int unsigned FmaStages        = tcu_pkg::FmaStages;
  parameter bit          Int4Enable       = tcu_pkg::Int4Enable;
  parameter bit          SparseEnable     = tcu_pkg::SparseEnable;
  parameter bit          E2m1Enable       = tcu_pkg::E2m1Enable;
  parameter bit          F16Enable        = tcu_pkg::F16Enable;
  parameter bit          F64Enable        = tcu_pkg::F64Enable;
  parameter int unsigned WordsPerCycle    = tcu_pkg::WordsPerCycle;
  parameter int unsigned DWordsPerCycle   = tcu_pkg::DWordsPerCycle;
  parameter bit          GatherBypass     = tcu_pkg::GatherBypass;
  parameter bit          SynthImpl        = tcu_pkg::SynthImpl;

  localparam int unsigned W  = WordsPerCycle;
  localparam int unsigned DW = DWordsPerCycle;
  localparam int unsigned MAX_VARIANTS = 64;
  localparam int unsigned WATCHDOG_CYCLES = 20000;

  typedef struct packed {
    logic [2:0]  op;
    logic [4:0]  lane;
    logic [2:0]  index;  // register word within the lane's fragment
    logic [31:0] data;
  } word_t;

  // One instruction: its descriptor, its register words in the order sent,
  // the beats, the golden model's warp (expected D) and the D collected.
  class txn_c;
    int unsigned number;
    int          variant;
    chandle      warp;
    logic [15:0] tag;
    logic [2:0]  family;
    logic        a_signed, b_signed, satfinite, k32, a_row, b_row, c_f16, d_f16, scale_4x;
    logic [1:0]  rnd;
    logic        sparsity, thread_id_a;
    logic [1:0]  byte_id_a, byte_id_b, thread_id_b;
    word_t       words[$];
    int          beat_end[$];  // one past each beat's last word
    int          d_regs, d_words_per_reg;
    logic [31:0] d_words[];    // [index * 32 + lane]
    bit          d_seen[];
  endclass

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk = ~clk;

  // ---- the core -------------------------------------------------------------
  logic                in_start, in_start_ready;
  logic [2:0]          in_family;
  logic                in_a_signed, in_b_signed, in_satfinite, in_k32, in_a_row, in_b_row;
  logic                in_c_f16, in_d_f16, in_scale_4x, in_sparsity, in_thread_id_a;
  logic [1:0]          in_rnd, in_byte_id_a, in_byte_id_b, in_thread_id_b;
  logic [15:0]         in_tag;
  logic [W-1:0]        in_word_valid;
  logic [3*W-1:0]      in_word_op, in_word_reg;
  logic [5*W-1:0]      in_word_lane;
  logic [32*W-1:0]     in_word_data;
  logic                in_last;
  logic                wb_valid, wb_ready, wb_last;
  logic [15:0]         wb_tag;
  logic [DW-1:0]       wb_word_valid;
  logic [5*DW-1:0]     wb_word_lane;
  logic [3*DW-1:0]     wb_word_reg;
  logic [32*DW-1:0]    wb_word_data;

  tcu_core #(
    .Int4MacsPerCycle(Int4MacsPerCycle), .E2m1MacsPerCycle(E2m1MacsPerCycle),
    .F16FmasPerCycle(F16FmasPerCycle), .F64FmasPerCycle(F64FmasPerCycle),
    .IntStages(IntStages), .E2m1Stages(E2m1Stages), .FmaStages(FmaStages),
    .Int4Enable(Int4Enable), .SparseEnable(SparseEnable), .E2m1Enable(E2m1Enable),
    .F16Enable(F16Enable), .F64Enable(F64Enable),
    .WordsPerCycle(WordsPerCycle), .DWordsPerCycle(DWordsPerCycle),
    .GatherBypass(GatherBypass),
    .SynthImpl(SynthImpl)
  ) u_core (
    .clk_i(clk), .rst_ni(rst_n),
    .in_start_i(in_start), .in_start_ready_o(in_start_ready),
    .in_family_i(in_family), .in_a_signed_i(in_a_signed), .in_b_signed_i(in_b_signed),
    .in_satfinite_i(in_satfinite), .in_k32_i(in_k32), .in_rnd_i(in_rnd),
    .in_a_row_i(in_a_row), .in_b_row_i(in_b_row), .in_c_f16_i(in_c_f16),
    .in_d_f16_i(in_d_f16), .in_scale_4x_i(in_scale_4x), .in_sparsity_i(in_sparsity),
    .in_byte_id_a_i(in_byte_id_a), .in_thread_id_a_i(in_thread_id_a),
    .in_byte_id_b_i(in_byte_id_b), .in_thread_id_b_i(in_thread_id_b), .in_tag_i(in_tag),
    .in_word_valid_i(in_word_valid), .in_word_op_i(in_word_op), .in_word_lane_i(in_word_lane),
    .in_word_reg_i(in_word_reg), .in_word_data_i(in_word_data), .in_last_i(in_last),
    .wb_valid_o(wb_valid), .wb_ready_i(wb_ready), .wb_last_o(wb_last), .wb_tag_o(wb_tag),
    .wb_word_valid_o(wb_word_valid), .wb_word_lane_o(wb_word_lane),
    .wb_word_reg_o(wb_word_reg), .wb_word_data_o(wb_word_data),
    .act_cycles_o(), .act_int4_busy_o(), .act_int4_idle_o(), .act_int4_stalled_o(),
    .act_int4_gated_o(), .act_int4_macs_o(), .act_e2m1_busy_o(), .act_e2m1_idle_o(),
    .act_e2m1_stalled_o(), .act_e2m1_gated_o(), .act_e2m1_macs_o(), .act_f16_busy_o(),
    .act_f16_idle_o(), .act_f16_stalled_o(), .act_f16_gated_o(), .act_f16_macs_o(),
    .act_f64_busy_o(), .act_f64_idle_o(), .act_f64_stalled_o(), .act_f64_gated_o(),
    .act_f64_macs_o()
  );

  // Whether the core was built with the engine of a family.
  function automatic bit family_enabled(int family);
    case (family)
      TCU_FAMILY_INT4_DENSE:  return Int4Enable;
      TCU_FAMILY_INT4_SPARSE: return Int4Enable && SparseEnable;
      TCU_FAMILY_F16:         return F16Enable;
      TCU_FAMILY_F64:         return F64Enable;
      TCU_FAMILY_E2M1:        return E2m1Enable;
      default:                return 1'b0;
    endcase
  endfunction

  // ---- random numbers (xorshift64*, seeded by +seed) ---------------------------
  longint unsigned rng_state = 64'h9e3779b97f4a7c15;
  function automatic int unsigned urand();
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return 32'((rng_state * 64'h2545f4914f6cdd1d) >> 32);
  endfunction
  function automatic int unsigned below(int unsigned n);
    return urand() % n;
  endfunction

  // ---- the variants ----------------------------------------------------------
  int     variant_count;
  chandle instrs[MAX_VARIANTS];
  string  spellings[MAX_VARIANTS];
  int     passed[MAX_VARIANTS], failed[MAX_VARIANTS];
  bit     in_core[MAX_VARIANTS];  // the variant's engine is in the core

  // A register of `op` for the golden model: raw bits, or (`moderate`, half
  // the instructions) floating-point elements and scales of moderate
  // magnitude, so that the arithmetic is exercised beyond NaN and Inf.
  // c_f32: C holds f32 elements (else f16 or integers).
  function automatic longint unsigned random_register(int family, int op, int bits,
                                                      bit moderate, int ordered, bit c_f32);
    longint unsigned value = {urand(), urand()};
    if (bits == 32) value = value & 64'hffff_ffff;
    if (op == TCU_OPERAND_META) begin
      value = 0;
      for (int n = 0; n < 8; ++n) begin
        int unsigned nibble;
        do nibble = below(16); while (tcu_sparse_nibble_legal(nibble, ordered) == 0);
        value |= longint'(nibble) << (4 * n);
      end
    end else if (moderate) begin
      if (op == TCU_OPERAND_SCALE_A || op == TCU_OPERAND_SCALE_B)
        for (int n = 0; n < 4; ++n) value[8*n +: 8] = 8'(120 + below(14)) & 8'h7f;
      else if (family == TCU_FAMILY_F64)
        value[62:52] = 11'(1020 + below(8));
      else if (op == TCU_OPERAND_C && c_f32)
        value[30:23] = 8'(122 + below(10));
      else if (family == TCU_FAMILY_F16)
        for (int n = 0; n < 2; ++n) value[16*n+10 +: 5] = 5'(12 + below(7));
    end
    return value;
  endfunction

  function automatic txn_c make_txn(int unsigned number, int variant);
    txn_c   t = new;
    chandle instr = instrs[variant];
    int     family = tcu_instr_field(instr, TCU_FIELD_FAMILY);
    int     scale_vec = tcu_instr_field(instr, TCU_FIELD_SCALE_VEC);
    int     ordered = tcu_instr_field(instr, TCU_FIELD_ORDERED_METADATA);
    bit     moderate = below(2) == 0;
    int     sel[5] = '{0, 0, 0, 0, 0};
    bit     c_f32 = family == TCU_FAMILY_E2M1 ||
                    (family == TCU_FAMILY_F16 && tcu_instr_field(instr, TCU_FIELD_C_TYPE) == TCU_TYPE_F32);
    t.number = number;
    t.variant = variant;
    t.tag = 16'(number);
    tcu_check(tcu_warp_create(instr, t.warp), "tcu_warp_create");
    t.family = 3'(family);
    t.a_signed = tcu_instr_field(instr, TCU_FIELD_A_TYPE) == TCU_TYPE_S4;
    t.b_signed = tcu_instr_field(instr, TCU_FIELD_B_TYPE) == TCU_TYPE_S4;
    t.satfinite = tcu_instr_field(instr, TCU_FIELD_SATFINITE) != 0;
    t.k32 = tcu_instr_field(instr, TCU_FIELD_K) == 32;
    t.rnd = 2'(tcu_instr_field(instr, TCU_FIELD_ROUNDING));
    t.a_row = tcu_instr_field(instr, TCU_FIELD_A_ROW) != 0;
    t.b_row = tcu_instr_field(instr, TCU_FIELD_B_ROW) != 0;
    t.c_f16 = tcu_instr_field(instr, TCU_FIELD_C_TYPE) == TCU_TYPE_F16;
    t.d_f16 = tcu_instr_field(instr, TCU_FIELD_D_TYPE) == TCU_TYPE_F16;
    t.scale_4x = scale_vec == 4;
    // Selectors: sparsity, byte_id_a, thread_id_a, byte_id_b, thread_id_b.
    if (family == TCU_FAMILY_INT4_SPARSE) sel[0] = int'(below(2));
    if (family == TCU_FAMILY_E2M1) begin
      sel[1] = scale_vec == 4 ? 0 : 2 * int'(below(2));
      sel[2] = int'(below(2));
      sel[3] = scale_vec == 4 ? 0 : 2 * int'(below(2));
      sel[4] = int'(below(4));
    end
    t.sparsity = sel[0][0];
    t.byte_id_a = sel[1][1:0];
    t.thread_id_a = sel[2][0];
    t.byte_id_b = sel[3][1:0];
    t.thread_id_b = sel[4][1:0];
    tcu_check(tcu_warp_set_selectors(t.warp, sel[0], sel[1], sel[2], sel[3], sel[4]),
              "tcu_warp_set_selectors");
    for (int op = TCU_OPERAND_A; op <= TCU_OPERAND_SCALE_B; ++op) begin
      int regs, bits;
      if (op == TCU_OPERAND_D) continue;
      regs = tcu_operand_regs(instr, op);
      bits = tcu_operand_reg_bits(instr, op);
      for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < regs; ++r) begin
          longint unsigned value = random_register(family, op, bits, moderate, ordered, c_f32);
          tcu_check(tcu_warp_set_reg(t.warp, op, lane, r, value), "tcu_warp_set_reg");
          for (int half = 0; half < bits / 32; ++half) begin
            word_t w;
            w.op = 3'(op);
            w.lane = 5'(lane);
            w.index = 3'(r * bits / 32 + half);
            w.data = value[32*half +: 32];
            t.words.push_back(w);
          end
        end
    end
    tcu_check(tcu_warp_execute(t.warp), $sformatf("tcu_warp_execute (%s)", spellings[variant]));
    // Words in a random order, a random number a beat (full beats mostly),
    // sometimes an empty last beat.
    for (int i = t.words.size() - 1; i > 0; --i) begin
      int    j = int'(below(i + 1));
      word_t w = t.words[i];
      t.words[i] = t.words[j];
      t.words[j] = w;
    end
    for (int i = 0; i < t.words.size(); ) begin
      i += below(4) == 0 ? 1 + int'(below(W)) : int'(W);
      if (i > t.words.size()) i = t.words.size();
      t.beat_end.push_back(i);
    end
    if (below(8) == 0) t.beat_end.push_back(t.words.size());
    t.d_regs = tcu_operand_regs(instr, TCU_OPERAND_D);
    t.d_words_per_reg = tcu_operand_reg_bits(instr, TCU_OPERAND_D) / 32;
    t.d_words = new[32 * t.d_regs * t.d_words_per_reg];
    t.d_seen = new[32 * t.d_regs * t.d_words_per_reg];
    return t;
  endfunction

  // ---- driver: the instructions' beats ------------------------------------------
  txn_c    pending[$];  // generated, not started
  txn_c    issued[$];   // every beat sent, D not yet written back
  txn_c    cur;
  int      beat;
  bit      offered;
  int      errors;
  longint  progress_cycle, cycle;

  task automatic drive_beat();
    logic [W-1:0]    valid = '0;
    logic [3*W-1:0]  ops = {W{3'(urand())}};
    logic [5*W-1:0]  lanes = {W{5'(urand())}};
    logic [3*W-1:0]  regs = {W{3'(urand())}};
    logic [32*W-1:0] data = {W{urand()}};
    logic            start = offered && beat == 0;
    // The descriptor matters only with the start: junk otherwise.
    if (start) begin
      in_family <= cur.family;
      in_a_signed <= cur.a_signed;
      in_b_signed <= cur.b_signed;
      in_satfinite <= cur.satfinite;
      in_k32 <= cur.k32;
      in_rnd <= cur.rnd;
      in_a_row <= cur.a_row;
      in_b_row <= cur.b_row;
      in_c_f16 <= cur.c_f16;
      in_d_f16 <= cur.d_f16;
      in_scale_4x <= cur.scale_4x;
      in_sparsity <= cur.sparsity;
      in_byte_id_a <= cur.byte_id_a;
      in_thread_id_a <= cur.thread_id_a;
      in_byte_id_b <= cur.byte_id_b;
      in_thread_id_b <= cur.thread_id_b;
      in_tag <= cur.tag;
    end else begin
      in_family <= 3'(urand());
      in_a_signed <= urand() % 2 == 0;
      in_b_signed <= urand() % 2 == 0;
      in_satfinite <= urand() % 2 == 0;
      in_k32 <= urand() % 2 == 0;
      in_rnd <= 2'(urand());
      in_a_row <= urand() % 2 == 0;
      in_b_row <= urand() % 2 == 0;
      in_c_f16 <= urand() % 2 == 0;
      in_d_f16 <= urand() % 2 == 0;
      in_scale_4x <= urand() % 2 == 0;
      in_sparsity <= urand() % 2 == 0;
      in_byte_id_a <= 2'(urand());
      in_thread_id_a <= urand() % 2 == 0;
      in_byte_id_b <= 2'(urand());
      in_thread_id_b <= 2'(urand());
      in_tag <= 16'(urand());
    end
    in_start     <= start;
    in_last      <= 1'b0;
    if (offered) begin
      int first = beat == 0 ? 0 : cur.beat_end[beat - 1];
      in_last <= beat + 1 == cur.beat_end.size();
      for (int s = 0; s < cur.beat_end[beat] - first; ++s) begin
        word_t w = cur.words[first + s];
        valid[s] = 1'b1;
        ops[3*s +: 3] = w.op;
        lanes[5*s +: 5] = w.lane;
        regs[3*s +: 3] = w.index;
        data[32*s +: 32] = w.data;
      end
    end
    in_word_valid <= valid;
    in_word_op <= ops;
    in_word_lane <= lanes;
    in_word_reg <= regs;
    in_word_data <= data;
  endtask

  always @(posedge clk) begin
    if (rst_n) begin
      ++cycle;
      // The beat of the cycle that ends here: taken unless it is a start that
      // the router did not take.
      if (offered && (beat > 0 || in_start_ready)) begin
        ++beat;
        if (beat == cur.beat_end.size()) begin
          issued.push_back(cur);
          cur = null;
        end
      end
      if (cur == null && pending.size() > 0) begin
        cur = pending.pop_front();
        beat = 0;
        progress_cycle = cycle;
      end
      offered = cur != null;
      drive_beat();
    end
  end

  // ---- monitor and scoreboard: the write-back ----------------------------------
  txn_c         wb_cur;
  int unsigned  bp_percent = 30;
  int           done;

  function automatic void check_d(txn_c t);
    int bad = 0;
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < t.d_regs; ++r) begin
        longint unsigned want, have = 0;
        tcu_check(tcu_warp_get_d(t.warp, lane, r, want), "tcu_warp_get_d");
        for (int half = 0; half < t.d_words_per_reg; ++half) begin
          int i = (r * t.d_words_per_reg + half) * 32 + lane;
          if (!t.d_seen[i]) begin
            if (bad < 3)
              $display("ERROR: %s instruction %0d: lane %0d D word %0d never written back",
                       spellings[t.variant], t.number, lane, r * t.d_words_per_reg + half);
            ++bad;
          end
          have[32*half +: 32] = t.d_words[i];
        end
        if (have != want) begin
          if (bad < 3)
            $display("ERROR: mismatch: %s instruction %0d lane %0d d[%0d]: expected 0x%0h, got 0x%0h",
                     spellings[t.variant], t.number, lane, r, want, have);
          ++bad;
        end
      end
    if (bad == 0) ++passed[t.variant];
    else ++failed[t.variant];
    tcu_warp_free(t.warp);
    ++done;
    progress_cycle = cycle;
  endfunction

  always @(posedge clk) begin
    if (rst_n) begin
      if (wb_valid && wb_ready) begin
        if (wb_cur == null) begin
          if (issued.size() == 0) begin
            $display("ERROR: a write-back beat (tag %0d) with no instruction in flight", wb_tag);
            ++errors;
          end else wb_cur = issued.pop_front();
        end
        if (wb_cur != null) begin
          if (wb_tag != wb_cur.tag) begin
            $display("ERROR: write-back tag %0d, expected %0d (issue order)", wb_tag, wb_cur.tag);
            ++errors;
          end
          for (int s = 0; s < DW; ++s)
            if (wb_word_valid[s]) begin
              int lane = int'(wb_word_lane[5*s +: 5]), index = int'(wb_word_reg[3*s +: 3]);
              int i = index * 32 + lane;
              if (i >= wb_cur.d_words.size() || wb_cur.d_seen[i]) begin
                $display("ERROR: %s instruction %0d: D word lane %0d register word %0d %s",
                         spellings[wb_cur.variant], wb_cur.number, lane, index,
                         i >= wb_cur.d_words.size() ? "outside D" : "written twice");
                ++errors;
              end else begin
                wb_cur.d_words[i] = wb_word_data[32*s +: 32];
                wb_cur.d_seen[i] = 1'b1;
              end
            end
          if (wb_last) begin
            check_d(wb_cur);
            wb_cur = null;
          end
        end
      end
      wb_ready <= below(100) >= bp_percent;
    end
  end

  // ---- the run ------------------------------------------------------------------
  initial begin
    int unsigned count = 4, seed = 1, total = 0, total_failed = 0;
    txn_c        order[$];
    if ($value$plusargs("count=%d", count)) ;
    if ($value$plusargs("seed=%d", seed)) ;
    if ($value$plusargs("backpressure=%d", bp_percent)) ;
    rng_state ^= 64'(seed) * 64'hbf58476d1ce4e5b9;
    void'(urand());
    in_start = 1'b0;
    in_last = 1'b0;
    in_word_valid = '0;
    wb_ready = 1'b0;
    variant_count = tcu_variant_count();
    if (variant_count > MAX_VARIANTS) $fatal(1, "more than %0d variants", MAX_VARIANTS);
    $display("tcu_core_dpi_tb: golden model %s over DPI-C, %0d variants x %0d instructions",
             tcu_golden_version(), variant_count, count);
    $display("  seed %0d, back-pressure %0d%%, WordsPerCycle %0d, DWordsPerCycle %0d", seed,
             bp_percent, W, DW);
    for (int v = 0; v < variant_count; ++v) begin
      spellings[v] = tcu_variant_ptx(v);
      tcu_check(tcu_instr_parse(spellings[v], instrs[v]), spellings[v]);
      in_core[v] = family_enabled(tcu_instr_field(instrs[v], TCU_FIELD_FAMILY));
    end
    // count instructions of every variant, in a random order.
    for (int n = 0; n < count; ++n)
      for (int v = 0; v < variant_count; ++v)
        if (in_core[v]) order.push_back(make_txn(0, v));
    for (int i = order.size() - 1; i > 0; --i) begin
      int   j = int'(below(i + 1));
      txn_c t = order[i];
      order[i] = order[j];
      order[j] = t;
    end
    foreach (order[i]) begin
      order[i].number = i;
      order[i].tag = 16'(i);
      pending.push_back(order[i]);
    end
    total = order.size();
    repeat (3) @(posedge clk);
    rst_n = 1'b1;
    while (done < total) begin
      @(posedge clk);
      if (cycle - progress_cycle > longint'(WATCHDOG_CYCLES)) begin
        $display("ERROR: no progress for %0d cycles (%0d of %0d instructions written back)",
                 WATCHDOG_CYCLES, done, total);
        ++errors;
        break;
      end
    end
    for (int v = 0; v < variant_count; ++v) begin
      if (in_core[v])
        $display("  %s: %0d passed%s", spellings[v], passed[v],
                 failed[v] != 0 ? $sformatf(", %0d FAILED", failed[v]) : "");
      else $display("  %s: not in this core (engine disabled)", spellings[v]);
      total_failed += failed[v];
    end
    $display("tcu_core_dpi_tb: %0d passed, %0d failed, %0d protocol errors, %0d cycles",
             done - total_failed, total_failed, errors, cycle);
    for (int v = 0; v < variant_count; ++v) tcu_instr_free(instrs[v]);
    if (total_failed != 0 || errors != 0 || done != total) $fatal(1, "tcu_core_dpi_tb: FAILED");
    $finish;
  end
endmodule
