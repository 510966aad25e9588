"""Whole-datapath figures of a named configuration, composed from the
points (unit figures) of the data file: the default datapath has 116 dot
units (32 int4, 16 e2m1, 64 f16, 4 f64), far too many to map in reasonable
time, so its area is

  units x unit area, per engine (the int4 engine: a tcu_sparse_mux per unit)
  + the operand router (tcu_core's; mapped at the configuration's words)
  + glue: the datapath's control (tcu_datapath_ctrl at its defaults)

which leaves out the engines' own registers (operand and D buffers, slice
sequencers, int4 accumulators) and the output skid: a lower bound. Its clock
is the slowest part's; its energy per engine the units' (the estimate of
model/src/energy.cpp)."""
from __future__ import annotations

import sys

from .units import REPO

sys.path.insert(0, str(REPO / "spec"))
import tcu_spec  # noqa: E402

# engine -> (unit, MACs per unit, the unit's stage parameter, the datapath's,
#            the configuration's MACs-per-cycle and enable parameters)
ENGINES = {
    "int4": ("tcu_int4_dot", 32, "Stages", "IntStages", "Int4MacsPerCycle", "Int4Enable"),
    "e2m1": ("tcu_e2m1_dot", 64, "Stages", "E2m1Stages", "E2m1MacsPerCycle", "E2m1Enable"),
    "f16": ("tcu_f16_dot", 4, "FmaStages", "FmaStages", "F16FmasPerCycle", "F16Enable"),
    "f64": ("tcu_f64_dot", 4, "FmaStages", "FmaStages", "F64FmasPerCycle", "F64Enable"),
}
ROUTER_PARAMS = ("WordsPerCycle", "DWordsPerCycle", "GatherBypass")
METHOD = ("composed: units x unit figures per engine (+ a tcu_sparse_mux per int4 unit "
          "with SparseEnable) + tcu_operand_router + tcu_datapath_ctrl; leaves out the "
          "engines' operand and D registers, slice sequencers, int4 accumulators and the "
          "output skid (a lower bound on area)")


def _find(points: list[dict], unit: str, params: dict) -> dict | None:
    for p in points:
        if p["unit"] == unit and all(p["params"].get(k) == v for k, v in params.items()):
            return p
    return None


def datapath(points: list[dict], name: str, values: dict) -> dict | None:
    """The composed figures of configuration `name` (resolved parameter
    `values`); a part without a point is left out and named in `missing`.
    None if no dot unit of it has a point."""
    parts = []  # (label, count, point)
    engines = {}
    missing = []
    for engine, (unit, macs, stage, dp_stage, rate, enable) in ENGINES.items():
        count = values[rate] // macs if values[enable] else 0
        if count == 0:
            continue
        p = _find(points, unit, {stage: values[dp_stage]})
        if p is None:
            missing.append(f"{count} x {unit} {stage}={values[dp_stage]}")
            continue
        parts.append((unit, count, p))
        engines[engine] = {"units": count, "unit": unit, "stages": values[dp_stage],
                           "pj_per_mac": p.get("pj_per_op"),
                           "idle_pj_per_cycle": count * p.get("idle_pj_per_cycle", 0.0),
                           "area_um2": count * p["area_um2"]}
        if engine == "int4" and values["SparseEnable"]:
            mux = _find(points, "tcu_sparse_mux", {})
            if mux is None:
                missing.append(f"{count} x tcu_sparse_mux")
            else:
                parts.append(("tcu_sparse_mux", count, mux))
    if not engines:
        return None
    router_params = {k: values[k] for k in ROUTER_PARAMS}
    router = _find(points, "tcu_operand_router", router_params)
    if router is None:
        missing.append("tcu_operand_router " + " ".join(f"{k}={int(v)}"
                                                        for k, v in router_params.items()))
    else:
        parts.append(("tcu_operand_router", 1, router))
    ctrl = _find(points, "tcu_datapath_ctrl", {})
    if ctrl is None:
        missing.append("tcu_datapath_ctrl")
    else:
        parts.append(("tcu_datapath_ctrl", 1, ctrl))
    slowest = max(parts, key=lambda part: part[2]["critical_path_ns"])[2]
    units_area = sum(n * p["area_um2"] for u, n, p in parts if u.endswith(("_dot", "_mux")))
    out = {
        "name": name,
        "method": METHOD,
        "area_um2": sum(n * p["area_um2"] for _, n, p in parts),
        "flip_flop_area_um2": sum(n * p["flip_flop_area_um2"] for _, n, p in parts),
        "dot_units_area_um2": units_area,
        "router_area_um2": router["area_um2"] if router else None,
        "control_area_um2": ctrl["area_um2"] if ctrl else None,
        "critical_path_ns": slowest["critical_path_ns"],
        "fmax_mhz": slowest["fmax_mhz"],
        "path_unit": slowest["unit"],
        "path_start": slowest["startpoint"],
        "path_end": slowest["endpoint"],
        "idle_pj_per_cycle": sum(e["idle_pj_per_cycle"] for e in engines.values()),
        # parts without a point (not measured): left out of every figure above
        "missing": missing,
    }
    for engine, e in engines.items():
        out[f"{engine}_units"] = e["units"]
        out[f"{engine}_pj_per_mac"] = e["pj_per_mac"]
        out[f"{engine}_area_um2"] = e["area_um2"]
    return out


def datapaths(points: list[dict]) -> list[dict]:
    spec = tcu_spec.load()
    out = []
    for name, given in spec.configs.items():
        d = datapath(points, name, spec.resolve(given))
        if d is not None:
            out.append(d)
    return out
