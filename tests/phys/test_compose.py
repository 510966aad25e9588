"""The composition of a configuration's figures from unit points
(python/tcu_tools/phys/compose.py), on made-up points whose sums are worked by
hand: the units, the sparse muxes, the router scaled from its 1- and 4-word
points (area and path linear in the width), the skid at the widest D of the enabled engines, the control and
the activity counters; and the comparison with a whole datapath. The
planted twins take the router's narrow point at every width, leave the
skid or the activity counters out or keep the skid at its full width, and
must miss."""
from __future__ import annotations


import pytest

from tcu_tools.phys import compose


def point(unit: str, params: dict, area: float, ff: float = 0.0, path: float = 1.0,
          pj: float | None = None, flip_flops: int = 1) -> dict:
    return {"unit": unit, "params": params, "area_um2": area, "flip_flop_area_um2": ff,
            "critical_path_ns": path, "fmax_mhz": 1e3 / path, "startpoint": "s",
            "endpoint": "e", "pj_per_issued_op": pj, "idle_pj_per_cycle": 1.0,
            "flip_flops": flip_flops}


POINTS = [
    point("tcu_int4_dot", {"Stages": 2}, 100.0, 10.0, 4.0, 2.0),
    point("tcu_int4_dot", {"Stages": 1}, 90.0, 5.0, 5.0, 1.5),
    point("tcu_sparse_mux", {}, 7.0),
    point("tcu_operand_router", {"WordsPerCycle": 1, "DWordsPerCycle": 1, "GatherBypass": 1},
          5000.0, 4000.0, 6.0, 0.5),
    point("tcu_operand_router", {"WordsPerCycle": 4, "DWordsPerCycle": 4, "GatherBypass": 1},
          5600.0, 4100.0, 6.0),
    point("tcu_router_writeback", {"DWordsPerCycle": 1}, 1000.0),
    point("tcu_router_writeback", {"DWordsPerCycle": 4}, 1150.0),
    # 8192 D bits, 16 tag bits and a valid bit: 8209 flip-flops
    point("tcu_output_skid", {}, 8209.0, 4104.5, flip_flops=8209),
    point("tcu_datapath_ctrl", {}, 20.0, 10.0),
    point("tcu_activity", {}, 50.0, 40.0),
]

# int4 only, 4 units (128 MACs), Stages 1, sparse on; router 16/8 words.
VALUES = {"Int4MacsPerCycle": 128, "E2m1MacsPerCycle": 64, "F16FmasPerCycle": 4,
          "F64FmasPerCycle": 4, "IntStages": 1, "E2m1Stages": 2, "FmaStages": 2,
          "Int4Enable": 1, "SparseEnable": 1, "E2m1Enable": 0, "F16Enable": 0, "F64Enable": 0,
          "WordsPerCycle": 16, "DWordsPerCycle": 8, "GatherBypass": 1}

# By hand: 4 units at Stages 1 (360), 4 sparse muxes (28): 388. The router
# at 16/8: its write-back at 8 words along its 1- and 4-word points,
# 1150 + 4 x 150 / 3 = 1350, and the rest (the router's points less their
# write-back: 4000 at 1/1, 4450 at 4/4) at 16 words, 4450 + 12 x 150 =
# 6250: 7600. The skid holding the
# int4 engine's 4096 D bits: 4096 + 17 flip-flops of 8209, 4113 (flip-flop
# area 2056.5). Control 20. Activity: one engine's 50 and the cycle
# counter, a fifth of one: 60 (flip-flops 48).
EXPECTED_AREA = 360 + 28 + 7600 + 4113 + 20 + 60
# Flip-flops: 4 x 5; router 4000 + 15 x 100 / 3 (at the gather width); skid
# 2056.5; control 10; activity 48.
EXPECTED_FF = 20 + 4000 + 1500 / 3 + 2056.5 + 10 + 48


def check(d: dict) -> None:
    assert d["area_um2"] == pytest.approx(EXPECTED_AREA)
    assert d["flip_flop_area_um2"] == pytest.approx(EXPECTED_FF)
    assert d["int4_area_um2"] == pytest.approx(388)
    assert d["dot_units_area_um2"] == pytest.approx(360)
    assert d["router_area_um2"] == pytest.approx(7600)
    # the clock: the slowest part, the router (6 ns at 1/1 and 4/4: 6 ns)
    assert d["critical_path_ns"] == 6.0 and d["path_unit"] == "tcu_operand_router"
    assert d["missing"] == []


def test_composition_by_hand():
    check(compose.datapath(POINTS, "t", VALUES))


def test_skid_at_the_widest_enabled_d():
    """With the f16 engine (8192 D bits) the skid is its whole point; the
    e2m1 and f64 engines (4096 each) beside int4 keep it at 4113; two
    engines count two activity counters and the cycle counter (110)."""
    def glue(**enables):
        values = dict(VALUES, **enables)
        d = compose.datapath(POINTS, "t", values)
        return d["control_area_um2"]
    assert glue() == pytest.approx(4113 + 20 + 60)
    assert glue(F16Enable=1) == pytest.approx(8209 + 20 + 110)
    assert glue(E2m1Enable=1, F64Enable=1) == pytest.approx(4113 + 20 + 160)


def test_d_widths_are_the_rtls():
    """compose's D widths, the skid's measured width and the counters of a
    tcu_activity against the RTL as pyslang elaborates it: tcu_datapath's
    engine D nets, tcu_output_skid's DataW default, tcu_activity's counter
    outputs (each CountW bits)."""
    import pyslang
    from tcu_tools.phys.units import RTL
    options = pyslang.ast.CompilationOptions()
    options.topModules = {"tcu_datapath", "tcu_output_skid", "tcu_activity"}
    compilation = pyslang.ast.Compilation(pyslang.Bag([options]))
    for path in sorted(RTL.glob("*.sv")):
        compilation.addSyntaxTree(pyslang.syntax.SyntaxTree.fromFile(str(path)))
    tops = {i.name: i.body for i in compilation.getRoot().topInstances}
    assert {e: tops["tcu_datapath"].find(f"{e}_d").type.bitWidth
            for e in compose.ENGINES} == compose.D_BITS
    assert int(tops["tcu_output_skid"].find("DataW").value.value) == compose.SKID_D_BITS
    act = tops["tcu_activity"]
    width = int(act.find("CountW").value.value)
    outputs = [q for q in act.portList if q.direction == pyslang.ast.ArgumentDirection.Out]
    assert [q.type.bitWidth for q in outputs] == [width] * compose.ACTIVITY_COUNTERS


def test_planted_skid_at_full_width(monkeypatch):
    """The skid kept at its measured 8192 bits whatever the engines."""
    monkeypatch.setattr(compose, "D_BITS", dict.fromkeys(compose.D_BITS, 8192))
    with pytest.raises(AssertionError):
        check(compose.datapath(POINTS, "t", VALUES))


def test_planted_activity_left_out():
    """The activity counters left out (no tcu_activity point): named
    missing, and the area misses them."""
    d = compose.datapath([p for p in POINTS if p["unit"] != "tcu_activity"], "t", VALUES)
    assert d["missing"] == ["tcu_activity"]
    with pytest.raises(AssertionError):
        check(d)


class _Module:
    """A stand-in tcu module: the widths asked, fixed figures back."""

    def __init__(self):
        self.widths = []

    def router_figures(self, width):
        self.widths.append(width)
        return {"busy_pj_per_cycle": 2000.0 + width, "idle_pj_per_cycle": 820.0}


def test_router_energy_is_the_estimates(monkeypatch):
    """The router's energy a cycle is the energy estimate's rule at the
    configuration's mean width (the tcu module's router_figures, here a
    stand-in): 16/8 words, the mean 12; the units' idle figure apart."""
    module = _Module()
    monkeypatch.setattr("tcu_tools.explore.fast.tcu_module", lambda: module)
    d = compose.datapath(POINTS, "t", VALUES)
    assert module.widths == [12.0]
    assert d["router_busy_pj_per_cycle"] == 2012.0
    assert d["router_idle_pj_per_cycle"] == 820.0
    assert d["idle_pj_per_cycle"] == pytest.approx(4.0)  # the units' alone


def test_router_energy_none_without_the_module(monkeypatch):
    def missing():
        raise ImportError("no tcu module")
    monkeypatch.setattr("tcu_tools.explore.fast.tcu_module", missing)
    assert compose.datapath(POINTS, "t", VALUES)["router_busy_pj_per_cycle"] is None


def test_router_point_used_where_measured():
    r = compose.router_scaled(POINTS, 4, 4)
    assert r["area_um2"] == 5600.0 and r["scaled"] == ""


def test_whole_comparison():
    whole = {"top": "tcu_datapath", "params": {"Int4MacsPerCycle": 32, "SparseEnable": 0,
                                               "E2m1Enable": 0, "F16Enable": 0,
                                               "F64Enable": 0, "IntStages": 2,
                                               "SynthImpl": 1},
             "library": "L", "area_um2": 1500.0, "flip_flop_area_um2": 900.0, "cells": 1,
             "fmax_mhz": 200.0, "critical_path_ns": 5.0, "path_start": "a", "path_end": "b"}
    w = compose.against_whole(POINTS, whole)
    # one unit at Stages 2: 100 + skid 4113 + control 20 + activity 60, no router
    assert w["composed_area_um2"] == pytest.approx(4293)
    assert w["area_ratio"] == pytest.approx(1500 / 4293)
    assert w["left_out_area_um2"] == pytest.approx(1500 - 4293)
    assert w["units_and_control_area_um2"] == pytest.approx(120)
    assert "SynthImpl" not in w["params"]


def test_planted_skid_left_out():
    """The glue without the output skid: the control only."""
    with pytest.raises(AssertionError):
        check(compose.datapath([p for p in POINTS if p["unit"] != "tcu_output_skid"], "t",
                               VALUES))


def test_planted_router_unscaled(monkeypatch):
    """The router's narrow point taken as it is at every width."""
    real = compose.router_scaled
    monkeypatch.setattr(compose, "router_scaled", lambda points, w, dw: real(points, 1, 1))
    with pytest.raises(AssertionError):
        check(compose.datapath(POINTS, "t", VALUES))


def test_planted_router_energy_at_the_gather_width(monkeypatch):
    """The router's energy asked at WordsPerCycle (16) instead of the mean
    width."""
    real = compose.router_energy
    monkeypatch.setattr(compose, "router_energy", lambda width: real(16.0))
    with pytest.raises(AssertionError):
        test_router_energy_is_the_estimates(monkeypatch)


def test_engine_beside_its_units():
    """An engine of 4 units at Stages 1 (the unit point 90 um^2) measured
    at 1000: its units 360, 640 around them."""
    e = {"top": "tcu_int4_engine", "params": {"Units": 4, "SparseEnable": 0, "Stages": 1,
                                              "SynthImpl": 1},
         "library": "L", "area_um2": 1000.0, "flip_flop_area_um2": 200.0, "cells": 50,
         "fmax_mhz": 100.0, "critical_path_ns": 10.0, "path_start": "s", "path_end": "e"}
    d = compose.engine_beside_units(POINTS, e)
    assert d["units_area_um2"] == pytest.approx(360)
    assert d["around_units_area_um2"] == pytest.approx(640)
    assert "SynthImpl" not in d["params"]
    e["params"]["Stages"] = 3
    with pytest.raises(ValueError, match="no tcu_int4_dot Stages=3 point"):
        compose.engine_beside_units(POINTS, e)


def test_planted_engine_units_at_other_stages(monkeypatch):
    """The engine's units taken at the default Stages 2, not its own."""
    real = compose._find
    monkeypatch.setattr(compose, "_find", lambda points, unit, params: real(
        points, unit, {"Stages": 2}))
    with pytest.raises(AssertionError):
        test_engine_beside_its_units()


def placed(p: dict, path: float) -> dict:
    return dict(p, in_place_critical_path_ns=path, in_place_fmax_mhz=1e3 / path,
                in_place_startpoint="in_x_0", in_place_endpoint="out_y_0")


def test_clock_in_place():
    """Each part's clock in its register wrapper where it has one: the
    int4 unit at Stages 1 in place (5 ns alone) 7 ns, slower than the
    router's 6 ns (no in-place figure: its own); the sparse mux in place
    3 ns. The datapath's clock is the unit's 7 ns; the int4 engine's the
    unit's (the mux is faster)."""
    points = [dict(p) for p in POINTS]
    points[1] = placed(points[1], 7.0)
    points[2] = placed(points[2], 3.0)
    d = compose.datapath(points, "t", VALUES)
    assert d["critical_path_ns"] == 7.0 and d["fmax_mhz"] == pytest.approx(1e3 / 7)
    assert d["path_unit"] == "tcu_int4_dot" and d["path_start"] == "in_x_0"
    assert d["path_in_place"] is True
    assert d["int4_fmax_mhz"] == pytest.approx(1e3 / 7)
    assert d["int4_clock_set_by"] == "tcu_int4_dot"
    # the mux slower in place than the unit: it sets the engine's clock
    points[2] = placed(points[2], 8.0)
    d = compose.datapath(points, "t", VALUES)
    assert d["int4_clock_set_by"] == "tcu_sparse_mux" and d["path_unit"] == "tcu_sparse_mux"


def engine_table(fmax: float, units: int = 4) -> dict:
    return {"top": "tcu_int4_engine", "params": {"Units": units, "SparseEnable": 0, "Stages": 1},
            "library": "L", "area_um2": 1000.0, "flip_flop_area_um2": 200.0, "cells": 50,
            "fmax_mhz": fmax, "critical_path_ns": 1e3 / fmax, "path_start": "s",
            "path_end": "e"}


def test_engine_clock_set_by():
    """The unit in place at 7 ns (142.9 MHz). An engine top at 100 MHz is
    set by its logic around the units; one at 140 MHz (within the 5% two
    mappings differ by) by the unit; the engine's clock is the slower of the
    two, in the [[engine]] row and in the configuration's composition, whose
    clock is no faster than the engine's either way."""
    points = [placed(dict(p), 7.0) if p["unit"] == "tcu_int4_dot" else p for p in POINTS]
    slow = compose.engine_beside_units(points, engine_table(100.0))
    assert slow["unit_in_place_fmax_mhz"] == pytest.approx(1e3 / 7)
    assert slow["clock_set_by"] == "tcu_int4_engine around its units"
    near = compose.engine_beside_units(points, engine_table(140.0))
    assert near["clock_set_by"] == "tcu_int4_dot"
    d = compose.datapath(points, "t", VALUES, [slow])
    assert d["int4_fmax_mhz"] == pytest.approx(100.0)
    assert d["int4_clock_set_by"] == "tcu_int4_engine around its units"
    assert (d["fmax_mhz"], d["path_unit"]) == (pytest.approx(100.0), "tcu_int4_engine")
    d = compose.datapath(points, "t", VALUES, [near])
    assert d["int4_fmax_mhz"] == pytest.approx(140.0)
    assert d["int4_clock_set_by"] == "tcu_int4_dot"
    assert (d["fmax_mhz"], d["path_unit"]) == (pytest.approx(140.0), "tcu_int4_dot")
    assert not d["path_in_place"]  # the engine top's figure, not the unit's in place


def test_planted_clock_of_the_unit_alone(monkeypatch):
    """The unit's own clock (ideal ports) taken instead of its clock in
    place: the datapath's clock is the router's 6 ns, not the unit's 7."""
    monkeypatch.setattr(compose, "in_place", lambda p: (p["critical_path_ns"], "s", "e"))
    with pytest.raises(AssertionError):
        test_clock_in_place()


def test_engine_top_sets_the_datapath_clock():
    """An engine top at 100 MHz, slower than every part in place (the unit
    7 ns, the router 6 ns): the datapath's clock is the engine's, set by
    the engine top (its logic around its units)."""
    points = [placed(dict(p), 7.0) if p["unit"] == "tcu_int4_dot" else p for p in POINTS]
    d = compose.datapath(points, "t", VALUES, [compose.engine_beside_units(
        points, engine_table(100.0))])
    assert d["fmax_mhz"] == pytest.approx(100.0) and d["path_unit"] == "tcu_int4_engine"
    assert d["path_in_place"] is False


BOTTOM_UP = "bottom_up_around_units_area_um2"  # the data file's key


def around_table(units: int, flat: float, bottom_up: float | None, fmax: float = 100.0) -> dict:
    t = dict(engine_table(fmax, units), around_units_area_um2=flat)
    if bottom_up is not None:
        t[BOTTOM_UP] = bottom_up
    return t


def test_engine_around_as_the_full_flow_maps_it():
    """Tables at 1 and 4 units, flat 600 and 630, bottom-up 620 and 770:
    at 2 units the bottom-up area linear between them, 620 + 150 / 3 =
    670, and the explored point adds it; a table without the bottom-up
    figure at that stage count leaves the flat one (610); a table of the
    bottom-up figure alone (no clock) gives the area and no clock."""
    tables = [around_table(1, 600, 620), around_table(4, 630, 770)]
    a = compose.engine_around(tables, "int4", 2, 1)
    assert a["area_um2"] == pytest.approx(670)
    assert "bottom-up" in a["how"]
    flat = [around_table(1, 600, 620), around_table(4, 630, None)]
    assert compose.engine_around(flat, "int4", 2, 1)["area_um2"] == pytest.approx(610)
    alone = [{"top": "tcu_int4_engine", "params": {"Units": 1, "SparseEnable": 0, "Stages": 1},
              BOTTOM_UP: 620.0}]
    a = compose.engine_around(alone, "int4", 2, 1)
    assert a["area_um2"] == pytest.approx(620) and a["fmax_mhz"] is None
    data = {"point": POINTS, "engine": tables}
    values = dict(VALUES, Int4MacsPerCycle=64)  # 2 units at Stages 1
    c = compose.explored_point(data, values)
    d = compose.datapath(POINTS, "t", values)
    assert c["area_um2"] == pytest.approx(d["area_um2"] + 670)
    assert compose.explored_point({"point": POINTS, "engine": alone}, values)["area_um2"] == \
        pytest.approx(d["area_um2"] + 620)


def test_planted_engine_around_flat(monkeypatch):
    """The bottom-up figure not read: the flat area around the units taken
    where the bottom-up one is there (610 at 2 units, not 670)."""
    monkeypatch.setattr(compose, "BOTTOM_UP", "absent")
    with pytest.raises(AssertionError):
        test_engine_around_as_the_full_flow_maps_it()


def test_int4_tables_at_the_points_sparse_enable():
    """The int4 engine's tables at the point's SparseEnable (the sparse
    operand path's registers and multiplexers): a sparse point takes the
    sparse tables (900), a dense one the dense (620); without a sparse
    table the dense one, not exact."""
    dense = around_table(1, 600, 620)
    sparse = dict(around_table(1, 880, 900), params={"Units": 1, "SparseEnable": 1, "Stages": 1})
    assert compose.engine_around([dense, sparse], "int4", 1, 1, 1)["area_um2"] == 900
    assert compose.engine_around([dense, sparse], "int4", 1, 1, 0)["area_um2"] == 620
    a = compose.engine_around([dense], "int4", 1, 1, 1)
    assert a["area_um2"] == 620 and not a["exact"]
    # the sparse tables hold the engine's sparse muxes: not counted again
    # (4 units x 7), the dense engine's clock kept (100 MHz)
    c = compose.explored_point({"point": POINTS, "engine": [dense, sparse]}, VALUES)
    d = compose.datapath(POINTS, "t", VALUES)
    assert c["area_um2"] == pytest.approx(d["area_um2"] + 900 - 28)
    assert compose.engine_around([dense, sparse], "int4", 1, 1, 1)["fmax_mhz"] == 100.0


def _writeback(d_words: int, area: float) -> dict:
    return point("tcu_router_writeback", {"DWordsPerCycle": d_words}, area)


def test_router_piecewise_between_its_points():
    """The router's points 1/1 (5000, 6 ns), 2/2 (5400, 4 ns) and 4/4 (5600,
    6 ns); its write-back's at 1, 2 and 4 words (1000, 1050, 1150: a line
    at powers of two) and at 3 (1400: 300 above that line, for its 2 slots
    that add, 150 an adding slot). The rest (router less write-back) 4000,
    4350, 4450. At 3/3: the rest between 2/2 and 4/4, 4400, and the
    write-back's 3-word point, 1400: 5800; at 4/3 4450 + 1400; at 3/4
    4400 + 1150. At 5/5: the rest beyond 4/4 along 2/2-4/4, 4500, and the
    write-back along its line, 1200, plus 4 adding slots, 600: 6300. At
    16/8: 4450 + 12 x 50 and 1150 + 4 x 50: 6400. At 1/2: 4000 + 1050. The
    path linear in the mean width: 5 ns at 3/3 (mean 3) and at 1/2 (mean
    1.5), 6 + 8 x 1 = 14 ns at 16/8 (mean 12). A growth that falls beyond
    the widest point is taken flat (a 2/2 point of 5700 and 6.5 ns: the
    rest 4450 and 6 ns at 8/8, the write-back 1350)."""
    back = [_writeback(2, 1050.0), _writeback(3, 1400.0)]
    points = POINTS + back + [point("tcu_operand_router",
                                    {"WordsPerCycle": 2, "DWordsPerCycle": 2, "GatherBypass": 1},
                                    5400.0, 4050.0, 4.0)]
    assert compose.adding_slot_um2(points) == pytest.approx(150.0)
    assert compose.writeback_area(points, 5) == pytest.approx(1800.0)
    assert compose.router_scaled(points, 3, 3)["area_um2"] == pytest.approx(5800)
    assert compose.router_scaled(points, 4, 3)["area_um2"] == pytest.approx(5850)
    assert compose.router_scaled(points, 3, 4)["area_um2"] == pytest.approx(5550)
    assert compose.router_scaled(points, 5, 5)["area_um2"] == pytest.approx(6300)
    assert compose.router_scaled(points, 16, 8)["area_um2"] == pytest.approx(6400)
    assert compose.router_scaled(points, 1, 2)["area_um2"] == pytest.approx(5050)
    assert "the write-back (tcu_router_writeback) at 3 words" in \
        compose.router_scaled(points, 3, 3)["scaled"]
    assert compose.router_scaled(points, 3, 3)["critical_path_ns"] == pytest.approx(5.0)
    assert compose.router_scaled(points, 16, 8)["critical_path_ns"] == pytest.approx(14.0)
    assert compose.router_scaled(points, 16, 8)["fmax_mhz"] == pytest.approx(1e3 / 14)
    assert compose.router_scaled(points, 1, 2)["critical_path_ns"] == pytest.approx(5.0)
    falling = POINTS + back + [point("tcu_operand_router",
                                     {"WordsPerCycle": 2, "DWordsPerCycle": 2,
                                      "GatherBypass": 1}, 5700.0, 4050.0, 6.5)]
    assert compose.router_scaled(falling, 8, 8)["area_um2"] == pytest.approx(4450 + 1350)
    assert compose.router_scaled(falling, 8, 8)["critical_path_ns"] == 6.0
    assert "2/2 and 4/4" in compose.router_scaled(points, 16, 8)["scaled"]
    # the width beyond the measured ones says so; one between them does not
    assert "extrapolated beyond the measured 1/1 .. 4/4" in \
        compose.router_scaled(points, 16, 8)["scaled"]
    assert "interpolated: " in compose.router_scaled(points, 3, 3)["scaled"]


def test_router_without_its_writeback_points():
    """Without write-back points the whole router is taken at the gather
    width (at 16/8 along 2/2-4/4: 5600 + 12 x 100), and the row says the
    write-back is not apart; a width not a power of two with no adding
    slot's figure has no write-back area."""
    points = [p for p in POINTS if p["unit"] != "tcu_router_writeback"] + [
        point("tcu_operand_router", {"WordsPerCycle": 2, "DWordsPerCycle": 2,
                                     "GatherBypass": 1}, 5400.0, 4050.0, 4.0)]
    r = compose.router_scaled(points, 16, 8)
    assert r["area_um2"] == pytest.approx(6800)
    assert "write-back not apart" in r["scaled"]
    assert compose.writeback_area(POINTS, 3) is None
    assert compose.writeback_area(POINTS, 8) == pytest.approx(1350)


def test_planted_writeback_at_one_width(monkeypatch):
    """Planted: the write-back taken at 4 words whatever the scatter width."""
    real = compose.writeback_area
    monkeypatch.setattr(compose, "writeback_area", lambda points, d_words: real(points, 4))
    with pytest.raises(AssertionError):
        test_router_piecewise_between_its_points()


def test_planted_router_linear_from_its_ends(monkeypatch):
    """The 2/2 point ignored (the rest linear from 1/1 and 4/4 only)."""
    real = compose.router_scaled
    monkeypatch.setattr(compose, "router_scaled", lambda points, w, dw: real(
        [p for p in points if p["params"].get("WordsPerCycle") != 2], w, dw))
    with pytest.raises(AssertionError):
        test_router_piecewise_between_its_points()


def test_a_router_width_beyond_the_measured_ones_is_not_composed():
    """Every part at a measured setting (4 dense int4 units at Stages 1 with
    an engine table at 4 units): composed where the router is at a measured
    width (4/4), interpolated where it is extrapolated (16/8: the router
    measured at 1/1 and 4/4 alone), and the row says how."""
    data = {"point": POINTS, "engine": [around_table(1, 600, 620), around_table(4, 630, 770)]}
    dense = dict(VALUES, SparseEnable=0)
    at = compose.explored_point(data, dict(dense, WordsPerCycle=4, DWordsPerCycle=4))
    assert (at["source"], at["router_scaled"]) == ("composed", "")
    beyond = compose.explored_point(data, dense)
    assert beyond["source"] == "interpolated"
    assert "extrapolated beyond the measured 1/1 .. 4/4" in beyond["router_scaled"]



def test_router_energy_over_given_points_is_the_estimates():
    """The router's energy rule over points given (compose.router_energy
    with points: how the validation holds a point out) is the estimate's
    over the data file's router points at every width, inside and beyond
    them; over made-up points it is their line by hand (1/1 busy 100 idle
    10, 4/4 busy 400 idle 40: at 8 words, busy 800 and idle 80), and a
    point without its busy energy is left out."""
    from tcu_tools import source_dir
    from tcu_tools.phys import datafile
    if compose.router_energy(1.0) is None:
        pytest.skip("no tcu Python module (TCU_MODULE_DIR): the router's energy rule")
    data = datafile.load(source_dir() / "spec" / "phys_osu018.toml")
    for width in (1.0, 2.5, 4.0, 6.0, 8.0, 16.0, 64.0):
        assert compose.router_energy(width, data["point"]) == \
            pytest.approx(compose.router_energy(width), rel=1e-12), width
    made_up = [dict(p, busy_pj_per_cycle=busy, idle_pj_per_cycle=idle)
               for p, busy, idle in ((POINTS[3], 100.0, 10.0), (POINTS[4], 400.0, 40.0))]
    made_up.append(dict(POINTS[4], params={"WordsPerCycle": 2, "DWordsPerCycle": 2},
                        busy_pj_per_cycle=None))
    assert compose.router_energy(8.0, made_up) == pytest.approx(
        {"busy_pj_per_cycle": 800.0, "idle_pj_per_cycle": 80.0})
    assert compose.router_energy(8.0, []) is None
