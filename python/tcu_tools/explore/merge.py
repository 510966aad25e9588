"""`tcu explore merge`: the output folders of a sweep's shards joined."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from .output import FRONT_COLUMNS, finish
from .params import EXIT_FAIL, EXIT_OK, UsageError


def missing_shards_text(metas: list[dict], missing: list[int]) -> str:
    """'; shards missing: 1, 3 of 4' when the shards given are of one shard
    count (each holds the points with index % N == i), else a question."""
    counts = {m["shard"][1] for m in metas}
    if len(counts) != 1:
        return "; is a shard missing?"
    count = counts.pop()
    shards = sorted({p % count for p in missing})
    return f"; shards missing: {', '.join(map(str, shards))} of {count} (--shard i/{count})"


def read_shard(directory: Path) -> tuple[dict, list[dict]]:
    try:
        meta = json.loads((directory / "explore.json").read_text())
        with open(directory / "explore.csv", newline="") as f:
            return meta, list(csv.DictReader(f))
    except (OSError, json.JSONDecodeError) as error:
        raise UsageError(f"{directory}: not an explore output folder ({error})") from None


def command_merge(args) -> int:
    metas, rows = [], []
    for name in args.shards:
        directory = Path(name)
        meta, shard_rows = read_shard(directory)
        if metas and meta["sweep_hash"] != metas[0]["sweep_hash"]:
            raise UsageError(f"{directory}: a different sweep than {args.shards[0]} "
                             f"(sweep hash {meta['sweep_hash']} != {metas[0]['sweep_hash']})")
        if metas and meta["rtl"] != metas[0]["rtl"]:
            print(f"explore merge: warning: {directory} was run on different RTL sources",
                  file=sys.stderr)
        metas.append(meta)
        rows.extend(shard_rows)
    seen: set[int] = set()
    for r in rows:
        p = int(r["point"])
        if p in seen:
            raise UsageError(f"point {p} appears in more than one shard")
        seen.add(p)
    total = metas[0]["points"]
    missing = sorted(set(range(total)) - seen)
    meta = dict(metas[0])
    meta["shard"] = [0, 1]
    columns = list(meta["columns"])
    notes = list(meta.get("notes", []))
    for m in metas[1:]:
        for c in m["columns"]:
            if c not in columns:
                columns.insert(columns.index("status"), c)
        notes += [n for n in m.get("notes", []) if n not in notes]
    meta["columns"] = [c for c in columns if c not in FRONT_COLUMNS]
    meta["notes"] = notes
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fast = meta.get("fidelity") == "fast"
    finish(rows, meta, out, plots=not fast)
    if fast:
        from .report_html import write_report
        write_report(rows, meta, out)
    if missing:
        print(f"explore merge: {len(missing)} of {total} point(s) missing "
              f"(first: {missing[0]}){missing_shards_text(metas, missing)}", file=sys.stderr)
        return EXIT_FAIL
    failed = [r for r in rows if r.get("status") != "ok" and
              not str(r.get("status")).startswith("pruned")]
    return EXIT_FAIL if failed else EXIT_OK
