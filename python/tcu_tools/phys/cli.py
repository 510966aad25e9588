"""python3 -m tcu_tools.phys [--unit NAME [--params "N=V ..."]]... | --all
                       [--cycles N] [--json FILE] [--write FILE] [--check FILE]
                       [--from-json FILE] [--workdir DIR]
       python3 -m tcu_tools.phys --refresh FILE

Maps each unit type to the OSU 0.18 um cells and prints its area (um^2),
critical path and clock (MHz), and energy per cycle busy and idle (pJ, from a
gate-level simulation's toggle counts in OpenSTA's report_power) and per
operation. --all: every point of the data file (each unit at the default
configuration's parameters and where the small configuration's differ);
--write FILE: the data file (spec/phys_osu018.toml); --check FILE: compare
the measured points with the data file's; --refresh FILE: re-measure the
entries whose RTL or tools changed (tcu_tools.phys.stamp) and re-stamp it.
--from-json FILE: take the figures from earlier --json runs (or a data file)
instead of measuring, merged point by point; each keeps the stamp of the RTL
it was measured from. Exit 1 if a step fails
or --check finds a disagreement, 2 for a bad command line."""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from . import datafile, figures, library, stamp
from . import units as units_mod
from .units import POINTS, UNIT_TYPES


def _tools() -> dict:
    return datafile.tool_versions()


def _print_row(f: dict) -> None:
    def num(v, fmt):
        return format(v, fmt) if v is not None else format("-", fmt.split(".")[0].rstrip("f"))
    params = " ".join(f"{k}={v}" for k, v in f["params"].items() if k != "SynthImpl")
    print(f"{f['unit']:18} {params or '-':30} {f['area_um2']:11.0f} "
          f"{f['flip_flop_area_um2']:9.0f} {f['cells']:6d} {f['critical_path_ns']:8.3f} "
          f"{f['fmax_mhz']:9.1f} {num(f['busy_pj_per_cycle'], '11.2f')} "
          f"{num(f['idle_pj_per_cycle'], '11.3f')} {num(f['pj_per_issued_op'], '12.3f')} "
          f"{f['synth_seconds']:7.0f}  {f['startpoint']} -> {f['endpoint']}", flush=True)


def _parse_params(parser, text: str) -> dict:
    out = {}
    for word in text.split():
        name, _, value = word.partition("=")
        if not name.isidentifier() or not value.isdigit():
            parser.error(f"--params: expected NAME=VALUE words with integer values, found '{word}'")
        out[name] = int(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_tools.phys", description=__doc__.split("\n\n")[1])
    parser.add_argument("--unit", action="append", choices=sorted(UNIT_TYPES),
                        help="a unit type (default: every one at its default parameters)")
    parser.add_argument("--params", metavar="NAME=VALUE ...", default="",
                        help="parameters overriding the units' defaults (e.g. \"Stages=1\")")
    parser.add_argument("--all", action="store_true", help="every point of the data file")
    parser.add_argument("--point", type=int, action="append", metavar="K",
                        help=f"point K (0..{len(POINTS) - 1}) of --all only (repeatable)")
    parser.add_argument("--cycles", type=int, default=200,
                        help="gate-level simulation cycles per measurement (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--write", metavar="FILE", help="write the data file (TOML)")
    parser.add_argument("--check", metavar="FILE",
                        help="compare the figures with the data file's; exit 1 on a difference")
    parser.add_argument("--from-json", metavar="FILE", action="append",
                        help="figures from an earlier --json run (or a data file's points, "
                        "FILE.toml, with its [[whole]] and [[engine]] measurements) instead "
                        "of measuring; repeatable: a later file's points replace an earlier "
                        "one's (datafile.merge: a point without energy keeps the earlier "
                        "energies of the same netlist)")
    parser.add_argument("--whole", action="append", default=[], metavar="JSON",
                        help="with --write: a whole tcu_datapath's figures (tcu_tools.phys.area "
                        "--json) to set beside its composition, added to the --from-json data "
                        "file's [[whole]] tables or replacing its table of the same parameters "
                        "(repeatable)")
    parser.add_argument("--engine", action="append", default=[], metavar="JSON",
                        help="with --write: an engine's figures (tcu_tools.phys.area --json of a "
                        "tcu_*_engine) to set beside its units, added to the --from-json data "
                        "file's [[engine]] tables or replacing its table of the same top and "
                        "parameters (repeatable)")
    parser.add_argument("--engine-around", action="append", default=[], metavar="JSON",
                        help="with --write: an engine top mapped around its units "
                        "(tcu_tools.phys.area --around --json), set on its [[engine]] table "
                        "(repeatable)")
    parser.add_argument("--plain", action="store_true",
                        help="the plain (unbuffered) mapping, for comparison with the buffered one")
    parser.add_argument("--no-energy", action="store_true",
                        help="area and clock only (no gate-level simulation)")
    parser.add_argument("--refresh", metavar="FILE",
                        help="re-measure the data file's stale entries (their RTL's design or "
                        "the tools changed: tcu_tools.phys.stamp), keep the rest, re-stamp it")
    parser.add_argument("--workdir", default="build/phys", help="netlists, logs (build/phys)")
    args = parser.parse_args(argv)
    if args.refresh:
        from .refresh import refresh
        return refresh(Path(args.refresh), Path(args.workdir))
    if args.cycles < 8:
        parser.error("--cycles must be at least 8")
    overrides = _parse_params(parser, args.params)
    if args.all and (args.unit or overrides):
        parser.error("--all measures every point: no --unit or --params with it")
    if args.write and not args.all and not args.from_json:
        parser.error("--write needs --all (the data file holds every point)")
    stored = None
    if args.check:
        try:
            stored = datafile.load(Path(args.check))
        except datafile.DataFileError as e:
            print(f"tcu_phys: {e}", file=sys.stderr)
            return 1
        if (stored.get("cycles"), stored.get("seed")) != (args.cycles, args.seed):
            print(f"tcu_phys: {args.check} was measured at --cycles {stored.get('cycles')} "
                  f"--seed {stored.get('seed')}; check at those", file=sys.stderr)
            return 1

    rows: list[dict] = []
    print(f"Library: {library.LABEL}")
    print(f"{'unit':18} {'parameters':30} {'area um2':>11} {'ff um2':>9} {'cells':>6} "
          f"{'path ns':>8} {'fmax MHz':>9} {'busy pJ/cyc':>11} {'idle pJ/cyc':>11} "
          f"{'pJ/issued op':>12} {'synth s':>7}  critical path")
    tables = ([], [])   # the [[whole]] and [[engine]] measurements of a --from-json data file
    rtl_then: dict = {}  # the --from-json data files' rtl_sha256
    kept: dict = {}  # the --from-json data files' tables of other tools (datafile.kept_of)
    if args.from_json:
        for name in args.from_json:
            try:
                if name.endswith(".toml"):
                    data = datafile.load(Path(name))
                    blank = {f.name: None for f in dataclasses.fields(figures.UnitFigures)}
                    loaded = [{**blank, **p} for p in data["point"]]
                    tables = datafile.measured_tables(data)
                    rtl_then.update(data.get("rtl_sha256", {}))
                    kept.update(datafile.kept_of(data))
                else:
                    loaded = json.loads(Path(name).read_text())["units"]
                rows = datafile.merge(rows, loaded)
            except (OSError, ValueError, KeyError, TypeError, datafile.DataFileError) as e:
                print(f"tcu_phys: --from-json {name}: {e}", file=sys.stderr)
                return 1
        for f in rows:
            _print_row(f)
        if args.json:
            Path(args.json).write_text(json.dumps(
                {"library": library.LABEL, "cycles": args.cycles, "seed": args.seed,
                 "units": rows}, indent=2))
    else:
        try:
            library.liberty()
        except library.LibraryMissing as e:
            print(f"tcu_phys: {e}", file=sys.stderr)
            return 1
        if args.all:
            units = POINTS
            if args.point:
                if any(not 0 <= k < len(POINTS) for k in args.point):
                    parser.error(f"--point: 0..{len(POINTS) - 1}")
                units = [POINTS[k] for k in args.point]
        else:
            units = [UNIT_TYPES[n] for n in (args.unit or sorted(UNIT_TYPES))]
            if overrides:
                units = [dataclasses.replace(u, params={**u.params, **overrides},
                                             configs=units_mod.configs_of(u, {**u.params, **overrides}))
                         for u in units]
        for unit in units:
            try:
                # the RTL it is measured from, taken before (a --json run's
                # figures carry it into a later --from-json)
                rtl = (stamp.stamp_of("point", {"unit": unit.name, "params": unit.params},
                                      yosys_version=_tools()["yosys"])
                       if args.json or args.write else {})
                f = figures.measure(unit, Path(args.workdir), args.cycles, args.seed,
                                    not args.plain, not args.no_energy)
            except RuntimeError as e:
                print(f"tcu_phys: {unit.name}: {e}", file=sys.stderr)
                return 1
            rows.append({**f.to_json(), **rtl})
            _print_row(rows[-1])
            if args.json:  # after each unit, so a long run's figures survive
                Path(args.json).write_text(json.dumps(
                    {"library": library.LABEL, "cycles": args.cycles, "seed": args.seed,
                     "units": rows}, indent=2))
    if args.write:
        try:
            # beside the --from-json file's tables, replacing one of the same top and parameters
            wholes = datafile.with_measured(tables[0], [json.loads(Path(w).read_text())
                                                        for w in args.whole])
            engines = datafile.with_measured(tables[1], [json.loads(Path(e).read_text())
                                                         for e in args.engine])
            for a in args.engine_around:
                try:
                    engines = datafile.with_around(engines, [json.loads(Path(a).read_text())])
                except KeyError as e:
                    raise ValueError(f"{a}: not a tcu_tools.phys.area --around JSON (no {e})")
        except (OSError, ValueError, KeyError) as e:
            print(f"tcu_phys: --whole/--engine/--engine-around: {e}", file=sys.stderr)
            return 1
        # figures from earlier runs keep their own stamps (stamp.UNRECORDED without one)
        try:
            datafile.write(Path(args.write), rows, args.cycles, args.seed, _tools(), wholes,
                           engines, measured_here=not args.from_json, rtl_then=rtl_then,
                           kept=kept)
        except datafile.DataFileError as e:
            print(f"tcu_tools.phys: {e}", file=sys.stderr)
            return 1
        print(f"wrote {args.write}")
    if stored is not None:
        problems = datafile.compare(stored, rows)
        for p in problems:
            print(f"tcu_phys: {args.check}: {p}", file=sys.stderr)
        if problems:
            return 1
        print(f"{args.check}: agrees with the {len(rows)} point(s) measured")
    return 0
