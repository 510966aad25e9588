"""python -m tcu_tools.costs.check [--data FILE] [--plant] [FILE...]

Fails when a page or a comment states a CPU figure typed by hand instead of
the data file's (docs/data/costs.toml), so that no page keeps a figure its
data no longer gives. The files (default: every text file git tracks, but
the data file and this package's own code and tests) state a figure by
`<!-- cpu: KEY -->` in the site's pages (docs/*.md: docs/hooks.py renders
it), elsewhere by naming the data file and the figure's name; outside the
markers a line may not hold

  - a number with a CPU unit: "150 CPU s", "30 s CPU", "1.5 CPU hours";
  - a number right after a name the data holds (`equiv_default` about 150,
    `explore_unit` 22): the data's figure is named beside it;
  - a number in a Markdown table's column whose heading says CPU.

Each page's marker must name a figure of the data file. Exit 1 naming
FILE:LINE, the figure typed and the data's; --plant plants one figure of
each kind in copies of the pages and exits 0 only if each is found.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tcu_tools import source_dir
from tcu_tools.costs import data

# Not scanned: the data, and this package's own code and tests (which spell
# out typed figures to find them).
OWN = ("docs/data/costs.toml", "python/tcu_tools/costs/", "tests/costs/")
LARGEST = 1_000_000  # bytes: larger files are data (vector files), not text to read
MARKER = re.compile(r"<!-- cpu: *(.*?) *-->")
CONTINUATION = re.compile(r"^\s*(?:#+|//+|\*|-(?= ))?\s*")  # a comment's or list's mark
NUMBER = r"\d[\d,]*(?:\.\d+)?"
UNIT = re.compile(rf"\b({NUMBER})(?:\s*s)?\s+CPU[ -](?:s|sec|seconds?|minutes?|hours?)\b"
                  rf"|\b({NUMBER})\s*s\s+CPU\b")
# After a name: "about", "takes", "of" ... then the number (not one of a
# width or a count: those are followed by their noun).
AFTER_NAME = (rf"`\s*(?:\(|,)?\s*(?:takes\s+|about\s+|in\s+)*({NUMBER})\b"
              r"(?!\s*(?:words?|slots?|bits?|sets?|cases?|runs?|%|MB|GB|x\b))")


def _names(costs: dict) -> dict[str, str]:
    """Each name the data holds, and its key."""
    names = {}
    for section in data.SECTIONS:
        for name in costs.get(section, {}):
            names.setdefault(name, f"{section}/{name}")
    return names


def _table_columns(header: str) -> list[int]:
    cells = [c.strip() for c in header.strip().strip("|").split("|")]
    return [i for i, c in enumerate(cells) if re.search(r"\bCPU\b", c)]


def scan(file: Path, rel: str, costs: dict) -> list[tuple[str, int, str]]:
    findings = []
    page = rel.startswith("docs/") and rel.endswith(".md")
    names = _names(costs)
    after = re.compile(r"`(" + "|".join(re.escape(n) for n in sorted(names, key=len,
                                                                          reverse=True))
                       + r")" + AFTER_NAME) if names else None
    cpu_columns: list[int] = []
    lines = file.read_text(errors="replace").splitlines()
    for number, line in enumerate(lines, 1):
        for key in MARKER.findall(line) if page else ():
            try:
                data.figure(costs, key)
            except data.CostsError as error:
                findings.append((rel, number, f"marker {key!r}: {error}"))
        bare = MARKER.sub("<cpu>", line)
        if bare.lstrip().startswith("|"):
            cells = [c.strip() for c in bare.strip().strip("|").split("|")]
            if cpu_columns and re.fullmatch(r"[-:| ]+", bare.strip()) is None:
                for column in cpu_columns:
                    if column < len(cells) and re.search(r"\d", cells[column]):
                        findings.append((rel, number, f"{cells[column]!r} typed in a CPU "
                                         "column: write <!-- cpu: KEY -->"))
            elif not cpu_columns:
                cpu_columns = _table_columns(bare)
        else:
            cpu_columns = []
        # A figure may wrap: the next line joined on, its comment mark dropped.
        following = MARKER.sub("<cpu>", lines[number]) if number < len(lines) else ""
        joined = bare + " " + CONTINUATION.sub("", following)
        for match in UNIT.finditer(joined):
            if match.start() < len(bare):
                findings.append((rel, number, f"{match[0]!r}: a CPU figure typed by hand: "
                                 + (f"write <!-- cpu: KEY --> of {data.DATA}" if page else
                                    f"record it in {data.DATA} and name it there")))
        for match in (after.finditer(bare) if after else ()):
            key = names[match[1]]
            findings.append((rel, number, f"`{match[1]}` {match[2]}: typed by hand; "
                             f"{data.DATA} gives {data.figure(costs, key)} "
                             f"(<!-- cpu: {key} -->)"))
    return sorted(set(findings))


def tree_files(root: Path) -> list[str]:
    """The text files git tracks or would track (not ignored), but OWN's."""
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], capture_output=True, check=True).stdout
    files = []
    for rel in sorted({p for p in out.decode().split("\0") if p}):
        path = root / rel
        if rel.startswith(OWN) or not path.is_file() or path.stat().st_size > LARGEST:
            continue
        if b"\0" not in path.read_bytes()[:8192]:
            files.append(rel)
    return files


def check(root: Path, files: list[str], costs: dict) -> list[tuple[str, int, str]]:
    findings = []
    for rel in files:
        findings += scan(root / rel, rel, costs)
    return findings


# One figure of each kind, planted in a copy of the page: (file, the text
# replaced, what replaces it); "" appends a line.
PLANTS = (
    ("docs/guide/formal.md", "", "The f16 dot's four sets take about 30 s CPU.\n"),
    ("docs/guide/test-tiers.md", "", "- `explore_unit` about 23, the unit tests.\n"),
    ("docs/guide/test-tiers.md", "| <!-- cpu: phase/main-configure --> |", "| 106 |"),
    ("tests/CMakeLists.txt", "", "# equiv_full: about 1.5 CPU hours on two cores.\n"),
    ("formal/checks.toml", "", "# the gather at 1 word, about 140\n# CPU s without the bypass\n"),
    ("docs/guide/formal.md", "", "The proofs take <!-- cpu: test/no_such_test --> CPU s.\n"),
)


def plant(root: Path, costs: dict) -> bool:
    caught = True
    for rel, old, new in PLANTS:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / rel
            copy.parent.mkdir(parents=True)
            shutil.copyfile(root / rel, copy)
            text = copy.read_text()
            if old and old not in text:
                print(f"MISSED: {rel} has no {old!r} to replace")
                caught = False
                continue
            copy.write_text(text.replace(old, new, 1) if old else text + new)
            found = [f for f in scan(copy, rel, costs) if f not in scan(root / rel, rel, costs)]
            print(f"{'caught' if found else 'MISSED'}: {new.strip()!r} in {rel}"
                  + (f": {found[0][2]}" if found else ""))
            caught &= bool(found)
    return caught


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tcu_tools.costs.check",
                                description=__doc__.split("\n\n")[1])
    p.add_argument("--data", type=Path, help="the data file (default docs/data/costs.toml)")
    p.add_argument("--plant", action="store_true",
                   help="plant a typed figure of each kind in copies: each must be found")
    p.add_argument("files", nargs="*", help="files of the checkout (default: every text file "
                   "git tracks, but the data and this package's own)")
    args = p.parse_args(argv)
    root = source_dir()
    try:
        costs = data.load(args.data)
    except data.CostsError as error:
        print(f"costs.check: {error}", file=sys.stderr)
        return 2
    if args.plant:
        return 0 if plant(root, costs) else 1
    files = args.files or tree_files(root)
    findings = check(root, files, costs)
    for rel, number, what in findings:
        print(f"{rel}:{number}: {what}")
    if findings:
        print(f"costs.check: {len(findings)} CPU figure(s) not from {data.DATA}", file=sys.stderr)
        return 1
    print(f"costs.check: every CPU figure of {len(files)} file(s) is {data.DATA}'s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
