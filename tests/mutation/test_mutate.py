"""tcu_tools.mutate without a model: where sites are found and where not,
the mutated texts, the instrumented form, the equivalence list's errors,
the sample's spread."""
import dataclasses

import pytest

from tcu_tools.mutate import campaign, equivalent, instrument, sites

FIXTURE = """module m #(parameter int W = 4 + 4) (
  input  logic clk_i, input logic rst_ni, input logic [W-1:0] a_i, b_i,
  output logic [W-1:0] y_o, output logic f_o
);
  localparam int K = W - 1;
  logic [W-1:0] q;
  logic unused_x;
  assign unused_x = ^{a_i, b_i};
  assign y_o = a_i + b_i;
  assign f_o = (a_i == b_i) ? q[3] : 1'b0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q <= '0;
    else if (f_o) q <= a_i[K:0];
  end
  for (genvar i = 0; i < 2; i++) begin : g
  end
endmodule
"""


def fixture_sites(tmp_path):
    path = tmp_path / "m.sv"
    path.write_text(FIXTURE)
    return path, sites.find_sites(path, "u")


def test_sites_only_in_logic(tmp_path):
    _, found = fixture_sites(tmp_path)
    changes = {(s.original, s.mutated) for s in found}
    assert ("a_i + b_i", "a_i - b_i") in changes
    assert ("a_i == b_i", "a_i != b_i") in changes
    assert ("(a_i == b_i) ? q[3] : 1'b0", "(a_i == b_i) ? 1'b0 : q[3]") in changes
    assert ("1'b0", "1'd1") in changes
    assert ("3", "2") in changes                       # a bit select's index
    assert ("f_o", "!(f_o)") in changes                # an if condition negated
    assert ("'0", "'1") in changes                     # a reset value
    originals = [s.original for s in found]
    # Never a parameter, a localparam, a range, a loop header, a reset
    # condition, or a lint sink.
    for constant in ("4 + 4", "W - 1", "W-1", "K:0", "i < 2", "!rst_ni", "^{a_i, b_i}"):
        assert constant not in originals, constant


def test_instrumented_text_selects_by_number(tmp_path):
    path, found = fixture_sites(tmp_path)
    text = path.read_text()
    add = next(s for s in found if s.original == "a_i + b_i")
    out = instrument.rewrite(text, [(7, add)])
    assert "((tcu_mutant_pkg::active == 32'd7) ? (a_i - b_i) : (a_i + b_i))" in out
    assert out.replace("((tcu_mutant_pkg::active == 32'd7) ? (a_i - b_i) : (a_i + b_i))",
                       "a_i + b_i") == text


def test_selected_sites_do_not_overlap(tmp_path):
    _, found = fixture_sites(tmp_path)
    chosen = instrument.select(found)
    assert chosen
    for a, b in zip(chosen, chosen[1:]):
        assert a.end <= b.start


@pytest.mark.parametrize("text, flipped", [("1'b0", "1'd1"), ("4'hF", "4'd14"), ("12", "13"),
                                           ("8'sd3", "8'sd2"), ("'1", "'0"), ("4'bx0", None)])
def test_literal_flip(text, flipped):
    assert sites._literal_flip(text) == flipped


def test_ids_and_selection_survive_edits_elsewhere(tmp_path):
    """An edit of one line (and lines added above everything) leaves every
    other site's id and the choice among the other sites as they were: the
    equivalence list stays valid. Fails with ids or ranks built from line
    numbers or offsets."""
    _, before = fixture_sites(tmp_path)
    edited = FIXTURE.replace("module m", "// a comment\n// another\nmodule m").replace(
        "assign y_o = a_i + b_i;", "assign y_o = a_i - (b_i ^ a_i);")
    path = tmp_path / "m2.sv"
    path.write_text(edited.replace("m2", "m"))
    after = [dataclasses.replace(s, file="m.sv") for s in sites.find_sites(path, "u")]
    untouched = {s.id for s in before if "y_o =" not in s.context}
    assert untouched and untouched <= {s.id for s in after}
    for seed in range(4):
        chosen_before = {s.id for s in instrument.select(before, seed)} & untouched
        chosen_after = {s.id for s in instrument.select(after, seed)} & untouched
        assert chosen_before == chosen_after


def test_identical_sites_get_distinct_ids(tmp_path):
    path = tmp_path / "m.sv"
    path.write_text(FIXTURE.replace("assign y_o = a_i + b_i;",
                                    "assign y_o = a_i + b_i;\n  assign y_o = a_i + b_i;"))
    found = sites.find_sites(path, "u")
    assert len({s.id for s in found}) == len(found)


def test_equivalent_list_errors_name_file_and_line(tmp_path):
    ident = "m.sv:operator:0123456789"
    known = {ident}
    good = tmp_path / "good.txt"
    good.write_text(f"# comment\n{ident} | the sum is never read\n")
    assert equivalent.read(good, known) == {ident: "the sum is never read"}
    for body, message in [(f"{ident}\n", "expected"),
                          ("m.sv:9:16:operator:9 | an old-style id\n", "expected"),
                          (f"{ident} |  \n", "no reason"),
                          ("m.sv:operator:abcdefabcd | stale\n", "no such mutation site"),
                          (f"{ident} | a\n{ident} | b\n", "twice")]:
        bad = tmp_path / "bad.txt"
        bad.write_text(body)
        with pytest.raises(equivalent.EquivalentListError, match=f"bad.txt:[12]: .*{message}"):
            equivalent.read(bad, known)


def test_sample_spreads_over_units():
    mutants = [{"number": n, "unit": unit} for n, unit in
               enumerate(["a"] * 50 + ["b"] * 5 + ["c"] * 2, start=1)]
    chosen = campaign.sample(mutants, 6, seed=3)
    assert len(chosen) == 6
    assert {m["unit"] for m in chosen} == {"a", "b", "c"}
    assert campaign.sample(mutants, 6, seed=3) == chosen      # seeded


FORMAT_FIXTURE = """module f (input logic [15:0] h_i, input logic s_i, input logic [3:0] k_i,
                 output logic nan_o, output logic [15:0] d_o, output logic [15:0] e_o,
                 output logic g_o);
  localparam int unsigned W = tcu_pkg::fp_width(tcu_pkg::FP16);
  localparam logic [W-2:0] INF_MAG = {5'h1f, {(W - 6){1'b0}}};
  localparam logic signed [7:0] EMAX = 8'(W);
  localparam int unsigned Other = 3;
  assign g_o = $signed(h_i[7:0]) > EMAX;
  assign nan_o = h_i == tcu_pkg::F16_CANONICAL_NAN;
  assign d_o = {s_i, INF_MAG};
  assign e_o = h_i[k_i*Other +: W - 12] + tcu_pkg::bias(tcu_pkg::FP16);
endmodule
"""


def test_format_constants_are_sites(tmp_path):
    path = tmp_path / "f.sv"
    path.write_text(FORMAT_FIXTURE)
    found = [s for s in sites.find_sites(path, "u") if s.kind == "format"]
    changes = {(s.original, s.mutated) for s in found}
    # A parameter derived from the format table (through another one), and
    # a package constant, each used in logic; the flip keeps the width.
    assert ("INF_MAG", "(INF_MAG ^ 1'b1)") in changes
    assert ("tcu_pkg::F16_CANONICAL_NAN", "(tcu_pkg::F16_CANONICAL_NAN ^ 1'b1)") in changes
    assert ("EMAX", "(EMAX ^ 2'sb01)") in changes  # +1, signed: a signed comparison stays one
    # Not: a parameter of no format, a width in a range, a declaration, a
    # function call (it reaches logic through a parameter).
    originals = [s.original for s in found]
    assert "Other" not in originals and "W" not in originals
    assert not any("bias" in o for o in originals)
    assert sites.format_constants(pyslang_tree(FORMAT_FIXTURE)) == {"W", "INF_MAG", "EMAX"}


def pyslang_tree(text):
    return sites._S.SyntaxTree.fromText(text, "f.sv")


def test_the_equivalent_list_names_sites_of_this_rtl(tmp_path):
    """Every entry of spec/mutation_equivalent.txt is a mutation site of this
    tree's RTL at the campaign configuration's parameters (small's; an RTL edit that
    moves or removes a listed site fails here, not only in the second
    tier's campaign, which refuses the list)."""
    import json

    from tcu_tools import source_dir, spec
    from tcu_tools.mutate import cli
    root = source_dir()
    config = spec.load()
    params = config.resolve(config.configs["small"])  # mutant: small's parameters
    args = ["instrument", "--out", str(tmp_path)]
    for name, value in params.items():
        if name != "SynthImpl":
            args += ["--param", f"{name}={int(value)}"]
    assert cli.main(args) == 0
    data = json.loads((tmp_path / "mutants.json").read_text())
    known = set(data.get("site_ids", [])) | {m["id"] for m in data["mutants"]}
    equivalent.read(root / "spec" / "mutation_equivalent.txt", known)


LIVE_FIXTURE = """module tcu_live_fx #(parameter int Fine = 0) (
  input  logic [3:0] a_i, b_i,
  output logic [3:0] y_o
);
  logic [3:0] s;
  task automatic coarse();
    s = a_i + b_i;
  endtask
  task automatic fine();
    s = a_i - b_i;
  endtask
  if (Fine) begin : g_fine
    always_comb fine();
  end else begin : g_coarse
    always_comb coarse();
  end
  assign y_o = s ^ a_i;
endmodule
"""


@pytest.mark.parametrize("fine, live_op, dead_op", [(0, "+", "-"), (1, "-", "+")])
def test_a_task_only_another_branch_calls_is_not_elaborated(tmp_path, fine, live_op, dead_op):
    """A task's body is elaborated where elaborated code calls it: at
    Fine=0 the task only g_fine calls is no part of the model (its sites
    are reported apart), the one g_coarse calls is."""
    from tcu_tools.mutate import live
    rtl = tmp_path / "rtl"
    rtl.mkdir()
    (rtl / "tcu_pkg.sv").write_text("package tcu_pkg;\nendpackage\n")
    path = tmp_path / "tcu_live_fx.sv"  # the top, outside rtl/ (read once)
    path.write_text(LIVE_FIXTURE)
    starts = live.live_starts(rtl, path, [f"Fine={fine}"])
    text = LIVE_FIXTURE
    live_at = text.index(f"a_i {live_op} b_i")
    dead_at = text.index(f"a_i {dead_op} b_i")
    assert ("tcu_live_fx.sv", live_at) in starts
    assert ("tcu_live_fx.sv", dead_at) not in starts
    assert ("tcu_live_fx.sv", text.index("s ^ a_i")) in starts


def test_procedural_lint_sinks_are_no_sites(tmp_path):
    """unused_x = ^...; and unused_x ^= ...; in an always block drive
    nothing, as assign unused_x = ...; does: no site in them."""
    path = tmp_path / "p.sv"
    path.write_text("""module p (input logic [7:0] a_i, output logic [3:0] y_o);
  logic unused_pad;
  always_comb begin
    unused_pad = ^a_i[7:4];
    for (int k = 0; k < 2; k++) unused_pad ^= ^a_i[k*2 +: 2];
  end
  assign y_o = a_i[3:0] + 4'd1;
endmodule
""")
    found = sites.find_sites(path, "u")
    originals = [s.original for s in found]
    assert "a_i[3:0] + 4'd1" in originals
    assert not [s for s in found if "a_i[7:4]" in s.original or "a_i[k*2" in s.original]


CONST_FIXTURE = """module tcu_const_fx #(parameter bit Canonical = 0) (
  input  logic [3:0] a_i, b_i,
  output logic [3:0] y_o, z_o
);
  always_comb begin
    if (Canonical) y_o = a_i + b_i;
    else           y_o = a_i - b_i;
  end
  assign z_o = Canonical ? (a_i & b_i) : (a_i | b_i);
endmodule
"""


@pytest.mark.parametrize("canonical", [0, 1])
def test_a_branch_a_constant_condition_never_takes_is_not_elaborated(tmp_path, canonical):
    """if (Param) and Param ? x : y: only the branch the parameter takes
    is in the model."""
    from tcu_tools.mutate import live
    rtl = tmp_path / "rtl"
    rtl.mkdir()
    (rtl / "tcu_pkg.sv").write_text("package tcu_pkg;\nendpackage\n")
    path = tmp_path / "tcu_const_fx.sv"  # the top, outside rtl/ (read once)
    path.write_text(CONST_FIXTURE)
    starts = live.live_starts(rtl, path, [f"Canonical={canonical}"])
    taken, never = ("a_i + b_i", "a_i - b_i")[::1 if canonical else -1]
    taken_e, never_e = ("a_i & b_i", "a_i | b_i")[::1 if canonical else -1]
    for text in (taken, taken_e):
        assert ("tcu_const_fx.sv", CONST_FIXTURE.index(text)) in starts
    for text in (never, never_e):
        assert ("tcu_const_fx.sv", CONST_FIXTURE.index(text)) not in starts
