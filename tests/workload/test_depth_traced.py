"""Real traces: a model extended from 2, 3 and 4 layers against the same model traced at full depth."""

from __future__ import annotations

import pytest

from gpuconfig.core.workload.depth import PHASES, SHALLOW_LAYERS, check_depth, extrapolated, quantities
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.runner import trace_at
from gpuconfig.core.workload.spec import Workload

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
