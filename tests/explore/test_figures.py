"""Unit tests of tcu_tools.explore's figures: MAC counts read from a run's
report (the f16 count), the physical columns (TOPS, TOPS/mm^2, TOPS/W), the
synthesis JSON contract, the Pareto fronts and label placement."""
import json
import random
import re
import sys
from pathlib import Path

import pytest

from tcu_tools.explore import build, labels, output, pareto, physical, runs, synthesis
from tcu_tools.explore import params, sweep

DATA = Path(__file__).resolve().parent / "data"
F16 = "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"


def mix_report():
    """A real `tcu run --mix --engine golden --report` (tests/explore/data)."""
    return json.loads((DATA / "mix_report.json").read_text())


def test_mix_macs_are_the_reports_and_f16_is_four_quad_pairs():
    report = mix_report()
    f16 = [v for v in report["variants"] if v["ptx"] == F16]
    assert f16 and f16[0]["instructions"] > 0
    # m8n8k4 .f16: four 8x8x4 products, one per quad pair, 1,024 MACs.
    assert f16[0]["dense_macs"] == 1024 * f16[0]["instructions"]
    figures = runs.report_figures(report, "mix", "mix_report.json")
    assert figures["macs"] == report["macs"]["dense"]
    assert figures["issued_macs"] == report["macs"]["issued"]
    assert figures["instructions"] == sum(v["passed"] + v["failed"] for v in report["variants"])
    # The dense count, by hand from the shapes: m*n*k, times 4 for f16.
    assert figures["macs"] == sum((v["passed"] + v["failed"]) * dense_per_instruction(v["ptx"])
                                  for v in report["variants"])


def fake_tcu(tmp_path, report: dict) -> Path:
    """A stand-in point tool that writes `report` where --report says."""
    (tmp_path / "report.in.json").write_text(json.dumps(report))
    fake = tmp_path / "tcu"
    fake.write_text(f"""#!{sys.executable}
import shutil, sys
argv = sys.argv[1:]
shutil.copy({str(tmp_path / "report.in.json")!r}, argv[argv.index("--report") + 1])
""")
    fake.chmod(0o755)
    return fake


def test_a_mix_points_macs_count_f16_as_four_quad_pairs(tmp_path):
    # Through run_point, as a sweep runs a point: the MAC column of a mix
    # is the by-hand dense count (1,024 per m8n8k4 .f16, not m*n*k = 256).
    report = mix_report()
    fake_tcu(tmp_path, report)
    point = dict(params.RUN_DEFAULTS, rf_bandwidth=64)
    figures = runs.run_point(point, build.Build("k", tmp_path, {}),
                             sweep.Workload(kind="mix", count=60), tmp_path / "p0")
    assert dense_per_instruction(F16) == 1024
    assert any(v["ptx"] == F16 and v["passed"] for v in report["variants"])
    by_hand = sum((v["passed"] + v["failed"]) * dense_per_instruction(v["ptx"])
                  for v in report["variants"])
    assert figures["macs"] == by_hand


def dense_per_instruction(ptx: str) -> int:
    """The test's own count: m*n*k from the spelling, four quad pairs for f16."""
    m, n, k = (int(x) for x in re.search(r"\.m(\d+)n(\d+)k(\d+)\.", ptx).groups())
    return m * n * k * (4 if ".f16." in ptx else 1)


def test_a_report_without_mac_counts_is_refused():
    report = mix_report()
    del report["macs"]
    with pytest.raises(runs.ReportError, match=r"r\.json: no \"macs\""):
        runs.report_figures(report, "mix", "r.json")


def test_energy_is_read_per_dense_mac():
    report = mix_report()
    dense = report["macs"]["dense"]
    report["energy"] = {"pj": 2.0 * dense, "pj_per_issued_mac": 9.9, "library": "OSU 0.18 µm, typical corner",
                        "per_engine": {}}
    figures = runs.report_figures(report, "mix", "r.json")
    assert figures["energy_pj"] == 2.0 * dense
    assert figures["energy_pj_per_mac"] == pytest.approx(2.0)
    assert figures["energy_library"] == "OSU 0.18 µm, typical corner"
    del report["energy"]
    assert "energy_pj_per_mac" not in runs.report_figures(report, "mix", "r.json")


def test_physical_columns():
    row = {"macs_per_cycle": 1024, "fmax_mhz": 500, "area_um2": 2e6, "energy_pj_per_mac": 0.5}
    # 2 ops x 1024 MACs/cycle x 500 MHz = 1.024e12 ops/s; 2 mm^2; 2 ops / 0.5 pJ.
    assert physical.derive(row) == {"area_mm2": 2.0, "tops": 1.024, "tops_per_mm2": 0.512,
                                    "tops_per_w": 4.0}
    # The router's area adds; the lower clock rules.
    row.update(router_area_um2=2e6, router_fmax_mhz=250)
    assert physical.derive(row)["tops"] == 0.512
    assert physical.derive(row)["area_mm2"] == 4.0
    assert physical.derive(row)["tops_per_mm2"] == 0.128
    # Missing sources: no column (empty in the CSV).
    assert physical.derive({"macs_per_cycle": 10, "fmax_mhz": "", "energy_pj_per_mac": "nan"}) == {}


def test_router_estimate(monkeypatch):
    """Without a router axis, the router's area comes from the data file's
    router points at the point's widths (scaled from 1 and 4 words), and
    tops_per_mm2 counts it; a synthesized router's area is kept. Planted:
    the estimate left out of tops_per_mm2 must change it."""
    from tcu_tools.phys import datafile
    router = {"unit": "tcu_operand_router", "flip_flop_area_um2": 0.0, "critical_path_ns": 1.0,
              "fmax_mhz": 1e3}
    points = [dict(router, params={"WordsPerCycle": 1, "DWordsPerCycle": 1}, area_um2=1e6),
              dict(router, params={"WordsPerCycle": 4, "DWordsPerCycle": 4}, area_um2=1.3e6)]
    monkeypatch.setattr(datafile, "load", lambda path: {"point": points})
    row = {"macs_per_cycle": 1024, "fmax_mhz": 500, "area_um2": 2e6,
           "WordsPerCycle": 8, "DWordsPerCycle": 8}
    estimate = physical.router_estimate(row)
    # 1e6 + (8 - 1) x 0.3e6 / 3 = 1.7e6
    assert estimate["router_area_um2"] == pytest.approx(1.7e6)
    assert "scaled" in estimate["router_area_source"]
    row.update(estimate)
    # 1.024 TOPS over 3.7 mm^2
    assert physical.derive(row)["tops_per_mm2"] == pytest.approx(1.024 / 3.7, rel=1e-3)
    assert physical.derive(row)["tops"] == 1.024  # its clock is not taken
    planted = {k: v for k, v in row.items() if k != "router_area_um2"}
    assert physical.derive(planted)["tops_per_mm2"] != pytest.approx(1.024 / 3.7, rel=1e-3)
    assert physical.router_estimate({**row, "router_area_um2": 5.0}) == {}
    assert physical.router_estimate({"area_um2": 1.0}) == {}


def test_synthesis_json_contract(tmp_path):
    synth = synthesis.Synthesis("k", tmp_path, {})
    path = tmp_path / "synth.json"
    path.write_text(json.dumps({"library": "OSU 0.18 µm, typical corner", "rows": [
        {"unit": "tcu_int4_dot", "area_um2": 1.0},
        {"unit": "tcu_datapath", "area_um2": 123456.5, "flip_flop_area_um2": 2000.0,
         "fmax_mhz": 250.5, "critical_path_ns": 3.99, "path_start": "a", "path_end": "b"}]}))
    synthesis.read_physical(path, synth)
    assert synth.figures["area_um2"] == 123456.5 and synth.figures["fmax_mhz"] == 250.5
    assert synth.library == "OSU 0.18 µm, typical corner" and synth.note == ""
    path.write_text(json.dumps({"area_um2": 5.0}))
    synth = synthesis.Synthesis("k", tmp_path, {})
    synthesis.read_physical(path, synth)
    assert synth.figures == {"area_um2": 5.0}
    assert "no flip_flop_area_um2, fmax_mhz" in synth.note
    synth = synthesis.Synthesis("k", tmp_path, {})
    synthesis.read_physical(tmp_path / "none.json", synth)
    assert synth.figures == {} and "no cell-library figures" in synth.note
    # tcu_tools.phys.area's bottom-up JSON: the top's figures, its dot
    # units inside it under "units" (not rows: the datapath's area is the
    # top's, not its first unit's).
    path.write_text(json.dumps({
        "top": "tcu_datapath", "library": "OSU 0.18 µm, typical corner",
        "area_um2": 10246917.0, "flip_flop_area_um2": 4406048.0, "fmax_mhz": 53.476,
        "critical_path_ns": 18.7, "path_start": "a", "path_end": "b",
        "units": {"tcu_e2m1_dot__Stages_2__SynthImpl_1": {"count": 1, "area_um2": 547362.0}}}))
    synth = synthesis.Synthesis("k", tmp_path, {})
    synthesis.read_physical(path, synth)
    assert synth.figures["area_um2"] == 10246917.0 and synth.figures["fmax_mhz"] == 53.476
    assert synth.note == ""


def test_energy_front():
    rows = [
        {"point": 0, "tops": 1.0, "energy_pj_per_mac": 1.0},
        {"point": 1, "tops": 2.0, "energy_pj_per_mac": 1.5},
        {"point": 2, "tops": 1.5, "energy_pj_per_mac": 2.0},  # beaten by point 1
        {"point": 3, "tops": 0.5, "energy_pj_per_mac": 0.5},
        {"point": 4, "tops": 3.0, "energy_pj_per_mac": ""},  # no energy: not placed
    ]
    assert pareto.energy_front(rows) == {0, 1, 3}


def test_rows_without_energy_plot_and_print(tmp_path, capsys):
    rows = [{"point": i, "IntStages": i, "macs_per_cycle": 10 + i, "cells": 100 * (i + 1),
             "status": "ok"} for i in range(3)]
    meta = {"sweep": {"axes": {"IntStages": [0, 1, 2]}}, "columns": ["point", "IntStages",
            "macs_per_cycle", "cells", "tops", "energy_pj_per_mac", "status"],
            "workload_text": "w", "notes": ["no energy here"]}
    output.finish(rows, meta, tmp_path)
    out = capsys.readouterr().out
    assert "note: no energy here" in out
    assert (tmp_path / "energy_vs_throughput.png").stat().st_size > 1000
    header = (tmp_path / "explore.csv").read_text().splitlines()[0].split(",")
    assert "pareto_energy" in header and "tops" in header


def dense_set(count=40, seed=3):
    rng = random.Random(seed)
    return [(1000 + rng.random() * 50, 10 + rng.random(), f"int4={rng.choice([256, 512, 1024])} "
             f"ist={rng.randint(1, 3)} rf={rng.choice([8, 16, 32, 64])}") for _ in range(count)]


def axes_for(points):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5.5))
    ax.scatter([p[0] for p in points], [p[1] for p in points])
    fig.tight_layout()
    return fig, ax


def test_labels_do_not_overlap_on_a_dense_set():
    import matplotlib.pyplot as plt
    points = dense_set()
    fig, ax = axes_for(points)
    placed = labels.place_labels(ax, points)
    assert all(a is not None for a in placed), "a label found no free place"
    fig.canvas.draw()
    boxes = labels.label_boxes(placed, fig.canvas.get_renderer())
    assert len(boxes) == len(points)
    assert labels.overlapping_pairs(boxes) == []
    plt.close(fig)


def test_labels_keep_off_markers_and_lines():
    import matplotlib.pyplot as plt
    points = dense_set(count=20, seed=5)
    fig, ax = axes_for(points)
    fig.canvas.draw()
    front = sorted(p[:2] for p in points)[:8]
    obstacles = (labels.marker_boxes(ax, [p[:2] for p in points]) +
                 labels.line_boxes(ax, front))
    placed = labels.place_labels(ax, points, obstacles=obstacles)
    assert all(a is not None for a in placed)
    fig.canvas.draw()
    boxes = labels.label_boxes(placed, fig.canvas.get_renderer())
    assert labels.overlapping_pairs(boxes) == []
    assert not [(b, o) for b in boxes for o in obstacles if labels.overlaps(b, o)]
    # Two labels of one text at one point are one.
    again = labels.place_labels(ax, [points[0], points[0]])
    assert again[1] is None
    plt.close(fig)


# Proofs that the checks above can fail: each planted with the old
# behaviour, the test must fail.
def old_placement(ax, points, fontsize=8, obstacles=None):
    """The placement tools/explore.py had: every label at (-8, 8) points,
    right-aligned, whatever it covers."""
    return [ax.annotate(t, (x, y), textcoords="offset points", xytext=(-8, 8), ha="right",
                        fontsize=fontsize) for x, y, t in points]


def test_the_overlap_check_fails_with_the_old_placement(monkeypatch):
    monkeypatch.setattr(labels, "place_labels", old_placement)
    with pytest.raises(AssertionError):
        test_labels_do_not_overlap_on_a_dense_set()


def test_the_obstacle_check_fails_when_obstacles_are_ignored(monkeypatch):
    place = labels.place_labels
    monkeypatch.setattr(labels, "place_labels",
                        lambda ax, points, fontsize=8, obstacles=None: place(ax, points, fontsize))
    with pytest.raises(AssertionError):
        test_labels_keep_off_markers_and_lines()


def test_the_f16_check_fails_on_the_old_count(monkeypatch, tmp_path):
    # The old count: m*n*k of the spelling (256 for m8n8k4 .f16).
    def old_macs(data, where):
        count = 0
        for v in data["variants"]:
            m, n, k = (int(x) for x in re.search(r"\.m(\d+)n(\d+)k(\d+)\.", v["ptx"]).groups())
            count += (v["passed"] + v["failed"]) * m * n * k
        return count, count
    monkeypatch.setattr(runs, "report_macs", old_macs)
    with pytest.raises(AssertionError):
        test_a_mix_points_macs_count_f16_as_four_quad_pairs(tmp_path)


def test_overlap_of_boxes():
    assert labels.overlaps((0, 0, 10, 10), (5, 5, 15, 15))
    assert not labels.overlaps((0, 0, 10, 10), (10, 0, 20, 10))
    assert labels.overlaps((0, 0, 10, 10), (10.5, 0, 20, 10), pad=1)


def fake_synth(tmp_path, monkeypatch, status: int, csv_status: str, cells: str = "100"):
    """A stand-in scripts/synth.sh (the flow without the cell library)
    writing one CSV row, exiting `status`."""
    script = tmp_path / "synth.sh"
    script.write_text(f"""#!{sys.executable}
import sys
argv = sys.argv[1:]
open(argv[argv.index("--csv") + 1], "w").write(
    "unit,parameters,cells,flip_flops,transistors,logic_depth,seconds,status\\n"
    "tcu_datapath,x,{cells},10,400+,7,3,{csv_status}\\n")
sys.exit({status})
""")
    script.chmod(0o755)
    monkeypatch.setattr(synthesis, "synth_script", lambda: script)
    monkeypatch.setattr(synthesis, "library_missing", lambda: "no library here (test)")
    synth = synthesis.Synthesis("k", tmp_path / "entry", {"IntStages": 1})
    synthesis.synthesize(synth, None)
    return synth


def test_without_the_library_the_generic_figures(tmp_path, monkeypatch):
    synth = fake_synth(tmp_path, monkeypatch, 0, "ok")
    assert synth.figures["cells"] == "100" and synth.figures["transistors"] == "400"
    assert "area_um2" not in synth.figures and synth.error == ""
    assert "no cell-library figures (no library here (test))" in synth.note
    # Cached: the same figures, without running again.
    again = synthesis.Synthesis("k", tmp_path / "entry", {"IntStages": 1})
    synthesis.synthesize(again, None)
    assert again.cached and again.figures["cells"] == "100"


def test_a_failed_synthesis_is_an_error(tmp_path, monkeypatch):
    synth = fake_synth(tmp_path, monkeypatch, 1, "failed", cells="")
    assert synth.error.startswith("synthesis failed (see ") and synth.figures == {}


def fake_area(tmp_path, monkeypatch, status: int):
    """A stand-in tcu_tools.phys.area writing its JSON, exiting `status`;
    the arguments it was given in args.txt."""
    script = tmp_path / "area.py"
    script.write_text(f"""import json, sys
argv = sys.argv[1:]
open({str(tmp_path / "args.txt")!r}, "w").write(" ".join(argv))
if {status} == 0:
    open(argv[argv.index("--json") + 1], "w").write(json.dumps({{
        "top": argv[0], "library": "OSU 0.18 µm, typical corner", "area_um2": 5.0e6,
        "flip_flop_area_um2": 1.0e6, "cells": 1234, "flip_flops": 56, "fmax_mhz": 150.0,
        "critical_path_ns": 6.667, "path_start": "a", "path_end": "b", "seconds": 12.3}}))
sys.exit({status})
""")
    monkeypatch.setattr(synthesis, "AREA_COMMAND", [sys.executable, str(script)])
    monkeypatch.setattr(synthesis, "library_missing", lambda: "")
    synth = synthesis.Synthesis("k", tmp_path / "entry", {"IntStages": 1},
                                units=tmp_path / "units")
    synthesis.synthesize(synth, None)
    return synth


def test_the_datapath_is_mapped_bottom_up_with_the_unit_cache(tmp_path, monkeypatch):
    synth = fake_area(tmp_path, monkeypatch, 0)
    args = (tmp_path / "args.txt").read_text()
    assert args.startswith("tcu_datapath --params IntStages=1 --json ")
    assert f"--units-cache {tmp_path / 'units'}" in args
    assert synth.figures["area_um2"] == 5.0e6 and synth.figures["fmax_mhz"] == 150.0
    assert synth.figures["cells"] == "1234" and synth.figures["transistors"] == ""
    assert synth.library == "OSU 0.18 µm, typical corner" and synth.error == ""
    again = synthesis.Synthesis("k", tmp_path / "entry", {"IntStages": 1})
    synthesis.synthesize(again, None)
    assert again.cached and again.figures["area_um2"] == 5.0e6


def test_a_failed_mapping_is_an_error(tmp_path, monkeypatch):
    synth = fake_area(tmp_path, monkeypatch, 1)
    assert synth.error.startswith("synthesis failed (see ") and synth.figures == {}

