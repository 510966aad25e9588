"""python3 -m tcu_tools.phys.calib [--workdir DIR] [--json FILE] [--only NAME ...]

The calibration designs (phys/calib/) through the units' own flow (mapping,
OpenSTA timing, tcu_tools.phys.energy): a 16 x 16 array multiplier of ISCAS-85
c6288's structure, an f32 FMA (tcu_fma at FP32, registered in and out), and
the library's fan-out-of-4 inverter delay. Prints each one's area, delay
and energy per operation; docs/guide/energy.md, "Calibration", sets them beside
published 0.18 um figures. Exit 1 if a step fails."""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from . import activity, datafile, energy, library, mapping, sta, stimulus
from .units import REPO, sources_of

CALIB = REPO / "phys" / "calib"
CYCLES = 200

# name -> (stimulus kind, sources, what one busy cycle does)
DESIGNS = {
    "calib_array_mult16": ("bits", [CALIB / "calib_array_mult16.sv"], "16x16 multiply"),
    "calib_fma32": ("f32", sources_of("tcu_fma") + [CALIB / "calib_fma32.sv"], "f32 FMA"),
}


def chain_netlist(stages: int) -> str:
    """A chain of `stages` INVX1, each driving the next and three more
    INVX1 (fan-out 4; the loads' outputs float), flat for OpenSTA."""
    lines = [f"module fo4_chain{stages}(in_i, out_o);", "  input in_i;", "  output out_o;"]
    lines += [f"  wire n{i};" for i in range(1, stages)]
    lines += [f"  wire x{i}_{k};" for i in range(stages) for k in range(3)]
    for i in range(stages):
        a = "in_i" if i == 0 else f"n{i}"
        y = "out_o" if i == stages - 1 else f"n{i + 1}"
        lines.append(f"  INVX1 inv{i} (.A({a}), .Y({y}));")
        lines += [f"  INVX1 load{i}_{k} (.A({y}), .Y(x{i}_{k}));" for k in range(3)]
    return "\n".join(lines + ["endmodule", ""])


def fo4(workdir: Path) -> dict:
    """The FO4 delay: (path of 8 stages - path of 4) / 4, so the first
    stage's ideal input and the chain's ends cancel; and the energy of one
    stage's transition (the same difference of the chains toggled once a
    cycle, every stage then switching once a cycle)."""
    delay, pj = {}, {}
    for n in (4, 8):
        d = workdir / f"fo4_{n}"
        d.mkdir(parents=True, exist_ok=True)
        net = d / f"fo4_chain{n}.v"
        net.write_text(chain_netlist(n))
        delay[n] = sta.critical_path(net, f"fo4_chain{n}", None, d).delay_ns
        e = energy.run(net, f"fo4_chain{n}", d, [[c % 2] for c in range(CYCLES)], "toggle")
        pj[n] = e.internal_pj + e.switching_pj + e.ports_pj
    return {"name": "fo4", "fo4_ns": (delay[8] - delay[4]) / 4,
            "pj_per_stage_transition": (pj[8] - pj[4]) / 4}


def design(name: str, workdir: Path) -> dict:
    kind, sources, op = DESIGNS[name]
    d = workdir / name
    mapped = mapping.map_unit(name, {}, d, sources=sources)
    ins, _ = activity.ports(mapped.netlist)
    clock = "clk_i" if any(n == "clk_i" for n, _ in ins) else None
    path = sta.critical_path(mapped.netlist, name, clock, d)
    data = [(n, w) for n, w in ins if n != "clk_i"]
    rows = stimulus.make(kind, data, CYCLES, 1)
    e = energy.run(mapped.netlist, name, d, rows, "busy")
    return {"name": name, "op": op, "area_um2": mapped.area_um2, "cells": mapped.cells,
            "flip_flop_area_um2": mapped.flip_flop_area_um2,
            "critical_path_ns": path.delay_ns, "startpoint": path.startpoint,
            "endpoint": path.endpoint, "pj_per_op": e.total_pj,
            "internal_pj": e.internal_pj, "switching_pj": e.switching_pj,
            "ports_pj": e.ports_pj}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_tools.phys.calib", description=__doc__.split("\n\n")[1])
    parser.add_argument("--workdir", default="build/phys/calib")
    parser.add_argument("--json", help="write the figures as JSON")
    parser.add_argument("--only", action="append", choices=["fo4", *DESIGNS])
    parser.add_argument("--write", metavar="FILE",
                        help="write the calibration data file (spec/phys_calib_osu018.toml), "
                        "which the docs' calibration tables are generated from")
    args = parser.parse_args(argv)
    work = Path(args.workdir)
    out = []
    try:
        for name in args.only or ["fo4", *DESIGNS]:
            out.append(fo4(work) if name == "fo4" else design(name, work))
            print(json.dumps(out[-1]), flush=True)
    except (RuntimeError, OSError, ValueError) as e:
        print(f"tcu_tools.phys.calib: {e}", file=sys.stderr)
        return 1
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    if args.write:
        if args.only:
            parser.error("--write needs every design (no --only)")
        write(Path(args.write), out)
    return 0


COMMAND = "nice -n 10 .venv/bin/python -m tcu_tools.phys.calib --write spec/phys_calib_osu018.toml"


def write(path: Path, figures: list[dict]) -> None:
    """The calibration data file: the FO4 delay and each design's figures."""
    head = {"library": library.LABEL, "liberty": str(library.LIBERTY),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "command": COMMAND, "tools": datafile.tool_versions(), "cycles": CYCLES}
    text = ["# The calibration designs (phys/calib/) through the units' flow: the\n"
            "# library's FO4 delay and each design's area, delay and energy per\n"
            "# operation. Written by tcu_tools.phys.calib (command below); the docs'\n"
            "# calibration tables are generated from it (tcu_tools.phys.table).\n",
            datafile.table_text("", head)]
    for f in figures:
        text.append(datafile.table_text("[[design]]", f))
    path.write_text("\n".join(text))


if __name__ == "__main__":
    sys.exit(main())
