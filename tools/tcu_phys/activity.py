"""Gate-level simulation of a mapped netlist (Verilator, with the library's
cell models from tcu_phys.library.cell_models): the toggle count and the
time high of every net of the top, from a VCD of the run."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import library, stimulus


@dataclass
class Activity:
    cycles: int
    nets: dict  # net name (bits as name[i]) -> (toggles per cycle, duty)

    def mean_toggle_rate(self) -> float:
        rates = [a for a, _ in self.nets.values()]
        return sum(rates) / len(rates) if rates else 0.0


def ports(netlist: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The netlist's (inputs, outputs) as (name, width), from the port
    declarations Yosys's write_verilog puts at the top of the module."""
    ins, outs = [], []
    for m in re.finditer(r"^\s*(input|output)\s+(?:\[(\d+):(\d+)\]\s+)?(\w+)\s*;",
                         netlist.read_text(), re.M):
        width = 1 if m.group(2) is None else abs(int(m.group(2)) - int(m.group(3))) + 1
        (ins if m.group(1) == "input" else outs).append((m.group(4), width))
    return ins, outs


_DRIVER = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include "V{top}.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

// Sets a port of `bits` bits from a hex string.
template <typename T> static void set_hex(T& port, const std::string& hex, int bits) {{
  if constexpr (sizeof(T) <= 8) {{
    port = static_cast<T>(std::stoull(hex.empty() ? "0" : hex, nullptr, 16));
  }} else {{
    const int words = (bits + 31) / 32;
    for (int w = 0; w < words; ++w) {{
      const int end = static_cast<int>(hex.size()) - 8 * w;
      const int begin = end - 8 < 0 ? 0 : end - 8;
      port[w] = end > 0 ? static_cast<uint32_t>(std::stoul(hex.substr(begin, end - begin), nullptr, 16)) : 0;
    }}
  }}
}}

int main(int argc, char** argv) {{
  if (argc != 3) {{ std::cerr << "usage: sim STIMULUS VCD\n"; return 2; }}
  Verilated::traceEverOn(true);
  auto* dut = new V{top};
  auto* vcd = new VerilatedVcdC;
  dut->trace(vcd, 1);  // the top's own nets; the cells' are the same nets
  vcd->open(argv[2]);
  std::ifstream in(argv[1]);
  std::string line;
  uint64_t t = 0;
  while (std::getline(in, line)) {{
    std::istringstream fields(line);
    std::string hex;
{assign}
    {clock_low}
    dut->eval();
    vcd->dump(t + 1);
    {clock_high}
    dut->eval();
    vcd->dump(t + 2);
    t += 2;
  }}
  vcd->close();
  delete dut;
  return 0;
}}
"""


def build(netlist: Path, top: str, workdir: Path) -> Path:
    """Verilates the netlist with the cell models and a driver that reads one
    line of hex port values per cycle; returns the executable."""
    ins, _ = ports(netlist)
    clock = "clk_i" if any(n == "clk_i" for n, _ in ins) else None
    assign = "\n".join(f"    fields >> hex; set_hex(dut->{n}, hex, {w});"
                       for n, w in ins if n != clock)
    driver = workdir / f"{top}_gls_driver.cpp"
    driver.write_text(_DRIVER.format(
        top=top, assign=assign,
        clock_low=f"dut->{clock} = 0;" if clock else "",
        clock_high=f"dut->{clock} = 1;" if clock else ""))
    mdir = workdir / f"{top}.obj"
    # The trace code of a large netlist is most of the C++: its set-up half
    # (*__Slow.cpp) runs once and is compiled without optimization.
    cmd = ["verilator", "--cc", "--exe", "--build", "-j", "2", "--trace", "--trace-underscore", "-O1",
           "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-MULTIDRIVEN", "-Wno-UNOPTFLAT",
           "--top-module", top, "--Mdir", str(mdir), "-MAKEFLAGS", "OPT_FAST=-O1", "-MAKEFLAGS", "OPT_SLOW=-O0",
           str(library.cell_models(workdir)), str(netlist), str(driver)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        (workdir / f"{top}.verilator.log").write_text(proc.stdout + proc.stderr)
        raise RuntimeError(f"Verilator failed on {netlist} (see {workdir / (top + '.verilator.log')})")
    return mdir / f"V{top}"


_BUILT: dict = {}


def simulate(netlist: Path, top: str, unit_kind: str, workdir: Path, cycles: int,
             seed: int = 1, idle: bool = False) -> Activity:
    key = (netlist, netlist.stat().st_mtime_ns)
    if key not in _BUILT:  # busy and idle runs share one build
        _BUILT[key] = build(netlist, top, workdir)
    exe = _BUILT[key]
    ins, _ = ports(netlist)
    data_ports = [(n, w) for n, w in ins if n != "clk_i"]
    rows = stimulus.make(unit_kind, data_ports, cycles, seed, idle)
    stim = workdir / f"{top}.stimulus.txt"
    stim.write_text("\n".join(" ".join(f"{v:x}" for v in row) for row in rows) + "\n")
    vcd = workdir / f"{top}.vcd"
    subprocess.run([str(exe), str(stim), str(vcd)], check=True, capture_output=True)
    # The first two cycles are the reset; activity is counted after them.
    return count_toggles(vcd, top, start_time=4, end_time=2 * cycles)


def count_toggles(vcd: Path, top: str, start_time: int, end_time: int) -> Activity:
    """Per bit of every signal declared in the top's own scope: value changes
    in (start_time, end_time] and the fraction of cycles it was 1 (sampled at
    each even time, after the rising edge)."""
    codes: dict[str, list[tuple[str, int, int]]] = {}  # id code -> [(name, width, lsb)]
    depth, in_top = 0, False
    values: dict[str, str] = {}
    toggles: dict[str, list[int]] = {}
    high: dict[str, list[int]] = {}
    time = 0
    samples = 0

    def sample():
        for code, value in values.items():
            h = high[code]
            n = len(h)
            for i in range(n):
                if value[n - 1 - i] == "1":
                    h[i] += 1

    with open(vcd) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("$scope"):
                depth += 1
                in_top = depth == 2 and line.split()[2] == top
                continue
            if line.startswith("$upscope"):
                depth -= 1
                in_top = False
                continue
            if line.startswith("$var"):
                parts = line.split()
                width, code, name = int(parts[2]), parts[3], parts[4]
                lsb = 0
                m = re.match(r"\[(\d+):(\d+)\]", parts[5]) if len(parts) > 5 else None
                if m:
                    lsb = min(int(m.group(1)), int(m.group(2)))
                if in_top and depth == 2:
                    codes.setdefault(code, []).append((name, width, lsb))
                    values[code] = "0" * width
                    toggles[code] = [0] * width
                    high[code] = [0] * width
                continue
            if line.startswith("#"):
                new_time = int(line[1:])
                if time >= start_time and time % 2 == 0 and time <= end_time and time > 0:
                    sample()
                    samples += 1
                time = new_time
                continue
            if line[0] in "01xz":
                code, value = line[1:].strip(), line[0]
            elif line[0] == "b":
                value, code = line[1:].split()
            else:
                continue
            if code not in values:
                continue
            old = values[code]
            width = len(old)
            value = value.replace("x", "0").replace("z", "0").rjust(width, "0")[-width:]
            if start_time < time <= end_time:
                t = toggles[code]
                for i in range(width):
                    if value[width - 1 - i] != old[width - 1 - i]:
                        t[i] += 1
            values[code] = value
    if time >= start_time and time <= end_time:
        sample()
        samples += 1
    cycles = max(1, (end_time - start_time) // 2)
    nets = {}
    for code, names in codes.items():
        for name, width, lsb in names:
            for i in range(width):
                bit = name if width == 1 else f"{name}[{i + lsb}]"
                nets[bit] = (toggles[code][i] / cycles, high[code][i] / max(1, samples))
    return Activity(cycles, nets)
