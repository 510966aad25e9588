"""A workload from an ONNX model: its MatMul, Gemm and Conv nodes as GEMMs
(shapes from the model's static shapes, inferred by onnx.shape_inference):

  MatMul  A [..., M, K] x B [..., K, N]: M x N x K, count the product of
          the batch dimensions
  Gemm    A (M x K, or K x M with transA) x B (K x N, or N x K with
          transB): M x N x K
  Conv    input [N, C, H, W...], weight [O, C/group, kH, kW...], output
          [N, O, OH, OW...]: its im2col GEMM, M = N x OH x OW..., N = O /
          group, K = C / group x kH x kW..., count = group

Every GEMM runs in `family`. Errors name the file, the node and why; a
node that holds GEMMs these rules do not read (quantized and transposed
convolutions, Einsum, the subgraphs of If, Loop and Scan) is refused, not
left out of the workload."""
from __future__ import annotations

import math
from pathlib import Path

from .params import UsageError
from .workload_file import Gemm, Workload, ptx_of


def _shapes(model) -> dict[str, list]:
    """Every value's shape: a list of ints, or of str/None where not static."""
    graph = model.graph
    shapes = {}
    for value in list(graph.input) + list(graph.output) + list(graph.value_info):
        dims = value.type.tensor_type.shape.dim
        shapes[value.name] = [d.dim_value if d.HasField("dim_value") else
                              (d.dim_param or None) for d in dims]
    for init in graph.initializer:
        shapes[init.name] = list(init.dims)
    return shapes


def _node_name(node, index: int) -> str:
    return f"node {index} '{node.name}' ({node.op_type})" if node.name else \
        f"node {index} ({node.op_type})"


def _attribute(node, name: str, default):
    import onnx
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def _static(shape, value: str, where: str, rank: int | None = None) -> list[int]:
    if shape is None:
        raise UsageError(f"{where}: no shape for '{value}' (give the model static input shapes)")
    for i, d in enumerate(shape):
        if not isinstance(d, int) or d < 1:
            raise UsageError(f"{where}: '{value}' has no static dimension {i} ({d!r}); give the "
                             "model static input shapes")
    if rank is not None and len(shape) < rank:
        raise UsageError(f"{where}: '{value}' has rank {len(shape)}, expected at least {rank}")
    return shape


# Operators with GEMMs that the rules above do not read.
UNREAD = {"MatMulInteger", "QLinearMatMul", "ConvInteger", "QLinearConv", "ConvTranspose",
          "Einsum", "If", "Loop", "Scan"}


def _gemm_of(node, index: int, shapes: dict, ptx: str, where: str) -> Gemm | None:
    name = node.name or f"{node.op_type.lower()}{index}"
    if node.op_type in UNREAD:
        raise UsageError(f"{where}: {node.op_type} is not read (MatMul, Gemm and Conv are; "
                         "a workload that leaves its GEMMs out would be wrong): give the model "
                         "without it or a workload TOML")
    shape = lambda i, rank: _static(shapes.get(node.input[i]), node.input[i], where, rank)  # noqa
    if node.op_type == "MatMul":
        a, b = shape(0, 1), shape(1, 1)
        a = [1] + a if len(a) == 1 else a
        b = b + [1] if len(b) == 1 else b
        if a[-1] != b[-2]:
            raise UsageError(f"{where}: inner dimensions differ ({a} x {b})")
        batch = max(math.prod(a[:-2]), math.prod(b[:-2]))
        return Gemm(name, ptx, a[-2], b[-1], a[-1], batch, where)
    if node.op_type == "Gemm":
        a, b = shape(0, 2), shape(1, 2)
        m, k = (a[1], a[0]) if _attribute(node, "transA", 0) else (a[0], a[1])
        kb, n = (b[1], b[0]) if _attribute(node, "transB", 0) else (b[0], b[1])
        if k != kb:
            raise UsageError(f"{where}: inner dimensions differ (K {k} and {kb})")
        return Gemm(name, ptx, m, n, k, 1, where)
    if node.op_type == "Conv":
        weight = shape(1, 3)
        out = _static(shapes.get(node.output[0]), node.output[0], where, 3)
        group = int(_attribute(node, "group", 1))
        if weight[0] % group:
            raise UsageError(f"{where}: {weight[0]} output channels are not a multiple of "
                             f"group={group}")
        return Gemm(name, ptx, out[0] * math.prod(out[2:]), weight[0] // group,
                    math.prod(weight[1:]), group, where)
    return None


def read_onnx(path: Path, family: str) -> Workload:
    try:
        import onnx
        from onnx import shape_inference
    except ImportError:
        raise UsageError(f"{path}: reading ONNX needs the onnx package (scripts/setup.sh "
                         "installs it into .venv)") from None
    try:
        model = onnx.load(str(path))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except Exception as error:  # protobuf's DecodeError and others: not an ONNX model
        raise UsageError(f"{path}: not an ONNX model ({type(error).__name__}: {error})") from None
    try:
        model = shape_inference.infer_shapes(model, strict_mode=True)
    except Exception as error:  # InferenceError: a node whose shapes do not fit
        raise UsageError(f"{path}: shape inference failed: {error}") from None
    ptx = ptx_of(family, None, f"{path}: --family")
    shapes = _shapes(model)
    workload = Workload(model.graph.name or path.stem, f"ONNX model {path.name}")
    for index, node in enumerate(model.graph.node):
        gemm = _gemm_of(node, index, shapes, ptx, f"{path}: {_node_name(node, index)}")
        if gemm is not None:
            workload.gemms.append(gemm)
    if not workload.gemms:
        raise UsageError(f"{path}: no MatMul, Gemm or Conv node (nothing for the tensor core)")
    return workload
