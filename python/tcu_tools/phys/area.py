"""python3 -m tcu_tools.phys.area TOP [--params "NAME=VALUE ..."] [--json FILE] [--workdir DIR]
                                 [--units-cache DIR | --around]

Maps any RTL top (rtl/TOP.sv, e.g. tcu_datapath at a configuration's
parameters) to the OSU 0.18 um cells and reports its area and clock, no
energy: what scripts/synth.sh --liberty runs (flattened); with
--units-cache DIR bottom-up (tcu_tools.phys.hier), as tcu explore's full
flow does; with --around only the top around its dot units (black boxes),
each unit at spec/phys_osu018.toml's area, no clock. The JSON has the keys
area_um2, flip_flop_area_um2, cells, flip_flops, fmax_mhz, critical_path_ns,
path_start, path_end (and the registers they are, by their RTL names:
path_start_register, path_end_register), library, seconds. Exit 1 if a step fails, 2 for a bad
command line."""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from . import activity, library, mapping, sta, stamp
from .units import REPO, RTL


def figures(top: str, params: dict, workdir: Path) -> dict:
    start = time.monotonic()
    # the RTL it is measured from (the data file's stamp), taken before
    from .datafile import tool_versions
    rtl = stamp.stamp_of("engine", {"top": top, "params": params},
                         yosys_version=tool_versions()["yosys"])
    mapped = mapping.map_unit(top, params, workdir)
    ins, _ = activity.ports(mapped.netlist)
    clock = "clk_i" if any(n == "clk_i" for n, _ in ins) else None
    path = sta.critical_path(mapped.netlist, top, clock, workdir)
    return {
        "top": top, "params": mapped.params, "library": library.LABEL,
        "area_um2": round(mapped.area_um2, 3),
        "flip_flop_area_um2": round(mapped.flip_flop_area_um2, 3),
        "cells": mapped.cells, "flip_flops": mapped.flip_flops,
        "fmax_mhz": round(path.fmax_mhz, 3), "critical_path_ns": round(path.delay_ns, 4),
        "path_start": path.startpoint, "path_end": path.endpoint,
        # the registers the path runs between, by their RTL names (which
        # instance, so which unit or engine logic, holds the path)
        "path_start_register": sta.register_of(mapped.netlist, path.startpoint),
        "path_end_register": sta.register_of(mapped.netlist, path.endpoint),
        "seconds": round(time.monotonic() - start, 1),
        **rtl,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_tools.phys.area", description=__doc__.split("\n\n")[1])
    parser.add_argument("top", help="an RTL module (rtl/TOP.sv)")
    parser.add_argument("--params", default="", metavar="NAME=VALUE ...")
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--workdir", default="build/phys", help="netlists, logs (build/phys)")
    parser.add_argument("--units-cache", metavar="DIR",
                        help="map bottom-up (tcu_tools.phys.hier): the dot units once each, "
                        "cached in DIR, the rest around them")
    parser.add_argument("--around", action="store_true",
                        help="map the top around its dot units only (black boxes), the units "
                        "at spec/phys_osu018.toml's areas; no clock")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"tcu_[a-z0-9_]+", args.top) or not (RTL / f"{args.top}.sv").is_file():
        parser.error(f"no unit {args.top} (rtl/{args.top}.sv)")
    params = {}
    for word in args.params.split():
        m = re.fullmatch(r"([A-Za-z_]\w*)=(\d+|1'b[01])", word)
        if not m:
            parser.error(f"--params: expected NAME=VALUE words, found '{word}'")
        params[m.group(1)] = int(m.group(2)[-1]) if "'" in m.group(2) else int(m.group(2))
    try:
        library.liberty()
        if args.around:
            from .datafile import load
            from .hier import around_figures, data_file_unit_area
            from .datafile import tool_versions
            points = load(REPO / "spec" / "phys_osu018.toml")["point"]
            # the RTL it is measured from (the data file's stamp), taken before
            rtl = stamp.stamp_of("engine", {"top": args.top, "params": params},
                                 yosys_version=tool_versions()["yosys"])
            f = {**around_figures(args.top, params, Path(args.workdir),
                                  data_file_unit_area(points)), **rtl}
        elif args.units_cache:
            from .datafile import tool_versions
            from .hier import map_hierarchical
            f = map_hierarchical(args.top, params, Path(args.workdir), Path(args.units_cache),
                                 tool_versions())
        else:
            f = figures(args.top, params, Path(args.workdir))
    except RuntimeError as e:  # LibraryMissing is one
        print(f"tcu_tools.phys.area: {args.top}: {e}", file=sys.stderr)
        return 1
    print(json.dumps(f))
    if args.json:
        Path(args.json).write_text(json.dumps(f, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
