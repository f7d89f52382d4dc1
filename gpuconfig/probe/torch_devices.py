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
from typing import Any

from gpuconfig.probe.model import unavailable

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normal_uuid(text: Any) -> str | None:
    """A GPU's UUID in one form: NVML's 'GPU-8a4b…' and torch's '8a4b…' (no prefix) both give '8a4b…'.

    A MIG instance's UUID ('MIG-…') is not its GPU's, so it gives None, as does anything else.
    """
    if not isinstance(text, str):
        return None
    found = text.strip().lower().removeprefix("gpu-")
    return found if _UUID.fullmatch(found) else None


def link(devices: Sequence[dict[str, Any]], torch: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each NVML device (a copy) with `torch_device`: "cuda:N", or {"unavailable": why not known}.

    `torch` is the worker's torch facts: `devices`, each with its `index` and `uuid`.
    """
    return [{**device, "torch_device": _torch_device(device, len(devices), torch)} for device in devices]


def _torch_device(device: Mapping[str, Any], nvml_count: int, torch: Mapping[str, Any]) -> Any:
    if "unavailable" in torch:
        return unavailable(f"torch did not run: {torch['unavailable']}")
    seen = [d for d in torch.get("devices") or [] if isinstance(d, Mapping)]
    if not seen:
        return unavailable("torch sees no CUDA device")
    by_uuid = {normal_uuid(d.get("uuid")): d.get("index", i) for i, d in enumerate(seen)}
    uuid = normal_uuid(device.get("uuid"))
    if uuid is not None and uuid in by_uuid:
        return f"cuda:{by_uuid[uuid]}"
    if uuid is not None and None not in by_uuid:
        return unavailable("torch does not see this GPU (hidden by CUDA_VISIBLE_DEVICES, or not usable by CUDA)")
    if nvml_count == 1 and len(seen) == 1 and not torch.get("hip"):
        return f"cuda:{seen[0].get('index', 0)}"  # the only NVIDIA GPU here, and torch's only CUDA device
    missing = "NVML gave no UUID for it" if uuid is None else "torch gave no device UUIDs (torch older than 2.0?)"
    return unavailable(f"which torch device this GPU is cannot be told: {missing}")
