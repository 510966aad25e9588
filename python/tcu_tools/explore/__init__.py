"""tcu explore: sweep the datapath's parameters over a workload.

For every point of a sweep (the cartesian product of its axes) this builds
the Verilated model at the point's RTL parameters (once, cached by a hash of
the RTL sources and the parameters), runs the workload on it through the
SystemC front-end (`tcu gemm` or `tcu run --mix`, D checked), synthesizes
the datapath with Yosys at the same parameters (scripts/synth.sh, cached the
same way), and writes

  explore.csv                one row per point (columns: README, "tcu explore")
  explore.json               the sweep, the workload and the shard it covers
  throughput_vs_area.png     throughput against area, Pareto front marked
  energy_vs_throughput.png   energy per MAC against throughput, Pareto front marked
  utilization_vs_rf.png      MAC utilization against register-file bandwidth

and prints a one-screen table. `tcu explore merge` joins the output folders
of shards (`--shard i/N`) into one.

Modules, one job each:
  params     the parameters a sweep may name (spec/config.toml's and the run's)
  sweep      the sweep: TOML file, command-line axes, points, workload
  cache      content keys, cache locks, logged subprocesses
  build      a point's Verilated `tcu` (cmake, linking a base build)
  synthesis  scripts/synth.sh per point: generic cells, and the cell library's
             area and clock where synth.sh maps to it
  runs       a point's run and the figures its report gives (MACs from the report)
  physical   derived columns: TOPS at fmax, TOPS/mm^2, TOPS/W
  pareto     Pareto fronts
  labels     point labels placed without overlap
  plots      the PNG plots
  output     CSV, explore.json, the table
  plan       the builds and syntheses a sweep's points share
  execute    builds, runs and syntheses in a pool, progress, the rows
  cli        the command line and the sweep command
  merge      `tcu explore merge`

`tcu explore` runs this package with the interpreter of the project's .venv
(matplotlib): `.venv/bin/python -m tcu_tools.explore ...`.
"""
