"""The composition against the full flow: tcu_datapaths of one engine family
each and of two, mapped as tcu explore's full flow maps them (the dot units
black boxes at the data file's areas: `python -m tcu_tools.phys.area
tcu_datapath --around`), beside the composition of the same parameters from
spec/phys_osu018.toml. The mapped figures are kept in
tests/explore/data/bottom_up_datapaths.json (the command in it).

    python -m tcu_tools.explore.bottom_up --table
        the docs' Markdown table (docs/hooks.py, `<!-- generated:
        bottom-up-datapaths -->`): a row per datapath, the composition
        computed now; a datapath mapped at RTL other than this tree's
        (its rtl_files stamp) is marked stale
    python -m tcu_tools.explore.bottom_up --update JSON...
        the fixture's datapaths whose parameters a JSON of `tcu_tools.phys.area
        --around` (its top tcu_datapath) has, replaced by its figures

Exit 1 naming the file and the reason for a fixture or JSON that cannot be
read, or a JSON that matches no datapath of the fixture.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .params import checkout, config_spec

FIXTURE = Path("tests") / "explore" / "data" / "bottom_up_datapaths.json"  # in the checkout


class BottomUpError(RuntimeError):
    pass


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BottomUpError(f"{path}: {e}") from e


def load(path: Path | None = None) -> dict:
    path = path or checkout() / FIXTURE
    fixture = _read_json(path)
    rows = fixture.get("datapaths")
    if not isinstance(rows, list) or not rows:
        raise BottomUpError(f"{path}: no 'datapaths' list")
    for i, m in enumerate(rows):
        missing = [k for k in ("name", "params", "area_um2", "units", "rtl_files") if k not in m]
        if missing:
            raise BottomUpError(f"{path}: datapath {i}: missing {', '.join(missing)}")
    return fixture


def rows(fixture: dict, data: dict) -> list[dict]:
    """Per datapath: the full flow's area, the composition's (the router left
    out: the mapped top has none), the error, and whether the mapping is of
    this tree's RTL."""
    from tcu_tools.phys import compose, stamp
    spec = config_spec()
    now = stamp.files_hash("tcu_datapath")
    out = []
    for m in fixture["datapaths"]:
        c = compose.explored_point(data, spec.resolve(dict(m["params"])))
        if c is None:
            raise BottomUpError(f"{m['name']}: the data file composes no such datapath")
        composed = c["area_um2"] - c["router_area_um2"]
        out.append({"name": m["name"], "full_um2": m["area_um2"], "composed_um2": composed,
                    "error": composed / m["area_um2"] - 1, "units": m["units"],
                    "stale": m["rtl_files"] != now})
    return out


def table(fixture: dict, data: dict) -> str:
    lines = ["| datapath | dot units (µm² each, the data file's when mapped) | full flow µm² | composed µm² "
             "| area error |", "| --- | --- | --: | --: | --: |"]
    stale = []
    for r in rows(fixture, data):
        units = ", ".join(f"{u['count']} x {name.split('__')[0]} ({u['area_um2']:,.0f})"
                          for name, u in r["units"].items())
        mark = " (stale)" if r["stale"] else ""
        stale += [r["name"]] if r["stale"] else []
        lines.append(f"| {r['name']}{mark} | {units} | {r['full_um2']:,.0f} "
                     f"| {r['composed_um2']:,.0f} | {r['error']:+.1%} |")
    note = ("Every datapath mapped at this tree's RTL." if not stale else
            f"Stale: {len(stale)} of {len(lines) - 2} datapaths were mapped at RTL other than "
            f"this tree's (their full-flow area is not re-measured; the composition is).")
    return "\n".join(lines) + "\n\n" + note + "\n"


def update(fixture: dict, measured: list[Path]) -> dict:
    """The fixture with each --around JSON's figures in the datapath of its
    parameters (the fixture's parameters, as given to the command)."""
    for path in measured:
        m = _read_json(path)
        if m.get("top") != "tcu_datapath" or "rtl_files" not in m or "units" not in m:
            raise BottomUpError(f"{path}: not the JSON of `tcu_tools.phys.area tcu_datapath "
                                f"--around`")
        # the tool maps the synthesis forms (SynthImpl=1), given or not
        given = {k: v for k, v in m["params"].items() if k != "SynthImpl"}
        hits = [d for d in fixture["datapaths"]
                if {k: v for k, v in d["params"].items() if k != "SynthImpl"} == given]
        if not hits:
            raise BottomUpError(f"{path}: no datapath of the fixture has its parameters "
                                f"{m['params']}")
        for d in hits:
            d.update(area_um2=m["area_um2"], units=m["units"], rtl_files=m["rtl_files"])
    return fixture


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tcu_tools.explore.bottom_up",
                                     description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--table", action="store_true", help="print the docs' Markdown table")
    what.add_argument("--update", nargs="+", metavar="JSON", type=Path,
                      help="replace the datapaths these tcu_tools.phys.area --around JSONs measured")
    parser.add_argument("--fixture", type=Path, help=f"the fixture (default: {FIXTURE})")
    args = parser.parse_args(argv)
    path = args.fixture or checkout() / FIXTURE
    try:
        fixture = load(path)
        if args.table:
            from tcu_tools.phys import datafile
            data = datafile.load(checkout() / "spec" / "phys_osu018.toml")
            sys.stdout.write(table(fixture, data))
        else:
            path.write_text(json.dumps(update(fixture, args.update), indent=1,
                                       ensure_ascii=False) + "\n")
            print(f"{path}: {len(args.update)} datapath(s) updated")
    except (BottomUpError, RuntimeError) as e:
        print(f"tcu_tools.explore.bottom_up: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
