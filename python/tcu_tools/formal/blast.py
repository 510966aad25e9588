"""Bit-blast flat, word-level RTLIL into a binary AIGER: one module, or the miter of two.

    python -m tcu_tools.formal.blast OUT.aig IN.il... --top MODULE [--order MAP] [--plant]
    python -m tcu_tools.formal.blast OUT.aig IN.il... --miter GOLD GATE [--cut-dff REGEX]
        [--gate OUTS=OK:UNIT]... [--slice-bits N]

The formal flow's gather proof (tcu_tools.formal, kind cut): Yosys 0.23's techmap needs about
5 GB per million AND nodes, and the 64-word miter is 18 million; here an AND
node is a hash-table entry. Each cell type is mapped as Yosys's techmap maps
it, except that a shift is mapped by decoding its amount: output bit k is the
OR, over the amounts v that the amount's constant bits allow and that bring
an input bit to k, of (amount == v) AND that bit (for the gather's shifts, a
word into a buffer at its position times the word's width, one AND per output
bit). A $shiftx reads 0 outside its input, as kind slang's `chtype -map
$shiftx $shift` makes it (Verilator reads a select out of range as 0).
Unknown cell types, processes and cut registers that are latches are errors,
not guesses. Input port bits are inputs shared by name; undriven bits are
free inputs; a blackbox cell's outputs are free inputs, one set per distinct
input value (two cells of one blackbox reading equal signals give equal
outputs: the proof's cut point); --cut-dff cuts registers (their value an
input shared by name, their next value compared as NAME$next); other
registers must not be read. --order numbers the inputs and outputs as a map
file of Yosys's write_aiger -map does (the check of kind blast, this map
against Yosys's techmap: kind slang's 1-word miter both ways, proven equal).
--plant maps every $pmux with its output bit 0 inverted where a case hits
(that check's --plant run: the two maps must then differ).
"""
import argparse
import bisect
from array import array
import re
import sys


class Aig:
    """And-inverter graph with structural hashing. Literal 2v + neg; 0/1 constants."""

    def __init__(self):
        self.ands = array("q")  # rhs0, rhs1 literal pairs; AND i is var first_and + i
        self.inputs = []  # var ids
        self.nvars = 0
        self.strash = {}
        self.muxes = {}  # a MUX's output literal -> (s, a, b)
        self.node = array("q", [-1])  # var -> index of its AND in ands, -1 for an input

    def new_input(self):
        self.nvars += 1
        self.inputs.append(self.nvars)
        self.node.append(-1)
        return 2 * self.nvars

    def AND(self, a, b):
        if a == 0 or b == 0 or a == b ^ 1:
            return 0
        if a == 1 or a == b:
            return b
        if b == 1:
            return a
        if a < b:
            a, b = b, a
        key = (a << 40) | b
        lit = self.strash.get(key)
        if lit is None:
            self.nvars += 1
            lit = 2 * self.nvars
            self.node.append(len(self.ands))
            self.ands.append(self.nvars)
            self.ands.append(a)
            self.ands.append(b)
            self.strash[key] = lit
        return lit

    def OR(self, a, b):
        return self.AND(a ^ 1, b ^ 1) ^ 1

    def XOR(self, a, b):
        return self.OR(self.AND(a, b ^ 1), self.AND(a ^ 1, b))

    def MUX(self, s, a, b):  # s ? b : a
        """A multiplexer; an input that is itself a multiplexer on s (or !s)
        is replaced by the input it passes when this one reads it (s ? b :
        (s ? x : y) is s ? b : y), so that a value chosen twice by one
        select is one node (the gather's buffer next value and bypass)."""
        if s <= 1:
            return b if s else a
        inner = self.muxes.get(a)
        if inner is not None and inner[0] >> 1 == s >> 1:
            a = inner[1] if inner[0] == s else inner[2]
        inner = self.muxes.get(b)
        if inner is not None and inner[0] >> 1 == s >> 1:
            b = inner[2] if inner[0] == s else inner[1]
        if a == b:
            return a
        out = self.OR(self.AND(s ^ 1, a), self.AND(s, b))
        self.muxes[out] = (s, a, b)
        return out

    def any(self, lits):
        out = 0
        for lit in lits:
            out = self.OR(out, lit)
        return out

    def all(self, lits):
        out = 1
        for lit in lits:
            out = self.AND(out, lit)
        return out

    def write(self, path, outputs, cone=False):
        """Binary AIGER: inputs renumbered 1..I, then the AND nodes in order;
        cone: only the inputs and AND nodes the outputs depend on."""
        ands, node = self.ands, self.node
        if cone:
            seen = set()
            stack = [o >> 1 for o in outputs]
            while stack:
                v = stack.pop()
                if v in seen or v == 0:
                    continue
                seen.add(v)
                if node[v] >= 0:
                    stack.append(ands[node[v] + 1] >> 1)
                    stack.append(ands[node[v] + 2] >> 1)
            used = sorted(seen)
            inputs = [v for v in used if node[v] < 0]
            and_vars = [v for v in used if node[v] >= 0]
        else:
            inputs = self.inputs
            and_vars = [ands[i] for i in range(0, len(ands), 3)]
        renum = {0: 0}
        for i, v in enumerate(inputs):
            renum[v] = i + 1
        base = len(inputs)
        for i, v in enumerate(and_vars):
            renum[v] = base + i + 1

        def lit(x):
            return 2 * renum[x >> 1] + (x & 1)

        with open(path, "wb") as f:
            f.write(f"aig {base + len(and_vars)} {base} 0 {len(outputs)} {len(and_vars)}\n".encode())
            for o in outputs:
                f.write(f"{lit(o)}\n".encode())
            buf = bytearray()
            for v in and_vars:
                i = node[v]
                lhs, r0, r1 = 2 * renum[v], lit(ands[i + 1]), lit(ands[i + 2])
                if r0 < r1:
                    r0, r1 = r1, r0
                for delta in (lhs - r0, r0 - r1):
                    while delta >= 0x80:
                        buf.append((delta & 0x7F) | 0x80)
                        delta >>= 7
                    buf.append(delta)
                if len(buf) > 1 << 20:
                    f.write(buf)
                    buf.clear()
            f.write(buf)
        return len(inputs), len(and_vars)


class RtlilError(Exception):
    pass


class Module:
    """A module as read: wires numbered, each a run of bit ids; cells and
    connects as chunk lists. A bit reference ("ref") is 0 or 1 (constant) or
    2 + a bit id."""

    def __init__(self, name, path):
        self.name = name
        self.path = path
        self.wires = {}  # name -> (first bit id, width, offset, port kind, port index)
        self.nbits = 0
        self.cells = []  # (type, params, {port: chunks}, line)
        self.connects = []  # (lhs chunks, rhs chunks, line)

    def add_wire(self, name, width, offset, kind, index):
        self.wires[name] = (self.nbits, width, offset, kind, index)
        self.nbits += width

    def ports(self, kind):
        """The ports of one kind, in port order: [(name, width)]."""
        ps = sorted((w for w in self.wires.items() if w[1][3] == kind), key=lambda w: w[1][4])
        return [(name, w[1]) for name, w in ps]

    def name_of(self, bit):
        if getattr(self, "_starts", None) is None:
            self._order = sorted((w[0], name) for name, w in self.wires.items())
            self._starts = [first for first, _ in self._order]
        first, name = self._order[bisect.bisect_right(self._starts, bit) - 1]
        return f"{name} [{bit - first}]"


CONST = re.compile(r"^(\d+)'([01xzm-]*)$")


def tokens(line):
    return line.replace("{", " { ").replace("}", " } ").split()


def split_sig(toks):
    """One sigspec's tokens from the front of toks: (tokens, rest)."""
    if toks[0] == "{":
        depth = 0
        for i, t in enumerate(toks):
            depth += t == "{"
            depth -= t == "}"
            if depth == 0:
                return toks[: i + 1], toks[i + 1 :]
    if len(toks) > 1 and toks[1].startswith("["):
        return toks[:2], toks[2:]
    return toks[:1], toks[1:]


def chunks(mod, toks, line):
    """Sigspec tokens -> chunks, LSB first: (first ref, length) of a wire's
    bits, or (None, (constant refs...))."""
    if toks[0] == "{":
        rest, parts = toks[1:-1], []
        while rest:
            part, rest = split_sig(rest)
            parts.append(part)
        out = []
        for part in reversed(parts):  # MSB first in the text
            out.extend(chunks(mod, part, line))
        return out
    t = toks[0]
    m = CONST.match(t)
    if m:
        width, digits = int(m.group(1)), m.group(2).rjust(int(m.group(1)), "0")
        return [(None, tuple(1 if c == "1" else 0 for c in reversed(digits)))]  # x, z: 0
    if re.match(r"^-?\d+$", t):
        v = int(t)
        return [(None, tuple((v >> i) & 1 for i in range(32)))]
    if t not in mod.wires:
        raise RtlilError(f"{mod.path}:{line}: unknown wire {t}")
    first, width, offset, _, _ = mod.wires[t]
    lo, hi = 0, width - 1
    if len(toks) > 1:
        sel = toks[1][1:-1]
        hi, lo = (int(x) - offset for x in sel.split(":")) if ":" in sel else (int(sel) - offset,) * 2
        if not 0 <= lo <= hi < width:
            raise RtlilError(f"{mod.path}:{line}: {t} [{sel}] out of range")
    return [(2 + first + lo, hi - lo + 1)]


def refs(chunk_list):
    out = []
    for first, n in chunk_list:
        if first is None:
            out.extend(n)
        else:
            out.extend(range(first, first + n))
    return out


def parse(path):
    modules = {}
    mod = cell = None
    pending = []  # a module's cells and connects, read once its wires are known
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith(("#", "attribute", "autoidx")):
                continue
            kw = line.split(None, 1)[0]
            if kw == "module":
                mod = Module(line.split()[1], path)
                modules[mod.name] = mod
                pending = []
            elif kw == "wire":
                t = line.split()
                width, offset, kind, index, i = 1, 0, None, 0, 1
                while i < len(t) - 1:
                    if t[i] in ("width", "offset"):
                        width, offset = (int(t[i + 1]), offset) if t[i] == "width" else (width, int(t[i + 1]))
                        i += 2
                    elif t[i] in ("input", "output", "inout"):
                        kind, index = t[i], int(t[i + 1])
                        i += 2
                    elif t[i] == "upto":
                        raise RtlilError(f"{path}:{lineno}: wire with upto indexing not supported")
                    else:
                        i += 1
                mod.add_wire(t[-1], width, offset, kind, index)
            elif kw == "cell":
                t = line.split()
                cell = (t[1], {}, {}, lineno)
            elif kw == "parameter" and cell is not None:
                t = line.split(None, 2)
                cell[1][t[1].lstrip("\\")] = t[2]
            elif kw == "connect" and cell is not None:
                t = line.split(None, 2)
                cell[2][t[1].lstrip("\\")] = (tokens(t[2]), lineno)
            elif kw == "connect":
                pending.append((tokens(line)[1:], lineno))
            elif kw == "end":
                if cell is not None:
                    mod.cells.append(cell)
                    cell = None
                else:
                    for ci, (ctype, params, conns, line_c) in enumerate(mod.cells):
                        conv = {port: chunks(mod, toks, ln) for port, (toks, ln) in conns.items()}
                        mod.cells[ci] = (ctype, params, conv, line_c)
                    for toks, ln in pending:
                        lhs, rest = split_sig(toks)
                        rhs, rest = split_sig(rest)
                        if rest:
                            raise RtlilError(f"{path}:{ln}: cannot read connect")
                        mod.connects.append((chunks(mod, lhs, ln), chunks(mod, rhs, ln), ln))
                    mod = None
            elif kw in ("process", "switch", "case", "sync"):
                raise RtlilError(f"{path}:{lineno}: {kw} not supported (run proc first)")
    return modules


NO_DRIVER, CUT_OFF = -1, -2  # driver entries besides a cell index


class Blaster:
    """One module's cone, blasted into a shared Aig. Input port bits come from
    ports (shared between the two sides of a miter: same name, same input);
    so do the cut registers' values (their next values are compared); a
    blackbox cell's outputs are inputs too, one set per distinct input value
    (boxes: a blackbox is a function of its inputs, so two with equal input
    literals have equal outputs - the proof's cut point)."""

    def __init__(self, mod, modules, aig, ports, boxes, cut_dff):
        self.mod = mod
        self.path = mod.path
        self.modules = modules
        self.aig = aig
        self.ports = ports  # (name, bit) -> literal, shared
        self.boxes = boxes  # (type, input literals) -> output literals, shared
        n = mod.nbits
        self.alias = array("q", [-1]) * n  # bit id -> ref it is connected to
        self.driver = array("q", [NO_DRIVER]) * n
        self.value = array("q", [-1]) * n  # bit id -> literal
        self.next_state = {}  # (register wire, bit) -> ref of its next value
        self.cut_dff = re.compile(cut_dff) if cut_dff else None

    def where(self, line):
        return f"{self.path}:{line}"

    def prepare(self):
        mod = self.mod
        for lhs, rhs, line in mod.connects:
            lb, rb = refs(lhs), refs(rhs)
            if len(lb) != len(rb):
                raise RtlilError(f"{self.where(line)}: connect of {len(lb)} and {len(rb)} bits")
            for a, b in zip(lb, rb):
                if a < 2:
                    raise RtlilError(f"{self.where(line)}: connect drives a constant")
                if self.alias[a - 2] >= 0:
                    raise RtlilError(f"{self.where(line)}: {mod.name_of(a - 2)} driven twice")
                self.alias[a - 2] = b
        for ci, (ctype, params, conns, line) in enumerate(mod.cells):
            if ctype in ("$dff", "$adff", "$dffe", "$sdff", "$dlatch"):
                self.prepare_register(ci, ctype, conns, line)
                continue
            for port in self.outputs_of(ctype):
                for b in refs(conns.get(port, [])):
                    if b >= 2:
                        self.set_driver(b, ci, line)
        for wname, width in mod.ports("input"):
            first = mod.wires[wname][0]
            for i in range(width):
                self.value[first + i] = self.shared_input((wname, i))

    def set_driver(self, b, what, line):
        if self.alias[b - 2] >= 0 or self.driver[b - 2] != NO_DRIVER:
            raise RtlilError(f"{self.where(line)}: {self.mod.name_of(b - 2)} driven twice")
        self.driver[b - 2] = what

    def prepare_register(self, ci, ctype, conns, line):
        """A cut register (its name matches cut_dff): its value an input
        shared by name, its next value compared; any other register must not
        be read (a process's local variable, written before it is read)."""
        if ctype not in ("$dff", "$dlatch"):
            raise RtlilError(f"{self.where(line)}: {ctype} not supported ($dff, $dlatch only)")
        q, d = conns["Q"], conns["D"]
        names = []
        for first, n in q:
            if first is None:
                raise RtlilError(f"{self.where(line)}: register with a constant output")
            for b in range(first, first + n):
                wname, bit = self.mod.name_of(b - 2).rsplit(" [", 1)
                names.append((wname, int(bit[:-1])))
        cut = self.cut_dff is not None and all(self.cut_dff.search(w) for w, _ in names)
        if cut and ctype != "$dff":
            raise RtlilError(f"{self.where(line)}: a latch named as a cut register")
        for b, name, nxt in zip(refs(q), names, refs(d)):
            self.set_driver(b, CUT_OFF if not cut else NO_DRIVER, line)
            if cut:
                self.driver[b - 2] = NO_DRIVER
                self.value[b - 2] = self.shared_input(name)
                self.next_state[name] = nxt

    def shared_input(self, name):
        if name not in self.ports:
            self.ports[name] = self.aig.new_input()
        return self.ports[name]

    def resolve(self, r):
        while r >= 2 and self.alias[r - 2] >= 0:
            r = self.alias[r - 2]
        return r

    def lit(self, r):
        """The literal of ref r, evaluating its cone (iteratively)."""
        r = self.resolve(r)
        if r < 2:
            return r
        if self.value[r - 2] >= 0:
            return self.value[r - 2]
        stack = [r]
        while stack:
            top = stack[-1]
            if self.value[top - 2] >= 0:
                stack.pop()
                continue
            ci = self.driver[top - 2]
            if ci == CUT_OFF:
                raise RtlilError(f"{self.path}: {self.mod.name_of(top - 2)} read: a register "
                                 "that is not cut")
            if ci == NO_DRIVER:
                self.value[top - 2] = self.aig.new_input()  # undriven: a free input
                stack.pop()
                continue
            ctype, _, conns, line = self.mod.cells[ci]
            outs = self.outputs_of(ctype)
            pending = []
            needed = self.needed_ports(ctype, conns)
            if needed is None:
                stack.append(self.resolve(refs(conns["S"])[0]))
                continue
            for port, ch in conns.items():
                if port in outs or port not in needed:
                    continue
                for x in refs(ch):
                    x = self.resolve(x)
                    if x >= 2 and self.value[x - 2] < 0:
                        pending.append(x)
            if pending:
                stack.extend(pending)
                continue
            self.eval_cell(ci)
            stack.pop()
            if self.value[top - 2] < 0:
                raise RtlilError(f"{self.where(line)}: cell left a bit unset")
        return self.value[r - 2]

    def needed_ports(self, ctype, conns):
        """The input ports a cell's value needs: a $mux whose select is a
        constant only the port it selects (a branch the elaboration left for
        a parameter, such as a memory read that is never selected); None
        while the select is not yet known."""
        if ctype != "$mux":
            return conns.keys()
        sel = self.resolve(refs(conns["S"])[0])
        sel = sel if sel < 2 else self.value[sel - 2]
        if sel < 0:
            return None
        return ("S", "B") if sel == 1 else ("S", "A") if sel == 0 else ("S", "A", "B")

    def outputs_of(self, ctype):
        box = self.modules.get(ctype)
        if box is None:
            return ("Y",)
        return tuple(name.lstrip("\\") for name, _ in box.ports("output"))

    def literals(self, ch):
        out = []
        for x in refs(ch):
            x = self.resolve(x)
            out.append(x if x < 2 else self.value[x - 2])
        return out

    def eval_cell(self, ci):
        ctype, params, conns, line = self.mod.cells[ci]
        outs = self.outputs_of(ctype)
        needed = self.needed_ports(ctype, conns)
        if ctype == "$mux" and len(needed) == 2:  # a constant select
            for b, v in zip(refs(conns["Y"]), self.literals(conns[needed[1]])):
                if b >= 2:
                    self.value[b - 2] = v
            return
        ins = {port: self.literals(ch) for port, ch in conns.items() if port not in outs}
        if ctype in self.modules:
            self.eval_box(ctype, conns, ins, line)
            return
        fn = CELLS.get(ctype)
        if fn is None:
            raise RtlilError(f"{self.where(line)}: cell type {ctype} not supported")
        p = {k: parse_param(v) for k, v in params.items()}
        try:
            y = fn(self.aig, ins, p)
        except (RtlilError, KeyError) as e:
            raise RtlilError(f"{self.where(line)}: {ctype}: {e}")
        ybits = refs(conns["Y"])
        if len(y) != len(ybits):
            raise RtlilError(f"{self.where(line)}: {ctype} gave {len(y)} bits for {len(ybits)}")
        for b, v in zip(ybits, y):
            if b >= 2:
                self.value[b - 2] = v

    def eval_box(self, ctype, conns, ins, line):
        box = self.modules[ctype]
        if box.cells or box.connects:
            raise RtlilError(f"{self.where(line)}: cell of {ctype}, not a blackbox: flatten first")
        key = (ctype, tuple(sorted((p, tuple(v)) for p, v in ins.items())))
        outs = self.boxes.get(key)
        if outs is None:
            outs = {name.lstrip("\\"): [self.aig.new_input() for _ in range(width)]
                    for name, width in box.ports("output")}
            self.boxes[key] = outs
        for port, ch in conns.items():
            if port in outs:
                for b, v in zip(refs(ch), outs[port]):
                    if b >= 2:
                        self.value[b - 2] = v


def parse_param(v):
    v = v.strip()
    m = CONST.match(v)
    if m:
        return int(m.group(2).replace("x", "0") or "0", 2)
    if v.startswith('"'):
        return v.strip('"')
    return int(v)


def ext(bits, width, signed):
    bits = list(bits[:width])
    fill = bits[-1] if signed and bits else 0
    return bits + [fill] * (width - len(bits))


def bitwise(op):
    def f(g, ins, p):
        w = p["Y_WIDTH"]
        a = ext(ins["A"], w, p["A_SIGNED"])
        b = ext(ins["B"], w, p["B_SIGNED"])
        return [op(g, x, y) for x, y in zip(a, b)]

    return f


def reduce_(op):
    def f(g, ins, p):
        return [op(g, ins["A"])] + [0] * (p["Y_WIDTH"] - 1)

    return f


def logic(op):
    def f(g, ins, p):
        a = g.any(ins["A"])
        b = g.any(ins["B"]) if "B" in ins else None
        return [op(g, a, b)] + [0] * (p["Y_WIDTH"] - 1)

    return f


def adder(g, a, b, carry):
    out = []
    for x, y in zip(a, b):
        s = g.XOR(g.XOR(x, y), carry)
        carry = g.OR(g.AND(x, y), g.AND(carry, g.XOR(x, y)))
        out.append(s)
    return out, carry


def add(g, ins, p):
    w = p["Y_WIDTH"]
    return adder(g, ext(ins["A"], w, p["A_SIGNED"]), ext(ins["B"], w, p["B_SIGNED"]), 0)[0]


def sub(g, ins, p):
    w = p["Y_WIDTH"]
    b = [x ^ 1 for x in ext(ins["B"], w, p["B_SIGNED"])]
    return adder(g, ext(ins["A"], w, p["A_SIGNED"]), b, 1)[0]


def neg(g, ins, p):
    w = p["Y_WIDTH"]
    a = [x ^ 1 for x in ext(ins["A"], w, p["A_SIGNED"])]
    return adder(g, a, [0] * w, 1)[0]


def pos(g, ins, p):
    return ext(ins["A"], p["Y_WIDTH"], p["A_SIGNED"])


def not_(g, ins, p):
    return [x ^ 1 for x in ext(ins["A"], p["Y_WIDTH"], p["A_SIGNED"])]


def compare(kind):
    def f(g, ins, p):
        signed = p["A_SIGNED"] and p["B_SIGNED"]
        w = max(len(ins["A"]), len(ins["B"]))
        a, b = ext(ins["A"], w, signed), ext(ins["B"], w, signed)
        if kind in ("eq", "ne"):
            r = g.all(g.XOR(x, y) ^ 1 for x, y in zip(a, b))
            r = r if kind == "eq" else r ^ 1
        else:
            # a - b over w + 1 bits; its sign bit is a < b.
            a1, b1 = ext(a, w + 1, signed), ext(b, w + 1, signed)
            if kind in ("lt", "ge"):
                diff, _ = adder(g, a1, [x ^ 1 for x in b1], 1)
                r = diff[-1] if kind == "lt" else diff[-1] ^ 1
            else:  # le, gt: b < a
                diff, _ = adder(g, b1, [x ^ 1 for x in a1], 1)
                r = diff[-1] ^ 1 if kind == "le" else diff[-1]
        return [r] + [0] * (p["Y_WIDTH"] - 1)

    return f


def mux(g, ins, p):
    s = ins["S"][0]
    return [g.MUX(s, a, b) for a, b in zip(ins["A"], ins["B"])]


def bwmux(g, ins, p):
    return [g.MUX(s, a, b) for a, b, s in zip(ins["A"], ins["B"], ins["S"])]


def pmux(g, ins, p):
    w, n = p["WIDTH"], p["S_WIDTH"]
    s = ins["S"]
    any_s = g.any(s)
    out = []
    for i in range(w):
        hit = g.any(g.AND(s[j], ins["B"][j * w + i]) for j in range(n))
        out.append(g.MUX(any_s, ins["A"][i], hit))
    return out


def pmux_planted(g, ins, p):
    """$pmux with output bit 0 inverted where a case hits (--plant)."""
    out = pmux(g, ins, p)
    out[0] = g.MUX(g.any(ins["S"]), out[0], out[0] ^ 1)
    return out


def shift(direction, amount_signed):
    """Y[k] = A[k + v] for amount v (direction -1: Y[k] = A[k - v]); the
    amount signed where the cell's B_SIGNED says so and amount_signed."""

    def f(g, ins, p):
        a, b, yw = ins["A"], ins["B"], p["Y_WIDTH"]
        if p.get("A_SIGNED", 0):
            raise RtlilError("signed shifted operand not supported")
        b_signed = amount_signed and p.get("B_SIGNED", 0)
        n = len(b)
        const = {i: x for i, x in enumerate(b) if x in (0, 1)}
        free = [i for i in range(n) if i not in const]
        # The amounts the constant bits allow, each decoded once.
        if len(free) > 16:
            raise RtlilError(f"shift amount with {len(free)} free bits: too many to decode")
        terms = [[] for _ in range(yw)]
        for combo in range(1 << len(free)):
            raw = sum(bit << i for i, bit in const.items())
            raw |= sum(((combo >> k) & 1) << i for k, i in enumerate(free))
            v = raw - (1 << n) if b_signed and (raw >> (n - 1)) & 1 else raw
            lit = g.all(b[i] if (raw >> i) & 1 else b[i] ^ 1 for i in free)
            for j, aj in enumerate(a):
                k = j - v if direction > 0 else j + v  # right by v: Y[k] = A[k + v]
                if 0 <= k < yw:
                    terms[k].append(g.AND(lit, aj))
        out = [g.any(t) for t in terms]
        return out

    return f


CELLS = {
    "$and": bitwise(lambda g, x, y: g.AND(x, y)),
    "$or": bitwise(lambda g, x, y: g.OR(x, y)),
    "$xor": bitwise(lambda g, x, y: g.XOR(x, y)),
    "$xnor": bitwise(lambda g, x, y: g.XOR(x, y) ^ 1),
    "$not": not_,
    "$pos": pos,
    "$buf": lambda g, ins, p: list(ins["A"]),
    "$neg": neg,
    "$add": add,
    "$sub": sub,
    "$reduce_or": reduce_(lambda g, a: g.any(a)),
    "$reduce_bool": reduce_(lambda g, a: g.any(a)),
    "$reduce_and": reduce_(lambda g, a: g.all(a)),
    "$reduce_xor": reduce_(lambda g, a: xor_all(g, a)),
    "$reduce_xnor": reduce_(lambda g, a: xor_all(g, a) ^ 1),
    "$logic_not": logic(lambda g, a, b: a ^ 1),
    "$logic_and": logic(lambda g, a, b: g.AND(a, b)),
    "$logic_or": logic(lambda g, a, b: g.OR(a, b)),
    "$eq": compare("eq"),
    "$eqx": compare("eq"),
    "$ne": compare("ne"),
    "$nex": compare("ne"),
    "$lt": compare("lt"),
    "$le": compare("le"),
    "$gt": compare("gt"),
    "$ge": compare("ge"),
    "$mux": mux,
    "$bwmux": bwmux,
    "$pmux": pmux,
    "$shift": shift(1, True),
    "$shiftx": shift(1, True),
    "$shr": shift(1, False),
    "$shl": shift(-1, False),
}


def xor_all(g, a):
    out = 0
    for x in a:
        out = g.XOR(out, x)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("aig")
    ap.add_argument("rtlil", nargs="+")
    ap.add_argument("--top", help="blast this module: its outputs are the AIG's")
    ap.add_argument("--miter", nargs=2, metavar=("GOLD", "GATE"),
                    help="the miter of two modules: inputs shared by name, one output, "
                         "high when an output bit or a cut register's next value differs")
    ap.add_argument("--cut-dff", metavar="REGEX",
                    help="cut the registers whose wire names match: each value an input "
                         "(shared by name), each next value an output")
    ap.add_argument("--slice-bits", type=int, metavar="N",
                    help="with --miter: one AIG per N compared bits (AIG_0.aig, AIG_1.aig, ...), "
                         "each the OR over them, of their cone alone")
    ap.add_argument("--gate", action="append", default=[], metavar="OUTS=OK:UNIT",
                    help="with --miter: compare bit i of each comma-separated output or "
                         "register OUTS (\\name, or \\name$next for a cut register's next "
                         "value) only where bit i / UNIT of GOLD's output OK is high")
    ap.add_argument("--order", metavar="MAP",
                    help="with --top: inputs and outputs in this write_aiger -map file's order")
    ap.add_argument("--plant", action="store_true",
                    help="map $pmux with output bit 0 inverted where a case hits (a fault)")
    args = ap.parse_args(argv)
    if args.plant:
        CELLS["$pmux"] = pmux_planted
    try:
        modules = {}
        for path in args.rtlil:
            for name, mod in parse(path).items():
                old = modules.get(name)
                if old is not None and (old.cells or mod.cells or old.wires != mod.wires):
                    raise RtlilError(f"{path}: module {name} defined twice")
                modules[name] = mod
        aig, ports, boxes = Aig(), {}, {}
        order = read_order(args.order) if args.order else None
        if order is not None:
            for name in order["input"]:
                ports[name] = aig.new_input()

        def blaster(name):
            if name not in modules:
                raise RtlilError(f"no module {name} in {' '.join(args.rtlil)}")
            bl = Blaster(modules[name], modules, aig, ports, boxes, args.cut_dff)
            bl.prepare()
            return bl

        def compared(bl):  # name -> ref: output port bits and next register values
            out = {}
            for wname, width in bl.mod.ports("output"):
                first = bl.mod.wires[wname][0]
                for i in range(width):
                    out[(wname, i)] = 2 + first + i
            for name, ref in bl.next_state.items():
                out[(name[0] + "$next", name[1])] = ref
            return out

        if args.miter:
            gold, gate = (blaster(n) for n in args.miter)
            if gold.mod.ports("input") != gate.mod.ports("input"):
                raise RtlilError(f"{args.miter[0]} and {args.miter[1]}: input ports differ")
            gold_out, gate_out = compared(gold), compared(gate)
            if sorted(gold_out) != sorted(gate_out):
                raise RtlilError(f"{args.miter[0]} and {args.miter[1]}: outputs or cut "
                                 "registers differ")
            gates = {}
            for spec in args.gate:
                outs, _, ok = spec.partition("=")
                ok, _, unit = ok.partition(":")
                for out in outs.split(","):
                    if not any(name[0] == out for name in gold_out):
                        raise RtlilError(f"--gate {spec}: no output or register {out}")
                    gates[out] = (ok, int(unit or 1))
            diffs = []
            for name, r in gold_out.items():
                differs = aig.XOR(gold.lit(r), gate.lit(gate_out[name]))
                if name[0] in gates:
                    ok, unit = gates[name[0]]
                    if (ok, name[1] // unit) not in gold_out:
                        raise RtlilError(f"--gate: {ok} has no bit {name[1] // unit}")
                    differs = aig.AND(differs, gold.lit(gold_out[(ok, name[1] // unit)]))
                diffs.append(differs)
            out_lits = [aig.any(diffs)]
        else:
            if not args.top:
                raise RtlilError("name a module: --top or --miter")
            bl = blaster(args.top)
            outs = compared(bl)
            if order is not None:
                if sorted(order["output"]) != sorted(outs) or len(ports) != len(order["input"]):
                    raise RtlilError(f"{args.order}: not the inputs and outputs of {args.top}")
                outs = {name: outs[name] for name in order["output"]}
            out_lits = [bl.lit(r) for r in outs.values()]
        if args.slice_bits:
            if not args.miter:
                raise RtlilError("--slice-bits needs --miter")
            stem = args.aig[:-4] if args.aig.endswith(".aig") else args.aig
            n = args.slice_bits
            if 1 in diffs:
                print("failed: Found a counterexample (a compared bit differs for every "
                      "input)")
                sys.exit(1)
            # A compared bit whose difference is 0 is equal by structure; one
            # whose difference is the literal of an earlier one is proven with
            # it (the same AIG node): the slices hold each other literal once.
            left = list(dict.fromkeys(d for d in diffs if d != 0))
            print(f"{len(diffs)} compared bits: {diffs.count(0)} equal by structure, "
                  f"{len(diffs) - diffs.count(0) - len(left)} the same node as another, "
                  f"{len(left)} to prove")
            for k in range(0, len(left), n):
                what = f"{stem}_{k // n}.aig: bits {k}..{min(k + n, len(left)) - 1} to prove"
                differs = aig.any(left[k:k + n])
                if differs == 1:  # two complementary differences: one is always 1
                    print(f"failed: Found a counterexample ({what} differ for every input)")
                    sys.exit(1)
                ins, nands = aig.write(f"{stem}_{k // n}.aig", [differs], cone=True)
                print(f"{what}, {ins} inputs, {nands} AND nodes")
        else:
            aig.write(args.aig, out_lits)
        print(f"{args.aig}: {len(aig.inputs)} inputs ({len(ports)} ports and registers), "
              f"{len(out_lits)} outputs, {len(aig.ands) // 3} AND nodes, "
              f"{len(boxes)} blackbox input values")
    except (RtlilError, OSError) as e:
        print(f"tcu_tools.formal.blast: {e}", file=sys.stderr)
        sys.exit(1)


def read_order(path):
    """A write_aiger -map file: {"input": [(wire, bit)...], "output": [...]}
    in AIG order (Yosys writes public names without their backslash)."""
    order = {"input": [], "output": []}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            t = line.split()
            if len(t) != 4 or t[0] not in order:
                raise RtlilError(f"{path}:{lineno}: not an input or output line")
            name = t[3] if t[3].startswith("$") else "\\" + t[3]
            order[t[0]].append((int(t[1]), (name, int(t[2]))))
    return {k: [name for _, name in sorted(v)] for k, v in order.items()}


if __name__ == "__main__":
    main()
