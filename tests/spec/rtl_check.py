#!/usr/bin/env python3
"""The RTL against the configuration spec (spec/config.toml), read with
pyslang (a SystemVerilog compiler: no regular expressions):

  generated   rtl/tcu_pkg.sv's and the DPI-C package's generated sections
              are the spec's (python -m tcu_tools.spec.gen_config --rtl
              writes them);
  defaults    every module of rtl/ and tb/ that declares a spec parameter
              declares it with the spec's type and default, written as the
              package's constant (tcu_pkg::Name, no literal); tcu_core and
              tcu_sim_top declare every parameter, each module a parameter's
              `modules` names declares it;
  pass-through  tcu_sim_top elaborated at a configuration of the spec
              (every parameter off its default where it has one): each
              instance of tcu_core, tcu_datapath and tcu_operand_router
              sees the configuration's values;
  rules       tcu_sim_top elaborated at a counterexample of each rule and
              range (tcu_tools.spec Rule.counterexample) stops with a
              $fatal whose message is the spec's, and at every named
              configuration with none;
  pairs       the implementation pairs' naming rule (docs/architecture.md,
              "Two implementations per unit"): a chooser's `if (SynthImpl)`
              instantiates <unit>_synth in block g_[<part>_]synth and
              <unit>_fast in g_[<part>_]fast; each rtl/<unit>_fast.sv
              (marked "Simulation flow only") has its <unit>_synth.sv;
  port widths  no port of a module in rtl/ has a literal width: each is a
              tcu_pkg constant or a parameter (only the 1 and 0 of
              [W-1:0] are literals).

  rtl_check.py [--spec FILE] [--root DIR]   prints a line per problem and
  "N checks, M problems"; exit 0 only when M is 0.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pyslang

from tcu_tools import source_dir
from tcu_tools import spec as tcu_spec
from tcu_tools.spec import gen_config

ROOT = source_dir()  # the checkout holding the working directory

TOP = "tcu_sim_top"
CARRIERS = ("tcu_core", "tcu_sim_top")  # declare every parameter
SV_TYPES = {"int": "int unsigned", "bit": "bit"}


def sources(root: Path) -> list[Path]:
    rtl = sorted(root.glob("rtl/tcu_*.sv"))
    package = root / "rtl" / "tcu_pkg.sv"
    return [package] + [f for f in rtl if f != package] + [root / "tb" / "tcu_sim_top.sv"]


class Design:
    """The parsed sources, elaborated on demand at given parameters."""

    def __init__(self, root: Path):
        self.root = root
        self.files = sources(root)
        self.trees = [pyslang.syntax.SyntaxTree.fromFile(str(f)) for f in self.files]
        self.modules = [m.header.name.valueText for t in self.trees for m in t.root.members
                        if m.kind == pyslang.syntax.SyntaxKind.ModuleDeclaration]

    def elaborate(self, tops, overrides: dict[str, int] | None = None):
        options = pyslang.ast.CompilationOptions()
        options.topModules = set(tops)
        options.paramOverrides = [f"{k}={v}" for k, v in (overrides or {}).items()]
        compilation = pyslang.ast.Compilation(pyslang.Bag([options]))
        for tree in self.trees:
            compilation.addSyntaxTree(tree)
        return compilation

    def fatals(self, overrides: dict[str, int]) -> list[str]:
        """The messages of the $fatal tasks elaboration runs into."""
        compilation = self.elaborate([TOP], overrides)
        return [d.args[0].removeprefix(": ") for d in compilation.getAllDiagnostics()
                if d.code == pyslang.Diags.FatalTask]


def port_parameters(instance) -> dict[str, tuple[str, int | None]]:
    """An instance's parameters: type and value (None if not an integer)."""
    def integer(value):
        return int(value.value) if isinstance(value.value, pyslang.SVInt) else None
    return {p.name: (str(p.type), integer(p.value))
            for p in instance.body.parameters if p.isPortParam}


def check_defaults(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    compilation = design.elaborate(design.modules)
    declared = {i.definition.name: port_parameters(i)
                for i in compilation.getRoot().topInstances}
    checks, problems = 0, []
    for p in spec.parameters:
        must = set(CARRIERS) | set(p.modules)
        for module, params in declared.items():
            checks += 1
            if p.name not in params:
                if module in must:
                    problems.append(f"{module}: does not declare {p.name} (spec/config.toml)")
                continue
            kind, value = params[p.name]
            if kind != SV_TYPES[p.type] or value != p.default:
                problems.append(f"{module}: parameter {kind} {p.name} = {value}; the spec has "
                                f"{SV_TYPES[p.type]} {p.name} = {p.default}")
            elif module not in must:
                problems.append(f"{module}: declares {p.name}, which the spec's modules for it "
                                f"({', '.join(p.modules)}) leave out")
    return checks, problems


def check_package_defaults(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    """A spec parameter's default is written tcu_pkg::Name (the generated
    package constant), not a literal that restates it."""
    checks, problems = 0, []
    names = set(spec.names())
    for path, tree in zip(design.files, design.trees):
        for member in tree.root.members:
            if member.kind != pyslang.syntax.SyntaxKind.ModuleDeclaration or \
                    member.header.parameters is None:
                continue
            for declaration in member.header.parameters.declarations:
                if declaration.kind != pyslang.syntax.SyntaxKind.ParameterDeclaration:
                    continue
                for declarator in declaration.declarators:
                    name = declarator.name.valueText
                    if name not in names:
                        continue
                    checks += 1
                    text = str(declarator.initializer.expr).strip()
                    if text != f"tcu_pkg::{name}":
                        line = tree.sourceManager.getLineNumber(declarator.sourceRange.start)
                        problems.append(f"{path.relative_to(design.root)}:{line}: "
                                        f"{member.header.name.valueText}: {name} defaults to "
                                        f"'{text}', not tcu_pkg::{name} (spec/config.toml's, "
                                        "generated)")
    return checks, problems


def check_generated(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    """The sources' generated sections are the spec's."""
    return len(gen_config.sections(spec, design.root)), gen_config.section_errors(spec, design.root)


def check_pass_through(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    """Every carrier sees each parameter at a value off its default."""
    values = spec.resolve(spec.configs.get("small", {}))
    for p in spec.parameters:  # move every parameter the small configuration leaves
        if values[p.name] == p.default:
            moved = dict(values)
            moved[p.name] = 1 - p.default if p.type == "bit" else p.default * 2
            if p.max is not None:
                moved[p.name] = min(moved[p.name], p.max) if p.default != p.max else p.max // 2
            if spec.error(moved) is None:
                values = moved
    rtl_values = dict(values)
    compilation = design.elaborate([TOP], rtl_values)
    checks, problems = 0, []

    def visit(symbol):
        nonlocal checks
        if symbol.kind == pyslang.ast.SymbolKind.Instance:
            module = symbol.definition.name
            for name, (_, value) in port_parameters(symbol).items():
                if name in rtl_values:
                    checks += 1
                    if value != rtl_values[name]:
                        problems.append(f"{symbol.hierarchicalPath} ({module}): {name} = {value}, "
                                        f"not the {rtl_values[name]} given to {TOP}")
        return True

    compilation.getRoot().visit(visit)
    return checks, problems


def check_rules(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    cases = [(f"rule at {spec.path.name}:{r.line}", r.counterexample(spec)) for r in spec.rules]
    for p in spec.parameters:
        if p.type == "int":
            for value in ([p.min - 1] if p.min > 0 else []) + ([p.max + 1] if p.max else []):
                values = spec.defaults()
                values[p.name] = value
                cases.append((f"range of {p.name}", values))
    checks, problems = 0, []
    for what, values in cases:
        checks += 1
        expected = spec.error(values)
        fatals = design.fatals(values)
        if expected not in fatals:
            problems.append(f"{what}: elaboration at {describe(spec, values)} gives "
                            f"{fatals or 'no $fatal'}; the spec's message is {expected!r}")
    for name, given in spec.configs.items():
        checks += 1
        values = spec.resolve(given)
        fatals = design.fatals(values)
        if fatals:
            problems.append(f"configuration '{name}': elaboration stops: {fatals}")
    return checks, problems


def _instances(block) -> list[str]:
    """The module names a generate block instantiates directly."""
    return [m.type.valueText for m in block.members
            if m.kind == pyslang.syntax.SyntaxKind.HierarchyInstantiation]


def _block_name(block) -> str:
    return block.beginName.name.valueText if block.beginName is not None else ""


def check_pairs(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    checks, problems = 0, []
    marker = "\n// Simulation flow only:"
    stems = {f.stem for f in design.files}
    for path in design.files:
        if not path.stem.endswith(("_fast", "_synth")):
            continue
        checks += 1
        unit, _, form = path.stem.rpartition("_")
        twin = f"{unit}_{'synth' if form == 'fast' else 'fast'}"
        where = path.relative_to(design.root)
        if twin not in stems:
            problems.append(f"{where}: no rtl/{twin}.sv beside it (the pair's naming rule)")
        if (marker in "\n" + path.read_text()) != (form == "fast"):
            problems.append(f"{where}: a {form} implementation "
                            f"{'without' if form == 'fast' else 'with'} the marker "
                            "'// Simulation flow only:'")
    for path, tree in zip(design.files, design.trees):
        def visit(node):
            nonlocal checks
            if node.kind != pyslang.syntax.SyntaxKind.IfGenerate or \
                    str(node.condition).strip() != "SynthImpl":
                return True
            checks += 1
            line = tree.sourceManager.getLineNumber(node.sourceRange.start)
            synth = node.block
            fast = node.elseClause.clause if node.elseClause is not None else None
            names = [_block_name(synth), _block_name(fast) if fast is not None else ""]
            modules = [_instances(synth), _instances(fast) if fast is not None else []]
            part = names[0].removeprefix("g_").removesuffix("synth")
            unit = modules[0][0].removesuffix("_synth") if len(modules[0]) == 1 else ""
            if names != [f"g_{part}synth", f"g_{part}fast"] or \
                    modules != [[f"{unit}_synth"], [f"{unit}_fast"]]:
                problems.append(f"{path.relative_to(design.root)}:{line}: if (SynthImpl) "
                                f"blocks {names} instantiate {modules}: the naming rule wants "
                                "g_[<part>_]synth with <unit>_synth, else g_[<part>_]fast "
                                "with <unit>_fast")
            return True
        tree.root.visit(visit)
    return checks, problems


def check_port_widths(spec: tcu_spec.Spec, design: Design) -> tuple[int, list[str]]:
    checks, problems = 0, []
    for path, tree in zip(design.files, design.trees):
        if path.parent.name != "rtl":
            continue

        def visit(node):
            nonlocal checks
            if node.kind != pyslang.syntax.SyntaxKind.ImplicitAnsiPort:
                return True
            dimensions = getattr(node.header, "dataType", None)
            for dimension in getattr(dimensions, "dimensions", []):
                checks += 1
                text = str(dimension).strip()
                literals = [n for n in re.findall(r"(?<![\w'.])\d+(?![\w'.])", text)
                            if n not in ("0", "1")]
                if literals:
                    problems.append(f"{path.relative_to(design.root)}: port "
                                    f"{node.declarator.name.valueText} {text}: the literal "
                                    f"{', '.join(literals)} in its width (a tcu_pkg constant or "
                                    "a parameter instead)")
            return True
        tree.root.visit(visit)
    return checks, problems


def describe(spec: tcu_spec.Spec, values: dict[str, int]) -> str:
    changed = [f"{k}={v}" for k, v in values.items() if v != spec.parameter(k).default]
    return " ".join(changed) or "the defaults"


def check(spec: tcu_spec.Spec, root: Path) -> tuple[int, list[str]]:
    design = Design(root)
    total, problems = 0, []
    for step in (check_generated, check_defaults, check_package_defaults, check_pass_through,
                 check_rules, check_pairs, check_port_widths):
        checks, found = step(spec, design)
        total += checks
        problems += found
    return total, problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", type=Path, default=tcu_spec.SPEC_FILE)
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree with rtl/ and tb/")
    args = parser.parse_args(argv)
    try:
        spec = tcu_spec.load(args.spec)
    except tcu_spec.SpecError as error:
        print(error, file=sys.stderr)
        return 1
    checks, problems = check(spec, args.root)
    for problem in problems:
        print(problem)
    print(f"{checks} checks, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
