"""The data file's [[engine_regs_toggles]] tables (tcu_tools.phys.engine_regs
toggles), which the energy estimate charges per MAC issued
(model/src/energy.cpp: MACs x toggles per issued MAC x pJ per toggle),
against hand arithmetic from the liberty file (/usr/share/qflow/tech/osu018/
osu018_stdcells.lib, OSU 0.18 um typical, 1.8 V) and a hand count from the
RTL; and the toggle counter against a waveform whose every change is known.

A toggle of an engine register bit: the cell driving its D moves (in the
mapped engines an OAI21X1, the load enable's feedback, for all but a few
dozen of each engine's DFFPOSX1), D's pin takes its internal energy and its
net 1/2 C V^2; at the clock edge Q moves: its internal energy (the arc
related to CLK, at the ideal clock's slew 0 and the Q net's load) and the Q
net's 1/2 C V^2. Each part must equal the hand figure within 2% at the
table's own Q load (q_load_pf, the mean Q net of the mapped engine).

The int4 engine loads A, B and C (4096 + 2048 + 4096 bits) once an
instruction of 8192 MACs (m16n8k64) and fills the D buffer (4096 bits,
cleared and written): with random operands each loaded bit changes with
probability 1/2, and a D bit at most twice, so the toggles per issued MAC
lie between 10240 / 2 / 8192 = 0.625 and (10240 / 2 + 2 x 4096) / 8192 =
1.625. With TCU_GLUE_DATAFILE set, that data file is checked instead
(tests/phys/glue_planted.sh plants faults in a copy and must fail)."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from test_energy_hand import D_FALL, D_RISE, CAP_D, V2, ext, table2
from tcu_tools.phys import engine_regs

REPO = Path(__file__).resolve().parents[2]

# DFFPOSX1 pin Q internal_power related_pin CLK, energy_template_5x6: rows
# load 0.005, 0.0125, 0.025, ...; columns slew 0.06, 0.24, ... (the rows
# around a load of 0.0125 to 0.025 pF).
Q_RISE_ROWS = ((0.0125, 0.025), (0.041217, 0.062027), (0.04099, 0.061849))
Q_FALL_ROWS = ((0.0125, 0.025), (0.063395, 0.075613), (0.060938, 0.076343))
# OAI21X1 pin Y internal_power related_pin A (its first arc),
# energy_template_5x5: rows load 0.005, 0.0125; columns slew 0.06, 0.18.
# Y drives D alone: load CAP_D.
OAI21_FALL = table2(CAP_D, 0.0, 0.005, 0.0125, 0.06, 0.18,
                    (0.018723, 0.014238), (0.018122, 0.014881))   # 0.020341
OAI21_RISE = table2(CAP_D, 0.0, 0.005, 0.0125, 0.06, 0.18,
                    (0.089044, 0.09085), (0.088461, 0.090928))    # 0.087675
OAI21 = (OAI21_RISE + OAI21_FALL) / 2                             # 0.054008
# INVX1 pin Y internal_power related_pin A, energy_template_5x5 (the same
# index).
INVX1 = (table2(CAP_D, 0.0, 0.005, 0.0125, 0.06, 0.18,
                (0.009213, 0.004772), (0.009047, 0.005677))
         + table2(CAP_D, 0.0, 0.005, 0.0125, 0.06, 0.18,
                  (0.023555, 0.029044), (0.023165, 0.028621))) / 2  # 0.015848
# The cells driving D of each engine's DFFPOSX1 on its gated clock, counted
# in the mapped netlists the tables name (the int4 and f16 engines: OAI21X1
# but for 59 and 696; the e2m1 engine's Units=1: 11,152 OAI21X1 and 4,110
# INVX1 of 15,326, its D buffer's pieces through an inverter). The few
# others (AOI21X1, OAI22X1, AND2X2, ...) are taken at the OAI21X1's figure.
INVERTED = {"int4": 19 / 14592, "e2m1": 4110 / 15326, "f16": 185 / 22399}


def q_internal(load: float) -> float:
    (l0, l1), rise0, rise1 = Q_RISE_ROWS
    _, fall0, fall1 = Q_FALL_ROWS
    return (table2(load, 0.0, l0, l1, 0.06, 0.24, rise0, rise1)
            + table2(load, 0.0, l0, l1, 0.06, 0.24, fall0, fall1)) / 2


def hand(load: float, inverted: float = 0.0) -> dict:
    return {"d_driver_internal_pj": (1 - inverted) * OAI21 + inverted * INVX1,
            "d_internal_pj": (D_RISE + D_FALL) / 2,                  # 0.066893
            "d_switching_pj": 0.5 * CAP_D * V2,                      # 0.014304
            "q_internal_pj": q_internal(load),
            "q_switching_pj": 0.5 * load * V2}


@pytest.fixture(scope="module")
def toggles() -> list[dict]:
    path = Path(os.environ.get("TCU_GLUE_DATAFILE", REPO / "spec" / "phys_osu018.toml"))
    return tomllib.loads(path.read_text()).get("engine_regs_toggles", [])


def test_the_hand_figures():
    h = hand(0.018588)  # the int4 engine's mean Q net
    assert h["d_driver_internal_pj"] == pytest.approx(0.054008, abs=1e-6)
    assert INVX1 == pytest.approx(0.015848, abs=1e-6)
    assert h["q_internal_pj"] == pytest.approx(0.045885, abs=1e-6)
    assert sum(h.values()) == pytest.approx(0.211202, abs=1e-6)


def test_every_engine_in_the_tables_once(toggles):
    engines = [t["engine"] for t in toggles]
    assert "int4" in engines and len(engines) == len(set(engines))


@pytest.mark.parametrize("engine", ["int4", "e2m1", "f16"])
def test_a_toggle_costs_its_flip_flop_and_nets(toggles, engine):
    t = next((t for t in toggles if t["engine"] == engine), None)
    if t is None:
        pytest.skip(f"no [[engine_regs_toggles]] table of {engine}")
    assert 0.0125 <= t["q_load_pf"] <= 0.025  # the rows the hand figure reads
    h = hand(t["q_load_pf"], INVERTED[engine])
    for part, pj in h.items():
        assert t[part] == pytest.approx(pj, rel=0.02), part
    assert t["pj_per_toggle"] == pytest.approx(sum(h.values()), rel=0.02)


def test_the_int4_toggles_are_the_instructions_loads(toggles):
    t = next(t for t in toggles if t["engine"] == "int4")
    assert 0.625 <= t["toggles_per_issued_mac"] <= 1.625
    assert t["toggles_per_issued_mac"] == pytest.approx(t["toggles"] / t["issued_macs"], rel=1e-5)


VCD = """$timescale 1ps $end
$scope module top $end
$scope module u_int4 $end
$scope module g_engine $end
$var logic 4 ! a_q [3:0] $end
$var logic 4 " a_i [3:0] $end
$scope module u_frame $end
$var logic 2 # d_o [1:0] $end
$var logic 1 $ own_q $end
$upscope $end
$scope module u_dot $end
$var logic 3 % acc_q [2:0] $end
$upscope $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
b0000 !
b0000 "
b00 #
0$
b000 %
#5
b1011 !
b1111 "
b10 #
1$
b111 %
#9
b1000 !
b0000 "
b01 #
"""


def test_the_counter_counts_the_registers_changes(tmp_path):
    # a_q: 3 then 2 bits; the frame's D: 1 then 2; own_q: 1; the input a_i
    # and the unit's acc_q are not the engine's registers: 9 toggles over
    # 4 + 2 + 1 register bits.
    vcd = tmp_path / "run.vcd"
    vcd.write_text(VCD)
    report = {"activity": {"engines": {"int4": {"busy": 3, "macs": 18}}}}
    got = engine_regs.toggles(vcd, "int4", report)
    assert (got["register_bits"], got["toggles"]) == (7, 9)
    assert got["toggles_per_issued_mac"] == pytest.approx(0.5)


def test_a_run_without_mac_is_refused(tmp_path):
    vcd = tmp_path / "run.vcd"
    vcd.write_text(VCD)
    with pytest.raises(ValueError, match="no int4 busy cycle or MAC"):
        engine_regs.toggles(vcd, "int4", {"activity": {"engines": {"int4": {"busy": 0}}}})
