"""The machine around the GPUs: the cheapest board, CPU, memory, drive, supply and case that pass every rule.

Each part kind is chosen by its own rule (the board seats the cards; the CPU fits the socket and has the
lanes; memory matches the platform and the GPU memory rule; the supply carries the peak with its ATX
generation's transient factor; the case takes the board, the cards' length and their last slot), then the
whole build goes through the same checker a hand-made build does. Parts the user owns cost nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpuconfig.core.build.check import Placement, card_width, check, place_cards
from gpuconfig.core.build.model import Build, BuildLine, Item, resolve
from gpuconfig.core.build.power import card_power, is_atx3, power_budget, required_rating
from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate

Price = Callable[[Part], float | None]  # a part's price in the plan's currency; None: not for sale here


@dataclass(frozen=True)
class Platform:
    """The chosen non-GPU parts (board, CPU, memory kit x count, drive, supply, case or None)."""

    lines: tuple[BuildLine, ...]
    cost: float
    link: tuple[int, int] = (0, 0)  # the slowest slot the cards sit in: PCIe generation, lanes
    wall_w: int = 0  # the whole machine's draw at the wall


class Parts:
    """The catalog by kind, each kind sorted cheapest first; unpriced parts are left out unless owned."""

    def __init__(self, parts: Sequence[Part], price: Price) -> None:
        self.price = price
        self.by_kind: dict[str, list[tuple[float, Part]]] = {}
        for part in parts:
            amount = price(part)
            if amount is not None:
                self.by_kind.setdefault(part.kind, []).append((amount, part))
        for items in self.by_kind.values():
            items.sort(key=lambda pair: pair[0])

    def __call__(self, kind: str) -> list[tuple[float, Part]]:
        return self.by_kind.get(kind, [])


def _cpu_lanes_needed(placement: Placement) -> int:
    return sum(int(slot["lanes"]) for slot, _ in placement.placed if slot.get("source") != "chipset")


def _memory(parts: Parts, board: Part, cpu: Part, needed_gb: int) -> tuple[float, Part, int] | None:
    """The cheapest set of identical kits that matches the platform and holds `needed_gb`."""
    best: tuple[float, Part, int] | None = None
    want_module = "RDIMM" if cpu.specs.get("segment") in ("workstation", "server") else "UDIMM"
    for price, kit in parts("ram"):
        if (
            kit.specs.get("memory_type") != board.specs.get("memory_type")
            or kit.specs.get("module_type") != want_module
        ):
            continue
        per_kit, modules = int(kit.specs.get("capacity_gb") or 0), int(kit.specs.get("modules") or 1)
        count = max(1, math.ceil(needed_gb / per_kit)) if per_kit else 0
        if not count or count * modules > int(board.specs.get("memory_slots") or 0):
            continue
        limit = min(int(board.specs.get("max_memory_gb") or 1 << 20), int(cpu.specs.get("max_memory_gb") or 1 << 20))
        if count * per_kit > limit:
            continue
        if best is None or price * count < best[0]:
            best = (price * count, kit, count)
    return best


def _supply(
    parts: Parts, cards: list[Item], gpu_w: int, cpu_w: int, rules: Rules, circuit_w: int
) -> tuple[float, Part] | None:
    sustained = gpu_w + cpu_w + rules.rest_of_system_w
    for price, psu in parts("psu"):
        watts = int(psu.specs.get("watts") or 0)
        if watts < required_rating(gpu_w, cpu_w, is_atx3(psu.specs.get("atx_version")), rules):
            continue
        if sustained > rules.comfortable_share * watts:
            continue
        if not has_cables(psu, cards):
            continue
        efficiency = rules.efficiency.get(str(psu.specs.get("efficiency")))
        if efficiency and sustained / efficiency > circuit_w:
            continue
        return price, psu
    return None


def has_cables(psu: Part, cards: Sequence[Item]) -> bool:
    """Whether the supply has a native cable for every plug of the cards: a 12V-2x6 cable per 16-pin plug,
    a PCIe 8-pin cable per 8-pin plug."""
    plugs = [(card_power(c.spec("power_connectors")), c.count) for c in cards]
    sixteen = sum(power.sixteen_pin * count for power, count in plugs)
    eight = sum((power.eight_pin if power.sixteen_pin == 0 else 0) * count for power, count in plugs)
    if sixteen > int(psu.specs.get("connectors_12v2x6") or 0):
        return False
    return not eight or (psu.specs.get("pcie_8pin") is not None and eight <= int(psu.specs["pcie_8pin"]))


def _case(parts: Parts, board: Part, cards: list[Item], last_position: int) -> tuple[float, Part] | None:
    longest = max((int(c.spec("board_length_mm") or 0) for c in cards), default=0)
    for price, case in parts("case"):
        if board.specs.get("form_factor") not in (case.specs.get("motherboards") or []):
            continue
        if longest > int(case.specs.get("max_gpu_length_mm") or 0):
            continue
        if last_position > int(case.specs.get("expansion_slots") or 0):
            continue
        return price, case
    return None


def _drive(parts: Parts, board: Part, needed_gb: int) -> tuple[float, Part] | None:
    for price, ssd in parts("ssd"):
        if ssd.specs.get("interface") != "NVMe" or int(ssd.specs.get("capacity_gb") or 0) < needed_gb:
            continue
        if not str(ssd.specs.get("form_factor") or "").upper().startswith("M.2") or not board.specs.get("m2_slots"):
            continue
        return price, ssd
    return None


def cheapest_platform(
    parts: Parts,
    gpu: Part,
    count: int,
    rules: Rules,
    *,
    circuit: str,
    drive_gb: int,
    with_case: bool = True,
    lookup: Callable[[str], Part | None],
    host_gb: int = 0,
) -> tuple[Platform | None, str]:
    """The cheapest set of parts that passes every rule with `count` x `gpu`, or None and the reason;
    `host_gb` is system memory the workload itself keeps on top (ZeRO-Offload's optimizer state)."""
    cards = [Item(gpu, count)]
    gpu_w = int(gpu.specs.get("tdp_w") or 0) * count
    circuit_w = rules.circuits[circuit].watts if circuit in rules.circuits else 1 << 30
    needed_ram = math.ceil(float(gpu.specs.get("memory_gb") or 0) * rules.ram_gpu_ratio) + host_gb
    best: Platform | None = None
    reasons: list[str] = []
    for board_price, board in parts("motherboard"):
        placement = place_cards(list(board.specs.get("x16_slots") or []), cards)
        if placement.unplaced:
            reasons.append("slots")
            continue
        for cpu_price, cpu in parts("cpu"):
            if cpu.specs.get("socket") != board.specs.get("socket"):
                continue
            if _cpu_lanes_needed(placement) > int(cpu.specs.get("pcie_lanes") or 0):
                reasons.append("lanes")
                continue
            memory = _memory(parts, board, cpu, needed_ram)
            if memory is None:
                reasons.append("memory")
                continue
            cpu_w = int(cpu.specs.get("max_power_w") or cpu.specs.get("tdp_w") or 0)
            supply = _supply(parts, cards, gpu_w, cpu_w, rules, circuit_w)
            if supply is None:
                reasons.append("power")
                continue
            drive = _drive(parts, board, drive_gb)
            if drive is None:
                reasons.append("drive")
                continue
            case = _case(parts, board, cards, placement.last_position) if with_case else (0.0, None)
            if case is None:
                reasons.append("case")
                continue
            cost = board_price + cpu_price + memory[0] + supply[0] + drive[0] + case[0]
            if best is not None and cost >= best.cost:
                break  # CPUs come cheapest first: a dearer CPU on this board cannot win
            lines = [
                BuildLine(board.id),
                BuildLine(cpu.id),
                BuildLine(memory[1].id, memory[2]),
                BuildLine(drive[1].id),
                BuildLine(supply[1].id),
            ]
            if case[1] is not None:
                lines.append(BuildLine(case[1].id))
            slowest = min(
                ((int(slot["pcie_gen"]), int(slot["lanes"])) for slot, _ in placement.placed),
                key=lambda link: link[1] * 2 ** link[0],
            )
            build = Build("candidate", (BuildLine(gpu.id, count), *lines), circuit=circuit)
            resolved = resolve(build, lookup)
            if any(p.severity == "fail" for p in check(resolved, rules)):
                reasons.append("check")
                continue
            power = power_budget(resolved, rules, circuit)
            best = Platform(tuple(lines), cost, slowest, power.wall_w or power.sustained_w)
            break
    if best is not None:
        return best, ""
    return None, _why(reasons, gpu, count)


WHY = {
    "slots": QT_TRANSLATE_NOOP("Planner", "no board in the catalog seats {count} of these {width}-slot cards"),
    "lanes": QT_TRANSLATE_NOOP("Planner", "no CPU in the catalog has the PCIe lanes for the board's slots"),
    "memory": QT_TRANSLATE_NOOP("Planner", "no memory kit in the catalog matches the platform and holds enough"),
    "power": QT_TRANSLATE_NOOP(
        "Planner", "no supply in the catalog carries {count} of these cards (watts, cables or the wall circuit)"
    ),
    "drive": QT_TRANSLATE_NOOP("Planner", "no NVMe drive in the catalog is large enough"),
    "case": QT_TRANSLATE_NOOP(
        "Planner", "no case in the catalog takes the board, the cards' length and their last slot"
    ),
    "check": QT_TRANSLATE_NOOP("Planner", "every candidate failed a compatibility rule"),
}


def _why(reasons: list[str], gpu: Part, count: int) -> str:
    if not reasons:
        return translate("Planner", "the catalog has no priced boards")
    # The reason that stopped the most promising board: the last rule reached.
    order = list(WHY)
    worst = max(reasons, key=order.index)
    return translate("Planner", WHY[worst]).format(count=count, width=card_width(Item(gpu, 1)))
