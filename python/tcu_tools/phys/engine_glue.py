"""An engine's logic around its dot units, busy: [[engine_glue]] tables of
the data file, read by the energy estimate (model/src/energy.cpp).

  python -m tcu_tools.phys.engine_glue --top tcu_int4_engine \\
      --params "Units=2 Stages=1 SparseEnable=1" [--cycles N] [--seed S] \\
      [--units netlist|rtl] [--write spec/phys_osu018.toml] [--json OUT] \\
      [--workdir DIR] [--cache DIR]

The engine is mapped around its dot units (tcu_tools.phys.hier.map_around:
the units black boxes) and each unit setting on its own (hier.map_leaf,
cached in --cache; with --units rtl, the units' RTL elaborated by Yosys
instead, rtl_unit); the two are linked and simulated at gate level
(Icarus) as tcu_datapath drives the engine: busy, an instruction started
every Groups cycles with random operands and tag, every unit issuing every
cycle, two instructions back to back unless --cycles says otherwise
(tcu_tools.phys.engine_stimulus, every engine's family); idle, clocked with
the inputs held. The energy method (tcu_tools.phys.energy) charges the
engine's own cells alone (the units' cells are their [[point]]'s): the
operand registers and the operand selection that feeds the units a slice a
cycle, the D buffer and its write enables, the C and group pipes, the
sequencer, the accumulators, and the nets the units' outputs drive into
them. busy - idle over the MACs issued a cycle is the engine's data energy
per issued MAC (dynamic_pj_per_issued_mac): everything around the units
that a busy cycle adds to a clocked idle one, the registers' own data
toggles included. The idle figure is kept beside it as a check of the
[[engine_regs]] figure (the flip-flops' clock alone), and the flip-flops'
output toggles per issued MAC beside the RTL run's count of
[[engine_regs_toggles]].

--write replaces the engine's [[engine_glue]] table in the data file (one
table per engine: the figure is per issued MAC, so it is taken at any
number of units), stamped with this tree's RTL (tcu_tools.phys.stamp).
Another top than the four engines' exits 2. Exit 1 when a step fails,
naming it."""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
import tomllib
from collections import defaultdict
from pathlib import Path

from . import activity, energy, engine_regs, engine_stimulus, hier, library, liberty_power, mapping, stamp
from .datafile import table_text, tool_versions
from .units import sources_of, synthesis_params

ENGINES = {"tcu_int4_engine": "int4", "tcu_e2m1_engine": "e2m1", "tcu_f16_engine": "f16",
           "tcu_f64_engine": "f64"}  # the tops with a busy stimulus (engine_stimulus)
# How the units are simulated beside the engine (--units): their mapped
# netlists, or their RTL elaborated (the same function cycle for cycle; their
# cells are not charged either way, only the values they drive into the
# engine matter, and the slews of those nets, which the RTL form leaves 0).
UNIT_FORMS = ("netlist", "rtl")
SOURCE = {
    "netlist": "measured: the engine mapped around its dot units, linked with the units' "
               "netlists and simulated at gate level, busy with an instruction every Groups "
               "cycles and idle, the engine's own cells charged (tcu_tools.phys.engine_glue)",
    "rtl": "measured: the engine mapped around its dot units and simulated at gate level "
           "with the units' RTL (elaborated, not mapped: the values they drive alike), busy "
           "with an instruction every Groups cycles and idle, the engine's own cells charged "
           "(tcu_tools.phys.engine_glue --units rtl)"}
IDLE_CYCLES = 40  # clocked, the inputs held: every cycle alike
KEYS = ("engine", "top", "params", "source", "units", "cycles", "seed", "cells", "flip_flops",
        "issued_macs_per_cycle", "busy_pj_per_cycle", "idle_pj_per_cycle",
        "dynamic_pj_per_issued_mac", "idle_pj_per_flip_flop", "busy_internal_pj",
        "busy_switching_pj", "flip_flop_toggles_per_issued_mac", "leakage_pj_per_cycle",
        "rtl_files", "rtl_design")


def link(top: str, params: dict, workdir: Path, cache: Path,
         units: str = "netlist") -> tuple[Path, Path, Path, set]:
    """(the engine's own netlist, its units instances of modules named
    after them; the design linked with the units for the simulation; the
    design linked for OpenSTA's slews; those names). units "netlist": the
    units' mapped netlists (hier.map_leaf, cached in `cache`) in both;
    "rtl": the units' RTL elaborated by Yosys (rtl_unit) in the simulation
    and empty modules of their ports for OpenSTA."""
    leaves = hier.leaves_of(top, params, workdir)
    if not leaves:
        raise RuntimeError(f"{top}: no dot unit found to map around")
    around = workdir / f"{top}.top.v"
    sources = workdir / f"{top}.top.rtl"  # the hash of the sources it was mapped from
    if not around.exists() or not sources.exists() or sources.read_text() != stamp.files_hash(top):
        hier.map_around(top, params, workdir, leaves)
        sources.write_text(stamp.files_hash(top))
    lib = library.liberty()
    text = mapping.split_netlist(around, lib, workdir / f"{top}.top.log").read_text()
    tools = tool_versions()
    parts, boxes, names = [], [], set()
    for derived, (unit, unit_params) in leaves.items():
        # Verilog escapes the derived names (a backslash, the name, a space)
        clean = hier.clean_name(unit, unit_params)
        text = text.replace(f"\\{derived} ", f"{clean} ")
        names.add(clean)
        if units == "rtl":
            sim, box = rtl_unit(unit, unit_params, clean, workdir)
            parts.append(sim)
            boxes.append(box)
            continue
        m = hier.map_leaf(unit, unit_params, cache, tools)
        renamed, n = re.subn(rf"^module {m.top}\s*\(", f"module {clean}(",
                             m.netlist.read_text(), count=1, flags=re.M)
        if n != 1:
            raise RuntimeError(f"{m.netlist}: no module {m.top}")
        parts.append(renamed)
        boxes.append(renamed)
    text = scalar_outputs(text)
    own = workdir / f"{top}.own.v"
    own.write_text(text)
    linked = workdir / f"{top}.linked.{units}.v"
    linked.write_text("\n".join([text] + parts))
    timed = workdir / f"{top}.timed.{units}.v"
    timed.write_text("\n".join([text] + boxes))
    return own, linked, timed, names


def rtl_unit(unit: str, params: dict, name: str, workdir: Path) -> tuple[str, str]:
    """(the unit at `params` elaborated by Yosys from its RTL, flattened,
    not mapped: a Verilog model of it for Icarus, cycle for cycle the
    function its mapped netlist has; an empty module of its ports), both
    named `name`."""
    sim, box = workdir / f"{name}.rtl.v", workdir / f"{name}.box.v"
    stamp_file = workdir / f"{name}.rtl.sources"
    if not (sim.exists() and box.exists() and stamp_file.exists()
            and stamp_file.read_text() == stamp.files_hash(unit)):
        srcs = " ".join(str(f) for f in sources_of(unit))
        hier._yosys(f"read_verilog -sv -defer {srcs}\n{mapping._elaborate(unit, params)}\n"
                    f"proc\nflatten\nopt_clean -purge\nrename -top {name}\n"
                    f"write_verilog -noattr {sim}\nblackbox {name}\n"
                    f"write_verilog -noattr -blackboxes {box}\n",
                    workdir / f"{name}.rtl.ys", workdir / f"{name}.rtl.log")
        stamp_file.write_text(stamp.files_hash(unit))
    return sim.read_text(), box.read_text()


def scalar_outputs(text: str) -> str:
    """The netlist with each output port vector made scalar wires
    (NAME[i] -> NAME_i) and left out of the ports: Icarus sends a vector
    port driven bit by bit whole to every reader of one of its bits at each
    bit's change (the 4096-bit D buffer: seconds a cycle); nothing outside
    the engine reads them here."""
    names = []
    for m in re.finditer(r"^\s*output\s+\[(\d+):(\d+)\]\s+(\w+)\s*;\n", text, re.M):
        hi, lo, name = int(m.group(1)), int(m.group(2)), m.group(3)
        names.append(name)
        wires = "".join(f"  wire {name}_{i};\n" for i in range(min(hi, lo), max(hi, lo) + 1))
        text = text.replace(m.group(0), wires, 1)
    for name in names:
        text = re.sub(rf"(?<![\w.\\]){name}\[(\d+)\]", rf"{name}_\1", text)
        text = re.sub(rf"^(module \w+\(.*?)(, {name}\b|\b{name}, )", r"\1", text, count=1,
                      flags=re.M)
    return text


def own_model(split: Path, timed: Path, top: str, boxes: set, workdir: Path) -> energy._Model:
    """The energy model of the engine's own cells: the units' instances left
    out (their pins neither load nor drive a charged net), slews from
    OpenSTA over the linked design `timed` (with the units' netlists, the
    nets they drive get their output slews; with empty modules, none)."""
    workdir.mkdir(parents=True, exist_ok=True)
    net = energy.read_netlist(split)
    net.cells = {i: c for i, c in net.cells.items() if c[0] not in boxes}
    return energy._Model(net, liberty_power.load(library.liberty()),
                         energy.slews(timed, top, "clk_i", workdir))


def simulate(split: Path, linked: Path, top: str, workdir: Path, rows: list, name: str) -> Path:
    """The VCD of the linked design driven by `rows` (the engine's ports, read
    from its own netlist; the top's nets dumped)."""
    key = ("linked", linked, linked.stat().st_mtime_ns)
    if key not in activity._BUILT:
        activity._BUILT[key] = activity.build(split, top, workdir, sources=[linked])
    stim = workdir / f"{top}.{name}.txt"
    stim.write_text("\n".join(" ".join(f"{v:x}" for v in row) for row in rows) + "\n")
    vcd = workdir / f"{top}.{name}.vcd"
    subprocess.run([str(activity._BUILT[key]), str(stim), str(vcd)], check=True,
                   capture_output=True)
    return vcd


def charge(model: energy._Model, vcd: Path, top: str, start: int, end: int) -> dict:
    """pJ a cycle of the VCD's transitions in (start, end] (internal and
    switching), and the flip-flops' output toggles a cycle."""
    q_nets = {model.canon(conns["Q"]) for kind, conns in model.net.cells.values()
              if library.is_flip_flop(kind) and "Q" in conns}
    acc: dict = defaultdict(float)
    declared: set = set()
    q_toggles = 0
    for time_, step in energy.vcd_steps(vcd, top, declared):
        if not start < time_ <= end:
            continue
        step = {model.canon(n): v for n, v in step.items()}
        energy._charge(model, step, acc)
        q_toggles += sum(len(v) for n, v in step.items() if n in q_nets)
    seen = {model.canon(d) for d in declared}
    unseen = [n for n in list(model.driver) + list(model.net.inputs) if n not in seen]
    if unseen:
        raise RuntimeError(f"{vcd}: {len(unseen)} net(s) not in the simulation "
                           f"(first: {unseen[0]})")
    cycles = max(1, (end - start) // 2)
    total = acc["internal_pj"] + acc["switching_pj"] + acc["ports_pj"]
    return {"pj": total / cycles, "internal_pj": acc["internal_pj"] / cycles,
            "switching_pj": (acc["switching_pj"] + acc["ports_pj"]) / cycles,
            "q_toggles": q_toggles / cycles}


def measure(top: str, params: dict, workdir: Path, cache: Path, cycles: int | None,
            seed: int, units_form: str = "netlist") -> dict:
    if top not in ENGINES:
        raise ValueError(f"--top: one of {', '.join(ENGINES)} (the engines with a busy "
                         f"stimulus), not '{top}'")
    start = time.monotonic()
    params = synthesis_params(top, params)
    workdir = workdir / mapping.tag(top, params)
    workdir.mkdir(parents=True, exist_ok=True)
    if units_form not in UNIT_FORMS:
        raise ValueError(f"--units: one of {', '.join(UNIT_FORMS)}, not '{units_form}'")
    split, linked, timed, boxes = link(top, params, workdir, cache, units_form)
    model = own_model(split, timed, top, boxes, workdir / units_form)
    ins, _ = activity.ports(split)
    data = [(n, w) for n, w in ins if n != "clk_i"]
    units = params.get("Units", 1)
    # the default run: two instructions back to back (each instruction's
    # operand load, D buffer fill and hand-over once a Groups cycles, as in
    # a GEMM's steady state)
    cycles = cycles or 2 * engine_stimulus.FAMILIES[top].slices // units
    got: dict = {}
    for state, idle, n in (("busy", False, cycles), ("idle", True, IDLE_CYCLES)):
        rows, macs = engine_stimulus.rows(top, data, units, n, seed, idle)
        vcd = simulate(split, linked, top, workdir, rows, f"glue_{state}_{units_form}")
        got[state] = charge(model, vcd, top, 4, 2 * len(rows))
        if not idle:
            got["issued_macs_per_cycle"] = macs / max(1, len(rows) - 2)
    flip_flops = engine_regs.count(split)["flip_flops"]
    busy, idle = got["busy"], got["idle"]
    return {
        "engine": ENGINES[top], "top": top,
        "params": {k: v for k, v in params.items() if k != "SynthImpl"},
        "source": SOURCE[units_form], "units": units_form, "cycles": cycles, "seed": seed, "cells": len(model.net.cells),
        "flip_flops": flip_flops, "issued_macs_per_cycle": got["issued_macs_per_cycle"],
        "busy_pj_per_cycle": round(busy["pj"], 4), "idle_pj_per_cycle": round(idle["pj"], 4),
        "dynamic_pj_per_issued_mac": round((busy["pj"] - idle["pj"])
                                           / got["issued_macs_per_cycle"], 6),
        "idle_pj_per_flip_flop": round(idle["pj"] / flip_flops, 6),
        "busy_internal_pj": round(busy["internal_pj"], 4),
        "busy_switching_pj": round(busy["switching_pj"], 4),
        "flip_flop_toggles_per_issued_mac": round((busy["q_toggles"] - idle["q_toggles"])
                                                  / got["issued_macs_per_cycle"], 6),
        "leakage_pj_per_cycle": round(model.leakage_nw * 1e-9 * 10e-9 * 1e12, 6),
        "seconds": round(time.monotonic() - start, 1)}


def write(datafile: Path, got: dict) -> None:
    """The engine's [[engine_glue]] table in the data file, replacing its
    earlier one; stamped with this tree's RTL."""
    got = {**got, **stamp.stamp_of("engine", got)}
    text = datafile.read_text().rstrip("\n")
    tomllib.loads(text)  # refuse a broken file before touching it
    tables = re.split(r"\n(?=\[\[)", text)
    kept = [t for t in tables
            if not (t.startswith("[[engine_glue]]")
                    and re.search(rf'^engine = "{got["engine"]}"$', t, re.M))]
    kept.append(table_text("[[engine_glue]]", {k: got[k] for k in KEYS if k in got}))
    datafile.write_text("\n\n".join(t.rstrip("\n") for t in kept) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tcu_tools.phys.engine_glue",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", required=True)
    parser.add_argument("--params", default="")
    parser.add_argument("--cycles", type=int,
                        help="busy cycles (default: two instructions back to back)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--units", choices=UNIT_FORMS, default="netlist",
                        help="the units beside the engine: their mapped netlists (default) or "
                        "their RTL elaborated by Yosys (no unit mapping: the f64 unit maps "
                        "for most of an hour)")
    parser.add_argument("--write", metavar="DATAFILE")
    parser.add_argument("--json")
    parser.add_argument("--workdir", default="build/phys-engine-glue")
    parser.add_argument("--cache", default="build/phys-units")
    args = parser.parse_args(argv)
    if args.top not in ENGINES:
        parser.error(f"--top: one of {', '.join(ENGINES)} (the engines with a busy "
                     f"stimulus), not '{args.top}'")
    try:
        params = engine_regs._params(args.params)
        got = measure(args.top, params, Path(args.workdir), Path(args.cache), args.cycles,
                      args.seed, args.units)
        if args.write:
            write(Path(args.write), got)
    except (OSError, ValueError, RuntimeError, KeyError, tomllib.TOMLDecodeError,
            subprocess.CalledProcessError) as error:
        print(f"engine_glue: {error}", file=sys.stderr)
        return 1
    return engine_regs._emit(got, args.json)


if __name__ == "__main__":
    sys.exit(main())
