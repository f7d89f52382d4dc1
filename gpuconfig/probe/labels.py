"""The probe's names for what it measured and what the machine is, as a reader says them: benchmarks and
their variants, the machine's fields with their units, measured figures to the digits they carry.

Plain text, no markup: the reports put it in HTML, and the command line and the tab can say things the
same way. A field without a written label gets one made from its key ("pcie_max_generation" reads
"PCIe max generation"); the key's unit suffix ("_bytes", "_mhz", ...) becomes the value's unit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gpuconfig.core.units import MISSING, format_bytes, format_number
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import BenchmarkResult, Maybe, Unavailable, to_json
from gpuconfig.probe.torch_devices import TorchFacts

BENCHMARKS = {
    "matmul": "Matrix multiply",
    "memory_bandwidth": "Memory bandwidth",
    "h2d_bandwidth": "Host to device copy",
    "d2h_bandwidth": "Device to host copy",
    "train_cnn": "CNN training step",
    "train_transformer": "Transformer training step",
    "train_from_host": "Training step fed from host memory",
    "dataloader": "DataLoader",
    "disk_read": "Disk sequential read",
    "allreduce": "All-reduce",
}
VARIANTS = {
    "amp": "AMP",
    "checkpointing": "checkpointing",
    "amp+checkpointing": "AMP + checkpointing",
    "resident": "batch on the device",
    "from_host": "batch from the host",
    "pinned": "pinned memory",
    "pageable": "pageable memory",
}

# The machine's fields by their key, wherever they appear (a key the reports meet unlabelled is humanised).
FIELDS = {
    "os": "Operating system",
    "cpu": "CPU",
    "memory": "Memory",
    "disks": "Disks",
    "thunderbolt": "Thunderbolt / USB4",
    "pythons": "Python environments",
    "gpu": "NVIDIA driver",
    "system": "System",
    "machine": "Architecture",
    "physical_cores": "Physical cores",
    "logical_cores": "Logical cores",
    "max_mhz": "Maximum clock",
    "total_bytes": "Total",
    "available_bytes": "Available",
    "swap_bytes": "Swap",
    "mountpoint": "Mount point",
    "fstype": "File system",
    "free_bytes": "Free",
    "rotational": "Rotating disk",
    "source": "Found as",
    "python_version": "Python",
    "torch": "PyTorch",
    "count": "NVIDIA GPUs",
    "driver_version": "Driver",
    "cuda_driver_version": "CUDA version the driver supports",
    "nvml_version": "NVML",
    "pci_bus_id": "PCI bus",
    "pci_device_id": "PCI device ID",
    "pci_subsystem_id": "PCI subsystem ID",
    "memory_total_bytes": "Memory",
    "power_limit_w": "Power limit",
    "max_sm_clock_mhz": "Maximum SM clock",
    "max_mem_clock_mhz": "Maximum memory clock",
    "ecc_mode": "ECC",
    "ecc_corrected_volatile": "ECC errors corrected since the driver loaded",
    "ecc_uncorrected_volatile": "ECC errors uncorrected since the driver loaded",
    "ecc_corrected_aggregate": "ECC errors corrected, lifetime",
    "ecc_uncorrected_aggregate": "ECC errors uncorrected, lifetime",
    "retired_pages": "Retired memory pages",
    "retired_pages_single_bit": "Retired pages, single-bit errors",
    "retired_pages_double_bit": "Retired pages, double-bit errors",
    "retired_pages_pending": "Page retirement pending",
    "remapped_rows": "Remapped memory rows",
    "pcie": "PCIe link (NVML)",
    "max_generation": "Maximum generation",
    "max_width": "Maximum width",
    "max_speed_gts": "Maximum speed",
    "gpu_max_generation": "GPU's own maximum generation",
    "replay_count": "Replays",
    "mig_mode": "MIG",
    "gpu_max_temperature_c": "Maximum operating temperature",
    "pcie_sysfs": "PCIe link (sysfs)",
    "bus_id": "Bus",
    "removable": "External port",
    "upstream": "Bridges above it",
    "torch_device": "PyTorch device",
    "hip": "ROCm (HIP)",
    "cudnn": "cuDNN",
    "arch_list": "Architectures compiled in",
    "arch_in_build": "Device's architecture compiled in",
    "arch_match": "Architecture used, by device",
    "mkldnn": "oneDNN (MKL-DNN)",
    "cpu_capability": "CPU kernels",
    "threads": "Threads",
    "device": "Device the benchmarks used",
    "capability": "Compute capability",
    "memory_bytes": "Memory",
    "multiprocessors": "Multiprocessors",
}
# What one item of a listed field is called, and the key that tells the items apart.
ITEMS = {"disks": "Disk", "pythons": "Python", "upstream": "Bridge", "devices": "Device", "domains": "Domain"}
ITEM_KEYS = ("device", "path", "bus_id", "index", "name")
# Key suffixes that name a unit; the value is written with it and the label without it.
UNITS = {"mhz": "MHz", "w": "W", "c": "°C", "gts": "GT/s", "gbps": "Gb/s", "mbs": "MB/s", "pct": "%", "s": "s"}
WORDS = {
    "pcie": "PCIe",
    "pci": "PCI",
    "gpu": "GPU",
    "cpu": "CPU",
    "ecc": "ECC",
    "mig": "MIG",
    "cuda": "CUDA",
    "nvml": "NVML",
    "uuid": "UUID",
    "id": "ID",
    "os": "OS",
    "sm": "SM",
    "mem": "memory",
    "rx": "RX",
    "tx": "TX",
    "usb4": "USB4",
    "iommu": "IOMMU",
    "dma": "DMA",
}


def benchmark_name(name: str) -> str:
    """'matmul' -> 'Matrix multiply'."""
    return BENCHMARKS.get(name) or humanised(name)


def variant_name(variant: str) -> str:
    """'amp+checkpointing' -> 'AMP + checkpointing'; one without a name ('num_workers=2') as it is."""
    return VARIANTS.get(variant, variant)


def figure_label(result: BenchmarkResult) -> str:
    """A figure in words: 'Matrix multiply fp32 (cpu)', 'CNN training step bf16 AMP (cuda:0)'."""
    words = [benchmark_name(result.name), result.dtype, variant_name(result.variant)]
    return " ".join(w for w in words if w) + f" ({result.device})"


def humanised(key: str, capital: bool = True) -> str:
    """A field's key as words, its unit suffix left to the value: 'memory_total_bytes' -> 'Memory total'."""
    words = key.split("_")
    if len(words) > 1 and (words[-1] in UNITS or words[-1] == "bytes"):
        words.pop()
    text = " ".join(WORDS.get(w, w) for w in words)
    return text[:1].upper() + text[1:] if capital else text


def field_label(key: str) -> str:
    return FIELDS.get(key) or humanised(key)


def figure(value: float) -> str:
    """A measured figure to four significant digits, thousands separated: 1,335 / 730.0 / 53.83 / 0.08618."""
    if not math.isfinite(value):
        return MISSING
    if value == 0:
        return "0"
    digits = max(0, 3 - math.floor(math.log10(abs(value))))
    return f"{value:,.{digits}f}"


def percent(share: float) -> str:
    """A spread as a share of the median: '±3.1 %'."""
    return f"±{100 * share:.1f} %" if math.isfinite(share) else MISSING


def ratio(value: float) -> str:
    return f"{value:.2f}×"


def duration(seconds: float) -> str:
    """'52 s', '4 min 10 s'."""
    whole = round(seconds)
    return f"{whole} s" if whole < 120 else f"{whole // 60} min {whole % 60} s"


def fact(key: str, value: Any) -> str:
    """A machine field's value in words, with the unit its key names: 85520809984 bytes -> '79.65 GiB'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return MISSING
    if isinstance(value, list | tuple):
        return ", ".join(fact("", v) for v in value) or "none"
    if not isinstance(value, int | float):
        return str(value)
    unit = key.rsplit("_", 1)[-1] if "_" in key else ""
    if unit == "bytes":
        return format_bytes(value)
    if unit in UNITS:
        return f"{format_number(value)} {UNITS[unit]}"
    return str(value) if isinstance(value, int) else format_number(value)


@dataclass(frozen=True)
class Field:
    """One line of the report's Machine section: a label and its value in words. `missing`: the value could
    not be read (the value says why); `heading`: it names the part of the machine the lines below describe
    (with a value, a part that is that one line, such as one that could not be read)."""

    label: str
    value: str = ""
    missing: bool = False
    heading: bool = False


def machine_fields(data: Mapping[str, Any], headings: bool = False) -> list[Field]:
    """Every field of a machine record in its JSON form (System, GpuFacts, TorchFacts), labelled; a nested
    record becomes a heading and its fields, or one line when it is a few plain values (ECC: current yes,
    pending yes). `headings`: each nested record gets a heading, however small, in the record's order;
    otherwise a record's own lines come before its headed parts, so each line below a heading belongs to it."""
    lines: list[Field] = []
    parts: list[Field] = []
    for key, value in data.items():
        found = _field(key, value, headings)
        if headings and not found[0].heading:  # a part that could not be read heads its own line
            found = [replace(line, heading=True) for line in found]
        (parts if found[0].heading and not headings else lines).extend(found)
    return lines + parts


def _field(key: str, value: Any, headings: bool = False) -> list[Field]:
    label = field_label(key)
    missing = Unavailable.read(value)
    if missing is not None:
        return [Field(label, f"unavailable — {missing.reason}", missing=True)]
    if isinstance(value, Mapping):
        if not headings and _plain(value):
            return [Field(label, _inline(value))]
        return [Field(label, heading=True), *machine_fields(value)]
    if isinstance(value, list | tuple) and value and all(isinstance(v, Mapping) for v in value):
        return [line for index, item in enumerate(value) for line in _item(key, index, item)]
    return [Field(label, fact(key, value))]


def _item(key: str, index: int, item: Mapping[str, Any]) -> list[Field]:
    """One record of a list (a disk, a Python, a bridge), headed by what tells it apart."""
    name = next((k for k in ITEM_KEYS if isinstance(item.get(k), str | int) and item.get(k) != ""), None)
    title = f"{ITEMS.get(key) or field_label(key)} {item[name] if name is not None else index + 1}"
    return [Field(title, heading=True), *machine_fields({k: v for k, v in item.items() if k != name})]


def _plain(value: Mapping[str, Any]) -> bool:
    """Whether a record reads as one line: a few plain values, or a list of yes and no."""
    plain = all(isinstance(v, str | int | float | bool) or v is None for v in value.values())
    return plain and (len(value) <= 4 or all(isinstance(v, bool) for v in value.values()))


def _inline(value: Mapping[str, Any]) -> str:
    """'current: yes · pending: no', or for many yes-or-no values 'has SSE4_2, AVX; lacks AMX_TILE'."""
    if len(value) > 4:
        has = [str(k).upper() for k, v in value.items() if v]
        lacks = [str(k).upper() for k, v in value.items() if not v]
        return "; ".join(f"{word} {', '.join(keys)}" for word, keys in (("has", has), ("lacks", lacks)) if keys)
    return " · ".join(f"{humanised(str(k), capital=False)}: {fact(str(k), v)}" for k, v in value.items()) or "none"


def machine_groups(
    system: System, devices: Sequence[GpuFacts], torch: Maybe[TorchFacts]
) -> list[tuple[str, list[Field]]]:
    """The Machine section by subject: the system, each GPU ("GPU 0: NVIDIA H100 80GB HBM3 (cuda:0)"), and
    PyTorch, each a title and its fields."""
    groups = [("System", machine_fields(to_json(system), headings=True))]
    for index, device in enumerate(to_json(devices)):
        name, linked, number = device.get("name"), device.get("torch_device"), device.get("index")
        title = f"GPU {number if isinstance(number, int) else index}" + (f": {name}" if isinstance(name, str) else "")
        groups.append((title + (f" ({linked})" if isinstance(linked, str) else ""), machine_fields(device)))
    facts = to_json(torch)
    groups.append(("PyTorch", machine_fields({"torch": facts}) if Unavailable.read(facts) else machine_fields(facts)))
    return groups
