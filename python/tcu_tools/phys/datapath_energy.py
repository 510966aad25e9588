"""A whole datapath's energy over an RTL run, at gate level
(python -m tcu_tools.phys.datapath_energy): the input ports of the RTL's
tcu_datapath instance, read from a waveform of the run (`tcu gemm --engine
rtl --trace RUN.fst`) at every rising edge of its clock, replayed cycle by
cycle into the datapath's mapped flat netlist (Icarus), and every
transition charged by the energy method (tcu_tools.phys.energy): the
run's energy with every part of the datapath in it (units, the engines'
registers and selection, the sparse mux, the output skid, the control,
clock gates and activity counters), against which the energy estimate of
`tcu run`/`tcu gemm` and `tcu explore` (the dot units priced from the data
file: model/src/energy.cpp) is checked.

    python -m tcu_tools.phys.datapath_energy --netlist FLAT.v --trace RUN.fst \\
        [--report RUN.json] [--params "NAME=VALUE ..."] [--json OUT.json] [--workdir DIR]
    python -m tcu_tools.phys.datapath_energy --reprice OUT.json --report RUN.json [--json NEW.json]

The netlist must be the datapath at the run's parameters: its activity
counter outputs at the end of the replay must equal the run's (the
report's `activity`, with --report), else exit 1. Energies are per cycle at
the data file's 10 ns reference period, summed over the run's cycles after
reset. --reprice takes an earlier measurement's gate-level figures and
prices the run's activity again with this build's estimate (the tcu
module's estimate_energy), giving the estimate's error per state and in
all ("errors") without simulating again."""
from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
import sys
from pathlib import Path

from . import activity, energy, sta
from .workload import WorkloadError, _vcd_lines

INSTANCE = r"\.u_datapath$"
RESET_ROWS = 2  # activity.simulate_rows counts from the third row


def read_cycles(trace: Path, instance: str, ports: list[str]) -> tuple[str, list[dict]]:
    """(the instance's scope, per rising edge of its clk_i with the reset
    released: the values of `ports` just before the edge, rst_ni as the edge
    sees it)."""
    pattern = re.compile(instance)
    stack: list[str] = []
    scopes: list[str] = []
    codes: dict[str, str] = {}
    lines = _vcd_lines(trace)
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            stack.append(words[2])
            if pattern.search("." + ".".join(stack)):
                scopes.append(".".join(stack))
        elif words[0] == "$upscope":
            stack.pop()
        elif words[0] == "$var" and scopes and ".".join(stack) == scopes[0]:
            if words[4] in ports or words[4] == "clk_i":
                codes[words[3]] = words[4]
        elif words[0] == "$enddefinitions":
            break
    if len(scopes) != 1:
        raise WorkloadError(f"{trace}: {len(scopes)} scopes match '{instance}'")
    missing = [p for p in ["clk_i", *ports] if p not in codes.values()]
    if missing:
        raise WorkloadError(f"{trace}: {scopes[0]} has no {', '.join(missing[:5])}")
    current = {n: 0 for n in codes.values()}
    before = dict(current)
    cycles = []

    def edge() -> None:
        # The inputs as they were before the edge; the reset as the edge
        # sees it (the testbench releases it in the edge's own time step).
        if before["clk_i"] == 0 and current["clk_i"] == 1 and current.get("rst_ni", 1):
            cycles.append({p: current[p] if p == "rst_ni" else before[p] for p in ports})

    for line in lines:
        if line.startswith("#"):
            edge()
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
    edge()
    after_reset = cycles
    return scopes[0], after_reset


def final_outputs(vcd: Path, top: str, names: list[str]) -> dict[str, int]:
    """The last value of each named output of the gate-level run."""
    codes, values, depth = {}, {}, 0
    with open(vcd) as f:
        for line in f:
            if line.startswith("$scope"):
                depth += 1
            elif line.startswith("$upscope"):
                depth -= 1
            elif line.startswith("$var") and depth == 2:
                parts = line.split()
                if parts[4] in names:
                    codes[parts[3]] = parts[4]
            elif line.startswith("b"):
                value, code = line[1:].split()
                if code in codes:
                    values[codes[code]] = int(re.sub("[xz]", "0", value), 2)
            elif line[:1] in ("0", "1") and line[1:].strip() in codes:
                values[codes[line[1:].strip()]] = int(line[0])
    return values


ENGINES = ("int4", "e2m1", "f16", "f64")
STATES = ("busy", "idle", "stalled", "gated")


def by_state(netlist: Path, top: str, vcd: Path, workdir: Path, start: int, end: int) -> dict:
    """Energy per cycle of the replay in (start, end] by what each engine
    did in the cycle, read from the netlist's own activity counters (the
    counter act_<engine>_<state>_o that moves at the cycle's closing edge):
    {"<engine> <state>" per built engine, joined by "+": [cycles, pJ]}.
    Cycle c of the testbench is times 2c+1 (inputs) and 2c+2 (its rising
    edge)."""
    model = energy._model(netlist, top, workdir)
    counters = {f"act_{e}_{s}_o": f"{e} {s}" for e in ENGINES for s in STATES}
    per_cycle: dict[int, dict] = {}
    label: dict[int, set] = {}
    for time, step in energy.vcd_steps(vcd, top):
        if not start < time <= end:
            continue
        cycle = (time - 1) // 2
        acc = per_cycle.setdefault(cycle, defaultdict(float))
        energy._charge(model, {model.canon(n): v for n, v in step.items()}, acc)
        if time % 2 == 0:
            for name in step:
                base = name.split("[")[0]
                if base in counters:
                    label.setdefault(cycle, set()).add(counters[base])
    out: dict[str, list] = {}
    for cycle in range((start + 1) // 2, end // 2):
        what = "+".join(sorted(label.get(cycle, ()))) or "none"
        acc = per_cycle.get(cycle, {})
        pj = acc.get("internal_pj", 0.0) + acc.get("switching_pj", 0.0) + acc.get("ports_pj", 0.0)
        entry = out.setdefault(what, [0, 0.0])
        entry[0] += 1
        entry[1] += pj
    return out


def per_state_estimate(report: dict) -> dict[str, float]:
    """The run report's energy estimate a cycle in each state of each built
    engine: the engine's own figure a cycle in that state, as
    model/src/energy.cpp prices it (per_engine's busy_pj_per_cycle,
    idle_pj_per_cycle, gated_pj_per_cycle: its units and the registers
    around them), plus the parts on the ungated clock (the glue's
    pj_per_cycle), which every cycle of the datapath has. The router's term
    is left out: it is tcu_core's, outside tcu_datapath."""
    energy_block = report.get("energy") or report.get("gemm", {}).get("energy", {})
    engines = report.get("activity", {}).get("engines", {})
    glue = energy_block.get("glue", {}).get("pj_per_cycle", 0.0)
    out = {}
    for name, e in energy_block.get("per_engine", {}).items():
        a = engines.get(name, {})
        if not e.get("units") or not a:
            continue
        if a.get("busy"):
            out[f"{name} busy"] = e["busy_pj_per_cycle"] + glue
        out[f"{name} idle"] = e["idle_pj_per_cycle"] + glue
        out[f"{name} gated"] = e["gated_pj_per_cycle"] + glue
    return out


def measure(netlist: Path, trace: Path, workdir: Path, instance: str = INSTANCE,
            report: dict | None = None) -> dict:
    top = "tcu_datapath"
    ins, outs = activity.ports(netlist)
    data = [(n, w) for n, w in ins if n != "clk_i"]
    scope, cycles = read_cycles(trace, instance, [n for n, _ in data])
    if not cycles:
        raise WorkloadError(f"{trace}: {scope} has no cycle after reset")
    rows = [[0] * len(data) for _ in range(RESET_ROWS)]  # rst_ni low, the rest zero
    rows += [[c[n] & ((1 << w) - 1) for n, w in data] for c in cycles]
    workdir.mkdir(parents=True, exist_ok=True)
    activity.simulate_rows(netlist, top, workdir, rows, "datapath_run")
    vcd = workdir / f"{top}.datapath_run.vcd"
    states = by_state(netlist, top, vcd, workdir, 4, 2 * len(rows))
    model = energy._model(netlist, top, workdir)
    leakage = model.leakage_nw * 1e-9 * sta.REFERENCE_PERIOD_NS * 1e-9 * 1e12
    counters = [n for n, _ in outs if n.startswith("act_")]
    got = final_outputs(vcd, top, counters)
    mismatches = counter_mismatches(got, report) if report is not None else []
    n = len(cycles)
    dynamic = sum(pj for _, pj in states.values())
    estimate = per_state_estimate(report) if report else {}
    if estimate:  # the states of the built engines alone
        built = {k.split()[0] for k in estimate}
        merged: dict[str, list] = {}
        for label, (c, pj) in states.items():
            key = "+".join(w for w in label.split("+") if w.split()[0] in built) or label
            entry = merged.setdefault(key, [0, 0.0])
            entry[0] += c
            entry[1] += pj
        states = merged
    return {"netlist": str(netlist), "trace": str(trace), "instance": scope, "cycles": n,
            "dynamic_pj": dynamic, "leakage_pj_per_cycle": leakage, "pj": dynamic + leakage * n,
            "by_state": {k: {"cycles": c, "pj_per_cycle": pj / c if c else 0.0,
                             "estimate_pj_per_cycle": estimate.get(k)}
                         for k, (c, pj) in sorted(states.items())},
            "counters": got, "counter_mismatches": mismatches,
            # the energy estimate of the run's report (model/src/energy.cpp on
            # the RTL's counters) less its router term (tcu_core's, outside
            # tcu_datapath), where a report was given
            "estimate_pj": datapath_estimate_pj(report) if report else None}


def counter_mismatches(counters: dict, report: dict) -> list[str]:
    """The netlist's activity counters at the end of the replay against the
    run report's (its `activity`): one line per counter that differs."""
    act = report.get("activity", {})
    want = {"act_cycles_o": act.get("cycles")}
    for eng, figures in act.get("engines", {}).items():
        for k in STATES + ("macs",):
            want[f"act_{eng}_{k}_o"] = figures.get(k)
    return [f"{k}: netlist {counters.get(k)}, RTL {v}" for k, v in sorted(want.items())
            if k in counters and counters[k] != v]


def reprice_saved(saved: dict) -> dict:
    """A kept gate-level measurement (docs/data/gate_level_int4_64.json: the
    --json figures of a run under "gate_level", its states under
    "by_state", the run report's activity and configuration under
    "report") priced by this build's estimate (reprice): the figures as
    measure gives them, its counters checked against the report's again.
    KeyError when a part is missing."""
    g = saved["gate_level"]
    measured = {"pj": g["pj"], "cycles": g["cycles"], "trace": saved.get("trace", "?"),
                "params": g.get("params", {}), "by_state": saved["by_state"],
                "counter_mismatches": counter_mismatches(g.get("counters", {}),
                                                         saved["report"])}
    return reprice(measured, saved["report"])


def datapath_estimate_pj(report: dict) -> float | None:
    """The report's energy estimate of tcu_datapath's parts: its pJ less the
    router's."""
    block = report.get("energy") or report.get("gemm", {}).get("energy", {})
    if block.get("pj") is None:
        return None
    return block["pj"] - block.get("router", {}).get("pj", 0.0)


def reprice(measured: dict, report: dict) -> dict:
    """A gate-level measurement (--json of an earlier run) with its
    estimate per state and in all priced again by the energy estimate of
    this build (the tcu module's estimate_energy) on the run's activity and
    configuration: the estimate's error against the same gate-level
    figures, before and after a change of the estimate."""
    from tcu_tools.explore.fast import tcu_module
    params = {k: v for k, v in report.get("configuration", {}).get("parameters", {}).items()
              if k != "SynthImpl"}
    energy_block = tcu_module().estimate_energy(report["activity"], params)
    now = {"activity": report["activity"], "energy": energy_block}
    estimate = per_state_estimate(now)
    out = dict(measured)
    out["by_state"] = {k: {**v, "estimate_pj_per_cycle": estimate.get(k)}
                       for k, v in measured["by_state"].items()}
    out["estimate_pj"] = datapath_estimate_pj(now)
    return out


def errors(measured: dict) -> dict[str, float]:
    """Per state and in all: the estimate's error against the gate level
    ((estimate - gate level) / gate level)."""
    out = {k: v["estimate_pj_per_cycle"] / v["pj_per_cycle"] - 1
           for k, v in measured["by_state"].items()
           if v.get("estimate_pj_per_cycle") is not None and v["pj_per_cycle"]}
    if measured.get("estimate_pj") is not None and measured.get("pj"):
        out["total"] = measured["estimate_pj"] / measured["pj"] - 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tcu_tools.phys.datapath_energy",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--netlist", help="the datapath's flat mapped netlist")
    parser.add_argument("--trace", help="a waveform of the RTL run (.fst, .vcd)")
    parser.add_argument("--reprice", metavar="JSON",
                        help="instead of measuring: an earlier --json's gate-level figures, "
                        "priced again by this build's estimate on --report's activity")
    parser.add_argument("--report", help="the run's --report JSON: its activity checked")
    parser.add_argument("--instance", default=INSTANCE,
                        help="regular expression of the datapath's scope (default %(default)s)")
    parser.add_argument("--params", default="", metavar="NAME=VALUE ...",
                        help="the datapath's parameters the netlist was mapped at (recorded)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--workdir", default="build/phys-datapath")
    args = parser.parse_args(argv)
    if args.reprice:
        if not args.report:
            parser.error("--reprice needs --report (the run's activity and configuration)")
        try:
            got = reprice(json.loads(Path(args.reprice).read_text()),
                          json.loads(Path(args.report).read_text()))
        except (OSError, KeyError, ValueError, json.JSONDecodeError) as error:
            print(f"datapath_energy: {error}", file=sys.stderr)
            return 1
        got["errors"] = errors(got)
        text = json.dumps(got, indent=2)
        if args.json:
            Path(args.json).write_text(text)
        print(text)
        return 0
    if not args.netlist or not args.trace:
        parser.error("--netlist and --trace are required (or --reprice)")
    try:
        report = json.loads(Path(args.report).read_text()) if args.report else None
        got = measure(Path(args.netlist), Path(args.trace), Path(args.workdir), args.instance,
                      report)
    except (WorkloadError, RuntimeError, OSError, json.JSONDecodeError) as error:
        print(f"datapath_energy: {error}", file=sys.stderr)
        return 1
    got["params"] = {}
    for word in args.params.split():
        name, _, value = word.partition("=")
        if not name.isidentifier() or not value.isdigit():
            parser.error(f"--params: expected NAME=VALUE words, found '{word}'")
        got["params"][name] = int(value)
    text = json.dumps(got, indent=2)
    if args.json:
        Path(args.json).write_text(text)
    print(text)
    if got["counter_mismatches"]:
        print(f"datapath_energy: the netlist is not the run's datapath: "
              f"{'; '.join(got['counter_mismatches'][:4])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
