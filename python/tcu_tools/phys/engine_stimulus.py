"""An engine driven as tcu_datapath drives it, busy or idle: one value per
input port per cycle, for the gate-level runs of tcu_tools.phys.engine_regs
(a whole engine) and tcu_tools.phys.engine_glue (an engine linked with its
units).

Busy: two cycles of reset, then the clock enabled, the pipelines running
(pipe_en_i, pipe_take_i) and an instruction started every Groups cycles
(the family's slices over Units: back to back, every unit issuing every
cycle), each with a random descriptor (its tag and the family's modes) and
random operands, held between starts as the datapath's operand router
holds them. Idle: the clock enabled, no instruction, the inputs held.

The families' instructions (tcu_pkg's shapes and descriptor fields):
  int4  dense m16n8k64 (256 slices of 32 products), A and B signed or not
        at random, every operand bit random;
  e2m1  block-scaled m16n8k64 (128 slices of 64), the scale mode random, A
        and B random codes (every 4-bit code is an e2m1 value), the scales
        ue8m0 exponents 2^-16 .. 2^15, C f32 values of magnitude 2^-16 ..
        2^15;
  f16   m8n8k4 of 4 quad pairs (256 slices of 4), C and D .f16 or .f32 at
        random, A and B f16 values, C f16 or f32 values as its type says;
  f64   m8n8k4 (64 slices of 4), the rounding mode random, A, B and C f64
        values.
Floating-point values are finite with exponents near the middle of the
range (|x| in [2^-4, 2^5): tcu_tools.phys.stimulus, the units' own)."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from .stimulus import _field_values

# tcu_pkg's descriptor fields and family codes
DESC_FAMILY, DESC_A_SIGNED, DESC_B_SIGNED = 16, 19, 20  # int4: K32 clear (m16n8k64)
DESC_RND, DESC_C_F16, DESC_D_F16, DESC_SCALE_4X = 23, 25, 26, 27
FAM_INT4, FAM_F16, FAM_F64, FAM_E2M1 = 0, 2, 3, 4
TAG_BITS = 16


@dataclass(frozen=True)
class Family:
    slices: int  # an instruction's slices (tcu_pkg's *_SLICES for its shape)
    lanes: int   # MACs a unit issues a cycle (its slice's products)
    # (rng, ports) -> (descriptor, {port: value}) of one instruction
    instruction: Callable[[random.Random, list[tuple[str, int]]], tuple[int, dict]]


def _int4(rng: random.Random, ports: list[tuple[str, int]]) -> tuple[int, dict]:
    desc = (rng.getrandbits(TAG_BITS) | FAM_INT4 << DESC_FAMILY
            | rng.getrandbits(1) << DESC_A_SIGNED | rng.getrandbits(1) << DESC_B_SIGNED)
    return desc, {n: rng.getrandbits(w) for n, w in ports if n in ("a_i", "b_i", "c_i")}


def _e2m1(rng: random.Random, ports: list[tuple[str, int]]) -> tuple[int, dict]:
    desc = (rng.getrandbits(TAG_BITS) | FAM_E2M1 << DESC_FAMILY
            | rng.getrandbits(1) << DESC_SCALE_4X)
    out = {}
    for name, width in ports:
        if name in ("a_i", "b_i"):
            out[name] = rng.getrandbits(width)
        elif name in ("scale_a_i", "scale_b_i"):
            out[name] = sum(rng.randrange(111, 143) << (8 * i) for i in range(width // 8))
        elif name == "c_i":
            out[name] = sum((rng.getrandbits(1) << 31 | rng.randrange(111, 143) << 23
                             | rng.getrandbits(23)) << (32 * i) for i in range(width // 32))
    return desc, out


def _f16(rng: random.Random, ports: list[tuple[str, int]]) -> tuple[int, dict]:
    c_f16, d_f16 = rng.getrandbits(1), rng.getrandbits(1)
    desc = (rng.getrandbits(TAG_BITS) | FAM_F16 << DESC_FAMILY
            | c_f16 << DESC_C_F16 | d_f16 << DESC_D_F16)
    out = {}
    for name, width in ports:
        if name in ("a_i", "b_i"):
            out[name] = _field_values(rng, "f16", width)
        elif name == "c_i":  # .f16: the low half, an f16 an element
            out[name] = _field_values(rng, "f16", width // 2) if c_f16 else \
                _field_values(rng, "f32", width)
    return desc, out


def _f64(rng: random.Random, ports: list[tuple[str, int]]) -> tuple[int, dict]:
    desc = (rng.getrandbits(TAG_BITS) | FAM_F64 << DESC_FAMILY
            | rng.getrandbits(2) << DESC_RND)
    return desc, {n: _field_values(rng, "f64", w) for n, w in ports
                  if n in ("a_i", "b_i", "c_i")}


FAMILIES = {
    "tcu_int4_engine": Family(256, 32, _int4),
    "tcu_e2m1_engine": Family(128, 64, _e2m1),
    "tcu_f16_engine": Family(4 * 8 * 8, 4, _f16),
    "tcu_f64_engine": Family(8 * 8, 4, _f64),
}


def rows(top: str, ports: list[tuple[str, int]], units: int, cycles: int, seed: int,
         idle: bool) -> tuple[list[list[int]], int]:
    """(the rows of `top`'s data ports, one per cycle: two of reset, then
    `cycles`; the MACs they issue)."""
    if top not in FAMILIES:
        raise ValueError(f"{top}: no busy stimulus (one of {', '.join(FAMILIES)})")
    family = FAMILIES[top]
    rng = random.Random(seed)
    groups = family.slices // units
    if groups * units != family.slices:
        raise ValueError(f"Units={units}: the stimulus needs a divisor of {family.slices}")
    held = {n: 0 for n, _ in ports}
    out, macs = [], 0
    for c in range(cycles + 2):
        v = dict(held)
        v["rst_ni"] = int(c >= 2)
        v["clk_en_i"] = v["pipe_en_i"] = v["pipe_take_i"] = 1
        start = not idle and c >= 2 and (c - 2) % groups == 0
        v["start_i"] = int(start)
        if start:
            v["desc_i"], operands = family.instruction(rng, ports)
            v.update(operands)
        if not idle and c >= 3:  # the cycles the sequencer issues in (after the first start)
            macs += units * family.lanes
        held = {k: v[k] for k in held}
        out.append([v[n] & ((1 << w) - 1) for n, w in ports])
    return out, macs
