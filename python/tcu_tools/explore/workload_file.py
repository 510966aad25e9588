"""Workloads: a list of GEMMs, each run in one instruction family (or one
PTX variant), its figures summed over the list. Read from a TOML file
(suites/ holds the shipped ones, each citing where its shapes come from) or
from an ONNX model (onnx_workload). Errors name the file and line."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from .params import UsageError
from .sweep import key_line, read_toml

SUITES = Path(__file__).resolve().parent / "suites"

# The variant a family's GEMMs run in (a workload may name any PTX variant
# instead): the dense int4 m16n8k64, its sparse form, block-scaled MXFP4,
# and m8n8k4 with f32 accumulation for f16, f64.
FAMILY_PTX = {
    "int4": "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
    "int4_sparse": "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
    "e2m1": ("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1."
             "e2m1.f32.ue8m0"),
    "f16": "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32",
    "f64": "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
}


@dataclass(frozen=True)
class Gemm:
    name: str
    ptx: str
    m: int
    n: int
    k: int
    count: int = 1
    # Where it was read (file:line, or file: node), for errors.
    origin: str = dataclasses.field(default="", compare=False, repr=False)

    @property
    def macs(self) -> int:
        """Dense-equivalent MACs of all `count` GEMMs (unpadded)."""
        return self.m * self.n * self.k * self.count


@dataclass
class Workload:
    name: str
    source: str = ""
    gemms: list[Gemm] = field(default_factory=list)

    def describe(self) -> str:
        return f"{self.name}: {len(self.gemms)} GEMM shape(s), {self.macs / 1e9:.4g} GMACs"

    @property
    def macs(self) -> int:
        return sum(g.macs for g in self.gemms)

    def to_json(self) -> dict:
        return {"name": self.name, "source": self.source,
                "gemms": [dataclasses.asdict(g) for g in self.gemms]}


def ptx_of(family: str | None, ptx: str | None, where: str) -> str:
    """The PTX variant of a GEMM given its family or variant."""
    if ptx:
        return ptx
    if family not in FAMILY_PTX:
        raise UsageError(f"{where}: family '{family}' is none of {', '.join(FAMILY_PTX)} "
                         "(or give ptx = \"...\")")
    return FAMILY_PTX[family]


GEMM_KEYS = {"name": str, "family": str, "ptx": str, "m": int, "n": int, "k": int, "count": int}


def gemm_line(text: str, index: int) -> int | None:
    """The line of the index-th [[gemm]] header of a TOML text."""
    seen = -1
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().replace(" ", "") == "[[gemm]]":
            seen += 1
            if seen == index:
                return number
    return None


def read_workload(path: Path) -> Workload:
    """A workload TOML file: name, source and [[gemm]] tables (name, family
    or ptx, m, n, k, count)."""
    text, data = read_toml(path)
    unknown = set(data) - {"name", "source", "gemm"}
    if unknown:
        key = sorted(unknown)[0]
        line = key_line(text, key)
        raise UsageError(f"{path}:{line or 1}: unknown key '{key}' (a workload has name, source "
                         "and [[gemm]] tables)")
    gemms = data.get("gemm")
    if not isinstance(gemms, list) or not gemms:
        raise UsageError(f"{path}: no [[gemm]] tables (a workload is a list of GEMMs)")
    workload = Workload(str(data.get("name", path.stem)), str(data.get("source", "")))
    for i, table in enumerate(gemms):
        where = f"{path}:{gemm_line(text, i) or 1}: gemm {i + 1}"
        for key, value in table.items():
            kind = GEMM_KEYS.get(key)
            if kind is None:
                raise UsageError(f"{where}: unknown key '{key}' (known: {', '.join(GEMM_KEYS)})")
            if not isinstance(value, kind) or isinstance(value, bool):
                raise UsageError(f"{where}: {key} must be "
                                 f"{'a string' if kind is str else 'an integer'}, not {value!r}")
        for key in ("m", "n", "k"):
            if key not in table:
                raise UsageError(f"{where}: missing {key}")
        for key in ("m", "n", "k", "count"):
            if table.get(key, 1) < 1:
                raise UsageError(f"{where}: {key} must be at least 1, not {table[key]}")
        if "family" in table and "ptx" in table:
            raise UsageError(f"{where}: give family or ptx, not both")
        if "family" not in table and "ptx" not in table:
            raise UsageError(f"{where}: missing family (one of {', '.join(FAMILY_PTX)}) or ptx")
        workload.gemms.append(Gemm(table.get("name", f"gemm{i + 1}"),
                                   ptx_of(table.get("family"), table.get("ptx"), where),
                                   table["m"], table["n"], table["k"], table.get("count", 1),
                                   where))
    return workload


def suite_names() -> list[str]:
    return sorted(p.stem for p in SUITES.glob("*.toml"))


def load(spec: str, family: str | None = None) -> Workload:
    """A workload by suite name, TOML path or ONNX path (`family`: the
    family an ONNX model's GEMMs run in)."""
    path = Path(spec)
    if path.suffix == ".onnx":
        from .onnx_workload import read_onnx
        return read_onnx(path, family or "f16")
    if family:
        raise UsageError(f"workload '{spec}': --family (family = ...) sets the family of an "
                         "ONNX model's GEMMs; a suite or workload TOML names each GEMM's family")
    if path.suffix != ".toml" and (SUITES / f"{spec}.toml").exists():
        path = SUITES / f"{spec}.toml"
    elif not path.exists():
        raise UsageError(f"workload '{spec}': no such file and no suite of that name (suites: "
                         f"{', '.join(suite_names())})")
    return read_workload(path)
