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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuconfig.core.egpu.check import Host
from gpuconfig.core.workers.environment import run_program
from gpuconfig.probe.inventory import SYSFS, TB_NO_PCIE, gpus, thunderbolt
from gpuconfig.probe.model import is_unavailable, unavailable

BOLTCTL_TIMEOUT_S = 5.0
WINDOWS_NOTE = (
    "Windows publishes no Thunderbolt link speed or lane count: describe the port, "
    "and run the measurement: the host-to-device rate shows what the link gives"
)


@dataclass(frozen=True)
class Detection:
    """What the probe found. `host` is None when no Thunderbolt/USB4 host was found; `reason` says why."""

    host: Host | None
    reason: str
    thunderbolt: dict[str, Any]
    enclosures: list[dict[str, Any]] = field(default_factory=list)
    gpus: Any = field(default_factory=list)  # one dict per NVIDIA GPU, or {"unavailable": why}
    boltctl: Any = None
    hints: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "found": self.host is not None,
            "reason": self.reason,
            "host": self.host.to_json() if self.host else None,
            "thunderbolt": self.thunderbolt,
            "enclosures": self.enclosures,
            "gpus": self.gpus,
            "boltctl": self.boltctl,
            "hints": self.hints,
        }


def os_id(system: str | None = None, machine: str | None = None) -> str:
    """This OS as the eGPU tables name it."""
    system = system or platform.system()
    if system == "Darwin":
        return "macos-apple" if (machine or platform.machine()) in ("arm64", "aarch64") else "macos-intel"
    return "windows" if system == "Windows" else "linux"


def port_of(router: dict[str, Any]) -> str:
    """The port kind a host router stands for. The kernel reports generation 3 for Thunderbolt 3 and 4 for
    USB4 (sysfs-bus-thunderbolt); Thunderbolt 4 controllers are USB4 routers and report 4 as well, so sysfs
    alone cannot tell TB4 from USB4: both are 40 Gb/s, and "USB4" is what is reported."""
    generation = router.get("generation")
    if generation == 3:
        return "TB3"
    if isinstance(generation, int) and generation <= 2:
        return "TB3"  # not an eGPU host in practice; the pairing table then judges it as the closest kind
    return "USB4"


def _link_of(router: dict[str, Any]) -> tuple[int | None, float | None]:
    lanes, speed = router.get("rx_lanes"), router.get("rx_speed_gbps")
    return (lanes if isinstance(lanes, int) else None, speed if isinstance(speed, float) else None)


def detect(
    sysfs_root: Path = SYSFS,
    system: str | None = None,
    devices: list[dict[str, Any]] | None = None,
    boltctl_text: str | None = None,
) -> Detection:
    """Read this machine (or a fixture tree: `sysfs_root`, `system`, NVML `devices`, `boltctl_text`)."""
    system = system or platform.system()
    os_name = os_id(system)
    why_no_gpu = ""
    if devices is None:
        facts, devices = gpus(sysfs_root) if system == platform.system() else ({}, [])
        why_no_gpu = str(facts.get("unavailable", "")) if not devices else ""
    found_gpus: Any = [_gpu(d) for d in devices] or unavailable(why_no_gpu or "no NVIDIA GPU given")
    bolt = _boltctl(boltctl_text)
    if system != "Linux":
        off = unavailable(f"Thunderbolt/USB4 links are read from Linux sysfs; not available on {system}")
        reason = WINDOWS_NOTE if system == "Windows" else f"{system}: Thunderbolt links are read from Linux sysfs"
        return Detection(None, reason, dict(off), [], found_gpus, bolt, _hints(found_gpus))
    reading: dict[str, Any] = thunderbolt(sysfs_root)
    if is_unavailable(reading):
        why = str(reading["unavailable"])
        reason = why if why.startswith("no Thunderbolt/USB4") else f"no Thunderbolt/USB4 host found: {why}"
        return Detection(None, reason, reading, [], found_gpus, bolt, _hints(found_gpus))
    routers: list[dict[str, Any]] = list(reading["devices"])
    hosts = [r for r in routers if r.get("kind") == "host"]
    enclosures = [r for r in routers if r.get("kind") == "device"]
    domains: dict[int, dict[str, Any]] = {int(d["name"].removeprefix("domain")): d for d in reading["domains"]}
    # The domain with an enclosure attached (an authorised one first), else the first host.
    attached = sorted(enclosures, key=lambda r: (r.get("authorized") not in (1, 2), len(r["route"])))
    chosen = attached[0] if attached else None
    domain_id = chosen["domain"] if chosen else (hosts[0]["domain"] if hosts else min(domains, default=0))
    host_router = next((h for h in hosts if h["domain"] == domain_id), hosts[0] if hosts else None)
    if host_router is None:
        return Detection(
            None, "no Thunderbolt/USB4 host router in sysfs (only devices)", reading, enclosures, found_gpus, bolt
        )
    domain = domains.get(domain_id, {})
    security = domain.get("security") if isinstance(domain.get("security"), str) else None
    lanes, speed = _link_of(chosen) if chosen else (None, None)
    port = port_of(host_router)
    if speed is not None and speed >= 40:  # 40 Gb/s per lane: USB4 Version 2.0 / Thunderbolt 5 (Gen 4 link)
        port = "TB5" if "intel" in str(host_router.get("vendor_name", "")).lower() else "USB4v2"
    notes = []
    if chosen is None:
        notes.append("no enclosure attached: the link is read once one is plugged in")
    if security in TB_NO_PCIE:
        notes.append(f"domain{domain_id} security '{security}': the firmware allows no PCIe tunnels")
    name = host_router.get("device_name")
    host = Host(
        port=port,
        os=os_name,
        how="detected",
        name=f"{host_router.get('vendor_name', '')} {name}".strip() if isinstance(name, str) else "",
        security=security,
        authorized=(chosen.get("authorized") in (1, 2))
        if chosen and isinstance(chosen.get("authorized"), int)
        else None,
        lanes=lanes,
        lane_gbps=speed,
        notes=tuple(notes),
    )
    return Detection(host, "", reading, enclosures, found_gpus, bolt, _hints(found_gpus))


def external_link(system: dict[str, Any], device: dict[str, Any]) -> dict[str, Any] | None:
    """For a GPU behind an external (Thunderbolt/USB4) port, the host-to-device figure its link should
    reach, as the probe's verdicts take it ({"link", "pass_gbs", "source", "fix"}); None for other GPUs."""
    from gpuconfig.core.egpu.speed import GENERAL_CAUSES
    from gpuconfig.core.egpu.tables import EgpuDataError, egpu_tables

    sysfs = device.get("pcie_sysfs")
    if not isinstance(sysfs, dict) or sysfs.get("removable") != "removable":
        return None
    reading = system.get("thunderbolt")
    routers = reading.get("devices", []) if isinstance(reading, dict) else []
    hosts = [r for r in routers if r.get("kind") == "host"]
    port = port_of(hosts[0]) if hosts else "USB4"
    try:
        link = egpu_tables().links.get(port)
    except EgpuDataError:
        return None
    if link is None or link.pass_gbs is None:
        return None
    return {
        "link": f"{link.name} eGPU",
        "pass_gbs": link.pass_gbs,
        "source": "; ".join(link.sources[:2]),
        "fix": "gpuconfig egpu --measure names the likely cause. " + " ".join(GENERAL_CAUSES),
    }


def _gpu(device: dict[str, Any]) -> dict[str, Any]:
    """One NVIDIA GPU: its own link, the links above it, and whether it sits behind an external port."""
    pcie: dict[str, Any] = device["pcie"] if isinstance(device.get("pcie"), dict) else {}
    sysfs: dict[str, Any] = device["pcie_sysfs"] if isinstance(device.get("pcie_sysfs"), dict) else {}
    removable = sysfs.get("removable")
    external: Any
    if isinstance(removable, str):
        external = removable == "removable"
    else:
        external = unavailable("not known: Linux 5.14+ says it ('removable'); Windows has no such flag here")
    upstream = [u for u in sysfs.get("upstream", []) if isinstance(u.get("current_width"), int)]
    narrowest = min(upstream, key=lambda u: u["current_width"], default=None)
    return {
        "name": device.get("name"),
        "bus_id": device.get("pci_bus_id"),
        "external": external,
        "link_generation": sysfs.get("max_generation", pcie.get("max_generation")),
        "link_width": sysfs.get("max_width", pcie.get("max_width")),
        "narrowest_upstream": narrowest,
    }


def _hints(found: Any) -> list[str]:
    """What the GPUs' links suggest when no Thunderbolt host explains them."""
    hints: list[str] = []
    if not isinstance(found, list):
        return hints
    for gpu in found:
        width = gpu.get("link_width")
        if gpu.get("external") is True:
            hints.append(f"{gpu['name']} sits behind an external port (removable): an eGPU")
        elif isinstance(width, int) and width <= 4:
            hints.append(
                f"{gpu['name']} runs on a PCIe x{width} link: this is how OCuLink docks and M.2 adapters attach; "
                "choose OCuLink as the port if that is how it is connected"
            )
    return hints


# --- boltctl ----------------------------------------------------------------------------------------------

_TREE = re.compile(r"^[\s│├└─|`-]*")
_RATE = re.compile(r"(\d+(?:\.\d+)?)\s*Gb/s\s*=\s*(\d+)\s*lanes?\s*\*\s*(\d+(?:\.\d+)?)\s*Gb/s")


def parse_boltctl(text: str) -> list[dict[str, Any]]:
    """`boltctl list` (or `boltctl info`): one dict per device, its "key: value" lines as written, with
    the link read from "rx speed: 40 Gb/s = 2 lanes * 20 Gb/s" (gicmo/bolt cli/boltctl.c)."""
    devices: list[dict[str, Any]] = []
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


def _boltctl(text: str | None) -> Any:
    if text is None:
        command = shutil.which("boltctl")
        if command is None or not sys.platform.startswith("linux"):
            return unavailable("boltctl (bolt) is not installed")
        try:
            done = run_program([command, "list", "--all"], BOLTCTL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return unavailable(f"boltctl did not answer: {exc}")
        if done.returncode != 0:
            first = (done.stderr or done.stdout).strip().splitlines()
            return unavailable(f"boltctl failed: {first[0] if first else f'exit {done.returncode}'}")
        text = done.stdout
    return parse_boltctl(text)
