#!/usr/bin/env python3
"""gls_split_assigns.py NETLIST OUT: writes OUT, NETLIST (a Yosys
write_verilog netlist after splitnets) with every long concatenation
assignment,

    assign { a , b , ... } = { c , d , ... };

of more than LIMIT single-bit names on each side written as one assignment
a bit (assign a = c; ...). Verilator 5.006 refuses a statement of more than
about 40,000 tokens, and the operand router's netlist aliases its 8,192-bit
D buffer in one (tests/rtl/gls_units.cmake). Other lines are copied as they
are. Exit 1 if a long assignment has a side that is not a list of
single-bit names of equal length (then it would need real parsing).
"""
import re
import sys

LIMIT = 1000
# One element of a concatenation: an escaped name (ends at a space), or a
# plain name with an optional bit select.
ELEMENT = r"(?:\\\S+ |[A-Za-z_][A-Za-z0-9_$]*(?:\[\d+\])?)"
LIST = re.compile(r"\{ ((?:" + ELEMENT + r"\s*,\s*)*" + ELEMENT + r")\s*\}")
ASSIGN = re.compile(r"^(\s*)assign (\{.*\}) = (\{.*\});\s*$")


def elements(side):
    m = LIST.fullmatch(side.strip())
    if not m:
        return None
    return [e.strip() for e in re.findall(ELEMENT, m.group(1))]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    split = 0
    with open(argv[0], encoding="utf-8") as src, open(argv[1], "w", encoding="utf-8") as out:
        for line in src:
            m = ASSIGN.match(line) if line.count(",") > LIMIT else None
            if not m:
                out.write(line)
                continue
            lhs, rhs = elements(m.group(2)), elements(m.group(3))
            if lhs is None or rhs is None or len(lhs) != len(rhs):
                print(f"gls_split_assigns.py: cannot split a long assignment: {line[:200]}...",
                      file=sys.stderr)
                return 1
            for a, b in zip(lhs, rhs):
                # An escaped name keeps the space that ends it.
                a = a + " " if a.startswith("\\") else a
                b = b + " " if b.startswith("\\") else b
                out.write(f"{m.group(1)}assign {a}= {b};\n")
            split += 1
    print(f"gls_split_assigns.py: {split} long assignment(s) split")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
