"""The plots: throughput against area and energy per MAC against
throughput (Pareto fronts marked, front points labelled without overlap),
and MAC utilization against register-file bandwidth."""
from __future__ import annotations

from pathlib import Path

from . import labels, pareto
from .params import RUN_PARAMETERS
from .physical import number

SHORT = {"Int4MacsPerCycle": "int4", "E2m1MacsPerCycle": "e2m1", "F16FmasPerCycle": "f16",
         "F64FmasPerCycle": "f64", "IntStages": "ist", "E2m1Stages": "est", "FmaStages": "fst",
         "rf_bandwidth": "rf", "rf_banks": "rfb", "rf_read_ports": "rfr", "rf_write_ports": "rfw",
         "warps": "w", "backpressure": "bp"}

AXIS_TEXT = {
    "area_um2": "datapath area (mm², {library})",
    "transistors": "datapath area (transistor estimate, Yosys stat -tech cmos)",
    "cells": "datapath area (Yosys generic cells)",
    "tops": "throughput (TOPS at fmax: 2 x MACs/cycle measured x fmax)",
    "macs_per_cycle": "throughput (MACs per cycle, measured)",
    "energy_pj_per_mac": "energy (pJ per MAC, {library})",
}


# Figures plotted in another unit than their column's.
SCALE = {"area_um2": 1e-6}  # µm² -> mm²


def value(row: dict, key: str) -> float | None:
    v = number(row.get(key))
    return None if v is None else v * SCALE.get(key, 1.0)


def label(row: dict, axes: list[str]) -> str:
    return " ".join(f"{SHORT.get(a, a)}={row[a]}" for a in axes)


def library_of(rows: list[dict], key: str) -> str:
    found = sorted({str(r[key]) for r in rows if r.get(key)})
    return ", ".join(found) or "cell library not named"


def front_plot(ax, rows: list[dict], axes: list[str], x: str, y: str, front: set[int]) -> None:
    """Points coloured by the first run-parameter axis (points of one model
    share an area), the front as a line, its points labelled."""
    good = [r for r in rows if value(r, x) is not None and value(r, y) is not None]
    if not good:
        ax.text(0.5, 0.5, f"no point has both {x} and {y} figures", ha="center", va="center",
                transform=ax.transAxes)
        ax.figure.tight_layout()
        return
    colour_axis = next((a for a in axes if a in RUN_PARAMETERS), None)
    groups: dict[str, list[dict]] = {}
    for r in good:
        groups.setdefault(f"{colour_axis}={r[colour_axis]}" if colour_axis else "points",
                          []).append(r)
    for name, members in groups.items():
        ax.scatter([value(r, x) for r in members], [value(r, y) for r in members], label=name,
                   zorder=2)
    on_front = sorted((r for r in good if int(r["point"]) in front),
                      key=lambda r: (value(r, x), value(r, y)))
    line = [(value(r, x), value(r, y)) for r in on_front]
    if on_front:
        ax.plot([p[0] for p in line], [p[1] for p in line], color="tab:red", marker="o",
                markersize=9, markerfacecolor="none", linewidth=1.5, label="Pareto front",
                zorder=3)
    legend = ax.legend(fontsize=8)
    # Labels last, once the layout is final: they are placed in display
    # coordinates, clear of every marker, the front's line and the legend.
    ax.figure.tight_layout()
    ax.figure.canvas.draw()
    extent = legend.get_window_extent()
    obstacles = (labels.marker_boxes(ax, [(value(r, x), value(r, y)) for r in good]) +
                 labels.line_boxes(ax, line) + [(extent.x0, extent.y0, extent.x1, extent.y1)])
    names = [a for a in axes if a != colour_axis]
    texts = [(value(r, x), value(r, y), label(r, names) or f"point {r['point']}")
             for r in on_front]
    placed = labels.place_labels(ax, texts, obstacles=obstacles)
    left_out = sum(1 for i, a in enumerate(placed) if a is None and texts[i] not in texts[:i])
    if left_out:
        ax.text(0.01, 0.01, f"{left_out} front label(s) left out: no free place",
                transform=ax.transAxes, fontsize=7, color="0.4")


def axis_text(key: str, rows: list[dict]) -> str:
    library = library_of(rows, "energy_library" if key.startswith("energy") else "library")
    return AXIS_TEXT.get(key, key).format(library=library)


def save(fig, path: Path, layout: bool = True) -> Path:
    if layout:
        fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def write_plots(rows: list[dict], axes: list[str], out: Path, title: str) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    area, rate = pareto.area_key(rows), pareto.throughput_key(rows)
    fig, ax = plt.subplots(figsize=(8, 5.5))
    ax.set_xlabel(axis_text(area, rows))
    ax.set_ylabel(axis_text(rate, rows))
    ax.set_title(f"Throughput against area\n{title}", fontsize=10)
    ax.grid(True, alpha=0.3)
    front_plot(ax, rows, axes, area, rate, pareto.area_front(rows))
    written.append(save(fig, out / "throughput_vs_area.png", layout=False))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 5.5))
    ax.set_xlabel(axis_text(rate, rows))
    ax.set_ylabel(axis_text("energy_pj_per_mac", rows))
    ax.set_title(f"Energy per MAC against throughput\n{title}", fontsize=10)
    ax.grid(True, alpha=0.3)
    front_plot(ax, rows, axes, rate, "energy_pj_per_mac", pareto.energy_front(rows))
    written.append(save(fig, out / "energy_vs_throughput.png", layout=False))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 5.5))
    utilization_plot(ax, rows, axes)
    ax.set_title(f"MAC utilization against register-file bandwidth\n{title}", fontsize=10)
    written.append(save(fig, out / "utilization_vs_rf.png"))
    plt.close(fig)
    return written


def utilization_plot(ax, rows: list[dict], axes: list[str]) -> None:
    import matplotlib.ticker

    others = [a for a in axes if a != "rf_bandwidth"]
    series: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        u = number(r.get("mac_utilization"))
        rf = number(r.get("rf_bandwidth"))
        if u is None or rf is None:
            continue
        series.setdefault(label(r, others) or "all points", []).append((rf, u))
    for name, values in sorted(series.items()):
        values.sort()
        ax.plot([v[0] for v in values], [100 * v[1] for v in values], marker="o", label=name)
    if not series:
        ax.text(0.5, 0.5, "no MAC utilization figures", ha="center", va="center",
                transform=ax.transAxes)
    elif len(series) <= 12:
        ax.legend(fontsize=7)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    rf_values = sorted({number(r.get("rf_bandwidth")) for r in rows} - {None})
    if rf_values:
        ax.set_xticks(rf_values)
    ax.set_xlabel("register-file bandwidth (32-bit lane registers per cycle)")
    ax.set_ylabel("MAC utilization (%)")
    ax.set_ylim(0, 105)
    ax.grid(True, alpha=0.3)
