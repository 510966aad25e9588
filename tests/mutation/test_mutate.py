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
