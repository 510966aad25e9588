#!/usr/bin/env python3
"""Generates the C++ figures of the energy estimate from the data file.

  python -m tcu_tools.spec.gen_phys DATAFILE OUTDIR

writes OUTDIR/include/tcu/phys_figures.h (only when its text changes):
tcu::phys::kDotUnits, each dot unit type's figures at each stage count the
data file holds (spec/phys_osu018.toml [[point]]s of tcu_*_dot), with the
library's label; tcu::phys::kRouterPoints, the operand router's energies at
each width measured with energy; tcu::phys::kGlue, the energies of the
parts on the ungated clock (the skid, the control, the activity counters:
[[glue]] tables, tcu_tools.phys.glue), with each engine's D bits and the
counter sets (tcu_tools.phys.compose's D_BITS, ACTIVITY_COUNTERS);
tcu::phys::kEngineRegs, kEngineRegsToggles and kEngineGlue, the engines'
registers around their units and their logic busy ([[engine_regs]],
[[engine_regs_toggles]], [[engine_glue]]); tcu::phys::kConfigClocks, each named configuration's clock
and what sets it ([[datapath]], for `tcu timing`). model/src/energy.cpp reads them, so `tcu` needs no file at
run time; an engine whose unit has no point is not priced (its estimate
says so). A malformed data file exits 1 with the reason on stderr (the
configure step shows it).
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from tcu_tools.phys.compose import ACTIVITY_COUNTERS, D_BITS

# engine (tcu::ActivityEngine order) -> (unit, its stage parameter)
ENGINES = [("int4", "tcu_int4_dot", "Stages"), ("e2m1", "tcu_e2m1_dot", "Stages"),
           ("f16", "tcu_f16_dot", "FmaStages"), ("f64", "tcu_f64_dot", "FmaStages")]
# The parts on the ungated clock ([[glue]] tables), in kGlue's order.
GLUE = ("tcu_output_skid", "tcu_datapath_ctrl", "tcu_activity")
# The engine tops ([[engine_regs]] tables), by tcu::ActivityEngine index, and
# their stage parameter.
ENGINE_TOPS = {"tcu_int4_engine": (0, "Stages"), "tcu_e2m1_engine": (1, "Stages"),
               "tcu_f16_engine": (2, "FmaStages"), "tcu_f64_engine": (3, "FmaStages")}
POINT_KEYS = ("area_um2", "fmax_mhz", "busy_pj_per_cycle", "idle_pj_per_cycle", "leakage_uw",
              "issued_ops_per_cycle")


def cxx_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def header(data: dict, source: str) -> str:
    period = float(data["reference_period_ns"])
    rows, unit_clocks = [], []
    for index, (engine, unit, stage) in enumerate(ENGINES):
        points = [p for p in data.get("point", []) if p.get("unit") == unit]
        for p in points:
            if stage in p.get("params", {}) and "fmax_mhz" in p:
                unit_clocks.append(f"    {{{index}, {int(p['params'][stage])}, "
                              f"{float(p['fmax_mhz'])!r}}},")
            if "busy_pj_per_cycle" not in p and "no_energy" in p:
                continue  # mapped and timed, no energy: the engine is not priced
            missing = [k for k in POINT_KEYS if k not in p]
            if missing or stage not in p.get("params", {}):
                raise ValueError(f"{unit} {p.get('params')}: no {', '.join(missing or [stage])}")
            # leakage energy per cycle at the reference clock: uW x ns = fJ
            leak_pj = float(p["leakage_uw"]) * period * 1e-3
            rows.append(f"    {{{index}, {cxx_string(unit)}, {int(p['params'][stage])}, "
                        f"{int(p['issued_ops_per_cycle'])}, {float(p['area_um2'])!r}, "
                        f"{float(p['fmax_mhz'])!r}, {float(p['busy_pj_per_cycle'])!r}, "
                        f"{float(p['idle_pj_per_cycle'])!r}, {leak_pj!r}}},")
    routers = []
    for p in data.get("point", []):
        if p.get("unit") != "tcu_operand_router" or "busy_pj_per_cycle" not in p:
            continue
        params = p.get("params", {})
        if "WordsPerCycle" not in params or "DWordsPerCycle" not in params or \
                "idle_pj_per_cycle" not in p or "leakage_uw" not in p:
            raise ValueError(f"tcu_operand_router {params}: no WordsPerCycle, DWordsPerCycle, "
                             "idle_pj_per_cycle or leakage_uw")
        leak_pj = float(p["leakage_uw"]) * period * 1e-3
        routers.append(f"    {{{int(params['WordsPerCycle'])}, {int(params['DWordsPerCycle'])}, "
                       f"{float(p['busy_pj_per_cycle'])!r}, {float(p['idle_pj_per_cycle'])!r}, "
                       f"{leak_pj!r}}},")
    glue = {}
    for g in data.get("glue", []):  # the last table of a unit stands
        missing = [k for k in ("unit", "flip_flops", "idle_pj_per_cycle", "busy_pj_per_cycle",
                               "leakage_uw") if k not in g]
        if missing:
            raise ValueError(f"[[glue]] {g.get('unit')}: no {', '.join(missing)}")
        if g["unit"] not in GLUE:
            raise ValueError(f"[[glue]] {g['unit']}: not one of {', '.join(GLUE)}")
        leak_pj = float(g["leakage_uw"]) * period * 1e-3
        data_w = int(g.get("params", {}).get("DataW", 0))
        if g["unit"] == "tcu_output_skid" and not data_w:
            raise ValueError("[[glue]] tcu_output_skid: no params.DataW")
        glue[g["unit"]] = (f"    {{{cxx_string(g['unit'])}, {data_w}, {int(g['flip_flops'])}, "
                           f"{float(g['busy_pj_per_cycle'])!r}, {float(g['idle_pj_per_cycle'])!r}, "
                           f"{leak_pj!r}}},")
    glue_rows = [glue[u] for u in GLUE if u in glue]
    regs = []
    for t in data.get("engine_regs", []):
        if t.get("top") not in ENGINE_TOPS:
            raise ValueError(f"[[engine_regs]] {t.get('top')}: not one of "
                             f"{', '.join(ENGINE_TOPS)}")
        index, stage = ENGINE_TOPS[t["top"]]
        params = t.get("params", {})
        missing = [k for k in ("Units", stage) if k not in params] + \
            [k for k in ("flip_flops",) if k not in t]
        if missing:
            raise ValueError(f"[[engine_regs]] {t['top']} {params}: no {', '.join(missing)}")
        regs.append(f"    {{{index}, {int(params['Units'])}, {int(params[stage])}, "
                    f"{int(params.get('SparseEnable', -1))}, {int(t['flip_flops'])}, "
                    f"{float(t.get('idle_pj_per_flip_flop', -1.0))!r}, "
                    f"{float(t.get('dynamic_pj_per_issued_mac', -1.0))!r}}},")
    toggles = []
    names = [engine for engine, _, _ in ENGINES]
    for t in data.get("engine_regs_toggles", []):
        if t.get("engine") not in names:
            raise ValueError(f"[[engine_regs_toggles]] {t.get('engine')}: not one of "
                             f"{', '.join(names)}")
        missing = [k for k in ("toggles_per_issued_mac", "pj_per_toggle") if k not in t]
        if missing:
            raise ValueError(f"[[engine_regs_toggles]] {t['engine']}: no {', '.join(missing)}")
        toggles.append(f"    {{{names.index(t['engine'])}, {float(t['toggles_per_issued_mac'])!r}, "
                       f"{float(t['pj_per_toggle'])!r}}},")
    glue_logic = []
    for t in data.get("engine_glue", []):
        if t.get("engine") not in names:
            raise ValueError(f"[[engine_glue]] {t.get('engine')}: not one of {', '.join(names)}")
        if t.get("top") not in ENGINE_TOPS or ENGINE_TOPS[t["top"]][0] != names.index(t["engine"]):
            raise ValueError(f"[[engine_glue]] {t['engine']}: top '{t.get('top')}' is not "
                             "that engine's")
        stage = ENGINE_TOPS[t["top"]][1]
        params = t.get("params", {})
        missing = [k for k in ("Units", stage) if k not in params] + \
            [k for k in ("dynamic_pj_per_issued_mac", "source") if k not in t]
        if missing:
            raise ValueError(f"[[engine_glue]] {t['engine']}: no {', '.join(missing)}")
        glue_logic.append(f"    {{{names.index(t['engine'])}, {int(params['Units'])}, "
                          f"{int(params[stage])}, {int(params.get('SparseEnable', -1))}, "
                          f"{float(t['dynamic_pj_per_issued_mac'])!r}}},")
    d_bits = ", ".join(str(int(D_BITS[engine])) for engine, _, _ in ENGINES)
    clocks = []
    for d in data.get("datapath", []):
        if "fmax_mhz" not in d or "path_unit" not in d:
            raise ValueError(f"[[datapath]] {d.get('name')}: no fmax_mhz or path_unit")
        engines = ", ".join(
            f"{{{cxx_string(engine)}, {float(d.get(f'{engine}_fmax_mhz', 0.0))!r}, "
            f"{cxx_string(d.get(f'{engine}_clock_set_by', ''))}}}"
            for engine, _, _ in ENGINES)
        in_place = "true" if d.get("path_in_place") else "false"
        clocks.append(f"    {{{cxx_string(d['name'])}, {float(d['fmax_mhz'])!r}, "
                      f"{cxx_string(d['path_unit'])}, {in_place}, {{{engines}}}}},")
    return f"""// Generated by tcu_tools.spec.gen_phys from {source}: do not edit.
// The dot units' physical figures (tcu_tools.phys; docs/architecture.md,
// "Physical figures"), for the energy estimate of model/src/energy.cpp.
#pragma once

namespace tcu::phys {{

inline constexpr char kLibrary[] = {cxx_string(data["library"])};
inline constexpr char kDate[] = {cxx_string(str(data["date"]))};
// Energies are per cycle at this clock (leakage energy scales with it).
inline constexpr double kReferencePeriodNs = {period!r};

struct DotUnitFigures {{
  int engine;                   // tcu::ActivityEngine (-1: the end of the table)
  const char* unit;             // the RTL module
  int stages;                   // its pipeline registers (Stages or FmaStages)
  int issued_macs_per_cycle;    // MACs (products, FMAs) of one accepted slice
  double area_um2;
  double fmax_mhz;
  double busy_pj_per_cycle;     // a slice of random operands every cycle
  double idle_pj_per_cycle;     // clocked, no slice, operands held
  double leakage_pj_per_cycle;  // no activity at all (clock off)
}};

inline constexpr DotUnitFigures kDotUnits[] = {{
{chr(10).join(rows)}
    {{-1, "", 0, 1, 0.0, 0.0, 0.0, 0.0, 0.0}},  // the end (engine -1)
}};

// The operand router's energies at each width the data file measured them
// (tcu_operand_router [[point]]s with energy): busy, every gather slot
// valid every cycle (words_per_cycle words a cycle); idle, clocked without
// a word.
struct RouterFigures {{
  int words_per_cycle;          // 0: the end of the table
  int d_words_per_cycle;
  double busy_pj_per_cycle;
  double idle_pj_per_cycle;
  double leakage_pj_per_cycle;
}};

inline constexpr RouterFigures kRouterPoints[] = {{
{chr(10).join(routers)}
    {{0, 0, 0.0, 0.0, 0.0}},  // the end
}};

// The parts on the ungated clock ([[glue]] tables: tcu_output_skid,
// tcu_datapath_ctrl, tcu_activity in this order, those the file has):
// busy, random inputs every cycle; idle, inputs held (their clocked
// flip-flops, and the counters counting).
struct GlueFigures {{
  const char* unit;             // nullptr: the end of the table
  int data_w;                   // tcu_output_skid's DataW measured (else 0)
  int flip_flops;
  double busy_pj_per_cycle;
  double idle_pj_per_cycle;
  double leakage_pj_per_cycle;
}};

inline constexpr GlueFigures kGlue[] = {{
{chr(10).join(glue_rows)}
    {{nullptr, 0, 0, 0.0, 0.0, 0.0}},  // the end
}};

// The engines' registers around their units ([[engine_regs]] tables,
// tcu_tools.phys.engine_regs): the flip-flops on an engine's gated clock
// that are not a dot unit's, at each setting mapped, and where measured
// their energy: idle (clocked, nothing moving) per flip-flop a cycle, and
// the rest of a busy cycle per MAC issued (operand selection, the D
// buffer's writes, the pipes). Negative: not measured.
struct EngineRegsFigures {{
  int engine;                        // tcu::ActivityEngine (-1: the end of the table)
  int units;
  int stages;                        // Stages or FmaStages
  int sparse;                        // SparseEnable (int4; -1 for the other engines)
  int flip_flops;
  double idle_pj_per_flip_flop;
  double dynamic_pj_per_issued_mac;
}};

inline constexpr EngineRegsFigures kEngineRegs[] = {{
{chr(10).join(regs)}
    {{-1, 0, 0, -1, 0, -1.0, -1.0}},  // the end (engine -1)
}};

// The engines' registers' data toggles ([[engine_regs_toggles]] tables,
// tcu_tools.phys.engine_regs toggles and toggle-energy): per engine the
// register bits changing per MAC issued (from an RTL run's waveform) and a
// toggle's energy (a DFFPOSX1 and its D and Q nets, from the liberty at
// the mapped engine's loads).
struct EngineRegsToggles {{
  int engine;                        // tcu::ActivityEngine (-1: the end of the table)
  double toggles_per_issued_mac;
  double pj_per_toggle;
}};

inline constexpr EngineRegsToggles kEngineRegsToggles[] = {{
{chr(10).join(toggles)}
    {{-1, 0.0, 0.0}},  // the end (engine -1)
}};

// The engines' logic around their units, busy ([[engine_glue]] tables,
// tcu_tools.phys.engine_glue): the engine mapped around its units and
// simulated at gate level with them, its own cells charged; busy - idle
// per MAC issued (operand selection, D buffer writes, pipes, sequencer,
// the registers' data toggles among them), at the setting measured.
struct EngineGlueFigures {{
  int engine;                        // tcu::ActivityEngine (-1: the end of the table)
  int units;
  int stages;                        // Stages or FmaStages
  int sparse;                        // SparseEnable (int4; -1 for the other engines)
  double dynamic_pj_per_issued_mac;
}};

inline constexpr EngineGlueFigures kEngineGlue[] = {{
{chr(10).join(glue_logic)}
    {{-1, 0, 0, -1, 0.0}},  // the end (engine -1)
}};

// The D bits each engine hands the output skid (tcu::ActivityEngine order)
// and the activity counters of one engine's set (tcu_datapath counts the
// cycles with one more counter: a set per engine + 1 / kActivityCounters).
inline constexpr int kEngineDBits[] = {{{d_bits}}};
inline constexpr int kActivityCounters = {int(ACTIVITY_COUNTERS)};

// Every dot unit point's clock, energy measured or not (tcu timing's
// table of settings).
struct DotUnitClock {{
  int engine;       // tcu::ActivityEngine (-1: the end of the table)
  int stages;       // Stages or FmaStages
  double fmax_mhz;
}};

inline constexpr DotUnitClock kDotUnitClocks[] = {{
{chr(10).join(unit_clocks)}
    {{-1, 0, 0.0}},  // the end (engine -1)
}};

// A named configuration's clock as the data file composes it ([[datapath]]:
// each part as it sits in the design, in a register wrapper, where measured
// so), and what sets it; per engine (tcu::ActivityEngine order) its clock and what sets it
// (0.0 and "": the configuration has no such engine, or no figure of it).
struct EngineClock {{
  const char* engine;  // int4, e2m1, f16, f64
  double fmax_mhz;
  const char* set_by;
}};

struct ConfigClock {{
  const char* config;  // nullptr: the end of the table
  double fmax_mhz;
  const char* set_by;  // the part (unit, router, glue, engine top)
  bool in_place;       // that part timed in its register wrapper (else alone)
  EngineClock engines[{len(ENGINES)}];
}};

inline constexpr ConfigClock kConfigClocks[] = {{
{chr(10).join(clocks)}
    {{nullptr, 0.0, "", false, {{}}}},  // the end
}};

}}  // namespace tcu::phys
"""


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: gen_phys.py DATAFILE OUTDIR", file=sys.stderr)
        return 2
    datafile, outdir = Path(argv[1]), Path(argv[2])
    try:
        data = tomllib.loads(datafile.read_text())
        for key in ("library", "date", "reference_period_ns"):
            if key not in data:
                raise ValueError(f"no '{key}'")
        text = header(data, datafile.name)
    except (OSError, tomllib.TOMLDecodeError, ValueError, TypeError) as e:
        print(f"gen_phys.py: {datafile}: {e}", file=sys.stderr)
        return 1
    out = outdir / "include" / "tcu" / "phys_figures.h"
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != text:
        out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
