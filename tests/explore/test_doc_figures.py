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


def test_unknown_figure_and_missing_data(monkeypatch):
    with pytest.raises(doc_figures.FigureError, match="unknown figure 'nope'"):
        doc_figures.figure("nope")
    monkeypatch.setattr(doc_figures, "_data", lambda: {"point": [], "engine_regs": []})
    with pytest.raises(doc_figures.FigureError, match="no tcu_operand_router point"):
        doc_figures.figure("router-2-2")
    with pytest.raises(doc_figures.FigureError, match=r"no \[\[engine_regs\]\]"):
        doc_figures.figure("engine-regs-table")
