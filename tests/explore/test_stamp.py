"""The characterization's stamp (tcu_tools.phys.stamp): an RTL change in a
temporary copy of the tree makes the data file stale and tcu explore
refuses it, naming what changed and the refresh command; a change that
leaves the design as it is (a comment) does not; a tool change stales
every entry; every kind of table that carries a stamp is checked, a
table that other tools append naming its own command; the repository's
own data file is fresh."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcu_tools import source_dir
from tcu_tools.phys import datafile, stamp

REPO = source_dir()  # the checkout holding the working directory
MUX = "tcu_sparse_mux.sv"


def entries_of(rtl: Path) -> dict:
    """A small data file's entries (two glue points) stamped against `rtl`."""
    real = datafile.load(REPO / "spec" / "phys_osu018.toml")
    data = {k: v for k, v in real.items()
            if k not in stamp.KINDS + ("datapath",)}
    data["point"] = [dict(p) for p in real["point"]
                     if p["unit"] in ("tcu_sparse_mux", "tcu_datapath_ctrl")]
    tools = datafile.tool_versions()
    for kind, entry in stamp.entries(data):
        entry.update(stamp.stamp_of(kind, entry, rtl, tools["yosys"]))
    data["rtl_sha256"] = stamp.file_hashes(data, rtl)
    data["tools"] = tools
    return data


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A copy of spec/ and rtl/ (a checkout: a subprocess run in it works on
    it), its own design-hash cache."""
    for d in ("spec", "rtl"):
        shutil.copytree(REPO / d, tmp_path / d)
    shutil.copy(REPO / "VERSION", tmp_path / "VERSION")
    monkeypatch.setenv("TCU_PHYS_STAMP_CACHE", str(tmp_path / "stamp-cache"))
    return tmp_path


def plant_logic_change(rtl: Path, name: str = MUX) -> None:
    """The file's first assignment inverted (the sparse mux's by default):
    another design."""
    path = rtl / name
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines) if line.lstrip().startswith("assign "))
    lhs, rhs = lines[i].split("=", 1)
    lines[i] = f"{lhs}= ~({rhs.strip().rstrip(';')});\n"
    path.write_text("".join(lines))


def test_a_logic_change_is_stale_and_a_comment_is_not(tree):
    rtl = tree / "rtl"
    data = entries_of(rtl)
    tools = data["tools"]
    assert stamp.staleness(data, tools, rtl) == []
    (rtl / MUX).write_text((rtl / MUX).read_text() + "// a comment changes no logic\n")
    assert stamp.staleness(data, tools, rtl) == []
    plant_logic_change(rtl)
    reasons = stamp.staleness(data, tools, rtl)
    assert len(reasons) == 1, reasons
    assert "1 entry is not of this RTL (another design than the one measured): [[point]] " \
           "tcu_sparse_mux" in reasons[0]
    assert "rtl/tcu_sparse_mux.sv changed" in reasons[0]
    assert "tcu_datapath_ctrl" not in reasons[0]


def test_entries_stamped_in_the_head_only(tree):
    """A data file whose writer stamped only its head (each file's hash):
    an entry is fresh while its files are those, stale once one differs
    (a comment too: without its design's hash nothing tells)."""
    rtl = tree / "rtl"
    data = entries_of(rtl)
    for _, entry in stamp.entries(data):
        del entry["rtl_files"], entry["rtl_design"]
    assert stamp.staleness(data, data["tools"], rtl) == []
    ctrl = rtl / "tcu_datapath_ctrl.sv"
    ctrl.write_text(ctrl.read_text() + "// a comment\n")
    reasons = stamp.staleness(data, data["tools"], rtl)
    assert "1 entry is not of this RTL" in reasons[0], reasons
    assert "[[point]] tcu_datapath_ctrl" in reasons[0] and "tcu_sparse_mux" not in reasons[0]


def test_a_tool_change_stales_every_entry(tree):
    data = entries_of(tree / "rtl")
    tools = dict(data["tools"], yosys="Yosys 9.99")
    reasons = stamp.staleness(data, tools, tree / "rtl")
    assert reasons[-1] == "every entry is stale"
    assert "yosys is 'Yosys 9.99'" in reasons[0]
    unstamped = {k: v for k, v in data.items() if k != "rtl_sha256"}
    assert stamp.staleness(unstamped, data["tools"], tree / "rtl") == [
        "it carries no stamp (rtl_sha256, tools)"]


def test_tcu_explore_refuses_a_stale_characterization(tree):
    """The whole path: tcu explore on a copy whose RTL changed after its
    data file was stamped exits 2 naming the entry, the file and the
    refresh command."""
    data = entries_of(tree / "rtl")
    points = data.pop("point")
    text = "".join(datafile._table("", {k: v for k, v in data.items()}))
    text += "".join("\n" + datafile._table("[[point]]", p) for p in points)
    (tree / "spec" / "phys_osu018.toml").write_text(text)
    command = [sys.executable, "-m", "tcu_tools.explore", "--axis", "IntStages=1,2",
               "--workload", "resnet50_224", "--out", str(tree / "out")]
    try:
        from tcu_tools.explore import fast
        fast.tcu_module()
    except fast.UsageError as error:  # a build without the Python module (the ASan build)
        pytest.skip(str(error))
    fresh = subprocess.run(command + ["--bench"], cwd=tree, capture_output=True, text=True)
    assert "stale" not in fresh.stderr, fresh.stderr
    plant_logic_change(tree / "rtl")
    proc = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert "the characterization is stale" in proc.stderr
    assert "[[point]] tcu_sparse_mux" in proc.stderr and "rtl/tcu_sparse_mux.sv changed" in \
        proc.stderr
    assert "refresh it with: " + stamp.REFRESH in proc.stderr


def test_a_comment_is_fresh_but_not_exact_until_restamped(tree):
    """stamp.exact, the repository's check: an entry whose files changed is
    refused until restamp records them, which it does only where the design
    is the one measured (a comment, not a logic change). The control's
    sources (units.sources_of) hold the sparse mux's file, not its logic."""
    rtl = tree / "rtl"
    data = entries_of(rtl)
    tools = data["tools"]
    assert stamp.exact(data, tools, rtl) == []
    (rtl / MUX).write_text((rtl / MUX).read_text() + "// a comment changes no logic\n")
    assert stamp.staleness(data, tools, rtl) == []
    (reason,) = stamp.exact(data, tools, rtl)
    assert reason.startswith("2 entries record other RTL sources than this checkout's: "
                             "[[point]] tcu_sparse_mux, [[point]] tcu_datapath_ctrl "
                             "(rtl/tcu_sparse_mux.sv changed); "), reason
    assert reason.endswith(stamp.REFRESH)
    design = [e["rtl_design"] for _, e in stamp.entries(data)]
    assert len(stamp.restamp(data, rtl, tools["yosys"])) == 2
    assert [e["rtl_design"] for _, e in stamp.entries(data)] == design
    assert stamp.exact(data, tools, rtl) == []
    plant_logic_change(rtl)
    assert [e["unit"] for _, e in stamp.restamp(data, rtl, tools["yosys"])] == [
        "tcu_datapath_ctrl"]
    (reason,) = stamp.exact(data, tools, rtl)
    assert reason.startswith("1 entry records other RTL sources than this checkout's: "
                             "[[point]] tcu_sparse_mux (rtl/tcu_sparse_mux.sv changed)"), reason
    assert "1 entry is not of this RTL" in stamp.staleness(data, tools, rtl)[0]


def test_every_kind_of_stamped_table_is_checked():
    """Every table kind of the repository's data file but the compositions
    ([[datapath]], derived from the points) is one the stamp checks, and
    each carries a stamp; an [[engine_glue]], [[engine_regs]],
    [[engine_regs_toggles]] or [[glue]] table measured from other sources
    is refused by stamp.exact, naming the table and the command in the
    data file's head that re-measures it (no Yosys run)."""
    data = datafile.load(REPO / "spec" / "phys_osu018.toml")
    tables = {k for k, v in data.items() if isinstance(v, list) and v and isinstance(v[0], dict)}
    assert tables - {"datapath"} == set(stamp.KINDS), tables
    for kind, entry in stamp.entries(data):
        assert set(stamp.KEYS) <= set(entry), (kind, entry)
    tools = datafile.tool_versions()
    for kind in stamp.APPENDED:
        planted = {k: ([dict(e) for e in v] if k == kind else v) for k, v in data.items()}
        planted[kind][-1]["rtl_files"] = "0" * 16
        (reason,) = stamp.exact(planted, tools)
        label = stamp.entry_label(kind, planted[kind][-1])
        assert reason.startswith(f"1 entry records other RTL sources than this checkout's: "
                                 f"{label}"), reason
        command = data[stamp.COMMAND_KEYS[kind]]
        assert reason.endswith(f"a changed [[{kind}]] table is re-measured by: {command}"), reason


def test_an_appended_table_of_other_logic_is_stale(tree):
    """A [[glue]] table (tcu_datapath_ctrl's) whose RTL's logic changed is
    refused as a stale [[point]] is, naming its own command, not --refresh
    (which cannot re-measure it)."""
    rtl = tree / "rtl"
    real = datafile.load(REPO / "spec" / "phys_osu018.toml")
    data = entries_of(rtl)
    data["glue"] = [dict(g) for g in real["glue"] if g["unit"] == "tcu_datapath_ctrl"]
    tools = data["tools"]
    data["glue"][0].update(stamp.stamp_of("glue", data["glue"][0], rtl, tools["yosys"]))
    assert stamp.staleness(data, tools, rtl) == []
    plant_logic_change(rtl, "tcu_datapath_ctrl.sv")
    (reason,) = stamp.staleness(data, tools, rtl)
    assert "[[glue]] tcu_datapath_ctrl" in reason and "[[point]] tcu_datapath_ctrl" in reason
    assert "rtl/tcu_datapath_ctrl.sv changed" in reason
    assert reason.endswith(f"re-measure with: {stamp.REFRESH}; re-measure the [[glue]] tables "
                           f"with: {real['glue_command']}"), reason


def test_the_repositorys_data_file_is_fresh():
    """Its stamps are this checkout's sources and tools exactly (no Yosys
    run): stale or merely behind the RTL, it fails, naming --refresh."""
    data = datafile.load(REPO / "spec" / "phys_osu018.toml")
    assert stamp.exact(data, datafile.tool_versions()) == []


def test_figures_from_an_earlier_run_keep_their_stamp(tree, tmp_path):
    """datafile.write of figures taken from earlier runs (--from-json): an
    entry keeps the stamp of the RTL it was measured from (here the sparse
    mux's of a planted logic change: stale), and one that carries no stamp
    is not stamped with this tree (UNRECORDED: stale); figures measured
    here (measured_here) are stamped with this tree."""
    rtl = tree / "rtl"
    plant_logic_change(rtl)
    planted = entries_of(rtl)
    mux, ctrl = ({**p} for p in planted["point"])
    del ctrl["rtl_files"], ctrl["rtl_design"]
    out = tmp_path / "earlier.toml"

    def written(measured_here: bool) -> list[str]:
        datafile.write(out, [dict(mux), dict(ctrl)], 200, 1, planted["tools"],
                       measured_here=measured_here)
        return stamp.staleness(datafile.load(out), planted["tools"])

    (reasons,) = written(measured_here=False)
    assert "2 entries are not of this RTL" in reasons, reasons
    assert "[[point]] tcu_sparse_mux" in reasons
    assert "[[point]] tcu_datapath_ctrl (measured from RTL not recorded)" in reasons
    (reasons,) = written(measured_here=True)
    assert "1 entry is not of this RTL" in reasons and "[[point]] tcu_sparse_mux" in reasons
    assert "tcu_datapath_ctrl" not in reasons
