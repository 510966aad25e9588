"""python3 -m tcu_tools.mutate instrument --rtl DIR --top FILE --out DIR [--param N=V]...
python3 -m tcu_tools.mutate list [--mutants FILE]
python3 -m tcu_tools.mutate show K [--mutants FILE] [--rtl DIR]
python3 -m tcu_tools.mutate run --tcu BINARY --mutants FILE [--sample N] [--seed S]
                          [--only K,...] [--jobs J] [--timeout SEC]
                          [--equivalent FILE] [--min-score F] [--report FILE]

instrument: the RTL with every mutant compiled in, and mutants.json (the
build does this: cmake -DTCU_MUTATION=ON). list: every mutant, numbered.
show: one mutant as a diff of its file. run: the campaign (each mutant
through the regression, killed or survived, the equivalent ones apart), a
table per unit, ending `killed K of N`; exit 0 when K/N >= --min-score, 1
below it, 2 for bad input."""
from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

from tcu_tools import source_dir

from . import campaign, equivalent, instrument


def _load(path: Path) -> list[dict]:
    return _load_all(path)["mutants"]


def _load_all(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
        data["mutants"]
        return data
    except (OSError, ValueError, KeyError) as error:
        raise SystemExit(f"tcu_mutate: {path}: not a mutant list ({error}); build with "
                         "cmake -DTCU_MUTATION=ON (scripts/mutate.sh does)")


def _instrument(args) -> int:
    mutants = instrument.instrument(args.rtl, args.top, args.out, args.param, args.seed)
    print(f"{len(mutants)} mutants in {args.out}")
    return 0


def _list(args) -> int:
    for m in _load(args.mutants):
        print(f"{m['number']:4} {m['unit']:8} {m['id']:40} {m['change']}")
    return 0


def _show(args) -> int:
    mutants = {m["number"]: m for m in _load(args.mutants)}
    if args.number not in mutants:
        print(f"tcu_mutate: no mutant {args.number} (1..{len(mutants)})", file=sys.stderr)
        return 2
    m = mutants[args.number]
    original = (args.rtl / m["file"]).read_text().splitlines(keepends=True)
    out = Path(f"/tmp/tcu_mutant_{m['number']}.sv")
    instrument.standalone(args.rtl, m, out)
    sys.stdout.writelines(difflib.unified_diff(original, out.read_text().splitlines(True),
                                               f"rtl/{m['file']}", f"mutant {m['number']}"))
    return 0


def _selected(args, mutants: list[dict]) -> list[dict]:
    if args.only is not None:
        wanted = [int(k) for k in args.only.split(",") if k]
        # Mutant 0 is the design itself: a campaign of it alone must report it
        # survived (the harness does not call every run killed).
        by_number = {m["number"]: m for m in mutants}
        by_number[0] = {"number": 0, "unit": "none", "file": "-", "id": "none",
                        "change": "no change (the design itself)"}
        missing = [k for k in wanted if k not in by_number]
        if missing:
            raise SystemExit(f"tcu_mutate: --only: no mutant {missing[0]} "
                             f"(0..{len(mutants)})")
        return [by_number[k] for k in wanted]
    if args.sample is not None:
        return campaign.sample(mutants, args.sample, args.seed)
    return mutants


def _report(outcomes: list[campaign.Outcome]) -> tuple[int, int]:
    units = sorted({o.mutant["unit"] for o in outcomes})
    print(f"{'unit':10} {'mutants':>8} {'killed':>8} {'survived':>9} {'equivalent':>11}")
    for unit in units:
        mine = [o for o in outcomes if o.mutant["unit"] == unit]
        count = {s: sum(o.status == s for o in mine) for s in ("killed", "survived", "equivalent")}
        print(f"{unit:10} {len(mine):8} {count['killed']:8} {count['survived']:9} "
              f"{count['equivalent']:11}")
    stages: dict[str, int] = {}
    for o in outcomes:
        if o.status == "killed":
            stages[o.stage] = stages.get(o.stage, 0) + 1
    if stages:
        print("killed by: " + ", ".join(f"{name} {n}" for name, n in stages.items()))
    survivors = [o for o in outcomes if o.status == "survived"]
    for o in survivors:
        m = o.mutant
        print(f"survived: #{m['number']} {m['unit']} {m['id']}  {m['change']}")
    for o in outcomes:
        if o.status == "equivalent":
            m = o.mutant
            print(f"equivalent: #{m['number']} {m['id']}  {m['change']} -- {o.reason}")
    killed = sum(o.status == "killed" for o in outcomes)
    counted = sum(o.status != "equivalent" for o in outcomes)
    return killed, counted


def _not_elaborated(sites: list[dict]) -> None:
    """The sites the configuration does not elaborate: not mutants of the
    model, neither killed nor survived; a configuration that elaborates
    them (other parameter values) is where they are mutants."""
    if not sites:
        return
    by_file: dict[str, int] = {}
    for site in sites:
        by_file[site["file"]] = by_file.get(site["file"], 0) + 1
    print(f"not elaborated at this configuration (no mutant of this model): {len(sites)} sites: "
          + ", ".join(f"{name} {n}" for name, n in sorted(by_file.items())))


def _run(args) -> int:
    data = _load_all(args.mutants)
    mutants = data["mutants"]
    try:
        known = set(data.get("site_ids", [])) | {m["id"] for m in mutants}
        equivalent_ids = equivalent.read(args.equivalent, known) if args.equivalent else {}
    except (OSError, equivalent.EquivalentListError) as error:
        print(f"tcu_mutate: {error}", file=sys.stderr)
        return 2
    chosen = _selected(args, mutants)
    stages = campaign.regression(args.vectors, args.seed)
    if args.quick:
        stages = [s for s in stages if s.name.startswith("quick")]
    runner = campaign.Campaign(args.tcu, args.config, stages, args.timeout, args.jobs,
                               equivalent_ids)
    if not any(m["number"] == 0 for m in chosen):
        # The design itself must pass the regression, or every kill is void.
        sanity = campaign.run_one(args.tcu, args.config, {"number": 0}, stages[:2], args.timeout)
        if sanity.status != "survived":
            print(f"tcu_mutate: the design without a mutant fails the regression "
                  f"({sanity.stage}: {sanity.detail})", file=sys.stderr)
            return 2
    done = 0

    def progress(outcome: campaign.Outcome) -> None:
        nonlocal done
        done += 1
        m = outcome.mutant
        if args.verbose or outcome.status == "survived":
            print(f"[{done}/{len(chosen)}] #{m['number']} {m['unit']} {m['change']}: "
                  f"{outcome.status} {outcome.stage} {outcome.detail} "
                  f"({outcome.seconds:.1f} s)", flush=True)

    outcomes = runner.run(chosen, progress)
    killed, counted = _report(outcomes)
    if args.report:
        args.report.write_text(json.dumps({"mutants": [
            {**o.mutant, "status": o.status, "stage": o.stage, "detail": o.detail,
             "seconds": round(o.seconds, 2), "reason": o.reason} for o in outcomes],
            "not_elaborated": data.get("not_elaborated", [])},
            indent=1) + "\n")
    score = killed / counted if counted else 1.0
    apart = len(outcomes) - counted
    print(f"killed {killed} of {counted}" + (f" ({apart} equivalent listed apart)" if apart else ""))
    _not_elaborated(data.get("not_elaborated", []))
    return 0 if counted and score >= args.min_score else 1


def main(argv: list[str] | None = None) -> int:
    try:
        root = source_dir()  # the checkout holding the working directory
    except RuntimeError as error:
        print(f"tcu-mutate: {error}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="tcu_mutate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("instrument")
    p.add_argument("--rtl", type=Path, default=root / "rtl")
    p.add_argument("--top", type=Path, default=root / "tb/tcu_sim_top.sv")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=0, help="order in which overlapping sites are taken")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="the campaign configuration's RTL parameters (sites it elaborates)")
    p.set_defaults(func=_instrument)
    default_list = root / "build/rtl/mutant/mutants.json"
    p = sub.add_parser("list")
    p.add_argument("--mutants", type=Path, default=default_list)
    p.set_defaults(func=_list)
    p = sub.add_parser("show")
    p.add_argument("number", type=int)
    p.add_argument("--mutants", type=Path, default=default_list)
    p.add_argument("--rtl", type=Path, default=root / "rtl")
    p.set_defaults(func=_show)
    p = sub.add_parser("run")
    p.add_argument("--tcu", type=Path, required=True)
    p.add_argument("--config", default="mutant")
    p.add_argument("--mutants", type=Path, default=default_list)
    p.add_argument("--vectors", type=Path, default=root / "tests/data")
    p.add_argument("--sample", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="comma-separated mutant numbers (0: the design itself)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=120.0, help="seconds a run may take")
    p.add_argument("--equivalent", type=Path, default=root / "spec/mutation_equivalent.txt")
    p.add_argument("--min-score", type=float, default=0.95)
    p.add_argument("--quick", action="store_true", help="the quick runs only")
    p.add_argument("--report", type=Path)
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=_run)
    args = parser.parse_args(argv)
    return args.func(args)
