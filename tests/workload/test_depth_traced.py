"""Real traces: a model extended from 2, 3 and 4 layers against the same model traced at full depth."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuconfig.core.workload.depth import (
    PHASES,
    SHALLOW_LAYERS,
    check_depth,
    extrapolated,
    quantities,
    shallow_depths,
)
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.runner import trace_at
from gpuconfig.core.workload.spec import Workload

DATA = Path(__file__).parents[1] / "data"
MEMORY = ("weights", "buffers", "gradients", "optimizer", "activations", "temporaries", "inputs")


def step_peak(values: dict[str, float]) -> tuple[str, float]:
    """The phase the step peaks in and its tensors, from one point's quantities."""
    totals = {p: sum(values.get(f"{p}.{c}", 0.0) for c in MEMORY) for p in PHASES if f"{p}.weights" in values}
    phase = max(totals, key=lambda p: totals[p])
    return phase, totals[phase]


@pytest.mark.parametrize(
    ("model", "task", "batch", "seq", "checkpointing"),
    [
        ("bert-large", "pretrain", 2, 512, False),  # BERT-large's masked-LM head
        ("bert-large", "finetune", 2, 512, False),  # at 2 layers its peak is the optimizer step, at 3 and 4 backward
        ("gpt2-medium", "inference", 8, 1024, False),
        ("gpt2", "finetune", 4, 512, False),
        ("gpt2", "finetune", 4, 512, True),
    ],
)
def test_extended_shallow_traces_match_the_full_depth_trace(
    model: str, task: str, batch: int, seq: int, checkpointing: bool
) -> None:
    source = resolve_model(model)
    assert source.layers is not None
    workload = Workload(
        model=model, task=task, batch=batch, seq=seq, precision="fp32", device="cpu", checkpointing=checkpointing
    )
    shallow = trace_at(source, workload, [(batch, seq, d) for d in SHALLOW_LAYERS], source.layers)
    (deep,) = trace_at(source, workload, [(batch, seq, None)], None).points
    check = check_depth(shallow.points, source.layers)
    assert check.usable, check.method()
    assert len(check.peak_phases) == len(SHALLOW_LAYERS)
    ((_, _, extended),) = extrapolated(shallow.points, source.layers)
    full = quantities(deep)
    phase, peak = step_peak(extended)
    assert phase == deep["peak_phase"]
    assert peak == pytest.approx(step_peak(full)[1], rel=0.01)
    for part in ("weights", "gradients", "optimizer", "activations"):
        assert extended[f"{phase}.{part}"] == pytest.approx(full[f"{phase}.{part}"], rel=0.01, abs=2**20), part
    if workload.training:  # every phase of a training step holds the optimizer's states
        assert extended[f"{phase}.optimizer"] >= 2 * extended[f"{phase}.weights"] > 0


def test_a_model_whose_first_layers_differ_is_traced_past_them(tmp_path: Path) -> None:
    """A DeepSeek-V3 shape with three dense layers before its mixture-of-experts ones: at 2, 3 and 4 layers the
    step from 3 to 4 adds the first expert layer and the line breaks; the depths its config calls for (the
    three dense layers and one, two, three expert layers) extend to the full depth exactly."""
    config = tmp_path / "tiny-deepseek" / "config.json"
    config.parent.mkdir()
    shutil.copy(DATA / "tiny_deepseek_v3.json", config)
    source = resolve_model(str(config))
    assert source.depth_pattern() == (3, 1) and source.layers == 9
    depths = shallow_depths(*source.depth_pattern())
    assert depths == (5, 6, 7)
    workload = Workload(model=str(config), task="finetune", batch=2, seq=64, precision="fp32", device="cpu")
    naive = trace_at(source, workload, [(2, 64, d) for d in SHALLOW_LAYERS], source.layers)
    assert not check_depth(naive.points, source.layers).usable
    shallow = trace_at(source, workload, [(2, 64, d) for d in depths], source.layers)
    check = check_depth(shallow.points, source.layers)
    assert check.usable, check.method()
    (deep,) = trace_at(source, workload, [(2, 64, None)], None).points
    ((_, _, extended),) = extrapolated(shallow.points, source.layers)
    full, phase = quantities(deep), deep["peak_phase"]
    for part in ("weights", "optimizer", "activations", "temporaries"):
        assert extended[f"{phase}.{part}"] == pytest.approx(full[f"{phase}.{part}"], rel=0.001, abs=1024), part


def test_the_asked_shape_is_replayed_at_full_depth_and_the_others_share_its_reserved_memory() -> None:
    """A CUDA trace: the caching allocator's reserved memory is read at full depth for the shape asked (an
    anchor), exactly the full-depth trace's; the shallow lines are held to that trace, and every other shape's
    reserved memory is within the 10 % band of its own full-depth replay (benchmarks/reserved_depth.py)."""
    from gpuconfig.core.workload.runner import traced_shapes, with_anchors

    source = resolve_model("gpt2")
    assert source.layers is not None
    workload = Workload(model="gpt2", task="finetune", batch=4, seq=512, precision="bf16", device="cuda")
    shapes = traced_shapes(source, 4, 512)
    shallow = trace_at(source, workload, [(b, s, d) for b, s in shapes for d in SHALLOW_LAYERS], source.layers)
    anchored = with_anchors(source, workload, shallow, source.layers)
    check = check_depth(anchored.points, source.layers)
    assert check.usable, check.method()
    assert (4, 512) in check.anchored and "also traced at full depth" in check.method()
    full = {
        (p["batch"], p["seq"]): quantities(p)
        for p in trace_at(source, workload, [(b, s, None) for b, s in shapes], None).points
    }
    for batch, seq, values in extrapolated(anchored.points, source.layers):
        reserved = full[batch, seq]["cuda_reserved_peak_bytes"]
        assert reserved > 0
        if (batch, seq) in check.anchored:
            assert values["cuda_reserved_peak_bytes"] == reserved
        else:
            assert values["cuda_reserved_peak_bytes"] == pytest.approx(reserved, rel=0.10)
        phase, peak = step_peak(values)
        assert peak == pytest.approx(step_peak(full[batch, seq])[1], rel=0.01), (batch, seq, phase)
