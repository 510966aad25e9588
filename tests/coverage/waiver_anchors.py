"""The RTL line waivers of spec/coverage_waivers.txt against the source.

Each "rtl/FILE.sv:LINE[-LINE] | REASON" waiver's REASON starts with the
waived code in backquotes, which must be on the first waived line: a waiver
whose lines moved (an edit above them) is refused here, in the test command,
instead of waiving some other line or failing only in the second tier's
coverage build.

  python3 waiver_anchors.py REPO [WAIVERS]
      exit 0 when every anchor is on its line; 1 naming each that is not
  python3 waiver_anchors.py --planted REPO [WAIVERS]
      the proof the check can fail: each waiver in turn moved down one line
      must be refused, naming that waiver's line
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

WAIVER = re.compile(r"^(rtl/[\w./-]+\.sv):(\d+)(?:-(\d+))?\s*\|\s*(.*)$")
ANCHOR = re.compile(r"^`([^`]+)`")


def rtl_waivers(text: str) -> list[tuple[int, str, int, int, str]]:
    """(line in the waiver file, source file, first, last, reason) of each RTL waiver."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = WAIVER.match(line.split("#", 1)[0].strip()) if not line.startswith("#") else None
        if m:
            first = int(m.group(2))
            out.append((number, m.group(1), first, int(m.group(3) or first), m.group(4)))
    return out


def problems(repo: Path, where: str, text: str) -> list[str]:
    found = []
    for number, file, first, _last, reason in rtl_waivers(text):
        m = ANCHOR.match(reason)
        if not m:
            found.append(f"{where}:{number}: the reason does not start with the waived code in "
                         "backquotes")
            continue
        try:
            lines = (repo / file).read_text().splitlines()
        except OSError as e:
            found.append(f"{where}:{number}: {file}: {e.strerror}")
            continue
        if first > len(lines) or m.group(1) not in lines[first - 1]:
            got = lines[first - 1].strip() if first <= len(lines) else "past the end"
            found.append(f"{where}:{number}: {file}:{first} is '{got}', not '{m.group(1)}'")
    return found


def main(argv: list[str]) -> int:
    planted = bool(argv) and argv[0] == "--planted"
    args = argv[1:] if planted else argv
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    repo = Path(args[0])
    path = Path(args[1]) if len(args) > 1 else repo / "spec" / "coverage_waivers.txt"
    text = path.read_text()
    if not planted:
        found = problems(repo, str(path), text)
        for p in found:
            print(p, file=sys.stderr)
        if not found:
            print(f"{path}: every RTL waiver's code is on its line "
                  f"({len(rtl_waivers(text))} waivers)")
        return 1 if found else 0
    waivers = rtl_waivers(text)
    if not waivers:
        print(f"{path}: no RTL waiver to move", file=sys.stderr)
        return 1
    missed = 0
    for number, file, first, last, _reason in waivers:
        lines = text.splitlines()
        moved = f"{file}:{first + 1}" + (f"-{last + 1}" if last > first else "")
        lines[number - 1] = re.sub(r"^rtl/[\w./-]+\.sv:\d+(?:-\d+)?", moved, lines[number - 1])
        found = problems(repo, str(path), "\n".join(lines))
        if not any(p.startswith(f"{path}:{number}:") for p in found):
            print(f"{path}:{number}: moved down one line ({moved}) and not refused",
                  file=sys.stderr)
            missed += 1
    if missed:
        return 1
    print(f"planted: each of the {len(waivers)} RTL waivers moved down one line was refused")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
