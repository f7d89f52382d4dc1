"""Ranked builds for a workload and a budget: buy (complete towers) or rent (the catalog's cloud instances).

Hardware and changes are searched together: on each GPU model and count the plan runs the workload as asked if
it fits, else the cheapest change that makes it fit (core/planner/changes.py): a smaller micro-batch with
accumulation, activation checkpointing, 8-bit AdamW, sharding, and, where the user allows changing what is
trained, LoRA or QLoRA. Counts are tried fewest first, so a free change on one card comes before buying a
second. Every candidate holds its per-device peak with the headroom kept (core/workload/fit.py), passes the
compatibility checker and is priced from the catalog in the plan's currency. Candidates are ranked by
throughput per unit of money; the cost-against-throughput Pareto front is marked. Given the job's samples, each
build and rental says how long the job takes and what it costs, and when buying pays off against renting.
When nothing fits the budget the plan says what it would take instead: the fewest GPUs of each model that hold
the workload, and what they cost.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from gpuconfig.core.build.model import OSES, PORTS, Build, BuildLine
from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.age import is_stale, price_age
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.money import ExchangeRate, convert_price, format_money
from gpuconfig.core.numbers import NumberError, checked_amount, checked_number
from gpuconfig.core.planner.changes import Variant
from gpuconfig.core.planner.gpus import GpuOption, GpuOptions, with_communication
from gpuconfig.core.planner.platform import Parts, cheapest_platform
from gpuconfig.core.workload.advice import micro_batch_label
from gpuconfig.core.workload.estimate import Fitted, GpuSpec, memory_at
from gpuconfig.core.workload.fit import Headroom, default_headroom
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.spec import OFFLOAD, Workload

FORMS = ("tower", "rack", "egpu")  # egpu: a laptop with an external GPU
# The catalog kinds a plan draws on: the parts of a machine, eGPU enclosures and the instances to rent.
PLAN_KINDS = ("gpu", "cpu", "motherboard", "ram", "ssd", "psu", "case", "dock", "cloud")
# GPU counts a single machine is planned with; more than 8 is a cluster, which the plan rents.
COUNTS = (1, 2, 3, 4, 6, 8)
# How far the "what it would take" answer looks: GPUs across machines, and rented nodes.
MAX_CLUSTER_GPUS = 256
MAX_NODES = 32
# A petabyte: a dataset past it lives on a storage cluster, not on the drive of a machine the plan builds.
MAX_DATASET_GB = 1_000_000


class PlanError(ValueError):
    """Limits the planner cannot work with; the message names the field."""


@dataclass(frozen=True)
class Constraints:
    budget: float | None = None  # in `currency`; None: no limit
    currency: str = "USD"
    rent: bool = False  # also (or, with no buy candidates wanted, only) rent
    form: str = "tower"
    max_gpus: int = 8
    circuit: str = "us-120v-15a"
    owned: tuple[str, ...] = ()  # catalog ids the user already has: they cost nothing
    samples: float | None = None  # samples in the dataset; None: rank by rate only
    epochs: float = 1.0  # passes over the dataset: the job processes samples x epochs
    electricity_per_kwh: float | None = None  # in `currency`
    dataset_gb: int = 0
    checkpoints_kept: int = 3
    as_asked: bool = False  # no change at all but smaller micro-batches (no ZeRO-Offload either)
    port: str | None = None  # form egpu: the laptop's port (a build.model PORTS id)
    laptop_os: str = "linux"
    charger_w: int | None = None

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise PlanError(f"form: {self.form!r} is not one of {', '.join(FORMS)}")
        if self.form == "egpu" and self.port not in PORTS:
            raise PlanError(f"port: a laptop with an eGPU needs the laptop's port, one of {', '.join(PORTS)}")
        if self.laptop_os not in OSES:
            raise PlanError(f"os: {self.laptop_os!r} is not one of {', '.join(OSES)}")
        if not 1 <= self.max_gpus <= 8:
            raise PlanError(f"max_gpus: one machine holds 1 to 8 GPUs, not {self.max_gpus!r}")
        for name, value, check in (
            ("budget", self.budget, checked_amount),
            ("samples", self.samples, checked_number),
            ("epochs", self.epochs, checked_number),
            ("electricity", self.electricity_per_kwh, partial(checked_amount, zero_ok=True)),
            ("dataset_gb", self.dataset_gb, partial(checked_number, integer=True, zero_ok=True, most=MAX_DATASET_GB)),
        ):
            if value is None:
                continue
            try:
                check(value)
            except NumberError as exc:
                raise PlanError(f"{name}: {exc}") from None

    @property
    def job_samples(self) -> float | None:
        """The samples the job processes (dataset x epochs), or None when the dataset is not given."""
        return self.samples * self.epochs if self.samples is not None else None


@dataclass(frozen=True)
class Change:
    """What the plan changed in the workload on one machine, and what it costs in time."""

    label: str  # "" when the workload runs as asked
    changes_result: bool = False  # trains fewer weights or computes with quantized ones
    time_factor: float | None = None  # time per sample against the workload as asked on the same card

    def text(self) -> str:
        if not self.label:
            return translate("Planner", "as asked")
        if self.time_factor is None:
            return self.label
        return translate("Planner", "{change} ({factor:.2f}x time per sample)").format(
            change=self.label, factor=self.time_factor
        )


AS_ASKED = Change("")


@dataclass(frozen=True)
class Job:
    """The whole job (dataset x epochs) on one build or rental: its hours and what it costs."""

    hours: float
    # rented: the hours at the rate; bought: the electricity at the build's full power (every card at its board
    # power and the CPU at its package power, through the supply: an upper bound), None when no price is given
    cost: float | None
    first_cost: float | None = None  # bought: the build plus the first job's electricity


@dataclass(frozen=True)
class Candidate:
    """One buyable machine."""

    build: Build
    option: GpuOption
    cost: float
    wall_w: int
    pareto: bool = False
    change: Change = AS_ASKED
    job: Job | None = None
    jobs_to_break_even: float | None = None  # against renting the cheapest per sample

    @property
    def per_money(self) -> float | None:
        """Throughput per 1000 units of money."""
        t = self.option.throughput
        return t / self.cost * 1000 if t is not None and self.cost > 0 else None


@dataclass(frozen=True)
class Rental:
    instance: Part
    nodes: int
    option: GpuOption
    hourly: float  # for all nodes, in the plan's currency
    change: Change = AS_ASKED
    job: Job | None = None

    @property
    def per_sample(self) -> float | None:
        s = self.option.samples_per_s
        return self.hourly / (s * 3600) if s else None


@dataclass(frozen=True)
class Needed:
    """The fewest cards of one GPU model that hold the workload, and what they cost."""

    gpu: GpuSpec
    count: int
    strategy: str
    peak_bytes: int
    gpu_cost: float
    change: Change = AS_ASKED

    @property
    def machines(self) -> int:
        return math.ceil(self.count / 8)


@dataclass(frozen=True)
class Shortfall:
    """What the workload would take when no candidate fits the limits: cheapest first."""

    message: str
    needed: tuple[Needed, ...] = ()


@dataclass(frozen=True)
class BreakEven:
    """Buying the top build pays off against renting the cheapest-per-sample instance after this much work."""

    samples: float
    build_hours: float  # of the bought build's running time
    rent_hours: float
    message: str


@dataclass(frozen=True)
class Plan:
    constraints: Constraints
    candidates: tuple[Candidate, ...]
    rentals: tuple[Rental, ...]
    shortfall: Shortfall | None
    break_even: BreakEven | None
    notes: tuple[str, ...] = field(default=())
    skipped: tuple[str, ...] = field(default=())
    considered: int = 0  # GPU model x count combinations looked at
    headroom: Headroom | None = None  # what every fit verdict kept free
    changes_tried: tuple[str, ...] = field(default=())  # the traced changes the plan could make


def _pareto(candidates: list[Candidate]) -> list[Candidate]:
    """Mark the candidates no other beats on both cost and throughput."""
    out = []
    for c in candidates:
        t = c.option.throughput or 0.0
        dominated = any(
            o is not c
            and o.cost <= c.cost
            and (o.option.throughput or 0.0) >= t
            and (o.cost < c.cost or (o.option.throughput or 0.0) > t)
            for o in candidates
        )
        out.append(replace(c, pareto=not dominated))
    return out


def plan_parts(store: Any) -> list[Part]:
    """Every catalog part a plan may use, from a CatalogStore."""
    return [part for kind in PLAN_KINDS for part in store.parts(kind)]


OFFLOAD_LABEL = QT_TRANSLATE_NOOP(
    "Planner", "optimizer on the CPU (ZeRO-Offload) (the CPU's own optimizer step is not counted)"
)


class Search:
    """The workload as asked and with each change, over any GPU and count: the cheapest way that fits."""

    def __init__(self, variants: Sequence[Variant], headroom: Headroom, offload: bool = True) -> None:
        self.variants = list(variants)
        self.options = [GpuOptions(v.source, v.fitted, v.workload, headroom, offload) for v in self.variants]
        self.asked = self.options[0]

    def best(self, spec: GpuSpec, count: int) -> tuple[GpuOption, Change, GpuOptions] | None:
        """How `count` x `spec` hold the workload: as asked when that fits; else the fastest change that keeps
        the result (a smaller micro-batch among them), the optimizer moved to the CPU last (its CPU step is not
        priced); else the fastest that changes the result; None when nothing fits."""
        found: list[tuple[bool, bool, float, int, GpuOption, Variant, GpuOptions]] = []
        for index, (variant, options) in enumerate(zip(self.variants, self.options, strict=True)):
            option = options.option(spec, count)
            if not option.fits:
                continue
            offload = option.strategy == OFFLOAD
            split = (option.batch, option.grad_accum) != (variant.workload.batch, variant.workload.grad_accum)
            if index == 0 and not offload and not split:  # the workload as asked fits: no change is needed
                return option, AS_ASKED, options
            rate = option.throughput or 0.0
            found.append((variant.changes_result, offload, -rate, index, option, variant, options))
        if not found:
            return None
        *_, option, variant, options = min(found, key=lambda f: f[:4])
        return option, self._change(spec, option, variant, options), options

    def _change(self, spec: GpuSpec, option: GpuOption, variant: Variant, options: GpuOptions) -> Change:
        asked = variant.workload if variant.change else self.asked.workload
        labels = [variant.change] if variant.change else []
        if (option.batch, option.grad_accum) != (asked.batch, asked.grad_accum):
            if asked.training:
                labels.append(micro_batch_label(option.batch, option.grad_accum))
            else:
                labels.append(
                    translate("Planner", "batches of {batch}, {count} one after another").format(
                        batch=option.batch, count=option.grad_accum
                    )
                )
        if option.strategy == OFFLOAD:
            labels.append(translate("Planner", OFFLOAD_LABEL))
        if not labels:
            return AS_ASKED
        base = self.asked.workload
        # Samples per second of one card, without communication.
        asked_rate = self.asked.timing(spec, base.batch, base.grad_accum)[1]
        rate = options.timing(spec, option.batch, option.grad_accum)[1]
        factor = asked_rate / rate if asked_rate and rate else None
        return Change(" + ".join(labels), variant.changes_result, factor)


def recommend(
    source: ModelSource,
    fitted: Fitted,
    workload: Workload,
    constraints: Constraints,
    parts: Sequence[Part],
    rules: Rules,
    rate: ExchangeRate | None,
    lookup: Callable[[str], Part | None],
    changes: Sequence[Variant] = (),
    headroom: Headroom | None = None,
) -> Plan:
    """Rank builds (and rentals) for `workload` under `constraints` from the catalog `parts`; `changes` are the
    traced changes the plan may make (core/planner/changes.py), cheapest first; `headroom` what every fit
    verdict keeps free (the default unless given)."""
    owned = set(constraints.owned)
    headroom = headroom or default_headroom()

    def price(part: Part) -> float | None:
        if part.id in owned:
            return 0.0
        price = part.price_for(constraints.currency)
        if price is None or price.per:
            return None
        return convert_price(price, constraints.currency, rate)

    variants = [Variant("", workload, source, fitted), *([] if constraints.as_asked else changes)]
    search = Search(variants, headroom, offload=not constraints.as_asked)
    options = search.asked
    shelf = Parts(parts, price)
    gpus = [(amount, part, GpuSpec.from_specs(part.id, part.name, part.specs)) for amount, part in shelf("gpu")]
    drive_gb = _drive_gb(options, constraints)
    notes: list[str] = [
        translate(
            "Planner",
            "Several cards in one machine: the step is paced by the slower of compute and the traffic between the "
            "cards over the slowest slot's PCIe link ({source}).",
        ).format(source=rules.link_source),
        translate(
            "Planner",
            "Rented nodes: NVLink inside a node where the instance has it; the network between nodes is not modelled.",
        ),
        translate(
            "Planner", "Fits: the peak per GPU within the card's memory less {headroom} headroom ({why})."
        ).format(headroom=headroom.percent, why=headroom.why),
    ]
    candidates: list[Candidate] = []
    skipped: list[str] = []  # GPU choices that hold the workload but found no machine around them
    considered = 0
    if constraints.form == "egpu":
        candidates, skipped, considered = _egpu_candidates(search, gpus, shelf, constraints, rules)
        notes = [
            translate(
                "Planner",
                "Laptop with eGPU: one card in an enclosure; each step's batch crosses the link before the step's "
                "kernels, at the link's measured copy rate (catalog/egpu.toml).",
            ),
            *notes[1:],
        ]
    for gpu_price, gpu, spec in gpus if constraints.form != "egpu" else []:
        if gpu.specs.get("form_factor") != "PCIe card":
            continue  # SXM and OAM modules come in vendors' servers, which the catalog rents instead
        for count in (n for n in COUNTS if n <= constraints.max_gpus):
            considered += 1
            found = search.best(spec, count)
            if found is None:
                continue
            option, change, found_options = found
            if constraints.budget is not None and gpu_price * count > constraints.budget:
                break  # more cards only cost more
            unpaced = option
            platform, why = cheapest_platform(
                shelf,
                gpu,
                count,
                rules,
                circuit=constraints.circuit,
                drive_gb=drive_gb,
                with_case=constraints.form == "tower",
                lookup=lookup,
                host_gb=math.ceil(found_options.host_bytes(option) / 1024**3),
            )
            if platform is None:
                skipped.append(f"{count} x {gpu.name}: {why}")
                continue
            generation = min(platform.link[0], int(gpu.specs.get("pcie_gen") or platform.link[0]))
            lanes = min(platform.link[1], int(gpu.specs.get("pcie_lanes") or platform.link[1]))
            option = with_communication(
                option,
                *found_options.step_bytes(option.batch, option.grad_accum),
                rules.link_gbs(generation, lanes),
                f"PCIe {generation}.0 x{lanes}",
            )
            change = _with_copies(change, unpaced, option)
            cost = gpu_price * count + platform.cost
            if constraints.budget is not None and cost > constraints.budget:
                continue
            build = Build(
                f"{count}x {gpu.name}" if count > 1 else gpu.name,
                (BuildLine(gpu.id, count), *platform.lines),
                currency=constraints.currency,
                circuit=constraints.circuit,
                workload=_run_as(found_options.workload, option).to_json(),
            )
            candidates.append(Candidate(build, option, cost, platform.wall_w, change=change))
            break  # the fewest cards that fit: more of the same only add cost in this ranking
    if constraints.form == "rack":
        notes.append(translate("Planner", "The catalog has no rack chassis: price the chassis separately."))
    candidates = _pareto(candidates)
    # Known speed first, best throughput per money first; builds whose speed the catalog cannot rate last.
    candidates.sort(key=lambda c: (c.per_money is None, -(c.per_money or 0.0), c.cost))
    # Rentals are planned when asked for, and when nothing can be bought (what it would take names the cheapest).
    rentals = _rentals(search, parts, constraints, rate, rules) if constraints.rent or not candidates else []
    shortfall = _shortfall(search, gpus, rentals, constraints) if not candidates else None
    if not constraints.rent:
        rentals = []
    rentals = [replace(r, job=_rental_job(r, constraints)) for r in rentals]
    candidates = [_with_job(c, rentals, constraints) for c in candidates]
    break_even = _break_even(candidates, rentals, constraints)
    notes += _price_notes(parts, candidates, rentals, constraints)
    return Plan(
        constraints,
        tuple(candidates),
        tuple(rentals),
        shortfall,
        break_even,
        tuple(notes),
        tuple(skipped),
        considered,
        headroom,
        tuple(v.change for v in search.variants[1:]),
    )


def _price_notes(
    parts: Sequence[Part], candidates: Sequence[Candidate], rentals: Sequence[Rental], constraints: Constraints
) -> list[str]:
    """What the ranking's prices rest on: the prices older than six months its builds and rentals used, and the
    GPUs left out for want of a price."""
    by_id = {p.id: p for p in parts}
    used = [by_id[line.part_id] for c in candidates for line in c.build.lines if line.part_id in by_id]
    used += [r.instance for r in rentals]
    stale: dict[str, str] = {}
    for part in used:
        price = part.price_for(constraints.currency)
        if part.id not in constraints.owned and price is not None and is_stale(price):
            stale[part.id] = translate("Planner", "{name} ({date}, {age} old)").format(
                name=part.name, date=price.date, age=price_age(price)
            )
    notes = []
    if stale:
        notes.append(
            translate("Planner", "Prices older than six months in these results: {parts}. Check them.").format(
                parts="; ".join(stale.values())
            )
        )
    unpriced = [
        p.name
        for p in parts
        if p.kind == "gpu"
        and p.specs.get("form_factor") == "PCIe card"  # the cards a build can take
        and p.price_for(constraints.currency) is None
        and p.id not in constraints.owned
    ]
    if unpriced:
        shown = ", ".join(unpriced[:6]) + (", ..." if len(unpriced) > 6 else "")
        notes.append(
            translate("Planner", "{count} GPUs of the catalog have no price and were left out: {names}.").format(
                count=len(unpriced), names=shown
            )
        )
    return notes


def _with_copies(change: Change, unpaced: GpuOption, paced: GpuOption) -> Change:
    """The change's time cost with the host copies ZeRO-Offload adds to each step (other strategies' traffic
    is the cards', not the change's)."""
    if paced.strategy != OFFLOAD or change.time_factor is None or not unpaced.step_seconds or not paced.step_seconds:
        return change
    return replace(change, time_factor=change.time_factor * paced.step_seconds / unpaced.step_seconds)


def _run_as(workload: Workload, option: GpuOption) -> Workload:
    """The workload as the option runs it: its micro-batch, accumulation, cards and strategy."""
    return workload.with_changes(
        batch=option.batch, grad_accum=option.grad_accum, gpus=option.count, strategy=option.strategy
    )


def _rental_job(rental: Rental, constraints: Constraints) -> Job | None:
    samples, rate = constraints.job_samples, rental.option.samples_per_s
    if samples is None or not rate:
        return None
    hours = samples / rate / 3600
    return Job(hours, hours * rental.hourly)


def _electricity_per_hour(candidate: Candidate, constraints: Constraints) -> float | None:
    """What running the build costs an hour at its full power, in the plan's currency; None without a price."""
    if constraints.electricity_per_kwh is None or not candidate.wall_w:
        return None
    return candidate.wall_w / 1000 * constraints.electricity_per_kwh


def _with_job(candidate: Candidate, rentals: list[Rental], constraints: Constraints) -> Candidate:
    """The candidate with the job's hours and electricity, and the jobs after which buying it pays off against
    renting the cheapest per sample."""
    samples, rate = constraints.job_samples, candidate.option.samples_per_s
    if samples is None or not rate:
        return candidate
    hours = samples / rate / 3600
    hourly = _electricity_per_hour(candidate, constraints)
    power = hourly * hours if hourly is not None else None
    job = Job(hours, power, candidate.cost + power if power is not None else None)
    rented = next((r.job for r in rentals if r.job is not None and r.job.cost is not None), None)
    jobs = None
    if rented is not None and rented.cost is not None:
        saved = rented.cost - (power or 0.0)
        jobs = candidate.cost / saved if saved > 0 else math.inf
    return replace(candidate, job=job, jobs_to_break_even=jobs)


def _egpu_candidates(
    search: Search,
    gpus: list[tuple[float, Part, GpuSpec]],
    shelf: Parts,
    constraints: Constraints,
    rules: Rules,
) -> tuple[list[Candidate], list[str], int]:
    """One card per laptop: each GPU that holds the workload, in the cheapest enclosure that works."""
    from gpuconfig.core.egpu.check import Host
    from gpuconfig.core.egpu.tables import egpu_tables
    from gpuconfig.core.planner.egpu import cheapest_enclosure, with_link

    host = Host(str(constraints.port), constraints.laptop_os, constraints.charger_w)
    tables = egpu_tables()
    laptop = {"port": host.port, "os": host.os, "charger_w": host.charger_w}
    candidates: list[Candidate] = []
    skipped: list[str] = []
    for gpu_price, gpu, spec in gpus:
        if gpu.specs.get("form_factor") != "PCIe card":
            continue
        found = search.best(spec, 1)
        if found is None or (constraints.budget is not None and gpu_price > constraints.budget):
            continue
        option, change, options = found
        platform, speed, why = cheapest_enclosure(shelf, gpu, host, tables, rules)
        if platform is None or speed is None:
            skipped.append(f"{gpu.name}: {why}")
            continue
        seq = options.seq
        if option.strategy == OFFLOAD:  # the optimizer's copies cross the same link, with the step
            weights, grads = options.step_bytes(option.batch, option.grad_accum)
            unpaced = option
            option = with_communication(option, weights, grads, speed.egpu_gbs, speed.link.name)
            change = _with_copies(change, unpaced, option)
        option = with_link(option, options.fitted.at("input_bytes", option.batch, seq) * option.grad_accum, speed)
        cost = gpu_price + platform.cost
        if constraints.budget is not None and cost > constraints.budget:
            continue
        build = Build(
            f"{gpu.name} eGPU",
            (BuildLine(gpu.id), *platform.lines),
            currency=constraints.currency,
            circuit=constraints.circuit,
            workload=_run_as(options.workload, option).to_json(),
            laptop=laptop,
        )
        candidates.append(Candidate(build, option, cost, platform.wall_w, change=change))
    return candidates, skipped, len(gpus)


def _drive_gb(options: GpuOptions, constraints: Constraints) -> int:
    """Dataset plus the checkpoints kept: each holds the weights and, for training, the optimizer state."""
    workload = options.workload.with_changes(gpus=1)
    memory = memory_at(options.fitted, workload, 1, options.seq)
    checkpoint = memory.weights + (memory.optimizer if workload.training else 0)
    return constraints.dataset_gb + math.ceil(checkpoint * constraints.checkpoints_kept / 1e9)


def _rentals(
    search: Search, parts: Sequence[Part], constraints: Constraints, rate: ExchangeRate | None, rules: Rules
) -> list[Rental]:
    gpu_parts = {p.id: p for p in parts if p.kind == "gpu"}
    out = []
    for instance in (p for p in parts if p.kind == "cloud"):
        gpu = gpu_parts.get(str(instance.specs.get("gpu")))
        instance_price = instance.price_for(constraints.currency)
        if gpu is None or instance_price is None:
            continue
        hourly = convert_price(instance_price, constraints.currency, rate)
        if hourly is None:
            continue
        spec = GpuSpec.from_specs(gpu.id, gpu.name, gpu.specs)
        per_node = int(instance.specs.get("gpu_count") or 1)
        for nodes in range(1, MAX_NODES + 1):
            found = search.best(spec, per_node * nodes)
            if found is not None:
                option, change, options = found
                nvlink = float(gpu.specs.get("nvlink_gbs") or 0) / 2  # the catalog's figure is both directions
                nvlinked = "nvlink" in str(instance.specs.get("interconnect") or "").lower()
                if per_node > 1 and nvlink and nvlinked and option.strategy != OFFLOAD:  # host copies: PCIe
                    link_gbs = nvlink
                    link = translate("Planner", "NVLink {rate:g} GB/s per direction").format(rate=nvlink)
                else:
                    generation = int(gpu.specs.get("pcie_gen") or 4)
                    link_gbs, link = rules.link_gbs(generation, 16), f"PCIe {generation}.0 x16"
                unpaced = option
                option = with_communication(
                    option, *options.step_bytes(option.batch, option.grad_accum), link_gbs, link
                )
                change = _with_copies(change, unpaced, option)
                out.append(Rental(instance, nodes, option, hourly * nodes, change))
                break
            if per_node * nodes >= MAX_CLUSTER_GPUS:
                break
    out.sort(key=lambda r: r.per_sample if r.per_sample is not None else math.inf)
    return out


def _shortfall(
    search: Search,
    gpus: list[tuple[float, Part, GpuSpec]],
    rentals: list[Rental],
    constraints: Constraints,
) -> Shortfall:
    """The ways the workload fits at all, in GPUs and money, ignoring the budget and the box."""
    workload = search.asked.workload
    needed: list[Needed] = []
    for gpu_price, part, spec in gpus:
        if part.specs.get("form_factor") != "PCIe card":
            continue  # modules (SXM, OAM, embedded boards) are not cards one can put in machines
        count = 1
        while count <= MAX_CLUSTER_GPUS:
            found = search.best(spec, count)
            if found is not None:
                option, change = found[0], found[1]
                needed.append(Needed(spec, count, option.strategy, option.peak_bytes, gpu_price * count, change))
                break
            count = count + 1 if count < 8 else count + 8
    needed.sort(key=lambda n: n.gpu_cost)
    rent_text = ""
    if rentals:
        r = rentals[0]
        gpus_rented = r.nodes * int(r.instance.specs.get("gpu_count") or 1)
        rent_text = " " + translate("Planner", "Renting: {nodes} x {instance} ({gpus} GPUs) at {price}/h.").format(
            nodes=r.nodes,
            instance=r.instance.name,
            gpus=gpus_rented,
            price=format_money(r.hourly, constraints.currency),
        )
    what = f"{workload.model} ({workload.task})"
    if not needed:
        text = translate("Planner", "No GPU in the catalog holds {what} with up to {n} GPUs.").format(
            what=what, n=MAX_CLUSTER_GPUS
        )
        return Shortfall(text + rent_text)
    cheapest = needed[0]
    fewest = min(needed, key=lambda n: (n.count, n.gpu_cost))
    if constraints.budget:
        nothing = translate("Planner", "Nothing within {budget} holds {what}.").format(
            budget=format_money(constraints.budget, constraints.currency), what=what
        )
    else:
        nothing = translate("Planner", "Nothing within the limits holds {what}.").format(what=what)
    if fewest is not cheapest:
        instead = translate("Planner", "The cheapest that does: {cheapest}; with the fewest GPUs: {fewest}.").format(
            cheapest=_needed_text(cheapest, constraints), fewest=_needed_text(fewest, constraints)
        )
    else:
        instead = translate("Planner", "The cheapest that does: {cheapest}.").format(
            cheapest=_needed_text(cheapest, constraints)
        )
    return Shortfall(nothing + " " + instead + rent_text, tuple(needed))


def _needed_text(n: Needed, constraints: Constraints) -> str:
    where = (
        translate("Planner", "across {n} machines of 8").format(n=n.machines)
        if n.machines > 1
        else translate("Planner", "in one machine")
    )
    words = {
        "count": n.count,
        "gpu": n.gpu.name,
        "memory": n.gpu.memory_bytes / 1024**3,
        "strategy": n.strategy,
        "peak": n.peak_bytes / 1024**3,
        "where": where,
        "cost": format_money(n.gpu_cost, constraints.currency),
    }
    if n.change.label:
        return translate(
            "Planner",
            "{count} x {gpu} ({memory:.0f} GiB each, {strategy}, {change}, {peak:.1f} GiB used per GPU) {where}, "
            "{cost} for the GPUs alone",
        ).format(**words, change=n.change.text())
    return translate(
        "Planner",
        "{count} x {gpu} ({memory:.0f} GiB each, {strategy}, {peak:.1f} GiB used per GPU) {where}, {cost} for the "
        "GPUs alone",
    ).format(**words)


def _break_even(candidates: list[Candidate], rentals: list[Rental], constraints: Constraints) -> BreakEven | None:
    if not candidates or not rentals:
        return None
    build, rental = candidates[0], rentals[0]
    per_sample = rental.per_sample
    build_rate = build.option.samples_per_s
    if per_sample is None or not build_rate:
        return None
    power = (_electricity_per_hour(build, constraints) or 0.0) / (build_rate * 3600)  # per sample
    if per_sample <= power:
        cheaper = translate("Planner", "Renting costs less per sample than this build's electricity.")
        return BreakEven(math.inf, math.inf, math.inf, cheaper)
    samples = build.cost / (per_sample - power)
    build_hours = samples / build_rate / 3600
    rent_hours = samples / (rental.option.samples_per_s or 1) / 3600
    message = (
        translate(
            "Planner",
            "Buying {build} pays for itself against renting {instance} after {hours:,.0f} hours of training on it "
            "({days:,.0f} days around the clock) (electricity not counted).",
        )
        if constraints.electricity_per_kwh is None
        else translate(
            "Planner",
            "Buying {build} pays for itself against renting {instance} after {hours:,.0f} hours of training on it "
            "({days:,.0f} days around the clock) (electricity at the build's full power).",
        )
    )
    return BreakEven(
        samples,
        build_hours,
        rent_hours,
        message.format(build=build.build.name, instance=rental.instance.name, hours=build_hours, days=build_hours / 24),
    )
