#!/usr/bin/env python3
"""Refuse SystemVerilog constructs that Yosys 0.23 and Verilator 5.006 read
differently, so that the netlist behind an area figure is the design that
was simulated (docs/architecture.md, "Simulation and synthesis read one
text").

  scripts/lint_constructs.py [FILE...]     (default: rtl/*.sv, rtl/*.svh)

Prints FILE:LINE: what and why for each finding and a closing count; exit 1
when anything was found, 2 for a file that cannot be read.

Rules:
  unsized-param  An unbased unsized literal '1, 'x or 'z in a parameter's
                 value (a parameter or localparam declaration, or a #(...)
                 list: a module's parameter ports or an instance's
                 overrides). Yosys 0.23 reads it as a one-bit value
                 zero-extended to the parameter's width ('1 is 8'h01 for an
                 8-bit parameter); Verilator, as IEEE 1800 5.7.1 says, sets
                 every bit. Found by gate-level simulation of tcu_e2m1_dot
                 (its NaN-scale constants); YosysHQ/yosys#5465, fixed after
                 0.58. Write {N{1'b1}} or ~N'd0 instead. ('0 reads the same
                 in both, and an expression's '1 outside a parameter is
                 read right by Yosys 0.23 as well.)
"""
import glob
import os
import re
import sys

# An unbased unsized literal other than '0: not a sized literal (8'b1, 8'hff),
# not a cast (N'(x)), not inside a string.
UNSIZED = re.compile(r"(?<![0-9A-Za-z_$)\]'`])'([1xXzZ])(?![0-9A-Za-z_$'])")
KEYWORD = re.compile(r"\b(localparam|parameter)\b")


def strip_comments(text):
    """Comments and strings blanked, newlines kept (line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def spans(code):
    """(start, end) of each parameter value region: every #( ... ) list,
    and every parameter/localparam declaration up to its ';' (or, inside a
    list, to the ',' or ')' that ends it at its own depth)."""
    found = []
    for m in re.finditer(r"#\s*\(", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            j += 1
        found.append((m.start(), j))
    for m in KEYWORD.finditer(code):
        depth, j = 0, m.end()
        while j < len(code):
            c = code[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif c == ";" and depth == 0:
                break
            j += 1
        found.append((m.start(), j))
    return found


def check(path):
    with open(path, encoding="utf-8") as f:
        code = strip_comments(f.read())
    hits = set()
    for start, end in spans(code):
        for m in UNSIZED.finditer(code, start, end):
            hits.add(m.start())
    findings = []
    for pos in sorted(hits):
        line = code.count("\n", 0, pos) + 1
        lit = code[pos:pos + 2]
        findings.append(
            f"{path}:{line}: unsized-param: {lit} in a parameter's value (Yosys 0.23 reads "
            f"it as one bit, zero-extended; Verilator sets every bit): write it sized: {{N{{1'b1}}}}, {{N{{1'bx}}}}")
    return findings


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = argv or sorted(glob.glob(os.path.join(root, "rtl", "*.sv")) +
                           glob.glob(os.path.join(root, "rtl", "*.svh")))
    if not files:
        print("lint_constructs: no files", file=sys.stderr)
        return 2
    findings = []
    for path in files:
        try:
            findings += check(path)
        except OSError as e:
            print(f"lint_constructs: {e}", file=sys.stderr)
            return 2
    for f in findings:
        print(f)
    print(f"lint_constructs: {len(files)} files, {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
