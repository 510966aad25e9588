"""tcu_phys.table --check / --update: a document's phys-tables part is the
data file's tables, and a stale or edited figure in it is refused."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from tcu_phys import table  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def test_the_docs_hold_the_data_files_tables():
    assert table.main(["--check", str(REPO / "README.md"), str(REPO / "docs/physical.md")]) == 0


def test_a_changed_figure_is_refused_and_update_restores_it(tmp_path):
    doc = tmp_path / "doc.md"
    text = (REPO / "docs/physical.md").read_text()
    start = text.index(table.BEGIN)
    cut = text.index("| `tcu_int4_dot` | Stages=2 |", start)
    row_end = text.index("\n", cut)
    row = text[cut:row_end]
    stale = row.replace("| 252,237 |", "| 252,238 |")
    assert stale != row
    doc.write_text(text[:cut] + stale + text[row_end:])
    assert table.main(["--check", str(doc)]) == 1
    assert table.main(["--update", str(doc)]) == 0
    assert doc.read_text() == text


def test_a_document_without_markers_is_an_error(tmp_path):
    doc = tmp_path / "none.md"
    doc.write_text("no tables here\n")
    assert table.main(["--check", str(doc)]) == 1
