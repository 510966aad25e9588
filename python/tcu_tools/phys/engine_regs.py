"""The engines' registers around their units (the operand register, the
D buffer, the C and group pipes, the sequencer and the accumulators: every
flip-flop on an engine's gated clock that is not a dot unit's), as
[[engine_regs]] tables of the data file, read by the energy estimate
(model/src/energy.cpp).

  python -m tcu_tools.phys.engine_regs count NETLIST --top T --params "N=V ..." \\
      [--unit-flip-flops N] [--json OUT]
  python -m tcu_tools.phys.engine_regs energy NETLIST --top T --params "N=V ..." \\
      --unit-busy PJ --unit-idle PJ [--cycles N] [--json OUT]
  python -m tcu_tools.phys.engine_regs write spec/phys_osu018.toml JSON...

count: the flip-flops of a mapped engine by clock net. The engine's gated
clock is the clock net with the most flip-flops (tcu_engine_frame's clk_o);
a netlist mapped around its units (tcu_tools.phys.area --around: the units
black boxes) has only the engine's own on it; a netlist mapped whole has
the units' too, and --unit-flip-flops (Units x the unit's point's
flip_flops) takes them off. Flip-flops on other gated clocks (the int4
engine's sparse path, clocked only through a sparse instruction) are
counted apart (other_domain_flip_flops) and not priced.

energy: the energy method (tcu_tools.phys.energy) on a whole engine (the
units mapped in it) driven as tcu_datapath drives it: clock enabled, the
pipelines running, an instruction started every Groups cycles (back to
back, every cycle issuing every unit), each with random operands and a
random tag; idle: the clock enabled, no instruction, the inputs held. The
around-units figures are the engine's less Units x the unit's busy and
idle figures (its [[point]]): idle per cycle, and the rest of a busy cycle
per MAC issued (the operand selection, the D buffer's writes, the pipes).
The busy stimulus is tcu_int4_engine's (dense m16n8k64 instructions); the
other engines are measured idle alone. A whole engine is a large netlist
for Icarus: the int4 engine of four units (about 110,000 cells) loads in
about 3 CPU minutes and simulates at about 10 CPU seconds a cycle.

write: appends one [[engine_regs]] table per setting (the JSON files of
count and energy merged by top and params), stamped with this tree's RTL
(tcu_tools.phys.stamp), to the data file. tcu_tools.spec.gen_phys reads
them into the energy estimate (model/src/energy.cpp engine_regs_figures:
the flip-flops piecewise linear in the units and the stages between the
settings mapped)."""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

from . import activity, energy, stamp
from .datafile import table_text

FLIP_FLOPS = ("DFFPOSX1", "DFFNEGX1", "DFFSR")
_CELL = re.compile(r"^\s*(\w+)\s+(\S+)\s*\((.*?)\);", re.S | re.M)
_PIN = re.compile(r"\.(\w+)\(\s*(.*?)\s*\)\s*(?:,|$)", re.S)


def count(netlist: Path, unit_flip_flops: int = 0) -> dict:
    """{flip_flops: the engine's own on its gated clock, other_domain_flip_flops,
    by_clock: {net: count}} of a mapped engine netlist."""
    by_clock: Counter = Counter()
    for m in _CELL.finditer(Path(netlist).read_text()):
        if m.group(1) not in FLIP_FLOPS:
            continue
        pins = {p.group(1): energy.net_name(p.group(2)) for p in _PIN.finditer(m.group(3))}
        by_clock[pins.get("CLK", "?")] += 1
    if not by_clock:
        raise ValueError(f"{netlist}: no flip-flop")
    gated = [(n, c) for n, c in by_clock.most_common() if n != "clk_i"]
    if not gated:
        raise ValueError(f"{netlist}: no flip-flop on a gated clock (not an engine)")
    main = gated[0][1]
    if unit_flip_flops > main:
        raise ValueError(f"{netlist}: {unit_flip_flops} unit flip-flops to take off, "
                         f"{main} on the engine's clock")
    return {"flip_flops": main - unit_flip_flops,
            "other_domain_flip_flops": sum(c for _, c in gated[1:]),
            "by_clock": dict(by_clock)}


# tcu_pkg's descriptor fields and the int4 engine's instruction shape
DESC_FAMILY, DESC_A_SIGNED, DESC_B_SIGNED, DESC_K32 = 16, 19, 20, 22
FAM_INT4 = 0
INT4_K64_SLICES, INT4_LANES = 256, 32


def int4_rows(ports: list[tuple[str, int]], units: int, cycles: int, seed: int,
              idle: bool) -> tuple[list[list[int]], int]:
    """(the rows, one per cycle after two of reset; the MACs they issue)."""
    rng = random.Random(seed)
    groups = INT4_K64_SLICES // units
    if groups * units != INT4_K64_SLICES:
        raise ValueError(f"Units={units}: the stimulus needs a divisor of {INT4_K64_SLICES}")
    held = {n: 0 for n, _ in ports}
    rows = []
    macs = 0
    for c in range(cycles + 2):
        v = dict(held)
        v["rst_ni"] = int(c >= 2)
        v["clk_en_i"] = v["pipe_en_i"] = v["pipe_take_i"] = 1
        start = not idle and c >= 2 and (c - 2) % groups == 0
        v["start_i"] = int(start)
        if start:
            v["desc_i"] = (rng.getrandbits(16) | FAM_INT4 << DESC_FAMILY
                           | rng.getrandbits(1) << DESC_A_SIGNED
                           | rng.getrandbits(1) << DESC_B_SIGNED) & ~(1 << DESC_K32)
            for name, width in ports:
                if name in ("a_i", "b_i", "c_i"):
                    v[name] = rng.getrandbits(width)
        if not idle and c >= 3:  # the cycles the sequencer issues in (after the first start)
            macs += units * INT4_LANES
        held = {k: v[k] for k in held}
        rows.append([v[n] & ((1 << w) - 1) for n, w in ports])
    return rows, macs


def measure_energy(netlist: Path, top: str, units: int, workdir: Path, cycles: int,
                   seed: int) -> dict:
    """The engine's busy (tcu_int4_engine alone) and idle energy a cycle."""
    workdir.mkdir(parents=True, exist_ok=True)
    ins, _ = activity.ports(netlist)
    data = [(n, w) for n, w in ins if n != "clk_i"]
    out = {}
    states = (("busy", False), ("idle", True)) if top == "tcu_int4_engine" else (("idle", True),)
    for state, idle in states:
        rows, macs = int4_rows(data, units, cycles, seed, idle)
        e = energy.run(netlist, top, workdir, rows, f"engine_{state}")
        per_cycle = e.internal_pj + e.switching_pj + e.ports_pj
        out[f"engine_{state}_pj_per_cycle"] = per_cycle
        if not idle:
            out["issued_macs_per_cycle"] = macs / e.cycles
    return out


def _params(text: str) -> dict:
    out = {}
    for word in text.split():
        name, _, value = word.partition("=")
        if not name.isidentifier() or not value.isdigit():
            raise ValueError(f"--params: expected NAME=VALUE words, found '{word}'")
        out[name] = int(value)
    return out


KEYS = ("top", "params", "flip_flops", "other_domain_flip_flops", "netlist_form",
        "idle_pj_per_cycle", "idle_pj_per_flip_flop", "dynamic_pj_per_issued_mac",
        "engine_busy_pj_per_cycle", "engine_idle_pj_per_cycle", "issued_macs_per_cycle",
        "unit_busy_pj_per_cycle", "unit_idle_pj_per_cycle", "rtl_files", "rtl_design")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tcu_tools.phys.engine_regs",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("count", "energy", "write"))
    parser.add_argument("files", nargs="+")
    parser.add_argument("--top")
    parser.add_argument("--params", default="")
    parser.add_argument("--unit-flip-flops", type=int, default=0)
    parser.add_argument("--unit-busy", type=float)
    parser.add_argument("--unit-idle", type=float)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument("--workdir", default="build/phys-engine-regs")
    args = parser.parse_args(argv)
    try:
        if args.command == "write":
            return write(Path(args.files[0]), [Path(p) for p in args.files[1:]])
        if not args.top:
            parser.error("--top is required")
        params = _params(args.params)
        netlist = Path(args.files[0])
        got = {"top": args.top, "params": params}
        if args.command == "count":
            got.update(count(netlist, args.unit_flip_flops))
            got["netlist_form"] = "whole, less the units'" if args.unit_flip_flops else \
                "around its units"
        else:
            if args.unit_busy is None or args.unit_idle is None:
                parser.error("energy needs --unit-busy and --unit-idle (the unit's point)")
            units = params.get("Units", 1)
            c = count(netlist, args.unit_flip_flops)
            e = measure_energy(netlist, args.top, units, Path(args.workdir), args.cycles,
                               args.seed)
            idle = e["engine_idle_pj_per_cycle"] - units * args.unit_idle
            got.update(c)
            got.update(e)
            got.update({"netlist_form": "whole, less the units'",
                        "unit_busy_pj_per_cycle": args.unit_busy,
                        "unit_idle_pj_per_cycle": args.unit_idle,
                        "idle_pj_per_cycle": idle,
                        "idle_pj_per_flip_flop": idle / c["flip_flops"]})
            if "engine_busy_pj_per_cycle" in e:
                busy = e["engine_busy_pj_per_cycle"] - units * args.unit_busy
                got["dynamic_pj_per_issued_mac"] = (busy - idle) / e["issued_macs_per_cycle"]
    except (OSError, ValueError, RuntimeError) as error:
        print(f"engine_regs: {error}", file=sys.stderr)
        return 1
    text = json.dumps(got, indent=2)
    if args.json:
        Path(args.json).write_text(text)
    print(text)
    return 0


def write(datafile: Path, paths: list[Path]) -> int:
    merged: dict = {}
    for p in paths:
        j = json.loads(p.read_text())
        key = (j["top"], tuple(sorted(j["params"].items())))
        merged.setdefault(key, {}).update(j)
    for e in merged.values():  # the design they are of: this tree's RTL (tcu_tools.phys.stamp)
        e.update(stamp.stamp_of("engine", e))
    text = [table_text("[[engine_regs]]", {k: e.get(k) for k in KEYS if e.get(k) is not None})
            for e in merged.values()]
    body = datafile.read_text().rstrip("\n")
    datafile.write_text(body + "\n\n" + "\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
