"""The tensor core's configuration spec (spec/config.toml): reading it,
checking a configuration against its rules, and the rules' messages; the
dot units' table, the enumerations and the front-end's parameters.

The C++ and the CMake configure step (gen_config), tcu explore
(tcu_tools.explore) and the RTL tests (tests/spec/) all use this module, so
each rule's message is written once, here.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from tcu_tools import data_file

SPEC_FILE = data_file("config.toml")  # spec/config.toml, package data

PARAMETER_KEYS = {"name", "type", "default", "min", "max", "range_why", "meaning", "modules",
                  "axis"}
RULE_KEYS = {"any": {"kind", "params", "why"},
             "multiple": {"kind", "param", "of", "when", "why"},
             "even_units": {"kind", "param", "of", "unit", "when", "why"}}
UNIT_KEYS = {"name", "module", "families", "rate", "enable", "lanes", "work", "stages", "latency",
             "stages_param", "family_enables"}
ENUM_KEYS = {"name", "meaning", "bits", "sv_type", "sv_prefix", "cpp_type", "c_type", "c_prefix",
             "values"}
ENUM_VALUE_KEYS = {"name", "meaning", "sv", "c", "cpp"}
FRONTEND_KEYS = {"name", "default", "min", "max", "meaning"}
FORMAT_KEYS = {"name", "sv", "exp_bits", "man_bits", "bias", "sign", "special"}
TABLES = ("parameter", "rule", "config", "unit", "enum", "format", "frontend")
SV_NAME_RE = re.compile(r"[A-Z][A-Z0-9_]*")
NAME_RE = re.compile(r"[A-Z][A-Za-z0-9]*")
SNAKE_RE = re.compile(r"[a-z][a-z0-9_]*")
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


@dataclass(frozen=True)
class Unit:
    """A dot unit: one engine's building block (the unit table)."""
    name: str
    module: str
    families: tuple[str, ...]
    rate: str
    enable: str
    lanes: int
    work: str
    stages: str
    latency: int
    stages_param: str
    family_enables: dict = field(default_factory=dict, hash=False)

    @property
    def sv_lanes(self) -> str:
        """tcu_pkg's constant: INT4_DOT_LANES."""
        return f"{self.name.upper()}_DOT_LANES"


@dataclass(frozen=True)
class EnumValue:
    name: str
    code: int
    meaning: str
    sv: str  # the SV constant (prefix included)
    c: str  # the C API constant (prefix included)
    cpp: str  # the C++ enumerator (kInt4Dense)


@dataclass(frozen=True)
class Enum:
    name: str
    meaning: str
    bits: int
    sv_type: str | None  # None: not in the RTL; "": localparams
    cpp_type: str
    c_type: str
    values: tuple[EnumValue, ...]

    def value(self, name: str) -> EnumValue:
        return next(v for v in self.values if v.name == name)

    def codes(self) -> dict[str, int]:
        """{name: code}: what the cocotb bench drives."""
        return {v.name: v.code for v in self.values}


@dataclass(frozen=True)
class Format:
    """A floating-point format: a row of the RTL's format table."""
    name: str  # the element type ([[enum]] elem_type's value)
    sv: str  # its fp_format_e constant
    exp_bits: int
    man_bits: int
    bias: int
    sign: bool
    special: bool  # an exponent of all ones encodes Inf or NaN


@dataclass(frozen=True)
class FrontEndParameter:
    name: str
    default: int
    min: int
    max: int
    meaning: str


@dataclass
class Spec:
    path: Path
    parameters: list[Parameter] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    configs: dict[str, dict[str, int]] = field(default_factory=dict)  # given values only
    units: list[Unit] = field(default_factory=list)
    enums: dict[str, Enum] = field(default_factory=dict)
    formats: list[Format] = field(default_factory=list)
    frontend: list[FrontEndParameter] = field(default_factory=list)

    def unit(self, name: str) -> Unit:
        return next(u for u in self.units if u.name == name)

    def config_values(self, name: str) -> dict[str, int]:
        """A named configuration, resolved (every parameter)."""
        if name not in self.configs:
            raise ConfigError(f"no configuration '{name}' in {self.path} "
                              f"(known: {', '.join(self.configs)})")
        return self.resolve(self.configs[name])

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
    unknown = set(data) - set(TABLES)
    if unknown:
        raise SpecError(f"{path}: unknown table '{sorted(unknown)[0]}' (the spec has "
                        f"{', '.join(f'[[{t}]]' for t in TABLES)})")
    spec = Spec(path)
    for header in TABLES:
        tables = data.get(header, [])
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
                elif header == "config":
                    _config(spec, table)
                elif header == "unit":
                    spec.units.append(_unit(spec, table))
                elif header == "enum":
                    enum = _enum(table)
                    if enum.name in spec.enums:
                        raise ValueError(f"enum '{enum.name}' given twice")
                    spec.enums[enum.name] = enum
                elif header == "format":
                    spec.formats.append(_format(spec, table))
                else:
                    spec.frontend.append(_frontend(spec, table))
            except (ValueError, ConfigError) as error:
                raise SpecError(f"{path}:{line}: [[{header}]] #{index + 1}: {error}") from None
    if not spec.parameters:
        raise SpecError(f"{path}: no [[parameter]] tables")
    if why := spec.error(spec.defaults()):
        raise SpecError(f"{path}: the defaults break a rule: {why}")
    _check_units(spec, text)
    return spec


def _keys(table: dict, allowed: set[str], required: set[str], what: str) -> None:
    unknown = set(table) - allowed
    if unknown:
        raise ValueError(f"unknown key '{sorted(unknown)[0]}' (keys: {', '.join(sorted(allowed))})")
    missing = required - set(table)
    if missing:
        raise ValueError(f"{what}: missing key '{sorted(missing)[0]}'")


def _str(value, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, not {value!r}")
    return value


def _unit(spec: Spec, table: dict) -> Unit:
    _keys(table, UNIT_KEYS, UNIT_KEYS - {"family_enables"}, f"unit {table.get('name', '?')!r}")
    name = _str(table["name"], "name")
    if not SNAKE_RE.fullmatch(name) or any(u.name == name for u in spec.units):
        raise ValueError(f"unit name {name!r} is not lower-case letters and digits, or given twice")
    kinds = {p.name: p.type for p in spec.parameters}
    for key, kind in (("rate", "int"), ("enable", "bit"), ("stages", "int")):
        if kinds.get(table[key]) != kind:
            raise ValueError(f"unit '{name}': {key} '{table[key]}' is not an {kind} parameter")
    if table["work"] not in ("MAC", "FMA", "product"):
        raise ValueError(f"unit '{name}': work {table['work']!r} is not \"MAC\", \"FMA\" or \"product\"")
    lanes, latency = _int(table["lanes"], "lanes"), _int(table["latency"], "latency")
    if lanes < 1 or latency < 1:
        raise ValueError(f"unit '{name}': lanes and latency are at least 1")
    families = table["families"]
    if not isinstance(families, list) or not families:
        raise ValueError(f"unit '{name}': families is a list of [[enum]] family's names")
    family_enables = table.get("family_enables", {})
    for family, enable in family_enables.items():
        if family not in families or kinds.get(enable) != "bit":
            raise ValueError(f"unit '{name}': family_enables: '{family}' is not one of its "
                             f"families, or '{enable}' not a bit parameter")
    return Unit(name=name, module=_str(table["module"], "module"), families=tuple(families),
                family_enables=dict(family_enables),
                rate=table["rate"], enable=table["enable"], lanes=lanes, work=table["work"],
                stages=table["stages"], latency=latency,
                stages_param=_str(table["stages_param"], "stages_param"))


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _enum(table: dict) -> Enum:
    _keys(table, ENUM_KEYS, ENUM_KEYS - {"sv_type", "sv_prefix"},
          f"enum {table.get('name', '?')!r}")
    in_sv = "sv_prefix" in table
    if in_sv != ("sv_type" in table):
        raise ValueError(f"enum {table['name']!r}: sv_type and sv_prefix go together")
    name = _str(table["name"], "name")
    values, seen = [], set()
    if not isinstance(table["values"], list) or not table["values"]:
        raise ValueError(f"enum '{name}': values is a list of tables")
    for code, value in enumerate(table["values"]):
        if not isinstance(value, dict):
            raise ValueError(f"enum '{name}': value #{code + 1} is not a table")
        _keys(value, ENUM_VALUE_KEYS, {"name", "meaning"}, f"enum '{name}' value #{code + 1}")
        vname = _str(value["name"], "a value's name")
        if not SNAKE_RE.fullmatch(vname) or vname in seen:
            raise ValueError(f"enum '{name}': value name {vname!r} is not snake_case, "
                             "or given twice")
        seen.add(vname)
        cpp = _str(value.get("cpp", _camel(vname)), "cpp")
        values.append(EnumValue(
            name=vname, code=code, meaning=_str(value["meaning"], "meaning"),
            sv=table["sv_prefix"] + _str(value.get("sv", vname.upper()), "sv") if in_sv else "",
            c=table["c_prefix"] + _str(value.get("c", vname.upper()), "c"), cpp="k" + cpp))
    bits = _int(table["bits"], "bits")
    if len(values) > 1 << bits:
        raise ValueError(f"enum '{name}': {len(values)} values do not fit {bits} bits")
    return Enum(name=name, meaning=_str(table["meaning"], "meaning"), bits=bits,
                sv_type=table.get("sv_type"), cpp_type=table["cpp_type"], c_type=table["c_type"],
                values=tuple(values))


def _format(spec: Spec, table: dict) -> Format:
    _keys(table, FORMAT_KEYS, FORMAT_KEYS, f"format {table.get('name', '?')!r}")
    name = _str(table["name"], "name")
    types = spec.enums.get("elem_type")
    if types is None or name not in types.codes():
        raise ValueError(f"format '{name}' is not a value of [[enum]] elem_type")
    sv = _str(table["sv"], "sv")
    if not SV_NAME_RE.fullmatch(sv):
        raise ValueError(f"format '{name}': sv {sv!r} is not an upper-case SystemVerilog name")
    if any(f.name == name or f.sv == sv for f in spec.formats):
        raise ValueError(f"format '{name}' ({sv}) given twice")
    widths = {key: _int(table[key], key) for key in ("exp_bits", "man_bits", "bias")}
    if widths["exp_bits"] < 1 or widths["man_bits"] < 0 or widths["bias"] < 0:
        raise ValueError(f"format '{name}': exp_bits at least 1, man_bits and bias at least 0")
    flags = {}
    for key in ("sign", "special"):
        if not isinstance(table[key], bool):
            raise ValueError(f"format '{name}': {key} must be true or false, not {table[key]!r}")
        flags[key] = table[key]
    return Format(name=name, sv=sv, **widths, **flags)


def _frontend(spec: Spec, table: dict) -> FrontEndParameter:
    _keys(table, FRONTEND_KEYS, FRONTEND_KEYS, f"frontend {table.get('name', '?')!r}")
    name = _str(table["name"], "name")
    if not SNAKE_RE.fullmatch(name) or any(f.name == name for f in spec.frontend):
        raise ValueError(f"front-end parameter {name!r} is not snake_case, or given twice")
    parameter = FrontEndParameter(name=name, default=_int(table["default"], "default"),
                                  min=_int(table["min"], "min"), max=_int(table["max"], "max"),
                                  meaning=_str(table["meaning"], "meaning"))
    if not parameter.min <= parameter.default <= parameter.max:
        raise ValueError(f"{name}: default {parameter.default} outside "
                         f"{parameter.min}..{parameter.max}")
    return parameter


def _check_units(spec: Spec, text: str) -> None:
    """The unit table against the enumerations and the rules: every family
    runs on one unit, and a rule's unit width is the unit's lanes."""
    families = spec.enums.get("family")
    if families is None:
        raise SpecError(f"{spec.path}: no [[enum]] named 'family' (the units' families)")
    for index, unit in enumerate(spec.units):
        line = _line_of_table(text, "unit", index)
        for family in unit.families:
            if family not in families.codes():
                raise SpecError(f"{spec.path}:{line}: [[unit]] '{unit.name}': unknown family "
                                f"'{family}' (the family enum has: "
                                f"{', '.join(families.codes())})")
    ran = [f for u in spec.units for f in u.families]
    for family in families.codes():
        if ran.count(family) != 1:
            raise SpecError(f"{spec.path}: family '{family}' runs on {ran.count(family)} units "
                            "([[unit]] families): each runs on one")
    for rule in spec.rules:
        unit = next((u for u in spec.units if u.rate == rule.param), None)
        if rule.kind != "any" and unit is not None and rule.of != unit.lanes:
            raise SpecError(f"{spec.path}:{rule.line}: [[rule]]: {rule.param} counted in units of "
                            f"{rule.of}, but unit '{unit.name}' has lanes = {unit.lanes}")


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


def main(argv: list[str]) -> int:
    """`python -m tcu_tools.spec params NAME [--form F]`: a named configuration's
    parameters for a script: given (the spec's entries) or all, as
    Param=Value (--form plain) or Verilator's -GParam=Value (--form verilator)."""
    import argparse
    import sys
    parser = argparse.ArgumentParser(description=main.__doc__.split("\n")[0])
    parser.add_argument("command", choices=["params"])
    parser.add_argument("name")
    parser.add_argument("--all", action="store_true", help="every parameter, not only those given")
    parser.add_argument("--form", choices=["plain", "verilator"], default="plain")
    parser.add_argument("--spec", type=Path, default=SPEC_FILE)
    args = parser.parse_args(argv)
    try:
        spec = load(args.spec)
        values = spec.config_values(args.name)
    except (SpecError, ConfigError) as error:
        print(error, file=sys.stderr)
        return 1
    names = spec.names() if args.all else list(spec.configs[args.name])
    prefix = "-G" if args.form == "verilator" else ""
    print(" ".join(f"{prefix}{n}={values[n]}" for n in names))
    return 0
