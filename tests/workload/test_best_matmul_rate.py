"""A card's best measured BF16 matmul rate (published Maximum Achievable Matmul FLOPS), where the catalog has one,
prices its FP16 and BF16 products instead of the datasheet's dense rate; a probe's own rates replace it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuconfig.core.userdata.store import open_default_store
from gpuconfig.core.workload.answer import gpu_spec, timing_record
from gpuconfig.core.workload.estimate import Efficiency, Fitted, GpuSpec, NoRate, Term, rate_tflops, time_at
from gpuconfig.core.workload.measured import measured_spec, read_report
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.spec import Workload

SPECS = {"memory_gb": 80, "memory_bandwidth_gbs": 3350, "fp32_tflops": 67, "tf32_tensor_tflops": 494.7,
         "fp16_tensor_tflops": 989.4, "bf16_tensor_tflops": 989.4, "fp8_tensor_tflops": 1978.9,
         "bf16_matmul_best_tflops": 794.5, "compute_capability": "9.0"}  # fmt: skip


def test_half_precision_products_take_the_best_measured_rate_and_the_others_the_datasheets() -> None:
    gpu = GpuSpec.from_specs("h", "H100-like", SPECS)
    assert gpu.best_half_tflops == 794.5
    assert rate_tflops(gpu, "bfloat16", "amp_bf16") == 794.5
    assert rate_tflops(gpu, "float16", "amp_fp16") == 794.5  # the same tensor cores
    assert rate_tflops(gpu, "float32", "tf32") == 494.7
    assert rate_tflops(gpu, "float32", "fp32") == 67
    assert rate_tflops(gpu, "bfloat16", "fp8") == 1978.9
    plain = GpuSpec.from_specs(
        "p", "Datasheet only", {k: v for k, v in SPECS.items() if k != "bf16_matmul_best_tflops"}
    )
    assert rate_tflops(plain, "bfloat16", "amp_bf16") == 989.4


def test_the_catalog_cards_with_a_published_figure_carry_it() -> None:
    store = open_default_store()
    h100 = gpu_spec(store, "nvidia-h100-sxm")
    assert h100.best_half_tflops is not None and h100.best_half_tflops < (h100.bf16_tflops or 0)
    part = store.part("nvidia-h100-sxm")
    assert part is not None
    source = part.source_for("bf16_matmul_best_tflops")
    assert source is not None and "bf16_matmul_best_tflops" in source.fields and "ml-engineering" in source.url


def test_the_answer_names_the_rate_and_a_probe_report_replaces_it() -> None:
    fitted = Fitted({"flops.bfloat16": Term(1e15, 0.0, 0.0), "flops": Term(1e15, 0.0, 0.0)}, 0, None)
    workload = Workload(model="gpt2", task="finetune", precision="amp_bf16", batch=1)
    gpu = GpuSpec.from_specs("h", "H100-like", SPECS)
    efficiency = Efficiency(1.0, 1.0, "test", 1.0)
    timing = time_at(fitted, workload, resolve_model("gpt2"), 1, 128, gpu, efficiency)
    assert timing.step_seconds == pytest.approx(1e15 / 794.5e12)
    assert "794 TFLOPS" in timing.matmul_basis and "989 TFLOPS" in timing.matmul_basis
    assert timing_record(timing)["matmul_rate_basis"] == timing.matmul_basis
    in_fp32 = Fitted({"flops.float32": Term(1e15, 0.0, 0.0), "flops": Term(1e15, 0.0, 0.0)}, 0, None)
    fp32 = time_at(in_fp32, workload.with_changes(precision="fp32"), resolve_model("gpt2"), 1, 128, gpu, efficiency)
    assert fp32.matmul_basis == "" and fp32.step_seconds == pytest.approx(1e15 / 67e12)  # no half products
    report = read_report(
        Path(__file__).parents[2] / "benchmarks" / "results" / "gpu_h100" / "probe_quick_2026-11-26.json"
    )
    measured = measured_spec(report, "cuda", gpu, "h100.json")
    assert measured.best_half_tflops is None  # the machine's own matmuls replace the published card's
    assert rate_tflops(measured, "bfloat16", "amp_bf16") == measured.bf16_tflops == 705.346922
    measured_timing = time_at(fitted, workload, resolve_model("gpt2"), 1, 128, measured, efficiency)
    assert measured_timing.matmul_basis == ""  # priced at the probe's own rate, which the answer names elsewhere
    fp8 = time_at(fitted, workload.with_changes(precision="fp8"), resolve_model("gpt2"), 1, 128, gpu, efficiency)
    assert fp8.matmul_basis == "" and fp8.step_seconds == pytest.approx(1e15 / 1978.9e12)


@pytest.mark.parametrize(
    ("part_id", "dtype", "precision", "why"),
    [
        ("nvidia-geforce-rtx-3070", "bfloat16", "fp8", "(compute capability 8.6) has no FP8 tensor cores"),
        ("nvidia-geforce-gtx-1080", "bfloat16", "amp_bf16", "(compute capability 6.1) has no BF16 tensor cores"),
    ],
)
def test_a_card_without_the_units_is_said_to_lack_them_not_the_catalog(
    part_id: str, dtype: str, precision: str, why: str
) -> None:
    gpu = gpu_spec(open_default_store(), part_id)
    with pytest.raises(NoRate, match=re.escape(why)):
        rate_tflops(gpu, dtype, precision)
