"""python3 -m tcu_phys [--unit NAME]... [--cycles N] [--json FILE] [--workdir DIR]

Maps each unit type to the OSU 0.18 um cells and prints its area (um^2),
critical path and clock (MHz), and energy per cycle busy and idle (pJ, from a
gate-level simulation's toggle counts in OpenSTA's report_power) and per
operation. Exit 1 if a step fails, 2 for a bad command line."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import figures, library
from .units import UNIT_TYPES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_phys", description=__doc__.split("\n\n")[1])
    parser.add_argument("--unit", action="append", choices=sorted(UNIT_TYPES),
                        help="a unit type (default: every one)")
    parser.add_argument("--cycles", type=int, default=200,
                        help="gate-level simulation cycles per measurement (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--workdir", default="build/phys", help="netlists, logs (build/phys)")
    args = parser.parse_args(argv)
    if args.cycles < 8:
        parser.error("--cycles must be at least 8")
    try:
        library.liberty()
    except library.LibraryMissing as e:
        print(f"tcu_phys: {e}", file=sys.stderr)
        return 1
    rows = []
    print(f"Library: {library.LABEL} ({library.LIBERTY})")
    print(f"{'unit':16} {'area um2':>11} {'ff um2':>9} {'cells':>6} {'path ns':>8} {'fmax MHz':>9}"
          f" {'busy pJ/cyc':>11} {'idle pJ/cyc':>11} {'pJ/op':>8}  critical path")
    for name in args.unit or sorted(UNIT_TYPES):
        unit = UNIT_TYPES[name]
        try:
            f = figures.measure(unit, Path(args.workdir), args.cycles, args.seed)
        except RuntimeError as e:
            print(f"tcu_phys: {name}: {e}", file=sys.stderr)
            return 1
        rows.append(f.to_json())
        per_op = f"{f.pj_per_op:8.2f}" if f.pj_per_op is not None else f"{'-':>8}"
        print(f"{name:16} {f.area_um2:11.0f} {f.flip_flop_area_um2:9.0f} {f.cells:6d} "
              f"{f.critical_path_ns:8.3f} {f.fmax_mhz:9.1f} {f.busy_pj_per_cycle:11.2f} "
              f"{f.idle_pj_per_cycle:11.2f} {per_op}  {f.startpoint} -> {f.endpoint}")
    if args.json:
        Path(args.json).write_text(json.dumps({"library": library.LABEL, "units": rows}, indent=2))
    return 0
