"""The fast evaluator of tcu_tools.explore (--fidelity fast): workloads
(suites, TOML files, ONNX models) and their errors, the timing model through
the tcu module, the composition, constraints, the Pareto front at scale and
the characterization's staleness (test_stamp.py). Needs the tcu Python module
(TCU_MODULE_DIR: the build's python/ folder)."""
import math
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from tcu_tools import source_dir
from tcu_tools.explore import cli, constraints, fast, pareto, params, workload_file
from tcu_tools.explore.fast_sweep import phys_data
from tcu_tools.explore.onnx_workload import read_onnx

REPO = source_dir()  # the checkout holding the working directory

INT4 = workload_file.FAMILY_PTX["int4"]
F16 = workload_file.FAMILY_PTX["f16"]


def tcu_module():
    try:
        return fast.tcu_module()
    except params.UsageError as error:
        pytest.skip(str(error))


def evaluator(gemms, data=None):
    tcu_module()
    return fast.Evaluator(workload_file.Workload("w", "", gemms), list(params.rtl_parameters()),
                          data or phys_data())


def point(**values):
    p = dict(params.rtl_parameters(), **params.RUN_DEFAULTS)
    p.update(values)
    p["rf_bandwidth"] = p["rf_bandwidth"] or p["WordsPerCycle"]
    return p


# ---- suites: their shapes against published figures -----------------------------

def test_llama2_7b_suite_has_the_published_parameter_count():
    w = workload_file.load("llama2_7b_prefill2048")
    weights = sum(g.n * g.k * g.count for g in w.gemms if "per head" not in g.name)
    # The embedding table (32000 x 4096) and 65 RMSNorm weight vectors
    # (2 per layer and the final one) are the rest of the published
    # 6,738,415,616 parameters of Llama-2-7b.
    assert weights + 32000 * 4096 + 65 * 4096 == 6_738_415_616
    assert {g.ptx for g in w.gemms} == {workload_file.FAMILY_PTX["e2m1"], F16}


def test_resnet50_suite_has_the_published_macs():
    w = workload_file.load("resnet50_224")
    # torchvision's resnet50: 4.09 GFLOPS (multiply-accumulates), 224x224.
    assert round(w.macs / 1e9, 2) == 4.09
    assert sum(g.count for g in w.gemms if g.name.startswith("conv")) == 53  # 1 + 48 + 4 shortcuts


# ---- workload files: errors name the file and line --------------------------------

@pytest.mark.parametrize("text,message", [
    ('name = "x"\n[[gemm]]\nfamily = "int4"\nm = 16\nn = 8\n', ":2: gemm 1: missing k"),
    ('[[gemm]]\nfamily = "int4"\nm = 16\nn = 8\nk = 64\n\n[[gemm]]\nfamily = "int9"\nm = 1\n'
     'n = 1\nk = 1\n', ":7: gemm 2: family 'int9' is none of"),
    ('[[gemm]]\nfamily = "int4"\nm = 16\nn = 8\nk = 64\ncount = 0\n', ":1: gemm 1: count must "
     "be at least 1"),
    ('[[gemm]]\nfamily = "int4"\nptx = "x"\nm = 16\nn = 8\nk = 64\n', "give family or ptx"),
    ('[[gemm]]\nfamily = "int4"\nm = "16"\nn = 8\nk = 64\n', "m must be an integer"),
    ('[[gemm]]\nfamily = "int4"\nm = 16\nn = 8\nk = 64\nbatch = 2\n', "unknown key 'batch'"),
    ('title = "x"\n', ":1: unknown key 'title'"),
    ('name = "x"\n', "no [[gemm]] tables"),
    ('[[gemm]\n', "not valid TOML"),
])
def test_bad_workload_files(tmp_path, text, message):
    path = tmp_path / "w.toml"
    path.write_text(text)
    with pytest.raises(params.UsageError) as error:
        workload_file.load(str(path))
    assert str(path) in str(error.value)
    assert message in str(error.value)


def test_unknown_suite_lists_the_suites():
    with pytest.raises(params.UsageError, match="no such file and no suite.*resnet50_224"):
        workload_file.load("resnet51")


# ---- ONNX -----------------------------------------------------------------------

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402


def save(tmp_path, nodes, inputs, outputs, inits=(), name="m.onnx"):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / name
    onnx.save(model, str(path))
    return path


def tensor(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def weight(name, shape):
    return helper.make_tensor(name, TensorProto.FLOAT, shape, [0.0] * math.prod(shape))


def test_onnx_matmul_gemm_conv(tmp_path):
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"], name="mm"),  # [2,3,64,32] x [32,16]
        helper.make_node("Gemm", ["a", "w2"], ["g"], name="fc", transB=1),  # (5x16) x (24x16)^T
        helper.make_node("Conv", ["img", "w3"], ["c"], name="conv", group=2, strides=[2, 2],
                         pads=[1, 1, 1, 1]),  # 1x8x16x16, 12 out, 3x3, two groups
        helper.make_node("Relu", ["c"], ["r"]),
    ]
    path = save(tmp_path, nodes, [tensor("x", [2, 3, 64, 32]), tensor("a", [5, 16]),
                                  tensor("img", [1, 8, 16, 16])],
                [tensor("h", None), tensor("g", None), tensor("r", None)],
                [weight("w1", [32, 16]), weight("w2", [24, 16]), weight("w3", [12, 4, 3, 3])])
    w = read_onnx(path, "f16")
    got = [(g.name, g.m, g.n, g.k, g.count, g.ptx) for g in w.gemms]
    assert got == [("mm", 64, 16, 32, 6, F16), ("fc", 5, 24, 16, 1, F16),
                   # output 8x8 (stride 2, pad 1): m = 64; 6 channels and 4x3x3 a group
                   ("conv", 64, 6, 36, 2, F16)]


def test_onnx_dynamic_shape_names_the_node(tmp_path):
    path = save(tmp_path, [helper.make_node("MatMul", ["x", "w"], ["y"], name="proj")],
                [tensor("x", ["batch", 64])], [tensor("y", None)], [weight("w", [64, 8])])
    with pytest.raises(params.UsageError) as error:
        read_onnx(path, "int4")
    assert f"{path}: node 0 'proj' (MatMul): 'x' has no static dimension 0 ('batch')" in \
        str(error.value)


def test_onnx_without_gemms_and_garbage(tmp_path):
    path = save(tmp_path, [helper.make_node("Relu", ["x"], ["y"])], [tensor("x", [4])],
                [tensor("y", [4])])
    with pytest.raises(params.UsageError, match="no MatMul, Gemm or Conv node"):
        read_onnx(path, "int4")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07 this is not protobuf \xff\xff")
    with pytest.raises(params.UsageError, match="bad.onnx: not an ONNX model"):
        read_onnx(bad, "int4")
    with pytest.raises(params.UsageError, match="family 'fp8'"):
        read_onnx(path, "fp8")


def test_onnx_mismatched_shapes(tmp_path):
    path = save(tmp_path, [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
                [tensor("x", [4, 64])], [tensor("y", None)], [weight("w", [32, 8])])
    with pytest.raises(params.UsageError, match="m.onnx: shape inference failed") as error:
        read_onnx(path, "int4")
    assert "node name: mm" in str(error.value)  # onnx's message names the node


@pytest.mark.parametrize("op,inputs", [
    ("MatMulInteger", ["x", "w"]),
    ("ConvTranspose", ["x", "w"]),
    ("Einsum", ["x", "w"]),
])
def test_onnx_gemms_it_cannot_read_are_refused(tmp_path, op, inputs):
    # A quantized or transposed product, or an Einsum, holds GEMMs the reader
    # does not take: refused with the node, not left out of the workload.
    extra = {"equation": "ij,jk->ik"} if op == "Einsum" else {}
    elem = TensorProto.UINT8 if op == "MatMulInteger" else TensorProto.FLOAT
    shapes = ([1, 4, 8, 8], [4, 2, 3, 3]) if op == "ConvTranspose" else ([4, 64], [64, 8])
    nodes = [helper.make_node("MatMul", ["a", "b"], ["c"], name="fine"),
             helper.make_node(op, inputs, ["y"], name="q", **extra)]
    model = helper.make_model(helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", elem, shapes[0]), tensor("a", [4, 8])],
        [helper.make_tensor_value_info("y", TensorProto.INT32 if op == "MatMulInteger" else
                                       TensorProto.FLOAT, None), tensor("c", None)],
        [helper.make_tensor("w", elem, shapes[1], [0] * math.prod(shapes[1])),
         weight("b", [8, 2])]), opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "q.onnx"
    onnx.save(model, str(path))
    with pytest.raises(params.UsageError) as error:
        read_onnx(path, "int4")
    assert f"{path}: node 1 'q' ({op}): {op} is not read" in str(error.value)


def test_onnx_subgraph_is_refused(tmp_path):
    # An If whose branches hold a MatMul: the reader does not descend into
    # subgraphs, so the model is refused rather than read without them.
    branch = helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["o"])], "branch", [],
                               [tensor("o", [4, 2])])
    nodes = [helper.make_node("If", ["cond"], ["y"], name="gate", then_branch=branch,
                              else_branch=branch)]
    model = helper.make_model(helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
                     tensor("a", [4, 8]), tensor("b", [8, 2])], [tensor("y", None)]),
        opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "if.onnx"
    onnx.save(model, str(path))
    with pytest.raises(params.UsageError, match=r"if.onnx: node 0 'gate' \(If\): If is not read"):
        read_onnx(path, "int4")


def test_workload_errors_name_the_gemm(tmp_path):
    # A variant the model does not know, and a dimension past the timing
    # model's limit: refused with the file and line before any point runs.
    tcu_module()
    path = tmp_path / "w.toml"
    path.write_text('name = "w"\n\n[[gemm]]\nptx = "mma.sync.bogus"\nm = 16\nn = 8\nk = 64\n')
    sweep = cli.Sweep()
    sweep.workload.suite = str(path)
    from tcu_tools.explore.fast_sweep import workload_of
    with pytest.raises(params.UsageError, match=rf"{re.escape(str(path))}:3: gemm 1: ptx "
                       "'mma.sync.bogus'"):
        workload_of(sweep)
    path.write_text('[[gemm]]\nfamily = "int4"\nm = 16\nn = 8\nk = 2147483648\n')
    with pytest.raises(params.UsageError, match=rf"{re.escape(str(path))}:1: gemm 1: "
                       "k=2147483648 is more than"):
        workload_of(sweep)
    sweep.workload.family = "int4"  # --family with a TOML: it names its own families
    with pytest.raises(params.UsageError, match="--family .* sets the family of an ONNX"):
        workload_of(sweep)


# ---- the evaluator -----------------------------------------------------------------

def test_counts_multiply_and_gemms_add():
    one = evaluator([workload_file.Gemm("a", INT4, 64, 64, 256)]).row(point())
    three = evaluator([workload_file.Gemm("a", INT4, 64, 64, 256, 3)]).row(point())
    two = evaluator([workload_file.Gemm("a", INT4, 64, 64, 256),
                     workload_file.Gemm("b", INT4, 64, 64, 256, 2)]).row(point())
    assert three["cycles"] == two["cycles"] == 3 * one["cycles"]
    assert three["macs"] == 3 * 64 * 64 * 256
    assert three["energy_pj"] == pytest.approx(3 * one["energy_pj"], rel=1e-5)
    assert three["area_um2"] == one["area_um2"]


def test_padding_costs_cycles_not_macs():
    small = evaluator([workload_file.Gemm("a", INT4, 17, 8, 64)]).row(point())
    full = evaluator([workload_file.Gemm("a", INT4, 32, 8, 64)]).row(point())
    assert small["cycles"] == full["cycles"]
    assert small["macs"] == 17 * 8 * 64 and small["issued_macs"] == 32 * 8 * 64
    assert small["mac_utilization"] < full["mac_utilization"]


def test_a_left_out_engine_cannot_run():
    row = evaluator([workload_file.Gemm("attn", F16, 16, 16, 8)]).row(point(F16Enable=0))
    assert row["status"].startswith("cannot run attn:")
    assert "F16Enable=0" in row["status"]


def test_cycles_are_tcu_gemm_estimates():
    """The module and `tcu gemm --estimate --config small` (the CLI's own
    configuration table) agree: the parameters reach the model by name."""
    tcu_binary = os.environ.get("TCU_BINARY")
    if not tcu_binary:
        pytest.skip("TCU_BINARY not set")
    small = params.config_spec().resolve(params.config_spec().configs["small"])
    for ptx, m, n, k, rf, banks in [(INT4, 64, 32, 256, 8, 16), (F16, 32, 32, 16, 32, 2),
                                    (INT4, 16, 8, 64, 16, 1)]:
        text = subprocess.run([tcu_binary, "gemm", "--estimate", "--config", "small", "--ptx",
                               ptx, "--m", str(m), "--n", str(n), "--k", str(k),
                               "--rf-bandwidth", str(rf), "--rf-banks", str(banks)], check=True,
                              capture_output=True, text=True).stdout
        want = int(re.search(r"estimate (\d+) cycles", text).group(1))
        rtl = {k2: v for k2, v in small.items() if k2 in params.rtl_parameters()}
        got = evaluator([workload_file.Gemm("g", ptx, m, n, k)]).row(
            point(rf_bandwidth=rf, rf_banks=banks, **rtl))
        assert got["cycles"] == want


def test_composition_against_whole_datapaths():
    """The [[whole]] tables: whole tcu_datapaths mapped by the same flow
    (no router). The composition with the engines' own registers comes
    within 5 % of each (the lower bound without them is half)."""
    from tcu_tools.phys import compose
    data = phys_data()
    spec = params.config_spec()
    errors = []
    units_only = dict(data, whole=[])  # the composition, not the tables it is held to
    for whole in data["whole"]:
        values = spec.resolve(dict(whole["params"]))
        c = compose.explored_point(units_only, values)
        errors.append((c["area_um2"] - c["router_area_um2"]) / whole["area_um2"] - 1)
        # With the tables, a core of a measured datapath takes its figures.
        m = compose.explored_point(data, dict(values, WordsPerCycle=4, DWordsPerCycle=4))
        assert m["source"] == "measured"
        assert m["area_um2"] - m["router_area_um2"] == whole["area_um2"]
        router = compose.router_scaled(data["point"], 4, 4)  # measured at 4/4
        assert router["scaled"] == ""
        assert m["fmax_mhz"] == min(whole["fmax_mhz"], router["fmax_mhz"])
    # int4 (5), e2m1, f16 and f64 (one unit each)
    assert len(errors) == 8
    assert all(abs(e) < 0.05 for e in errors), errors
    assert sorted(round(e, 3) for e in errors) == [-0.006, 0.005, 0.006, 0.008, 0.011, 0.014,
                                                   0.020, 0.029]


def f64_whole(data: dict) -> tuple[int, dict]:
    """The [[whole]] datapath of the f64 engine alone: its index and table."""
    found = [(i, w) for i, w in enumerate(data["whole"]) if w["params"].get("F64Enable")
             and not any(w["params"].get(f"{e}Enable", e == "Int4")
                         for e in ("Int4", "E2m1", "F16"))]
    assert len(found) == 1, "spec/phys_osu018.toml: no (or several) f64 [[whole]] datapath"
    return found[0]


def test_f64_whole_against_its_composition():
    """The f64 datapath mapped whole (one tcu_f64_dot at FmaStages 2, no
    other engine) against the composition from the rest of the data file
    (validate.mapped_datapaths: its own table left out): area and clock
    within the validation's tolerances; its critical path in the dot unit
    (u_dot), its clock the f64 point's in place (its register wrapper)
    within the spread of two mappings of the same logic
    (compose.MAPPING_SPREAD). Planted: the composition without the f64 engine's logic
    around its unit ([[engine]] tcu_f64_engine left out) misses the area,
    and the f64 point's clock halved misses the clock."""
    from tcu_tools.explore import validate
    from tcu_tools.phys import compose
    data = phys_data()
    index, whole = f64_whole(data)

    def rows(d: dict) -> dict:
        return {r["figure"]: r for r in validate.mapped_datapaths(d) if r["whole"] == index}
    ok = rows(data)
    assert {f: r["status"] for f, r in ok.items()} == {"area_um2": "ok", "fmax_mhz": "ok"}, ok
    assert ".u_dot." in whole["path_start_register"] + whole["path_end_register"]
    unit = next(p for p in data["point"] if p["unit"] == "tcu_f64_dot"
                and p["params"]["FmaStages"] == whole["params"]["FmaStages"])
    assert abs(whole["fmax_mhz"] / unit["in_place_fmax_mhz"] - 1) < compose.MAPPING_SPREAD, \
        (whole["fmax_mhz"], unit["in_place_fmax_mhz"])
    no_engine = dict(data, engine=[e for e in data["engine"] if e["top"] != "tcu_f64_engine"])
    assert rows(no_engine)["area_um2"]["status"] == "over tolerance"
    slow = dict(data, point=[dict(p, fmax_mhz=p["fmax_mhz"] / 2,
                                  in_place_fmax_mhz=p["in_place_fmax_mhz"] / 2,
                                  critical_path_ns=p["critical_path_ns"] * 2,
                                  in_place_critical_path_ns=p["in_place_critical_path_ns"] * 2)
                             if p is unit else p for p in data["point"]])
    assert rows(slow)["fmax_mhz"]["status"] == "over tolerance"


BOTTOM_UP = REPO / "tests" / "explore" / "data" / "bottom_up_datapaths.json"


def test_composition_against_the_full_flow():
    """tcu_datapaths of one engine family each and of two (int4, e2m1,
    f16, f64; e2m1 with f16) mapped as the full flow maps them (the dot
    units black boxes at the data file's areas: tcu_tools.phys.area
    --around; tests/explore/data/bottom_up_datapaths.json, the command in
    it): the composition within the validation's area tolerance of each.
    Measured at the RTL whose files hash to the entry's rtl_files: skipped
    (re-measure with the command) where the RTL changed."""
    import json
    from tcu_tools.explore.validate import TOLERANCES
    from tcu_tools.phys import compose, stamp
    data = phys_data()
    spec = params.config_spec()
    measured = json.loads(BOTTOM_UP.read_text())
    stale = [m["name"] for m in measured["datapaths"]
             if stamp.files_hash("tcu_datapath") != m["rtl_files"]]
    if stale:
        pytest.skip(f"RTL changed since {', '.join(stale)} were measured: {measured['command']}")
    errors = {}
    for m in measured["datapaths"]:
        c = compose.explored_point(data, spec.resolve(dict(m["params"])))
        errors[m["name"]] = (c["area_um2"] - c["router_area_um2"]) / m["area_um2"] - 1
    assert all(abs(e) <= TOLERANCES["area_um2"] for e in errors.values()), errors



def test_bottom_up_table_and_update(tmp_path):
    """The docs' table of the datapaths above (tcu_tools.explore.bottom_up):
    a row per datapath; one mapped at other RTL marked stale; --update takes
    an --around JSON into the datapath of its parameters (its area, units
    and RTL stamp) and refuses one whose parameters no datapath has."""
    import copy
    import json
    from tcu_tools.explore import bottom_up
    from tcu_tools.phys import stamp
    data = phys_data()
    fixture = bottom_up.load(BOTTOM_UP)
    assert [r["name"] for r in bottom_up.rows(fixture, data)] == \
        [m["name"] for m in fixture["datapaths"]]
    first = fixture["datapaths"][0]
    fresh = {"top": "tcu_datapath", "params": {**first["params"], "SynthImpl": 1},
             "area_um2": 1000.0, "units": first["units"],
             "rtl_files": stamp.files_hash("tcu_datapath")}
    measured = tmp_path / "area.json"
    measured.write_text(json.dumps(fresh))
    updated = bottom_up.update(copy.deepcopy(fixture), [measured])
    row = bottom_up.rows(updated, data)[0]
    assert (row["full_um2"], row["stale"]) == (1000.0, False)
    assert "(stale)" not in bottom_up.table(updated, data).splitlines()[2]
    updated["datapaths"][0]["rtl_files"] = "0" * 16
    assert bottom_up.rows(updated, data)[0]["stale"]
    assert "(stale)" in bottom_up.table(updated, data).splitlines()[2]
    measured.write_text(json.dumps({**fresh, "params": {"Int4MacsPerCycle": 7}}))
    with pytest.raises(bottom_up.BottomUpError, match="no datapath of the fixture has"):
        bottom_up.update(copy.deepcopy(fixture), [measured])

# ---- constraints and fronts --------------------------------------------------------

def test_constraints_prune():
    rows = [{"point": 0, "status": "ok", "area_mm2": 5.0, "fmax_mhz": 40},
            {"point": 1, "status": "ok", "area_mm2": 50.0, "fmax_mhz": 80},
            {"point": 2, "status": "ok", "area_mm2": 8.0, "fmax_mhz": 90}]
    rules = [constraints.parse("area_mm2<=10", "x", {"area_mm2", "fmax_mhz"}),
             constraints.parse("fmax_mhz >= 50", "x", {"area_mm2", "fmax_mhz"})]
    assert constraints.apply(rows, rules) == 2
    assert [r["status"] for r in rows] == [
        "pruned: fmax_mhz=40 breaks fmax_mhz>=50", "pruned: area_mm2=50.0 breaks area_mm2<=10",
        "ok"]
    with pytest.raises(params.UsageError, match="unknown column 'area'"):
        constraints.parse("area<=3", "s.toml:2", {"area_mm2"})
    with pytest.raises(params.UsageError, match="s.toml:2: constraint 'area_mm2=3'"):
        constraints.parse("area_mm2=3", "s.toml:2", {"area_mm2"})


def test_the_validation_sample_spans_every_axis():
    from tcu_tools.explore.fast_sweep import spanning, validation_sample
    axes = {"a": [1, 2, 3], "b": [1, 2], "c": [0, 1]}
    rows = [{"point": i, "status": "ok", "a": a, "b": b, "c": c, "area_mm2": a * b + c}
            for i, (a, b, c) in enumerate((a, b, c) for a in axes["a"] for b in axes["b"]
                                          for c in axes["c"])]
    rows[0]["status"] = "pruned: area_mm2<=1"  # a pruned point is not validated
    chosen = spanning(rows, axes)
    assert {(n, rows[i][n]) for i in chosen for n in axes} == {
        (n, v) for n in axes for v in axes[n]}
    assert len(chosen) == 3 and 0 not in chosen  # three values of a: three points at least
    rows[5]["pareto"] = 1
    assert set(validation_sample(rows, axes, 0, 1)) == set(chosen) | {5}
    assert set(validation_sample(rows, axes, 0, 1, fronts=False)) == set(chosen)
    assert len(validation_sample(rows, axes, 2, 1, fronts=False)) == 5


def test_the_front_sample_takes_its_ends_and_between():
    """--front-sample K: of a front of seven points (areas 1..7, two points
    at area 4), its two ends and the point nearest the middle (the lower
    number of equals); of the energy front (tops) likewise."""
    from tcu_tools.explore.fast_sweep import front_sample, validation_sample
    rows = [{"point": i, "status": "ok", "a": 1, "area_mm2": area, "tops": 10 - area,
             "pareto": 1, "pareto_energy": 1 if i < 3 else 0}
            for i, area in enumerate([1, 2, 3, 4, 4, 6, 7])]
    rows.append({"point": 7, "status": "ok", "a": 1, "area_mm2": 9, "tops": 1})
    assert front_sample(rows, "area_mm2", "pareto", 3) == {0, 3, 6}
    assert front_sample(rows, "area_mm2", "pareto", 2) == {0, 6}
    assert front_sample(rows, "tops", "pareto_energy", 2) == {0, 2}
    # the spanning sample (one point: axis a has one value) joins them
    assert validation_sample(rows, {"a": [1]}, 0, 1, True, 2) == [0, 2, 6]
    assert len(validation_sample(rows, {"a": [1]}, 0, 1)) == 7  # every front point


def test_pareto_front_matches_brute_force():
    rng = random.Random(7)
    rows = [{"point": i, "a": rng.randint(0, 30), "b": rng.randint(0, 30)} for i in range(400)]
    brute = {r["point"] for r in rows
             if not any(o["a"] <= r["a"] and o["b"] >= r["b"] and (o["a"], o["b"]) != (r["a"], r["b"])
                        for o in rows)}
    assert pareto.pareto_front(rows, "a", "b") == brute


def test_sweep_with_constraint_writes_report(tmp_path, capsys):
    tcu_module()
    code = cli.main(["--axis", "Int4MacsPerCycle=32,64,128", "--workload", "resnet50_224",
                     "--constraint", "area_mm2<=100", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "points/s" in err
    assert (tmp_path / "report.html").exists()
    import csv
    rows = list(csv.DictReader(open(tmp_path / "explore.csv")))
    assert len(rows) == 3 and all(r["source"] in fast.SOURCES for r in rows)


@pytest.mark.parametrize("argv,message", [
    (["--workload", "nope"], "workload 'nope': no such file and no suite"),
    (["--workload", "resnet50_224", "--constraint", "tops>"], "constraint 'tops>'"),
    (["--mix", "5"], "a mix workload needs --fidelity full"),
    (["--workload", "resnet50_224", "--mix", "5"], "--workload and --ptx/--mix both"),
    (["--workload", "resnet50_224", "--set", "backpressure=0.5"], "leaves back-pressure out"),
    (["--workload", "resnet50_224", "--front-sample", "3"], "--front-sample K: K >= 2, with "
     "--validate"),
    (["--workload", "resnet50_224", "--validate", "0", "--front-sample", "1"], "K >= 2"),
])
def test_bad_fast_sweeps_exit_2(tmp_path, capsys, argv, message):
    tcu_module()
    code = cli.main(["--axis", "IntStages=1,2", "--out", str(tmp_path)] + argv)
    assert code == params.EXIT_USAGE
    assert message in capsys.readouterr().err


def test_fast_shards_merge_to_the_whole_sweep(tmp_path, capsys):
    tcu_module()
    import csv
    argv = ["--axis", "IntStages=1,2", "--axis", "Int4MacsPerCycle=32,64,128",
            "--workload", "resnet50_224"]
    assert cli.main(argv + ["--out", str(tmp_path / "all")]) == 0
    for i in range(2):
        assert cli.main(argv + ["--shard", f"{i}/2", "--out", str(tmp_path / f"s{i}")]) == 0
    assert cli.main(["merge", str(tmp_path / "s1"), str(tmp_path / "s0"), "--out",
                     str(tmp_path / "m")]) == 0
    capsys.readouterr()
    whole = list(csv.DictReader(open(tmp_path / "all" / "explore.csv")))
    merged = list(csv.DictReader(open(tmp_path / "m" / "explore.csv")))
    assert merged == whole
    assert (tmp_path / "m" / "report.html").exists()


def test_cycles_are_the_rtls_of_the_worked_full_sweep(tmp_path, capsys):
    """The full flow's RTL cycles of README's worked exploration
    (examples/explore/int4_sweep.toml at 32 and 128 MACs, warps 2): the
    fast evaluator gives each of them exactly."""
    tcu_module()
    import csv
    code = cli.main([str(REPO / "examples" / "explore" / "int4_sweep.toml"), "--axis",
                     "Int4MacsPerCycle=32,128", "--out", str(tmp_path)])
    capsys.readouterr()
    assert code == 0
    rows = {int(r["point"]): r for r in csv.DictReader(open(tmp_path / "explore.csv"))}
    rtl = {0: 66448, 3: 65664, 4: 66456, 7: 65672, 8: 21264, 9: 16848, 11: 16512, 12: 21272,
           15: 16520}
    assert {p: int(rows[p]["cycles"]) for p in rtl} == rtl


@pytest.mark.parametrize("kwargs,message", [
    ({"params": {"Bogus": 1}}, "unknown core parameter 'Bogus'"),
    ({"params": {"Int4MacsPerCycle": 96}}, "Int4MacsPerCycle=96 gives 3 int4 units"),
    ({"params": {"Int4Enable": 0}}, "built without the int4 engine (Int4Enable=0)"),
    ({"m": 0}, "m=0: expected 1 .. 2^30"),
    ({"rf_bandwidth": 128}, "--rf-bandwidth 128: more than the operand router's WordsPerCycle=64"),
    ({"rf_banks": 0}, "rf_banks=0: expected 1 .. 1024"),
])
def test_gemm_estimate_errors(kwargs, message):
    tcu = tcu_module()
    args = {"m": 16, "n": 8, "k": 64}
    args.update(kwargs)
    m, n, k = args.pop("m"), args.pop("n"), args.pop("k")
    with pytest.raises(ValueError) as error:
        tcu.gemm_estimate(INT4, m, n, k, **args)
    assert message in str(error.value)


def whole_flip_flops_of_parts(data: dict, values: dict) -> int | None:
    """A datapath's flip-flops from parts mapped apart, by hand: per
    enabled engine its registers around its units ([[engine_regs]]: flip_flops
    and other_domain_flip_flops, at one unit) and its unit's point's flip-flops;
    the output skid's D bits at the widest D an engine drives (8192 with
    f16, else 4096) and its 17 tag and valid bits; the control's point; a
    tcu_activity point per engine and a fifth of one (the cycle counter).
    None where a part has no table."""
    from tcu_tools.phys import compose
    find = lambda unit: next(p for p in data["point"] if p["unit"] == unit)  # noqa: E731
    total, d_bits, engines = 0, 0, 0
    for engine, (unit, macs, stage, dp_stage, rate, enable) in compose.ENGINES.items():
        if not values[enable]:
            continue
        if values[rate] // macs != 1:
            return None
        top, _ = compose.ENGINE_TOPS[engine]
        regs = [t for t in data["engine_regs"] if t["top"] == top and t["params"]["Units"] == 1
                and t["params"][stage] == values[dp_stage]
                and t["params"].get("SparseEnable", 0) == values["SparseEnable"] * (engine == "int4")]
        point = [p for p in data["point"] if p["unit"] == unit
                 and p["params"][stage] == values[dp_stage]]
        if not regs or not point:
            return None
        total += regs[0]["flip_flops"] + regs[0]["other_domain_flip_flops"]
        total += point[0]["flip_flops"]
        d_bits = max(d_bits, 8192 if engine == "f16" else 4096)
        engines += 1
    activity = find("tcu_activity")["flip_flops"]
    return total + d_bits + 17 + find("tcu_datapath_ctrl")["flip_flops"] + \
        engines * activity + activity // 5


def test_whole_datapaths_flip_flops_are_their_parts():
    """Each [[whole]] datapath that records its flip-flops (the e2m1, f16
    and f64 ones of one unit) has those of its parts mapped apart, within
    0.5 % (e2m1: 15,135 around the unit + 205 in it + 4,113 skid + 41
    control + 288 counters = 19,782; f16: 20,788 + 1,643 + 8,209 + 41 + 288
    = 30,969; f64: 12,515 + 3,006 + 4,113 + 41 + 288 = 19,963): the mapped
    datapath is the design the composition adds up; and their flip-flop
    area that count's by the liberty's cell areas. Planted: the skid at the
    full 8192 bits for every engine misses the e2m1 datapath, and the f64
    unit's own flip-flops left out miss the f64 one."""
    data = phys_data()
    spec = params.config_spec()
    counted = [(w, whole_flip_flops_of_parts(data, spec.resolve(dict(w["params"]))))
               for w in data["whole"] if w.get("flip_flops") is not None]
    assert len(counted) >= 3 and all(parts is not None for _, parts in counted), counted
    for whole, parts in counted:
        assert abs(whole["flip_flops"] / parts - 1) < 0.005, (whole["params"], whole["flip_flops"],
                                                              parts)
        # and their area from the liberty by hand: DFFPOSX1 96 µm², the
        # activity counters' DFFSR 176 (240 an engine, 48 the cycle counter)
        engines = sum(bool(whole["params"].get(f"{e}Enable", e == "Int4"))
                      for e in ("Int4", "E2m1", "F16", "F64"))
        by_hand = 96 * whole["flip_flops"] + (176 - 96) * (240 * engines + 48)
        assert abs(whole["flip_flop_area_um2"] / by_hand - 1) < 0.005, (whole["params"], by_hand)
    e2m1 = next(w for w, _ in counted if w["params"].get("E2m1Enable"))
    planted = whole_flip_flops_of_parts(data, spec.resolve(dict(e2m1["params"]))) + 4096
    assert abs(e2m1["flip_flops"] / planted - 1) > 0.005
    _, f64 = f64_whole(data)
    unit = next(p for p in data["point"] if p["unit"] == "tcu_f64_dot"
                and p["params"]["FmaStages"] == f64["params"]["FmaStages"])
    planted = whole_flip_flops_of_parts(data, spec.resolve(dict(f64["params"]))) - \
        unit["flip_flops"]
    assert abs(f64["flip_flops"] / planted - 1) > 0.005
