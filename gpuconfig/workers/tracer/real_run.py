"""What a real run (the trace's check) needs on its device: the model built there, attention as PyTorch runs it
there, clocks that wait for the device, and the device's own memory figures.

On the CPU a real run's memory is the process's peak resident memory. On a CUDA GPU it is what PyTorch's
caching allocator reports: `torch.cuda.max_memory_allocated` (the blocks tensors hold) and
`max_memory_reserved` (the segments taken from the driver, which nvidia-smi and an out-of-memory error see);
https://docs.pytorch.org/docs/stable/notes/cuda.html#memory-management.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from .attention import attention_kernels
from .events import TraceError

# The SDPA kernel a workload's attention names; "auto" and the rest leave the choice to PyTorch, as a user's run does.
SDPA_BACKENDS = {"sdpa_math": "MATH", "sdpa_efficient": "EFFICIENT_ATTENTION", "sdpa_flash": "FLASH_ATTENTION"}


def on_cuda(request: dict[str, Any]) -> bool:
    return request.get("device") == "cuda"


def autocast_device(request: dict[str, Any]) -> str:
    """Where a real run's autocast applies (the trace's fake tensors live on the CPU whatever the target)."""
    return "cuda" if on_cuda(request) else "cpu"


@contextlib.contextmanager
def building_on(request: dict[str, Any]) -> Iterator[None]:
    """Parameters, buffers and inputs made on the run's device: a GPU run never holds the model in host memory."""
    import torch

    if not on_cuda(request):
        yield
        return
    with torch.device("cuda"):
        yield


@contextlib.contextmanager
def real_attention(request: dict[str, Any], model: Any) -> Iterator[None]:
    """On the CPU, the trace's own routing (it runs and records torch's CPU kernels). On a GPU, SDPA as PyTorch
    dispatches it, forced to one kernel only when the workload names one."""
    if not on_cuda(request):
        with attention_kernels(request, model):
            yield
        return
    from torch.nn.attention import SDPBackend, sdpa_kernel

    backend = SDPA_BACKENDS.get(str(request.get("attention", "auto")))
    with sdpa_kernel(getattr(SDPBackend, backend)) if backend else contextlib.nullcontext():
        yield


class Clock:
    """Seconds of device work: a CUDA run's clock waits for the GPU to finish what was queued."""

    def __init__(self, request: dict[str, Any]) -> None:
        """The run's clock; a GPU run on a machine whose torch sees no CUDA GPU stops here, in one line."""
        import torch

        if on_cuda(request) and not torch.cuda.is_available():
            raise TraceError("input", "a real run on cuda needs a CUDA GPU that torch can see")
        self._sync: Callable[[], None] = torch.cuda.synchronize if on_cuda(request) else (lambda: None)

    def now(self) -> float:
        self._sync()
        return time.perf_counter()

    def time(self, work: Callable[[], Any]) -> float:
        began = self.now()
        work()
        return self.now() - began


def reset_peaks(request: dict[str, Any]) -> None:
    """Start the device's peak counters from what is held now (the built model stays counted)."""
    if on_cuda(request):
        import torch

        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()


def device_memory(request: dict[str, Any], prefix: str) -> dict[str, int]:
    """The CUDA caching allocator's peaks since the last reset, named with `prefix`; nothing on the CPU."""
    if not on_cuda(request):
        return {}
    import torch

    torch.cuda.synchronize()
    return {
        f"{prefix}_max_allocated_bytes": int(torch.cuda.max_memory_allocated()),
        f"{prefix}_max_reserved_bytes": int(torch.cuda.max_memory_reserved()),
    }


class DevicePhases:
    """Each phase of a real GPU step, as the trace's PhasePeaks splits it: the allocator's peak within the phase
    and what stays allocated at its end, so a traced estimate that misses can be told where."""

    def __init__(self) -> None:
        """From now: the peaks so far (the recipe's earlier steps) are the caller's, taken before."""
        import torch

        self.phases: dict[str, dict[str, int]] = {}
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()

    def end(self, phase: str) -> None:
        import torch

        torch.cuda.synchronize()
        self.phases[phase] = {
            "max_allocated_bytes": int(torch.cuda.max_memory_allocated()),
            "max_reserved_bytes": int(torch.cuda.max_memory_reserved()),
            "allocated_at_end_bytes": int(torch.cuda.memory_allocated()),
        }
        torch.cuda.reset_peak_memory_stats()

    def peaks(self, before: dict[str, int] | None = None) -> dict[str, Any]:
        """The run's peaks with every phase's; `before`: the allocator's peaks up to the first phase, if any ran."""
        earlier = before or {}
        allocated = [earlier.get("cuda_max_allocated_bytes", 0)] + [
            p["max_allocated_bytes"] for p in self.phases.values()
        ]
        reserved = [earlier.get("cuda_max_reserved_bytes", 0)] + [p["max_reserved_bytes"] for p in self.phases.values()]
        return {
            "cuda_max_allocated_bytes": max(allocated),
            "cuda_max_reserved_bytes": max(reserved),
            "cuda_phases": self.phases,
        }


def device_facts(request: dict[str, Any]) -> dict[str, Any]:
    """What ran the real run: the GPU's name and torch's CUDA build, for the results to say."""
    if not on_cuda(request):
        return {}
    import torch

    properties = torch.cuda.get_device_properties(0)
    return {
        "gpu_name": properties.name,
        "gpu_total_bytes": int(properties.total_memory),
        "cuda": torch.version.cuda,
        "capability": f"{properties.major}.{properties.minor}",
    }


def distribution(seconds: list[float]) -> dict[str, Any]:
    """Timed repeats as a median and spread ((max - min) / median), with every sample kept."""
    if not seconds:
        return {}
    middle = statistics.median(seconds)
    return {
        "median_seconds": middle,
        "spread": (max(seconds) - min(seconds)) / middle if middle > 0 else 0.0,
        "samples_seconds": seconds,
    }
