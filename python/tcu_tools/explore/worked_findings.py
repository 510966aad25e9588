"""What the docs' worked sweep shows, read from its run's explore.csv, so
that the page's claims and figures are the sweep's and cannot go stale:

  python -m tcu_tools.explore.worked_findings OUT_DIR

OUT_DIR holds the explore.csv of `tcu explore tests/explore/worked_sweep.toml`
(docs/hooks.py runs the fast sweep when the site is built). Each finding is
worded from the figures: a claim ("the register file does not change the
cycles") is written only where the rows bear it out, and its opposite
otherwise. A sweep without the worked sweep's axes exits 1 naming the
missing column."""
from __future__ import annotations

import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

# The datapath's axes and the front-end's (the register file and the warps).
DATAPATH = ("E2m1MacsPerCycle", "E2m1Stages", "F16FmasPerCycle", "FmaStages", "WordsPerCycle")
FRONT_END = ("rf_banks", "rf_read_ports", "warps")
NEEDED = DATAPATH + FRONT_END + ("cycles", "mac_utilization", "area_mm2", "fmax_mhz",
                                 "tops_per_mm2", "energy_pj_per_mac", "router_area_um2",
                                 "source", "path_unit", "pareto", "pareto_energy", "status")


class FindingsError(ValueError):
    pass


def load(out: Path) -> list[dict]:
    path = out / "explore.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise FindingsError(f"{path}: no points")
    missing = [c for c in NEEDED if c not in rows[0]]
    if missing:
        raise FindingsError(f"{path}: no column {missing[0]} (not the worked sweep's run)")
    bad = next((r for r in rows if r["status"] != "ok"), None)
    if bad:
        raise FindingsError(f"{path}: point {bad['point']} has status {bad['status']}")
    return rows


def num(row: dict, key: str) -> float:
    return float(row[key].rstrip("%")) / (100 if row[key].endswith("%") else 1)


def datapath(row: dict) -> tuple:
    return tuple(int(row[k]) for k in DATAPATH)


def one_front_end(rows: list[dict]) -> list[dict]:
    """A row per datapath: the front-end axes at their first values."""
    first = {k: min(int(r[k]) for r in rows) for k in FRONT_END}
    return [r for r in rows if all(int(r[k]) == first[k] for k in FRONT_END)]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def register_file(rows: list[dict]) -> str:
    cycles = defaultdict(set)
    for r in rows:
        cycles[datapath(r)].add(r["cycles"])
    changed = sum(len(c) > 1 for c in cycles.values())
    fronts = []
    for flag, name in (("pareto", "throughput/area"), ("pareto_energy", "energy")):
        on = [r for r in rows if r[flag] == "1"]
        fronts.append(f"{len(on)} points on the {name} front are "
                      f"{len({datapath(r) for r in on})} datapaths")
    settings = len(rows) // len(cycles)
    if changed == 0:
        head = ("**The register file does not matter here; the router does.** Banks, read "
                f"ports and warps change the cycles of none of the {len(cycles)} datapaths, "
                f"so every front point appears {settings} times")
    else:
        head = ("**The register file matters here.** Banks, read ports and warps change the "
                f"cycles of {changed} of the {len(cycles)} datapaths")
    return f"- {head} ({'; '.join(fronts)})."


def router(rows: list[dict]) -> str:
    base = one_front_end(rows)
    top_e2m1 = max(int(r["E2m1MacsPerCycle"]) for r in rows)
    top_f16 = max(int(r["F16FmasPerCycle"]) for r in rows)
    low_stage = {k: min(int(r[k]) for r in rows) for k in ("E2m1Stages", "FmaStages")}
    at = sorted((int(r["WordsPerCycle"]), r) for r in base
                if int(r["E2m1MacsPerCycle"]) == top_e2m1 and int(r["F16FmasPerCycle"]) == top_f16
                and all(int(r[k]) == v for k, v in low_stage.items()))
    (w_lo, lo), (w_hi, hi) = at[0], at[-1]
    return (f"- **The router's gather width.** At {top_e2m1} e2m1 MACs and {top_f16} f16 FMAs "
            f"a cycle, {w_lo} words a cycle leave the units {pct(num(lo, 'mac_utilization'))} "
            f"busy, {w_hi} words {pct(num(hi, 'mac_utilization'))}, for "
            f"{(num(hi, 'area_mm2') - num(lo, 'area_mm2')):.1f} mm² more datapath (the router "
            f"{num(lo, 'router_area_um2') / 1e6:.1f} against "
            f"{num(hi, 'router_area_um2') / 1e6:.1f} mm²).")


def describe(r: dict) -> str:
    return (f"{r['E2m1MacsPerCycle']} e2m1 MACs and {r['F16FmasPerCycle']} f16 FMAs a cycle "
            f"({plural(int(r['E2m1Stages']), 'e2m1 stage')}, "
            f"{plural(int(r['FmaStages']), 'FMA stage')}, {r['WordsPerCycle']} words)")


def best_density(rows: list[dict]) -> str:
    best = max(rows, key=lambda r: (num(r, "tops_per_mm2"), -int(r["point"])))
    front = sorted((num(r, "area_mm2"), r) for r in one_front_end(rows) if r["pareto"] == "1")
    small, large = front[0][1], front[-1][1]
    return (f"- **The best TOPS/mm²** ({num(best, 'tops_per_mm2'):.6f}) is {describe(best)}, "
            f"at {pct(num(best, 'mac_utilization'))} utilization; the throughput/area front "
            f"runs from {describe(small)}, {pct(num(small, 'mac_utilization'))} busy, to "
            f"{describe(large)}, {pct(num(large, 'mac_utilization'))} busy.")


def fma_stages(rows: list[dict]) -> str:
    base = one_front_end(rows)
    units = Counter(r["path_unit"] for r in rows)
    smallest = {k: min(int(r[k]) for r in rows) for k in DATAPATH if k != "FmaStages"}
    at = sorted((int(r["FmaStages"]), r) for r in base
                if all(int(r[k]) == v for k, v in smallest.items()))
    (s_lo, lo), (s_hi, hi) = at[0], at[-1]
    clock_lo, clock_hi = num(lo, "fmax_mhz"), num(hi, "fmax_mhz")
    e_lo, e_hi = num(lo, "energy_pj_per_mac"), num(hi, "energy_pj_per_mac")
    sets = ", ".join(f"{u} at {n:,}" for u, n in units.most_common())
    energy = [r for r in base if r["pareto_energy"] == "1"]
    return (f"- **FMA stages trade clock against energy.** The clock is set by {sets} of the "
            f"points; at the smallest datapath the clock is {clock_lo:.1f} MHz at "
            f"{plural(s_lo, 'FMA stage')} and {clock_hi:.1f} MHz at {s_hi}, the energy "
            f"{e_lo:.1f} against {e_hi:.1f} pJ per MAC. "
            f"The energy front holds "
            + "; ".join(sorted({describe(r) for r in energy})) + ".")


def e2m1_stages(rows: list[dict]) -> str:
    base = one_front_end(rows)
    top = {k: max(int(r[k]) for r in rows) for k in DATAPATH if k != "E2m1Stages"}
    at = sorted((int(r["E2m1Stages"]), r) for r in base
                if all(int(r[k]) == v for k, v in top.items()))
    (s_lo, lo), (s_hi, hi) = at[0], at[-1]
    area = num(hi, "area_mm2") / num(lo, "area_mm2") - 1
    if num(hi, "fmax_mhz") <= num(lo, "fmax_mhz") * 1.0005:
        return (f"- **A deeper e2m1 pipeline buys no clock here**: at {describe(hi)}, "
                f"{s_hi} e2m1 stages keep the clock of {s_lo} ({num(lo, 'fmax_mhz'):.1f} MHz, "
                f"set by {lo['path_unit']}) for {area * 100:+.1f}% area.")
    return (f"- **A deeper e2m1 pipeline buys clock**: at {describe(hi)}, {s_hi} e2m1 stages "
            f"run at {num(hi, 'fmax_mhz'):.1f} MHz against {num(lo, 'fmax_mhz'):.1f} at "
            f"{s_lo}, for {area * 100:+.1f}% area.")


def sources(rows: list[dict]) -> str:
    counts = Counter(r["source"] for r in rows)
    return ("The fast figures are " + ", ".join(f"`{s}` at {n:,}" for s, n in counts.most_common())
            + " of the points (interpolated: the router scaled between its measured widths, "
            "engines between their measured unit counts).")


def axes(out: Path, rows: list[dict]) -> str:
    """The sweep's axes and workload, as its run's explore.json records them."""
    meta = json.loads((out / "explore.json").read_text())
    listed = "; ".join(f"`{name}` {', '.join(str(v) for v in values)}"
                       for name, values in meta["sweep"]["axes"].items())
    fixed = ", ".join(f"`{k}={v}`" for k, v in meta["sweep"].get("fixed", {}).items())
    fronts = [r for r in rows if r["pareto"] == "1" or r["pareto_energy"] == "1"]
    return (f"{len(rows):,} points over {len(meta['sweep']['axes'])} axes ({listed}), fixed "
            f"{fixed or 'nothing'}, against {meta['workload_text']}. Its two fronts hold "
            f"{len(fronts)} points of {len({datapath(r) for r in fronts})} datapaths.")


def findings(out: Path) -> str:
    rows = load(out)
    items = [register_file(rows), router(rows), best_density(rows), fma_stages(rows),
             e2m1_stages(rows)]
    return (axes(out, rows) + "\n\nWhat it shows an architect:\n\n" + "\n".join(items)
            + "\n\n" + sources(rows))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tcu_tools.explore.worked_findings OUT_DIR", file=sys.stderr)
        return 2
    try:
        print(findings(Path(argv[0])))
    except (FindingsError, OSError, ValueError, KeyError) as e:
        print(f"worked_findings: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
