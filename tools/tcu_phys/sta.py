"""OpenSTA (Debian's `sta`): the critical path of a mapped netlist, the
clock it allows, and power for given net activities."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import library

# The clock every figure is taken at when none is given (ns); the critical
# path does not depend on it, power scales with 1 / period.
REFERENCE_PERIOD_NS = 10.0


@dataclass
class CriticalPath:
    delay_ns: float     # data arrival plus the endpoint's setup time
    fmax_mhz: float
    startpoint: str
    endpoint: str


@dataclass
class Power:
    period_ns: float
    internal_w: float
    switching_w: float
    leakage_w: float

    @property
    def total_w(self) -> float:
        return self.internal_w + self.switching_w + self.leakage_w

    @property
    def energy_per_cycle_pj(self) -> float:
        return self.total_w * self.period_ns * 1e3


def _preamble(netlist: Path, top: str, clock_port: str | None, period_ns: float) -> str:
    lines = [f"read_liberty {library.liberty()}", f"read_verilog {netlist}", f"link_design {top}"]
    if clock_port:
        lines.append(f"create_clock -name clk -period {period_ns} [get_ports {clock_port}]")
        lines.append(f"set_input_delay 0 -clock clk "
                     f"[delete_from_list [all_inputs] [get_ports {clock_port}]]")
    else:  # a combinational unit: a virtual clock from its inputs to its outputs
        lines.append(f"create_clock -name clk -period {period_ns}")
        lines.append("set_input_delay 0 -clock clk [all_inputs]")
    lines.append("set_output_delay 0 -clock clk [all_outputs]")
    if "rst_ni" in _ports_cache(netlist):
        # The asynchronous reset is not a timed path of the datapath.
        lines.append("set_false_path -from [get_ports rst_ni]")
    return "\n".join(lines) + "\n"


def _run(script: str, workdir: Path, name: str) -> str:
    tcl = workdir / f"{name}.tcl"
    tcl.write_text(script + "exit\n")
    proc = subprocess.run(["sta", "-no_splash", "-exit", str(tcl)], capture_output=True,
                          text=True)
    out = proc.stdout + proc.stderr
    (workdir / f"{name}.sta.log").write_text(out)
    if proc.returncode != 0 or "Error" in out:
        raise RuntimeError(f"OpenSTA failed on {tcl} (see {workdir / (name + '.sta.log')})")
    return out


def critical_path(netlist: Path, top: str, clock_port: str | None, workdir: Path) -> CriticalPath:
    out = _run(_preamble(netlist, top, clock_port, REFERENCE_PERIOD_NS) +
               "report_checks -path_delay max -format full -digits 4\n", workdir,
               f"{top}.timing")
    start = re.search(r"^Startpoint: (.*)$", out, re.M)
    end = re.search(r"^Endpoint: (.*)$", out, re.M)
    arrival = re.search(r"^\s*([-0-9.]+)\s+data arrival time", out, re.M)
    required = re.search(r"^\s*([-0-9.]+)\s+data required time", out, re.M)
    if not (start and end and arrival and required):
        raise RuntimeError(f"OpenSTA printed no critical path for {top} (see its log)")
    # required = period - setup (and - output delay, here 0)
    delay = float(arrival.group(1)) + (REFERENCE_PERIOD_NS - float(required.group(1)))
    return CriticalPath(delay, 1e3 / delay, start.group(1).strip(), end.group(1).strip())


def power(netlist: Path, top: str, clock_port: str | None, workdir: Path,
          activities: dict[str, tuple[float, float]] | None, period_ns: float,
          name: str = "power") -> Power:
    """report_power at `period_ns` with each net's (toggles per cycle, duty);
    nets not named keep OpenSTA's default. activities=None: no net toggles,
    the clock's included (leakage only)."""
    if activities is None:
        # No clock is created: a clock's pins keep the clock's own activity
        # whatever activity is set on them (OpenSTA 2.0.17), so the clock
        # port is an input like the others, at activity 0.
        script = _preamble(netlist, top, None, period_ns)
        script += "set_power_activity -global -activity 0 -duty 0\n"
        script += "set_power_activity -input -activity 0 -duty 0\n"
    else:
        script = _preamble(netlist, top, clock_port, period_ns)
        # Nets without a figure of their own (none: every net of the top is
        # simulated) would take OpenSTA's propagated activity; a global
        # activity would override the per-pin figures, so none is set.
        script += _NET_ACTIVITY
        for net, (activity, duty) in sorted(activities.items()):
            script += f"net_activity {{{net}}} {activity:.6g} {duty:.6g}\n"
            if net in _ports_cache(netlist):
                script += (f"set_power_activity -input_ports {{{net}}} "
                           f"-activity {activity:.6g} -duty {duty:.6g}\n")
    script += "report_power -digits 8\n"
    out = _run(script, workdir, f"{top}.{name}")
    m = re.search(r"^Total\s+([-0-9.e+]+)\s+([-0-9.e+]+)\s+([-0-9.e+]+)\s+([-0-9.e+]+)", out, re.M)
    if not m:
        raise RuntimeError(f"OpenSTA printed no power for {top} (see its log)")
    return Power(period_ns, float(m.group(1)), float(m.group(2)), float(m.group(3)))


# Every pin on a net (its driver and its loads) takes the net's activity.
# OpenSTA 2.0.17's set_power_activity -pins calls a procedure that does not
# exist (get_pins_error), so the command under it is called directly.
_NET_ACTIVITY = """proc net_activity {net activity duty} {
  foreach pin [get_pins -of_objects [get_nets $net]] {
    sta::set_power_pin_activity $pin $activity $duty
  }
}
"""

_PORTS: dict = {}


def _ports_cache(netlist: Path) -> set:
    if netlist not in _PORTS:
        names = set()
        for m in re.finditer(r"^\s*input\s+(?:\[(\d+):(\d+)\]\s+)?(\w+)\s*;", netlist.read_text(), re.M):
            if m.group(1) is None:
                names.add(m.group(3))
            else:
                hi, lo = int(m.group(1)), int(m.group(2))
                names.update(f"{m.group(3)}[{i}]" for i in range(min(hi, lo), max(hi, lo) + 1))
        _PORTS[netlist] = names
    return _PORTS[netlist]
