"""The engines' registers around their units (the operand register, the
D buffer, the C and group pipes, the sequencer and the accumulators: every
flip-flop on an engine's gated clock that is not a dot unit's), as
[[engine_regs]] tables of the data file, read by the energy estimate
(model/src/energy.cpp).

  python -m tcu_tools.phys.engine_regs count NETLIST --top T --params "N=V ..." \\
      [--unit-flip-flops N] [--json OUT]
  python -m tcu_tools.phys.engine_regs energy NETLIST --top T --params "N=V ..." \\
      --unit-busy PJ --unit-idle PJ [--cycles N] [--json OUT]
  python -m tcu_tools.phys.engine_regs toggles RUN.fst --engine E --report RUN.json \\
      --netlist ENGINE.mapped.split.v [--json OUT]
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
The stimulus is tcu_tools.phys.engine_stimulus's (every engine's
family). A whole engine is a large netlist
for Icarus: the int4 engine of four units (about 110,000 cells) takes
minutes to load and seconds a cycle (docs/data/costs.toml, figures
icarus-engine-load and icarus-engine-cycle).

toggles: the registers' data toggles (an [[engine_regs_toggles]] table per
engine): the bits of the engine's registers that change over an RTL run
(`tcu gemm --engine rtl --trace RUN.fst --report RUN.json`), per MAC the
run issued (the operand registers load and the D buffer fills once an
instruction, so the toggles go with the MACs, not with the busy cycles,
whose rate a cycle grows with the units), and the energy of one toggle
(toggle_energy: a DFFPOSX1 whose Q changes, with its D and Q nets, from
the liberty at the mapped engine's loads), with the engine (top) and
parameters of that netlist, whose design the table's stamp records.

write: appends one [[engine_regs]] table per setting (the JSON files of
count and energy merged by top and params) and one [[engine_regs_toggles]]
table per toggles JSON, stamped with this tree's RTL
(tcu_tools.phys.stamp), to the data file. tcu_tools.spec.gen_phys reads
them into the energy estimate (model/src/energy.cpp engine_regs_figures:
the flip-flops piecewise linear in the units and the stages between the
settings mapped)."""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

from . import activity, energy, engine_stimulus, library, liberty_power, stamp
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


def toggle_energy(netlist: Path, liberty: Path | None = None) -> dict:
    """The energy (pJ) of one data toggle of an engine register bit (a
    DFFPOSX1 on the engine's gated clock whose Q changes once): Q's internal
    energy when the clock edge moves it (the mean of its rise and fall, at
    the ideal clock's slew and the Q net's load), the Q net's 1/2 C V^2, the
    internal energy of the input pins on the Q net, and the D side that
    moved it: D's internal energy, the D net's 1/2 C V^2 and the output
    internal energy of the cell driving D (its first arc, at slew 0). Each
    a mean over the engine's DFFPOSX1 (the clock net with most flip-flops,
    as count)."""
    lib = liberty_power.load(Path(liberty or library.liberty()))
    net = energy.read_netlist(netlist)
    canon = lambda n: net.alias.get(n, n)  # noqa: E731
    cap: Counter = Counter()
    pin_int: Counter = Counter()
    driver = {}
    clocks: Counter = Counter()
    for inst, (kind, conns) in net.cells.items():
        cell = lib.cells.get(kind)
        if cell is None:
            raise ValueError(f"{netlist}: cell {inst}: type {kind} is not in the liberty file")
        for pin, n in conns.items():
            n = canon(n)
            if pin in cell.capacitance:
                cap[n] += cell.capacitance[pin]
                if pin in cell.pin_tables:
                    rise, fall = cell.pin_tables[pin]
                    pin_int[n] += (rise.lookup(0.0) + fall.lookup(0.0)) / 2
            elif pin in cell.outputs:
                driver[n] = (kind, pin)
        if kind == "DFFPOSX1":
            clocks[canon(conns["CLK"])] += 1
    gated = [n for n, _ in clocks.most_common() if n != "clk_i"]
    if not gated:
        raise ValueError(f"{netlist}: no DFFPOSX1 on a gated clock (not an engine)")
    v2 = lib.voltage ** 2
    dff = lib.cells["DFFPOSX1"]
    q_arc = next(a for a in dff.arcs["Q"] if a.related == "CLK")
    parts = Counter()
    n_ff = 0
    for inst, (kind, conns) in net.cells.items():
        if kind != "DFFPOSX1" or canon(conns["CLK"]) != gated[0]:
            continue
        n_ff += 1
        q, d = canon(conns["Q"]), canon(conns["D"])
        load = cap[q]
        parts["q_load_pf"] += load
        parts["q_internal_pj"] += (q_arc.rise.lookup(0.0, load) + q_arc.fall.lookup(0.0, load)) / 2
        parts["q_switching_pj"] += 0.5 * load * v2
        parts["q_fanout_internal_pj"] += pin_int[q]
        parts["d_internal_pj"] += pin_int[d]
        parts["d_switching_pj"] += 0.5 * cap[d] * v2
        drv = driver.get(d)
        arcs = lib.cells[drv[0]].arcs.get(drv[1], ()) if drv else ()
        if arcs and arcs[0].related != "CLK":
            parts["d_driver_internal_pj"] += (arcs[0].rise.lookup(0.0, cap[d])
                                              + arcs[0].fall.lookup(0.0, cap[d])) / 2
    out = {k: v / n_ff for k, v in parts.items()}
    out["toggle_flip_flops"] = n_ff
    out["pj_per_toggle"] = sum(v for k, v in out.items() if k.endswith("_pj"))
    return out


ENGINE_SCOPES = {"int4": "u_int4", "e2m1": "u_e2m1", "f16": "u_f16", "f64": "u_f64"}


def _is_register(scope: list[str], name: str) -> bool:
    """An engine register around its units, by the RTL's naming: a `_q`
    (lowRISC) or the frame's D buffer (u_frame's d_o), outside the dot units
    (u_dot) and the sparse path (g_sparse_path, its own clock)."""
    if any(s.startswith(("u_dot", "g_sparse_path")) for s in scope):
        return False
    base = name.split("[")[0]
    return base.endswith("_q") or (scope[-1] == "u_frame" and base == "d_o")


def toggles(trace: Path, engine: str, report: dict) -> dict:
    """The data toggles of an engine's registers over an RTL run's waveform
    (`tcu gemm --engine rtl --trace RUN.fst --report RUN.json`): every
    change of a register bit after its first value, per MAC the run issued
    (the report's activity) and, for comparison, per busy cycle and bit.
    The registers are those the waveform holds (its depth: the engine's
    own level and its frame's), by name (_is_register)."""
    from .workload import _vcd_lines
    if engine not in ENGINE_SCOPES:
        raise ValueError(f"--engine: one of {', '.join(ENGINE_SCOPES)}, not '{engine}'")
    act = report.get("activity", {}).get("engines", {}).get(engine, {})
    busy_cycles, macs = act.get("busy", 0), act.get("macs", 0)
    if busy_cycles <= 0 or macs <= 0:
        raise ValueError(f"{trace}: the run's report has no {engine} busy cycle or MAC")
    stack: list[str] = []
    width: dict[str, int] = {}
    seen: set = set()
    lines = _vcd_lines(Path(trace))
    for line in lines:
        w = line.split()
        if not w:
            continue
        if w[0] == "$scope":
            stack.append(w[2])
        elif w[0] == "$upscope":
            stack.pop()
        elif w[0] == "$var":
            if len(stack) < 2 or ENGINE_SCOPES[engine] not in stack:
                continue
            inner = stack[stack.index(ENGINE_SCOPES[engine]) + 1:]
            if inner and _is_register(inner, w[4]) and w[3] not in width:
                key = (tuple(stack), w[4])
                if key not in seen:
                    seen.add(key)
                    width[w[3]] = int(w[2])
        elif w[0] == "$enddefinitions":
            break
    if not width:
        raise ValueError(f"{trace}: no register of {ENGINE_SCOPES[engine]} in the waveform")
    value: dict[str, int] = {}
    count = 0
    for line in lines:
        if line[0] == "b":
            bits, code = line[1:].split()
        elif line[0] in "01xzXZ":
            bits, code = line[0], line[1:].strip()
        else:
            continue
        if code not in width:
            continue
        v = int(bits.replace("x", "0").replace("z", "0").replace("X", "0").replace("Z", "0"), 2)
        if code in value:
            count += bin(value[code] ^ v).count("1")
        value[code] = v
    bits = sum(width.values())
    params = report.get("configuration", {}).get("parameters", {})
    return {"engine": engine, "register_bits": bits, "toggles": count, "issued_macs": macs,
            "busy_cycles": busy_cycles, "toggles_per_issued_mac": count / macs,
            "busy_toggle_rate": count / busy_cycles / bits,
            "run_params": {k: v for k, v in params.items() if k != "SynthImpl"}}


def measure_energy(netlist: Path, top: str, units: int, workdir: Path, cycles: int,
                   seed: int) -> dict:
    """The engine's busy and idle energy a cycle (tcu_tools.phys.engine_stimulus)."""
    workdir.mkdir(parents=True, exist_ok=True)
    ins, _ = activity.ports(netlist)
    data = [(n, w) for n, w in ins if n != "clk_i"]
    out = {}
    for state, idle in (("busy", False), ("idle", True)):
        rows, macs = engine_stimulus.rows(top, data, units, cycles, seed, idle)
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
    parser.add_argument("command", choices=("count", "energy", "toggles", "write"))
    parser.add_argument("files", nargs="+")
    parser.add_argument("--top")
    parser.add_argument("--params", default="")
    parser.add_argument("--unit-flip-flops", type=int, default=0)
    parser.add_argument("--unit-busy", type=float)
    parser.add_argument("--unit-idle", type=float)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument("--engine", help="toggles: int4, e2m1, f16 or f64")
    parser.add_argument("--report", help="toggles: the run's JSON report (tcu gemm --report)")
    parser.add_argument("--netlist", help="toggles: a mapped engine of that family (its loads)")
    parser.add_argument("--workdir", default="build/phys-engine-regs")
    args = parser.parse_args(argv)
    try:
        if args.command == "write":
            return write(Path(args.files[0]), [Path(p) for p in args.files[1:]])
        if args.command == "toggles":
            if not (args.engine and args.report and args.netlist):
                parser.error("toggles needs --engine, --report and --netlist")
            got = toggles(Path(args.files[0]), args.engine, json.loads(Path(args.report).read_text()))
            got.update(toggle_energy(Path(args.netlist)))
            got["netlist"] = Path(args.netlist).name
            got["top"], got["params"] = netlist_setting(got["netlist"])
            return _emit(got, args.json)
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
    except (OSError, ValueError, RuntimeError, KeyError) as error:
        print(f"engine_regs: {error}", file=sys.stderr)
        return 1
    return _emit(got, args.json)


def _emit(got: dict, path: str | None) -> int:
    text = json.dumps(got, indent=2)
    if path:
        Path(path).write_text(text)
    print(text)
    return 0


TOGGLE_KEYS = ("engine", "top", "params", "toggles_per_issued_mac", "pj_per_toggle", "register_bits", "toggles",
               "issued_macs", "busy_cycles", "busy_toggle_rate", "run_params", "netlist",
               "toggle_flip_flops", "q_load_pf", "q_internal_pj", "q_switching_pj",
               "q_fanout_internal_pj", "d_internal_pj", "d_switching_pj", "d_driver_internal_pj",
               "rtl_files", "rtl_design")


def netlist_setting(name: str) -> tuple[str, dict]:
    """The top and parameters of a mapped netlist named by the mapping flow
    (TOP.NAME-VALUE....mapped.split.v), SynthImpl left out."""
    words = name.split(".")
    params = {}
    for word in words[1:]:
        key, sep, value = word.rpartition("-")
        if sep and key.isidentifier() and value.isdigit():
            params[key] = int(value)
        elif word == "mapped":
            break
        else:
            raise ValueError(f"{name}: not a mapped netlist's name (TOP.NAME-VALUE...mapped...)")
    params.pop("SynthImpl", None)
    return words[0], params


def write(datafile: Path, paths: list[Path]) -> int:
    merged: dict = {}
    text = []
    for p in paths:
        j = json.loads(p.read_text())
        if "toggles_per_issued_mac" in j:  # toggles: an [[engine_regs_toggles]] table
            if "top" not in j:
                j["top"], j["params"] = netlist_setting(j["netlist"])
            j.update(stamp.stamp_of("engine", j))  # the engine whose registers it counts
            text.append(table_text("[[engine_regs_toggles]]",
                                   {k: j[k] for k in TOGGLE_KEYS if j.get(k) is not None}))
            continue
        key = (j["top"], tuple(sorted(j["params"].items())))
        merged.setdefault(key, {}).update(j)
    for e in merged.values():  # the design they are of: this tree's RTL (tcu_tools.phys.stamp)
        e.update(stamp.stamp_of("engine", e))
    text = [table_text("[[engine_regs]]", {k: e.get(k) for k in KEYS if e.get(k) is not None})
            for e in merged.values()] + text
    body = datafile.read_text().rstrip("\n")
    datafile.write_text(body + "\n\n" + "\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
