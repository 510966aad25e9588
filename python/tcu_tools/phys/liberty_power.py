"""The liberty file's power data, as the energy method (tcu_tools.phys.energy)
reads it: per cell its pins' capacitances, the internal energy tables of
its input pins (energy per rise or fall of the pin) and of its output
pins (energy per rise or fall of the output, one table per related input:
the arc), each arc's unateness, and the cell's leakage. Parsed with the
liberty-parser package (PyPI); looked up as OpenSTA looks up a table:
linear in each index between its two nearest entries, and linearly
extrapolated past the first or last entry."""
from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass, field
from pathlib import Path

from liberty.parser import parse_liberty


@dataclass(frozen=True)
class Table:
    """A power table: energy (pJ) per transition, indexed by the input
    transition time (ns) and, for an arc, the output's load (pF)."""
    slew_index: tuple
    load_index: tuple | None      # None: a table of the input pin alone
    values: tuple                 # [load][slew] or [slew]

    def lookup(self, slew: float, load: float = 0.0) -> float:
        if self.load_index is None:
            return _interp(self.slew_index, self.values, slew)
        rows = [_interp(self.slew_index, row, slew) for row in self.values]
        return _interp(self.load_index, rows, load)


def _interp(xs: tuple, ys, x: float) -> float:
    """Linear through the two entries around x (the first or last two
    outside the index: extrapolation)."""
    if len(xs) == 1:
        return ys[0]
    i = min(max(bisect.bisect_right(xs, x) - 1, 0), len(xs) - 2)
    x0, x1 = xs[i], xs[i + 1]
    return ys[i] + (ys[i + 1] - ys[i]) * (x - x0) / (x1 - x0)


@dataclass(frozen=True)
class Arc:
    """An output pin's internal energy when `related` caused its change."""
    related: str
    edge: str          # which transition of `related` causes it: "same",
    #                    "opposite" (negative unate), "rise"/"fall" (a clock edge)
    rise: Table        # energy per rise of the output
    fall: Table


@dataclass
class Cell:
    name: str
    area: float
    leakage_nw: float
    capacitance: dict = field(default_factory=dict)   # input pin -> pF
    outputs: list = field(default_factory=list)
    pin_tables: dict = field(default_factory=dict)    # input pin -> (rise, fall) Tables
    arcs: dict = field(default_factory=dict)          # output pin -> [Arc]


@dataclass
class Library:
    voltage: float
    cells: dict


def _table(group, templates: dict) -> Table:
    variables = templates[str(group.args[0])]
    index = {}
    for k in (1, 2):
        name = f"index_{k}"
        if group.get_attribute(name) is not None:
            index[k] = tuple(float(v) for v in group.get_array(name)[0])
        elif f"variable_{k}" in variables:
            index[k] = variables[f"index_{k}"]
    values = group.get_array("values")
    slew_k = next(k for k, v in variables.items() if v == "input_transition_time")
    slew_k = int(slew_k[-1])
    if len(index) == 1:
        return Table(index[slew_k], None, tuple(float(v) for v in values.flatten()))
    if slew_k == 2:      # rows by load (variable_1), columns by slew
        return Table(index[2], index[1], tuple(tuple(float(v) for v in r) for r in values))
    return Table(index[1], index[2], tuple(tuple(float(v) for v in r) for r in values.T))


def _templates(lib) -> dict:
    out = {}
    for t in lib.get_groups("power_lut_template"):
        entry = {}
        for k in (1, 2):
            v = t.get_attribute(f"variable_{k}")
            if v is not None:
                entry[f"variable_{k}"] = str(v)
                entry[f"index_{k}"] = tuple(float(x) for x in t.get_array(f"index_{k}")[0])
        out[str(t.args[0])] = entry
    return out


def _edge(pin, related: str) -> str:
    for t in pin.get_groups("timing"):
        if str(t.get_attribute("related_pin")).strip('"') != related:
            continue
        kind = str(t.get_attribute("timing_type") or "")
        if kind == "rising_edge":
            return "rise"
        if kind == "falling_edge":
            return "fall"
        if str(t.get_attribute("timing_sense") or "") == "negative_unate":
            return "opposite"
        return "same"
    return "same"


@functools.lru_cache(maxsize=4)
def load(path: Path) -> Library:
    """The library's power data (parsed once per process)."""
    lib = parse_liberty(Path(path).read_text())
    templates = _templates(lib)
    cells = {}
    for c in lib.get_groups("cell"):
        cell = Cell(str(c.args[0]), float(c["area"]), float(c["cell_leakage_power"] or 0.0))
        for pin in c.get_groups("pin"):
            name = str(pin.args[0])
            direction = str(pin["direction"])
            if direction == "input":
                cell.capacitance[name] = float(pin["capacitance"])
            else:
                cell.outputs.append(name)
            for power in pin.get_groups("internal_power"):
                if power.get_attribute("when") is not None:
                    raise RuntimeError(f"{path}: cell {cell.name} pin {name}: an internal_power "
                                     "with `when`, which the energy method does not read")
                both = power.get_groups("power")  # one table for rise and fall
                rise = _table((both or power.get_groups("rise_power"))[0], templates)
                fall = _table((both or power.get_groups("fall_power"))[0], templates)
                related = power.get_attribute("related_pin")
                if related is None:
                    cell.pin_tables[name] = (rise, fall)
                else:
                    related = str(related).strip('"')
                    cell.arcs.setdefault(name, []).append(
                        Arc(related, _edge(pin, related), rise, fall))
        cells[cell.name] = cell
    return Library(float(lib["nom_voltage"]), cells)
