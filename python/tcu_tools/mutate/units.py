"""Which RTL files are mutated, and the unit each belongs to (the report's
groups). Only the implementations the co-verification runs simulate
(SynthImpl=0): the synthesis implementations are proven equal to them by
tcu-formal, or checked by gate-level simulation. Left out: tcu_pkg.sv
(constants and constant functions), tcu_datapath_checker.sv (assertions),
tcu_activity.sv (the activity counters, which the regression does not
compare: the energy estimate reads them), the chooser modules (no logic)."""
from __future__ import annotations

UNIT_OF_FILE = {
    "tcu_int4_dot_fast.sv": "int4",
    "tcu_int4_accumulate.sv": "int4",
    "tcu_int4_engine.sv": "int4",
    "tcu_sparse_mux.sv": "sparse",
    "tcu_word_mux_fast.sv": "control",
    "tcu_e2m1_dot.sv": "e2m1",
    "tcu_e2m1_group_dots_fast.sv": "e2m1",
    "tcu_e2m1_engine.sv": "e2m1",
    "tcu_f16_dot_fast.sv": "f16",
    "tcu_f16_fast_operands.sv": "f16",
    "tcu_f16_fast_chain.sv": "f16",
    "tcu_f16_fast_unit.sv": "f16",
    "tcu_f16_engine.sv": "f16",
    "tcu_fma_three.sv": "fma",
    "tcu_fma_arith.svh": "fma",
    "tcu_f64_dot.sv": "f64",
    "tcu_f64_engine.sv": "f64",
    "tcu_operand_router.sv": "router",
    "tcu_router_gather_fast.sv": "router",
    "tcu_router_scatter_fast.sv": "router",
    "tcu_router_writeback.sv": "router",
    "tcu_core.sv": "control",
    "tcu_datapath.sv": "control",
    "tcu_datapath_ctrl.sv": "control",
    "tcu_slice_seq.sv": "control",
    "tcu_pipe_reg.sv": "control",
    "tcu_clock_gate.sv": "control",
    "tcu_engine_frame.sv": "control",
    "tcu_output_skid.sv": "skid",
}

UNITS = sorted(set(UNIT_OF_FILE.values()))
