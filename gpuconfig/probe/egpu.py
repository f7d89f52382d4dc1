"""The laptop side of an eGPU, as this machine shows it: Thunderbolt/USB4 hosts and the enclosures on them
(Linux sysfs, and `boltctl` where bolt is installed), and each NVIDIA GPU with whether it sits behind an
external port and the PCIe links above it.

What cannot be read is said with its reason: no Thunderbolt controller, a Windows or macOS machine (no
sysfs; Windows publishes no Thunderbolt link speed, so there the measured copy rate is the check), no
NVIDIA driver. Nothing here raises for a missing file or a garbled value.
"""

from __future__ import annotations

import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuconfig.core.egpu.check import Host
from gpuconfig.core.i18n import translate
from gpuconfig.core.workers.environment import run_program
from gpuconfig.probe.gpu_facts import DeviceLink, GpuFacts, PcieLink
from gpuconfig.probe.inventory import SYSFS, TB_NO_PCIE, gpus, thunderbolt
from gpuconfig.probe.machine import System, Thunderbolt, ThunderboltRouter
from gpuconfig.probe.model import Maybe, Record, Unavailable, to_json
from gpuconfig.probe.references import LinkReference

BOLTCTL_TIMEOUT_S = 5.0
WINDOWS_NOTE = (
    "Windows publishes no Thunderbolt link speed or lane count: describe the port, "
    "and run the measurement: the host-to-device rate shows what the link gives"
)
BoltDevice = dict[str, str | int | float]  # a `boltctl list` entry: its "key: value" lines, and the link read


@dataclass(frozen=True)
class EgpuGpu(Record):
    """One NVIDIA GPU as the eGPU check sees it: whether it sits behind an external port, its link, and
    the narrowest PCIe link above it (None where sysfs shows none)."""

    name: Maybe[str]
    bus_id: Maybe[str]
    external: Maybe[bool]
    link_generation: Maybe[int]
    link_width: Maybe[int]
    narrowest_upstream: PcieLink | None = None


@dataclass(frozen=True)
class Detection:
    """What the probe found. `host` is None when no Thunderbolt/USB4 host was found; `reason` says why."""

    host: Host | None
    reason: str
    thunderbolt: Maybe[Thunderbolt]
    enclosures: tuple[ThunderboltRouter, ...] = ()
    gpus: Maybe[tuple[EgpuGpu, ...]] = ()
    boltctl: Maybe[tuple[BoltDevice, ...]] | None = None
    hints: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "found": self.host is not None,
            "reason": self.reason,
            "host": self.host.to_json() if self.host else None,
            "thunderbolt": to_json(self.thunderbolt),
            "enclosures": to_json(self.enclosures),
            "gpus": to_json(self.gpus),
            "boltctl": to_json(self.boltctl),
            "hints": list(self.hints),
        }


def os_id(system: str | None = None, machine: str | None = None) -> str:
    """This OS as the eGPU tables name it."""
    system = system or platform.system()
    if system == "Darwin":
        return "macos-apple" if (machine or platform.machine()) in ("arm64", "aarch64") else "macos-intel"
    return "windows" if system == "Windows" else "linux"


def port_of(router: ThunderboltRouter) -> str:
    """The port kind a host router stands for. The kernel reports generation 3 for Thunderbolt 3 and 4 for
    USB4 (sysfs-bus-thunderbolt); Thunderbolt 4 controllers are USB4 routers and report 4 as well, so sysfs
    alone cannot tell TB4 from USB4: both are 40 Gb/s, and "USB4" is what is reported."""
    generation = router.generation
    if generation == 3:
        return "TB3"
    if isinstance(generation, int) and generation <= 2:
        return "TB3"  # not an eGPU host in practice; the pairing table then judges it as the closest kind
    return "USB4"


def _text(value: Maybe[str]) -> str:
    return value if isinstance(value, str) else ""


def detect(
    sysfs_root: Path = SYSFS,
    system: str | None = None,
    devices: Sequence[GpuFacts] | None = None,
    boltctl_text: str | None = None,
) -> Detection:
    """Read this machine (or a fixture tree: `sysfs_root`, `system`, NVML `devices`, `boltctl_text`)."""
    system = system or platform.system()
    os_name = os_id(system)
    why_no_gpu = ""
    if devices is None:
        facts, devices = gpus(sysfs_root) if system == platform.system() else (None, [])
        why_no_gpu = facts.reason if isinstance(facts, Unavailable) and not devices else ""
    found_gpus: Maybe[tuple[EgpuGpu, ...]] = tuple(_gpu(d) for d in devices) or Unavailable(
        why_no_gpu or "no NVIDIA GPU given"
    )
    hints = _hints(found_gpus)
    bolt = _boltctl(boltctl_text)
    if system != "Linux":
        off = Unavailable(f"Thunderbolt/USB4 links are read from Linux sysfs; not available on {system}")
        reason = WINDOWS_NOTE if system == "Windows" else f"{system}: Thunderbolt links are read from Linux sysfs"
        return Detection(None, reason, off, (), found_gpus, bolt, hints)
    reading = thunderbolt(sysfs_root)
    if isinstance(reading, Unavailable):
        why = reading.reason
        reason = why if why.startswith("no Thunderbolt/USB4") else f"no Thunderbolt/USB4 host found: {why}"
        return Detection(None, reason, reading, (), found_gpus, bolt, hints)
    hosts = reading.hosts
    enclosures = tuple(r for r in reading.devices if r.kind == "device")
    domains = {int(d.name.removeprefix("domain")): d for d in reading.domains}
    # The domain with an enclosure attached (an authorised one first), else the first host.
    attached = sorted(enclosures, key=lambda r: (not r.authorised, len(r.route)))
    chosen = attached[0] if attached else None
    domain_id = chosen.domain if chosen else (hosts[0].domain if hosts else min(domains, default=0))
    host_router = next((h for h in hosts if h.domain == domain_id), hosts[0] if hosts else None)
    if host_router is None:
        return Detection(
            None, "no Thunderbolt/USB4 host router in sysfs (only devices)", reading, enclosures, found_gpus, bolt
        )
    domain = domains.get(domain_id)
    security = domain.security if domain is not None and isinstance(domain.security, str) else None
    lanes, speed = _link_of(chosen) if chosen else (None, None)
    port = port_of(host_router)
    if speed is not None and speed >= 40:  # 40 Gb/s per lane: USB4 Version 2.0 / Thunderbolt 5 (Gen 4 link)
        port = "TB5" if "intel" in _text(host_router.vendor_name).lower() else "USB4v2"
    notes = []
    if chosen is None:
        notes.append("no enclosure attached: the link is read once one is plugged in")
    if security in TB_NO_PCIE:
        notes.append(f"domain{domain_id} security '{security}': the firmware allows no PCIe tunnels")
    name = host_router.device_name
    host = Host(
        port=port,
        os=os_name,
        how="detected",
        name=f"{_text(host_router.vendor_name)} {name}".strip() if isinstance(name, str) else "",
        security=security,
        authorized=chosen.authorised if chosen and isinstance(chosen.authorized, int) else None,
        lanes=lanes,
        lane_gbps=speed,
        notes=tuple(notes),
    )
    return Detection(host, "", reading, enclosures, found_gpus, bolt, hints)


def _link_of(router: ThunderboltRouter) -> tuple[int | None, float | None]:
    lanes, speed = router.rx_lanes, router.rx_speed_gbps
    return (lanes if isinstance(lanes, int) else None, speed if isinstance(speed, float) else None)


def external_link(system: System, device: GpuFacts) -> LinkReference | None:
    """For a GPU behind an external (Thunderbolt/USB4) port, the host-to-device figure its link should
    reach, as the probe's verdicts take it; None for other GPUs."""
    from gpuconfig.core.egpu.speed import GENERAL_CAUSES
    from gpuconfig.core.egpu.tables import EgpuDataError, egpu_tables

    if not device.external:
        return None
    hosts = system.thunderbolt.hosts if isinstance(system.thunderbolt, Thunderbolt) else []
    port = port_of(hosts[0]) if hosts else "USB4"
    try:
        link = egpu_tables().links.get(port)
    except EgpuDataError:
        return None
    if link is None or link.pass_gbs is None:
        return None
    return LinkReference(
        f"{link.name} eGPU",
        link.pass_gbs,
        "; ".join(link.sources[:2]),
        translate("ProbeReport", "gpuconfig egpu --measure names the likely cause. {causes}").format(
            causes=" ".join(GENERAL_CAUSES)
        ),
    )


def _gpu(device: GpuFacts) -> EgpuGpu:
    """One NVIDIA GPU: its own link, the links above it, and whether it sits behind an external port."""
    sysfs = device.pcie_sysfs if isinstance(device.pcie_sysfs, DeviceLink) else None
    external: Maybe[bool]
    if sysfs is not None and isinstance(sysfs.removable, str):
        external = sysfs.removable == "removable"
    else:
        external = Unavailable("not known: Linux 5.14+ says it ('removable'); Windows has no such flag here")
    widths = [
        (u.current_width, u) for u in (sysfs.upstream if sysfs is not None else ()) if isinstance(u.current_width, int)
    ]
    narrowest = min(widths, key=lambda pair: pair[0], default=(0, None))[1]
    link = sysfs if sysfs is not None else device.pcie
    return EgpuGpu(device.name, device.pci_bus_id, external, link.max_generation, link.max_width, narrowest)


def _hints(found: Maybe[tuple[EgpuGpu, ...]]) -> tuple[str, ...]:
    """What the GPUs' links suggest when no Thunderbolt host explains them."""
    hints: list[str] = []
    if isinstance(found, Unavailable):
        return ()
    for gpu in found:
        width = gpu.link_width
        if gpu.external is True:
            hints.append(f"{gpu.name} sits behind an external port (removable): an eGPU")
        elif isinstance(width, int) and width <= 4:
            hints.append(
                f"{gpu.name} runs on a PCIe x{width} link: this is how OCuLink docks and M.2 adapters attach; "
                "choose OCuLink as the port if that is how it is connected"
            )
    return tuple(hints)


# --- boltctl ----------------------------------------------------------------------------------------------

_TREE = re.compile(r"^[\s│├└─|`-]*")
_RATE = re.compile(r"(\d+(?:\.\d+)?)\s*Gb/s\s*=\s*(\d+)\s*lanes?\s*\*\s*(\d+(?:\.\d+)?)\s*Gb/s")


def parse_boltctl(text: str) -> list[BoltDevice]:
    """`boltctl list` (or `boltctl info`): one dict per device, its "key: value" lines as written, with
    the link read from "rx speed: 40 Gb/s = 2 lanes * 20 Gb/s" (gicmo/bolt cli/boltctl.c)."""
    devices: list[BoltDevice] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            continue
        stripped = line.strip()
        if stripped[0] in "●○•*" or (not devices and ":" not in stripped):
            devices.append({"title": stripped.lstrip("●○•* ").strip()})
            continue
        if not devices:
            continue
        body = _TREE.sub("", line)
        key, sep, value = body.partition(":")
        if not sep:
            continue
        key = key.strip().lower().replace(" ", "_")
        value = value.strip()
        devices[-1][key] = value
        rate = _RATE.search(value)
        if rate and key in ("rx_speed", "tx_speed"):
            side = key.split("_")[0]
            devices[-1][f"{side}_lanes"] = int(rate.group(2))
            devices[-1][f"{side}_lane_gbps"] = float(rate.group(3))
    return devices


def _boltctl(text: str | None) -> Maybe[tuple[BoltDevice, ...]]:
    if text is None:
        command = shutil.which("boltctl")
        if command is None or not sys.platform.startswith("linux"):
            return Unavailable("boltctl (bolt) is not installed")
        try:
            done = run_program([command, "list", "--all"], BOLTCTL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return Unavailable(f"boltctl did not answer: {exc}")
        if done.returncode != 0:
            first = (done.stderr or done.stdout).strip().splitlines()
            return Unavailable(f"boltctl failed: {first[0] if first else f'exit {done.returncode}'}")
        text = done.stdout
    return tuple(parse_boltctl(text))
