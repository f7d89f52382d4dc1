"""The CPU kernels whose own buffers follow the call's shapes (convolutions, batch norm): each distinct call marked
under fake tensors by its shapes, run once for real on this machine's CPU, and its blocks kept as a script."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.workers.tracer import kernel_scratch, torch_private
from gpuconfig.workers.tracer.heap import ALIGNED, CLOSES, OPENS, TENSOR, with_small_objects
from gpuconfig.workers.tracer.kernel_scratch import MEASURED, kernel_marker, measure_scripts, script_of


def marked_convolutions(*batches: int, expanded: bool = False) -> Any:
    """A marker that saw a convolution's forward and backward at each batch, under fake tensors."""
    import torch  # noqa: TID251  (the tests' Python has the torch extra)
    import torch.nn.functional as F  # noqa: TID251

    with torch_private.fake_tensor_mode():
        tracker = torch_private.recording_tracker()
        weight = torch.ones(16, 3, 3, 3, requires_grad=True)
        with tracker:
            marker = kernel_marker(tracker.events, [], MEASURED)
            with marker:
                for batch in batches:
                    out = F.conv2d(torch.ones(batch, 3, 34, 34, requires_grad=True), weight)
                    (out.sum() if expanded else (out * out).sum()).backward()
    return marker


@pytest.fixture(autouse=True)
def fresh_scripts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_scratch, "_scripts", {})


def test_a_measured_operator_is_marked_around_its_outputs_by_the_shapes_of_its_call() -> None:
    marker = marked_convolutions(4, 4, 2)
    names = [key.split(" #")[0] for _, key in marker.marks]
    forward, backward = "aten.convolution.default", "aten.convolution_backward.default"
    assert names == [OPENS + forward, CLOSES + forward, OPENS + backward, CLOSES + backward] * 3
    keys = [key for _, key in marker.marks if key.startswith(OPENS + forward)]
    assert keys[0] == keys[1] != keys[2]  # the same shapes share a key, another batch has its own
    assert len(marker.calls) == 4
    (opens, _), (closes, _) = marker.marks[:2]
    assert closes == opens + 1  # the convolution's output storage between its two marks


def test_a_script_keeps_the_blocks_a_call_frees_and_where_its_outputs_were_allocated() -> None:
    assert script_of([(1, 100), (2, 50), (1, -100), (3, 70)]) == [100, 0, -1]  # 2 and 3 outlive the call
    assert script_of([(1, 100), (1, -100), (1, 200), (1, -200)]) == [100, -1, 200, -2]  # an address reused
    assert script_of([(9, -64), (1, 8)]) == [0]  # a block freed that the call did not allocate (an input's)


def test_the_replay_places_a_measured_calls_outputs_among_its_blocks() -> None:
    """The blocks a call allocated before its output go before the output's storage event, the rest after,
    one call's blocks numbered across both parts."""
    objects = {"kernels": {"k": [300, 0, 500, -1, -2]}}
    stream = list(with_small_objects([(7, 4096)], [], objects, kernels=[(0, OPENS + "k"), (1, CLOSES + "k")]))
    assert [(size, kind) for _, size, kind in stream] == [
        (300, ALIGNED), (4096, TENSOR), (500, ALIGNED), (-1, ALIGNED), (-1, ALIGNED)
    ]  # fmt: skip
    keys = [key for key, _, kind in stream if kind == ALIGNED]
    assert keys[2] == keys[0] and keys[3] == keys[1] != keys[0]  # each free gives back the block it names


def test_each_distinct_call_runs_once_for_real(monkeypatch: pytest.MonkeyPatch) -> None:
    marker = marked_convolutions(4, 4, expanded=True)
    scripts, facts = measure_scripts(marker.calls)
    assert facts["kernel_calls_measured"] == 2 and facts["kernel_calls_left_out"] == 0
    backward = next(script for key, script in scripts.items() if "backward" in key)
    # The gradient of a sum is expanded (one stored value): the backward kernel copies it whole, 4 x 16 x 32 x 32
    # floats, which no tensor the step sees holds.
    assert 4 * 16 * 32 * 32 * 4 in backward
    again = marked_convolutions(4, expanded=True)

    def run_again(runnable: list[str], todo: Any) -> dict[str, Any]:
        assert runnable == [], runnable  # measured before: nothing to run
        return {}

    monkeypatch.setattr(kernel_scratch, "_profiled", run_again)
    assert measure_scripts(again.calls)[0] == {key: scripts[key] for key in again.calls}


def test_a_call_too_large_to_run_here_or_that_fails_is_left_out_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_scratch, "available_bytes", lambda: 64 * 1024)
    scripts, facts = measure_scripts(marked_convolutions(4).calls)
    assert scripts == {}
    assert facts["kernel_calls_measured"] == 0 and facts["kernel_calls_left_out"] == 2
    assert facts["kernel_calls_too_large"] == 2  # for the memory free now: that trace is not cached
    monkeypatch.setattr(kernel_scratch, "_scripts", {})
    monkeypatch.undo()
    monkeypatch.setattr(kernel_scratch, "_scripts", {})
    monkeypatch.setattr(kernel_scratch, "MEASURE_FLOPS", 1.0)  # past the budget from the first convolution
    facts = measure_scripts(marked_convolutions(4).calls)[1]
    assert facts["kernel_calls_left_out"] == 2 and facts["kernel_calls_too_large"] == 0
    assert kernel_scratch._scripts == {}  # not kept: another point's measurement has its own budget


def test_a_kernel_or_a_profiler_that_raises_leaves_the_calls_out_not_the_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    marker = marked_convolutions(4)
    signature, _, args, kwargs, *rest = marker.calls[next(iter(marker.calls))]

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a kernel that refuses these arguments")

    calls = {"bad": kernel_scratch.Call(signature + " broken", broken, args, kwargs, *rest), **marker.calls}
    scripts, facts = measure_scripts(calls)  # the broken call is left out, the others measured in the same run
    assert facts["kernel_calls_left_out"] == 1 and facts["kernel_calls_measured"] == len(marker.calls)
    assert "bad" not in scripts

    def no_tree(*_: Any) -> Any:
        raise torch_private.missing("profile.profiler.kineto_results.experimental_event_tree")

    monkeypatch.setattr(kernel_scratch, "_scripts", {})
    monkeypatch.setattr(torch_private, "allocations_in_ranges", no_tree)
    scripts, facts = measure_scripts(marker.calls)
    assert scripts == {} and facts["kernel_calls_left_out"] == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the heap replay runs glibc's own malloc")
@pytest.mark.filterwarnings("ignore:Module is None:UserWarning")
def test_a_cpu_trace_of_a_cnn_replays_its_convolutions_measured_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpuconfig.workers.tracer import point
    from gpuconfig.workers.tracer.heap import MallocReplay
    from gpuconfig.workers.tracer.point import trace_point
    from tests.workload.test_architectures import small_source

    source = small_source(tmp_path, "mobilenet_v2")
    request = {"model": source.request(), "task": "finetune", "precision": "fp32", "optimizer": "sgd", "device": "cpu"}
    streams: list[list[Any]] = []
    replays = MallocReplay.replays

    def kept(self: MallocReplay, stream: Any, top_rests: Any) -> list[int | None]:
        streams.append(list(stream))
        return replays(self, streams[-1], top_rests)

    monkeypatch.setattr(MallocReplay, "replays", kept)
    with MallocReplay() as replay:
        traced = trace_point(request, 2, 32, None, replay)
    assert traced["kernel_calls_measured"] >= 2 * 3  # each distinct convolution's forward and backward, batch norms
    assert traced["kernel_calls_left_out"] == 0
    assert traced["cpu_heap_peak_bytes"] is not None
    # The measured blocks reach the replay (the model has no GELU, whose catalog blocks are replayed too)
    assert any(kind == ALIGNED and size > 0 for _, size, kind in streams[0])
    monkeypatch.setattr(point, "MEASURED", frozenset())
    first = len(streams)
    with MallocReplay() as replay:
        trace_point(request, 2, 32, None, replay)
    assert len(streams) > first + 1  # the heap draws' streams, then the tensors alone
    assert not any(kind == ALIGNED for stream in streams[first:] for _, _, kind in stream)
    gpu = trace_point({**request, "device": "cuda"}, 2, 32)
    assert "kernel_calls_measured" not in gpu  # a GPU trace replays no heap


def test_the_cpu_allocator_line_says_what_was_measured_and_what_was_left_out() -> None:
    from gpuconfig.core.workload.estimate import Fitted, fit, measured_kernels
    from gpuconfig.core.workload.runner import Trace

    def said(*points: tuple[float, float]) -> str:
        traced = [
            {"batch": b, "seq": 32, "flops": 1.0, "kernel_calls_measured": m, "kernel_calls_left_out": out}
            for b, (m, out) in enumerate(points, start=1)
        ]
        return measured_kernels(fit(Trace("k", tuple(traced), {}, 0.0, None)))

    assert said((0, 0), (0, 0)) == ""  # a model without convolutions or batch norms: nothing said of them
    assert "measured by running" in said((5, 0), (5, 0)) and "left out" not in said((5, 0), (5, 0))
    # One point left calls out: every batch's answer is read from lines through it, so the answer says so
    assert "left out" in said((5, 0), (2, 3))
    assert measured_kernels(Fitted({}, 0, None)) == ""


def test_a_bfloat16_batch_norm_is_run_with_float32_statistics_as_its_cpu_kernel_requires() -> None:
    """Under CPU autocast a batch norm takes a bfloat16 input with float32 parameters; its fake kernel gives the
    saved statistics the input's dtype, which the real kernel refuses ("mixed dtype"): they are run as float32."""
    import torch  # noqa: TID251

    with torch_private.fake_tensor_mode():
        tracker = torch_private.recording_tracker()
        bn = torch.nn.BatchNorm2d(8)
        x = torch.ones(2, 8, 6, 6, dtype=torch.bfloat16, requires_grad=True)
        with tracker:
            marker = kernel_marker(tracker.events, [], MEASURED)
            with marker:
                torch.nn.functional.batch_norm(
                    x, bn.running_mean, bn.running_var, bn.weight, bn.bias, training=True
                ).float().sum().backward()
    assert any("batch_norm_backward" in key for key in marker.calls)
    assert measure_scripts(marker.calls)[1]["kernel_calls_left_out"] == 0
