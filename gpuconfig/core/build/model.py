"""A build: catalog parts and how many of each, as the user saves, edits by hand and exchanges it.

The file is JSON: {"format": "gpuconfig-build", "version": 1, "name": ..., "currency": ...,
"parts": [{"id": CATALOG_ID, "count": N}, ...]} plus optional "circuit", "workload" and, for an eGPU build,
"laptop": {"port": "TB4", "os": "linux", "charger_w": 100}. A part's kind comes from the catalog, so a
hand-written file only needs ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.money import ExchangeRate, convert_price
from gpuconfig.core.numbers import NumberError, checked_number
from gpuconfig.core.user_files import UserFileError, read_json

FORMAT = "gpuconfig-build"
VERSION = 1
# The order lines are listed in, and the kinds a build may hold.
ROLES = ("gpu", "cpu", "motherboard", "ram", "ssd", "psu", "case", "dock")
DEFAULT_CIRCUIT = "us-120v-15a"
# The most of one part a build line holds (the Build tab's count box stops here too).
MAX_COUNT = 64
# The laptop an eGPU build plugs into: the ports and operating systems it may name (the eGPU tables in
# catalog/egpu.toml hold a row for each).
PORTS = ("TB3", "TB4", "USB4", "USB4v2", "TB5", "OCuLink", "USB-C")
OSES = ("windows", "linux", "macos-intel", "macos-apple")


class BuildError(ValueError):
    """A build file or build that cannot be used; the one-line message names the file and the field."""


@dataclass(frozen=True)
class BuildLine:
    part_id: str
    count: int = 1


@dataclass(frozen=True)
class Build:
    name: str
    lines: tuple[BuildLine, ...]
    currency: str = "USD"
    circuit: str = DEFAULT_CIRCUIT
    workload: dict[str, Any] | None = None
    notes: str = ""
    laptop: dict[str, Any] | None = None  # an eGPU build's laptop: port, os, charger_w

    def with_line(self, part_id: str, count: int) -> Build:
        """The build with `part_id` at `count` (0 removes it)."""
        lines = [line for line in self.lines if line.part_id != part_id]
        if count > 0:
            at = next((i for i, line in enumerate(self.lines) if line.part_id == part_id), len(lines))
            lines.insert(min(at, len(lines)), BuildLine(part_id, count))
        return replace(self, lines=tuple(lines))

    def swapped(self, old_id: str, new_id: str) -> Build:
        """The build with one part replaced by another, keeping its count and place."""
        if old_id == new_id:
            return self
        merged: list[BuildLine] = []
        for line in self.lines:
            target = new_id if line.part_id == old_id else line.part_id
            existing = next((i for i, m in enumerate(merged) if m.part_id == target), None)
            if existing is None:
                merged.append(BuildLine(target, line.count))
            else:
                merged[existing] = BuildLine(target, merged[existing].count + line.count)
        return replace(self, lines=tuple(merged))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "currency": self.currency,
            "circuit": self.circuit,
            "parts": [{"id": line.part_id, "count": line.count} for line in self.lines],
        }
        if self.workload is not None:
            data["workload"] = self.workload
        if self.notes:
            data["notes"] = self.notes
        if self.laptop is not None:
            data["laptop"] = self.laptop
        return data


def build_from_json(data: Any, where: str = "build") -> Build:
    """Check and read a build's JSON; every problem raises BuildError naming `where` and the field."""
    if not isinstance(data, dict):
        raise BuildError(f"{where}: expected a JSON object with a 'parts' list")
    if data.get("format", FORMAT) != FORMAT:
        raise BuildError(f"{where}: format {data.get('format')!r} is not a gpuconfig build")
    version = data.get("version", VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise BuildError(f"{where}: version must be a whole number such as {VERSION}, not {version!r}")
    if version > VERSION:
        raise BuildError(f"{where}: version {version} is newer than this gpuconfig reads ({VERSION})")
    parts = data.get("parts")
    if not isinstance(parts, list) or not parts:
        raise BuildError(f"{where}: 'parts' must be a non-empty list of {{'id': ..., 'count': ...}}")
    lines: list[BuildLine] = []
    for i, raw in enumerate(parts):
        if isinstance(raw, str):
            raw = {"id": raw}
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"].strip():
            raise BuildError(f"{where}: parts[{i}]: needs an 'id' (a catalog id)")
        try:
            count = int(checked_number(raw.get("count", 1), integer=True, most=MAX_COUNT))
        except NumberError as exc:
            raise BuildError(f"{where}: parts[{i}].count: {exc}") from None
        lines.append(BuildLine(raw["id"].strip(), count))
    currency = data.get("currency", "USD")
    if currency not in CURRENCIES:
        raise BuildError(f"{where}: currency {currency!r} is not one of {', '.join(CURRENCIES)}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise BuildError(f"{where}: name must be text")
    workload = data.get("workload")
    if workload is not None and not isinstance(workload, dict):
        raise BuildError(f"{where}: workload must be an object")
    laptop = data.get("laptop")
    if laptop is not None:
        laptop = _laptop(laptop, where)
    return Build(
        laptop=laptop,
        name=name or "Untitled build",
        lines=tuple(lines),
        currency=currency,
        circuit=str(data.get("circuit") or build_rules().circuit_for(currency)),  # the market's, unless named
        workload=workload,
        notes=str(data.get("notes", "")),
    )


def _laptop(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise BuildError(f"{where}: laptop must be an object with 'port', 'os' and 'charger_w'")
    port, os_name, charger = raw.get("port"), raw.get("os", "linux"), raw.get("charger_w")
    if port not in PORTS:
        raise BuildError(f"{where}: laptop.port {port!r} is not one of {', '.join(PORTS)}")
    if os_name not in OSES:
        raise BuildError(f"{where}: laptop.os {os_name!r} is not one of {', '.join(OSES)}")
    if charger is not None and (isinstance(charger, bool) or not isinstance(charger, int) or charger <= 0):
        raise BuildError(f"{where}: laptop.charger_w must be a whole number of watts, not {charger!r}")
    return {"port": port, "os": os_name, "charger_w": charger}


def read_build(path: Path) -> Build:
    """A build file from disk, or BuildError naming the file and what is wrong with it."""
    try:
        data = read_json(Path(path))
    except UserFileError as exc:
        raise BuildError(str(exc)) from exc
    return build_from_json(data, str(path))


@dataclass(frozen=True)
class Item:
    """A build line with its catalog part."""

    part: Part
    count: int

    @property
    def kind(self) -> str:
        return self.part.kind

    def spec(self, key: str) -> Any:
        return self.part.specs.get(key)


@dataclass(frozen=True)
class Resolved:
    """A build whose every id was found in the catalog, grouped by kind in ROLES order."""

    build: Build
    items: tuple[Item, ...]
    by_kind: dict[str, tuple[Item, ...]] = field(default_factory=dict)

    def one(self, kind: str) -> Item | None:
        items = self.by_kind.get(kind, ())
        return items[0] if items else None

    def count(self, kind: str) -> int:
        return sum(item.count for item in self.by_kind.get(kind, ()))

    def gpus(self) -> tuple[Item, ...]:
        return self.by_kind.get("gpu", ())


def resolve(build: Build, lookup: Any) -> Resolved:
    """Look every line up (`lookup(part_id) -> Part | None`, e.g. CatalogStore.part)."""
    items: list[Item] = []
    for line in build.lines:
        part = lookup(line.part_id)
        if part is None:
            raise BuildError(
                f"{build.name}: {line.part_id!r} is not in the catalog (gpuconfig catalog list --kind ...)"
            )
        if part.kind not in ROLES:
            raise BuildError(f"{build.name}: {line.part_id!r} is a {part.kind} offer, not a part of a machine")
        items.append(Item(part, line.count))
    items.sort(key=lambda item: ROLES.index(item.kind))
    by_kind: dict[str, tuple[Item, ...]] = {}
    for item in items:
        by_kind[item.kind] = (*by_kind.get(item.kind, ()), item)
    return Resolved(build, tuple(items), by_kind)


@dataclass(frozen=True)
class Totals:
    """The build's price in one currency; parts without a price are listed, never counted as free."""

    amount: float
    currency: str
    unpriced: tuple[str, ...]
    converted: bool  # some prices were converted with the exchange rate


def totals(resolved: Resolved, currency: str, rate: ExchangeRate | None) -> Totals:
    amount, unpriced, converted = 0.0, [], False
    for item in resolved.items:
        price = item.part.price_for(currency)
        value = convert_price(price, currency, rate) if price is not None else None
        if value is None:
            unpriced.append(item.part.id)
            continue
        converted = converted or (price is not None and price.currency != currency)
        amount += value * item.count
    return Totals(amount, currency, tuple(unpriced), converted)
