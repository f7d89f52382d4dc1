"""The products' intensity classes: read at the nearest traced point and scaled to the fitted totals, never fitted
as lines of their own (an operator's class moves with the batch)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuconfig.core.workload.estimate import GpuSpec, fit, intensity_classes
from gpuconfig.core.workload.runner import Trace

GPU = GpuSpec("g", "G", 80 * 1024**3, 2000.0, 60.0, 400.0, 800.0, 800.0, None, 9)


TRACED = ((4, 128), (8, 128), (4, 512))  # the worker's pattern: (b0, s0), (2 b0, s0), (b0, s1)


def point(batch: int, seq: int = 128) -> dict[str, Any]:
    """A linear layer of width 768 over batch x seq tokens, whose intensity class moves up with the tokens, and the
    attention scores' product, whose class moves with the length."""
    tokens = batch * seq
    linear_flops, linear_bytes = 2 * tokens * 768 * 768, 2 * (2 * tokens * 768 + 768 * 768)
    attention_flops, attention_bytes = 4 * batch * seq * seq * 64, 2 * batch * (3 * seq * 64 + seq * seq)
    linear_class = f"mm.bfloat16.{round(4 * (linear_flops / linear_bytes)).bit_length()}"
    attention_class = f"mm.bfloat16.{round(4 * (attention_flops / attention_bytes)).bit_length()}"
    return {
        "batch": batch,
        "seq": seq,
        "flops": linear_flops + attention_flops,
        "flops_by_dtype": {"bfloat16": linear_flops + attention_flops},
        "conv_flops_by_dtype": {},
        "matmul_bytes": linear_bytes + attention_bytes,
        "by_intensity": {
            linear_class: [linear_flops, linear_bytes],
            attention_class: [attention_flops, attention_bytes],
        },
        "phases": {},
    }


def flops_priced(classes: list[tuple[str, float, float]]) -> float:
    return sum(at_rate for _, at_rate, _ in classes) * GPU.bf16_tflops * 1e12  # type: ignore[operator]


def traced() -> Any:
    return fit(Trace("k", tuple(point(b, s) for b, s in TRACED), {}, 0.0, None))


@pytest.mark.parametrize(("batch", "seq"), TRACED)
def test_at_a_traced_point_the_classes_are_that_points_own(batch: int, seq: int) -> None:
    classes = intensity_classes(traced(), batch, seq, GPU, "bf16")
    own = point(batch, seq)["by_intensity"].values()
    assert sorted(flops_priced([c]) for c in classes) == pytest.approx(sorted(flops for flops, _ in own))
    assert sorted(at_bandwidth * GPU.bandwidth_gbs * 1e9 for _, _, at_bandwidth in classes) == pytest.approx(
        sorted(moved for _, moved in own)
    )
    assert len({key for b, s in TRACED for key in point(b, s)["by_intensity"]}) > 2  # classes moved between points


@pytest.mark.parametrize(("batch", "seq"), [(1, 128), (2, 64), (16, 128), (64, 256), (4, 2048)])
def test_between_and_beyond_the_traced_points_the_classes_add_up_to_the_fitted_totals(batch: int, seq: int) -> None:
    """Fitted as lines of their own, the classes summed to 1.9 to 3.6 times the FLOPs away from the traced points."""
    fitted = traced()
    classes = intensity_classes(fitted, batch, seq, GPU, "bf16")
    assert flops_priced(classes) == pytest.approx(fitted.at("flops.bfloat16", batch, seq), rel=1e-9)
    assert flops_priced(classes) == pytest.approx(point(batch, seq)["flops"], rel=1e-6)
    moved = sum(at_bandwidth for _, _, at_bandwidth in classes) * GPU.bandwidth_gbs * 1e9
    assert moved == pytest.approx(point(batch, seq)["matmul_bytes"], rel=1e-6)


def test_a_trace_without_classes_prices_none() -> None:
    # a trace made before classes were counted
    bare = tuple({k: v for k, v in point(b, s).items() if k != "by_intensity"} for b, s in TRACED)
    assert intensity_classes(fit(Trace("k", bare, {}, 0.0, None)), 4, 128, GPU, "bf16") == []
