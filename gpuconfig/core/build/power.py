"""The build's power: what it draws, what its supply must be rated for, and what it takes from the wall."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from gpuconfig.core.build.model import Resolved
from gpuconfig.core.build.rules import Circuit, Rules
from gpuconfig.core.i18n import translate


@dataclass(frozen=True)
class PowerBudget:
    gpu_w: int  # every card at its board power
    cpu_w: int
    cpu_basis: str  # "maximum package power" or "TDP" (when the catalog has no package-power figure), in words
    rest_w: int
    sustained_w: int
    required_w: int  # the rating a supply of this ATX generation needs, transients included
    gpu_factor: float
    psu_w: int | None
    atx3: bool | None  # None: no supply in the build
    wall_w: int | None  # sustained draw divided by the supply's 80 PLUS efficiency at half load
    efficiency: float | None
    circuit: Circuit
    cpu_basis_short: str = ""  # the basis in a word or two ("TDP"), for a sentence that says why elsewhere


def is_atx3(atx_version: str | None) -> bool:
    return bool(atx_version) and str(atx_version).strip().startswith("3")


def cpu_power(resolved: Resolved) -> tuple[int, str, str]:
    """The CPU's watts, the figure they are counted from in words, and that figure's short name."""
    cpu = resolved.one("cpu")
    if cpu is None:
        none = translate("BuildChecks", "no CPU in the build")
        return 0, none, none
    if cpu.spec("max_power_w"):
        package = translate("BuildChecks", "maximum package power")
        return int(cpu.spec("max_power_w")) * cpu.count, package, package
    tdp = translate("BuildChecks", "TDP (the catalog has no maximum package power for it)")
    return int(cpu.spec("tdp_w") or 0) * cpu.count, tdp, translate("BuildChecks", "TDP")


def required_rating(gpu_w: int, cpu_w: int, atx3: bool, rules: Rules) -> int:
    """The supply rating that carries the cards' power excursions on this ATX generation."""
    factor = rules.gpu_factor_atx3 if atx3 else rules.gpu_factor_atx2
    return math.ceil(gpu_w * factor + cpu_w + rules.rest_of_system_w)


def power_budget(resolved: Resolved, rules: Rules, circuit_id: str) -> PowerBudget:
    gpu_w = sum(int(item.spec("tdp_w") or 0) * item.count for item in resolved.gpus())
    cpu_w, basis, short = cpu_power(resolved)
    sustained = gpu_w + cpu_w + rules.rest_of_system_w
    psu = resolved.one("psu")
    atx3 = is_atx3(psu.spec("atx_version")) if psu else None
    factor = rules.gpu_factor_atx3 if atx3 in (True, None) else rules.gpu_factor_atx2
    required = required_rating(gpu_w, cpu_w, atx3 is not False, rules)
    efficiency = rules.efficiency.get(str(psu.spec("efficiency"))) if psu else None
    wall = math.ceil(sustained / efficiency) if efficiency else None
    circuit = rules.circuits.get(circuit_id) or next(iter(rules.circuits.values()))
    psu_w = int(psu.spec("watts")) * psu.count if psu else None
    return PowerBudget(
        gpu_w,
        cpu_w,
        basis,
        rules.rest_of_system_w,
        sustained,
        required,
        factor,
        psu_w,
        atx3,
        wall,
        efficiency,
        circuit,
        short,
    )


@dataclass(frozen=True)
class CardPower:
    """The power cables one card needs: native 12V-2x6/12VHPWR plugs, or 8-pin PCIe cables instead."""

    sixteen_pin: int
    eight_pin: int  # as 8-pin (6+2) PCIe cables; for a 16-pin card, the adapter's count (0: none included)
    eps: int  # 8-pin CPU (EPS) cables, as data-center cards take
    known: bool


_COUNT = r"(\d+)\s*x\s*"


def card_power(text: str | None) -> CardPower:
    """Read the catalog's power-connector text ("1x 16-pin (12VHPWR)", "2x 8-pin PCIe", "12-pin (2x PCIe 8-pin
    via included adapter)", "16-pin 12VHPWR (3-4x PCIe 8-pin via included adapter)", "none (slot-powered)")."""
    if not text:
        return CardPower(0, 0, 0, known=False)
    lower = text.lower()
    if lower.startswith("none"):
        return CardPower(0, 0, 0, known=True)
    if "eps" in lower or "cpu" in lower:
        match = re.search(_COUNT + r"8-pin", lower)
        return CardPower(0, 0, int(match.group(1)) if match else 1, known=True)
    adapter = re.search(r"(\d+)(?:-\d+)?\s*x\s*pcie 8-pin via", lower)
    adapted = int(adapter.group(1)) if adapter else 0
    if "16-pin" in lower or "12vhpwr" in lower or "12v-2x6" in lower:
        match = re.match(_COUNT, lower)
        return CardPower(int(match.group(1)) if match else 1, adapted, 0, known=True)
    if "12-pin" in lower:  # the RTX 30 Founders Edition plug, fed from 8-pin cables through its adapter
        return CardPower(0, adapted or 2, 0, known=True)
    cables = re.findall(_COUNT + r"(?:pcie )?[68]-pin", lower)  # "1x 8-pin + 1x 6-pin PCIe": two cables
    if cables:
        return CardPower(0, sum(int(count) for count in cables), 0, known=True)
    return CardPower(0, 0, 0, known=False)
