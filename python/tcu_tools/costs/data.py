"""The data file of CPU seconds (docs/data/costs.toml): read, checked, a
figure looked up by its key, and a measurement merged in.

The file holds measurements, each of one run:

  [[run]]                      name, date (UTC), machine, command, how
                               (what was measured and how), tools (the
                               versions, by name)
  [formal."LOG NAME"]          a formal check at one parameter set (its log's
                               name, tcu_tools.formal.checks.Check.name):
                               run, tier, pair, params, kind, cpu_s, wall_s,
                               tools (each tool's CPU seconds, from its log)
  [test."NAME"]                a CTest test of the main build: run, cpu_s, wall_s
  [sanitizer_test."NAME"]      one of the sanitizer build's
  [phase."NAME"]               a phase of scripts/test.sh: run, cpu_s, wall_s
  [figure."NAME"]              a measurement the pages quote that no recorder
                               repeats (a compile beside another compiler):
                               run, cpu_s, what

A key names a figure: SECTION/NAME, its CPU seconds; SECTION/GLOB, the sum
over the names that match (fnmatch); GLOB@TIER, over those of that tier
(formal); NAME:TOOL, one tool's part of a formal check (GLOB:TOOL summed
likewise). A marker's argument is keys (or numbers) joined by +, -, * and /,
taken left to right, then h for hours: `test/a + test/b`, `phase/* h`,
`formal/x:yosys-abc / 244` (a check's SAT calls, a slice's share).
"""
from __future__ import annotations

import datetime
import fnmatch
import os
import platform
import tomllib
from pathlib import Path

import tomli_w

from tcu_tools import source_dir

DATA = Path("docs") / "data" / "costs.toml"  # in the checkout (source_dir())
SECTIONS = ("formal", "test", "sanitizer_test", "phase", "figure")
RUN_KEYS = {"name", "date", "machine", "command", "how", "tools"}
HEADER = """\
# CPU seconds (user + system) of the formal checks, the CTest tests and the
# test command's phases: the one statement of them (tcu_tools.costs.data says
# the layout). The pages state them by <!-- cpu: KEY --> (docs/hooks.py);
# CTest costs_typed fails on a page or comment that types one by hand.
# Written by: tcu-formal --record FILE; python -m tcu_tools.costs.tests;
# python -m tcu_tools.costs.phases (scripts/test.sh with TCU_TEST_TIMES).
"""


class CostsError(ValueError):
    """A data file, or a key, that cannot be read: the message names it."""


def path() -> Path:
    return source_dir() / DATA


def load(file: Path | None = None) -> dict:
    """The data file, checked: each entry's run named in [[run]], its
    cpu_s a number. A malformed file is a CostsError naming the entry."""
    file = file or path()
    try:
        data = tomllib.loads(file.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CostsError(f"{file}: {error}") from None
    unknown = set(data) - set(SECTIONS) - {"run"}
    if unknown:
        raise CostsError(f"{file}: unknown table(s) {', '.join(sorted(unknown))} "
                         f"(known: run, {', '.join(SECTIONS)})")
    runs = set()
    for number, run in enumerate(data.get("run", []), 1):
        if not isinstance(run, dict) or not isinstance(run.get("name"), str):
            raise CostsError(f"{file}: [[run]] {number}: no name")
        if set(run) - RUN_KEYS:
            raise CostsError(f"{file}: [[run]] {run['name']}: unknown key(s) "
                             f"{', '.join(sorted(set(run) - RUN_KEYS))}")
        runs.add(run["name"])
    for section in SECTIONS:
        for name, entry in data.get(section, {}).items():
            where = f"{file}: [{section}.\"{name}\"]"
            if not isinstance(entry, dict):
                raise CostsError(f"{where}: not a table")
            if entry.get("run") not in runs:
                raise CostsError(f"{where}: run {entry.get('run')!r} is no [[run]]'s name")
            cpu = entry.get("cpu_s")
            if not isinstance(cpu, (int, float)) or isinstance(cpu, bool) or cpu < 0:
                raise CostsError(f"{where}: cpu_s must be a number of seconds >= 0")
    return data


def seconds(data: dict, key: str) -> float:
    """The CPU seconds a key names (see the module's doc)."""
    section, _, rest = key.partition("/")
    if section not in SECTIONS or not rest:
        raise CostsError(f"cpu key {key!r}: not SECTION/NAME ({', '.join(SECTIONS)})")
    pattern, _, tool = rest.partition(":")
    pattern, _, tier = pattern.partition("@")
    entries = data.get(section, {})
    names = [n for n in entries if fnmatch.fnmatchcase(n, pattern)
             and (not tier or entries[n].get("tier") == tier)]
    if not names:
        raise CostsError(f"cpu key {key!r}: no [{section}] entry matches {pattern!r}"
                         + (f" of tier {tier}" if tier else "") + f" in {DATA}")
    if not tool:
        return sum(entries[n]["cpu_s"] for n in names)
    missing = [n for n in names if tool not in entries[n].get("tools", {})]
    if missing:
        raise CostsError(f"cpu key {key!r}: [{section}.\"{missing[0]}\"] has no tool {tool!r}")
    return sum(entries[n]["tools"][tool] for n in names)


def text(value: float, unit: str = "") -> str:
    """A figure as the pages state it: hours to one decimal; seconds whole
    (with thousands separators) from 20 up, to one decimal below (a whole
    number without it); halves rounded up."""
    if unit == "h":
        return f"{int(value / 360 + 0.5) / 10:.1f}"
    if unit:
        raise CostsError(f"cpu unit {unit!r}: only h (hours), or none (seconds)")
    if value >= 20:
        return f"{int(value + 0.5):,}"
    return f"{int(value * 10 + 0.5) / 10:.1f}".removesuffix(".0")


def _term(data: dict, term: str) -> float:
    """A key's seconds, or a number written out (a count to divide by)."""
    try:
        return float(term)
    except ValueError:
        return seconds(data, term)


def figure(data: dict, spec: str) -> str:
    """The text of a marker's argument: keys (or numbers) joined by +, -, *
    and /, taken left to right, then an optional unit (h)."""
    terms = spec.split()
    unit = terms.pop() if len(terms) % 2 == 0 else ""
    if not terms:
        raise CostsError("cpu: an empty marker")
    total = _term(data, terms[0])
    for op, term in zip(terms[1::2], terms[2::2]):
        if op not in ("+", "-", "*", "/"):
            raise CostsError(f"cpu {spec!r}: {op!r} is none of + - * /")
        value = _term(data, term)
        total = (total + value if op == "+" else total - value if op == "-"
                 else total * value if op == "*" else total / value)
    return text(total, unit)


def machine() -> str:
    """The CPU model and the cores this process may use."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {len(os.sched_getaffinity(0))} cores"


def new_run(name: str, command: str, how: str, tools: dict[str, str]) -> dict:
    return {"name": name, "date": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(), "command": command,
            "how": how, "tools": tools}


def record(file: Path, run: dict, section: str, entries: dict[str, dict]) -> None:
    """Merges a run's entries into the data file (made if absent): each
    entry replaces the one of its name; a [[run]] that no entry names any
    more is dropped."""
    data = load(file) if file.is_file() else {}
    for entry in entries.values():
        entry["run"] = run["name"]
    data.setdefault(section, {}).update(entries)
    data["run"] = [r for r in data.get("run", []) if r["name"] != run["name"]] + [run]
    write(file, data)


def write(file: Path, data: dict) -> None:
    """The data file, each table's entries by name; a [[run]] that no entry
    names is dropped."""
    used = {e["run"] for s in SECTIONS for e in data.get(s, {}).values()}
    ordered = {"run": [r for r in data.get("run", []) if r["name"] in used]}
    ordered.update({s: dict(sorted(data[s].items())) for s in SECTIONS if data.get(s)})
    file.write_text(HEADER + tomli_w.dumps(ordered))
