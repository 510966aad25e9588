"""A mapped unit timed as it sits in the design: inside a register wrapper.

The unit's own critical path (tcu_tools.phys.sta.critical_path) starts at
its input ports with no delay and no slew and ends at its output ports with
no setup: ideal ports. In the engine every input of a unit is driven by a
flip-flop (an operand register, the sequencer's state) and every output is
captured by one (the D register). The wrapper is that: one DFFPOSX1 per
input bit (its D a port of the wrapper, its Q the unit's input), one per
output bit (its D the unit's output), all on the wrapper's clock (the
unit's own clock port where it has one), the asynchronous reset passed
through. Its critical path is the unit's clock in the engine: an input
path pays the driving flip-flop's clock-to-Q at the load the unit's input
net puts on it, and the slew it gives; an output path the capturing
flip-flop's setup; a combinational unit (tcu_sparse_mux) both. The unit's
netlist is not mapped again: the wrapper is written around it as cells.
"""
from __future__ import annotations

from pathlib import Path

from . import activity, sta

WRAPPER = "tcu_phys_in_place"
FLIP_FLOP = "DFFPOSX1"
CLOCK, RESET = "clk_i", "rst_ni"


def wrapper_text(netlist: Path, top: str) -> str:
    """The unit's netlist followed by the wrapper module around it."""
    text = Path(netlist).read_text()
    if f"module {WRAPPER}" in text:
        raise RuntimeError(f"{netlist}: already holds a module {WRAPPER}")
    ins, outs = activity.ports(netlist)
    names = [n for n, _ in ins + outs]
    if len(set(names)) != len(names):
        raise RuntimeError(f"{netlist}: a port declared twice")
    decls = [f"  input {CLOCK};"]
    if any(n == RESET for n, _ in ins):
        decls.append(f"  input {RESET};")
    body, conns = [], []
    for name, width in ins:
        if name in (CLOCK, RESET):
            conns.append(f".{name}({name})")
            continue
        rng = f"[{width - 1}:0] " if width > 1 else ""
        decls.append(f"  input {rng}d_{name};")
        decls.append(f"  wire {rng}u_{name};")
        for i in range(width):
            bit = f"[{i}]" if width > 1 else ""
            body.append(f"  {FLIP_FLOP} in_{name}_{i} (.D(d_{name}{bit}), .CLK({CLOCK}), "
                        f".Q(u_{name}{bit}));")
        conns.append(f".{name}(u_{name})")
    for name, width in outs:
        rng = f"[{width - 1}:0] " if width > 1 else ""
        decls.append(f"  output {rng}q_{name};")
        decls.append(f"  wire {rng}u_{name};")
        for i in range(width):
            bit = f"[{i}]" if width > 1 else ""
            body.append(f"  {FLIP_FLOP} out_{name}_{i} (.D(u_{name}{bit}), .CLK({CLOCK}), "
                        f".Q(q_{name}{bit}));")
        conns.append(f".{name}(u_{name})")
    ports = [CLOCK] + ([RESET] if any(n == RESET for n, _ in ins) else [])
    ports += [f"d_{n}" for n, _ in ins if n not in (CLOCK, RESET)] + [f"q_{n}" for n, _ in outs]
    return (text.rstrip() + "\n\n"
            f"// The register wrapper of tcu_tools.phys.in_place around {top}.\n"
            f"module {WRAPPER} ({', '.join(ports)});\n" + "\n".join(decls) + "\n"
            + "\n".join(body) + "\n"
            f"  {top} u_unit ({', '.join(conns)});\nendmodule\n")


def critical_path(netlist: Path, top: str, workdir: Path) -> sta.CriticalPath:
    """The clock of `top` (a mapped netlist) in its register wrapper."""
    wrapped = Path(workdir) / f"{top}.in_place.v"
    wrapped.write_text(wrapper_text(netlist, top))
    return sta.critical_path(wrapped, WRAPPER, CLOCK, Path(workdir))
