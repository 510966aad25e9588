"""The engine-glue measurement (tcu_tools.phys.engine_glue): an engine
simulated linked with its units' netlists, the engine's own cells charged
alone, and the data file's [[engine_glue]] table against the liberty by
hand (/usr/share/qflow/tech/osu018/osu018_stdcells.lib, 1.8 V).

A toy engine, a DFFPOSX1 whose D a unit drives (the unit an INVX1 of a
port that toggles every cycle), charged as engine_glue charges it, must
cost exactly what the same cells mapped flat cost less the unit's own
part: the INVX1's output internal energy per toggle (the mean of its A->Y
rise and fall tables at the port's slew, 0, and its load, the DFFPOSX1's D
pin) and the port net's charge into its A pin (1/2 C V^2 a toggle).

The f16 and f64 engines' flip-flops, in their [[engine_glue]] and
[[engine_regs]] tables (each counted on a mapped netlist), against a count
from the RTL (float_hand_count)."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from tcu_tools.phys import energy, engine_glue, library, liberty_power

REPO = Path(__file__).resolve().parents[2]
V2 = 1.8 ** 2
ENGINE = """module toy_engine(clk_i, d_i, q_o);
  input clk_i;
  input d_i;
  output q_o;
  wire n1;
  DFFPOSX1 _1_ (.CLK(clk_i), .D(n1), .Q(q_o));
  {unit}
endmodule
"""
UNIT = "module toy_unit(a, y);\n  input a;\n  output y;\n  INVX1 _1_ (.A(a), .Y(y));\nendmodule\n"


def rows(cycles: int) -> list[list[int]]:
    return [[0]] * 2 + [[c % 2] for c in range(cycles)]


def test_the_units_cells_are_left_out(tmp_path):
    own = tmp_path / "own.v"
    own.write_text(ENGINE.format(unit="toy_unit u_dot (.a(d_i), .y(n1));"))
    linked = tmp_path / "linked.v"
    linked.write_text(own.read_text() + UNIT)
    flat = tmp_path / "flat.v"
    flat.write_text(ENGINE.format(unit="INVX1 _2_ (.A(d_i), .Y(n1));"))
    cycles = 20
    model = engine_glue.own_model(own, linked, "toy_engine", {"toy_unit"}, tmp_path / "g")
    assert set(model.net.cells) == {"_1_"}
    vcd = engine_glue.simulate(own, linked, "toy_engine", tmp_path / "g", rows(cycles), "toy")
    got = engine_glue.charge(model, vcd, "toy_engine", 4, 2 * (cycles + 2))
    stream = rows(cycles)
    # the port's changes in the counted cycles (the rows after the reset's two)
    toggles = sum(stream[r] != stream[r - 1] for r in range(2, cycles + 2)) / cycles
    assert toggles == pytest.approx(0.95)
    assert got["q_toggles"] == pytest.approx(toggles, abs=0.051)  # Q follows !d_i
    (tmp_path / "f").mkdir()
    whole = energy.run(flat, "toy_engine", tmp_path / "f", rows(cycles), "toy")
    lib = liberty_power.load(library.liberty())
    inv = lib.cells["INVX1"]
    d_cap = lib.cells["DFFPOSX1"].capacitance["D"]
    arc = inv.arcs["Y"][0]
    per_toggle = (arc.rise.lookup(0.0, d_cap) + arc.fall.lookup(0.0, d_cap)) / 2 \
        + 0.5 * inv.capacitance["A"] * V2
    unit_part = whole.internal_pj + whole.switching_pj + whole.ports_pj - got["pj"]
    assert unit_part == pytest.approx(toggles * per_toggle, rel=0.02)
    assert got["pj"] > 0.2  # the flip-flop's clock, its D and its Q remain


def test_the_data_files_idle_figure_is_the_flip_flops_clock():
    """The [[engine_glue]] idle cycle (the engine clocked, its inputs held)
    costs its flip-flops on the gated clock their clocked DFFPOSX1 figure by
    hand (0.201175 pJ: tests/phys/test_glue_hand.py) within 2% (the clock
    gate's latch and gating cell besides), as the [[engine_regs]] idle
    figure prices them. TCU_GLUE_DATAFILE: another data file."""
    path = Path(os.environ.get("TCU_GLUE_DATAFILE", REPO / "spec" / "phys_osu018.toml"))
    tables = tomllib.loads(path.read_text()).get("engine_glue", [])
    if not tables:
        pytest.skip(f"{path}: no [[engine_glue]] table")
    for t in tables:
        assert t["idle_pj_per_cycle"] == pytest.approx(t["flip_flops"] * 0.201175, rel=0.02), \
            t["engine"]


def test_a_bad_engine_glue_table_is_refused():
    """tcu_tools.spec.gen_phys (the configure step) names the table and what
    is wrong with it."""
    from tcu_tools.spec import gen_phys
    data = tomllib.loads((REPO / "spec" / "phys_osu018.toml").read_text())
    good = next(dict(t) for t in data["engine_glue"] if t["engine"] == "int4")
    p = good["params"]
    row = f"{{0, {p['Units']}, {p['Stages']}, {p['SparseEnable']}, " \
          f"{good['dynamic_pj_per_issued_mac']!r}}}"
    assert row in gen_phys.header(data, "phys_osu018.toml")
    for bad, message in ((dict(good, engine="int8"), "int8: not one of"),
                         (dict(good, top="tcu_e2m1_engine"), "is not that engine's"),
                         ({k: v for k, v in good.items() if k != "source"}, "no source"),
                         (dict(good, params={"Units": 2}), "no Stages")):
        with pytest.raises(ValueError, match=message):
            gen_phys.header(dict(data, engine_glue=[bad]), "phys_osu018.toml")


def float_hand_count(top: str, units: int, stages: int) -> int:
    """The flip-flops of the f16 or f64 engine around its units, counted from
    rtl/tcu_f16_engine.sv, rtl/tcu_f64_engine.sv and rtl/tcu_engine_frame.sv:
    the operand registers (A 8x4x64 bits, B 64x8x4, C: the f16 engine's
    4x8x8 x 32, the f64 engine's 16x8x32), the D buffer (8192 bits; 8x8
    f64), the descriptor's fields (the tag, C and D .f16; the tag, the
    rounding mode), the sequencer's busy and group, the ownership, and the
    group pipe: Latency (5 and 4 x FmaStages) stages of the group, first,
    last, the f16 engine's mode bit, the tag and a valid bit. The
    sequencer's last group is the constant Groups - 1 and maps away."""
    slices, c_bits, d_bits, fields, latency, mode = {
        "tcu_f16_engine": (256, 8192, 8192, 16 + 2, 5 * stages, 1),
        "tcu_f64_engine": (64, 4096, 4096, 16 + 2, 4 * stages, 0)}[top]
    group_w = max(1, (slices // units - 1).bit_length())
    fixed = 8 * 4 * 64 + 64 * 8 * 4 + c_bits + d_bits + fields + 1 + group_w + 1
    return fixed + latency * (group_w + 2 + mode + 16 + 1)


def _float_tables() -> list:
    data = tomllib.loads((REPO / "spec" / "phys_osu018.toml").read_text())
    return [(kind, t["top"], t["params"]["Units"], t["params"]["FmaStages"], t["flip_flops"])
            for kind in ("engine_glue", "engine_regs") for t in data.get(kind, [])
            if t["top"] in ("tcu_f16_engine", "tcu_f64_engine")]


@pytest.mark.parametrize("kind, top, units, stages, flip_flops", _float_tables())
def test_the_float_engines_hold_their_rtl_registers(kind, top, units, stages, flip_flops):
    # the mapping keeps or drops a flag bit here and there: within 2 of the
    # 12,500 (f64) or 20,800 (f16) or so
    assert abs(flip_flops - float_hand_count(top, units, stages)) <= 2, (kind, top, units)


def test_the_float_hand_count():
    """By hand: the f64 engine of one unit at FmaStages 2 has 64 groups (6
    bits): 2048 + 2048 + 4096 + 4096 + 18 + 1 + 6 + 1 = 12,314, and 8 pipe
    stages of 6 + 2 + 16 + 1 = 25, 12,514 in all."""
    assert float_hand_count("tcu_f64_engine", 1, 2) == 12514


@pytest.mark.parametrize("engine", ["int4", "f16"])
def test_the_units_rtl_form_measures_what_the_netlists_do(engine):
    """engine_glue --units rtl (the units' RTL elaborated beside the
    engine's netlist; the f64 engine's table) against the netlist form on
    the int4 and f16 engines' tables' settings
    (docs/data/engine_glue_ENGINE_rtl.json): the same values reach the
    engine, so the figures agree within 0.5% (only the slews of the nets
    the units drive differ)."""
    import json
    rtl = json.loads((REPO / "docs" / "data" / f"engine_glue_{engine}_rtl.json").read_text())
    data = tomllib.loads((REPO / "spec" / "phys_osu018.toml").read_text())
    table = next(t for t in data["engine_glue"] if t["engine"] == engine)
    assert table.get("units", "netlist") == "netlist"
    assert rtl["units"] == "rtl" and rtl["params"] == table["params"]
    assert (rtl["cycles"], rtl["seed"], rtl["flip_flops"]) == \
        (table["cycles"], table["seed"], table["flip_flops"])
    for key in ("dynamic_pj_per_issued_mac", "idle_pj_per_cycle", "busy_pj_per_cycle"):
        assert rtl[key] == pytest.approx(table[key], rel=0.005), key
