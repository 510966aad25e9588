"""Which mutation sites the design elaborates at the campaign's parameters:
the simulation top compiled by pyslang with those parameters, and the start
of every expression and statement of every instantiated module and generate
block collected, and of every task and function that such code calls
(directly or through other subroutines), where an `if` or a `?:` whose
condition is constant (a parameter) counts only the branch it takes. A site
elsewhere (a generate branch another parameter value takes, a module only
the synthesis implementations use, a task only such a branch calls, the
branch of `if (Param)` the instances' parameters never take) cannot change
the simulated design: it is not a mutant of it, and the campaign reports it
apart, as not elaborated at the configuration."""
from __future__ import annotations

from pathlib import Path

import pyslang


def _constant_branch(node):
    """The branch a conditional statement or expression with one constant
    condition takes (False: a statement's absent else), else None."""
    if not isinstance(node, (pyslang.ast.ConditionalStatement, pyslang.ast.ConditionalExpression)):
        return None
    if len(node.conditions) != 1 or node.conditions[0].pattern is not None:
        return None
    value = node.conditions[0].expr.constant
    if value is None or value.hasUnknown():
        return None
    if isinstance(node, pyslang.ast.ConditionalStatement):
        branch = node.ifTrue if value.isTrue() else node.ifFalse
        return branch if branch is not None else False
    return node.left if value.isTrue() else node.right


def live_starts(rtl_dir: Path, top: Path, params: list[str]) -> set[tuple[str, int]]:
    """(file name, offset) of each elaborated expression and statement."""
    package = rtl_dir / "tcu_pkg.sv"
    files = [package] + [f for f in sorted(rtl_dir.glob("tcu_*.sv")) if f != package] + [top]
    # CompilationOptions keeps views of these strings: they must outlive it.
    top_name, overrides = top.stem, list(params)
    options = pyslang.ast.CompilationOptions()
    options.topModules = {top_name}
    options.paramOverrides = overrides
    compilation = pyslang.ast.Compilation(pyslang.Bag([options]))
    # The trees are kept referenced while the compilation lives (it does not own them).
    trees = [pyslang.syntax.SyntaxTree.fromFile(str(f)) for f in files]
    for tree in trees:
        compilation.addSyntaxTree(tree)
    # slang's stricter errors (an enum assigned from a vector) do not stop
    # elaboration; a parameter rule's $fatal does.
    fatals = [d for d in compilation.getAllDiagnostics() if d.code == pyslang.Diags.FatalTask]
    if fatals:
        raise ValueError(f"{top.stem} does not elaborate with {' '.join(params)}: "
                         f"{fatals[0].args}")
    sources = compilation.sourceManager
    live: set[tuple[str, int]] = set()
    # Subroutines are visited through their calls: a task that no elaborated
    # code calls is not part of the design.
    called: list = []

    def where(location) -> tuple[str, int]:
        return Path(sources.getFileName(location)).name, location.offset

    def visit(node):
        if isinstance(node, pyslang.ast.GenerateBlockSymbol) and node.isUninstantiated:
            return pyslang.ast.VisitAction.Skip
        taken = _constant_branch(node)
        if taken is not None:
            # if (Param) / Param ? x : y with a constant condition: only the
            # branch it takes is in the model (the simulator folds the other).
            live.add(where(node.sourceRange.start))
            node.conditions[0].expr.visit(visit)
            if taken is not False:
                taken.visit(visit)
            return pyslang.ast.VisitAction.Skip
        if isinstance(node, pyslang.ast.SubroutineSymbol):
            return pyslang.ast.VisitAction.Skip
        if isinstance(node, pyslang.ast.CallExpression) and not node.isSystemCall:
            called.append(node.subroutine)
        if isinstance(node, (pyslang.ast.Expression, pyslang.ast.Statement)):
            live.add(where(node.sourceRange.start))
        return pyslang.ast.VisitAction.Advance

    compilation.getRoot().visit(visit)
    visited: set[tuple[str, int]] = set()
    while called:
        subroutine = called.pop()
        key = where(subroutine.location)
        if key in visited:
            continue
        visited.add(key)
        subroutine.body.visit(visit)
    return live
