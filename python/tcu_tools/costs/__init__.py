"""What the checks and the test command cost, in CPU seconds (user + system),
as recorded in docs/data/costs.toml: the one statement of those figures.

  data     the data file read, checked and written; a figure by its key
  tests    per-test CPU seconds of a CTest run (python -m tcu_tools.costs.tests)
  phases   scripts/test.sh's phases, timed with TCU_TEST_TIMES
           (python -m tcu_tools.costs.phases)
  check    no page states a CPU figure typed by hand (python -m
           tcu_tools.costs.check; CTest costs_typed)

tcu-formal --record FILE records each check's CPU seconds into the same
file. The documentation's pages state these figures by the marker
`<!-- cpu: KEY -->` (docs/hooks.py; data.figure says what KEY may be).
"""
