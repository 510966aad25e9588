"""Tests of the Python module `tcu` (run by ctest as python_pytest).

Independent checks: numpy's own integer matmul (dense and, after expanding
the 2:4 metadata here in Python, sparse int4), exact small-integer f16/f64
products, and the silicon / reference vector files replayed through the
matrix-order API.
"""

import gzip
import json
import os
from pathlib import Path

import numpy as np
import pytest

import tcu

DATA = Path(os.environ.get("TCU_DATA", Path(__file__).resolve().parents[2] / "tests" / "data"))
INT4_DENSE = tcu.variants("int4")
RNG_SEED = 20261123


def int4_range(type_name):
    return (-8, 8) if type_name == "s4" else (0, 16)


def random_int4_operands(ptx, rng, c_range=(-(2**31), 2**31)):
    info = tcu.info(ptx)["operands"]
    a = rng.integers(*int4_range(info["a"]["type"]), size=info["a"]["shape"], dtype=np.int64)
    b = rng.integers(*int4_range(info["b"]["type"]), size=info["b"]["shape"], dtype=np.int64)
    c = rng.integers(*c_range, size=info["c"]["shape"], dtype=np.int64).astype(np.int32)
    return a, b, c


def wrap_int32(x):
    return ((x + 2**31) % 2**32 - 2**31).astype(np.int32)


@pytest.mark.parametrize("ptx", INT4_DENSE)
def test_int4_matches_numpy_matmul(ptx):
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(20):
        a, b, c = random_int4_operands(ptx, rng)
        exact = a @ b + c.astype(np.int64)
        want = (
            np.clip(exact, -(2**31), 2**31 - 1).astype(np.int32)
            if ".satfinite" in ptx
            else wrap_int32(exact)
        )
        d = tcu.mma(ptx, a, b, c)
        assert d.dtype == np.int32
        np.testing.assert_array_equal(d, want)


def test_int4_accepts_any_integer_dtype():
    ptx = "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32"
    rng = np.random.default_rng(RNG_SEED)
    a, b, c = random_int4_operands(ptx, rng, c_range=(-100, 100))
    want = tcu.mma(ptx, a, b, c)
    got = tcu.mma(ptx, a.astype(np.uint8), b.astype(np.int16), c.astype(np.int64))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(tcu.mma(ptx, a.tolist(), b.tolist(), c.tolist()), want)


def expand_sparse(a_compressed, metadata):
    """2:4 expansion as tests/data/VECTORS.md states it: in chunk c (columns
    8c..8c+7), the nibble's bits [1:0] and [3:2] pick the element pairs that
    the chunk's two compressed pairs go to."""
    rows, half_k = a_compressed.shape
    a = np.zeros((rows, 2 * half_k), dtype=np.int64)
    for row in range(rows):
        for chunk in range(half_k // 4):
            nibble = int(metadata[row, chunk])
            for slot, pair in enumerate((nibble & 3, nibble >> 2)):
                for k in range(2):
                    a[row, 8 * chunk + 2 * pair + k] = a_compressed[row, 4 * chunk + 2 * slot + k]
    return a


@pytest.mark.parametrize("ptx", tcu.variants("int4_sparse"))
def test_sparse_int4_matches_numpy_matmul(ptx):
    rng = np.random.default_rng(RNG_SEED)
    info = tcu.info(ptx)["operands"]
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]  # ordered, distinct
    for _ in range(10):
        a, b, c = random_int4_operands(ptx, rng)
        chosen = rng.integers(0, len(pairs), size=info["metadata"]["shape"])
        metadata = np.array([[pairs[p][0] | pairs[p][1] << 2 for p in row] for row in chosen])
        exact = expand_sparse(a, metadata) @ b + c.astype(np.int64)
        want = (
            np.clip(exact, -(2**31), 2**31 - 1).astype(np.int32)
            if ".satfinite" in ptx
            else wrap_int32(exact)
        )
        np.testing.assert_array_equal(tcu.mma(ptx, a, b, c, metadata=metadata), want)


@pytest.mark.parametrize("ptx", tcu.variants("f16") + tcu.variants("f64"))
def test_float_small_integers_are_exact(ptx):
    # Products and sums of small integers are exact in every format here, so
    # any evaluation order gives numpy's result.
    info = tcu.info(ptx)["operands"]
    rng = np.random.default_rng(RNG_SEED)
    dtype = {name: np.dtype(info[name]["dtype"]) for name in "abcd"}
    a = rng.integers(-8, 9, info["a"]["shape"]).astype(dtype["a"])
    b = rng.integers(-8, 9, info["b"]["shape"]).astype(dtype["b"])
    c = rng.integers(-64, 65, info["c"]["shape"]).astype(dtype["c"])
    d = tcu.mma(ptx, a, b, c)
    assert d.dtype == dtype["d"] and d.shape == info["d"]["shape"]
    want = np.matmul(a.astype(np.float64), b.astype(np.float64)) + c.astype(np.float64)
    np.testing.assert_array_equal(d.astype(np.float64), want)


@pytest.mark.parametrize("ptx", tcu.variants())
def test_fragments_round_trip(ptx):
    info = tcu.info(ptx)
    rng = np.random.default_rng(RNG_SEED)
    selectors = {"sparsity_selector": 1} if info["family"] == "int4_sparse" else {}
    if info["family"] == "e2m1":
        selectors = {"byte_id_a": 2, "thread_id_a": 1, "byte_id_b": 2, "thread_id_b": 3}
        if "4X" in ptx:
            selectors.update(byte_id_a=0, byte_id_b=0)
    for name, operand in info["operands"].items():
        bits = rng.integers(0, 2**63, size=operand["shape"], dtype=np.uint64)
        dtype = np.dtype(operand["dtype"])
        if operand["type"] == "s4":
            matrix = rng.integers(-8, 8, operand["shape"]).astype(np.int8)
        elif operand["type"] in ("u4", "e2m1") or name == "metadata":
            matrix = rng.integers(0, 16, operand["shape"]).astype(np.uint8)
        elif dtype.kind == "f":
            matrix = bits.astype(f"u{dtype.itemsize}").view(dtype)
        else:
            matrix = bits.astype(dtype)
        registers = tcu.to_fragments(ptx, name, matrix, **selectors)
        assert registers.shape == operand["registers"]
        back = tcu.from_fragments(ptx, name, registers, **selectors)
        assert back.dtype == matrix.dtype
        np.testing.assert_array_equal(
            back.view(f"u{dtype.itemsize}"), matrix.view(f"u{dtype.itemsize}")
        )


def read_cases(name):
    with gzip.open(DATA / name, "rt") as lines:
        for line in lines:
            yield json.loads(line)


def registers(lanes):
    """A vector file's lanes (lists of hex strings, or one string per lane
    for e and the scales) as a (32, registers) array."""
    rows = [lane if isinstance(lane, list) else [lane] for lane in lanes]
    return np.array([[int(r, 16) for r in row] for row in rows], dtype=np.uint64)


@pytest.mark.parametrize(
    "name",
    [
        "silicon-h200-public.jsonl.gz",
        "silicon-h200-f64-rounding-public.jsonl.gz",
        "silicon-h200-f16-nan-public.jsonl.gz",
        "e2m1-mmasim-public.jsonl.gz",
    ],
)
def test_replay_vector_file_in_matrix_order(name):
    cases = 0
    for case in read_cases(name):
        ptx = case["ptx"]
        selectors = {
            key: case[key]
            for key in ("byte_id_a", "thread_id_a", "byte_id_b", "thread_id_b")
            if key in case
        }
        if "sel" in case:
            selectors["sparsity_selector"] = case["sel"]
        extra = {}
        if "e" in case:
            extra["metadata"] = tcu.from_fragments(
                ptx, "metadata", registers(case["e"]), **selectors
            )
        for key in ("scale_a", "scale_b"):
            if key in case:
                extra[key] = tcu.from_fragments(ptx, key, registers(case[key]), **selectors)
        a, b, c = (tcu.from_fragments(ptx, key, registers(case[key])) for key in "abc")
        d = tcu.mma(ptx, a, b, c, **extra)
        got = tcu.to_fragments(ptx, "d", d)
        want = registers(case["d"])
        assert np.array_equal(got, want), f"{name}: case {case['id']} ({ptx})"
        fragments = {"e": registers(case["e"])} if "e" in case else {}
        for key in ("scale_a", "scale_b"):
            if key in case:
                fragments[key] = registers(case[key])
        direct = tcu.mma_fragments(
            ptx,
            a=registers(case["a"]),
            b=registers(case["b"]),
            c=registers(case["c"]),
            **fragments,
            **selectors,
        )
        assert np.array_equal(direct, want), f"{name}: case {case['id']} ({ptx}), lane registers"
        cases += 1
    assert cases > 0


def test_variants_are_canonical_and_unique():
    names = tcu.variants()
    assert len(names) == len(set(names)) > 0
    assert all(tcu.canonical(name + ";") == name for name in names)
    families = ["int4", "int4_sparse", "f16", "f64", "e2m1"]
    assert sorted(sum((tcu.variants(f) for f in families), [])) == sorted(names)


INT4 = "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32"
SPARSE = "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32"
F16 = "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"
E2M1 = (
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"
)


def zeros(ptx, name, dtype=None):
    operand = tcu.info(ptx)["operands"][name]
    return np.zeros(operand["shape"], dtype=dtype or operand["dtype"])


def test_bad_spelling():
    with pytest.raises(tcu.InstructionError, match="take only .row.col") as error:
        tcu.mma(
            "mma.sync.aligned.m16n8k64.col.row.s32.s4.s4.s32",
            zeros(INT4, "a"),
            zeros(INT4, "b"),
            zeros(INT4, "c"),
        )
    assert isinstance(error.value, ValueError)
    with pytest.raises(tcu.InstructionError, match=r"expected '.sync', found '.bogus'"):
        tcu.info("mma.bogus")


def test_wrong_shape():
    with pytest.raises(tcu.ShapeError, match=r"b of .*expected shape \(64, 8\), got \(8, 64\)"):
        tcu.mma(INT4, zeros(INT4, "a"), zeros(INT4, "b").T, zeros(INT4, "c"))
    with pytest.raises(ValueError, match=r"expected shape \(4, 8, 4\)"):
        tcu.mma(F16, zeros(F16, "a")[0], zeros(F16, "b"), zeros(F16, "c"))
    with pytest.raises(tcu.ShapeError, match=r"expected shape \(32, 4\)"):
        tcu.from_fragments(INT4, "a", np.zeros((32, 3), np.uint32))


def test_wrong_dtype():
    with pytest.raises(tcu.DTypeError, match="expected a float16 array") as error:
        tcu.mma(F16, zeros(F16, "a", np.float32), zeros(F16, "b"), zeros(F16, "c"))
    assert isinstance(error.value, TypeError)
    with pytest.raises(TypeError, match="expected an integer array for .s4, got dtype float64"):
        tcu.mma(INT4, zeros(INT4, "a", np.float64), zeros(INT4, "b"), zeros(INT4, "c"))


def test_value_out_of_range():
    a = zeros(INT4, "a")
    a[3, 5] = 8
    with pytest.raises(tcu.ValueRangeError, match=r"element \(3, 5\) is 8, outside .s4's range"):
        tcu.mma(INT4, a, zeros(INT4, "b"), zeros(INT4, "c"))


def test_invalid_metadata():
    metadata = zeros(SPARSE, "metadata")
    metadata[:] = 0b0100  # pairs 0 and 1: legal
    tcu.mma(SPARSE, zeros(SPARSE, "a"), zeros(SPARSE, "b"), zeros(SPARSE, "c"), metadata=metadata)
    metadata[2, 5] = 0b0001  # pairs 1 then 0: out of order
    with pytest.raises(tcu.OperandError, match="row 2, chunk 5") as error:
        tcu.mma(
            SPARSE, zeros(SPARSE, "a"), zeros(SPARSE, "b"), zeros(SPARSE, "c"), metadata=metadata
        )
    assert isinstance(error.value, ValueError)
    with pytest.raises(ValueError, match="needs metadata="):
        tcu.mma(SPARSE, zeros(SPARSE, "a"), zeros(SPARSE, "b"), zeros(SPARSE, "c"))
    with pytest.raises(ValueError, match="does not apply"):
        tcu.mma(INT4, zeros(INT4, "a"), zeros(INT4, "b"), zeros(INT4, "c"), metadata=metadata)


def test_selector_out_of_range():
    with pytest.raises(tcu.OperandError, match="sparsity selector 2"):
        tcu.to_fragments(SPARSE, "metadata", zeros(SPARSE, "metadata"), sparsity_selector=2)
    with pytest.raises(tcu.OperandError, match="byte_id_a 1"):
        tcu.to_fragments(E2M1, "scale_a", zeros(E2M1, "scale_a"), byte_id_a=1)


def test_unknown_operand_and_family():
    with pytest.raises(ValueError, match="unknown operand 'x'"):
        tcu.to_fragments(INT4, "x", zeros(INT4, "a"))
    with pytest.raises(ValueError, match="has no block scales"):
        tcu.to_fragments(INT4, "scale_a", zeros(INT4, "a"))
    with pytest.raises(ValueError, match="unknown family"):
        tcu.variants("f8")
