"""What the inventory says this machine is (inventory.py reads it): OS, CPU, memory, disks, Thunderbolt/USB4,
the Python environments, NVML's system facts, and the NVIDIA GPUs (gpu_facts.py).

A part that could not be read is an `Unavailable` in its place: a whole section (no Thunderbolt controller,
no NVIDIA driver) or one field (a VM's CPU frequency).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.model import OMIT_NONE, Maybe, Record, Unavailable

# Flag names as Linux prints them in /proc/cpuinfo (arch/x86/include/asm/cpufeatures.h).
X86_INSTRUCTION_SETS = (
    "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni", "amx_tile", "amx_bf16", "amx_int8",
)  # fmt: skip
# Feature names as Linux prints them for 64-bit Arm (arch/arm64/kernel/cpuinfo.c).
ARM_INSTRUCTION_SETS = ("asimd", "sve", "sve2", "bf16", "i8mm")


@dataclass(frozen=True)
class OsInfo(Record):
    name: str
    system: str
    release: str
    version: str
    kernel: str
    machine: str


@dataclass(frozen=True)
class CpuInfo(Record):
    """The CPU; `instruction_sets` says for each set gpuconfig looks for whether the CPU has it."""

    model: str
    physical_cores: Maybe[int]
    logical_cores: Maybe[int]
    max_mhz: Maybe[float]
    instruction_sets: Maybe[dict[str, bool]]


@dataclass(frozen=True)
class MemoryInfo(Record):
    total_bytes: int
    available_bytes: int
    swap_bytes: int


@dataclass(frozen=True)
class Disk(Record):
    """A mounted partition; `rotational` is whether the disk under it spins (Linux only)."""

    device: str
    mountpoint: str
    fstype: str
    total_bytes: Maybe[int]
    free_bytes: Maybe[int]
    rotational: Maybe[bool]


@dataclass(frozen=True)
class ThunderboltDomain(Record):
    """A Thunderbolt/USB4 domain: its security level and whether that allows PCIe tunnels (eGPUs)."""

    name: str
    security: Maybe[str]
    pcie_tunnels: Maybe[bool]
    iommu_dma_protection: Maybe[bool]
    deauthorization: Maybe[bool]


@dataclass(frozen=True)
class ThunderboltRouter(Record):
    """A Thunderbolt/USB4 router (the host's, or a device's such as an enclosure) with its link as boltctl
    shows it: lanes x speed per direction."""

    name: str
    domain: int
    route: str
    kind: str  # "host" or "device"
    vendor_name: Maybe[str]
    device_name: Maybe[str]
    vendor: Maybe[str]
    device: Maybe[str]
    unique_id: Maybe[str]
    generation: Maybe[int]
    authorized: Maybe[int]
    generation_name: Maybe[str]
    rx_speed_gbps: Maybe[float]
    rx_lanes: Maybe[int]
    rx_link_gbps: Maybe[float]
    tx_speed_gbps: Maybe[float]
    tx_lanes: Maybe[int]
    tx_link_gbps: Maybe[float]

    @property
    def authorised(self) -> bool:
        """Whether the OS let it in (1: authorised, 2: authorised with a key)."""
        return self.authorized in (1, 2)


@dataclass(frozen=True)
class Thunderbolt(Record):
    domains: tuple[ThunderboltDomain, ...]
    devices: tuple[ThunderboltRouter, ...]

    @property
    def hosts(self) -> list[ThunderboltRouter]:
        return [r for r in self.devices if r.kind == "host"]


@dataclass(frozen=True)
class PythonEnv(Record):
    """An interpreter the benchmarks could run in, with its Python and torch versions (or why not known)."""

    path: str
    source: str
    python_version: Maybe[str] | None  # None: the interpreter answered without a version
    torch: Maybe[str]


@dataclass(frozen=True)
class GpuSummary(Record):
    """NVML's system facts; `devices` says why there is no GPU when NVML found none."""

    count: int
    driver_version: Maybe[str]
    cuda_driver_version: Maybe[str]
    nvml_version: Maybe[str]
    devices: Unavailable | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class System(Record):
    os: OsInfo
    cpu: CpuInfo
    memory: MemoryInfo
    disks: tuple[Disk, ...]
    thunderbolt: Maybe[Thunderbolt]
    pythons: tuple[PythonEnv, ...]
    gpu: Maybe[GpuSummary]


@dataclass(frozen=True)
class Inventory(Record):
    """This machine: `system` and one `GpuFacts` per NVIDIA GPU."""

    system: System
    devices: tuple[GpuFacts, ...]
