"""What the probe knows of one NVIDIA GPU: NVML's facts and live samples (nvml.py parses them), the PCIe
links sysfs shows above it (inventory.py), and which torch device it is (torch_devices.py).

Units: bytes, W, MHz, °C, MB/s (10^6 bytes). A field NVML or sysfs could not give is an `Unavailable`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpuconfig.probe.model import OMIT_NONE, Maybe, Record


@dataclass(frozen=True)
class Modes(Record):
    """A mode NVML reports as (current, pending): ECC, MIG."""

    current: bool
    pending: bool


@dataclass(frozen=True)
class RemappedRows(Record):
    corrected: int
    uncorrected: int
    pending: bool
    failed: bool


@dataclass(frozen=True)
class NvmlPcie(Record):
    """The PCIe link as NVML reports it: max_generation is what this GPU and this system allow together,
    gpu_max_generation the GPU's own."""

    current_generation: Maybe[int]
    current_width: Maybe[int]
    max_generation: Maybe[int]
    gpu_max_generation: Maybe[int]
    max_width: Maybe[int]
    replay_count: Maybe[int]


@dataclass(frozen=True)
class PcieLink(Record):
    """A PCI device's link as Linux sysfs shows it (a bridge above a GPU, or the GPU itself)."""

    bus_id: str
    current_speed_gts: Maybe[float]
    current_generation: Maybe[int]
    current_width: Maybe[int]
    max_speed_gts: Maybe[float]
    max_generation: Maybe[int]
    max_width: Maybe[int]


@dataclass(frozen=True)
class DeviceLink(PcieLink):
    """A GPU's own sysfs link, whether it sits below an external port ("removable"), and the bridges above."""

    removable: Maybe[str]
    upstream: tuple[PcieLink, ...] = ()


@dataclass(frozen=True)
class GpuFacts(Record):
    """One NVIDIA GPU as NVML describes it (nvml.facts_from_raw), with its sysfs link once the inventory
    has read it and the torch device it is once a run has linked them (None until then)."""

    index: int | None
    name: Maybe[str]
    uuid: Maybe[str]
    pci_bus_id: Maybe[str]
    pci_device_id: Maybe[str]
    pci_subsystem_id: Maybe[str]
    memory_total_bytes: Maybe[int]
    driver_version: Maybe[str]
    cuda_driver_version: Maybe[str]
    nvml_version: Maybe[str]
    compute_capability: Maybe[str]
    power_limit_w: Maybe[float]
    max_sm_clock_mhz: Maybe[int]
    max_mem_clock_mhz: Maybe[int]
    ecc_mode: Maybe[Modes]
    ecc_corrected_volatile: Maybe[int]
    ecc_uncorrected_volatile: Maybe[int]
    ecc_corrected_aggregate: Maybe[int]
    ecc_uncorrected_aggregate: Maybe[int]
    retired_pages: Maybe[int]
    retired_pages_single_bit: Maybe[int]
    retired_pages_double_bit: Maybe[int]
    retired_pages_pending: Maybe[bool]
    remapped_rows: Maybe[RemappedRows]
    pcie: NvmlPcie
    mig_mode: Maybe[Modes]
    slowdown_temperature_c: Maybe[int]
    shutdown_temperature_c: Maybe[int]
    gpu_max_temperature_c: Maybe[int]
    persistence_mode: Maybe[bool]
    pcie_sysfs: Maybe[DeviceLink] | None = field(default=None, metadata=OMIT_NONE)
    torch_device: Maybe[str] | None = field(default=None, metadata=OMIT_NONE)

    @property
    def known_name(self) -> str:
        """The NVML name, or "" when NVML gave none."""
        return self.name if isinstance(self.name, str) else ""

    def label(self, index: int) -> str:
        """Its name in a report: the torch device it is ("cuda:1"), else 'GPU i' as nvidia-smi numbers it."""
        return self.torch_device if isinstance(self.torch_device, str) else f"GPU {index}"

    @property
    def external(self) -> bool:
        """Whether sysfs says it sits below an external (Thunderbolt/USB4) port."""
        return isinstance(self.pcie_sysfs, DeviceLink) and self.pcie_sysfs.removable == "removable"


@dataclass(frozen=True)
class ClockEvents(Record):
    """The clocks-event (throttle) reasons set: NVML's bitmask and the names of its bits."""

    mask: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class GpuSample(Record):
    """One live reading of a GPU (nvml.sample_from_raw): %, bytes, °C, W, MHz, MB/s."""

    util_gpu_pct: Maybe[float]
    util_mem_pct: Maybe[float]
    mem_used_bytes: Maybe[int]
    temperature_c: Maybe[float]
    power_w: Maybe[float]
    sm_clock_mhz: Maybe[float]
    mem_clock_mhz: Maybe[float]
    pcie_rx_mbs: Maybe[float]
    pcie_tx_mbs: Maybe[float]
    clocks_event_reasons: Maybe[ClockEvents]
    pcie_generation: Maybe[int]
    pcie_width: Maybe[int]
