"""The gate-level datapath energy's reading of an RTL run
(python/tcu_tools/phys/datapath_energy.py): a waveform written here in the
shape of `tcu gemm --trace`'s (the datapath's scope under the core, a decoy
scope of the same name elsewhere) gives back, per rising edge of the
datapath's clock out of reset, the input values just before the edge; the
netlist simulation's last counter values are read from its VCD."""
from __future__ import annotations

from pathlib import Path

import pytest

from tcu_tools.phys import datapath_energy
from tcu_tools.phys.workload import WorkloadError

SCOPE = "TOP.tcu_sim_top.u_core.u_datapath"


def write_vcd(path: Path, cycles: list[dict], scope: str = SCOPE) -> None:
    names = ["clk_i", "rst_ni", "in_valid_i", "in_a_i"]
    widths = {"clk_i": 1, "rst_ni": 1, "in_valid_i": 1, "in_a_i": 8}
    codes = {n: f"!{i}" for i, n in enumerate(names)}
    out = ["$timescale 1ps $end"]
    for word in scope.split("."):
        out.append(f"$scope module {word} $end")
    out += [f"$var wire {widths[n]} {codes[n]} {n} $end" for n in names]
    out += ["$upscope $end"] * len(scope.split("."))
    out += ["$scope module decoy $end", "$scope module u_dp $end", "$var wire 1 ~ clk_i $end",
            "$upscope $end", "$upscope $end", "$enddefinitions $end"]
    # As a Verilated run writes it: registered inputs change in the time
    # step of the rising edge that ends the cycle before.
    out += ["#0", f"0{codes['clk_i']}"] + [f"b{cycles[0][n]:b} {codes[n]}" for n in names[1:]]
    for c in range(len(cycles)):
        out += [f"#{10 * c + 5}", f"1{codes['clk_i']}"]
        if c + 1 < len(cycles):
            out += [f"b{cycles[c + 1][n]:b} {codes[n]}" for n in names[1:]]
        out += [f"#{10 * c + 10}", f"0{codes['clk_i']}"]
    path.write_text("\n".join(out) + "\n")


def test_cycles_after_reset(tmp_path):
    cycles = [{"rst_ni": 0, "in_valid_i": 0, "in_a_i": 0}] * 2 + [
        {"rst_ni": 1, "in_valid_i": c % 2, "in_a_i": (37 * c) % 256} for c in range(2, 12)]
    write_vcd(tmp_path / "run.vcd", cycles)
    scope, got = datapath_energy.read_cycles(tmp_path / "run.vcd", datapath_energy.INSTANCE,
                                             ["rst_ni", "in_valid_i", "in_a_i"])
    assert scope == SCOPE
    # The reset is released in the time step of the edge that ends cycle 1:
    # that edge is the first the datapath's registers see out of reset, with
    # cycle 1's inputs (as the RTL's cycle counter counts it).
    assert got == [dict(cycles[1], rst_ni=1)] + cycles[2:]


def test_no_datapath_scope(tmp_path):
    write_vcd(tmp_path / "run.vcd", [{"rst_ni": 1, "in_valid_i": 0, "in_a_i": 0}],
              "TOP.tcu_sim_top.u_core.u_other")
    with pytest.raises(WorkloadError, match="0 scopes match"):
        datapath_energy.read_cycles(tmp_path / "run.vcd", datapath_energy.INSTANCE, ["in_a_i"])


def test_final_outputs(tmp_path):
    (tmp_path / "gls.vcd").write_text(
        "$scope module tcu_phys_tb $end\n$scope module tcu_datapath $end\n"
        "$var wire 4 ! act_int4_busy_o [3:0] $end\n$var wire 1 \" in_ready_o $end\n"
        "$upscope $end\n$upscope $end\n$enddefinitions $end\n"
        "#0\nb0 !\n0\"\n#2\nb1 !\n1\"\n#4\nb1x1 !\n")
    assert datapath_energy.final_outputs(tmp_path / "gls.vcd", "tcu_datapath",
                                         ["act_int4_busy_o"]) == {"act_int4_busy_o": 5}


def test_the_estimate_a_cycle_per_state_is_the_datapaths():
    """The report's estimate per state of the datapath: each built engine's
    figure a cycle in the state (energy.cpp's busy_pj_per_cycle,
    idle_pj_per_cycle, gated_pj_per_cycle) plus the glue's figure a cycle;
    no busy state without busy cycles, no engine without units or
    activity; the router's term, which is tcu_core's, left out of the
    total (made-up figures)."""
    report = {"activity": {"engines": {"int4": {"busy": 10, "idle": 2, "gated": 4, "macs": 640},
                                       "e2m1": {"busy": 0, "idle": 0, "gated": 16, "macs": 0},
                                       "f64": {"busy": 16, "macs": 16}}},
              "energy": {"pj": 5000.0, "router": {"pj": 1200.0},
                         "glue": {"pj_per_cycle": 100.0},
                         "per_engine": {
                             "int4": {"units": 2, "busy_pj_per_cycle": 38.0,
                                      "idle_pj_per_cycle": 6.0, "gated_pj_per_cycle": 0.5},
                             "e2m1": {"units": 1, "busy_pj_per_cycle": 0.0,
                                      "idle_pj_per_cycle": 3.0, "gated_pj_per_cycle": 0.25},
                             "f64": {"units": 0, "busy_pj_per_cycle": 9.0}}}}
    got = datapath_energy.per_state_estimate(report)
    assert got == {"int4 busy": 138.0, "int4 idle": 106.0, "int4 gated": 100.5,
                   "e2m1 idle": 103.0, "e2m1 gated": 100.25}
    assert datapath_energy.datapath_estimate_pj(report) == 3800.0


def test_reprice_prices_the_run_again(monkeypatch):
    """--reprice: the gate-level figures kept, the estimate per state taken
    from this build's estimate_energy (a stand-in here) on the run's
    activity and parameters (SynthImpl dropped), the errors by hand."""
    asked = {}

    class Module:
        def estimate_energy(self, activity, params):
            asked.update(params)
            return {"pj": 3000.0, "router": {"pj": 1000.0}, "glue": {"pj_per_cycle": 100.0},
                    "per_engine": {"int4": {"units": 1, "busy_pj_per_cycle": 125.0,
                                            "idle_pj_per_cycle": 100.0,
                                            "gated_pj_per_cycle": 0.0}}}
    monkeypatch.setattr("tcu_tools.explore.fast.tcu_module", lambda: Module())
    report = {"configuration": {"parameters": {"IntStages": 1, "SynthImpl": 0}},
              "activity": {"engines": {"int4": {"busy": 10, "idle": 5, "gated": 5,
                                                "macs": 100}}}}
    measured = {"pj": 4000.0, "by_state": {"int4 busy": {"cycles": 10, "pj_per_cycle": 250.0},
                                           "int4 idle": {"cycles": 5, "pj_per_cycle": 160.0}}}
    got = datapath_energy.reprice(measured, report)
    assert asked == {"IntStages": 1}
    # busy: 125 + the glue's 100 = 225; idle 200
    assert got["by_state"]["int4 busy"]["estimate_pj_per_cycle"] == 225.0
    assert got["by_state"]["int4 idle"]["estimate_pj_per_cycle"] == 200.0
    assert got["estimate_pj"] == 2000.0
    assert datapath_energy.errors(got) == pytest.approx(
        {"int4 busy": 225 / 250 - 1, "int4 idle": 200 / 160 - 1, "total": -0.5})
