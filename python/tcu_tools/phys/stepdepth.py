"""python3 -m tcu_tools.phys.stepdepth [--format 0|1] [--stages N] [--workdir DIR] [--json FILE]

The logic depth of each step of tcu_fma (tcu_pkg::FMA_STEPS, the FS_* list):
maps tcu_fma at Stages >= tcu_pkg::FMA_STEPS, where tcu_pkg::fma_cuts puts a
register after every step, and reads from OpenSTA the worst arrival (plus setup) at
each boundary's registers: the depth of the step in front of it, from the
register before it (step 0: from the input ports, which arrive at time 0).
Prints each boundary's depth in ns and in FO4 (tcu_tools.phys.calib's
inverter chain), and the step weight it implies: the depth less the
register's own delay (clock to output and setup, the least depth of a
valid-bit register, which holds only a multiplexer). These are the weights
tcu_pkg.sv states (FMA_FO4_FP32, FMA_FO4_FP64). Exit 1 if a step fails."""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from . import calib, library, mapping, sta

FORMATS = {0: "FP32", 1: "FP64"}
FMA_STEPS = 17  # tcu_pkg::FMA_STEPS


def fo4_ns(workdir: Path) -> float:
    """The FO4 delay (ns): (8-stage chain - 4-stage chain) / 4 (as calib.fo4)."""
    delay = {}
    for n in (4, 8):
        d = workdir / f"fo4_{n}"
        d.mkdir(parents=True, exist_ok=True)
        net = d / f"fo4_chain{n}.v"
        net.write_text(calib.chain_netlist(n))
        delay[n] = sta.critical_path(net, f"fo4_chain{n}", None, d).delay_ns
    return (delay[8] - delay[4]) / 4


def flop_outputs(netlist: Path) -> dict[str, str]:
    """Each flip-flop instance's Q net."""
    text = netlist.read_text()
    out = {}
    for m in re.finditer(r"^\s*(DFF\w+)\s+(\S+)\s*\((.*?)\);", text, re.M | re.S):
        q = re.search(r"\.Q\(\s*(.*?)\s*\)\s*(?:,|$)", m.group(3), re.S)
        if q:
            out[m.group(2)] = q.group(1)
    return out


def boundary_of(net: str, state_width: int) -> str | None:
    """'step K' for a bit of boundary K's register (bnd, state_width bits a
    boundary, every boundary registered), 'valid' for a valid bit, 'out' for
    the output register, None otherwise."""
    # (flattened: under tcu_fma's g_steps.u_impl)
    name = re.sub(r"^.*\.", "", net.lstrip("\\").strip())
    m = re.fullmatch(r"bnd\s*\[(\d+)\]", name)
    if m:
        return f"step {int(m.group(1)) // state_width}"
    if re.fullmatch(r"bnd_v\s*\[\d+\]", name):
        return "valid"
    if re.fullmatch(r"res_(aux_)?q(\s*\[\d+\])?", name):
        return "out"
    return None


def _clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


def state_width(fmt: int) -> int:
    """tcu_fma's StW (the bits of a boundary's state word) for FP32 (0) or
    FP64 (1) with AuxWidth 1: the same sum as rtl/tcu_fma.sv's."""
    exp_bits, man_bits = (8, 23) if fmt == 0 else (11, 52)
    width, prec = 1 + exp_bits + man_bits, man_bits + 1
    exp_w, prod_w = exp_bits + 3, 2 * prec
    pal_w, add_w, mag_w = prod_w + 3, 1 + 2 * prec + 1, 1 + 2 * prec + 3
    sum_w = mag_w + 1
    shamt_w, psh_w, lzc_w = _clog2(add_w + 1), _clog2(prod_w + 3), _clog2(mag_w + 1)
    mul_w = 11 if fmt == 1 else 12
    nd = -(-prec // mul_w)
    row_w, subp_w = 2 * nd * mul_w, nd * nd * 2 * mul_w
    pc_w, sm_w, rc_w = -(-row_w // 3), -(-sum_w // 3), -(-(exp_w + man_bits) // 2)
    return (3 * width + 2 + 1 + 11 + prec + 2 * exp_w + subp_w + shamt_w + psh_w + exp_w + 1 +
            width + 2 * row_w + add_w + 1 + 1 + 3 * pc_w + pal_w + 3 * sm_w + 1 + 3 * sm_w + 1 +
            lzc_w + lzc_w + exp_w + mag_w + 2 + 4 * rc_w + width)


def measure(fmt: int, stages: int, workdir: Path) -> dict:
    params = {"Format": fmt, "Stages": stages, "CanonicalNan": 1 if fmt == 0 else 0}
    mapped = mapping.map_unit("tcu_fma", params, workdir)
    script = (sta._preamble(mapped.netlist, "tcu_fma", "clk_i", sta.REFERENCE_PERIOD_NS) +
              "report_checks -path_delay max -group_count 1000000 -endpoint_count 1 "
              "-format end -digits 4\n")
    out = sta._run(script, workdir, f"tcu_fma.stepdepth.{fmt}.{stages}")
    qnets = flop_outputs(mapped.netlist)
    valids = sum(1 for q in qnets.values() if boundary_of(q, 1) == "valid")
    if valids != FMA_STEPS:
        raise RuntimeError(f"Stages={stages} leaves {valids - 1} of {FMA_STEPS - 1} step "
                           "boundaries registered: choose more stages")
    width = state_width(fmt)
    depth: dict[str, float] = defaultdict(float)
    for m in re.finditer(r"^(\S+)/D \(\w+\)\s+([-0-9.]+)\s+([-0-9.]+)\s+[-0-9.]+", out, re.M):
        inst, required, arrival = m.group(1), float(m.group(2)), float(m.group(3))
        where = boundary_of(qnets.get(inst, ""), width)
        if where is None:
            continue
        setup = sta.REFERENCE_PERIOD_NS - required
        depth[where] = max(depth[where], arrival + setup)
    if not any(k.startswith("step") for k in depth):
        raise RuntimeError(f"no boundary registers found in {mapped.netlist}")
    return {"format": FORMATS[fmt], "stages": stages, "flip_flops": mapped.flip_flops,
            "depth_ns": dict(depth)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tcu_tools.phys.stepdepth",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--format", type=int, choices=sorted(FORMATS), default=1)
    parser.add_argument("--stages", type=int, default=FMA_STEPS,
                        help="tcu_fma's Stages (at least FMA_STEPS: a register after every step)")
    parser.add_argument("--workdir", default="build/phys")
    parser.add_argument("--json", help="write the depths as JSON to this file")
    args = parser.parse_args(argv)
    workdir = Path(args.workdir)
    try:
        library.liberty()
        fo4 = fo4_ns(workdir)
        r = measure(args.format, args.stages, workdir)
    except RuntimeError as e:
        print(f"tcu_tools.phys.stepdepth: {e}", file=sys.stderr)
        return 1
    r["fo4_ns"] = fo4
    d = r["depth_ns"]
    overhead = d.get("valid", 0.0)
    print(f"tcu_fma {r['format']} Stages={r['stages']}: FO4 {fo4:.4f} ns, register "
          f"overhead {overhead:.3f} ns ({overhead / fo4:.1f} FO4), {r['flip_flops']} flip-flops")
    print(f"{'boundary':10} {'depth ns':>9} {'FO4':>6} {'weight FO4':>10}")
    keys = sorted((k for k in d if k.startswith("step")), key=lambda k: int(k.split()[1]))
    for k in keys + (["out"] if "out" in d else []):
        print(f"{k:10} {d[k]:9.3f} {d[k] / fo4:6.1f} {(d[k] - overhead) / fo4:10.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
