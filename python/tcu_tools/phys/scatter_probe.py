"""python3 -m tcu_tools.phys.scatter_probe WIDTH... [--json FILE] [--workdir DIR]

Maps tcu_operand_router's scatter alone (phys/probe/router_scatter_probe.sv:
the D buffer, the beat counter and tcu_router_scatter_synth, the router's
lines) at each DWordsPerCycle WIDTH by the data file's flow (mapping.map_unit:
abc -constr, buffered and sized), WIDTHf with the beat's first word a port
(FreeBase: no counter), and prints (or writes as JSON) each one's area,
flip-flop area and cells: what the scatter costs at a width, which the
router's points (gather and scatter together) cannot separate. No clock,
no energy. Exit 1 if a mapping fails, 2 for a bad command line."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import library, mapping
from .units import REPO, RTL

PROBE = REPO / "phys" / "probe" / "router_scatter_probe.sv"
TOP = "router_scatter_probe"
SOURCES = [RTL / f"{name}.sv" for name in (
    "tcu_pkg", "tcu_frag_layout", "tcu_word_mux", "tcu_word_mux_synth", "tcu_word_mux_fast",
    "tcu_router_scatter_synth", "tcu_clock_gate")] + [PROBE]


def _width(parser: argparse.ArgumentParser, word: str) -> tuple[int, int]:
    digits, free = (word[:-1], 1) if word.endswith("f") else (word, 0)
    if not digits.isdigit() or not 1 <= int(digits) <= 64:
        parser.error(f"WIDTH: expected 1..64, optionally followed by f, found '{word}'")
    return int(digits), free


def figures(words: int, free: int, workdir: Path) -> dict:
    params = {"DWordsPerCycle": words, "FreeBase": free}
    m = mapping.map_unit(TOP, params, workdir, sources=SOURCES)
    return {"DWordsPerCycle": words, "FreeBase": free, "area_um2": m.area_um2,
            "flip_flop_area_um2": m.flip_flop_area_um2, "cells": m.cells,
            "seconds": round(m.seconds)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_tools.phys.scatter_probe",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("widths", nargs="+", metavar="WIDTH")
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--workdir", default="build/phys/scatter_probe")
    args = parser.parse_args(argv)
    widths = [_width(parser, w) for w in args.widths]
    try:
        library.liberty()
    except library.LibraryMissing as e:
        print(f"scatter_probe: {e}", file=sys.stderr)
        return 1
    rows = []
    for words, free in widths:
        try:
            rows.append(figures(words, free, Path(args.workdir)))
        except RuntimeError as e:
            print(f"scatter_probe: {words}{'f' if free else ''}: {e}", file=sys.stderr)
            return 1
        print(json.dumps(rows[-1]), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(
                {"command": "python -m tcu_tools.phys.scatter_probe " + " ".join(args.widths),
                 "library": library.LABEL, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
