"""The fast evaluator (`--fidelity fast`): a point's figures without
Verilator or Yosys.

  cycles, MACs, energy   per GEMM of the workload, the C++ timing model's
                         estimate (tcu.gemm_estimate: model/include/tcu/
                         gemm_timing.h, the `tcu gemm --estimate` figures)
                         and the energy estimate of the activity it leaves
                         (tcu/energy.h), times the GEMM's count, summed
  area, clock            the characterized units composed by
                         tcu_tools.phys.compose.explored_point (the rule the full
                         flow's router estimate shares), `source` saying
                         composed or interpolated and `missing` the parts
                         without figures; a core none of whose dot units
                         has figures at its stage counts (FmaStages 19, say)
                         keeps its cycles and energy, `source` none
  tops, tops_per_mm2...  physical.derive, as for the full flow

The run parameters: the register file's (rf_bandwidth, rf_banks,
rf_read_ports, rf_write_ports) go into the timing model; warps take turns
issuing one k-step's instructions (tools/gemm.cpp issue_order), which
reorders them without changing an instruction's operand collection, so the
cycles do not depend on them (validated by --validate, which spans the
warps axis), and a GEMM with fewer instructions a k-step than warps cannot
run, as `tcu gemm` refuses it; back-pressure is not modeled and refused.

`tcu` is the pybind module of python/ (build/python): tcu explore finds it
through TCU_MODULE_DIR, which the tcu binary sets to its build's."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import time
from functools import lru_cache

from . import physical
from .params import UsageError
from .workload_file import Workload

# Where the fast evaluator's area and clock come from (the `source` column;
# "none": no dot unit of the core has figures, its cycles and energy alone).
SOURCES = ("measured", "composed", "interpolated", "none")


def tcu_module():
    """The Python module `tcu` of TCU_MODULE_DIR (a build's python/, which
    tcu explore names: its own build's), else the one installed."""
    directory = os.environ.get("TCU_MODULE_DIR")
    try:
        spec = importlib.machinery.PathFinder.find_spec("tcu", [directory]) if directory else None
        if spec is not None and "tcu" not in sys.modules:
            module = importlib.util.module_from_spec(spec)
            sys.modules["tcu"] = module
            spec.loader.exec_module(module)
        import tcu
    except ImportError as error:
        raise UsageError(f"the fast evaluator needs the tcu Python module ({error}); build it "
                         "(cmake -DTCU_BUILD_PYTHON=ON, target tcu_python) and run tcu explore "
                         "from that build, or set TCU_MODULE_DIR to its build/python") from None
    if not hasattr(tcu, "gemm_estimate"):
        raise UsageError(f"{tcu.__file__}: a tcu module without gemm_estimate; rebuild it")
    return tcu


class Evaluator:
    """Evaluates points over one workload; caches the GEMM estimates and
    compositions that points share."""

    def __init__(self, workload: Workload, rtl_names: list[str], data: dict):
        self.tcu = tcu_module()
        self.workload = workload
        self.rtl_names = rtl_names
        self.data = data
        self.estimate = lru_cache(maxsize=1 << 16)(self._estimate)
        self.compose = lru_cache(maxsize=1 << 14)(self._compose)

    def _estimate(self, ptx, m, n, k, rtl: tuple, front_end: tuple):
        try:
            return self.tcu.gemm_estimate(ptx, m, n, k, params=dict(rtl),
                                          rf_bandwidth=front_end[0], rf_banks=front_end[1],
                                          rf_read_ports=front_end[2], rf_write_ports=front_end[3])
        except ValueError as error:
            return str(error)

    def _compose(self, rtl: tuple):
        from tcu_tools.phys import compose
        return compose.explored_point(self.data, dict(rtl))

    def keys(self, point: dict) -> tuple[tuple, tuple]:
        rtl = tuple((name, int(point[name])) for name in self.rtl_names)
        front_end = (int(point["rf_bandwidth"]), int(point["rf_banks"]),
                     int(point["rf_read_ports"]), int(point["rf_write_ports"]))
        return rtl, front_end

    def row_of_gemm(self, point: dict, g) -> dict | str:
        """One GEMM's estimate at a point (or why it cannot run)."""
        return self.estimate(g.ptx, g.m, g.n, g.k, *self.keys(point))

    def row(self, point: dict) -> dict:
        rtl, front_end = self.keys(point)
        if float(point.get("backpressure", 0)):
            raise UsageError("the fast evaluator leaves back-pressure out: give backpressure "
                             "= 0 or --fidelity full")
        row: dict = {}
        cycles = issued = instructions = 0
        energy = 0.0
        peak_cycles = 0.0  # cycles the GEMMs would take at their engines' peaks
        warps = int(point.get("warps", 1))
        for g in self.workload.gemms:
            e = self.estimate(g.ptx, g.m, g.n, g.k, rtl, front_end)
            if isinstance(e, str):
                return {"status": f"cannot run {g.name}: {e}"}
            if e["slots"] < warps:
                return {"status": f"cannot run {g.name}: {warps} warps, more than its "
                                  f"{e['slots']} instruction(s) a k-step (tcu gemm --warps)"}
            cycles += e["cycles"] * g.count
            issued += e["issued_macs"] * g.count
            instructions += e["instructions"] * g.count
            energy += e["energy_pj"] * g.count
            peak_cycles += g.m * g.n * g.k * g.count / e["peak_dense_macs_per_cycle"]
        macs = self.workload.macs
        row.update(instructions=instructions, macs=macs, issued_macs=issued, cycles=cycles,
                   macs_per_cycle=round(macs / cycles, 3),
                   mac_utilization=round(peak_cycles / cycles, 4),
                   energy_pj=physical.significant(energy, 6),
                   energy_pj_per_mac=physical.significant(energy / macs, 6))
        c = self.compose(rtl)
        if c is None:  # cycles and energy stand; area and clock are not known
            row.update(source="none", status="ok",
                       missing="every dot unit of the core at its stage count (the data file "
                               "has none of them): no area, clock or throughput")
            return row
        row.update(library=self.data["library"], energy_library=self.data["library"],
                   area_um2=physical.significant(c["area_um2"] - c["router_area_um2"], 6),
                   router_area_um2=physical.significant(c["router_area_um2"], 6),
                   router_area_source=c["router_scaled"] or "measured (spec/phys_osu018.toml)",
                   fmax_mhz=physical.significant(c["fmax_mhz"], 6), path_unit=c["path_unit"],
                   source=c["source"], missing="; ".join(c["missing"]))
        row.update(physical.derive(row))
        row["runtime_ms"] = physical.significant(cycles / (c["fmax_mhz"] * 1e3), 6)
        row["status"] = "ok"
        return row


class Rate:
    """Progress on stderr: points done and points a second."""

    def __init__(self, total: int, every: float = 1.0):
        self.total, self.every = total, every
        self.start = self.last = time.monotonic()

    def step(self, done: int, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= self.every:
            self.last = now
            rate = done / max(now - self.start, 1e-9)
            print(f"[{done}/{self.total} {now - self.start:6.1f} s] {rate:,.0f} points/s",
                  file=sys.stderr, flush=True)


def evaluate(points: list[dict], selected: list[int], evaluator: Evaluator,
             progress: bool = True) -> list[dict]:
    rate = Rate(len(selected))
    rows = []
    for done, i in enumerate(selected, 1):
        row = {"point": i}
        row.update(points[i])
        row.update(evaluator.row(points[i]))
        rows.append(row)
        if progress:
            rate.step(done, done == len(selected))
    return rows
