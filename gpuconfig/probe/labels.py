"""The probe's names for what it measured and what the machine is, as a reader says them: benchmarks and
their variants, the machine's fields with their units, measured figures to the digits they carry.

Plain text, no markup: the reports put it in HTML, and the command line and the tab can say things the
same way. A field without a written label gets one made from its key ("pcie_max_generation" reads
"PCIe max generation", in English); the key's unit suffix ("_bytes", "_mhz", ...) becomes the value's unit.
The written names are in English here, marked for lupdate, and read in the language in use (core/i18n.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.units import MISSING, format_bytes, format_number
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import ARM_INSTRUCTION_SETS, X86_INSTRUCTION_SETS, System
from gpuconfig.probe.model import BenchmarkResult, Maybe, Unavailable, to_json
from gpuconfig.probe.torch_devices import TorchFacts

BENCHMARKS = {
    "matmul": QT_TRANSLATE_NOOP("ProbeReport", "Matrix multiply"),
    "memory_bandwidth": QT_TRANSLATE_NOOP("ProbeReport", "Memory bandwidth"),
    "h2d_bandwidth": QT_TRANSLATE_NOOP("ProbeReport", "Host to device copy"),
    "d2h_bandwidth": QT_TRANSLATE_NOOP("ProbeReport", "Device to host copy"),
    "train_cnn": QT_TRANSLATE_NOOP("ProbeReport", "CNN training step"),
    "train_transformer": QT_TRANSLATE_NOOP("ProbeReport", "Transformer training step"),
    "train_from_host": QT_TRANSLATE_NOOP("ProbeReport", "Training step fed from host memory"),
    "dataloader": QT_TRANSLATE_NOOP("ProbeReport", "DataLoader"),
    "disk_read": QT_TRANSLATE_NOOP("ProbeReport", "Disk sequential read"),
    "allreduce": QT_TRANSLATE_NOOP("ProbeReport", "All-reduce"),
}
# Figures a fleet report reads from each GPU's link rather than from a benchmark.
LINKS = {
    "pcie_generation": QT_TRANSLATE_NOOP("ProbeReport", "PCIe generation under load"),
    "pcie_width": QT_TRANSLATE_NOOP("ProbeReport", "PCIe width under load"),
}
VARIANTS = {
    "amp": QT_TRANSLATE_NOOP("ProbeReport", "AMP"),
    "checkpointing": QT_TRANSLATE_NOOP("ProbeReport", "checkpointing"),
    "amp+checkpointing": QT_TRANSLATE_NOOP("ProbeReport", "AMP + checkpointing"),
    "resident": QT_TRANSLATE_NOOP("ProbeReport", "batch on the device"),
    "from_host": QT_TRANSLATE_NOOP("ProbeReport", "batch from the host"),
    "pinned": QT_TRANSLATE_NOOP("ProbeReport", "pinned memory"),
    "pageable": QT_TRANSLATE_NOOP("ProbeReport", "pageable memory"),
}

# The machine's fields by their key, wherever they appear (a key the reports meet unlabelled is humanised).
FIELDS = {
    "os": QT_TRANSLATE_NOOP("ProbeReport", "Operating system"),
    "cpu": QT_TRANSLATE_NOOP("ProbeReport", "CPU"),
    "memory": QT_TRANSLATE_NOOP("ProbeReport", "Memory"),
    "disks": QT_TRANSLATE_NOOP("ProbeReport", "Disks"),
    "thunderbolt": QT_TRANSLATE_NOOP("ProbeReport", "Thunderbolt / USB4"),
    "pythons": QT_TRANSLATE_NOOP("ProbeReport", "Python environments"),
    "gpu": QT_TRANSLATE_NOOP("ProbeReport", "NVIDIA driver"),
    "system": QT_TRANSLATE_NOOP("ProbeReport", "System"),
    "machine": QT_TRANSLATE_NOOP("ProbeReport", "Architecture"),
    "physical_cores": QT_TRANSLATE_NOOP("ProbeReport", "Physical cores"),
    "logical_cores": QT_TRANSLATE_NOOP("ProbeReport", "Logical cores"),
    "max_mhz": QT_TRANSLATE_NOOP("ProbeReport", "Maximum clock"),
    "total_bytes": QT_TRANSLATE_NOOP("ProbeReport", "Total"),
    "available_bytes": QT_TRANSLATE_NOOP("ProbeReport", "Available"),
    "swap_bytes": QT_TRANSLATE_NOOP("ProbeReport", "Swap"),
    "mountpoint": QT_TRANSLATE_NOOP("ProbeReport", "Mount point"),
    "fstype": QT_TRANSLATE_NOOP("ProbeReport", "File system"),
    "free_bytes": QT_TRANSLATE_NOOP("ProbeReport", "Free"),
    "rotational": QT_TRANSLATE_NOOP("ProbeReport", "Rotating disk"),
    "source": QT_TRANSLATE_NOOP("ProbeReport", "Found as"),
    "python_version": QT_TRANSLATE_NOOP("ProbeReport", "Python"),
    "torch": QT_TRANSLATE_NOOP("ProbeReport", "PyTorch"),
    "count": QT_TRANSLATE_NOOP("ProbeReport", "NVIDIA GPUs"),
    "driver_version": QT_TRANSLATE_NOOP("ProbeReport", "Driver"),
    "cuda_driver_version": QT_TRANSLATE_NOOP("ProbeReport", "CUDA version the driver supports"),
    "nvml_version": QT_TRANSLATE_NOOP("ProbeReport", "NVML"),
    "pci_bus_id": QT_TRANSLATE_NOOP("ProbeReport", "PCI bus"),
    "pci_device_id": QT_TRANSLATE_NOOP("ProbeReport", "PCI device ID"),
    "pci_subsystem_id": QT_TRANSLATE_NOOP("ProbeReport", "PCI subsystem ID"),
    "memory_total_bytes": QT_TRANSLATE_NOOP("ProbeReport", "Memory"),
    "power_limit_w": QT_TRANSLATE_NOOP("ProbeReport", "Power limit"),
    "max_sm_clock_mhz": QT_TRANSLATE_NOOP("ProbeReport", "Maximum SM clock"),
    "max_mem_clock_mhz": QT_TRANSLATE_NOOP("ProbeReport", "Maximum memory clock"),
    "ecc_mode": QT_TRANSLATE_NOOP("ProbeReport", "ECC"),
    "ecc_corrected_volatile": QT_TRANSLATE_NOOP("ProbeReport", "ECC errors corrected since the driver loaded"),
    "ecc_uncorrected_volatile": QT_TRANSLATE_NOOP("ProbeReport", "ECC errors uncorrected since the driver loaded"),
    "ecc_corrected_aggregate": QT_TRANSLATE_NOOP("ProbeReport", "ECC errors corrected, lifetime"),
    "ecc_uncorrected_aggregate": QT_TRANSLATE_NOOP("ProbeReport", "ECC errors uncorrected, lifetime"),
    "retired_pages": QT_TRANSLATE_NOOP("ProbeReport", "Retired memory pages"),
    "retired_pages_single_bit": QT_TRANSLATE_NOOP("ProbeReport", "Retired pages, single-bit errors"),
    "retired_pages_double_bit": QT_TRANSLATE_NOOP("ProbeReport", "Retired pages, double-bit errors"),
    "retired_pages_pending": QT_TRANSLATE_NOOP("ProbeReport", "Page retirement pending"),
    "remapped_rows": QT_TRANSLATE_NOOP("ProbeReport", "Remapped memory rows"),
    "pcie": QT_TRANSLATE_NOOP("ProbeReport", "PCIe link (NVML)"),
    "max_generation": QT_TRANSLATE_NOOP("ProbeReport", "Maximum generation"),
    "max_width": QT_TRANSLATE_NOOP("ProbeReport", "Maximum width"),
    "max_speed_gts": QT_TRANSLATE_NOOP("ProbeReport", "Maximum speed"),
    "gpu_max_generation": QT_TRANSLATE_NOOP("ProbeReport", "GPU's own maximum generation"),
    "replay_count": QT_TRANSLATE_NOOP("ProbeReport", "Replays"),
    "mig_mode": QT_TRANSLATE_NOOP("ProbeReport", "MIG"),
    "gpu_max_temperature_c": QT_TRANSLATE_NOOP("ProbeReport", "Maximum operating temperature"),
    "pcie_sysfs": QT_TRANSLATE_NOOP("ProbeReport", "PCIe link (sysfs)"),
    "bus_id": QT_TRANSLATE_NOOP("ProbeReport", "Bus"),
    "removable": QT_TRANSLATE_NOOP("ProbeReport", "External port"),
    "upstream": QT_TRANSLATE_NOOP("ProbeReport", "Bridges above it"),
    "torch_device": QT_TRANSLATE_NOOP("ProbeReport", "PyTorch device"),
    "hip": QT_TRANSLATE_NOOP("ProbeReport", "ROCm (HIP)"),
    "cudnn": QT_TRANSLATE_NOOP("ProbeReport", "cuDNN"),
    "arch_list": QT_TRANSLATE_NOOP("ProbeReport", "Architectures compiled in"),
    "arch_in_build": QT_TRANSLATE_NOOP("ProbeReport", "Device's architecture compiled in"),
    "arch_match": QT_TRANSLATE_NOOP("ProbeReport", "Architecture used, by device"),
    "mkldnn": QT_TRANSLATE_NOOP("ProbeReport", "oneDNN (MKL-DNN)"),
    "cpu_capability": QT_TRANSLATE_NOOP("ProbeReport", "CPU kernels"),
    "threads": QT_TRANSLATE_NOOP("ProbeReport", "Threads"),
    "device": QT_TRANSLATE_NOOP("ProbeReport", "Device the benchmarks used"),
    "capability": QT_TRANSLATE_NOOP("ProbeReport", "Compute capability"),
    "memory_bytes": QT_TRANSLATE_NOOP("ProbeReport", "Memory"),
    "multiprocessors": QT_TRANSLATE_NOOP("ProbeReport", "Multiprocessors"),
    # Labelled as humanised() reads their keys, so that they are translated too.
    "authorized": QT_TRANSLATE_NOOP("ProbeReport", "Authorized"),
    "compute_capability": QT_TRANSLATE_NOOP("ProbeReport", "Compute capability"),
    "cuda_available": QT_TRANSLATE_NOOP("ProbeReport", "CUDA available"),
    "current": QT_TRANSLATE_NOOP("ProbeReport", "Current"),
    "current_generation": QT_TRANSLATE_NOOP("ProbeReport", "Current generation"),
    "current_speed_gts": QT_TRANSLATE_NOOP("ProbeReport", "Current speed"),
    "current_width": QT_TRANSLATE_NOOP("ProbeReport", "Current width"),
    "corrected": QT_TRANSLATE_NOOP("ProbeReport", "Corrected"),
    "deauthorization": QT_TRANSLATE_NOOP("ProbeReport", "Deauthorization"),
    "device_name": QT_TRANSLATE_NOOP("ProbeReport", "Device name"),
    "devices": QT_TRANSLATE_NOOP("ProbeReport", "Devices"),
    "domain": QT_TRANSLATE_NOOP("ProbeReport", "Domain"),
    "domains": QT_TRANSLATE_NOOP("ProbeReport", "Domains"),
    "failed": QT_TRANSLATE_NOOP("ProbeReport", "Failed"),
    "generation": QT_TRANSLATE_NOOP("ProbeReport", "Generation"),
    "generation_name": QT_TRANSLATE_NOOP("ProbeReport", "Generation name"),
    "index": QT_TRANSLATE_NOOP("ProbeReport", "Index"),
    "instruction_sets": QT_TRANSLATE_NOOP("ProbeReport", "Instruction sets"),
    "iommu_dma_protection": QT_TRANSLATE_NOOP("ProbeReport", "IOMMU DMA protection"),
    "kernel": QT_TRANSLATE_NOOP("ProbeReport", "Kernel"),
    "kind": QT_TRANSLATE_NOOP("ProbeReport", "Kind"),
    "model": QT_TRANSLATE_NOOP("ProbeReport", "Model"),
    "name": QT_TRANSLATE_NOOP("ProbeReport", "Name"),
    "path": QT_TRANSLATE_NOOP("ProbeReport", "Path"),
    "pcie_tunnels": QT_TRANSLATE_NOOP("ProbeReport", "PCIe tunnels"),
    "pending": QT_TRANSLATE_NOOP("ProbeReport", "Pending"),
    "persistence_mode": QT_TRANSLATE_NOOP("ProbeReport", "Persistence mode"),
    "release": QT_TRANSLATE_NOOP("ProbeReport", "Release"),
    "route": QT_TRANSLATE_NOOP("ProbeReport", "Route"),
    "rx_lanes": QT_TRANSLATE_NOOP("ProbeReport", "RX lanes"),
    "rx_link_gbps": QT_TRANSLATE_NOOP("ProbeReport", "RX link"),
    "rx_speed_gbps": QT_TRANSLATE_NOOP("ProbeReport", "RX speed"),
    "security": QT_TRANSLATE_NOOP("ProbeReport", "Security"),
    "shutdown_temperature_c": QT_TRANSLATE_NOOP("ProbeReport", "Shutdown temperature"),
    "slowdown_temperature_c": QT_TRANSLATE_NOOP("ProbeReport", "Slowdown temperature"),
    "tx_lanes": QT_TRANSLATE_NOOP("ProbeReport", "TX lanes"),
    "tx_link_gbps": QT_TRANSLATE_NOOP("ProbeReport", "TX link"),
    "tx_speed_gbps": QT_TRANSLATE_NOOP("ProbeReport", "TX speed"),
    "uncorrected": QT_TRANSLATE_NOOP("ProbeReport", "Uncorrected"),
    "unique_id": QT_TRANSLATE_NOOP("ProbeReport", "Unique ID"),
    "vendor": QT_TRANSLATE_NOOP("ProbeReport", "Vendor"),
    "vendor_name": QT_TRANSLATE_NOOP("ProbeReport", "Vendor name"),
    "version": QT_TRANSLATE_NOOP("ProbeReport", "Version"),
}
# What one item of a listed field is called, and the key that tells the items apart.
ITEMS = {
    "disks": QT_TRANSLATE_NOOP("ProbeReport", "Disk"),
    "pythons": QT_TRANSLATE_NOOP("ProbeReport", "Python"),
    "upstream": QT_TRANSLATE_NOOP("ProbeReport", "Bridge"),
    "devices": QT_TRANSLATE_NOOP("ProbeReport", "Device"),
    "domains": QT_TRANSLATE_NOOP("ProbeReport", "Domain"),
}
ITEM_KEYS = ("device", "path", "bus_id", "index", "name")
# The words of a record written on one line ("current: yes · pending: no"), as humanised() reads their keys.
INLINE = {
    "current": QT_TRANSLATE_NOOP("ProbeReport", "current"),
    "pending": QT_TRANSLATE_NOOP("ProbeReport", "pending"),
    "corrected": QT_TRANSLATE_NOOP("ProbeReport", "corrected"),
    "uncorrected": QT_TRANSLATE_NOOP("ProbeReport", "uncorrected"),
    "failed": QT_TRANSLATE_NOOP("ProbeReport", "failed"),
}
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


def _t(text: str) -> str:
    """Only for texts marked where they are written (the tables above): translate() marks the rest for lupdate."""
    return translate("ProbeReport", text)


def benchmark_name(name: str) -> str:
    """'matmul' -> 'Matrix multiply'."""
    return _t(BENCHMARKS[name]) if name in BENCHMARKS else humanised(name)


def metric_label(benchmark: str, dtype: str, variant: str, device: str) -> str:
    """A fleet metric in words, as figure_label says a figure: 'Matrix multiply bf16 (cuda:0)', 'Disk
    sequential read', 'PCIe width under load (cuda:1)'."""
    name = _t(LINKS[benchmark]) if benchmark in LINKS else benchmark_name(benchmark)
    words = " ".join(w for w in (name, dtype, variant_name(variant)) if w)
    return f"{words} ({device})" if device else words


def variant_name(variant: str) -> str:
    """'amp+checkpointing' -> 'AMP + checkpointing'; one without a name ('num_workers=2') as it is."""
    return _t(VARIANTS[variant]) if variant in VARIANTS else variant


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
    """A field's name in the language in use; an instruction set's flag as Linux prints it ('amx_tile')."""
    if key in X86_INSTRUCTION_SETS or key in ARM_INSTRUCTION_SETS:
        return key
    return _t(FIELDS[key]) if key in FIELDS else humanised(key)


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
        return translate("ProbeReport", "yes") if value else translate("ProbeReport", "no")
    if value is None:
        return MISSING
    if isinstance(value, list | tuple):
        return ", ".join(fact("", v) for v in value) or translate("ProbeReport", "none")
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
        said = translate("ProbeReport", "unavailable — {reason}").format(reason=missing.reason)
        return [Field(label, said, missing=True)]
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
    kind = _t(ITEMS[key]) if key in ITEMS else field_label(key)
    title = f"{kind} {item[name] if name is not None else index + 1}"
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
        said = [translate("ProbeReport", "has {names}").format(names=", ".join(has))] if has else []
        said += [translate("ProbeReport", "lacks {names}").format(names=", ".join(lacks))] if lacks else []
        return "; ".join(said)
    pairs = [f"{_inline_word(str(k))}: {fact(str(k), v)}" for k, v in value.items()]
    return " · ".join(pairs) or translate("ProbeReport", "none")


def _inline_word(key: str) -> str:
    return _t(INLINE[key]) if key in INLINE else humanised(key, capital=False)


def machine_groups(
    system: System, devices: Sequence[GpuFacts], torch: Maybe[TorchFacts]
) -> list[tuple[str, list[Field]]]:
    """The Machine section by subject: the system, each GPU ("GPU 0: NVIDIA H100 80GB HBM3 (cuda:0)"), and
    PyTorch, each a title and its fields."""
    groups = [(translate("ProbeReport", "System"), machine_fields(to_json(system), headings=True))]
    for index, device in enumerate(to_json(devices)):
        name, linked, number = device.get("name"), device.get("torch_device"), device.get("index")
        title = f"GPU {number if isinstance(number, int) else index}" + (f": {name}" if isinstance(name, str) else "")
        groups.append((title + (f" ({linked})" if isinstance(linked, str) else ""), machine_fields(device)))
    facts = to_json(torch)
    groups.append(("PyTorch", machine_fields({"torch": facts}) if Unavailable.read(facts) else machine_fields(facts)))
    return groups
