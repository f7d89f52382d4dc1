"""What a run was asked for, and timing on a device: repeated samples that fill a time box, each a loop of
calls ended by a synchronize, so that every figure is a distribution and not one lucky or unlucky loop."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import math
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import torch

MIB = 2**20
K = TypeVar("K", bound=Hashable)
# Samples per figure: at least MIN_SAMPLES even past the box (a median of fewer says nothing of its spread)
# unless the box is overrun by as long again, about TARGET_SAMPLES when the box allows, at most MAX_SAMPLES.
MIN_SAMPLES = 3
TARGET_SAMPLES = 7
MAX_SAMPLES = 15


@dataclass(frozen=True)
class Box:
    """A time box: the monotonic time by which a benchmark, or one figure of it, should be done."""

    deadline: float
    seconds: float = 0.0  # how long it was when it was given
    ends: float = math.inf  # when the whole run's budget is spent (monotonic)

    @classmethod
    def of(cls, seconds: float, ends: float = math.inf) -> Box:
        return cls(time.monotonic() + max(seconds, 0.0), max(seconds, 0.0), ends)

    def overrun(self) -> bool:
        """Whether it has run past its end by as long again as it was, or past the run's budget (a slow or
        busy machine): sampling then stops with what it has."""
        return self.left() < -max(self.seconds, 0.5) or time.monotonic() > self.ends

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def again(self) -> Box:
        """A box as long as this one was, from now (within the run's budget): for the timing after a
        benchmark's fixed work (building models, measuring their memory)."""
        return Box.of(min(self.seconds, max(self.ends - time.monotonic(), 0.0)), self.ends)

    def share(self, parts: int) -> Box:
        """An equal share of what is left, for the first of `parts` figures still to measure."""
        return Box.of(max(self.left(), 0.0) / max(parts, 1), self.ends)


@dataclass(frozen=True)
class Run:
    """What one worker was asked to do, where, and by when."""

    suite: str
    device: torch.device
    request: dict[str, Any]
    box: Box

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


def _loop(call: Callable[[], object], calls: int, device: torch.device) -> float:
    """Seconds per call over a loop of `calls` calls, ended by a synchronize."""
    began = time.perf_counter()
    for _ in range(calls):
        call()
    synchronize(device)
    return (time.perf_counter() - began) / calls


def enough(samples: int, box: Box, last_s: float) -> bool:
    """Whether to stop sampling: the box is spent (or the next sample would mostly overrun it), once the
    minimum is taken; or the maximum is reached. A box overrun by as long again stops with fewer than the
    minimum, so that a busy machine still keeps the run's time (the figure is then judged unstable)."""
    if samples >= MAX_SAMPLES or box.overrun():
        return True
    return samples >= MIN_SAMPLES and box.left() < 0.5 * last_s


def seconds_per_call(call: Callable[[], object], device: torch.device, box: Box) -> tuple[list[float], int]:
    """Seconds per call of each sample, and the calls each sample's loop makes, after a warm-up.

    Each sample is a loop sized from a timed call so that about TARGET_SAMPLES of them fill the box; the
    samples stop when the box is spent (after MIN_SAMPLES) or at MAX_SAMPLES."""
    call()
    synchronize(device)
    one = max(_loop(call, 1, device), 1e-7)
    calls = max(1, int(max(box.left(), 0.0) / TARGET_SAMPLES / one))
    samples: list[float] = []
    while not samples or not enough(len(samples), box, samples[-1] * calls):
        samples.append(_loop(call, calls, device))
    return samples, calls


def interleaved(
    calls: Mapping[K, Callable[[], object]], device: torch.device, box: Box
) -> tuple[dict[K, list[float]], dict[K, int]]:
    """Seconds per call of each variant, sampled in rounds that take one sample of every variant in turn,
    so a ratio between two variants comes from samples taken moments apart (a pair per round).

    Each variant is warmed up once, then timed once to size its loop so that about TARGET_SAMPLES rounds
    fill the box; that sizing call is a sample only where the box is already overrun after it."""
    for call in calls.values():
        call()
    synchronize(device)
    sizing = {name: max(_loop(call, 1, device), 1e-7) for name, call in calls.items()}
    if box.overrun():  # a busy machine: the one timed call of each is all there is time for
        return {name: [seconds] for name, seconds in sizing.items()}, dict.fromkeys(calls, 1)
    per_sample = max(box.left(), 0.0) / TARGET_SAMPLES / len(calls)
    counts = {name: max(1, int(per_sample / sizing[name])) for name in calls}
    samples: dict[K, list[float]] = {name: [] for name in calls}
    rounds = 0
    round_s = 0.0
    while not rounds or not enough(rounds, box, round_s):
        began = time.perf_counter()
        for name, call in calls.items():
            samples[name].append(_loop(call, counts[name], device))
        round_s = time.perf_counter() - began
        rounds += 1
    return samples, counts


def rates(work: float, seconds: list[float]) -> list[float]:
    """Each sample as a rate: `work` per call over its seconds per call."""
    return [work / s for s in seconds]
