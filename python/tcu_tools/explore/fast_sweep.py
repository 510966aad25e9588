"""`tcu explore --fidelity fast` (the default): the sweep's points through
the fast evaluator (fast.py), constraints, fronts, explore.csv, report.html;
`--bench` times the evaluation alone; `--validate N` holds the figures of
the fronts and N random points to the full flow (validate.py)."""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path

from . import constraints as constraint_rules
from . import physical
from .build import Base
from .cache import rtl_fingerprint
from .fast import Evaluator, evaluate
from .output import FIGURE_COLUMNS, finish
from .params import EXIT_FAIL, EXIT_OK, RUN_PARAMETERS, UsageError, characterization, checkout
from .sweep import Sweep
from .workload_file import Gemm, Workload, load

FAST_COLUMNS = ["source", "missing", "path_unit", "runtime_ms"]


# The timing model's limit on a GEMM's dimensions (tcu.gemm_estimate).
LIMIT = 1 << 30


def checked(workload: Workload) -> Workload:
    """The workload, its GEMMs' variants and sizes checked (UsageError
    naming the GEMM's file and line or node)."""
    from .fast import tcu_module
    tcu = tcu_module()
    for g in workload.gemms:
        where = g.origin or f"{workload.describe()}: {g.name}"
        try:
            tcu.canonical(g.ptx)
        except ValueError as error:
            raise UsageError(f"{where}: ptx '{g.ptx}': {error}") from None
        for name in ("m", "n", "k"):
            if getattr(g, name) > LIMIT:
                raise UsageError(f"{where}: {name}={getattr(g, name)} is more than the timing "
                                 f"model's 2^30")
    return workload


def workload_of(sweep: Sweep) -> Workload:
    w = sweep.workload
    if w.suite:
        return checked(load(w.suite, w.family or None))
    if w.kind == "mix":
        raise UsageError("the fast evaluator takes GEMM workloads (--workload, or --ptx/--m/--n/"
                         "--k); a mix workload needs --fidelity full")
    return checked(Workload(f"gemm {w.m}x{w.n}x{w.k}", "command line",
                            [Gemm("gemm", w.ptx, w.m, w.n, w.k, 1, "the gemm workload")]))


def checkout_or_none() -> Path | None:
    """The checkout (params.checkout()), or None outside one."""
    try:
        return checkout()
    except RuntimeError:
        return None


def phys_data() -> dict:
    """The characterization (params.characterization()), refused where it
    is stale against the checkout's RTL (an entry's RTL elaborates to
    another design, a tool or the flow changed, or it carries no stamp).
    Outside a checkout and without a base build: the package's copy, with no
    RTL to check it against, as said on stderr."""
    from tcu_tools.phys import datafile
    path, root = characterization()
    try:
        data = datafile.load(path)
    except datafile.DataFileError as error:
        raise UsageError(str(error)) from None
    if root is None:
        print(f"explore: no checkout of the RTL here (nor a base build): {path}'s stamps are not "
              "checked", file=sys.stderr)
        return data
    try:
        reasons = datafile.stale(data, rtl=root / "rtl")
    except (datafile.DataFileError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    if reasons:
        raise UsageError(f"{path}: the characterization is stale ({'; '.join(reasons)}); "
                         f"refresh it with: {datafile.REFRESH}")
    return data


def spanning(rows: list[dict], axes: dict) -> list[int]:
    """Points among `rows` (status ok) such that every value of every axis
    is some chosen point's, few of them: greedily the point that covers
    the most values not yet covered, the smallest (area_mm2) of equals."""
    ok = [r for r in rows if r.get("status") == "ok"]
    todo = {(name, value) for name in axes for value in {r[name] for r in ok}}
    chosen = []
    while todo:
        best = max(ok, key=lambda r: (sum((n, r[n]) in todo for n in axes),
                                      -(physical.number(r.get("area_mm2")) or 0.0),
                                      -int(r["point"])))
        todo -= {(n, best[n]) for n in axes}
        chosen.append(int(best["point"]))
    return sorted(chosen)


def front_sample(rows: list[dict], key: str, flag: str, k: int) -> set[int]:
    """k points of a front (the rows whose `flag` is set), spread along it
    by `key`: its two ends and the points nearest to k - 2 evenly spaced
    values between (the lowest point number of equals)."""
    front = sorted((physical.number(r.get(key)) or 0.0, int(r["point"])) for r in rows
                   if r.get(flag))
    if not front or k <= 0:
        return set()
    lo, hi = front[0][0], front[-1][0]
    targets = [lo + (hi - lo) * i / max(k - 1, 1) for i in range(k)]
    return {min(front, key=lambda f: (abs(f[0] - t), f[1]))[1] for t in targets}


def validation_sample(rows: list[dict], axes: dict, n: int, seed: int,
                      fronts: bool = True, front_k: int | None = None) -> list[int]:
    """--validate N's points: every point of the Pareto fronts (unless
    --no-fronts; with --front-sample K, K points of each front spread along
    it: front_sample), a sample spanning every axis (spanning), and N
    random others (seed)."""
    if not fronts:
        picked = set()
    elif front_k is not None:
        picked = (front_sample(rows, "area_mm2", "pareto", front_k) |
                  front_sample(rows, "tops", "pareto_energy", front_k))
    else:
        picked = {int(r["point"]) for r in rows if r.get("pareto") or r.get("pareto_energy")}
    picked |= set(spanning(rows, axes))
    others = sorted(int(r["point"]) for r in rows
                    if r.get("status") == "ok" and int(r["point"]) not in picked)
    picked |= set(random.Random(seed).sample(others, min(n, len(others))))
    return sorted(picked)


def command_fast(args, sweep: Sweep, points: list[dict], selected: list[int],
                 rtl: dict[str, int], shard: tuple[int, int]) -> int:
    workload = workload_of(sweep)
    notes: list[str] = []
    Base.find(args.base if args.base is not None else os.environ.get("TCU_EXPLORE_BASE"))
    evaluator = Evaluator(workload, list(rtl), phys_data())
    columns_known = set(FIGURE_COLUMNS) | set(rtl) | set(RUN_PARAMETERS) | {"area_mm2",
                                                                             "runtime_ms"}
    rules = [constraint_rules.parse(c, sweep.constraint_where, columns_known)
             for c in sweep.constraints]
    rules += [constraint_rules.parse(c, "--constraint", columns_known) for c in args.constraint]
    print(f"explore: {len(points)} point(s) in the sweep, {len(selected)} in shard "
          f"{shard[0]}/{shard[1]}; fast evaluator; {workload.describe()}", file=sys.stderr)
    start = time.monotonic()
    rows = evaluate(points, selected, evaluator, progress=not args.bench)
    seconds = time.monotonic() - start
    if args.bench:
        rate = len(selected) / max(seconds, 1e-9) * 60
        print(f"explore bench: {len(selected)} points over {workload.describe()} in "
              f"{seconds:.2f} s: {rate:,.0f} points/minute")
        return EXIT_OK
    pruned = constraint_rules.apply(rows, rules)
    if pruned:
        print(f"explore: {pruned} point(s) pruned by the constraints", file=sys.stderr)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    param_columns = list(rtl) + list(RUN_PARAMETERS)
    columns = (["point"] + param_columns + FIGURE_COLUMNS + FAST_COLUMNS + ["status"])
    meta = {
        "tcu_explore": 3,
        "fidelity": "fast",
        "sweep": sweep.to_json(),
        "sweep_hash": hashlib.sha256(json.dumps(sweep.to_json(), sort_keys=True).encode())
        .hexdigest()[:16],
        "points": len(points),
        "shard": list(shard),
        "workload": workload.to_json(),
        "workload_text": workload.describe(),
        "rtl": rtl_fingerprint() if checkout_or_none() else {},
        "columns": columns,
        "definitions": physical.__doc__,
        "notes": notes,
        "seconds": round(seconds, 3),
        "argv": sys.argv[1:],
    }
    finish(rows, meta, out, plots=args.plots)
    status, validation = EXIT_OK, None
    if args.validate is not None:
        from .validate import validate
        chosen = validation_sample(rows, sweep.axes, args.validate,
                                   args.seed if args.seed is not None else 1,
                                   not args.no_fronts, args.front_sample)
        status, validation = validate(args, sweep, evaluator, points, rows, chosen, rtl, out)
    from .report_html import write_report
    write_report(rows, meta, out, validation)
    failed = [r for r in rows if r["status"] != "ok" and not r["status"].startswith("pruned")]
    if failed:
        print(f"explore: {len(failed)} of {len(rows)} point(s) cannot run the workload; see "
              "the status column", file=sys.stderr)
    return status if status != EXIT_OK else (EXIT_FAIL if failed and len(failed) == len(rows)
                                             else EXIT_OK)
