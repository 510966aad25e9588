"""pytest: Verilate rtl/tcu_core.sv for cocotb and run tcu_core_tb.py on it.

test_spellings_are_tcu_list  the testbench's variants are `tcu list`'s
test_random_instructions   the testbench on the RTL: must pass
test_planted_fault         the testbench on the same model with one operator
                           changed (PLANTED_FAULT, switched on by the
                           plusarg +tcu_plant): must fail, naming a D mismatch

One model serves both: the RTL with the planted fault's operator behind a
switch read once at start-up (`$test$plusargs`), off unless +tcu_plant is
given, so that the model is Verilated and compiled once (docs/data/costs.toml,
figure cocotb-build-inlined), not once as it is and once faulty.

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
    # model is 17 files of C++ against 122 with a class per unit, a cold
    # build about five times faster (docs/data/costs.toml, cocotb-build-*).
    "-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "--assert",
    str(RTL / "lint.vlt"), str(HERE / "public_ports.vlt"),
    # The RTL's `include files (rtl/*.svh).
    f"-I{RTL}",
    "-CFLAGS", "-DVL_VALUE_STRING_MAX_WORDS=256",
]
# The one-operator fault: int4 accumulate's C no longer sign-extended, so a
# .satfinite instruction with a negative C (and no overflow) saturates to
# INT32_MAX. Only the int4 .satfinite variants see it.
PLANTED_FAULT = ("tcu_int4_accumulate.sv", "$signed({c_i[Width-1], c_i})", "$signed({1'b0, c_i})")
# The plusarg that switches it on, and the switch declared after the module's
# ports in the model's copy of the file.
PLANT_PLUSARG = "tcu_plant"
PLANT_SWITCH = ("\n  logic tcu_plant;  // the planted fault's switch (tb/cocotb/test_tcu_core.py)\n"
                f"  initial tcu_plant = $test$plusargs(\"{PLANT_PLUSARG}\");\n")


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
    """Verilator's generated Makefile: two jobs, clang++ when installed (it
    compiles the model in about 0.8 of g++'s CPU time, 33 s against 42 cold),
    ccache when installed, -O1 for the per-cycle code (a short run: build
    time matters more)."""
    flags = ["-j2", "OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"]
    if shutil.which("clang++"):
        flags.append("CXX=clang++")
    if shutil.which("ccache"):
        flags.append("OBJCACHE=ccache")
    os.environ["MAKEFLAGS"] = " ".join(flags)


def switchable_rtl(directory: Path) -> list[Path]:
    """The RTL's sources with PLANTED_FAULT's file replaced by a copy in
    `directory` whose operator is the faulty one while the switch is on
    (rewritten only when its text changes, so that a second build is a no-op)."""
    name, good, bad = PLANTED_FAULT
    text = (RTL / name).read_text()
    assert text.count(good) == 1, f"{name}: the planted fault's text is not there once"
    ports_end = text.index(");\n", text.index("module ")) + len(");\n")
    text = text[:ports_end] + PLANT_SWITCH + text[ports_end:]
    text = text.replace(good, f"(tcu_plant ? {bad} : {good})")
    copy = directory / name
    if not copy.exists() or copy.read_text() != text:
        directory.mkdir(parents=True, exist_ok=True)
        copy.write_text(text)
    return rtl_sources({name: copy})


def run_testbench(run_dir: Path, plusargs: list[str] = ()) -> str:
    """Builds the model (BUILD/tcu_core; up to date after the first build)
    and runs the testbench in `run_dir` with `plusargs`; returns its log.
    Raises SystemExit (cocotb's runner) when the testbench fails."""
    make_environment()
    runner = PortsOnlyVerilator()
    build_dir = BUILD / "tcu_core"
    runner.build(sources=switchable_rtl(BUILD / "rtl"), hdl_toplevel="tcu_core",
                 parameters=PARAMETERS, build_args=BUILD_ARGS, build_dir=build_dir)
    env = {"TCU_COCOTB_WORDS": str(PARAMETERS["WordsPerCycle"]),
           "TCU_COCOTB_DWORDS": str(PARAMETERS["DWordsPerCycle"])}
    env.update({k: v for k, v in os.environ.items() if k.startswith("TCU_COCOTB_")})
    run_dir.mkdir(parents=True, exist_ok=True)
    log = run_dir / "sim.log"
    try:
        runner.test(hdl_toplevel="tcu_core", test_module="tcu_core_tb", build_dir=build_dir,
                    test_dir=run_dir, extra_env=env, log_file=log, plusargs=list(plusargs))
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
    assert not mismatches(run_testbench(BUILD / "run"))


def test_planted_fault(monkeypatch):
    run_dir = BUILD / "run_planted"
    monkeypatch.setenv("TCU_COCOTB_STOP", "1")  # the first mismatch ends the run
    with pytest.raises(SystemExit, match="Failed 1 of 1"):
        run_testbench(run_dir, [f"+{PLANT_PLUSARG}"])
    log = (run_dir / "sim.log").read_text()
    found = mismatches(log)
    assert found, "the faulty RTL failed, but not on a D mismatch"
    assert all(".satfinite." in line for line in found), found
