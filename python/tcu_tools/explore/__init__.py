"""tcu explore: sweep the datapath's parameters over a workload.

By default (--fidelity fast) every point of a sweep (the cartesian product
of its axes) is evaluated without Verilator or Yosys: the C++ timing and
energy model through the tcu module, the characterized units composed
(fast.py, tcu_phys.compose.explored_point); --validate N holds the fast
figures to the full flow on the Pareto points and N random points.

With --fidelity full, for every point this builds
the Verilated model at the point's RTL parameters (once, cached by a hash of
the RTL sources and the parameters), runs the workload on it through the
SystemC front-end (`tcu gemm` or `tcu run --mix`, D checked), synthesizes
the datapath with Yosys at the same parameters (scripts/synth.sh, cached the
same way), and writes

  explore.csv                one row per point (columns: docs/guide/explore.md)
  explore.json               the sweep, the workload and the shard it covers
  report.html                the Pareto plots, validation and points (fast)
  validation.csv             --validate: each figure's fast and full values
  throughput_vs_area.png     throughput against area, Pareto front marked
  energy_vs_throughput.png   energy per MAC against throughput, Pareto front marked
  utilization_vs_rf.png      MAC utilization against register-file bandwidth

and prints a one-screen table. `tcu explore merge` joins the output folders
of shards (`--shard i/N`) into one.

Modules, one job each:
  params     the parameters a sweep may name (spec/config.toml's and the run's)
  sweep      the sweep: TOML file, command-line axes, points, workload
  workload_file  workloads: lists of GEMMs, suites/ and TOML files
  onnx_workload  a workload from an ONNX model's MatMul, Gemm and Conv nodes
  fast       the fast evaluator: a point's figures over a workload
  fast_sweep the fast sweep: evaluation, constraints, fronts, --bench
  constraints  COLUMN<=X constraints that prune points
  validate   --validate: the full flow against the fast figures
  report_html  report.html
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

`tcu explore` runs this package's command tcu-explore from PATH (the .venv
scripts/setup.sh installs it into, with matplotlib, onnx, plotly), with
TCU_MODULE_DIR its own build's python/ folder (the tcu module) and, with
the RTL, TCU_EXPLORE_BASE that build (whose tcu-explore-base.cmake names
the checkout the full flow builds from: params.checkout()).
"""
