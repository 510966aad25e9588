"""The tensor core's Python tools, one package:

  tcu_tools.spec     the configuration spec (spec/config.toml) and the
                     generators of the build's C++ and CMake from it
  tcu_tools.phys     physical figures: area, clock and energy (tcu-phys)
  tcu_tools.explore  design-space exploration (tcu-explore; `tcu explore`)
  tcu_tools.mutate   mutation testing of the RTL (tcu-mutate)
  tcu_tools.formal   formal equivalence of the units' two implementations
                     (tcu-formal; formal/checks.toml)

scripts/setup.sh installs it editable into .venv. The tools read the
repository's files (spec/, rtl/, tb/, formal/, tests/data): source_dir() says where
they are.
"""
from __future__ import annotations

import os
from pathlib import Path


def source_dir() -> Path:
    """The repository the tools read: $TCU_SOURCE_DIR when set, else the
    checkout this package lies in (an editable install)."""
    given = os.environ.get("TCU_SOURCE_DIR")
    root = Path(given).resolve() if given else Path(__file__).resolve().parents[2]
    if not (root / "spec" / "config.toml").is_file():
        where = "TCU_SOURCE_DIR" if given else "the checkout of this package"
        raise RuntimeError(f"tcu_tools: {root} ({where}) holds no spec/config.toml; "
                           "set TCU_SOURCE_DIR to the repository's root")
    return root


def _version() -> str:
    try:
        return (source_dir() / "VERSION").read_text().split()[0]
    except (OSError, RuntimeError, IndexError):
        return "0+unknown"


__version__ = _version()
