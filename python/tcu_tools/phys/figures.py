"""A unit type's physical figures: area, clock, energy per operation."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

from . import activity, in_place, library, mapping, sta
from . import energy as energy_method
from .units import UnitType


@dataclass
class UnitFigures:
    unit: str
    family: str
    params: dict
    configs: list                  # the named configurations this point is of
    library: str
    area_um2: float
    flip_flop_area_um2: float
    cells: int
    flip_flops: int
    critical_path_ns: float
    fmax_mhz: float
    startpoint: str
    endpoint: str
    # Energy (None for glue measured for area and clock only):
    busy_toggle_rate: float | None     # mean toggles per net per cycle, busy
    busy_pj_per_cycle: float | None    # an operation accepted every cycle
    idle_pj_per_cycle: float | None    # clocked, valid low, operands held
    leakage_uw: float | None
    issued_ops_per_cycle: int
    op_name: str
    pj_per_issued_op: float | None            # busy energy per cycle / operations per cycle
    synth_seconds: float = 0.0         # the Yosys mapping's wall time
    seconds: float = 0.0               # the whole measurement's wall time
    mapping: str = ""                  # MAPPING_BUFFERED or MAPPING_PLAIN
    # The busy cycle's parts (tcu_tools.phys.energy): cells' internal energy, the
    # nets they drive, the nets the input ports drive (the clock's too);
    # leakage is leakage_uw.
    busy_internal_pj: float | None = None
    busy_switching_pj: float | None = None
    busy_ports_pj: float | None = None
    # The unit as it sits in the design (tcu_tools.phys.in_place): in a
    # register wrapper, every input driven by a flip-flop and every output
    # captured by one; the clock of the unit inside its engine.
    in_place_critical_path_ns: float | None = None
    in_place_fmax_mhz: float | None = None
    in_place_startpoint: str | None = None
    in_place_endpoint: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


# How a point was mapped (the data file's `mapping`): the flow of a whole
# datapath (mapping.ABC_CONSTRAINTS), or the plain one (tcu-phys --plain).
MAPPING_BUFFERED = "abc -constr: buffered and sized (BUFX2 driver, 20 fF load), as a whole datapath"
MAPPING_PLAIN = "abc -liberty, unbuffered"


def issued_ops_per_cycle(unit: UnitType) -> int:
    """Operations one busy cycle does: the unit's per accepted operation, or
    the router's words (every gather slot valid; the write-back's: every
    scatter slot)."""
    if unit.op_name == "word":
        return unit.params.get("WordsPerCycle", unit.params.get("DWordsPerCycle", 0))
    return unit.ops_per_valid


def measure(unit: UnitType, workdir: Path, cycles: int = 200, seed: int = 1,
            buffered: bool = True, energy: bool = True) -> UnitFigures:
    """Maps the unit, times it, and (unless it is glue without a stimulus)
    simulates it busy and idle at the reference clock; energies are per
    cycle at that clock (internal and switching energy per cycle do not
    depend on the clock; leakage energy does, and is small here)."""
    start = time.monotonic()
    workdir = workdir / (mapping.tag(unit.name, unit.params) + ("" if buffered else ".plain"))
    mapped = mapping.map_unit(unit.name, unit.params, workdir, buffered)
    ins, _ = activity.ports(mapped.netlist)
    clock = "clk_i" if any(n == "clk_i" for n, _ in ins) else None
    path = sta.critical_path(mapped.netlist, unit.name, clock, workdir)
    placed = in_place.critical_path(mapped.netlist, unit.name, workdir)
    busy_rate = busy_pj = idle_pj = leak_uw = per_op = None
    parts = {}
    if unit.stimulus and energy:
        busy_rate, busy, idle = _energies(unit, mapped.netlist, clock, workdir, cycles,
                                                 seed)
        busy_pj, idle_pj = busy.total_pj, idle.total_pj
        leak_uw = busy.leakage_pj / sta.REFERENCE_PERIOD_NS * 1e3
        parts = {"busy_internal_pj": busy.internal_pj, "busy_switching_pj": busy.switching_pj,
                 "busy_ports_pj": busy.ports_pj}
        if issued_ops_per_cycle(unit):
            per_op = busy_pj / issued_ops_per_cycle(unit)
    return UnitFigures(
        unit.name, unit.family, mapped.params, list(unit.configs), library.LABEL,
        mapped.area_um2, mapped.flip_flop_area_um2, mapped.cells, mapped.flip_flops,
        path.delay_ns, path.fmax_mhz, path.startpoint, path.endpoint, busy_rate, busy_pj,
        idle_pj, leak_uw, issued_ops_per_cycle(unit), unit.op_name, per_op, mapped.seconds,
        time.monotonic() - start, MAPPING_BUFFERED if buffered else MAPPING_PLAIN, **parts,
        in_place_critical_path_ns=placed.delay_ns, in_place_fmax_mhz=placed.fmax_mhz,
        in_place_startpoint=placed.startpoint, in_place_endpoint=placed.endpoint)


def _energies(unit: UnitType, netlist: Path, clock: str | None, workdir: Path, cycles: int,
              seed: int):
    """(busy toggle rate, busy Energy, idle Energy) by tcu_tools.phys.energy."""
    busy_act = activity.simulate(netlist, unit.name, unit.stimulus, workdir, cycles, seed)
    busy = energy_method.measure(netlist, unit.name, busy_act.vcd, workdir, *busy_act.window)
    if clock:
        act = activity.simulate(netlist, unit.name, unit.stimulus, workdir, cycles, seed,
                                idle=True)
        idle = energy_method.measure(netlist, unit.name, act.vcd, workdir, *act.window)
    else:  # combinational: idle is no transition at all
        idle = energy_method.Energy(busy.cycles, 0.0, 0.0, 0.0, busy.leakage_pj)
    return busy_act.mean_toggle_rate(), busy, idle
