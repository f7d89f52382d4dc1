"""The "laptop with eGPU" form of a plan: one card in the cheapest enclosure that works with the laptop's
port, plus a supply when the enclosure has none; the step slowed by the batch crossing the link."""

from __future__ import annotations

from dataclasses import replace

from gpuconfig.core.build.model import BuildLine, Item
from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import Host, check_egpu, dock_psu_needed
from gpuconfig.core.egpu.speed import LinkSpeed, link_speed
from gpuconfig.core.egpu.tables import EgpuTables
from gpuconfig.core.i18n import translate
from gpuconfig.core.planner.gpus import GpuOption, paced
from gpuconfig.core.planner.platform import Parts, Platform, has_cables


def _psu_for(parts: Parts, gpu: Part, rules: Rules) -> tuple[float, Part] | None:
    """The cheapest supply that carries the card alone and has its power cables."""
    need = dock_psu_needed(gpu, rules)
    card = [Item(gpu, 1)]
    return next(
        (
            (price, psu)
            for price, psu in parts("psu")
            if int(psu.specs.get("watts") or 0) >= need and has_cables(psu, card)
        ),
        None,
    )


def cheapest_enclosure(
    parts: Parts, gpu: Part, host: Host, tables: EgpuTables, rules: Rules
) -> tuple[Platform | None, LinkSpeed | None, str]:
    """The cheapest priced enclosure (with a supply if it needs one) that passes the eGPU rules, its link's
    speed, or None and why not."""
    reasons: list[str] = []
    for price, dock in parts("dock"):
        found = check_egpu(host, dock, gpu, tables, rules)
        failed = [c for c in found.checks if c.status == "fail"]
        if failed:
            reasons.append(f"{dock.name}: {failed[0].rule}")
            continue
        lines = [BuildLine(dock.id)]
        cost = price
        if dock.specs.get("psu_w") is None and dock.specs.get("max_gpu_power_w") is None:
            supply = _psu_for(parts, gpu, rules)
            if supply is None:
                reasons.append(translate("Planner", "{enclosure}: no priced supply for it").format(enclosure=dock.name))
                continue
            cost += supply[0]
            lines.append(BuildLine(supply[1].id))
        speed = link_speed(found.link, gpu, rules) if found.link is not None else None
        if speed is None:
            reasons.append(
                translate("Planner", "{enclosure}: no measured rate for its link").format(enclosure=dock.name)
            )
            continue
        link = (found.link.pcie_gen or 0, found.link.pcie_lanes or 0) if found.link else (0, 0)
        return Platform(tuple(lines), cost, link, int(gpu.specs.get("tdp_w") or 0)), speed, ""
    if not parts("dock"):
        return None, None, translate("Planner", "no priced eGPU enclosure in the catalog")
    return None, None, translate("Planner", "no enclosure works: {reasons}").format(reasons="; ".join(reasons[:4]))


def with_link(option: GpuOption, input_bytes: float, speed: LinkSpeed) -> GpuOption:
    """The option with each step's batch copied over the eGPU link before its kernels (a plain loop)."""
    copy = input_bytes / (speed.egpu_gbs * 1e9)
    link = translate("Planner", "{link}, about {rate:g} GB/s host to device").format(
        link=speed.link.name, rate=speed.egpu_gbs
    )
    if option.step_seconds is None:
        return replace(option, comm_seconds=copy, link=link)
    return paced(option, option.step_seconds + copy, copy, link)
