"""The data file (spec/phys_osu018.toml): the one statement of the physical
figures. Written by `python -m tcu_tools.phys --all --write FILE`; read by the
C++ energy estimate (tcu_tools.spec.gen_phys, at configure time) and checked
against a fresh measurement (`--check FILE`)."""
from __future__ import annotations

import datetime
import math
import re
import importlib.metadata
import subprocess
import tomllib
from pathlib import Path

from . import compose, figures, library, sta, stamp, units

# What a fresh measurement must agree with the file on, and how closely
# (relative). Mapping, timing and the gate-level simulation are
# deterministic for a given seed and cycle count; the tolerance allows the
# last printed digit.
CHECKED = {
    "area_um2": 1e-6, "flip_flop_area_um2": 1e-6, "cells": 0, "flip_flops": 0,
    "critical_path_ns": 1e-3, "busy_pj_per_cycle": 1e-3, "idle_pj_per_cycle": 1e-3,
    "pj_per_issued_op": 1e-3, "in_place_critical_path_ns": 1e-3,
}
# Where a fresh point's sources differ from those the file's point was
# measured from but their logic is the same (the same rtl_design: a
# reordered or reformatted file, tcu_tools.phys.stamp), ABC maps the
# netlist Yosys hands it in another order, and its result moves with that
# order: from sources of the same logic tcu_int4_dot at Stages=1 maps to
# 0.48 % less area, 0.49 % fewer cells, a 0.90 % shorter path and 0.57 %
# less busy energy; tcu_f16_dot at FmaStages=2 to 0.20 % more area, 0.32 %
# more cells and a 3.5 % longer path (ABC's timing-driven choices move the
# critical path most). Within these bounds (relative) such a point agrees;
# the flip-flops, which ABC does not touch, stay exact.
REORDERED = {**{name: 0.02 for name in CHECKED}, "critical_path_ns": 0.05,
             "in_place_critical_path_ns": 0.05, "flip_flop_area_um2": 1e-6, "flip_flops": 0}
REGENERATE = ("nice -n 10 .venv/bin/python -m tcu_tools.phys --all "
              "--write spec/phys_osu018.toml")
# Re-measures the stale entries only (tcu_tools.phys.stamp).
REFRESH = stamp.REFRESH
# The [[whole]] tables: each a whole tcu_datapath mapped first, then given to
# the command above as --whole FILE.
WHOLE_COMMAND = ("nice -n 10 .venv/bin/python -m tcu_tools.phys.area tcu_datapath "
                 "--params \"Int4MacsPerCycle=32 SparseEnable=0 E2m1Enable=0 F16Enable=0 "
                 "F64Enable=0 IntStages=2\" --json W.json; then --whole W.json")


# The [[engine]] tables: each an engine mapped as a top first, then given
# to the command above as --engine FILE; and mapped around its units
# (tcu_tools.phys.area --around), given as --engine-around FILE.
ENGINE_COMMAND = ("nice -n 10 .venv/bin/python -m tcu_tools.phys.area tcu_int4_engine "
                  "--params \"Units=1 SparseEnable=0 Stages=2\" --json E.json; then --engine E.json")


class DataFileError(RuntimeError):
    pass


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(round(v, 6)) if math.isfinite(v) else "nan"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} to TOML")


def _key(k: str) -> str:
    """A TOML key: bare where it can be, else quoted (rtl/tcu_pkg.sv)."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _value(k)


def _table(header: str, entries: dict) -> str:
    lines = [header] if header else []
    for k, v in entries.items():
        if v is not None:  # TOML has no null: a missing key is "not measured"
            lines.append(f"{k} = {_value(v)}")
    return "\n".join(lines) + "\n"


table_text = _table  # a TOML table of entries (None: left out), for the other data files


def tool_versions() -> dict:
    """The first line of each tool's version, and the flow's files (the
    liberty, the ABC constraints, the latch map: stamp.flow_hash): what the
    figures depend on besides the RTL."""
    def first_line(cmd: list[str]) -> str:
        try:
            out = subprocess.run(cmd, capture_output=True, text=True).stdout
        except OSError:
            return "?"
        return out.strip().splitlines()[0] if out.strip() else "?"
    try:
        parser = importlib.metadata.version("liberty-parser")
    except importlib.metadata.PackageNotFoundError:
        parser = "?"
    return {"yosys": first_line(["yosys", "-V"]), "sta": first_line(["sta", "-version"]),
            "iverilog": first_line(["iverilog", "-V"]), "liberty_parser": parser,
            "flow": stamp.flow_hash()}


def stale(data: dict, tools: dict | None = None, rtl: Path | None = None) -> list[str]:
    """Why the data file's figures are not those of this RTL (`rtl`, default
    the checkout's rtl/) and these tools (stamp.staleness); [] if they are."""
    return stamp.staleness(data, tool_versions() if tools is None else tools, rtl)


# What other tools add to the data file, kept by a rewrite (write's kept).
KEPT_TABLES = ("glue", "engine_regs", "engine_regs_toggles", "engine_glue")
KEPT_HEAD = ("glue_command", "engine_regs_command", "toggles_command", "engine_glue_command")


def kept_of(data: dict) -> dict:
    """An earlier data file's tables and head entries that write keeps."""
    return {k: data[k] for k in KEPT_TABLES + KEPT_HEAD if k in data}


def write(path: Path, points: list[dict], cycles: int, seed: int, tools: dict,
          wholes: list[dict] = (), engines: list[dict] = (), measured_here: bool = True,
          rtl_then: dict | None = None, kept: dict | None = None) -> None:
    """The data file of these points (and [[datapath]] compositions, the
    [[whole]] and [[engine]] tables beside them). Every entry carries the
    stamp of the RTL its figures were measured from (tcu_tools.phys.stamp):
    its own where it has one (rtl_files, rtl_design); else this tree's if
    measured_here (every figure measured from this tree), and otherwise
    (figures taken from an earlier run) stamp.UNRECORDED_STAMP, stale until
    --refresh measures it. rtl_then: the earlier data file's rtl_sha256, for
    the files of entries measured from other sources than this tree's.
    kept: the tables other tools append (KEPT_TABLES: [[glue]],
    [[engine_regs]], [[engine_regs_toggles]], [[engine_glue]];
    tcu_tools.phys.glue, tcu_tools.phys.engine_regs,
    tcu_tools.phys.engine_glue) and the head's commands that measure them
    (KEPT_HEAD), as an earlier data file has them: written as they are."""
    kept = kept or {}
    head = {
        "library": library.LABEL,
        "liberty": str(library.LIBERTY),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "command": REGENERATE,
        "tools": tools,
        "rtl_sha256": {},  # below: every entry's sources (stamp.head_hashes)
        "reference_period_ns": sta.REFERENCE_PERIOD_NS,
        "cycles": cycles,
        "seed": seed,
        # every point's own `mapping` says how it was mapped; this one is
        # the flow of the whole datapath (tcu_tools.phys.mapping.ABC_CONSTRAINTS)
        "mapping": figures.MAPPING_BUFFERED,
    }
    if wholes:
        head["whole_command"] = WHOLE_COMMAND
    if engines:
        head["engine_command"] = ENGINE_COMMAND
    text = [
        "# Physical figures of the RTL's unit types, mapped to the OSU 0.18 µm standard\n"
        "# cells (Debian qflow-tech-osu018, typical corner): the one statement of them.\n"
        "# Written by tcu_tools.phys (command below; docs/guide/energy.md gives the\n"
        "# energy method); read by tcu_tools.spec.gen_phys into the C++ energy\n"
        "# estimate (tcu run / tcu gemm); checked by CTest phys_data_file. Energies\n"
        "# are per cycle at the reference clock, by tcu_tools.phys.energy;\n"
        "# issued_ops_per_cycle at the peak rate, pj_per_issued_op the busy cycle's\n"
        "# energy over them (f16: products; a 2:4 sparse int4 instruction's\n"
        "# dense-equivalent MACs are twice its issued ones).\n"
        "# [[point]]: a unit at one parameter setting (configs: the named\n"
        "# configurations it is part of), its clock alone and in place (in a\n"
        "# register wrapper: tcu_tools.phys.in_place); [[datapath]]: a configuration\n"
        "# composed from its points, each engine's clock and the datapath's and what\n"
        "# sets each (compose in python/tcu_tools/phys/compose.py says how);\n"
        "# [[whole]], [[engine]]: tops mapped whole beside their composition;\n"
        "# [[glue]], [[engine_regs]]: the parts on the ungated clock and the\n"
        "# engines' registers around their units, as the energy estimate prices\n"
        "# them (tcu_tools.phys.glue, tcu_tools.phys.engine_regs: glue_command,\n"
        "# engine_regs_command).\n"
        "# [[engine_regs_toggles]]: per engine its registers' data toggles per MAC\n"
        "# issued, counted on an RTL run's waveform, and a toggle's energy from the\n"
        "# liberty at a mapped engine's loads (top, params: its netlist's;\n"
        "# toggles_command).\n"
        "# [[engine_glue]]: per engine its logic around its units, busy, measured at\n"
        "# gate level (tcu_tools.phys.engine_glue; source says how; engine_glue_command).\n"
        "# rtl_files, rtl_design, rtl_sha256 and tools: what RTL and flow the figures\n"
        "# of every table but [[datapath]] are of (tcu_tools.phys.stamp;\n"
        "# refresh_command re-measures what is stale of [[point]], [[engine]] and\n"
        "# [[whole]] and re-stamps every table whose design is the one measured; each\n"
        "# other table's command re-measures it).\n",
    ]
    points = [p for p in points if not p.get("derived") or "energy only" in p["derived"]]
    points = points + derived_f64(points)
    for p in points:
        # the named configurations a point is of, as spec/config.toml has
        # them now (a configuration's depth moves: the point's list with it)
        if p["unit"] in units.UNIT_TYPES:
            p["configs"] = list(units.configs_of(units.UNIT_TYPES[p["unit"]], p["params"]))
        if p["unit"].endswith("_dot") and p.get("busy_pj_per_cycle") is None:
            p.setdefault("no_energy", "mapped and timed only (tcu_tools.phys --no-energy)")
    def stamped(row: dict, raw: dict) -> dict:  # the measurement's stamp, where it has one
        return {**row, **{k: raw[k] for k in stamp.KEYS if k in raw}}
    data = {"point": [dict(p) for p in points],
            "whole": [stamped(compose.against_whole(points, w), w) for w in wholes],
            "engine": [stamped(compose.engine_beside_units(points, e), e) for e in engines]}
    for kind, entry in stamp.entries(data):
        if "rtl_files" in entry and "rtl_design" in entry:
            continue  # the stamp of the RTL its figures were measured from
        entry.update(stamp.stamp_of(kind, entry, yosys_version=tools.get("yosys", ""))
                     if measured_here else stamp.UNRECORDED_STAMP)
    # the kept tables keep their own stamps; the head names their files too
    head["rtl_sha256"] = stamp.head_hashes({**data, **{k: kept.get(k, []) for k in KEPT_TABLES}},
                                           rtl_then or {})
    head["refresh_command"] = REFRESH
    head.update({k: kept[k] for k in KEPT_HEAD if k in kept})
    text.append(_table("", head))
    for p in data["point"]:
        text.append(_table("[[point]]", p))
    if (any(p["unit"] == "tcu_operand_router" for p in data["point"])
            and compose.router_energy(1.0) is None):
        raise DataFileError(f"{path}: not written: the [[datapath]] tables' router energies come "
                            "from the tcu Python module, which is not found (build it and set "
                            "TCU_MODULE_DIR to the build's python/ directory)")
    for d in compose.datapaths(data["point"], data["engine"]):
        text.append(_table("[[datapath]]", d))
    for w in data["whole"]:
        text.append(_table("[[whole]]", w))
    for e in data["engine"]:
        text.append(_table("[[engine]]", e))
    for name in KEPT_TABLES:
        for entry in kept.get(name, []):
            text.append(_table(f"[[{name}]]", entry))
    path.write_text("\n".join(text))


def load(path: Path) -> dict:
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise DataFileError(f"{path}: {e}") from e
    for key in ("library", "date", "command", "reference_period_ns", "point"):
        if key not in data:
            raise DataFileError(f"{path}: no '{key}'")
    if data["library"] != library.LABEL:
        raise DataFileError(f"{path}: library '{data['library']}', expected '{library.LABEL}'")
    return data


def key(point: dict) -> tuple:
    """A point's unit and the parameters it is mapped at (a unit that
    chooses its implementation by SynthImpl is mapped at SynthImpl = 1,
    written or not)."""
    params = units.synthesis_params(point["unit"], point["params"])
    return point["unit"], tuple(sorted(params.items()))


def compare(stored: dict, fresh: list[dict]) -> list[str]:
    """Each disagreement between the file's points and freshly measured
    ones (matched by unit and parameters), as a message; [] if they agree."""
    by_key = {key(p): p for p in stored["point"]}
    problems = []
    for f in fresh:
        s = by_key.get(key(f))
        if s is None:
            problems.append(f"{f['unit']} {f['params']}: not in the data file")
            continue
        if s.get("mapping") != f.get("mapping"):
            problems.append(f"{f['unit']} {f['params']}: mapping file '{s.get('mapping')}' "
                            f"fresh '{f.get('mapping')}'")
        if s.get("rtl_design") != f.get("rtl_design"):
            problems.append(f"{f['unit']} {f['params']}: measured from other logic (rtl_design "
                            f"file {s.get('rtl_design')} fresh {f.get('rtl_design')}): "
                            f"stale, {REFRESH}")
            continue
        same_sources = s.get("rtl_files") == f.get("rtl_files")
        why = "" if same_sources else ", other sources of the same logic"
        for name, rtol in (CHECKED if same_sources else REORDERED).items():
            a, b = s.get(name), f.get(name)
            if a is None and b is None:
                continue
            if a is None or b is None:
                problems.append(f"{f['unit']} {f['params']}: {name} file {a} fresh {b}")
            elif abs(a - b) > rtol * max(abs(a), abs(b)) + 1e-9:
                problems.append(f"{f['unit']} {f['params']}: {name} file {a} fresh {b} "
                                f"(tolerance {rtol:g} relative{why})")
    return problems


def derived_f64(points: list[dict]) -> list[dict]:
    """Where tcu_f64_dot has no energy figures of its own (no point, or a
    point mapped and timed whose simulation did not finish) but one f64
    FMA (tcu_fma Format=1) has: its energies x 4 (FMAs per cycle 4), and,
    without a point, its area, cells and clock as well (x 4, the FMA's
    clock), marked `derived`. Four FMAs leave out the registers that carry
    the chain's later operands, so the figures are low. The points to add
    ([] if none); a timed-only point is completed in place."""
    fmas = [p for p in points if p["unit"] == "tcu_fma" and p["params"].get("Format") == 1
            and p.get("busy_pj_per_cycle") is not None]
    out = []
    for fma in fmas:
        stages = fma["params"]["Stages"]
        own = [p for p in points
               if p["unit"] == "tcu_f64_dot" and p["params"].get("FmaStages") == stages]
        if own and own[0].get("busy_pj_per_cycle") is not None:
            continue
        energy = {k: 4 * fma[k] for k in ("busy_pj_per_cycle", "idle_pj_per_cycle", "leakage_uw")}
        energy.update(issued_ops_per_cycle=4, op_name="FMA", pj_per_issued_op=fma["pj_per_issued_op"],
                      busy_toggle_rate=fma["busy_toggle_rate"])
        if own:  # mapped and timed: only the energy is derived
            own[0].pop("no_energy", None)
            own[0].update(energy, derived=(
                f"energy only: 4 x tcu_fma Format=FP64 Stages={stages} (its busy, idle and "
                "leakage figures x 4); area and clock are this unit's own mapping"))
            continue
        d = {k: v for k, v in fma.items() if k not in stamp.KEYS}  # stamped as its own top
        d.update(energy, unit="tcu_f64_dot", family="f64", params={"FmaStages": stages},
                 configs=[c for c in ("default", "small")
                          if units.SPEC.config_values(c)["FmaStages"] == stages],
                 derived=(f"4 x tcu_fma Format=FP64 Stages={stages} (measured as such): area, "
                          "cells, energies and FMAs per cycle x 4, its clock; the registers "
                          "that carry the chain's later operands are left out"))
        for k in ("area_um2", "flip_flop_area_um2"):
            d[k] = 4 * d[k]
        d["cells"], d["flip_flops"] = 4 * fma["cells"], 4 * fma["flip_flops"]
        out.append(d)
    return out


# The figures of a mapping alone (no simulation): two rows with these equal
# are of the same netlist (the mapping is deterministic).
MAPPING_FIGURES = ("area_um2", "flip_flop_area_um2", "cells", "flip_flops", "critical_path_ns")
ENERGY_FIGURES = ("busy_toggle_rate", "busy_pj_per_cycle", "idle_pj_per_cycle", "leakage_uw",
                  "pj_per_issued_op", "busy_internal_pj", "busy_switching_pj", "busy_ports_pj")


def merge(base: list[dict], newer: list[dict]) -> list[dict]:
    """The points of `base` with those of `newer` in their place (matched
    by unit and parameters; new ones appended). A newer point measured
    without energy (tcu_tools.phys --no-energy) keeps the base point's
    energies if both are of the same netlist (MAPPING_FIGURES agree as
    --check compares them); a DataFileError names it where they do not
    (its energy must be measured again)."""
    out = [dict(p) for p in base]
    index = {key(p): i for i, p in enumerate(out)}
    for p in newer:
        k = key(p)
        if k not in index:
            index[k] = len(out)
            out.append(dict(p))
            continue
        old = out[index[k]]
        if p.get("busy_pj_per_cycle") is None and old.get("busy_pj_per_cycle") is not None:
            differ = [n for n in MAPPING_FIGURES
                      if abs(old[n] - p[n]) > CHECKED[n] * max(abs(old[n]), abs(p[n])) + 1e-9]
            if differ:
                raise DataFileError(
                    f"{p['unit']} {p['params']}: mapped without energy to another netlist than "
                    f"the earlier figures' ({', '.join(differ)} differ): measure its energy "
                    "again")
            p = {**p, **{n: old[n] for n in ENERGY_FIGURES if old.get(n) is not None},
                 "seconds": old.get("seconds", p.get("seconds")),
                 "synth_seconds": old.get("synth_seconds", p.get("synth_seconds"))}
            p.pop("derived", None)
            if old.get("derived"):
                p["derived"] = old["derived"]
        out[index[k]] = dict(p)
    return out


# A [[whole]] or [[engine]] table's own measurement (tcu_tools.phys.area's
# keys): what --write needs to write it again beside the points.
MEASURED_KEYS = ("top", "params", "library", "area_um2", "flip_flop_area_um2", "cells",
                 "flip_flops", "fmax_mhz", "critical_path_ns", "path_start", "path_end", "path_start_register",
                 "path_end_register", compose.BOTTOM_UP, "rtl_files", "rtl_design")


def with_measured(tables: list[dict], new: list[dict]) -> list[dict]:
    """[[whole]] or [[engine]] measurements `tables` with each of `new` in
    place of the one of the same top and parameters (SynthImpl aside), the
    others of `new` appended."""
    def key(t):
        return t["top"], tuple(sorted((k, v) for k, v in t["params"].items() if k != "SynthImpl"))
    out = list(tables)
    for n in new:
        at = [i for i, t in enumerate(out) if key(t) == key(n)]
        if at:
            out[at[0]] = n
        else:
            out.append(n)
    return out


def measured_tables(data: dict) -> tuple[list[dict], list[dict]]:
    """The [[whole]] and [[engine]] tables' measurements of a data file,
    with the stamps of the RTL they were measured from."""
    def keep(t):
        return {k: t[k] for k in MEASURED_KEYS if k in t}
    return [keep(w) for w in data.get("whole", [])], [keep(e) for e in data.get("engine", [])]


def with_around(engines: list[dict], arounds: list[dict]) -> list[dict]:
    """The [[engine]] measurements with each engine top's area around its
    units as the full flow maps it (tcu_tools.phys.area --around JSON:
    around_units_area_um2) as compose.BOTTOM_UP, on the table of the same
    top and parameters, or a table of that alone where there is none."""
    out = [dict(e) for e in engines]
    for a in arounds:
        params = {k: v for k, v in a["params"].items() if k != "SynthImpl"}
        same = [e for e in out if e["top"] == a["top"] and
                {k: v for k, v in e["params"].items() if k != "SynthImpl"} == params]
        if same:
            same[0][compose.BOTTOM_UP] = a["around_units_area_um2"]
        else:
            out.append({"top": a["top"], "params": params, "library": a["library"],
                        compose.BOTTOM_UP: a["around_units_area_um2"],
                        **{k: a[k] for k in stamp.KEYS if k in a}})
    return out
