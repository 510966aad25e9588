"""The command line: `tcu explore [SWEEP] ...` and `tcu explore merge`."""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from . import physical
from .build import Base
from .cache import default_cache, rtl_fingerprint, tool_version
from .execute import execute, rows_of, update_base
from .merge import command_merge
from .output import FIGURE_COLUMNS, finish
from .params import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, RUN_DEFAULTS, RUN_PARAMETERS, UsageError,
                     check_name, check_point_rules, convert, parse_value, router_parameters,
                     rtl_parameters)
from .plan import plan_of
from .sweep import Sweep, check_workload, parse_assignment, parse_shard, read_sweep_file
from .synthesis import script_version
from .workload_file import suite_names


def sweep_of(args, rtl: dict[str, int]) -> Sweep:
    """The sweep of the file and the command line's additions."""
    sweep = Sweep()
    if args.sweep:
        read_sweep_file(Path(args.sweep), rtl, sweep)
    for text in args.axis:
        name, values = parse_assignment(text, "--axis")
        check_name(name, f"--axis {text}", rtl)
        items = [v for v in values.split(",") if v.strip()]
        if not items:
            raise UsageError(f"--axis {text}: no values")
        sweep.axes[name] = [convert(name, parse_value(v), f"--axis {text}", rtl) for v in items]
    for text in args.set:
        name, value = parse_assignment(text, "--set")
        check_name(name, f"--set {text}", rtl)
        sweep.fixed[name] = convert(name, parse_value(value), f"--set {text}", rtl)
    overlap = set(sweep.axes) & set(sweep.fixed)
    if overlap:
        raise UsageError(f"{sorted(overlap)[0]} is both an axis and fixed")
    w = sweep.workload
    if args.mix is not None:
        w.kind, w.count = "mix", args.mix
    for name in ("ptx", "m", "n", "k", "seed"):
        if getattr(args, name) is not None:
            setattr(w, name, getattr(args, name))
    if args.ptx is not None and args.mix is None:
        w.kind = "gemm"
    if args.workload is not None:
        if args.ptx is not None or args.mix is not None:
            raise UsageError("--workload and --ptx/--mix both name a workload: give one")
        w.suite = args.workload
    if args.family is not None:
        w.family = args.family
    check_workload(w)
    if not sweep.axes:
        raise UsageError("no axes: give a sweep file with [axes] or --axis NAME=V1,V2,...")
    return sweep


def points_of(sweep: Sweep, rtl: dict[str, int]) -> list[dict[str, object]]:
    defaults: dict[str, object] = dict(rtl)
    defaults.update(RUN_DEFAULTS)
    points = sweep.points(defaults)
    for i, point in enumerate(points):
        check_point_rules(i, point)
        # The front-end reads at most the router's WordsPerCycle a cycle.
        point["rf_bandwidth"] = point["rf_bandwidth"] or point["WordsPerCycle"]
        if point["rf_bandwidth"] > point["WordsPerCycle"]:
            raise UsageError(f"point {i}: rf_bandwidth={point['rf_bandwidth']} is more than its "
                             f"WordsPerCycle={point['WordsPerCycle']} (the register words the "
                             "operand router takes a cycle)")
    return points


def command_sweep(args) -> int:
    rtl = rtl_parameters()
    sweep = sweep_of(args, rtl)
    points = points_of(sweep, rtl)
    shard_index, shard_count = parse_shard(args.shard)
    if args.front_sample is not None and (args.front_sample < 2 or args.validate is None
                                          or args.no_fronts):
        raise UsageError("--front-sample K: K >= 2, with --validate and without --no-fronts")
    selected = [i for i in range(len(points)) if i % shard_count == shard_index]
    if args.fidelity == "fast":
        from .fast_sweep import command_fast
        return command_fast(args, sweep, points, selected, rtl, (shard_index, shard_count))
    if args.validate is not None or args.bench:
        raise UsageError("--validate and --bench are options of --fidelity fast")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = Base.find(args.base if args.base is not None else os.environ.get("TCU_EXPLORE_BASE"))
    cache = Path(args.cache).resolve() if args.cache else default_cache(base)
    jobs = args.jobs or os.cpu_count() or 1
    build_jobs = args.build_jobs or max(1, (os.cpu_count() or 1) // jobs)

    fingerprint = rtl_fingerprint()
    verilator = tool_version(["verilator", "--version"])
    yosys = tool_version(["yosys", "-V"]) + " " + script_version()
    plan = plan_of(points, selected, sweep, rtl, base, cache, args.no_synth, fingerprint,
                   verilator, yosys)
    print(f"explore: {len(points)} point(s) in the sweep, {len(selected)} in shard "
          f"{shard_index}/{shard_count}; {len(plan.builds)} model(s), {len(plan.synths)} "
          f"synthesis run(s); cache {cache}", file=sys.stderr)
    if base and plan.builds and not update_base(base, out):
        return EXIT_FAIL
    results = execute(plan, points, selected, sweep, out, args, jobs, build_jobs)
    rows, notes = rows_of(plan, points, selected, results)

    param_columns = list(rtl) + list(RUN_PARAMETERS)
    activity_columns = sorted({k for r in rows for k in r if str(k).startswith("act_")})
    columns = ["point"] + param_columns + FIGURE_COLUMNS + activity_columns + ["status"]
    meta = {
        "tcu_explore": 2,
        "sweep": sweep.to_json(),
        "sweep_hash": hashlib.sha256(json.dumps(sweep.to_json(), sort_keys=True).encode())
        .hexdigest()[:16],
        "points": len(points),
        "shard": [shard_index, shard_count],
        "workload_text": sweep.workload.describe(),
        "rtl": fingerprint,
        "verilator": verilator,
        "yosys": yosys if plan.synths else "",
        "columns": columns,
        "definitions": physical.__doc__,
        "notes": notes,
        "argv": sys.argv[1:],
    }
    finish(rows, meta, out)
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        print(f"explore: {len(failed)} of {len(rows)} point(s) failed; see the status column",
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


EPILOG = """\
sweep file (TOML):
  constraints = ["area_mm2<=100", ...]   prune points (as --constraint)
  [workload]              suite = NAME or FILE (.toml, .onnx; family for ONNX),
                          or kind = "gemm" (ptx, m, n, k) or "mix" (count); seed
  [axes]                  NAME = [values...]   one axis per parameter
  [fixed]                 NAME = value         held at one value
NAME is a parameter of rtl/tcu_core.sv as spec/config.toml states it (%s;
the operand router's, %s, as axes, add its own synthesis run)
or a run parameter (rf_bandwidth, rf_banks, rf_read_ports, rf_write_ports,
warps, backpressure). Points are the
cartesian product of the axes, numbered in order; the command line's --axis,
--set and workload options add to or override the file's.

exit status: 0 every point ran and checked (fast: validated within tolerance),
1 a point failed or a validated figure is over its tolerance, 2 bad usage.
"""


def merge_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{prog} merge", description="Join the output folders of the shards of one sweep "
        "into one.")
    parser.add_argument("shards", nargs="+", help="output folders of --shard runs")
    parser.add_argument("--out", default="explore-out", help="merged output folder")
    return parser


def sweep_parser(prog: str) -> argparse.ArgumentParser:
    try:
        names = ", ".join(rtl_parameters())
        router = ", ".join(router_parameters())
    except SystemExit:
        names = router = "?"
    parser = argparse.ArgumentParser(
        prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Sweep datapath parameters over a workload: by default with the fast "
        "evaluator (the timing model's cycles, the characterized units' area, clock and "
        "energy); with --fidelity full, build each point's model (cached), run the workload on "
        "the RTL, synthesize with Yosys. Writes explore.csv, report.html and a table.  "
        "`%s merge --help` joins shards." % prog,
        epilog=EPILOG % (names, router))
    add = parser.add_argument
    add("sweep", nargs="?", help="sweep file (TOML)")
    add("--axis", action="append", default=[], metavar="NAME=V1,V2,...",
        help="an axis of the sweep (repeatable)")
    add("--set", action="append", default=[], metavar="NAME=V",
        help="hold a parameter at one value (repeatable)")
    add("--ptx", help="gemm workload: the mma variant (see tcu list)")
    add("--m", type=int, help="gemm workload: rows of A, C, D")
    add("--n", type=int, help="gemm workload: columns of B, C, D")
    add("--k", type=int, help="gemm workload: columns of A")
    add("--mix", type=int, metavar="COUNT",
        help="mix workload: COUNT instructions of every variant at random")
    add("--seed", type=int, help="random seed of the workload and of --validate's sample "
        "(default 1)")
    add("--workload", metavar="SUITE|FILE",
        help="a list of GEMMs: a suite (%s), a workload TOML or an ONNX model" %
        ", ".join(suite_names()))
    add("--family", help="the family an ONNX model's GEMMs run in (int4, int4_sparse, e2m1, "
        "f16, f64; default f16)")
    add("--fidelity", choices=("fast", "full"), default="fast",
        help="fast (default): the timing model and the characterized units, no Verilator or "
        "Yosys; full: each point's model built and run, its datapath synthesized")
    add("--constraint", action="append", default=[], metavar="COLUMN<=X",
        help="prune points: COLUMN<=X, >=, <, > (e.g. area_mm2<=100, fmax_mhz>=50; repeatable)")
    add("--validate", type=int, metavar="N",
        help="run the full flow on every Pareto point, a sample spanning every axis value and "
        "N random points; write the fast figures' errors (validation.csv); exit 1 if one is "
        "over its tolerance")
    add("--plots", action="store_true",
        help="fast: write the PNG plots as well (the full flow always does)")
    add("--no-fronts", action="store_true",
        help="with --validate: the spanning sample and the N random points only, not every "
        "point of the fronts")
    add("--front-sample", type=int, metavar="K",
        help="with --validate: K points of each front spread along it (its ends and between) "
        "instead of every point of the fronts")
    add("--bench", action="store_true",
        help="time the fast evaluation of the sweep alone; print points/minute")
    add("--out", default="explore-out", help="output folder")
    add("--cache", help="model and synthesis cache (default $TCU_EXPLORE_CACHE, or "
        "explore-cache in the base build)")
    add("--base", help="build whose libraries the points link, so a point compiles only its "
        "model (default: $TCU_EXPLORE_BASE, which tcu explore sets to its own build; '' builds "
        "each point in full)")
    add("-j", "--jobs", type=int, default=0,
        help="points built, run and synthesized at once (default: all cores)")
    add("--build-jobs", type=int, default=0,
        help="compile jobs per model build (default: cores / jobs)")
    add("--shard", default="0/1", metavar="i/N", help="run only points with index %% N == i")
    add("--no-synth", action="store_true", help="skip Yosys")
    add("--synth-timeout", type=float, metavar="SECONDS",
        help="give up a synthesis run after this long")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    prog = os.environ.get("TCU_EXPLORE_PROG", "tcu explore")
    if argv[:1] == ["merge"]:
        args = merge_parser(prog).parse_args(argv[1:])
        command = command_merge
    else:
        parser = sweep_parser(prog)
        args = parser.parse_args(argv)
        if args.jobs < 0 or args.build_jobs < 0:
            parser.error("--jobs and --build-jobs must be positive")
        command = command_sweep
    try:
        return command(args)
    except UsageError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
