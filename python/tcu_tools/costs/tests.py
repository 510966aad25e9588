"""python -m tcu_tools.costs.tests --build DIR [--section test|sanitizer_test]
    [--record FILE] [CTEST SELECTION...]

Each CTest test's CPU seconds (user + system of its whole process tree),
merged into the data file of costs (default docs/data/costs.toml).

CTest's own timing is wall time. The CPU time of a test's process tree is
what the kernel adds to a parent's RUSAGE_CHILDREN when it waits for a
child (and that child for its own): so each test runs alone, by a CTest
process of its own (`ctest -R ^NAME$ -FA .*`: its command, environment,
working directory and time limit as CTest gives them, no fixture pulled
in), and its figure is the growth of this process's RUSAGE_CHILDREN across
that CTest, less CTest's own start (a CTest that selects no test, measured
the same way). The tests run one after another in an order that keeps
CTest's DEPENDS and fixtures (setups first, cleanups last), so each
fixture's state is there when a test needs it. The selection (-L, -LE, -R,
-E ...) is passed to `ctest --show-only=json-v1` as given; a failing test
exits 1 and is not recorded.
"""
from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from tcu_tools.costs import data


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _properties(test: dict) -> dict:
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def listed(build: Path, selection: list[str]) -> list[dict]:
    """The selected tests in CTest's JSON listing."""
    done = subprocess.run(["ctest", "--test-dir", str(build), "--show-only=json-v1"] + selection,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"costs.tests: ctest --show-only in {build} exited "
                         f"{done.returncode}: {done.stderr.strip()[:400]}")
    return json.loads(done.stdout)["tests"]


def ordered(tests: list[dict]) -> list[dict]:
    """The tests in an order that runs each after its DEPENDS and its
    fixtures' setups, and each fixture's cleanups after its users."""
    by_name = {t["name"]: t for t in tests}
    setups: dict[str, list[str]] = {}
    cleanups: dict[str, list[str]] = {}
    for t in tests:
        props = _properties(t)
        for fixture in props.get("FIXTURES_SETUP", []):
            setups.setdefault(fixture, []).append(t["name"])
        for fixture in props.get("FIXTURES_CLEANUP", []):
            cleanups.setdefault(fixture, []).append(t["name"])
    before: dict[str, set[str]] = {t["name"]: set() for t in tests}
    for t in tests:
        props = _properties(t)
        own = set(props.get("FIXTURES_SETUP", [])) | set(props.get("FIXTURES_CLEANUP", []))
        before[t["name"]] |= {d for d in props.get("DEPENDS", []) if d in by_name}
        for fixture in props.get("FIXTURES_REQUIRED", []):
            if fixture in own:
                continue
            before[t["name"]] |= set(setups.get(fixture, []))
            for cleanup in cleanups.get(fixture, []):
                before[cleanup].add(t["name"])
    done: list[str] = []
    placed: set[str] = set()

    def place(name: str, path: tuple[str, ...]) -> None:
        if name in placed:
            return
        if name in path:
            raise SystemExit(f"costs.tests: a cycle of DEPENDS or fixtures: {' -> '.join(path)}")
        for first in sorted(before[name]):
            place(first, path + (name,))
        placed.add(name)
        done.append(name)

    for t in tests:
        place(t["name"], ())
    return [by_name[n] for n in done]


def _ctest(build: Path, pattern: str) -> tuple[int, float, float]:
    """(status, CPU s, wall s) of one CTest that selects `pattern`."""
    start, cpu = time.monotonic(), _children_cpu()
    done = subprocess.run(["ctest", "--test-dir", str(build), "-R", pattern, "-FA", ".*",
                           "--output-on-failure"], capture_output=True, text=True)
    seconds, cpu = time.monotonic() - start, _children_cpu() - cpu
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-3000:])
    return done.returncode, cpu, seconds


def measure(build: Path, tests: list[dict]) -> tuple[dict[str, dict], list[str]]:
    """Each test's entry, and the tests that failed."""
    starts = [_ctest(build, "^$")[1] for _ in range(3)]
    start = min(starts)  # CTest's own start, no test
    entries, failed = {}, []
    for t in tests:
        status, cpu, wall = _ctest(build, f"^{re.escape(t['name'])}$")
        print(f"{t['name']:48} {'passed' if status == 0 else 'FAILED':7} "
              f"{max(cpu - start, 0.0):8.1f} CPU s {wall:7.1f} s", flush=True)
        if status:
            failed.append(t["name"])
        else:
            entries[t["name"]] = {"cpu_s": round(max(cpu - start, 0.0), 1),
                                  "wall_s": round(wall, 1)}
    return entries, failed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tcu_tools.costs.tests",
                                description=__doc__.split("\n\n")[1])
    p.add_argument("--build", type=Path, required=True, help="the CTest build directory")
    p.add_argument("--section", default="test", choices=("test", "sanitizer_test"))
    p.add_argument("--record", type=Path, help="the data file (default docs/data/costs.toml)")
    args, selection = p.parse_known_args(argv)
    tests = ordered(listed(args.build, selection))
    if not tests:
        print("costs.tests: no test selected", file=sys.stderr)
        return 2
    entries, failed = measure(args.build, tests)
    file = args.record or data.path()
    version = subprocess.run(["ctest", "--version"], capture_output=True, text=True).stdout
    command = " ".join(["python -m tcu_tools.costs.tests", "--build", str(args.build),
                        "--section", args.section] + selection)
    run = data.new_run(f"{args.section}: {command}", command,
                       "each test alone by a CTest of its own, the growth of RUSAGE_CHILDREN "
                       "less CTest's start (tcu_tools.costs.tests)",
                       {"ctest": version.splitlines()[0] if version else "?"})
    data.record(file, run, args.section, entries)
    print(f"costs.tests: {len(entries)} test(s) recorded in {file}"
          + (f"; failed, not recorded: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
