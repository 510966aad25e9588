"""The energy method (tcu_tools.phys), on two small units, one
combinational (tcu_int4_accumulate) and one clocked (tcu_pipe_reg): energy
rises with the toggle rate, zero activity (the clock's too) gives leakage
only, a clocked unit's idle cycle (clock only) costs more than leakage and
less than a busy one, and the figures come from the library (areas add up
from its cells)."""
from __future__ import annotations


import pytest

from tcu_tools.phys import activity, library, mapping, sta

UNIT = "tcu_int4_accumulate"  # combinational, a few hundred cells
CLOCKED = "tcu_pipe_reg"      # two 64-bit registers and their valid bits
CLOCKED_PARAMS = {"Width": 64, "Depth": 2}
PERIOD = sta.REFERENCE_PERIOD_NS


@pytest.fixture(scope="module")
def mapped(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("phys")
    return mapping.map_unit(UNIT, {}, workdir), workdir


def run_with_hold(mapped, hold: int, seed: int = 3):
    """Gate-level activity with every data input changing once per `hold`
    cycles (hold=1: a new random operand every cycle)."""
    unit, workdir = mapped
    ins, _ = activity.ports(unit.netlist)
    exe = activity.build(unit.netlist, UNIT, workdir)
    import random
    rng = random.Random(seed)
    rows, last = [], None
    for cycle in range(120):
        if last is None or cycle % hold == 0:
            last = [rng.getrandbits(w) for _, w in ins]
        rows.append(last)
    stim = workdir / f"hold{hold}.txt"
    stim.write_text("\n".join(" ".join(f"{v:x}" for v in r) for r in rows) + "\n")
    vcd = workdir / f"hold{hold}.vcd"
    import subprocess
    subprocess.run([str(exe), str(stim), str(vcd)], check=True)
    return activity.count_toggles(vcd, UNIT, start_time=4, end_time=240)


def test_area_is_the_sum_of_the_cells(mapped):
    unit, _ = mapped
    areas = mapping.cell_areas()
    assert unit.area_um2 == pytest.approx(sum(areas[c] * n for c, n in unit.cell_counts.items()))
    assert unit.area_um2 > 0 and unit.cells > 50


def test_energy_rises_with_toggle_rate(mapped):
    unit, workdir = mapped
    energies, rates = [], []
    for hold in (8, 2, 1):
        act = run_with_hold(mapped, hold)
        rates.append(act.mean_toggle_rate())
        p = sta.power(unit.netlist, UNIT, None, workdir, act.nets, PERIOD, f"hold{hold}")
        energies.append(p.energy_per_cycle_pj)
    assert rates[0] < rates[1] < rates[2]
    assert energies[0] < energies[1] < energies[2]


def test_zero_activity_gives_leakage_only(mapped):
    unit, workdir = mapped
    p = sta.power(unit.netlist, UNIT, None, workdir, None, PERIOD, "zero")
    assert p.leakage_w > 0
    assert p.internal_w + p.switching_w <= 1e-6 * p.leakage_w
    assert p.total_w == pytest.approx(p.leakage_w, rel=1e-6)


def test_label_names_the_library():
    assert library.LABEL == "OSU 0.18 µm, typical corner"
    assert library.liberty().name == "osu018_stdcells.lib"


@pytest.fixture(scope="module")
def clocked(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("phys_clocked")
    return mapping.map_unit(CLOCKED, CLOCKED_PARAMS, workdir), workdir


def clocked_activity(clocked, hold: int | None, seed: int = 5):
    """The clocked unit out of reset, enabled and valid, its data changing
    every `hold` cycles (None: never, the clock alone runs)."""
    import random
    import subprocess
    unit, workdir = clocked
    ins, _ = activity.ports(unit.netlist)
    exe = activity.build(unit.netlist, CLOCKED, workdir)
    rng = random.Random(seed)
    rows, data = [], rng.getrandbits(64)
    for cycle in range(120):
        if hold is not None and cycle % hold == 0:
            data = rng.getrandbits(64)
        values = {"rst_ni": int(cycle >= 2), "en_i": 1, "valid_i": 1, "data_i": data}
        rows.append([values[n] for n, _ in ins if n != "clk_i"])
    stim = workdir / f"clocked{hold}.txt"
    stim.write_text("\n".join(" ".join(f"{v:x}" for v in r) for r in rows) + "\n")
    vcd = workdir / f"clocked{hold}.vcd"
    subprocess.run([str(exe), str(stim), str(vcd)], check=True)
    return activity.count_toggles(vcd, CLOCKED, start_time=4, end_time=240)


def test_clocked_unit_energy_rises_with_toggle_rate(clocked):
    unit, workdir = clocked
    energies, rates = [], []
    for hold in (None, 8, 2, 1):
        act = clocked_activity(clocked, hold)
        assert act.nets["clk_i"][0] == pytest.approx(2.0)  # the clock runs in every case
        rates.append(act.mean_toggle_rate())
        energies.append(sta.power(unit.netlist, CLOCKED, "clk_i", workdir, act.nets, PERIOD,
                                  f"clocked{hold}").energy_per_cycle_pj)
    assert rates == sorted(rates) and len(set(rates)) == 4
    assert energies == sorted(energies) and len(set(energies)) == 4


def test_clocked_unit_zero_activity_gives_leakage_only(clocked):
    unit, workdir = clocked
    zero = sta.power(unit.netlist, CLOCKED, "clk_i", workdir, None, PERIOD, "clocked_zero")
    assert zero.leakage_w > 0
    assert zero.internal_w + zero.switching_w <= 1e-6 * zero.leakage_w
    idle = sta.power(unit.netlist, CLOCKED, "clk_i", workdir,
                     clocked_activity(clocked, None).nets, PERIOD, "clocked_idle")
    # the clock alone costs far more than leakage
    assert idle.total_w > 100 * zero.total_w
