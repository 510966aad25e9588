"""A unit's clock as it sits in the design (python/tcu_tools/phys/in_place.py)
against the clock worked by hand from the liberty file
(/usr/share/qflow/tech/osu018/osu018_stdcells.lib, OSU 0.18 um typical).

Two tiny units of library cells: `seq` (an input through three inverters
into a flip-flop, the flip-flop's Q through an inverter to the output) and
`comb` (an input through one inverter to the output, no clock). In the
register wrapper every path runs from a DFFPOSX1 to a DFFPOSX1, so its
period is, worked here step by step from the tables: the driving
flip-flop's clock-to-Q (cell_rise / cell_fall of CLK -> Q at the ideal
clock's slew 0 and the load of the pin it drives), each inverter's delay at
the slew the stage before gives and the load after it, and the capturing
flip-flop's setup (setup_rising rise_constraint / fall_constraint at CLK
slew 0 and D's slew), the worse of the rising and falling starts. Loads are
the driven pins' rise (fall) capacitances for a rising (falling) output;
no wire load. Tables are read with liberty-parser and looked up linearly
between (and past) their two nearest entries, as OpenSTA does.

The figure must agree within 0.1% and differ from the unit's own (ideal
ports: no clock-to-Q at the inputs, no setup at the outputs) by more than
the flip-flop's clock-to-Q; a wrapper that drops its input or its output
registers must miss the hand figure (the planted cases)."""
from __future__ import annotations

import bisect
import functools
from pathlib import Path

import pytest
from liberty.parser import parse_liberty

from tcu_tools.phys import in_place, library, sta

SEQ = """module seq (clk_i, a_i, y_o);
  input clk_i;
  input a_i;
  output y_o;
  wire n1, n2, n3, q;
  INVX1 i1 (.A(a_i), .Y(n1));
  INVX1 i2 (.A(n1), .Y(n2));
  INVX1 i3 (.A(n2), .Y(n3));
  DFFPOSX1 r (.D(n3), .CLK(clk_i), .Q(q));
  INVX1 o1 (.A(q), .Y(y_o));
endmodule
"""

COMB = """module comb (a_i, y_o);
  input a_i;
  output y_o;
  INVX1 i1 (.A(a_i), .Y(y_o));
endmodule
"""


@functools.lru_cache(maxsize=1)
def cells() -> dict:
    lib = parse_liberty(library.liberty().read_text())
    return {str(c.args[0]): c for c in lib.get_groups("cell")}


def pin(cell: str, name: str):
    return next(p for p in cells()[cell].get_groups("pin") if str(p.args[0]) == name)


def cap(cell: str, name: str, edge: str) -> float:
    return float(pin(cell, name)[f"{edge}_capacitance"])


def interp(xs: list, ys: list, x: float) -> float:
    i = min(max(bisect.bisect_right(xs, x) - 1, 0), len(xs) - 2)
    return ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i])


def table(cell: str, out: str, related: str, group: str, x1: float, x2: float) -> float:
    """The `group` table of the timing arc related -> out at (index_1 = x1,
    index_2 = x2): values[i][j] rows by index_1."""
    t = next(t for t in pin(cell, out).get_groups("timing")
             if str(t["related_pin"]).strip('"') == related
             and ("setup" in str(t["timing_type"] or "")) == group.endswith("constraint"))
    g = t.get_groups(group)[0]
    i1 = [float(v) for v in g.get_array("index_1")[0]]
    i2 = [float(v) for v in g.get_array("index_2")[0]]
    rows = [[float(v) for v in row] for row in g.get_array("values")]
    return interp(i1, [interp(i2, row, x2) for row in rows], x1)


def flip(edge: str) -> str:
    return "fall" if edge == "rise" else "rise"


def hand_period(inverters: int) -> float:
    """DFFPOSX1 Q -> `inverters` INVX1 -> DFFPOSX1 D: clock-to-Q + the
    inverters + setup, the worse of Q rising and Q falling."""
    worst = 0.0
    for q_edge in ("rise", "fall"):
        # loads: the first inverter's A (or the capturing D) at Q's edge
        load = cap("INVX1", "A", q_edge) if inverters else cap("DFFPOSX1", "D", q_edge)
        t = table("DFFPOSX1", "Q", "CLK", f"cell_{q_edge}", load, 0.0)
        slew = table("DFFPOSX1", "Q", "CLK", f"{q_edge}_transition", load, 0.0)
        edge = q_edge
        for k in range(inverters):
            edge = flip(edge)
            last = k == inverters - 1
            load = cap("DFFPOSX1", "D", edge) if last else cap("INVX1", "A", edge)
            t += table("INVX1", "Y", "A", f"cell_{edge}", load, slew)
            slew = table("INVX1", "Y", "A", f"{edge}_transition", load, slew)
        t += table("DFFPOSX1", "D", "CLK", f"{edge}_constraint", 0.0, slew)
        worst = max(worst, t)
    return worst


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.v"
    path.write_text(text)
    return path


def test_hand_figures_are_worked_from_the_tables():
    # the arithmetic's own sanity: clock-to-Q and setup of this library are
    # a tenth of a nanosecond or more each, an inverter less
    assert 0.25 < hand_period(0) < 0.6
    assert hand_period(0) < hand_period(1) < hand_period(3) < hand_period(0) + 0.5


@pytest.mark.parametrize("name, text, inverters, clock", [
    ("seq", SEQ, 3, "clk_i"), ("comb", COMB, 1, None)])
def test_in_place_clock_is_the_hand_figure(tmp_path, name, text, inverters, clock):
    netlist = write(tmp_path, name, text)
    alone = sta.critical_path(netlist, name, clock, tmp_path)
    wrapped = in_place.critical_path(netlist, name, tmp_path)
    hand = hand_period(inverters)
    assert wrapped.delay_ns == pytest.approx(hand, rel=1e-3)
    assert wrapped.fmax_mhz == pytest.approx(1e3 / hand, rel=1e-3)
    clk_to_q = table("DFFPOSX1", "Q", "CLK", "cell_rise", cap("INVX1", "A", "rise"), 0.0)
    assert wrapped.delay_ns > alone.delay_ns + clk_to_q
    assert wrapped.startpoint.startswith("in_a_i_0 "), wrapped.startpoint
    assert wrapped.endpoint.startswith("u_unit/r " if clock else "out_y_o_0 "), wrapped.endpoint


@pytest.mark.parametrize("drop", ["in_", "out_"])
def test_planted_wrapper_without_its_registers_misses(tmp_path, monkeypatch, drop):
    """A wrapper whose input (output) flip-flops are wires: the seq unit's
    in -> flip-flop path (the comb unit's only path) loses its clock-to-Q
    (setup) and the figure misses the hand one."""
    real = in_place.wrapper_text

    def planted(netlist, top):
        lines = []
        for line in real(netlist, top).splitlines():
            if line.strip().startswith(f"{in_place.FLIP_FLOP} {drop}"):
                d = line.split(".D(")[1].split(")")[0]
                q = line.split(".Q(")[1].split(")")[0]
                line = f"  assign {q} = {d};"
            lines.append(line)
        return "\n".join(lines) + "\n"
    monkeypatch.setattr(in_place, "wrapper_text", planted)
    for name, text, inverters, clock in (("seq", SEQ, 3, "clk_i"), ("comb", COMB, 1, None)):
        if drop == "out_" and clock:
            continue  # seq's critical path ends at its own flip-flop
        wrapped = in_place.critical_path(write(tmp_path, name, text), name, tmp_path)
        assert wrapped.delay_ns != pytest.approx(hand_period(inverters), rel=1e-3)
