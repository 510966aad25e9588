"""Points of several runs merged into one data file (datafile.merge, what
`tcu_tools.phys --from-json A --from-json B` does): a later point replaces
an earlier one of the same unit and parameters; one mapped without energy
keeps the earlier energies only where it is the same netlist (its mapping
figures agree), else the merge is refused naming the point. The planted
twin compares no mapping figure and must let a different netlist through."""
from __future__ import annotations

import pytest

from tcu_tools.phys import datafile


def row(area: float = 100.0, busy: float | None = 10.0, **extra) -> dict:
    r = {"unit": "tcu_int4_dot", "params": {"Stages": 2}, "area_um2": area,
         "flip_flop_area_um2": 20.0, "cells": 7, "flip_flops": 2, "critical_path_ns": 3.0,
         "busy_pj_per_cycle": busy, "idle_pj_per_cycle": None if busy is None else 1.0,
         "pj_per_issued_op": None if busy is None else busy / 32, "seconds": 5.0}
    r.update(extra)
    return r


def test_no_energy_point_keeps_the_energy_of_its_netlist():
    placed = row(busy=None, in_place_critical_path_ns=3.5, seconds=1.0)
    (m,) = datafile.merge([row()], [placed])
    assert m["busy_pj_per_cycle"] == 10.0 and m["idle_pj_per_cycle"] == 1.0
    assert m["in_place_critical_path_ns"] == 3.5
    assert m["seconds"] == 5.0  # the run that measured the energy


def test_measured_point_replaces_and_new_point_appends():
    other = dict(row(area=50.0, busy=4.0), params={"Stages": 1})
    merged = datafile.merge([row()], [row(area=101.0, busy=12.0), other])
    assert [m["area_um2"] for m in merged] == [101.0, 50.0]
    assert merged[0]["busy_pj_per_cycle"] == 12.0


def test_other_netlist_without_energy_is_refused():
    with pytest.raises(datafile.DataFileError, match=r"tcu_int4_dot .*area_um2.*again"):
        datafile.merge([row()], [row(area=101.0, busy=None)])


def test_planted_merge_without_the_mapping_check(monkeypatch):
    monkeypatch.setattr(datafile, "MAPPING_FIGURES", ())
    with pytest.raises(pytest.fail.Exception):
        test_other_netlist_without_energy_is_refused()


def test_data_file_rewritten_from_itself_keeps_every_table(tmp_path):
    """`--from-json spec/phys_osu018.toml --write FILE` (how a point measured
    apart joins the file) writes back every table of the file: its points,
    engines, wholes and the tables other tools append (the [[glue]],
    [[engine_regs]] and [[engine_regs_toggles]] the energy estimate reads)."""
    from tcu_tools import source_dir
    from tcu_tools.phys import cli, compose
    if compose.router_energy(1.0) is None:
        pytest.skip("no tcu Python module (TCU_MODULE_DIR): the datapaths' router energies")
    src = source_dir() / "spec" / "phys_osu018.toml"
    out = tmp_path / "again.toml"
    assert cli.main(["--from-json", str(src), "--write", str(out)]) == 0
    before, after = datafile.load(src), datafile.load(out)
    for a, b in zip(after["datapath"], before["datapath"], strict=True):
        assert a.keys() == b.keys()  # the router's energies among them
        assert a == pytest.approx(b, rel=1e-6) if all(
            isinstance(v, (int, float)) for v in a.values()) else all(
            a[k] == pytest.approx(b[k], rel=1e-6) if isinstance(b[k], float) else a[k] == b[k]
            for k in b), a["name"]
    for table in ("point", "engine", "whole") + datafile.KEPT_TABLES:
        assert len(after.get(table, [])) == len(before.get(table, [])), table
    for name in datafile.KEPT_TABLES + datafile.KEPT_HEAD:
        assert after.get(name) == before.get(name), name
    # every table the file has is one write writes
    assert set(before) - set(after) == set(), set(before) - set(after)


def test_data_file_not_written_without_the_router_energies(tmp_path, monkeypatch, capsys):
    """Without the tcu module the [[datapath]] tables would lose their
    router energies: the write is refused, naming why, and no file left."""
    from tcu_tools import source_dir
    from tcu_tools.phys import cli, compose
    monkeypatch.setattr(compose, "router_energy", lambda width: None)
    out = tmp_path / "again.toml"
    src = source_dir() / "spec" / "phys_osu018.toml"
    assert cli.main(["--from-json", str(src), "--write", str(out)]) != 0
    assert not out.exists()
    assert "TCU_MODULE_DIR" in capsys.readouterr().err


def test_data_file_configs_are_the_specs():
    """Every point's `configs` in spec/phys_osu018.toml is the list of named
    configurations spec/config.toml puts it in (units.configs_of: a dot
    unit's presets at its stage count), so a configuration whose depth
    moves cannot leave a stale list behind (the writer derives it)."""
    from tcu_tools import source_dir
    from tcu_tools.phys import units
    data = datafile.load(source_dir() / "spec" / "phys_osu018.toml")
    stale = [(p["unit"], p["params"], p["configs"],
              list(units.configs_of(units.UNIT_TYPES[p["unit"]], p["params"])))
             for p in data["point"]
             if p["configs"] != list(units.configs_of(units.UNIT_TYPES[p["unit"]], p["params"]))]
    assert not stale, f"spec/phys_osu018.toml: stale configs (unit, params, file, spec): {stale}"


def test_writer_derives_the_configs(tmp_path):
    """A point written with a stale `configs` list comes out with the
    spec's (datafile.write derives it)."""
    from tcu_tools import source_dir
    from tcu_tools.phys import cli, compose, units
    if compose.router_energy(1.0) is None:
        pytest.skip("no tcu Python module (TCU_MODULE_DIR): the datapaths' router energies")
    src = source_dir() / "spec" / "phys_osu018.toml"
    stale = tmp_path / "stale.toml"
    text = src.read_text()
    first = text.index('configs = ["default"]')  # the file's first point: tcu_int4_dot
    stale.write_text(text[:first] + 'configs = ["deep"]' + text[first + len('configs = ["default"]'):])
    assert datafile.load(stale)["point"][0]["configs"] == ["deep"]
    out = tmp_path / "again.toml"
    assert cli.main(["--from-json", str(stale), "--write", str(out)]) == 0
    p = datafile.load(out)["point"][0]
    assert p["configs"] == list(units.configs_of(units.UNIT_TYPES[p["unit"]], p["params"]))
    assert p["configs"] != ["deep"]
