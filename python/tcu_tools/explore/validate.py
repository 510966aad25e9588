"""`--validate N`: the full flow (each point's RTL run through the SystemC
front-end, its datapath mapped bottom-up: synthesis.py) on the points of
the Pareto fronts (unless --no-fronts), a sample spanning every axis value
(fast_sweep.spanning) and N random points, against the fast evaluator's
figures for the same points; validation_axes.csv gives, per axis value and
figure, the largest error among the validated points with that value.

The workload's own GEMMs are far too large to simulate, so the full flow
runs one small GEMM per variant of the workload (two output tiles a side,
two k-steps: validation_gemms), and the fast evaluator estimates the same
GEMMs: cycles and energy are compared per point summed over them; area and
clock are the point's (the synthesized tcu_datapath, and the operand router
where one of its parameters is an axis, against the composition). A point
whose datapath the data file measured whole ([[whole]], source "measured")
checks the data file against a fresh synthesis, not the composition.

The datapaths the data file holds mapped whole ([[whole]]: tcu_datapath
synthesized by Yosys and timed by OpenSTA, stamped as this tree's design:
tcu_tools.phys.stamp) validate the composition's area and clock without a
synthesis (mapped_datapaths, validation_mapped.csv, with or without
--no-synth): each against the fast evaluator's composition from the rest of
the data file, its own table left out (with it, the evaluator takes that
table's figures and the check could not fail); so do the data file's
router points, each against the rule from the others (mapped_router: the
widest extrapolated, those between interpolated; the energy by the energy
rule from the others measured with energy). TOLERANCES is the one
statement of how close each figure must be; validation.csv and
validation_mapped.csv hold every comparison and tcu explore exits 1 naming
the points (and mapped datapaths) over a tolerance. With --no-synth the
full flow runs no Yosys and the points' area and clock are not validated."""
from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

from . import physical
from .build import Base
from .cache import default_cache, rtl_fingerprint, tool_version
from .execute import execute, rows_of, update_base
from .params import EXIT_FAIL, EXIT_OK, UsageError, router_parameters
from .plan import plan_of
from .sweep import Sweep, Workload as RunWorkload
from .synthesis import script_version
from .workload_file import Gemm

# Relative error each validated figure may have: cycles exact (the timing
# model claims exactness for a one-variant GEMM without back-pressure),
# area 5 %, clock 10 %, energy 10 %. The area is tcu_datapath's (area_um2:
# the router's estimate is the same in both flows unless a router
# parameter is an axis, which router_area_um2 then validates); the
# router's busy and idle energy a cycle (a router point against the
# energy rule from the others: mapped_router) are energies.
TOLERANCES = {"cycles": 0.0, "energy_pj": 0.10, "area_um2": 0.05, "router_area_um2": 0.05,
              "fmax_mhz": 0.10, "router_busy_pj_per_cycle": 0.10,
              "router_idle_pj_per_cycle": 0.10}
ROUTER_ENERGY = {"router_busy_pj_per_cycle": "busy_pj_per_cycle",
                 "router_idle_pj_per_cycle": "idle_pj_per_cycle"}
COLUMNS = ["point", "figure", "fast", "full", "error", "tolerance", "status"]
MAPPED_COLUMNS = ["whole", "params"] + COLUMNS[1:]


def mapped_datapaths(data: dict) -> list[dict]:
    """Per [[whole]] table of the data file `data` (a datapath mapped whole),
    its area and clock against the fast evaluator's composition
    (compose.explored_point) from the data file without that table and
    without the router (tcu_core's, outside tcu_datapath: mapped_router
    validates it): area_um2 and fmax_mhz tcu_datapath's. Rows as compare()'s, `whole` the
    table's index and `params` its parameters."""
    from tcu_tools import spec as tcu_spec
    from tcu_tools.phys import compose
    rows = []
    for i, whole in enumerate(data.get("whole", [])):
        params = {k: v for k, v in whole["params"].items() if k != "SynthImpl"}
        values = tcu_spec.load().resolve(dict(params))
        # its own table and the router (not in tcu_datapath) left out
        others = {**data, "whole": [w for j, w in enumerate(data["whole"]) if j != i],
                  "point": [p for p in data["point"] if p["unit"] != "tcu_operand_router"]}
        c = compose.explored_point(others, values)
        if c is None:
            raise UsageError(f"[[whole]] {i} {params}: the data file composes no datapath "
                             "there (no dot unit)")
        fast = {"area_um2": c["area_um2"], "fmax_mhz": c["fmax_mhz"]}
        full = {"area_um2": whole["area_um2"], "fmax_mhz": whole["fmax_mhz"]}
        for r in compare(i, {k: physical.significant(v, 7) for k, v in fast.items()}, full,
                         ["area_um2", "fmax_mhz"]):
            r["whole"], r["params"] = r.pop("point"), params
            rows.append(r)
    return rows


def mapped_router(data: dict) -> list[dict]:
    """The data file's router points of equal gather and scatter widths
    (tcu_operand_router mapped and timed), each held out in turn: the
    widest, and each point between two others but the second narrowest
    (its narrower neighbour, the single slot of 1/1, has no selection
    network and steps differently: compose.router_scaled). Each one's area
    and clock against the composition's rule from the others
    (compose.router_scaled: extrapolated for the widest, interpolated for
    the others), and where it was measured with energy and two others but
    the narrowest were (the narrowest, 1/1, has no selection network: a
    rule through it says nothing of the wider ones'), its busy and idle
    energy a cycle against the energy estimate's rule from those
    (compose.router_energy over the others). Rows as
    compare()'s, the widest's first, `whole` "router W/W" and `params` its
    widths; [] where the data file has fewer than three such points."""
    square = sorted((p for p in data["point"] if p["unit"] == "tcu_operand_router"
                     and p["params"].get("WordsPerCycle") == p["params"].get("DWordsPerCycle")),
                    key=lambda p: p["params"]["WordsPerCycle"])
    if len(square) < 3:
        return []
    return [r for held in [square[-1]] + square[2:-1]
            for r in _held_out_router(data, held, square[0])]


def _held_out_router(data: dict, held: dict, narrowest: dict) -> list[dict]:
    """mapped_router's rows of the router point `held`, the others its rule
    (of the energy, the others but `narrowest`)."""
    from tcu_tools.phys import compose
    words = held["params"]["WordsPerCycle"]
    others = [p for p in data["point"] if p is not held]
    router = compose.router_scaled(others, words, words)
    fast = {"router_area_um2": router["area_um2"], "fmax_mhz": router["fmax_mhz"]}
    full = {"router_area_um2": held["area_um2"], "fmax_mhz": held["fmax_mhz"]}
    figures = ["router_area_um2", "fmax_mhz"]
    with_energy = [p for p in others if p["unit"] == "tcu_operand_router"
                   and p.get("busy_pj_per_cycle") is not None and p is not narrowest]
    energy = (compose.router_energy(float(words), with_energy)
              if held.get("busy_pj_per_cycle") is not None and len(with_energy) >= 2 else None)
    if energy is not None:
        for figure, key in ROUTER_ENERGY.items():
            fast[figure], full[figure] = energy[key], held[key]
        figures += list(ROUTER_ENERGY)
    rows = compare(f"router {words}/{words}",
                   {k: physical.significant(v, 7) for k, v in fast.items()}, full, figures)
    for r in rows:
        r["whole"], r["params"] = r.pop("point"), {"WordsPerCycle": words,
                                                    "DWordsPerCycle": words}
    return rows


def _mapped_name(whole) -> str:
    """A row of mapped_datapaths or mapped_router by its `whole`."""
    return f"datapath [[whole]] {whole}" if isinstance(whole, int) else f"{whole} point"


def write_mapped(data: dict, out: Path) -> list[dict]:
    """mapped_datapaths into out/validation_mapped.csv; its rows."""
    rows = mapped_datapaths(data) + mapped_router(data)
    with open(out / "validation_mapped.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=MAPPED_COLUMNS)
        writer.writeheader()
        writer.writerows({c: (" ".join(f"{k}={v}" for k, v in r[c].items()) if c == "params"
                              else r.get(c, "")) for c in MAPPED_COLUMNS} for r in rows)
    return rows


def validation_gemms(tcu, workload, warps: int = 1) -> list[Gemm]:
    """One small GEMM per distinct variant of the workload: two output
    tiles a side and two k-steps, more tile rows where a k-step would have
    fewer instructions than `warps` (m8n8k4 .f16 computes four tiles an
    instruction)."""
    gemms = []
    for ptx in dict.fromkeys(g.ptx for g in workload.gemms):
        m, n, k = tcu.info(ptx)["shape"]
        rows = 2
        while tcu.gemm_estimate(ptx, rows * m, 2 * n, 2 * k)["slots"] < warps:
            rows *= 2
        gemms.append(Gemm(f"validation {ptx}", ptx, rows * m, 2 * n, 2 * k))
    return gemms


def full_rows(args, sweep: Sweep, gemm: Gemm, points, chosen, rtl, base, cache, out: Path):
    """The full flow's rows of the chosen points for one GEMM."""
    run_sweep = Sweep(dict(sweep.axes), dict(sweep.fixed),
                      RunWorkload("gemm", gemm.ptx, gemm.m, gemm.n, gemm.k, 0,
                                  args.seed if args.seed is not None else 1))
    fingerprint = rtl_fingerprint()
    verilator = tool_version(["verilator", "--version"])
    yosys = tool_version(["yosys", "-V"]) + " " + script_version()
    plan = plan_of(points, chosen, run_sweep, rtl, base, cache, args.no_synth, fingerprint,
                   verilator, yosys)
    jobs = args.jobs or os.cpu_count() or 1
    build_jobs = args.build_jobs or max(1, (os.cpu_count() or 1) // jobs)
    out.mkdir(parents=True, exist_ok=True)
    results = execute(plan, points, chosen, run_sweep, out, args, jobs, build_jobs)
    rows, _ = rows_of(plan, points, chosen, results)
    for r in rows:
        r.update(physical.router_estimate(r))
        r.update(physical.derive(r))
    return {int(r["point"]): r for r in rows}


def error_of(fast, full) -> float | None:
    fast, full = physical.number(fast), physical.number(full)
    if fast is None or full is None or full == 0:
        return None
    return (fast - full) / full


def compare(point: int, fast: dict, full: dict, figures: list[str]) -> list[dict]:
    out = []
    for figure in figures:
        err = error_of(fast.get(figure), full.get(figure))
        tol = TOLERANCES[figure]
        status = ("no figure" if err is None else
                  "ok" if abs(err) <= tol + 1e-12 else "over tolerance")
        out.append({"point": point, "figure": figure, "fast": fast.get(figure, ""),
                    "full": full.get(figure, ""), "error": "" if err is None else
                    f"{100 * err:+.3f}%", "tolerance": f"{100 * tol:g}%", "status": status})
    return out


def validate(args, sweep: Sweep, evaluator, points, rows, chosen, rtl, out: Path) -> tuple:
    """(exit status, the validation for report.html)."""
    base = Base.find(args.base if args.base is not None else os.environ.get("TCU_EXPLORE_BASE"))
    if base is None:
        raise UsageError("--validate runs the full flow, which needs a build with the RTL: run "
                         "it through that build's tcu explore, or give --base BUILD")
    cache = Path(args.cache).resolve() if args.cache else default_cache(base)
    if not update_base(base, out):
        return EXIT_FAIL, None
    gemms = validation_gemms(evaluator.tcu, evaluator.workload,
                             max(int(points[i].get("warps", 1)) for i in chosen))
    print(f"explore: validating {len(chosen)} point(s) with the full flow on "
          f"{len(gemms)} GEMM(s)", file=sys.stderr)
    fast = {i: {"cycles": 0, "energy_pj": 0.0} for i in chosen}
    full = {i: {"cycles": 0, "energy_pj": 0.0} for i in chosen}
    failed = {}
    by_point = {int(r["point"]): r for r in rows}
    for j, gemm in enumerate(gemms):
        got = full_rows(args, sweep, gemm, points, chosen, rtl, base, cache,
                        out / "validate" / f"gemm{j}")
        for i in chosen:
            e = evaluator.row_of_gemm(points[i], gemm)
            if isinstance(e, str):
                failed[i] = e
                continue
            row = got[i]
            if row.get("status") != "ok":
                failed[i] = f"full flow: {row.get('status')}"
                continue
            fast[i]["cycles"] += e["cycles"]
            fast[i]["energy_pj"] += e["energy_pj"]
            full[i]["cycles"] += int(row["cycles"])
            full[i]["energy_pj"] += physical.number(row.get("energy_pj")) or 0
            for figure in ("area_um2", "router_area_um2", "fmax_mhz"):
                fast[i][figure] = by_point[i].get(figure)
                full[i][figure] = row.get(figure)
    router_axis = any(p in sweep.axes for p in router_parameters())
    figures = ["cycles", "energy_pj"] + ([] if args.no_synth else ["area_um2", "fmax_mhz"] + (
        ["router_area_um2"] if router_axis else []))
    table = []
    for i in chosen:
        if i in failed:
            table.append({"point": i, "figure": "all", "status": f"failed: {failed[i]}"})
        else:
            table += compare(i, fast[i], full[i], figures)
    with open(out / "validation.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows({c: r.get(c, "") for c in COLUMNS} for r in table)
    print_table(table)
    axes_table = by_axis(table, points, sweep.axes)
    with open(out / "validation_axes.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=AXIS_COLUMNS)
        writer.writeheader()
        writer.writerows(axes_table)
    bad = sorted({r["point"] for r in table if r["status"] != "ok"})
    mapped = write_mapped(evaluator.data, out)
    bad_mapped = sorted({r["whole"] for r in mapped if r["status"] != "ok"}, key=str)
    wholes = {r["whole"] for r in mapped if isinstance(r["whole"], int)}
    routers = {r["whole"] for r in mapped} - wholes
    router_figures = list(dict.fromkeys(r["figure"] for r in mapped if r["whole"] in routers))
    summary = (f"{len(chosen)} point(s) validated ({', '.join(figures)}) on {len(gemms)} GEMM(s); "
               f"{len(wholes)} mapped datapath(s) ([[whole]]: area_um2, fmax_mhz)"
               + (f", {len(routers)} mapped router point(s) ({', '.join(router_figures)})"
                  if routers else "")
               + f"; tolerances {', '.join(f'{k} {100 * v:g}%' for k, v in TOLERANCES.items())}")
    if bad:
        print(f"explore: validation failed at point(s) {', '.join(map(str, bad))}: see "
              f"{out / 'validation.csv'}", file=sys.stderr)
        summary += f"; over tolerance or failed: point(s) {', '.join(map(str, bad))}"
    for i in bad_mapped:
        over = [r for r in mapped if r["whole"] == i and r["status"] != "ok"]
        print(f"explore: the composition is off at the mapped {_mapped_name(i)} "
              f"({' '.join(f'{k}={v}' for k, v in over[0]['params'].items())}): "
              + ", ".join(f"{r['figure']} fast {r['fast']}, mapped {r['full']}, {r['error']} "
                          f"(tolerance {r['tolerance']})" for r in over)
              + f": see {out / 'validation_mapped.csv'}", file=sys.stderr)
    if bad_mapped:
        summary += f"; over tolerance: mapped {', '.join(map(_mapped_name, bad_mapped))}"
    validation = {"rows": table, "columns": COLUMNS, "summary": summary,
                  "full": {i: full[i] for i in chosen if i not in failed}}
    return (EXIT_FAIL if bad or bad_mapped else EXIT_OK), validation


AXIS_COLUMNS = ["axis", "value", "figure", "points", "max_abs_error", "status"]


def by_axis(table: list[dict], points, axes) -> list[dict]:
    """Per axis value and figure: the validated points with that value and
    the largest absolute error among them (validation_axes.csv)."""
    out = []
    for name in axes:
        for value in axes[name]:
            with_value = {r["point"] for r in table if points[r["point"]][name] == value}
            for figure in TOLERANCES:
                errors = [abs(float(r["error"].rstrip("%"))) for r in table
                          if r["point"] in with_value and r.get("figure") == figure and r["error"]]
                if errors:
                    worst = max(errors)
                    out.append({"axis": name, "value": value, "figure": figure,
                                "points": len(errors), "max_abs_error": f"{worst:.3f}%",
                                "status": "ok" if worst <= 100 * TOLERANCES[figure] + 1e-9
                                else "over tolerance"})
    return out


def print_table(table: list[dict]) -> None:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in table)) for c in COLUMNS}
    print("  ".join(c.rjust(widths[c]) for c in COLUMNS))
    for r in table:
        print("  ".join(str(r.get(c, "")).rjust(widths[c]) for c in COLUMNS))
