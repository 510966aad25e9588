"""Tests of the configuration spec (spec/config.toml): its reader's errors,
the generator's outputs, and -- with a fault planted in a copy of the RTL or
the spec -- that tests/spec/rtl_check.py catches each kind of disagreement
(rtl_check.py itself, on the real tree, is CTest's config_spec_rtl)."""
import dataclasses
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rtl_check  # beside this file (pytest puts its folder on the path)
from tcu_tools import source_dir
from tcu_tools import spec as tcu_spec
from tcu_tools.spec import gen_config

ROOT = source_dir()  # the checkout holding the working directory

SPEC = tcu_spec.load()


# ---- the spec's reader: bad input named by file, line and reason ---------
def write_spec(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def edited_spec(tmp_path, old, new):
    text = tcu_spec.SPEC_FILE.read_text()
    assert old in text
    return write_spec(tmp_path, text.replace(old, new, 1))


def line_of(path, needle):
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_the_spec_loads():
    assert SPEC.names()[:2] == ["Int4MacsPerCycle", "E2m1MacsPerCycle"]
    assert SPEC.parameter("SynthImpl").default == 0
    assert set(SPEC.configs) >= {"default", "small"}


def test_not_toml(tmp_path):
    path = write_spec(tmp_path, "[[parameter]]\nname = \n")
    with pytest.raises(tcu_spec.SpecError, match=rf"{re.escape(str(path))}: not valid TOML: .*line 2"):
        tcu_spec.load(path)


def test_unknown_key_names_the_line(tmp_path):
    path = edited_spec(tmp_path, 'default = 256\n', 'defualt = 256\n')
    line = line_of(path, "defualt")
    with pytest.raises(tcu_spec.SpecError) as error:
        tcu_spec.load(path)
    # The line of the [[parameter]] table holding the bad key.
    assert re.match(rf"{re.escape(str(path))}:(\d+): \[\[parameter\]\] #3: unknown key 'defualt'",
                    str(error.value))
    assert 0 < line - int(str(error.value).split(":")[1]) < 6


def test_default_out_of_range(tmp_path):
    path = edited_spec(tmp_path, "default = 64\nmin = 1\nmax = 64", "default = 65\nmin = 1\nmax = 64")
    with pytest.raises(tcu_spec.SpecError, match=r"config.toml:\d+: \[\[parameter\]\] #13: default "
                       r"out of range: WordsPerCycle=65: must be 1..64"):
        tcu_spec.load(path)


def test_bit_default_must_be_a_boolean(tmp_path):
    path = edited_spec(tmp_path, "default = true", "default = 1")
    with pytest.raises(tcu_spec.SpecError, match="Int4Enable: a bit's default is true or false"):
        tcu_spec.load(path)


def test_rule_with_an_unknown_parameter(tmp_path):
    path = edited_spec(tmp_path, 'when = "F64Enable"', 'when = "F64Enabled"')
    with pytest.raises(tcu_spec.SpecError,
                       match=r"config.toml:\d+: \[\[rule\]\] #5: unknown parameter 'F64Enabled'"):
        tcu_spec.load(path)


def test_named_configuration_breaking_a_rule(tmp_path):
    path = edited_spec(tmp_path, "Int4MacsPerCycle = 256", "Int4MacsPerCycle = 96")
    line = line_of(path, 'name = "small"') - 1
    with pytest.raises(tcu_spec.SpecError, match=rf"config.toml:{line}: \[\[config\]\] #2: "
                       r"configuration 'small': Int4MacsPerCycle=96 gives 3 int4 units"):
        tcu_spec.load(path)


def test_unit_lanes_disagreeing_with_a_rule(tmp_path):
    path = edited_spec(tmp_path, "lanes = 64\n", "lanes = 32\n")
    with pytest.raises(tcu_spec.SpecError, match=r"config.toml:\d+: \[\[rule\]\]: E2m1MacsPerCycle "
                       r"counted in units of 64, but unit 'e2m1' has lanes = 32"):
        tcu_spec.load(path)


def test_family_on_no_unit(tmp_path):
    path = edited_spec(tmp_path, 'families = ["f64"]', 'families = []')
    with pytest.raises(tcu_spec.SpecError, match=r"\[\[unit\]\] #3: unit 'f64': families is a list"):
        tcu_spec.load(path)
    path = edited_spec(tmp_path, 'families = ["f64"]', 'families = ["f16"]')
    with pytest.raises(tcu_spec.SpecError, match="family 'f16' runs on 2 units"):
        tcu_spec.load(path)


def test_enum_values_beyond_its_bits(tmp_path):
    path = edited_spec(tmp_path, 'bits = 2\nsv_type = "roundmode_e"', 'bits = 1\nsv_type = "roundmode_e"')
    with pytest.raises(tcu_spec.SpecError, match=r"\[\[enum\]\] #3: enum 'rounding': 4 values do "
                       "not fit 1 bits"):
        tcu_spec.load(path)


def test_params_command(capsys):
    assert tcu_spec.main(["params", "synth_core"]) == 0
    assert capsys.readouterr().out == ("Int4MacsPerCycle=32 E2m1MacsPerCycle=64 F16FmasPerCycle=4 "
                                       "F64FmasPerCycle=4 WordsPerCycle=1 DWordsPerCycle=1\n")
    assert tcu_spec.main(["params", "lint_no_int4_f16", "--form", "verilator"]) == 0
    assert capsys.readouterr().out.startswith("-GInt4Enable=0 -GF16Enable=0 ")
    assert tcu_spec.main(["params", "nope"]) == 1
    assert "no configuration 'nope'" in capsys.readouterr().err


def test_parameter_given_twice(tmp_path):
    path = edited_spec(tmp_path, 'name = "E2m1MacsPerCycle"', 'name = "Int4MacsPerCycle"')
    with pytest.raises(tcu_spec.SpecError, match="parameter 'Int4MacsPerCycle' given twice"):
        tcu_spec.load(path)


# ---- configurations: the messages the configure step shows ----------------
@pytest.mark.parametrize("text, message", [
    ("Int4MacsPerCycle=96", "Int4MacsPerCycle=96 gives 3 int4 units: an odd count above 1"),
    ("F64FmasPerCycle=6;IntStages=1", "F64FmasPerCycle=6: must be a positive multiple of 4"),
    ("Int4Enable=0 E2m1Enable=0 F16Enable=0 F64Enable=0", "are all 0"),
    ("SparseEnable=2", "SparseEnable=2: a bit parameter is 0 or 1"),
    ("Int4MacPerCycle=64", "unknown parameter 'Int4MacPerCycle'"),
    ("FmaStages=two", "FmaStages=two: not a non-negative integer"),
    ("WordsPerCycle=65", "WordsPerCycle=65: must be 1..64"),
    ("Int4MacsPerCycle", "'Int4MacsPerCycle' is not Param=Value"),
    ("SynthImpl=2", "SynthImpl=2: a bit parameter is 0 or 1"),
])
def test_own_configuration_refused(text, message):
    with pytest.raises(tcu_spec.ConfigError) as error:
        gen_config.resolve(SPEC, [f"bad={text}"])
    assert str(error.value).startswith("configuration 'bad' (TCU_CONFIG_bad): ")
    assert message in str(error.value)


def test_own_configuration_resolved():
    resolved = gen_config.resolve(SPEC, ["pt=Int4MacsPerCycle=64;F64Enable=1'b0", "small"])
    assert resolved["pt"]["Int4MacsPerCycle"] == 64 and resolved["pt"]["F64Enable"] == 0
    assert resolved["pt"]["IntStages"] == SPEC.parameter("IntStages").default
    assert resolved["small"]["DWordsPerCycle"] == 32


def test_unknown_configuration_name():
    with pytest.raises(tcu_spec.ConfigError, match="unknown configuration 'nope': give its "
                       r"parameters with -DTCU_CONFIG_nope=.*\(known: default, small"):
        gen_config.resolve(SPEC, ["nope"])


# ---- the generator's outputs -----------------------------------------------
def test_generated_outputs(tmp_path):
    assert gen_config.main([str(tmp_path), "--config", "default", "--config", "small"]) == 0
    header = (tmp_path / "include" / "tcu" / "datapath_config.h").read_text()
    source = (tmp_path / "datapath_config.cpp").read_text()
    cmake = (tmp_path / "tcu_configs.cmake").read_text()
    for p in SPEC.parameters:
        value = ("true" if p.default else "false") if p.type == "bit" else str(p.default)
        assert f" {p.field} = {value};" in header
        assert f"a.{p.field} == b.{p.field}" in source
        assert f'{{"{p.name}", int(c.{p.field})}}' in source
        assert f"{p.name}=" in cmake  # every parameter is Verilator's -G
    for rule in SPEC.rules:  # every rule's message, as the spec words it
        message = rule.error(rule.counterexample(SPEC))
        assert message.split("=")[0] in source
        assert rule.why in source
    assert "set(TCU_CONFIG_RESOLVED_small Int4MacsPerCycle=256 " in cmake
    enums = (tmp_path / "include" / "tcu" / "spec_enums.h").read_text()
    check = (tmp_path / "capi_enums_check.cpp").read_text()
    for enum in SPEC.enums.values():
        body = enums.split(f"enum class {enum.cpp_type} {{\n")[1].split("};")[0]
        assert [line.split(",")[0].strip() for line in body.splitlines()] == \
            [v.cpp for v in enum.values]
        for v in enum.values:
            assert f"static_assert({v.c} == {v.code}," in check
    for enum in SPEC.enums.values():  # to_string: the values' names, by code
        names = ", ".join(f'"{v.name}"' for v in enum.values)
        assert f"k{enum.cpp_type}Names[] = {{{names}}};" in enums
        assert f"constexpr const char* to_string({enum.cpp_type} v)" in enums
    front_end = (tmp_path / "include" / "tcu" / "front_end_config.h").read_text()
    for f in SPEC.frontend:
        assert f"int {f.name} = {f.default};" in front_end
    # Every named configuration of the spec, built or not (spec_configurations).
    for name in SPEC.configs:
        assert f'{{"{name}", [] {{' in source.split("spec_configurations()")[1]


def test_generator_reports_a_bad_configuration(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tcu_tools.spec.gen_config", str(tmp_path),
                             "--config", "bad=E2m1MacsPerCycle=32"], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.startswith("configuration 'bad' (TCU_CONFIG_bad): E2m1MacsPerCycle=32: "
                                     "must be a positive multiple of 64")
    assert not (tmp_path / "tcu_configs.cmake").exists()


# ---- the RTL checker fails on planted disagreements -------------------------
def copy_tree(tmp_path):
    for folder in ("rtl", "tb"):  # tb/ holds the DPI-C package too
        shutil.copytree(ROOT / folder, tmp_path / folder)
    shutil.copytree(ROOT / "bindings" / "c" / "include", tmp_path / "bindings" / "c" / "include")
    return tmp_path


def plant(path, old, new):
    text = path.read_text()
    assert old in text, f"{path}: {old!r} not found"
    path.write_text(text.replace(old, new, 1))


def test_planted_default_disagreement_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "rtl" / "tcu_datapath.sv", "F64FmasPerCycle  = tcu_pkg::F64FmasPerCycle",
          "F64FmasPerCycle  = 8")
    design = rtl_check.Design(root)
    _, problems = rtl_check.check_defaults(SPEC, design)
    assert problems == ["tcu_datapath: parameter int unsigned F64FmasPerCycle = 8; the spec has "
                        "int unsigned F64FmasPerCycle = 16"]
    _, problems = rtl_check.check_package_defaults(SPEC, design)
    assert len(problems) == 1 and problems[0].startswith("rtl/tcu_datapath.sv:")
    assert problems[0].endswith("tcu_datapath: F64FmasPerCycle defaults to '8', not "
                                "tcu_pkg::F64FmasPerCycle (spec/config.toml's, generated)")


def test_planted_literal_default_equal_to_the_spec_is_caught(tmp_path):
    # A literal that restates the default (the value right) is still refused.
    root = copy_tree(tmp_path)
    plant(root / "tb" / "tcu_sim_top.sv", "GatherBypass     = tcu_pkg::GatherBypass",
          "GatherBypass     = 1'b1")
    design = rtl_check.Design(root)
    assert rtl_check.check_defaults(SPEC, design)[1] == []
    _, problems = rtl_check.check_package_defaults(SPEC, design)
    assert len(problems) == 1 and "tcu_sim_top: GatherBypass defaults to '1'b1'" in problems[0]


@pytest.mark.parametrize("path, old, new", [
    ("rtl/tcu_pkg.sv", "FAM_F16         = 3'd2", "FAM_F16         = 3'd5"),
    ("rtl/tcu_pkg.sv", "INT4_DOT_LANES = 32", "INT4_DOT_LANES = 16"),
    ("rtl/tcu_pkg.sv", "32'd1023", "32'd1024"),  # f64's bias in the format table
    ("rtl/tcu_pkg.sv", "FAMILY_BITS = 3", "FAMILY_BITS = 4"),
    ("rtl/tcu_pkg.sv", "localparam int unsigned FmaStages        = 2;",
     "localparam int unsigned FmaStages        = 3;"),
    (str(gen_config.DPI_PACKAGE), "TCU_OPERAND_META    = 4", "TCU_OPERAND_META    = 3"),
    (str(gen_config.C_HEADER), "TCU_ROUND_RP = 3", "TCU_ROUND_RP = 4"),
    (str(gen_config.C_HEADER), "} tcu_rounding;", "  , TCU_ROUND_RNA = 4\n} tcu_rounding;"),
])
def test_stale_generated_section_is_caught(tmp_path, path, old, new):
    root = copy_tree(tmp_path)
    plant(root / path, old, new)
    _, problems = rtl_check.check_generated(SPEC, rtl_check.Design(root))
    assert len(problems) == 1
    assert problems[0].startswith(f"{root / path}:")
    assert problems[0].endswith("its generated section is not "
                                f"{SPEC.path}'s: run python -m tcu_tools.spec.gen_config --rtl")
    # --rtl writes it back; then it agrees.
    assert gen_config.main(["--rtl", "--root", str(root)]) == 0
    assert (root / path).read_text() == (ROOT / path).read_text()


def test_capi_enum_check_fails_on_a_changed_code(tmp_path):
    # The generated C++ check compiled against a copy of the C API header
    # with one code changed stops the compiler, naming the constant.
    header = (ROOT / "bindings" / "c" / "include" / "tcu_golden.h").read_text()
    assert "TCU_ROUND_RM = 2," in header
    (tmp_path / "tcu_golden.h").write_text(header.replace("TCU_ROUND_RM = 2,", "TCU_ROUND_RM = 3,"))
    check = tmp_path / "check.cpp"
    check.write_text(gen_config.c_enum_check(SPEC))
    compile_ = ["c++", "-std=c++17", "-fsyntax-only", "-I", str(tmp_path), str(check)]
    result = subprocess.run(compile_, capture_output=True, text=True)
    assert result.returncode != 0
    assert "TCU_ROUND_RM is not 2, the code of [[enum]] rounding 'rm'" in result.stderr
    (tmp_path / "tcu_golden.h").write_text(header)
    assert subprocess.run(compile_, capture_output=True, text=True).returncode == 0


def test_planted_type_disagreement_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "tb" / "tcu_sim_top.sv", "parameter bit          GatherBypass",
          "parameter int unsigned GatherBypass")
    _, problems = rtl_check.check_defaults(SPEC, rtl_check.Design(root))
    assert problems == ["tcu_sim_top: parameter int unsigned GatherBypass = 1; the spec has "
                        "bit GatherBypass = 1"]


def test_planted_missing_parameter_is_caught(tmp_path):
    spec = dataclasses.replace(SPEC, parameters=SPEC.parameters + [tcu_spec.Parameter(
        name="NewKnob", type="int", default=3, meaning="planted", modules=("tcu_datapath",))])
    _, problems = rtl_check.check_defaults(spec, rtl_check.Design(ROOT))
    assert sorted(problems) == [f"{m}: does not declare NewKnob (spec/config.toml)"
                                for m in ("tcu_core", "tcu_datapath", "tcu_sim_top")]


def test_planted_pass_through_fault_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "rtl" / "tcu_core.sv", ".E2m1MacsPerCycle(E2m1MacsPerCycle)",
          ".E2m1MacsPerCycle(1024)")
    _, problems = rtl_check.check_pass_through(SPEC, rtl_check.Design(root))
    assert len(problems) == 1
    assert problems[0].startswith("tcu_sim_top.u_core.u_datapath (tcu_datapath): "
                                  "E2m1MacsPerCycle = 1024, not the 256 given")


def test_planted_rule_disagreement_is_caught():
    # The spec planted with an int4 unit of 64 MACs: its counterexample (96)
    # stops the RTL with the odd-unit-count message instead.
    rule = dataclasses.replace(SPEC.rules[1], of=64)
    spec = dataclasses.replace(SPEC, rules=[rule], configs={})
    _, problems = rtl_check.check_rules(spec, rtl_check.Design(ROOT))
    assert len(problems) == 1  # the ranges (WordsPerCycle, DWordsPerCycle) agree
    assert problems[0].startswith("rule at config.toml:")
    assert "Int4MacsPerCycle=96: must be a positive multiple of 64" in problems[0]


def test_planted_rtl_message_disagreement_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    plant(root / "rtl" / "tcu_operand_router.sv", '"DWordsPerCycle=%0d: must be 1..64 (%s)"',
          '"DWordsPerCycle=%0d: must be 1 to 64 (%s)"')
    spec = dataclasses.replace(SPEC, rules=[], configs={})
    _, problems = rtl_check.check_rules(spec, rtl_check.Design(root))
    assert len(problems) == 2  # DWordsPerCycle=0 and =65
    assert all("DWordsPerCycle" in p and "must be 1 to 64" in p for p in problems)


def test_the_pairs_follow_the_naming_rule():
    checks, problems = rtl_check.check_pairs(SPEC, rtl_check.Design(ROOT))
    assert problems == [] and checks >= 15  # 10 files, 5 choosers


@pytest.mark.parametrize("path, old, new, message", [
    ("rtl/tcu_word_mux.sv", "begin : g_fast", "begin : g_index",
     "rtl/tcu_word_mux.sv:19: if (SynthImpl) blocks ['g_synth', 'g_index'] instantiate "
     "[['tcu_word_mux_synth'], ['tcu_word_mux_fast']]: the naming rule wants"),
    ("rtl/tcu_router_writeback.sv", "tcu_router_scatter_fast #(", "tcu_router_scatter_synth #(",
     "if (SynthImpl) blocks ['g_scatter_synth', 'g_scatter_fast'] instantiate "
     "[['tcu_router_scatter_synth'], ['tcu_router_scatter_synth']]"),
    ("rtl/tcu_int4_dot_fast.sv", "// Simulation flow only:", "// Simulation flow:",
     "rtl/tcu_int4_dot_fast.sv: a fast implementation without the marker"),
])
def test_planted_pair_naming_fault_is_caught(tmp_path, path, old, new, message):
    root = copy_tree(tmp_path)
    plant(root / path, old, new)
    _, problems = rtl_check.check_pairs(SPEC, rtl_check.Design(root))
    assert len(problems) == 1 and message in problems[0], problems


def test_planted_pair_without_its_twin_is_caught(tmp_path):
    root = copy_tree(tmp_path)
    (root / "rtl" / "tcu_word_mux_synth.sv").rename(root / "rtl" / "tcu_word_mux_tree.sv")
    _, problems = rtl_check.check_pairs(SPEC, rtl_check.Design(root))
    assert problems == ["rtl/tcu_word_mux_fast.sv: no rtl/tcu_word_mux_synth.sv beside it "
                        "(the pair's naming rule)"]


def test_to_string_follows_the_spec(tmp_path):
    # A value renamed in the spec renames what to_string gives, and nothing
    # else states the name.
    path = edited_spec(tmp_path, '{name = "meta", meaning',
                       '{name = "e", sv = "META", c = "META", cpp = "Meta", meaning')
    out = tmp_path / "out"
    assert gen_config.main([str(out), "--spec", str(path)]) == 0
    enums = (out / "include" / "tcu" / "spec_enums.h").read_text()
    assert 'kOperandNames[] = {"a", "b", "c", "d", "e", "scale_a", "scale_b"};' in enums
    assert "  kMeta,  // " in enums  # the other spellings as they were
    assert "static_assert(TCU_OPERAND_META == 4," in (out / "capi_enums_check.cpp").read_text()
    for source in ("model/src/instr.cpp", "model/src/layout.cpp", "model/src/encodings.cpp"):
        assert '"int4_sparse"' not in (ROOT / source).read_text()
        assert '"ue4m3", 7' not in (ROOT / source).read_text()
        assert not re.search(r'"r[nzmp]"', (ROOT / source).read_text()), source  # kRoundingNames


def test_the_format_table_is_the_spec_s():
    formats = {f.sv: f for f in SPEC.formats}
    assert [f.sv for f in SPEC.formats] == ["FP32", "FP64", "FP16", "E2M1", "UE8M0", "UE4M3"]
    assert (formats["FP64"].exp_bits, formats["FP64"].man_bits, formats["FP64"].bias) == \
        (11, 52, 1023)
    section = gen_config.sv_section(SPEC)
    assert "  } fp_format_e;\n  localparam int unsigned NUM_FP_FORMATS = 6;\n" in section
    assert "FP_BIAS     = {32'd7, 32'd127, 32'd1, 32'd15, 32'd1023, 32'd127};" in section


@pytest.mark.parametrize("old, new, message", [
    ('name = "ue4m3"\nsv = "UE4M3"', 'name = "fp8"\nsv = "UE4M3"',
     "format 'fp8' is not a value of [[enum]] elem_type"),
    ('sv = "UE4M3"', 'sv = "UE8M0"', "format 'ue4m3' (UE8M0) given twice"),
    ('sv = "FP16"\nexp_bits = 5', 'sv = "FP16"\nexp_bits = 0',
     "format 'f16': exp_bits at least 1"),
    ('sv = "E2M1"\nexp_bits = 2\nman_bits = 1\nbias = 1\nsign = true',
     'sv = "E2M1"\nexp_bits = 2\nman_bits = 1\nbias = 1\nsign = 1',
     "format 'e2m1': sign must be true or false, not 1"),
])
def test_bad_format_names_the_line(tmp_path, old, new, message):
    path = edited_spec(tmp_path, old, new)
    with pytest.raises(tcu_spec.SpecError) as error:
        tcu_spec.load(path)
    assert f"{path}:" in str(error.value) and "[[format]]" in str(error.value)
    assert message in str(error.value)


def c_enum_names(header: str, c_type: str) -> list[str]:
    """The enumerators of a C API enum, in order."""
    body = re.search(rf"typedef enum {c_type} \{{(.*?)\}}", header, re.S)
    return re.findall(r"^\s*(TCU_\w+)\s*=", body.group(1), re.M) if body else []


def test_capi_enums_are_the_spec_s():
    # The C API header's enumerators, exactly the spec's values in code order
    # (capi_enums_check.cpp pins each one's code; this catches one added or
    # left out).
    header = (ROOT / "bindings" / "c" / "include" / "tcu_golden.h").read_text()
    for enum in SPEC.enums.values():
        assert c_enum_names(header, enum.c_type) == [v.c for v in enum.values], enum.name
    planted = header.replace("TCU_ROUND_RP = 3", "TCU_ROUND_RP = 3,\n  TCU_ROUND_RNA = 4")
    assert c_enum_names(planted, "tcu_rounding") == \
        [v.c for v in SPEC.enums["rounding"].values] + ["TCU_ROUND_RNA"]


def test_port_widths_are_package_constants():
    checks, problems = rtl_check.check_port_widths(SPEC, rtl_check.Design(ROOT))
    assert problems == [] and checks > 200


@pytest.mark.parametrize("path, old, new, literal", [
    ("rtl/tcu_core.sv", "[tcu_pkg::TAG_BITS-1:0]               in_tag_i",
     "[15:0]                                in_tag_i", "15"),
    ("rtl/tcu_operand_router.sv", "[tcu_pkg::LANE_BITS*WordsPerCycle-1:0]",
     "[5*WordsPerCycle-1:0]", "5"),
])
def test_planted_port_width_literal_is_caught(tmp_path, path, old, new, literal):
    root = copy_tree(tmp_path)
    plant(root / path, old, new)
    _, problems = rtl_check.check_port_widths(SPEC, rtl_check.Design(root))
    assert len(problems) == 1 and problems[0].startswith(f"{path}: port ")
    assert f"the literal {literal} in its width" in problems[0]
