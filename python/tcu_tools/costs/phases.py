"""python -m tcu_tools.costs.phases TIMES [--record FILE] [--how TEXT] [--name TEXT]

The test command's phases, as scripts/test.sh times them when
TCU_TEST_TIMES=TIMES is set, merged into the data file of costs (default
docs/data/costs.toml):

  TCU_TEST_TIMES=/tmp/times CCACHE_DISABLE=1 scripts/test.sh
  python -m tcu_tools.costs.phases /tmp/times

Each line of TIMES is `NAME USER SYS START END`: a phase's command run in
a subshell, USER and SYS that subshell's children's times as bash's
`times` gives them (its whole process tree: the command and everything it
waited for), START and END bash's EPOCHREALTIME. A malformed line exits 2
naming it.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from tcu_tools.costs import data

# bash's `times`: "1m2.345s" (minutes and seconds).
CLOCK = re.compile(r"(\d+)m([\d.]+)s")


def _seconds(text: str) -> float:
    match = CLOCK.fullmatch(text)
    if not match:
        raise ValueError(f"not bash's time (NmS.SSSs): {text!r}")
    return int(match[1]) * 60 + float(match[2])


def read(times: Path) -> dict[str, dict]:
    entries = {}
    for number, line in enumerate(times.read_text().splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            if len(fields) != 5:
                raise ValueError("not NAME USER SYS START END")
            name, user, system, start, end = fields
            cpu = _seconds(user) + _seconds(system)
            wall = float(end) - float(start)
        except ValueError as error:
            raise SystemExit(f"costs.phases: {times}:{number}: {error}") from None
        entries[name] = {"cpu_s": round(cpu, 1), "wall_s": round(wall, 1)}
    return entries


# The tools whose versions the phases' figures depend on: the compilers of
# the two builds, Verilator and CMake (the build), Yosys (the netlists).
TOOLS = {"clang++": ["clang++", "--version"], "g++": ["g++", "--version"],
         "verilator": ["verilator", "--version"], "cmake": ["cmake", "--version"],
         "yosys": ["yosys", "-V"]}


def versions() -> dict[str, str]:
    """Each tool's first line of its version, "?" where it does not run."""
    found = {}
    for tool, command in TOOLS.items():
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        found[tool] = out.splitlines()[0].strip() if out.strip() else "?"
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tcu_tools.costs.phases",
                                description=__doc__.split("\n\n")[1])
    p.add_argument("times", type=Path, help="the file TCU_TEST_TIMES named")
    p.add_argument("--record", type=Path, help="the data file (default docs/data/costs.toml)")
    p.add_argument("--how", default="scripts/test.sh with TCU_TEST_TIMES",
                   help="how the run was made (a fresh clone, CCACHE_DISABLE=1 ...)")
    p.add_argument("--name", help="the run's short name (default: the --how text)")
    args = p.parse_args(argv)
    try:
        entries = read(args.times)
    except OSError as error:
        print(f"costs.phases: {error}", file=sys.stderr)
        return 2
    if not entries:
        print(f"costs.phases: {args.times}: no phase", file=sys.stderr)
        return 2
    file = args.record or data.path()
    run = data.new_run(f"phases: {args.name or args.how}",
                       "TCU_TEST_TIMES=FILE scripts/test.sh", args.how, versions())
    data.record(file, run, "phase", entries)
    print(f"costs.phases: {len(entries)} phase(s) recorded in {file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
