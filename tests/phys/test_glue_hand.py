"""The data file's energies of the parts on the ungated clock ([[glue]]
tables: tcu_output_skid, tcu_datapath_ctrl, tcu_activity), which the energy
estimate (model/src/energy.cpp) charges every cycle, against hand
arithmetic from the liberty file (/usr/share/qflow/tech/osu018/
osu018_stdcells.lib, OSU 0.18 um typical, 1.8 V).

Held inputs leave a register's flip-flops nothing to do but take the clock:
a cycle costs each flip-flop its CLK pin's rise and fall internal energy
(at the ideal clock's slew, 0 ns) and the clock net's charge into its CLK
pin, 1/2 C V^2 at each of the two edges. The skid and the control are
registers of that kind (their mapped netlists: DFFPOSX1 and DFFSR, counts
below), so their idle figure must equal the hand figure within 2%. The
activity counters count every cycle, so theirs must lie above their
flip-flops' clock energy, by less than a counter's carry chain: within
25%. With TCU_GLUE_DATAFILE set, that data file is checked instead
(tests/phys/glue_planted.sh plants a fault in a copy and must fail)."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

V2 = 1.8 ** 2
REPO = Path(__file__).resolve().parents[2]


def ext(x, x0, x1, y0, y1):
    """y at x on the line through (x0, y0) and (x1, y1)."""
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


# DFFPOSX1 pin CLK: capacitance 0.0279235 pF; internal_power,
# passive_energy_template_6x1 (slew 0.06, 0.24, ...): rise_power 0.006865,
# 0.006943; fall_power 0.11034, 0.129769.
DFFPOSX1 = (ext(0.0, 0.06, 0.24, 0.006865, 0.006943)      # 0.006839
            + ext(0.0, 0.06, 0.24, 0.11034, 0.129769)     # 0.103864
            + 2 * 0.5 * 0.0279235 * V2)                   # 0.090472: 0.201175 pJ
# DFFSR pin CLK: capacitance 0.00937511 pF; rise_power 0.041704, 0.046706;
# fall_power 0.123008, 0.130168.
DFFSR = (ext(0.0, 0.06, 0.24, 0.041704, 0.046706)         # 0.040037
         + ext(0.0, 0.06, 0.24, 0.123008, 0.130168)       # 0.120621
         + 2 * 0.5 * 0.00937511 * V2)                     # 0.030375: 0.191033 pJ

# The flip-flops of each mapped netlist (build/phys/<unit>/<unit>.mapped.v:
# grep -c of each cell): the skid at DataW 4096 (4096 D, 16 tag bits in
# DFFPOSX1; its valid bit, reset, in a DFFSR), the control, the counters
# (every bit reset: DFFSR).
CELLS = {"tcu_output_skid": {"DFFPOSX1": 4112, "DFFSR": 1},
         "tcu_datapath_ctrl": {"DFFPOSX1": 16, "DFFSR": 25},
         "tcu_activity": {"DFFSR": 240}}
PJ = {"DFFPOSX1": DFFPOSX1, "DFFSR": DFFSR}


def hand(unit: str) -> float:
    return sum(n * PJ[cell] for cell, n in CELLS[unit].items())


@pytest.fixture(scope="module")
def glue() -> dict:
    path = Path(os.environ.get("TCU_GLUE_DATAFILE", REPO / "spec" / "phys_osu018.toml"))
    tables = tomllib.loads(path.read_text()).get("glue", [])
    return {g["unit"]: g for g in tables}


def test_the_hand_figures():
    assert DFFPOSX1 == pytest.approx(0.201175, abs=1e-6)
    assert DFFSR == pytest.approx(0.191033, abs=1e-6)


@pytest.mark.parametrize("unit", ["tcu_output_skid", "tcu_datapath_ctrl"])
def test_a_register_costs_its_flip_flops_clock(glue, unit):
    g = glue[unit]
    assert g["flip_flops"] == sum(CELLS[unit].values())
    assert g["idle_pj_per_cycle"] == pytest.approx(hand(unit), rel=0.02)


def test_the_counters_cost_their_clock_and_their_counting(glue):
    g = glue["tcu_activity"]
    assert g["flip_flops"] == sum(CELLS["tcu_activity"].values())
    assert hand("tcu_activity") < g["idle_pj_per_cycle"] < 1.25 * hand("tcu_activity")
