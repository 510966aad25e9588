"""The energies of the datapath's parts on the ungated clock: the output
skid register, the control and the activity counters (tcu_output_skid,
tcu_datapath_ctrl, tcu_activity), as [[glue]] tables of the data file.

  python -m tcu_tools.phys --unit tcu_output_skid --params "DataW=4096" --json S.json
  python -m tcu_tools.phys --unit tcu_datapath_ctrl --json C.json
  python -m tcu_tools.phys --unit tcu_activity --json A.json
  python -m tcu_tools.phys.glue spec/phys_osu018.toml S.json C.json A.json

appends one [[glue]] table per unit of the JSON files (tcu_tools.phys
--json, its energy method: busy with random inputs every cycle, idle with
them held) to the data file. tcu_tools.spec.gen_phys reads them into the
energy estimate (model/src/energy.cpp): each costs its idle figure every
cycle, the skid's scaled by its flip-flops to the widest D of the
configuration's engines. A unit other than these three, or one without
energy, exits 1 naming the file and the unit."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .datafile import table_text

UNITS = ("tcu_output_skid", "tcu_datapath_ctrl", "tcu_activity")
KEYS = ("unit", "params", "library", "flip_flops", "busy_toggle_rate", "busy_pj_per_cycle",
        "idle_pj_per_cycle", "leakage_uw", "busy_internal_pj", "busy_switching_pj",
        "busy_ports_pj", "mapping", "rtl_files", "rtl_design")


def tables(path: Path) -> list[str]:
    out = []
    for u in json.loads(path.read_text())["units"]:
        if u.get("unit") not in UNITS:
            raise ValueError(f"{path}: {u.get('unit')}: not one of {', '.join(UNITS)}")
        if u.get("busy_pj_per_cycle") is None or u.get("idle_pj_per_cycle") is None:
            raise ValueError(f"{path}: {u['unit']}: no energy (measured with --no-energy?)")
        out.append(table_text("[[glue]]", {k: u.get(k) for k in KEYS}))
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print("usage: python -m tcu_tools.phys.glue DATAFILE JSON...", file=sys.stderr)
        return 2
    try:
        text = [t for p in argv[2:] for t in tables(Path(p))]
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        print(f"tcu_tools.phys.glue: {e}", file=sys.stderr)
        return 1
    datafile = Path(argv[1])
    body = datafile.read_text().rstrip("\n")
    datafile.write_text(body + "\n\n" + "\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
