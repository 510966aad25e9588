"""Fails when a file or function the layout keeps short outgrows its bound:
README.md at most 250 lines, docs/architecture.md at most 600,
tools/tcu_main.cpp at most 150, and no function in tools/ over 80 lines
(start to end, comments and lambdas included, as lizard measures a
function's length).

    limits.py ROOT           check the tree
    limits.py --plant ROOT   in a copy, grow each file one line past its
                             bound and a function of tools/ to 81 lines;
                             every one must be found

Exit 1 naming each file (and function) with its length and its bound.
"""
import argparse
import glob
import os
import shutil
import sys
import tempfile

import lizard

FILE_LINES = {"README.md": 250, "docs/architecture.md": 600, "tools/tcu_main.cpp": 150}
FUNCTION_LINES = 80
TOOLS_SOURCES = ("tools/*.cpp", "tools/*.h")


def line_count(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def tools_functions(root):
    for pattern in TOOLS_SOURCES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            for fn in lizard.analyze_file(path).function_list:
                yield os.path.relpath(path, root), fn


def violations(root):
    out = []
    for name, bound in FILE_LINES.items():
        n = line_count(os.path.join(root, name))
        if n > bound:
            out.append(f"{name}: {n} lines, over {bound}")
    for path, fn in tools_functions(root):
        if fn.length > FUNCTION_LINES:
            out.append(f"{path}:{fn.start_line}: {fn.name} is {fn.length} lines, "
                       f"over {FUNCTION_LINES}")
    return out


def plant(root):
    with tempfile.TemporaryDirectory() as tmp:
        for name in FILE_LINES:
            dest = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "w", encoding="utf-8") as f:
                f.write("x\n" * (FILE_LINES[name] + 1))
        os.makedirs(os.path.join(tmp, "tools"), exist_ok=True)
        body = "".join(f"  x += {i};\n" for i in range(FUNCTION_LINES - 2))
        with open(os.path.join(tmp, "tools", "planted.cpp"), "w", encoding="utf-8") as f:
            f.write(f"int planted(int x) {{\n{body}  return x;\n}}\n")
        found = violations(tmp)
    for v in found:
        print(f"planted: {v}")
    wanted = list(FILE_LINES) + ["tools/planted.cpp:1: planted is 81 lines"]
    missed = [w for w in wanted if not any(v.startswith(w) for v in found)]
    if missed:
        print(f"limits.py --plant: missed {missed}", file=sys.stderr)
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
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
