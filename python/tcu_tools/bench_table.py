"""python3 -m tcu_tools.bench_table [--data FILE] [--check FILE | --write FILE]

The speed table: `tcu bench --json` as recorded in docs/data/bench.json
(scripts/bench_table.sh measures it again), as Markdown, a row per family.

Without --check or --write it prints the table (docs/hooks.py puts it into
docs/guide/simulation-speed.md when the site is built). A page that carries
it between the markers

    <!-- bench-table:begin -->
    <!-- bench-table:end -->

(README.md) is rewritten by --write; --check exits 1, naming the file, when
what is there is not the table of the data file (CTest: bench_table_current).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from tcu_tools import source_dir

DATA = Path("docs") / "data" / "bench.json"  # in the checkout (source_dir())
BEGIN, END = "<!-- bench-table:begin -->", "<!-- bench-table:end -->"
SECTION = re.compile(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), re.S)


class BenchTableError(Exception):
    """A data file or page that cannot be read or rendered."""


def _si(value: float) -> str:
    """3 significant figures with k / M (41354 -> 41.4k)."""
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def load(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise BenchTableError(f"{path}: {e}") from e
    if not isinstance(doc.get("families"), list) or not doc["families"]:
        raise BenchTableError(f"{path}: no 'families' (not the output of tcu bench --json)")
    return doc


def render(doc: dict, data_link: str) -> str:
    """The table and a line saying what was measured (the data file linked
    as `data_link`)."""
    rows = ["| family | golden instr/s | raw core cycles/s | raw core instr/s "
            "| stack instr/s | stack / raw | tcu run / stack |",
            "| --- | --: | --: | --: | --: | --: | --: |"]
    for i, f in enumerate(doc["families"]):
        try:
            golden = _si(f["golden_instr_per_s"])
            if "raw_core" in f:
                raw, stack = f["raw_core"], f["cosim_stack"]
                rtl = (f"{_si(raw['cycles_per_s'])} | {_si(raw['instr_per_s'])} "
                       f"| {_si(stack['instr_per_s'])} | {f['stack_to_raw_ratio']:.2f} "
                       f"| {f['run_to_stack_ratio']:.2f}")
            else:
                rtl = "– | – | – | – | –"
            rows.append(f"| {f['family']} | {golden} | {rtl} |")
        except (KeyError, TypeError) as e:
            raise BenchTableError(f"family {i}: missing field {e}") from e
    fe = doc.get("front_end", {})
    note = (f"`tcu bench --cpu-time`, tcu {doc.get('version', '?')}, configuration "
            f"`{doc.get('config', '?')}`, {fe.get('rf_bandwidth', '?')} register words a cycle, "
            f"one core, {doc.get('clock', '?')}, best of {doc.get('rounds_per_measurement', '?')} "
            f"rounds of {doc.get('seconds_per_measurement', '?')} s; "
            f"data: [docs/data/bench.json]({data_link}).")
    return "\n".join(rows) + "\n\n" + note + "\n"


def section(page: str, path: Path) -> re.Match:
    match = SECTION.search(page)
    if not match:
        raise BenchTableError(f"{path}: no section between {BEGIN} and {END}")
    return match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tcu_tools.bench_table")
    parser.add_argument("--data", type=Path,
                        help="tcu bench --json output (default: the checkout's " + str(DATA) + ")")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", type=Path, help="exit 1 if FILE's section is stale")
    mode.add_argument("--write", type=Path, help="rewrite FILE's section")
    args = parser.parse_args(argv)
    try:
        if args.data is None:
            args.data = source_dir() / DATA
        doc = load(args.data)
        if not args.check and not args.write:
            sys.stdout.write(render(doc, "/src/docs/data/bench.json"))
            return 0
        path = args.check or args.write
        table = render(doc, os.path.relpath(args.data.resolve(), path.resolve().parent))
        try:
            page = path.read_text()
        except OSError as e:
            raise BenchTableError(f"{path}: {e}") from e
        match = section(page, path)
        if args.check:
            if match.group(1) == table:
                return 0
            print(f"{path}: the speed table is not {args.data}'s: run "
                  f"python -m tcu_tools.bench_table --write {path}", file=sys.stderr)
            return 1
        path.write_text(page[:match.start(1)] + table + page[match.end(1):])
        return 0
    except (BenchTableError, RuntimeError) as e:
        print(f"bench_table: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
