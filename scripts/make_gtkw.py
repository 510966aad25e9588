#!/usr/bin/env python3
"""Writes the GTKWave save files in tb/gtkwave/, one per instruction family:
the handshakes (start, router to datapath, D, write-back), the router's
register-word ports (lane-order words in, D words out), the operand
register, the slice sequencer and the family's engine (issue, unit valids,
results), D, and the engine's activity counters. The word ports' widths are
the default configuration's (WordsPerCycle = DWordsPerCycle = 64)."""
from pathlib import Path

TOP = "TOP.tcu_sim_top"  # the Verilated model's root, then the Verilog top
DP = f"{TOP}.u_core.u_datapath"
WORDS = 64  # WordsPerCycle of the default configuration
D_WORDS = 64  # its DWordsPerCycle
# Per family: the engine's instance, its operand register and D buffer
# widths (A, B, C, D), its pipeline signals, and its activity counters' name.
# An engine's logic sits in its module's generate block (u_<engine>.g_engine,
# there when the engine is enabled), the part every engine shares in its
# tcu_engine_frame (g_engine.u_frame); its D buffer is the module's d_o.
ENGINES = {
    "int4": ("int4", (4096, 2048, 4096, 4096),
             ["arrive_group[2:0]", "arrive_first", "arrive_last", "arrive_k64", "unit_valid[31:0]",
              "unit_sum[447:0]", "c_arrived[1023:0]", "unit_d[1023:0]"], "int4"),
    "int4_sparse": ("int4", (4096, 2048, 4096, 4096),
                    ["arrive_group[2:0]", "arrive_first", "arrive_last", "unit_valid[31:0]",
                     "g_sparse_path.sparse_group_q[2:0]", "g_sparse_path.meta_q[511:0]",
                     "unit_sum[447:0]", "unit_d[1023:0]"], "int4"),
    "f16": ("f16", (2048, 2048, 8192, 8192),
            ["arrive_group[1:0]", "arrive_first", "arrive_last", "arrive_d_f16", "unit_valid[63:0]",
             "unit_d[2047:0]"], "f16"),
    "f64": ("f64", (2048, 2048, 4096, 4096),
            ["arrive_group[3:0]", "arrive_first", "arrive_last", "rnd_q[1:0]", "unit_valid[3:0]",
             "unit_d[255:0]"], "f64"),
    "e2m1": ("e2m1", (4096, 2048, 4096, 4096),
             ["arrive_group[2:0]", "arrive_first", "arrive_last", "scale_4x_q", "scale_a_q[511:0]",
              "scale_b_q[255:0]", "unit_valid[15:0]", "unit_d[511:0]"], "e2m1"),
}
# Group widths of the default configuration (its groups per instruction).
GROUP_BITS = {"int4": 3, "f16": 2, "f64": 4, "e2m1": 3}


def engine_signal(engine, name):
    return f"{DP}.u_{engine}.g_engine.{name}"


BIT, HEX = "@28", "@22"


def signal(path):
    return (HEX if "[" in path else BIT, path)


def group(name, paths):
    lines = ["@800200", f"-{name}"]
    for fmt, path in map(signal, paths):
        lines += [fmt, path]
    return lines + ["@1000200", f"-{name}"]


def main():
    out = Path(__file__).resolve().parent.parent / "tb" / "gtkwave"
    out.mkdir(parents=True, exist_ok=True)
    for family, (p, (aw, bw, cw, dw), engine, counters) in ENGINES.items():
        lines = [f"[*] GTKWave save file for the {family} family; written by scripts/make_gtkw.py",
                 "[timestart] 0", "[size] 1600 900", "[sst_width] 260", "[signals_width] 300",
                 "[sst_expanded] 1", "*-14.0 0 -1"]
        lines += group("handshakes", [
            f"{TOP}.clk_i", f"{TOP}.rst_ni", f"{TOP}.in_start_i", f"{TOP}.in_start_ready_o",
            f"{TOP}.in_family_i[2:0]", f"{TOP}.in_tag_i[15:0]", f"{TOP}.in_last_i",
            f"{TOP}.obs_dp_valid_o", f"{TOP}.obs_dp_ready_o", f"{TOP}.obs_dp_tag_o[15:0]",
            f"{TOP}.obs_d_valid_o", f"{TOP}.obs_d_ready_o", f"{TOP}.obs_d_tag_o[15:0]",
            f"{TOP}.wb_valid_o", f"{TOP}.wb_ready_i", f"{TOP}.wb_last_o", f"{TOP}.wb_tag_o[15:0]"])
        lines += group("register words (lane order)", [
            f"{TOP}.in_word_valid_i[{WORDS - 1}:0]", f"{TOP}.in_word_op_i[{3 * WORDS - 1}:0]",
            f"{TOP}.in_word_lane_i[{5 * WORDS - 1}:0]", f"{TOP}.in_word_reg_i[{3 * WORDS - 1}:0]",
            f"{TOP}.in_word_data_i[{32 * WORDS - 1}:0]",
            f"{TOP}.wb_word_valid_o[{D_WORDS - 1}:0]", f"{TOP}.wb_word_lane_o[{5 * D_WORDS - 1}:0]",
            f"{TOP}.wb_word_reg_o[{3 * D_WORDS - 1}:0]", f"{TOP}.wb_word_data_o[{32 * D_WORDS - 1}:0]"])
        lines += group(f"{family} operand register",
                       [f"{DP}.u_ctrl.accept"] + [engine_signal(p, s) for s in
                                                  ("tag_q[15:0]", f"a_q[{aw - 1}:0]",
                                                   f"b_q[{bw - 1}:0]", f"c_q[{cw - 1}:0]")])
        group_bits = GROUP_BITS[p]
        lines += group(f"{family} slice sequencer",
                       [engine_signal(p, "seq_busy"), engine_signal(p, f"group_q[{group_bits - 1}:0]"),
                        engine_signal(p, "issue"), f"{DP}.pipe_en", f"{DP}.u_ctrl.in_flight_q[4:0]",
                        f"{DP}.u_ctrl.drained", f"{DP}.engine_clk_en[3:0]"])
        lines += group(f"{family} engine (pipeline, accumulators)",
                       [engine_signal(p, s) for s in engine])
        lines += group("D", [engine_signal(p, "u_frame.own_q"), f"{DP}.{p}_d[{dw - 1}:0]",
                             f"{DP}.pipe_valid", f"{DP}.skid_full", f"{DP}.out_d_o[8191:0]"])
        lines += group(f"{counters} activity counters",
                       [f"{TOP}.act_cycles_o[47:0]"] +
                       [f"{TOP}.act_{counters}_{k}_o[47:0]"
                        for k in ("busy", "idle", "stalled", "gated", "macs")])
        (out / f"{family}.gtkw").write_text("\n".join(lines) + "\n")
        print(out / f"{family}.gtkw")


if __name__ == "__main__":
    main()
