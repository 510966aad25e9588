#!/usr/bin/env python3
"""sample_vectors.py IN OUT STRIDE: writes to OUT (gzip) every STRIDE-th case
of each variant of the vector file IN (each variant's first among them), the
lines as they are: the cases `tcu replay --stride STRIDE IN` replays.

Exit 2 with the file and line on a line that is not a case with a "ptx".
"""
from __future__ import annotations

import gzip
import json
import sys
from collections import Counter


def main(argv: list[str]) -> int:
    if len(argv) != 4 or not argv[3].isdigit() or int(argv[3]) < 1:
        print("usage: sample_vectors.py IN OUT STRIDE", file=sys.stderr)
        return 2
    source, target, stride = argv[1], argv[2], int(argv[3])
    seen: Counter[str] = Counter()
    kept = 0
    with gzip.open(source, "rt") as lines, gzip.open(target, "wt", compresslevel=1) as out:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                ptx = json.loads(line)["ptx"]
            except (ValueError, KeyError, TypeError) as error:
                print(f"{source}:{number}: not a case with a ptx ({error})", file=sys.stderr)
                return 2
            if seen[ptx] % stride == 0:
                out.write(line)
                kept += 1
            seen[ptx] += 1
    print(f"{target}: {kept} of {sum(seen.values())} cases, {len(seen)} variants")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
