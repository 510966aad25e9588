"""Unit tests of tcu_tools.explore: sweep parsing and its errors, point
numbering, sharding, the Pareto front, CSV/plot output and merge. No model
is built here (tests/explore_sweep.sh runs a real sweep)."""
import csv
import json
import sys
from pathlib import Path

import pytest

from tcu_tools.explore import build as builds, cli, params, pareto, runs, sweep as sweeps

GEMM = ["--ptx", "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "--m", "16", "--n", "8",
        "--k", "64"]


def run_main(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_rtl_parameters_are_the_specs():
    spec = params.tcu_spec.load()
    rtl = params.rtl_parameters()
    assert list(rtl) == [p.name for p in spec.parameters if p.axis]
    assert "SynthImpl" not in rtl  # picks the implementations: synth.sh sets it
    assert params.router_parameters() == ["WordsPerCycle", "DWordsPerCycle", "GatherBypass"]
    assert rtl["Int4MacsPerCycle"] == 1024
    assert rtl["IntStages"] == 2
    assert "F64FmasPerCycle" in rtl
    # The operand router's.
    assert rtl["WordsPerCycle"] == 64
    assert rtl["DWordsPerCycle"] == 64
    assert rtl["GatherBypass"] == 1


def test_a_point_breaking_a_rule_is_refused(capsys):
    code, _, err = run_main(["--axis", "Int4MacsPerCycle=64,96"] + GEMM, capsys)
    assert code == params.EXIT_USAGE
    assert "point 1: Int4MacsPerCycle=96 gives 3 int4 units: an odd count above 1" in err


def test_words_per_cycle_is_an_axis(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[axes]\nWordsPerCycle = [1, 4]\n[fixed]\nDWordsPerCycle = 4\n')
    sweep = sweeps.Sweep()
    sweeps.read_sweep_file(path, params.rtl_parameters(), sweep)
    assert sweep.axes == {"WordsPerCycle": [1, 4]}
    assert sweep.fixed == {"DWordsPerCycle": 4}


def test_rf_bandwidth_above_words_per_cycle_is_refused(tmp_path, capsys):
    code, _, err = run_main(["--axis", "WordsPerCycle=4,8", "--set", "rf_bandwidth=8"] + GEMM +
                            ["--cache", str(tmp_path / "c"), "--out", str(tmp_path / "o")], capsys)
    assert code == params.EXIT_USAGE
    assert "point 0: rf_bandwidth=8 is more than its WordsPerCycle=4" in err


def test_points_are_the_product_in_axis_order():
    rtl = params.rtl_parameters()
    sweep = sweeps.Sweep(axes={"Int4MacsPerCycle": [32, 64], "rf_bandwidth": [4, 8, 16]},
                          fixed={"IntStages": 1})
    points = sweep.points(dict(rtl, **params.RUN_DEFAULTS))
    assert len(points) == 6
    assert [(p["Int4MacsPerCycle"], p["rf_bandwidth"]) for p in points[:4]] == [
        (32, 4), (32, 8), (32, 16), (64, 4)]
    assert all(p["IntStages"] == 1 and p["warps"] == 1 for p in points)
    assert points[0]["FmaStages"] == rtl["FmaStages"]


def test_register_file_axes_are_run_parameters(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[axes]\nrf_banks = [1, 2, 4]\nrf_read_ports = [1, 2]\n'
                    '[fixed]\nrf_write_ports = 2\nrf_bandwidth = 4096\n')
    sweep = sweeps.Sweep()
    rtl = params.rtl_parameters()
    sweeps.read_sweep_file(path, rtl, sweep)
    assert sweep.axes == {"rf_banks": [1, 2, 4], "rf_read_ports": [1, 2]}
    points = sweep.points(dict(rtl, **params.RUN_DEFAULTS))
    assert [(p["rf_banks"], p["rf_read_ports"]) for p in points] == [
        (1, 1), (1, 2), (2, 1), (2, 2), (4, 1), (4, 2)]
    assert all(p["rf_write_ports"] == 2 and p["rf_bandwidth"] == 4096 for p in points)
    # The defaults leave the banks unbound (tcu/timing.h's FrontEndConfig).
    assert (params.RUN_DEFAULTS["rf_banks"], params.RUN_DEFAULTS["rf_read_ports"],
            params.RUN_DEFAULTS["rf_write_ports"]) == (16, 1, 1)


def test_run_point_passes_the_register_file_to_tcu(tmp_path):
    # A stand-in tcu that records its command line and writes a gemm report.
    fake = tmp_path / "tcu"
    fake.write_text(f"""#!{sys.executable}
import json, sys
argv = sys.argv[1:]
open({str(tmp_path / "argv.json")!r}, "w").write(json.dumps(argv))
report = argv[argv.index("--report") + 1]
open(report, "w").write(json.dumps({{"gemm": {{"instructions": 1, "macs": 8192, "cycles": 32,
                                             "peak_macs_per_cycle": 1024}},
                                    "macs": {{"dense": 8192, "issued": 8192}},
                                    "variants": [{{"ptx": "x", "passed": 128, "failed": 0,
                                                   "cycles": 32, "instructions": 1}}]}}))
""")
    fake.chmod(0o755)
    build = builds.Build("k", tmp_path, {})
    point = dict(params.RUN_DEFAULTS, rf_bandwidth=64, rf_banks=2, rf_read_ports=1,
                 rf_write_ports=3)
    workload = sweeps.Workload(ptx=GEMM[1], m=16, n=8, k=64)
    figures = runs.run_point(point, build, workload, tmp_path / "p0")
    argv = json.loads((tmp_path / "argv.json").read_text())
    pairs = dict(zip(argv, argv[1:]))
    assert (pairs["--rf-bandwidth"], pairs["--rf-banks"], pairs["--rf-read-ports"],
            pairs["--rf-write-ports"]) == ("64", "2", "1", "3")
    assert figures["macs_per_cycle"] == 256.0 and "status" not in figures


def test_sweep_file_is_read(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[workload]\nptx = "x"\nm = 16\nn = 8\nk = 64\n'
                    '[axes]\nIntStages = [1, 2]\nbackpressure = [0, 0.25]\n'
                    '[fixed]\nInt4MacsPerCycle = 64\n')
    sweep = sweeps.Sweep()
    sweeps.read_sweep_file(path, params.rtl_parameters(), sweep)
    assert sweep.axes == {"IntStages": [1, 2], "backpressure": [0.0, 0.25]}
    assert sweep.fixed == {"Int4MacsPerCycle": 64}
    assert (sweep.workload.ptx, sweep.workload.m, sweep.workload.k) == ("x", 16, 64)


@pytest.mark.parametrize("text, message", [
    ("[axes]\nIntStages = [1,\n", r"s\.toml: not valid TOML"),
    ("[axes]\nIntStages = [1]\nIntStages = [2]\n", r"s\.toml: not valid TOML: .*line 3"),
    ("[axes]\n\nBogus = [1]\n", r"s\.toml:3: unknown parameter 'Bogus'"),
    ("[axes]\nIntStages = 2\n", r"s\.toml:2: axes\.IntStages must be a non-empty list"),
    ("[axes]\nIntStages = []\n", r"s\.toml:2: axes\.IntStages must be a non-empty list"),
    ("[axes]\nIntStages = [-1]\n", r"s\.toml:2: IntStages must be a non-negative integer"),
    ("[axes]\nrf_bandwidth = [0]\n", r"s\.toml:2: rf_bandwidth must be at least 1"),
    ("[axes]\nrf_banks = [0]\n", r"s\.toml:2: rf_banks must be at least 1"),
    ("[axes]\nrf_banks = [1025]\n", r"s\.toml:2: rf_banks must be at most 1024"),
    ("[axes]\nrf_read_ports = [\"two\"]\n", r"s\.toml:2: rf_read_ports must be an integer"),
    ("[fixed]\nrf_write_ports = -1\n", r"s\.toml:2: rf_write_ports must be at least 1"),
    ("[axes]\nrf_write_ports = [1.5]\n", r"s\.toml:2: rf_write_ports must be an integer"),
    ("[axes]\nbackpressure = [1.5]\n", r"s\.toml:2: backpressure must be in \[0, 1\)"),
    ("[workload]\nshape = 3\n", r"s\.toml:2: unknown workload key 'shape'"),
    ("[workload]\nm = \"16\"\n", r"s\.toml:2: workload\.m must be an integer"),
    ("[sweep]\nx = 1\n", r"s\.toml:1: unknown table or key 'sweep'"),
])
def test_bad_sweep_files_name_file_line_and_reason(tmp_path, capsys, text, message):
    path = tmp_path / "s.toml"
    path.write_text(text)
    code, _, err = run_main([str(path)] + GEMM + ["--cache", str(tmp_path / "c")], capsys)
    assert code == params.EXIT_USAGE
    assert pytest.importorskip("re").search(message, err), err


@pytest.mark.parametrize("argv, message", [
    (["--axis", "Foo=1,2"] + GEMM, "unknown parameter 'Foo'"),
    (["--axis", "IntStages"] + GEMM, "expected NAME=VALUE"),
    (["--axis", "IntStages=,"] + GEMM, "no values"),
    (["--axis", "IntStages=1,2", "--set", "IntStages=1"] + GEMM, "both an axis and fixed"),
    (["--axis", "IntStages=1,2"], "a gemm workload needs --ptx"),
    (["--axis", "IntStages=1,2", "--mix", "0"], "a mix workload needs --mix COUNT"),
    (GEMM, "no axes"),
    (["--axis", "IntStages=1", "--shard", "2/2"] + GEMM, "--shard 2/2: expected i/N"),
    (["--axis", "rf_banks=2,0"] + GEMM, "rf_banks must be at least 1"),
    (["--axis", "rf_read_ports=1,x"] + GEMM, "rf_read_ports must be an integer"),
    (["--set", "rf_write_ports=65", "--axis", "IntStages=1"] + GEMM,
     "rf_write_ports must be at most 64"),
    (["missing.toml", "--axis", "IntStages=1"] + GEMM, "missing.toml: cannot read"),
])
def test_bad_command_lines_exit_2(tmp_path, capsys, argv, message):
    code, _, err = run_main(argv + ["--cache", str(tmp_path / "c")], capsys)
    assert code == params.EXIT_USAGE
    assert message in err


def test_pareto_front():
    rows = [
        {"point": 0, "transistors": 100, "macs_per_cycle": 10},
        {"point": 1, "transistors": 200, "macs_per_cycle": 30},
        {"point": 2, "transistors": 250, "macs_per_cycle": 25},  # beaten by point 1
        {"point": 3, "transistors": 100, "macs_per_cycle": 8},   # beaten by point 0
        {"point": 4, "transistors": 400, "macs_per_cycle": 60},
        {"point": 5, "transistors": "", "macs_per_cycle": 99},   # no area: not placed
    ]
    assert pareto.area_front(rows) == {0, 1, 4}
    assert pareto.pareto_front(rows, "transistors", "macs_per_cycle") == {0, 1, 4}


def fake_shard(directory: Path, points, shard, total=4, sweep_hash="abc"):
    directory.mkdir()
    columns = ["point", "IntStages", "cycles", "macs_per_cycle", "mac_utilization", "cells",
               "transistors", "logic_depth", "rf_bandwidth", "status"]
    meta = {"tcu_explore": 1, "sweep": {"axes": {"IntStages": [1, 2, 3, 4]}, "fixed": {},
                                        "workload": {}},
            "sweep_hash": sweep_hash, "points": total, "shard": shard, "workload_text": "w",
            "rtl": {}, "columns": columns}
    (directory / "explore.json").write_text(json.dumps(meta))
    with open(directory / "explore.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        for p in points:
            writer.writerow({"point": p, "IntStages": p + 1, "cycles": 100 - p,
                             "macs_per_cycle": 10 + p, "mac_utilization": 0.5,
                             "cells": 1000 * (p + 1), "transistors": 4000 * (p + 1),
                             "logic_depth": 20 - p, "rf_bandwidth": 32, "status": "ok"})


def test_merge_joins_shards_in_point_order(tmp_path, capsys):
    fake_shard(tmp_path / "a", [1, 3], [1, 2])
    fake_shard(tmp_path / "b", [0, 2], [0, 2])
    code, out, _ = run_main(["merge", str(tmp_path / "a"), str(tmp_path / "b"), "--out",
                             str(tmp_path / "m")], capsys)
    assert code == params.EXIT_OK
    with open(tmp_path / "m" / "explore.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["point"] for r in rows] == ["0", "1", "2", "3"]
    assert [r["pareto"] for r in rows] == ["1", "1", "1", "1"]
    assert (tmp_path / "m" / "throughput_vs_area.png").stat().st_size > 1000
    assert (tmp_path / "m" / "utilization_vs_rf.png").stat().st_size > 1000
    assert json.loads((tmp_path / "m" / "explore.json").read_text())["shard"] == [0, 1]
    assert "IntStages" in out.splitlines()[0]


def test_merge_reports_a_missing_shard(tmp_path, capsys):
    fake_shard(tmp_path / "a", [1, 3], [1, 2])
    code, _, err = run_main(["merge", str(tmp_path / "a"), "--out", str(tmp_path / "m")], capsys)
    assert code == params.EXIT_FAIL
    assert "2 of 4 point(s) missing" in err
    assert "shards missing: 0 of 2 (--shard i/2)" in err


def test_merge_refuses_different_sweeps_and_overlaps(tmp_path, capsys):
    fake_shard(tmp_path / "a", [1, 3], [1, 2])
    fake_shard(tmp_path / "b", [0, 2], [0, 2], sweep_hash="other")
    fake_shard(tmp_path / "c", [1], [1, 2])
    code, _, err = run_main(["merge", str(tmp_path / "a"), str(tmp_path / "b")], capsys)
    assert code == params.EXIT_USAGE and "a different sweep" in err
    code, _, err = run_main(["merge", str(tmp_path / "a"), str(tmp_path / "c")], capsys)
    assert code == params.EXIT_USAGE and "point 1 appears in more than one shard" in err
    code, _, err = run_main(["merge", str(tmp_path / "nothing")], capsys)
    assert code == params.EXIT_USAGE and "not an explore output folder" in err
