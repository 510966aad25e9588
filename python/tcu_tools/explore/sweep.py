"""The sweep: its axes and fixed values, the workload, its points; read from
a TOML file (errors name the file and line) and the command line."""
from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .params import UsageError, check_name, convert


@dataclass
class Workload:
    kind: str = "gemm"  # gemm or mix
    ptx: str = ""
    m: int = 0
    n: int = 0
    k: int = 0
    count: int = 0  # mix: instructions
    seed: int = 1
    suite: str = ""  # a list of GEMMs: a suite's name, a workload TOML or an ONNX file
    family: str = ""  # the family an ONNX file's GEMMs run in

    def describe(self) -> str:
        if self.suite:
            return f"workload {self.suite}"
        if self.kind == "mix":
            return f"mix of every variant, {self.count} instructions, seed {self.seed}"
        return f"gemm {self.ptx} M={self.m} N={self.n} K={self.k}, seed {self.seed}"


@dataclass
class Sweep:
    axes: dict[str, list] = field(default_factory=dict)  # in file, then command-line order
    fixed: dict[str, object] = field(default_factory=dict)
    workload: Workload = field(default_factory=Workload)
    constraints: list[str] = field(default_factory=list)
    constraint_where: str = "--constraint"  # the sweep file's line, for messages

    def points(self, defaults: dict[str, object]) -> list[dict[str, object]]:
        names = list(self.axes)
        result = []
        for values in itertools.product(*(self.axes[n] for n in names)):
            point = dict(defaults)
            point.update(self.fixed)
            point.update(zip(names, values))
            result.append(point)
        return result

    def to_json(self) -> dict:
        return {"axes": self.axes, "fixed": self.fixed, "workload": vars(self.workload),
                "constraints": self.constraints}


def key_line(text: str, key: str) -> int | None:
    """The line of a TOML file where `key` is first assigned (for messages)."""
    pattern = re.compile(rf"^\s*(\"?{re.escape(key)}\"?\s*=|\[\s*{re.escape(key)}\s*\])")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return None


WORKLOAD_FIELDS = {"kind": str, "ptx": str, "m": int, "n": int, "k": int, "count": int,
                   "seed": int, "suite": str, "family": str}


def read_toml(path: Path) -> tuple[str, dict]:
    """A TOML file's text and tables; a file that cannot be read or parsed is
    a UsageError naming it."""
    try:
        text = path.read_text()
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path}: not valid TOML: {error}") from None


def read_sweep_file(path: Path, rtl: dict[str, int], sweep: Sweep) -> None:
    text, data = read_toml(path)

    def where(key: str) -> str:
        line = key_line(text, key)
        return f"{path}:{line}" if line else f"{path}"

    unknown = set(data) - {"axes", "fixed", "workload", "constraints"}
    if unknown:
        name = sorted(unknown)[0]
        raise UsageError(f"{where(name)}: unknown table or key '{name}' "
                         "(a sweep has constraints, [axes], [fixed] and [workload])")
    constraints = data.get("constraints", [])
    if not isinstance(constraints, list) or not all(isinstance(c, str) for c in constraints):
        raise UsageError(f"{where('constraints')}: constraints must be a list of strings "
                         "(\"area_mm2<=100\", ...)")
    sweep.constraints += [c for c in constraints]
    sweep.constraint_where = where("constraints")
    for name, values in data.get("axes", {}).items():
        check_name(name, where(name), rtl)
        if not isinstance(values, list) or not values:
            raise UsageError(f"{where(name)}: axes.{name} must be a non-empty list of values")
        sweep.axes[name] = [convert(name, v, where(name), rtl) for v in values]
    for name, value in data.get("fixed", {}).items():
        check_name(name, where(name), rtl)
        sweep.fixed[name] = convert(name, value, where(name), rtl)
    for name, value in data.get("workload", {}).items():
        if name not in WORKLOAD_FIELDS:
            raise UsageError(f"{where(name)}: unknown workload key '{name}' "
                             f"(known: {', '.join(WORKLOAD_FIELDS)})")
        kind = WORKLOAD_FIELDS[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise UsageError(f"{where(name)}: workload.{name} must be "
                             f"{'a string' if kind is str else 'an integer'}")
        if name == "suite" and value.endswith((".toml", ".onnx")) and not Path(value).is_absolute():
            value = str(path.parent / value)  # a file beside the sweep file
        setattr(sweep.workload, name, value)


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    if "=" not in text:
        raise UsageError(f"{option} {text}: expected NAME=VALUE")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def check_workload(workload: Workload) -> None:
    if workload.suite:
        return
    if workload.kind not in ("gemm", "mix"):
        raise UsageError(f"workload kind '{workload.kind}': expected gemm or mix")
    if workload.kind == "gemm":
        missing = [n for n in ("ptx", "m", "n", "k") if not getattr(workload, n)]
        if missing:
            raise UsageError("a gemm workload needs --ptx, --m, --n and --k (or [workload] ptx, m, "
                             f"n, k in the sweep file); missing: {', '.join(missing)}")
    elif workload.count < 1:
        raise UsageError("a mix workload needs --mix COUNT (or [workload] count) of at least 1")


def parse_shard(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
        raise UsageError(f"--shard {text}: expected i/N with 0 <= i < N")
    return int(m.group(1)), int(m.group(2))
