"""What a run was asked for, and timing on a device: loops sized to a time budget, ended by a synchronize."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

MIB = 2**20


@dataclass(frozen=True)
class Run:
    """What one worker was asked to do, and where."""

    suite: str
    device: torch.device
    request: dict[str, Any]

    @property
    def quick(self) -> bool:
        return self.suite == "quick"

    @property
    def cuda(self) -> bool:
        return self.device.type == "cuda"

    def pick(self, quick: Any, full: Any, gpu_quick: Any = None, gpu_full: Any = None) -> Any:
        """The setting for this suite on this device (GPU settings default to the CPU ones)."""
        if self.cuda:
            chosen = gpu_quick if self.quick else gpu_full
            if chosen is not None:
                return chosen
        return quick if self.quick else full


def release_memory(device: torch.device) -> None:
    """Give freed memory back, so the next figure's peak starts from what is really in use."""
    gc.collect()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # glibc keeps freed heap pages otherwise


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def best_seconds_per_call(
    call: Callable[[], object], device: torch.device, budget_s: float, repeats: int = 3
) -> tuple[float, int]:
    """The fastest of `repeats` timed loops, in seconds per call, after a warm-up; and the calls per loop.

    The loop length is sized from a timed warm-up call so that all loops together take about `budget_s`.
    """
    call()
    synchronize(device)
    began = time.perf_counter()
    call()
    synchronize(device)
    one = max(time.perf_counter() - began, 1e-7)
    calls = max(1, int(budget_s / repeats / one))
    best = math.inf
    for _ in range(repeats):
        began = time.perf_counter()
        for _ in range(calls):
            call()
        synchronize(device)
        best = min(best, (time.perf_counter() - began) / calls)
    return best, calls
