"""Yosys 0.23: an RTL unit mapped to the library's cells, and its area."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from . import library
from . import units
from .units import sources_of, synthesis_params


@dataclass
class MappedUnit:
    top: str
    params: dict
    netlist: Path          # gate-level Verilog of library cells
    area_um2: float        # every cell
    flip_flop_area_um2: float
    cells: int
    flip_flops: int
    cell_counts: dict
    seconds: float         # Yosys's wall time (the first mapping's, if reused)


def cell_areas() -> dict:
    """Each cell's area (um^2) from the liberty file."""
    areas, cell = {}, None
    for line in library.liberty().read_text().splitlines():
        m = re.match(r"\s*cell\s*\(\s*\"?(\w+)\"?\s*\)", line)
        if m:
            cell = m.group(1)
            continue
        m = re.match(r"\s*area\s*:\s*([0-9.eE+-]+)\s*;", line)
        if m and cell is not None and cell not in areas:
            areas[cell] = float(m.group(1))
    return areas


# dfflibmap maps flip-flops only: a latch (the clock gate's) is made
# positive-enable (an inverter on its enable, which abc then maps) and
# becomes the library's LATCH cell.
LATCH_MAPPING = (f"dfflegalize -cell $_DLATCH_P_ 01; "
                 f"techmap -map {Path(__file__).with_name('osu018_latch_map.v')};")


# A whole datapath's control nets (the clock enables, the hold of every
# pipeline register) each drive thousands of flip-flops; unbuffered, their
# NLDM delays run off the library's tables (microseconds a gate). Such a
# design is mapped as qflow maps to this library (osu018.sh: buffer cell
# BUFX2, 20 fF output load): ABC buffers and sizes it (abc -constr adds
# buffer; upsize; dnsize after the same &nf mapping). Every unit is mapped
# the same way, so the unit figures of spec/phys_osu018.toml compose into a
# datapath's with the flow a whole datapath is measured with;
# buffered=False gives the plain mapping (tcu-phys --plain) for comparison.
ABC_CONSTRAINTS = Path(__file__).with_name("osu018_abc.constr")


def tag(top: str, params: dict) -> str:
    return top + "".join(f".{k}-{v}" for k, v in sorted(params.items()))


def map_unit(top: str, params: dict, workdir: Path, buffered: bool = True,
             sources: list[Path] | None = None) -> MappedUnit:
    """Maps `top` at `params` (plus SynthImpl=1 where it applies) with
    synth -flatten, dfflibmap and abc against the library (buffered and
    sized unless buffered=False); writes the netlist and reads the area
    from stat -liberty. `sources`: the SystemVerilog files of a design
    outside rtl/ (default: rtl/'s files the top names)."""
    sources = sources if sources is not None else sources_of(top)
    params = synthesis_params(top, params) if (units.RTL / f"{top}.sv").exists() else dict(params)
    workdir.mkdir(parents=True, exist_ok=True)
    name = tag(top, params) + ("" if buffered else ".plain")
    netlist = workdir / f"{name}.mapped.v"
    stat_json = workdir / f"{name}.stat.json"
    log = workdir / f"{name}.yosys.log"
    lib = library.liberty()
    # -defer: modules are elaborated only from the top down at its
    # parameters (at their defaults the units would instantiate the fast
    # implementations, which are not read).
    constr = f"-constr {ABC_CONSTRAINTS} " if buffered else ""
    script = (f"read_verilog -sv -defer {' '.join(str(s) for s in sources)}; "
              f"{_elaborate(top, params)} synth -flatten -top {top}; "
              f"dfflibmap -liberty {lib}; {LATCH_MAPPING} abc {constr}-liberty {lib}; "
              f"opt_clean -purge; "
              f"setattr -mod -unset keep; write_verilog -noattr -noexpr {netlist}; "
              f"tee -q -o {stat_json} stat -json")
    # A mapping is reused when the sources and the script are the same
    # (the stamp holds their digest and the mapping's own time).
    digest = hashlib.sha256(script.encode() + (ABC_CONSTRAINTS.read_bytes() if constr else b"") + b"".join(
        s.read_bytes() for s in sources) + lib.read_bytes()).hexdigest()
    stamp = workdir / f"{name}.stamp.json"
    cached = None
    if stamp.exists() and netlist.exists() and stat_json.exists():
        cached = json.loads(stamp.read_text())
        if cached.get("digest") != digest:
            cached = None
    start = time.monotonic()
    if cached is None:
        stamp.unlink(missing_ok=True)
        proc = subprocess.run(["yosys", "-q", "-l", str(log), "-p", script],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"yosys mapping of {name} failed (see {log})")
        seconds = time.monotonic() - start
        stamp.write_text(json.dumps({"digest": digest, "seconds": seconds}))
    else:
        seconds = cached["seconds"]
    netlist = split_netlist(netlist, lib, log)
    stat = json.loads(_json_part(stat_json.read_text()))
    counts = stat["modules"][f"\\{top}"]["num_cells_by_type"]
    areas = cell_areas()
    unknown = [c for c in counts if c not in areas]
    if unknown:
        raise RuntimeError(f"{name}: cells not in {lib}: {unknown}")
    area = sum(areas[c] * n for c, n in counts.items())
    ff_cells = {c: n for c, n in counts.items() if library.is_flip_flop(c)}
    return MappedUnit(top, params, netlist, area,
                      sum(areas[c] * n for c, n in ff_cells.items()),
                      sum(counts.values()), sum(ff_cells.values()), dict(counts), seconds)


def _elaborate(top: str, params: dict) -> str:
    """The Yosys commands that elaborate `top` at `params`. `hierarchy
    -chparam` (every unit and the whole datapath) fails Yosys 0.23's
    assertion `modules_.count(module->name) == 0` on an engine top
    (tcu_*_engine: the top is re-derived once a module it instantiates has
    been, and its parameterised name exists already); setting the deferred
    top's parameters first (chparam -set) elaborates it once."""
    if top.endswith("_engine") and params:
        sets = "".join(f" -set {k} {v}" for k, v in params.items())
        return f"chparam{sets} {top}; hierarchy -check -top {top};"
    chparam = "".join(f" -chparam {k} {v}" for k, v in params.items())
    return f"hierarchy -check -top {top}{chparam};"


def _json_part(text: str) -> str:
    # tee -o writes stat's JSON after any header lines Yosys prints.
    return text[text.index("{"):]


def split_netlist(netlist: Path, lib: Path, log: Path) -> Path:
    """The mapped netlist with every wire split into bits (Yosys splitnets):
    write_verilog joins aliased vector slices into assigns with a
    concatenation on the left (the FMA units have them), which OpenSTA's
    Verilog reader refuses; bit by bit they are plain assigns. Bits that
    nothing reads are dropped (a wire keeps Yosys's x on the bits of
    flip-flops it removed as unloaded: tcu_fma's boundary state). The same
    cells, so the same area; the simulation and OpenSTA both read this one."""
    out = netlist.with_suffix(".split.v")
    if out.exists() and out.stat().st_mtime_ns >= netlist.stat().st_mtime_ns:
        return out
    proc = subprocess.run(["yosys", "-q", "-l", str(log.with_suffix(".split.log")), "-p",
                           f"read_liberty -lib {lib}; read_verilog {netlist}; splitnets; "
                           f"opt_clean -purge; write_verilog -noattr -noexpr {out}"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"yosys splitnets of {netlist} failed "
                           f"(see {log.with_suffix('.split.log')})")
    text = out.read_text()
    vectors = {m.group(3): (int(m.group(1)), int(m.group(2))) for m in re.finditer(
        r"^\s*(?:input|output|wire)\s+\[(\d+):(\d+)\]\s+(\S+)\s*;", text, re.M)}
    out.write_text(re.sub(r"^  assign \{(.*)\} = (\{.*\}|[^{};]+);$",
                          lambda m: _bitwise_assigns(m, vectors), text, flags=re.M))
    return out


def _bits(items: str, vectors: dict) -> list[str]:
    """A concatenation's items (or one item), bit by bit, most significant
    first: single bits (after splitnets), sized constants (8'hff), and the
    ports splitnets leaves whole (data_o, data_o[7:4])."""
    bits = []
    items = items.strip()
    if items.startswith("{"):
        items = items[1:-1]
    for item in (i.strip() for i in items.split(",")):
        m = re.fullmatch(r"(\d+)'([bh])([0-9a-fA-FxXzZ]+)", item)
        v = re.fullmatch(r"(\w+)(?:\s*\[(\d+):(\d+)\])?", item)
        if v and v.group(1) in vectors:
            hi, lo = (int(v.group(2)), int(v.group(3))) if v.group(2) else vectors[v.group(1)]
            step = -1 if hi >= lo else 1
            bits += [f"{v.group(1)}[{i}]" for i in range(hi, lo + step, step)]
            continue
        if not m:
            bits.append(item + (" " if item.startswith("\\") else ""))
            continue
        width, base, digits = int(m.group(1)), m.group(2), m.group(3)
        if set(digits) - set("0123456789abcdefABCDEF"):
            raise RuntimeError(f"a constant with x or z in a netlist assign: {item}")
        value = bin(int(digits, 16 if base == "h" else 2))[2:].zfill(width)[-width:]
        bits += [f"1'b{b}" for b in value]
    return bits


def _bitwise_assigns(m: re.Match, vectors: dict) -> str:
    """assign { a, b } = { c, 1'h0 }; as one assign per bit (OpenSTA reads
    no concatenation on the left)."""
    lhs, rhs = _bits(m.group(1), vectors), _bits(m.group(2), vectors)
    if len(lhs) != len(rhs):
        raise RuntimeError(f"an assign of {len(rhs)} bits to {len(lhs)}: {m.group(0)[:200]}")
    return "\n".join(f"  assign {a} = {b};" for a, b in zip(lhs, rhs))
