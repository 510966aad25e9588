"""Recounts, from an f64 vector file alone, the hits `tcu replay --coverage`
must report for its variants, and compares them with functional.json.

A bin's hits count the instructions that hit it. For mma.m8n8k4 .f64 every
element of A (8x4), B (4x8), C and D (8x8) sits in exactly one lane's
register, so the classes of a case's elements are the classes of its
registers, whatever the layout: "a.<class>", "b.<class>", "c.<class>" (IEEE
754 binary64, classified here), "d.<class>" of the file's D (infinities as
d.inf, NaNs as d.nan, the largest finite magnitude as d.normal), the stream's "order.f64->f64" (consecutive cases of
the file, all f64), and with --rtl the register file's f64 bins at the
default settings (256 source and 128 D words a case, over the 64 words a
cycle of both: collect.bandwidth and write_back.bandwidth, once a case).
    python3 expected_f64_bins.py VECTORS.jsonl.gz functional.json [--rtl]
Exit 0 when every recounted bin matches, 1 naming each that does not."""
from __future__ import annotations

import gzip
import json
import sys
from collections import Counter


def f64_class(bits: int) -> str:
    exp = (bits >> 52) & 0x7FF
    man = bits & ((1 << 52) - 1)
    negative = bits >> 63
    if exp == 0:
        return ("neg_zero" if negative else "pos_zero") if man == 0 else "subnormal"
    if exp < 0x7FF:
        return "largest" if exp == 0x7FE and man == (1 << 52) - 1 else "normal"
    if man == 0:
        return "neg_inf" if negative else "pos_inf"
    return "qnan" if man >> 51 else "snan"


def d_bin(cls: str) -> str:
    if cls.endswith("inf"):
        return "inf"
    if cls.endswith("nan"):
        return "nan"
    return "normal" if cls == "largest" else cls


def expected(path: str, rtl: bool) -> Counter:
    want: Counter = Counter()
    cases = 0
    with gzip.open(path, "rt") as lines:
        for line in lines:
            case = json.loads(line)
            ptx = case["ptx"]
            if ".f64.f64.f64.f64" not in ptx:
                raise SystemExit(f"{path}: case {case['id']}: not an f64 variant")
            cases += 1
            hit = set()
            for operand in "abc":
                for lane in case[operand]:
                    for reg in lane:
                        hit.add(f"{operand}.{f64_class(int(reg, 16))}")
            for lane in case["d"]:
                for reg in lane:
                    hit.add("d." + d_bin(f64_class(int(reg, 16))))
            for name in hit:
                want[(ptx, name)] += 1
    want[("stream", "order.f64->f64")] = cases - 1
    if rtl:
        want[("regfile", "f64.collect.bandwidth")] = cases
        want[("regfile", "f64.write_back.bandwidth")] = cases
    return want


def main(argv: list[str]) -> int:
    want = expected(argv[1], "--rtl" in argv[3:])
    bins = json.loads(open(argv[2]).read())["bins"]
    have = {(b["group"], b["name"]): b["hits"] for b in bins}
    # Every class bin of the file's variants, hit or not, is recounted.
    checked = [key for key in have if key[0] in {p for p, _ in want} and key[0] != "regfile"
               and key[1][:2] in {"a.", "b.", "c."}]
    checked += [key for key in want if key not in checked]
    failures = [f"{g} / {n}: functional.json {have.get((g, n))}, the file {want.get((g, n), 0)}"
                for g, n in checked if have.get((g, n)) != want.get((g, n), 0)]
    for f in failures:
        print("FAIL:", f)
    print(f"{len(checked) - len(failures)} of {len(checked)} recounted bins match "
          f"({sum(1 for k in checked if want.get(k, 0) > 0)} of them hit)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
