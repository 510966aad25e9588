"""The data file's [[engine_regs]] tables (tcu_tools.phys.engine_regs: the
flip-flops on each engine's gated clock around its units, and their
energy), which the energy estimate charges every clocked cycle
(model/src/energy.cpp), against hand counts from the RTL and hand
arithmetic from the liberty file.

The int4 engine (rtl/tcu_int4_engine.sv, rtl/tcu_engine_frame.sv) holds
its operands and D whatever its units and stages: A (16 x 64 x 4 bits),
B (64 x 8 x 4), C and the D buffer (16 x 8 x 32 each), 14,336
flip-flops, and little beside them (the descriptor's fields, the
sequencer, the ownership, the carry). Each stage adds a stage of the C
pipe (32 bits a unit) and of the group pipe (the group, first and last,
two mode bits, the 16-bit tag, and its valid bit): at one unit 256 groups,
8 group bits, 32 + 28 + 1 = 61 flip-flops a stage; at four, 64 groups,
128 + 26 + 1 = 155 (hand_count below).
Held inputs leave the registers nothing to do but take the clock, so
their idle figure a flip-flop is the liberty's clocked DFFPOSX1 (0.2012
pJ: tests/phys/test_glue_hand.py) within 2%. With TCU_GLUE_DATAFILE set, that data file is checked
instead (tests/phys/glue_planted.sh plants faults in a copy and must
fail)."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from test_glue_hand import DFFPOSX1

REPO = Path(__file__).resolve().parents[2]
OPERANDS_AND_D = 16 * 64 * 4 + 64 * 8 * 4 + 2 * 16 * 8 * 32  # 14,336


@pytest.fixture(scope="module")
def regs() -> list[dict]:
    path = Path(os.environ.get("TCU_GLUE_DATAFILE", REPO / "spec" / "phys_osu018.toml"))
    return tomllib.loads(path.read_text()).get("engine_regs", [])


def int4(regs, units, stages, sparse=1) -> int:
    for t in regs:
        p = t["params"]
        if (t["top"], p["Units"], p.get("Stages"), p.get("SparseEnable")) == \
                ("tcu_int4_engine", units, stages, sparse):
            return t["flip_flops"]
    pytest.fail(f"no [[engine_regs]] tcu_int4_engine Units={units} Stages={stages}")


def hand_count(units: int, stages: int) -> int:
    """The int4 engine's flip-flops around its units, counted from the RTL."""
    groups = 256 // units                     # K64 slices / units
    group_w = (groups - 1).bit_length()       # $clog2
    fixed = (OPERANDS_AND_D
             + 16 + 5                         # tag_q; sparse, k32, a/b signed, satfinite
             + 1 + 2 * group_w                # the sequencer: busy, group, last group
             + 1                              # own_q
             + (13 if units == 1 else 0))     # the carry of one unit (INT4_DOT_WIDTH)
    per_stage = 32 * units + (group_w + 2 + 2 + 16) + 1  # C pipe, group pipe, its valid
    return fixed + stages * per_stage


@pytest.mark.parametrize("units, stages", [(1, 1), (4, 1), (1, 2), (4, 2)])
def test_the_int4_engine_holds_its_rtl_registers(regs, units, stages):
    # the mapping keeps or drops a flag bit here and there: within 6 of the
    # 14,400 or so
    assert abs(int4(regs, units, stages) - hand_count(units, stages)) <= 6


def test_the_idle_figure_is_the_clocked_flip_flops(regs):
    """Each table's measured idle figure a flip-flop, or where none is (the
    estimate then takes the output skid's [[glue]] figure a flip-flop, a
    register bank of the same cells with its load enable held), that one."""
    measured = [t["idle_pj_per_flip_flop"] for t in regs
                if t.get("idle_pj_per_flip_flop") is not None]
    if not measured:
        path = Path(os.environ.get("TCU_GLUE_DATAFILE", REPO / "spec" / "phys_osu018.toml"))
        skid = next(g for g in tomllib.loads(path.read_text())["glue"]
                    if g["unit"] == "tcu_output_skid")
        measured = [skid["idle_pj_per_cycle"] / skid["flip_flops"]]
    for pj in measured:
        assert pj == pytest.approx(DFFPOSX1, rel=0.02)
