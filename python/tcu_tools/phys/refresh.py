"""`python -m tcu_tools.phys --refresh FILE`: the data file's stale entries
(tcu_tools.phys.stamp: their design or the tools changed) re-measured and
stamped with this tree's RTL, the rest kept with their stamps (those whose
files changed but elaborate to the same design with this tree's files:
stamp.restamp, every kind of table), the file rewritten. A stale table
that other tools append (stamp.APPENDED) is named with the command that
re-measures it and kept as it is (stale). With nothing stale it only
re-stamps and rewrites it (a renamed file or a comment leaves the figures
as they are)."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from . import area, compose, datafile, figures, hier, stamp
from .units import UNIT_TYPES

def _remeasure_point(point: dict, workdir: Path, cycles: int, seed: int, yosys: str) -> dict:
    unit = dataclasses.replace(UNIT_TYPES[point["unit"]], params=dict(point["params"]),
                               configs=tuple(point.get("configs", ())))
    energy = point.get("busy_pj_per_cycle") is not None and not point.get("derived")
    rtl = stamp.stamp_of("point", point, yosys_version=yosys)  # taken before measuring
    return {**figures.measure(unit, workdir, cycles, seed, True, energy).to_json(), **rtl}


def _remeasure_top(entry: dict, workdir: Path, points: list[dict]) -> dict:
    """A [[whole]] or [[engine]] table mapped again: flat where it was, and
    around its units (hier.around_figures) where it has that figure."""
    params = {k: v for k, v in entry["params"].items() if k != "SynthImpl"}
    out = {}
    if entry.get("area_um2") is not None:
        out = area.figures(entry["top"], params, workdir / entry["top"])
    if entry.get(compose.BOTTOM_UP) is not None:
        around = hier.around_figures(entry["top"], params, workdir / f"{entry['top']}.around",
                                     hier.data_file_unit_area(points))
        out = datafile.with_around([out] if out else [], [{
            **around, **stamp.stamp_of("engine", entry)}])[0]
    return out


def refresh(path: Path, workdir: Path) -> int:
    try:
        data = datafile.load(path)
    except datafile.DataFileError as error:
        print(f"tcu_phys: {error}", file=sys.stderr)
        return 1
    tools = datafile.tool_versions()
    reasons = stamp.staleness(data, tools)
    every = "tools" not in data or any(data["tools"].get(k) != v for k, v in tools.items())
    stale = stamp.entries(data) if every else stamp.stale_entries(data, yosys_version=tools["yosys"])
    appended = [(k, e) for k, e in stale if k in stamp.APPENDED]
    stale = [(k, e) for k, e in stale if k in stamp.REFRESHED]
    ids = {id(e) for _, e in stale}
    print(f"{path}: {'; '.join(reasons) or 'fresh'}; re-measuring {len(stale)} entr"
          f"{'y' if len(stale) == 1 else 'ies'}", flush=True)
    if not every:
        restamped = stamp.restamp(data, yosys_version=tools["yosys"])
        if restamped:
            print(f"  re-stamped with this tree's sources (the same design): "
                  f"{', '.join(stamp.entry_label(k, e) for k, e in restamped)}", flush=True)
    for kind, entry in appended:
        print(f"  not re-measured here: {stamp.entry_label(kind, entry)}; re-measure with: "
              f"{stamp.command_of(kind, data)}", flush=True)
    points, wholes, engines = [], [], []
    try:
        for kind, entry in stamp.entries(data, stamp.REFRESHED):
            if kind == "point":
                if entry.get("derived") and "energy only" not in entry["derived"]:
                    continue  # datafile.write derives it again
                if id(entry) in ids:
                    print(f"  {stamp.entry_label(kind, entry)}", flush=True)
                    entry = _remeasure_point(entry, workdir, data["cycles"], data["seed"],
                                             tools["yosys"])
                points.append(entry)
                continue
            raw = (datafile.measured_tables({kind: [entry]})[kind == "engine"][0]
                   if id(entry) not in ids else _remeasure_top(entry, workdir, points))
            if id(entry) in ids:
                print(f"  {stamp.entry_label(kind, entry)}", flush=True)
            (wholes if kind == "whole" else engines).append(raw)
    except RuntimeError as error:
        print(f"tcu_phys: {error}", file=sys.stderr)
        return 1
    datafile.write(path, points, data["cycles"], data["seed"], tools, wholes, engines,
                   rtl_then=data.get("rtl_sha256", {}),
                   kept=datafile.kept_of(data))
    print(f"wrote {path}")
    return 0
