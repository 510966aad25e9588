"""tcu_tools.phys.scatter_probe's command line (no mapping): a width
outside 1..64 or not a number is refused with exit 2, naming it; the probe
lists the router's scatter sources and its own file, which exists."""
from __future__ import annotations

import pytest

from tcu_tools.phys import scatter_probe


@pytest.mark.parametrize("word", ["0", "65", "3x", "f"])
def test_bad_width_is_refused(word, capsys):
    with pytest.raises(SystemExit) as e:
        scatter_probe.main([word])
    assert e.value.code == 2
    assert f"found '{word}'" in capsys.readouterr().err


def test_its_sources_exist():
    assert scatter_probe.PROBE.exists()
    assert all(s.exists() for s in scatter_probe.SOURCES)
    assert "module router_scatter_probe" in scatter_probe.PROBE.read_text()
