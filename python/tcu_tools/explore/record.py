"""The validation record: the fast evaluator's errors against the full flow,
kept in docs/data/explore_validation.toml and shown in the docs as a table
generated from it (docs/hooks.py, `<!-- generated: explore-validation -->`).

    python -m tcu_tools.explore.record --write docs/data/explore_validation.toml \\
        --run NAME=OUT_DIR [--run NAME=OUT_DIR]...   # tcu explore --validate output folders
        [--gate-level NAME=JSON]...   # a gate-level datapath energy (read_gate_level)
    python -m tcu_tools.explore.record --check        # exit 1 when the record is stale
                                                      # or a figure is over its tolerance
    python -m tcu_tools.explore.record --table        # the docs' Markdown table

A run is one `tcu explore ... --validate` output folder (its explore.json,
explore.csv and validation.csv); --write replaces the runs it names and
keeps the others, and writes the run MAPPED afresh: the area and clock of
every datapath the physical data file holds mapped whole ([[whole]]: Yosys
and OpenSTA) against the fast evaluator's composition
(tcu_tools.explore.validate.mapped_datapaths), and the run MAPPED_ROUTER: the
router points of the data file each against the composition's rule from
the others (the widest extrapolated, those between interpolated), and
their energy where measured against the energy estimate's rule from the
others measured with energy (validate.mapped_router). The head stamps what the figures are of, as the
physical data file's stamps do (tcu_tools.phys.stamp): the SHA-256 of each
file they depend on (the RTL and the configuration spec the full flow
builds, the C++ model and SystemC front-end whose timing statement and
energy estimate the fast evaluator and the RTL run share, the
characterization and its composition) and the tools (Verilator, Yosys and
the mapping flow, OpenSTA). The record is stale when one of them changed;
--check and the table name what changed."""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
import tomllib
from datetime import date
from pathlib import Path

from .params import checkout

RECORD_PATH = Path("docs") / "data" / "explore_validation.toml"  # in the checkout
COMMAND = "nice -n 10 tests/explore_cycles.sh build/tcu build/explore_cycles --record"
MAPPED = "mapped_datapaths"  # the run of the data file's [[whole]] datapaths
MAPPED_ROUTER = "mapped_router"  # the run of the data file's router points held out


class RecordError(RuntimeError):
    pass


def _files() -> list[Path]:
    """The files the validated figures depend on."""
    root = checkout()
    globs = ["rtl/*.sv", "rtl/*.vlt", "tb/*.sv", "spec/config.toml", "spec/phys_osu018.toml",
             "model/src/*.cpp", "model/include/tcu/*.h", "systemc/**/*.cpp", "systemc/**/*.h",
             "tools/gemm*.cpp", "python/tcu_tools/phys/compose.py", "docs/data/gate_level_*.json",
             "python/tcu_tools/explore/fast.py", "python/tcu_tools/explore/validate.py"]
    return sorted({f for g in globs for f in root.glob(g) if f.is_file()})


def file_hashes() -> dict[str, str]:
    root = checkout()
    return {str(f.relative_to(root)): hashlib.sha256(f.read_bytes()).hexdigest()[:16]
            for f in _files()}


def tool_versions() -> dict[str, str]:
    from tcu_tools.phys import datafile
    from .cache import tool_version
    from .synthesis import script_version
    tools = datafile.tool_versions()
    return {"verilator": tool_version(["verilator", "--version"]), "yosys": tools["yosys"],
            "sta": tools["sta"], "synthesis": script_version(), "flow": tools["flow"]}


def stale(data: dict, files: dict | None = None, tools: dict | None = None) -> list[str]:
    """Why the record's figures are not those of this tree and these tools
    (empty when they are)."""
    head = data.get("head", {})
    files = file_hashes() if files is None else files
    tools = tool_versions() if tools is None else tools
    then = head.get("files", {})
    changed = sorted(f for f in set(then) | set(files) if then.get(f) != files.get(f))
    reasons = []
    if changed:
        shown = ", ".join(changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "")
        reasons.append(f"files changed since the validation: {shown}")
    for name, version in tools.items():
        if head.get("tools", {}).get(name) != version:
            reasons.append(f"{name} is '{version}', the validation's '{head.get('tools', {}).get(name)}'")
    return reasons


def _number(text: str):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text
    return int(value) if value.is_integer() and "." not in text and "e" not in text else value


# Options of a run that say where and how fast, not what was validated.
PLACE_OPTIONS = ("--out", "--jobs", "--build-jobs", "--cache", "--base")


def command_of(argv: list[str]) -> str:
    """The run's tcu explore arguments, paths in this tree relative to it
    and the output folder and job counts left out."""
    words, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word in PLACE_OPTIONS:
            skip = True
        elif not word.startswith(tuple(f"{o}=" for o in PLACE_OPTIONS)):
            words.append(word.replace(str(checkout()) + "/", ""))
    return " ".join(words)


def read_run(name: str, out: Path) -> tuple[dict, list[dict]]:
    """A `tcu explore --validate` output folder: the run's table and its
    results (a row per validated point and figure)."""
    try:
        meta = json.loads((out / "explore.json").read_text())
        points = {r["point"]: r for r in csv.DictReader(open(out / "explore.csv"))}
        rows = list(csv.DictReader(open(out / "validation.csv")))
    except (OSError, json.JSONDecodeError) as error:
        raise RecordError(f"{out}: not a tcu explore --validate output folder ({error})") from None
    axes = list(meta["sweep"]["axes"])
    results = []
    for r in rows:
        if r["figure"] == "all":
            raise RecordError(f"{out}: point {r['point']} {r['status']}")
        results.append({
            "run": name, "point": int(r["point"]),
            "params": {a: _number(points[r["point"]][a]) for a in axes},
            "figure": r["figure"], "fast": _number(r["fast"]), "full": _number(r["full"]),
            "error": None if r["error"] == "" else round(float(r["error"].rstrip("%")) / 100, 8),
            "tolerance": float(r["tolerance"].rstrip("%")) / 100, "status": r["status"]})
    run = {"name": name, "workload": meta["workload"]["name"], "points": meta["points"],
           "axes": axes, "argv": command_of(meta.get("argv", [])),
           "validated": len({r["point"] for r in results})}
    return run, results


def read_gate_level(name: str, path: Path) -> tuple[dict, list[dict]]:
    """A gate-level datapath energy against the energy estimate: the energy
    of the mapped datapath replayed with an RTL run's own inputs, and the
    estimate of the run's activity. PATH is either a kept measurement
    (docs/data/gate_level_int4_64.json: the gate-level figures and the run
    report's activity and configuration), priced here by this build's
    estimate (tcu_tools.phys.datapath_energy.reprice_saved: the tcu module
    of TCU_MODULE_DIR), or a measurement's --json with --report, whose
    estimate is the run's."""
    from tcu_tools.phys import datapath_energy
    from .validate import TOLERANCES
    try:
        got = json.loads(path.read_text())
        if "gate_level" in got:
            got = datapath_energy.reprice_saved(got)
    except (OSError, json.JSONDecodeError) as error:
        raise RecordError(f"{path}: {error}") from None
    except KeyError as error:
        raise RecordError(f"{path}: no {error} (a kept measurement has gate_level, by_state "
                          f"and the run's report)") from None
    if got.get("estimate_pj") is None or got.get("counter_mismatches"):
        raise RecordError(f"{path}: no estimate (run with --report) or the netlist is not the "
                          f"run's datapath: {got.get('counter_mismatches')}")
    fast, full = got["estimate_pj"], got["pj"]
    error = (fast - full) / full
    tol = TOLERANCES["energy_pj"]
    params = got.get("params", {})
    states = [{"state": k, "cycles": v["cycles"], "estimate_pj_per_cycle": v["estimate_pj_per_cycle"],
               "gate_level_pj_per_cycle": v["pj_per_cycle"]}
              for k, v in got.get("by_state", {}).items() if v.get("estimate_pj_per_cycle") is not None]
    run = {"name": name, "workload": f"{got['cycles']} cycles of {Path(got['trace']).name}",
           "points": 1, "axes": list(params), "validated": 1, "kind": "gate level",
           "argv": "python -m tcu_tools.phys.datapath_energy", "states": states}
    return run, [{"run": name, "point": 0, "params": params, "figure": "energy_gate_level_pj",
                  "fast": fast, "full": full, "error": round(error, 8), "tolerance": tol,
                  "status": "ok" if abs(error) <= tol else "over tolerance"}]


def read_mapped(name: str = MAPPED) -> tuple[dict, list[dict]]:
    """The data file's mapped datapaths ([[whole]]) against the fast
    evaluator's composition (validate.mapped_datapaths): a run and its
    results, a point per [[whole]] table."""
    from tcu_tools import spec as tcu_spec
    from tcu_tools.phys import datafile
    from .validate import mapped_datapaths
    data_path = checkout() / "spec" / "phys_osu018.toml"
    try:
        rows = mapped_datapaths(datafile.load(data_path))
    except (datafile.DataFileError, RuntimeError, ValueError) as error:
        raise RecordError(f"{data_path}: {error}") from None
    given = list(dict.fromkeys(k for r in rows for k in r["params"]))
    values = [tcu_spec.load().resolve(dict(r["params"])) for r in rows]
    # the parameters the mapped datapaths differ in (all where they do not)
    axes = [a for a in given if len({v[a] for v in values}) > 1] or given
    results = []
    for r, v in zip(rows, values):
        results.append({
            "run": name, "point": r["whole"], "params": {a: v[a] for a in axes},
            "figure": r["figure"], "fast": _number(str(r["fast"])), "full": _number(str(r["full"])),
            "error": round(float(r["error"].rstrip("%")) / 100, 8),
            "tolerance": float(r["tolerance"].rstrip("%")) / 100, "status": r["status"]})
    run = {"name": name, "workload": "none (area and clock)", "points": len({r["whole"] for r in rows}),
           "axes": axes, "validated": len({r["whole"] for r in rows}), "kind": "mapped",
           "argv": "python -m tcu_tools.phys.area tcu_datapath --params P (whole_command)"}
    return run, results


def read_mapped_router(name: str = MAPPED_ROUTER) -> tuple[dict, list[dict]] | None:
    """The data file's router points each against the composition's rule
    from the others, their energy (where measured) against the energy rule
    from the others (validate.mapped_router): a run and its results; None
    where the data file has too few router points."""
    from tcu_tools.phys import datafile
    from .validate import mapped_router
    data_path = checkout() / "spec" / "phys_osu018.toml"
    try:
        rows = mapped_router(datafile.load(data_path))
    except (datafile.DataFileError, RuntimeError, ValueError) as error:
        raise RecordError(f"{data_path}: {error}") from None
    if not rows:
        return None
    results = [{"run": name, "point": r["whole"], "params": r["params"], "figure": r["figure"],
                "fast": _number(str(r["fast"])), "full": _number(str(r["full"])),
                "error": round(float(r["error"].rstrip("%")) / 100, 8),
                "tolerance": float(r["tolerance"].rstrip("%")) / 100, "status": r["status"]}
               for r in rows]
    energy = any(r["figure"].startswith("router_busy") for r in rows)
    held = len({r["whole"] for r in rows})
    run = {"name": name, "workload": "none (area, clock and energy where measured)" if energy
           else "none (area and clock)", "points": held,
           "axes": ["WordsPerCycle", "DWordsPerCycle"], "validated": held, "kind": "mapped router",
           "argv": "python -m tcu_tools.phys --unit tcu_operand_router --params P [--no-energy]"}
    return run, results


def over_tolerance(data: dict) -> list[str]:
    """The record's results that are not ok: run, point, figure and errors."""
    return [f"{r['run']} point {r['point']} {r['figure']}: fast {r['fast']}, full {r['full']}, "
            f"error {r.get('error')} (tolerance {r['tolerance']}): {r['status']}"
            for r in data.get("result", []) if r.get("status") != "ok"]


def write(path: Path, named: list[tuple[str, Path]], gate: list[tuple[str, Path]] = ()) -> dict:
    old = tomllib.loads(path.read_text()) if path.exists() else {}
    names = {n for n, _ in named} | {MAPPED, MAPPED_ROUTER}
    runs = [r for r in old.get("run", []) if r["name"] not in names]
    results = [r for r in old.get("result", []) if r["run"] not in names]
    names |= {n for n, _ in gate}
    runs = [r for r in runs if r["name"] not in names]
    results = [r for r in results if r["run"] not in names]
    for name, out in named:
        run, rows = read_run(name, out)
        runs.append(run)
        results += rows
    for name, json_path in gate:
        run, rows = read_gate_level(name, json_path)
        runs.append(run)
        results += rows
    for run, rows in filter(None, [read_mapped(), read_mapped_router()]):
        runs.append(run)
        results += rows
    head = {"date": date.today().isoformat(), "regenerate": COMMAND,
            "tools": tool_versions(), "files": file_hashes()}
    text = ["# The fast evaluator's figures against the full flow (tcu explore --validate),\n"
            "# generated by python -m tcu_tools.explore.record; the docs' validation table is\n"
            "# generated from it. Regenerate: " + COMMAND + "\n\n"]
    text.append(table_text("[head]", {k: v for k, v in head.items()
                                      if k not in ("tools", "files")}))
    text.append("\n" + table_text("[head.tools]", head["tools"]))
    text.append("\n" + table_text("[head.files]", head["files"]))
    for r in runs:
        text.append("\n" + table_text("[[run]]", r))
    for r in results:
        text.append("\n" + table_text("[[result]]", r))
    path.write_text("".join(text))
    return tomllib.loads(path.read_text())


def table_text(header: str, entries: dict) -> str:
    from tcu_tools.phys.datafile import _key, _value
    return "\n".join([header] + [f"{_key(k)} = {_value(v)}" for k, v in entries.items()
                                 if v is not None]) + "\n"


def record_path() -> Path:
    return checkout() / RECORD_PATH


def load(path: Path | None = None) -> dict:
    path = path or record_path()
    try:
        return tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise RecordError(f"{path}: {error}") from None


FIGURES = {"cycles": "cycles", "energy_pj": "energy (pJ)",
           "energy_gate_level_pj": "energy against the gate-level datapath (pJ)", "area_um2": "area (µm²)",
           "router_area_um2": "router area (µm²)", "fmax_mhz": "clock (MHz)",
           "router_busy_pj_per_cycle": "router busy (pJ a cycle)",
           "router_idle_pj_per_cycle": "router idle (pJ a cycle)"}


def _percent(x: float) -> str:
    return f"{100 * x:+.3f}%"


def _value(v, figure: str = "") -> str:
    if figure == "fmax_mhz" and isinstance(v, (int, float)):
        return f"{v:.1f}"
    if isinstance(v, float) and abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:,}" if isinstance(v, int) else f"{v:.4g}" if isinstance(v, float) else str(v)


def table(data: dict, reasons: list[str] | None = None) -> str:
    """The docs' Markdown: per figure its tolerance, the points and the
    range of the error; then each run's points."""
    results = data.get("result", [])
    lines = []
    if reasons:
        lines += [f"**Stale**: {'; '.join(reasons)}. Regenerate: `{data['head']['regenerate']}`.",
                  ""]
    lines += [f"Validated {data['head']['date']} "
              f"([`docs/data/explore_validation.toml`](/src/docs/data/explore_validation.toml)).",
              "", "| figure | tolerance | points | error, least to most | over tolerance |",
              "| --- | --- | --- | --- | --- |"]
    for figure, label in FIGURES.items():
        rows = [r for r in results if r["figure"] == figure and "error" in r]
        if not rows:
            continue
        errors = [r["error"] for r in rows]
        over = sum(r["status"] != "ok" for r in rows)
        lines.append(f"| {label} | {100 * rows[0]['tolerance']:g}% | {len(rows)} | "
                     f"{_percent(min(errors))} .. {_percent(max(errors))} | {over} |")
    for run in data.get("run", []):
        mine = [r for r in results if r["run"] == run["name"]]
        figures = [f for f in FIGURES if any(r["figure"] == f for r in mine)]
        what = (f"the datapath mapped flat and replayed at gate level over {run['workload']} "
                f"(`{run['argv']}`), against the run report's estimate"
                if run.get("kind") == "gate level" else
                f"the {run['points']} datapaths of `spec/phys_osu018.toml` mapped whole "
                f"(`[[whole]]`: `{run['argv']}`, Yosys and OpenSTA, stamped as this tree's "
                f"design), against the fast evaluator's composition from the rest of the data "
                f"file (each `[[whole]]` left out of its own; area and clock tcu_datapath's, "
                f"the router left out)"
                if run.get("kind") == "mapped" else
                f"the router points of `spec/phys_osu018.toml` (`{run['argv']}`, Yosys and "
                f"OpenSTA), each against the composition's rule from the other router points "
                f"(the widest extrapolated, those between interpolated"
                + ("; the energy, by gate-level simulation, against the energy estimate's rule "
                   "from those measured with energy" if "energy" in run["workload"] else "")
                + "; the point left out)"
                if run.get("kind") == "mapped router" else
                f"{run['validated']} of {run['points']} points of `tcu explore {run['argv']}` "
                f"(workload {run['workload']})")
        lines += ["", f"`{run['name']}`: {what}:", "",
                  "| point | " + " | ".join(run["axes"]) + " | " +
                  " | ".join(f"{FIGURES[f]} fast / full" for f in figures) + " |",
                  "| --- " * (1 + len(run["axes"]) + len(figures)) + "|"]
        if run.get("states"):
            rows_after = ["", "By what the engine did in the cycle (pJ a cycle):", "",
                          "| state | cycles | estimate | gate level | estimate / gate level |",
                          "| --- | --- | --- | --- | --- |"]
            rows_after += [f"| {st['state']} | {st['cycles']:,} | {st['estimate_pj_per_cycle']:,.2f} | "
                           f"{st['gate_level_pj_per_cycle']:,.0f} | "
                           f"{st['estimate_pj_per_cycle'] / st['gate_level_pj_per_cycle']:.4f} |"
                           for st in run["states"]]
        else:
            rows_after = []
        for point in sorted({r["point"] for r in mine}):
            at = {r["figure"]: r for r in mine if r["point"] == point}
            params = next(iter(at.values()))["params"]
            cells = [f"{_value(at[f]['fast'], f)} / {_value(at[f]['full'], f)} "
                     f"({_percent(at[f]['error'])})"
                     if f in at and at[f].get("error") is not None else "–" for f in figures]
            lines.append(f"| {point} | " + " | ".join(str(params[a]) for a in run["axes"]) +
                         " | " + " | ".join(cells) + " |")
        lines += rows_after
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tcu_tools.explore.record",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", help=f"the record (default: the checkout's {RECORD_PATH})")
    parser.add_argument("--write", action="store_true", help="write the --run folders into it")
    parser.add_argument("--run", action="append", default=[], metavar="NAME=OUT_DIR")
    parser.add_argument("--gate-level", action="append", default=[], metavar="NAME=JSON",
                        help="a gate-level datapath energy (a kept measurement, priced by this "
                        "build's estimate, or tcu_tools.phys.datapath_energy --json)")
    parser.add_argument("--check", action="store_true", help="exit 1 when it is stale")
    parser.add_argument("--table", action="store_true", help="print the docs' table")
    args = parser.parse_args(argv)
    try:
        path = Path(args.record) if args.record else record_path()
    except RuntimeError as error:
        print(f"record: {error}", file=sys.stderr)
        return 2
    try:
        if args.write:
            named, gate = [], []
            for option, items, into in (("--run", args.run, named),
                                        ("--gate-level", args.gate_level, gate)):
                for item in items:
                    name, sep, out = item.partition("=")
                    if not sep or not name or not out:
                        parser.error(f"{option}: expected NAME=PATH, found '{item}'")
                    into.append((name, Path(out)))
            if not named and not gate:
                parser.error("--write needs a --run NAME=OUT_DIR or a --gate-level NAME=JSON")
            write(path, named, gate)
        data = load(path)
    except RecordError as error:
        print(f"record: {error}", file=sys.stderr)
        return 1
    reasons = stale(data)
    if args.table:
        print(table(data, reasons))
    if args.check:
        over = over_tolerance(data)
        for line in over:
            print(f"record: {path}: over tolerance: {line}", file=sys.stderr)
        if reasons:
            print(f"record: {path} is stale: {'; '.join(reasons)}; regenerate: "
                  f"{data['head']['regenerate']}", file=sys.stderr)
        if reasons or over:
            return 1
        print(f"record: {path} is of this tree and these tools, every figure within its "
              f"tolerance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
