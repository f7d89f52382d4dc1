"""torch.compile in the time estimate: the other operators' bytes and the kernels launched are the fused kernels'
(the trace's fused_bytes and fused_kernels), batch normalization is one of them, and the answer names the eager
figures beside them."""

from __future__ import annotations

import pytest

from gpuconfig.core.workload.answer import timing_record
from gpuconfig.core.workload.estimate import DecodeEfficiency, Efficiency, Fitted, GpuSpec, Term, time_at
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.spec import Workload, summary

GB = 1e9
EAGER_BYTES, FUSED_BYTES, NORM_BYTES = 100 * GB, 40 * GB, 30 * GB
EAGER_KERNELS, FUSED_KERNELS = 5000.0, 2000.0
GPU = GpuSpec("dc", "Datacenter", 80 * 1024**3, 2000.0, 19.5, 156.0, 312.0, 312.0, None, 8, 0)
EFFICIENCY = Efficiency(1.0, 0.5, "test", 1.0, batch_norm_cycles_per_element=4.0)
LAUNCH = 1e-3  # a second a thousand kernels: long enough to set the pace


def fitted() -> Fitted:
    terms = {
        "other_bytes": Term(EAGER_BYTES, 0.0, 0.0),
        "fused_bytes": Term(FUSED_BYTES, 0.0, 0.0),
        "batch_norm_bytes": Term(NORM_BYTES, 0.0, 0.0),
        "batch_norm_elements": Term(NORM_BYTES / 2, 0.0, 0.0),
        "kernels": Term(EAGER_KERNELS, 0.0, 0.0),
        "fused_kernels": Term(FUSED_KERNELS, 0.0, 0.0),
    }
    return Fitted(terms, 0, None)


def timing(decode: DecodeEfficiency | None = None, **changes: object):  # type: ignore[no-untyped-def]
    workload = Workload(model="resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", batch=1)
    return time_at(
        fitted(), workload.with_changes(**changes), resolve_model("resnet-50"), 1, 224, GPU, EFFICIENCY, decode
    )


def test_compiled_the_other_operators_move_the_fused_bytes_and_batch_norm_is_not_paced() -> None:
    compiled = timing(torch_compile=True)
    assert compiled.step_seconds == pytest.approx(FUSED_BYTES / (2000 * GB * 0.5))
    assert compiled.memory_seconds == pytest.approx(FUSED_BYTES / (2000 * GB))
    assert compiled.eager_memory_seconds == pytest.approx(EAGER_BYTES / (2000 * GB))
    assert compiled.batch_norm_sm_seconds == 0 and compiled.torch_compile
    eager = timing()
    assert eager.batch_norm_sm_seconds > 0 and not eager.torch_compile  # channels-first, paced by the SMs
    assert eager.step_seconds > EAGER_BYTES / (2000 * GB * 0.5)


def test_compiled_launches_the_fused_kernels() -> None:
    decode = DecodeEfficiency(0.8, LAUNCH, "test")
    compiled, eager = timing(decode, torch_compile=True), timing(decode)
    assert compiled.bound == eager.bound == "kernel launches"
    assert compiled.step_seconds == pytest.approx(FUSED_KERNELS * LAUNCH)
    assert eager.step_seconds == pytest.approx(EAGER_KERNELS * LAUNCH)


def test_the_answer_names_the_eager_figures_beside_the_fused_ones() -> None:
    record = timing_record(timing(torch_compile=True))
    assert record["torch_compile"] == {
        "fused": True,
        "eager_memory_seconds": pytest.approx(EAGER_BYTES / (2000 * GB)),
        "eager_kernels_per_micro_batch": 5000,
    }
    assert record["kernels_per_micro_batch"] == 2000
    assert timing_record(timing())["torch_compile"]["fused"] is False


def test_the_workload_summary_says_torch_compile() -> None:
    workload = Workload(model="gpt2", torch_compile=True)
    assert "torch.compile" in summary(workload)
    assert "torch.compile" not in summary(workload.with_changes(torch_compile=False))
