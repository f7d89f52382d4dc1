"""The tracked memory by category (weights, gradients, optimizer states, activations...) and the KV cache."""

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


def phase_snapshots(tracker: Any, model: Any) -> dict[str, dict[str, int]]:
    """The breakdown at the peak of the forward and of the backward pass of the model's last step."""
    stats = tracker.memory_tracking.get(model)
    phases: dict[str, dict[str, int]] = {}
    if stats is None:
        return phases
    for state, name in torch_private.phase_peaks():
        taken = stats.snapshots.get(state)
        if taken:
            phases[name] = categories(taken[-1])
    return phases


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
