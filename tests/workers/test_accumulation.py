"""Gradient accumulation in a traced backward: in place where PyTorch's engine adds in place on real tensors."""

from __future__ import annotations

from typing import Any

import torch  # noqa: TID251  (the tests' Python has the torch extra; these run the engine on fake and real tensors)

from gpuconfig.workers.tracer import torch_private
from gpuconfig.workers.tracer.accumulation import dense, in_place_accumulation
from gpuconfig.workers.tracer.autograd_nodes import node_marker


def graph() -> Any:
    """Three accumulations: z's gradient (the first from an expanded, not dense, sum backward: out of place), h's
    first (its first gradient is also the one y's branch still holds: out of place) and h's second (the first
    sum is the engine's alone: in place)."""
    torch.manual_seed(0)
    first, second = torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)
    x = torch.randn(4, 8, requires_grad=True)
    h = torch.nn.functional.layer_norm(x, (8,))
    y = first(h) + second(h)
    z = y + h
    return (z.relu() + z).sum()


def angle() -> Any:
    """No accumulation at all, but atan2's backward formula (derivatives.yaml) adds self * self and other * other,
    two fresh temporaries held by nothing else: an add a backward function makes, not the engine."""
    a, b = torch.randn(4, 8, requires_grad=True), torch.randn(4, 8, requires_grad=True)
    return torch.atan2(a, b).sum()


def real_sums(make: Any = graph) -> tuple[int, int]:
    """The graph's backward on real tensors, as PyTorch's profiler saw it (it holds no tensor, so the engine's
    use counts are a real run's): the sums made in place (aten::add_) and those allocated (aten::add)."""
    from torch.profiler import ProfilerActivity, profile  # noqa: TID251

    loss = make()
    with profile(activities=[ProfilerActivity.CPU]) as profiled:
        loss.backward()
    names = [event.name for event in profiled.events()]
    return names.count("aten::add_"), names.count("aten::add")


def traced_in_place(applying: Any = None, make: Any = graph) -> tuple[int, int]:
    """The same graph on fake tensors under the mode: accumulations made in place, and new storages in backward."""
    with torch_private.fake_tensor_mode():
        events: list[Any] = []
        marker = node_marker(events)
        with marker:
            loss = make()
        mode = in_place_accumulation(applying or (lambda: marker.applying))
        created: list[Any] = []

        class Storages(torch_private.dispatch_mode()):  # type: ignore[misc]
            def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
                out = func(*args, **(kwargs or {}))
                if func is torch.ops.aten.add.Tensor:
                    created.append(out)
                return out

        with marker, Storages(), mode:
            loss.backward()
    return mode.made_in_place, len(created)


def test_an_exclusively_held_dense_gradient_is_summed_in_place_as_on_real_tensors() -> None:
    in_place, allocated_sums = traced_in_place()
    assert (in_place, allocated_sums) == real_sums() == (1, 2)


def test_an_add_inside_a_backward_function_is_never_taken_for_the_engines() -> None:
    """The nodes' hooks say atan2's backward is running when it adds: its sum stays allocated, as on real tensors.
    Without them its operands would pass the engine's test and the add would be made in place."""
    assert traced_in_place(make=angle) == (0, 1)
    assert real_sums(angle) == (0, 1)
    assert traced_in_place(lambda: False, make=angle)[0] == 1


def test_dense_follows_strides_not_contiguity() -> None:
    base = torch.ones(3, 4)
    assert dense(base) and dense(base.t()) and dense(base[:1])
    assert not dense(torch.ones(4).expand(3, 4)) and not dense(base[:, ::2])
