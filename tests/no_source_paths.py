"""No path of the checkout or of its build is compiled into a binary: tcu
finds what it needs as an installed program does (tcu explore: the
package's tcu-explore on PATH; its build: the directory it lies in; the
coverage waivers: compiled in as text).

The one kind allowed is a file name that Verilator writes into a
Verilated model for its messages, never opened: the RTL source file of an
assertion or $display (SOURCE_DIR/rtl/NAME.sv, SOURCE_DIR/tb/NAME.sv) and
the model's own generated C++ file (__FILE__ in its fatal errors:
BUILD_DIR/rtl/CMakeFiles/tcu_rtl_CONFIG.dir/VPREFIX.dir/VPREFIX.cpp).

  python3 tests/no_source_paths.py BINARY SOURCE_DIR BUILD_DIR [--plant]

exits 1 naming each path found. --plant appends a path of the checkout to
a copy of BINARY's bytes (as a string compiled in would be): it must then
be found (exit 0 when it is).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

PLANTED = "spec/coverage_waivers.txt"


def paths_in(data: bytes, roots: list[str]) -> list[str]:
    """Every string of `data` that starts with one of `roots`, up to the
    first byte that is not printable ASCII."""
    found = set()
    for root in roots:
        for match in re.finditer(re.escape(root.encode()) + rb"[\x21-\x7e]*", data):
            found.add(match.group().decode())
    return sorted(found)


def forbidden(paths: list[str], source: str, build: str) -> list[str]:
    allowed = re.compile(re.escape(source) + r"/(?:rtl|tb)/[A-Za-z0-9_]+\.sv|" + re.escape(build)
                         + r"/rtl/CMakeFiles/tcu_rtl_\w+\.dir/(V\w+)\.dir/\1\.cpp")
    return [p for p in paths if not allowed.fullmatch(p)]


def main(argv: list[str]) -> int:
    plant = "--plant" in argv
    args = [a for a in argv if a != "--plant"]
    if len(args) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary, source, build = args[0], str(Path(args[1]).resolve()), str(Path(args[2]).resolve())
    data = Path(binary).read_bytes()
    if plant:
        data += f"{source}/{PLANTED}\0".encode()
    bad = forbidden(paths_in(data, [source, build]), source, build)
    if plant:
        if f"{source}/{PLANTED}" in bad:
            print(f"no_source_paths: the planted {source}/{PLANTED} is found")
            return 0
        print(f"no_source_paths: FAIL: the planted {source}/{PLANTED} is not found",
              file=sys.stderr)
        return 1
    for path in bad:
        print(f"{binary}: the path {path} is compiled in", file=sys.stderr)
    if bad:
        return 1
    print(f"no_source_paths: {binary} holds no path of {source} or {build} "
          "(but the file names of the Verilated model's messages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
