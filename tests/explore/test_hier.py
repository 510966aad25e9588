"""The full flow's bottom-up mapping (tcu_tools.phys.hier): the dot units a
datapath derives, by name and parameters, and the cache key of a unit."""
from tcu_tools.phys import hier


def test_derived_names_are_read():
    name = "$paramod\\tcu_int4_dot\\Stages=32'00000000000000000000000000000010\\SynthImpl=1'1"
    assert hier.parse_derived(name) == ("tcu_int4_dot", {"Stages": 2, "SynthImpl": 1})
    assert hier.parse_derived("$paramod$4306773c1d59\\tcu_int4_engine") is None
    assert hier.clean_name("tcu_int4_dot", {"Stages": 2, "SynthImpl": 1}) == \
        "tcu_int4_dot__Stages_2__SynthImpl_1"


def test_a_datapaths_units(tmp_path):
    # Two int4 units of one setting and one f16 unit: two derived modules, each
    # unit a chooser read at its synthesis form.
    leaves = hier.leaves_of("tcu_datapath", {"Int4MacsPerCycle": 64, "IntStages": 1,
                                             "E2m1Enable": 0, "F16FmasPerCycle": 4,
                                             "FmaStages": 1, "F64Enable": 0, "SynthImpl": 1},
                            tmp_path)
    assert sorted(leaves.values(), key=str) == [("tcu_f16_dot", {"FmaStages": 1, "SynthImpl": 1}),
                                                ("tcu_int4_dot", {"Stages": 1, "SynthImpl": 1})]


def test_the_unit_cache_is_keyed_by_parameters_and_tools():
    tools = {"yosys": "Yosys 0.23", "flow": "abc"}
    key = hier.unit_key("tcu_int4_dot", {"Stages": 2}, tools)
    assert key == hier.unit_key("tcu_int4_dot", {"Stages": 2}, dict(tools))
    assert key != hier.unit_key("tcu_int4_dot", {"Stages": 1}, tools)
    assert key != hier.unit_key("tcu_int4_dot", {"Stages": 2}, dict(tools, yosys="Yosys 0.24"))
