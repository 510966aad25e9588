"""tcu_tools.phys.engine_regs: the flip-flops of a mapped engine counted by
clock net (a made-up netlist), the engines' stimulus
(tcu_tools.phys.engine_stimulus), and bad input refused."""
from __future__ import annotations

import pytest

from tcu_tools.phys import engine_regs, engine_stimulus

NETLIST = """module tcu_x_engine(clk_i, a_i);
  input clk_i;
  input a_i;
  LATCH _1_ (.CLK(n0), .D(a_i), .Q(en));
  DFFPOSX1 _2_ (.CLK(\\g_engine.u_frame.clk_o ), .D(a_i), .Q(q0));
  DFFPOSX1 _3_ (.CLK(\\g_engine.u_frame.clk_o ), .D(q0), .Q(q1));
  DFFSR _4_ (.CLK(\\g_engine.u_frame.clk_o ), .D(q1), .Q(q2), .R(a_i), .S(a_i));
  DFFPOSX1 _5_ (.CLK(\\g_engine.g_sparse_path.clk_sparse ), .D(a_i), .Q(q3));
  DFFPOSX1 _6_ (.CLK(clk_i), .D(a_i), .Q(q4));
endmodule
"""


def test_count_by_clock(tmp_path):
    path = tmp_path / "e.v"
    path.write_text(NETLIST)
    got = engine_regs.count(path)
    # the gated clock with the most: 3 (the latch is no flip-flop); the
    # sparse path's 1 apart; the ungated clock's not the engine's
    assert got["flip_flops"] == 3 and got["other_domain_flip_flops"] == 1
    assert got["by_clock"]["clk_i"] == 1
    assert engine_regs.count(path, unit_flip_flops=2)["flip_flops"] == 1
    with pytest.raises(ValueError, match="4 unit flip-flops to take off, 3 on"):
        engine_regs.count(path, unit_flip_flops=4)


def test_count_refuses_a_netlist_without_an_engine_clock(tmp_path):
    path = tmp_path / "e.v"
    path.write_text("module m(clk_i);\n  DFFPOSX1 _1_ (.CLK(clk_i), .D(a), .Q(b));\nendmodule\n")
    with pytest.raises(ValueError, match="no flip-flop on a gated clock"):
        engine_regs.count(path)
    path.write_text("module m(a);\nendmodule\n")
    with pytest.raises(ValueError, match="no flip-flop"):
        engine_regs.count(path)


def test_int4_stimulus_back_to_back():
    ports = [("a_i", 8), ("b_i", 8), ("c_i", 8), ("clk_en_i", 1), ("desc_i", 28),
             ("meta_i", 4), ("pipe_en_i", 1), ("pipe_take_i", 1), ("rst_ni", 1),
             ("start_i", 1)]
    rows, macs = engine_stimulus.rows("tcu_int4_engine", ports, 4, 130, 1, idle=False)
    start = [r[9] for r in rows]
    # reset two rows, then an instruction every 64 cycles (256 slices / 4 units)
    assert [r[8] for r in rows[:3]] == [0, 0, 1]
    assert [i for i, s in enumerate(start) if s] == [2, 66, 130]
    assert macs == (len(rows) - 3) * 4 * 32
    desc = rows[2][4]
    assert (desc >> 16) & 7 == 0 and not (desc >> 22) & 1  # int4 dense, k = 64
    assert rows[3][0] == rows[2][0] and rows[66][0] != rows[2][0]  # operands held between
    idle, none = engine_stimulus.rows("tcu_int4_engine", ports, 4, 20, 1, idle=True)
    assert none == 0 and not any(r[9] for r in idle)
    with pytest.raises(ValueError, match="Units=3"):
        engine_stimulus.rows("tcu_int4_engine", ports, 3, 20, 1, idle=False)


F_PORTS = [("a_i", 2048), ("b_i", 2048), ("c_i", 8192), ("clk_en_i", 1), ("desc_i", 28),
           ("pipe_en_i", 1), ("pipe_take_i", 1), ("rst_ni", 1), ("start_i", 1)]


def _fields(value: int, width: int, count: int) -> list[int]:
    return [(value >> (i * width)) & ((1 << width) - 1) for i in range(count)]


@pytest.mark.parametrize("top, units, period, family", [("tcu_f16_engine", 4, 64, 2),
                                                       ("tcu_f64_engine", 2, 32, 3)])
def test_float_stimulus_back_to_back(top, units, period, family):
    """An f16 engine of 4 units starts an instruction every 256 / 4 cycles,
    an f64 one of 2 every 64 / 2; 4 MACs a unit a cycle (tcu_pkg's
    F16_SLICES, F64_SLICES, *_DOT_LANES); the descriptor names the family;
    every operand is a finite value of the format, |x| in [2^-4, 2^5)."""
    rows, macs = engine_stimulus.rows(top, F_PORTS, units, 2 * period + 1, 7, idle=False)
    assert [i for i, r in enumerate(rows) if r[8]] == [2, 2 + period, 2 + 2 * period]
    assert macs == (len(rows) - 3) * units * 4
    for start in (2, 2 + period):
        desc, a, b, c = rows[start][4], rows[start][0], rows[start][1], rows[start][2]
        assert (desc >> 16) & 7 == family
        if top == "tcu_f16_engine":
            fmt = [(a, 16, 5, 128), (b, 16, 5, 128)]
            fmt.append((c, 16, 5, 256) if (desc >> 25) & 1 else (c, 32, 8, 256))
        else:
            fmt = [(a, 64, 11, 32), (b, 64, 11, 32), (c, 64, 11, 64)]
        for value, width, ew, count in fmt:
            mw = width - 1 - ew
            bias = (1 << (ew - 1)) - 1
            exps = [(f >> mw) & ((1 << ew) - 1) for f in _fields(value, width, count)]
            assert all(bias - 4 <= e <= bias + 4 for e in exps), (top, width, exps[:4])
    assert rows[3][0] == rows[2][0] and rows[2 + period][0] != rows[2][0]
    with pytest.raises(ValueError, match="Units=3"):
        engine_stimulus.rows(top, F_PORTS, 3, 20, 1, idle=False)


def test_an_engine_without_a_stimulus_is_refused():
    with pytest.raises(ValueError, match="tcu_x_engine: no busy stimulus"):
        engine_stimulus.rows("tcu_x_engine", F_PORTS, 1, 20, 1, idle=False)
