"""The clock a mapped netlist allows (python/tcu_tools/phys/sta.py): a clock gate
(latch + AND, what rtl/tcu_clock_gate.sv maps to in the OSU 0.18 um cells)
must not set the figure. Two hand-written netlists: a flip-flop-to-flip-flop
path of inverters, clocked directly and through the gate. The gated one's
period must be the plain one's (the inverters limit both), which the plain
design's own report (arrival + setup at the reference period) gives. The
planted twin times the gated design as the tool did before the period
search (the first path reported at the reference period) and must miss."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tcu_tools.phys import sta

INVERTERS = 24


def netlist(gated: bool) -> str:
    chain = "\n".join(f"  INVX1 inv{i} (.A(c{i}), .Y(c{i + 1}));" for i in range(INVERTERS))
    wires = ", ".join(f"c{i}" for i in range(INVERTERS + 1))
    if gated:
        clock = ("  wire en_q, clk_n, en_l, gclk;\n"
                 "  DFFPOSX1 en_reg (.D(en_i), .CLK(clk_i), .Q(en_q));\n"
                 "  INVX1 clk_inv (.A(clk_i), .Y(clk_n));\n"
                 "  LATCH en_latch (.D(en_q), .CLK(clk_n), .Q(en_l));\n"
                 "  AND2X2 gate (.A(en_l), .B(clk_i), .Y(gclk));\n")
        clk = "gclk"
    else:
        clock, clk = "", "clk_i"
    return (f"module tcg (clk_i, en_i, d_i, q_o);\n  input clk_i;\n  input en_i;\n"
            f"  input d_i;\n  output q_o;\n  wire {wires};\n{clock}"
            f"  DFFPOSX1 a_reg (.D(d_i), .CLK({clk}), .Q(c0));\n{chain}\n"
            f"  DFFPOSX1 b_reg (.D(c{INVERTERS}), .CLK({clk}), .Q(q_o));\nendmodule\n")


def write(tmp_path: Path, gated: bool) -> Path:
    path = tmp_path / f"tcg_{'gated' if gated else 'plain'}.v"
    path.write_text(netlist(gated))
    return path


def register_to_register_ns(log: str) -> float:
    """Arrival + setup of the path ending at b_reg, read from report_checks
    (required = the capturing edge - setup)."""
    block = next(b for b in log.split("Startpoint: ")[1:] if "Endpoint: b_reg" in b)
    arrival = float(re.search(r"^\s*([-0-9.]+)\s+data arrival time", block, re.M).group(1))
    required = float(re.search(r"^\s*([-0-9.]+)\s+data required time", block, re.M).group(1))
    edges = re.findall(r"^\s*[-0-9.]+\s+([-0-9.]+)\s+clock clk \(rise edge\)", block, re.M)
    return arrival + float(edges[-1]) - required


def test_a_clock_gate_does_not_set_the_clock(tmp_path):
    plain = sta.critical_path(write(tmp_path, False), "tcg", "clk_i", tmp_path)
    expected = register_to_register_ns((tmp_path / "tcg.timing.sta.log").read_text())
    assert 0.5 < expected < 9, expected  # the chain, well inside the reference period
    assert plain.delay_ns == pytest.approx(expected, abs=1e-3)
    gated = sta.critical_path(write(tmp_path, True), "tcg", "clk_i", tmp_path)
    assert gated.delay_ns == pytest.approx(expected, abs=2e-3)
    assert gated.fmax_mhz == pytest.approx(1e3 / expected, rel=1e-3)
    assert "b_reg" in gated.endpoint, gated


def test_planted_first_path_at_the_reference_period_misses(tmp_path, monkeypatch):
    """The old reading (no period search, the first path of report_checks:
    the gate's check, with the latch's borrowed time) is caught."""
    plain = sta.critical_path(write(tmp_path, False), "tcg", "clk_i", tmp_path)
    monkeypatch.setattr(sta, "_period_search", lambda clock_port: (
        f"puts \"tcu_min_period {sta.REFERENCE_PERIOD_NS} slack [sta::worst_slack -max]\"\n"))
    with pytest.raises(RuntimeError, match="did not settle"):
        sta.critical_path(write(tmp_path, True), "tcg", "clk_i", tmp_path)
    log = (tmp_path / "tcg.timing.sta.log").read_text()
    first = log.split("Startpoint: ")[1]
    assert "gating" in first  # what the old reading took as the critical path
    arrival = float(re.search(r"^\s*([-0-9.]+)\s+data arrival time", first, re.M).group(1))
    assert abs(arrival - plain.delay_ns) > 0.5


def test_register_of_names_the_path_registers(tmp_path):
    """The critical path's start and end flip-flops by the nets on their Q
    pins (c0 and q_o here); a port is no register; an instance not in the
    netlist gives None."""
    net = write(tmp_path, False)
    path = sta.critical_path(net, "tcg", "clk_i", tmp_path)
    assert sta.register_of(net, path.startpoint) == "c0", path.startpoint
    assert sta.register_of(net, path.endpoint) == "q_o", path.endpoint
    assert sta.register_of(net, "d_i (input port clocked by clk)") is None
    assert sta.register_of(net, "nope (rising edge-triggered flip-flop clocked by clk)") is None


def late_enable_netlist(enable_inverters: int) -> str:
    """The gated design with `enable_inverters` inverters between the
    enable's register and the latch: an enable that arrives after the
    latch opens (the half period) but well before the data chain ends."""
    text = netlist(True)
    chain = "\n".join(f"  INVX1 en_inv{i} (.A(e{i}), .Y(e{i + 1}));"
                      for i in range(enable_inverters))
    wires = ", ".join(f"e{i}" for i in range(enable_inverters + 1))
    return (text.replace("DFFPOSX1 en_reg (.D(en_i), .CLK(clk_i), .Q(en_q));",
                         f"DFFPOSX1 en_reg (.D(en_i), .CLK(clk_i), .Q(e0));\n  wire {wires};\n"
                         f"{chain}\n  BUFX2 en_buf (.A(e{enable_inverters}), .Y(en_q));"))


def test_a_late_enable_borrows_from_the_latch(tmp_path):
    """An enable path longer than half the data chain's (its latch opens at
    the half period, closes at the period): the latch lends it the time,
    so the chain still sets the clock; the period search must not stop
    where the enable reaches the latch as it opens (about 2 x 16/24 of the
    chain's period, a third more)."""
    plain = sta.critical_path(write(tmp_path, False), "tcg", "clk_i", tmp_path)
    path = tmp_path / "tcg_late.v"
    path.write_text(late_enable_netlist(16))
    late = sta.critical_path(path, "tcg", "clk_i", tmp_path)
    assert late.delay_ns == pytest.approx(plain.delay_ns, abs=2e-3)
    assert "b_reg" in late.endpoint, late


def test_planted_search_stopping_at_the_latch_misses(tmp_path, monkeypatch):
    """Planted: the period search without its check below the period (the
    slack-following steps alone) stops where the late enable reaches the
    latch as it opens, a third above the chain's period."""
    plain = sta.critical_path(write(tmp_path, False), "tcg", "clk_i", tmp_path)
    real = sta._period_search

    def steps_only(clock_port):
        text = real(clock_port)
        return text[:text.index("set tcu_met")] + (
            'puts "tcu_min_period $tcu_period slack $tcu_slack"\n')
    monkeypatch.setattr(sta, "_period_search", steps_only)
    path = tmp_path / "tcg_late.v"
    path.write_text(late_enable_netlist(16))
    late = sta.critical_path(path, "tcg", "clk_i", tmp_path)
    assert late.delay_ns > 1.2 * plain.delay_ns
