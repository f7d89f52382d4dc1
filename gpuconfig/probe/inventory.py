"""What this machine is: OS, CPU, memory, disks, Thunderbolt/USB4, Python environments with torch, GPUs.

Every field that cannot be read is an `Unavailable` (machine.py holds the records); nothing here raises
for a missing part, driver or file. The sysfs readers take the sysfs root as a parameter so tests can point
them at fixture trees.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import TypeVar

import psutil  # type: ignore[import-untyped, unused-ignore]

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP
from gpuconfig.core.workers import environment, interpreters, search
from gpuconfig.probe import nvml
from gpuconfig.probe.gpu_facts import DeviceLink, GpuFacts, PcieLink
from gpuconfig.probe.machine import (
    ARM_INSTRUCTION_SETS,
    X86_INSTRUCTION_SETS,
    CpuInfo,
    Disk,
    GpuSummary,
    Inventory,
    MemoryInfo,
    OsInfo,
    PythonEnv,
    System,
    Thunderbolt,
    ThunderboltDomain,
    ThunderboltRouter,
)
from gpuconfig.probe.model import Maybe, Unavailable

SYSFS = Path("/sys")
LINUX = sys.platform.startswith("linux")


NO_THUNDERBOLT = QT_TRANSLATE_NOOP(
    "Probe", "no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)"
)
# bolt's format_generation; the kernel ABI (sysfs-bus-thunderbolt, "generation") says 4 means USB4.
TB_GENERATIONS = {1: "Thunderbolt 1", 2: "Thunderbolt 2", 3: "Thunderbolt 3", 4: "USB4"}
# sysfs-bus-thunderbolt, domain "security": these levels create no PCIe tunnel, so no eGPU can work.
TB_NO_PCIE = {"dponly", "usbonly", "nopcie"}
# Transfer rate per lane of each PCIe generation in GT/s (PCI Express Base Specification 6.0, table 1-1).
PCIE_GENERATIONS = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6}
T = TypeVar("T")


def inventory(extra_pythons: Sequence[str] = ()) -> Inventory:
    """Read this machine's inventory; `extra_pythons` are interpreters or environments the user added."""
    gpu, devices = gpus()
    system = System(
        os=os_info(),
        cpu=cpu_info(),
        memory=memory_info(),
        disks=tuple(disks()),
        thunderbolt=thunderbolt(),
        pythons=tuple(pythons(extra_pythons)),
        gpu=gpu,
    )
    return Inventory(system=system, devices=tuple(devices))


def os_info() -> OsInfo:
    system = platform.system()
    name = system
    if LINUX:
        with contextlib.suppress(OSError):
            name = platform.freedesktop_os_release().get("PRETTY_NAME", system)
    elif system == "Darwin":
        name = f"macOS {platform.mac_ver()[0]}"
    elif system == "Windows":
        name = f"Windows {platform.release()}"
    return OsInfo(
        name=name,
        system=system,
        release=platform.release(),
        version=platform.version(),
        kernel=platform.version() if system == "Windows" else platform.release(),
        machine=platform.machine(),
    )


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


def cpu_info(cpuinfo: Path = Path("/proc/cpuinfo")) -> CpuInfo:
    try:
        fields = _cpuinfo(cpuinfo)
    except OSError:
        fields = {}
    model = fields.get("model name") or platform.processor() or platform.machine()
    physical = psutil.cpu_count(logical=False)
    freq = psutil.cpu_freq()
    sets: Maybe[dict[str, bool]]
    if "flags" in fields:
        flags = set(fields["flags"].split())
        sets = {name: name in flags for name in X86_INSTRUCTION_SETS}
    elif "Features" in fields:
        features = set(fields["Features"].split())
        sets = {name: name in features for name in ARM_INSTRUCTION_SETS}
    elif LINUX:
        sets = Unavailable(f"{cpuinfo} lists no CPU flags")
    else:
        sets = Unavailable(f"instruction sets are read from /proc/cpuinfo, which {platform.system()} does not have")
    return CpuInfo(
        model=model,
        physical_cores=physical
        if physical
        else Unavailable(QT_TRANSLATE_NOOP("Probe", "the OS does not report physical cores")),
        logical_cores=psutil.cpu_count(logical=True)
        or Unavailable(QT_TRANSLATE_NOOP("Probe", "the OS does not report logical cores")),
        # Virtual machines often report no maximum frequency (psutil gives 0).
        max_mhz=freq.max
        if freq and freq.max
        else Unavailable(QT_TRANSLATE_NOOP("Probe", "the OS does not report a maximum CPU frequency")),
        instruction_sets=sets,
    )


def memory_info() -> MemoryInfo:
    memory = psutil.virtual_memory()
    return MemoryInfo(memory.total, memory.available, psutil.swap_memory().total)


def _rotational(device: str, sysfs_root: Path) -> Maybe[bool]:
    """Whether the disk under a partition spins, from /sys/block/<disk>/queue/rotational."""
    name = Path(os.path.realpath(device)).name
    block = sysfs_root / "class" / "block" / name
    if not block.exists():
        return Unavailable(f"{device} is not a block device in sysfs")
    disk = Path(os.path.realpath(block)).parent.name if (block / "partition").exists() else name
    value = _read(sysfs_root / "block" / disk / "queue" / "rotational")
    if value not in ("0", "1"):
        return Unavailable(f"/sys/block/{disk}/queue/rotational is unreadable")
    return value == "1"


def disks(sysfs_root: Path = SYSFS) -> list[Disk]:
    """Mounted disk partitions with their size, free space and (Linux) whether the disk is rotational."""
    found = []
    for part in psutil.disk_partitions(all=False):
        total: Maybe[int]
        free: Maybe[int]
        try:
            usage = psutil.disk_usage(part.mountpoint)
            total, free = usage.total, usage.free
        except OSError as error:
            total = free = Unavailable(f"cannot read {part.mountpoint}: {error.strerror or error}")
        rotational = _rotational(part.device, sysfs_root) if LINUX else Unavailable("read from Linux sysfs only")
        found.append(Disk(part.device, part.mountpoint, part.fstype, total, free, rotational))
    return found


def _read(path: Path) -> str | None:
    """A sysfs attribute's text, or None when it is absent or unreadable."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def _attr(folder: Path, name: str, parse: Callable[[str], T], absent: str) -> Maybe[T]:
    text = _read(folder / name)
    if text is None:
        return Unavailable(absent)
    try:
        return parse(text)
    except ValueError:
        return Unavailable(f"unreadable value {text!r} in {folder.name}/{name}")


def _gbps(text: str) -> float:
    """'20.0 Gb/s' (the kernel's "%u.0 Gb/s" in drivers/thunderbolt/switch.c) -> 20.0."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*Gb/s", text)
    if not match:
        raise ValueError(text)
    return float(match.group(1))


def _tb_domain(folder: Path) -> ThunderboltDomain:
    security = _read(folder / "security")
    unknown = Unavailable("security level not reported")
    return ThunderboltDomain(
        name=folder.name,
        security=security if security else unknown,
        pcie_tunnels=(security not in TB_NO_PCIE) if security else unknown,
        iommu_dma_protection=_attr(folder, "iommu_dma_protection", lambda t: bool(int(t)), "not reported"),
        deauthorization=_attr(folder, "deauthorization", lambda t: bool(int(t)), "not reported"),
    )


def _link_gbps(speed: Maybe[float], lanes: Maybe[int]) -> Maybe[float]:
    if isinstance(speed, Unavailable):
        return speed
    return lanes if isinstance(lanes, Unavailable) else speed * lanes


def _tb_router(folder: Path, domain: int, route: str) -> ThunderboltRouter:
    """One Thunderbolt/USB4 router (host or device), with its link as boltctl reports it: lanes x speed."""
    host = int(route, 16) == 0
    # The kernel shows no link attributes on the host router (switch.c, switch_attr_is_visible).
    old = "not reported (kernel older than 5.5?)"
    link_absent = "the host router has no upstream link" if host else old
    generation = _attr(folder, "generation", int, old)
    rx_speed, rx_lanes = _attr(folder, "rx_speed", _gbps, link_absent), _attr(folder, "rx_lanes", int, link_absent)
    tx_speed, tx_lanes = _attr(folder, "tx_speed", _gbps, link_absent), _attr(folder, "tx_lanes", int, link_absent)
    return ThunderboltRouter(
        name=folder.name,
        domain=domain,
        route=route,
        kind="host" if host else "device",
        vendor_name=_attr(folder, "vendor_name", str, "not reported"),
        device_name=_attr(folder, "device_name", str, "not reported"),
        vendor=_attr(folder, "vendor", str, "not reported"),
        device=_attr(folder, "device", str, "not reported"),
        unique_id=_attr(folder, "unique_id", str, "not reported"),
        generation=generation,
        # switch.c hides "authorized" where the domain's security level allows no PCIe tunnel.
        authorized=_attr(folder, "authorized", int, "not reported (no PCIe tunnels in this domain?)"),
        generation_name=generation
        if isinstance(generation, Unavailable)
        else TB_GENERATIONS.get(generation, f"generation {generation}"),
        rx_speed_gbps=rx_speed,
        rx_lanes=rx_lanes,
        rx_link_gbps=_link_gbps(rx_speed, rx_lanes),
        tx_speed_gbps=tx_speed,
        tx_lanes=tx_lanes,
        tx_link_gbps=_link_gbps(tx_speed, tx_lanes),
    )


def thunderbolt(sysfs_root: Path = SYSFS) -> Maybe[Thunderbolt]:
    """Thunderbolt/USB4 domains and routers from Linux sysfs (ABI: Documentation/ABI/testing/sysfs-bus-thunderbolt)."""
    if sysfs_root == SYSFS and not LINUX:
        return Unavailable(f"Thunderbolt/USB4 links are read from Linux sysfs; not available on {platform.system()}")
    folder = sysfs_root / "bus" / "thunderbolt" / "devices"
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return Unavailable(NO_THUNDERBOLT)
    except OSError as error:
        return Unavailable(f"cannot read {folder}: {error.strerror or error}")
    domains = [_tb_domain(folder / n) for n in names if re.fullmatch(r"domain\d+", n)]
    routers = []
    for name in names:
        # Routers are "<domain>-<route>"; retimers ("0-0:1.1") and XDomain services ("0-1.1") are skipped.
        match = re.fullmatch(r"(\d+)-([0-9a-fA-F]+)", name)
        if match:
            routers.append(_tb_router(folder / name, int(match.group(1)), match.group(2)))
    if not domains and not routers:
        return Unavailable(NO_THUNDERBOLT)
    return Thunderbolt(tuple(domains), tuple(routers))


def _pcie_speed(text: str) -> float:
    """'16.0 GT/s PCIe' (or '8 GT/s' from older kernels) -> 16.0."""
    match = re.match(r"(\d+(?:\.\d+)?)\s*GT/s", text)
    if not match:
        raise ValueError(text)
    return float(match.group(1))


def _link(folder: Path, which: str) -> tuple[Maybe[float], Maybe[int], Maybe[int]]:
    """The current or max link of a PCI device: (speed in GT/s, generation, width)."""
    speed = _attr(folder, f"{which}_link_speed", _pcie_speed, "not reported")
    generation = (
        speed
        if isinstance(speed, Unavailable)
        else PCIE_GENERATIONS.get(speed, Unavailable(f"unknown PCIe rate {speed} GT/s"))
    )
    return speed, generation, _attr(folder, f"{which}_link_width", int, "not reported")


def pcie_link(bus_id: str, sysfs_root: Path = SYSFS) -> Maybe[DeviceLink]:
    """A PCI device's link from Linux sysfs (readable without root), and the links of the bridges above it.

    The GPU's own link can read x16 while a Thunderbolt tunnel or a switch above it is narrower, so the
    upstream chain is listed too (a tunnel's bridge reads 2.5GT/s x1 under a GPU at x16: ewagner12/all-ways-egpu#37).
    """
    if sysfs_root == SYSFS and not LINUX:
        return Unavailable(f"PCIe links are read from Linux sysfs; not available on {platform.system()}")
    device = sysfs_root / "bus" / "pci" / "devices" / bus_id
    if not device.exists():
        return Unavailable(f"{bus_id} not found in {device.parent}")
    upstream = []
    for parent in Path(os.path.realpath(device)).parents:
        if not re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", parent.name):
            break
        upstream.append(PcieLink(parent.name, *_link(parent, "current"), *_link(parent, "max")))
    removable = _read(device / "removable")
    return DeviceLink(
        bus_id,
        *_link(device, "current"),
        *_link(device, "max"),
        # "removable" below a port that firmware marks external (Thunderbolt/USB4): an eGPU (kernel >= 5.14).
        removable=removable if removable else Unavailable("not reported (kernel older than 5.14?)"),
        upstream=tuple(upstream),
    )


def gpus(sysfs_root: Path = SYSFS) -> tuple[Maybe[GpuSummary], list[GpuFacts]]:
    """(system-wide GPU facts or why there are none, each NVIDIA GPU with its sysfs PCIe link)."""
    session = nvml.Nvml.open()
    if isinstance(session, Unavailable):
        return session, []
    with session:
        count = session.device_count()
        if isinstance(count, Unavailable):
            return count, []
        facts = [session.device_facts(i) for i in range(count)]
        system = nvml.facts_from_raw(session.raw_system())
    devices = [
        replace(
            device,
            pcie_sysfs=pcie_link(device.pci_bus_id, sysfs_root)
            if isinstance(device.pci_bus_id, str)
            else Unavailable("NVML gave no PCI bus id"),
        )
        for device in facts
    ]
    gpu = GpuSummary(
        count,
        system.driver_version,
        system.cuda_driver_version,
        system.nvml_version,
        None if devices else Unavailable("NVML found no NVIDIA GPU"),
    )
    return gpu, devices


def _this_python() -> PythonEnv:
    torch: Maybe[str]
    try:
        torch = metadata.version("torch")
    except metadata.PackageNotFoundError:
        torch = Unavailable("torch is not installed in this environment")
    return PythonEnv(sys.executable, QT_TRANSLATE_NOOP("Probe", "this interpreter"), platform.python_version(), torch)


def probe_python(path: str, source: str) -> PythonEnv:
    """An interpreter's Python and torch versions, asked in a subprocess; a broken one is unavailable."""
    found = interpreters.ask(path, source)
    if found.problem:
        return PythonEnv(found.path, source, Unavailable(found.problem), Unavailable(found.problem))
    torch = found.torch or Unavailable("torch is not installed in this environment")
    return PythonEnv(found.path, source, found.python, torch)


def pythons(extra_pythons: Sequence[str] = (), listing: Path | None = None) -> list[PythonEnv]:
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
