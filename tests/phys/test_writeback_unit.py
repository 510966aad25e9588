"""The router's write-back (rtl/tcu_router_writeback.sv) as a unit type of
the physical flow (tcu_tools.phys.units): mapped from its synthesis sources
(the scatter's synthesis form, not the fast one), at SynthImpl = 1, its
points in the data file's list, and the router's own sources (its stamps)
holding it. No mapping."""
from __future__ import annotations

from tcu_tools.phys import units

TOP = "tcu_router_writeback"
WIDTHS = (1, 2, 3, 4, 5, 6, 8, 12, 16)


def names(top: str, rtl=None) -> list[str]:
    return [p.stem for p in units.sources_of(top, rtl)]


def test_it_is_a_unit_type_of_the_router_family():
    u = units.UNIT_TYPES[TOP]
    assert u.family == "router" and u.stimulus == "" and u.params == {"DWordsPerCycle": 64}


def test_its_points_are_the_widths_without_configs():
    points = [p for p in units.POINTS if p.name == TOP]
    assert [p.params["DWordsPerCycle"] for p in points] == list(WIDTHS)
    assert all(p.configs == () for p in points)


def test_it_maps_the_synthesis_form():
    sources = names(TOP)
    assert sources[0] == "tcu_pkg" and sources[1] == TOP
    assert {"tcu_router_scatter_synth", "tcu_clock_gate", "tcu_word_mux_synth",
            "tcu_frag_layout"} <= set(sources)
    assert not [s for s in sources if s.endswith("_fast")]
    assert units.synthesis_params(TOP, {"DWordsPerCycle": 4}) == \
        {"DWordsPerCycle": 4, "SynthImpl": 1}


def test_the_router_stamps_cover_it():
    assert TOP in names("tcu_operand_router")
