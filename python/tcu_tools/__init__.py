"""The tensor core's Python tools, one package:

  tcu_tools.spec     the configuration spec (spec/config.toml) and the
                     generators of the build's C++ and CMake from it
  tcu_tools.phys     physical figures: area, clock and energy (tcu-phys)
  tcu_tools.explore  design-space exploration (tcu-explore; `tcu explore`)
  tcu_tools.mutate   mutation testing of the RTL (tcu-mutate)
  tcu_tools.formal   formal equivalence of the units' two implementations
                     (tcu-formal; formal/checks.toml)
  tcu_tools.costs    the CPU seconds of the checks, tests and the test
                     command's phases (docs/data/costs.toml), recorded and
                     stated in the docs

scripts/setup.sh installs it into .venv (editable; a regular `pip install
python/` works the same). The data it reads wherever it runs, the spec
(spec/config.toml) and the physical figures (spec/phys_osu018.toml), are
package data: data_file(). The tools that work on the sources (synthesis,
mutation, formal, the RTL builds of tcu explore) work on the checkout that
holds the working directory: source_dir().
"""
from __future__ import annotations

from importlib import metadata, resources
from pathlib import Path


def data_file(name: str) -> Path:
    """A data file of the package (tcu_tools/data/NAME: in a checkout, a
    link to spec/NAME; in a wheel, its copy)."""
    return Path(str(resources.files(__name__) / "data" / name)).resolve()


def source_dir(start: Path | str | None = None) -> Path:
    """The checkout the tools work on: `start` (default: the working
    directory) or the nearest directory above it that holds spec/config.toml
    and rtl/, as git finds its repository."""
    here = Path(start if start is not None else Path.cwd()).resolve()
    for root in (here, *here.parents):
        if (root / "spec" / "config.toml").is_file() and (root / "rtl").is_dir():
            return root
    raise RuntimeError(f"tcu_tools: {here} is not inside a checkout of the project (no directory "
                       "at or above it holds spec/config.toml and rtl/); run this from the "
                       "checkout")


try:
    __version__ = metadata.version("tcu_tools")
except metadata.PackageNotFoundError:
    __version__ = "0+unknown"
