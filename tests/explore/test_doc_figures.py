"""The figures docs/guide/explore-evaluator.md takes from its data
(tcu_tools.explore.doc_figures, `<!-- figure: NAME -->`): every marker of
the docs names a figure that computes, and a figure follows its data (a
planted change of the data file's router point changes the figure)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tcu_tools.explore import doc_figures

REPO = Path(__file__).resolve().parents[2]


def test_every_marker_of_the_docs_computes():
    names = set()
    for page in (REPO / "docs").rglob("*.md"):
        names |= set(re.findall(r"<!-- figure: *(.*?) *-->", page.read_text()))
    assert names, "no figure marker in docs/"
    for name in sorted(names):
        assert doc_figures.figure(name).strip(), name


def test_a_figure_follows_its_data(monkeypatch):
    real = doc_figures._data()
    before = doc_figures.figure("router-2-2")
    assert f"{doc_figures._router(real, 2)['area_um2']:,.0f} µm²" in before
    planted = dict(real, point=[dict(p) for p in real["point"]])
    doc_figures._router(planted, 2)["area_um2"] = 7_000_000.0
    monkeypatch.setattr(doc_figures, "_data", lambda: planted)
    after = doc_figures.figure("router-2-2")
    assert "7,000,000 µm²" in after and after != before



def test_router_widths_follow_the_data_file(monkeypatch):
    """status.md's mapped router widths: the data file's square points."""
    real = doc_figures._data()
    widths = sorted(p["params"]["WordsPerCycle"] for p in real["point"]
                    if p["unit"] == "tcu_operand_router"
                    and p["params"]["WordsPerCycle"] == p["params"]["DWordsPerCycle"])
    assert doc_figures.figure("router-widths").endswith(f"and {widths[-1]}/{widths[-1]}")
    planted = dict(real, point=[p for p in real["point"]
                                if not (p["unit"] == "tcu_operand_router"
                                        and p["params"]["WordsPerCycle"] == widths[-1])])
    monkeypatch.setattr(doc_figures, "_data", lambda: planted)
    assert doc_figures.figure("router-widths").endswith(f"and {widths[-2]}/{widths[-2]}")

def test_the_toggles_table_follows_its_data(monkeypatch):
    real = doc_figures._data()
    planted = dict(real, engine_regs_toggles=[dict(t) for t in real["engine_regs_toggles"]])
    planted["engine_regs_toggles"][0]["pj_per_toggle"] = 0.5
    monkeypatch.setattr(doc_figures, "_data", lambda: planted)
    row = doc_figures.figure("engine-regs-toggles").splitlines()[2]
    t = planted["engine_regs_toggles"][0]
    assert f"| 0.5000 | {t['toggles_per_issued_mac'] * 0.5:.4f} |" in row


def test_unknown_figure_and_missing_data(monkeypatch):
    with pytest.raises(doc_figures.FigureError, match="unknown figure 'nope'"):
        doc_figures.figure("nope")
    monkeypatch.setattr(doc_figures, "_data", lambda: {"point": [], "engine_regs": []})
    with pytest.raises(doc_figures.FigureError, match="no tcu_operand_router point"):
        doc_figures.figure("router-2-2")
    with pytest.raises(doc_figures.FigureError, match=r"no \[\[engine_regs\]\]"):
        doc_figures.figure("engine-regs-table")
    with pytest.raises(doc_figures.FigureError, match=r"no \[\[engine_regs_toggles\]\]"):
        doc_figures.figure("engine-regs-toggles")


def test_dot_delays_follow_the_data_file(monkeypatch):
    """docs/guide/physical.md's deepest-stage delays (`dot-delay`,
    `dot-delay-in-place`) are the data file's points in ns, MHz and FO4
    (the critical path over spec/phys_calib_osu018.toml's FO4: 0.0992 ns,
    so the f64 dot's 5.20 ns at FmaStages=19 is 52 FO4 by hand), and follow
    a planted change of the point; a figure given arguments it takes none
    of, or a unit without a point there, is refused by name."""
    assert doc_figures._fo4_ns() == pytest.approx(0.0992, abs=5e-5)
    text = doc_figures.figure("dot-delay tcu_f64_dot FmaStages=19")
    p = doc_figures._find(doc_figures._data()["point"], "f64", unit="tcu_f64_dot",
                          FmaStages=19)
    assert text == (f"{p['critical_path_ns']:.2f} ns, "
                    f"{round(p['critical_path_ns'] / 0.099171)} FO4 ({p['fmax_mhz']:.0f} MHz)")
    real = doc_figures._data()
    planted = dict(real, point=[dict(q) for q in real["point"]])
    q = doc_figures._find(planted["point"], "f64", unit="tcu_f64_dot", FmaStages=19)
    q.update(critical_path_ns=6.0, fmax_mhz=1e3 / 6.0)
    monkeypatch.setattr(doc_figures, "_data", lambda: planted)
    assert doc_figures.figure("dot-delay tcu_f64_dot FmaStages=19") == \
        "6.00 ns, 61 FO4 (167 MHz)"
    placed = doc_figures.figure("dot-delay-in-place tcu_int4_dot Stages=6")
    assert placed.endswith(" FO4 alone)") and "in its register wrapper" in placed
    with pytest.raises(doc_figures.FigureError, match=r"no tcu_f64_dot point .*FmaStages.*7"):
        doc_figures.figure("dot-delay tcu_f64_dot FmaStages=7")
    with pytest.raises(doc_figures.FigureError, match="router-2-2 x"):
        doc_figures.figure("router-2-2 x")


def _router_off_powers_misses() -> list[str]:
    """The routers mapped at widths not powers of two (docs/data/
    router_W_D.json, kept out of the data file: points the rule was not
    chosen on) whose area or clock the composition's rule from the data
    file's points misses beyond the validation's tolerances."""
    from tcu_tools.explore.validate import TOLERANCES
    misses = []
    for point, rule, path in doc_figures.router_off_powers_errors():
        for figure, key in (("fmax_mhz", "fmax_mhz"), ("router_area_um2", "area_um2")):
            error = rule[key] / point[key] - 1
            if abs(error) > TOLERANCES[figure]:
                misses.append(f"{path} {key} {error:+.3f}")
    return misses


def test_router_rule_between_powers_of_two():
    """The composition's router rule (compose.router_scaled from the data
    file's points: the rest linear in the gather width, the write-back at
    the scatter width) against every router mapped at a width not a power
    of two: area and clock within the validation's tolerances."""
    from tcu_tools.phys import compose
    assert [p["params"]["WordsPerCycle"] for p, _, _ in doc_figures.router_off_powers_errors()]
    assert _router_off_powers_misses() == []
    # the adding slots by hand: the width less its largest power-of-two divisor
    assert [compose.scatter_adding_slots(d) for d in (1, 2, 3, 4, 5, 6, 8, 12, 64)] == [
        0, 0, 2, 0, 4, 4, 0, 8, 0]


def test_planted_router_rule_without_the_writeback(monkeypatch):
    """Planted: the write-back not apart (no write-back figures: the whole
    router's line) misses the 6/6 router's area."""
    from tcu_tools.phys import compose
    monkeypatch.setattr(compose, "writeback_area", lambda points, d_words: None)
    assert any("router_6_6.json area_um2" in m for m in _router_off_powers_misses())


def _adding_slot_misses() -> list[str]:
    """Each write-back point at a width not a power of two held out: the
    line through the powers of two plus the adding slot fit on the other
    such points, against it, off by more than the router area tolerance
    of the router at that width (the rule's, w/w: the figure the
    write-back is part of)."""
    from tcu_tools.explore.validate import TOLERANCES
    from tcu_tools.phys import compose
    points = doc_figures._data()["point"]
    off = [p for p in points if p["unit"] == compose.WRITEBACK
           and compose.scatter_adding_slots(p["params"]["DWordsPerCycle"])]
    assert len(off) >= 2
    misses = []
    for held in off:
        width = held["params"]["DWordsPerCycle"]
        others = [p for p in points if p is not held]
        error = ((compose.writeback_area(others, width) - held["area_um2"])
                 / compose.router_scaled(points, width, width)["area_um2"])
        if abs(error) > TOLERANCES["router_area_um2"]:
            misses.append(f"{width}: {error:+.3f}")
    return misses


def test_the_adding_slot_predicts_each_width():
    """The write-back at each width not a power of two (the data file's
    tcu_router_writeback points) held out in turn: the rule from the others
    (its line through the powers of two plus an adding slot's cost fit on
    the other such widths) within the router area tolerance of the router
    at that width."""
    assert _adding_slot_misses() == []
    assert "a slot that adds" in doc_figures.router_writeback()


def test_planted_adding_slot_free(monkeypatch):
    """Planted: an adding slot costing nothing misses a held-out width."""
    from tcu_tools.phys import compose
    monkeypatch.setattr(compose, "adding_slot_um2", lambda points: 0.0)
    assert _adding_slot_misses()


def test_router_rule_at_unequal_widths():
    """The composition's router rule against the routers mapped at unequal
    gather and scatter widths (docs/data/router_W_D.json, W != D, kept out
    of the data file): area and clock within the validation's tolerances."""
    from tcu_tools.explore.validate import TOLERANCES
    errors = doc_figures.router_off_powers_errors(equal=False)
    assert errors
    for point, rule, path in errors:
        assert abs(rule["fmax_mhz"] / point["fmax_mhz"] - 1) <= TOLERANCES["fmax_mhz"], path
        assert abs(rule["area_um2"] / point["area_um2"] - 1) <= TOLERANCES["router_area_um2"], path


def test_planted_router_rule_at_the_mean_width(monkeypatch):
    """Planted: both widths taken at their mean misses the 2/8 router."""
    from tcu_tools.phys import compose
    real = compose.router_scaled
    monkeypatch.setattr(compose, "router_scaled", lambda points, w, d: real(
        points, (w + d) // 2, (w + d) // 2))
    with pytest.raises(AssertionError):
        test_router_rule_at_unequal_widths()
