"""A unit's energy at a workload's own operands (python3 -m tcu_tools.phys.workload).

The random figures of the data file drive a unit with random operands of its
variants. Here the operands are a workload's: the slices one unit instance
of the RTL datapath accepted in a waveform of a real run (`tcu gemm --engine
rtl --trace FILE.fst`, `tcu run`/`replay --trace`), read at each rising
edge of the instance's own clock where en_i and valid_i are high, and
replayed into the unit's mapped netlist back to back, an operation every
cycle as in the random busy figure, so the two differ in the operands
alone. pJ/op = that busy cycle's energy / the operations of one slice.

  python3 -m tcu_tools.phys.workload --unit tcu_int4_dot --trace build/int4.fst
         [--params "Stages=2"] [--instance REGEX] [--cycles N] [--json FILE]

The instance is the first unit of its engine (REGEX is searched in the
dotted scope path; the default per unit type below). Exit 1 when the trace
has no such instance, too few slices, or a step fails; 2 for a bad command
line."""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import activity, energy, figures, library, mapping
from .units import REPO, UNIT_TYPES

# The first unit of each engine in the RTL datapath's hierarchy.
DEFAULT_INSTANCE = {
    "tcu_int4_dot": r"\.u_int4\..*\bg_unit\[0\]\.u_dot$",
    "tcu_e2m1_dot": r"\.u_e2m1\..*\bg_unit\[0\]\.u_dot$",
    "tcu_f16_dot": r"\.u_f16\..*\bg_unit\[0\]\.u_dot$",
    "tcu_f64_dot": r"\.u_f64\..*\bg_unit\[0\]\.u_dot$",
}
MIN_SLICES = 8
DATA_FILE = REPO / "spec" / "phys_osu018.toml"


class WorkloadError(RuntimeError):
    pass


@dataclass
class WorkloadFigures:
    unit: str
    params: dict
    library: str
    trace: str
    instance: str
    slices: int                # slices the instance accepted in the trace
    cycles: int                # cycles simulated (the slices, repeated if fewer)
    busy_toggle_rate: float
    busy_pj_per_cycle: float
    issued_ops_per_cycle: int
    op_name: str
    pj_per_issued_op: float
    random_pj_per_op: float | None = None    # the data file's (random operands)
    idle_pj_per_cycle: float | None = None   # the data file's (clocked idle)


def _vcd_lines(trace: Path):
    """The VCD text of a .vcd file or of an FST (through GTKWave's fst2vcd)."""
    if not trace.is_file():
        raise WorkloadError(f"{trace}: no such file")
    if trace.suffix == ".fst":
        try:
            proc = subprocess.Popen(["fst2vcd", str(trace)], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)
        except OSError as e:
            raise WorkloadError(f"{trace}: fst2vcd (GTKWave) not found: {e}") from e
        yield from proc.stdout
        if proc.wait() != 0:
            raise WorkloadError(f"{trace}: fst2vcd failed")
        return
    try:
        with open(trace) as f:
            yield from f
    except OSError as e:
        raise WorkloadError(f"{trace}: {e}") from e


def read_slices(trace: Path, instance: str, port_names: list[str]) -> tuple[str, list[dict]]:
    """(the instance's scope path, its accepted slices): the values of
    `port_names` just before each rising edge of the instance's clk_i where
    rst_ni, en_i (if it has one) and valid_i are high. `instance` is a
    regular expression searched in the dotted scope path (TOP.a.b); it must
    match exactly one scope."""
    pattern = re.compile(instance)
    stack: list[str] = []
    scopes: list[str] = []
    codes: dict[str, str] = {}   # id code -> port name (in the matched scope)
    lines = _vcd_lines(trace)
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            stack.append(words[2])
            path = ".".join(stack)
            if pattern.search("." + path):
                scopes.append(path)
        elif words[0] == "$upscope":
            stack.pop()
        elif words[0] == "$var" and scopes and ".".join(stack) == scopes[0]:
            if words[4] in port_names or words[4] in ("clk_i", "en_i", "valid_i", "rst_ni"):
                codes[words[3]] = words[4]
        elif words[0] == "$enddefinitions":
            break
    if len(scopes) != 1:
        raise WorkloadError(f"{trace}: {len(scopes)} scopes match '{instance}'"
                            + (f" ({', '.join(scopes[:4])})" if scopes else ""))
    names = set(codes.values())
    missing = [n for n in ["clk_i", "valid_i", *port_names] if n not in names]
    if missing:
        raise WorkloadError(f"{trace}: {scopes[0]} has no {', '.join(missing)}")
    current = {n: 0 for n in names}
    before = dict(current)  # the values at the end of the previous time step
    slices = []
    for line in lines:
        if line.startswith("#"):
            if before["clk_i"] == 0 and current["clk_i"] == 1 and before["valid_i"] and \
                    before.get("en_i", 1) and before.get("rst_ni", 1):
                slices.append({n: before[n] for n in port_names})
            before = dict(current)
            continue
        if line[0] in "01xzXZ":
            code, value = line[1:].strip(), line[0]
        elif line[0] == "b":
            value, code = line[1:].split()
        else:
            continue
        if code in codes:
            current[codes[code]] = int(re.sub("[xzXZ]", "0", value), 2)
    if before["clk_i"] == 0 and current["clk_i"] == 1 and before["valid_i"] and \
            before.get("en_i", 1) and before.get("rst_ni", 1):
        slices.append({n: before[n] for n in port_names})
    return scopes[0], slices


def rows_of(data_ports: list[tuple[str, int]], slices: list[dict], cycles: int) -> list[list[int]]:
    """The gate-level stream: two reset cycles, then a slice every cycle
    (rst_ni, en_i and valid_i high), the slices repeated if fewer."""
    rows = []
    for cycle in range(cycles):
        s = slices[cycle % len(slices)]
        row = []
        for name, width in data_ports:
            if name == "rst_ni":
                row.append(0 if cycle < 2 else 1)
            elif name in ("en_i", "valid_i"):
                row.append(1)
            else:
                row.append(s[name] & ((1 << width) - 1))
        rows.append(row)
    return rows


def measure_slices(unit_name: str, params: dict, slices: list[dict], workdir: Path,
                   cycles: int, name: str = "workload") -> tuple[float, float]:
    """(busy pJ a cycle, mean toggle rate) of the mapped unit driven by
    `slices` back to back."""
    unit = dataclasses.replace(UNIT_TYPES[unit_name], params=params)
    workdir = workdir / mapping.tag(unit.name, unit.params)
    mapped = mapping.map_unit(unit.name, unit.params, workdir)
    ins, _ = activity.ports(mapped.netlist)
    data_ports = [(n, w) for n, w in ins if n != "clk_i"]
    act = activity.simulate_rows(mapped.netlist, unit.name, workdir,
                                 rows_of(data_ports, slices, cycles), name)
    e = energy.measure(mapped.netlist, unit.name, act.vcd, workdir, *act.window)
    return e.total_pj, act.mean_toggle_rate()


def data_ports_of(unit_name: str, params: dict, workdir: Path) -> list[tuple[str, int]]:
    mapped = mapping.map_unit(unit_name, params, workdir / mapping.tag(unit_name, params))
    ins, _ = activity.ports(mapped.netlist)
    return [(n, w) for n, w in ins if n != "clk_i"]


def operand_ports(data_ports: list[tuple[str, int]]) -> list[str]:
    """The ports a slice carries (all but the reset, enable and valid)."""
    return [n for n, _ in data_ports if n not in ("rst_ni", "en_i", "valid_i")]


def stored_point(unit_name: str, params: dict, data_file: Path = DATA_FILE) -> dict | None:
    """The data file's point of the unit at these parameters (None if none)."""
    try:
        data = tomllib.loads(data_file.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return None
    want = mapping.synthesis_params(unit_name, params)
    for p in data.get("point", []):
        if p.get("unit") == unit_name and p.get("params") == want:
            return p
    return None


def measure(unit_name: str, params: dict, trace: Path, instance: str, workdir: Path,
            cycles: int) -> WorkloadFigures:
    unit = UNIT_TYPES[unit_name]
    ports = data_ports_of(unit_name, params, workdir)
    scope, slices = read_slices(trace, instance, operand_ports(ports))
    if len(slices) < MIN_SLICES:
        raise WorkloadError(f"{trace}: {scope} accepted {len(slices)} slices "
                            f"(at least {MIN_SLICES} needed)")
    busy_pj, rate = measure_slices(unit_name, params, slices, workdir, cycles)
    ops = figures.issued_ops_per_cycle(dataclasses.replace(unit, params=params))
    point = stored_point(unit_name, params)
    return WorkloadFigures(
        unit_name, mapping.synthesis_params(unit_name, params), library.LABEL, str(trace), scope,
        len(slices), cycles, rate, busy_pj, ops, unit.op_name, busy_pj / ops,
        point.get("pj_per_issued_op") if point else None,
        point.get("idle_pj_per_cycle") if point else None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_tools.phys.workload",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--unit", required=True, choices=sorted(DEFAULT_INSTANCE))
    parser.add_argument("--params", default="", metavar="NAME=VALUE ...",
                        help="parameters overriding the unit's defaults (the datapath's)")
    parser.add_argument("--trace", required=True, help="a waveform of an RTL run (.fst or .vcd)")
    parser.add_argument("--instance", help="regular expression of the unit's scope path "
                        "(default: the first unit of its engine)")
    parser.add_argument("--cycles", type=int, default=200,
                        help="cycles simulated (default 200, as the random figures)")
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--workdir", default="build/phys")
    args = parser.parse_args(argv)
    if args.cycles < MIN_SLICES + 2:
        parser.error(f"--cycles must be at least {MIN_SLICES + 2}")
    params = dict(UNIT_TYPES[args.unit].params)
    for word in args.params.split():
        name, _, value = word.partition("=")
        if not name.isidentifier() or not value.isdigit():
            parser.error(f"--params: expected NAME=VALUE words, found '{word}'")
        params[name] = int(value)
    try:
        library.liberty()
        f = measure(args.unit, params, Path(args.trace),
                    args.instance or DEFAULT_INSTANCE[args.unit], Path(args.workdir),
                    args.cycles)
    except (WorkloadError, RuntimeError, library.LibraryMissing) as e:
        print(f"tcu_tools.phys.workload: {e}", file=sys.stderr)
        return 1
    print(f"Library: {f.library}")
    print(f"{f.unit} {' '.join(f'{k}={v}' for k, v in f.params.items())} at {f.instance}")
    print(f"  workload: {f.trace}: {f.slices} slices, {f.cycles} cycles simulated")
    print(f"  busy pJ/cycle {f.busy_pj_per_cycle:.2f}  toggle rate {f.busy_toggle_rate:.3f}  "
          f"pJ/{f.op_name} {f.pj_per_issued_op:.3f}")
    if f.random_pj_per_op is not None:
        print(f"  random operands (data file): pJ/{f.op_name} {f.random_pj_per_op:.3f}; "
              f"workload / random {f.pj_per_issued_op / f.random_pj_per_op:.3f}; "
              f"clocked idle {f.idle_pj_per_cycle:.2f} pJ/cycle")
    if args.json:
        Path(args.json).write_text(json.dumps(dataclasses.asdict(f), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
