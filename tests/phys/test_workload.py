"""A unit's energy at a workload's own operands (python/tcu_tools/phys/workload.py)
and the gated clocks' slews (python/tcu_tools/phys/sta.py).

Workload: waveforms written here in the shape of an RTL run's (the unit's
scope inside a datapath, its clock, en_i, valid_i and operands), with
cycles the unit does not accept (valid_i or en_i low) carrying random
operands that must not count. On tcu_int4_dot (Stages=1): the accepted
slices are read back exactly; all-zero operands cost far less than random
ones and about the clocked-idle figure; the random stream of the random
figure, read back from a waveform, reproduces that figure exactly.

Gated clocks: a netlist of flip-flops behind one AND2X2 clock gate (as
tcu_clock_gate maps) costs per flip-flop what a flip-flop on the clock port
does, not the extrapolation of an unbuffered slew."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from tcu_tools.phys import activity, energy, mapping, sta, stimulus, workload

UNIT = "tcu_int4_dot"
PARAMS = {"Stages": 1}
CYCLES = 60
SCOPE = "TOP.tcu_sim_top.u_core.u_datapath.u_int4.g_engine.g_unit[0].u_dot"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("phys_workload")


@pytest.fixture(scope="module")
def ports(workdir):
    return workload.data_ports_of(UNIT, PARAMS, workdir)


def write_vcd(path: Path, ports: list[tuple[str, int]], cycles: list[dict]) -> None:
    """A VCD of the unit's scope (in a datapath's hierarchy, beside a
    decoy unit of the same name): cycle c's values from time 10c, the clock
    rising at 10c + 5."""
    names = ["clk_i"] + [n for n, _ in ports]
    widths = dict(ports, clk_i=1)
    codes = {n: f"!{i}" for i, n in enumerate(names)}
    out = ["$timescale 1ps $end"]
    for word in SCOPE.split("."):
        out.append(f"$scope module {word} $end")
    for n in names:
        out.append(f"$var wire {widths[n]} {codes[n]} {n} $end")
    out += ["$upscope $end"] * len(SCOPE.split("."))
    out += ["$scope module decoy $end", "$scope module u_dot $end",
            "$var wire 1 ~ clk_i $end", "$upscope $end", "$upscope $end", "$enddefinitions $end"]
    for c, values in enumerate(cycles):
        out.append(f"#{10 * c}")
        out.append(f"0{codes['clk_i']}")
        for n in names[1:]:
            out.append(f"b{values[n]:b} {codes[n]}")
        out.append(f"#{10 * c + 5}")
        out.append(f"1{codes['clk_i']}")
    path.write_text("\n".join(out) + "\n")


def trace_cycles(ports, operands: list[dict], seed: int = 7) -> list[dict]:
    """Each accepted slice (rst_ni, en_i, valid_i high) after two reset
    cycles, with a cycle of random operands the unit does not accept
    (valid_i low, then en_i low) after every third."""
    rng = random.Random(seed)

    def junk(**flags):
        return {n: rng.getrandbits(w) for n, w in ports} | flags

    out = [junk(rst_ni=0, en_i=1, valid_i=1), junk(rst_ni=0, en_i=1, valid_i=1)]
    for i, values in enumerate(operands):
        out.append(values | {"rst_ni": 1, "en_i": 1, "valid_i": 1})
        if i % 3 == 2:
            out.append(junk(rst_ni=1, en_i=1, valid_i=0) if i % 2 else
                       junk(rst_ni=1, en_i=0, valid_i=1))
    return out


def zero_operands(ports, n: int) -> list[dict]:
    return [{name: 0 for name in workload.operand_ports(ports)} for _ in range(n)]


def slices_of(workdir, ports, operands, name) -> list[dict]:
    vcd = workdir / f"{name}.vcd"
    write_vcd(vcd, ports, trace_cycles(ports, operands))
    scope, slices = workload.read_slices(vcd, workload.DEFAULT_INSTANCE[UNIT],
                                         workload.operand_ports(ports))
    assert scope == SCOPE
    return slices


def random_operands(ports, n: int, seed: int = 1) -> list[dict]:
    """The random figure's operands (tcu_tools.phys.stimulus) as slices."""
    rows = stimulus.make("int4", ports, n, seed)
    keep = workload.operand_ports(ports)
    return [{name: v for (name, _), v in zip(ports, row) if name in keep} for row in rows]


def test_slices_are_the_accepted_operands(workdir, ports):
    operands = random_operands(ports, 20, seed=11)
    assert slices_of(workdir, ports, operands, "read") == operands


def test_zero_operands_cost_less_than_random_about_idle(workdir, ports):
    zero, _ = workload.measure_slices(UNIT, PARAMS, slices_of(workdir, ports, zero_operands(
        ports, 30), "zero"), workdir, CYCLES, "zero")
    rand, _ = workload.measure_slices(UNIT, PARAMS, slices_of(workdir, ports, random_operands(
        ports, 30), "random"), workdir, CYCLES, "random")
    unit_dir = workdir / mapping.tag(UNIT, PARAMS)
    netlist = mapping.map_unit(UNIT, PARAMS, unit_dir).netlist
    act = activity.simulate(netlist, UNIT, "int4", unit_dir, CYCLES, idle=True)
    idle = energy.measure(netlist, UNIT, act.vcd, unit_dir, *act.window).total_pj
    assert zero < 0.1 * rand
    assert 0.5 * idle < zero < 2.0 * idle


def test_random_workload_reproduces_the_random_figure(workdir, ports):
    """The random figure's own stream, read back from a waveform, gives the
    random figure (the same rows reach the netlist)."""
    unit_dir = workdir / mapping.tag(UNIT, PARAMS)
    netlist = mapping.map_unit(UNIT, PARAMS, unit_dir).netlist
    act = activity.simulate(netlist, UNIT, "int4", unit_dir, CYCLES)
    busy = energy.measure(netlist, UNIT, act.vcd, unit_dir, *act.window).total_pj
    slices = slices_of(workdir, ports, random_operands(ports, CYCLES), "same")
    again, _ = workload.measure_slices(UNIT, PARAMS, slices, workdir, CYCLES, "same")
    assert again == pytest.approx(busy, rel=1e-9)


def test_no_such_instance_is_an_error(workdir, ports):
    vcd = workdir / "none.vcd"
    write_vcd(vcd, ports, trace_cycles(ports, zero_operands(ports, 10)))
    with pytest.raises(workload.WorkloadError, match="0 scopes match"):
        workload.read_slices(vcd, r"\.u_f64\.", workload.operand_ports(ports))
    with pytest.raises(workload.WorkloadError, match="2 scopes match"):
        workload.read_slices(vcd, r"\.u_dot$", workload.operand_ports(ports))


# ---- gated clocks ----------------------------------------------------------
GATED = 2000  # flip-flops behind the gate
PORT = 2      # flip-flops on the clock port


def gated_netlist(path: Path, gated: int) -> Path:
    """`gated` flip-flops clocked through one AND2X2 (as tcu_clock_gate
    maps), PORT more on the clock port."""
    width = gated + PORT
    lines = ["module tcu_gated_flops (clk_i, en_i, d_i, q_o);", "  input clk_i;",
             "  input en_i;", "  input d_i;", f"  output [{width - 1}:0] q_o;",
             "  wire \\u_gate.clk_o ;",
             "  AND2X2 g (.A(en_i), .B(clk_i), .Y(\\u_gate.clk_o ));"]
    for i in range(width):
        clock = "\\u_gate.clk_o " if i < gated else "clk_i"
        lines.append(f"  DFFPOSX1 f{i} (.CLK({clock}), .D(d_i), .Q(q_o[{i}]));")
    path.write_text("\n".join(lines + ["endmodule"]) + "\n")
    return path


def flops_energy(workdir: Path, gated: int) -> energy.Energy:
    netlist = gated_netlist(workdir / f"gated{gated}.v", gated)
    rows = [[1, i % 2] for i in range(40)]  # en_i, d_i: the gate open, the data toggling
    act = activity.simulate_rows(netlist, "tcu_gated_flops", workdir, rows, f"gated{gated}")
    assert act.nets["clk_i"][0] == pytest.approx(2.0)
    return energy.measure(netlist, "tcu_gated_flops", act.vcd, workdir, *act.window)


def test_gated_flip_flops_cost_what_ungated_ones_do(workdir):
    assert sta.gated_clock_nets(gated_netlist(workdir / "names.v", 3), "clk_i") == [
        "u_gate.clk_o"]
    ungated = flops_energy(workdir, 0).internal_pj / PORT
    per_gated = (flops_energy(workdir, GATED).internal_pj - PORT * ungated) / GATED
    # without the gated nets' ideal slews far more (OpenSTA's slew of one
    # AND2X2 into 2,000 clock pins lies far past the tables' last entry)
    assert 0.5 * ungated < per_gated < 2.0 * ungated
