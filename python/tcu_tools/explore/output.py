"""The sweep's output: explore.csv, explore.json, the plots and a table."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from . import pareto, physical
from .plots import write_plots
from .physical import number

FIGURE_COLUMNS = (["instructions", "macs", "issued_macs", "cycles", "peak_macs_per_cycle",
                   "macs_per_cycle", "mac_utilization"] + physical.COLUMNS +
                  physical.EXTRA_COLUMNS + ["library", "cells", "flip_flops", "transistors",
                                            "logic_depth", "router_cells", "router_flip_flops",
                                            "router_transistors", "router_logic_depth", "build_s",
                                            "run_s", "synth_s", "router_synth_s"])
FRONT_COLUMNS = ["pareto", "pareto_energy"]
# More rows than this: the table shows the fronts' points only.
TABLE_ROWS = 40


def write_csv(rows: list[dict], columns: list[str], path: Path) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})


TABLE = [("cycles", "cycles"), ("macs_per_cycle", "MAC/cyc"), ("mac_utilization", "util"),
         ("area_um2", "um2"), ("fmax_mhz", "MHz"), ("tops", "TOPS"), ("tops_per_mm2", "TOPS/mm2"),
         ("energy_pj_per_mac", "pJ/MAC"), ("tops_per_w", "TOPS/W"), ("cells", "cells"),
         ("transistors", "transistors"), ("status", "status")]


def cell(key: str, value) -> str:
    if key == "mac_utilization" and number(value) is not None:
        return f"{100 * number(value):.1f}%"
    if key in ("area_um2", "fmax_mhz") and number(value) is not None:
        return f"{number(value):.0f}"
    if key in ("energy_pj_per_mac",) and number(value) is not None:
        return f"{number(value):.3g}"
    return str(value)


def print_table(rows: list[dict], axes: list[str], front: set[int], stream=None) -> None:
    stream = stream or sys.stdout
    shown = [(k, h) for k, h in TABLE if k == "status" or any(r.get(k) not in (None, "")
                                                               for r in rows)]
    columns = [("point", "point")] + [(a, a) for a in axes] + shown
    table = []
    for r in rows:
        line = []
        for key, _ in columns:
            value = cell(key, r.get(key, ""))
            if key == "point" and int(r["point"]) in front:
                value = f"{value}*"
            line.append(value)
        table.append(line)
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h)
              for i, (_, h) in enumerate(columns)]
    print("  ".join(h.rjust(w) for (_, h), w in zip(columns, widths)), file=stream)
    for line in table:
        print("  ".join(v.rjust(w) for v, w in zip(line, widths)), file=stream)
    if front:
        print("* on the Pareto front (throughput against area)", file=stream)


def finish(rows: list[dict], meta: dict, out: Path, plots: bool = True) -> None:
    axes = list(meta["sweep"]["axes"])
    columns = meta["columns"]
    rows.sort(key=lambda r: int(r["point"]))
    for r in rows:
        r.update(physical.router_estimate(r))
        r.update(physical.derive(r))
    front, energy_front = pareto.area_front(rows), pareto.energy_front(rows)
    for r in rows:
        r["pareto"] = 1 if int(r["point"]) in front else 0
        r["pareto_energy"] = 1 if int(r["point"]) in energy_front else 0
    for name in FRONT_COLUMNS:
        if name not in columns:
            columns.insert(columns.index("status"), name)
    write_csv(rows, columns, out / "explore.csv")
    (out / "explore.json").write_text(json.dumps(meta, indent=2) + "\n")
    written = write_plots(rows, axes, out, meta["workload_text"]) if plots else []
    if len(rows) <= TABLE_ROWS:
        print_table(rows, axes, front)
    else:
        print(f"{len(rows)} points; on the Pareto fronts:")
        print_table([r for r in rows if r["pareto"] or r["pareto_energy"]], axes, front)
    for note in meta.get("notes", []):
        print(f"note: {note}")
    print(f"explore: wrote {', '.join(str(p) for p in [out / 'explore.csv'] + written)}")
