"""The compatibility checker: every rule a machine's parts must satisfy, each problem in words with its fix.

Works on any build, including one edited by hand: a missing part is a problem to report, not an error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gpuconfig.core.build.model import Item, Resolved
from gpuconfig.core.build.power import PowerBudget, card_power, power_budget
from gpuconfig.core.build.rules import Rules
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate

Severity = Literal["fail", "warn", "info"]
SEVERITIES: tuple[Severity, ...] = ("fail", "warn", "info")
DESKTOP_PARTS = ("cpu", "motherboard", "ram", "ssd", "psu", "case")
CONTEXT = "BuildChecks"
# The kinds as the checker's sentences name them (the English words are the kind ids).
KIND_WORDS = {
    "cpu": QT_TRANSLATE_NOOP("BuildChecks", "cpu"),
    "motherboard": QT_TRANSLATE_NOOP("BuildChecks", "motherboard"),
    "ram": QT_TRANSLATE_NOOP("BuildChecks", "ram"),
    "ssd": QT_TRANSLATE_NOOP("BuildChecks", "ssd"),
    "psu": QT_TRANSLATE_NOOP("BuildChecks", "psu"),
    "case": QT_TRANSLATE_NOOP("BuildChecks", "case"),
}


def _kind(kind: str) -> str:
    """A kind id in the checker's words (marked in KIND_WORDS, where translate() cannot see the literal)."""
    return translate(CONTEXT, KIND_WORDS.get(kind, kind))


@dataclass(frozen=True)
class Problem:
    severity: Severity
    rule: str  # a stable name: "socket", "psu-watts", ...
    message: str  # what is wrong, naming the parts and their figures
    fix: str = ""
    source: str = ""  # where the rule's figure comes from, when it has one

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "fix": self.fix,
            "source": self.source,
        }


@dataclass(frozen=True)
class Placement:
    """Where each card sits: (slot, item) in board order, and the cards that found no slot."""

    placed: tuple[tuple[dict[str, Any], Item], ...]
    unplaced: int
    last_position: int  # the lowest expansion position a card covers


def card_width(item: Item) -> int:
    """Expansion positions one card covers: a 2.5-slot card blocks 3."""
    return math.ceil(float(item.spec("slot_width") or 2))


def place_cards(slots: list[dict[str, Any]], cards: list[Item]) -> Placement:
    """Seat each card in the first free x16 slot from the CPU down, skipping slots its neighbour covers."""
    queue = [item for item in cards for _ in range(item.count)]
    placed: list[tuple[dict[str, Any], Item]] = []
    covered_to, last = 0, 0
    for slot in sorted(slots, key=lambda s: s["position"]):
        if not queue:
            break
        if slot["position"] <= covered_to:
            continue
        card = queue.pop(0)
        placed.append((slot, card))
        covered_to = slot["position"] + card_width(card) - 1
        last = covered_to
    return Placement(tuple(placed), len(queue), last)


def _names(items: tuple[Item, ...]) -> str:
    return ", ".join(f"{i.count}x {i.part.name}" if i.count > 1 else i.part.name for i in items)


ArchCheck = Callable[[Item], "Problem | None"]
# The eGPU rules live above the build checker (they use its figures), so a caller hands them in.
EgpuCheck = Callable[[Resolved, Rules], "list[Problem]"]


def check(
    resolved: Resolved,
    rules: Rules,
    circuit: str | None = None,
    arch_check: ArchCheck | None = None,
    egpu_check: EgpuCheck | None = None,
) -> list[Problem]:
    """Every problem of the build, worst first. `arch_check` judges one GPU against current PyTorch wheels;
    `egpu_check` (gpuconfig.core.egpu.problems.egpu_problems) judges a build with a dock, and such a build
    needs it: ValueError without."""
    budget = power_budget(resolved, rules, circuit or resolved.build.circuit)
    problems: list[Problem] = []
    problems += _completeness(resolved)
    if resolved.by_kind.get("dock"):
        if egpu_check is None:
            raise ValueError("a build with an eGPU enclosure is checked with the eGPU rules: pass egpu_check")
        problems += egpu_check(resolved, rules)
    else:
        problems += _platform(resolved)
        problems += _memory(resolved, rules)
        problems += _cards(resolved, rules)
        problems += _power(resolved, rules, budget)
    if arch_check is not None:
        problems += [p for item in resolved.gpus() if (p := arch_check(item)) is not None]
    return worst_first(problems)


def worst_first(problems: Sequence[Problem]) -> list[Problem]:
    """The problems by severity, fails first; each severity in the order given (rows added after `check`, such
    as the workload's memory (core/build/workload_fit.py), take their place with this)."""
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(problems, key=lambda p: order[p.severity])


def verdict(problems: Sequence[Problem]) -> str:
    """'fail', 'warn' or 'pass': the worst severity a build's problems reach ('info' passes)."""
    if any(p.severity == "fail" for p in problems):
        return "fail"
    return "warn" if any(p.severity == "warn" for p in problems) else "pass"


def _completeness(resolved: Resolved) -> list[Problem]:
    problems: list[Problem] = []
    if resolved.by_kind.get("dock"):
        return problems  # an eGPU build: the laptop is the rest of the machine
    if not resolved.gpus():
        problems.append(
            Problem(
                "warn",
                "incomplete",
                translate("BuildChecks", "The build has no GPU."),
                translate("BuildChecks", "Add a GPU from the catalog."),
            )
        )
    missing = [kind for kind in DESKTOP_PARTS if not resolved.by_kind.get(kind)]
    if missing:
        problems.append(
            Problem(
                "info",
                "incomplete",
                translate("BuildChecks", "Not in the build, so not checked: {kinds}.").format(
                    kinds=", ".join(_kind(kind) for kind in missing)
                ),
                translate("BuildChecks", "Add the missing parts to check them against the rest."),
            )
        )
    problems.extend(
        Problem(
            "fail",
            "duplicate",
            translate("BuildChecks", "The build has {n} {kind} lines; a machine takes one.").format(
                n=resolved.count(kind), kind=_kind(kind)
            ),
            translate("BuildChecks", "Keep one {kind}.").format(kind=_kind(kind)),
        )
        for kind in ("cpu", "motherboard", "psu", "case")
        if resolved.count(kind) > 1
    )
    return problems


def _platform(resolved: Resolved) -> list[Problem]:
    problems = []
    cpu, board, case = resolved.one("cpu"), resolved.one("motherboard"), resolved.one("case")
    if cpu and board and cpu.spec("socket") != board.spec("socket"):
        problems.append(
            Problem(
                "fail",
                "socket",
                translate("BuildChecks", "{cpu} is a {cpu_socket} CPU; {board} has a {board_socket} socket.").format(
                    cpu=cpu.part.name,
                    cpu_socket=cpu.spec("socket"),
                    board=board.part.name,
                    board_socket=board.spec("socket"),
                ),
                translate("BuildChecks", "Choose a {cpu_socket} board, or a {board_socket} CPU.").format(
                    cpu_socket=cpu.spec("socket"), board_socket=board.spec("socket")
                ),
            )
        )
    if board and case and board.spec("form_factor") not in (case.spec("motherboards") or []):
        problems.append(
            Problem(
                "fail",
                "case-board",
                translate("BuildChecks", "{case} takes {forms} boards; {board} is {form}.").format(
                    case=case.part.name,
                    forms=", ".join(case.spec("motherboards") or []),
                    board=board.part.name,
                    form=board.spec("form_factor"),
                ),
                translate("BuildChecks", "Choose a case that lists {form} support.").format(
                    form=board.spec("form_factor")
                ),
            )
        )
    ssds = resolved.by_kind.get("ssd", ())
    m2 = sum(item.count for item in ssds if str(item.spec("form_factor") or "").upper().startswith("M.2"))
    if board and board.spec("m2_slots") is not None and m2 > int(board.spec("m2_slots")):
        problems.append(
            Problem(
                "fail",
                "m2-slots",
                translate("BuildChecks", "{drives} M.2 drives, but {board} has {slots} M.2 slots.").format(
                    drives=m2, board=board.part.name, slots=board.spec("m2_slots")
                ),
                translate("BuildChecks", "Use fewer, larger drives, or a board with more M.2 slots."),
            )
        )
    return problems


def _memory(resolved: Resolved, rules: Rules) -> list[Problem]:
    problems: list[Problem] = []
    cpu, board, kits = resolved.one("cpu"), resolved.one("motherboard"), resolved.by_kind.get("ram", ())
    for kit in kits:
        problems.extend(
            Problem(
                "fail",
                "memory-type",
                translate("BuildChecks", "{kit} is {kit_type}; {host} takes {host_type}.").format(
                    kit=kit.part.name,
                    kit_type=kit.spec("memory_type"),
                    host=host.part.name,
                    host_type=host.spec("memory_type"),
                ),
                translate("BuildChecks", "Choose a {memory_type} kit.").format(memory_type=host.spec("memory_type")),
            )
            for host in (board, cpu)
            if host is not None and host.spec("memory_type") and kit.spec("memory_type") != host.spec("memory_type")
        )
        if board and kit.spec("module_type") == "SO-DIMM":
            problems.append(
                Problem(
                    "fail",
                    "memory-module",
                    translate("BuildChecks", "{kit} is SO-DIMM (laptop) memory; {board} takes full-size DIMMs.").format(
                        kit=kit.part.name, board=board.part.name
                    ),
                    translate("BuildChecks", "Choose a DIMM kit."),
                )
            )
        if cpu and kit.spec("module_type") == "RDIMM" and cpu.spec("segment") == "desktop":
            problems.append(
                Problem(
                    "fail",
                    "memory-module",
                    translate(
                        "BuildChecks",
                        "{kit} is registered (RDIMM) memory; desktop platforms such as {socket} take unbuffered DIMMs.",
                    ).format(kit=kit.part.name, socket=cpu.spec("socket")),
                    translate("BuildChecks", "Choose a UDIMM kit."),
                )
            )
    modules = sum(int(k.spec("modules") or 0) * k.count for k in kits)
    capacity = sum(int(k.spec("capacity_gb") or 0) * k.count for k in kits)
    if board and modules > int(board.spec("memory_slots") or 0):
        problems.append(
            Problem(
                "fail",
                "memory-slots",
                translate("BuildChecks", "{modules} memory modules, but {board} has {slots} slots.").format(
                    modules=modules, board=board.part.name, slots=board.spec("memory_slots")
                ),
                translate("BuildChecks", "Use fewer, larger modules."),
            )
        )
    for host in (h for h in (board, cpu) if h is not None):
        limit = host.spec("max_memory_gb")
        if limit and capacity > int(limit):
            problems.append(
                Problem(
                    "fail",
                    "memory-capacity",
                    translate("BuildChecks", "{capacity} GB of memory; {host} supports at most {limit} GB.").format(
                        capacity=capacity, host=host.part.name, limit=limit
                    ),
                    translate("BuildChecks", "Stay at or below {limit} GB.").format(limit=limit),
                )
            )
    biggest = max((float(g.spec("memory_gb") or 0) for g in resolved.gpus()), default=0.0)
    needed = math.ceil(biggest * rules.ram_gpu_ratio)
    if kits and capacity < needed:
        problems.append(
            Problem(
                "warn",
                "memory-size",
                translate(
                    "BuildChecks",
                    "{capacity} GB of system memory is less than the biggest GPU's {biggest:g} GB: loading a "
                    "checkpoint or pinning batches for it can swap.",
                ).format(capacity=capacity, biggest=biggest),
                translate("BuildChecks", "Use at least {needed} GB.").format(needed=needed),
                rules.ram_source,
            )
        )
    return problems


def _cards(resolved: Resolved, rules: Rules) -> list[Problem]:
    problems: list[Problem] = []
    gpus = resolved.gpus()
    count = resolved.count("gpu")
    if not gpus:
        return problems
    board, case = resolved.one("motherboard"), resolved.one("case")
    if len(gpus) > 1:
        problems.append(
            Problem(
                "warn",
                "mixed-gpus",
                translate(
                    "BuildChecks",
                    "Different GPUs in one machine ({gpus}): data-parallel training runs at the pace of the slowest "
                    "card and the memory of the smallest.",
                ).format(gpus=_names(gpus)),
                translate("BuildChecks", "Use one GPU model throughout."),
            )
        )
    if board:
        placement = place_cards(list(board.spec("x16_slots") or []), list(gpus))
        if placement.unplaced:
            problems.append(
                Problem(
                    "fail",
                    "gpu-slots",
                    translate(
                        "BuildChecks",
                        "{board} seats {seated} of the {count} cards: its x16 slots ({positions}) are too close for "
                        "{width}-slot cards.",
                    ).format(
                        board=board.part.name,
                        seated=count - placement.unplaced,
                        count=count,
                        positions=", ".join(str(s["position"]) for s in board.spec("x16_slots") or []),
                        width=max(card_width(g) for g in gpus),
                    ),
                    translate(
                        "BuildChecks",
                        "Choose a board with more widely spaced x16 slots, thinner (blower) cards, or riser cables.",
                    ),
                )
            )
        for slot, card in placement.placed:
            if count > 1 and (int(slot["lanes"]) < rules.min_lanes_per_gpu or slot.get("source") == "chipset"):
                if slot.get("source") == "chipset":
                    slow = translate(
                        "BuildChecks",
                        "{card} in slot {position} gets PCIe {gen}.0 x{lanes} through the chipset: gradient exchange "
                        "and host copies to it are slower.",
                    )
                else:
                    slow = translate(
                        "BuildChecks",
                        "{card} in slot {position} gets PCIe {gen}.0 x{lanes}: gradient exchange and host copies to "
                        "it are slower.",
                    )
                problems.append(
                    Problem(
                        "warn",
                        "gpu-lanes",
                        slow.format(
                            card=card.part.name, position=slot["position"], gen=slot["pcie_gen"], lanes=slot["lanes"]
                        ),
                        translate("BuildChecks", "A board (or CPU) with x8 or x16 from the CPU for every card."),
                        rules.pcie_source,
                    )
                )
        if case:
            needed = placement.last_position
            if needed > int(case.spec("expansion_slots") or 0):
                problems.append(
                    Problem(
                        "fail",
                        "case-slots",
                        translate(
                            "BuildChecks",
                            "The lowest card covers expansion position {needed}; {case} has {slots} expansion slots.",
                        ).format(needed=needed, case=case.part.name, slots=case.spec("expansion_slots")),
                        translate(
                            "BuildChecks", "A case with more expansion slots (a full tower), or fewer or thinner cards."
                        ),
                    )
                )
    if case:
        for gpu in gpus:
            length, room = gpu.spec("board_length_mm"), case.spec("max_gpu_length_mm")
            if length and room and int(length) > int(room):
                problems.append(
                    Problem(
                        "fail",
                        "gpu-length",
                        translate("BuildChecks", "{gpu} is {length} mm long; {case} takes {room} mm.").format(
                            gpu=gpu.part.name, length=length, case=case.part.name, room=room
                        ),
                        translate("BuildChecks", "A case that takes cards of {length} mm or more.").format(
                            length=length
                        ),
                    )
                )
            if gpu.spec("cooling") == "passive":
                problems.append(
                    Problem(
                        "warn",
                        "passive-cooling",
                        translate(
                            "BuildChecks",
                            "{gpu} has no fan: it relies on a server chassis pushing air through it and overheats in "
                            "a desktop case.",
                        ).format(gpu=gpu.part.name),
                        translate(
                            "BuildChecks", "A rack chassis with front-to-back airflow, or a card with its own fan."
                        ),
                    )
                )
    open_air = sum(g.count for g in gpus if g.spec("cooling") == "open-air")
    if open_air > rules.open_air_max_cards:
        problems.append(
            Problem(
                "warn",
                "cooling",
                translate(
                    "BuildChecks", "{cards} open-air cards: each blows its heat onto the next, so they throttle."
                ).format(cards=open_air),
                translate(
                    "BuildChecks",
                    "Blower-style or water-cooled cards, riser cables with space between cards, or at most {most} "
                    "open-air cards.",
                ).format(most=rules.open_air_max_cards),
                rules.cooling_source,
            )
        )
    no_p2p = [g for g in gpus if g.spec("p2p") is False]
    if count > 1 and no_p2p:
        problems.append(
            Problem(
                "info",
                "p2p",
                translate(
                    "BuildChecks",
                    "{gpus}: no peer-to-peer copies between cards, so NCCL goes through host memory and can hang "
                    "unless told.",
                ).format(gpus=_names(tuple(no_p2p))),
                translate("BuildChecks", "Set NCCL_P2P_DISABLE=1 (the setup guide does)."),
                rules.p2p_source,
            )
        )
    return problems


def _power(resolved: Resolved, rules: Rules, budget: PowerBudget) -> list[Problem]:
    problems: list[Problem] = []
    psu = resolved.one("psu")
    if psu is None or budget.psu_w is None:
        return problems
    generation = "ATX 3.x" if budget.atx3 else f"ATX {psu.spec('atx_version')}"
    if budget.required_w > budget.psu_w:
        problems.append(
            Problem(
                "fail",
                "psu-watts",
                translate(
                    "BuildChecks",
                    "{psu} is rated {psu_w:,} W; this build needs {required:,} W from an {generation} supply (cards "
                    "{gpu_w:,} W x {factor:g} for their power spikes, CPU {cpu_w:,} W, rest {rest_w:,} W).",
                ).format(
                    psu=psu.part.name,
                    psu_w=budget.psu_w,
                    required=budget.required_w,
                    generation=generation,
                    gpu_w=budget.gpu_w,
                    factor=budget.gpu_factor,
                    cpu_w=budget.cpu_w,
                    rest_w=budget.rest_w,
                ),
                (
                    translate(
                        "BuildChecks",
                        "A supply of at least {watts:,} W, or power-limit the cards (nvidia-smi -pl).",
                    )
                    if budget.atx3
                    else translate(
                        "BuildChecks",
                        "A supply of at least {watts:,} W (an ATX 3.x supply needs less), or power-limit the cards "
                        "(nvidia-smi -pl).",
                    )
                ).format(watts=budget.required_w),
                rules.psu_source,
            )
        )
    elif budget.sustained_w > rules.comfortable_share * budget.psu_w:
        problems.append(
            Problem(
                "warn",
                "psu-headroom",
                translate(
                    "BuildChecks",
                    "The build draws {sustained:,} W, {share:.0%} of {psu}'s {psu_w:,} W: little headroom, and past "
                    "its most efficient range.",
                ).format(
                    sustained=budget.sustained_w,
                    share=budget.sustained_w / budget.psu_w,
                    psu=psu.part.name,
                    psu_w=budget.psu_w,
                ),
                translate("BuildChecks", "A supply of {watts:,} W or more.").format(
                    watts=math.ceil(budget.sustained_w / rules.comfortable_share / 50) * 50
                ),
                rules.comfortable_source,
            )
        )
    problems += _connectors(resolved, psu)
    if budget.wall_w is not None and budget.wall_w > budget.circuit.watts:
        problems.append(
            Problem(
                "fail",
                "circuit",
                translate(
                    "BuildChecks",
                    "At the wall the build draws about {wall:,} W; a {circuit} circuit carries {watts:,} W "
                    "continuously.",
                ).format(wall=budget.wall_w, circuit=budget.circuit.title, watts=budget.circuit.watts),
                translate(
                    "BuildChecks", "Two circuits (and two supplies), a higher-rated circuit, or power-limit the cards."
                ),
                budget.circuit.source,
            )
        )
    return problems


def _connectors(resolved: Resolved, psu: Item) -> list[Problem]:
    native, eight = int(psu.spec("connectors_12v2x6") or 0), psu.spec("pcie_8pin")
    need16 = need8 = 0
    unknown = []
    for gpu in resolved.gpus():
        power = card_power(gpu.spec("power_connectors"))
        if not power.known:
            unknown.append(gpu.part.name)
        need16 += power.sixteen_pin * gpu.count
        need8 += power.eight_pin * gpu.count if power.sixteen_pin == 0 else 0
        if power.eps:
            unknown.append(translate("BuildChecks", "{gpu} (8-pin EPS)").format(gpu=gpu.part.name))
    problems = []
    if need16 > native:
        short = need16 - native
        adapters = [card_power(g.spec("power_connectors")).eight_pin for g in resolved.gpus()]
        per_card = max((a for a in adapters if a), default=0)
        if per_card and eight is not None and int(eight) >= need8 + short * per_card:
            problems.append(
                Problem(
                    "warn",
                    "psu-connectors",
                    translate(
                        "BuildChecks",
                        "{short} card(s) must use their 8-pin adapter: {psu} has {native} native 12V-2x6 cable(s) "
                        "for {cards} cards.",
                    ).format(short=short, psu=psu.part.name, native=native, cards=need16),
                    translate("BuildChecks", "A supply with a native cable for each card."),
                )
            )
        else:
            problems.append(
                Problem(
                    "fail",
                    "psu-connectors",
                    (
                        translate("BuildChecks", "The cards need {cables} 12V-2x6/12VHPWR cables; {psu} has {native}.")
                        if eight is None
                        else translate(
                            "BuildChecks",
                            "The cards need {cables} 12V-2x6/12VHPWR cables; {psu} has {native} and {eight} PCIe "
                            "8-pin.",
                        )
                    ).format(cables=need16, psu=psu.part.name, native=native, eight=eight),
                    translate("BuildChecks", "A supply with a native 12V-2x6 cable for each card."),
                )
            )
    elif need8 and eight is not None and need8 > int(eight):
        problems.append(
            Problem(
                "fail",
                "psu-connectors",
                translate("BuildChecks", "The cards need {cables} PCIe 8-pin cables; {psu} has {eight}.").format(
                    cables=need8, psu=psu.part.name, eight=eight
                ),
                translate("BuildChecks", "A supply with more PCIe 8-pin cables (no pigtails: one cable per plug)."),
            )
        )
    elif need8 and eight is None:
        unknown.append(translate("BuildChecks", "{psu}'s PCIe 8-pin count").format(psu=psu.part.name))
    if unknown:
        problems.append(
            Problem(
                "info",
                "psu-connectors",
                translate("BuildChecks", "Power cables not checked (not in the catalog): {what}.").format(
                    what=", ".join(unknown)
                ),
                translate("BuildChecks", "Check the cables against the card's and supply's manuals."),
            )
        )
    return problems
