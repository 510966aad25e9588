"""tcu_tools.costs without a build: the data file read and refused, a
figure by its key, the merge of a run, the phases' times and the tests'
order read, and a formal run's logs taken as a chain."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tcu_tools import source_dir
from tcu_tools.costs import data, phases, tests
from tcu_tools.formal import record

RUN = '[[run]]\nname = "r"\ndate = "d"\n\n'
DATA = RUN + """[formal."a.X-1"]
run = "r"
tier = "default"
cpu_s = 10.0
tools = { yosys = 7.5, yosys-abc = 2.5 }

[formal."a.X-2"]
run = "r"
tier = "full"
cpu_s = 30.0
tools = { yosys = 20.0, yosys-abc = 10.0 }

[phase.one]
run = "r"
cpu_s = 3000

[phase.two]
run = "r"
cpu_s = 600.4
"""


def load(tmp_path, text):
    f = tmp_path / "costs.toml"
    f.write_text(text)
    return data.load(f)


def test_figures_by_key(tmp_path):
    d = load(tmp_path, DATA)
    assert data.figure(d, "formal/a.X-1") == "10"
    assert data.figure(d, "formal/a.*") == "40"
    assert data.figure(d, "formal/a.*@full") == "30"
    assert data.figure(d, "formal/a.*:yosys") == "28"  # 27.5, whole from 20, halves up
    assert data.figure(d, "formal/a.X-1:yosys") == "7.5"
    assert data.figure(d, "phase/one + phase/two") == "3,600"
    assert data.figure(d, "phase/* - formal/a.X-2") == "3,570"
    assert data.figure(d, "phase/one h") == "0.8"
    assert data.figure(d, "phase/* h") == "1.0"
    assert data.figure(d, "formal/a.* / 8") == "5"
    assert data.figure(d, "phase/one + phase/two / 2") == "1,800"  # left to right


@pytest.mark.parametrize("value, shown", [(13.1, "13.1"), (16.5, "16.5"), (19.96, "20"),
                                          (20.5, "21"), (2.0, "2"), (0.14, "0.1"),
                                          (1178.0, "1,178")])
def test_text(value, shown):
    assert data.text(value) == shown


@pytest.mark.parametrize("key, says", [("formal/b.*", "no [formal] entry matches 'b.*'"),
                                       ("formal/a.*@x", "of tier x"),
                                       ("formal/a.X-1:sat", "has no tool 'sat'"),
                                       ("nothing/a", "not SECTION/NAME"),
                                       ("phase/one % phase/two", "none of + - * /"),
                                       ("phase/one d", "only h")])
def test_bad_keys(tmp_path, key, says):
    d = load(tmp_path, DATA)
    with pytest.raises(data.CostsError, match=None) as error:
        data.figure(d, key)
    assert says in str(error.value)


@pytest.mark.parametrize("text, says", [
    (RUN + '[test.t]\nrun = "q"\ncpu_s = 1\n', "[test.\"t\"]: run 'q' is no [[run]]'s name"),
    (RUN + '[test.t]\nrun = "r"\ncpu_s = -1\n', "[test.\"t\"]: cpu_s must be"),
    (RUN + '[test.t]\nrun = "r"\ncpu_s = "many"\n', "[test.\"t\"]: cpu_s must be"),
    (RUN + '[tests.t]\nrun = "r"\ncpu_s = 1\n', "unknown table(s) tests"),
    ('[[run]]\ndate = "d"\n', "[[run]] 1: no name"),
    ('[[run]\n', "costs.toml"),
])
def test_malformed_refused(tmp_path, text, says):
    with pytest.raises(data.CostsError) as error:
        load(tmp_path, text)
    assert says in str(error.value)
    assert "costs.toml" in str(error.value)


def test_record_merges(tmp_path):
    f = tmp_path / "costs.toml"
    f.write_text(DATA)
    run = {"name": "s", "date": "e", "machine": "m", "command": "c", "how": "h", "tools": {}}
    data.record(f, run, "phase", {"one": {"cpu_s": 5.0}, "two": {"cpu_s": 6.0}})
    d = data.load(f)
    assert d["phase"]["one"] == {"cpu_s": 5.0, "run": "s"}
    assert d["formal"]["a.X-1"]["run"] == "r"  # the other table kept, and its run
    assert [r["name"] for r in d["run"]] == ["r", "s"]
    data.record(f, run, "formal", {"a.X-1": {"cpu_s": 1.0}, "a.X-2": {"cpu_s": 2.0}})
    assert [r["name"] for r in data.load(f)["run"]] == ["s"]  # r named by no entry


def test_phases_read(tmp_path):
    f = tmp_path / "times"
    f.write_text("setup 0m1.500s 0m0.250s 100.0 103.5\nmain-build 2m3.000s 0m7.000s 103.5 200\n")
    assert phases.read(f) == {"setup": {"cpu_s": 1.8, "wall_s": 3.5},
                              "main-build": {"cpu_s": 130.0, "wall_s": 96.5}}
    f.write_text("setup 0m1.500s 0m0.250s 100.0 103.5\nbad 1:02 0m0s 1 2\n")
    with pytest.raises(SystemExit) as error:
        phases.read(f)
    assert f"{f}:2: not bash's time" in str(error.value)



def test_phases_recorded(tmp_path, monkeypatch):
    """The recorder's run: its short name, the how, each tool's version
    (a tool that does not run is "?"), the phases under it."""
    times = tmp_path / "times"
    times.write_text("setup 0m1.500s 0m0.250s 100.0 103.5\n")
    record = tmp_path / "costs.toml"
    monkeypatch.setattr(phases, "TOOLS", {"python3": ["python3", "--version"],
                                          "absent": ["no-such-tool-here", "--version"]})
    assert phases.main([str(times), "--record", str(record), "--how", "a fresh clone",
                        "--name", "fresh"]) == 0
    d = data.load(record)
    run = d["run"][-1]
    assert run["name"] == "phases: fresh" and run["how"] == "a fresh clone"
    assert run["tools"]["python3"].startswith("Python 3") and run["tools"]["absent"] == "?"
    assert d["phase"]["setup"] == {"cpu_s": 1.8, "wall_s": 3.5, "run": "phases: fresh"}

def test_tests_ordered():
    def t(name, **props):
        return {"name": name, "properties": [{"name": k, "value": v} for k, v in props.items()]}
    listed = [t("user", FIXTURES_REQUIRED=["fx"]), t("cleanup", FIXTURES_CLEANUP=["fx"]),
              t("after", DEPENDS=["user"]), t("setup", FIXTURES_SETUP=["fx"])]
    order = [x["name"] for x in tests.ordered(listed)]
    assert order.index("setup") < order.index("user") < order.index("cleanup")
    assert order.index("user") < order.index("after")
    with pytest.raises(SystemExit, match="cycle"):
        tests.ordered([t("a", DEPENDS=["b"]), t("b", DEPENDS=["a"])])


def test_formal_logs_chain(tmp_path):
    """The logs of one run: each no older than the one before; an older one
    (an earlier run's) ends the chain, and the last is whole only when the
    run has finished."""
    def log(name, cpu, when):
        f = tmp_path / f"{name}.log"
        f.write_text(f"-- yosys: {cpu} CPU s, 9.0 s\nwork\n-- yosys-abc: 1.0 CPU s, 2.0 s\n")
        os.utime(f, (when, when))
    log("int4_dot.Stages-2", 80.0, 1000)
    log("e2m1_group_dots", 20.0, 2000)
    log("word_mux.Width-1_Words-1", 0.5, 500)  # left by an earlier run
    entries, _ = record.from_logs(source_dir(), tmp_path, "default", finished=True)
    assert {n: e["cpu_s"] for n, e in entries.items()} == {"int4_dot.Stages-2": 81.0,
                                                          "e2m1_group_dots": 21.0}
    assert entries["e2m1_group_dots"]["tools"] == {"yosys": 20.0, "yosys-abc": 1.0}
    entries, _ = record.from_logs(source_dir(), tmp_path, "default", finished=False)
    assert list(entries) == ["int4_dot.Stages-2"]


def test_formal_record(tmp_path, monkeypatch):
    """tcu-formal --record: the check's entry (its tools' CPU seconds from its
    log, their sum the check's within the driver's rounding), the run's
    machine and the Yosys version; the command without --record."""
    from tcu_tools.formal.cli import main
    monkeypatch.setenv("EQUIV_DIR", str(tmp_path / "logs"))
    monkeypatch.chdir(source_dir())
    out = tmp_path / "costs.toml"
    assert main(["--tier", "default", "frag_layout distinct", "--record", str(out)]) == 0
    d = data.load(out)
    entry = d["formal"]["layout_apart"]
    assert entry["pair"] == "frag_layout distinct tags apart" and entry["tier"] == "default"
    assert abs(sum(entry["tools"].values()) - entry["cpu_s"]) <= 0.1 * len(entry["tools"]) + 0.05
    (run,) = d["run"]
    assert run["command"] == "tcu-formal --tier default frag_layout distinct"
    assert run["tools"]["yosys"].startswith("Yosys") and "cores" in run["machine"]
