"""tcu_tools.formal without Yosys: formal/checks.toml read into checks (one
per parameter set, the first parameter outermost), a malformed checks file
refused with its file, check and reason, and the bit-blaster's plant."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tcu_tools import source_dir
from tcu_tools.formal import checks
from tcu_tools.formal.cli import main

ROOT = source_dir()
GOOD_MITER = '[miter.word_mux]\nrtl = ["tcu_word_mux_synth.sv", "tcu_word_mux_fast.sv"]\n'


def test_parameter_sets_in_order(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text(GOOD_MITER + '[[check]]\ntier = "full"\npair = "p"\nkind = "comb"\n'
                 'miter = "word_mux"\nparams = { Width = [1, 32], Words = [3, 5] }\n')
    got = [c.params_text for c in checks.load(ROOT, f)]
    assert got == ["Width=1 Words=3", "Width=1 Words=5", "Width=32 Words=3", "Width=32 Words=5"]
    assert checks.load(ROOT, f)[0].name == "word_mux.Width-1_Words-3"
    assert checks.load(ROOT, f)[0].timeout == 900


def test_first_set_of_each_check(tmp_path, capsys):
    """--first-set keeps one parameter set per check of the file, the first."""
    f = tmp_path / "c.toml"
    check = ('[[check]]\ntier = "full"\npair = "{}"\nkind = "comb"\n'
             'miter = "word_mux"\nparams = {{ Width = [1, 32], Words = [{}] }}\n')
    f.write_text(GOOD_MITER + check.format("p", "3, 5") + check.format("q", "2"))
    assert main(["--list", "--first-set", "--checks", str(f)]) == 0
    lines = [line.split()[-2:] for line in capsys.readouterr().out.splitlines()]
    assert lines == [["Width=1", "Words=3"], ["Width=1", "Words=2"]]
    assert main(["--list", "--checks", str(f)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 6


def test_plant_and_with_plant_exclude_each_other(capsys):
    """--plant (every check planted) and --with-plant (each check and its
    planted twin) together are bad usage."""
    assert main(["--plant", "--with-plant", "--list"]) == 2
    assert "exclude each other" in capsys.readouterr().err


def test_log_names_distinct():
    """Each check of the project writes a log of its own."""
    names = [c.name for c in checks.load(ROOT)]
    assert len(names) == len(set(names))


def test_every_miter_of_the_project_has_a_plant():
    """The --plant run needs a Plant parameter in each miter's top (eq_miter;
    the gather's eq_gather); kind map plants by its rules' define."""
    for c in checks.load(ROOT):
        text = c.miter.top.read_text()
        if c.kind == "map":
            assert "TCU_FORMAL_PLANT" in (ROOT / "formal" / "shift_map.v").read_text()
        else:
            assert re.search(r"parameter\s+bit\s+Plant\b", text), c.pair


@pytest.mark.parametrize("check, message", [
    ('tier = "full"\npair = "p"\nkind = "sat"\nmiter = "word_mux"', "kind 'sat' is not one of"),
    ('tier = "fast"\npair = "p"\nkind = "comb"\nmiter = "word_mux"', "tier 'fast' is not one of"),
    ('tier = "full"\npair = "p"\nkind = "comb"\nmiter = "mux"', "miter 'mux' is not one of"),
    ('tier = "full"\npair = "p"\nkind = "comb"\nmiter = "word_mux"\nparams = { Words = 3 }',
     "params must be Name = \\[integers"),
    ('tier = "full"\npair = "p"\nkind = "comb"\nmiter = "word_mux"\ntimeout = -1',
     "timeout must be a positive"),
    ('tier = "full"\npair = "p"\nkind = "comb"\nmiter = "word_mux"\nstages = 2',
     "unknown key\\(s\\) stages"),
    ('tier = "full"\npair = "p"\nkind = "pipe"\nmiter = "word_mux"\nparams = { Words = [3] }',
     "kind pipe needs a parameter named \\*Stages"),
])
def test_bad_check_named(tmp_path, check, message):
    f = tmp_path / "bad.toml"
    f.write_text(GOOD_MITER + '[[check]]\ntier = "full"\npair = "ok"\nkind = "comb"\n'
                 f'miter = "word_mux"\n[[check]]\n{check}\n')
    with pytest.raises(checks.ChecksError, match=f"bad.toml: check 2 \\(p\\): {message}"):
        checks.load(ROOT, f)


def test_bad_miter_and_syntax(tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text('[miter.word_mux]\nrtl = ["tcu_no_such_unit.sv"]\n')
    with pytest.raises(checks.ChecksError, match="word_mux.*no file rtl/tcu_no_such_unit.sv"):
        checks.load(ROOT, f)
    f.write_text('[[check]]\ntier = "full\n')
    assert main(["--list", "--checks", str(f)]) == 2
    assert "bad.toml" in capsys.readouterr().err


RTLIL = r"""module \m
  wire width 2 input 1 \s
  wire width 2 input 2 \a
  wire width 4 input 3 \b
  wire width 2 output 4 \y
  cell $pmux \p
    parameter \WIDTH 2
    parameter \S_WIDTH 2
    connect \A \a
    connect \B \b
    connect \S \s
    connect \Y \y
  end
end
"""


def test_blast_plant_changes_the_map(tmp_path):
    """The bit-blaster's --plant (kind blast's fault) changes the AIG of a $pmux."""
    il = tmp_path / "m.il"
    il.write_text(RTLIL)
    out = {}
    for plant in (False, True):
        aig = tmp_path / f"{plant}.aig"
        subprocess.run([sys.executable, "-m", "tcu_tools.formal.blast", str(aig), str(il),
                        "--top", "\\m"] + ["--plant"] * plant, check=True, capture_output=True)
        out[plant] = aig.read_bytes()
    assert out[False] != out[True]
