"""Shallow traces extended to full depth: each phase's peak on its own line, checked for linearity."""

from __future__ import annotations

from typing import Any

import pytest

from gpuconfig.core.workload import runner
from gpuconfig.core.workload.depth import LINEAR_TOLERANCE, check_depth, extrapolated, shallow_depths
from gpuconfig.core.workload.estimate import fit, memory_at
from gpuconfig.core.workload.models import ModelSource, resolve_model
from gpuconfig.core.workload.runner import Trace, plan_points, run_trace
from gpuconfig.core.workload.spec import Workload

GB = 10**9
LAYERS = 24
SHAPES = ((2, 512), (4, 512), (2, 384))


def phases(batch: int, seq: int, layers: int, bend: float = 0.0) -> dict[str, dict[str, int]]:
    """A training step's peaks: weights, gradients and states grow with depth; the backward pass's
    activations grow with depth and batch; the optimizer step holds every gradient and a large temporary
    (the embedding's), so at two layers it is the step's peak and from three on the backward pass is.
    `bend` adds a term in depth squared to the backward activations (a model whose shallow traces are
    not linear)."""
    weights = (2 + layers) * GB // 10
    activations = batch * seq * (layers * 25 * 10**4 + 10**5) + int(bend * layers * layers * GB)
    return {
        "forward": {"weights": weights, "optimizer": 2 * weights, "activations": activations - GB // 20},
        "backward": {"weights": weights, "optimizer": 2 * weights, "gradients": GB // 50, "activations": activations},
        "optimizer step": {"weights": weights, "gradients": weights, "optimizer": 2 * weights + GB // 4},
    }


def point(batch: int, seq: int, layers: int | None, bend: float = 0.0) -> dict[str, Any]:
    taken = phases(batch, seq, layers or LAYERS, bend)
    peak = max(taken, key=lambda name: sum(taken[name].values()))
    return {
        "batch": batch,
        "seq": seq,
        "layers": layers,
        "phases": taken,
        "peak_phase": peak,
        "memory": taken[peak],
        "flops": 6 * batch * seq * (layers or LAYERS) * 10**6,
        "params": (2 + (layers or LAYERS)) * 10**7,
    }


def shallow(bend: float = 0.0) -> list[dict[str, Any]]:
    return [point(b, s, d, bend) for b, s in SHAPES for d in (2, 3, 4)]


def total(snapshot: dict[str, float]) -> float:
    return sum(snapshot.values())


def test_the_peak_phase_at_each_depth_is_recorded_and_phases_are_never_mixed() -> None:
    points = shallow()
    assert [p["peak_phase"] for p in points[:3]] == ["optimizer step", "backward", "backward"]
    check = check_depth(points, LAYERS)
    assert check.linear and check.off_line < 1e-9
    assert check.peak_phases == ("optimizer step", "backward", "backward")
    assert "optimizer step at 2, backward at 3, 4 layers" in check.method()
    # One line through the step's peaks would join the optimizer step at 2 layers to the backward pass at 3
    # and 4 (activations from none to some, optimizer state from states + temporary to states alone);
    # each phase's line gives the full-depth trace's figures exactly.
    deep = point(2, 512, None)["phases"]
    (_, _, values), *_ = extrapolated(points, LAYERS)
    for phase, snapshot in deep.items():
        for category, bytes_ in snapshot.items():
            assert values[f"{phase}.{category}"] == pytest.approx(bytes_), (phase, category)


def test_the_full_depth_peak_is_the_largest_phase_with_its_own_optimizer_state() -> None:
    trace = Trace("k", tuple(shallow()), {}, 0.0, LAYERS)
    memory = memory_at(fit(trace), Workload(model="m", batch=2, seq=512, device="cpu"), 2, 512)
    deep = point(2, 512, None)["phases"]
    assert memory.phase == "backward"
    assert memory.optimizer == deep["backward"]["optimizer"] > 0
    assert memory.activations == pytest.approx(deep["backward"]["activations"], abs=2)
    assert memory.peak - memory.overhead == pytest.approx(total(deep["backward"]), abs=4)


def test_a_batch_that_moves_the_peak_to_another_phase_is_fitted_phase_by_phase() -> None:
    # Traced at full depth: the optimizer step's peak does not grow with the batch, the backward pass's does;
    # asked for a batch below the traced ones, the optimizer step is the peak and keeps its whole gradients.
    trace = Trace("k", tuple(point(b, s, None) for b, s in SHAPES), {}, 0.0, None)
    memory = memory_at(fit(trace), Workload(model="m", batch=1, seq=16, device="cpu"), 1, 16)
    step = point(1, 16, None)["phases"]["optimizer step"]
    assert memory.phase == "optimizer step"
    assert memory.gradients == step["gradients"]
    assert memory.activations == 0


def test_shallow_traces_off_a_line_are_not_linear_and_say_which_quantity() -> None:
    check = check_depth(shallow(bend=0.05), LAYERS)
    assert not check.linear
    assert check.off_line > LINEAR_TOLERANCE
    assert check.worst.startswith(("backward", "forward"))
    assert "activations" in check.worst
    assert "NOT linear" in check.method()
    assert check.worst in check.fallback()


def test_lines_that_cross_between_the_deepest_trace_and_the_full_depth_are_not_used() -> None:
    # One sample of 512 tokens: the optimizer step peaks at 2, 3 and 4 layers, but the backward pass's
    # activations grow faster with depth and overtake it at 14 layers, where no trace has looked.
    points = [point(b, s, d) for b, s in ((1, 512), (2, 512), (1, 256)) for d in (2, 3, 4)]
    check = check_depth(points, LAYERS)
    assert check.linear and check.peak_phases == ("optimizer step",) * 3
    assert not check.usable
    assert check.crossing == "optimizer step to backward (batch 1, length 512)"
    assert "move from optimizer step to backward" in check.fallback()
    assert check_depth(shallow(), LAYERS).usable


def test_a_nonlinear_shallow_trace_is_replaced_by_the_full_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    source = resolve_model("llama-2-70b")
    traced: list[list[tuple[int, int, int | None]]] = []

    def trace_at(_source: Any, _workload: Any, points: list[tuple[int, int, int | None]], depth: Any, *_: Any) -> Trace:
        traced.append(points)
        return Trace(str(len(traced)), tuple(point(b, s, d, bend=0.05) for b, s, d in points), {}, 1.0, depth)

    monkeypatch.setattr(runner, "trace_python", lambda: None)
    monkeypatch.setattr(runner, "trace_at", trace_at)
    trace = run_trace(source, Workload(model="llama-2-70b", batch=2, seq=512, device="cpu"), 2, 512)
    assert [d for _, _, d in traced[0]] == [2, 3, 4] * 3
    assert traced[1] == [(2, 512, None), (4, 512, None), (2, 256, None)]
    assert trace.layers is None and "off a line in depth" in trace.fallback
    method = fit(trace).method(source.layers)
    assert method.startswith(f"traced at full depth ({source.layers} layers): at 2, 3, 4 layers")


@pytest.mark.parametrize(
    ("model", "task", "full"),
    [
        ("bert-large", "finetune", True),  # 24 layers: a full trace takes about 20 s
        ("gpt2-medium", "inference", True),
        ("qwen2.5-72b", "inference", True),  # 80 layers of one forward pass: about 8 s
        ("qwen2.5-32b", "finetune", True),  # 64 layers: about 51 s
        ("qwen2.5-72b", "finetune", False),  # 80 layers: about 64 s; extended from 2, 3, 4
        ("llama-2-70b", "lora", False),
    ],
)
def test_the_full_depth_is_traced_when_it_is_cheap(model: str, task: str, full: bool) -> None:
    workload = Workload(model=model, task=task, batch=1, seq=512, device="cpu")
    points, depth = plan_points(resolve_model(model), 1, 512, workload.training)
    if full:
        assert depth is None and {d for _, _, d in points} == {None}
    else:
        assert depth is not None and sorted({d for _, _, d in points if d is not None}) == [2, 3, 4]


@pytest.mark.parametrize(
    ("config", "pattern", "depths"),
    [
        ({"num_hidden_layers": 32}, (0, 1), (2, 3, 4)),  # every layer alike
        ({"num_hidden_layers": 61, "first_k_dense_replace": 3}, (3, 1), (5, 6, 7)),  # DeepSeek-V3
        ({"num_hidden_layers": 24, "decoder_sparse_step": 2}, (0, 2), (2, 4, 6)),  # every other layer sparse
        (
            {"num_hidden_layers": 12, "layer_types": ["sliding_attention"] * 5 + ["full_attention"]},
            (0, 6),
            (6, 12, 18),
        ),  # Gemma 3: five sliding-window layers, then a global one
        ({"num_hidden_layers": 8, "layer_types": ["sliding_attention", "full_attention"] * 4}, (0, 2), (2, 4, 6)),
        ({"num_hidden_layers": 24, "mlp_only_layers": [0, 5]}, None, None),  # dense layers named one by one
    ],
)
def test_the_depths_traced_follow_how_the_config_repeats_its_layers(
    config: dict[str, object], pattern: tuple[int, int] | None, depths: tuple[int, ...] | None
) -> None:
    source = ModelSource(ref="x", kind="hf_config", name="x", family="llm", config=config)
    assert source.depth_pattern() == pattern
    if pattern is not None:
        assert shallow_depths(*pattern) == depths


def test_periods_from_several_fields_combine_to_their_least_common_multiple() -> None:
    config = {"num_hidden_layers": 48, "decoder_sparse_step": 2, "sliding_window_pattern": 3}
    source = ModelSource(ref="x", kind="hf_config", name="x", family="llm", config=config)
    assert source.depth_pattern() == (0, 6)
    listed = {"num_hidden_layers": 24, "moe_layer_freq": [0, 1] * 12}  # sparse layers named one by one
    assert ModelSource(ref="x", kind="hf_config", name="x", family="llm", config=listed).depth_pattern() is None


DEEP = 80  # llama-2-70b's layers


def fake_trace_at(traced: list[list[tuple[int, int, int | None]]], made: Any) -> Any:
    """A worker that returns made(batch, seq, layers) for each point asked, a full-depth one at DEEP layers."""

    def trace_at(_source: Any, _workload: Any, points: list[tuple[int, int, int | None]], depth: Any, *_: Any) -> Trace:
        traced.append(points)
        found = tuple({**made(b, s, d or DEEP), "layers": d} for b, s, d in points)
        return Trace(str(len(traced)), found, {}, 1.0, depth)

    return trace_at


def with_reserved(batch: int, seq: int, layers: int | None) -> dict[str, Any]:
    """A CUDA trace's point: the caching allocator reserves 10 % over the step's peak, and 1 GB more at an odd
    depth (its segments step as the model deepens), so the reserved memory is off any line in depth."""
    made = point(batch, seq, layers)
    depth = layers or LAYERS
    made["cuda_reserved_peak_bytes"] = int(1.1 * total(made["memory"])) + (depth % 2) * GB
    return made


def test_reserved_memory_is_read_at_full_depth_for_the_asked_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    source = resolve_model("llama-2-70b")
    traced: list[list[tuple[int, int, int | None]]] = []
    monkeypatch.setattr(runner, "trace_python", lambda: None)
    monkeypatch.setattr(runner, "trace_at", fake_trace_at(traced, with_reserved))
    shallow_check = check_depth([with_reserved(b, s, d) for b, s in SHAPES for d in (2, 3, 4)], DEEP)
    assert shallow_check.usable  # the reserved memory is off a line, but it is not extended
    trace = run_trace(source, Workload(model="llama-2-70b", batch=4, seq=512, device="cpu"), 4, 512)
    assert traced[1] == [(4, 512, None)]  # one shape, the one asked, at full depth
    assert len(traced) == 2 and trace.layers == DEEP and not trace.fallback
    by_shape = {(b, s): values for b, s, values in extrapolated(trace.points, DEEP)}
    asked = with_reserved(4, 512, DEEP)
    assert by_shape[4, 512]["cuda_reserved_peak_bytes"] == asked["cuda_reserved_peak_bytes"]
    share = asked["cuda_reserved_peak_bytes"] / total(asked["memory"])
    other = point(8, 512, DEEP)
    assert by_shape[8, 512]["cuda_reserved_peak_bytes"] == pytest.approx(share * total(other["memory"]))
    method = fit(trace).method(source.layers)
    assert "batch 4 at length 512 also traced at full depth" in method


def test_a_shape_whose_lines_cross_is_traced_at_full_depth_and_read_there(monkeypatch: pytest.MonkeyPatch) -> None:
    source = resolve_model("llama-2-70b")
    traced: list[list[tuple[int, int, int | None]]] = []
    monkeypatch.setattr(runner, "trace_python", lambda: None)
    monkeypatch.setattr(runner, "trace_at", fake_trace_at(traced, point))
    trace = run_trace(source, Workload(model="llama-2-70b", batch=1, seq=512, device="cpu"), 1, 512)
    # The optimizer step peaks at 2, 3 and 4 layers; the backward pass overtakes it before full depth.
    assert traced[1] == [(1, 512, None)]
    check = check_depth(trace.points, DEEP)
    assert check.usable and check.anchored == ((1, 512),) and not check.crossing
    memory = memory_at(fit(trace), Workload(model="m", batch=1, seq=512, device="cpu"), 1, 512)
    deep = point(1, 512, DEEP)
    assert memory.phase == deep["peak_phase"] == "backward"
    assert memory.peak - memory.overhead == pytest.approx(total(deep["memory"]), abs=4)


def test_a_full_depth_trace_off_the_shallow_lines_brings_the_whole_full_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    def bent_at_full_depth(batch: int, seq: int, layers: int | None) -> dict[str, Any]:
        made = with_reserved(batch, seq, layers)
        if layers == DEEP:  # 5 % more activations than the shallow lines say
            for snapshot in made["phases"].values():
                if "activations" in snapshot:
                    snapshot["activations"] = int(snapshot["activations"] * 1.05)
        return made

    source = resolve_model("llama-2-70b")
    traced: list[list[tuple[int, int, int | None]]] = []
    monkeypatch.setattr(runner, "trace_python", lambda: None)
    monkeypatch.setattr(runner, "trace_at", fake_trace_at(traced, bent_at_full_depth))
    trace = run_trace(source, Workload(model="llama-2-70b", batch=4, seq=512, device="cpu"), 4, 512)
    assert traced[1] == [(4, 512, None)]
    assert traced[2] == [(8, 512, None), (4, 256, None)]  # the anchor's own full-depth trace is kept
    assert [(p["batch"], p["seq"], p["layers"]) for p in trace.points] == [
        (4, 512, None),
        (8, 512, None),
        (4, 256, None),
    ]
    assert trace.layers is None
    assert "off the line through 2, 3, 4 layers and the full-depth trace" in trace.fallback


def test_a_phase_that_does_not_peak_may_peak_at_another_moment_at_full_depth() -> None:
    # A step that peaks in the optimizer step at every depth; at full depth the backward pass peaks at another
    # moment (on its gradients, not its activations), with the same total. That changes no figure of the step's
    # peak, so the lines hold; the same move in the optimizer step, the step's peak, does not.
    shapes = ((1, 128), (2, 128), (1, 64))
    points = [point(b, s, d) for b, s in shapes for d in (2, 3, 4)]
    anchor = point(1, 128, LAYERS)
    assert anchor["peak_phase"] == "optimizer step"
    backward = anchor["phases"]["backward"]
    moved = {**backward, "activations": 0, "gradients": backward["gradients"] + backward["activations"]}
    check = check_depth([*points, {**anchor, "phases": {**anchor["phases"], "backward": moved}}], LAYERS)
    assert check.usable and check.off_line < 1e-9 and check.anchored == ((1, 128),)
    step = anchor["phases"]["optimizer step"]
    shifted = {**step, "gradients": 0, "optimizer": step["optimizer"] + step["gradients"]}
    check = check_depth([*points, {**anchor, "phases": {**anchor["phases"], "optimizer step": shifted}}], LAYERS)
    assert not check.linear and check.worst.startswith("optimizer step")


def test_a_full_depth_trace_lends_no_figure_that_mixes_moments_of_a_phase_into_the_fit() -> None:
    # Two shapes traced at full depth whose backward pass peaks at another moment there (on its gradients, not
    # its activations, the same total). The fit over shapes must not join that moment with the lines' one of the
    # third shape: asked for a larger batch and length, the step's parts are the lines' figures.
    shapes = ((1, 128), (2, 128), (1, 64))
    points = [point(b, s, d) for b, s in shapes for d in (2, 3, 4)]
    for batch, seq in shapes[:2]:
        anchor = point(batch, seq, LAYERS)
        backward = anchor["phases"]["backward"]
        moved = 3 * backward["activations"] // 4
        anchor["phases"]["backward"] = {
            **backward, "activations": backward["activations"] - moved, "gradients": backward["gradients"] + moved
        }  # fmt: skip
        points.append(anchor)
    trace = Trace("k", tuple(points), {}, 0.0, LAYERS)
    assert check_depth(trace.points, LAYERS).usable
    memory = memory_at(fit(trace), Workload(model="m", batch=8, seq=512, device="cpu"), 8, 512)
    deep = point(8, 512, LAYERS)
    assert memory.phase == deep["peak_phase"] == "backward"
    assert memory.activations == pytest.approx(deep["memory"]["activations"], rel=0.001)
    assert memory.gradients == pytest.approx(deep["memory"]["gradients"], rel=0.001)
    assert memory.peak - memory.overhead == pytest.approx(total(deep["memory"]), rel=0.001)


def test_progress_counts_on_through_the_full_depth_traces(monkeypatch: pytest.MonkeyPatch) -> None:
    def trace_at(
        _s: Any, _w: Any, points: list[tuple[int, int, int | None]], depth: Any, _p: Any, progress: Any, *_: Any
    ) -> Trace:
        for done in range(1, len(points) + 1):
            progress(done, len(points), "a point")
        return Trace("k", tuple({**with_reserved(b, s, d or DEEP), "layers": d} for b, s, d in points), {}, 1.0, depth)

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(runner, "trace_python", lambda: None)
    monkeypatch.setattr(runner, "trace_at", trace_at)
    workload = Workload(model="llama-2-70b", batch=4, seq=512, device="cpu")
    run_trace(resolve_model("llama-2-70b"), workload, 4, 512, lambda done, total, _: seen.append((done, total)))
    assert seen[8:] == [(9, 9), (10, 10)]  # nine shallow points, then the asked shape at full depth
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
