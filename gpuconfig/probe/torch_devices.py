"""Which torch device each NVIDIA GPU is.

NVML numbers GPUs in PCI bus order (nvidia-smi's numbers); CUDA, and so torch, numbers them fastest first
unless CUDA_DEVICE_ORDER=PCI_BUS_ID, and only those CUDA_VISIBLE_DEVICES leaves visible (CUDA C++
Programming Guide, "CUDA Environment Variables": https://docs.nvidia.com/cuda/cuda-c-programming-guide/#cuda-environment-variables).
So NVML's GPU 0 need not be torch's cuda:0. The two are joined on the GPU's UUID, which NVML
(nvmlDeviceGetUUID) and torch (torch.cuda.get_device_properties(i).uuid, torch 2.0 and later) both give.
Where a UUID is missing the link is unknown and said so; only a lone GPU seen by both is known without one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.model import Maybe, Record, Unavailable


@dataclass(frozen=True)
class TorchDevice(Record):
    """A device torch sees (the worker's torch.cuda.get_device_properties), by torch's index."""

    index: int
    name: str = ""
    capability: str = "?"
    memory_bytes: int = 0
    multiprocessors: int = 0
    uuid: str | None = None  # torch older than 2.0 gives none


@dataclass(frozen=True)
class TorchFacts(Record):
    """What the worker said of the torch it runs (its "torch" event): the build, its devices, and whether
    each GPU's architecture is compiled in (`arch_in_build`, keyed by torch's device index)."""

    version: str = "?"
    python: str = ""
    cuda: str | None = None
    hip: str | None = None
    cudnn: int | None = None
    cuda_available: bool | None = None
    arch_list: tuple[str, ...] = ()
    devices: tuple[TorchDevice, ...] = ()
    arch_in_build: dict[str, bool] = field(default_factory=dict)
    arch_match: dict[str, str] = field(default_factory=dict)
    mkldnn: bool | None = None
    cpu_capability: str | None = None
    threads: int | None = None
    device: str = ""

    @classmethod
    def read(cls, event: Mapping[str, object]) -> Maybe[TorchFacts]:
        """The worker's "torch" event (or a report's "torch"): its facts, or why it has no torch."""
        facts = {k: v for k, v in event.items() if k != "event"}
        return Unavailable.read(facts) or cls.from_record(facts)


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normal_uuid(text: object) -> str | None:
    """A GPU's UUID in one form: NVML's 'GPU-8a4b…' and torch's '8a4b…' (no prefix) both give '8a4b…'.

    A MIG instance's UUID ('MIG-…') is not its GPU's, so it gives None, as does anything else.
    """
    if not isinstance(text, str):
        return None
    found = text.strip().lower().removeprefix("gpu-")
    return found if _UUID.fullmatch(found) else None


def link(devices: Sequence[GpuFacts], torch: Maybe[TorchFacts]) -> list[GpuFacts]:
    """Each NVML device with `torch_device`: "cuda:N", or an Unavailable saying why it is not known."""
    return [replace(device, torch_device=_torch_device(device, len(devices), torch)) for device in devices]


def _torch_device(device: GpuFacts, nvml_count: int, torch: Maybe[TorchFacts]) -> Maybe[str]:
    if isinstance(torch, Unavailable):
        return Unavailable(f"torch did not run: {torch.reason}")
    seen = torch.devices
    if not seen:
        return Unavailable("torch sees no CUDA device")
    by_uuid = {normal_uuid(d.uuid): d.index for d in seen}
    uuid = normal_uuid(device.uuid)
    if uuid is not None and uuid in by_uuid:
        return f"cuda:{by_uuid[uuid]}"
    if uuid is not None and None not in by_uuid:
        return Unavailable("torch does not see this GPU (hidden by CUDA_VISIBLE_DEVICES, or not usable by CUDA)")
    if nvml_count == 1 and len(seen) == 1 and not torch.hip:
        return f"cuda:{seen[0].index}"  # the only NVIDIA GPU here, and torch's only CUDA device
    missing = "NVML gave no UUID for it" if uuid is None else "torch gave no device UUIDs (torch older than 2.0?)"
    return Unavailable(f"which torch device this GPU is cannot be told: {missing}")
