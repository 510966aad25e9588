"""The data file (spec/phys_osu018.toml): the one statement of the physical
figures. Written by `python -m tcu_tools.phys --all --write FILE`; read by the
C++ energy estimate (tcu_tools.spec.gen_phys, at configure time) and checked
against a fresh measurement (`--check FILE`)."""
from __future__ import annotations

import datetime
import hashlib
import math
import re
import importlib.metadata
import subprocess
import tomllib
from pathlib import Path

from . import compose, figures, library, sta
from . import units
from .units import POINTS, RTL, sources_of

# What a fresh measurement must agree with the file on, and how closely
# (relative). Mapping, timing and the gate-level simulation are
# deterministic for a given seed and cycle count; the tolerance allows the
# last printed digit.
CHECKED = {
    "area_um2": 1e-6, "flip_flop_area_um2": 1e-6, "cells": 0, "flip_flops": 0,
    "critical_path_ns": 1e-3, "busy_pj_per_cycle": 1e-3, "idle_pj_per_cycle": 1e-3,
    "pj_per_issued_op": 1e-3,
}
REGENERATE = ("nice -n 10 .venv/bin/python -m tcu_tools.phys --all "
              "--write spec/phys_osu018.toml")
# The [[whole]] tables: each a whole tcu_datapath mapped first, then given to
# the command above as --whole FILE.
WHOLE_COMMAND = ("nice -n 10 .venv/bin/python -m tcu_tools.phys.area tcu_datapath "
                 "--params \"Int4MacsPerCycle=32 SparseEnable=0 E2m1Enable=0 F16Enable=0 "
                 "F64Enable=0 IntStages=2\" --json W.json; then --whole W.json")


# The [[engine]] tables: each an engine mapped as a top first,
# then given to the command above as --engine FILE.
ENGINE_COMMAND = ("nice -n 10 .venv/bin/python -m tcu_tools.phys.area tcu_int4_engine "
                  "--params \"Units=1 SparseEnable=0 Stages=2\" --json E.json; then --engine E.json")


class DataFileError(RuntimeError):
    pass


def _key(k: str) -> str:
    """A TOML key: bare when it can be (letters, digits, _ and -), else quoted
    (a path such as rtl/tcu_fma.sv)."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _value(k)


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


def _table(header: str, entries: dict) -> str:
    lines = [header] if header else []
    for k, v in entries.items():
        if v is not None:  # TOML has no null: a missing key is "not measured"
            lines.append(f"{k} = {_value(v)}")
    return "\n".join(lines) + "\n"


def tool_versions() -> dict:
    """The first line of each tool's version: the flow the figures depend on."""
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
            "iverilog": first_line(["iverilog", "-V"]), "liberty_parser": parser}


def rtl_hashes() -> dict:
    """The SHA-256 (16 hex digits) of every RTL file a characterized unit is
    built from (units.sources_of each point's top, and the engines')."""
    tops = {p.name for p in POINTS} | set(compose.ENGINE_UNITS)
    files = sorted({f for top in tops for f in sources_of(top)})
    return {str(f.relative_to(RTL.parent)): hashlib.sha256(f.read_bytes()).hexdigest()[:16]
            for f in files}


def stale(data: dict, tools: dict | None = None) -> list[str]:
    """Why the data file's figures are not those of this RTL and these
    tools (its rtl_sha256 and tools against theirs now); [] if they are,
    or if the file carries no rtl_sha256 (see unstamped)."""
    if "rtl_sha256" not in data:
        return []
    now = rtl_hashes()
    then = data["rtl_sha256"]
    reasons = [f"{f} changed" for f in sorted(now) if f in then and then[f] != now[f]]
    reasons += [f"{f} is new" for f in sorted(set(now) - set(then))]
    reasons += [f"{f} is gone" for f in sorted(set(then) - set(now))]
    tools = tool_versions() if tools is None else tools
    for name, version in data.get("tools", {}).items():
        if tools.get(name) != version:
            reasons.append(f"{name} is '{tools.get(name)}', the figures' '{version}'")
    return reasons


def write(path: Path, points: list[dict], cycles: int, seed: int, tools: dict,
          wholes: list[dict] = (), engines: list[dict] = ()) -> None:
    head = {
        "library": library.LABEL,
        "liberty": str(library.LIBERTY),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "command": REGENERATE,
        "tools": tools,
        "rtl_sha256": rtl_hashes(),
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
        "# configurations it is part of); [[datapath]]: a configuration composed from\n"
        "# its points (compose in python/tcu_tools/phys/compose.py says how).\n",
        _table("", head),
    ]
    points = points + derived_f64(points)
    for p in points:
        if p["unit"].endswith("_dot") and p.get("busy_pj_per_cycle") is None:
            p.setdefault("no_energy", "mapped and timed only (tcu_tools.phys --no-energy)")
        text.append(_table("[[point]]", p))
    for d in compose.datapaths(points):
        text.append(_table("[[datapath]]", d))
    for w in wholes:
        text.append(_table("[[whole]]", compose.against_whole(points, w)))
    for e in engines:
        text.append(_table("[[engine]]", compose.engine_beside_units(points, e)))
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
    return point["unit"], tuple(sorted(point["params"].items()))


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
        for name, rtol in CHECKED.items():
            a, b = s.get(name), f.get(name)
            if a is None and b is None:
                continue
            if a is None or b is None:
                problems.append(f"{f['unit']} {f['params']}: {name} file {a} fresh {b}")
            elif abs(a - b) > rtol * max(abs(a), abs(b)) + 1e-9:
                problems.append(f"{f['unit']} {f['params']}: {name} file {a} fresh {b} "
                                f"(tolerance {rtol:g} relative)")
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
        d = dict(fma)
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
