"""Running a sweep's plan: the base build brought up to date, builds, runs
and syntheses in a thread pool (a point's run after its build), progress on
stderr, and the rows they give."""
from __future__ import annotations

import concurrent.futures
import os
import sys
import threading
import time
from pathlib import Path

from .build import Base, Build, build_model
from .cache import log_excerpt, run_logged
from .plan import Plan
from .plots import label
from .runs import run_point
from .synthesis import Synthesis, synthesize


class Progress:
    def __init__(self, total: int):
        self.total, self.done, self.lock = total, 0, threading.Lock()
        self.start = time.monotonic()

    def step(self, text: str) -> None:
        with self.lock:
            self.done += 1
            elapsed = time.monotonic() - self.start
            print(f"[{self.done}/{self.total} {elapsed:6.0f} s] {text}", file=sys.stderr,
                  flush=True)


def update_base(base: Base, out: Path) -> bool:
    """The base's objects must be those of this source tree."""
    log = out / "base-build.log"
    log.write_text("")
    print(f"explore: bringing the base build {base.directory} up to date", file=sys.stderr)
    if run_logged(["cmake", "--build", str(base.directory), "--target", "tcu", "-j",
                   str(os.cpu_count() or 1)], log) != 0:
        print(f"{log_excerpt(log)}\nexplore: the base build failed (see {log})", file=sys.stderr)
        return False
    return True


def execute(plan: Plan, points, selected, sweep, out: Path, args, jobs: int,
            build_jobs: int) -> dict[int, dict]:
    """Builds, runs and syntheses, in a pool; each run after its build."""
    progress = Progress(len(plan.builds) + len(selected) + len(plan.synths))
    results: dict[int, dict] = {}

    def do_build(build: Build) -> Build:
        build_model(build, build_jobs)
        what = build.error or ("cached" if build.cached else f"built in {build.seconds:.0f} s")
        if build.error:
            what += "\n" + log_excerpt(build.directory / "build.log")
        progress.step(f"model {build.key}: {what}")
        return build

    def do_synth(synth: Synthesis) -> Synthesis:
        synthesize(synth, args.synth_timeout)
        what = synth.error or ("cached" if synth.cached else f"synthesized in {synth.seconds:.0f} s")
        if synth.error:
            what += "\n" + log_excerpt(synth.directory / "synth.log")
        progress.step(f"synthesis {synth.key}: {what}")
        return synth

    def do_run(i: int) -> None:
        build = plan.point_build[i]
        if build.error:
            results[i] = {"status": f"not run: {build.error}"}
        else:
            results[i] = run_point(points[i], build, sweep.workload, out / "points" / f"{i:04d}")
        status = results[i].get("status", "ok")
        if status != "ok" and build.error == "":
            status += "\n" + log_excerpt(out / "points" / f"{i:04d}" / "run.log")
        progress.step(f"point {i}: {label(points[i], list(sweep.axes))}: {status}")

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        build_futures = {key: pool.submit(do_build, b) for key, b in plan.builds.items()}
        synth_futures = [pool.submit(do_synth, s) for s in plan.synths.values()]
        # A point's run waits for its build; runs are short, synthesis long.
        run_futures = []
        for key, future in build_futures.items():
            future.result()
            for i in selected:
                if plan.point_build[i].key == key:
                    run_futures.append(pool.submit(do_run, i))
        for future in run_futures + synth_futures:
            future.result()
    return results


def rows_of(plan: Plan, points, selected, results) -> tuple[list[dict], list[str]]:
    """The CSV rows, and notes on figures a source lacked."""
    rows, notes = [], []
    for i in selected:
        row: dict[str, object] = {"point": i}
        row.update(points[i])
        row.update(results.get(i, {}))
        row["build_s"] = round(plan.point_build[i].seconds, 1)
        for synth in plan.point_synth.get(i, []):
            row.update(synth.figures)
            if synth.library and synth.top == "tcu_datapath":
                row["library"] = synth.library
            if synth.note and synth.note not in notes:
                notes.append(synth.note)
            if synth.error:
                row["status"] = "; ".join(filter(None, [str(row.get("status", "")), synth.error]))
        row.setdefault("status", "ok")
        rows.append(row)
    if rows and not any(r.get("energy_pj_per_mac") not in (None, "") for r in rows):
        notes.append("the run reports have no \"energy\" block: energy_pj_per_mac and tops_per_w "
                     "are empty")
    return rows, notes
