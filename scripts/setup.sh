#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs, if any are missing,
# then the Python packages of python/requirements-dev.txt into .venv (made
# with the python3 on PATH). As root it runs apt-get; otherwise it prints the
# exact command to run. Idempotent, and quick when everything is present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  verilator libsystemc-dev catch2 yosys gtkwave
  zlib1g-dev nlohmann-json3-dev libcli11-dev
  xvfb xdotool imagemagick clang libclang-rt-14-dev ccache python3 python3-venv python3-dev
)

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

# The Python module's build and test packages, in the repository's .venv.
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $(command -v python3) ($(python3 --version))"
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import numpy, pytest, pybind11, scikit_build_core, matplotlib" 2>/dev/null; then
  echo "setup: pip-installing python/requirements-dev.txt into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check -r python/requirements-dev.txt
fi
