"""Will this laptop, enclosure and card work together? Every rule with its finding, reason, fix and source.

The laptop is a `Host`: described by the user (port, OS, charger), or filled in from what the probe read
(`gpuconfig.probe.egpu`), which adds the Thunderbolt security level, the enclosure's authorisation and the
link the cable trained at. The enclosure and the card are catalog parts; either may be missing, and the
rules that need it then say so instead of guessing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gpuconfig.core.build.power import card_power
from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.tables import EgpuTables, Link
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate

Status = Literal["ok", "warn", "fail", "unknown"]
ORDER: dict[str, int] = {"fail": 0, "warn": 1, "unknown": 2, "ok": 3}
CONTEXT = "Egpu"
PORT_LABELS = {
    "TB3": QT_TRANSLATE_NOOP("Egpu", "Thunderbolt 3"),
    "TB4": QT_TRANSLATE_NOOP("Egpu", "Thunderbolt 4"),
    "USB4": QT_TRANSLATE_NOOP("Egpu", "USB4 (40 Gb/s)"),
    "USB4v2": QT_TRANSLATE_NOOP("Egpu", "USB4 Version 2.0 (80 Gb/s)"),
    "TB5": QT_TRANSLATE_NOOP("Egpu", "Thunderbolt 5"),
    "OCuLink": QT_TRANSLATE_NOOP("Egpu", "OCuLink"),
    "USB-C": QT_TRANSLATE_NOOP("Egpu", "USB-C without Thunderbolt or USB4"),
}
OS_LABELS = {
    "windows": QT_TRANSLATE_NOOP("Egpu", "Windows"),
    "linux": QT_TRANSLATE_NOOP("Egpu", "Linux"),
    "macos-intel": QT_TRANSLATE_NOOP("Egpu", "macOS on an Intel Mac"),
    "macos-apple": QT_TRANSLATE_NOOP("Egpu", "macOS on Apple silicon"),
}
KERNEL_ABI = "Linux kernel Documentation/ABI/testing/sysfs-bus-thunderbolt"


def _t(text: str) -> str:
    """Only for texts marked where they are written (the tables here): translate() marks the rest for lupdate."""
    return translate(CONTEXT, text)


def data_text(text: str) -> str:
    """A reason, fix or note of catalog/egpu.toml in the language in use (core/data_strings.py marks them)."""
    return translate("EgpuData", text) if text else text


def port_label(port: str) -> str:
    """A port id in words, in the language in use: "Thunderbolt 3"; the id itself where it has no label."""
    return _t(PORT_LABELS.get(port, port))


def os_label(os: str) -> str:
    """An OS id in words, in the language in use: "macOS on Apple silicon"; the id itself where it has no label."""
    return _t(OS_LABELS.get(os, os))


@dataclass(frozen=True)
class Host:
    """The laptop side. Detected fields stay None when the laptop was described instead."""

    port: str  # a build.model PORTS id
    os: str  # a build.model OSES id
    charger_w: int | None = None  # the laptop's own charger: what it wants from the enclosure's USB-C
    how: str = "described"  # "described" or "detected"
    name: str = ""  # the host controller, when detected
    security: str | None = None  # Linux: the Thunderbolt domain's security level
    authorized: bool | None = None  # Linux: the attached enclosure's authorisation
    lanes: int | None = None  # the Thunderbolt link as trained: lanes x Gb/s per lane
    lane_gbps: float | None = None
    pcie_lanes: int | None = None  # the PCIe tunnel's width, when the laptop's wiring is known
    notes: tuple[str, ...] = ()

    @property
    def link_gbps(self) -> float | None:
        return self.lanes * self.lane_gbps if self.lanes and self.lane_gbps else None

    def to_json(self) -> dict[str, Any]:
        return {
            "port": self.port,
            "port_label": port_label(self.port),
            "os": self.os,
            "charger_w": self.charger_w,
            "how": self.how,
            "name": self.name,
            "security": self.security,
            "authorized": self.authorized,
            "lanes": self.lanes,
            "lane_gbps": self.lane_gbps,
            "link_gbps": self.link_gbps,
            "pcie_lanes": self.pcie_lanes,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Check:
    rule: str  # a stable name: "port", "length", ...
    status: Status
    message: str
    fix: str = ""
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "status": self.status,
            "message": self.message,
            "fix": self.fix,
            "source": self.source,
        }


@dataclass(frozen=True)
class Compatibility:
    host: Host
    dock: Part | None
    gpu: Part | None
    checks: tuple[Check, ...]
    link: Link | None  # what the pair runs at; None when it cannot tunnel PCIe
    notes: tuple[str, ...] = field(default=())

    @property
    def status(self) -> Status:
        worst: Status = min((c.status for c in self.checks), key=ORDER.__getitem__, default="unknown")
        return "ok" if worst == "unknown" else worst

    @property
    def verdict(self) -> str:
        if self.status == "fail":
            return translate("Egpu", "will not work")
        if self.status == "warn":
            return translate("Egpu", "works, with the warnings below")
        return translate("Egpu", "compatible")


def gpu_vendor(gpu: Part) -> str:
    """'nvidia', 'amd', or the vendor as written when it is neither."""
    vendor = gpu.vendor.lower()
    return "nvidia" if "nvidia" in vendor else "amd" if vendor.startswith("amd") or "radeon" in vendor else vendor


def _first(sources: Sequence[str]) -> str:
    return "; ".join(sources[:2])


def _part_source(part: Part, key: str) -> str:
    source = part.source_for(key)
    if source:
        return f"{part.id}: {source.title} ({source.url})"
    return translate("Egpu", "{part} in the catalog").format(part=part.id)


def check_egpu(host: Host, dock: Part | None, gpu: Part | None, tables: EgpuTables, rules: Rules) -> Compatibility:
    checks: list[Check] = []
    link = _port(host, dock, tables, checks)
    if host.how == "detected":
        _thunderbolt_state(host, link, tables, checks)
    if gpu is not None:
        _os(host, gpu, tables, checks)
    else:
        checks.append(Check("os", "unknown", translate("Egpu", "No card chosen: the OS and driver rules need one.")))
    if dock is not None and gpu is not None:
        checks += _fit(dock, gpu)
        checks += _power(dock, gpu, rules)
        checks += _connectors(dock, gpu)
    if dock is not None:
        checks.append(_charging(host, dock, link or tables.links.get(str(dock.specs.get("link")))))
    if link is not None and link.hotplug is False:
        checks.append(
            Check(
                "hotplug",
                "warn",
                translate(
                    "Egpu",
                    "{link} is not hot-pluggable: the card is seen only if it is connected and powered before the "
                    "laptop starts.",
                ).format(link=link.name),
                translate(
                    "Egpu", "Connect and power the enclosure first, then start the laptop; shut down before unplugging."
                ),
                _first(link.sources),
            )
        )
    notes = tuple(data_text(n.text) for n in tables.notes_for(host.os, gpu_vendor(gpu) if gpu else "any"))
    checks.sort(key=lambda c: ORDER[c.status])
    return Compatibility(host, dock, gpu, tuple(checks), link, notes)


def _port(host: Host, dock: Part | None, tables: EgpuTables, checks: list[Check]) -> Link | None:
    port = tables.links.get(host.port)
    if dock is None:
        if port is None or not port.carries_pcie:
            checks.append(
                Check(
                    "port",
                    "fail",
                    translate("Egpu", "{port} carries no PCIe: no eGPU can work on this port.").format(
                        port=port_label(host.port)
                    ),
                    translate("Egpu", "Use a Thunderbolt, USB4 or OCuLink port."),
                    _first(port.sources) if port else "",
                )
            )
            return None
        checks.append(
            Check(
                "port",
                "unknown",
                translate("Egpu", "No enclosure chosen: the laptop's port is {port}.").format(port=port.name),
            )
        )
        return port
    rule = tables.pairings.get((host.port, str(dock.specs.get("link"))))
    if rule is None:
        checks.append(
            Check(
                "port",
                "unknown",
                translate("Egpu", "No rule for {port} with a {link} enclosure.").format(
                    port=host.port, link=dock.specs.get("link")
                ),
            )
        )
        return None
    status, fix = rule.status, data_text(rule.fix)
    if status == "warn" and host.authorized:  # seen working: the enclosure is attached and its tunnel is up
        status, fix = "ok", ""
        message = translate(
            "Egpu",
            "{port} port, {dock} ({link}): {reason} Here an enclosure is attached and authorised on this port, so "
            "this port tunnels PCIe.",
        )
    else:
        message = translate("Egpu", "{port} port, {dock} ({link}): {reason}")
    message = message.format(
        port=port_label(host.port), dock=dock.name, link=dock.specs.get("link"), reason=data_text(rule.reason)
    )
    checks.append(Check("port", status, message, fix, _first(rule.sources)))  # type: ignore[arg-type]
    return tables.links.get(rule.link) if rule.status != "fail" and rule.link else None


def _thunderbolt_state(host: Host, link: Link | None, tables: EgpuTables, checks: list[Check]) -> None:
    if host.security is not None:
        rule = tables.security.get(host.security)
        if rule is not None and rule.status == "warn" and host.authorized:
            checks.append(
                Check(
                    "security",
                    "ok",
                    translate(
                        "Egpu", "Thunderbolt security level '{level}': the attached enclosure has been approved."
                    ).format(level=host.security),
                    "",
                    _first(rule.sources),
                )
            )
        elif rule is not None:
            checks.append(
                Check(
                    "security",
                    rule.status,  # type: ignore[arg-type]
                    translate("Egpu", "Thunderbolt security level '{level}': {reason}").format(
                        level=host.security, reason=data_text(rule.reason)
                    ),
                    data_text(rule.fix),
                    _first(rule.sources),
                )
            )
        else:
            checks.append(
                Check(
                    "security",
                    "unknown",
                    translate("Egpu", "Unknown Thunderbolt security level {level!r}.").format(level=host.security),
                )
            )
    if host.authorized is False:
        checks.append(
            Check(
                "authorized",
                "fail",
                translate(
                    "Egpu",
                    "The enclosure is attached but not authorised: no PCIe tunnel is set up until it is, so the "
                    "card is not on the PCIe bus.",
                ),
                translate(
                    "Egpu",
                    "Approve it in the desktop's Thunderbolt settings, or `boltctl enroll <uuid>` "
                    "(or write 1 to its `authorized` file as root).",
                ),
                KERNEL_ABI,
            )
        )
    elif host.authorized:
        checks.append(
            Check(
                "authorized",
                "ok",
                translate("Egpu", "The enclosure is authorised: its PCIe tunnel is up."),
                "",
                KERNEL_ABI,
            )
        )
    expected = link.raw_gbps if link is not None else None
    if host.link_gbps is not None and expected:
        trained = f"{host.lanes} x {host.lane_gbps:g} Gb/s = {host.link_gbps:g} Gb/s"
        if host.link_gbps < expected:
            checks.append(
                Check(
                    "link-rate",
                    "warn",
                    translate(
                        "Egpu",
                        "The Thunderbolt link trained at {trained}, below {link}'s {expected:g} Gb/s (one lane or a "
                        "slower lane rate): less room for the PCIe tunnel.",
                    ).format(trained=trained, link=link.name, expected=expected),  # type: ignore[union-attr]
                    translate(
                        "Egpu",
                        "Use a certified 40 Gb/s (or faster) Thunderbolt/USB4 cable, at most 0.8 m if passive, "
                        "in the laptop's Thunderbolt/USB4 port; then re-plug.",
                    ),
                    f"{KERNEL_ABI} (rx_lanes, rx_speed); osy/HaC-Mini#149 (a link stuck at 20 Gb/s x1)",
                )
            )
        else:
            checks.append(
                Check(
                    "link-rate",
                    "ok",
                    translate("Egpu", "The Thunderbolt link trained at {trained}.").format(trained=trained),
                    "",
                    KERNEL_ABI,
                )
            )


def _os(host: Host, gpu: Part, tables: EgpuTables, checks: list[Check]) -> None:
    vendor = gpu_vendor(gpu)
    rule = tables.oses.get((host.os, vendor))
    label = os_label(host.os)
    if rule is None:
        checks.append(
            Check(
                "os",
                "unknown",
                translate("Egpu", "No rule for a {vendor} card on {os}.").format(vendor=gpu.vendor, os=label),
            )
        )
        return
    if rule.backend and rule.backend != "none":
        message = translate("Egpu", "{vendor} on {os} (PyTorch backend: {backend}): {reason}")
    else:
        message = translate("Egpu", "{vendor} on {os}: {reason}")
    message = message.format(vendor=gpu.vendor, os=label, backend=rule.backend, reason=data_text(rule.reason))
    checks.append(Check("os", rule.status, message, data_text(rule.fix), _first(rule.sources)))  # type: ignore[arg-type]


@dataclass(frozen=True)
class FitRule:
    """The card's size against the enclosure: the rule, the enclosure's limit and the card's figure (catalog keys),
    and its texts (marked for translation; {dock}, {gpu}, {size} and {limit} filled in)."""

    rule: str
    limit_key: str
    card_key: str
    no_limit: str  # the catalog lacks the enclosure's limit
    no_size: str  # the catalog lacks the card's figure
    too_big: str
    fits: str
    fix: str


FIT = (
    FitRule(
        "length",
        "max_gpu_length_mm",
        "board_length_mm",
        QT_TRANSLATE_NOOP("Egpu", "Card length not checked: the catalog has no {dock}'s limit."),
        QT_TRANSLATE_NOOP("Egpu", "Card length not checked: the catalog has no {gpu}'s length."),
        QT_TRANSLATE_NOOP("Egpu", "{gpu}'s length is {size:g} mm; {dock} takes cards up to {limit:g} mm."),
        QT_TRANSLATE_NOOP("Egpu", "{gpu} ({size:g} mm) fits {dock} (up to {limit:g} mm)."),
        QT_TRANSLATE_NOOP("Egpu", "A shorter card or a larger enclosure."),
    ),
    FitRule(
        "width",
        "max_slot_width",
        "slot_width",
        QT_TRANSLATE_NOOP("Egpu", "Card thickness not checked: the catalog has no {dock}'s limit."),
        QT_TRANSLATE_NOOP("Egpu", "Card thickness not checked: the catalog has no {gpu}'s thickness."),
        QT_TRANSLATE_NOOP("Egpu", "{gpu}'s thickness is {size:g} slots; {dock} takes cards up to {limit:g} slots."),
        QT_TRANSLATE_NOOP("Egpu", "{gpu} ({size:g} slots) fits {dock} (up to {limit:g} slots)."),
        QT_TRANSLATE_NOOP("Egpu", "A thinner card or a larger enclosure."),
    ),
)


def _fit(dock: Part, gpu: Part) -> list[Check]:
    out = []
    for fit in FIT:
        rule = fit.rule
        limit, size = dock.specs.get(fit.limit_key), gpu.specs.get(fit.card_key)
        if limit is None or size is None:
            missing = fit.no_limit if limit is None else fit.no_size
            message = _t(missing).format(dock=dock.name, gpu=gpu.name)
            why = dock.unknown.get(fit.limit_key) if limit is None else gpu.unknown.get(fit.card_key)
            if why:  # the catalog row says why it has no figure
                message = translate("Egpu", "{message} ({why})").format(message=message, why=why)
            out.append(Check(rule, "unknown", message, translate("Egpu", "Measure.")))
        elif size > limit:
            message = _t(fit.too_big).format(gpu=gpu.name, size=size, dock=dock.name, limit=limit)
            out.append(Check(rule, "fail", message, _t(fit.fix), _part_source(dock, fit.limit_key)))
        else:
            message = _t(fit.fits).format(gpu=gpu.name, size=size, dock=dock.name, limit=limit)
            out.append(Check(rule, "ok", message))
    return out


def dock_psu_needed(gpu: Part, rules: Rules) -> int:
    """The rating of a supply the user brings for an enclosure without one: the card alone on an ATX 3.x
    supply (its factor for power excursions), loaded to the comfortable share (both from build_rules.toml)."""
    return math.ceil(int(gpu.specs.get("tdp_w") or 0) * rules.gpu_factor_atx3 / rules.comfortable_share)


def _power(dock: Part, gpu: Part, rules: Rules) -> list[Check]:
    tdp = gpu.specs.get("tdp_w")
    if tdp is None:
        return [
            Check(
                "power",
                "unknown",
                translate("Egpu", "Card power not checked: the catalog has no board power for {gpu}.").format(
                    gpu=gpu.name
                ),
            )
        ]
    rated, psu, delivery = (
        dock.specs.get("max_gpu_power_w"),
        dock.specs.get("psu_w"),
        dock.specs.get("power_delivery_w"),
    )
    if rated is not None:
        status: Status = "fail" if tdp > rated else "ok"
        return [
            Check(
                "power",
                status,
                translate("Egpu", "{gpu} draws {tdp} W; {dock} is rated to feed a card up to {rated} W.").format(
                    gpu=gpu.name, tdp=tdp, dock=dock.name, rated=rated
                ),
                translate("Egpu", "A card within the enclosure's rating.") if status == "fail" else "",
                _part_source(dock, "max_gpu_power_w"),
            )
        ]
    if psu is not None:
        budget = int(psu) - int(delivery or 0)
        share = tdp / budget if budget > 0 else math.inf
        status = "fail" if share > 1 else "warn" if share > rules.comfortable_share else "ok"
        if delivery:
            message = translate(
                "Egpu",
                "{gpu} draws {tdp} W of {dock}'s {psu} W supply, less the {delivery} W it may send to the laptop "
                "({budget} W, {share:.0%} of it).",
            )
        else:
            message = translate(
                "Egpu", "{gpu} draws {tdp} W of {dock}'s {psu} W supply ({budget} W, {share:.0%} of it)."
            )
        return [
            Check(
                "power",
                status,
                message.format(
                    gpu=gpu.name, tdp=tdp, dock=dock.name, psu=psu, delivery=delivery, budget=budget, share=share
                ),
                ""
                if status == "ok"
                else translate(
                    "Egpu",
                    "Keep the card at or below {share:.0%} of the supply: a card under {watts} W, or lower its power "
                    "limit (nvidia-smi -pl).",
                ).format(share=rules.comfortable_share, watts=math.floor(budget * rules.comfortable_share)),
                f"{_part_source(dock, 'psu_w')}; {rules.comfortable_source}",
            )
        ]
    need = dock_psu_needed(gpu, rules)
    return [
        Check(
            "power",
            "warn",
            translate(
                "Egpu",
                "{dock} has no supply of its own: bring one of at least {need} W for {gpu} ({tdp} W), with the "
                "card's power cables.",
            ).format(dock=dock.name, need=need, gpu=gpu.name, tdp=tdp),
            translate("Egpu", "An ATX 3.x supply of {need} W or more.").format(need=need),
            f"{rules.psu_source}; {rules.comfortable_source}",
        )
    ]


def _connectors(dock: Part, gpu: Part) -> list[Check]:
    text = dock.specs.get("gpu_power_connectors")
    card = card_power(gpu.specs.get("power_connectors"))
    if not text or not card.known:
        return [
            Check(
                "connectors",
                "unknown",
                translate("Egpu", "Power cables not checked: the catalog lacks the enclosure's or the card's."),
            )
        ]
    offered = card_power(text)
    if "user" in text.lower() or "from the" in text.lower():  # the user's own supply feeds the card
        return [
            Check(
                "connectors",
                "ok",
                translate("Egpu", "{dock}: the card's cables come from your own supply ({cables}).").format(
                    dock=dock.name, cables=text
                ),
            )
        ]
    needs = gpu.specs.get("power_connectors")
    if card.sixteen_pin and not offered.sixteen_pin:
        if card.eight_pin and offered.eight_pin >= card.eight_pin:
            return [
                Check(
                    "connectors",
                    "warn",
                    translate("Egpu", "{gpu} takes {needs}; {dock} has {cables}: use the card's adapter.").format(
                        gpu=gpu.name, needs=needs, dock=dock.name, cables=text
                    ),
                    translate("Egpu", "Use the adapter that came with the card, fully seated."),
                    _part_source(dock, "gpu_power_connectors"),
                )
            ]
        return [
            Check(
                "connectors",
                "fail",
                translate("Egpu", "{gpu} takes {needs}; {dock} has {cables}.").format(
                    gpu=gpu.name, needs=needs, dock=dock.name, cables=text
                ),
                translate("Egpu", "A card with 8-pin PCIe plugs, or an enclosure with a 12V-2x6 cable."),
                _part_source(dock, "gpu_power_connectors"),
            )
        ]
    if card.eight_pin > offered.eight_pin and not card.sixteen_pin:
        return [
            Check(
                "connectors",
                "fail",
                translate("Egpu", "{gpu} takes {plugs} PCIe 8-pin plugs; {dock} has {cables}.").format(
                    gpu=gpu.name, plugs=card.eight_pin, dock=dock.name, cables=text
                ),
                translate("Egpu", "A card with fewer power plugs, or another enclosure."),
                _part_source(dock, "gpu_power_connectors"),
            )
        ]
    return [
        Check(
            "connectors",
            "ok",
            translate("Egpu", "{gpu} ({needs}) is fed by {dock}'s {cables}.").format(
                gpu=gpu.name, needs=needs, dock=dock.name, cables=text
            ),
        )
    ]


def _charging(host: Host, dock: Part, link: Link | None) -> Check:
    delivery = dock.specs.get("power_delivery_w")
    if link is not None and link.power_to_host is False:
        return Check(
            "charging",
            "ok",
            translate("Egpu", "{link} carries no power: the laptop runs on its own charger.").format(link=link.name),
            "",
            _first(link.sources),
        )
    if delivery is None:
        return Check(
            "charging",
            "unknown",
            translate("Egpu", "Charging not checked: the catalog has no power delivery figure for {dock}.").format(
                dock=dock.name
            ),
        )
    if host.charger_w is None:
        return Check(
            "charging",
            "ok",
            translate("Egpu", "{dock} charges the laptop at up to {delivery} W.").format(
                dock=dock.name, delivery=delivery
            ),
        )
    if delivery < host.charger_w:
        return Check(
            "charging",
            "warn",
            translate(
                "Egpu",
                "{dock} charges at up to {delivery} W; the laptop's charger gives {charger} W: under load the battery "
                "can drain while the eGPU runs.",
            ).format(dock=dock.name, delivery=delivery, charger=host.charger_w),
            translate("Egpu", "Keep the laptop's own charger plugged in as well."),
            _part_source(dock, "power_delivery_w"),
        )
    return Check(
        "charging",
        "ok",
        translate("Egpu", "{dock} charges at up to {delivery} W (laptop charger {charger} W).").format(
            dock=dock.name, delivery=delivery, charger=host.charger_w
        ),
    )
