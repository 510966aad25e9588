"""The parameters a sweep may name: the RTL's (spec/config.toml) and the
run's (tcu options, no rebuild), their types, ranges and conversion."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from tcu_tools import data_file, source_dir
from tcu_tools import spec as tcu_spec

# The source of the base build (Base.find sets it), if there is one.
_BASE_SOURCE: list[Path] = []


def checkout() -> Path:
    """The checkout whose RTL the full flow builds and synthesizes, and that
    the characterization's stamps are checked against: the base build's
    source (its tcu-explore-base.cmake names it), else the checkout holding
    the working directory (tcu_tools.source_dir(); RuntimeError outside
    one)."""
    return _BASE_SOURCE[0] if _BASE_SOURCE else source_dir()


def use_base_source(path: Path) -> None:
    _BASE_SOURCE[:] = [path]


def characterization() -> tuple[Path, Path | None]:
    """The characterization (spec/phys_osu018.toml) and the checkout whose
    RTL it is checked against: the checkout's own; outside a checkout (and
    without a base build) the package's copy, and None."""
    try:
        root = checkout()
    except RuntimeError:
        return data_file("phys_osu018.toml"), None
    return root / "spec" / "phys_osu018.toml", root

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

# Parameters of the run, not of the RTL: changing them needs no rebuild and
# no synthesis.
RUN_PARAMETERS = {
    "rf_bandwidth": (int, "32-bit lane registers the front-end reads or writes per cycle "
                     "(default: the point's WordsPerCycle; at most that)"),
    "rf_banks": (int, "register-file banks (register i of an instruction in bank i % banks)"),
    "rf_read_ports": (int, "register reads per bank per cycle, 32 lanes each"),
    "rf_write_ports": (int, "register writes per bank per cycle, 32 lanes each"),
    "warps": (int, "warps sharing the unit (gemm workloads)"),
    "backpressure": (float, "probability that out_ready is low in a cycle"),
}
# The register file's defaults and ranges are the spec's ([[frontend]];
# rf_bandwidth is tcu::FrontEndConfig's rf_regs_per_cycle, 0 by default:
# the point's WordsPerCycle).
try:
    _SPEC = tcu_spec.load()
except tcu_spec.SpecError as _error:
    raise SystemExit(f"explore: {_error}") from None
_FRONT_END = {"rf_bandwidth" if f.name == "rf_regs_per_cycle" else f.name: f
              for f in _SPEC.frontend}
RUN_DEFAULTS = {**{name: 0 if name == "rf_bandwidth" else f.default
                   for name, f in _FRONT_END.items()},
                "warps": 1, "backpressure": 0.0}
# Integer run parameters: their range, and the tcu option that takes them.
RUN_RANGES = {**{name: (f.min, f.max) for name, f in _FRONT_END.items()}, "warps": (1, None)}
RUN_OPTIONS = {"rf_bandwidth": "--rf-bandwidth", "rf_banks": "--rf-banks",
               "rf_read_ports": "--rf-read-ports", "rf_write_ports": "--rf-write-ports"}


class UsageError(Exception):
    """A bad sweep or command line: exit 2 with the message."""


@lru_cache(maxsize=1)
def config_spec() -> tcu_spec.Spec:
    try:
        return tcu_spec.load()
    except tcu_spec.SpecError as error:
        raise SystemExit(f"explore: {error}") from None


def rtl_parameters() -> dict[str, int]:
    """The explored RTL parameters (spec/config.toml) with their defaults
    (SynthImpl, which picks implementations, is no axis: synth.sh sets it)."""
    return {p.name: p.default for p in config_spec().parameters if p.axis}


def router_parameters() -> list[str]:
    """The operand router's parameters (the rest are the datapath's)."""
    return [p.name for p in config_spec().parameters
            if p.axis and "tcu_operand_router" in p.modules]


def check_point_rules(index: int, point: dict[str, object]) -> None:
    """UsageError if the point's RTL parameters break a rule of the spec."""
    spec = config_spec()
    values = spec.defaults()
    values.update({name: int(point[name]) for name in values if name in point})
    if why := spec.error(values):
        raise UsageError(f"point {index}: {why}")


def convert(name: str, value, where: str, rtl: dict[str, int]):
    """A parameter value of the right type, or UsageError naming `where`."""
    if name in rtl:
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, str) and re.fullmatch(r"[0-9]+", value.strip()):
            value = int(value)
        if not isinstance(value, int) or value < 0:
            raise UsageError(f"{where}: {name} must be a non-negative integer, not {value!r}")
        return value
    kind = RUN_PARAMETERS[name][0]
    try:
        converted = kind(value)
    except (TypeError, ValueError):
        raise UsageError(f"{where}: {name} must be {'an integer' if kind is int else 'a number'}, "
                         f"not {value!r}") from None
    if isinstance(value, float) and kind is int and value != converted:
        raise UsageError(f"{where}: {name} must be an integer, not {value!r}")
    if name == "backpressure" and not 0 <= converted < 1:
        raise UsageError(f"{where}: backpressure must be in [0, 1), not {value!r}")
    if name in RUN_RANGES:
        low, high = RUN_RANGES[name]
        if converted < low:
            raise UsageError(f"{where}: {name} must be at least {low}, not {value!r}")
        if high is not None and converted > high:
            raise UsageError(f"{where}: {name} must be at most {high}, not {value!r}")
    return converted


def check_name(name: str, where: str, rtl: dict[str, int]) -> None:
    if name not in rtl and name not in RUN_PARAMETERS:
        raise UsageError(f"{where}: unknown parameter '{name}' (RTL parameters of "
                         f"spec/config.toml: {', '.join(rtl)}; run parameters: "
                         f"{', '.join(RUN_PARAMETERS)})")


def parse_value(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text
