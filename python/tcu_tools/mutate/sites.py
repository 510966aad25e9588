"""Mutation sites of an RTL file, found in its syntax tree (pyslang): every
place where one operator, constant, condition or bit select can be changed in
logic that runs (continuous assignments, always blocks, port connections),
and every use in such logic of a format constant (a NaN code, an exponent
bias, a width: a name of the package's format table, or a parameter the
file derives from one, FORMAT_ITEMS),
never in what must stay constant (parameters, ranges, widths, generate
conditions, loop headers, case labels), in `unused_*` lint sinks, in initial blocks and in functions
called at elaboration, in reset conditions, or in verification aids (`ifndef
SYNTHESIS)."""
from __future__ import annotations

import bisect
import dataclasses
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import pyslang

_S = pyslang.syntax
_K = _S.SyntaxKind

# Binary operator -> the operator a mutant puts in its place.
BINARY_SWAPS = {
    _K.AddExpression: "-",
    _K.SubtractExpression: "+",
    _K.MultiplyExpression: "+",
    _K.BinaryAndExpression: "|",
    _K.BinaryOrExpression: "&",
    _K.BinaryXorExpression: "|",
    _K.LogicalAndExpression: "||",
    _K.LogicalOrExpression: "&&",
    _K.EqualityExpression: "!=",
    _K.InequalityExpression: "==",
    _K.LessThanExpression: "<=",
    _K.LessThanEqualExpression: "<",
    _K.GreaterThanExpression: ">=",
    _K.GreaterThanEqualExpression: ">",
    _K.LogicalShiftLeftExpression: ">>",
    _K.LogicalShiftRightExpression: "<<",
    _K.ArithmeticShiftRightExpression: ">>",
}
# Unary operators a mutant drops (a logical not keeps the operand's truth).
UNARY_DROPS = {
    _K.UnaryLogicalNotExpression: "|({})",
    _K.UnaryBitwiseNotExpression: "({})",
    _K.UnaryMinusExpression: "({})",
}
UNARY_SWAPS = {
    _K.UnaryBitwiseAndExpression: "|",
    _K.UnaryBitwiseOrExpression: "&",
    _K.UnaryBitwiseXorExpression: "~^",
}

# Syntax whose expressions must stay constant or are not design logic.
_CONSTANT_CONTEXTS = {
    _K.ParameterDeclaration, _K.ParameterDeclarationStatement, _K.TypedefDeclaration,
    _K.DataDeclaration, _K.PortDeclaration, _K.ParameterValueAssignment,
    _K.VariableDimension, _K.InitialBlock,
    _K.SimpleRangeSelect, _K.ImmediateAssertStatement, _K.ImmediateAssumeStatement,
    _K.ImmediateCoverStatement, _K.ConcurrentAssertionMember, _K.StandardCaseItem,
    _K.EventControlWithExpression, _K.GenvarDeclaration, _K.ImplicitAnsiPort, _K.AnsiPortList,
    _K.ModuleHeader,
}
# Functions called only from logic that runs (the others are called at
# elaboration, or from initial blocks, where a mutant chosen at run time is not
# yet chosen). Tasks are never called at elaboration.
RUNTIME_FUNCTIONS = {"dot_lut", "layout_class", "place_slot",
                     # the FMA's steps (rtl/tcu_fma_arith.svh)
                     "fma_prod_exp", "fma_prod_align", "fma_add_align", "fma_res_sign",
                     "fma_lz", "fma_pack"}
# The package's format table (rtl/tcu_pkg.sv) and its constants: a
# parameter whose value refers to one of these, or to a parameter that does,
# is a format constant, and each of its uses in logic that runs is a site
# of kind "format" (the value with its lowest bit flipped: a NaN code one
# off, a bias one off, a width one off where it scales an index or a shift).
FORMAT_ITEMS = {"bias", "exp_bits", "man_bits", "fp_width", "has_sign", "has_special",
                "FP_EXP_BITS", "FP_MAN_BITS", "FP_BIAS", "FP_HAS_SIGN", "FP_HAS_SPECIAL",
                "F32_CANONICAL_NAN", "F16_CANONICAL_NAN", "F64_DEFAULT_NAN", "E2M1_HALVES",
                "INT4_BITS", "INT32_BITS"}
_CONSTANT_SYSTEM_CALLS = {"$bits", "$clog2", "$size", "$high", "$low", "$left", "$right",
                          "$countones", "$isunknown", "$display", "$fatal", "$error"}


@dataclass(frozen=True)
class Site:
    file: str          # the file's name within rtl/
    unit: str
    line: int
    column: int
    kind: str          # operator, unary, condition, ternary, constant
    start: int         # the original text's offsets in the file
    end: int
    original: str
    mutated: str       # the text a mutant has in its place
    context: str = ""  # the site's first line, blanks collapsed
    occurrence: int = 0  # among the file's sites with the same change and context

    @property
    def anchor(self) -> str:
        """What the site is, without where it is: kind, change, the line it
        starts on and which of identical ones. Editing another line of the
        file (or another file) leaves it as it was, so the selection and
        the equivalence list's entries survive edits elsewhere."""
        return (f"{self.kind}|{_norm(self.original)}|{_norm(self.mutated)}|{self.context}|"
                f"{self.occurrence}")

    @property
    def id(self) -> str:
        """Names the site in the equivalence list: file, kind and a digest
        of the anchor (no line numbers, which move when the file is edited)."""
        digest = hashlib.sha256(self.anchor.encode()).hexdigest()[:10]
        return f"{self.file}:{self.kind}:{digest}"

    @property
    def key(self) -> str:
        """Names the mutant for people and for the equivalence list: file,
        line, column and the change."""
        return f"{self.file}:{self.line}:{self.column}: {_short(self.original)} -> {_short(self.mutated)}"


def _norm(text: str) -> str:
    return " ".join(text.split())


def _short(text: str) -> str:
    text = _norm(text)
    return text if len(text) <= 40 else text[:37] + "..."


def _verification_aids(text: str) -> list[tuple[int, int]]:
    """Offset ranges of `ifndef SYNTHESIS ... `endif (or `else) blocks."""
    spans, depth, start = [], 0, None
    for match in re.finditer(r"`(ifndef|ifdef|else|elsif|endif)\b\s*(\w*)", text):
        word, name = match.group(1), match.group(2)
        if word in ("ifndef", "ifdef"):
            depth += 1
            if word == "ifndef" and name == "SYNTHESIS" and start is None:
                start, start_depth = match.start(), depth
        elif start is not None and depth == start_depth and word in ("else", "elsif", "endif"):
            spans.append((start, match.end()))
            start = None
        if word == "endif":
            depth -= 1
    return spans


def _same(a, b) -> bool:
    """One node (pyslang makes a new wrapper at each access)."""
    return b is not None and a.kind == b.kind and \
        a.sourceRange.start.offset == b.sourceRange.start.offset and \
        a.sourceRange.end.offset == b.sourceRange.end.offset


def _in_constant_context(node, module_body: bool = False) -> bool:
    """True when node sits where only constants may stand (or nothing is
    design logic): walked up to the module (module_body: the file is an
    `include'd part of a module's body, rtl/*.svh)."""
    child, parent = node, node.parent
    while parent is not None:
        kind = parent.kind
        if kind in _CONSTANT_CONTEXTS:
            return True
        if kind == _K.ModuleDeclaration:
            return False
        # assign unused_x = ^{...}: a lint device that drives nothing.
        if kind == _K.ContinuousAssign and re.match(r"\s*assign\s+unused", str(parent)):
            return True
        # unused_x = ^{...}; unused_x ^= ...; in an always block: the same device.
        if kind == _K.ExpressionStatement and re.match(r"\s*unused\w*\s*[\^|&]?=", str(parent)):
            return True
        if kind == _K.FunctionDeclaration:
            return str(parent.prototype.name).strip() not in RUNTIME_FUNCTIONS
        # for (init; stop; step) body: only the body is logic.
        if kind == _K.ForLoopStatement and not _same(child, parent.statement):
            return True
        if kind == _K.LoopGenerate and not _same(child, parent.block):
            return True
        if kind in (_K.IfGenerate, _K.CaseGenerate) and _same(child, parent.condition):
            return True
        # x[a +: W], x[a -: W]: W is a constant.
        if kind in (_K.AscendingRangeSelect, _K.DescendingRangeSelect) and _same(child, parent.right):
            return True
        # {N{x}}: N is a constant.
        if kind == _K.MultipleConcatenationExpression and _same(child, parent.expression):
            return True
        # W'(x): W is a constant.
        if kind == _K.CastExpression and _same(child, parent.left):
            return True
        if kind == _K.InvocationExpression and str(parent.left).strip() in _CONSTANT_SYSTEM_CALLS:
            return True
        # The left-hand side of an assignment: a place, not a value.
        if kind in (_K.AssignmentExpression, _K.NonblockingAssignmentExpression) \
                and _same(child, parent.left):
            return True
        child, parent = parent, parent.parent
    return not module_body  # outside a module: a package, or an included body


def _literal_flip(text: str) -> str | None:
    """The literal with its value's lowest bit flipped, in the same size and
    base; None for one with x/z digits or no size."""
    match = re.fullmatch(r"(\d+)\s*'\s*(s?)([bBdDhHoO])\s*([0-9a-fA-F_]+)", text)
    if match:
        size, signed, base, digits = match.groups()
        radix = {"b": 2, "d": 10, "h": 16, "o": 8}[base.lower()]
        value = int(digits.replace("_", ""), radix) ^ 1
        return f"{size}'{signed}d{value}"
    if re.fullmatch(r"\d+", text):
        return str(int(text) ^ 1)
    if text in ("'0", "'1"):
        return "'1" if text == "'0" else "'0"
    return None


def _names_in(node) -> set[str]:
    """The simple and package-scoped names an expression refers to."""
    names = set()

    def visit(n) -> None:
        if not isinstance(n, _S.SyntaxNode):
            return
        if n.kind == _K.IdentifierName:
            names.add(n.identifier.valueText)
        for child in n:
            visit(child)
    visit(node)
    return names


def _is_signed(type_text: str) -> bool:
    words = type_text.split()
    return "unsigned" not in words and ("signed" in words or bool(words) and
                                        words[0] in ("int", "integer", "shortint", "longint"))


def format_constants(tree, signed: set[str] | None = None) -> set[str]:
    """The file's parameters derived from the format table (FORMAT_ITEMS),
    directly or through one another; those of a signed type are added to
    `signed`."""
    values: dict[str, set[str]] = {}
    signed_names: set[str] = set()

    def visit(n) -> None:
        if not isinstance(n, _S.SyntaxNode):
            return
        if n.kind == _K.ParameterDeclaration:
            is_signed = _is_signed(str(n.type))
            for d in n.declarators:
                if isinstance(d, _S.SyntaxNode) and d.initializer is not None:
                    values[d.name.valueText] = _names_in(d.initializer.expr)
                    if is_signed:
                        signed_names.add(d.name.valueText)
        for child in n:
            visit(child)
    visit(tree.root)
    derived: set[str] = set()
    grown = True
    while grown:
        grown = False
        for name, refs in values.items():
            if name not in derived and refs & (FORMAT_ITEMS | derived):
                derived.add(name)
                grown = True
    if signed is not None:
        signed |= derived & signed_names
    return derived


def _format_use(node, constants: set[str]) -> str | None:
    """The name a format site refers to, or None: a derived parameter used
    by its simple name, or a package format constant (tcu_pkg::NAME), not
    a call (the functions' results reach logic through parameters)."""
    if node.kind == _K.IdentifierName:
        parent = node.parent
        if parent is not None and parent.kind in (_K.ScopedName, _K.InvocationExpression):
            return None
        name = node.identifier.valueText
        return name if name in constants else None
    if node.kind == _K.ScopedName:
        parent = node.parent
        if parent is not None and parent.kind == _K.InvocationExpression:
            return None
        text = str(node).strip()
        package, _, name = text.partition("::")
        return text if package.strip() == "tcu_pkg" and name.strip() in FORMAT_ITEMS else None
    return None


def find_sites(path: Path, unit: str) -> list[Site]:
    text = path.read_text()
    tree = _S.SyntaxTree.fromText(text, path.name)
    signed: set[str] = set()
    constants = format_constants(tree, signed)
    # The format constants of the files it includes (rtl/*.svh, which
    # declare the FMA's widths): its uses of them are sites too.
    for name in re.findall(r'^\s*`include\s+"([^"]+)"', text, re.M):
        included = path.parent / name
        constants |= format_constants(_S.SyntaxTree.fromText(included.read_text(), name), signed)
    module_body = path.suffix == ".svh"

    def logic_free(node) -> bool:
        return _in_constant_context(node, module_body)
    aids = _verification_aids(text)
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    sites: list[Site] = []

    def span(node) -> tuple[int, int]:
        r = node.sourceRange
        return r.start.offset, r.end.offset

    def add(node, kind: str, mutated: str, start=None, end=None) -> None:
        if start is None:
            start, end = span(node)
        if any(a <= start < b for a, b in aids) or "rst_n" in text[start:end]:
            return
        line = bisect.bisect_right(line_starts, start)
        column = start - line_starts[line - 1] + 1
        line_end = text.find("\n", start)
        context = _norm(text[line_starts[line - 1]:line_end if line_end >= 0 else len(text)])
        sites.append(Site(path.name, unit, line, column, kind, start, end, text[start:end],
                          mutated, context))

    def visit(node) -> None:
        if not isinstance(node, _S.SyntaxNode):
            return
        kind = node.kind
        if kind in BINARY_SWAPS and not logic_free(node):
            left, right = span(node.left), span(node.right)
            add(node, "operator", f"{text[left[0]:left[1]]} {BINARY_SWAPS[kind]} "
                                  f"{text[right[0]:right[1]]}")
        elif kind in UNARY_DROPS and not logic_free(node):
            operand = span(node.operand)
            add(node, "unary", UNARY_DROPS[kind].format(text[operand[0]:operand[1]]))
        elif kind in UNARY_SWAPS and not logic_free(node):
            operand = span(node.operand)
            add(node, "unary", f"{UNARY_SWAPS[kind]}({text[operand[0]:operand[1]]})")
        elif kind == _K.ConditionalExpression and not logic_free(node):
            left, right = span(node.left), span(node.right)
            pred = span(node.predicate)
            add(node, "ternary", f"{text[pred[0]:pred[1]]} ? {text[right[0]:right[1]]} : "
                                 f"{text[left[0]:left[1]]}")
        elif kind == _K.ConditionalStatement and not logic_free(node):
            pred = span(node.predicate)
            add(node, "condition", f"!({text[pred[0]:pred[1]]})", *pred)
        elif kind in (_K.IntegerVectorExpression, _K.IntegerLiteralExpression,
                      _K.UnbasedUnsizedLiteralExpression) and not logic_free(node):
            start, end = span(node)
            flipped = _literal_flip(text[start:end])
            if flipped is not None:
                add(node, "constant", flipped)
        elif kind in (_K.IdentifierName, _K.ScopedName) and not logic_free(node):
            name = _format_use(node, constants)
            if name is not None:
                # The lowest bit flipped in the constant's own width (a
                # concatenation reads it) and signedness (a comparison does):
                # 1'b1 unsigned, 2'sb01 (+1) signed.
                one = "2'sb01" if name in signed else "1'b1"
                add(node, "format", f"({name} ^ {one})")
            return
        for child in node:
            visit(child)

    visit(tree.root)
    return _numbered_occurrences(sites)


def _numbered_occurrences(sites: list[Site]) -> list[Site]:
    """Tells apart sites whose anchors would otherwise be equal (the same
    change on two identical lines): numbered in file order."""
    seen: dict[str, int] = {}
    numbered = []
    for site in sorted(sites, key=lambda s: (s.start, s.end)):
        count = seen.get(site.anchor, 0)
        seen[site.anchor] = count + 1
        numbered.append(dataclasses.replace(site, occurrence=count))
    return numbered
