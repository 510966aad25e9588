"""The energy method: a mapped netlist's energy per cycle from the liberty
tables and the transitions of a gate-level simulation (docs/guide/energy.md,
"Energy method").

Every transition the simulation makes is charged once:
  internal   an input pin's own table (a flip-flop's CLK and D): its rise
             or fall table at the pin's slew, per rise or fall of the pin;
             an output pin: per rise (fall) of the output, the rise (fall)
             table of the arc from the input that changed in the same time
             step, at that input's slew (the direction it moved in) and the
             output's load; where several of the cell's related inputs
             changed in that step, the mean of their arcs; where none did
             (no time step in this flow, counted in `unattributed`), the
             mean of all its arcs;
  switching  1/2 C V^2 per transition of a net driven by a cell, C the
             input capacitances of the pins on it (no wire load: the
             library has no wire-load model and OpenSTA is given none);
  ports      the same for the nets the unit's input ports drive, the clock
             included: in the design another unit drives them, and their
             charge is what this unit's pins load it with;
  leakage    the cells' cell_leakage_power for one period.
Slews are OpenSTA's (its delay calculation on this netlist, the clock ideal
as in tcu_tools.phys.sta). Tables are looked up as OpenSTA looks them up
(tcu_tools.phys.liberty_power). OpenSTA's own power (Debian's 2.0.17) is not
used: it charges a clock pin both its rise and its fall energy at every
transition, an inverter's output its rise and fall energy at every
transition, and a cell whose function it cannot split (a full adder, a
multiplexer) every arc at every output transition; and a cell output's
activity is the one it propagates through the cell's function from the
inputs, not the one set on the pin (a multiplexer's output toggles about
twice as often as simulated)."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from . import library, liberty_power, sta


@dataclass
class Energy:
    """Energy per cycle (pJ) of `cycles` simulated cycles."""
    cycles: int
    internal_pj: float
    switching_pj: float
    ports_pj: float
    leakage_pj: float
    transitions: int = 0        # output transitions charged
    unattributed: int = 0       # of them, with no related input changing

    @property
    def total_pj(self) -> float:
        return self.internal_pj + self.switching_pj + self.ports_pj + self.leakage_pj


@dataclass
class Netlist:
    """The cells of a flat mapped netlist and its nets (aliases joined)."""
    cells: dict = field(default_factory=dict)   # instance -> (cell type, {pin: net})
    inputs: set = field(default_factory=set)    # input port bits
    alias: dict = field(default_factory=dict)   # net name -> its canonical name


def net_name(text: str) -> str:
    """A net as the netlist, the VCD and OpenSTA write it, one spelling:
    `\\a.b [3]` and `a.b[3]` are `a.b[3]`."""
    return re.sub(r"\s+", "", text.strip().lstrip("\\"))


_CELL = re.compile(r"^\s*(\w+)\s+(\S+)\s*\((.*?)\);", re.S | re.M)
_PIN = re.compile(r"\.(\w+)\(\s*(.*?)\s*\)\s*(?:,|$)", re.S)


def read_netlist(path: Path) -> Netlist:
    """The cells, input ports and assigns of a Yosys-written netlist (one
    module, bit-level assigns: tcu_tools.phys.mapping.split_netlist)."""
    text = Path(path).read_text()
    out = Netlist()
    body = text[text.index(";") + 1:]
    for m in re.finditer(r"^\s*input\s+(?:\[(\d+):(\d+)\]\s+)?(\S+?)\s*;", text, re.M):
        if m.group(1) is None:
            out.inputs.add(net_name(m.group(3)))
        else:
            hi, lo = int(m.group(1)), int(m.group(2))
            out.inputs.update(f"{net_name(m.group(3))}[{i}]"
                              for i in range(min(hi, lo), max(hi, lo) + 1))
    parent: dict = {}

    def find(n: str) -> str:
        while parent.get(n, n) != n:
            n = parent[n]
        return n
    for m in re.finditer(r"^\s*assign\s+(.+?)\s*=\s*(.+?)\s*;", body, re.M):
        a, b = find(net_name(m.group(1))), find(net_name(m.group(2)))
        if a != b:
            # a port (or a constant) names the joined net
            if b in out.inputs or b.startswith(("1'", "0'")):
                parent[a] = b
            else:
                parent[b] = a
    for m in _CELL.finditer(body):
        kind, inst, pins = m.group(1), m.group(2), m.group(3)
        if kind in ("module", "assign", "input", "output", "wire", "reg"):
            continue
        conns = {p.group(1): net_name(p.group(2)) for p in _PIN.finditer(pins.strip())}
        out.cells[net_name(inst)] = (kind, conns)
    out.alias = {n: find(n) for n in parent}
    return out


def slews(netlist: Path, top: str, clock_port: str | None, workdir: Path) -> dict:
    """OpenSTA's slew (rise, fall; ns) at every cell input pin, the clock
    ideal (slew 0 at the clock port's pins and, as tcu_tools.phys.sta.power sets
    them, at every gated clock's)."""
    out = workdir / f"{top}.slews.txt"
    script = sta._preamble(netlist, top, clock_port, sta.REFERENCE_PERIOD_NS)
    script += sta.ideal_clock_slews(netlist, clock_port)
    script += f"""sta::worst_slack -max
set tcu_out [open {{{out}}} w]
foreach tcu_pin [get_pins -of_objects [get_cells *]] {{
  if {{[$tcu_pin is_load]}} {{
    set tcu_v [lindex [$tcu_pin vertices] 0]
    puts $tcu_out "[get_full_name $tcu_pin] [lindex [$tcu_v slews rise] 0] [lindex [$tcu_v slews fall] 0]"
  }}
}}
close $tcu_out
"""
    sta._run(script, workdir, f"{top}.slews")
    table = {}
    for line in out.read_text().splitlines():
        name, rise, fall = line.rsplit(" ", 2)
        inst, _, pin = name.rpartition("/")
        # OpenSTA gives seconds
        table[(net_name(inst), pin)] = (float(rise) * 1e9, float(fall) * 1e9)
    return table


class _Model:
    """The netlist with the library's data attached: per net its
    capacitance, its loads with a table of their own, the cell output
    pin driving it."""

    def __init__(self, net: Netlist, lib: liberty_power.Library, slew: dict):
        self.lib, self.net, self.slew = lib, net, slew
        self.cap = defaultdict(float)
        self.pin_loads = defaultdict(list)    # net -> [(inst, pin)] with a pin table
        self.driver = {}                      # net -> (inst, output pin)
        self.related = defaultdict(list)      # net -> [(inst, input pin)]
        self.leakage_nw = 0.0
        self.memo = {}                        # (pin or arc, directions) -> pJ
        for inst, (kind, conns) in net.cells.items():
            cell = lib.cells.get(kind)
            if cell is None:
                raise RuntimeError(f"cell {inst}: type {kind} is not in {library.liberty()}")
            self.leakage_nw += cell.leakage_nw
            for pin, n in conns.items():
                n = self.canon(n)
                if pin in cell.capacitance:
                    self.cap[n] += cell.capacitance[pin]
                    self.related[n].append((inst, pin))
                    if pin in cell.pin_tables:
                        self.pin_loads[n].append((inst, pin))
                elif pin in cell.outputs:
                    self.driver[n] = (inst, pin)

    def canon(self, n: str) -> str:
        return self.net.alias.get(n, n)

    def pin_slew(self, inst: str, pin: str, rising: bool) -> float:
        rise, fall = self.slew.get((inst, pin), (0.0, 0.0))
        return rise if rising else fall


def _charge(model: _Model, step: dict, acc: dict) -> None:
    """Charges one time step's transitions: step = {net: [True per rise,
    False per fall]}. A table's energy for one pin, arc and direction is
    looked up once (its slew and load are fixed) and kept in model.memo."""
    v2 = model.lib.voltage ** 2
    memo = model.memo
    for n, moves in step.items():
        half_cv2 = 0.5 * model.cap.get(n, 0.0) * v2
        bucket = "ports_pj" if n in model.net.inputs else "switching_pj"
        acc[bucket] += half_cv2 * len(moves)
        for inst, pin in model.pin_loads.get(n, ()):
            for rising in moves:
                key = (inst, pin, rising)
                if key not in memo:
                    rise_t, fall_t = model.lib.cells[model.net.cells[inst][0]].pin_tables[pin]
                    t = rise_t if rising else fall_t
                    memo[key] = t.lookup(model.pin_slew(inst, pin, rising))
                acc["internal_pj"] += memo[key]
        drv = model.driver.get(n)
        if drv is None:
            continue
        inst, out = drv
        kind, conns = model.net.cells[inst]
        arcs = model.lib.cells[kind].arcs.get(out, ())
        if not arcs:
            continue
        moved = [(k, step[model.canon(conns[a.related])][-1]) for k, a in enumerate(arcs)
                 if a.related in conns and model.canon(conns[a.related]) in step]
        if not moved:
            acc["unattributed"] += len(moves)
            moved = [(k, _edge_rising(a.edge, None)) for k, a in enumerate(arcs)]
        load = model.cap.get(n, 0.0)
        for rising in moves:
            acc["transitions"] += 1
            total = 0.0
            for k, from_rising in moved:
                if from_rising is None:  # an unattributed change: by the arc's unateness
                    from_rising = _edge_rising(arcs[k].edge, rising)
                key = (inst, out, k, rising, from_rising)
                if key not in memo:
                    a = arcs[k]
                    table = a.rise if rising else a.fall
                    memo[key] = table.lookup(model.pin_slew(inst, a.related, from_rising), load)
                total += memo[key]
            acc["internal_pj"] += total / len(moved)


def _edge_rising(edge: str, out_rising: bool | None) -> bool | None:
    """The related input's direction for an output move by the arc's kind
    (None: the output's direction is not known yet)."""
    if edge == "rise":
        return True
    if edge == "fall":
        return False
    if out_rising is None:
        return None
    return out_rising if edge == "same" else not out_rising


def measure(netlist: Path, top: str, vcd: Path, workdir: Path, start_time: int,
            end_time: int, period_ns: float = sta.REFERENCE_PERIOD_NS) -> Energy:
    """The energy per cycle of the VCD's transitions in (start_time,
    end_time] (2 time units a cycle, tcu_tools.phys.activity's testbench)."""
    model = _model(netlist, top, workdir)
    acc = defaultdict(float)
    declared: set = set()
    for time, step in vcd_steps(vcd, top, declared):
        if start_time < time <= end_time:
            _charge(model, {model.canon(n): v for n, v in step.items()}, acc)
    seen = {model.canon(d) for d in declared}
    unseen = [n for n in list(model.driver) + list(model.net.inputs) if n not in seen]
    if unseen:
        raise RuntimeError(f"{vcd}: {len(unseen)} net(s) of {netlist} not in the simulation "
                           f"(first: {unseen[0]}): their transitions would not be charged")
    cycles = max(1, (end_time - start_time) // 2)
    return Energy(cycles, acc["internal_pj"] / cycles, acc["switching_pj"] / cycles,
                  acc["ports_pj"] / cycles, model.leakage_nw * 1e-9 * period_ns * 1e-9 * 1e12,
                  int(acc["transitions"]), int(acc["unattributed"]))


_MODELS: dict = {}


def _model(netlist: Path, top: str, workdir: Path) -> _Model:
    """The netlist's model (its slews: one OpenSTA run), once per netlist."""
    key = (Path(netlist).resolve(), Path(netlist).stat().st_mtime_ns)
    if key not in _MODELS:
        net = read_netlist(netlist)
        clock = "clk_i" if "clk_i" in net.inputs else None
        try:
            _MODELS[key] = _Model(net, liberty_power.load(library.liberty()),
                                  slews(netlist, top, clock, workdir))
        except RuntimeError as e:
            raise RuntimeError(f"{netlist}: {e}") from e
    return _MODELS[key]


def vcd_steps(vcd: Path, top: str, declared: set | None = None):
    """(time, {net bit: [True for each rise, False for each fall]}) for each
    time step of the VCD with a change of the top's own nets (x and z read
    as 0, as tcu_tools.phys.activity counts them); `declared` collects every net
    bit the VCD names."""
    codes: dict[str, list[tuple[str, int]]] = {}   # id code -> [(name, lsb)] per bit order
    values: dict[str, str] = {}
    depth, in_top, time = 0, False, 0
    step: dict = {}
    with open(vcd) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            c = line[0]
            if c == "$":
                if line.startswith("$scope"):
                    depth += 1
                    in_top = depth == 2 and line.split()[2] == top
                elif line.startswith("$upscope"):
                    depth -= 1
                    in_top = False
                elif line.startswith("$var") and in_top and depth == 2:
                    parts = line.split()
                    width, code, name = int(parts[2]), parts[3], net_name(parts[4])
                    m = re.match(r"\[(\d+):(\d+)\]", parts[5]) if len(parts) > 5 else None
                    lsb = min(int(m.group(1)), int(m.group(2))) if m else 0
                    bits = [name] if width == 1 and not m else \
                        [f"{name}[{lsb + i}]" for i in range(width)]
                    codes.setdefault(code, []).append(bits)
                    if declared is not None:
                        declared.update(bits)
                    values[code] = "0" * width
                continue
            if c == "#":
                if step:
                    yield time, step
                step = {}
                time = int(line[1:])
                continue
            if c in "01xz":
                code, value = line[1:].strip(), c
            elif c == "b":
                value, code = line[1:].split()
            else:
                continue
            if code not in values:
                continue
            old = values[code]
            width = len(old)
            value = value.replace("x", "0").replace("z", "0").rjust(width, "0")[-width:]
            if value != old:
                for i in range(width):
                    new_bit = value[width - 1 - i]
                    if new_bit != old[width - 1 - i]:
                        for bits in codes[code]:
                            step.setdefault(bits[i], []).append(new_bit == "1")
            values[code] = value
    if step:
        yield time, step


def run(netlist: Path, top: str, workdir: Path, rows: list[list[int]], name: str,
        period_ns: float = sta.REFERENCE_PERIOD_NS) -> Energy:
    """Simulates `rows` (tcu_tools.phys.activity.simulate_rows's stream: the first
    two cycles the reset's, not counted) and measures the energy."""
    from . import activity
    activity.simulate_rows(netlist, top, workdir, rows, name)
    vcd = workdir / f"{top}.{name}.vcd"
    return measure(netlist, top, vcd, workdir, 4, 2 * len(rows), period_ns)
