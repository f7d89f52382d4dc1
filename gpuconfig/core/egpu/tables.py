"""The eGPU checker's data, read from catalog/egpu.toml: links, port/enclosure pairings, OS and GPU vendor,
Thunderbolt security levels and driver notes, each row with its sources."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gpuconfig.core.build.model import OSES, PORTS
from gpuconfig.core.paths import catalog_dir

EGPU_FILE = "egpu.toml"
DOCK_LINKS = ("TB3", "TB4", "USB4", "TB5", "OCuLink")
VENDORS = ("nvidia", "amd")
STATUSES = ("ok", "warn", "fail")
SECURITY_LEVELS = ("none", "user", "secure", "dponly", "usbonly", "nopcie")


class EgpuDataError(ValueError):
    """egpu.toml is missing a row or a field, or has one of the wrong type; the message names it."""


@dataclass(frozen=True)
class Link:
    id: str
    name: str
    raw_gbps: float | None
    pcie_gen: int | None
    pcie_lanes: int | None
    pcie_gbps: float | None
    h2d_gbs: float | None  # a typical measured host-to-device rate, pinned memory
    h2d_range_gbs: tuple[float, float] | None
    pass_gbs: float | None
    fail_gbs: float | None
    hotplug: bool | None
    power_to_host: bool | None
    sources: tuple[str, ...]
    notes: str

    @property
    def carries_pcie(self) -> bool:
        return self.pcie_lanes is not None


@dataclass(frozen=True)
class Rule:
    """One row of a table: a status with its reason, the fix, and where it comes from."""

    status: str
    reason: str
    fix: str
    sources: tuple[str, ...]
    link: str | None = None  # pairings: the link the pair runs at
    backend: str | None = None  # OS rows: what PyTorch uses


@dataclass(frozen=True)
class DriverNote:
    os: str
    vendor: str
    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class EgpuTables:
    links: dict[str, Link]
    pairings: dict[tuple[str, str], Rule]  # (laptop port, enclosure link)
    oses: dict[tuple[str, str], Rule]  # (os, GPU vendor)
    security: dict[str, Rule]
    driver_notes: tuple[DriverNote, ...]

    def notes_for(self, os: str, vendor: str) -> list[DriverNote]:
        return [n for n in self.driver_notes if n.os in (os, "any") and n.vendor in (vendor, "any")]


def _sources(row: dict[str, Any], where: str) -> tuple[str, ...]:
    found = row.get("sources")
    if not isinstance(found, list) or not found:
        raise EgpuDataError(f"{where}: no sources")
    out = []
    for source in found:
        if not isinstance(source, dict) or not source.get("url"):
            raise EgpuDataError(f"{where}: a source without a url")
        title = str(source.get("title", "")).strip()
        out.append(f"{title} ({source['url']})" if title else str(source["url"]))
    return tuple(out)


def _text(row: dict[str, Any], key: str, where: str, choices: tuple[str, ...] = ()) -> str:
    value = row.get(key)
    if not isinstance(value, str) or (not value.strip() and key not in ("fix",)):
        raise EgpuDataError(f"{where}: {key} missing or not text")
    if choices and value not in choices:
        raise EgpuDataError(f"{where}: {key} {value!r} is not one of {', '.join(choices)}")
    return value


def _number(row: dict[str, Any], key: str, where: str) -> float | None:
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EgpuDataError(f"{where}: {key} must be a number, not {value!r}")
    return float(value)


def _flag(row: dict[str, Any], key: str, where: str) -> bool | None:
    value = row.get(key)
    if value is not None and not isinstance(value, bool):
        raise EgpuDataError(f"{where}: {key} must be true or false, not {value!r}")
    return value


def _link(row: dict[str, Any], where: str) -> Link:
    span = row.get("h2d_range_gbs")
    if span is not None and (not isinstance(span, list) or len(span) != 2):
        raise EgpuDataError(f"{where}: h2d_range_gbs must be [low, high]")
    gen, lanes = _number(row, "pcie_gen", where), _number(row, "pcie_lanes", where)
    return Link(
        id=_text(row, "id", where, PORTS),
        name=_text(row, "name", where),
        raw_gbps=_number(row, "raw_gbps", where),
        pcie_gen=int(gen) if gen is not None else None,
        pcie_lanes=int(lanes) if lanes is not None else None,
        pcie_gbps=_number(row, "pcie_gbps", where),
        h2d_gbs=_number(row, "h2d_gbs", where),
        h2d_range_gbs=(float(span[0]), float(span[1])) if span else None,
        pass_gbs=_number(row, "pass_gbs", where),
        fail_gbs=_number(row, "fail_gbs", where),
        hotplug=_flag(row, "hotplug", where),
        power_to_host=_flag(row, "power_to_host", where),
        sources=_sources(row, where),
        notes=str(row.get("notes", "")),
    )


def _rule(row: dict[str, Any], where: str, **extra: str | None) -> Rule:
    return Rule(
        status=_text(row, "status", where, STATUSES),
        reason=_text(row, "reason", where),
        fix=str(row.get("fix", "")),
        sources=_sources(row, where),
        **extra,
    )


def parse_tables(document: str, name: str = EGPU_FILE) -> EgpuTables:
    try:
        data = tomllib.loads(document)
    except tomllib.TOMLDecodeError as exc:
        raise EgpuDataError(f"{name}: not valid TOML: {exc}") from exc

    def rows(table: str) -> list[tuple[str, dict[str, Any]]]:
        found = data.get(table, [])
        if not isinstance(found, list) or not all(isinstance(r, dict) for r in found):
            raise EgpuDataError(f"{name}: [[{table}]] must be a list of tables")
        return [(f"{name}: {table} row {i + 1}", r) for i, r in enumerate(found)]

    links = {}
    for where, row in rows("link"):
        link = _link(row, where)
        links[link.id] = link
    pairings = {}
    for where, row in rows("pairing"):
        port, dock = _text(row, "port", where, PORTS), _text(row, "dock", where, DOCK_LINKS)
        rule = _rule(row, where, link=row.get("link"))
        if rule.status != "fail" and rule.link not in links:
            raise EgpuDataError(f"{where}: link {rule.link!r} of {port} with {dock} is not a [[link]] id")
        pairings[(port, dock)] = rule
    oses = {}
    for where, row in rows("os"):
        key = (_text(row, "os", where, OSES), _text(row, "vendor", where, VENDORS))
        oses[key] = _rule(row, where, backend=str(row.get("backend", "")))
    security = {_text(r, "level", w, SECURITY_LEVELS): _rule(r, w) for w, r in rows("security")}
    notes = tuple(
        DriverNote(
            _text(r, "os", w, (*OSES, "any")),
            _text(r, "vendor", w, (*VENDORS, "any")),
            _text(r, "text", w),
            _sources(r, w),
        )
        for w, r in rows("driver_note")
    )
    missing = [p for p in PORTS if p not in links]
    missing += [f"pairing {p}/{d}" for p in PORTS for d in DOCK_LINKS if (p, d) not in pairings]
    missing += [f"os {o}/{v}" for o in OSES for v in VENDORS if (o, v) not in oses]
    missing += [f"security {s}" for s in SECURITY_LEVELS if s not in security]
    if missing:
        raise EgpuDataError(f"{name}: missing {', '.join(missing[:6])}" + (" ..." if len(missing) > 6 else ""))
    return EgpuTables(links, pairings, oses, security, notes)


@cache
def egpu_tables(path: Path | None = None) -> EgpuTables:
    path = path or catalog_dir() / EGPU_FILE
    try:
        document = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EgpuDataError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    return parse_tables(document, path.name)
