"""The campaign: each mutant run through the regression (a Verilated model
with every mutant compiled in; TCU_PLUSARGS=+mutant=K chooses one), killed
at the first run that fails (a mismatch, an assertion, or no end within the
time limit), else survived; survivors known to be equivalent are listed
apart (spec/mutation_equivalent.txt)."""
from __future__ import annotations

import os
import random
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Stage:
    name: str
    args: list[str]
    # More plusargs for the Verilated model (after +mutant=K).
    plusargs: str = ""


def regression(data_dir: Path, seed: int) -> list[Stage]:
    """Quick runs first (they kill most mutants within a second), the
    project's vector files (seconds), then the main job's regression
    (scripts/main.sh's counts). Every case index 31 of 32 is a directed
    corner case (model/src/generator.cpp), so 64 cases a variant include two."""
    s = str(seed)
    stages = [
        Stage("quick", ["run", "--count", "64", "--seed", s]),
        # The same from a random power-up state: every register without a
        # reset starts from Verilator's rand-reset (the configuration is
        # Verilated with --x-initial unique), so a reset value that lets
        # unreset data through (a valid bit reset to 1) is seen.
        Stage("random-start", ["run", "--count", "64", "--seed", s],
              f"+verilator+rand+reset+2 +verilator+seed+{seed}"),
        Stage("quick-stress", ["run", "--mix", "--backpressure", "0.9", "--count", "2000",
                               "--seed", s]),
    ]
    for vectors in sorted(data_dir.glob("*.jsonl.gz")):
        stages.append(Stage(f"replay {vectors.name}", ["replay", "--engine", "rtl", str(vectors)]))
    stages += [
        Stage("main", ["run", "--count", "1000", "--seed", s]),
        Stage("main-mix", ["run", "--mix", "--backpressure", "0.2", "--count", "20000",
                           "--seed", s]),
        Stage("main-stress", ["run", "--mix", "--backpressure", "0.9", "--count", "3000",
                              "--seed", s]),
    ]
    return stages


@dataclass
class Outcome:
    mutant: dict
    status: str = "survived"      # killed, survived, equivalent
    stage: str = ""               # the run that killed it
    detail: str = ""
    seconds: float = 0.0
    reason: str = ""              # why equivalent


def run_one(tcu: Path, config: str, mutant: dict, stages: list[Stage],
            timeout: float) -> Outcome:
    outcome = Outcome(mutant)
    start = time.monotonic()
    for stage in stages:
        env = dict(os.environ,
                   TCU_PLUSARGS=f"+mutant={mutant['number']} {stage.plusargs}".strip())
        args = [str(tcu), *stage.args, "--config", config]
        if stage.args[0] == "run":
            args += ["--jobs", "1"]
        try:
            done = subprocess.run(args, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            outcome.status, outcome.stage = "killed", stage.name
            outcome.detail = f"no end within {timeout:g} s"
            break
        if done.returncode != 0:
            outcome.status, outcome.stage = "killed", stage.name
            tail = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
            outcome.detail = f"exit {done.returncode}: {tail[-1] if tail else ''}"[:160]
            break
    outcome.seconds = time.monotonic() - start
    return outcome


def sample(mutants: list[dict], count: int, seed: int) -> list[dict]:
    """count mutants spread over the units: taken a unit at a time in turn,
    each unit's mutants in a seeded order."""
    rng = random.Random(seed)
    by_unit: dict[str, list[dict]] = {}
    for m in mutants:
        by_unit.setdefault(m["unit"], []).append(m)
    for group in by_unit.values():
        rng.shuffle(group)
    units = sorted(by_unit)
    rng.shuffle(units)
    chosen: list[dict] = []
    while len(chosen) < count and any(by_unit.values()):
        for unit in units:
            if by_unit[unit] and len(chosen) < count:
                chosen.append(by_unit[unit].pop())
    return sorted(chosen, key=lambda m: m["number"])


@dataclass
class Campaign:
    tcu: Path
    config: str
    stages: list[Stage]
    timeout: float
    jobs: int
    equivalent: dict[str, str] = field(default_factory=dict)

    def run(self, mutants: list[dict], progress) -> list[Outcome]:
        outcomes: list[Outcome] = []
        to_run = []
        for m in mutants:
            if m["id"] in self.equivalent:
                outcomes.append(Outcome(m, "equivalent", reason=self.equivalent[m["id"]]))
            else:
                to_run.append(m)
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(run_one, self.tcu, self.config, m, self.stages, self.timeout)
                       for m in to_run]
            for future in futures:
                outcome = future.result()
                progress(outcome)
                outcomes.append(outcome)
        return sorted(outcomes, key=lambda o: o.mutant["number"])
