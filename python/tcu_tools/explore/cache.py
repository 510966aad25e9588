"""The cache of builds and syntheses: keys from content (RTL sources, the
spec, parameters, tool versions), locks shared by shards on one machine, and
logged subprocesses."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

from .params import checkout


def rtl_fingerprint() -> dict[str, str]:
    # The spec too: a point's tool compiles DatapathConfig from it.
    root = checkout()
    files = sorted(list((root / "rtl").glob("*.sv")) + list((root / "rtl").glob("*.svh"))
                   + list((root / "rtl").glob("*.vlt"))
                   + list((root / "tb").glob("*.sv")) + [root / "spec" / "config.toml"])
    return {str(f.relative_to(root)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in files}


def tool_version(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "missing"


def content_key(kind: str, rtl_params: dict[str, int], fingerprint: dict[str, str],
                tool: str) -> str:
    text = json.dumps({"kind": kind, "params": rtl_params, "rtl": fingerprint, "tool": tool},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_cache(base) -> Path:
    if os.environ.get("TCU_EXPLORE_CACHE"):
        return Path(os.environ["TCU_EXPLORE_CACHE"])
    return (base.directory if base else checkout() / "build") / "explore-cache"


class Locked:
    """An exclusive lock on a cache entry (shards on one machine share it)."""

    def __init__(self, directory: Path):
        directory.mkdir(parents=True, exist_ok=True)
        self.file = open(directory / ".lock", "w")

    def __enter__(self):
        fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()


def run_logged(command: list[str], log: Path, env: dict | None = None,
               timeout: float | None = None) -> int:
    with open(log, "a") as out:
        out.write(f"$ {shlex.join(command)}\n")
        out.flush()
        try:
            return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                  timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            out.write(f"explore: timed out after {timeout} s\n")
            return -1


def log_excerpt(log: Path, lines: int = 6) -> str:
    """The lines of a failed step's log that say why (CMake, Verilator,
    compiler or Yosys errors), else its last lines."""
    try:
        text = log.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    pattern = re.compile(r"CMake Error|^%Error|error:|ERROR|\$fatal|must be|refused", re.I)
    picked = [i for i, line in enumerate(text) if pattern.search(line)]
    if picked:
        first = picked[0]
        chosen = text[first:first + lines]
    else:
        chosen = text[-lines:]
    return "\n".join("    " + line.strip() for line in chosen if line.strip())
