"""cocotb + pyuvm testbench of rtl/tcu_core.sv (loaded by test_tcu_core.py's runner).

    sequence   random instructions of every variant (stimulus.py), each with its
               lanes' random source registers and an idle gap after it
    driver     sends an instruction as the warp front-end does: the start with
               the descriptor and the first beat of register words, then a beat
               a cycle (words_per_cycle words, in_last_i with the last); the
               expected D goes to the scoreboard when the start is taken
    back-pressure  wb_ready_i low with probability TCU_COCOTB_BACKPRESSURE
    monitor    collects the write-back words of each D (every word of the D
               exactly once, the right tag, in issue order) until wb_last_o
    scoreboard D against tcu.mma_fragments (the golden model), per variant

Inputs are driven at the falling edge; the handshakes are read once the
inputs have settled (ReadOnly), as the rising edge will see them.

Environment: TCU_COCOTB_COUNT (instructions beyond two of every variant),
TCU_COCOTB_SEED, TCU_COCOTB_BACKPRESSURE, TCU_COCOTB_STOP (1: end at the first
mismatch), TCU_COCOTB_WORDS / _DWORDS (the core's WordsPerCycle /
DWordsPerCycle).
"""

from __future__ import annotations

import collections
import os
import random

import cocotb
import numpy as np
import pyuvm
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly
from cocotb.utils import get_sim_time
from pyuvm import (ConfigDB, uvm_analysis_port, uvm_component, uvm_driver, uvm_env,
                   uvm_sequence, uvm_sequence_item, uvm_sequencer, uvm_subscriber, uvm_test)

import stimulus

DESCRIPTOR_PORTS = [f.name for f in stimulus.Descriptor.__dataclass_fields__.values()]
START_TIMEOUT = 1000  # cycles an instruction may wait for in_start_ready_o
SELECTOR_PORTS = ["sparsity", "byte_id_a", "thread_id_a", "byte_id_b", "thread_id_b"]


def setting(name: str, default):
    return type(default)(os.environ.get(f"TCU_COCOTB_{name}", default))


class InstrItem(uvm_sequence_item):
    """An instruction, its tag and the idle cycles the driver leaves after it."""

    def __init__(self, name, instr: stimulus.Instruction, tag: int, gap: int):
        super().__init__(name)
        self.instr, self.tag, self.gap = instr, tag, gap
        self.expected = None  # D's 32-bit words, (32, words per lane)


class RandomInstructions(uvm_sequence):
    """Two instructions of every `tcu list` spelling (stimulus.spellings()) plus
    `count` random ones, shuffled."""

    def __init__(self, name, count: int, rng: random.Random):
        super().__init__(name)
        self.count, self.rng = count, rng

    async def body(self):
        variants = stimulus.spellings()
        spellings = variants * 2 + [self.rng.choice(variants) for _ in range(self.count)]
        self.rng.shuffle(spellings)
        for tag, ptx in enumerate(spellings):
            gap = 0 if self.rng.random() < 0.7 else self.rng.randint(1, 3)
            item = InstrItem(f"i{tag}", stimulus.random_instruction(ptx, self.rng), tag, gap)
            await self.start_item(item)
            await self.finish_item(item)


class CoreDriver(uvm_driver):
    """The lanes' side of tcu_core's input: start, descriptor, beats of words."""

    def build_phase(self):
        self.dut = cocotb.top
        self.words = setting("WORDS", 64)
        self.rng = random.Random(setting("SEED", 1) + 1)
        self.issued = uvm_analysis_port("issued", self)  # the expected D, per start

    def idle(self):
        self.dut.in_start_i.value = 0
        self.dut.in_word_valid_i.value = 0
        self.dut.in_last_i.value = 0
        # The descriptor matters only with the start: junk elsewhere.
        for port in DESCRIPTOR_PORTS + SELECTOR_PORTS + ["tag"]:
            handle = getattr(self.dut, f"in_{port}_i")
            handle.value = self.rng.getrandbits(len(handle))

    def drive_beat(self, beat, last: bool):
        fields = stimulus.pack_beat(beat)
        self.dut.in_word_valid_i.value = fields["valid"]
        self.dut.in_word_op_i.value = fields["op"]
        self.dut.in_word_lane_i.value = fields["lane"]
        self.dut.in_word_reg_i.value = fields["reg"]
        self.dut.in_word_data_i.value = fields["data"]
        self.dut.in_last_i.value = int(last)

    async def falling_edge(self):
        await FallingEdge(self.dut.clk_i)
        self.last_fall = get_sim_time()

    async def send(self, item: InstrItem):
        beats = stimulus.beats(item.instr, self.words)
        desc = stimulus.descriptor(item.instr.ptx)
        # A beat is driven at a falling edge; an item that arrived at another
        # time (the sequence's first) waits for the next one.
        if get_sim_time() != self.last_fall:
            await self.falling_edge()
            self.idle()
        # Beat 0 with the start, until the router takes it.
        for waited in range(START_TIMEOUT + 1):
            self.dut.in_start_i.value = 1
            for port, value in {**desc.__dict__, **item.instr.selectors.ports()}.items():
                getattr(self.dut, f"in_{port}_i").value = value
            self.dut.in_tag_i.value = item.tag & 0xFFFF
            self.drive_beat(beats[0], len(beats) == 1)
            await ReadOnly()
            if self.dut.in_start_ready_o.value:
                break
            if waited == START_TIMEOUT:
                raise RuntimeError(f"instruction {item.tag}: in_start_ready_o low for "
                                   f"{START_TIMEOUT} cycles")
            await self.falling_edge()
        item.expected = item.instr.expected_d()
        self.issued.write(item)
        # The following beats, one a cycle: the router takes each.
        for i, beat in enumerate(beats[1:], start=1):
            await self.falling_edge()
            self.idle()
            self.drive_beat(beat, i == len(beats) - 1)
        await self.falling_edge()
        self.idle()

    async def run_phase(self):
        self.last_fall = None
        await self.falling_edge()
        self.idle()
        while True:
            item = await self.seq_item_port.get_next_item()
            await self.send(item)
            for _ in range(item.gap):
                await self.falling_edge()
            self.seq_item_port.item_done()


class BackPressure(uvm_component):
    """wb_ready_i low with probability p each cycle."""

    def build_phase(self):
        self.dut = cocotb.top
        self.p = setting("BACKPRESSURE", 0.3)
        self.rng = random.Random(setting("SEED", 1) + 2)

    async def run_phase(self):
        while True:
            await FallingEdge(self.dut.clk_i)
            self.dut.wb_ready_i.value = int(self.rng.random() >= self.p)


class WriteBackMonitor(uvm_component):
    """Each D as written back: (tag, 32-bit words by lane and register, errors)."""

    def build_phase(self):
        self.dut = cocotb.top
        self.dwords = setting("DWORDS", 32)
        self.written = uvm_analysis_port("written", self)
        self.beats = 0
        self.stalled = 0

    async def run_phase(self):
        words = []
        tag = None
        while True:
            await FallingEdge(self.dut.clk_i)
            await ReadOnly()
            if not self.dut.wb_valid_o.value:
                continue
            if not self.dut.wb_ready_i.value:
                self.stalled += 1
                continue
            self.beats += 1
            beat_tag = int(self.dut.wb_tag_o.value)
            if tag is not None and beat_tag != tag:
                why = f"tag {beat_tag} began before tag {tag}'s last beat"
                self.written.write((tag, words, why))
                words = []
            tag = beat_tag
            dut = self.dut
            words += stimulus.unpack_words(
                self.dwords, int(dut.wb_word_valid_o.value), int(dut.wb_word_lane_o.value),
                int(dut.wb_word_reg_o.value), int(dut.wb_word_data_o.value))
            if self.dut.wb_last_o.value:
                self.written.write((tag, words, None))
                words, tag = [], None


class Scoreboard(uvm_component):
    """Each D written back against the golden model's, in issue order; counts per variant."""

    def build_phase(self):
        self.expected = collections.deque()
        self.passed = collections.Counter()
        self.failed = collections.Counter()
        self.errors = []
        self.issued_export = uvm_subscriber.uvm_AnalysisImp("issued", self, self.expected.append)
        self.written_export = uvm_subscriber.uvm_AnalysisImp("written", self, self.check)

    def check(self, written):
        tag, words, protocol_error = written
        if not self.expected:
            self.fail(None, f"a D (tag {tag}) with no instruction in flight")
            return
        item = self.expected.popleft()
        why = protocol_error or self.compare(item, tag, words)
        if why:
            self.fail(item, why)
        else:
            self.passed[item.instr.ptx] += 1

    @staticmethod
    def compare(item: InstrItem, tag: int, words) -> str | None:
        if tag != item.tag & 0xFFFF:
            return f"write-back of tag {tag}, expected {item.tag & 0xFFFF} (issue order)"
        want = item.expected
        got = np.zeros_like(want)
        seen = np.zeros(want.shape, dtype=bool)
        for lane, reg, data in words:
            if reg >= want.shape[1]:
                return f"lane {lane} word {reg}: outside the D fragment ({want.shape[1]} words)"
            if seen[lane, reg]:
                return f"lane {lane} word {reg} written back twice"
            seen[lane, reg], got[lane, reg] = True, data
        if not seen.all():
            lane, reg = np.argwhere(~seen)[0]
            return (f"{int(seen.sum())} of {seen.size} D words written back "
                    f"(lane {lane} word {reg} missing)")
        if (got != want).any():
            lane, reg = np.argwhere(got != want)[0]
            return (f"D lane {lane} word {reg} is {int(got[lane, reg]):#010x}, "
                    f"the golden model says {int(want[lane, reg]):#010x}")
        return None

    def fail(self, item, why: str):
        ptx = item.instr.ptx if item else "?"
        if item:
            self.failed[ptx] += 1
        name = f"instruction {item.tag} {ptx} {item.instr.selectors}" if item else "?"
        self.errors.append(f"{name}: {why}")
        self.logger.error(f"MISMATCH {name}: {why}")
        if setting("STOP", 0):
            self.print_counts()
            raise AssertionError(f"MISMATCH {name}: {why}")

    def print_counts(self):
        width = max(len(p) for p in stimulus.spellings())
        lines = [f"{'variant':<{width}}  passed  failed"]
        for ptx in stimulus.spellings():
            lines.append(f"{ptx:<{width}}  {self.passed[ptx]:6}  {self.failed[ptx]:6}")
        lines.append(f"{len(stimulus.spellings())} variants: {sum(self.passed.values())} "
                     f"instructions passed, {len(self.errors)} failed, "
                     f"{len(self.expected)} never written back")
        self.logger.info("per-variant pass counts:\n" + "\n".join(lines))

    def check_phase(self):
        self.print_counts()
        missing = [ptx for ptx in stimulus.spellings() if not self.passed[ptx]]
        problems = list(self.errors)
        problems += [f"instruction {i.tag} {i.instr.ptx}: never written back"
                     for i in self.expected]
        problems += [f"{ptx}: no instruction passed" for ptx in missing]
        assert not problems, f"{len(problems)} problem(s), first: {problems[0]}"


class CoreEnv(uvm_env):
    def build_phase(self):
        self.sequencer = uvm_sequencer("sequencer", self)
        self.driver = CoreDriver("driver", self)
        self.backpressure = BackPressure("backpressure", self)
        self.monitor = WriteBackMonitor("monitor", self)
        self.scoreboard = Scoreboard("scoreboard", self)
        ConfigDB().set(None, "*", "SEQUENCER", self.sequencer)

    def connect_phase(self):
        self.driver.seq_item_port.connect(self.sequencer.seq_item_export)
        self.driver.issued.connect(self.scoreboard.issued_export)
        self.monitor.written.connect(self.scoreboard.written_export)


@pyuvm.test()
class RandomInstructionsTest(uvm_test):
    """Random instructions of every variant under random write-back back-pressure."""

    def build_phase(self):
        self.env = CoreEnv("env", self)

    async def run_phase(self):
        self.raise_objection()
        dut = cocotb.top
        seed = setting("SEED", 1)
        self.logger.info(f"seed {seed}, back-pressure {setting('BACKPRESSURE', 0.3)}")
        cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
        dut.rst_ni.value = 0
        dut.wb_ready_i.value = 0
        await ClockCycles(dut.clk_i, 3)
        dut.rst_ni.value = 1
        sequence = RandomInstructions("sequence", setting("COUNT", 60), random.Random(seed))
        await sequence.start(ConfigDB().get(None, "", "SEQUENCER"))
        # Drain: every D written back, or give up after a bound.
        board = self.env.scoreboard
        for _ in range(2000):
            if not board.expected:
                break
            await FallingEdge(dut.clk_i)
        self.drop_objection()
