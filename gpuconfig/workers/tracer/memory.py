"""The tracked memory by category (weights, gradients, optimizer states, activations...) at the peak of each
phase of a step, and the KV cache."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from . import torch_private


@contextlib.contextmanager
def frozen_parameters_tolerated() -> Iterator[None]:
    """MemTracker hooks every parameter's gradient; a frozen one (LoRA's base weights) has none to hook."""
    import torch

    class NoHandle:
        def remove(self) -> None:
            pass

    originals = {name: getattr(torch.Tensor, name) for name in ("register_hook", "register_post_accumulate_grad_hook")}

    def tolerant(name: str) -> Any:
        def register(tensor: Any, hook: Any) -> Any:
            if not tensor.requires_grad:
                return NoHandle()
            return originals[name](tensor, hook)

        return register

    for name in originals:
        setattr(torch.Tensor, name, tolerant(name))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(torch.Tensor, name, function)


CATEGORY_NAMES = {
    "PARAM": "weights",
    "BUFFER": "buffers",
    "GRAD": "gradients",
    "OPT": "optimizer",
    "ACT": "activations",
    "TEMP": "temporaries",
    "OTH": "inputs",
}


def snapshot(tracker: Any, kind: str) -> dict[str, int]:
    return categories(tracker.get_tracker_snapshot(kind))


class PhasePeaks:
    """The peak of each phase of a step (forward, backward, optimizer step), each with its composition by
    category and where in the phase it was reached (0 at its first allocation, 1 at its last)."""

    def __init__(self, tracker: Any) -> None:
        self.tracker = tracker
        self.phases: dict[str, dict[str, int]] = {}
        self.positions: dict[str, float] = {}
        self._start = 0

    def begin(self) -> None:
        torch_private.restart_peak(self.tracker)
        self._start = len(self.tracker.events)

    def end(self, phase: str) -> None:
        """The phase that began at the last begin() or end() has ended: keep its peak, start the next one."""
        end = len(self.tracker.events)
        self.phases[phase] = snapshot(self.tracker, "peak")
        self.positions[phase] = round((self.tracker.peak_event - self._start) / max(1, end - self._start), 4)
        self.begin()

    def peak(self) -> tuple[str, dict[str, int]]:
        """The phase whose peak is the step's, and that peak."""
        name = max(self.phases, key=lambda phase: sum(self.phases[phase].values()))
        return name, self.phases[name]


def categories(per_device: dict[Any, dict[Any, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for categories in per_device.values():
        for key, value in categories.items():
            name = CATEGORY_NAMES.get(getattr(key, "name", str(key)), "")
            if name:
                totals[name] = totals.get(name, 0) + int(value)
    return totals


def cache_bytes(output: Any) -> int:
    """Bytes held by a transformers KV cache (any Cache class or legacy tuples)."""
    import torch

    cache = getattr(output, "past_key_values", None)
    if cache is None:
        return 0
    seen: set[int] = set()
    total = 0
    stack = [cache]
    while stack:
        item = stack.pop()
        if isinstance(item, torch.Tensor):
            if id(item) not in seen:
                seen.add(id(item))
                total += item.numel() * item.element_size()
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif hasattr(item, "layers"):
            for layer in item.layers:
                stack.extend(t for t in (getattr(layer, "keys", None), getattr(layer, "values", None)) if t is not None)
        elif hasattr(item, "key_cache"):
            stack.extend(item.key_cache)
            stack.extend(item.value_cache)
    return total
