"""MkDocs hooks: the pages' generated parts, made when the site is built.

Markers in a page's Markdown are replaced by what the project itself says,
so that no figure or option is copied by hand:

    <!-- tcu: ARGS -->               the output of `tcu ARGS` (a code block)
    <!-- generated: cli-reference --> `tcu help-markdown`, `tcu run merge
                                      --help`, `tcu explore --help`
    <!-- generated: variants -->      PTX variant -> layout -> golden function
                                      -> RTL unit -> test, a row per variant
                                      of `tcu list --plain`
    <!-- generated: phys-tables -->   spec/phys_osu018.toml's figures
    <!-- generated: phys-calibration --> spec/phys_calib_osu018.toml's
                                      designs beside published figures
    <!-- generated: config-spec -->   spec/config.toml's parameters, rules
                                      and named configurations
    <!-- generated: formal-checks --> formal/checks.toml's checks, a row per
                                      pair and kind with its parameter sets and
                                      their CPU seconds (docs/data/costs.toml)
    <!-- generated: bench-table -->   the speed table of docs/data/bench.json
                                      (tcu_tools.bench_table)
    <!-- generated: explore-validation --> the fast evaluator's errors against
                                      the full flow, docs/data/explore_validation.toml
                                      (tcu_tools.explore.record)
    <!-- figure: NAME -->            a figure (inline, or a table) computed from
                                      the data that holds it
                                      (tcu_tools.explore.doc_figures NAME)
    <!-- generated: worked-sweep -->  what the docs' worked sweep shows, worded
                                      from its fast run's explore.csv (the sweep
                                      runs when the site is built; its plots are
                                      the page's images/explore-worked-*.png)
                                      (tcu_tools.explore.worked_findings)
    <!-- cpu: KEY -->               CPU seconds as docs/data/costs.toml records
                                      them (tcu_tools.costs.data.figure KEY)
    <!-- generated: bottom-up-datapaths --> the composition against datapaths
                                      mapped as the full flow maps them,
                                      tests/explore/data/bottom_up_datapaths.json
                                      (tcu_tools.explore.bottom_up)

`tcu` is $TCU_BIN (default build/tcu). Links to the repository's files are
written `/src/PATH`: each file so named is copied into the site under src/,
and a link to a file that does not exist is a warning (so an error with
`mkdocs build --strict`). A command that fails, a file or function the
variant table names that is not there, fails the build.
"""
from __future__ import annotations

import os
import re
import functools
import shlex
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

# The repository (TCU_DOCS_REPO: another checkout, for a copy of docs/).
REPO = Path(os.environ.get("TCU_DOCS_REPO", Path(__file__).resolve().parent.parent)).resolve()
SRC_LINK = re.compile(r"\]\(/src/([^)#\s]+)")
MARKER = re.compile(r"<!-- (tcu|generated|figure|cpu): *(.*?) *-->")


def _tcu() -> str:
    tcu = os.environ.get("TCU_BIN", str(REPO / "build" / "tcu"))
    if not os.access(tcu, os.X_OK):
        raise PluginError(f"docs: no tcu at {tcu} (build it, or set TCU_BIN)")
    return tcu


def _run(args: list[str], what: str) -> str:
    done = subprocess.run(args, capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise PluginError(f"docs: `{what}` exited {done.returncode}: {done.stderr.strip()[:600]}")
    # Paths of this checkout (defaults that name the source tree) as <repo>.
    return done.stdout.replace(str(REPO), "<repo>")


def _tcu_block(args: str) -> str:
    out = _run([_tcu()] + shlex.split(args), f"tcu {args}")
    return f"```text\n$ tcu {args}\n{out.rstrip()}\n```"


# ---- the CLI reference --------------------------------------------------------


def _cli_reference() -> str:
    parts = [_run([_tcu(), "help-markdown"], "tcu help-markdown").rstrip()]
    for sub in ("run merge", "explore"):
        text = _run([_tcu()] + sub.split() + ["--help"], f"tcu {sub} --help")
        parts.append(f"### `tcu {sub}` options\n\nIts own parser (`tcu {sub} --help`):\n\n"
                     f"```text\n{text.rstrip()}\n```")
    return "\n\n".join(parts)


# ---- PTX variant -> layout -> golden function -> RTL unit -> test ---------------

# Per instruction class: (layout functions, golden function, its file, RTL unit,
# the golden function's unit test, the RTL unit's Verilator test).
CLASSES = {
    "int4 m16n8k64": ("m16n8k64_a", "int4_dot", "model/src/int4.cpp", "rtl/tcu_int4_dot.sv",
                      "tests/test_int4_dot.cpp", "tests/rtl/test_rtl_int4_dot.cpp"),
    "int4 m8n8k32": ("m8n8k32_a", "int4_dot", "model/src/int4.cpp", "rtl/tcu_int4_dot.sv",
                     "tests/test_int4_dot.cpp", "tests/rtl/test_rtl_int4_dot.cpp"),
    "int4 sparse": ("sparse_m16n8k64_a", "sparse_expand", "model/src/sparse.cpp",
                    "rtl/tcu_sparse_mux.sv", "tests/test_sparse_mux.cpp",
                    "tests/rtl/test_rtl_sparse_mux.cpp"),
    "e2m1": ("m16n8k64_a", "e2m1_dot", "model/src/e2m1.cpp", "rtl/tcu_e2m1_dot.sv",
             "tests/test_e2m1_dot.cpp", "tests/rtl/test_rtl_e2m1_dot.cpp"),
    "f16": ("m8n8k4_a_row", "f16_dot_f32", "model/src/f16.cpp", "rtl/tcu_f16_dot.sv",
            "tests/test_f16_dot.cpp", "tests/rtl/test_f16_dot.cpp"),
    "f64": ("m8n8k4_a_f64", "f64_dot", "model/src/f64.cpp", "rtl/tcu_f64_dot.sv",
            "tests/test_f64_dot.cpp", "tests/rtl/test_f64_dot.cpp"),
}
LAYOUT_FILE = "model/src/layout.cpp"


def _class_of(ptx: str) -> str:
    if ptx.startswith("mma.sp"):
        return "int4 sparse"
    if ".e2m1" in ptx:
        return "e2m1"
    if ".m8n8k32." in ptx:
        return "int4 m8n8k32"
    if ".m16n8k64." in ptx:
        return "int4 m16n8k64"
    if ".f64.f64.f64.f64" in ptx:
        return "f64"
    if ".m8n8k4." in ptx:
        return "f16"
    raise PluginError(f"docs: no row of the variant table fits {ptx}")


def _check_defined(path: str, name: str) -> int:
    """The line that defines function `name` in `path` (the build fails
    when the file or the function is gone)."""
    file = REPO / path
    if not file.is_file():
        raise PluginError(f"docs: the variant table names {path}, which does not exist")
    for number, line in enumerate(file.read_text().splitlines(), 1):
        if re.match(rf"\s*(?:[\w:<>,*&]+\s+)+{re.escape(name)}\s*\(", line):
            return number
    raise PluginError(f"docs: the variant table names {name}() in {path}, which defines none")


def _class_files() -> set[str]:
    files = {LAYOUT_FILE}
    for layout, golden, golden_file, rtl, test, rtl_test in CLASSES.values():
        files |= {golden_file, rtl, test, rtl_test}
    return files


def _variants() -> str:
    spellings = [s for s in _run([_tcu(), "list", "--plain"], "tcu list --plain").split() if s]
    rows = ["| PTX variant | layout | golden function | RTL unit | unit tests |",
            "| --- | --- | --- | --- | --- |"]
    for ptx in spellings:
        layout, golden, golden_file, rtl, test, rtl_test = CLASSES[_class_of(ptx)]
        if layout == "m8n8k4_a_row":  # f16: A's layout and D's type pick the functions
            shape = ptx.split(".m8n8k4.")[1].split(".")
            layout = f"m8n8k4_a_{shape[0]}"
            golden = f"f16_dot_{shape[2]}"
        layout_line = _check_defined(LAYOUT_FILE, layout)
        golden_line = _check_defined(golden_file, golden)
        rows.append(
            f"| `{ptx}` | [`{layout}`](/src/{LAYOUT_FILE}) (line {layout_line}) "
            f"| [`{golden}`](/src/{golden_file}) (line {golden_line}) "
            f"| [`{Path(rtl).name}`](/src/{rtl}) "
            f"| [`{Path(test).name}`](/src/{test}), [`{Path(rtl_test).name}`](/src/{rtl_test}) |")
    return f"{len(spellings)} variants (`tcu list --plain`).\n\n" + "\n".join(rows)


# ---- figures and the configuration spec ----------------------------------------------


def _phys_tables() -> str:
    return _run([sys.executable, "-m", "tcu_tools.phys.table"], "python -m tcu_tools.phys.table")


def _phys_calibration() -> str:
    return _run([sys.executable, "-m", "tcu_tools.phys.table", "--calibration"],
                "python -m tcu_tools.phys.table --calibration")


def _config_spec() -> str:
    with open(REPO / "spec" / "config.toml", "rb") as f:
        spec = tomllib.load(f)
    rows = ["| parameter | type | default | range | meaning |", "| --- | --- | --- | --- | --- |"]
    def value(v):
        return int(v) if isinstance(v, bool) else v

    for p in spec.get("parameter", []):
        low, high = p.get("min"), p.get("max")
        span = "0, 1" if p.get("type") == "bit" else (
            "" if low is None else f"{low} .. {high}" if high is not None else f">= {low}")
        rows.append(f"| `{p['name']}` | {p.get('type', '')} | {value(p.get('default', ''))} | {span} "
                    f"| {p.get('meaning', '').replace('|', '/')} |")
    rules = [f"- `{r['kind']}`: " + (", ".join(f"`{x}`" for x in r["params"]) if "params" in r
                                     else f"`{r['param']}` of {r['of']} while `{r['when']}`")
             + f": {r['why']}" for r in spec.get("rule", [])]
    configs = []
    for c in spec.get("config", []):
        changed = ", ".join(f"`{k}={value(v)}`" for k, v in c.items() if k != "name") or "the defaults"
        configs.append(f"| `{c['name']}` | {changed} |")
    return ("\n".join(rows) + "\n\nRules, checked in order after the ranges:\n\n" + "\n".join(rules)
            + "\n\n| configuration | parameters that differ from the defaults |\n| --- | --- |\n"
            + "\n".join(configs))


def _formal() -> list:
    from tcu_tools.formal import checks

    try:
        return checks.load(REPO)
    except checks.ChecksError as error:
        raise PluginError(f"docs: {error}") from None


def _formal_files() -> set[str]:
    """The miters' files (the check table links them)."""
    return {str(c.miter.top.relative_to(REPO)) for c in _formal()}


def _formal_checks() -> str:
    """A row per pair and kind with its parameter sets, and the CPU seconds
    docs/data/costs.toml records for them (a row's sets summed)."""
    from tcu_tools.costs import data

    rows = []  # [tier, pair, kind, miter file, parameter sets, log names]: a check's sets joined
    for c in _formal():
        top = c.miter.top.relative_to(REPO)
        if rows and rows[-1][:4] == [c.tier, c.pair, c.kind, top] and c.params:
            rows[-1][4].append(c.params_text)
            rows[-1][5].append(c.name)
        else:
            rows.append([c.tier, c.pair, c.kind, top, [c.params_text] if c.params else [], [c.name]])
    recorded = _costs().get("formal", {})

    def cpu(names: list[str]) -> str:
        have = [n for n in names if n in recorded]
        if not have:
            return "not recorded"
        text = data.text(sum(recorded[n]["cpu_s"] for n in have))
        return text if len(have) == len(names) else f"{text} ({len(have)} of {len(names)} sets)"

    return "\n".join(["| tier | pair | kind | miter | parameter sets | CPU s |",
                      "| --- | --- | --- | --- | --- | --: |"]
                     + [f"| {t} | {p} | `{k}` | [`{m.name}`](/src/{m}) | "
                        f"{'; '.join(f'`{x}`' for x in sets) or 'none'} | {cpu(names)} |"
                        for t, p, k, m, sets, names in rows])


def _bench_table() -> str:
    from tcu_tools import bench_table

    try:
        return bench_table.render(bench_table.load(REPO / "docs" / "data" / "bench.json"),
                                  "/src/docs/data/bench.json")
    except bench_table.BenchTableError as e:
        raise PluginError(f"docs: {e}") from e


def _explore_validation() -> str:
    return _run([sys.executable, "-m", "tcu_tools.explore.record", "--table"],
                "python -m tcu_tools.explore.record --table")


def _figure(name: str) -> str:
    # the energy estimate's figures come from $TCU_BIN's build's tcu module
    os.environ.setdefault("TCU_MODULE_DIR", str(Path(_tcu()).resolve().parent / "python"))
    text = _run([sys.executable, "-m", "tcu_tools.explore.doc_figures", name],
                f"python -m tcu_tools.explore.doc_figures {name}")
    return text.rstrip("\n").removeprefix(f"{name}: ")


@functools.cache
def _worked_sweep() -> Path:
    """The docs' worked sweep (tests/explore/worked_sweep.toml) run by the
    fast evaluator, with its plots, into a directory of this build."""
    os.environ.setdefault("TCU_MODULE_DIR", str(Path(_tcu()).resolve().parent / "python"))
    out = Path(tempfile.mkdtemp(prefix="tcu-docs-worked-"))
    _run([sys.executable, "-m", "tcu_tools.explore", "tests/explore/worked_sweep.toml",
          "--out", str(out), "--plots"], "tcu explore tests/explore/worked_sweep.toml --plots")
    return out


# The worked sweep's plots as the page names them.
WORKED_PLOTS = {"images/explore-worked-throughput-vs-area.png": "throughput_vs_area.png",
                "images/explore-worked-energy-vs-throughput.png": "energy_vs_throughput.png"}


def _worked_findings() -> str:
    return _run([sys.executable, "-m", "tcu_tools.explore.worked_findings", str(_worked_sweep())],
                "python -m tcu_tools.explore.worked_findings")


@functools.cache
def _costs() -> dict:
    from tcu_tools.costs import data

    try:
        return data.load(REPO / data.DATA)
    except data.CostsError as e:
        raise PluginError(f"docs: {e}") from e


def _cpu(spec: str, where: str) -> str:
    from tcu_tools.costs import data

    try:
        return data.figure(_costs(), spec)
    except data.CostsError as e:
        raise PluginError(f"docs: {where}: {e}") from e


def _bottom_up_datapaths() -> str:
    return _run([sys.executable, "-m", "tcu_tools.explore.bottom_up", "--table"],
                "python -m tcu_tools.explore.bottom_up --table")


GENERATED = {"cli-reference": _cli_reference, "variants": _variants,
             "phys-tables": _phys_tables, "phys-calibration": _phys_calibration,
             "config-spec": _config_spec, "formal-checks": _formal_checks,
             "bench-table": _bench_table, "explore-validation": _explore_validation,
             "bottom-up-datapaths": _bottom_up_datapaths, "worked-sweep": _worked_findings}


# ---- hooks -----------------------------------------------------------------------------


class _SourceFile(File):
    """A repository file copied as it is (a .md one is not rendered)."""

    def is_documentation_page(self) -> bool:
        return False

    def is_static_page(self) -> bool:
        return False

    def is_media_file(self) -> bool:
        return True


def on_files(files, config):
    """Every repository file a page links as /src/PATH (and every file of the
    variant table) is copied into the site; a missing one is left out, so
    the link is reported broken."""
    wanted = set(_class_files()) | _formal_files()
    for page in files.documentation_pages():
        wanted |= set(SRC_LINK.findall(Path(page.abs_src_path).read_text()))
    for rel in sorted(wanted):
        source = REPO / rel
        if source.is_file():
            files.append(_SourceFile.generated(config, f"src/{rel}", abs_src_path=str(source)))
    for name, plot in WORKED_PLOTS.items():
        files.append(_SourceFile.generated(config, name, abs_src_path=str(_worked_sweep() / plot)))
    return files


def on_page_markdown(markdown, page, config, files):
    def replace(match):
        kind, arg = match.groups()
        if kind == "tcu":
            return _tcu_block(arg)
        if kind == "figure":
            return _figure(arg)
        if kind == "cpu":
            return _cpu(arg, page.file.src_uri)
        if arg not in GENERATED:
            raise PluginError(f"docs: {page.file.src_uri}: unknown marker 'generated: {arg}'")
        return GENERATED[arg]()

    return MARKER.sub(replace, markdown)
