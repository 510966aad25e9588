"""The unit types whose physical figures are reported, and where they live."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RTL = REPO / "rtl"


@dataclass(frozen=True)
class UnitType:
    name: str           # the RTL module (rtl/<name>.sv)
    family: str         # the engine it belongs to
    params: dict = field(default_factory=dict)  # the parameters it is mapped at
    ops_per_valid: int = 0    # MACs (or FMAs) one accepted operation does
    op_name: str = "MAC"
    stimulus: str = "bits"    # tcu_phys.stimulus generator


# One entry per unit type of the datapath, at the default configuration's
# pipeline depths (rtl/CMakeLists.txt TCU_CONFIG_default): one D element (or
# one 32-wide int4 dot) per accepted cycle.
UNIT_TYPES = {
    u.name: u
    for u in [
        UnitType("tcu_int4_dot", "int4", {"Stages": 2}, 32, "MAC", "int4"),
        UnitType("tcu_e2m1_dot", "e2m1", {"Stages": 2}, 64, "MAC", "e2m1"),
        UnitType("tcu_f16_dot", "f16", {"FmaStages": 2}, 4, "FMA", "f16"),
        UnitType("tcu_f64_dot", "f64", {"FmaStages": 2}, 4, "FMA", "f64"),
        UnitType("tcu_sparse_mux", "int4", {}, 0, "selection", "sparse"),
    ]
}


def sources_of(top: str) -> list[Path]:
    """rtl/tcu_pkg.sv, the top and every rtl/tcu_*.sv it names, transitively
    (as scripts/synth.sh resolves them)."""
    seen: list[str] = []
    todo = [top]
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.append(name)
        text = (RTL / f"{name}.sv").read_text()
        for word in sorted(set(re.findall(r"\btcu_[a-z0-9_]+\b", text))):
            if word != "tcu_pkg" and (RTL / f"{word}.sv").is_file() and \
                    "\n// Simulation flow only:" not in (RTL / f"{word}.sv").read_text():
                todo.append(word)  # not the fast implementations (SynthImpl = 0)
    return [RTL / "tcu_pkg.sv"] + [RTL / f"{n}.sv" for n in seen]


def synthesis_params(top: str, params: dict) -> dict:
    """The parameters to map a unit at: the synthesis implementations
    (SynthImpl = 1) wherever the unit or one below it chooses by SynthImpl."""
    out = dict(params)
    if "SynthImpl" not in out and "SynthImpl" in (RTL / f"{top}.sv").read_text():
        out["SynthImpl"] = 1
    return out
