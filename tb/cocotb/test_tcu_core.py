"""pytest: Verilate rtl/tcu_core.sv for cocotb and run tcu_core_tb.py on it.

test_spellings_are_tcu_list  the testbench's variants are `tcu list`'s
test_random_instructions   the testbench on the RTL as it is: must pass
test_planted_fault         the testbench on a copy with one operator changed
                           (PLANTED_FAULT), Verilated into a directory of its
                           own: must fail, naming a D mismatch

Run from the checkout (the RTL is its rtl/: tcu_tools.source_dir()).
Environment: TCU_COCOTB_BUILD (where the models are built; default
tb/cocotb/sim_build), PYTHONPATH with the `tcu` module (build/python: the
build under test, the harness's choice), and the testbench's TCU_COCOTB_*
settings (tcu_core_tb.py). The simulator's Python gets this process's
module path (cocotb's runner), with this folder on it (pytest's).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import subprocess

import pytest
from cocotb.runner import Verilator

from tcu_tools import source_dir
from tcu_tools import spec as tcu_spec

HERE = Path(__file__).resolve().parent
RTL = source_dir() / "rtl"
BUILD = Path(os.environ.get("TCU_COCOTB_BUILD", HERE / "sim_build"))

# A small tcu_core: the spec's configuration cocotb (spec/config.toml), the
# parameters it gives.
PARAMETERS = tcu_spec.load().configs["cocotb"]
# Values wider than 2,048 bits through VPI need a larger string buffer (cocotb
# reads and writes them as binary strings); harmless for narrower ports.
BUILD_ARGS = [
    # Units inlined (unlike rtl/CMakeLists.txt's -fno-inline): at this size the
    # model is 17 files of C++, 51 CPU seconds cold, against 122 files and 3.5
    # minutes with a class per unit.
    "-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "--assert",
    str(RTL / "lint.vlt"), str(HERE / "public_ports.vlt"),
    "-CFLAGS", "-DVL_VALUE_STRING_MAX_WORDS=256",
]
# The one-operator fault: int4 accumulate's C no longer sign-extended, so a
# .satfinite instruction with a negative C (and no overflow) saturates to
# INT32_MAX. Only the int4 .satfinite variants see it.
PLANTED_FAULT = ("tcu_int4_accumulate.sv", "$signed({c_i[Width-1], c_i})", "$signed({1'b0, c_i})")


class PortsOnlyVerilator(Verilator):
    """cocotb 1.9's Verilator runner without --public-flat-rw: public_ports.vlt
    makes tcu_core's ports (all the testbench touches) public instead."""

    def _build_command(self):
        commands = super()._build_command()
        commands[0] = [arg for arg in commands[0] if arg != "--public-flat-rw"]
        return commands


def rtl_sources(replace: dict[str, Path] | None = None) -> list[Path]:
    """tcu_pkg.sv first, then every other rtl/tcu_*.sv (a file in `replace` by its copy)."""
    replace = replace or {}
    files = [RTL / "tcu_pkg.sv"] + sorted(p for p in RTL.glob("tcu_*.sv") if p.name != "tcu_pkg.sv")
    return [replace.get(p.name, p) for p in files]


def make_environment():
    """Verilator's generated Makefile: two jobs, ccache when installed, -O1
    for the per-cycle code (a short run: build time matters more)."""
    flags = ["-j2", "OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"]
    if shutil.which("ccache"):
        flags.append("OBJCACHE=ccache")
    os.environ["MAKEFLAGS"] = " ".join(flags)


def run_testbench(build_dir: Path, sources: list[Path]) -> str:
    """Builds the model in `build_dir` and runs the testbench; returns its log.
    Raises SystemExit (cocotb's runner) when the testbench fails."""
    make_environment()
    runner = PortsOnlyVerilator()
    runner.build(sources=sources, hdl_toplevel="tcu_core", parameters=PARAMETERS,
                 build_args=BUILD_ARGS, build_dir=build_dir)
    env = {"TCU_COCOTB_WORDS": str(PARAMETERS["WordsPerCycle"]),
           "TCU_COCOTB_DWORDS": str(PARAMETERS["DWordsPerCycle"])}
    env.update({k: v for k, v in os.environ.items() if k.startswith("TCU_COCOTB_")})
    log = build_dir / "sim.log"
    try:
        runner.test(hdl_toplevel="tcu_core", test_module="tcu_core_tb", build_dir=build_dir,
                    test_dir=build_dir, extra_env=env, log_file=log)
    finally:
        text = log.read_text() if log.exists() else ""
        print(summary(text))  # for CTest's log
    return text


def mismatches(log: str) -> list[str]:
    return [line for line in log.splitlines() if "MISMATCH instruction" in line]


def summary(log: str) -> str:
    """The mismatches and the per-variant pass counts of a testbench log."""
    lines = log.splitlines()
    table = [i for i, line in enumerate(lines) if "per-variant pass counts" in line]
    counts = []
    if table:
        end = next(i for i in range(table[-1], len(lines)) if " variants: " in lines[i])
        counts = [line.strip() for line in lines[table[-1] + 1:end + 1]]
    return "\n".join(mismatches(log)[:5] + counts)


def test_spellings_are_tcu_list():
    """The testbench's variants are exactly `tcu list`'s spellings (TCU_BINARY: the tcu tool)."""
    binary = os.environ.get("TCU_BINARY")
    if not binary:
        pytest.skip("TCU_BINARY not set")
    listed = subprocess.run([binary, "list", "--plain"], check=True, capture_output=True,
                            text=True).stdout.split()
    import stimulus  # beside this file (needs the tcu module, found through PYTHONPATH)

    assert stimulus.spellings() == listed


def test_random_instructions():
    assert not mismatches(run_testbench(BUILD / "tcu_core", rtl_sources()))


def test_planted_fault(tmp_path, monkeypatch):
    name, good, bad = PLANTED_FAULT
    text = (RTL / name).read_text()
    assert text.count(good) == 1, f"{name}: the planted fault's text is not there once"
    faulty = tmp_path / name
    faulty.write_text(text.replace(good, bad))
    build_dir = BUILD / "tcu_core_faulty"
    monkeypatch.setenv("TCU_COCOTB_STOP", "1")  # the first mismatch ends the run
    with pytest.raises(SystemExit, match="Failed 1 of 1"):
        run_testbench(build_dir, rtl_sources({name: faulty}))
    log = (build_dir / "sim.log").read_text()
    found = mismatches(log)
    assert found, "the faulty RTL failed, but not on a D mismatch"
    assert all(".satfinite." in line for line in found), found
