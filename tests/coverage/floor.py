"""Checks a `tcu run --coverage` directory against floors: the share of
bins hit (or waived) per kind, and, where the run had RTL code coverage,
the share of rtl/ lines hit. Exit 0 when every floor holds, 1 naming what
falls short and, of each kind below its floor, every bin neither hit nor
waived ("missed: GROUP | NAME").
    python3 floor.py DIR KIND=FRACTION ... [lines=FRACTION]"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def shares(directory: Path) -> dict[str, float]:
    bins = json.loads((directory / "functional.json").read_text())["bins"]
    kinds: dict[str, list[int]] = {}
    for b in bins:
        done = b["hits"] > 0 or b["waiver"] is not None
        kinds.setdefault(b["kind"], [0, 0])
        kinds[b["kind"]][0] += done
        kinds[b["kind"]][1] += 1
    result = {kind: hit / total for kind, (hit, total) in kinds.items()}
    info = directory / "rtl.info"
    if info.exists():
        found = hit = 0
        in_rtl = False
        for line in info.read_text().splitlines():
            if line.startswith("SF:"):
                path = line[3:].strip()
                in_rtl = path.startswith("rtl/") or "/rtl/" in path
            elif in_rtl and line.startswith("DA:"):
                found += 1
                hit += int(line.split(",")[1]) > 0
        result["lines"] = hit / found if found else 0.0
    return result


def missed(directory: Path, kinds: set[str]) -> list[str]:
    bins = json.loads((directory / "functional.json").read_text())["bins"]
    return [f"{b['group']} | {b['name']}" for b in bins
            if b["kind"] in kinds and b["hits"] == 0 and b["waiver"] is None]


def main(argv: list[str]) -> int:
    directory = Path(argv[1])
    got = shares(directory)
    failures = []
    short: set[str] = set()
    for word in argv[2:]:
        kind, floor = word.split("=")
        if kind not in got:
            failures.append(f"{kind}: no such figure in {directory}")
        elif got[kind] + 1e-12 < float(floor):
            failures.append(f"{kind}: {got[kind]:.4f} below the floor {float(floor):.4f}")
            short.add(kind)
    for kind, share in sorted(got.items()):
        print(f"{kind:10} {100 * share:6.2f}%")
    for f in failures:
        print("FAIL:", f)
    for name in missed(directory, short):
        print("missed:", name)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
