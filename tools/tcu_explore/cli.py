"""The command line: `tcu explore [SWEEP] ...` and `tcu explore merge`."""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import physical
from .build import Base, Build, build_model
from .cache import content_key, default_cache, log_excerpt, rtl_fingerprint, run_logged, tool_version
from .merge import command_merge
from .output import FIGURE_COLUMNS, finish
from .params import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, RUN_DEFAULTS, RUN_PARAMETERS, UsageError,
                     check_name, check_point_rules, convert, parse_value, router_parameters,
                     rtl_parameters)
from .plots import label
from .runs import run_point
from .sweep import Sweep, check_workload, parse_assignment, parse_shard, read_sweep_file
from .synthesis import Synthesis, script_version, synthesize


class Progress:
    def __init__(self, total: int):
        self.total, self.done, self.lock = total, 0, threading.Lock()
        self.start = time.monotonic()

    def step(self, text: str) -> None:
        with self.lock:
            self.done += 1
            elapsed = time.monotonic() - self.start
            print(f"[{self.done}/{self.total} {elapsed:6.0f} s] {text}", file=sys.stderr,
                  flush=True)


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


@dataclass
class Plan:
    """The builds and syntheses the selected points need, shared by content."""
    builds: dict[str, Build] = field(default_factory=dict)
    synths: dict[str, Synthesis] = field(default_factory=dict)
    point_build: dict[int, Build] = field(default_factory=dict)
    point_synth: dict[int, list[Synthesis]] = field(default_factory=dict)


def plan_of(points, selected, sweep, rtl, base, cache, no_synth, fingerprint, verilator,
            yosys) -> Plan:
    plan = Plan()
    # The router is synthesized (its own run, cached by its parameters) when
    # one of its parameters is an axis: at 32 words a cycle it takes Yosys a
    # quarter of an hour.
    router = router_parameters()
    synth_router = any(p in sweep.axes for p in router)
    for i in selected:
        params = {name: int(points[i][name]) for name in rtl}
        key = content_key("model", params, fingerprint,
                          verilator + (f" base {base.directory}" if base else ""))
        plan.point_build[i] = plan.builds.setdefault(
            key, Build(key, cache / "models" / key, params, base))
        if no_synth:
            continue
        dp_params = {k: v for k, v in params.items() if k not in router}
        skey = content_key("synth", dp_params, fingerprint, yosys)
        plan.point_synth[i] = [plan.synths.setdefault(
            skey, Synthesis(skey, cache / "synth" / skey, dp_params))]
        if synth_router:
            r_params = {k: params[k] for k in router}
            rkey = content_key("synth-router", r_params, fingerprint, yosys)
            plan.point_synth[i].append(plan.synths.setdefault(
                rkey, Synthesis(rkey, cache / "synth" / rkey, r_params, "tcu_operand_router")))
    return plan


def update_base(base: Base, out: Path) -> bool:
    """The base's objects must be those of this source tree."""
    log = out / "base-build.log"
    log.write_text("")
    print(f"explore: bringing the base build {base.directory} up to date", file=sys.stderr)
    if run_logged(["cmake", "--build", str(base.directory), "--target", "tcu", "-j",
                   str(os.cpu_count() or 1)], log) != 0:
        print(f"{log_excerpt(log)}\nexplore: the base build failed (see {log})", file=sys.stderr)
        return False
    return True


def execute(plan: Plan, points, selected, sweep, out: Path, args, jobs: int,
            build_jobs: int) -> dict[int, dict]:
    """Builds, runs and syntheses, in a pool; each run after its build."""
    progress = Progress(len(plan.builds) + len(selected) + len(plan.synths))
    results: dict[int, dict] = {}

    def do_build(build: Build) -> Build:
        build_model(build, build_jobs)
        what = build.error or ("cached" if build.cached else f"built in {build.seconds:.0f} s")
        if build.error:
            what += "\n" + log_excerpt(build.directory / "build.log")
        progress.step(f"model {build.key}: {what}")
        return build

    def do_synth(synth: Synthesis) -> Synthesis:
        synthesize(synth, args.synth_timeout)
        what = synth.error or ("cached" if synth.cached else f"synthesized in {synth.seconds:.0f} s")
        if synth.error:
            what += "\n" + log_excerpt(synth.directory / "synth.log")
        progress.step(f"synthesis {synth.key}: {what}")
        return synth

    def do_run(i: int) -> None:
        build = plan.point_build[i]
        if build.error:
            results[i] = {"status": f"not run: {build.error}"}
        else:
            results[i] = run_point(points[i], build, sweep.workload, out / "points" / f"{i:04d}")
        status = results[i].get("status", "ok")
        if status != "ok" and build.error == "":
            status += "\n" + log_excerpt(out / "points" / f"{i:04d}" / "run.log")
        progress.step(f"point {i}: {label(points[i], list(sweep.axes))}: {status}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        build_futures = {key: pool.submit(do_build, b) for key, b in plan.builds.items()}
        synth_futures = [pool.submit(do_synth, s) for s in plan.synths.values()]
        # A point's run waits for its build; runs are short, synthesis long.
        run_futures = []
        for key, future in build_futures.items():
            future.result()
            for i in selected:
                if plan.point_build[i].key == key:
                    run_futures.append(pool.submit(do_run, i))
        for future in run_futures + synth_futures:
            future.result()
    return results


def rows_of(plan: Plan, points, selected, results) -> tuple[list[dict], list[str]]:
    """The CSV rows, and notes on figures a source lacked."""
    rows, notes = [], []
    for i in selected:
        row: dict[str, object] = {"point": i}
        row.update(points[i])
        row.update(results.get(i, {}))
        row["build_s"] = round(plan.point_build[i].seconds, 1)
        for synth in plan.point_synth.get(i, []):
            row.update(synth.figures)
            if synth.library and synth.top == "tcu_datapath":
                row["library"] = synth.library
            if synth.note and synth.note not in notes:
                notes.append(synth.note)
            if synth.error:
                row["status"] = "; ".join(filter(None, [str(row.get("status", "")), synth.error]))
        row.setdefault("status", "ok")
        rows.append(row)
    if plan.synths and not any(r.get("energy_pj_per_mac") not in (None, "") for r in rows):
        notes.append("the run reports have no \"energy\" block: energy_pj_per_mac and tops_per_w "
                     "are empty")
    return rows, notes


def command_sweep(args) -> int:
    rtl = rtl_parameters()
    sweep = sweep_of(args, rtl)
    points = points_of(sweep, rtl)
    shard_index, shard_count = parse_shard(args.shard)
    selected = [i for i in range(len(points)) if i % shard_count == shard_index]
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
  [workload]              kind = "gemm" (ptx, m, n, k) or "mix" (count); seed
  [axes]                  NAME = [values...]   one axis per parameter
  [fixed]                 NAME = value         held at one value
NAME is a parameter of rtl/tcu_core.sv as spec/config.toml states it (%s;
the operand router's, %s, as axes, add its own synthesis run)
or a run parameter (rf_bandwidth, rf_banks, rf_read_ports, rf_write_ports,
warps, backpressure). Points are the
cartesian product of the axes, numbered in order; the command line's --axis,
--set and workload options add to or override the file's.

exit status: 0 every point ran and checked, 1 a point failed, 2 bad usage.
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
        description="Sweep datapath parameters over a workload: build each point's model "
        "(cached), run the workload on the RTL, synthesize with Yosys; write explore.csv, "
        "plots and a table.  `%s merge --help` joins shards." % prog,
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
    add("--seed", type=int, help="random seed of the workload (default 1)")
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


def main(argv: list[str]) -> int:
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
