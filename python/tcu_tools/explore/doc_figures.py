"""The figures docs/guide/explore-evaluator.md and physical.md give, computed from the data
that holds them, so that the page cannot keep a figure its data no longer
gives (docs/hooks.py replaces each `<!-- figure: NAME -->` by figure(NAME)
when the site is built):

  python -m tcu_tools.explore.doc_figures [NAME...]   # each figure, or all

Sources: spec/phys_osu018.toml (the dot units' points at a stage count, their
critical paths in FO4 of spec/phys_calib_osu018.toml; the router's points, the engines'
[[engine]], [[engine_regs]] and [[engine_glue]] tables, the [[whole]] datapaths, the
activity counters' point; the router's write-back's), docs/data/router_W_D.json
(the router mapped at widths held out of the data file), the composition
(tcu_tools.phys.compose.explored_point), and docs/data/gate_level_int4_64.json
(a datapath's energy at gate level) priced by this build's energy estimate,
docs/data/engine_glue_*_rtl.json (the int4 and f16 engines' glue with their units' RTL)
(the tcu module: TCU_MODULE_DIR, as tcu explore finds it). An unknown name, or data without
the entry a figure needs, exits 1 naming it."""
from __future__ import annotations

import json
import math
import sys
import tomllib
from pathlib import Path

from tcu_tools import source_dir

# DFFPOSX1's clocked cycle, inputs held, from the liberty by hand
# (tests/phys/test_glue_hand.py: CLK rise + fall internal energy at 0 ns and
# the clock net's charge into the pin at both edges).
DFFPOSX1_PJ = 0.201175


class FigureError(ValueError):
    pass


def _data() -> dict:
    return tomllib.loads((source_dir() / "spec" / "phys_osu018.toml").read_text())


def _find(tables: list[dict], what: str, **want) -> dict:
    for t in tables:
        if all(t.get(k, t.get("params", {}).get(k)) == v for k, v in want.items()):
            return t
    raise FigureError(f"spec/phys_osu018.toml: no {what} {want}")


def _router(data: dict, words: int) -> dict:
    return _find(data["point"], "tcu_operand_router point", unit="tcu_operand_router",
                 WordsPerCycle=words, DWordsPerCycle=words)


def _pct(x: float) -> str:
    return f"{x * 100:+.1f}%"


def _square_routers(data: dict) -> list[dict]:
    """The router's points of equal gather and scatter widths, narrowest first."""
    square = sorted((p for p in data["point"] if p["unit"] == "tcu_operand_router"
                     and p["params"].get("WordsPerCycle") == p["params"].get("DWordsPerCycle")),
                    key=lambda p: p["params"]["WordsPerCycle"])
    if len(square) < 3:
        raise FigureError("spec/phys_osu018.toml: fewer than three tcu_operand_router points "
                          "of equal widths")
    return square


def router_growth() -> str:
    """What the router adds between its points."""
    square = _square_routers(_data())
    steps = [f"{round(b['area_um2'] - a['area_um2'], -3):,.0f} µm² from "
             f"{a['params']['WordsPerCycle']}/{a['params']['WordsPerCycle']} to "
             f"{b['params']['WordsPerCycle']}/{b['params']['WordsPerCycle']}"
             for a, b in zip(square, square[1:])]
    return "the router grows " + ", ".join(steps[:-1]) + " and " + steps[-1]


def router_2_2() -> str:
    """The 2/2 point against the rule from the 1/1 and 4/4 points, and
    against a line in the words."""
    from tcu_tools.phys import compose
    data = _data()
    p2 = _router(data, 2)
    without = [p for p in data["point"] if p is not p2]
    rule = compose.router_scaled([p for p in without if p["unit"] == "tcu_operand_router"
                                  and p["params"]["WordsPerCycle"] <= 4], 2, 2)["area_um2"]
    return (f"the router at 2/2 words a cycle ({p2['area_um2']:,.0f} µm², "
            f"{p2['fmax_mhz']:.1f} MHz) is a point of the data file; the composition's rule "
            f"from its 1/1 and 4/4 points alone gives {rule:,.0f} "
            f"({_pct(rule / p2['area_um2'] - 1)}): the single slot of 1/1 needs no network")


def router_widest() -> str:
    """The widest router point against the composition's extrapolation
    from the narrower ones (the validation's mapped_router), and against
    the nearest two's growth a doubling (the area linear in log2 of the
    width); where it was measured with energy, its busy energy a cycle
    against the energy estimate's rule from the narrower points measured
    with energy."""
    from tcu_tools.phys import compose
    data = _data()
    square = _square_routers(data)
    widest, (a, b) = square[-1], square[-3:-1]
    w = widest["params"]["WordsPerCycle"]
    others = [p for p in data["point"] if p is not widest]
    rule = compose.router_scaled(others, w, w)
    wa, wb = a["params"]["WordsPerCycle"], b["params"]["WordsPerCycle"]
    line = b["area_um2"] + (math.log2(w / wb)) * (b["area_um2"] - a["area_um2"]) / math.log2(wb / wa)
    text = (f"mapped at {w}/{w}, {widest['area_um2']:,.0f} µm² and "
            f"{widest['fmax_mhz']:.1f} MHz; extrapolated from the narrower points, "
            f"{rule['area_um2']:,.0f} µm² ({_pct(rule['area_um2'] / widest['area_um2'] - 1)}) "
            f"and {rule['fmax_mhz']:.1f} MHz ({_pct(rule['fmax_mhz'] / widest['fmax_mhz'] - 1)}); "
            f"the area linear in log2 of the width from {wa}/{wa} and {wb}/{wb} would give "
            f"{line:,.0f} µm² ({_pct(line / widest['area_um2'] - 1)})")
    if widest.get("busy_pj_per_cycle") is None:
        return text
    with_energy = [p for p in others if p["unit"] == "tcu_operand_router"
                   and p.get("busy_pj_per_cycle") is not None]
    energy = compose.router_energy(float(w), with_energy)
    if energy is None:
        from tcu_tools.explore.params import UsageError
        raise UsageError("the router's energy rule needs this build's tcu module "
                         "(TCU_MODULE_DIR)")
    widths = ", ".join(f"{p['params']['WordsPerCycle']}/{p['params']['DWordsPerCycle']}"
                       for p in sorted(with_energy, key=lambda p: p["params"]["WordsPerCycle"]))
    busy, idle = widest["busy_pj_per_cycle"], widest["idle_pj_per_cycle"]
    return (text + f"; busy {busy:,.0f} pJ a cycle (idle {idle:,.0f}) measured at gate level, "
            f"{energy['busy_pj_per_cycle']:,.0f} ({_pct(energy['busy_pj_per_cycle'] / busy - 1)}; "
            f"idle {_pct(energy['idle_pj_per_cycle'] / idle - 1)}) by the energy estimate's rule "
            f"from {widths} alone")


def router_between() -> str:
    """The router points between two others held out (the validation's
    mapped_router rows but the widest's): each against the rule
    interpolated from the others."""
    from tcu_tools.explore.validate import mapped_router
    rows = mapped_router(_data())
    widest = rows[0]["whole"] if rows else None
    held = list(dict.fromkeys(r["whole"] for r in rows if r["whole"] != widest))
    if not held:
        raise FigureError("spec/phys_osu018.toml: no tcu_operand_router point between two "
                          "others")
    parts = []
    for name in held:
        at = {r["figure"]: (float(r["fast"]), float(r["full"])) for r in rows
              if r["whole"] == name}
        (area, area_full), (clock, clock_full) = at["router_area_um2"], at["fmax_mhz"]
        text = (f"at {name.split()[1]}, {area_full:,.0f} µm² and {clock_full:.1f} MHz mapped, "
                f"{area:,.0f} µm² ({_pct(area / area_full - 1)}) and {clock:.1f} MHz "
                f"({_pct(clock / clock_full - 1)}) by the rule from the other points")
        if "router_busy_pj_per_cycle" in at:
            busy, busy_full = at["router_busy_pj_per_cycle"]
            text += (f", busy {busy_full:,.0f} pJ a cycle measured and {busy:,.0f} "
                     f"({_pct(busy / busy_full - 1)}) by the energy rule")
        parts.append(text)
    return "; ".join(parts)


ROUTER_OFF_POWERS = Path("docs") / "data"  # router_W_D.json, in the checkout


def router_off_powers_errors(equal: bool = True) -> list[tuple[dict, dict, Path]]:
    """The routers mapped apart from the data file's points
    (docs/data/router_W_D.json): of equal widths not powers of two (or,
    `equal` false, of unequal gather and scatter widths), narrowest first,
    each with the composition's rule from the data file's points there
    (compose.router_scaled) and its file."""
    from tcu_tools.phys import compose
    out = []
    for path in sorted((source_dir() / ROUTER_OFF_POWERS).glob("router_*_*.json")):
        widths = path.stem.split("_")[1:]
        if not all(w.isdigit() for w in widths) or (widths[0] == widths[1]) != equal:
            continue
        try:
            point = json.loads(path.read_text())["units"][0]
            words, d_words = point["params"]["WordsPerCycle"], point["params"]["DWordsPerCycle"]
        except (OSError, ValueError, KeyError, IndexError) as e:
            raise FigureError(f"{path}: {e}") from e
        out.append((point, compose.router_scaled(_data()["point"], words, d_words),
                    path.relative_to(source_dir())))
    if not out:
        raise FigureError(f"{ROUTER_OFF_POWERS}: no router_W_D.json of "
                          f"{'equal' if equal else 'unequal'} widths")
    return sorted(out, key=lambda e: e[0]["params"]["WordsPerCycle"])


def router_off_powers() -> str:
    """The routers mapped at widths not powers of two against the rule from
    the data file's points, and against the rule without its write-back
    apart (the whole router's line)."""
    from tcu_tools.phys import compose
    parts = []
    points = _data()["point"]
    whole_only = [p for p in points if p["unit"] != compose.WRITEBACK]
    for point, rule, path in router_off_powers_errors():
        words, d_words = point["params"]["WordsPerCycle"], point["params"]["DWordsPerCycle"]
        back = compose.writeback_area(points, d_words)
        line = compose.router_scaled(whole_only, words, d_words)["area_um2"]
        parts.append(
            f"at {words}/{d_words} ({path}), {point['area_um2']:,.0f} µm² and "
            f"{point['fmax_mhz']:.1f} MHz mapped, {rule['area_um2']:,.0f} µm² "
            f"({_pct(rule['area_um2'] / point['area_um2'] - 1)}) and {rule['fmax_mhz']:.1f} MHz "
            f"({_pct(rule['fmax_mhz'] / point['fmax_mhz'] - 1)}) by the rule, of which "
            f"{back:,.0f} µm² the write-back at {d_words} words (the whole router's line "
            f"alone {line:,.0f} µm², {_pct(line / point['area_um2'] - 1)})")
    return "; ".join(parts)


def router_unequal() -> str:
    """The routers mapped at unequal gather and scatter widths against the
    rule (the rest at the gather width, the write-back at the scatter
    width), and against the rule at the mean of the two widths."""
    from tcu_tools.phys import compose
    points = _data()["point"]
    parts = []
    for point, rule, path in router_off_powers_errors(equal=False):
        words, d_words = point["params"]["WordsPerCycle"], point["params"]["DWordsPerCycle"]
        mean = (words + d_words) // 2
        at_mean = compose.router_scaled(points, mean, mean)["area_um2"]
        back = compose.writeback_area(points, d_words)
        parts.append(
            f"at {words}/{d_words} ({path}), {point['area_um2']:,.0f} µm² and "
            f"{point['fmax_mhz']:.1f} MHz mapped, {rule['area_um2']:,.0f} µm² "
            f"({_pct(rule['area_um2'] / point['area_um2'] - 1)}) and {rule['fmax_mhz']:.1f} MHz "
            f"({_pct(rule['fmax_mhz'] / point['fmax_mhz'] - 1)}) by the rule (the rest at "
            f"{words} words, {rule['area_um2'] - back:,.0f} µm², and the write-back at "
            f"{d_words}, {back:,.0f} µm²); both at the mean width, {mean}/{mean}, "
            f"{at_mean:,.0f} µm² ({_pct(at_mean / point['area_um2'] - 1)})")
    return "; ".join(parts)


def _writeback_points() -> list[dict]:
    from tcu_tools.phys import compose
    rows = sorted((p for p in _data()["point"] if p["unit"] == compose.WRITEBACK),
                  key=lambda p: p["params"]["DWordsPerCycle"])
    if not rows:
        raise FigureError(f"spec/phys_osu018.toml: no {compose.WRITEBACK} point")
    return rows


def router_writeback() -> str:
    """The write-back mapped alone at each width, and what a scatter slot
    that adds costs (compose.adding_slot_um2)."""
    from tcu_tools.phys import compose
    rows = _writeback_points()
    slot = compose.adding_slot_um2(_data()["point"])
    if slot is None:
        raise FigureError(f"spec/phys_osu018.toml: no {compose.WRITEBACK} point at a width "
                          "not a power of two, or fewer than two at powers of two")
    powers = [p["area_um2"] for p in rows if p["params"]["DWordsPerCycle"] >= 4
              and not compose.scatter_adding_slots(p["params"]["DWordsPerCycle"])]
    return (", ".join(f"{p['area_um2']:,.0f} µm² at {p['params']['DWordsPerCycle']}"
                      for p in rows)
            + f" words a cycle (the data file's `{compose.WRITEBACK}` points): at the powers "
            f"of two from 4 on within {_pct(max(powers) / min(powers) - 1)} of each other, "
            f"and {slot:,.0f} µm² a slot that adds (`compose.adding_slot_um2`)")


def router_widths() -> str:
    """The router widths the data file mapped (area and clock), equal
    gather and scatter widths: "1/1, 2/2, 4/4 and 8/8"."""
    widths = [f"{w}/{w}" for w in (p["params"]["WordsPerCycle"] for p in _square_routers(_data()))]
    return ", ".join(widths[:-1]) + " and " + widths[-1]


def router_energy_widths() -> str:
    """The router widths the data file measured with energy."""
    widths = [f"{p['params']['WordsPerCycle']}/{p['params']['DWordsPerCycle']}"
              for p in sorted(_data()["point"], key=lambda p: p["params"].get("WordsPerCycle", 0))
              if p["unit"] == "tcu_operand_router" and p.get("busy_pj_per_cycle") is not None]
    if not widths:
        raise FigureError("spec/phys_osu018.toml: no tcu_operand_router point with energy")
    return ", ".join(widths[:-1]) + " and " + widths[-1] if len(widths) > 1 else widths[0]


def datapath_floor() -> str:
    """The clock the composition gives the datapath's own logic: the
    slowest [[whole]] datapath whose critical path runs outside its dot
    units, and the ones left out (their path in a unit)."""
    from tcu_tools.phys import compose
    wholes = _data().get("whole", [])
    own = [w for w in wholes if not compose._path_in_unit(w)]
    if not own:
        raise FigureError("spec/phys_osu018.toml: no [[whole]] datapath whose critical path "
                          "runs outside its dot units")
    slowest = min(own, key=lambda w: w["fmax_mhz"])
    inside = sorted(w["fmax_mhz"] for w in wholes if compose._path_in_unit(w))
    return (f"{slowest['fmax_mhz']:.1f} MHz (those datapaths at "
            f"{min(w['fmax_mhz'] for w in own):.0f}-{max(w['fmax_mhz'] for w in own):.0f} MHz; "
            f"those whose path runs in a dot unit at "
            f"{', '.join(f'{f:.1f}' for f in inside) or 'none'} MHz)")


def engine_growth() -> str:
    data = _data()
    one = _find(data["engine"], "int4 [[engine]]", top="tcu_int4_engine", Units=1,
                SparseEnable=0, Stages=2)
    two = _find(data["engine"], "int4 [[engine]]", top="tcu_int4_engine", Units=2,
                SparseEnable=0, Stages=2)
    four = _find(data["engine"], "int4 [[engine]]", top="tcu_int4_engine", Units=4,
                 SparseEnable=0, Stages=2)
    flat = (four["around_units_area_um2"] - one["around_units_area_um2"]) / 3
    around = two["bottom_up_around_units_area_um2"] - one["bottom_up_around_units_area_um2"]
    return (f"mapped flat, the logic around a unit merges with the unit's, and the int4 "
            f"engine grows {round(flat, -3):,.0f} µm² a unit where mapped around its units it "
            f"grows {round(around, -3):,.0f} from one unit to two")


def int4_around_areas() -> str:
    """The int4 engine's logic around its units, mapped around them (black
    boxes) and flat, at the unit counts the [[engine]] tables hold."""
    tables = [e for e in _data()["engine"] if e["top"] == "tcu_int4_engine"
              and e["params"].get("SparseEnable") == 0 and e["params"].get("Stages") == 2]
    around = sorted((e["params"]["Units"], e["bottom_up_around_units_area_um2"]) for e in tables
                    if e.get("bottom_up_around_units_area_um2") is not None)
    flat = sorted((e["params"]["Units"], e["around_units_area_um2"]) for e in tables
                  if e.get("around_units_area_um2") is not None)
    if not around or not flat:
        raise FigureError("spec/phys_osu018.toml: no int4 [[engine]] tables at Stages 2")

    def listed(pairs):
        areas = [f"{a:,.0f}" for _, a in pairs]
        counts = [_UNITS_WORDS.get(u, str(u)) for u, _ in pairs]
        join = lambda xs: ", ".join(xs[:-1]) + " and " + xs[-1] if len(xs) > 1 else xs[0]
        return join(areas), join(counts)
    a_areas, a_units = listed(around)
    f_areas, f_units = listed(flat)
    return f"{a_areas} µm² at {a_units} units, against {f_areas} flat at {f_units}"


_UNITS_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 8: "eight"}


def unit_areas() -> str:
    """The int4 and e2m1 dot units' areas at two stages."""
    points = _data()["point"]
    int4 = _find(points, "int4 dot point", unit="tcu_int4_dot", Stages=2)
    e2m1 = _find(points, "e2m1 dot point", unit="tcu_e2m1_dot", Stages=2)
    return f"{int4['area_um2']:,.0f} and {e2m1['area_um2']:,.0f} µm²"


def activity_area() -> str:
    p = _find(_data()["point"], "tcu_activity point", unit="tcu_activity")
    return (f"{p['area_um2']:,.0f} µm²: {p['flip_flops']} flip-flops of "
            f"{p['flip_flop_area_um2'] / p['flip_flops']:,.0f} µm²")


def whole_errors() -> str:
    """The composition (without the [[whole]] tables it is held to) against
    each whole datapath, ascending."""
    from tcu_tools.explore import params
    from tcu_tools.phys import compose
    data = _data()
    spec = params.config_spec()
    units_only = dict(data, whole=[])
    errors = []
    for whole in data.get("whole", []):
        c = compose.explored_point(units_only, spec.resolve(dict(whole["params"])))
        errors.append((c["area_um2"] - c["router_area_um2"]) / whole["area_um2"] - 1)
    if not errors:
        raise FigureError("spec/phys_osu018.toml: no [[whole]] datapath")
    text = [_pct(e) for e in sorted(errors)]
    return ", ".join(text[:-1]) + " and " + text[-1] if len(text) > 1 else text[0]


def engine_regs_table() -> str:
    """The [[engine_regs]] tables: the flip-flops on each engine's gated
    clock around its units, and where measured their energy, beside the
    liberty's DFFPOSX1 by hand."""
    regs = _data().get("engine_regs", [])
    if not regs:
        raise FigureError("spec/phys_osu018.toml: no [[engine_regs]] table")
    rows = ["| engine | parameters | flip-flops (other clocks) | counted in | idle pJ a flip-flop "
            "(liberty 0.2012) | dynamic pJ per issued MAC |",
            "| --- | --- | --: | --- | --: | --: |"]
    for t in sorted(regs, key=lambda t: (t["top"], sorted(t["params"].items()))):
        params = " ".join(f"{k}={v}" for k, v in t["params"].items())
        idle = t.get("idle_pj_per_flip_flop")
        dyn = t.get("dynamic_pj_per_issued_mac")
        rows.append(
            f"| `{t['top']}` | {params} | {t['flip_flops']:,}"
            + (f" ({t['other_domain_flip_flops']:,})" if t.get("other_domain_flip_flops") else "")
            + f" | {t.get('netlist_form', '')} "
            + (f"| {idle:.4f} ({_pct(idle / DFFPOSX1_PJ - 1)}) " if idle is not None else "| – ")
            + (f"| {dyn:.3f} |" if dyn is not None else "| – |"))
    return "\n".join(rows)


def engine_regs_toggles() -> str:
    """The [[engine_regs_toggles]] tables: each engine's registers' data
    toggles per issued MAC (an RTL run's waveform) and a toggle's energy
    (the liberty's DFFPOSX1 with its nets at the mapped engine's loads)."""
    tables = _data().get("engine_regs_toggles", [])
    if not tables:
        raise FigureError("spec/phys_osu018.toml: no [[engine_regs_toggles]] table")
    rows = ["| engine | register bits in the waveform | toggles | issued MACs "
            "| toggles per issued MAC | Q load pF | pJ per toggle | pJ per issued MAC |",
            "| --- | --: | --: | --: | --: | --: | --: | --: |"]
    for t in tables:
        rows.append(f"| {t['engine']} | {t['register_bits']:,} | {t['toggles']:,} "
                    f"| {t['issued_macs']:,} | {t['toggles_per_issued_mac']:.3f} "
                    f"| {t['q_load_pf']:.4f} | {t['pj_per_toggle']:.4f} "
                    f"| {t['toggles_per_issued_mac'] * t['pj_per_toggle']:.4f} |")
    return "\n".join(rows)


def engine_glue_table() -> str:
    """The [[engine_glue]] tables: each engine's logic around its units
    measured busy and idle at gate level, beside the [[engine_regs]]
    figure a flip-flop (the liberty's DFFPOSX1) and the registers' data
    toggles ([[engine_regs_toggles]]) that the measurement includes."""
    tables = _data().get("engine_glue", [])
    if not tables:
        raise FigureError("spec/phys_osu018.toml: no [[engine_glue]] table")
    toggles = {t["engine"]: t for t in _data().get("engine_regs_toggles", [])}
    rows = ["| engine | parameters | units simulated as | cells | flip-flops | busy pJ/cycle "
            "| idle pJ/cycle | idle pJ a flip-flop (liberty 0.2012) | MACs a cycle "
            "| pJ per issued MAC | flip-flop toggles per issued MAC (RTL run) |",
            "| --- | --- | --- | --: | --: | --: | --: | --: | --: | --: | --: |"]
    for t in tables:
        params = " ".join(f"{k}={v}" for k, v in t["params"].items())
        rtl = toggles.get(t["engine"], {}).get("toggles_per_issued_mac")
        rows.append(f"| {t['engine']} | {params} | {t.get('units', 'netlist')} "
                    f"| {t['cells']:,} | {t['flip_flops']:,} "
                    f"| {t['busy_pj_per_cycle']:,.1f} | {t['idle_pj_per_cycle']:,.1f} "
                    f"| {t['idle_pj_per_flip_flop']:.4f} "
                    f"({_pct(t['idle_pj_per_flip_flop'] / DFFPOSX1_PJ - 1)}) "
                    f"| {t['issued_macs_per_cycle']:.1f} | {t['dynamic_pj_per_issued_mac']:.3f} "
                    f"| {t['flip_flop_toggles_per_issued_mac']:.3f}"
                    + (f" ({rtl:.3f}) |" if rtl is not None else " |"))
    return "\n".join(rows)


def gate_level_table() -> str:
    """The energy estimate of this build (the tcu module's estimate_energy)
    against the gate-level datapath energy of docs/data/gate_level_int4_64.json,
    per state and in all (tcu_tools.phys.datapath_energy.reprice)."""
    from tcu_tools.phys import datapath_energy
    path = source_dir() / "docs" / "data" / "gate_level_int4_64.json"
    g = json.loads(path.read_text())
    got = datapath_energy.reprice_saved(g)
    errors = datapath_energy.errors(got)
    rows = ["| cycles in | cycles | gate level pJ/cycle | estimate pJ/cycle | error |",
            "| --- | --: | --: | --: | --: |"]
    for state, v in sorted(got["by_state"].items()):
        rows.append(f"| {state} | {v['cycles']} | {v['pj_per_cycle']:,.1f} "
                    f"| {v['estimate_pj_per_cycle']:,.1f} | {_pct(errors[state])} |")
    rows.append(f"| the run | {g['gate_level']['cycles']} | {got['pj']:,.0f} pJ "
                f"| {got['estimate_pj']:,.0f} pJ | {_pct(errors['total'])} |")
    return "\n".join(rows)


def gate_level_regs() -> str:
    """The gate-level netlist's engine registers beside the estimate's."""
    from tcu_tools.explore.fast import tcu_module
    path = source_dir() / "docs" / "data" / "gate_level_int4_64.json"
    g = json.loads(path.read_text())
    params = {k: v for k, v in g["report"]["configuration"]["parameters"].items()
              if k != "SynthImpl"}
    est = tcu_module().estimate_energy(g["report"]["activity"], params)["per_engine"]["int4"]
    n = g["engine_flip_flops"]
    return (f"in that netlist {n['gated_clock']:,} flip-flops on the int4 engine's gated clock "
            f"(the estimate's `[[engine_regs]]` give {est['regs_flip_flops']:,.0f} at "
            f"{params['Int4MacsPerCycle'] // 32} units and {params['IntStages']} "
            f"stage{'s' if params['IntStages'] != 1 else ''}), and {n['sparse_clock']:,} on its "
            f"sparse path's")


def gate_level_toggles() -> str:
    """The estimate's data toggles of the int4 engine's registers over the
    gate-level record's run."""
    from tcu_tools.explore.fast import tcu_module
    path = source_dir() / "docs" / "data" / "gate_level_int4_64.json"
    g = json.loads(path.read_text())
    params = {k: v for k, v in g["report"]["configuration"]["parameters"].items()
              if k != "SynthImpl"}
    act = g["report"]["activity"]
    est = tcu_module().estimate_energy(act, params)["per_engine"]["int4"]
    a = act["engines"]["int4"]
    per_mac = est["regs_data_pj_per_issued_mac"]
    return (f"{per_mac:.3f} pJ per issued MAC, {a['macs'] * per_mac / a['busy']:,.1f} pJ "
            f"a busy cycle of this run")


def gate_level_glue() -> str:
    """The estimate's logic around the int4 engine's units over the
    gate-level record's run, and the busy state's error with the registers'
    data toggles alone in its place."""
    from tcu_tools.explore.fast import tcu_module
    from tcu_tools.phys import datapath_energy
    path = source_dir() / "docs" / "data" / "gate_level_int4_64.json"
    g = json.loads(path.read_text())
    params = {k: v for k, v in g["report"]["configuration"]["parameters"].items()
              if k != "SynthImpl"}
    act = g["report"]["activity"]
    est = tcu_module().estimate_energy(act, params)["per_engine"]["int4"]
    if not est["glue_source"]:
        raise FigureError("spec/phys_osu018.toml: no [[engine_glue]] table of the int4 engine")
    a = act["engines"]["int4"]
    glue = est["glue_pj_per_issued_mac"]
    toggles = est["regs_dynamic_pj_per_issued_mac"] + est["regs_data_pj_per_issued_mac"]
    busy = datapath_energy.reprice_saved(g)["by_state"]["int4 busy"]
    without = busy["estimate_pj_per_cycle"] - a["macs"] * (glue - toggles) / a["busy"]
    return (f"{glue:.3f} pJ per issued MAC ({est['glue_source']}), "
            f"{a['macs'] * glue / a['busy']:,.1f} pJ a busy cycle of this run; with the "
            f"registers' toggles alone in its place a busy cycle would be "
            f"{_pct(without / busy['pj_per_cycle'] - 1)} off the gate level")


def engine_glue_units_rtl() -> str:
    """The int4 and f16 engines' [[engine_glue]] figures (their units'
    netlists beside them) against the same measurements with the units' RTL
    (docs/data/engine_glue_ENGINE_rtl.json: engine_glue --units rtl --json)."""
    parts = []
    for engine in ("int4", "f16"):
        path = source_dir() / "docs" / "data" / f"engine_glue_{engine}_rtl.json"
        rtl = json.loads(path.read_text())
        table = _find(_data().get("engine_glue", []), "[[engine_glue]]", engine=engine)
        if rtl.get("units") != "rtl" or rtl.get("params") != table["params"]:
            raise FigureError(f"{path}: not the {engine} table's setting with --units rtl")
        a, b = table["dynamic_pj_per_issued_mac"], rtl["dynamic_pj_per_issued_mac"]
        parts.append(f"{engine}: {b:.3f} pJ per issued MAC with the units' RTL against "
                     f"{a:.3f} with their netlists ({(b / a - 1) * 100:+.3f}%; idle "
                     f"{rtl['idle_pj_per_cycle']:,.1f} against "
                     f"{table['idle_pj_per_cycle']:,.1f} pJ a cycle)")
    return "; ".join(parts)


def _fo4_ns() -> float:
    """The FO4 delay of spec/phys_calib_osu018.toml (its fo4 design: an
    INVX1 driving four, tcu_tools.phys.calib)."""
    calib = tomllib.loads((source_dir() / "spec" / "phys_calib_osu018.toml").read_text())
    fo4 = next((d for d in calib.get("design", []) if d.get("name") == "fo4"), None)
    if fo4 is None:
        raise FigureError("spec/phys_calib_osu018.toml: no [[design]] fo4")
    return fo4["fo4_ns"]


def _dot_point(args: tuple) -> dict:
    """The data file's point of `UNIT NAME=VALUE` (a unit at one stage count)."""
    if len(args) != 2 or "=" not in args[1]:
        raise FigureError(f"expected 'UNIT NAME=VALUE' after the figure's name, found {args}")
    name, _, value = args[1].partition("=")
    return _find(_data()["point"], f"{args[0]} point", unit=args[0], **{name: int(value)})


def dot_delay(*args: str) -> str:
    """`dot-delay UNIT NAME=VALUE`: the point's critical path alone, in ns,
    FO4 and MHz."""
    p, fo4 = _dot_point(args), _fo4_ns()
    return (f"{p['critical_path_ns']:.2f} ns, {p['critical_path_ns'] / fo4:.0f} FO4 "
            f"({p['fmax_mhz']:.0f} MHz)")


def dot_delay_in_place(*args: str) -> str:
    """`dot-delay-in-place UNIT NAME=VALUE`: the point's critical path in
    its register wrapper (tcu_tools.phys.in_place), then alone."""
    p, fo4 = _dot_point(args), _fo4_ns()
    if p.get("in_place_critical_path_ns") is None:
        raise FigureError(f"spec/phys_osu018.toml: the {args[0]} point {args[1]} has no "
                          "in_place_critical_path_ns")
    placed = p["in_place_critical_path_ns"]
    return (f"{placed:.2f} ns in its register wrapper, {placed / fo4:.0f} FO4 "
            f"({p['in_place_fmax_mhz']:.0f} MHz; {p['critical_path_ns']:.2f} ns, "
            f"{p['critical_path_ns'] / fo4:.0f} FO4 alone)")


FIGURES = {"int4-around-areas": int4_around_areas, "unit-areas": unit_areas,
           "router-growth": router_growth, "router-2-2": router_2_2,
           "engine-growth": engine_growth, "activity-area": activity_area,
           "whole-errors": whole_errors, "datapath-floor": datapath_floor,
           "router-widest": router_widest, "router-energy-widths": router_energy_widths,
           "router-widths": router_widths,
           "router-between": router_between, "router-off-powers": router_off_powers,
           "router-writeback": router_writeback, "router-unequal": router_unequal,
           "engine-regs-table": engine_regs_table, "engine-regs-toggles": engine_regs_toggles,
           "engine-glue-table": engine_glue_table, "engine-glue-units-rtl": engine_glue_units_rtl,
           "gate-level-table": gate_level_table, "gate-level-toggles": gate_level_toggles,
           "gate-level-regs": gate_level_regs, "gate-level-glue": gate_level_glue,
           "dot-delay": dot_delay, "dot-delay-in-place": dot_delay_in_place}


def figure(name: str) -> str:
    """The figure `name`: a figure's name and, for the dot delays, its
    unit and stage setting (`dot-delay tcu_f64_dot FmaStages=19`)."""
    word, *args = name.split()
    if word not in FIGURES:
        raise FigureError(f"unknown figure '{word}' (one of {', '.join(FIGURES)})")
    try:
        return FIGURES[word](*args)
    except TypeError as e:  # arguments to a figure that takes none
        raise FigureError(f"figure '{name}': {e}") from e


def main(argv: list[str]) -> int:
    from tcu_tools.explore.params import UsageError  # no tcu module: the figure cannot be priced
    try:
        for name in argv or list(FIGURES):
            print(f"{name}: {figure(name)}")
    except (FigureError, UsageError, OSError, KeyError, ValueError,
            tomllib.TOMLDecodeError) as e:
        print(f"doc_figures: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
