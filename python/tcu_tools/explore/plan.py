"""The builds and syntheses a sweep's points need: one per distinct content
key (points that differ only in run parameters share a model; points with
the same datapath parameters share a synthesis)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .build import Build
from .cache import content_key
from .params import router_parameters
from .synthesis import Synthesis


@dataclass
class Plan:
    """The builds and syntheses the selected points need, shared by content."""
    builds: dict[str, Build] = field(default_factory=dict)
    synths: dict[str, Synthesis] = field(default_factory=dict)
    point_build: dict[int, Build] = field(default_factory=dict)
    point_synth: dict[int, list[Synthesis]] = field(default_factory=dict)


def plan_of(points, selected, sweep, rtl, base, cache, no_synth, fingerprint, verilator,
            yosys) -> Plan:
    plan = Plan()
    # The router is synthesized (its own run, cached by its parameters) when
    # one of its parameters is an axis: at 32 words a cycle it takes Yosys a
    # quarter of an hour.
    router = router_parameters()
    synth_router = any(p in sweep.axes for p in router)
    for i in selected:
        params = {name: int(points[i][name]) for name in rtl}
        key = content_key("model", params, fingerprint,
                          verilator + (f" base {base.directory}" if base else ""))
        prebuilt = base.config_of(params) if base else None
        if prebuilt:  # the base build's own configuration: its tcu runs the point
            key = f"{prebuilt}-in-base"
        plan.point_build[i] = plan.builds.setdefault(
            key, Build(key, base.directory, params, base, config=prebuilt, prebuilt=True) if prebuilt else
            Build(key, cache / "models" / key, params, base))
        if no_synth:
            continue
        dp_params = {k: v for k, v in params.items() if k not in router}
        skey = content_key("synth", dp_params, fingerprint, yosys)
        plan.point_synth[i] = [plan.synths.setdefault(
            skey, Synthesis(skey, cache / "synth" / skey, dp_params, units=cache / "units"))]
        if synth_router:
            r_params = {k: params[k] for k in router}
            rkey = content_key("synth-router", r_params, fingerprint, yosys)
            plan.point_synth[i].append(plan.synths.setdefault(
                rkey, Synthesis(rkey, cache / "synth" / rkey, r_params, "tcu_operand_router")))
    return plan
