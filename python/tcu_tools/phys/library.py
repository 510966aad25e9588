"""The OSU 0.18 um standard-cell library and its Verilog cell models."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

# TCU_OSU018_DIR: the library's directory where it is not installed there.
LIBRARY_DIR = Path(os.environ.get("TCU_OSU018_DIR", "/usr/share/qflow/tech/osu018"))
LIBERTY = LIBRARY_DIR / "osu018_stdcells.lib"
LABEL = "OSU 0.18 µm, typical corner"
PACKAGE = "qflow-tech-osu018"


class LibraryMissing(RuntimeError):
    pass


def liberty() -> Path:
    if not LIBERTY.is_file():
        raise LibraryMissing(
            f"{LIBERTY}: not found (the Debian package {PACKAGE}; scripts/setup.sh installs it)")
    return LIBERTY


def cell_models(workdir: Path) -> Path:
    """Verilog models of every cell, made by Yosys from the liberty file's
    cell functions (read_liberty), so the gate-level simulation evaluates the
    same Boolean functions OpenSTA times. Written once per workdir."""
    out = workdir / "osu018_cells.v"
    if not out.exists():
        workdir.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp.v")
        subprocess.run(["yosys", "-q", "-p",
                        f"read_liberty -ignore_miss_func {liberty()}; write_verilog -noattr {tmp}"],
                       check=True, capture_output=True, text=True)
        tmp.rename(out)
    return out


def is_flip_flop(cell_type: str) -> bool:
    """Sequential cells of the library (flip-flops and the latch)."""
    return cell_type.startswith("DFF") or cell_type == "LATCH"
