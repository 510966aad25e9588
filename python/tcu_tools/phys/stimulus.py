"""Operand streams for the gate-level simulation: one value per input port
per cycle. Control inputs: rst_ni low for the first two cycles, en_i and
valid_i high (the unit accepts an operation every cycle, its peak rate).
Data inputs: random operands of the unit's variants (as the random generator
of model/ makes them: uniform codes for int4 and e2m1, finite values with
exponents near the middle of the range for f16 and f64)."""
from __future__ import annotations

import random


def _field_values(rng: random.Random, kind: str, width: int) -> int:
    """A random value of one port of `width` bits whose fields are `kind`."""
    if kind in ("bits", "int4", "e2m1", "sparse"):
        return rng.getrandbits(width)
    if kind in ("f16", "f32", "f64"):
        ew, mw = {"f16": (5, 10), "f32": (8, 23), "f64": (11, 52)}[kind]
        fw = 1 + ew + mw
        value = 0
        for i in range(width // fw):
            exponent = (1 << (ew - 1)) - 1 + rng.randint(-4, 4)  # |x| in [2^-4, 2^5)
            field = (rng.getrandbits(1) << (ew + mw)) | (exponent << mw) | rng.getrandbits(mw)
            value |= field << (i * fw)
        return value
    raise ValueError(f"unknown stimulus kind {kind}")


def port_kind(unit_kind: str, port: str, width: int) -> str:
    """The value kind of a data port: the unit's format for its operands;
    the f16 unit's accumulator (c_i) is an f32."""
    if unit_kind == "f16" and port == "c_i":
        return "f32"
    if unit_kind == "e2m1" and port in ("scale_a_i", "scale_b_i"):
        return "scale"
    return unit_kind


# The operand router (stimulus "router"): an instruction every 8 cycles
# (in_start_i in its first, in_last_i in its last), every gather slot valid
# every cycle with a random word of A, B or C (operand 0-2) for a random
# lane and register 0-3, the datapath always ready, and a D offered every
# cycle (random words; the router takes one whenever its buffer is free)
# whose beats the lanes always take. Idle: no start, no word, no D, the
# rest held.
def _router_value(rng: random.Random, name: str, width: int, cycle: int, idle: bool,
                  held: int) -> int:
    slots = {"in_word_op_i": 3, "in_word_reg_i": 3}
    if name in ("dp_ready_i", "wb_ready_i"):
        return 1
    if name in ("in_start_i", "in_last_i", "d_valid_i", "in_word_valid_i"):
        if idle:
            return 0
        if name == "in_start_i":
            return int(cycle % 8 == 0)
        if name == "in_last_i":
            return int(cycle % 8 == 7)
        return (1 << width) - 1
    if idle:
        return held
    if name in slots:  # per slot: operand A/B/C, register 0-3
        return sum(rng.randrange(3 if name == "in_word_op_i" else 4) << (3 * i)
                   for i in range(width // 3))
    if name in ("in_family_i", "d_family_i"):
        return held if cycle % 8 else rng.choice((0, 1, 2, 3, 4))
    if name.startswith("in_") and not name.startswith("in_word_"):
        return held if cycle % 8 else rng.getrandbits(width)  # the descriptor
    return rng.getrandbits(width)


def make(unit_kind: str, ports: list[tuple[str, int]], cycles: int, seed: int,
         idle: bool = False) -> list[list[int]]:
    """Per cycle, the value of each input port in `ports` (name, width).
    idle=True: valid_i low after reset, operands and qualifiers held (the
    clocked-idle case)."""
    rng = random.Random(seed)
    held = {name: 0 for name, _ in ports}
    rows = []
    for cycle in range(cycles):
        row = []
        for name, width in ports:
            if name == "rst_ni":
                value = 0 if cycle < 2 else 1
            elif unit_kind == "router":
                value = _router_value(rng, name, width, cycle, idle and cycle >= 2, held[name])
            elif name == "en_i":
                value = 1
            elif name == "valid_i":
                value = 0 if idle else 1
            elif idle and cycle >= 2:
                value = held[name]  # operands and qualifiers held
            elif name in ("a_signed_i", "b_signed_i", "satfinite_i", "scale_4x_i", "c_f16_i",
                          "d_f16_i", "rnd_i") or width <= 2:
                # an instruction's qualifiers: one per run of 8 operations
                value = held[name] if (cycle % 8) else rng.getrandbits(width)
            else:
                kind = port_kind(unit_kind, name, width)
                if kind == "scale":  # ue8m0 scales near 2^0
                    value = 0
                    for i in range(width // 8):
                        value |= (127 + rng.randint(-3, 3)) << (8 * i)
                else:
                    value = _field_values(rng, kind, width)
            held[name] = value
            row.append(value)
        rows.append(row)
    return rows
