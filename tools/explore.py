#!/usr/bin/env python3
"""tcu explore: sweep the datapath's parameters over a workload.

For every point of a sweep (the cartesian product of its axes) this builds
the Verilated model at the point's RTL parameters (once, cached by a hash of
the RTL sources and the parameters), runs the workload on it through the
SystemC front-end (`tcu gemm` or `tcu run --mix`, D checked), synthesizes
the datapath with Yosys at the same parameters (scripts/synth.sh, cached the
same way), and writes

  explore.csv                one row per point (columns: README, "tcu explore")
  explore.json               the sweep, the workload and the shard it covers
  throughput_vs_area.png     MACs/cycle against transistors, Pareto front marked
  utilization_vs_rf.png      MAC utilization against register-file bandwidth

and prints a one-screen table. `tcu explore merge` joins the output folders
of shards (`--shard i/N`) into one.

`tcu explore` runs this file with the interpreter of the project's .venv
(matplotlib); run it directly as `.venv/bin/python tools/explore.py ...`.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import fcntl
import hashlib
import itertools
import json
import math
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SOURCE_DIR / "spec"))
import tcu_spec  # noqa: E402  (spec/tcu_spec.py: the configuration spec)

CONFIG_NAME = "explore"  # the one configuration a point's build Verilates

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

# Parameters of the run, not of the RTL: changing them needs no rebuild and
# no synthesis.
RUN_PARAMETERS = {
    "rf_bandwidth": (int, "32-bit lane registers the front-end reads or writes per cycle "
                     "(default: the point's WordsPerCycle; at most that)"),
    "rf_banks": (int, "register-file banks (register i of an instruction in bank i % banks)"),
    "rf_read_ports": (int, "register reads per bank per cycle, 32 lanes each"),
    "rf_write_ports": (int, "register writes per bank per cycle, 32 lanes each"),
    "warps": (int, "warps sharing the unit (gemm workloads)"),
    "backpressure": (float, "probability that out_ready is low in a cycle"),
}
# rf_bandwidth 0: the point's WordsPerCycle.
RUN_DEFAULTS = {"rf_bandwidth": 0, "rf_banks": 16, "rf_read_ports": 1, "rf_write_ports": 1,
                "warps": 1, "backpressure": 0.0}
# Integer run parameters: their range, and the tcu option that takes them
# (model/include/tcu/timing.h states the register file's ranges).
RUN_RANGES = {"rf_bandwidth": (1, 4096), "rf_banks": (1, 1024), "rf_read_ports": (1, 64),
              "rf_write_ports": (1, 64), "warps": (1, None)}
RUN_OPTIONS = {"rf_bandwidth": "--rf-bandwidth", "rf_banks": "--rf-banks",
               "rf_read_ports": "--rf-read-ports", "rf_write_ports": "--rf-write-ports"}


class UsageError(Exception):
    """A bad sweep or command line: exit 2 with the message."""


# ---------------------------------------------------------------------------
# The RTL's parameters: spec/config.toml (the datapath's and the operand
# router's), with their defaults.
# ---------------------------------------------------------------------------
def config_spec() -> tcu_spec.Spec:
    try:
        return tcu_spec.load()
    except tcu_spec.SpecError as error:
        raise SystemExit(f"explore: {error}") from None


def rtl_parameters() -> dict[str, int]:
    return {p.name: p.default for p in config_spec().parameters if p.axis}


def router_parameters() -> list[str]:
    """The operand router's parameters (the rest are the datapath's)."""
    return [p.name for p in config_spec().parameters
            if p.axis and "tcu_operand_router" in p.modules]


def check_point_rules(index: int, point: dict[str, object]) -> None:
    """UsageError if the point's RTL parameters break a rule of the spec."""
    spec = config_spec()
    values = spec.defaults()
    values.update({name: int(point[name]) for name in values if name in point})
    if why := spec.error(values):
        raise UsageError(f"point {index}: {why}")


# ---------------------------------------------------------------------------
# The sweep
# ---------------------------------------------------------------------------
@dataclass
class Workload:
    kind: str = "gemm"  # gemm or mix
    ptx: str = ""
    m: int = 0
    n: int = 0
    k: int = 0
    count: int = 0  # mix: instructions
    seed: int = 1

    def describe(self) -> str:
        if self.kind == "mix":
            return f"mix of every variant, {self.count} instructions, seed {self.seed}"
        return f"gemm {self.ptx} M={self.m} N={self.n} K={self.k}, seed {self.seed}"


@dataclass
class Sweep:
    axes: dict[str, list] = field(default_factory=dict)  # in file, then command-line order
    fixed: dict[str, object] = field(default_factory=dict)
    workload: Workload = field(default_factory=Workload)

    def points(self, defaults: dict[str, object]) -> list[dict[str, object]]:
        names = list(self.axes)
        result = []
        for values in itertools.product(*(self.axes[n] for n in names)):
            point = dict(defaults)
            point.update(self.fixed)
            point.update(zip(names, values))
            result.append(point)
        return result

    def to_json(self) -> dict:
        return {"axes": self.axes, "fixed": self.fixed, "workload": vars(self.workload)}


def convert(name: str, value, where: str, rtl: dict[str, int]):
    """A parameter value of the right type, or UsageError naming `where`."""
    if name in rtl:
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, str) and re.fullmatch(r"[0-9]+", value.strip()):
            value = int(value)
        if not isinstance(value, int) or value < 0:
            raise UsageError(f"{where}: {name} must be a non-negative integer, not {value!r}")
        return value
    kind = RUN_PARAMETERS[name][0]
    try:
        converted = kind(value)
    except (TypeError, ValueError):
        raise UsageError(f"{where}: {name} must be {'an integer' if kind is int else 'a number'}, "
                         f"not {value!r}") from None
    if isinstance(value, float) and kind is int and value != converted:
        raise UsageError(f"{where}: {name} must be an integer, not {value!r}")
    if name == "backpressure" and not 0 <= converted < 1:
        raise UsageError(f"{where}: backpressure must be in [0, 1), not {value!r}")
    if name in RUN_RANGES:
        low, high = RUN_RANGES[name]
        if converted < low:
            raise UsageError(f"{where}: {name} must be at least {low}, not {value!r}")
        if high is not None and converted > high:
            raise UsageError(f"{where}: {name} must be at most {high}, not {value!r}")
    return converted


def check_name(name: str, where: str, rtl: dict[str, int]) -> None:
    if name not in rtl and name not in RUN_PARAMETERS:
        raise UsageError(f"{where}: unknown parameter '{name}' (RTL parameters of "
                         f"spec/config.toml: {', '.join(rtl)}; run parameters: "
                         f"{', '.join(RUN_PARAMETERS)})")


def key_line(text: str, key: str) -> int | None:
    """The line of a TOML file where `key` is first assigned (for messages)."""
    pattern = re.compile(rf"^\s*(\"?{re.escape(key)}\"?\s*=|\[\s*{re.escape(key)}\s*\])")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return None


def read_sweep_file(path: Path, rtl: dict[str, int], sweep: Sweep) -> None:
    try:
        text = path.read_text()
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path}: not valid TOML: {error}") from None

    def where(key: str) -> str:
        line = key_line(text, key)
        return f"{path}:{line}" if line else f"{path}"

    unknown = set(data) - {"axes", "fixed", "workload"}
    if unknown:
        name = sorted(unknown)[0]
        raise UsageError(f"{where(name)}: unknown table or key '{name}' "
                         "(a sweep has [axes], [fixed] and [workload])")
    for name, values in data.get("axes", {}).items():
        check_name(name, where(name), rtl)
        if not isinstance(values, list) or not values:
            raise UsageError(f"{where(name)}: axes.{name} must be a non-empty list of values")
        sweep.axes[name] = [convert(name, v, where(name), rtl) for v in values]
    for name, value in data.get("fixed", {}).items():
        check_name(name, where(name), rtl)
        sweep.fixed[name] = convert(name, value, where(name), rtl)
    workload = data.get("workload", {})
    fields = {"kind": str, "ptx": str, "m": int, "n": int, "k": int, "count": int, "seed": int}
    for name, value in workload.items():
        if name not in fields:
            raise UsageError(f"{where(name)}: unknown workload key '{name}' "
                             f"(known: {', '.join(fields)})")
        if not isinstance(value, fields[name]) or isinstance(value, bool):
            raise UsageError(f"{where(name)}: workload.{name} must be "
                             f"{'a string' if fields[name] is str else 'an integer'}")
        setattr(sweep.workload, name, value)


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    if "=" not in text:
        raise UsageError(f"{option} {text}: expected NAME=VALUE")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def parse_value(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def check_workload(workload: Workload) -> None:
    if workload.kind not in ("gemm", "mix"):
        raise UsageError(f"workload kind '{workload.kind}': expected gemm or mix")
    if workload.kind == "gemm":
        missing = [n for n in ("ptx", "m", "n", "k") if not getattr(workload, n)]
        if missing:
            raise UsageError("a gemm workload needs --ptx, --m, --n and --k (or [workload] ptx, m, "
                             f"n, k in the sweep file); missing: {', '.join(missing)}")
    elif workload.count < 1:
        raise UsageError("a mix workload needs --mix COUNT (or [workload] count) of at least 1")


# ---------------------------------------------------------------------------
# Builds and synthesis, cached by content
# ---------------------------------------------------------------------------
def rtl_fingerprint() -> dict[str, str]:
    # The spec too: a point's tool compiles DatapathConfig from it.
    files = sorted(list((SOURCE_DIR / "rtl").glob("*.sv")) + list((SOURCE_DIR / "rtl").glob("*.vlt"))
                   + list((SOURCE_DIR / "tb").glob("*.sv")) + [tcu_spec.SPEC_FILE])
    return {str(f.relative_to(SOURCE_DIR)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in files}


def tool_version(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "missing"


def content_key(kind: str, rtl_params: dict[str, int], fingerprint: dict[str, str],
                tool: str) -> str:
    text = json.dumps({"kind": kind, "params": rtl_params, "rtl": fingerprint, "tool": tool},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Locked:
    """An exclusive lock on a cache entry (shards on one machine share it)."""

    def __init__(self, directory: Path):
        directory.mkdir(parents=True, exist_ok=True)
        self.file = open(directory / ".lock", "w")

    def __enter__(self):
        fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()


def run_logged(command: list[str], log: Path, env: dict | None = None,
               timeout: float | None = None) -> int:
    with open(log, "a") as out:
        out.write(f"$ {shlex.join(command)}\n")
        out.flush()
        try:
            return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                  timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            out.write(f"explore: timed out after {timeout} s\n")
            return -1


def log_excerpt(log: Path, lines: int = 6) -> str:
    """The lines of a failed step's log that say why (CMake, Verilator,
    compiler or Yosys errors), else its last lines."""
    try:
        text = log.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    pattern = re.compile(r"CMake Error|^%Error|error:|ERROR|\$fatal|must be|refused", re.I)
    picked = [i for i, line in enumerate(text) if pattern.search(line)]
    if picked:
        first = picked[0]
        chosen = text[first:first + lines]
    else:
        chosen = text[-lines:]
    return "\n".join("    " + line.strip() for line in chosen if line.strip())


@dataclass
class Base:
    """A build of this project whose configuration-independent objects and
    libraries every point's tool links (cmake/TcuExplorePoint.cmake), so a
    point compiles only its Verilated model."""
    directory: Path
    settings: dict[str, str]

    @staticmethod
    def find(directory: str | None) -> "Base | None":
        if not directory:
            return None
        path = Path(directory).resolve()
        text_file = path / "tcu-explore-base.cmake"
        if not text_file.exists():
            raise UsageError(f"--base {directory}: no tcu-explore-base.cmake there (a build of "
                             "this project with the RTL; or leave --base out to build each point "
                             "in full)")
        settings = dict(re.findall(r'^set\((\w+) "([^"]*)"\)', text_file.read_text(), re.M))
        return Base(path, settings)

    def configure_args(self) -> list[str]:
        return [f"-DTCU_EXPLORE_BASE={self.directory}",
                f"-DCMAKE_CXX_COMPILER={self.settings.get('TCU_BASE_CXX_COMPILER', 'c++')}",
                f"-DCMAKE_BUILD_TYPE={self.settings.get('TCU_BASE_BUILD_TYPE', 'Release')}"]


@dataclass
class Build:
    key: str
    directory: Path
    params: dict[str, int]
    base: Base | None = None
    seconds: float = 0.0
    cached: bool = False
    error: str = ""

    @property
    def tcu(self) -> Path:
        return self.directory / "tcu"


def build_model(build: Build, jobs: int) -> None:
    """Configures (once) and builds the `tcu` tool with the point's datapath
    as its one configuration. ninja makes a second build of the same entry
    a no-op; C++ changes of the project rebuild only what they touch."""
    log = build.directory / "build.log"
    start = time.monotonic()
    with Locked(build.directory):
        stamp = build.directory / "built.json"
        if stamp.exists() and json.loads(stamp.read_text()).get("source") == str(SOURCE_DIR):
            build.cached = True
        if not (build.directory / "build.ninja").exists():
            assignments = ";".join(f"{k}={v}" for k, v in build.params.items())
            command = ["cmake", "-S", str(SOURCE_DIR), "-B", str(build.directory), "-G", "Ninja",
                       f"-DTCU_CONFIGS={CONFIG_NAME}",
                       f"-DTCU_CONFIG_{CONFIG_NAME}={assignments}"]
            if build.base:
                command += build.base.configure_args()
            else:
                command += ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF",
                            "-DTCU_BUILD_PYTHON=OFF"]
            if run_logged(command, log) != 0:
                build.error = f"cmake configure failed (see {log})"
                build.seconds = time.monotonic() - start
                return
        command = ["cmake", "--build", str(build.directory), "--target", "tcu", "-j", str(jobs)]
        before = build.tcu.stat().st_mtime_ns if build.tcu.exists() else 0
        if run_logged(command, log) != 0:
            build.error = f"build failed (see {log})"
        elif build.tcu.stat().st_mtime_ns != before:
            build.cached = False
        stamp.write_text(json.dumps({"source": str(SOURCE_DIR), "params": build.params}))
    build.seconds = time.monotonic() - start


@dataclass
class Synthesis:
    key: str
    directory: Path
    params: dict[str, int]
    top: str = "tcu_datapath"  # or tcu_operand_router: figures prefixed router_
    seconds: float = 0.0
    cached: bool = False
    error: str = ""
    figures: dict[str, str] = field(default_factory=dict)


def synthesize(synth: Synthesis, timeout: float | None) -> None:
    result = synth.directory / "synth.csv"
    start = time.monotonic()
    with Locked(synth.directory):
        if not result.exists():
            log = synth.directory / "synth.log"
            params = " ".join(f"{k}={v}" for k, v in synth.params.items())
            partial = synth.directory / "synth.partial.csv"
            env = dict(os.environ, SYNTH_DIR=str(synth.directory))
            status = run_logged([str(SOURCE_DIR / "scripts" / "synth.sh"), "--params", params,
                                 "--csv", str(partial), synth.top], log, env, timeout)
            if status != 0:
                synth.error = ("synthesis timed out" if status == -1
                               else "synthesis failed") + f" (see {log})"
                synth.seconds = time.monotonic() - start
                return
            partial.rename(result)
        else:
            synth.cached = True
        with open(result) as f:
            row = next(csv.DictReader(f))
        synth.figures = {k: row[k] for k in ("cells", "flip_flops", "transistors", "logic_depth")}
        # stat -tech cmos leaves flip-flops out ("221570+"): the column is a
        # number, and its meaning is stated in the README.
        synth.figures["transistors"] = synth.figures["transistors"].rstrip("+")
        if not synth.cached:
            synth.figures["synth_s"] = row["seconds"]
        if synth.top == "tcu_operand_router":
            synth.figures = {f"router_{k}": v for k, v in synth.figures.items()}
    synth.seconds = time.monotonic() - start


# ---------------------------------------------------------------------------
# Running a point
# ---------------------------------------------------------------------------
SHAPE_RE = re.compile(r"\.m(\d+)n(\d+)k(\d+)\.")


def instruction_macs(ptx: str) -> int:
    m = SHAPE_RE.search(ptx)
    if not m:
        raise ValueError(f"no mMnNkK shape in {ptx}")
    return int(m.group(1)) * int(m.group(2)) * int(m.group(3))


def flatten(prefix: str, value, out: dict) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}_{k}" if prefix else k, v, out)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        out[prefix] = value


def run_point(point: dict, build: Build, workload: Workload, directory: Path) -> dict:
    """Runs the workload on the point's model; the figures for its row."""
    directory.mkdir(parents=True, exist_ok=True)
    report = directory / "report.json"
    log = directory / "run.log"
    log.write_text("")
    common = ["--engine", "rtl", "--config", CONFIG_NAME, "--seed", str(workload.seed),
              "--backpressure", repr(float(point["backpressure"])), "--report", str(report)]
    for name, option in RUN_OPTIONS.items():
        common += [option, str(point[name])]
    if workload.kind == "gemm":
        command = [str(build.tcu), "gemm", "--ptx", workload.ptx, "--m", str(workload.m),
                   "--n", str(workload.n), "--k", str(workload.k), "--warps",
                   str(point["warps"])] + common
    else:
        command = [str(build.tcu), "run", "--mix", "--count", str(workload.count), "--jobs", "1"
                   ] + common
    start = time.monotonic()
    status = run_logged(command, log)
    figures: dict[str, object] = {"run_s": round(time.monotonic() - start, 2)}
    if not report.exists():
        figures["status"] = f"run failed, exit {status} (see {log})"
        return figures
    data = json.loads(report.read_text())
    if status != 0 or data.get("failed", 0) or data.get("engine_errors", 0):
        figures["status"] = f"run failed, exit {status} (see {log})"
    if workload.kind == "gemm":
        gemm = data["gemm"]
        figures.update(instructions=gemm["instructions"], macs=gemm["macs"],
                       cycles=gemm["cycles"], peak_macs_per_cycle=gemm["peak_macs_per_cycle"])
    else:
        variants = data["variants"]
        figures.update(instructions=sum(v["passed"] + v["failed"] for v in variants),
                       macs=sum((v["passed"] + v["failed"]) * instruction_macs(v["ptx"])
                                for v in variants),
                       cycles=sum(v["cycles"] for v in variants))
    if figures.get("cycles"):
        figures["macs_per_cycle"] = round(figures["macs"] / figures["cycles"], 3)
        if figures.get("peak_macs_per_cycle"):
            figures["mac_utilization"] = round(
                figures["macs_per_cycle"] / figures["peak_macs_per_cycle"], 4)
    activity: dict[str, object] = {}
    flatten("", data.get("activity", data.get("gemm", {}).get("activity", {})), activity)
    figures.update({f"act_{k}": v for k, v in activity.items()})
    return figures


# ---------------------------------------------------------------------------
# Output: CSV, plots, table
# ---------------------------------------------------------------------------
FIGURE_COLUMNS = ["instructions", "macs", "cycles", "peak_macs_per_cycle", "macs_per_cycle",
                  "mac_utilization", "cells", "flip_flops", "transistors", "logic_depth",
                  "router_cells", "router_flip_flops", "router_transistors", "router_logic_depth",
                  "build_s", "run_s", "synth_s", "router_synth_s"]


def number(text) -> float | None:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def pareto_front(rows: list[dict]) -> set[int]:
    """Points no other point beats on both area (fewer transistors, or cells
    where transistors are missing) and throughput (MACs/cycle)."""
    area_key = "transistors" if any(number(r.get("transistors")) for r in rows) else "cells"
    candidates = [(number(r.get(area_key)), number(r.get("macs_per_cycle")), int(r["point"]))
                  for r in rows]
    candidates = [c for c in candidates if c[0] is not None and c[1] is not None]
    front = set()
    for area, rate, point in candidates:
        dominated = any((a <= area and r >= rate) and (a < area or r > rate)
                        for a, r, _ in candidates)
        if not dominated:
            front.add(point)
    return front


def label(row: dict, axes: list[str]) -> str:
    short = {"Int4MacsPerCycle": "int4", "E2m1MacsPerCycle": "e2m1", "F16FmasPerCycle": "f16",
             "F64FmasPerCycle": "f64", "IntStages": "ist", "E2m1Stages": "est",
             "FmaStages": "fst", "rf_bandwidth": "rf", "rf_banks": "rfb", "rf_read_ports": "rfr",
             "rf_write_ports": "rfw", "warps": "w", "backpressure": "bp"}
    return " ".join(f"{short.get(a, a)}={row[a]}" for a in axes)


def write_plots(rows: list[dict], axes: list[str], out: Path, title: str) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    written = []
    front = pareto_front(rows)
    area_key = "transistors" if any(number(r.get("transistors")) for r in rows) else "cells"
    good = [r for r in rows if number(r.get(area_key)) and number(r.get("macs_per_cycle"))]
    fig, ax = plt.subplots(figsize=(8, 5.5))
    if good:
        # Colour by the first axis that is a run parameter (points of one
        # model share an area), else one colour; label the front only.
        colour_axis = next((a for a in axes if a in RUN_PARAMETERS), None)
        groups: dict[str, list[dict]] = {}
        for r in good:
            groups.setdefault(f"{colour_axis}={r[colour_axis]}" if colour_axis else "points",
                              []).append(r)
        for name, members in groups.items():
            ax.scatter([number(r[area_key]) for r in members],
                       [number(r["macs_per_cycle"]) for r in members], label=name, zorder=2)
        for r in good:
            if int(r["point"]) in front:
                ax.annotate(label(r, [a for a in axes if a != colour_axis]),
                            (number(r[area_key]), number(r["macs_per_cycle"])),
                            textcoords="offset points", xytext=(-8, 8), ha="right", fontsize=8)
        pf = sorted((number(r[area_key]), number(r["macs_per_cycle"])) for r in good
                    if int(r["point"]) in front)
        if pf:
            ax.plot([p[0] for p in pf], [p[1] for p in pf], color="tab:red", marker="o",
                    markersize=9, markerfacecolor="none", linewidth=1.5, label="Pareto front",
                    zorder=3)
        ax.legend()
    else:
        ax.text(0.5, 0.5, "no point has both area and throughput figures",
                ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel(f"datapath area ({'transistor estimate, Yosys stat -tech cmos' if area_key == 'transistors' else 'cells'})")
    ax.set_ylabel("throughput (MACs per cycle, measured)")
    ax.set_title(f"Throughput against area\n{title}", fontsize=10)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path = out / "throughput_vs_area.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)

    fig, ax = plt.subplots(figsize=(8, 5.5))
    others = [a for a in axes if a != "rf_bandwidth"]
    series: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        u = number(r.get("mac_utilization"))
        rf = number(r.get("rf_bandwidth"))
        if u is None or rf is None:
            continue
        series.setdefault(label(r, others) or "all points", []).append((rf, u))
    for name, values in sorted(series.items()):
        values.sort()
        ax.plot([v[0] for v in values], [100 * v[1] for v in values], marker="o", label=name)
    if not series:
        ax.text(0.5, 0.5, "no MAC utilization figures", ha="center", va="center",
                transform=ax.transAxes)
    elif len(series) <= 12:
        ax.legend(fontsize=7)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    rf_values = sorted({number(r.get("rf_bandwidth")) for r in rows} - {None})
    if rf_values:
        ax.set_xticks(rf_values)
    ax.set_xlabel("register-file bandwidth (32-bit lane registers per cycle)")
    ax.set_ylabel("MAC utilization (%)")
    ax.set_ylim(0, 105)
    ax.set_title(f"MAC utilization against register-file bandwidth\n{title}", fontsize=10)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path = out / "utilization_vs_rf.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    return written


def write_csv(rows: list[dict], columns: list[str], path: Path) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})


def print_table(rows: list[dict], axes: list[str], front: set[int], stream=None) -> None:
    stream = stream or sys.stdout
    columns = [("point", "point")] + [(a, a) for a in axes] + [
        ("cycles", "cycles"), ("macs_per_cycle", "MAC/cyc"), ("mac_utilization", "util"),
        ("cells", "cells"), ("transistors", "transistors"), ("logic_depth", "depth"),
        ("status", "status")]
    table = []
    for r in rows:
        line = []
        for key, _ in columns:
            value = r.get(key, "")
            if key == "mac_utilization" and number(value) is not None:
                value = f"{100 * number(value):.1f}%"
            if key == "point" and int(r["point"]) in front:
                value = f"{value}*"
            line.append(str(value))
        table.append(line)
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h)
              for i, (_, h) in enumerate(columns)]
    print("  ".join(h.rjust(w) for (_, h), w in zip(columns, widths)), file=stream)
    for line in table:
        print("  ".join(v.rjust(w) for v, w in zip(line, widths)), file=stream)
    if front:
        print("* on the Pareto front (throughput against area)", file=stream)


def finish(rows: list[dict], meta: dict, out: Path) -> None:
    axes = list(meta["sweep"]["axes"])
    columns = meta["columns"]
    rows.sort(key=lambda r: int(r["point"]))
    front = pareto_front(rows)
    for r in rows:
        r["pareto"] = 1 if int(r["point"]) in front else 0
    if "pareto" not in columns:
        columns.insert(columns.index("status"), "pareto")
    write_csv(rows, columns, out / "explore.csv")
    (out / "explore.json").write_text(json.dumps(meta, indent=2) + "\n")
    title = meta["workload_text"]
    plots = write_plots(rows, axes, out, title)
    print_table(rows, axes, front)
    print(f"explore: wrote {out / 'explore.csv'}, {', '.join(str(p) for p in plots)}")


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------
class Progress:
    def __init__(self, total: int):
        self.total, self.done, self.lock = total, 0, threading.Lock()
        self.start = time.monotonic()

    def step(self, text: str) -> None:
        with self.lock:
            self.done += 1
            elapsed = time.monotonic() - self.start
            print(f"[{self.done}/{self.total} {elapsed:6.0f} s] {text}", file=sys.stderr,
                  flush=True)


def default_cache(base: "Base | None") -> Path:
    if os.environ.get("TCU_EXPLORE_CACHE"):
        return Path(os.environ["TCU_EXPLORE_CACHE"])
    return (base.directory if base else SOURCE_DIR / "build") / "explore-cache"


def parse_shard(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
        raise UsageError(f"--shard {text}: expected i/N with 0 <= i < N")
    return int(m.group(1)), int(m.group(2))


def command_sweep(args) -> int:
    rtl = rtl_parameters()
    sweep = Sweep()
    if args.sweep:
        read_sweep_file(Path(args.sweep), rtl, sweep)
    for text in args.axis:
        name, values = parse_assignment(text, "--axis")
        check_name(name, f"--axis {text}", rtl)
        items = [v for v in values.split(",") if v.strip()]
        if not items:
            raise UsageError(f"--axis {text}: no values")
        sweep.axes[name] = [convert(name, parse_value(v), f"--axis {text}", rtl) for v in items]
    for text in args.set:
        name, value = parse_assignment(text, "--set")
        check_name(name, f"--set {text}", rtl)
        sweep.fixed[name] = convert(name, parse_value(value), f"--set {text}", rtl)
    overlap = set(sweep.axes) & set(sweep.fixed)
    if overlap:
        raise UsageError(f"{sorted(overlap)[0]} is both an axis and fixed")
    w = sweep.workload
    if args.mix is not None:
        w.kind, w.count = "mix", args.mix
    for name in ("ptx", "m", "n", "k", "seed"):
        if getattr(args, name) is not None:
            setattr(w, name, getattr(args, name))
    if args.ptx is not None and args.mix is None:
        w.kind = "gemm"
    check_workload(w)
    if not sweep.axes:
        raise UsageError("no axes: give a sweep file with [axes] or --axis NAME=V1,V2,...")

    defaults: dict[str, object] = dict(rtl)
    defaults.update(RUN_DEFAULTS)
    points = sweep.points(defaults)
    for i, point in enumerate(points):
        check_point_rules(i, point)
        # The front-end reads at most the router's WordsPerCycle a cycle.
        point["rf_bandwidth"] = point["rf_bandwidth"] or point["WordsPerCycle"]
        if point["rf_bandwidth"] > point["WordsPerCycle"]:
            raise UsageError(f"point {i}: rf_bandwidth={point['rf_bandwidth']} is more than its "
                             f"WordsPerCycle={point['WordsPerCycle']} (the register words the "
                             "operand router takes a cycle)")
    shard_index, shard_count = parse_shard(args.shard)
    selected = [i for i in range(len(points)) if i % shard_count == shard_index]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = Base.find(args.base if args.base is not None else os.environ.get("TCU_EXPLORE_BASE"))
    cache = Path(args.cache).resolve() if args.cache else default_cache(base)
    jobs = args.jobs or os.cpu_count() or 1
    build_jobs = args.build_jobs or max(1, (os.cpu_count() or 1) // jobs)

    fingerprint = rtl_fingerprint()
    verilator = tool_version(["verilator", "--version"])
    yosys = tool_version(["yosys", "-V"])
    builds: dict[str, Build] = {}
    synths: dict[str, Synthesis] = {}
    point_build: dict[int, Build] = {}
    point_synth: dict[int, list[Synthesis]] = {}
    # The router is synthesized (its own run, cached by its parameters) when
    # one of its parameters is an axis: at 32 words a cycle it takes Yosys a
    # quarter of an hour.
    router = router_parameters()
    synth_router = any(p in sweep.axes for p in router)
    for i in selected:
        params = {name: int(points[i][name]) for name in rtl}
        key = content_key("model", params, fingerprint,
                          verilator + (f" base {base.directory}" if base else ""))
        build = builds.setdefault(key, Build(key, cache / "models" / key, params, base))
        point_build[i] = build
        if not args.no_synth:
            dp_params = {k: v for k, v in params.items() if k not in router}
            skey = content_key("synth", dp_params, fingerprint, yosys)
            point_synth[i] = [synths.setdefault(skey, Synthesis(skey, cache / "synth" / skey,
                                                                dp_params))]
            if synth_router:
                r_params = {k: params[k] for k in router}
                rkey = content_key("synth-router", r_params, fingerprint, yosys)
                point_synth[i].append(synths.setdefault(
                    rkey, Synthesis(rkey, cache / "synth" / rkey, r_params, "tcu_operand_router")))

    print(f"explore: {len(points)} point(s) in the sweep, {len(selected)} in shard "
          f"{shard_index}/{shard_count}; {len(builds)} model(s), {len(synths)} synthesis run(s); "
          f"cache {cache}", file=sys.stderr)
    if base and builds:
        # The base's objects must be those of this source tree.
        log = out / "base-build.log"
        log.write_text("")
        print(f"explore: bringing the base build {base.directory} up to date", file=sys.stderr)
        if run_logged(["cmake", "--build", str(base.directory), "--target", "tcu", "-j",
                       str(os.cpu_count() or 1)], log) != 0:
            print(f"{log_excerpt(log)}\nexplore: the base build failed (see {log})",
                  file=sys.stderr)
            return EXIT_FAIL
    progress = Progress(len(builds) + len(selected) + len(synths))
    results: dict[int, dict] = {}

    def do_build(build: Build) -> Build:
        build_model(build, build_jobs)
        what = build.error or ("cached" if build.cached else f"built in {build.seconds:.0f} s")
        if build.error:
            what += "\n" + log_excerpt(build.directory / "build.log")
        progress.step(f"model {build.key}: {what}")
        return build

    def do_synth(synth: Synthesis) -> Synthesis:
        synthesize(synth, args.synth_timeout)
        what = synth.error or ("cached" if synth.cached else f"synthesized in {synth.seconds:.0f} s")
        if synth.error:
            what += "\n" + log_excerpt(synth.directory / "synth.log")
        progress.step(f"synthesis {synth.key}: {what}")
        return synth

    def do_run(i: int) -> None:
        build = point_build[i]
        if build.error:
            results[i] = {"status": f"not run: {build.error}"}
        else:
            results[i] = run_point(points[i], build, w, out / "points" / f"{i:04d}")
        status = results[i].get("status", "ok")
        if status != "ok" and build.error == "":
            status += "\n" + log_excerpt(out / "points" / f"{i:04d}" / "run.log")
        progress.step(f"point {i}: {label(points[i], list(sweep.axes))}: {status}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        build_futures = {key: pool.submit(do_build, b) for key, b in builds.items()}
        synth_futures = [pool.submit(do_synth, s) for s in synths.values()]
        # A point's run waits for its build; runs are short, synthesis long.
        run_futures = []
        for key, future in build_futures.items():
            future.result()
            for i in selected:
                if point_build[i].key == key:
                    run_futures.append(pool.submit(do_run, i))
        for future in run_futures + synth_futures:
            future.result()

    rows = []
    for i in selected:
        row: dict[str, object] = {"point": i}
        row.update(points[i])
        row.update(results.get(i, {}))
        build = point_build[i]
        row["build_s"] = round(build.seconds, 1)
        for synth in point_synth.get(i, []):
            row.update(synth.figures)
            if synth.error:
                row["status"] = "; ".join(filter(None, [str(row.get("status", "")), synth.error]))
        row.setdefault("status", "ok")
        rows.append(row)

    param_columns = list(rtl) + list(RUN_PARAMETERS)
    activity_columns = sorted({k for r in rows for k in r if str(k).startswith("act_")})
    columns = ["point"] + param_columns + FIGURE_COLUMNS + activity_columns + ["status"]
    meta = {
        "tcu_explore": 1,
        "sweep": sweep.to_json(),
        "sweep_hash": hashlib.sha256(json.dumps(sweep.to_json(), sort_keys=True).encode())
        .hexdigest()[:16],
        "points": len(points),
        "shard": [shard_index, shard_count],
        "workload_text": w.describe(),
        "rtl": fingerprint,
        "verilator": verilator,
        "yosys": yosys if synths else "",
        "columns": columns,
        "argv": sys.argv[1:],
    }
    finish(rows, meta, out)
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        print(f"explore: {len(failed)} of {len(rows)} point(s) failed; see the status column",
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def missing_shards_text(metas: list[dict], missing: list[int]) -> str:
    """'; shards missing: 1, 3 of 4' when the shards given are of one shard
    count (each holds the points with index % N == i), else a question."""
    counts = {m["shard"][1] for m in metas}
    if len(counts) != 1:
        return "; is a shard missing?"
    count = counts.pop()
    shards = sorted({p % count for p in missing})
    return f"; shards missing: {', '.join(map(str, shards))} of {count} (--shard i/{count})"


def command_merge(args) -> int:
    metas, rows = [], []
    for name in args.shards:
        directory = Path(name)
        try:
            meta = json.loads((directory / "explore.json").read_text())
            with open(directory / "explore.csv", newline="") as f:
                shard_rows = list(csv.DictReader(f))
        except (OSError, json.JSONDecodeError) as error:
            raise UsageError(f"{directory}: not an explore output folder ({error})") from None
        if metas and meta["sweep_hash"] != metas[0]["sweep_hash"]:
            raise UsageError(f"{directory}: a different sweep than {args.shards[0]} "
                             f"(sweep hash {meta['sweep_hash']} != {metas[0]['sweep_hash']})")
        if metas and meta["rtl"] != metas[0]["rtl"]:
            print(f"explore merge: warning: {directory} was run on different RTL sources",
                  file=sys.stderr)
        metas.append(meta)
        rows.extend(shard_rows)
    seen: dict[int, int] = {}
    for r in rows:
        p = int(r["point"])
        if p in seen:
            raise UsageError(f"point {p} appears in more than one shard")
        seen[p] = 1
    total = metas[0]["points"]
    missing = sorted(set(range(total)) - set(seen))
    meta = dict(metas[0])
    meta["shard"] = [0, 1]
    columns = list(meta["columns"])
    for m in metas[1:]:
        for c in m["columns"]:
            if c not in columns:
                columns.insert(columns.index("status"), c)
    meta["columns"] = [c for c in columns if c != "pareto"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    finish(rows, meta, out)
    if missing:
        print(f"explore merge: {len(missing)} of {total} point(s) missing "
              f"(first: {missing[0]}){missing_shards_text(metas, missing)}", file=sys.stderr)
        return EXIT_FAIL
    failed = [r for r in rows if r.get("status") != "ok"]
    return EXIT_FAIL if failed else EXIT_OK


EPILOG = """\
sweep file (TOML):
  [workload]              kind = "gemm" (ptx, m, n, k) or "mix" (count); seed
  [axes]                  NAME = [values...]   one axis per parameter
  [fixed]                 NAME = value         held at one value
NAME is a parameter of rtl/tcu_core.sv as spec/config.toml states it (%s;
the operand router's, %s, as axes, add its own synthesis run)
or a run parameter (rf_bandwidth, rf_banks, rf_read_ports, rf_write_ports,
warps, backpressure). Points are the
cartesian product of the axes, numbered in order; the command line's --axis,
--set and workload options add to or override the file's.

exit status: 0 every point ran and checked, 1 a point failed, 2 bad usage.
"""


def main(argv: list[str]) -> int:
    prog = os.environ.get("TCU_EXPLORE_PROG", "tcu explore")
    if argv[:1] == ["merge"]:
        parser = argparse.ArgumentParser(
            prog=f"{prog} merge",
            description="Join the output folders of the shards of one sweep into one.")
        parser.add_argument("shards", nargs="+", help="output folders of --shard runs")
        parser.add_argument("--out", default="explore-out", help="merged output folder")
        args = parser.parse_args(argv[1:])
        command = command_merge
    else:
        try:
            names = ", ".join(rtl_parameters())
            router = ", ".join(router_parameters())
        except SystemExit:
            names = router = "?"
        parser = argparse.ArgumentParser(
            prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter,
            description="Sweep datapath parameters over a workload: build each point's model "
            "(cached), run the workload on the RTL, synthesize with Yosys; write explore.csv, "
            "plots and a table.  `%s merge --help` joins shards." % prog,
            epilog=EPILOG % (names, router))
        parser.add_argument("sweep", nargs="?", help="sweep file (TOML)")
        parser.add_argument("--axis", action="append", default=[], metavar="NAME=V1,V2,...",
                            help="an axis of the sweep (repeatable)")
        parser.add_argument("--set", action="append", default=[], metavar="NAME=V",
                            help="hold a parameter at one value (repeatable)")
        parser.add_argument("--ptx", help="gemm workload: the mma variant (see tcu list)")
        parser.add_argument("--m", type=int, help="gemm workload: rows of A, C, D")
        parser.add_argument("--n", type=int, help="gemm workload: columns of B, C, D")
        parser.add_argument("--k", type=int, help="gemm workload: columns of A")
        parser.add_argument("--mix", type=int, metavar="COUNT",
                            help="mix workload: COUNT instructions of every variant at random")
        parser.add_argument("--seed", type=int, help="random seed of the workload (default 1)")
        parser.add_argument("--out", default="explore-out", help="output folder")
        parser.add_argument("--cache", help="model and synthesis cache (default "
                            "$TCU_EXPLORE_CACHE, or explore-cache in the base build)")
        parser.add_argument("--base", help="build whose libraries the points link, so a point "
                            "compiles only its model (default: $TCU_EXPLORE_BASE, which tcu "
                            "explore sets to its own build; '' builds each point in full)")
        parser.add_argument("-j", "--jobs", type=int, default=0,
                            help="points built, run and synthesized at once (default: all cores)")
        parser.add_argument("--build-jobs", type=int, default=0,
                            help="compile jobs per model build (default: cores / jobs)")
        parser.add_argument("--shard", default="0/1", metavar="i/N",
                            help="run only points with index %% N == i")
        parser.add_argument("--no-synth", action="store_true", help="skip Yosys")
        parser.add_argument("--synth-timeout", type=float, metavar="SECONDS",
                            help="give up a synthesis run after this long")
        args = parser.parse_args(argv)
        if args.jobs < 0 or args.build_jobs < 0:
            parser.error("--jobs and --build-jobs must be positive")
        command = command_sweep
    try:
        return command(args)
    except UsageError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
