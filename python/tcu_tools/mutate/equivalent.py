"""The list of mutants shown equivalent to the design (no regression can
kill them), each with its reason: spec/mutation_equivalent.txt, a line
`ID | REASON` (ID as `tcu-mutate list` prints it), '#' comments."""
from __future__ import annotations

import re
from pathlib import Path

_ID = re.compile(r"[A-Za-z0-9_]+\.svh?:[a-z]+:[0-9a-f]{10}")


class EquivalentListError(Exception):
    pass


def read(path: Path, known_ids: set[str]) -> dict[str, str]:
    """id -> reason; EquivalentListError naming file:line for a malformed
    line, a repeated id, a missing reason or an id no mutant has (the RTL
    moved: the entry is stale)."""
    reasons: dict[str, str] = {}
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        where = f"{path}:{number}"
        ident, bar, reason = (part.strip() for part in line.partition("|"))
        if not bar or not _ID.fullmatch(ident):
            raise EquivalentListError(f"{where}: expected 'FILE.sv(h):KIND:DIGEST | REASON' "
                                      f"(DIGEST: 10 hex digits), got '{raw.strip()}'")
        if not reason:
            raise EquivalentListError(f"{where}: {ident}: no reason given")
        if ident in reasons:
            raise EquivalentListError(f"{where}: {ident} listed twice")
        if ident not in known_ids:
            raise EquivalentListError(f"{where}: {ident}: no such mutation site (its line "
                                      "changed? `python -m tcu_tools.mutate list` prints the current ids)")
        reasons[ident] = reason
    return reasons
