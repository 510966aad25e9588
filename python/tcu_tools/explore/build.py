"""A point's `tcu`: the project built with the point's datapath as its one
configuration, cached by content, linking a base build's libraries."""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .cache import Locked, run_logged
from .params import UsageError, checkout, use_base_source

CONFIG_NAME = "explore"  # the one configuration a point's build Verilates


@dataclass
class Base:
    """A build of this project whose configuration-independent objects and
    libraries every point's tool links (cmake/TcuExplorePoint.cmake), so a
    point compiles only its Verilated model."""
    directory: Path
    settings: dict[str, str]

    @staticmethod
    def find(directory: str | None) -> "Base | None":
        if not directory:
            return None
        path = Path(directory).resolve()
        text_file = path / "tcu-explore-base.cmake"
        if not text_file.exists():
            raise UsageError(f"--base {directory}: no tcu-explore-base.cmake there (a build of "
                             "this project with the RTL; or leave --base out to build each point "
                             "in full)")
        settings = dict(re.findall(r'^set\((\w+) "([^"]*)"\)', text_file.read_text(), re.M))
        if settings.get("TCU_BASE_SOURCE_DIR"):
            use_base_source(Path(settings["TCU_BASE_SOURCE_DIR"]))
        return Base(path, settings)

    def configs(self) -> dict[str, dict[str, int]]:
        """The configurations the base build Verilated, by name: their RTL
        parameters (its generated/tcu_configs.cmake)."""
        path = self.directory / "generated" / "tcu_configs.cmake"
        if not path.exists():
            return {}
        return {name: {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", text)}
                for name, text in re.findall(r"^set\(TCU_CONFIG_RESOLVED_(\w+) ([^)]*)\)",
                                             path.read_text(), re.M)}

    def config_of(self, params: dict[str, int]) -> str | None:
        """The base's configuration of exactly these RTL parameters, if any:
        a point of it runs on the base's own tcu, nothing built."""
        for name, values in self.configs().items():
            if all(values.get(k) == v for k, v in params.items()):
                return name
        return None

    def configure_args(self) -> list[str]:
        return [f"-DTCU_EXPLORE_BASE={self.directory}",
                f"-DCMAKE_CXX_COMPILER={self.settings.get('TCU_BASE_CXX_COMPILER', 'c++')}",
                f"-DCMAKE_BUILD_TYPE={self.settings.get('TCU_BASE_BUILD_TYPE', 'Release')}"]


@dataclass
class Build:
    key: str
    directory: Path
    params: dict[str, int]
    base: Base | None = None
    seconds: float = 0.0
    cached: bool = False
    error: str = ""
    config: str = CONFIG_NAME  # the configuration its tcu runs
    prebuilt: bool = False  # the base's own tcu and configuration: nothing to build

    @property
    def tcu(self) -> Path:
        return self.directory / "tcu"


def build_model(build: Build, jobs: int) -> None:
    """Configures (once) and builds the `tcu` tool with the point's datapath
    as its one configuration. ninja makes a second build of the same entry
    a no-op; C++ changes of the project rebuild only what they touch."""
    if build.prebuilt:
        build.cached = True
        return
    log = build.directory / "build.log"
    start = time.monotonic()
    source = checkout()
    with Locked(build.directory):
        stamp = build.directory / "built.json"
        if stamp.exists() and json.loads(stamp.read_text()).get("source") == str(source):
            build.cached = True
        if not (build.directory / "build.ninja").exists():
            assignments = ";".join(f"{k}={v}" for k, v in build.params.items())
            command = ["cmake", "-S", str(source), "-B", str(build.directory), "-G", "Ninja",
                       f"-DTCU_CONFIGS={CONFIG_NAME}",
                       f"-DTCU_CONFIG_{CONFIG_NAME}={assignments}"]
            if build.base:
                command += build.base.configure_args()
            else:
                command += ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF",
                            "-DTCU_BUILD_PYTHON=OFF"]
            if run_logged(command, log) != 0:
                build.error = f"cmake configure failed (see {log})"
                build.seconds = time.monotonic() - start
                return
        command = ["cmake", "--build", str(build.directory), "--target", "tcu", "-j", str(jobs)]
        before = build.tcu.stat().st_mtime_ns if build.tcu.exists() else 0
        if run_logged(command, log) != 0:
            build.error = f"build failed (see {log})"
        elif build.tcu.stat().st_mtime_ns != before:
            build.cached = False
        stamp.write_text(json.dumps({"source": str(source), "params": build.params}))
    build.seconds = time.monotonic() - start
