"""The columns an architect decides with, derived from a row's measured and
synthesized figures:

  tops          2 x MACs per cycle (measured, dense-equivalent) x fmax_mhz,
                in 10^12 operations a second (a MAC is two operations)
  tops_per_mm2  tops / area in mm^2 (area_um2 plus router_area_um2: the
                operand router synthesized where a router parameter is an
                axis, with the lower of the two clocks; else its area at the
                point's widths from the data file, router_estimate)
  area_mm2      area_um2 plus router_area_um2, in mm^2
  tops_per_w    2 / energy_pj_per_mac: operations per pJ, which is TOPS/W

Each is empty (NaN in arithmetic) where a figure it needs is missing."""
from __future__ import annotations

from functools import lru_cache

import math

COLUMNS = ["area_um2", "area_mm2", "fmax_mhz", "tops", "tops_per_mm2", "energy_pj_per_mac", "tops_per_w"]
# Kept beside them: the flow's other figures.
EXTRA_COLUMNS = ["flip_flop_area_um2", "critical_path_ns", "path_start", "path_end",
                 "energy_pj", "energy_library", "router_area_um2", "router_fmax_mhz", "router_area_source"]


def number(text) -> float | None:
    """A finite float, or None for a missing, empty or non-numeric value."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def significant(value: float, digits: int = 4) -> float:
    return float(f"{value:.{digits}g}")


@lru_cache(maxsize=1)
def _data_points() -> list[dict] | None:
    """spec/phys_osu018.toml's points, read once (None: not readable)."""
    try:
        from tcu_tools.phys import datafile

        from .params import characterization
        return datafile.load(characterization()[0])["point"]
    except (ImportError, OSError, datafile.DataFileError):
        return None


def router_estimate(row: dict) -> dict:
    """Where the router was not synthesized (no router axis): its area at
    the point's WordsPerCycle / DWordsPerCycle from spec/phys_osu018.toml
    (tcu_tools.phys.compose.router_scaled: measured, or scaled from the measured
    widths), so that tops_per_mm2 counts it; its clock is not taken (the
    scaled clock is an upper bound). {} where a figure is missing."""
    if number(row.get("router_area_um2")) is not None:
        return {}
    words, d_words = number(row.get("WordsPerCycle")), number(row.get("DWordsPerCycle"))
    if words is None or d_words is None:
        return {}
    points = _data_points()
    if points is None:
        return {}
    from tcu_tools.phys import compose
    router = compose.router_scaled(points, int(words), int(d_words))
    if router is None:
        return {}
    return {"router_area_um2": significant(router["area_um2"], 6),
            "router_area_source": router["scaled"] or "measured (spec/phys_osu018.toml)"}


def derive(row: dict) -> dict[str, float]:
    """tops, tops_per_mm2, tops_per_w of a row (only those it has figures for)."""
    out: dict[str, float] = {}
    rate = number(row.get("macs_per_cycle"))
    clocks = [c for c in (number(row.get("fmax_mhz")), number(row.get("router_fmax_mhz")))
              if c is not None]
    areas = [a for a in (number(row.get("area_um2")), number(row.get("router_area_um2")))
             if a is not None]
    if areas and number(row.get("area_um2")):
        out["area_mm2"] = significant(sum(areas) / 1e6, 6)
    if rate is not None and number(row.get("fmax_mhz")) is not None:
        out["tops"] = significant(2 * rate * min(clocks) * 1e6 / 1e12)
        if number(row.get("area_um2")):
            out["tops_per_mm2"] = significant(out["tops"] / (sum(areas) / 1e6))
    pj = number(row.get("energy_pj_per_mac"))
    if pj:
        out["tops_per_w"] = significant(2 / pj)
    return out
