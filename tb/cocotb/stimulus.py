"""What the testbench sends tcu_core and what it expects back, without a simulator.

An instruction (its PTX spelling) becomes the descriptor on tcu_core's in_* ports
(systemc/core_words.cpp, core_descriptor), its random source registers the lanes
hold (valid sparse metadata, legal selectors, e2m1 scales; junk in the register
bits no element uses), and the beats of register words the front-end sends
(model/src/register_file.cpp, collect_schedule at the default banks: the source
registers in fragment order, register-major, `words_per_cycle` words a cycle).
The expected D registers come from the Python module `tcu` (the golden model).
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import tcu
from tcu_tools import spec as tcu_spec

SPEC = tcu_spec.load()
# The spec's codes ([[enum]]): in_family_i by tcu.info()'s family name,
# in_word_op_i by the tcu module's operand name, in_rnd_i by PTX suffix.
FAMILY_CODES = SPEC.enums["family"].codes()
OPERAND_CODES = {"metadata" if name == "meta" else name: code
                 for name, code in SPEC.enums["operand"].codes().items()}
ROUNDING_CODES = SPEC.enums["rounding"].codes()
LANES = 32


@dataclasses.dataclass(frozen=True)
class Descriptor:
    """tcu_core's in_* descriptor ports, by port name without in_ and _i."""

    family: int
    a_signed: int
    b_signed: int
    satfinite: int
    k32: int
    rnd: int
    a_row: int
    b_row: int
    c_f16: int
    d_f16: int
    scale_4x: int


@dataclasses.dataclass(frozen=True)
class Selectors:
    sparsity: int = 0
    byte_id_a: int = 0
    thread_id_a: int = 0
    byte_id_b: int = 0
    thread_id_b: int = 0

    def ports(self) -> dict[str, int]:
        return {"sparsity": self.sparsity, "byte_id_a": self.byte_id_a,
                "thread_id_a": self.thread_id_a, "byte_id_b": self.byte_id_b,
                "thread_id_b": self.thread_id_b}

    def kwargs(self) -> dict[str, int]:
        """As tcu's functions take them."""
        out = self.ports()
        out["sparsity_selector"] = out.pop("sparsity")
        return out


def spellings() -> list[str]:
    """Every spelling `tcu list` prints: each variant's canonical one, and
    .kind::mxf4's with the default .scale_vec::2X left out."""
    out = []
    for ptx in tcu.variants():
        out.append(ptx)
        if ".kind::mxf4.block_scale.scale_vec::2X." in ptx:
            out.append(ptx.replace(".scale_vec::2X", ""))
    return out


def descriptor(ptx: str) -> Descriptor:
    """The descriptor of a PTX spelling (as tcu::core_descriptor sets it)."""
    info = tcu.info(ptx)
    parts = info["ptx"].split(".")
    ops = info["operands"]
    shape_at = next(i for i, p in enumerate(parts) if p.startswith("m") and "n" in p and "k" in p)
    rounding = [p for p in parts if p in ROUNDING_CODES]
    return Descriptor(
        family=FAMILY_CODES[info["family"]],
        a_signed=int(ops["a"]["type"] == "s4"),
        b_signed=int(ops["b"]["type"] == "s4"),
        satfinite=int("satfinite" in parts),
        k32=int(info["shape"][2] == 32),
        rnd=ROUNDING_CODES[rounding[0]] if rounding else 0,
        a_row=int(parts[shape_at + 1] == "row"),
        b_row=int(parts[shape_at + 2] == "row"),
        c_f16=int(ops["c"]["type"] == "f16"),
        d_f16=int(ops["d"]["type"] == "f16"),
        scale_4x=int("scale_vec::4X" in info["ptx"]),
    )


def random_selectors(ptx: str, rng: random.Random) -> Selectors:
    """Any legal selectors (tcu::validate_selectors)."""
    info = tcu.info(ptx)
    if info["family"] == "int4_sparse":
        return Selectors(sparsity=rng.randint(0, 1))
    if info["family"] == "e2m1":
        four_x = "scale_vec::4X" in info["ptx"]
        return Selectors(byte_id_a=0 if four_x else rng.choice((0, 2)),
                         thread_id_a=rng.randint(0, 1),
                         byte_id_b=0 if four_x else rng.choice((0, 2)),
                         thread_id_b=rng.randint(0, 3))
    return Selectors()


def _random_words(rng: np.random.Generator, shape, bits: int) -> np.ndarray:
    dtype = np.uint64 if bits == 64 else np.uint32
    return rng.integers(0, 1 << bits, size=shape, dtype=dtype, endpoint=False)


def _moderate_floats(rng: np.random.Generator, shape, bits: int, f32: bool) -> np.ndarray:
    """Finite values of moderate size as register bit patterns (f16 pairs, f32, f64)."""
    if bits == 64:
        return rng.normal(0, 4, size=shape).astype(np.float64).view(np.uint64)
    if f32:
        return rng.normal(0, 4, size=shape).astype(np.float32).view(np.uint32)
    halves = rng.normal(0, 4, size=(*shape, 2)).astype(np.float16).view(np.uint16)
    return (halves[..., 0].astype(np.uint32) | (halves[..., 1].astype(np.uint32) << 16))


def _valid_metadata(info: dict, rng: np.random.Generator) -> np.ndarray:
    """Random legal metadata nibbles: two different pair indices (increasing
    for ::ordered_metadata), one nibble per (row, chunk)."""
    ordered = "ordered_metadata" in info["ptx"]
    legal = [n for n in range(16)
             if (n & 3) != (n >> 2) and (not ordered or (n & 3) < (n >> 2))]
    shape = info["operands"]["metadata"]["shape"]
    return np.array(legal, dtype=np.uint8)[rng.integers(0, len(legal), size=shape)]


def _with_junk(ptx: str, operand: str, valid: np.ndarray, sel: Selectors,
               rng: np.random.Generator) -> np.ndarray:
    """The registers holding `valid`'s matrix, with random bits wherever no
    element lives (lanes and bytes the selectors skip): the core must ignore them."""
    info = tcu.info(ptx)["operands"][operand]
    full = np.full(info["shape"], 0xF if operand == "metadata" else 0xFF, dtype=np.uint8)
    used = tcu.to_fragments(ptx, operand, full, **sel.kwargs())
    regs = tcu.to_fragments(ptx, operand, valid, **sel.kwargs())
    junk = _random_words(rng, regs.shape, 32)
    return (regs | (junk & ~used)).astype(np.uint32)


@dataclasses.dataclass
class Instruction:
    """One instruction as the lanes hold it: spelling, selectors, source registers."""

    ptx: str
    selectors: Selectors
    registers: dict[str, np.ndarray]  # by operand name; (32, registers) uint32 / uint64

    def expected_d(self) -> np.ndarray:
        """D's registers by the golden model, as 32-bit words (32, words per lane)."""
        regs = self.registers
        d = tcu.mma_fragments(self.ptx, a=regs["a"], b=regs["b"], c=regs["c"],
                              e=regs.get("metadata"), scale_a=regs.get("scale_a"),
                              scale_b=regs.get("scale_b"), **self.selectors.kwargs())
        return as_words(d)


def as_words(registers: np.ndarray) -> np.ndarray:
    """(32, r) registers as (32, words) 32-bit words: a 64-bit register r is
    words 2r (low half) and 2r + 1."""
    if registers.dtype == np.uint64:
        return np.ascontiguousarray(registers).view(np.uint32).reshape(LANES, -1)
    return registers.astype(np.uint32)


def random_instruction(ptx: str, rng: random.Random) -> Instruction:
    """Random source registers for `ptx`: random bits in A, B and C (for
    floats, half the time moderate finite values), legal metadata and selectors,
    random scale codes, junk where no element lives."""
    info = tcu.info(ptx)
    gen = np.random.default_rng(rng.getrandbits(64))
    sel = random_selectors(ptx, rng)
    floats = info["family"] in ("f16", "f64") and rng.random() < 0.5
    registers = {}
    for name in ("a", "b", "c"):
        op = info["operands"][name]
        shape, bits = op["registers"], op["register_bits"]
        if floats:
            registers[name] = _moderate_floats(gen, shape, bits, op["type"] == "f32")
        else:
            registers[name] = _random_words(gen, shape, bits)
    if info["family"] == "int4_sparse":
        registers["metadata"] = _with_junk(ptx, "metadata", _valid_metadata(info, gen), sel, gen)
    if info["family"] == "e2m1":
        for name in ("scale_a", "scale_b"):
            codes = gen.integers(0, 256, size=info["operands"][name]["shape"], dtype=np.uint8)
            registers[name] = _with_junk(ptx, name, codes, sel, gen)
    return Instruction(ptx, sel, registers)


@dataclasses.dataclass(frozen=True)
class Word:
    """A register word as the router's slots take it."""

    operand: int
    lane: int
    reg: int
    data: int


def source_words(instr: Instruction) -> list[Word]:
    """Every source word in the register file's order: A's registers, B's, C's,
    then metadata and the scales; each register's 32 lanes in order."""
    words = []
    for name in ("a", "b", "c", "metadata", "scale_a", "scale_b"):
        if name not in instr.registers:
            continue
        lane_words = as_words(instr.registers[name])
        for reg in range(lane_words.shape[1]):
            words += [Word(OPERAND_CODES[name], lane, reg, int(lane_words[lane, reg]))
                      for lane in range(LANES)]
    return words


def beats(instr: Instruction, words_per_cycle: int) -> list[list[Word]]:
    """The collection schedule at the default banks: `words_per_cycle` words a cycle."""
    words = source_words(instr)
    return [words[i:i + words_per_cycle] for i in range(0, len(words), words_per_cycle)]


def pack_beat(beat: list[Word]) -> dict[str, int]:
    """A beat as tcu_core's word ports: slot s at [s*width +: width]."""
    fields = {"valid": 0, "op": 0, "lane": 0, "reg": 0, "data": 0}
    for s, w in enumerate(beat):
        fields["valid"] |= 1 << s
        fields["op"] |= w.operand << (3 * s)
        fields["lane"] |= w.lane << (5 * s)
        fields["reg"] |= w.reg << (3 * s)
        fields["data"] |= w.data << (32 * s)
    return fields


def unpack_words(count: int, valid: int, lane: int, reg: int, data: int) -> list[tuple]:
    """The (lane, reg, data) of the valid slots of a write-back beat of `count` slots."""
    return [((lane >> (5 * s)) & 31, (reg >> (3 * s)) & 7, (data >> (32 * s)) & 0xFFFFFFFF)
            for s in range(count) if (valid >> s) & 1]
