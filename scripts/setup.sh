#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs, if any are missing,
# then the Python packages of python/requirements-dev.txt into .venv (made
# with the python3 on PATH) and the project's own package tcu_tools
# (python/), editable. As root it runs apt-get; otherwise it prints the
# exact command to run. Idempotent, and quick when everything is present.
#
#   scripts/setup.sh          what the main job and the default test tier use
#   scripts/setup.sh --full   also what only the second tier and the docs use
#                             (a one-node SLURM cluster: slurm-wlm, munge; the
#                             coverage report's screenshot: wkhtmltopdf)
#   --packages                the Debian packages only, not .venv
#                             (scripts/test.sh starts its sanitizer build,
#                             which needs no .venv, before .venv's install)
set -euo pipefail
full=0
packages_only=0
for arg in "$@"; do
  case "$arg" in
    --full) full=1 ;;
    --packages) packages_only=1 ;;
    *) echo "usage: scripts/setup.sh [--full] [--packages]" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake ninja-build pkg-config
  verilator libsystemc-dev catch2 yosys gtkwave
  zlib1g-dev nlohmann-json3-dev libcli11-dev
  xvfb xdotool imagemagick clang libclang-rt-14-dev ccache python3 python3-venv python3-dev
  qflow-tech-osu018 opensta iverilog lcov libmpfr-dev
  chromium chromium-driver
)
if [ "$full" = 1 ]; then
  packages+=(slurm-wlm munge wkhtmltopdf)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages; run as root:"
    echo "  sudo apt-get update && sudo $cmd"
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  $cmd
fi

[ "$packages_only" = 0 ] || exit 0

# The Python module's build and test packages, in the repository's .venv.
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $(command -v python3) ($(python3 --version))"
  python3 -m venv .venv
fi
# Installed unless every pinned version is already there.
if ! .venv/bin/python - python/requirements-dev.txt <<'PYEOF' 2>/dev/null; then
import sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    spec = line.split("#")[0].strip()
    if spec:
        name, want = spec.split("==")
        if version(name) != want:
            sys.exit(1)
PYEOF
  echo "setup: pip-installing python/requirements-dev.txt into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check -r python/requirements-dev.txt
fi
# The Python tools (python/tcu_tools), editable: imported from this checkout
# (a regular `pip install python/` works the same: the data they need is
# package data). Built with the pinned setuptools of requirements-dev.txt.
if ! .venv/bin/python -c 'import sys, pathlib, tcu_tools
sys.exit(pathlib.Path(tcu_tools.__file__).resolve().parent != pathlib.Path(sys.argv[1]))' \
  "$PWD/python/tcu_tools" 2>/dev/null; then
  echo "setup: installing python/ (the package tcu_tools) editable into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps \
    --no-build-isolation -e python/
fi
