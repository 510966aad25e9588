"""Constraints that prune a sweep's points: `COLUMN<=X`, `COLUMN>=X`,
`COLUMN<X`, `COLUMN>X` over a row's figures (e.g. area_mm2<=100,
fmax_mhz>=50). A pruned point keeps its row, its status saying which
constraint it breaks, and is left out of the Pareto fronts."""
from __future__ import annotations

import operator
import re

from .params import UsageError
from .physical import number

OPERATORS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}
PATTERN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|<|>)\s*([-+0-9.eE]+)\s*")


def parse(text: str, where: str, columns: set[str]) -> tuple[str, str, float]:
    m = PATTERN.fullmatch(text)
    if not m:
        raise UsageError(f"{where}: constraint '{text}': expected COLUMN<=X, COLUMN>=X, "
                         "COLUMN<X or COLUMN>X (e.g. area_mm2<=100)")
    column, op, value = m.groups()
    if column not in columns:
        raise UsageError(f"{where}: constraint '{text}': unknown column '{column}' (one of "
                         f"{', '.join(sorted(columns))})")
    try:
        return column, op, float(value)
    except ValueError:
        raise UsageError(f"{where}: constraint '{text}': '{value}' is not a number") from None


def apply(rows: list[dict], constraints: list[tuple[str, str, float]]) -> int:
    """Marks the rows that break a constraint; the number pruned."""
    pruned = 0
    for row in rows:
        if row.get("status") != "ok":
            continue
        for column, op, value in constraints:
            have = number(row.get(column))
            if have is None or not OPERATORS[op](have, value):
                row["status"] = f"pruned: {column}={row.get(column)} breaks {column}{op}{value:g}"
                pruned += 1
                break
    return pruned
