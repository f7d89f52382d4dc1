"""What this machine is: OS, CPU, memory, disks, Thunderbolt/USB4, Python environments with torch, GPUs.

Every field that cannot be read is `{"unavailable": why}`; nothing here raises for a missing part, driver
or file. The sysfs readers take the sysfs root as a parameter so tests can point them at fixture trees.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped, unused-ignore]

from gpuconfig.core.workers import environment, interpreters, search
from gpuconfig.probe import nvml
from gpuconfig.probe.model import Unavailable, is_unavailable, unavailable

SYSFS = Path("/sys")
LINUX = sys.platform.startswith("linux")

# Flag names as Linux prints them in /proc/cpuinfo (arch/x86/include/asm/cpufeatures.h).
X86_INSTRUCTION_SETS = (
    "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni", "amx_tile", "amx_bf16", "amx_int8",
)  # fmt: skip
# Feature names as Linux prints them for 64-bit Arm (arch/arm64/kernel/cpuinfo.c).
ARM_INSTRUCTION_SETS = ("asimd", "sve", "sve2", "bf16", "i8mm")

NO_THUNDERBOLT = "no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)"
# bolt's format_generation; the kernel ABI (sysfs-bus-thunderbolt, "generation") says 4 means USB4.
TB_GENERATIONS = {1: "Thunderbolt 1", 2: "Thunderbolt 2", 3: "Thunderbolt 3", 4: "USB4"}
# sysfs-bus-thunderbolt, domain "security": these levels create no PCIe tunnel, so no eGPU can work.
TB_NO_PCIE = {"dponly", "usbonly", "nopcie"}
# Transfer rate per lane of each PCIe generation in GT/s (PCI Express Base Specification 6.0, table 1-1).
PCIE_GENERATIONS = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6}


@dataclass(frozen=True)
class Inventory:
    """This machine: `system` (os, cpu, memory, disks, thunderbolt, pythons, gpu) and one dict per GPU."""

    system: dict[str, Any]
    devices: list[dict[str, Any]]

    def record(self) -> dict[str, Any]:
        return {"system": self.system, "devices": self.devices}


def inventory(extra_pythons: Sequence[str] = ()) -> Inventory:
    """Read this machine's inventory; `extra_pythons` are interpreters or environments the user added."""
    gpu, devices = gpus()
    system = {
        "os": os_info(),
        "cpu": cpu_info(),
        "memory": memory_info(),
        "disks": disks(),
        "thunderbolt": thunderbolt(),
        "pythons": pythons(extra_pythons),
        "gpu": gpu,
    }
    return Inventory(system=system, devices=devices)


def os_info() -> dict[str, Any]:
    system = platform.system()
    name = system
    if LINUX:
        with contextlib.suppress(OSError):
            name = platform.freedesktop_os_release().get("PRETTY_NAME", system)
    elif system == "Darwin":
        name = f"macOS {platform.mac_ver()[0]}"
    elif system == "Windows":
        name = f"Windows {platform.release()}"
    return {
        "name": name,
        "system": system,
        "release": platform.release(),
        "version": platform.version(),
        "kernel": platform.version() if system == "Windows" else platform.release(),
        "machine": platform.machine(),
    }


def _cpuinfo(path: Path) -> dict[str, str]:
    """The first processor's block of /proc/cpuinfo as key -> value."""
    fields: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            if fields:
                break
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name.strip(), value.strip())
    return fields


def cpu_info(cpuinfo: Path = Path("/proc/cpuinfo")) -> dict[str, Any]:
    try:
        fields = _cpuinfo(cpuinfo)
    except OSError:
        fields = {}
    model = fields.get("model name") or platform.processor() or platform.machine()
    physical = psutil.cpu_count(logical=False)
    freq = psutil.cpu_freq()
    sets: dict[str, Any]
    if "flags" in fields:
        flags = set(fields["flags"].split())
        sets = {name: name in flags for name in X86_INSTRUCTION_SETS}
    elif "Features" in fields:
        features = set(fields["Features"].split())
        sets = {name: name in features for name in ARM_INSTRUCTION_SETS}
    elif LINUX:
        sets = unavailable(f"{cpuinfo} lists no CPU flags")
    else:
        sets = unavailable(f"instruction sets are read from /proc/cpuinfo, which {platform.system()} does not have")
    return {
        "model": model,
        "physical_cores": physical if physical else unavailable("the OS does not report physical cores"),
        "logical_cores": psutil.cpu_count(logical=True) or unavailable("the OS does not report logical cores"),
        # Virtual machines often report no maximum frequency (psutil gives 0).
        "max_mhz": freq.max if freq and freq.max else unavailable("the OS does not report a maximum CPU frequency"),
        "instruction_sets": sets,
    }


def memory_info() -> dict[str, Any]:
    memory = psutil.virtual_memory()
    return {"total_bytes": memory.total, "available_bytes": memory.available, "swap_bytes": psutil.swap_memory().total}


def _rotational(device: str, sysfs_root: Path) -> bool | dict[str, str]:
    """Whether the disk under a partition spins, from /sys/block/<disk>/queue/rotational."""
    name = Path(os.path.realpath(device)).name
    block = sysfs_root / "class" / "block" / name
    if not block.exists():
        return unavailable(f"{device} is not a block device in sysfs")
    disk = Path(os.path.realpath(block)).parent.name if (block / "partition").exists() else name
    value = _read(sysfs_root / "block" / disk / "queue" / "rotational")
    if value not in ("0", "1"):
        return unavailable(f"/sys/block/{disk}/queue/rotational is unreadable")
    return value == "1"


def disks(sysfs_root: Path = SYSFS) -> list[dict[str, Any]]:
    """Mounted disk partitions with their size, free space and (Linux) whether the disk is rotational."""
    found = []
    for part in psutil.disk_partitions(all=False):
        entry: dict[str, Any] = {"device": part.device, "mountpoint": part.mountpoint, "fstype": part.fstype}
        try:
            usage = psutil.disk_usage(part.mountpoint)
            entry |= {"total_bytes": usage.total, "free_bytes": usage.free}
        except OSError as error:
            why = unavailable(f"cannot read {part.mountpoint}: {error.strerror or error}")
            entry |= {"total_bytes": why, "free_bytes": why}
        entry["rotational"] = (
            _rotational(part.device, sysfs_root) if LINUX else unavailable("read from Linux sysfs only")
        )
        found.append(entry)
    return found


def _read(path: Path) -> str | None:
    """A sysfs attribute's text, or None when it is absent or unreadable."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def _attr(folder: Path, name: str, parse: Callable[[str], Any], absent: str) -> Any:
    text = _read(folder / name)
    if text is None:
        return unavailable(absent)
    try:
        return parse(text)
    except ValueError:
        return unavailable(f"unreadable value {text!r} in {folder.name}/{name}")


def _gbps(text: str) -> float:
    """'20.0 Gb/s' (the kernel's "%u.0 Gb/s" in drivers/thunderbolt/switch.c) -> 20.0."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*Gb/s", text)
    if not match:
        raise ValueError(text)
    return float(match.group(1))


def _tb_domain(folder: Path) -> dict[str, Any]:
    security = _read(folder / "security")
    return {
        "name": folder.name,
        "security": security if security else unavailable("security level not reported"),
        "pcie_tunnels": (security not in TB_NO_PCIE) if security else unavailable("security level not reported"),
        "iommu_dma_protection": _attr(folder, "iommu_dma_protection", lambda t: bool(int(t)), "not reported"),
        "deauthorization": _attr(folder, "deauthorization", lambda t: bool(int(t)), "not reported"),
    }


def _tb_router(folder: Path, domain: int, route: str) -> dict[str, Any]:
    """One Thunderbolt/USB4 router (host or device), with its link as boltctl reports it: lanes x speed."""
    host = int(route, 16) == 0
    # The kernel shows no link attributes on the host router (switch.c, switch_attr_is_visible).
    old = "not reported (kernel older than 5.5?)"
    link_absent = "the host router has no upstream link" if host else old
    entry: dict[str, Any] = {
        "name": folder.name,
        "domain": domain,
        "route": route,
        "kind": "host" if host else "device",
        "vendor_name": _attr(folder, "vendor_name", str, "not reported"),
        "device_name": _attr(folder, "device_name", str, "not reported"),
        "vendor": _attr(folder, "vendor", str, "not reported"),
        "device": _attr(folder, "device", str, "not reported"),
        "unique_id": _attr(folder, "unique_id", str, "not reported"),
        "generation": _attr(folder, "generation", int, old),
        # switch.c hides "authorized" where the domain's security level allows no PCIe tunnel.
        "authorized": _attr(folder, "authorized", int, "not reported (no PCIe tunnels in this domain?)"),
    }
    generation = entry["generation"]
    entry["generation_name"] = (
        TB_GENERATIONS.get(generation, f"generation {generation}") if isinstance(generation, int) else generation
    )
    for side in ("rx", "tx"):
        speed = _attr(folder, f"{side}_speed", _gbps, link_absent)
        lanes = _attr(folder, f"{side}_lanes", int, link_absent)
        entry[f"{side}_speed_gbps"] = speed
        entry[f"{side}_lanes"] = lanes
        if isinstance(speed, float) and isinstance(lanes, int):
            entry[f"{side}_link_gbps"] = speed * lanes
        else:
            entry[f"{side}_link_gbps"] = speed if is_unavailable(speed) else lanes
    return entry


def thunderbolt(sysfs_root: Path = SYSFS) -> dict[str, Any]:
    """Thunderbolt/USB4 domains and routers from Linux sysfs (ABI: Documentation/ABI/testing/sysfs-bus-thunderbolt)."""
    if sysfs_root == SYSFS and not LINUX:
        return unavailable(f"Thunderbolt/USB4 links are read from Linux sysfs; not available on {platform.system()}")
    folder = sysfs_root / "bus" / "thunderbolt" / "devices"
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return unavailable(NO_THUNDERBOLT)
    except OSError as error:
        return unavailable(f"cannot read {folder}: {error.strerror or error}")
    domains = [_tb_domain(folder / n) for n in names if re.fullmatch(r"domain\d+", n)]
    routers = []
    for name in names:
        # Routers are "<domain>-<route>"; retimers ("0-0:1.1") and XDomain services ("0-1.1") are skipped.
        match = re.fullmatch(r"(\d+)-([0-9a-fA-F]+)", name)
        if match:
            routers.append(_tb_router(folder / name, int(match.group(1)), match.group(2)))
    if not domains and not routers:
        return unavailable(NO_THUNDERBOLT)
    return {"domains": domains, "devices": routers}


def _pcie_speed(text: str) -> float:
    """'16.0 GT/s PCIe' (or '8 GT/s' from older kernels) -> 16.0."""
    match = re.match(r"(\d+(?:\.\d+)?)\s*GT/s", text)
    if not match:
        raise ValueError(text)
    return float(match.group(1))


def _link(folder: Path) -> dict[str, Any]:
    link: dict[str, Any] = {}
    for which in ("current", "max"):
        speed = _attr(folder, f"{which}_link_speed", _pcie_speed, "not reported")
        link[f"{which}_speed_gts"] = speed
        link[f"{which}_generation"] = (
            PCIE_GENERATIONS.get(speed, unavailable(f"unknown PCIe rate {speed} GT/s"))
            if isinstance(speed, float)
            else speed
        )
        link[f"{which}_width"] = _attr(folder, f"{which}_link_width", int, "not reported")
    return link


def pcie_link(bus_id: str, sysfs_root: Path = SYSFS) -> dict[str, Any]:
    """A PCI device's link from Linux sysfs (readable without root), and the links of the bridges above it.

    The GPU's own link can read x16 while a Thunderbolt tunnel or a switch above it is narrower, so the
    upstream chain is listed too (a tunnel's bridge reads 2.5GT/s x1 under a GPU at x16: ewagner12/all-ways-egpu#37).
    """
    if sysfs_root == SYSFS and not LINUX:
        return unavailable(f"PCIe links are read from Linux sysfs; not available on {platform.system()}")
    device = sysfs_root / "bus" / "pci" / "devices" / bus_id
    if not device.exists():
        return unavailable(f"{bus_id} not found in {device.parent}")
    upstream = []
    for parent in Path(os.path.realpath(device)).parents:
        if not re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", parent.name):
            break
        upstream.append({"bus_id": parent.name, **_link(parent)})
    removable = _read(device / "removable")
    return {
        "bus_id": bus_id,
        **_link(device),
        # "removable" below a port that firmware marks external (Thunderbolt/USB4): an eGPU (kernel >= 5.14).
        "removable": removable if removable else unavailable("not reported (kernel older than 5.14?)"),
        "upstream": upstream,
    }


def gpus(sysfs_root: Path = SYSFS) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(system-wide GPU facts or why there are none, one dict per NVIDIA GPU with its sysfs PCIe link)."""
    session = nvml.Nvml.open()
    if isinstance(session, Unavailable):
        return session.record(), []
    with session:
        count = session.device_count()
        if isinstance(count, Unavailable):
            return count.record(), []
        devices = [session.device_facts(i) for i in range(count)]
        system = nvml.facts_from_raw(session.raw_system())
    for device in devices:
        bus_id = device.get("pci_bus_id")
        device["pcie_sysfs"] = (
            pcie_link(bus_id, sysfs_root) if isinstance(bus_id, str) else unavailable("NVML gave no PCI bus id")
        )
    gpu = {"count": count, **{k: system[k] for k in ("driver_version", "cuda_driver_version", "nvml_version")}}
    if not devices:
        gpu["devices"] = unavailable("NVML found no NVIDIA GPU")
    return gpu, devices


def _this_python() -> dict[str, Any]:
    try:
        torch: Any = metadata.version("torch")
    except metadata.PackageNotFoundError:
        torch = unavailable("torch is not installed in this environment")
    return {
        "path": sys.executable,
        "source": "this interpreter",
        "python_version": platform.python_version(),
        "torch": torch,
    }


def probe_python(path: str, source: str) -> dict[str, Any]:
    """An interpreter's Python and torch versions, asked in a subprocess; a broken one is unavailable."""
    found = interpreters.ask(path, source)
    entry: dict[str, Any] = {"path": found.path, "source": source}
    if found.problem:
        return entry | {"python_version": unavailable(found.problem), "torch": unavailable(found.problem)}
    torch = found.torch or unavailable("torch is not installed in this environment")
    return entry | {"python_version": found.python, "torch": torch}


def pythons(extra_pythons: Sequence[str] = (), listing: Path | None = None) -> list[dict[str, Any]]:
    """This interpreter, the conda environments, and `extra_pythons`: each with its torch version or why not.

    The installed app is no Python a worker could use: it lists every Python it finds instead
    (core.workers.search.candidates: the active environment, conda's, the usual folders, PATH).
    """
    if environment.frozen():
        return [probe_python(path, source) for path, source in search.candidates(extra_pythons)]
    found = [_this_python()]
    # By path, not resolved: a venv's python links to its base interpreter but has other packages.
    seen = {os.path.normcase(os.path.abspath(sys.executable))}
    conda = search.conda_environments(listing)
    candidates = [(p, "conda") for p in conda] + [(p, "added") for p in extra_pythons]
    for path, source in candidates:
        resolved = os.path.normcase(os.path.abspath(interpreters.executable_in(path)))
        if resolved in seen:
            continue
        seen.add(resolved)
        found.append(probe_python(path, source))
    return found
