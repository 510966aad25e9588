"""Pareto fronts: the points no other point beats on both of two figures."""
from __future__ import annotations

from .physical import number


def pareto_front(rows: list[dict], x: str, y: str, x_low: bool = True,
                 y_high: bool = True) -> set[int]:
    """The `point` numbers of the rows on the front of figures x and y: x
    better low (x_low) or high, y better high (y_high) or low. Rows missing
    either figure are not candidates."""
    sign_x = 1 if x_low else -1
    sign_y = -1 if y_high else 1
    candidates = [(number(r.get(x)), number(r.get(y)), int(r["point"])) for r in rows
                  if r.get("status", "ok") == "ok"]
    # Both figures as "lower is better".
    candidates = [(sign_x * a, sign_y * b, p) for a, b, p in candidates
                  if a is not None and b is not None]
    # Sorted by x then y, a point is on the front if its y beats every y
    # before it (equal points share their place).
    front: set[int] = set()
    best = last = None
    for a, b, point in sorted(candidates):
        if best is None or b < best:
            best, last = b, (a, b)
            front.add(point)
        elif (a, b) == last:
            front.add(point)
    return front


def has_figure(rows: list[dict], key: str) -> bool:
    return any(number(r.get(key)) is not None for r in rows)


def area_key(rows: list[dict]) -> str:
    """The best area figure the rows have: the cell library's µm², else the
    generic transistor estimate, else generic cells."""
    for key in ("area_mm2", "area_um2", "transistors"):
        if has_figure(rows, key):
            return key
    return "cells"


def throughput_key(rows: list[dict]) -> str:
    """TOPS at fmax where the rows have a clock, else MACs per cycle."""
    return "tops" if has_figure(rows, "tops") else "macs_per_cycle"


def area_front(rows: list[dict]) -> set[int]:
    """Throughput against area (less area, more throughput)."""
    return pareto_front(rows, area_key(rows), throughput_key(rows))


def energy_front(rows: list[dict]) -> set[int]:
    """Energy per MAC against throughput (more throughput, less energy)."""
    return pareto_front(rows, throughput_key(rows), "energy_pj_per_mac", x_low=False,
                        y_high=False)
