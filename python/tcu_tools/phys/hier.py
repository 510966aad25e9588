"""A datapath mapped bottom-up: its dot units (tcu_int4_dot, tcu_e2m1_dot,
tcu_f16_dot, tcu_f64_dot) each mapped once per parameter setting as tops of
their own (mapping.map_unit, the flow of the data file's points) and kept
in a cache keyed by the unit's RTL (the SHA-256 of its sources, in
map_unit's digest), its parameters and the tool versions; the rest of the
datapath (engines' registers and selection, sequencers, accumulators,
sparse muxes, skid, control, clock gates, counters) mapped around them
with the units as black boxes; the whole netlist (the top's cells and every
unit instance's mapped netlist) timed by OpenSTA as one design.

Area = the top's cells + units x the unit's mapped area (each unit
instance is that netlist: no optimization across its boundary, the
bottom-up flow's usual cost); the clock is OpenSTA's over the linked
design, paths through and into the units included. The full flow of `tcu
explore` (--fidelity full and --validate) maps tcu_datapath this way, so a
sweep maps each unit setting once; its figures are independent of the
data file (the cache is its own mapping, not the file's figures)."""
from __future__ import annotations

import fcntl
import hashlib
import json
import re
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from . import library, mapping, sta
from .units import sources_of, synthesis_params

LEAVES = ("tcu_int4_dot", "tcu_e2m1_dot", "tcu_f16_dot", "tcu_f64_dot")


@contextmanager
def _locked(directory: Path):
    """One process at a time maps into `directory` (parallel points share units)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def parse_derived(name: str) -> tuple[str, dict] | None:
    """(module, parameters) of a Yosys derived module name
    ($paramod\\tcu_int4_dot\\Stages=32'0...10\\SynthImpl=1'1), or None."""
    m = re.fullmatch(r"\$paramod\\(\w+)((?:\\\w+=\d+'[01]+)*)", name)
    if not m:
        return None
    params = {k: int(v, 2) for k, v in re.findall(r"\\(\w+)=\d+'([01]+)", m.group(2))}
    return m.group(1), params


def clean_name(module: str, params: dict) -> str:
    return module + "".join(f"__{k}_{v}" for k, v in sorted(params.items()))


def _yosys(script: str, path: Path, log: Path) -> None:
    path.write_text(script)
    proc = subprocess.run(["yosys", "-q", "-l", str(log), "-s", str(path)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"yosys failed on {path} (see {log})")


def leaves_of(top: str, params: dict, workdir: Path) -> dict[str, tuple[str, dict]]:
    """The dot-unit modules Yosys derives for `top` at `params`: derived
    name -> (unit, parameters)."""
    sources = " ".join(str(s) for s in sources_of(top))
    listing = workdir / "modules.txt"
    _yosys(f"read_verilog -sv -defer {sources}\n{mapping._elaborate(top, params)}\n"
           f"tee -q -o {listing} ls\n", workdir / "modules.ys", workdir / "modules.log")
    out = {}
    for line in listing.read_text().splitlines():
        name = line.strip()
        parsed = parse_derived(name)
        if parsed and parsed[0] in LEAVES:
            out[name] = parsed
        elif name in LEAVES:  # at its defaults (a top without parameters for it)
            out[name] = (name, {})
        elif any(re.search(rf"\\{leaf}(\\|$)", name) for leaf in LEAVES):
            raise RuntimeError(f"{top}: derived unit module '{name}' has no readable parameters")
    return out


def unit_key(unit: str, params: dict, tools: dict) -> str:
    text = json.dumps([unit, sorted(params.items()), sorted(tools.items())])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def map_leaf(unit: str, params: dict, cache: Path, tools: dict) -> mapping.MappedUnit:
    """The unit mapped once (cached under `cache`; map_unit re-maps it when
    its sources, script or the liberty file change)."""
    directory = cache / f"{unit}-{unit_key(unit, params, tools)}"
    with _locked(directory):
        return mapping.map_unit(unit, params, directory)


def map_hierarchical(top: str, params: dict, workdir: Path, cache: Path, tools: dict) -> dict:
    """The figures of `top` at `params` mapped bottom-up (area.figures' keys,
    plus units: {clean name: (count, area)})."""
    start = time.monotonic()
    params = synthesis_params(top, params)
    workdir.mkdir(parents=True, exist_ok=True)
    leaves = leaves_of(top, params, workdir)
    mapped = {derived: (clean_name(unit, unit_params), map_leaf(unit, unit_params, cache, tools))
              for derived, (unit, unit_params) in leaves.items()}
    map_around(top, params, workdir, leaves)
    return linked_figures(top, params, workdir, mapped, start)


def map_around(top: str, params: dict, workdir: Path, leaves: dict) -> None:
    """`top` at `params` (synthesis parameters) mapped around its dot units
    (`leaves`: leaves_of's derived names) as black boxes: the netlist
    {top}.top.v and its stat {top}.top.stat.json in `workdir`."""
    lib = library.liberty()
    sources = " ".join(str(s) for s in sources_of(top))
    boxes = "".join(f"blackbox {d}\n" for d in leaves)
    netlist = workdir / f"{top}.top.v"
    stat_json = workdir / f"{top}.top.stat.json"
    log = workdir / f"{top}.top.log"
    _yosys(f"read_verilog -sv -defer {sources}\n{mapping._elaborate(top, params)}\n{boxes}"
           f"synth -flatten -top {top}\ndfflibmap -liberty {lib}\n{mapping.LATCH_MAPPING}\n"
           f"abc -constr {mapping.ABC_CONSTRAINTS} -liberty {lib}\nopt_clean -purge\n"
           f"setattr -mod -unset keep\nwrite_verilog -noattr -noexpr {netlist}\n"
           f"tee -q -o {stat_json} stat -json\n", workdir / f"{top}.top.ys", log)


def around_figures(top: str, params: dict, workdir: Path, unit_areas) -> dict:
    """The area of `top` at `params` mapped around its dot units, without
    mapping them: the top's cells, and each unit instance at the area
    `unit_areas(unit, parameters)` gives for it (um^2: the data file's
    points, which a unit mapped by this flow equals). No clock (the units'
    netlists are not there to time)."""
    start = time.monotonic()
    params = synthesis_params(top, params)
    workdir.mkdir(parents=True, exist_ok=True)
    leaves = leaves_of(top, params, workdir)
    map_around(top, params, workdir, leaves)
    stat = json.loads(mapping._json_part((workdir / f"{top}.top.stat.json").read_text()))
    counts = stat["modules"][f"\\{top}"]["num_cells_by_type"]
    areas = mapping.cell_areas()
    around = ff_area = 0.0
    units = {}
    for cell, n in counts.items():
        if cell in leaves:
            unit, unit_params = leaves[cell]
            area = unit_areas(unit, unit_params)
            units[clean_name(unit, unit_params)] = {"count": n, "area_um2": area}
        elif cell in areas:
            around += n * areas[cell]
            ff_area += n * areas[cell] if library.is_flip_flop(cell) else 0
        else:
            raise RuntimeError(f"{top}: cell {cell} neither in the library nor a unit")
    return {"top": top, "params": params, "library": library.LABEL,
            "area_um2": round(around + sum(u["count"] * u["area_um2"] for u in units.values()), 3),
            "around_units_area_um2": round(around, 3),
            "around_flip_flop_area_um2": round(ff_area, 3), "units": units,
            "mapping": "around the dot units (black boxes), the units at the data file's areas",
            "seconds": round(time.monotonic() - start, 1)}


def linked_figures(top: str, params: dict, workdir: Path, mapped: dict, start: float) -> dict:
    """The figures of a top mapped around its units (`mapped`: derived
    name -> (clean name, MappedUnit)): its cells plus the units', and
    OpenSTA's clock over the top's netlist linked with the units'."""
    lib = library.liberty()
    log = workdir / f"{top}.top.log"
    split = mapping.split_netlist(workdir / f"{top}.top.v", lib, log)
    stat = json.loads(mapping._json_part((workdir / f"{top}.top.stat.json").read_text()))
    counts = stat["modules"][f"\\{top}"]["num_cells_by_type"]
    areas = mapping.cell_areas()
    area = ff_area = 0.0
    cells = flip_flops = 0
    units = {}
    for cell, n in counts.items():
        if cell in mapped:
            clean, m = mapped[cell]
            units[clean] = {"count": n, "area_um2": m.area_um2}
            area += n * m.area_um2
            ff_area += n * m.flip_flop_area_um2
            cells += n * m.cells
            flip_flops += n * m.flip_flops
        elif cell in areas:
            area += n * areas[cell]
            cells += n
            if library.is_flip_flop(cell):
                ff_area += n * areas[cell]
                flip_flops += n
        else:
            raise RuntimeError(f"{top}: cell {cell} neither in {lib} nor a mapped unit")
    # The units' instances by their clean names (Verilog escapes the derived
    # ones: a backslash, the name, a space), their netlists renamed to them.
    text = split.read_text()
    for derived, (clean, _) in mapped.items():
        text = text.replace(f"\\{derived} ", f"{clean} ")
    parts = [text]
    for clean, m in {c: m for c, m in mapped.values()}.items():
        renamed, n = re.subn(rf"^module {m.top}\s*\(", f"module {clean}(", m.netlist.read_text(),
                             count=1, flags=re.M)
        if n != 1:
            raise RuntimeError(f"{m.netlist}: no module {m.top}")
        parts.append(renamed)
    design = workdir / f"{top}.linked.v"
    design.write_text("\n".join(parts))
    path = sta.critical_path(design, top, "clk_i", workdir)
    return {
        "top": top, "params": params, "library": library.LABEL,
        "area_um2": round(area, 3), "flip_flop_area_um2": round(ff_area, 3),
        "cells": cells, "flip_flops": flip_flops,
        "fmax_mhz": round(path.fmax_mhz, 3), "critical_path_ns": round(path.delay_ns, 4),
        "path_start": path.startpoint, "path_end": path.endpoint, "units": units,
        "mapping": "bottom-up: dot units mapped once each, the rest around them",
        "seconds": round(time.monotonic() - start, 1),
    }


def data_file_unit_area(points: list[dict]):
    """unit_areas for around_figures: a dot unit's area from the data file's
    points (its parameters but SynthImpl); RuntimeError where none has it."""
    def area(unit: str, params: dict) -> float:
        want = {k: v for k, v in params.items() if k != "SynthImpl"}
        for p in points:
            if p["unit"] == unit and all(p["params"].get(k) == v for k, v in want.items()):
                return p["area_um2"]
        raise RuntimeError(f"no point of {unit} {want} in the data file")
    return area
