"""Fails when a layer includes or links a layer above it.

The C++ layers, each above the ones before it: model/ (the golden model),
bindings/ (the C API and the Python binding, over the model alone),
systemc/ (the SystemC front-end and the Verilated datapath), cosim/
(co-verification), tools/ (the CLI). Testbenches (tb/) and tests sit above
every layer.

    layers.py ROOT           check the tree
    layers.py --plant ROOT   plant an upward include and an upward link in a
                             copy of the layers and require both to be found

An include is resolved as the compiler would: beside the including file,
then in each layer's include folders; one that resolves to no layer's file
(the standard library, SystemC, the Verilated model's headers) is not a
layer's. A link is a target_link_libraries naming a target another layer's
CMakeLists.txt defines. Exit 1 naming FILE:LINE and the offending line.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

LAYERS = ["model", "bindings", "systemc", "cosim", "tools"]
# The folders each layer's targets put on the include path.
INCLUDE_DIRS = {"model": ["model/include"], "bindings": ["bindings/c/include"],
                "systemc": ["systemc"], "cosim": ["cosim"], "tools": ["tools"]}
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
TARGET = re.compile(r"\badd_library\(\s*([\w:]+)")
LINK = re.compile(r"\btarget_link_libraries\(\s*([\w:]+)([^)]*)\)?")


def layer_of(path):
    """The layer a path relative to the root belongs to, or None."""
    top = path.split(os.sep, 1)[0]
    return top if top in LAYERS else None


def layer_files(root):
    for layer in LAYERS:
        for base, dirs, files in os.walk(os.path.join(root, layer)):
            dirs.sort()
            for f in sorted(files):
                yield os.path.relpath(os.path.join(base, f), root)


def resolve(root, including, name):
    """The file (relative to root) an include names, or None."""
    candidates = [os.path.join(os.path.dirname(including), name)]
    candidates += [os.path.join(d, name) for dirs in INCLUDE_DIRS.values() for d in dirs]
    for c in candidates:
        if os.path.isfile(os.path.join(root, c)):
            return os.path.normpath(c)
    return None


def include_violations(root):
    out = []
    for path in layer_files(root):
        if not path.endswith(SOURCE_SUFFIXES):
            continue
        here = LAYERS.index(layer_of(path))
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                target = m and resolve(root, path, m.group(1))
                there = target and layer_of(target)
                if there and LAYERS.index(there) > here:
                    out.append(f"{path}:{n}: includes {target} ({there}/ is above "
                               f"{layer_of(path)}/): {line.strip()}")
    return out


def cmake_files(root):
    return [p for p in layer_files(root) if os.path.basename(p) == "CMakeLists.txt"]


def link_violations(root):
    owner = {}
    for path in cmake_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            for m in TARGET.finditer(f.read()):
                owner[m.group(1)] = layer_of(path)
    out = []
    for path in cmake_files(root):
        here = LAYERS.index(layer_of(path))
        with open(os.path.join(root, path), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = LINK.search(line)
                if not m:
                    continue
                for name in m.group(2).split():
                    there = owner.get(name)
                    if there and LAYERS.index(there) > here:
                        out.append(f"{path}:{n}: links {name} ({there}/ is above "
                                   f"{layer_of(path)}/): {line.strip()}")
    return out


def violations(root):
    return include_violations(root) + link_violations(root)


def plant(root):
    """An upward include (model/ including a cosim/ header) and an upward
    link (model/ linking a systemc/ target) in a copy: both must be found."""
    with tempfile.TemporaryDirectory() as tmp:
        for layer in LAYERS:
            shutil.copytree(os.path.join(root, layer), os.path.join(tmp, layer))
        src = os.path.join(tmp, "model", "src", "golden.cpp")
        with open(src, "a", encoding="utf-8") as f:
            f.write('#include "golden_cosim.h"\n')
        cmake = os.path.join(tmp, "model", "CMakeLists.txt")
        with open(cmake, "a", encoding="utf-8") as f:
            f.write("target_link_libraries(tcu_model PUBLIC tcu_frontend)\n")
        found = violations(tmp)
    wanted = ("model/src/golden.cpp", "model/CMakeLists.txt")
    missed = [w for w in wanted if not any(v.startswith(w + ":") for v in found)]
    for v in found:
        print(f"planted: {v}")
    if missed or len(found) != 2:
        print(f"layers.py --plant: expected exactly the planted lines, missed {missed}",
              file=sys.stderr)
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plant", action="store_true")
    ap.add_argument("root")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if args.plant:
        return plant(root)
    found = violations(root)
    for v in found:
        print(v)
    if found:
        print(f"layers.py: {len(found)} upward dependenc{'y' if len(found) == 1 else 'ies'}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
