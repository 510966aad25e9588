"""The validation record (tcu_tools.explore.record): written from tcu
explore --validate output folders, refused where an output folder holds a
failed point, found stale when a file it depends on or a tool changed (the
change named), the data file's mapped datapaths against the composition
(a figure over its tolerance fails --check, named), and its docs table
(the error range per figure)."""
import csv
import json

import pytest

from tcu_tools.explore import record

AXES = {"FmaStages": [0, 19], "warps": [1, 2]}


def output_folder(tmp_path, name, rows):
    out = tmp_path / name
    out.mkdir()
    (out / "explore.json").write_text(json.dumps({
        "sweep": {"axes": AXES}, "workload": {"name": "every variant kind"}, "points": 4,
        "argv": ["sweep.toml", "--out", "/tmp/x", "--validate", "0", "--jobs=2"]}))
    with open(out / "explore.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["point", "FmaStages", "warps"])
        w.writeheader()
        w.writerows([{"point": 0, "FmaStages": 0, "warps": 1},
                     {"point": 3, "FmaStages": 19, "warps": 2}])
    with open(out / "validation.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["point", "figure", "fast", "full", "error",
                                          "tolerance", "status"])
        w.writeheader()
        w.writerows(rows)
    return out


ROWS = [{"point": 0, "figure": "cycles", "fast": 356, "full": 356, "error": "+0.000%",
         "tolerance": "0%", "status": "ok"},
        {"point": 0, "figure": "energy_pj", "fast": 1040.5, "full": 1000.0, "error": "+4.050%",
         "tolerance": "10%", "status": "ok"},
        {"point": 3, "figure": "cycles", "fast": 1200, "full": 1200, "error": "+0.000%",
         "tolerance": "0%", "status": "ok"},
        {"point": 3, "figure": "energy_pj", "fast": 970.0, "full": 1000.0, "error": "-3.000%",
         "tolerance": "10%", "status": "ok"}]


@pytest.fixture
def stamped(monkeypatch):
    files = {"rtl/tcu_datapath.sv": "aaaa", "model/src/timing.cpp": "bbbb"}
    tools = {"verilator": "Verilator 5.006", "yosys": "Yosys 0.23"}
    monkeypatch.setattr(record, "file_hashes", lambda: dict(files))
    monkeypatch.setattr(record, "tool_versions", lambda: dict(tools))
    return files, tools


def test_written_fresh_and_tabled(tmp_path, stamped):
    files, tools = stamped
    out = output_folder(tmp_path, "a", ROWS)
    data = record.write(tmp_path / "record.toml", [("span", out)])
    assert record.stale(data, files, tools) == []
    assert [r["params"] for r in data["result"][:2]] == [{"FmaStages": 0, "warps": 1}] * 2
    assert data["result"][1]["error"] == pytest.approx(0.0405)
    assert data["run"][0]["argv"] == "sweep.toml --validate 0"
    text = record.table(data)
    assert "| energy (pJ) | 10% | 2 | -3.000% .. +4.050% | 0 |" in text
    assert "| cycles | 0% | 2 | +0.000% .. +0.000% | 0 |" in text
    assert "| 3 | 19 | 2 | 1,200 / 1,200 (+0.000%) | 970 / 1,000 (-3.000%) |" in text


def test_a_run_replaced_the_others_kept(tmp_path, stamped):
    path = tmp_path / "record.toml"
    record.write(path, [("one", output_folder(tmp_path, "a", ROWS)),
                        ("two", output_folder(tmp_path, "b", ROWS[:2]))])
    data = record.write(path, [("two", output_folder(tmp_path, "c", ROWS))])
    assert [r["name"] for r in data["run"]] == ["one", "two", record.MAPPED,
                                                record.MAPPED_ROUTER]
    assert sum(r["run"] == "two" for r in data["result"]) == 4


def test_stale_names_the_change(tmp_path, stamped):
    files, tools = stamped
    data = record.write(tmp_path / "record.toml", [("span", output_folder(tmp_path, "a", ROWS))])
    files["model/src/timing.cpp"] = "cccc"
    tools["verilator"] = "Verilator 5.020"
    reasons = record.stale(data, files, tools)
    assert any("model/src/timing.cpp" in r for r in reasons), reasons
    assert any("verilator is 'Verilator 5.020'" in r for r in reasons), reasons
    assert record.table(data, reasons).startswith("**Stale**")


def test_failed_point_refused(tmp_path, stamped):
    out = output_folder(tmp_path, "a", [{"point": 0, "figure": "all",
                                         "status": "failed: full flow: run failed"}])
    with pytest.raises(record.RecordError, match="point 0 failed: full flow"):
        record.write(tmp_path / "record.toml", [("span", out)])


def test_the_record_in_the_tree_reads(monkeypatch):
    """docs/data/explore_validation.toml parses and tables (its staleness is
    reported, not failed: a changed file stales it until the full tier's
    tests/explore_cycles.sh --record runs again)."""
    if not record.record_path().exists():
        pytest.skip("no record in the tree")
    data = record.load()
    assert data["result"] and record.table(data).count("|") > 10


def test_gate_level(tmp_path, stamped):
    files, tools = stamped
    path = tmp_path / "gls.json"
    path.write_text(json.dumps({"estimate_pj": 275646.0, "pj": 1000000.0, "cycles": 740,
                                "trace": "/x/run1.fst", "counter_mismatches": [],
                                "params": {"Int4MacsPerCycle": 64},
                                "by_state": {"int4 busy": {"cycles": 518, "pj_per_cycle": 5000.0,
                                                           "estimate_pj_per_cycle": 500.0}}}))
    data = record.write(tmp_path / "record.toml", [], [("gls", path)])
    r = data["result"][0]
    assert r["error"] == pytest.approx(-0.724354) and r["status"] == "over tolerance"
    assert "| energy against the gate-level datapath (pJ) | 10% | 1 | -72.435% .. -72.435% | 1 |" \
        in record.table(data)
    assert "| int4 busy | 518 | 500.00 | 5,000 | 0.1000 |" in record.table(data)
    path.write_text(json.dumps({"estimate_pj": 1.0, "pj": 2.0, "cycles": 7, "trace": "t",
                                "counter_mismatches": ["act_int4_busy_o: netlist 3, RTL 4"]}))
    with pytest.raises(record.RecordError, match="not the run's datapath"):
        record.write(tmp_path / "record.toml", [], [("gls", path)])


def test_a_kept_gate_level_measurement_is_priced_by_this_build(tmp_path, stamped, monkeypatch):
    """A kept measurement (docs/data/gate_level_int4_64.json's form: the
    gate-level figures, their states and the run's report) is priced again
    by the estimate of this build (datapath_energy.reprice), not taken with
    the estimate it was kept with; its counters must be the report's."""
    from tcu_tools.phys import datapath_energy
    report = {"activity": {"cycles": 740, "engines": {"int4": {"busy": 518}}},
              "configuration": {"parameters": {"Int4MacsPerCycle": 64}}}
    priced = []

    def reprice(measured, rep):
        priced.append(rep)
        return {**measured, "estimate_pj": 1050000.0,
                "by_state": {k: {**v, "estimate_pj_per_cycle": 5500.0}
                             for k, v in measured["by_state"].items()}}

    monkeypatch.setattr(datapath_energy, "reprice", reprice)
    kept = {"gate_level": {"pj": 1000000.0, "cycles": 740, "params": {"Int4MacsPerCycle": 64},
                           "counters": {"act_cycles_o": 740, "act_int4_busy_o": 518}},
            "trace": "run1.fst", "report": report,
            "by_state": {"int4 busy": {"cycles": 518, "pj_per_cycle": 5000.0,
                                       "estimate_pj_per_cycle": 1.0}}}
    path = tmp_path / "kept.json"
    path.write_text(json.dumps(kept))
    data = record.write(tmp_path / "record.toml", [], [("gls", path)])
    assert priced == [report]
    r = data["result"][0]
    assert (r["fast"], r["full"], r["status"]) == (1050000.0, 1000000.0, "ok")
    assert r["error"] == pytest.approx(0.05)
    assert data["run"][0]["states"][0]["estimate_pj_per_cycle"] == 5500.0
    kept["gate_level"]["counters"]["act_int4_busy_o"] = 517
    path.write_text(json.dumps(kept))
    with pytest.raises(record.RecordError, match="act_int4_busy_o: netlist 517, RTL 518"):
        record.write(tmp_path / "record.toml", [], [("gls", path)])
    del kept["report"]
    path.write_text(json.dumps(kept))
    with pytest.raises(record.RecordError, match="no 'report'"):
        record.write(tmp_path / "record.toml", [], [("gls", path)])


def test_mapped_datapaths_against_the_composition(tmp_path, stamped, monkeypatch, capsys):
    """Every [[whole]] datapath of the data file against the fast
    evaluator's composition from the rest of the file: area and clock within
    their tolerances; with one mapped area and another's clock planted off,
    those two are over tolerance and --check exits 1 naming them."""
    import copy
    from tcu_tools.explore import validate
    from tcu_tools.phys import datafile
    real = datafile.load(record.checkout() / "spec" / "phys_osu018.toml")
    rows = validate.mapped_datapaths(real)
    assert len(rows) == 2 * len(real["whole"]) >= 2
    assert {r["figure"] for r in rows} == {"area_um2", "fmax_mhz"}
    assert [r for r in rows if r["status"] != "ok"] == []
    path = tmp_path / "record.toml"
    record.write(path, [("span", output_folder(tmp_path, "a", ROWS))])
    assert record.main(["--record", str(path), "--check"]) == 0
    planted = copy.deepcopy(real)
    planted["whole"][1]["area_um2"] *= 1.2
    planted["whole"][2]["fmax_mhz"] *= 1.5
    monkeypatch.setattr(datafile, "load", lambda _path: planted)
    data = record.write(path, [])
    over = record.over_tolerance(data)
    assert len(over) == 2, over
    assert over[0].startswith(f"{record.MAPPED} point 1 area_um2:")
    assert over[1].startswith(f"{record.MAPPED} point 2 fmax_mhz:")
    capsys.readouterr()
    assert record.main(["--record", str(path), "--check"]) == 1
    err = capsys.readouterr().err
    assert f"over tolerance: {record.MAPPED} point 1 area_um2" in err, err
    assert f"over tolerance: {record.MAPPED} point 2 fmax_mhz" in err, err


def test_widest_router_against_the_extrapolation(tmp_path, stamped, monkeypatch, capsys):
    """The data file's widest router point against the composition's
    extrapolation from the narrower ones (validate.mapped_router): area
    and clock within their tolerances. Planted: the widest point taken at
    the next narrower one's figures (not scaled) misses its area, and
    --check exits 1 naming it."""
    from tcu_tools.explore import validate
    from tcu_tools.phys import compose, datafile
    real = datafile.load(record.checkout() / "spec" / "phys_osu018.toml")
    rows = validate.mapped_router(real)
    assert {"router_area_um2", "fmax_mhz"} <= {r["figure"] for r in rows}
    assert [r for r in rows if r["status"] != "ok"] == [], rows
    path = tmp_path / "record.toml"
    data = record.write(path, [("span", output_folder(tmp_path, "a", ROWS))])
    assert record.over_tolerance(data) == []
    widest = rows[0]["whole"]
    square = sorted(p["params"]["WordsPerCycle"] for p in real["point"]
                    if p["unit"] == "tcu_operand_router"
                    and p["params"]["WordsPerCycle"] == p["params"]["DWordsPerCycle"])
    scaled = compose.router_scaled
    monkeypatch.setattr(compose, "router_scaled",
                        lambda points, w, dw: scaled(points, square[-2], square[-2]))
    data = record.write(path, [])
    over = record.over_tolerance(data)
    assert over and over[0].startswith(
        f"{record.MAPPED_ROUTER} point {widest} router_area_um2:"), over
    capsys.readouterr()
    assert record.main(["--record", str(path), "--check"]) == 1
    assert f"over tolerance: {record.MAPPED_ROUTER} point {widest}" in capsys.readouterr().err


def _router_energy_data():
    """The data file with a made-up energy at its 2/2 router point (busy
    6900, idle 3160.2 pJ a cycle): two energy points with a selection
    network narrower than the widest, as mapped_router's energy rows need
    (the data file measured 1/1, 4/4 and 8/8)."""
    from tcu_tools.explore import fast, params
    from tcu_tools.phys import datafile
    try:
        fast.tcu_module()
    except params.UsageError as error:
        pytest.skip(str(error))
    real = datafile.load(record.checkout() / "spec" / "phys_osu018.toml")
    data = dict(real, point=[dict(p) for p in real["point"]])
    two = next(p for p in data["point"] if p["unit"] == "tcu_operand_router"
               and p["params"]["WordsPerCycle"] == p["params"]["DWordsPerCycle"] == 2)
    two.update(busy_pj_per_cycle=6900.0, idle_pj_per_cycle=3160.2)
    return data


def test_widest_router_energy_against_the_rule(tmp_path, stamped, monkeypatch, capsys):
    """The widest router point's busy and idle energy a cycle (measured at
    gate level) against the energy estimate's rule (tcu::router_figures)
    from the other router points measured with energy but the narrowest
    (1/1: no selection network), the point left out
    (validate.mapped_router): with a made-up 2/2 energy beside the
    measured 4/4, the rule is the line through them by hand and within
    the energy tolerance; without it (the data file's own points) no
    energy row. Planted: the rule's figures at 4/4 (not extrapolated) miss
    the busy energy, and --check exits 1 naming it."""
    from tcu_tools.explore import validate
    from tcu_tools.phys import compose, datafile
    data = _router_energy_data()
    real = datafile.load(record.checkout() / "spec" / "phys_osu018.toml")
    assert not [r for r in validate.mapped_router(real) if r["figure"] in validate.ROUTER_ENERGY]
    routers = sorted((p for p in data["point"] if p["unit"] == "tcu_operand_router"
                      and p.get("busy_pj_per_cycle") is not None),
                     key=lambda p: p["params"]["WordsPerCycle"])
    assert [p["params"]["WordsPerCycle"] for p in routers] == [1, 2, 4, 8]
    rows = {r["figure"]: r for r in validate.mapped_router(data) if r["whole"] == "router 8/8"}
    for figure, key in validate.ROUTER_ENERGY.items():
        assert rows[figure]["status"] == "ok", rows[figure]
        assert rows[figure]["full"] == routers[-1][key]
    # by hand: beyond 4/4, the line through 2/2 and 4/4
    line = 7598.710082 + (8 - 4) * (7598.710082 - 6900.0) / (4 - 2)
    assert routers[2]["busy_pj_per_cycle"] == 7598.710082
    assert float(rows["router_busy_pj_per_cycle"]["fast"]) == pytest.approx(line, rel=1e-6)
    monkeypatch.setattr(datafile, "load", lambda _path: data)
    path = tmp_path / "record.toml"
    assert record.over_tolerance(record.write(path, [("span", output_folder(tmp_path, "a", ROWS))])) == []
    real_energy = compose.router_energy
    monkeypatch.setattr(compose, "router_energy",
                        lambda width, points=None: real_energy(4.0, points))
    over = record.over_tolerance(record.write(path, []))
    assert over and over[0].startswith(
        f"{record.MAPPED_ROUTER} point router 8/8 router_busy_pj_per_cycle:"), over
    capsys.readouterr()
    assert record.main(["--record", str(path), "--check"]) == 1
    assert f"over tolerance: {record.MAPPED_ROUTER} point router 8/8" in capsys.readouterr().err


@pytest.mark.xfail(strict=True, reason="the energy rule from the 1/1 and 4/4 router points gives "
                   "the 8/8 router +11.0 % busy energy (over the 10 % tolerance): 1/1 has no "
                   "selection network; named in docs/guide/explore-evaluator.md")
def test_widest_router_energy_from_every_narrower_point():
    """The 8/8 router's busy and idle energy a cycle (gate level) against
    the energy estimate's rule from the data file's narrower router
    points measured with energy (1/1 and 4/4), the narrowest included:
    within the energy tolerance. It misses (strict: a data file or rule
    that comes to hold it fails here until the mark goes)."""
    from tcu_tools.explore import validate
    from tcu_tools.phys import compose, datafile
    _router_energy_data()  # the tcu module, or skip
    real = datafile.load(record.checkout() / "spec" / "phys_osu018.toml")
    routers = sorted((p for p in real["point"] if p["unit"] == "tcu_operand_router"
                      and p.get("busy_pj_per_cycle") is not None),
                     key=lambda p: p["params"]["WordsPerCycle"])
    widest = routers[-1]
    rule = compose.router_energy(float(widest["params"]["WordsPerCycle"]), routers[:-1])
    for key in validate.ROUTER_ENERGY.values():
        assert abs(rule[key] / widest[key] - 1) <= validate.TOLERANCES["energy_pj"], key
