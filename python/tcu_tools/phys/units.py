"""The unit types whose physical figures are reported, and where they live."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tcu_tools import source_dir
from tcu_tools import spec as tcu_spec



def __getattr__(name: str) -> Path:
    """REPO, the checkout the figures are measured from (the working
    directory's: tcu_tools.source_dir()), and RTL, its rtl/: looked up when
    first used, so that reading the data file needs no checkout."""
    if name == "REPO":
        return source_dir()
    if name == "RTL":
        return source_dir() / "rtl"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


SPEC = tcu_spec.load()


@dataclass(frozen=True)
class UnitType:
    name: str           # the RTL module (rtl/<name>.sv)
    family: str         # the engine it belongs to
    params: dict = field(default_factory=dict)  # the parameters it is mapped at
    ops_per_valid: int = 0    # MACs (or FMAs) one accepted operation does
    op_name: str = "MAC"
    stimulus: str = "bits"    # tcu_tools.phys.stimulus generator; "" = area and clock only
    configs: tuple = ("default",)  # the named configurations (spec/config.toml) it is of


def _dot(engine: str, config: str = "default") -> UnitType:
    """A dot unit of the spec's unit table ([[unit]]: its module, lanes and
    work) at a named configuration's pipeline depth."""
    unit = SPEC.unit(engine)
    stages = SPEC.config_values(config)[unit.stages]
    return UnitType(unit.module, unit.name, {unit.stages_param: stages}, unit.lanes, unit.work,
                    unit.name, (config,))


# The user's named configurations a point can be of (the others of
# spec/config.toml are the tests' and flows').
PRESETS = ("default", "small", "a100", "deep")


def configs_of(unit: UnitType, params: dict) -> tuple:
    """The presets a unit mapped at `params` is of: for a dot unit, those
    whose pipeline depth is its stage parameter's value; for another unit,
    its own list where `params` are its defaults (SynthImpl aside), else
    none. The data file's `configs` of every point (datafile.write)."""
    dot = next((u for u in SPEC.units if u.module == unit.name), None)
    if dot is None:
        given = {k: v for k, v in params.items() if k != "SynthImpl"}
        return unit.configs if given == unit.params else ()
    depth = params.get(dot.stages_param)
    return tuple(c for c in PRESETS if SPEC.config_values(c)[dot.stages] == depth)


# One entry per unit type of the datapath, at the default configuration's
# pipeline depths (spec/config.toml [[config]] default): one D element (or
# one 32-wide int4 dot) per accepted cycle.
UNIT_TYPES = {
    u.name: u
    for u in [
        _dot("int4"),
        _dot("e2m1"),
        _dot("f16"),
        _dot("f64"),
        UnitType("tcu_sparse_mux", "int4", {}, 0, "selection", "sparse",
                 ("default", "small")),
        # One f64 FMA (Format 1 = tcu_pkg::FP64), a quarter of tcu_f64_dot's
        # chain without the registers that carry the later steps' operands.
        UnitType("tcu_fma", "f64", {"Format": 1, "Stages": 2}, 1, "FMA", "f64", ()),
        # The output skid register (tcu_datapath's), the control and one
        # engine's activity counters (tcu_datapath has one per enabled
        # engine): on the ungated clock. Energy with random inputs every
        # cycle (busy) and held (idle: their clocked flip-flops alone).
        UnitType("tcu_output_skid", "control", {}, 0, "", "bits", ("default", "small")),
        UnitType("tcu_datapath_ctrl", "control", {}, 0, "", "bits", ("default", "small")),
        UnitType("tcu_activity", "control", {}, 0, "", "bits", ("default", "small")),
        # Its energy (stimulus "router", tcu_tools.phys.stimulus) at 1, 4 and
        # 8 words a cycle; per cycle busy and idle (most of it the clock of
        # its flip-flops: see tcu_tools.phys.sta.ideal_clock_slews).
        UnitType("tcu_operand_router", "router",
                 {"WordsPerCycle": 64, "DWordsPerCycle": 64, "GatherBypass": 1}, 0, "word",
                 "router"),
        # The router's write-back alone (the D buffer, the beat counter and
        # the scatter's word selection, tcu_router_writeback): what the
        # scatter costs at a width, which the router's points (gather and
        # scatter together) do not separate. Area and clock only.
        UnitType("tcu_router_writeback", "router", {"DWordsPerCycle": 64}, 0, "word", ""),
    ]
}

# Every point of the data file (spec/phys_osu018.toml): each unit type at the
# default configuration's parameters, and again where the small
# configuration's differ (the dot units' depths; DWordsPerCycle 32).
# tcu_datapath_ctrl's parameters come from the datapath
# (its defaults are the default configuration's).
def _at(name: str, params: dict, configs: tuple) -> UnitType:
    u = UNIT_TYPES[name]
    return UnitType(u.name, u.family, {**u.params, **params}, u.ops_per_valid, u.op_name,
                    u.stimulus, configs)


POINTS = [
    UNIT_TYPES["tcu_int4_dot"], _dot("int4", "small"),
    UNIT_TYPES["tcu_e2m1_dot"], _dot("e2m1", "small"),
    UNIT_TYPES["tcu_f16_dot"], _dot("f16", "small"),
    UNIT_TYPES["tcu_f64_dot"], _dot("f64", "small"),
    UNIT_TYPES["tcu_sparse_mux"],
    UNIT_TYPES["tcu_datapath_ctrl"],
    UNIT_TYPES["tcu_output_skid"],
    # The router at the configurations' widths did not finish mapping (Yosys's
    # generic passes ran over 40 minutes at 64 words); measured here at 1, 4
    # and 8 words a cycle with its energy, at 2 and 16 apart without (--unit
    # tcu_operand_router --params ... --no-energy, merged by --from-json), and
    # scaled (tcu_tools.phys.compose.router_scaled).
    _at("tcu_operand_router", {"WordsPerCycle": 1, "DWordsPerCycle": 1}, ()),
    _at("tcu_operand_router", {"WordsPerCycle": 4, "DWordsPerCycle": 4}, ()),
    _at("tcu_operand_router", {"WordsPerCycle": 8, "DWordsPerCycle": 8}, ()),
    UNIT_TYPES["tcu_activity"],
    # The write-back alone (the scatter's share of the router) at 1 to 16 D
    # words a cycle, area and clock only (--unit tcu_router_writeback
    # --params "DWordsPerCycle=N" --no-energy --json J.json, one width a
    # run, merged by --from-json).
    *[_at("tcu_router_writeback", {"DWordsPerCycle": n}, ())
      for n in (1, 2, 3, 4, 5, 6, 8, 12, 16)],
]


def sources_of(top: str, rtl: Path | None = None) -> list[Path]:
    """rtl/tcu_pkg.sv, the top and every rtl/tcu_*.sv it names, transitively
    (as scripts/synth.sh resolves them); `rtl`: another copy of rtl/."""
    rtl = source_dir() / "rtl" if rtl is None else rtl
    seen: list[str] = []
    todo = [top]
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.append(name)
        text = (rtl / f"{name}.sv").read_text()
        for word in sorted(set(re.findall(r"\btcu_[a-z0-9_]+\b", text))):
            if word != "tcu_pkg" and (rtl / f"{word}.sv").is_file() and \
                    "\n// Simulation flow only:" not in (rtl / f"{word}.sv").read_text():
                todo.append(word)  # not the fast implementations (SynthImpl = 0)
    return [rtl / "tcu_pkg.sv"] + [rtl / f"{n}.sv" for n in seen]


def inputs_of(top: str, rtl: Path | None = None) -> list[Path]:
    """What the top's design is read from: its sources (sources_of) and the
    files they `include (rtl/*.svh, beside them), each once."""
    out: list[Path] = []
    for f in sources_of(top, rtl):
        out.append(f)
        for name in re.findall(r'^\s*`include\s+"([^"]+)"', f.read_text(), re.M):
            if f.parent / name not in out:
                out.append(f.parent / name)
    return out


def synthesis_params(top: str, params: dict, rtl: Path | None = None) -> dict:
    """The parameters to map a unit at: the synthesis implementations
    (SynthImpl = 1) wherever the unit or one below it chooses by SynthImpl
    (`rtl`: the rtl/ it is read from, default the checkout's)."""
    rtl = source_dir() / "rtl" if rtl is None else rtl
    out = dict(params)
    if "SynthImpl" not in out and "SynthImpl" in (rtl / f"{top}.sv").read_text():
        out["SynthImpl"] = 1
    return out
