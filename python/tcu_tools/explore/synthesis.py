"""A point's synthesis at the point's datapath (or operand-router)
parameters, cached by content. Where the cell library is installed (the
OSU 0.18 um cells, OpenSTA), tcu_tools.phys.area maps it: tcu_datapath
bottom-up (tcu_tools.phys.hier: each dot-unit setting mapped once, cached
in the cache's units/ folder and shared by every point; the rest mapped
around the units; the linked design timed), the router as one top; the
physical figures area_um2, flip_flop_area_um2, fmax_mhz, critical_path_ns,
path_start, path_end (and "library"), and the library cells and flip-flops.
Without the library, scripts/synth.sh's generic-cell figures (cells,
flip-flops, transistor estimate, logic depth)."""
from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .cache import Locked, run_logged
from tcu_tools.phys import mapping

from .params import checkout

GENERIC_KEYS = ("cells", "flip_flops", "transistors", "logic_depth")
# The cell-library figures synth.sh's --json gives (the contract with it).
PHYSICAL_KEYS = ("area_um2", "flip_flop_area_um2", "fmax_mhz", "critical_path_ns", "path_start",
                 "path_end")
LIBRARY_KEY = "library"
LIBERTY_FILE = Path("/usr/share/qflow/tech/osu018/osu018_stdcells.lib")


@dataclass
class Synthesis:
    key: str
    directory: Path
    params: dict[str, int]
    top: str = "tcu_datapath"  # or tcu_operand_router: figures prefixed router_
    seconds: float = 0.0
    cached: bool = False
    error: str = ""
    figures: dict[str, str] = field(default_factory=dict)
    library: str = ""  # the cell library of the physical figures, if any
    note: str = ""  # why physical figures are missing
    units: Path | None = None  # the dot units' mapping cache (bottom-up), if any


# The flow's own files (part of the cache key with synth.sh): the package's.
FLOW_FILES = [Path(mapping.__file__).with_name(f)
              for f in ("hier.py", "mapping.py", "area.py", "sta.py", "osu018_abc.constr",
                        "osu018_latch_map.v")]


def synth_script() -> Path:
    return checkout() / "scripts" / "synth.sh"


def script_version() -> str:
    """synth.sh's and the mapping flow's content hash and whether it maps to
    the cell library here (part of the cache key: a changed flow
    re-synthesizes)."""
    digest = hashlib.sha256(synth_script().read_bytes())
    for f in FLOW_FILES:
        digest.update(f.read_bytes() if f.exists() else b"")
    return f"synth.sh {digest.hexdigest()[:16]}" + (
        " liberty" if not library_missing() else "")


def library_missing() -> str:
    """Why synth.sh cannot give the cell-library figures here, or ''."""
    try:
        header = synth_script().read_text().split("\nset -", 1)[0]
    except OSError as error:
        return f"{synth_script()}: {error.strerror}"
    if "--liberty" not in header or "--json" not in header:
        return ("scripts/synth.sh has no cell-library mapping "
                "(--liberty --json)")
    if not LIBERTY_FILE.exists():
        return f"no OSU 0.18 um library ({LIBERTY_FILE}; Debian package qflow-tech-osu018)"
    if not shutil.which("sta"):
        return "no OpenSTA (sta; Debian package opensta)"
    return ""


def physical_row(data, top: str) -> dict | None:
    """The row of synth.sh's JSON for `top`: the object itself, or the
    entry of a list (or of its "rows"/"units") whose unit is the top.
    tcu_tools.phys.area's JSON is the top's row itself: it names the top
    ("top") and its "units" are the dot units mapped inside it (bottom-up),
    not rows."""
    rows = data
    if isinstance(data, dict) and data.get("top") == top:
        return data
    if isinstance(data, dict):
        rows = data.get("rows", data.get("units", [data]))
    if isinstance(rows, dict):
        rows = [dict(v, unit=k) if isinstance(v, dict) else v for k, v in rows.items()]
    if not isinstance(rows, list):
        return None
    rows = [r for r in rows if isinstance(r, dict)]
    matching = [r for r in rows if str(r.get("unit", top)).split(".")[0] == top]
    return (matching or rows or [None])[0]


def read_physical(path: Path, synth: Synthesis) -> None:
    """The cell-library figures of synth.sh's JSON into synth.figures, or
    synth.note saying what is missing."""
    if not path.exists():
        why = library_missing() or f"scripts/synth.sh wrote no {path.name}"
        synth.note = (f"no cell-library figures ({why}): area_um2, fmax_mhz and the columns "
                      "from them are empty")
        return
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        synth.note = f"{path}: not JSON ({error}); the physical columns are empty"
        return
    row = physical_row(data, synth.top) or {}
    missing = [k for k in PHYSICAL_KEYS if row.get(k) in (None, "")]
    if missing:
        synth.note = f"{path}: no {', '.join(missing)}; those columns are empty"
    synth.figures.update({k: row[k] for k in PHYSICAL_KEYS if row.get(k) not in (None, "")})
    top_library = data.get(LIBRARY_KEY, "") if isinstance(data, dict) else ""
    synth.library = str(row.get(LIBRARY_KEY) or top_library or "")


def generic_row(path: Path) -> dict | None:
    """synth.sh's CSV row, if it has the generic figures (a run whose
    cell-library mapping failed still has them)."""
    try:
        with open(path, newline="") as f:
            row = next(csv.DictReader(f), None)
    except OSError:
        return None
    return row if row and all(row.get(k) for k in GENERIC_KEYS) else None


# The mapping to the cell library (tcu_tools.phys.area with this interpreter).
AREA_COMMAND = [sys.executable, "-m", "tcu_tools.phys.area"]


def map_to_library(synth: Synthesis, timeout: float | None) -> None:
    """tcu_tools.phys.area at the point's parameters (bottom-up with
    synth.units): the physical figures and the library cells."""
    physical = synth.directory / "synth.json"
    log = synth.directory / "synth.log"
    start = time.monotonic()
    with Locked(synth.directory):
        if physical.exists():
            synth.cached = True
        else:
            partial = synth.directory / "synth.partial.json"
            command = AREA_COMMAND + [synth.top, "--params",
                       " ".join(f"{k}={v}" for k, v in synth.params.items()), "--json",
                       str(partial), "--workdir", str(synth.directory / "osu018")]
            if synth.units is not None:
                command += ["--units-cache", str(synth.units)]
            status = run_logged(command, log, dict(os.environ), timeout)
            if status != 0 or not partial.exists():
                synth.error = ("synthesis timed out" if status == -1
                               else "synthesis failed") + f" (see {log})"
                synth.seconds = time.monotonic() - start
                return
            partial.rename(physical)
        data = json.loads(physical.read_text())
        synth.figures = {"cells": str(data.get("cells", "")),
                         "flip_flops": str(data.get("flip_flops", "")),
                         "transistors": "", "logic_depth": ""}
        if not synth.cached:
            synth.figures["synth_s"] = str(round(data.get("seconds", 0)))
        read_physical(physical, synth)
        if synth.top == "tcu_operand_router":
            synth.figures = {f"router_{k}": v for k, v in synth.figures.items()}
    synth.seconds = time.monotonic() - start


def synthesize(synth: Synthesis, timeout: float | None) -> None:
    if not library_missing():
        map_to_library(synth, timeout)
        return
    result = synth.directory / "synth.csv"
    physical = synth.directory / "synth.json"
    log = synth.directory / "synth.log"
    start = time.monotonic()
    with Locked(synth.directory):
        if not result.exists():
            params = " ".join(f"{k}={v}" for k, v in synth.params.items())
            partial = synth.directory / "synth.partial.csv"
            env = dict(os.environ, SYNTH_DIR=str(synth.directory))
            command = [str(synth_script()), "--params", params, "--csv", str(partial)]
            status = run_logged(command + [synth.top], log, env, timeout)
            if status != 0 or generic_row(partial) is None:
                synth.error = ("synthesis timed out" if status == -1
                               else "synthesis failed") + f" (see {log})"
                synth.seconds = time.monotonic() - start
                return
            partial.rename(result)
        else:
            synth.cached = True
        row = generic_row(result) or {}
        synth.figures = {k: row.get(k, "") for k in GENERIC_KEYS}
        # stat -tech cmos leaves flip-flops out ("221570+"): the column is a
        # number, and its meaning is stated in docs/guide/explore.md.
        synth.figures["transistors"] = synth.figures["transistors"].rstrip("+")
        if not synth.cached:
            synth.figures["synth_s"] = row.get("seconds", "")
        read_physical(physical, synth)
        if row.get("status", "ok") not in ("ok", ""):
            # The generic figures are there; the cell library's are not.
            synth.note = (f"{synth.top} at {' '.join(f'{k}={v}' for k, v in synth.params.items())}"
                          f": {row['status']} (see {log}); its area_um2, fmax_mhz and the "
                          "columns from them are empty")
        if synth.top == "tcu_operand_router":
            synth.figures = {f"router_{k}": v for k, v in synth.figures.items()}
    synth.seconds = time.monotonic() - start
