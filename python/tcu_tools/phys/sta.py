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
    """The shortest clock period at which every check meets (setup, and the
    clock gate's gating check), found by OpenSTA itself (_period_search):
    with flip-flops only the slack is linear in the period, but not with a
    latch (the clock gate's): its checks move with the half period, and it
    lends a path that arrives after its opening edge the time it needs, so
    neither the first path of report_checks at the reference period nor a
    zero slack at the latch is the limit. The path named is the one that
    fails first below the period."""
    out = _run(_preamble(netlist, top, clock_port, REFERENCE_PERIOD_NS) + _period_search(clock_port) +
               "report_checks -path_delay max -format full -digits 4\n", workdir,
               f"{top}.timing")
    period = re.search(r"^tcu_min_period ([-0-9.e+]+) slack ([-0-9.e+]+)$", out, re.M)
    paths = [p for p in (_path(block) for block in out.split("Startpoint: ")[1:]) if p]
    if not (period and paths):
        raise RuntimeError(f"OpenSTA printed no critical path for {top} (see its log)")
    if abs(float(period.group(2))) > 0.0005:
        raise RuntimeError(f"OpenSTA: the period search did not settle for {top} (see its log)")
    delay = float(period.group(1)) - float(period.group(2))
    start, end, _ = min(paths, key=lambda p: p[2])
    return CriticalPath(delay, 1e3 / delay, start, end)


def _path(block: str):
    """(startpoint, endpoint, slack) of one report_checks path."""
    end = re.search(r"^Endpoint: (.*)$", block, re.M)
    slack = re.search(r"^\s*([-0-9.]+)\s+slack \((?:MET|VIOLATED)\)", block, re.M)
    if not (end and slack):
        return None
    return block.splitlines()[0].strip(), end.group(1).strip(), float(slack.group(1))


def _period_search(clock_port: str | None) -> str:
    """Tcl for one OpenSTA session: the shortest clock period at which the
    worst slack is not below -0.5 ps. First the clock is redefined at
    period - worst slack until that slack is within half a picosecond of
    zero (60 steps at most; a flip-flop design takes one, a latch's check
    halves its distance each step). That stops early where a latch's data
    arrives at its opening edge: below that period the latch lends the
    path time (its slack is zero while it borrows), so a slack of zero
    there is not the limit. So the period 1 ps shorter is tried; where it
    still meets, the limit lies below, and a bisection between a
    twentieth of the period and the period finds it (each step half the
    distance, to within a tenth of a picosecond). Prints the period and
    its slack, and leaves the clock 1 ps shorter for report_checks, whose
    worst path is then the one that fails first (at the period itself a
    borrowing latch's zero slack can tie with it)."""
    target = f" [get_ports {clock_port}]" if clock_port else ""
    clock = f"create_clock -name clk -period $tcu_period{target}"
    return f"""set tcu_period {REFERENCE_PERIOD_NS}
set tcu_slack [sta::worst_slack -max]
for {{set tcu_step 0}} {{$tcu_step < 60 && abs($tcu_slack) > 0.0005 && $tcu_period - $tcu_slack > 0}} {{incr tcu_step}} {{
  set tcu_period [expr {{$tcu_period - $tcu_slack}}]
  {clock}
  set tcu_slack [sta::worst_slack -max]
}}
set tcu_met $tcu_period
set tcu_period [expr {{$tcu_met - 0.001}}]
{clock}
if {{[sta::worst_slack -max] >= -0.0005}} {{
  set tcu_low [expr {{$tcu_met / 20.0}}]
  while {{$tcu_met - $tcu_low > 0.0001}} {{
    set tcu_period [expr {{($tcu_met + $tcu_low) / 2.0}}]
    {clock}
    if {{[sta::worst_slack -max] >= -0.0005}} {{
      set tcu_met $tcu_period
    }} else {{
      set tcu_low $tcu_period
    }}
  }}
}}
set tcu_period $tcu_met
{clock}
set tcu_slack [sta::worst_slack -max]
puts "tcu_min_period $tcu_period slack $tcu_slack"
set tcu_period [expr {{$tcu_met - 0.001}}]
{clock}
"""


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
        script += ideal_clock_slews(netlist, clock_port)
        for net, (activity, duty) in sorted(activities.items()):
            # An escaped identifier (\\name, as the VCD writes it) is the
            # plain name to OpenSTA: with the backslash it is not found.
            script += f"net_activity {{{net.lstrip(chr(92))}}} {activity:.6g} {duty:.6g}\n"
            if net in _ports_cache(netlist):
                script += (f"set_power_activity -input_ports {{{net}}} "
                           f"-activity {activity:.6g} -duty {duty:.6g}\n")
    if activities is not None:
        script += 'puts "tcu_nets_missing $tcu_nets_missing"\n'
    script += "report_power -digits 8\n"
    out = _run(script, workdir, f"{top}.{name}")
    m = re.search(r"^Total\s+([-0-9.e+]+)\s+([-0-9.e+]+)\s+([-0-9.e+]+)\s+([-0-9.e+]+)", out, re.M)
    if not m:
        raise RuntimeError(f"OpenSTA printed no power for {top} (see its log)")
    missing = re.search(r"^tcu_nets_missing (\d+)$", out, re.M)
    if missing and int(missing.group(1)):
        raise RuntimeError(f"OpenSTA found {missing.group(1)} of the simulated nets of {top} "
                           "nowhere in the netlist (see its log)")
    return Power(period_ns, float(m.group(1)), float(m.group(2)), float(m.group(3)))


# Every pin on a net (its driver and its loads) takes the net's activity.
# OpenSTA 2.0.17's set_power_activity -pins calls a procedure that does not
# exist (get_pins_error), so the command under it is called directly.
# A net the simulation names that OpenSTA does not find is counted
# (tcu_nets_missing): its pins would keep OpenSTA's propagated activity.
_NET_ACTIVITY = """set tcu_nets_missing 0
proc net_activity {net activity duty} {
  global tcu_nets_missing
  set found [get_nets -quiet $net]
  if {[llength $found] == 0} {
    incr tcu_nets_missing
    return
  }
  foreach pin [get_pins -of_objects $found] {
    sta::set_power_pin_activity $pin $activity $duty
  }
}
"""

# A gated clock (tcu_clock_gate: a latch and an AND cell) drives its
# flip-flops' clock pins from one cell: no clock tree is built, so OpenSTA
# computes the slew of an AND2X2 driving thousands of clock pins (283 ns on
# the router's write-back gate of 8,224 flip-flops), and the flip-flops'
# internal-power tables, indexed by the clock pin's slew, are extrapolated
# far past their last entry (13.5 mW a flip-flop at 100 MHz, against 24 uW
# on the clock port): the router's 1.1 uJ a cycle, busy or idle. The clock
# network is taken as ideal instead, as it is for the flip-flops on the
# clock port (whose slew is the port's, 0): every pin of a net that drives
# a clock pin, other than the port's, is given the port's slew. The gating
# cell still drives the net's capacitance (its switching power is counted).
_IDEAL_CLOCK_SLEW = """proc ideal_clock_slew {net} {
  set corner [sta::cmd_corner]
  foreach pin [get_pins -of_objects [get_nets $net]] {
    foreach vertex [$pin vertices] {
      if {$vertex != "NULL"} {
        sta::set_annotated_slew $vertex $corner all rise_fall 0.0
      }
    }
  }
}
"""


def gated_clock_nets(netlist: Path, clock_port: str | None) -> list[str]:
    """The nets on a cell's clock pin (CLK) other than the clock port."""
    nets = set(re.findall(r"\.CLK\(\s*(\S+?)\s*\)", netlist.read_text()))
    return sorted(n.lstrip("\\") for n in nets if n != clock_port)


def ideal_clock_slews(netlist: Path, clock_port: str | None) -> str:
    """Tcl giving every gated clock net the clock port's slew (above)."""
    nets = gated_clock_nets(netlist, clock_port)
    if not nets:
        return ""
    return _IDEAL_CLOCK_SLEW + "".join(f"ideal_clock_slew {{{n}}}\n" for n in nets)


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


def register_of(netlist: Path, point: str) -> str | None:
    """The register a path's start or end point is (report_checks' "NAME
    (rising edge-triggered flip-flop ...)"): the net on that flip-flop's
    (or latch's) Q pin, which Yosys names after the RTL register, its
    instance path included (u_int4.g_engine.g_accumulate[2].dot[12]); None
    for a port or a cell not found."""
    name = point.split(" (")[0].strip()
    if "flip-flop" not in point and "latch" not in point:
        return None
    inst = re.escape(name.split("/")[-1])
    m = re.search(rf"^\s*\w+\s+\\?{inst}\s*\((.*?)\);", Path(netlist).read_text(), re.S | re.M)
    if not m:
        return None
    q = re.search(r"\.Q\(\s*(.*?)\s*\)\s*(?:,|$)", m.group(1), re.S)
    return re.sub(r"\s+", "", q.group(1).lstrip("\\")) if q else None
