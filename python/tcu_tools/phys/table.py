"""python3 -m tcu_tools.phys.table [DATAFILE] | --calibration [FILE]

The data file's figures (default spec/phys_osu018.toml) as Markdown tables:
one row per point, one per composed configuration, the measured wholes and
engines; what docs/guide/physical.md shows (generated when the documentation
site is built). --calibration: the calibration designs
(spec/phys_calib_osu018.toml) beside published figures, as
docs/guide/energy.md shows them."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from . import compose, datafile
from .units import REPO


def _num(v, fmt: str) -> str:
    return "–" if v is None else format(v, fmt)


def points_table(data: dict) -> str:
    rows = ["| unit | parameters | configs | µm² | FF µm² | cells | path ns (alone) "
            "| fmax MHz (alone) | fmax MHz in place | busy pJ/cycle "
            "| of it internal / switching / port nets | idle pJ/cycle "
            "| pJ/issued op | synthesis s | critical path alone; in place |",
            "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for p in data["point"]:
        params = " ".join(f"{k}={v}" for k, v in p["params"].items()
                          if k != "SynthImpl") or "defaults"
        op = _num(p.get("pj_per_issued_op"), ".2f")
        if p.get("pj_per_issued_op"):
            op += f" /{p['op_name']}"
        rows.append(
            f"| `{p['unit']}`{_derived(p)} "
            f"| {params} | {', '.join(p['configs']) or '–'} | {p['area_um2']:,.0f} "
            f"| {p['flip_flop_area_um2']:,.0f} | {p['cells']:,} | {p['critical_path_ns']:.2f} "
            f"| {p['fmax_mhz']:.1f} | {_num(p.get('in_place_fmax_mhz'), '.1f')} "
            f"| {_num(p.get('busy_pj_per_cycle'), '.1f')} "
            f"| {_parts(p)} "
            f"| {_num(p.get('idle_pj_per_cycle'), '.2f')} | {op} | {p['synth_seconds']:.0f} "
            f"| {_short(p['startpoint'])} → {_short(p['endpoint'])}{_placed_path(p)} |")
    return "\n".join(rows)


def _placed_path(p: dict) -> str:
    if p.get("in_place_startpoint") is None:
        return ""
    return f"; {_short(p['in_place_startpoint'])} → {_short(p['in_place_endpoint'])}"


def _parts(p: dict) -> str:
    keys = ("busy_internal_pj", "busy_switching_pj", "busy_ports_pj")
    if any(p.get(k) is None for k in keys):
        return "–"
    return " / ".join(f"{p[k]:.1f}" for k in keys)


def _derived(p: dict) -> str:
    if not p.get("derived"):
        return ""
    what = "energy" if p["derived"].startswith("energy only") else "all"
    return f" ({what} derived from 4 x `tcu_fma`)"


def _short(pin: str) -> str:
    return (pin.replace(" (rising edge-triggered flip-flop clocked by clk)", " (FF)")
            .replace(" (input port clocked by clk)", " (in)")
            .replace(" (output port clocked by clk)", " (out)"))


def datapaths_table(data: dict) -> str:
    rows = ["| configuration | µm² (composed) | dot units µm² | router µm² | FF µm² "
            "| datapath fmax MHz (slowest part in place) | int4 pJ/issued MAC "
            "| e2m1 pJ/issued MAC | f16 pJ/issued product "
            "| f64 pJ/issued FMA "
            "| idle pJ/cycle (all units) | router busy / idle pJ/cycle (scaled) |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for d in data.get("datapath", []):
        rows.append(
            f"| {d['name']} | {d['area_um2']:,.0f} | {d['dot_units_area_um2']:,.0f} "
            f"| {_num(d.get('router_area_um2'), ',.0f')} | {d['flip_flop_area_um2']:,.0f} "
            f"| {d['fmax_mhz']:.1f} (`{d['path_unit']}`) "
            + " ".join(f"| {_num(d.get(f'{e}_pj_per_issued_{op}'), '.2f')}"
                       for e, op in compose.ISSUED_OP.items())
            + f" | {d['idle_pj_per_cycle']:,.0f} "
            f"| {_num(d.get('router_busy_pj_per_cycle'), ',.0f')} / "
            f"{_num(d.get('router_idle_pj_per_cycle'), ',.0f')} |")
    notes = [f"{d['name']}: not measured, left out: {'; '.join(d['missing'])}"
             for d in data.get("datapath", []) if d.get("missing")]
    notes += [f"{d['name']}: no energy figures, left out of its energies: "
              f"{'; '.join(d['energy_missing'])}"
              for d in data.get("datapath", []) if d.get("energy_missing")]
    return "\n".join(rows) + ("\n\n" + "\n".join(notes) if notes else "")


def clocks_table(data: dict) -> str:
    """Per configuration: each engine's clock and what sets it, and the
    datapath's (compose.datapath)."""
    engines = list(compose.ISSUED_OP)
    rows = ["| configuration | " + " | ".join(f"{e} engine MHz (set by)" for e in engines)
            + " | datapath MHz (set by) |",
            "|---|" + "--:|" * len(engines) + "--:|"]
    for d in data.get("datapath", []):
        cells = []
        for e in engines:
            if d.get(f"{e}_fmax_mhz") is None:
                cells.append("–")
            else:
                cells.append(f"{d[f'{e}_fmax_mhz']:.1f} (`{d[f'{e}_clock_set_by']}`)")
        rows.append(f"| {d['name']} | " + " | ".join(cells)
                    + f" | {d['fmax_mhz']:.1f} (`{d['path_unit']}`) |")
    return "\n".join(rows)


def wholes_table(data: dict) -> str:
    if not data.get("whole"):
        return ""
    rows = ["| measured whole | parameters | µm² measured | µm² composed | measured / composed "
            "| fmax MHz measured | fmax MHz composed (slowest unit) |",
            "|---|---|--:|--:|--:|--:|--:|"]
    for w in data["whole"]:
        params = " ".join(f"{k}={v}" for k, v in w["params"].items())
        rows.append(f"| `{w['top']}` | {params} | {w['area_um2']:,.0f} "
                    f"| {w['composed_area_um2']:,.0f} | {w['area_ratio']:.2f} "
                    f"| {w['fmax_mhz']:.1f} | {w['composed_fmax_mhz']:.1f} "
                    f"(`{w['composed_path_unit']}`) |")
    return "\n".join(rows)


def _registers(t: dict) -> str:
    if not t.get("path_start_register") and not t.get("path_end_register"):
        return "–"
    return (f"`{t.get('path_start_register') or _short(t['path_start'])}` → "
            f"`{t.get('path_end_register') or _short(t['path_end'])}`")


def engines_table(data: dict) -> str:
    if not data.get("engine"):
        return ""
    rows = ["| engine (mapped as a top) | parameters | µm² | FF µm² | cells | fmax MHz "
            "| its unit in place MHz | clock set by | its units' µm² (points) "
            "| around the units µm² (flat − units) | around the units µm² (units as black boxes) "
            "| critical path registers |",
            "|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|---|"]
    for e in data["engine"]:
        params = " ".join(f"{k}={v}" for k, v in e["params"].items())
        # An engine mapped only around its units (black boxes) has no flat
        # figures: its flat columns are "–".
        rows.append(f"| `{e['top']}` | {params} | {_num(e.get('area_um2'), ',.0f')} "
                    f"| {_num(e.get('flip_flop_area_um2'), ',.0f')} "
                    f"| {_num(e.get('cells'), ',')} "
                    f"| {_num(e.get('fmax_mhz'), '.1f')} "
                    f"| {_num(e.get('unit_in_place_fmax_mhz'), '.1f')} "
                    f"| {'`' + e['clock_set_by'] + '`' if e.get('clock_set_by') else '–'} "
                    f"| {e['units_area_um2']:,.0f} "
                    f"| {_num(e.get('around_units_area_um2'), ',.0f')} "
                    f"| {_num(e.get('bottom_up_around_units_area_um2'), ',.0f')} "
                    f"| {_registers(e)} |")
    return "\n".join(rows)


def glue_table(data: dict) -> str:
    """The [[glue]] tables: the parts on the ungated clock, the energy
    estimate charges each its idle figure every cycle."""
    if not data.get("glue"):
        return ""
    rows = ["| on the ungated clock | parameters | flip-flops | busy pJ/cycle (random inputs) "
            "| idle pJ/cycle (inputs held) | leakage µW |", "|---|---|--:|--:|--:|--:|"]
    for g in data["glue"]:
        params = " ".join(f"{k}={v}" for k, v in g.get("params", {}).items()) or "–"
        rows.append(f"| `{g['unit']}` | {params} | {g['flip_flops']:,} "
                    f"| {g['busy_pj_per_cycle']:,.2f} | {g['idle_pj_per_cycle']:,.2f} "
                    f"| {g['leakage_uw']:.3f} |")
    return "\n".join(rows)


# Published energies beside the calibration designs, scaled to 180 nm and
# 1.8 V by energy ~ C V^2 with C ~ the feature size: from 45 nm at 0.9 V
# x (180 / 45) x (1.8 / 0.9)^2 = 16; from 90 nm at an assumed 1.0 V
# x 2 x 1.8^2 = 6.48. (operation, published figure, source, its pJ at its
# node, the factor, the calibration design it stands beside)
HOROWITZ = ('M. Horowitz, "Computing\'s energy problem (and what we can do about it)", '
            'ISSCC 2014, energy table (quoted e.g. in PMC8934428, Table 3)')
PUBLISHED = [
    ("16 x 16 multiply", "3.1 pJ for 32 x 32 at 45 nm, 0.9 V; x (16/32)² for the partial "
     "products: 0.78 pJ", HOROWITZ, 3.1 / 4, 16.0, "calib_array_mult16"),
    ("f32 FMA", "f32 multiply 3.7 pJ + f32 add 0.9 pJ at 45 nm, 0.9 V",
     "Horowitz, ISSCC 2014 (as above)", 3.7 + 0.9, 16.0, "calib_fma32"),
    ("f32 FMA", "27 GFlop/s per mm² at 1 W/mm² (37 pJ a flop, 74 pJ an FMA) at 90 nm",
     'S. Galal, M. Horowitz, "Energy-Efficient Floating-Point Unit Design", IEEE Trans. '
     "Computers 60(7), 913–922, 2011", 74.0, 2 * 1.8 ** 2, "calib_fma32"),
]
CALIB_NAMES = {"calib_array_mult16": ("16 x 16 array multiplier", "a multiply", ""),
               "calib_fma32": ("f32 FMA", "an FMA", " (register to register)")}


def calibration_markdown(calib: dict) -> str:
    """The calibration data file's designs (spec/phys_calib_osu018.toml) and
    the published figures beside them."""
    designs = {d.get("name"): d for d in calib.get("design", [])}
    lacking = [n for n in ["fo4", *CALIB_NAMES] if n not in designs]
    if lacking:
        raise ValueError(f"no [[design]] {', '.join(lacking)}")
    fo4 = designs["fo4"]["fo4_ns"]
    rows = [f"{calib['library']}; measured {calib['date']}; `{calib['command']}`", "",
            "| design | µm² | cells | delay | FO4 | energy per operation |",
            "|---|--:|--:|--:|--:|--:|",
            f"| FO4 stage (`INVX1` driving 4) | – | – | {fo4:.4f} ns | 1 "
            f"| {designs['fo4']['pj_per_stage_transition']:.3f} pJ a transition "
            "(the stage's four inverters) |"]
    for name, (label, op, how) in CALIB_NAMES.items():
        d = designs[name]
        rows.append(f"| {label} | {d['area_um2']:,.0f} | {d['cells']:,} "
                    f"| {d['critical_path_ns']:.2f} ns{how} | {d['critical_path_ns'] / fo4:.0f} "
                    f"| {d['pj_per_op']:.1f} pJ {op} |")
    rows += ["", "| operation | published | source | scaled to 180 nm, 1.8 V | this flow "
             "| this flow / published |", "|---|--:|---|--:|--:|--:|"]
    for op, text, source, pj, factor, name in PUBLISHED:
        ours = designs[name]["pj_per_op"]
        rows.append(f"| {op} | {text} | {source} | {pj * factor:.1f} pJ | {ours:.1f} pJ "
                    f"| {ours / (pj * factor):.2f} |")
    return "\n".join(rows) + "\n"


def markdown(data: dict) -> str:
    """Every table of the data file, as the docs show them."""
    parts = [f"{data['library']}; measured {data['date']}; `{data['command']}`",
             points_table(data), datapaths_table(data), clocks_table(data), wholes_table(data),
             engines_table(data), glue_table(data)]
    return "\n\n".join(p for p in parts if p) + "\n"


def main(argv: list[str] | None = None) -> int:
    """tcu_tools.phys.table [DATAFILE] | --calibration [FILE]: print the
    data file's tables (or the calibration data file's)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--calibration"]:
        path = Path(argv[1]) if len(argv) > 1 else REPO / "spec" / "phys_calib_osu018.toml"
        try:
            calib = tomllib.loads(path.read_text())
            text = calibration_markdown(calib)
        except (OSError, tomllib.TOMLDecodeError, ValueError) as e:
            print(f"tcu_tools.phys.table: {path}: {e}", file=sys.stderr)
            return 1
        print(text, end="")
        return 0
    path = Path(argv[0]) if argv else REPO / "spec" / "phys_osu018.toml"
    try:
        data = datafile.load(path)
    except datafile.DataFileError as e:
        print(f"tcu_tools.phys.table: {e}", file=sys.stderr)
        return 1
    print(markdown(data), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
