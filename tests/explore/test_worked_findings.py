"""The worked sweep's findings (tcu_tools.explore.worked_findings) follow
the rows they read: each claim is checked on a small made-up sweep where it
holds, and again with the rows changed so that it does not."""
import csv
import itertools
import json

import pytest

from tcu_tools.explore import worked_findings as wf

AXES = {"E2m1MacsPerCycle": [64, 128], "E2m1Stages": [2, 3], "F16FmasPerCycle": [4, 8],
        "FmaStages": [1, 2], "WordsPerCycle": [4, 16], "rf_banks": [4, 8],
        "rf_read_ports": [1, 2], "warps": [1, 2]}


def made_up_rows() -> list[dict]:
    rows = []
    for i, values in enumerate(itertools.product(*AXES.values())):
        r = {"point": str(i), **{k: str(v) for k, v in zip(AXES, values)}}
        macs = int(r["E2m1MacsPerCycle"]) + 8 * int(r["F16FmasPerCycle"])
        util = min(1.0, int(r["WordsPerCycle"]) / 8)
        fmax = 55.0 if r["FmaStages"] == "1" else 70.0
        area = macs / 10 + int(r["WordsPerCycle"]) / 4 + int(r["E2m1Stages"]) / 100
        r.update(cycles=str(round(1e6 / (macs * util))), mac_utilization=f"{util * 100:.1f}%",
                 area_mm2=f"{area:.4f}", fmax_mhz=str(fmax),
                 tops_per_mm2=f"{macs * util * fmax / area:.6f}",
                 energy_pj_per_mac=str(400.0 + int(r["FmaStages"]) * 5),
                 router_area_um2=str(int(r["WordsPerCycle"]) * 5e5),
                 source="interpolated" if i % 4 else "composed", path_unit="tcu_f16_dot",
                 pareto="1" if i % 7 == 0 else "0", pareto_energy="1" if i % 11 == 0 else "0",
                 status="ok")
        rows.append(r)
    return rows


def write(tmp_path, rows):
    with open(tmp_path / "explore.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (tmp_path / "explore.json").write_text(json.dumps(
        {"sweep": {"axes": AXES, "fixed": {"Int4Enable": 0}}, "workload_text": "a made-up suite"}))
    return tmp_path


def test_the_register_file_claim_follows_the_cycles(tmp_path):
    rows = made_up_rows()
    text = wf.findings(write(tmp_path, rows))
    assert "does not matter here" in text and "none of the 32 datapaths" in text
    assert "256 points over 8 axes" in text and "a made-up suite" in text
    planted = next(r for r in rows if r["rf_banks"] == "8")
    planted["cycles"] = str(int(planted["cycles"]) + 1)
    text = wf.findings(write(tmp_path, rows))
    assert "does not matter" not in text
    assert "change the cycles of 1 of the 32 datapaths" in text


def test_the_e2m1_stage_claim_follows_the_clock(tmp_path):
    rows = made_up_rows()
    assert "buys no clock here" in wf.findings(write(tmp_path, rows))
    for r in rows:
        if r["E2m1Stages"] == "3":
            r["fmax_mhz"] = str(float(r["fmax_mhz"]) + 10)
    text = wf.findings(write(tmp_path, rows))
    assert "buys no clock" not in text and "buys clock" in text and "80.0 MHz against 70.0" in text


def test_the_router_and_stage_figures_are_the_rows(tmp_path):
    text = wf.findings(write(tmp_path, made_up_rows()))
    assert "4 words a cycle leave the units 50% busy, 16 words 100%" in text
    assert "55.0 MHz at 1 FMA stage and 70.0 MHz at 2" in text
    assert "`interpolated` at 192, `composed` at 64" in text


@pytest.mark.parametrize("column", ["rf_banks", "pareto_energy"])
def test_a_run_without_a_column_is_refused_naming_it(tmp_path, column, capsys):
    rows = [{k: v for k, v in r.items() if k != column} for r in made_up_rows()]
    with pytest.raises(wf.FindingsError, match=f"no column {column}"):
        wf.findings(write(tmp_path, rows))
    assert wf.main([str(tmp_path)]) == 1
    assert f"no column {column}" in capsys.readouterr().err


def test_a_failed_point_is_refused(tmp_path):
    rows = made_up_rows()
    rows[5]["status"] = "build failed"
    with pytest.raises(wf.FindingsError, match="point 5 has status build failed"):
        wf.findings(write(tmp_path, rows))
