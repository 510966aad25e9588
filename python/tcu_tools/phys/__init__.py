"""Physical figures of the RTL from a real standard-cell library.

Every figure here is for the OSU 0.18 um standard cells (Debian's
qflow-tech-osu018, typical corner): area in um^2 from Yosys's liberty mapping,
the critical path and the clock it allows from OpenSTA, and energy per cycle
from OpenSTA's report_power fed with the toggle counts of a gate-level
simulation of the mapped netlist.

Modules, one job each:
  library   where the cell library is, its label, its cells as Verilog models
  mapping   Yosys: RTL unit -> netlist of library cells, area
  sta       OpenSTA: critical path, clock, power for given activities
  activity  gate-level simulation (Verilator) of the mapped netlist: toggles
  stimulus  operand streams for each unit type (random operands of a variant)
  units     the unit types, their sources, parameters and operations per cycle
  cli       python -m tcu_tools.phys ...
"""
