"""Whole-datapath figures of a named configuration, composed from the
points (unit figures) of the data file: the default datapath has 116 dot
units (32 int4, 16 e2m1, 64 f16, 4 f64), far too many to map in reasonable
time, so its area is

  units x unit area, per engine (the int4 engine: a tcu_sparse_mux per unit)
  + the operand router (router_scaled: from its points of equal widths
    and its write-back's; its configurations' 64-word widths did not finish
    mapping)
  + glue (glue_parts): the output skid at the widest D an enabled engine
    drives, the datapath's control, and the activity counters (a
    tcu_activity per enabled engine and the cycle counter)

which leaves out the engines' own registers and selection (operand and D
registers, operand multiplexers, slice sequencers, int4 accumulators: the
[[engine]] tables, which explored_point adds) and tcu_datapath's D
multiplexer between engines: a lower bound, which the data file's [[whole]]
tables measure against whole tcu_datapaths mapped by the same flow. Its
clock is the slowest part's; its energy per engine the units' (the estimate
of model/src/energy.cpp)."""
from __future__ import annotations

from functools import lru_cache

from tcu_tools import spec as tcu_spec

# engine -> (unit, MACs per unit, the unit's stage parameter, the datapath's,
#            the configuration's MACs-per-cycle and enable parameters)
ENGINES = {
    "int4": ("tcu_int4_dot", 32, "Stages", "IntStages", "Int4MacsPerCycle", "Int4Enable"),
    "e2m1": ("tcu_e2m1_dot", 64, "Stages", "E2m1Stages", "E2m1MacsPerCycle", "E2m1Enable"),
    "f16": ("tcu_f16_dot", 4, "FmaStages", "FmaStages", "F16FmasPerCycle", "F16Enable"),
    "f64": ("tcu_f64_dot", 4, "FmaStages", "FmaStages", "F64FmasPerCycle", "F64Enable"),
}
ROUTER_PARAMS = ("WordsPerCycle", "DWordsPerCycle", "GatherBypass")
METHOD = ("composed: units x unit figures per engine (+ a tcu_sparse_mux per int4 unit "
          "with SparseEnable) + tcu_operand_router (its write-back at the scatter width and the "
          "rest piecewise linear in the gather width between its measured widths) + "
          "tcu_output_skid at the widest D of the enabled engines + "
          "tcu_datapath_ctrl + a tcu_activity per enabled engine and the cycle counter; leaves "
          "out the engines' operand and D registers, operand selection, slice sequencers and "
          "int4 accumulators, and tcu_datapath's D multiplexer (a lower bound on area: see "
          "[[whole]])")
AREA_KEYS = ("area_um2", "flip_flop_area_um2")
# What an engine's energy figure is per: an operation its units are issued
# (a dense instruction's MAC is one issued MAC; a 2:4 sparse int4
# instruction's dense-equivalent MACs are twice its issued ones). An f16
# product is one of the four of an output element a tcu_f16_dot cycle does.
ISSUED_OP = {"int4": "mac", "e2m1": "mac", "f16": "product", "f64": "fma"}


def router_energy(width: float, points: list[dict] | None = None) -> dict | None:
    """The router's busy and idle pJ a cycle at mean width `width` by the
    energy estimate's own rule (model/src/energy.cpp router_figures, through
    the tcu Python module built from this data file: the one statement of
    it), between the data file's router points measured with energy, or
    between `points` (router points with busy_pj_per_cycle and
    idle_pj_per_cycle) where given; None where the module is not built or
    there are no router energies."""
    try:
        from tcu_tools.explore.fast import tcu_module  # the build's, as tcu explore's
        tcu = tcu_module()
    except Exception:  # noqa: BLE001 - no module: no router energy
        return None
    if not hasattr(tcu, "router_figures"):
        return None
    if points is None:
        return tcu.router_figures(width)
    return tcu.router_figures(width, [p for p in points if p["unit"] == "tcu_operand_router"
                                      and p.get("busy_pj_per_cycle") is not None])


def _find(points: list[dict], unit: str, params: dict) -> dict | None:
    for p in points:
        if p["unit"] == unit and all(p["params"].get(k) == v for k, v in params.items()):
            return p
    return None


WRITEBACK = "tcu_router_writeback"  # the router's D buffer, beat counter and scatter


def scatter_adding_slots(d_words: int) -> int:
    """The scatter's slots whose word index is the beat's base plus a
    number, not a bit slice of it: d_words less its largest power-of-two
    divisor. Slot s of a beat carries D's word base + s, base counted from
    0 by DWordsPerCycle: the low bits that every multiple of the width has
    zero (its trailing zero bits, k) are constant, so the slots below 2**k
    take their index as a bit slice of base (no adder) and the others add
    (tcu_router_scatter_synth). None at a power of two."""
    return d_words - (d_words & -d_words)


def _along(xy: list[tuple[float, float]], x: float) -> tuple[float, float, float, bool]:
    """y at x, piecewise linear through the points xy (sorted by x, two at
    least), beyond them along the nearest two with a falling growth taken
    flat: (y, the two points' x, whether x lies between the outer points)."""
    pairs = list(zip(xy, xy[1:]))
    (xa, ya), (xb, yb) = next(((a, b) for a, b in pairs if a[0] <= x < b[0]),
                              pairs[0] if x < xy[0][0] else pairs[-1])
    inside = xy[0][0] <= x <= xy[-1][0]
    if not inside and (yb - ya) * (1 if x > xb else -1) < 0:
        return (yb if x > xb else ya), xa, xb, inside
    return ya + (x - xa) / (xb - xa) * (yb - ya), xa, xb, inside


def _writeback_points(points: list[dict]) -> dict[int, float]:
    """The write-back's mapped areas (tcu_router_writeback points) by DWordsPerCycle."""
    return {p["params"]["DWordsPerCycle"]: p["area_um2"] for p in points
            if p["unit"] == WRITEBACK and "DWordsPerCycle" in p["params"]}


def adding_slot_um2(points: list[dict]) -> float | None:
    """What a scatter slot that adds costs: the least-squares slope, over
    the write-back's points at widths not powers of two, of their area
    above the line through its points at powers of two against their
    adding slots (scatter_adding_slots). None where the data file has no
    such point or fewer than two at powers of two."""
    areas = _writeback_points(points)
    powers = sorted((w, a) for w, a in areas.items() if not scatter_adding_slots(w))
    off = [(scatter_adding_slots(w), a - _along(powers, w)[0]) for w, a in areas.items()
           if scatter_adding_slots(w)]
    if len(powers) < 2 or not off:
        return None
    return sum(n * extra for n, extra in off) / sum(n * n for n, _ in off)


def writeback_area(points: list[dict], d_words: int) -> float | None:
    """The write-back's area at `d_words`: its point where the data file
    has one, else along the line through its points at powers of two plus
    adding_slot_um2 for each scatter slot that adds. None without points."""
    areas = _writeback_points(points)
    if d_words in areas:
        return areas[d_words]
    powers = sorted((w, a) for w, a in areas.items() if not scatter_adding_slots(w))
    if len(powers) < 2:
        return None
    adding = scatter_adding_slots(d_words)
    slot = adding_slot_um2(points) if adding else 0.0  # fit only where a slot adds
    if slot is None:
        return None
    return _along(powers, d_words)[0] + adding * slot


def router_scaled(points: list[dict], words: int, d_words: int) -> dict | None:
    """The router's area and clock at `words` gather and `d_words` scatter
    words a cycle: measured where the data file has the point; else its
    two parts apart. The write-back (tcu_router_writeback: the D buffer,
    the beat counter and the scatter, whose cost depends on d_words only)
    at d_words (writeback_area), and the rest (the gather, its buffer and
    the control: the router's points of equal widths less the write-back
    at their width) at `words`, piecewise linear in the width between the
    router's points of equal widths (1/1, 2/2, 4/4, ...) and beyond them
    along the nearest two (a falling growth flat): a gather slot adds an
    input to every operand bit's AND-OR network. Without write-back points
    the rest is the whole router's (the write-back's difference between
    the two widths not counted, the row says so). Its critical path (ns)
    linear in the mean of the two widths the same way, its flip-flop area
    in the gather width; its energy a cycle (busy, idle) the energy
    estimate's at the mean width (router_energy)."""
    exact = _find(points, "tcu_operand_router",
                  {"WordsPerCycle": words, "DWordsPerCycle": d_words})
    if exact:
        return dict(exact, scaled="")
    square = sorted((p["params"]["WordsPerCycle"], i, p) for i, p in enumerate(points)
                    if p["unit"] == "tcu_operand_router"
                    and p["params"].get("WordsPerCycle") == p["params"].get("DWordsPerCycle"))
    if len(square) < 2:
        return None
    parts = [(w, writeback_area(points, w)) for w, _, _ in square] + [
        (d_words, writeback_area(points, d_words))]
    apart = all(a is not None for _, a in parts)
    back = dict(parts) if apart else {w: 0.0 for w, _ in parts}
    rest, wa, wb, inside = _along([(w, p["area_um2"] - back[w]) for w, _, p in square], words)
    width = (words + d_words) / 2
    pb = next(p for w, _, p in square if w == wb)
    # the wider point's other figures, less its clock in place (not scaled)
    out = {k: v for k, v in pb.items() if not k.startswith("in_place")}
    out["area_um2"] = rest + back[d_words]
    out["flip_flop_area_um2"] = _along([(w, p["flip_flop_area_um2"]) for w, _, p in square],
                                       words)[0]
    path, pa_w, pb_w, _ = _along([(w, p["critical_path_ns"]) for w, _, p in square], width)
    out["critical_path_ns"] = path
    out["fmax_mhz"] = 1e3 / path
    energy = router_energy(width)
    for k in ("busy_pj_per_cycle", "idle_pj_per_cycle"):
        out[k] = energy[k] if energy else None
    how = ("interpolated" if inside else
           f"extrapolated beyond the measured {square[0][0]}/{square[0][0]} .. "
           f"{square[-1][0]}/{square[-1][0]}")
    out["scaled"] = (f"scaled to {words}/{d_words} words a cycle, {how}: "
                     + (f"the write-back ({WRITEBACK}) at {d_words} words and the rest "
                        if apart else "the router's write-back not apart (no "
                        f"{WRITEBACK} points): the whole ")
                     + f"linear from the points at {wa}/{wa} and {wb}/{wb} at {words} words, "
                     f"the path from {pa_w}/{pa_w} and {pb_w}/{pb_w} at {width:g}")
    return out


def in_place(p: dict) -> tuple[float, str, str]:
    """A point's critical path (ns, start, end) as it sits in the design
    (tcu_tools.phys.in_place: in a register wrapper) where the point has
    it, else its own (ideal ports)."""
    if p.get("in_place_critical_path_ns") is not None:
        return p["in_place_critical_path_ns"], p["in_place_startpoint"], p["in_place_endpoint"]
    return p["critical_path_ns"], p["startpoint"], p["endpoint"]


def _engine_clock(engine: str, parts: list, tables: list[dict], units: int,
                  stages: int, sparse: int = 0) -> dict:
    """An engine's clock: the slowest of its units (and sparse muxes) in
    place, and, where an [[engine]] table of its top exists at these
    stages, that top's clock (its operand and D registers, selection,
    sequencer, accumulators around the units) if slower; which sets it."""
    unit = ENGINES[engine][0]
    own = [p for label, _, p in parts if label == unit or (engine == "int4" and
                                                            label == "tcu_sparse_mux")]
    slowest = max(own, key=lambda p: in_place(p)[0])
    fmax, by = 1e3 / in_place(slowest)[0], slowest["unit"]
    around = engine_around(tables, engine, units, stages, sparse) if tables else None
    if around is not None and around["at_stages"] and around["fmax_mhz"]:
        by = set_by(around["fmax_mhz"], fmax, by, ENGINE_TOPS[engine][0])
        fmax = min(fmax, around["fmax_mhz"])
    return {"fmax_mhz": fmax, "clock_set_by": by}


# Two mappings of the same logic (a unit alone, the unit inside its engine
# top) differ in clock by a few percent (ABC's choices); an engine top
# slower than its unit in place by more than this is set by its own logic.
MAPPING_SPREAD = 0.05


def set_by(engine_fmax: float, unit_fmax: float, unit: str, top: str) -> str:
    """What sets an engine's clock: its unit (in place) where the engine
    top is no slower than it beyond MAPPING_SPREAD, else the engine's logic
    around its units."""
    if engine_fmax >= (1 - MAPPING_SPREAD) * unit_fmax:
        return unit
    return f"{top} around its units"


# The D each engine hands the output skid (tcu_datapath: the engines' d_o
# widths). The skid holds the widest D an enabled engine drives: the bits
# above it are constant zero, and the mapping removes their flip-flops and
# multiplexers.
D_BITS = {"int4": 4096, "e2m1": 4096, "f16": 8192, "f64": 4096}
SKID_D_BITS = 8192  # tcu_output_skid's DataW, at which the data file measures it
# tcu_activity holds an engine's five 48-bit counters (busy, idle, stalled,
# gated, MACs); tcu_datapath counts the cycles with one more such counter.
ACTIVITY_COUNTERS = 5


def enabled_engines(values: dict) -> list[str]:
    return [e for e, (_, macs, _, _, rate, enable) in ENGINES.items()
            if values[enable] and values[rate] // macs > 0]


def skid_scaled(skid: dict, d_bits: int) -> dict:
    """tcu_output_skid holding `d_bits` of D: its point (DataW = SKID_D_BITS)
    scaled with its flip-flops (one a data bit, with its load multiplexer
    and output multiplexer; the tag and valid bits kept)."""
    if d_bits == SKID_D_BITS:
        return skid
    ratio = (skid["flip_flops"] - SKID_D_BITS + d_bits) / skid["flip_flops"]
    return dict(skid, **{k: ratio * skid[k] for k in AREA_KEYS})


def glue_parts(points: list[dict], values: dict, missing: list) -> list[tuple[str, dict]]:
    """The datapath's logic outside its engines and router: the output skid
    at the widest D of the enabled engines (skid_scaled), the control, and
    the activity counters (a tcu_activity per enabled engine and the cycle
    counter, a fifth of one); a part without a point is named in `missing`."""
    out = []
    engines = enabled_engines(values)
    skid = _find(points, "tcu_output_skid", {})
    if skid is None:
        missing.append("tcu_output_skid")
    elif engines:
        out.append(("tcu_output_skid", skid_scaled(skid, max(D_BITS[e] for e in engines))))
    ctrl = _find(points, "tcu_datapath_ctrl", {})
    if ctrl is None:
        missing.append("tcu_datapath_ctrl")
    else:
        out.append(("tcu_datapath_ctrl", ctrl))
    act = _find(points, "tcu_activity", {})
    if act is None:
        missing.append("tcu_activity")
    elif engines:
        n = len(engines) + 1 / ACTIVITY_COUNTERS
        out.append(("tcu_activity", dict(act, **{k: n * act[k] for k in AREA_KEYS})))
    return out


def datapath(points: list[dict], name: str, values: dict,
             engine_tables: list[dict] = ()) -> dict | None:
    """The composed figures of configuration `name` (resolved parameter
    `values`); a part without a point is left out and named in `missing`.
    None if no dot unit of it has a point. Its clock is the slowest part's
    as it sits in the design (in_place); each engine's clock is its units'
    in place or, with `engine_tables` (the [[engine]] tables), the engine
    top's where that is slower (_engine_clock)."""
    parts = []  # (label, count, point): their clocks
    areas = []  # (label, {area_um2, flip_flop_area_um2})
    engines = {}
    missing = []
    for engine, (unit, macs, stage, dp_stage, rate, enable) in ENGINES.items():
        count = values[rate] // macs if values[enable] else 0
        if count == 0:
            continue
        p = _find(points, unit, {stage: values[dp_stage]})
        if p is None:
            missing.append(f"{count} x {unit} {stage}={values[dp_stage]}")
            continue
        parts.append((unit, count, p))
        area = {k: count * p[k] for k in AREA_KEYS}
        if engine == "int4" and values["SparseEnable"]:
            mux = _find(points, "tcu_sparse_mux", {})
            if mux is None:
                missing.append(f"{count} x tcu_sparse_mux")
            else:
                parts.append(("tcu_sparse_mux", count, mux))
                area = {k: area[k] + count * mux[k] for k in AREA_KEYS}
        areas.append((engine, area))
        engines[engine] = {"units": count, "unit": unit, "stages": values[dp_stage],
                           "pj_per_mac": p.get("pj_per_issued_op"),
                           "idle_pj_per_cycle": (count * p["idle_pj_per_cycle"]
                                                 if p.get("idle_pj_per_cycle") is not None
                                                 else None),
                           "units_area_um2": count * p["area_um2"],
                           "area_um2": area["area_um2"]}
        engines[engine].update(_engine_clock(engine, parts, engine_tables, count,
                                             values[dp_stage],
                                             values["SparseEnable"] if engine == "int4" else 0))
    if not engines:
        return None
    router = router_scaled(points, values["WordsPerCycle"], values["DWordsPerCycle"])
    if router is None:
        missing.append("tcu_operand_router " + " ".join(
            f"{k}={int(values[k])}" for k in ROUTER_PARAMS))
    else:
        parts.append(("tcu_operand_router", 1, router))
        areas.append(("router", router))
    for glue, g in glue_parts(points, values, missing):
        parts.append((glue, 1, g))
        areas.append((glue, g))
    slowest = max(parts, key=lambda part: in_place(part[2])[0])[2]
    period, start, end = in_place(slowest)
    out = {
        "name": name,
        "method": METHOD,
        "area_um2": sum(a["area_um2"] for _, a in areas),
        "flip_flop_area_um2": sum(a["flip_flop_area_um2"] for _, a in areas),
        "dot_units_area_um2": sum(e["units_area_um2"] for e in engines.values()),
        "router_area_um2": router["area_um2"] if router else None,
        "router_scaled": router["scaled"] if router else None,
        # the router's energy a cycle, busy (every gather slot valid) and idle,
        # the energy estimate's (router_energy; not in idle_pj_per_cycle,
        # which is the units')
        "router_busy_pj_per_cycle": router.get("busy_pj_per_cycle") if router else None,
        "router_idle_pj_per_cycle": router.get("idle_pj_per_cycle") if router else None,
        "control_area_um2": sum(a["area_um2"] for n, a in areas if n.startswith("tcu_")),
        # the clock: the slowest part as it sits in the design (in_place),
        # or an engine top's where slower (below)
        "critical_path_ns": period,
        "fmax_mhz": 1e3 / period,
        "path_unit": slowest["unit"],
        "path_start": start,
        "path_end": end,
        "path_in_place": slowest.get("in_place_critical_path_ns") is not None,
        "idle_pj_per_cycle": sum(e["idle_pj_per_cycle"] for e in engines.values()
                                 if e["idle_pj_per_cycle"] is not None),
        # parts without a point (not measured): left out of every figure above
        "missing": missing,
        # units with a point but no energy: left out of the energies above
        "energy_missing": [f"{e['units']} x {e['unit']}" for e in engines.values()
                           if e["idle_pj_per_cycle"] is None],
    }
    for engine, e in engines.items():
        out[f"{engine}_units"] = e["units"]
        out[f"{engine}_fmax_mhz"] = e["fmax_mhz"]
        out[f"{engine}_clock_set_by"] = e["clock_set_by"]
        out[f"{engine}_pj_per_issued_{ISSUED_OP[engine]}"] = e["pj_per_mac"]
        out[f"{engine}_area_um2"] = e["area_um2"]
    # an engine slower than every part in place (its top, mapped around its
    # units, slower than its unit in place: by its own logic, or within the
    # mapping spread and then named after its unit) sets the datapath's clock
    slow = min(engines.values(), key=lambda e: e["fmax_mhz"])
    if slow["fmax_mhz"] < out["fmax_mhz"]:
        out.update(critical_path_ns=1e3 / slow["fmax_mhz"], fmax_mhz=slow["fmax_mhz"],
                   path_unit=slow["clock_set_by"].split()[0], path_start=None, path_end=None,
                   path_in_place=False)
    return out


def datapaths(points: list[dict], engine_tables: list[dict] = ()) -> list[dict]:
    spec = tcu_spec.load()
    out = []
    for name, given in spec.configs.items():
        d = datapath(points, name, spec.resolve(given), engine_tables)
        if d is not None:
            out.append(d)
    return out


def against_whole(points: list[dict], whole: dict) -> dict:
    """A whole tcu_datapath mapped and timed (tcu_tools.phys.area's JSON: the
    same buffered flow as the points) beside the composition of the same
    parameters from the points, without the router (tcu_datapath has
    none): what the composition leaves out, measured at one point."""
    given = {k: v for k, v in whole["params"].items() if k != "SynthImpl"}
    d = datapath([p for p in points if p["unit"] != "tcu_operand_router"], "whole",
                 tcu_spec.load().resolve(given))
    if d is None:
        raise ValueError(f"no dot unit of {given} has a point")
    composed = d["area_um2"]
    return {
        "top": whole["top"],
        "params": given,
        "library": whole["library"],
        "area_um2": whole["area_um2"],
        "flip_flop_area_um2": whole["flip_flop_area_um2"],
        "cells": whole.get("cells"),  # None: not given (the explore CSV has generic cells)
        "flip_flops": whole.get("flip_flops"),  # None: not recorded
        "fmax_mhz": whole["fmax_mhz"],
        "critical_path_ns": whole["critical_path_ns"],
        "path_start": whole["path_start"],
        "path_end": whole["path_end"],
        "path_start_register": whole.get("path_start_register"),
        "path_end_register": whole.get("path_end_register"),
        "composed_area_um2": composed,
        # the units and the control alone, without the skid and the router
        "units_and_control_area_um2": d["dot_units_area_um2"] + sum(
            p["area_um2"] for p in points if p["unit"] == "tcu_datapath_ctrl"),
        "composed_fmax_mhz": d["fmax_mhz"],
        "composed_path_unit": d["path_unit"],
        # measured / composed: how much the composition's lower bound
        # leaves out at this point (the engines' operand and D registers,
        # operand selection, sequencers, accumulators, the output skid)
        "area_ratio": whole["area_um2"] / composed,
        "left_out_area_um2": whole["area_um2"] - composed,
    }


# engine top -> (its unit, the engine's stage parameter, the unit's)
ENGINE_UNITS = {"tcu_int4_engine": ("tcu_int4_dot", "Stages", "Stages"),
                "tcu_e2m1_engine": ("tcu_e2m1_dot", "Stages", "Stages"),
                "tcu_f16_engine": ("tcu_f16_dot", "FmaStages", "FmaStages"),
                "tcu_f64_engine": ("tcu_f64_dot", "FmaStages", "FmaStages")}


def engine_beside_units(points: list[dict], engine: dict) -> dict:
    """An engine mapped as a top (tcu_tools.phys.area's JSON) beside
    its units' area from the points: what the engine adds around them (its
    operand and D registers, operand selection, slice sequencer,
    accumulators), which no unit point holds. Where the measurement has
    the engine mapped around its units as black boxes (BOTTOM_UP: the full
    flow's mapping, tcu_tools.phys.hier.around_figures), that too; a
    measurement of that alone (no flat mapping, no clock) gives a table of
    it alone."""
    unit, stage, unit_stage = ENGINE_UNITS[engine["top"]]
    params = {k: v for k, v in engine["params"].items() if k != "SynthImpl"}
    units = params["Units"]
    p = _find(points, unit, {unit_stage: params[stage]})
    if p is None:
        raise ValueError(f"{engine['top']} {params}: no {unit} {unit_stage}={params[stage]} point")
    out = {"top": engine["top"], "params": params, "library": engine["library"],
           "units_area_um2": units * p["area_um2"]}
    if engine.get("area_um2") is not None:
        out.update({
            "area_um2": engine["area_um2"], "flip_flop_area_um2": engine["flip_flop_area_um2"],
            "cells": engine.get("cells"), "fmax_mhz": engine["fmax_mhz"],
            "critical_path_ns": engine["critical_path_ns"], "path_start": engine["path_start"],
            "path_end": engine["path_end"],
            "path_start_register": engine.get("path_start_register"),
            "path_end_register": engine.get("path_end_register"),
            "around_units_area_um2": engine["area_um2"] - units * p["area_um2"],
            # its unit's clock in a register wrapper (in_place), and which sets
            # the engine's (set_by)
            "unit_in_place_fmax_mhz": 1e3 / in_place(p)[0],
            "clock_set_by": set_by(engine["fmax_mhz"], 1e3 / in_place(p)[0], unit,
                                   engine["top"]),
        })
    if engine.get(BOTTOM_UP) is not None:
        out[BOTTOM_UP] = engine[BOTTOM_UP]
    return out


# An [[engine]] table's area around its units as the full flow maps it
# (tcu_tools.phys.hier: the units black boxes, no optimization across their
# boundaries), which composition uses where the tables have it: mapped
# flat, logic around a unit merges with the unit's (the flat int4 engine
# grows 49,000 µm² a unit, mapped around its units 184,000).
BOTTOM_UP = "bottom_up_around_units_area_um2"


# engine -> its top (the [[engine]] tables) and the top's stage parameter
ENGINE_TOPS = {"int4": ("tcu_int4_engine", "Stages"), "e2m1": ("tcu_e2m1_engine", "Stages"),
               "f16": ("tcu_f16_engine", "FmaStages"), "f64": ("tcu_f64_engine", "FmaStages")}


def _linear(xs: list[tuple[int, float]], x: int, grow: bool) -> tuple[float, bool]:
    """The value at x, linear between the two measured (x, value) pairs
    around it; outside them (or where one is measured), with `grow` the
    nearest pair's slope if it rises (else flat: a falling slope between
    mappings of the same logic is the mapping's noise), without it the
    nearest measured value. Also whether x itself is measured."""
    xs = sorted(xs)
    for xi, v in xs:
        if xi == x:
            return v, True
    for a, b in zip(xs, xs[1:]):
        if a[0] < x < b[0]:
            return a[1] + (x - a[0]) * (b[1] - a[1]) / (b[0] - a[0]), False
    near = xs[0] if x < xs[0][0] else xs[-1]
    if not grow or len(xs) == 1:
        return near[1], False
    lo, hi = (xs[0], xs[1]) if x < xs[0][0] else (xs[-2], xs[-1])
    slope = max(0.0, (hi[1] - lo[1]) / (hi[0] - lo[0]))
    return near[1] + (x - near[0]) * slope, False


def engine_around(engines: list[dict], engine: str, units: int, stages: int,
                  sparse: int = 0) -> dict | None:
    """What an engine adds around its dot units (operand and D registers,
    operand selection, slice sequencer, accumulators), from the [[engine]]
    tables at the nearest measured stage count: their area around the
    units as the full flow maps it (BOTTOM_UP) where every table there has
    it, else mapped flat (around_units_area_um2), linear in the units
    (_linear, growing); and the engine top's clock there (_linear, the
    nearest beyond the measured unit counts), None where no table there has
    one. None where no table of the engine exists. The int4 engine's tables
    at the point's SparseEnable (`sparse`: its sparse operand path) where
    there are any, else the others (not exact: the sparse path's registers
    and multiplexers are then left out; the dense engine's clock is kept)."""
    top, stage = ENGINE_TOPS[engine]
    every = [e for e in engines if e["top"] == top]
    if not every:
        return None
    same = [e for e in every if e["params"].get("SparseEnable", 0) == sparse]
    sparse_ok = bool(same) or "SparseEnable" not in every[0]["params"]
    tables = same or every
    nearest = min({e["params"][stage] for e in tables}, key=lambda s: (abs(s - stages), s))
    at = [e for e in tables if e["params"][stage] == nearest]
    key = BOTTOM_UP if all(e.get(BOTTOM_UP) is not None for e in at) else "around_units_area_um2"
    at = [e for e in at if e.get(key) is not None]
    if not at:
        return None
    area, measured = _linear([(e["params"]["Units"], e[key]) for e in at], units, True)
    # the clock: the tables at these stages with one, those at the point's
    # SparseEnable first
    timed = [e for e in every if e["params"][stage] == nearest and e.get("fmax_mhz")]
    timed = [e for e in timed if e in same] or timed
    clocked = [(e["params"]["Units"], e["fmax_mhz"]) for e in timed]
    fmax = _linear(clocked, units, False)[0] if clocked else None
    return {"area_um2": area, "fmax_mhz": fmax,
            "critical_path_ns": 1e3 / fmax if fmax else None,
            "exact": measured and nearest == stages and sparse_ok,
            "at_stages": nearest == stages,
            # the int4 engine's tables with its sparse path hold its sparse muxes
            "holds_sparse_muxes": bool(sparse) and bool(same),
            "how": f"{top} around its units{' (bottom-up)' if key == BOTTOM_UP else ''}: "
                   f"{'measured' if measured else 'linear in Units'} at {stage}={nearest}"}


@lru_cache(maxsize=64)
def _resolved(params: tuple) -> dict:
    return tcu_spec.load().resolve(dict(params))


def _whole(wholes: list[dict], values: dict) -> dict | None:
    """The [[whole]] table of exactly these datapath parameters, if any."""
    for w in wholes:
        given = _resolved(tuple((k, v) for k, v in w["params"].items() if k != "SynthImpl"))
        if all(given[k] == values[k] for k in given if k not in ROUTER_PARAMS and k in values
               and k != "SynthImpl"):
            return w
    return None


def _path_in_unit(whole: dict) -> bool:
    """Whether a [[whole]] datapath's critical path starts or ends in a dot
    unit (its register named under an engine's u_dot instance): then its
    clock is that unit's, which the unit's point states, and says nothing
    of the datapath's own logic."""
    return any(".u_dot." in (whole.get(k) or "")
               for k in ("path_start_register", "path_end_register"))


def explored_point(data: dict, values: dict) -> dict | None:
    """A core's area, clock and how they were obtained, from the data file
    `data` (its points, [[engine]] tables): the one composition rule of
    `tcu explore` (fast and full flows),

      area  = datapath()'s units x unit area per engine + sparse muxes +
              operand router (router_scaled) + output skid + control
              + per engine, what it adds around its units (engine_around)
      clock = the slowest part's: units, router, glue, the engine tops at
              their measured stage counts, and the datapath's own logic
              (its control, D multiplexer, activity counters, clock
              gates: no unit holds them) at the slowest [[whole]]
              datapath's clock among those whose critical path runs
              outside the dot units (_path_in_unit)

    A core whose datapath parameters are those of a [[whole]] table (a
    whole tcu_datapath mapped) takes that table's area and clock instead,
    with the router's.

    source: "measured" (a [[whole]] datapath and a measured router),
    "composed" (every part at a measured setting), "interpolated" (a part
    scaled, interpolated or at the nearest measured stage count);
    missing: the parts without figures (left out: a lower bound);
    router_scaled: how the router's area was scaled to the point's widths
    (interpolated or extrapolated; empty where measured). None where no
    dot unit of the core has a point."""
    d = datapath(data["point"], "point", values)
    if d is None:
        return None
    whole = _whole(data.get("whole", []), values)
    if whole is not None:
        router = router_scaled(data["point"], values["WordsPerCycle"], values["DWordsPerCycle"])
        if router is not None:
            fmax, path = min((whole["fmax_mhz"], "tcu_datapath"),
                             (router["fmax_mhz"], "tcu_operand_router"))
            return {"area_um2": whole["area_um2"] + router["area_um2"], "fmax_mhz": fmax,
                    "path_unit": path, "router_area_um2": router["area_um2"],
                    "router_scaled": router["scaled"],
                    "source": "interpolated" if router["scaled"] else "measured", "missing": [],
                    "how": "; ".join(filter(None, ["tcu_datapath measured ([[whole]])",
                                                   router["scaled"]]))}
    area, clock = d["area_um2"], [(d["fmax_mhz"], d["path_unit"])]
    exact = not d["router_scaled"]
    missing, hows = list(d["missing"]), []
    for engine, (unit, macs, stage, dp_stage, rate, enable) in ENGINES.items():
        units = values[rate] // macs if values[enable] else 0
        if units == 0:
            continue
        around = engine_around(data.get("engine", []), engine, units, values[dp_stage],
                               values["SparseEnable"] if engine == "int4" else 0)
        if around is None:
            missing.append(f"{ENGINE_TOPS[engine][0]} around its units")
            continue
        area += around["area_um2"]
        mux = _find(data["point"], "tcu_sparse_mux", {})
        if around["holds_sparse_muxes"] and mux:  # not again beside the units
            area -= units * mux["area_um2"]
        exact = exact and around["exact"]
        hows.append(around["how"])
        if around["at_stages"] and around["fmax_mhz"]:
            clock.append((around["fmax_mhz"], ENGINE_TOPS[engine][0]))
        if _find(data["point"], unit, {stage: values[dp_stage]}) is None:
            exact = False
    own = [w for w in data.get("whole", []) if not _path_in_unit(w)]
    if own:
        slowest = min(own, key=lambda w: w["fmax_mhz"])
        clock.append((slowest["fmax_mhz"], "tcu_datapath"))
        hows.append(f"tcu_datapath's own logic at the slowest [[whole]] clock set outside "
                    f"the dot units ({slowest['fmax_mhz']:g} MHz)")
    fmax, path = min(clock)
    return {"area_um2": area, "fmax_mhz": fmax, "path_unit": path,
            "router_area_um2": d["router_area_um2"], "router_scaled": d["router_scaled"],
            "source": "composed" if exact and not missing else "interpolated",
            "missing": missing, "how": "; ".join(filter(None, [d["router_scaled"]] + hows))}
