"""A point's run: the workload through its `tcu` (RTL engine, D checked) and
the figures of the run's JSON report. MAC counts come from the report
(`macs`: issued and dense-equivalent, stated once in model/: tcu::issued_macs
and Instr::macs), energy from its `energy` block where it has one."""
from __future__ import annotations

import json
import time
from pathlib import Path

from .build import Build
from .cache import run_logged
from .params import RUN_OPTIONS
from .sweep import Workload


class ReportError(Exception):
    """A report that lacks a figure explore needs."""


def flatten(prefix: str, value, out: dict) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}_{k}" if prefix else k, v, out)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out[prefix] = value


def command_line(point: dict, build: Build, workload: Workload, report: Path) -> list[str]:
    common = ["--engine", "rtl", "--config", build.config, "--seed", str(workload.seed),
              "--backpressure", repr(float(point["backpressure"])), "--report", str(report)]
    for name, option in RUN_OPTIONS.items():
        common += [option, str(point[name])]
    if workload.kind == "gemm":
        return [str(build.tcu), "gemm", "--ptx", workload.ptx, "--m", str(workload.m),
                "--n", str(workload.n), "--k", str(workload.k), "--warps",
                str(point["warps"])] + common
    return [str(build.tcu), "run", "--mix", "--count", str(workload.count), "--jobs", "1"] + common


def report_macs(data: dict, where: str) -> tuple[int, int]:
    """(dense-equivalent, issued) MACs of a run's report: its `macs` block,
    which `tcu run`/`tcu gemm` compute from the model's counts."""
    macs = data.get("macs")
    if not isinstance(macs, dict) or not all(isinstance(macs.get(k), int)
                                             for k in ("dense", "issued")):
        raise ReportError(f"{where}: no \"macs\": {{\"dense\", \"issued\"}} in the report "
                          "(a tcu built before the reports carried MAC counts? rebuild it)")
    return macs["dense"], macs["issued"]


def report_energy(data: dict, dense_macs: int) -> dict[str, object]:
    """energy_pj, energy_pj_per_mac (per dense-equivalent MAC, the MAC that
    `macs` and `tops` count) of the report's `energy` block, if any."""
    energy = data.get("energy", data.get("gemm", {}).get("energy"))
    if not isinstance(energy, dict):
        return {}
    figures: dict[str, object] = {}
    pj = energy.get("pj")
    if isinstance(pj, (int, float)) and not isinstance(pj, bool):
        figures["energy_pj"] = pj
        if dense_macs:
            figures["energy_pj_per_mac"] = pj / dense_macs
    if energy.get("library"):
        figures["energy_library"] = energy["library"]
    return figures


def report_figures(data: dict, kind: str, where: str) -> dict[str, object]:
    """The row's figures of a report: instructions, MACs, cycles, MACs per
    cycle and utilization, energy, and the activity counters (act_*)."""
    dense, issued = report_macs(data, where)
    variants = data.get("variants", [])
    figures: dict[str, object] = {
        "instructions": sum(v.get("instructions", v["passed"] + v["failed"]) for v in variants),
        "macs": dense, "issued_macs": issued}
    if kind == "gemm":
        gemm = data["gemm"]
        figures.update(cycles=gemm.get("cycles", 0),
                       peak_macs_per_cycle=gemm["peak_macs_per_cycle"])
    else:
        figures["cycles"] = sum(v["cycles"] for v in variants)
    if figures.get("cycles"):
        figures["macs_per_cycle"] = round(figures["macs"] / figures["cycles"], 3)
        if figures.get("peak_macs_per_cycle"):
            figures["mac_utilization"] = round(
                figures["macs_per_cycle"] / figures["peak_macs_per_cycle"], 4)
    figures.update(report_energy(data, dense))
    activity: dict[str, object] = {}
    flatten("", data.get("activity", data.get("gemm", {}).get("activity", {})), activity)
    figures.update({f"act_{k}": v for k, v in activity.items()})
    return figures


def run_point(point: dict, build: Build, workload: Workload, directory: Path) -> dict:
    """Runs the workload on the point's model; the figures for its row."""
    directory.mkdir(parents=True, exist_ok=True)
    report = directory / "report.json"
    log = directory / "run.log"
    log.write_text("")
    start = time.monotonic()
    status = run_logged(command_line(point, build, workload, report), log)
    figures: dict[str, object] = {"run_s": round(time.monotonic() - start, 2)}
    if not report.exists():
        figures["status"] = f"run failed, exit {status} (see {log})"
        return figures
    try:
        data = json.loads(report.read_text())
        figures.update(report_figures(data, workload.kind, str(report)))
    except json.JSONDecodeError as error:
        figures["status"] = f"{report}: not JSON ({error})"
        return figures
    except (ReportError, KeyError, TypeError) as error:
        figures["status"] = f"{report}: unreadable report: {error}"
        return figures
    if status != 0 or data.get("failed", 0) or data.get("engine_errors", 0):
        figures["status"] = f"run failed, exit {status} (see {log})"
    return figures
