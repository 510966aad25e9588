"""The energy estimate of this build (the tcu module's estimate_energy, the
pricing of model/src/energy.cpp) against the gate-level datapath energy of
docs/data/gate_level_int4_64.json (an int4 datapath of 64 MACs mapped flat,
replayed at gate level over an RTL run of 740 cycles:
tcu_tools.phys.datapath_energy): every state the run has (busy, idle,
clock-gated) and the whole run within the validation's energy tolerance
(tcu_tools.explore.validate.TOLERANCES, the one statement of it)."""
from __future__ import annotations

import json
from pathlib import Path

from tcu_tools.explore.validate import TOLERANCES
from tcu_tools.phys import datapath_energy

RECORD = Path(__file__).resolve().parents[2] / "docs" / "data" / "gate_level_int4_64.json"


def test_every_state_within_the_energy_tolerance():
    g = json.loads(RECORD.read_text())
    got = datapath_energy.reprice_saved(g)
    assert got["counter_mismatches"] == []  # the netlist's counters are the run's
    errors = datapath_energy.errors(got)
    assert set(errors) == {"int4 busy", "int4 idle", "int4 gated", "total"}
    tolerance = TOLERANCES["energy_pj"]
    over = {state: f"{100 * e:+.1f}%" for state, e in errors.items() if abs(e) > tolerance}
    assert not over, f"over the {100 * tolerance:g}% tolerance: {over}"
