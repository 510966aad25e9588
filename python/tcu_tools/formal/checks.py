"""The checks as data: formal/checks.toml read into Check records, one per
parameter set, in the file's order. A malformed file is a ChecksError
naming the file, the check (its number and pair) and the reason."""
from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path

KINDS = ("comb", "aig", "cec", "pipe", "seq", "window", "slang", "cut", "map",
         "blast")
TIERS = ("default", "full")


class ChecksError(Exception):
    pass


@dataclass(frozen=True)
class Miter:
    name: str
    top: Path             # formal/miters/NAME.sv (kind map: NAME.il)
    sources: list[Path]   # what is read before it: tcu_pkg.sv, `formal`, `rtl`
    stage_cycles: int = 1  # kind pipe: the pipeline's cycles per stage


@dataclass(frozen=True)
class Check:
    tier: str
    pair: str
    kind: str
    miter: Miter
    params: tuple[tuple[str, int], ...]  # (Name, value), in the file's order
    timeout: int
    number: int = 0  # the check's place in the file (1 for the first)

    @property
    def params_text(self) -> str:
        """Name=Value, blank-separated ("" for none)."""
        return " ".join(f"{k}={v}" for k, v in self.params)

    @property
    def name(self) -> str:
        """The check's log name: miter, parameters, and the kind for kinds cut
        and blast (the miter and parameters of a check of kind slang)."""
        text = self.params_text.replace(" ", "_").replace("=", "-")
        return (self.miter.name + (f".{text}" if text else "")
                + (f".{self.kind}" if self.kind in ("cut", "blast") else ""))

    def line(self) -> str:
        """What a filter is matched against: the pair and the parameters."""
        return f"{self.pair} {self.params_text}"


def _miters(path: Path, root: Path, data: dict) -> dict[str, Miter]:
    miters = {}
    for name, m in data.get("miter", {}).items():
        if not isinstance(m, dict) or set(m) - {"formal", "rtl", "stage_cycles"}:
            raise ChecksError(f"{path}: [miter.{name}]: only the lists `formal` and `rtl` "
                              "and stage_cycles")
        cycles = m.get("stage_cycles", 1)
        if not isinstance(cycles, int) or cycles < 1:
            raise ChecksError(f"{path}: [miter.{name}]: stage_cycles must be a positive integer")
        suffix = ".il" if (root / "formal" / "miters" / f"{name}.il").is_file() else ".sv"
        top = root / "formal" / "miters" / f"{name}{suffix}"
        sources = [root / "rtl" / "tcu_pkg.sv"] * (suffix == ".sv")
        sources += [root / "formal" / "miters" / f for f in m.get("formal", [])]
        sources += [root / "rtl" / f for f in m.get("rtl", [])]
        for f in [top] + sources:
            if not f.is_file():
                raise ChecksError(f"{path}: [miter.{name}]: no file {f.relative_to(root)}")
        miters[name] = Miter(name, top, sources, cycles)
    return miters


def _param_sets(where: str, params) -> list[tuple[tuple[str, int], ...]]:
    if params is None:
        return [()]
    if not isinstance(params, dict) or not all(
            isinstance(v, list) and v and all(isinstance(x, int) for x in v)
            for v in params.values()):
        raise ChecksError(f"{where}: params must be Name = [integers, ...]")
    names = list(params)
    return [tuple(zip(names, values)) for values in itertools.product(*params.values())]


def load(root: Path, path: Path | None = None) -> list[Check]:
    """Every check of formal/checks.toml (or path), one per parameter set."""
    path = path or root / "formal" / "checks.toml"
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ChecksError(f"{path}: {error}") from None
    miters = _miters(path, root, data)
    default_timeout = data.get("defaults", {}).get("timeout", 900)
    checks = []
    for number, c in enumerate(data.get("check", []), 1):
        where = f"{path}: check {number} ({c.get('pair', 'no pair')})"
        unknown = set(c) - {"tier", "pair", "kind", "miter", "params", "timeout"}
        if unknown:
            raise ChecksError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for key, allowed in (("tier", TIERS), ("kind", KINDS), ("miter", tuple(miters))):
            if c.get(key) not in allowed:
                raise ChecksError(f"{where}: {key} {c.get(key)!r} is not one of "
                                  f"{', '.join(allowed)}")
        if not isinstance(c.get("pair"), str) or not c["pair"]:
            raise ChecksError(f"{where}: no pair (the line's name)")
        timeout = c.get("timeout", default_timeout)
        if not isinstance(timeout, int) or timeout <= 0:
            raise ChecksError(f"{where}: timeout must be a positive number of seconds")
        names = list(c.get("params") or {})
        if c["kind"] in ("pipe", "seq", "window") and not any(n.endswith("Stages") for n in names):
            raise ChecksError(f"{where}: kind {c['kind']} needs a parameter named *Stages "
                              "(the pipeline's)")
        for params in _param_sets(where, c.get("params")):
            checks.append(Check(c["tier"], c["pair"], c["kind"], miters[c["miter"]], params,
                                timeout, number))
    return checks
