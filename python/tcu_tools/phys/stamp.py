"""The data file's stamps (spec/phys_osu018.toml): what RTL and which tools
its figures are of, and whether they still are.

Every entry of the file is a top at parameters whose figures depend on
the design Yosys elaborates from the top's sources (units.sources_of) at
those parameters, and on the flow: the tops python -m tcu_tools.phys maps
(REFRESHED: [[point]], [[engine]], [[whole]]) and the tables other tools
append (APPENDED: [[glue]], [[engine_regs]], [[engine_regs_toggles]],
[[engine_glue]]), each re-measured by the command its head key names
(COMMAND_KEYS). Each entry carries

  rtl_files   the SHA-256 (16 hex digits) of its sources' contents (and
              the files they include, units.inputs_of)
  rtl_design  a hash of that elaborated design: read, elaborated at the
              entry's parameters (SynthImpl = 1 where it applies),
              processes lowered, flattened, unused logic removed, and its
              cells (type and parameters) and their bit-level connections
              hashed by Weisfeiler-Lehman refinement from the ports
              (design_hash): the cells and how they connect, not how the
              RTL names, orders or groups them

(figures taken from an earlier run that recorded neither carry UNRECORDED:
stale, their RTL not known) and the head carries rtl_sha256 (each source file's hash, to name what
changed) and tools (tool_versions: Yosys, OpenSTA, Icarus, the liberty
parser, and the flow: the liberty file, the ABC constraints and the latch
map). An entry is fresh when its files are unchanged, or when they changed
but elaborate to the same design (a comment, a renamed file or module, a
default the entry does not use); it is stale when its design changed, and
the whole file is stale when a tool did. A stale file is refused by its
readers (tcu explore) with what changed and the command that re-measures
each stale entry: REFRESH, which re-measures the stale REFRESHED entries,
records this tree's sources in the stamps of the fresh ones of every kind
whose files changed (restamp) and re-stamps the file; an APPENDED table's
own command (its head key in COMMAND_KEYS). The
repository's own file is held to its stamps exactly (exact: every entry's
rtl_files this checkout's), which takes no Yosys run to check."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

from . import mapping
from . import units
from .units import inputs_of, sources_of, synthesis_params

# An entry's stamp: the keys, and the one of figures taken from a run that
# recorded no stamp (stale: its RTL is not known).
KEYS = ("rtl_files", "rtl_design")
UNRECORDED = "unrecorded"
UNRECORDED_STAMP = {"rtl_files": UNRECORDED, "rtl_design": UNRECORDED}
REFRESH = "nice -n 10 .venv/bin/python -m tcu_tools.phys --refresh spec/phys_osu018.toml"
FLOW_FILES = (mapping.ABC_CONSTRAINTS, Path(mapping.__file__).with_name("osu018_latch_map.v"))
# The normalization of design_hash (part of its cache key).
NORMALIZE = "proc; flatten; opt_clean -purge; write_json; Weisfeiler-Lehman, 4 rounds"
ROUNDS = 4
# The stamped tables: those --refresh re-measures, and those other tools
# append (kept as they are by a rewrite: datafile.KEPT_TABLES), each
# re-measured by the command under its head key.
REFRESHED = ("point", "engine", "whole")
APPENDED = ("glue", "engine_regs", "engine_regs_toggles", "engine_glue")
KINDS = REFRESHED + APPENDED
COMMAND_KEYS = {"glue": "glue_command", "engine_regs": "engine_regs_command",
                "engine_regs_toggles": "toggles_command", "engine_glue": "engine_glue_command"}


def entry_top(kind: str, entry: dict, rtl: Path | None = None) -> tuple[str, dict]:
    """The RTL top and parameters an entry's figures were mapped at (the
    top read from `rtl`, default the checkout's rtl/)."""
    top = entry["unit"] if kind in ("point", "glue") else entry["top"]
    return top, synthesis_params(top, dict(entry["params"]), rtl)


def entry_label(kind: str, entry: dict) -> str:
    top, _ = entry_top(kind, entry)
    params = " ".join(f"{k}={v}" for k, v in entry["params"].items() if k != "SynthImpl")
    return (f"[[{kind}]] {top}" + (f" {params}" if params else "") +
            (" (measured from RTL not recorded)" if entry.get("rtl_design") == UNRECORDED else ""))


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def files_hash(top: str, rtl: Path | None = None) -> str:
    """The hash of the top's sources and the files they include (names
    relative to rtl/ and contents)."""
    rtl = units.RTL if rtl is None else rtl
    digest = hashlib.sha256()
    for f in inputs_of(top, rtl):
        digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def flow_hash() -> str:
    from . import library
    digest = hashlib.sha256()
    for f in (library.liberty(), *FLOW_FILES):
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def _cache_dir(rtl: Path) -> Path:
    """$TCU_PHYS_STAMP_CACHE, else build/phys-stamp-cache of the checkout
    whose rtl/ is hashed."""
    given = os.environ.get("TCU_PHYS_STAMP_CACHE")
    return Path(given) if given else rtl.resolve().parent / "build" / "phys-stamp-cache"


def design_hash(top: str, params: dict, rtl: Path | None = None, yosys_version: str = "") -> str:
    """The SHA-256 (16 hex digits) of the design Yosys elaborates from the
    top's sources under `rtl` at `params`, normalized so that it depends on
    the logic only (see the module's doc). Cached by the sources' contents,
    the parameters and the Yosys version."""
    rtl = units.RTL if rtl is None else rtl
    key = hashlib.sha256(json.dumps([files_hash(top, rtl), top, sorted(params.items()),
                                     yosys_version, NORMALIZE]).encode()).hexdigest()[:24]
    cached = _cache_dir(rtl) / f"{key}.txt"
    if cached.exists():
        return cached.read_text().strip()
    sources = " ".join(str(s) for s in sources_of(top, rtl))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "design.json"
        script = (f"read_verilog -sv -defer {sources}; {mapping._elaborate(top, params)} "
                  f"proc; flatten; opt_clean -purge; write_json {out}")
        proc = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"yosys could not elaborate {top} {params}: "
                               f"{(proc.stderr or proc.stdout).strip()[-400:]}")
        modules = json.loads(out.read_text())["modules"]
    value = graph_hash(modules[top] if top in modules else next(iter(modules.values())))
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(value + "\n")
    return value


def _h(*parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def graph_hash(module: dict) -> str:
    """A hash of a flattened module (Yosys JSON) that depends on its cells
    (type, parameters) and their bit-level connections only: each net bit
    starts as its port bit's name (or anonymous), each cell as its type and
    parameters; ROUNDS times a cell takes the hash of its label and the
    labels of the bits on each of its pins, a bit that of its label and
    the (cell, pin, index) it reaches; the result hashes the sorted cell
    labels and the ports' bit labels."""
    net = {b: _h("port", name, port["direction"], i)
           for name, port in module["ports"].items()
           for i, b in enumerate(port["bits"]) if isinstance(b, int)}
    cells, pins = [], {}
    for cell in module["cells"].values():
        conns = sorted(cell["connections"].items())
        cells.append(_h(cell["type"], sorted(cell.get("parameters", {}).items())))
        for pin, bits in conns:
            for i, b in enumerate(bits):
                if isinstance(b, int):
                    pins.setdefault(b, []).append((len(cells) - 1, pin, i))
        cells[-1] = [cells[-1], conns]

    def label(b):
        return b if isinstance(b, str) else net.get(b, "net")
    for _ in range(ROUNDS):
        new = [_h(c[0], [(pin, [label(b) for b in bits]) for pin, bits in c[1]]) for c in cells]
        net = {**net, **{b: _h(net.get(b, "net"), sorted((new[c], pin, i) for c, pin, i in ps))
                         for b, ps in pins.items()}}
        for c, value in zip(cells, new):
            c[0] = value
    ports = sorted((name, [label(b) for b in port["bits"]])
                   for name, port in module["ports"].items())
    return _h(sorted(c[0] for c in cells), ports)


def entries(data: dict, kinds: tuple = KINDS) -> list[tuple[str, dict]]:
    """(kind, entry) of every stamped table of the data file (of `kinds`)."""
    return [(kind, e) for kind in kinds for e in data.get(kind, [])]


def command_of(kind: str, data: dict) -> str:
    """The command that re-measures an entry of this kind: REFRESH, or the
    data file's head key for an APPENDED table."""
    key = COMMAND_KEYS.get(kind)
    return REFRESH if key is None else data.get(key, f"(the data file names no {key})")


def remeasure(data: dict, stale: list[tuple[str, dict]]) -> str:
    """What re-measures these entries: REFRESH for the REFRESHED ones, each
    APPENDED kind's own command for its tables."""
    kinds = list(dict.fromkeys(k for k, _ in stale if k in APPENDED))
    parts = ([f"re-measure with: {REFRESH}"] if any(k in REFRESHED for k, _ in stale) else [])
    parts += [f"re-measure the [[{k}]] tables with: {command_of(k, data)}" for k in kinds]
    return "; ".join(parts)


def stamp_of(kind: str, entry: dict, rtl: Path | None = None, yosys_version: str = "") -> dict:
    rtl = units.RTL if rtl is None else rtl
    top, params = entry_top(kind, entry, rtl)
    return {"rtl_files": files_hash(top, rtl),
            "rtl_design": design_hash(top, params, rtl, yosys_version)}


def file_hashes(data: dict, rtl: Path | None = None) -> dict:
    """Each source file of the data file's entries: its hash."""
    rtl = units.RTL if rtl is None else rtl
    files = sorted({f for kind, e in entries(data) for f in inputs_of(entry_top(kind, e)[0], rtl)})
    return {str(f.relative_to(rtl.parent)): file_hash(f) for f in files}


def head_hashes(data: dict, then: dict, rtl: Path | None = None) -> dict:
    """The head's rtl_sha256: each source file of the entries, with its hash
    now where every entry built from it has its stamp's files now, else its
    hash in `then` (an earlier head) if that has it (else left out)."""
    rtl = units.RTL if rtl is None else rtl
    now = file_hashes(data, rtl)
    behind = {str(f.relative_to(rtl.parent))
              for kind, e in entries(data)
              if e.get("rtl_files") != files_hash(entry_top(kind, e)[0], rtl)
              for f in inputs_of(entry_top(kind, e)[0], rtl)}
    return {f: (then.get(f) if f in behind else h) for f, h in now.items()
            if f not in behind or f in then}


def files_unchanged(top: str, data: dict, rtl: Path | None = None) -> bool:
    """Every source of `top` is in the head's rtl_sha256 with its hash now."""
    rtl = units.RTL if rtl is None else rtl
    then = data.get("rtl_sha256", {})
    return all(then.get(str(f.relative_to(rtl.parent))) == file_hash(f)
               for f in inputs_of(top, rtl))


def stale_entries(data: dict, rtl: Path | None = None,
                  yosys_version: str = "") -> list[tuple[str, dict]]:
    """The entries whose design is not the one their figures are of. An
    entry without a stamp of its own (written by a writer that stamped the
    head only) is fresh if each of its files has the head's hash."""
    rtl = units.RTL if rtl is None else rtl
    out = []
    for kind, e in entries(data):
        if "rtl_files" not in e or "rtl_design" not in e:
            if not files_unchanged(entry_top(kind, e)[0], data, rtl):
                out.append((kind, e))
            continue
        top, params = entry_top(kind, e, rtl)
        if files_hash(top, rtl) == e["rtl_files"]:
            continue
        if e["rtl_design"] == UNRECORDED or design_hash(top, params, rtl, yosys_version) != e["rtl_design"]:
            out.append((kind, e))
    return out


def behind(data: dict, rtl: Path | None = None) -> list[tuple[str, dict]]:
    """The entries whose stamp records other sources (rtl_files) than the
    ones under `rtl`: fresh only if these elaborate to the design the stamp
    records, which takes Yosys to tell (stale_entries); restamp records
    these sources in the stamps of those that do."""
    rtl = units.RTL if rtl is None else rtl
    return [(kind, e) for kind, e in entries(data)
            if e.get("rtl_design", UNRECORDED) != UNRECORDED and "rtl_files" in e
            and e["rtl_files"] != files_hash(entry_top(kind, e)[0], rtl)]


def restamp(data: dict, rtl: Path | None = None, yosys_version: str = "") -> list[tuple[str, dict]]:
    """Each entry of behind() whose sources elaborate to the design its stamp
    records (design_hash) gets these sources' hash as its rtl_files (its
    figures are of this design); one whose design changed keeps its stamp
    (stale). Returns the entries restamped."""
    rtl = units.RTL if rtl is None else rtl
    done = []
    for kind, e in behind(data, rtl):
        top, params = entry_top(kind, e, rtl)
        if design_hash(top, params, rtl, yosys_version) == e["rtl_design"]:
            e["rtl_files"] = files_hash(top, rtl)
            done.append((kind, e))
    return done


def exact(data: dict, tools: dict, rtl: Path | None = None) -> list[str]:
    """Why the data file's stamps are not exactly this RTL's and these
    tools' (the repository's own file must be, CTest explore_stamps): the
    entries whose stamps record other sources (behind: --refresh records
    these where the design is the same, re-measures where it is not), else
    staleness's reasons. No Yosys runs: every entry it passes has the
    sources its stamp records."""
    rtl = units.RTL if rtl is None else rtl
    lag = behind(data, rtl)
    if lag:
        files = changed_files(data, rtl, lag)
        appended = list(dict.fromkeys(k for k, _ in lag if k in APPENDED))
        return [f"{len(lag)} entr{'y records' if len(lag) == 1 else 'ies record'} other RTL "
                f"sources than this checkout's: " + ", ".join(entry_label(k, e) for k, e in lag)
                + (f" ({'; '.join(files)})" if files else "")
                + f"; re-stamp (and re-measure what changed) with: {REFRESH}"
                + "".join(f"; a changed [[{k}]] table is re-measured by: {command_of(k, data)}"
                          for k in appended)]
    return staleness(data, tools, rtl)


def changed_files(data: dict, rtl: Path | None = None, of: list | None = None) -> list[str]:
    """The source files whose hash is not the head's: of the entries `of`
    (kind, entry) if given, else of every entry."""
    rtl = units.RTL if rtl is None else rtl
    now = file_hashes(data if of is None else
                      {k: [e for kind, e in of if kind == k] for k in KINDS},
                      rtl)
    then = data.get("rtl_sha256", {})
    return ([f"{f} changed" for f in sorted(now) if f in then and then[f] != now[f]] +
            [f"{f} is new" for f in sorted(set(now) - set(then))] +
            [f"{f} is gone" for f in sorted(set(then) - set(now)) if of is None])


def staleness(data: dict, tools: dict, rtl: Path | None = None) -> list[str]:
    """Why the data file's figures are not those of this RTL and these
    tools, as messages; [] if they are."""
    rtl = units.RTL if rtl is None else rtl
    if "tools" not in data or "rtl_sha256" not in data:
        return ["it carries no stamp (rtl_sha256, tools)"]
    reasons = [f"{name} is '{tools.get(name)}', the figures' '{version}'"
               for name, version in data["tools"].items() if tools.get(name) != version]
    reasons += [f"{name} '{tools[name]}' is not in its stamp"
                for name in sorted(set(tools) - set(data["tools"]))]
    if reasons:
        return reasons + ["every entry is stale"]
    stale = stale_entries(data, rtl, tools.get("yosys", ""))
    if stale:
        files = changed_files(data, rtl, stale)
        reasons.append(f"{len(stale)} entr{'y is' if len(stale) == 1 else 'ies are'} not of "
                       f"this RTL (another design than the one measured): "
                       + ", ".join(entry_label(k, e) for k, e in stale)
                       + (f" ({'; '.join(files)})" if files else "")
                       + f"; {remeasure(data, stale)}")
    return reasons
