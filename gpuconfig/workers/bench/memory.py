"""The peak memory of a block of code: CUDA's allocator, or on the CPU the live tensors and the RSS."""

from __future__ import annotations

import sys
import weakref
from functools import partial
from pathlib import Path
from typing import Any

import torch
from torch import Tensor
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves


class TensorPeak(TorchDispatchMode):  # type: ignore[no-untyped-call]
    """The most bytes held by live CPU tensors while it is active: for the CPU, what
    torch.cuda.max_memory_allocated is for a GPU. Each storage counts once, from the operator that
    returned it until it is freed; the process's RSS, by contrast, also holds what malloc keeps after a free.
    """

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.live: dict[int, weakref.ref[torch.UntypedStorage]] = {}
        self.current = 0
        self.peak = 0

    def __torch_dispatch__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        out = func(*args, **(kwargs or {}))
        for leaf in tree_leaves(out):
            if isinstance(leaf, Tensor) and leaf.device.type == "cpu":
                self._track(leaf.untyped_storage())
        return out

    def _track(self, storage: torch.UntypedStorage) -> None:
        key = id(storage)
        if key in self.live:
            return
        size = storage.nbytes()
        self.live[key] = weakref.ref(storage, partial(self._free, key, size))
        self.current += size
        self.peak = max(self.peak, self.current)

    def _free(self, key: int, size: int, _: object) -> None:
        if self.live.pop(key, None) is not None:
            self.current -= size


class PeakMemory:
    """The most memory a block of code added: CUDA's allocator peak, or the growth of this process's peak RSS."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.bytes = 0
        self.source = ""
        self._base = 0

    def __enter__(self) -> PeakMemory:
        if self.device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(self.device)
            self._base = torch.cuda.memory_allocated(self.device)
            self.source = "torch.cuda.max_memory_allocated"
        else:
            # Writing 5 to clear_refs resets VmHWM to the current RSS (Linux, proc(5)).
            try:
                Path("/proc/self/clear_refs").write_text("5")
                self.source = "/proc/self/status VmHWM growth (peak reset through clear_refs)"
            except OSError:
                self.source = "ru_maxrss growth (counts only what exceeds the process's earlier peak)"
            self._base = _resident_bytes()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.device.type == "cuda":
            self.bytes = torch.cuda.max_memory_allocated(self.device) - self._base
        else:
            self.bytes = max(0, _peak_resident_bytes() - self._base)


def _resident_bytes() -> int:
    return _status_kib("VmRSS") * 1024 or _peak_resident_bytes()


def _peak_resident_bytes() -> int:
    hwm = _status_kib("VmHWM")
    if hwm:
        return hwm * 1024
    try:
        import resource  # not on Windows
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, Linux KiB


def _status_kib(field: str) -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            line = next((x for x in status if x.startswith(field + ":")), "")
        return int(line.split()[1]) if line else 0
    except (OSError, ValueError, IndexError):
        return 0
