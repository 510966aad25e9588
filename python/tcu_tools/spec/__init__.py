"""The tensor core's configuration spec (spec/config.toml): reading it,
checking a configuration against its rules, and the rules' messages.

The C++ and the CMake configure step (gen_config), tcu explore
(tcu_tools.explore) and the RTL tests (tests/spec/) all use this module, so
each rule's message is written once, here.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from tcu_tools import source_dir

SPEC_FILE = source_dir() / "spec" / "config.toml"

PARAMETER_KEYS = {"name", "type", "default", "min", "max", "range_why", "meaning", "modules",
                  "axis"}
RULE_KEYS = {"any": {"kind", "params", "why"},
             "multiple": {"kind", "param", "of", "when", "why"},
             "even_units": {"kind", "param", "of", "unit", "when", "why"}}
NAME_RE = re.compile(r"[A-Z][A-Za-z0-9]*")
CONFIG_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SpecError(Exception):
    """The spec file itself is wrong: the message names file:line and why."""


class ConfigError(Exception):
    """A configuration breaks the spec: the message names the parameter and value."""


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str  # "int" or "bit"
    default: int
    meaning: str
    modules: tuple[str, ...]
    min: int = 0
    max: int | None = None
    range_why: str = ""
    axis: bool = True  # an axis of tcu explore (SynthImpl: not)

    @property
    def field(self) -> str:
        """The C++ field: Int4MacsPerCycle -> int4_macs_per_cycle."""
        text = re.sub(r"([A-Z])([A-Z][a-z])", r"\1_\2", self.name)
        return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text).lower()

    def range_error(self, value: int) -> str | None:
        if self.type == "bit":
            return None if value in (0, 1) else f"{self.name}={value}: a bit parameter is 0 or 1"
        if value >= self.min and (self.max is None or value <= self.max):
            return None
        if self.max is None:
            return f"{self.name}={value}: must be at least {self.min}"
        return f"{self.name}={value}: must be {self.min}..{self.max} ({self.range_why})"


@dataclass(frozen=True)
class Rule:
    kind: str
    why: str
    line: int
    param: str = ""
    of: int = 1
    when: str = ""
    unit: str = ""
    params: tuple[str, ...] = ()

    def error(self, values: dict[str, int]) -> str | None:
        """The message if `values` break this rule, else None."""
        if self.kind == "any":
            if any(values[p] for p in self.params):
                return None
            return f"{', '.join(self.params[:-1])} and {self.params[-1]} are all 0: {self.why}"
        if not values[self.when]:
            return None
        value = values[self.param]
        if self.kind == "multiple":
            if value >= self.of and value % self.of == 0:
                return None
            return (f"{self.param}={value}: must be a positive multiple of {self.of} "
                    f"({self.why}), or the engine left out with {self.when}=0")
        units = value // self.of
        if units <= 1 or units % 2 == 0:
            return None
        return (f"{self.param}={value} gives {units} {self.unit} units: an odd count above 1 "
                f"is refused, because {self.why}")

    def counterexample(self, spec: Spec) -> dict[str, int]:
        """A configuration (defaults otherwise) that breaks this rule alone."""
        values = spec.defaults()
        if self.kind == "any":
            values.update({p: 0 for p in self.params})
        elif self.kind == "multiple":
            values[self.param] = self.of + self.of // 2 if self.of > 1 else 0
        else:
            values[self.param] = 3 * self.of
        return values


@dataclass
class Spec:
    path: Path
    parameters: list[Parameter] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    configs: dict[str, dict[str, int]] = field(default_factory=dict)  # given values only

    def parameter(self, name: str) -> Parameter:
        return next(p for p in self.parameters if p.name == name)

    def names(self) -> list[str]:
        return [p.name for p in self.parameters]

    def defaults(self) -> dict[str, int]:
        return {p.name: p.default for p in self.parameters}

    def error(self, values: dict[str, int]) -> str | None:
        """The first broken range or rule of a complete configuration, or None."""
        for p in self.parameters:
            if why := p.range_error(values[p.name]):
                return why
        for rule in self.rules:
            if why := rule.error(values):
                return why
        return None

    def resolve(self, given: dict[str, int]) -> dict[str, int]:
        """Defaults overridden by `given`; ConfigError for an unknown name or a
        broken rule."""
        values = self.defaults()
        for name, value in given.items():
            if name not in values:
                raise ConfigError(f"unknown parameter '{name}' (tcu_core has: "
                                  f"{', '.join(self.names())})")
            values[name] = value
        if why := self.error(values):
            raise ConfigError(why)
        return values

    def parse_assignments(self, text: str) -> dict[str, int]:
        """'Int4MacsPerCycle=64;F64Enable=0' (';' or blanks between items, a
        bit also as 1'b0/1'b1) as a dict; ConfigError naming the bad item."""
        given = {}
        for item in re.split(r"[;\s]+", text.strip()):
            if not item:
                continue
            match = re.fullmatch(r"([A-Za-z0-9]+)=(.*)", item)
            if not match:
                raise ConfigError(f"'{item}' is not Param=Value")
            name, value = match.groups()
            value = re.sub(r"^1'b([01])$", r"\1", value)
            if name in self.defaults() and not re.fullmatch(r"[0-9]+", value):
                raise ConfigError(f"{name}={value}: not a non-negative integer")
            given[name] = int(value) if value.isdigit() else value
        return given


def _line_of_table(text: str, header: str, index: int) -> int:
    """The line of the index-th [[header]] table of a TOML text."""
    pattern = re.compile(rf"^\s*\[\[\s*{header}\s*\]\]")
    lines = [n for n, line in enumerate(text.splitlines(), 1) if pattern.match(line)]
    return lines[index] if index < len(lines) else 0


def _int(value, what: str) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    raise ValueError(f"{what} must be an integer, not {value!r}")


def _parameter(table: dict) -> Parameter:
    unknown = set(table) - PARAMETER_KEYS
    if unknown:
        raise ValueError(f"unknown key '{sorted(unknown)[0]}' (keys: {', '.join(sorted(PARAMETER_KEYS))})")
    for key in ("name", "type", "default", "meaning", "modules"):
        if key not in table:
            raise ValueError(f"missing key '{key}'")
    name = table["name"]
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise ValueError(f"name {name!r} is not an UpperCamelCase RTL parameter name")
    if table["type"] not in ("int", "bit"):
        raise ValueError(f"{name}: type {table['type']!r} is neither \"int\" nor \"bit\"")
    if table["type"] == "bit" and not isinstance(table["default"], bool):
        raise ValueError(f"{name}: a bit's default is true or false, not {table['default']!r}")
    if table["type"] == "int" and (isinstance(table["default"], bool)
                                   or not isinstance(table["default"], int)):
        raise ValueError(f"{name}: an int's default is an integer, not {table['default']!r}")
    modules = table["modules"]
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        raise ValueError(f"{name}: modules must be a list of module names")
    max_value = table.get("max")
    parameter = Parameter(name=name, type=table["type"], default=int(table["default"]),
                          meaning=str(table["meaning"]), modules=tuple(modules),
                          min=_int(table.get("min", 0), f"{name}: min"),
                          max=None if max_value is None else _int(max_value, f"{name}: max"),
                          range_why=str(table.get("range_why", "")),
                          axis=bool(table.get("axis", True)))
    if parameter.max is not None and not parameter.range_why:
        raise ValueError(f"{name}: a max needs a range_why (what the range bounds)")
    if why := parameter.range_error(parameter.default):
        raise ValueError(f"default out of range: {why}")
    return parameter


def _rule(table: dict, line: int, kinds: dict[str, str]) -> Rule:
    kind = table.get("kind")
    if kind not in RULE_KEYS:
        raise ValueError(f"kind {kind!r} is not one of {', '.join(RULE_KEYS)}")
    missing = RULE_KEYS[kind] - set(table)
    unknown = set(table) - RULE_KEYS[kind]
    if missing or unknown:
        key = sorted(missing or unknown)[0]
        raise ValueError(f"a '{kind}' rule {'needs' if missing else 'has no'} key '{key}'")
    params = tuple(table.get("params", ()))
    for name in params + tuple(table[k] for k in ("param", "when") if k in table):
        if name not in kinds:
            raise ValueError(f"unknown parameter '{name}'")
    for name in params + ((table["when"],) if "when" in table else ()):
        if kinds[name] != "bit":
            raise ValueError(f"'{name}' is not a bit parameter")
    if "param" in table and kinds[table["param"]] != "int":
        raise ValueError(f"'{table['param']}' is not an int parameter")
    if kind == "any" and len(params) < 2:
        raise ValueError("an 'any' rule names at least two parameters")
    return Rule(kind=kind, why=str(table["why"]), line=line, param=table.get("param", ""),
                of=_int(table.get("of", 1), "of"), when=table.get("when", ""),
                unit=table.get("unit", ""), params=params)


def load(path: Path | str = SPEC_FILE) -> Spec:
    """The spec at `path`; SpecError naming path:line and the reason."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise SpecError(f"{path}: cannot read: {error.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{path}: not valid TOML: {error}") from None
    unknown = set(data) - {"parameter", "rule", "config"}
    if unknown:
        raise SpecError(f"{path}: unknown table '{sorted(unknown)[0]}' "
                        "(the spec has [[parameter]], [[rule]] and [[config]])")
    spec = Spec(path)
    for header, tables in (("parameter", data.get("parameter", [])),
                           ("rule", data.get("rule", [])), ("config", data.get("config", []))):
        if not isinstance(tables, list):
            raise SpecError(f"{path}: '{header}' must be an array of tables ([[{header}]])")
        kinds = {p.name: p.type for p in spec.parameters}
        for index, table in enumerate(tables):
            line = _line_of_table(text, header, index)
            try:
                if header == "parameter":
                    parameter = _parameter(table)
                    if parameter.name in kinds:
                        raise ValueError(f"parameter '{parameter.name}' given twice")
                    spec.parameters.append(parameter)
                    kinds[parameter.name] = parameter.type
                elif header == "rule":
                    spec.rules.append(_rule(table, line, kinds))
                else:
                    _config(spec, table)
            except (ValueError, ConfigError) as error:
                raise SpecError(f"{path}:{line}: [[{header}]] #{index + 1}: {error}") from None
    if not spec.parameters:
        raise SpecError(f"{path}: no [[parameter]] tables")
    if why := spec.error(spec.defaults()):
        raise SpecError(f"{path}: the defaults break a rule: {why}")
    return spec


def _config(spec: Spec, table: dict) -> None:
    name = table.get("name")
    if not isinstance(name, str) or not CONFIG_NAME_RE.fullmatch(name):
        raise ValueError(f"configuration name {name!r} is not letters, digits and '_'")
    if name in spec.configs:
        raise ValueError(f"configuration '{name}' given twice")
    given = {k: _int(v, f"{name}: {k}") for k, v in table.items() if k != "name"}
    try:
        spec.resolve(given)
    except ConfigError as error:
        raise ValueError(f"configuration '{name}': {error}") from None
    spec.configs[name] = given
